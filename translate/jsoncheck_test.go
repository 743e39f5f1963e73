package translate

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func utf8Valid(b []byte) bool { return utf8.Valid(b) }

func TestCheckJSONInput(t *testing.T) {
	deep := strings.Repeat(`{"a":`, MaxJSONDepth+1) + "1" + strings.Repeat("}", MaxJSONDepth+1)
	ok := strings.Repeat(`{"a":`, MaxJSONDepth) + "1" + strings.Repeat("}", MaxJSONDepth)
	tests := []struct {
		name, body, want string // want: "" or a substring of the message
	}{
		{"plain", `{"name":"x","env":{"A":"1"},"ports":["1/tcp"]}`, ""},
		{"max depth", ok, ""},
		{"too deep", deep, "nested deeper than 32 levels"},
		{"brackets inside strings do not count", `{"a":"` + strings.Repeat("[", 100) + `"}`, ""},
		{"escaped quote", `{"a":"\"[[[[","b":1}`, ""},
		{"duplicate top-level key", `{"name":"a","size":1,"name":"b"}`, `duplicate key "name"`},
		{"duplicate nested key", `{"env":{"A":"1","A":"2"}}`, `duplicate key "A" (in a nested object)`},
		{"escaped duplicate", `{"ab":1,"a\u0062":2}`, `duplicate key "ab"`},
		{"same key in sibling objects", `{"a":[{"k":1},{"k":2}],"b":{"k":3}}`, ""},
		{"invalid UTF-8", "{\"name\":\"\xff\xfe\"}", "not valid UTF-8 (at byte 9)"},
		{"syntax errors are left to the decoder", `{"a":}`, ""},
		{"surrogate pair", `{"name":"\ud83d\ude00 ok"}`, ""},
		{"upper-case surrogate pair", `{"name":"\uD83D\uDE00"}`, ""},
		{"escaped backslash before u is no escape", `{"name":"\\ud800"}`, ""},
		{"lone high surrogate", `{"name":"\ud800x"}`, "at byte 9 is half of a UTF-16 surrogate pair"},
		{"lone high surrogate at the end", `{"name":"\ud83d"}`, "surrogate pair"},
		{"high then a non-surrogate escape", `{"name":"\ud83d\u0041"}`, "surrogate pair"},
		{"lone low surrogate", `{"name":"\ude00"}`, "surrogate pair"},
		{"lone surrogate in a key", `{"\udfff":1}`, "surrogate pair"},
		{"two high halves", `{"a":"\ud800\ud800"}`, "surrogate pair"},
		{"short escape is the decoder's", `{"a":"\ud8"}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := checkJSONInput([]byte(tc.body))
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Fatalf("checkJSONInput = %q, want %q", got, tc.want)
			}
		})
	}
}

// Every body decoder goes through parseBodyObject, so each refuses them.
func TestBodyDecodersRefuseAmbiguousJSON(t *testing.T) {
	for name := range sampleBodies {
		op := mustOp(t, name)
		for _, body := range []string{`{"name":"a","name":"b"}`, "{\"name\":\"\xff\"}", strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40)} {
			res := op.Plan(t.Context(), &Request{Op: op, Params: sampleRequest(op, "x").Params, Body: []byte(body)}, newFake(t))
			if res.Status != 400 {
				t.Errorf("%s %q: status %d: %s", name, body, res.Status, res.Body)
			}
		}
	}
}

// Regression (found by FuzzV2AnswerMapping): a create answer without an id
// made CreatePod lock "PATCH /v2/pods/" — the collection, not a pod.
func TestCreatePodLockNeedsAnID(t *testing.T) {
	old := Sleep
	Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	defer func() { Sleep = old }()
	op := mustOp(t, "CreatePod")
	for _, answer := range []string{`{}`, `{"id":""}`, `{"id":".."}`} {
		c := &answerAll{status: 201, body: []byte(answer), max: 12}
		res := op.Plan(context.Background(), sampleRequest(op, ""), c)
		for _, call := range c.calls {
			checkDeclaredCall(t, op, "", call)
			if call.Method == "PATCH" {
				t.Errorf("answer %s: PATCH %s", answer, call.Path)
			}
		}
		if res.Status < 300 && !strings.Contains(strings.Join(res.Warnings, " "), "locked=true could not be applied") {
			t.Errorf("answer %s: %d without a lock warning: %q", answer, res.Status, res.Warnings)
		}
	}
}

// TestSkipMatchesValid: the pod decoder's skip accepts exactly the values
// encoding/json accepts (within its depth bound) and ends where they end.
func TestSkipMatchesValid(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, in := range []string{
		`1`, `-0.5e+3`, `"x"`, `"\u00e9\n"`, `true`, `false`, `null`, `{}`, `[]`, `{ }`, `[ ]`,
		`{"a":1}`, `{"a":{"b":[1,2,{"c":null}]},"d":"e"}`, `[[],[{}],{"x":[]}]`, ` { "a" : [ 1 , 2 ] } `,
		`{"ssh":{"proxy":{"host":"h","port":22}},"actions":["stop","start"]}`,
		deep(maxJSONDepth),
		// invalid
		``, `{`, `[`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a":1 "b":2}`, `{1:2}`, `{"a":1]`, `[1}`,
		`tru`, `nul`, `-`, `01`, `1.`, `1e`, `"abc`, `"\x"`, "\"a\x01\"", `{"a":[}`, `]`, `}`, `,`,
	} {
		r := newJReader([]byte(in))
		r.skip()
		r.end()
		got := r.err == nil
		if want := json.Valid([]byte(in)); got != want {
			t.Errorf("skip(%.60q): valid=%v, encoding/json says %v (err %v)", in, got, want, r.err)
		}
	}
	// A value nested deeper than maxJSONDepth containers is refused.
	r := newJReader([]byte(deep(maxJSONDepth + 2)))
	r.skip()
	if !errors.Is(r.err, errJSONDepth) {
		t.Errorf("nesting beyond %d: err %v", maxJSONDepth, r.err)
	}
	// It stops right after the value.
	r = newJReader([]byte(`{"a":[1,{"b":2}]},"next":1`))
	r.skip()
	if r.err != nil || r.s[r.i:] != `,"next":1` {
		t.Errorf("skip stopped at %q (err %v)", r.s[r.i:], r.err)
	}
}
