package proxy

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/usage"
)

// Warnings reach operators (P7a, issue 14 item 9): real clients never show
// response headers, so every note a v1 answer carries is counted per key id
// and operation in /usage, by code in v1gw_compat_notes_total (no key
// label), and named in the access log line.
func TestCompatNotesReachUsageMetricsAndTheAccessLog(t *testing.T) {
	var buf logBuffer
	e := newSimEnv(t, withLogger(&buf))
	call := func(tok, method, path, body string) int {
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		resp := do(t, method, e.srv.URL+path, tok, r, nil)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	// /usage counts only keys v2 accepted at least once: ci-token's
	// refusals below make no v2 call of their own.
	call("ci-token", "GET", "/v1/pods", "")
	if s := call("ci-token", "POST", "/v1/pods/p1/reset", ""); s != 400 {
		t.Fatalf("reset: %d", s)
	}
	call("ci-token", "POST", "/v1/pods/p1/reset", "")
	if s := call("ci-token", "POST", "/v1/pods", strings.TrimSuffix(createBody, "}")+`,"dockerEntrypoint":["sh"]}`); s != 400 {
		t.Fatalf("untranslatable create: %d", s)
	}
	if s := call("other", "POST", "/v1/pods", strings.TrimSuffix(createBody, "}")+`,"fooBar":1}`); s != 201 {
		t.Fatalf("create with an unknown field: %d", s)
	}
	call("other", "GET", "/v1/pods", "") // no note

	ci := limiter.KeyID([]byte("test-secret"), "ci-token")
	other := limiter.KeyID([]byte("test-secret"), "other")

	// /usage, JSON.
	resp, err := http.Get(e.admin.URL + "/usage")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var rep usage.Report
	if err := json.Unmarshal(body, &rep); err != nil {
		t.Fatal(err)
	}
	notes := map[string]usage.NoteUsage{}
	for _, k := range rep.Keys {
		for _, n := range k.Notes {
			notes[k.KeyID+" "+n.Operation+" "+n.Code] = n
		}
	}
	want := map[string]int64{
		ci + " ResetPod " + translate.CodeResetRefused:           2,
		ci + " CreatePod " + translate.CodeUntranslatableRefused: 1,
		other + " CreatePod " + translate.CodeUnknownFields:      1,
	}
	if len(notes) != len(want) {
		t.Fatalf("notes %+v", notes)
	}
	for k, n := range want {
		if got := notes[k]; got.Count != n || got.LastMessage == "" || got.FirstSeen.IsZero() || got.LastSeen.Before(got.FirstSeen) {
			t.Errorf("%s: %+v, want count %d", k, got, n)
		}
	}
	if m := notes[ci+" ResetPod "+translate.CodeResetRefused].LastMessage; !strings.Contains(m, "restart") {
		t.Errorf("reset message %q", m)
	}
	if m := notes[other+" CreatePod "+translate.CodeUnknownFields].LastMessage; !strings.Contains(m, "fooBar") {
		t.Errorf("unknown fields message %q", m)
	}
	if rep.Summary.KeysWithNotes7d != 2 || len(rep.Summary.Notes) != 3 {
		t.Errorf("summary notes %+v, keys %d", rep.Summary.Notes, rep.Summary.KeysWithNotes7d)
	}
	if rep.Summary.TotalV1Calls != 6 {
		t.Errorf("notes changed the call counts: %+v", rep.Summary)
	}

	// /usage, CSV: the calls view keeps its columns; the notes view.
	resp, _ = http.Get(e.admin.URL + "/usage?format=csv")
	rows, _ := csv.NewReader(resp.Body).ReadAll()
	resp.Body.Close()
	if len(rows) != 6 || strings.Join(rows[0], ",") != "key_id,name,operation,count,first_seen,last_seen" {
		t.Fatalf("calls csv %q", rows)
	}
	resp, _ = http.Get(e.admin.URL + "/usage?format=csv&view=notes")
	rows, _ = csv.NewReader(resp.Body).ReadAll()
	resp.Body.Close()
	if len(rows) != 4 || strings.Join(rows[0], ",") != "key_id,name,operation,code,field,count,first_seen,last_seen,last_message" ||
		!strings.Contains(resp.Header.Get("Content-Disposition"), "compat-notes") {
		t.Fatalf("notes csv %q", rows)
	}
	resp, _ = http.Get(e.admin.URL + "/usage?format=csv&view=nope")
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("view=nope: %d", resp.StatusCode)
	}

	// The metric: by code and operation, never by key.
	m := scrape(t, e.admin.URL)
	var lines []string
	for _, l := range strings.Split(m, "\n") {
		if strings.HasPrefix(l, "v1gw_compat_notes_total{") {
			lines = append(lines, l)
			if strings.Contains(l, "key") {
				t.Errorf("metric with a key label: %s", l)
			}
		}
	}
	wantLine := func(code, op, n string) {
		for _, l := range lines {
			if strings.Contains(l, `code="`+code+`"`) && strings.Contains(l, `operation="`+op+`"`) && strings.HasSuffix(l, " "+n) {
				return
			}
		}
		t.Errorf("no v1gw_compat_notes_total{code=%q,operation=%q} %s in\n%s", code, op, n, strings.Join(lines, "\n"))
	}
	wantLine(translate.CodeResetRefused, "ResetPod", "2")
	wantLine(translate.CodeUntranslatableRefused, "CreatePod", "1")
	wantLine(translate.CodeUnknownFields, "CreatePod", "1")

	// The access log line carries the codes.
	var withNotes int
	for _, l := range buf.lines(t, "request") {
		if c, ok := l["compat_notes"]; ok {
			withNotes++
			if l["operation"] == "ResetPod" && strings.Join(toStrings(c.([]any)), ",") != translate.CodeResetRefused {
				t.Errorf("access line %v", l)
			}
		}
	}
	if withNotes != 4 {
		t.Errorf("%d access lines with compat_notes, want 4:\n%s", withNotes, buf.String())
	}
}

// A request without a key has no key id: its notes are in the metric, never
// in /usage (nothing to attribute them to).
func TestCompatNotesOfPublicOrUnauthenticatedCallsStayOutOfUsage(t *testing.T) {
	e := newSimEnv(t, nil)
	resp := do(t, "POST", e.srv.URL+"/v1/pods/p1/reset", "", nil, nil)
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	es, err := e.gw.Usage().Entries(t.Context())
	if err != nil || len(es) != 0 {
		t.Fatalf("entries %+v, %v", es, err)
	}
}
