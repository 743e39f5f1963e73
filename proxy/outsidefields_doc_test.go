package proxy

import (
	"os"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
)

// COMPATIBILITY.md lists every field outside the v1 document the gateway
// knows (issue 29 item 2), generated from translate.OutsideFields so that
// the two cannot drift:
//
//	go test ./proxy -run TestCompatibilityListsEveryOutsideField -update-docs
const (
	outsideBegin  = "<!-- outside fields: generated from translate.OutsideFields; go test ./proxy -run TestCompatibilityListsEveryOutsideField -update-docs regenerates it -->"
	outsideEnd    = "<!-- end of outside fields -->"
	compatibility = "../COMPATIBILITY.md"
)

func outsideFieldsTable() string {
	var b strings.Builder
	b.WriteString("| v1 body | field | what the gateway does | sent by |\n|---|---|---|---|\n")
	for _, f := range translate.OutsideFields {
		what := "**ignored** with a warning: " + f.Why
		if f.TranslatedAs != "" {
			what = "**translated**: " + f.TranslatedAs + " — " + f.Why
		}
		b.WriteString("| `" + f.Schema + "` | `" + f.Field + "` | " + strings.ReplaceAll(what, "|", "\\|") + " | " + f.Clients + " |\n")
	}
	return b.String()
}

func TestCompatibilityListsEveryOutsideField(t *testing.T) {
	raw, err := os.ReadFile(compatibility)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	begin, end := strings.Index(doc, outsideBegin), strings.Index(doc, outsideEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s: no outside-fields table (%s … %s)", compatibility, outsideBegin, outsideEnd)
	}
	want := outsideBegin + "\n\n" + outsideFieldsTable() + "\n" + outsideEnd
	if got := doc[begin : end+len(outsideEnd)]; got == want {
		return
	}
	if *updateDocs {
		doc = doc[:begin] + want + doc[end+len(outsideEnd):]
		if err := os.WriteFile(compatibility, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: outside-fields table regenerated", compatibility)
		return
	}
	t.Errorf("%s: the outside-fields table differs from translate.OutsideFields; regenerate it with\n\tgo test ./proxy -run TestCompatibilityListsEveryOutsideField -update-docs", compatibility)
}
