package podjson

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// JSON encoding: appends to one buffer, no reflection (the counterpart
// of decode.go's decoder). This file writes JSON values as encoding/json
// writes them (strings, floats, integers) and the members of an object
// (jw); encodepod.go writes v1 pods with them, and encodeargs.go their
// dockerStartCmd.

// AppendString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD (as
// encoding/json does, minus its HTML escaping, which JSON does not need).
func AppendString(b []byte, s string) []byte {
	// Room for s and its quotes is made first (escapes, which are rare,
	// grow b further as they come), so that plain strings, which most
	// are, are written by stores into it without a check per store.
	if cap(b)-len(b) < len(s)+2 {
		b = slices.Grow(b, len(s)+2)
	}
	n := len(b)
	d := b[:n+len(s)+2]
	// Both quotes first: the copies below end before the closing one.
	d[n] = '"'
	d[len(d)-1] = '"'
	if len(s) < 8 {
		// Short plain strings (words of args, ids, counts' names): one
		// check of all their bytes at once.
		if plainShortASCII(s) {
			copy(d[n+1:], s)
			return d
		}
		return appendJSONStringFrom(d[:n+1], s, 0)
	}
	// Plain ASCII (no quote, backslash or control character) is checked
	// and copied eight bytes at a time (SWAR): whole words, then the last
	// eight bytes, overlapping the ones already written.
	// unsafe: a read-only byte view of s, never written through; FuzzAppendJSONString.
	w := unsafe.Slice(unsafe.StringData(s), len(s))
	last := len(w) - 8
	i := 0
	for ; i < last; i += 8 {
		x := load64(w, i)
		if !plainASCII8(x) {
			return appendJSONStringFrom(d[:n+1+i], s, i)
		}
		store64(d, n+1+i, x)
	}
	x := load64(w, last)
	if !plainASCII8(x) {
		return appendJSONStringFrom(d[:n+1+i], s, i)
	}
	store64(d, n+1+last, x)
	return d
}

// appendJSONStringFrom is AppendString from s[i:] on, b ending with
// the opening quote and s[:i], which is plain ASCII.
func appendJSONStringFrom(b []byte, s string, i int) []byte {
	// unsafe: a read-only byte view of s, never written through; FuzzAppendJSONString.
	w := unsafe.Slice(unsafe.StringData(s), len(s))
	start := i
	for i < len(s) {
		// Eight plain ASCII bytes at a time (SWAR).
		if i+8 <= len(s) {
			if plainASCII8(load64(w, i)) {
				i += 8
				continue
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigit[c>>4], hexDigit[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigit[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// store64 is binary.LittleEndian.PutUint64(b[i:], x) for an i that the
// caller knows to leave eight bytes in b's capacity (i+8 <= cap(b); the
// bytes past len(b) are for the caller to keep or not), without checking
// it again (load64's counterpart).
func store64(b []byte, i int, x uint64) {
	// unsafe: writes b[i:i+8] unchecked, relying on the caller's i+8 <= cap(b); FuzzAppendJSONString, FuzzAppendPodArgs, FuzzArgRunEnd.
	binary.LittleEndian.PutUint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))[:], x)
}

// plainShortASCII reports whether s, shorter than eight bytes, is ASCII
// that stands for itself in a JSON string: its bytes gathered into one
// word (overlapping when there are four or more, padded with 'a' when
// fewer) and checked at once.
func plainShortASCII(s string) bool {
	var x uint64
	switch n := len(s); {
	case n >= 4:
		// unsafe: read-only views of s's first and last four bytes (n >= 4 here); FuzzAppendJSONString.
		x = uint64(binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s), 4))) |
			uint64(binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s[n-4:]), 4)))<<32
	case n > 0:
		x = uint64(s[0]) | uint64(s[n>>1])<<8 | uint64(s[n-1])<<16 | 0x6161616161000000
	default:
		return true
	}
	return plainASCII8(x)
}

// plainASCII8 reports whether the eight bytes of x are ASCII that stands
// for itself in a JSON string.
// (specialStringBytes without its &^x: with x or-ed in instead, a byte
// is marked if it is not ASCII or is special; x^2's bytes below 0x21 are
// the control characters and the quote, as there.)
func plainASCII8(x uint64) bool {
	q := x ^ (swarOnes * 2)
	bs := x ^ (swarOnes * '\\')
	return ((q-swarOnes*0x21)|(bs-swarOnes)|x)&swarHighs == 0
}

const hexDigit = "0123456789abcdef"

