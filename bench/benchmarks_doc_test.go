package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchmarksDoc: BENCHMARKS.md at the root is what make bench writes
// (the latest results.md with its links made root-relative, then
// HISTORY.md), and every file it links to exists.
func TestBenchmarksDoc(t *testing.T) {
	b, err := os.ReadFile("../BENCHMARKS.md")
	if err != nil {
		t.Fatalf("BENCHMARKS.md: %v (make bench writes it)", err)
	}
	doc := string(b)
	hist, err := os.ReadFile("HISTORY.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# v1gateway side-by-side benchmark", "## Targets", "](bench/results/latency.svg)", "bench/results/results.json", strings.TrimSpace(string(hist))} {
		if !strings.Contains(doc, want) {
			t.Errorf("BENCHMARKS.md lacks %.80q", want)
		}
	}
	for _, f := range []string{LatencySVG, ResultsJSON, ResultsMarkdown} {
		if _, err := os.Stat(filepath.Join("results", f)); err != nil {
			t.Errorf("linked file: %v", err)
		}
	}
}
