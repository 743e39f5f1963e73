package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/internal/speccheck"
)

// The machine that runs the tests may have no internet: the download is
// tested against a local server standing in for the documentation
// repository, with documents whose checksums the test pins itself.

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// repoServer serves files by "/<commit>/<path>", counting requests.
func repoServer(t *testing.T, files map[string][]byte, hits *int) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*hits++
		b, ok := files[strings.TrimPrefix(r.URL.Path, "/"+Commit+"/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func withPinned(t *testing.T, specs []Spec) {
	saved := Pinned
	Pinned = specs
	t.Cleanup(func() { Pinned = saved })
}

func TestFetchStoresOnlyVerifiedDocuments(t *testing.T) {
	v1, v2 := []byte(`{"openapi":"3.0.3"}`), []byte(`{"openapi":"3.1.0"}`)
	var hits int
	srv := repoServer(t, map[string][]byte{"a/openapi.json": v1, "b/openapi.json": v2}, &hits)
	dir := filepath.Join(t.TempDir(), ".specs")

	t.Run("a document with the pinned sum is stored under its test name", func(t *testing.T) {
		withPinned(t, []Spec{{"v1.openapi.json", "a/openapi.json", sum(v1)}, {"v2.openapi.json", "b/openapi.json", sum(v2)}})
		var out, errs bytes.Buffer
		if code := run(context.Background(), []string{"-dir", dir, "-base-url", srv.URL}, &out, &errs); code != 0 {
			t.Fatalf("exit %d: %s", code, errs.String())
		}
		for name, want := range map[string][]byte{"v1.openapi.json": v1, "v2.openapi.json": v2} {
			if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s = %q, %v; want %q", name, got, err, want)
			}
		}
		if hits != 2 {
			t.Errorf("%d downloads, want 2", hits)
		}
	})
	t.Run("a second run keeps verified files without downloading", func(t *testing.T) {
		withPinned(t, []Spec{{"v1.openapi.json", "a/openapi.json", sum(v1)}, {"v2.openapi.json", "b/openapi.json", sum(v2)}})
		hits = 0
		var out, errs bytes.Buffer
		if code := run(context.Background(), []string{"-dir", dir, "-base-url", srv.URL}, &out, &errs); code != 0 || hits != 0 {
			t.Errorf("exit %d after %d downloads (%s); want 0 after 0", code, hits, errs.String())
		}
	})
	t.Run("a document with another sum is refused and not left behind", func(t *testing.T) {
		other := filepath.Join(t.TempDir(), "specs")
		withPinned(t, []Spec{{"v1.openapi.json", "a/openapi.json", sum([]byte("something else"))}})
		var out, errs bytes.Buffer
		if code := run(context.Background(), []string{"-dir", other, "-base-url", srv.URL}, &out, &errs); code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		if !strings.Contains(errs.String(), "sha256") {
			t.Errorf("error %q does not name the checksum", errs.String())
		}
		if entries, _ := os.ReadDir(other); len(entries) != 0 {
			t.Errorf("left behind: %v", entries)
		}
	})
	t.Run("a missing document is an error naming its URL", func(t *testing.T) {
		withPinned(t, []Spec{{"v1.openapi.json", "nowhere.json", sum(v1)}})
		var out, errs bytes.Buffer
		if code := run(context.Background(), []string{"-dir", t.TempDir(), "-base-url", srv.URL}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "/nowhere.json: 404") {
			t.Errorf("exit %d, %q; want 1 naming the URL and 404", code, errs.String())
		}
	})
	t.Run("-verify checks without any network", func(t *testing.T) {
		withPinned(t, []Spec{{"v1.openapi.json", "a/openapi.json", sum(v1)}})
		var out, errs bytes.Buffer
		if code := run(context.Background(), []string{"-dir", dir, "-verify", "-base-url", "http://127.0.0.1:1"}, &out, &errs); code != 0 {
			t.Errorf("exit %d: %s", code, errs.String())
		}
		if err := os.WriteFile(filepath.Join(dir, "v1.openapi.json"), []byte("tampered"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code := run(context.Background(), []string{"-dir", dir, "-verify"}, &out, &errs); code != 1 {
			t.Errorf("a tampered file: exit %d, want 1", code)
		}
	})
}

// The pinned checksums are those of the documents the tests use, when they
// are present (the team's shared folder, V1GW_SPECS_DIR, or .specs).
func TestPinnedSumsMatchTheSpecsInUse(t *testing.T) {
	dir, err := speccheck.SpecsDir()
	if err != nil {
		t.Skipf("no specs to compare with: %v", err)
	}
	for _, s := range Pinned {
		if err := VerifyFile(filepath.Join(dir, s.Name), s.SHA256); err != nil {
			t.Errorf("%v: update Commit and Pinned together", err)
		}
	}
}

func TestPinnedURLsNameTheCommit(t *testing.T) {
	want := "https://raw.githubusercontent.com/runpod/docs/" + Commit + "/api-reference-v2/openapi.json"
	if got := Pinned[1].URL(DefaultBaseURL); got != want {
		t.Errorf("URL = %s, want %s", got, want)
	}
}
