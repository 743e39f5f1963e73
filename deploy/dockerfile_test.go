package deploy

import (
	"bytes"
	"debug/elf"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
)

// dockerInstr is one Dockerfile instruction, continuation lines joined.
type dockerInstr struct {
	cmd  string // upper case
	args string
	line int
}

type dockerStage struct {
	from   string // image reference as written
	name   string
	instrs []dockerInstr
}

type dockerfile struct {
	args   map[string]string // global ARG defaults (before the first FROM)
	stages []dockerStage
}

// parseDockerfile splits a Dockerfile into stages of instructions. It
// understands comments, line continuations and `FROM image AS name`, which
// is all this repository's Dockerfile uses.
func parseDockerfile(t *testing.T, text string) dockerfile {
	t.Helper()
	df := dockerfile{args: map[string]string{}}
	var cur strings.Builder
	start := 0
	flush := func() {
		s := strings.TrimSpace(cur.String())
		cur.Reset()
		if s == "" {
			return
		}
		cmd, args, _ := strings.Cut(s, " ")
		in := dockerInstr{cmd: strings.ToUpper(cmd), args: strings.TrimSpace(args), line: start}
		if in.cmd == "FROM" {
			f := strings.Fields(in.args)
			var st dockerStage
			for i := 0; i < len(f); i++ {
				switch {
				case strings.HasPrefix(f[i], "--"):
				case strings.EqualFold(f[i], "AS") && i+1 < len(f):
					st.name = f[i+1]
					i++
				case st.from == "":
					st.from = f[i]
				}
			}
			df.stages = append(df.stages, st)
			return
		}
		if len(df.stages) == 0 {
			if in.cmd == "ARG" {
				k, v, _ := strings.Cut(in.args, "=")
				df.args[k] = v
			}
			return
		}
		st := &df.stages[len(df.stages)-1]
		st.instrs = append(st.instrs, in)
	}
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") {
			continue // comments, also inside continued instructions
		}
		if cur.Len() == 0 {
			if trimmed == "" {
				continue
			}
			start = i + 1
		}
		if strings.HasSuffix(trimmed, "\\") {
			cur.WriteString(strings.TrimSuffix(trimmed, "\\") + " ")
			continue
		}
		cur.WriteString(trimmed)
		flush()
	}
	flush()
	return df
}

// expand fills in the global ARG defaults (which may refer to each other).
func (df dockerfile) expand(s string) string {
	for range 5 {
		for k, v := range df.args {
			s = strings.ReplaceAll(s, "${"+k+"}", v)
			s = regexp.MustCompile(`\$`+k+`\b`).ReplaceAllString(s, v)
		}
	}
	return s
}

func (s dockerStage) all(cmd string) []dockerInstr {
	var out []dockerInstr
	for _, in := range s.instrs {
		if in.cmd == cmd {
			out = append(out, in)
		}
	}
	return out
}

// makefileBuild returns the Makefile's LDFLAGS and its build recipe line.
func makefileBuild(t *testing.T) (ldflags, recipe string) {
	t.Helper()
	mk := readFile(t, "Makefile")
	m := regexp.MustCompile(`(?m)^LDFLAGS\s*:?=\s*(.+)$`).FindStringSubmatch(mk)
	if m == nil {
		t.Fatal("Makefile: no LDFLAGS")
	}
	r := regexp.MustCompile(`(?m)^\t(.*(?:go|\$\(GO\)) build .*)$`).FindStringSubmatch(mk)
	if r == nil {
		t.Fatal("Makefile: no go build recipe")
	}
	return strings.TrimSpace(m[1]), r[1]
}

