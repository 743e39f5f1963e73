package speccheck

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeModule makes a module root with the given folders under a parent
// directory and moves the test into <parent>/repo/pkg.
func fakeModule(t *testing.T, dirs ...string) (parent string) {
	parent = t.TempDir()
	root := filepath.Join(parent, "repo")
	for _, d := range append(dirs, "repo/pkg") {
		if err := os.MkdirAll(filepath.Join(parent, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.test\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "pkg"))
	t.Setenv(EnvSpecsDir, "")
	return parent
}

func TestSpecsDirOrder(t *testing.T) {
	t.Run("the shared folder beside the repository comes first", func(t *testing.T) {
		parent := fakeModule(t, "shared/specs", "repo/.specs")
		got, err := SpecsDir()
		if want := filepath.Join(parent, "shared", "specs"); err != nil || got != want {
			t.Errorf("SpecsDir = %q, %v; want %q", got, err, want)
		}
	})
	t.Run("then the .specs folder that make specs fills", func(t *testing.T) {
		parent := fakeModule(t, "repo/.specs")
		got, err := SpecsDir()
		if want := filepath.Join(parent, "repo", DownloadDir); err != nil || got != want {
			t.Errorf("SpecsDir = %q, %v; want %q", got, err, want)
		}
	})
	t.Run("V1GW_SPECS_DIR wins over both", func(t *testing.T) {
		fakeModule(t, "shared/specs", "repo/.specs")
		own := t.TempDir()
		t.Setenv(EnvSpecsDir, own)
		if got, err := SpecsDir(); err != nil || got != own {
			t.Errorf("SpecsDir = %q, %v; want %q", got, err, own)
		}
	})
	t.Run("neither: not found, naming make specs", func(t *testing.T) {
		fakeModule(t)
		_, err := SpecsDir()
		if !errors.Is(err, ErrSpecsNotFound) || !strings.Contains(err.Error(), "make specs") {
			t.Errorf("SpecsDir error = %v; want ErrSpecsNotFound naming `make specs`", err)
		}
	})
}

func TestRecordWritesOneLinePerTopLevelTest(t *testing.T) {
	report := filepath.Join(t.TempDir(), "contract.txt")
	t.Setenv(EnvContractReport, report)
	t.Run("sub", func(t *testing.T) {
		Record(t, false)
		Record(t, true) // same top-level test: the first outcome stays
	})
	Record(t, false)
	raw, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	want := "skipped\tinternal/speccheck\tTestRecordWritesOneLinePerTopLevelTest\n"
	if string(raw) != want {
		t.Errorf("report = %q; want %q", raw, want)
	}
}

func TestRecordIsSilentWithoutTheVariable(t *testing.T) {
	t.Setenv(EnvContractReport, "")
	t.Chdir(t.TempDir())
	Record(t, true) // must neither write nor fail
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("Record wrote %v", entries)
	}
}
