package podjson

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

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
