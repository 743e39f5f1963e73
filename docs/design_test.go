package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The ids of design.md: policies (P1, P7a), hazards (H2) and value rules
// (H-args, H-mount-create). Percentiles (P50, P99, P999) and GPU models
// (H100, H200) look alike and are not references.
var (
	policyRef  = regexp.MustCompile(`\bP[0-9]{1,2}a?\b`)
	hazardRef  = regexp.MustCompile(`\bH[0-9]{1,2}\b`)
	ruleRef    = regexp.MustCompile(`\bH-[a-z]+(?:-[a-z]+)*\b`)
	sectionRef = regexp.MustCompile(`design\.md §([0-9]+(?:\.[0-9]+)?)`)
	notIDs     = map[string]bool{"P50": true, "P90": true, "P95": true, "P99": true}
	// The team's design notes that preceded docs/design.md.
	outsideRef = regexp.MustCompile(`\b(?:DESIGN|MAPPING)(?:\.md)?\b`)

	definition = regexp.MustCompile(`(?m)^- \*\*(P[0-9]{1,2}a?|H[0-9]{1,2}|H-[a-z]+(?:-[a-z]+)*)\b`)
	heading    = regexp.MustCompile(`(?m)^#{2,3} ([0-9]+(?:\.[0-9]+)?)[. ]`)
	mdLink     = regexp.MustCompile(`\]\(([^)#]*)(#[^)]*)?\)`)
)

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod in %s: %v", root, err)
	}
	return root
}

// sources returns the repository's text files that may cite the design:
// Go code, Markdown, YAML, the Makefile and the Dockerfile, by path relative
// to the root.
func sources(t *testing.T, root string) map[string]string {
	t.Helper()
	skipDirs := map[string]bool{".git": true, "bin": true, ".specs": true, "testdata": true, "node_modules": true}
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipDirs[d.Name()] || (p != root && strings.HasPrefix(d.Name(), ".") && d.Name() != ".ci") {
				return filepath.SkipDir
			}
			return nil
		}
		switch ext := filepath.Ext(p); {
		case ext == ".go", ext == ".md", ext == ".yaml", ext == ".yml",
			d.Name() == "Makefile", d.Name() == "Dockerfile", d.Name() == "run":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func lineOf(text string, offset int) int { return strings.Count(text[:offset], "\n") + 1 }

// TestEveryCitedIdIsDefinedInTheDesign fails when code, tests or documents
// cite a policy, hazard or value rule that docs/design.md does not define,
// or a section of it that does not exist, or still point to design
// documents outside the repository.
func TestEveryCitedIdIsDefinedInTheDesign(t *testing.T) {
	root := repoRoot(t)
	design, err := os.ReadFile(filepath.Join(root, "docs", "design.md"))
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	for _, m := range definition.FindAllStringSubmatch(string(design), -1) {
		defined[m[1]] = true
	}
	sections := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(string(design), -1) {
		sections[m[1]] = true
	}

	cited := map[string]bool{}
	files := sources(t, root)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		text := files[name]
		for _, re := range []*regexp.Regexp{policyRef, hazardRef, ruleRef} {
			for _, loc := range re.FindAllStringIndex(text, -1) {
				id := text[loc[0]:loc[1]]
				if notIDs[id] {
					continue
				}
				cited[id] = true
				if !defined[id] {
					t.Errorf("%s:%d cites %s, which docs/design.md does not define (a line starting \"- **%s\")", name, lineOf(text, loc[0]), id, id)
				}
			}
		}
		for _, m := range sectionRef.FindAllStringSubmatchIndex(text, -1) {
			if sec := text[m[2]:m[3]]; !sections[sec] {
				t.Errorf("%s:%d cites docs/design.md §%s, which has no such section", name, lineOf(text, m[0]), sec)
			}
		}
		if name == "docs/design_test.go" {
			continue // names them below
		}
		for _, loc := range outsideRef.FindAllStringIndex(text, -1) {
			t.Errorf("%s:%d cites %s, which is not part of the repository: cite docs/design.md", name, lineOf(text, loc[0]), text[loc[0]:loc[1]])
		}
	}
	// The scan must see the references it exists for.
	for _, id := range []string{"P1", "P7a", "H2", "H-args"} {
		if !cited[id] {
			t.Errorf("no file cites %s: the scan is broken", id)
		}
	}
	// Every policy is defined.
	for _, id := range []string{"P1", "P2", "P3", "P4", "P5", "P6", "P7", "P7a", "P8", "P9", "P10"} {
		if !defined[id] {
			t.Errorf("docs/design.md does not define %s", id)
		}
	}
}

// TestDesignLinksStayInTheRepository: every relative link of design.md
// names a file of the repository.
func TestDesignLinksStayInTheRepository(t *testing.T) {
	root := repoRoot(t)
	design, err := os.ReadFile(filepath.Join(root, "docs", "design.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mdLink.FindAllStringSubmatch(string(design), -1) {
		target := m[1]
		if target == "" || strings.Contains(target, "://") {
			continue
		}
		p := filepath.Clean(filepath.Join(root, "docs", filepath.FromSlash(target)))
		if rel, err := filepath.Rel(root, p); err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("design.md links to %s, outside the repository", target)
			continue
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("design.md links to %s: %v", target, err)
		}
	}
}
