package deploy

// Shared helpers, and the checks that tie every deployment file and the
// operator guide to the config package: no V1GW_* variable that the gateway
// does not know, and a configuration table that lists every setting.
//
// The other files check one kind of deployment each: kubernetes_test.go,
// compose_test.go, dockerfile_test.go.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/limiter"
)

// repoRoot walks up from the working directory to the directory holding
// go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// readFile returns the content of root-relative path rel.
func readFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// yamlDocs parses every document of a YAML file; empty documents are
// skipped.
func yamlDocs(path string) ([]*yaml.Node, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	var docs []*yaml.Node
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		if len(n.Content) == 0 || (n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null") {
			continue
		}
		docs = append(docs, &n)
	}
}

// deployFiles lists the root-relative paths of the files under deploy/
// matching keep.
func deployFiles(t *testing.T, keep func(rel string) bool) []string {
	t.Helper()
	root := repoRoot(t)
	var out []string
	err := filepath.WalkDir(filepath.Join(root, "deploy"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if keep(rel) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// isYAML: a YAML file under deploy/, but for the Helm chart's templates,
// which are YAML only once rendered (deploy/helm's own tests render them).
func isYAML(rel string) bool {
	if strings.HasPrefix(rel, "deploy/helm/v1gateway/templates/") {
		return false
	}
	return strings.HasSuffix(rel, ".yaml") || strings.HasSuffix(rel, ".yml")
}

// TestEveryYAMLParses: every YAML file under deploy/, every document.
func TestEveryYAMLParses(t *testing.T) {
	files := deployFiles(t, isYAML)
	if len(files) < 8 {
		t.Fatalf("found only %d YAML files under deploy/: %v", len(files), files)
	}
	root := repoRoot(t)
	for _, rel := range files {
		docs, err := yamlDocs(filepath.Join(root, rel))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if len(docs) == 0 {
			t.Errorf("%s: no YAML document", rel)
		}
		for i, d := range docs {
			if d.Content[0].Kind != yaml.MappingNode {
				t.Errorf("%s: document %d is not a mapping", rel, i+1)
			}
		}
	}
}

// knownEnv is every environment variable the gateway reads: the Env of
// every config.Settings() entry, and V1GW_CONFIG (the file's own variable,
// which Settings does not list because it is not a setting of the file).
func knownEnv() map[string]bool {
	known := map[string]bool{"V1GW_CONFIG": true}
	for _, s := range config.Settings() {
		if s.Env != "" {
			known[s.Env] = true
		}
	}
	return known
}

var envRef = regexp.MustCompile(`\bV1GW_[A-Z0-9_]*[A-Z0-9]\b`)

// TestEveryV1GWVariableExists: a V1GW_* name used anywhere in deploy/, the
// Dockerfile, .dockerignore or the operator guide is one the gateway reads
// (a misspelt variable is silently ignored by the gateway, so only a test
// can catch it).
func TestEveryV1GWVariableExists(t *testing.T) {
	known := knownEnv()
	files := deployFiles(t, func(rel string) bool { return !strings.HasSuffix(rel, "_test.go") })
	files = append(files, "Dockerfile", ".dockerignore", "docs/operating.md")
	used := 0
	for _, rel := range files {
		sc := bufio.NewScanner(strings.NewReader(readFile(t, rel)))
		for line := 1; sc.Scan(); line++ {
			for _, name := range envRef.FindAllString(sc.Text(), -1) {
				used++
				if !known[name] {
					t.Errorf("%s:%d: %s is not a setting of the gateway (config.Settings())", rel, line, name)
				}
			}
		}
	}
	if used == 0 {
		t.Fatal("no V1GW_* variable found at all: the scan is broken")
	}
}

// tableRows returns the rows of the first Markdown table after the heading
// line equal to heading, each as its trimmed cells.
func tableRows(t *testing.T, doc, heading string) [][]string {
	t.Helper()
	var rows [][]string
	in, inTable := false, false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "#") {
			if in && inTable {
				break
			}
			in = strings.TrimSpace(line) == heading
			continue
		}
		if !in {
			continue
		}
		if strings.HasPrefix(line, "|") {
			inTable = true
			cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
				continue // the separator row
			}
			rows = append(rows, cells)
		} else if inTable {
			break
		}
	}
	if len(rows) < 2 {
		t.Fatalf("no table under %q", heading)
	}
	return rows[1:] // without the header row
}

