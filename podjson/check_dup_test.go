package podjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// duplicateKeyByTokens is the duplicate-key check as it was, over
// encoding/json's token stream: the reference duplicateKey must agree with.
func duplicateKeyByTokens(body []byte) string {
	type frame struct {
		obj, expectKey bool
		keys           map[string]struct{}
		path           string
	}
	valueDone := func(stack []*frame) {
		if n := len(stack); n > 0 && stack[n-1].obj {
			stack[n-1].expectKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return ""
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.obj && top.expectKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				valueDone(stack)
				continue
			}
			k, _ := tok.(string)
			if _, dup := top.keys[k]; dup {
				return fmt.Sprintf("request body: duplicate key %q%s: send each field once", k, top.path)
			}
			top.keys[k] = struct{}{}
			top.expectKey = false
			continue
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				f := &frame{obj: d == '{', expectKey: true}
				if f.obj {
					f.keys = map[string]struct{}{}
				}
				if len(stack) > 0 {
					f.path = " (in a nested object)"
				}
				stack = append(stack, f)
			default:
				stack = stack[:len(stack)-1]
				valueDone(stack)
			}
			continue
		}
		valueDone(stack)
	}
}

var duplicateKeyCases = []string{
	`{}`, `[]`, `{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`, `[{"a":1,"a":1}]`, `{"a":[{"b":1},{"b":2}]}`, `{"a\u0062":1,"ab":2}`,
	`{"a":1} {"b":1,"b":2}`, `{"a":1,"a":2`, `{"a":tru,"a":1}`, `{"a" 1,"a":2}`, `{"a":01,"a":2}`, `{"a":"x","b":{"a":1},"a":3}`,
	`{"x":[1,2,{"y":null,"y":true}]}`, `"just a string"`, `12 13`, `{"a":1,}`, `[1,2,]`, `{"\"":1,"\"":2}`, `{"é":1,"\u00e9":2}`,
	// Keys of invalid UTF-8 are named as encoding/json decodes them (each
	// bad byte U+FFFD), so two different bad bytes are the same key.
	"{\"\xda\xc4\":0,\"\xda\xc4\":1}", "{\"\xda\":0,\"\xdb\":1}", "{\"a\xff\":0,\"a\uFFFD\":1}", "{\"\xed\xa0\x80\":0,\"\xda\":1}",
	// More keys than the walk keeps in its small array.
	`{` + func() string {
		var b strings.Builder
		for i := range 20 {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		return b.String()
	}() + `"k7":0}`,
}

func TestDuplicateKeyAgreesWithTheTokenWalk(t *testing.T) {
	for _, in := range duplicateKeyCases {
		if got, want := duplicateKey([]byte(in)), duplicateKeyByTokens([]byte(in)); got != want && (json.Valid([]byte(in)) || got != "") {
			t.Errorf("duplicateKey(%s) = %q; the token walk: %q", in, got, want)
		}
	}
}

func FuzzDuplicateKeyAgreesWithTheTokenWalk(f *testing.F) {
	for _, in := range duplicateKeyCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 4096 {
			return
		}
		got, want := duplicateKey(b), duplicateKeyByTokens(b)
		// On valid JSON they agree exactly. On invalid JSON the token walk
		// may name a duplicate just before the syntax error (a key before
		// its missing colon), where the scanner stops at the error and
		// leaves it to the decoder: a 400 either way, never a different
		// duplicate.
		if got != want && (json.Valid(b) || got != "") {
			t.Fatalf("duplicateKey(%q) = %q; the token walk: %q", b, got, want)
		}
	})
}
