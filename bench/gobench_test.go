package bench

import (
	"regexp"
	"strings"
	"testing"
)

// TestEveryCaseGoBenchIsRun checks that the proxy benchmark each case
// reads its allocations from is one goBenchPattern selects: a case whose
// benchmark is not run shows "—" for allocs/req and B/req.
func TestEveryCaseGoBenchIsRun(t *testing.T) {
	re := regexp.MustCompile(goBenchPattern)
	for _, c := range allCases() {
		if c.GoBench == "" {
			continue
		}
		name, _, _ := strings.Cut(c.GoBench, "/")
		if !re.MatchString("Benchmark" + name) {
			t.Errorf("%s: its Go benchmark Benchmark%s is not selected by goBenchPattern %s", c.ID, name, goBenchPattern)
		}
	}
}
