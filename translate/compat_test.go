package translate

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// COMPATIBILITY.md (repository root) documents every v1 operation. This test
// fails when it and the operation table disagree on the list of operations:
// an operation of the table that no heading or table row of the document
// names (as `METHOD /path`), or a v1 operation the document names that is
// not in the table.

// v1OpMention matches `METHOD /path...` inside backticks.
var v1OpMention = regexp.MustCompile("`(GET|POST|PUT|PATCH|DELETE) (/[^`\\s]*)[^`]*`")

var pathParam = regexp.MustCompile(`\{[^}]*\}`)

// routeKey normalises a documented route: no /v1 prefix, no query, path
// parameters unnamed (`/pods/{id}` and `/pods/{podId}` are the same route).
// It returns "" for v2 routes.
func routeKey(method, path string) string {
	path, _, _ = strings.Cut(path, "?")
	if strings.HasPrefix(path, "/v2/") || path == "/v2" {
		return ""
	}
	if strings.HasPrefix(path, "/v1/") {
		path = strings.TrimPrefix(path, "/v1")
	}
	path = strings.TrimRight(path, ".,;:")
	return method + " " + pathParam.ReplaceAllString(path, "{}")
}

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

// compatCoverage returns the table's operations that no heading or table
// row of doc names, and the routes the doc names that the table lacks.
func compatCoverage(doc string) (missing []string, unknown []string) {
	table := map[string]bool{}
	for i := range Operations {
		table[routeKey(Operations[i].Method, Operations[i].Path)] = true
	}
	listed := map[string]bool{}
	strange := map[string]bool{}
	for _, line := range strings.Split(doc, "\n") {
		trimmed := strings.TrimSpace(line)
		structural := strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, "|")
		for _, m := range v1OpMention.FindAllStringSubmatch(line, -1) {
			k := routeKey(m[1], m[2])
			if k == "" {
				continue
			}
			if !table[k] {
				strange[m[1]+" "+m[2]] = true
				continue
			}
			if structural {
				listed[k] = true
			}
		}
	}
	for i := range Operations {
		op := &Operations[i]
		if !listed[routeKey(op.Method, op.Path)] {
			missing = append(missing, op.Method+" "+op.Path+" ("+op.Name+")")
		}
	}
	for k := range strange {
		unknown = append(unknown, k)
	}
	sort.Strings(unknown)
	return missing, unknown
}

func TestCompatibilityDocumentCoversTheTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "COMPATIBILITY.md"))
	if err != nil {
		t.Fatalf("COMPATIBILITY.md: %v", err)
	}
	missing, unknown := compatCoverage(string(b))
	if len(missing) > 0 {
		t.Errorf("COMPATIBILITY.md documents no heading or table row for %d operation(s) of the table:\n  %s",
			len(missing), strings.Join(missing, "\n  "))
	}
	if len(unknown) > 0 {
		t.Errorf("COMPATIBILITY.md names v1 operation(s) that are not in the table:\n  %s", strings.Join(unknown, "\n  "))
	}
}

func TestCompatCoverageLogic(t *testing.T) {
	var all strings.Builder
	for i := range Operations {
		op := &Operations[i]
		all.WriteString("| `" + op.Method + " " + op.Path + "` | x |\n")
	}
	if missing, unknown := compatCoverage(all.String()); len(missing) != 0 || len(unknown) != 0 {
		t.Errorf("full table: missing %v unknown %v", missing, unknown)
	}
	doc := "## `GET /pods/{id}`\nText about `POST /v2/pods` and `GET /v1/pods?name=x`.\n| `DELETE /pods/{podId}` |\n`GET /nothing` in prose\n| `PATCH /pods` |\n"
	missing, unknown := compatCoverage(doc)
	if len(missing) != len(Operations)-2 {
		t.Errorf("missing %d, want %d", len(missing), len(Operations)-2)
	}
	for _, m := range missing {
		if strings.HasPrefix(m, "GET /pods/{podId} ") || strings.HasPrefix(m, "DELETE /pods/{podId} ") {
			t.Errorf("%s is listed", m)
		}
	}
	if strings.Join(unknown, ",") != "GET /nothing,PATCH /pods" {
		t.Errorf("unknown %v", unknown)
	}
	// Prose mentions do not count as coverage.
	if missing, _ := compatCoverage("We call `GET /pods` here.\n"); len(missing) != len(Operations) {
		t.Errorf("prose counted as coverage")
	}
}
