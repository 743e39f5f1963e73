package podjson

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
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

// FuzzFloat: a number as float reads it and AppendFloat writes it is
// encoding/json's (strconv's), for short decimals (the fast paths) and any
// other number.
func FuzzFloat(f *testing.F) {
	for _, s := range []string{"0", "-0", "0.69", "6.88", "1.38", "0.12", "100", "1.5", "0.000001", "0.0000001", "123456789012345",
		"1234567890123456", "0.1234567890123456789", "1e21", "-2.5", "999999999999999.9", "0.3", "3.14159", "00.5"} {
		f.Add(s, 0.0)
	}
	f.Add("1", 0.1+0.2)
	f.Add("1", 1e15-0.5)
	f.Fuzz(func(t *testing.T, tok string, x float64) {
		r := newJReader([]byte(tok))
		got := r.float()
		want, err := strconv.ParseFloat(strings.TrimLeft(tok, " \t\n\r"), 64)
		if r.err == nil && r.i == len(tok) {
			if err != nil || math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%q: float %v, ParseFloat %v (%v)", tok, got, want, err)
			}
			x = got
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		enc, _ := json.Marshal(x)
		if s := string(AppendFloat(nil, x)); s != string(enc) {
			t.Fatalf("appendJSONFloat(%v) = %s, encoding/json %s", x, s, enc)
		}
	})
}

// TestShortDecimals: the fast paths of float and AppendFloat on many
// decimals of up to 17 digits, and on random float64s, agree with strconv.
func TestShortDecimals(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 300000
	if testing.Short() {
		n = 20000
	}
	for range n {
		digits := 1 + r.IntN(17)
		m := r.Uint64N(uint64(math.Pow10(digits)))
		d := r.IntN(12)
		s := strconv.FormatUint(m, 10)
		for len(s) <= d {
			s = "0" + s
		}
		if d > 0 {
			s = s[:len(s)-d] + "." + s[len(s)-d:]
		}
		if r.IntN(4) == 0 {
			s = "-" + s
		}
		want, _ := strconv.ParseFloat(s, 64)
		jr := newJReader([]byte(s))
		if got := jr.float(); jr.err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%q: float %v (%v), ParseFloat %v", s, got, jr.err, want)
		}
		for _, x := range []float64{want, math.Float64frombits(r.Uint64()), r.Float64() * math.Pow10(r.IntN(22)-7), float64(r.IntN(1000000)) / 100} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			enc, _ := json.Marshal(x)
			if got := AppendFloat(nil, x); string(got) != string(enc) {
				t.Fatalf("appendJSONFloat(%v) = %s, encoding/json %s", x, got, enc)
			}
		}
	}
}

// TestFieldKeyLongKeys: a key recognised by place is compared whole, past
// the sixteen bytes of its words, first in its object and after a comma.
func TestFieldKeyLongKeys(t *testing.T) {
	long := "abcdefghijklmnopqrstuvwxyz"
	for n := 10; n <= len(long); n++ {
		k := long[:n]
		lits := keyLits("x", k)
		for at := 0; at < n; at++ {
			other := k[:at] + "_" + k[at+1:]
			for _, doc := range []string{`{"` + k + `":1,"x":2}`, `{"x":2,"` + k + `":1}`} {
				var ko keyOrder
				// The first object teaches the order, the second one is
				// read by it, with one byte of the long key changed.
				for pass, d := range []string{doc, strings.Replace(doc, k, other, 1)} {
					r := newJReader([]byte(d))
					r.beginFields(&ko)
					var got []uint8
					for {
						f, ok := r.fieldKey(&ko, lits)
						if !ok {
							break
						}
						got = append(got, f)
						r.skip()
					}
					f := uint8(2) // the long key, or unknown in the second
					if pass == 1 {
						f = 0
					}
					want := []uint8{f, 1}
					if d[2] == 'x' {
						want = []uint8{1, f}
					}
					if r.err != nil || !slices.Equal(got, want) {
						t.Fatalf("%s: fields %v, want %v (%v)", d, got, want, r.err)
					}
				}
			}
		}
	}
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

// FuzzInteger: integer (its fast path for plain digits) reads what
// integerToken reads, ends where it ends and fails as it fails.
// FuzzFloatFast: float (its fast path for short decimals) reads what
// floatToken (number, then parseShortDecimal or strconv) reads, ends where
// it ends and fails as it fails, whatever follows the number.
func FuzzFloatFast(f *testing.F) {
	for _, s := range []string{"0", "0,", "01,", "00.5,", "0.69}", "6.88,", "0.,", "1.}", ".5,", "1.2.3,", "0e1,", "1.5e3,", "1.5E,",
		"123456789012345,", "1234567890123456,", "12345678901234.5,", "1234567890123.45,", "0.00000000000001,", "-2.5,",
		" 1.5,", "7}", "12", "99999999999999999999999,", "1.23456789012345678901,"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r1, r2 := newJReader(b), newJReader(b)
		f1, f2 := r1.float(), r2.floatToken()
		if math.Float64bits(f1) != math.Float64bits(f2) || r1.i != r2.i || fmt.Sprint(r1.err) != fmt.Sprint(r2.err) {
			t.Fatalf("%q: float %v at %d (%v), floatToken %v at %d (%v)", b, f1, r1.i, r1.err, f2, r2.i, r2.err)
		}
	})
}

