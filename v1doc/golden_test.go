package v1doc

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/openapi.golden.json and testdata/docs.golden.html from the generator")

// TestDocumentsMatchGolden pins the generated v1 document and docs page
// (P10) byte for byte to testdata/openapi.golden.json and
// testdata/docs.golden.html, so that a change to the generator that was
// meant to change nothing is seen to change nothing. After an intended
// change: go test ./v1doc -run TestDocumentsMatchGolden -update-golden, and read
// the diff of the two files.
func TestDocumentsMatchGolden(t *testing.T) {
	for _, g := range []struct {
		file string
		got  []byte
	}{
		{"openapi.golden.json", OpenAPIDocument()},
		{"docs.golden.html", DocsPage()},
	} {
		path := filepath.Join("testdata", g.file)
		if *updateGolden {
			if err := os.WriteFile(path, g.got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./v1doc -run TestDocumentsMatchGolden -update-golden writes it)", err)
		}
		if bytes.Equal(g.got, want) {
			continue
		}
		gotLines, wantLines := strings.Split(string(g.got), "\n"), strings.Split(string(want), "\n")
		i := 0
		for i < len(gotLines) && i < len(wantLines) && gotLines[i] == wantLines[i] {
			i++
		}
		line := func(ls []string) string {
			if i < len(ls) {
				return ls[i]
			}
			return "(end)"
		}
		t.Errorf("%s: the generated text differs from line %d (%d bytes generated, %d in the file):\ngenerated: %.300s\nfile:      %.300s\nAn intended change: go test ./v1doc -run TestDocumentsMatchGolden -update-golden, then read the diff",
			path, i+1, len(g.got), len(want), line(gotLines), line(wantLines))
	}
}
