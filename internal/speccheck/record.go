package speccheck

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// EnvContractReport names the file to which contract tests append one line
// each, so that `make test` can say how many contract tests ran and how many
// were skipped (the specs being absent). Unset, nothing is recorded.
const EnvContractReport = "V1GW_CONTRACT_REPORT"

var recorded sync.Map // "<pkg>\t<top-level test>" → struct{}

// Record notes that tb is a contract test that ran with the specs (ran) or
// without them (skipped). LoadForTest records by itself; tests that check
// against the specs only when present call Record once they know. A test is
// recorded once per process, under its top-level name, with the outcome it
// recorded first; lines are "ran\t<package dir>\t<test>" or
// "skipped\t<package dir>\t<test>".
func Record(tb testing.TB, ran bool) {
	file := os.Getenv(EnvContractReport)
	if file == "" {
		return
	}
	top, _, _ := strings.Cut(tb.Name(), "/")
	key := packageDir() + "\t" + top
	if _, dup := recorded.LoadOrStore(key, struct{}{}); dup {
		return
	}
	outcome := "skipped"
	if ran {
		outcome = "ran"
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		tb.Logf("speccheck: %s: %v", EnvContractReport, err)
		return
	}
	defer f.Close()
	// One short write with O_APPEND: lines of parallel packages never mix.
	if _, err := fmt.Fprintf(f, "%s\t%s\n", outcome, key); err != nil {
		tb.Logf("speccheck: %s: %v", EnvContractReport, err)
	}
}

// packageDir is the working directory (the package under test) relative to
// the module root, "." when it cannot tell.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	root, err := moduleRoot()
	if err != nil {
		return wd
	}
	rel, err := filepath.Rel(root, wd)
	if err != nil {
		return wd
	}
	return filepath.ToSlash(rel)
}
