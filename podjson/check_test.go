package podjson

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/v1gateway/v1gateway/internal/speccheck"
)

// checkMessage is CheckJSON's message, or "".
func checkMessage(b []byte) string {
	if err := CheckJSON(b); err != nil {
		return err.Error()
	}
	return ""
}

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
			got := checkMessage([]byte(tc.body))
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Fatalf("CheckJSON: %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzCheckJSONInput: never a panic; what it passes, encoding/json decodes
// without loss of meaning (valid UTF-8, bounded depth, no duplicate key).
func FuzzCheckJSONInput(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`, `{"a":[{"b":1},{"b":2}]}`, "{\"a\":\"\xff\"}",
		strings.Repeat("[", 40) + strings.Repeat("]", 40), `{"a\u0062":1,"ab":2}`, `{"a":"\"{["}`, `[1,2`, `{"a":}`} {
		f.Add([]byte(s))
	}
	for _, ex := range v1SpecExamples(f) {
		f.Add(ex)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if CheckJSON(b) != nil || !json.Valid(b) {
			return
		}
		// UseNumber: a number beyond float64 (1e400) is valid JSON whose
		// range the typed v1 decoders check and report themselves.
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("passed %q, which does not decode: %v", b, err)
		}
		if !utf8.Valid(b) {
			t.Fatalf("passed invalid UTF-8 %q", b)
		}
	})
}

// v1SpecExamples returns the JSON examples of the v1 contract (nil when
// the specs are absent), as fuzz seeds: the request bodies CheckJSON is
// for. (translate's specExamples, for v1's document.)
func v1SpecExamples(tb testing.TB) [][]byte {
	const file = "v1.openapi.json"
	dir, err := speccheck.SpecsDir() // V1GW_SPECS_DIR, else the shared or downloaded specs
	var raw []byte
	if err == nil {
		raw, err = os.ReadFile(filepath.Join(dir, file))
	}
	if err != nil {
		tb.Logf("specs not found (%v): seeding without the spec examples", err)
		return nil
	}
	var doc any
	if json.Unmarshal(raw, &doc) != nil {
		return nil
	}
	var out [][]byte
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if k == "example" || k == "value" {
					if _, obj := c.(map[string]any); obj {
						if b, err := json.Marshal(c); err == nil {
							out = append(out, b)
						}
					}
				}
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(doc)
	return out
}