func FuzzInteger(f *testing.F) {
	for _, s := range []string{"0", "0,", "01,", "0.5,", "0e1,", "7}", "123456789012345678,", "1234567890123456789,", "99999999999999999999,", "-5,", " 5,", "5.,", "5e", "5E+1,", "12",
		// integer's word at a time path (8 bytes from the first digit).
		`1,"b":22}`, `22,"b":1}`, "8888},{\"a\"", "1234567,xxxxxx", "1234567}", "12345678,", "123456789012",
		"0,xxxxxxxx", "01234567", "00,xxxxxx", "0.5,xxxxxx", "0e1,xxxxxx", "1234567.5", "1234567e1", "123E4567",
		"5-123456", "9\xff\xff\xff\xff\xff\xff\xff", "9:;/*+-,", "7\x00\x00\x00\x00\x00\x00\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r1, r2 := newJReader(b), newJReader(b)
		n1, n2 := r1.integer(), r2.integerToken()
		if n1 != n2 || r1.i != r2.i || (r1.err == nil) != (r2.err == nil) || r1.err != nil && r1.err.Error() != r2.err.Error() {
			t.Fatalf("%q: integer %d at %d (%v), integerToken %d at %d (%v)", b, n1, r1.i, r1.err, n2, r2.i, r2.err)
		}
	})
}

// FuzzFieldKeyOrders: fieldKey, guessing each key from the keys of the
// objects before (the expected one, the one its place held before, the
// next one), reads every object as nextKey and a lookup in the table do —
// same fields, same error at the same byte — whatever the objects: kinds
// that alternate, keys missing or added, reordered, unknown, spaced,
// escaped, and malformed members (a comma first, two commas).
func FuzzFieldKeyOrders(f *testing.F) {
	f.Add(uint64(1), uint64(2), "")
	f.Add(uint64(3), uint64(4), `{,"b":1}`)
	f.Add(uint64(5), uint64(6), `{"a":1,,"b":1}`)
	f.Add(uint64(7), uint64(8), `{"a":1,"c":2 ,"d":3}`)
	keys := []string{"a", "bb", "cpu", "gpu", "dataCenterId", "globalNetworking", "abcdefghijklmnopqrstuvwxyz"}
	lits := keyLits(keys...)
	f.Fuzz(func(t *testing.T, s1, s2 uint64, extra string) {
		r := rand.New(rand.NewPCG(s1, s2))
		var docs []string
		base := slices.Clone(keys)
		for i := range 12 {
			if i == 6 && extra != "" {
				docs = append(docs, extra)
				continue
			}
			var b strings.Builder
			b.WriteByte('{')
			n := 0
			for j, k := range base {
				switch r.IntN(12) {
				case 0:
					continue // missing
				case 1:
					k = "unknown"
				case 2:
					k = base[r.IntN(len(base))]
				}
				if n > 0 {
					// (Mostly a comma: the separators other than a
					// comma are 1 in 40 each.)
					b.WriteString([]string{" , ", ",,", "", ","}[min(r.IntN(40), 3)])
				} else if r.IntN(40) == 0 {
					b.WriteByte(',')
				}
				if r.IntN(30) == 0 {
					k = `\u00` + strconv.FormatInt(int64(k[0]), 16) + k[1:]
				}
				fmt.Fprintf(&b, `"%s":%d`, k, j)
				n++
			}
			b.WriteByte('}')
			docs = append(docs, b.String())
			if r.IntN(3) == 0 { // another kind of object from now on
				i, j := r.IntN(len(base)), r.IntN(len(base))
				base[i], base[j] = base[j], base[i]
			}
		}
		var ko, inl keyOrder
		for _, d := range docs {
			checkFieldKeys(t, &ko, keys, lits, d)
			checkFieldKeysInline(t, &inl, keys, lits, d)
		}
	})
}

