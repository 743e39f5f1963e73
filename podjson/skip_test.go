package podjson

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// FuzzSkipFast: skip (skipFast, falling back on skipDepth) ends where
// skipDepth alone ends, with the same error, on any input.
func FuzzSkipFast(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,2.5e-3,"x\"y\u00e9",true,false,null,{}]}`, ` { "a" : [ 1 , { } ] , "b" : -0 } x`,
		`{"a":1,}`, `[1,]`, `{"a" 1}`, `"\x"`, `"\u12g4"`, "\"a\x01\"", `01`, `-`, `1.`, `1e+`, `tru`, `nul`, `{"a":{"b":[[[[`,
		strings.Repeat("[", 70) + strings.Repeat("]", 70), strings.Repeat("[", 63) + strings.Repeat("]", 63),
		strings.Repeat(`{"a":[`, 32) + "1" + strings.Repeat("]}", 32), strings.Repeat("[", 64) + "1" + strings.Repeat("]", 64), strings.Repeat(`{"a":`, 300) + "1" + strings.Repeat("}", 300),
		// Integers (skipFast's own fast path) and what may follow one.
		`[12,0,7]`, `{"a":10000}`, `[172785 ,9]`, `123`, `[12`, `[12x]`, `[12.5]`, `[12.]`, `[9E2,9e-2]`, `[9e]`, `[1-2]`, `[01]`, `[-12]`,
		// Whitespace (tested after the compact case) and control bytes where it may be.
		"{\"a\" \t:\n1 ,\"b\" : [ \"x\" , {} ]\r}", "{\"a\"\x01:1}", "{\"a\":\x01}", "[1 \x01]", "[1\x01]", "[ \x01]", "{\"a\" ", "[1 ", "[ ",
		// Strings longer than a word (the SWAR scan): the special byte in
		// the first word, a later one or the last bytes, bytes >= 0x80.
		`["abcdefghijklmnop\"qrstuvwxyz","0123456789\u00e9abcdef\\x",""]`, `{"abcdefghijklmnopq":"abcdefgh","abcdefg":1}`,
		"\"abcdefgh\x1fijk\"", "\"abcdefg\xc3\xa9\xff\x80hijklmnop\"", `"abcdefghijklmno`, `"abcdefghijklmn\`, `"abcdefghijklm\u00`} {
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