// normalizeVars turns $(X), ${X} and $X into {X}.
func normalizeVars(s string) string {
	s = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`).ReplaceAllString(s, "{$1}")
	s = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`).ReplaceAllString(s, "{$1}")
	return regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`).ReplaceAllString(s, "{$1}")
}

// buildRun returns the build stage's RUN instruction that runs go build.
func buildRun(t *testing.T, df dockerfile) (dockerStage, dockerInstr) {
	t.Helper()
	for _, st := range df.stages {
		for _, in := range st.all("RUN") {
			if strings.Contains(in.args, "go build") {
				return st, in
			}
		}
	}
	t.Fatal("Dockerfile: no RUN go build")
	return dockerStage{}, dockerInstr{}
}

// TestDockerfile: multi-stage, built as `make build` builds, final stage a
// distroless static non-root image holding only the binary, both ports
// exposed, the binary's -healthcheck as HEALTHCHECK, and a v2sim target.
func TestDockerfile(t *testing.T) {
	df := parseDockerfile(t, readFile(t, "Dockerfile"))
	if len(df.stages) < 3 {
		t.Fatalf("Dockerfile has %d stages, want build, v2sim and v1gateway", len(df.stages))
	}

	// The build stage: golang at go.mod's version, the Makefile's flags.
	bst, run := buildRun(t, df)
	from := df.expand(bst.from)
	gomod := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(readFile(t, "go.mod"))
	if gomod == nil || !strings.HasPrefix(from, "docker.io/library/golang:"+gomod[1]) {
		t.Errorf("build stage FROM %s, want docker.io/library/golang:%s (go.mod)", from, gomod)
	}
	ldflags, recipe := makefileBuild(t)
	cmd := normalizeVars(run.args)
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", `-ldflags "` + normalizeVars(ldflags) + `"`} {
		if !strings.Contains(cmd, want) {
			t.Errorf("Dockerfile:%d: the go build lacks %s (Makefile: %s; LDFLAGS %s)", run.line, want, recipe, ldflags)
		}
	}
	if !strings.Contains(recipe, "CGO_ENABLED=0") || !strings.Contains(recipe, "-trimpath") {
		t.Errorf("Makefile build recipe %q changed: update the Dockerfile and this test together", recipe)
	}
	if !strings.Contains(cmd, "./cmd/...") {
		t.Errorf("Dockerfile:%d: go build should build ./cmd/... as the Makefile does", run.line)
	}
	if !strings.Contains(cmd, "main.version={VERSION}") {
		t.Errorf("Dockerfile:%d: main.version must come from the VERSION build argument", run.line)
	}

	// Runtime stages.
	const runtimeImage = "gcr.io/distroless/static-debian12:nonroot"
	byName := map[string]dockerStage{}
	for _, st := range df.stages {
		byName[st.name] = st
	}
	final := df.stages[len(df.stages)-1]
	if final.name != "v1gateway" {
		t.Errorf("the last (default) stage is %q, want v1gateway", final.name)
	}
	for _, c := range []struct{ stage, binary string }{{"v1gateway", "/v1gateway"}, {"v2sim", "/v2sim"}} {
		st, ok := byName[c.stage]
		if !ok {
			t.Errorf("no stage %q", c.stage)
			continue
		}
		if st.from != runtimeImage {
			t.Errorf("stage %s FROM %s, want %s", c.stage, st.from, runtimeImage)
		}
		copies := st.all("COPY")
		if len(copies) != 1 || !strings.Contains(copies[0].args, "--from="+bst.name) || !strings.HasSuffix(copies[0].args, " "+c.binary) {
			t.Errorf("stage %s: want exactly one COPY --from=%s of the binary to %s, got %v", c.stage, bst.name, c.binary, copies)
		}
		if len(st.all("RUN")) > 0 || len(st.all("ADD")) > 0 {
			t.Errorf("stage %s: no RUN or ADD in a distroless stage", c.stage)
		}
		users := st.all("USER")
		if len(users) == 0 || !regexp.MustCompile(`^(nonroot|65532)(:(nonroot|65532))?$`).MatchString(users[len(users)-1].args) {
			t.Errorf("stage %s: USER %v, want nonroot", c.stage, users)
		}
		ep := st.all("ENTRYPOINT")
		if len(ep) != 1 || ep[0].args != `["`+c.binary+`"]` {
			t.Errorf("stage %s: ENTRYPOINT %v, want [\"%s\"] (exec form)", c.stage, ep, c.binary)
		}
	}

	// Ports: exactly the gateway's default listeners.
	gw := byName["v1gateway"]
	exposed := map[string]bool{}
	for _, in := range gw.all("EXPOSE") {
		for _, p := range strings.Fields(in.args) {
			exposed[strings.TrimSuffix(p, "/tcp")] = true
		}
	}
	for _, addr := range []string{config.DefaultListen, config.DefaultAdminListen} {
		if _, p, _ := net.SplitHostPort(addr); !exposed[p] {
			t.Errorf("v1gateway stage does not EXPOSE %s (%s)", p, addr)
		}
	}
	hc := gw.all("HEALTHCHECK")
	if len(hc) != 1 || !strings.Contains(hc[0].args, `CMD ["/v1gateway", "-healthcheck"]`) {
		t.Errorf("v1gateway stage: HEALTHCHECK %v, want CMD [\"/v1gateway\", \"-healthcheck\"] (exec form: there is no shell)", hc)
	}
}

// dockerignorePattern turns one .dockerignore pattern into a regexp over
// slash-separated paths relative to the context.
func dockerignorePattern(p string) *regexp.Regexp {
	p = strings.TrimPrefix(filepath.ToSlash(filepath.Clean(p)), "/")
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case strings.HasPrefix(p[i:], "**/"):
			b.WriteString("(.*/)?")
			i += 2
		case strings.HasPrefix(p[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	// A pattern that matches a directory excludes everything below it.
	b.WriteString("(/.*)?$")
	return regexp.MustCompile(b.String())
}

// ignored reports whether rel is excluded by the .dockerignore patterns
// (later patterns win; "!" re-includes).
func ignored(patterns []string, rel string) bool {
	out := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		if dockerignorePattern(strings.TrimPrefix(p, "!")).MatchString(rel) {
			out = !neg
		}
	}
	return out
}

func TestDockerignorePattern(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{".git", ".git/HEAD", true},
		{"bin", "bin/v1gateway", true},
		{"bin", "cmd/bin/x", false},
		{"*.md", "README.md", true},
		{"*.md", "docs/x.md", false},
		{"**/*.test", "proxy/proxy.test", true},
		{"**/*.test", "x.test", true},
		{"bench/results", "bench/results/a.json", true},
		{"deploy", "deploy/doc.go", true},
		{"deploy", "deployment/x.go", false},
	}
	for _, tt := range tests {
		if got := ignored([]string{tt.pattern}, tt.path); got != tt.want {
			t.Errorf("pattern %q on %q: %t, want %t", tt.pattern, tt.path, got, tt.want)
		}
	}
	if ignored([]string{"docs", "!docs/keep.md"}, "docs/keep.md") {
		t.Error("! does not re-include")
	}
}

// TestDockerignoreKeepsTheBuild: nothing the image build needs (go.mod,
// go.sum, every Go file of every package ./cmd/... imports from this
// module) is excluded from the build context.
func TestDockerignoreKeepsTheBuild(t *testing.T) {
	var patterns []string
	for _, l := range strings.Split(readFile(t, ".dockerignore"), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, l)
		}
	}
	for _, must := range []string{".git", "bin"} {
		if !ignored(patterns, must) {
			t.Errorf(".dockerignore does not exclude %s", must)
		}
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not in PATH: cannot list the packages the build needs")
	}
	root := repoRoot(t)
	cmd := exec.Command(gobin, "list", "-deps", "-f", `{{if .Module}}{{if .Module.Main}}{{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{range .EmbedFiles}} {{.}}{{end}}{{end}}{{end}}`, "./cmd/...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list ./cmd/... failed (a package is being edited?): %v\n%s", err, stderr.String())
	}
	needed := []string{"go.mod", "go.sum"}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		dir, _ := filepath.Rel(root, f[0])
		for _, file := range f[1:] {
			needed = append(needed, filepath.ToSlash(filepath.Join(dir, file)))
		}
	}
	if len(needed) < 5 {
		t.Fatalf("go list found only %v", needed)
	}
	for _, rel := range needed {
		if ignored(patterns, rel) {
			t.Errorf(".dockerignore excludes %s, which the image build needs", rel)
		}
	}
}

// TestDockerBuildCommand runs the Dockerfile's own go build command (its
// ARG defaults filled in, for this machine's platform) and checks, with
// `go version -m`, that the binaries carry the build settings the image
// promises. No container engine is needed.
func TestDockerBuildCommand(t *testing.T) {
	// Cold, this build takes minutes on a small machine; after `make build`
	// (which CI runs first, with the same flags) it is a link step.
	if os.Getenv("CI") == "" && os.Getenv("V1GW_DOCKER_BUILD_TEST") == "" {
		t.Skip("runs in CI (CI set) or with V1GW_DOCKER_BUILD_TEST=1: it builds ./cmd/... with the Dockerfile's command")
	}
	if testing.Short() {
		t.Skip("-short: not building the binaries")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not in PATH")
	}
	df := parseDockerfile(t, readFile(t, "Dockerfile"))
	_, run := buildRun(t, df)
	// Drop BuildKit's RUN options (--mount=...), keep the shell command.
	shell := run.args
	for strings.HasPrefix(shell, "--") {
		_, shell, _ = strings.Cut(shell, " ")
		shell = strings.TrimSpace(shell)
	}
	out := t.TempDir()
	vars := map[string]string{
		"TARGETOS":   runtime.GOOS,
		"TARGETARCH": runtime.GOARCH,
		"VERSION":    "deploy-test",
	}
	shell = regexp.MustCompile(`\$\{?([A-Z_]+)\}?`).ReplaceAllStringFunc(shell, func(m string) string {
		name := strings.Trim(m, "${}")
		if v, ok := vars[name]; ok {
			return v
		}
		t.Fatalf("Dockerfile:%d: unknown variable %s in the build command", run.line, m)
		return ""
	})
	shell = strings.ReplaceAll(shell, "/out/", out+"/")
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command(sh, "-c", shell)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(gobin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	if b, err := cmd.CombinedOutput(); err != nil {
		if bytes.Contains(b, []byte("undefined:")) || bytes.Contains(b, []byte("cannot use")) {
			t.Skipf("the tree does not compile right now (another package is being edited):\n%s", b)
		}
		t.Fatalf("Dockerfile:%d: %s\n%v\n%s", run.line, shell, err, b)
	}
	for _, bin := range []string{"v1gateway", "v2sim"} {
		p := filepath.Join(out, bin)
		// go version -m records CGO_ENABLED and -trimpath (but not
		// -ldflags, which -trimpath leaves out of the build info).
		info, err := exec.Command(gobin, "version", "-m", p).Output()
		if err != nil {
			t.Errorf("%s was not built: %v", bin, err)
			continue
		}
		for _, want := range []string{"CGO_ENABLED=0", "-trimpath=true"} {
			if !bytes.Contains(info, []byte(want)) {
				t.Errorf("%s: build info lacks %s:\n%s", bin, want, info)
			}
		}
		if runtime.GOOS != "linux" {
			continue
		}
		// -s -w: no symbol table, no DWARF.
		f, err := elf.Open(p)
		if err != nil {
			t.Errorf("%s: %v", bin, err)
			continue
		}
		for _, sec := range f.Sections {
			if sec.Name == ".symtab" || strings.HasPrefix(sec.Name, ".debug_") || strings.HasPrefix(sec.Name, ".zdebug_") {
				t.Errorf("%s has section %s: -ldflags \"-s -w\" was not applied", bin, sec.Name)
			}
		}
		f.Close()
	}
	// -X main.version: the gateway's binary holds the version string.
	if b, err := os.ReadFile(filepath.Join(out, "v1gateway")); err != nil || !bytes.Contains(b, []byte("deploy-test")) {
		t.Errorf("v1gateway does not contain the version set with -X main.version (%v)", err)
	}
}
