package podjson

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

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

// FuzzInteger: integer (its fast path for plain digits) reads what
// integerToken reads, ends where it ends and fails as it fails.
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
