package podjson

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// FuzzStr: a string as str reads it is encoding/json's (for valid UTF-8:
// str keeps invalid bytes, which AppendString replaces as
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

// FuzzStrEscaped: str with reuseStrings (strEscaped, its one pass over a
// string with escapes into r.scratch) reads what the general path reads
// (scanString, then appendUnescapedJSON), ends where it ends, fails as
// it fails, and leaves what r.scratch held before.
func FuzzStrEscaped(f *testing.F) {
	for _, s := range []string{`"a\"b\\c\/d\be\ff\ng\rh\ti"`, `"\u00e9\ud83d\ude00\ud83d x\udc00"`, `"x\u2028y"`, `"\u00e9\u00"`,
		"\"caf\xc3\xa9 \\\"q\\\"\"", `"\x"`, `"abc\"`, `"ab\"c`, "\"a\\n\x01\"", `"notebook \"1\""`, `"a\\"`, `"\\"`,
		`"python -m vllm.entrypoints.openai.api_server --model 'meta-llama/Llama-3.1-8B-Instruct' --served-model-name \"llama 3\""`,
		// Bytes >= 0x80 in the words of str's loop, before and after
		// the quote (its first test marks them too).
		"\"\xff\x80\xa2\xdc\xc3\xa9\xe2\x80\xa8\"", "\"caf\xc3\xa9 \xa2\xa2\xa2\xa2\xa2\xa2\xa2\"\xa2\xdc\xff",
		// Runs of strEscaped's word loop: long, with bytes >= 0x80,
		// ending at a word's edge, cut by the end of the input.
		"\"a\\nbcdefghijklmnopq\xc3\xa9rstuvwxyz\\t01234567\\r\"xyz", "\"a\\nbcdefghijklmnop", "\"a\\n1234567\\n12345678\""} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, b []byte, pre uint8) {
		prefix := bytes.Repeat([]byte{'p'}, int(pre%20))
		r := newJReader(b)
		r.reuseStrings = true
		r.scratch = append(make([]byte, 0, int(pre%32)), prefix...)
		got := r.str()
		if !bytes.Equal(r.scratch[:len(prefix)], prefix) {
			t.Fatalf("%q: scratch %q, held %q", b, r.scratch, prefix)
		}
		g := newJReader(b)
		var want string
		if start, end, escaped := g.scanString(); g.err == nil {
			want = string(b[start:end])
			if escaped {
				want = string(appendUnescapedJSON(nil, b[start:end]))
			}
		}
		if got != want || r.i != g.i || fmt.Sprint(r.err) != fmt.Sprint(g.err) {
			t.Fatalf("%q: str %q at %d (%v), general path %q at %d (%v)", b, got, r.i, r.err, want, g.i, g.err)
		}
	})
}

// TestSpecialStringBytes: the SWAR test marks the lowest special byte of
// a word exactly (the bytes above it may be marked too), on words made of
// the bytes around the special ones.
func TestSpecialStringBytes(t *testing.T) {
	bytesAt := []byte{0, 1, 2, 3, 0x1d, 0x1e, 0x1f, 0x20, 0x21, '"', 0x23, 0x24, 0x5b, '\\', 0x5d, 0x5e, 0x7f, 0x80, 0xa0, 0xa1, 0xa2, 0xa3, 0xdc, 0xde, 0xdf, 0xff}
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 200000 + 256*8*4 {
		var w [8]byte
		for k := range w {
			w[k] = bytesAt[r.IntN(len(bytesAt))]
		}
		if n >= 200000 {
			// Every byte at every place, after plain bytes and
			// before random ones.
			c, at := (n-200000)/32, (n-200000)%32/4
			for k := range at {
				w[k] = 'a'
			}
			w[at] = byte(c)
		}
		x := binary.LittleEndian.Uint64(w[:])
		m := specialStringBytes(x)
		lowest := 8
		for k, c := range w {
			if c < 0x20 || c == '"' || c == '\\' {
				lowest = k
				break
			}
		}
		got := 8
		if m != 0 {
			got = bits.TrailingZeros64(m) >> 3
		}
		if got != lowest || m&^swarHighs != 0 {
			t.Fatalf("% x: marks %x, lowest special byte %d", w, m, lowest)
		}
		if plain := x&swarHighs == 0 && lowest == 8; plainASCII8(x) != plain {
			t.Fatalf("% x: plainASCII8 %v", w, !plain)
		}
	}
}