// fieldsByNextKey reads the members of the object d with nextKey, the
// reference for fieldKey: each member's field number (its index in keys
// plus one, 0 for another key), and the reader where it stopped.
func fieldsByNextKey(keys []string, d string) (want []uint8, ref *jreader) {
	ref = newJReader([]byte(d))
	if ref.beginObject() {
		first := true
		for k, ok := ref.nextKey(&first); ok; k, ok = ref.nextKey(&first) {
			f := uint8(0)
			if i := slices.Index(keys, k); i >= 0 {
				f = uint8(i + 1)
			}
			want = append(want, f)
			ref.skip()
		}
	}
	return want, ref
}

// checkFieldKeys reads the members of the object d with fieldKey (and
// the key orders ko) and with nextKey: the same fields, the same end,
// the same error.
func checkFieldKeys(t *testing.T, ko *keyOrder, keys []string, lits keyTable, d string) {
	t.Helper()
	want, ref := fieldsByNextKey(keys, d)
	var got []uint8
	fr := newJReader([]byte(d))
	if fr.beginFields(ko) {
		for {
			f, ok := fr.fieldKey(ko, lits)
			if !ok {
				break
			}
			got = append(got, f)
			fr.skip()
		}
	}
	if fmt.Sprint(ref.err) != fmt.Sprint(fr.err) || ref.i != fr.i || !slices.Equal(got, want) {
		t.Fatalf("%s: fieldKey %v (%v at %d), nextKey %v (%v at %d)", d, got, fr.err, fr.i, want, ref.err, ref.i)
	}
}

// checkFieldKeysInline is checkFieldKeys for the form of the decoder's
// loops: fieldKey's fast path spelled out before its call, where the
// closing brace learnt by the key order (closeKeyLit) is matched too.
// (d is followed by 24 spaces: the fast path needs 24 bytes of input.)
func checkFieldKeysInline(t *testing.T, ko *keyOrder, keys []string, lits keyTable, d string) {
	t.Helper()
	d += strings.Repeat(" ", 24)
	want, ref := fieldsByNextKey(keys, d)
	var got []uint8
	fr := newJReader([]byte(d))
	if fr.beginFields(ko) {
		for {
			var f uint8
			if v := ko.expected(); len(fr.b)-fr.i >= 24 && matchKey(v, fr.b, fr.i) {
				f = fr.takeKey(ko, v)
			} else {
				var ok bool
				if f, ok = fr.fieldKey(ko, lits); !ok {
					break
				}
			}
			if f == uint8(len(keys)+1) { // the closing brace
				break
			}
			got = append(got, f)
			fr.skip()
		}
	}
	if fmt.Sprint(ref.err) != fmt.Sprint(fr.err) || ref.i != fr.i || !slices.Equal(got, want) {
		t.Fatalf("%s: inline fieldKey %v (%v at %d), nextKey %v (%v at %d)", d, got, fr.err, fr.i, want, ref.err, ref.i)
	}
}

// TestFieldKeyPastKeyOrderLen: objects with more members than a keyOrder
// remembers (keyOrderLen) read the same with fieldKey as with nextKey,
// also when the keys past keyOrderLen are those of its first positions
// (whose literals have no comma) and a comma is missing there.
func TestFieldKeyPastKeyOrderLen(t *testing.T) {
	// (keyOrderLen is a multiple of len(keys): position keyOrderLen has
	// the key of position 0.)
	keys := []string{"a", "bb", "cpu", "dataCenterId"}
	lits := keyLits(keys...)
	obj := func(n int, sep func(j int) string) string {
		var b strings.Builder
		b.WriteByte('{')
		for j := range n {
			if j > 0 {
				b.WriteString(sep(j))
			}
			fmt.Fprintf(&b, `"%s":%d`, keys[j%len(keys)], j)
		}
		b.WriteByte('}')
		return b.String()
	}
	comma := func(int) string { return "," }
	var ko, inl keyOrder
	for _, d := range []string{
		obj(40, comma), obj(40, comma), obj(keyOrderLen, comma), obj(keyOrderLen+1, comma), obj(70, comma),
		obj(40, func(j int) string { return map[bool]string{true: "", false: ","}[j == keyOrderLen] }),
		obj(40, func(j int) string { return map[bool]string{true: "", false: ","}[j == keyOrderLen+1] }),
		obj(70, func(j int) string { return map[bool]string{true: "", false: ","}[j == 2*keyOrderLen] }),
		obj(40, comma),
	} {
		checkFieldKeys(t, &ko, keys, lits, d)
		checkFieldKeysInline(t, &inl, keys, lits, d)
	}
}

