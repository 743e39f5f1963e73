package proxy

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// docs/clients.md lists every client shape the client-shaped suite
// replays (issue 29 item 9), generated from clientReleases so that the two
// cannot drift:
//
//	go test ./proxy -run TestCompatibilityListsEveryClientShape -update-docs
const (
	clientShapesBegin = "<!-- client shapes: generated from clientReleases (proxy/e2e_clients*_test.go); go test ./proxy -run TestCompatibilityListsEveryClientShape -update-docs regenerates it -->"
	clientShapesEnd   = "<!-- end of client shapes -->"
	// clientsDoc is the document of the real clients' requests.
	clientsDoc = "../docs/clients.md"
)

func clientShapesList() string {
	var b strings.Builder
	for _, rel := range clientReleases {
		cases := rel.cases()
		fmt.Fprintf(&b, "#### %s (%d requests)\n\n", rel.name, len(cases))
		b.WriteString("| command | request | answer |\n|---|---|---|\n")
		for _, c := range cases {
			name := c.name
			if i := strings.Index(name, ": "); i >= 0 {
				name = name[i+2:]
			}
			// Method and path apart: some paths are not v1 routes (a
			// client's mistakes), which the route tables of this document
			// must not seem to name.
			req := c.method + " `" + strings.ReplaceAll(c.path, "|", "\\|") + "`"
			if c.noKey {
				req += " (no key)"
			}
			fmt.Fprintf(&b, "| %s | %s | %d |\n", strings.ReplaceAll(name, "|", "\\|"), req, c.status)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestCompatibilityListsEveryClientShape(t *testing.T) {
	raw, err := os.ReadFile(clientsDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	begin, end := strings.Index(doc, clientShapesBegin), strings.Index(doc, clientShapesEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s: no client-shapes list (%s … %s)", clientsDoc, clientShapesBegin, clientShapesEnd)
	}
	want := clientShapesBegin + "\n\n" + clientShapesList() + clientShapesEnd
	if got := doc[begin : end+len(clientShapesEnd)]; got == want {
		return
	}
	if *updateDocs {
		doc = doc[:begin] + want + doc[end+len(clientShapesEnd):]
		if err := os.WriteFile(clientsDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: client-shapes list regenerated", clientsDoc)
		return
	}
	t.Errorf("%s: the client-shapes list differs from clientReleases; regenerate it with\n\tgo test ./proxy -run TestCompatibilityListsEveryClientShape -update-docs", clientsDoc)
}