// settingsTables are the documents that show the configuration table, and
// the heading each table sits under. Each must list every setting of
// config.Settings() — the table -h prints — in exactly one row with its
// flag, variable, YAML key and default, and nothing else, so that the
// README, the operator guide and the chart's values (deploy/helm, whose own
// test checks its values against the same table) cannot drift apart. The
// meaning cell is each document's own words: the README's is shorter.
var settingsTables = []struct{ doc, heading string }{
	{"README.md", "## Configuration"},
	{"docs/operating.md", "## Configuration reference"},
}

// TestConfigurationTable: the README's and the operator guide's
// configuration tables list exactly the settings of config.Settings(),
// each with its flag, variable, YAML key and default.
func TestConfigurationTable(t *testing.T) {
	for _, st := range settingsTables {
		t.Run(st.doc, func(t *testing.T) {
			checkSettingsTable(t, st.doc, tableRows(t, readFile(t, st.doc), st.heading))
		})
	}
}

// checkSettingsTable checks the rows of one document's configuration table
// against config.Settings(); a missing row's message is the row to add.
func checkSettingsTable(t *testing.T, doc string, rows [][]string) {
	t.Helper()
	code := func(s string) string { return "`" + s + "`" }
	cell := func(name string) string {
		if name == "" {
			return "—"
		}
		return code(name)
	}
	matched := make([]bool, len(rows))
	for _, s := range config.Settings() {
		flag := ""
		if s.Flag != "" {
			flag = "-" + s.Flag
		}
		found := -1
		for i, r := range rows {
			if len(r) >= 3 && r[2] == code(s.Key) {
				if found >= 0 {
					t.Errorf("%s: setting %s has two rows", doc, s.Key)
				}
				found = i
			}
		}
		if found < 0 {
			def := "—"
			if s.Default != "" {
				def = code(s.Default)
			}
			if strings.Contains(s.Default, " ") {
				def = s.Default // words, such as "random per process"
			}
			t.Errorf("%s: the configuration table has no row for setting %q (flag %q, env %q): add | %s | %s | %s | %s | %s |",
				doc, s.Key, flag, s.Env, cell(flag), cell(s.Env), code(s.Key), def, s.Help)
			continue
		}
		matched[found] = true
		r := rows[found]
		if len(r) != 5 {
			t.Errorf("%s: row of %s has %d cells, want 5 (flag, env, YAML key, default, meaning)", doc, s.Key, len(r))
			continue
		}
		if r[0] != cell(flag) {
			t.Errorf("%s: row of %s: flag cell %q, want %q", doc, s.Key, r[0], cell(flag))
		}
		if r[1] != cell(s.Env) {
			t.Errorf("%s: row of %s: env cell %q, want %q", doc, s.Key, r[1], cell(s.Env))
		}
		if s.Default != "" && !strings.Contains(r[3], s.Default) {
			t.Errorf("%s: row of %s: default cell %q does not show the default %q", doc, s.Key, r[3], s.Default)
		}
		if strings.TrimSpace(r[4]) == "" {
			t.Errorf("%s: row of %s has no meaning", doc, s.Key)
		}
	}
	for i, r := range rows {
		if matched[i] {
			continue
		}
		// The one row that is not a setting of the file: -config itself.
		if len(r) >= 2 && r[0] == "`-config`" && r[1] == "`V1GW_CONFIG`" {
			continue
		}
		t.Errorf("%s: configuration table row %v is not a setting of config.Settings()", doc, r)
	}
}

// TestReadmeLinksOperatorGuide: README.md points at the guide that holds
// the configuration reference and the deployments.
func TestReadmeLinksOperatorGuide(t *testing.T) {
	if !strings.Contains(readFile(t, "README.md"), "docs/operating.md") {
		t.Error("README.md does not link docs/operating.md")
	}
}

// TestGuideRedisURLs: every Redis URL of the guide's table parses as the
// limiter parses V1GW_REDIS_URL.
func TestGuideRedisURLs(t *testing.T) {
	rows := tableRows(t, readFile(t, "docs/operating.md"), "## Redis choices")
	urlRe := regexp.MustCompile("`([a-z-]+://[^`]+)`")
	n := 0
	for _, r := range rows {
		for _, c := range r[1:] {
			for _, m := range urlRe.FindAllStringSubmatch(c, -1) {
				n++
				if err := limiter.CheckRedisURL(m[1]); err != nil {
					t.Errorf("docs/operating.md: Redis URL %s (%s): %v", m[1], r[0], err)
				}
				if err := loadConfig(nil, map[string]string{"V1GW_REDIS_URL": m[1]}); err != nil {
					t.Errorf("docs/operating.md: Redis URL %s (%s): %v", m[1], r[0], err)
				}
			}
		}
	}
	if n < 5 {
		t.Errorf("found %d Redis URLs in the guide's table, want at least 5 (single, TLS, cluster, sentinel, unix)", n)
	}
}