// TestPodErrorNamesField: an error in the value of a pod's field is
// named by the field (pod names it when it next reads a key, as an error
// leaves the reader at the end of its input), also past the positions a
// keyOrder remembers; an error in a key, or in the value of an unknown
// key, is not.
func TestPodErrorNamesField(t *testing.T) {
	many := `"id":"x"` + strings.Repeat(`,"zz":1`, 40)
	for _, c := range []struct{ doc, want string }{
		{`{"pods":[{"id":"a","gpu":5}]}`, "pods[0]: gpu: expected an object at byte 25"},
		{`{"pods":[{"id":"a","gpu":{"id":"x","count":"1"}}]}`, "pods[0]: gpu: expected a number at byte 43"},
		{`{"pods":[{"id":"a","disk":1.5,"name":"n"}]}`, "pods[0]: disk: expected an integer at byte 29"},
		{`{"pods":[{"id":7}]}`, "pods[0]: id: expected a string at byte 15"},
		{`{"pods":[{"id":"a","zz":[1,}]}`, "pods[0]: expected a number at byte 27"},
		{`{"pods":[{"id":"a",5:1}]}`, "pods[0]: expected a string at byte 19"},
		{`{"pods":[{"id":"a","runtime":{"ports":[{"private":"x"}]}}]}`, "pods[0]: runtime: expected a number at byte 50"},
		{`{"pods":[{"id":"a","env":[1 2]}]}`, "pods[0]: env: expected , or ] in an array at byte 28"},
		{`{"pods":[{"id":"a","cost":nul}]}`, "pods[0]: cost: expected a number at byte 26"},
		{`{"pods":[{` + many + `,"cpu":{"id":1}}]}`, "pods[0]: cpu: expected a string at byte 311"},
		{`{"pods":[{` + many + `,"locked":tru}]}`, "pods[0]: locked: expected a boolean at byte 308"},
		{`{"pods":[{"id":"a","name":"b"},{"id":"a","name":"b"},{"id":"a","name":"\x01"}]}`, "pods[2]: name: invalid escape at byte 71"},
		{`{"pods":[{"id":"a","status":"RUNNING","startedAt":5}]}`, "pods[0]: startedAt: expected a string at byte 50"},
		{`{"pods":[{"id":"a","status":"RUNNING"}  ,  {"id":"b", "mounts":{"persistent":{"size":-}}}]}`, "pods[1]: mounts: expected a number at byte 85"},
	} {
		_, err := DecodePodList([]byte(c.doc))
		var s PodStream
		s.Init([]byte(c.doc))
		var p V2Pod
		for s.Next(&p) {
		}
		err2 := s.Finish()
		if fmt.Sprint(err) != c.want || fmt.Sprint(err2) != c.want {
			t.Errorf("%s: decodePodList %v, podStream %v, want %s", c.doc, err, err2, c.want)
		}
	}
}

// TestKeyTablesEndWithTheirClosingBrace: the field numbers the decoder's
// switches name for a closing brace (gpuClose, …, pfCount) are those of
// the last entry of each table, closeKeyLit, one past its keys.
func TestKeyTablesEndWithTheirClosingBrace(t *testing.T) {
	for _, c := range []struct {
		name  string
		lits  keyTable
		close uint8
	}{
		{"pod", podKeyLits, pfCount},
		{"gpu", gpuKeyLits, gpuClose},
		{"cpu", cpuKeyLits, cpuClose},
		{"runtime", runtimeKeyLits, runtimeClose},
		{"mounts", mountsKeyLits, mountsClose},
		{"persistent", persistentKeyLits, persistentClose},
		{"runtime port", rtPortKeyLits, rtPortClose},
	} {
		last := c.lits[len(c.lits)-1]
		if f := keyWordsTab.w[last.v[0]].f; last.s != "}" || f != c.close || int(c.close) != len(c.lits)-1 {
			t.Errorf("%s: last entry %q with field %d in a table of %d; the decoder names its closing brace %d",
				c.name, last.s, f, len(c.lits), c.close)
		}
	}
}
