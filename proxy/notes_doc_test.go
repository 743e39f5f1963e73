package proxy

import (
	"flag"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
)

// The operator guide lists every note code (its "Retiring the gateway"
// section), generated from translate.NoteCodes so that the two cannot
// drift: a new code fails this test until the list is regenerated with
//
//	go test ./proxy -run TestEveryNoteCode -update-docs
const (
	noteCodesBegin = "<!-- note codes: generated from translate.NoteCodes; go test ./proxy -run TestEveryNoteCode -update-docs regenerates it -->"
	noteCodesEnd   = "<!-- end of note codes -->"
	operatorGuide  = "../docs/operating.md"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the note codes list of docs/operating.md from translate.NoteCodes")

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// noteCodesTable is the guide's list of codes: one row per code, sorted.
func noteCodesTable() string {
	codes := make([]string, 0, len(translate.NoteCodes))
	for c := range translate.NoteCodes {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	var b strings.Builder
	b.WriteString("| code | what the gateway did |\n|---|---|\n")
	for _, c := range codes {
		b.WriteString("| `" + c + "` | " + translate.NoteCodes[c] + " |\n")
	}
	return b.String()
}

func TestEveryNoteCodeIsSnakeCaseDescribedAndListedInTheOperatorGuide(t *testing.T) {
	for c, what := range translate.NoteCodes {
		if !snakeCase.MatchString(c) || len(c) > 40 {
			t.Errorf("note code %q is not short snake_case", c)
		}
		if strings.TrimSpace(what) == "" || strings.ContainsAny(what, "|\n") {
			t.Errorf("note code %q: description %q must be one non-empty line without '|'", c, what)
		}
	}
	raw, err := os.ReadFile(operatorGuide)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	section := strings.Index(doc, "## Retiring the gateway")
	begin := strings.Index(doc, noteCodesBegin)
	end := strings.Index(doc, noteCodesEnd)
	if section < 0 || begin < section || end < begin {
		t.Fatalf("%s: the note codes list (%s … %s) must be in the section \"Retiring the gateway\"", operatorGuide, noteCodesBegin, noteCodesEnd)
	}
	if next := strings.Index(doc[section+3:], "\n## "); next >= 0 && end > section+3+next {
		t.Fatalf("%s: the note codes list is outside the section \"Retiring the gateway\"", operatorGuide)
	}
	want := noteCodesBegin + "\n\n" + noteCodesTable() + "\n" + noteCodesEnd
	got := doc[begin : end+len(noteCodesEnd)]
	if got == want {
		return
	}
	if *updateDocs {
		doc = doc[:begin] + want + doc[end+len(noteCodesEnd):]
		if err := os.WriteFile(operatorGuide, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: note codes list regenerated", operatorGuide)
		return
	}
	for c := range translate.NoteCodes {
		if !strings.Contains(got, "`"+c+"`") {
			t.Errorf("%s does not list note code %s", operatorGuide, c)
		}
	}
	t.Errorf("%s: the note codes list differs from translate.NoteCodes; regenerate it with\n\tgo test ./proxy -run TestEveryNoteCode -update-docs\nwant:\n%s", operatorGuide, want)
}

// The operator guide's field_policy table lists exactly translate's
// PolicyFields (the names field_policy is validated against), each with
// its kind.
func TestTheOperatorGuideListsEveryPolicyField(t *testing.T) {
	raw, err := os.ReadFile(operatorGuide)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	begin, end := strings.Index(doc, "<!-- policy-fields -->"), strings.Index(doc, "<!-- /policy-fields -->")
	if begin < 0 || end < begin {
		t.Fatalf("%s has no policy-fields table", operatorGuide)
	}
	table := doc[begin:end]
	var listed []string
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "| `") {
			name, rest, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
			listed = append(listed, name)
			// The kind column says how the field is decided by default (P1).
			if kind, _, _ := strings.Cut(strings.TrimPrefix(rest, " | "), " |"); kind != translate.PolicyFields[name].Kind {
				t.Errorf("%s: %s is of kind %q, want %q", operatorGuide, name, kind, translate.PolicyFields[name].Kind)
			}
		}
	}
	if got, want := strings.Join(listed, ","), strings.Join(translate.PolicyFieldNames(), ","); got != want {
		t.Errorf("%s lists policy fields %s, want translate.PolicyFieldNames() %s", operatorGuide, got, want)
	}
}