// AppendFloat formats f as encoding/json does.
func AppendFloat(b []byte, f float64) []byte {
	if f == 0 && !math.Signbit(f) {
		return append(b, '0')
	}
	if f >= 1e-6 && f < 1e15 {
		// Prices: a few decimals. The decimal m/10^d with the fewest
		// decimals d that reads back as f (m/10^d correctly rounded: m
		// and 10^d are exact) is strconv's shortest form when m has at
		// most 15 digits: two decimals of at most 15 significant digits
		// never read as the same float64, so no shorter one does.
		// RoundToEven (one instruction) rather than Round: they differ
		// only when f*10^d is a half-integer k+1/2, and then neither k
		// nor k+1 over 10^d reads back as f (both lie ~1/2 of 10^-d from
		// it, farther than half a float64 step below 1e15/10^d), so the
		// loop takes the same turns either way.
		for d := 0; d <= 8; d++ {
			m := math.RoundToEven(f * float64pow10[d])
			if m >= 1e15 {
				break
			}
			if m/float64pow10[d] == f {
				if u := uint64(m); d == 0 || u%10 != 0 {
					return appendDecimal(b, u, d)
				}
				break
			}
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, '0') // cannot come from JSON input
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// float64pow10 are the powers of ten that a float64 holds exactly.
var float64pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// appendDecimal appends m/10^d in decimal notation (d decimals, at least
// one digit before the point).
func appendDecimal(b []byte, m uint64, d int) []byte {
	var buf [24]byte // m < 1e15, d <= 8
	i := len(buf)
	for range d {
		i--
		buf[i] = byte('0' + m%10)
		m /= 10
	}
	if d > 0 {
		i--
		buf[i] = '.'
	}
	for {
		i--
		buf[i] = byte('0' + m%10)
		if m /= 10; m == 0 {
			break
		}
	}
	return append(b, buf[i:]...)
}

// appendInt is strconv.AppendInt(b, int64(v), 10) with 0..99 (sizes,
// counts: most of a pod's numbers) written inline, and up to nine digits
// (public ports: 10000 and up) written straight into b, last digit first:
// strconv formats into a buffer of its own and copies it (memmove), about
// 170 instructions a port instead of about 50.
//
// Inlined: most numbers are one digit (counts), for which the call cost
// as much as the rest; appendIntSlow writes the others.
func appendInt(b []byte, v int) []byte {
	if uint(v) < 10 {
		return append(b, byte('0'+v))
	}
	return appendIntSlow(b, v)
}

// appendIntSlow is appendInt for v outside 0..9.
func appendIntSlow(b []byte, v int) []byte {
	if uint(v) < 100 {
		return append(b, byte('0'+v/10), byte('0'+v%10))
	}
	if uint(v) >= 1e9 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	u := uint32(v)
	n := 3
	for p := uint32(1000); u >= p; p *= 10 {
		n++ // p stays below 1e9 < 1<<32: u < 1e9 stops the loop first
	}
	l := len(b)
	b = slices.Grow(b, n)[:l+n]
	d := b[l : l+n]
	for i := n - 1; i > 0; i-- {
		d[i] = byte('0' + u%10)
		u /= 10
	}
	d[0] = byte('0' + u)
	return b
}

// jw appends the members of one JSON object.
type jw struct {
	b     []byte
	first bool
}

func (w *jw) key(k string) {
	if w.first {
		w.first = false
	} else {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
}

func (w *jw) str(k, v string) { w.key(k); w.b = AppendString(w.b, v) }

func (w *jw) strOmit(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

// strNull writes v, or null when it is "" (NullableString).
func (w *jw) strNull(k, v string) {
	w.key(k)
	if v == "" {
		w.b = append(w.b, "null"...)
	} else {
		w.b = AppendString(w.b, v)
	}
}

func (w *jw) int(k string, v int) { w.key(k); w.b = appendInt(w.b, v) }

// intPtr writes *v, or null when v is nil.
func (w *jw) intPtr(k string, v *int) {
	if v == nil {
		w.null(k)
	} else {
		w.int(k, *v)
	}
}

func (w *jw) null(k string) { w.key(k); w.b = append(w.b, "null"...) }

func (w *jw) float(k string, v float64) {
	w.key(k)
	w.b = AppendFloat(w.b, v)
}

func (w *jw) floatPtr(k string, v *float64) {
	if v != nil {
		w.float(k, *v)
	}
}

func (w *jw) boolean(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *jw) raw(k string, v []byte) { w.key(k); w.b = append(w.b, v...) }

func (w *jw) strs(k string, v []string) {
	w.key(k)
	w.b = append(w.b, '[')
	for i, s := range v {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = AppendString(w.b, s)
	}
	w.b = append(w.b, ']')
}
