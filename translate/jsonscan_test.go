package translate

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSkipFast: skip (skipFast, falling back on skipDepth) ends where
// skipDepth alone ends, with the same error, on any input.
func FuzzSkipFast(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,2.5e-3,"x\"y\u00e9",true,false,null,{}]}`, ` { "a" : [ 1 , { } ] , "b" : -0 } x`,
		`{"a":1,}`, `[1,]`, `{"a" 1}`, `"\x"`, `"\u12g4"`, "\"a\x01\"", `01`, `-`, `1.`, `1e+`, `tru`, `nul`, `{"a":{"b":[[[[`,
		strings.Repeat("[", 70) + strings.Repeat("]", 70), strings.Repeat(`{"a":`, 300) + "1" + strings.Repeat("}", 300)} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, at uint8) {
		start := 0
		if len(b) > 0 {
			start = int(at) % len(b)
		}
		r1, r2 := newJReader(b), newJReader(b)
		r1.i, r2.i = start, start
		r1.skip()
		r2.skipDepth(0)
		if r1.i != r2.i || (r1.err == nil) != (r2.err == nil) || r1.err != nil && r1.err.Error() != r2.err.Error() {
			t.Fatalf("%q at %d: skip ends at %d (%v), skipDepth at %d (%v)", b, start, r1.i, r1.err, r2.i, r2.err)
		}
	})
}

// TestSkipFastTakesValidJSON: skipFast itself skips valid JSON, compact
// or spaced (the fallback is for errors and deep nesting only).
func TestSkipFastTakesValidJSON(t *testing.T) {
	body, err := os.ReadFile("testdata/podlistmixed100.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{body, []byte(strings.ReplaceAll(string(body), ",", " ,\n\t"))} {
		r := newJReader(b)
		if !r.skipFast() || r.i != len(b) {
			t.Fatalf("skipFast stopped at %d of %d", r.i, len(b))
		}
	}
}

// FuzzStr: a string as str reads it is encoding/json's (for valid UTF-8:
// str keeps invalid bytes, which appendJSONString replaces as
// encoding/json does), and str fails where encoding/json does.
func FuzzStr(f *testing.F) {
	for _, s := range []string{`"a"`, `"a\"b\\c\/d\be\ff\ng\rh\ti"`, `"\u00e9\ud83d\ude00\ud83d x\udc00"`, `"\u2028"`, "\"caf\xc3\xa9 \\\"q\\\"\"", `"\x"`, `"abc`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r := newJReader(b)
		got := r.str()
		var want string
		err := json.Unmarshal(b, &want)
		if r.err == nil && r.i == len(b) {
			if err != nil || utf8.Valid(b) && got != want {
				t.Fatalf("%q: str %q, encoding/json %q (%v)", b, got, want, err)
			}
		} else if r.err != nil && err == nil {
			t.Fatalf("%q: str fails (%v), encoding/json reads %q", b, r.err, want)
		}
	})
}