// TestGuideLinks: relative links of the operator guide and the Compose
// README point at files that exist — except COMPATIBILITY.md, which is
// written separately and only logged when absent.
func TestGuideLinks(t *testing.T) {
	root := repoRoot(t)
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	for _, rel := range []string{"docs/operating.md", "deploy/compose/README.md"} {
		for _, m := range link.FindAllStringSubmatch(readFile(t, rel), -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			p := filepath.Join(root, filepath.Dir(filepath.FromSlash(rel)), filepath.FromSlash(target))
			if _, err := os.Stat(p); err != nil {
				if filepath.Base(target) == "COMPATIBILITY.md" {
					t.Logf("%s links %s, which does not exist yet", rel, target)
					continue
				}
				t.Errorf("%s: link %s: %v", rel, target, err)
			}
		}
	}
}

// loadConfig runs config.Load with args and env (nothing else from the
// process environment) and returns its error.
func loadConfig(args []string, env map[string]string) error {
	_, err := loadConfigValue(args, env)
	return err
}

func loadConfigValue(args []string, env map[string]string) (*config.Config, error) {
	return config.Load(args, func(k string) string { return env[k] })
}

// parseEnvFile reads KEY=VALUE lines (kustomize's env files): blank lines
// and # comments are skipped.
func parseEnvFile(t *testing.T, rel string) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(readFile(t, rel)))
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			t.Errorf("%s:%d: %q is not KEY=VALUE", rel, line, s)
			continue
		}
		if _, dup := out[k]; dup {
			t.Errorf("%s:%d: %s set twice", rel, line, k)
		}
		out[k] = v
	}
	return out
}

// quantity parses a Kubernetes resource quantity ("500m", "2", "128Mi")
// into base units.
func quantity(s string) (float64, error) {
	suffixes := []struct {
		s string
		m float64
	}{
		{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40},
		{"m", 1e-3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12},
	}
	mult := 1.0
	for _, x := range suffixes {
		if strings.HasSuffix(s, x.s) {
			s, mult = strings.TrimSuffix(s, x.s), x.m
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a resource quantity", s)
	}
	return v * mult, nil
}

func TestQuantity(t *testing.T) {
	for in, want := range map[string]float64{"500m": 0.5, "2": 2, "128Mi": 128 << 20, "1Gi": 1 << 30, "1.5": 1.5, "100M": 1e8} {
		if got, err := quantity(in); err != nil || got != want {
			t.Errorf("quantity(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "-1", "12Qi"} {
		if _, err := quantity(in); err == nil {
			t.Errorf("quantity(%q) succeeded", in)
		}
	}
}

// mustDecode decodes a YAML node into v, failing the test on error.
func mustDecode(t *testing.T, where string, n *yaml.Node, v any) {
	t.Helper()
	var buf bytes.Buffer
	if err := n.Decode(v); err != nil {
		enc := yaml.NewEncoder(&buf)
		_ = enc.Encode(n)
		t.Fatalf("%s: %v\n%s", where, err, buf.String())
	}
}

// TestGuideYAMLExample: the YAML file shown in the configuration reference
// loads.
func TestGuideYAMLExample(t *testing.T) {
	doc := readFile(t, "docs/operating.md")
	_, section, ok := strings.Cut(doc, "\n## Configuration reference\n")
	if !ok {
		t.Fatal("docs/operating.md: no configuration reference")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	_, block, ok := strings.Cut(section, "```yaml\n")
	if !ok {
		t.Fatal("docs/operating.md: no YAML example in the configuration reference")
	}
	block, _, _ = strings.Cut(block, "```")
	f := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(f, []byte(block), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfigValue([]string{"-config=" + f}, map[string]string{"V1GW_KEY_HASH_SECRET": "s"})
	if err != nil {
		t.Fatalf("the guide's YAML example does not load: %v", err)
	}
	if len(cfg.KeyLimits) == 0 {
		t.Error("the guide's YAML example sets no key_limits")
	}
}
