package podjson

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Strings: validated as they are scanned (scanString), read without a
// copy where they have no escape (str), decoded where they have
// (strEscaped, appendUnescapedJSON). The word-at-a-time (SWAR) tests of
// eight bytes at once live here too: numbers.go and keys.go use them.

// scanString validates the string token at r.i (at its opening quote) and
// returns its content bounds and whether it holds escapes.
func (r *jreader) scanString() (start, end int, escaped bool) {
	b := r.b
	i := r.i
	if i >= len(b) || b[i] != '"' {
		if r.peek() != '"' {
			r.fail("expected a string")
			return 0, 0, false
		}
		i = r.i
	}
	i++
	start = i
	for {
		if i = plainRunEnd(b, i); i >= len(b) {
			r.i = i
			r.fail("unterminated string")
			return 0, 0, false
		}
		switch c := b[i]; {
		case c == '"':
			r.i = i + 1
			return start, i, escaped
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				r.i = i
				r.fail("unterminated string")
				return 0, 0, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					r.i = i
					r.fail("invalid \\u escape")
					return 0, 0, false
				}
				i += 6
			default:
				r.i = i
				r.fail("invalid escape")
				return 0, 0, false
			}
		default:
			r.i = i
			r.fail("control character in a string")
			return 0, 0, false
		}
	}
}

func isHex4(b []byte) bool {
	for _, c := range b[:4] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
)

// load64 is binary.LittleEndian.Uint64(b[i:]) for an i that the caller
// knows to leave eight bytes (i+8 <= len(b)), without checking it again:
// the word loops over strings. (A *[8]byte, not unsafe.Slice: that one
// checks that the pointer plus the length does not overflow, four
// instructions a word.)
func load64(b []byte, i int) uint64 {
	// unsafe: reads b[i:i+8] unchecked, relying on the caller's i+8 <= len(b); FuzzStr, FuzzStrEscaped, FuzzInteger, FuzzFieldKeyOrders.
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))[:])
}

// specialStringBytes marks (in the high bit of each byte; exactly for the
// lowest one) the bytes of x that are control characters, quotes or
// backslashes. (Each test is the classic (y-k)&^y, y's bytes below k. x^2
// moves the quote, 0x22, to 0x20 and keeps 0x00-0x1f below 0x20 (and
// 0x20, 0x21, 0x23 at or above 0x21): its bytes below 0x21 are the
// control characters and the quote, one test for both. A byte of q or
// bs has the high bit of the same byte of x, so one &^x serves both.)
//
// It reads its constants from memory (swarK): as operands of its
// subtractions and its and, they cost no instruction of their own, where
// each constant spelled in the code is an instruction a word (the
// compiler puts it in a register again each time it is used).
func specialStringBytes(x uint64) uint64 {
	return ((x ^ swarK.q - swarK.q21) | (x ^ swarK.bs - swarK.ones)) &^ x & swarK.highs
}

// swarK holds specialStringBytes' constants: q and bs, xor-ed into x,
// give the words its comment calls q and bs; q21 and ones are the bounds
// of the two tests, highs the high bit of each byte.
var swarK = struct{ q, bs, q21, ones, highs uint64 }{
	swarOnes * 2, swarOnes * '\\', swarOnes * 0x21, swarOnes, swarHighs,
}

// maybeSpecialStringBytes is specialStringBytes without its &^x: it
// marks the special bytes of x and possibly bytes >= 0x80 (the &^x
// clears their marks), so that x has no special byte if it is 0. (Two
// instructions fewer a word in the loops over plain ASCII. Its constants
// come from swarK, as specialStringBytes' do: callgrind, -19.5 k a mixed
// list against spelled-out constants.)
func maybeSpecialStringBytes(x uint64) uint64 {
	return ((x ^ swarK.q - swarK.q21) | (x ^ swarK.bs - swarK.ones)) & swarK.highs
}

// plainStringByte marks the bytes that stand for themselves inside a JSON
// string: everything but control characters, the quote and the backslash.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainRunEnd returns the index of the first byte at or after i that is
// not plain in a JSON string (plainStringByte: a quote, a backslash or a
// control character), or len(b): eight bytes at a time (SWAR).
func plainRunEnd(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := specialStringBytes(load64(b, i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for _, c := range b[i:] {
		if !plainStringByte[c] {
			break
		}
		i++
	}
	return i
}

// str reads a string value.
func (r *jreader) str() string {
	// Fast path: a string without escapes right here. (plainRunEnd,
	// spelled out with a cheaper test of each word: this runs for every
	// string of a list, and its words are tested by
	// maybeSpecialStringBytes first, with the loop's bound computed once:
	// about 18 instructions a word instead of 26, callgrind.)
	b, i := r.b, r.i
	if uint(i) < uint(len(b)) && b[i] == '"' {
		j, last := i+1, len(b)-8
		for ; j <= last; j += 8 {
			if x := load64(b, j); maybeSpecialStringBytes(x) != 0 {
				if m := specialStringBytes(x); m != 0 {
					j += bits.TrailingZeros64(m) >> 3
					goto special
				}
			}
		}
		for uint(j) < uint(len(b)) && plainStringByte[b[j]] {
			j++
		}
		if uint(j) >= uint(len(b)) {
			goto slow
		}
	special:
		if c := b[j]; c == '"' {
			r.i = j + 1
			return r.substr(i+1, j)
		} else if c == '\\' && r.reuseStrings {
			if s, ok := r.strEscaped(i, j); ok {
				return s
			}
		}
	}
slow:
	start, end, escaped := r.scanString()
	if r.err != nil {
		return ""
	}
	if !escaped {
		return r.s[start:end]
	}
	if r.reuseStrings {
		// Into the pod's scratch (a string that grows it keeps the
		// memory it was written in).
		n := len(r.scratch)
		r.scratch = appendUnescapedJSON(r.scratch, r.b[start:end])
		if len(r.scratch) == n {
			return ""
		}
		// unsafe: a string view of scratch's new bytes, not rewritten while the pod is used (a grown scratch keeps its old memory); FuzzStrEscaped, FuzzStreamPodList.
		return unsafe.String(&r.scratch[n], len(r.scratch)-n)
	}
	return unescapeJSON(r.b[start:end])
}

// strEscaped is str, into r.scratch (reuseStrings), for the string
// whose opening quote is at q and first backslash at j (j > q, no
// special byte between): it validates and decodes in one pass (not
// scanString's pass and then appendUnescapedJSON's). Anything else than
// plain runs and valid escapes (a control character, the end of the
// input, a \u escape of a surrogate) leaves r and the contents of
// r.scratch as they were and returns false: the general path reads the
// string again (its result, or its error at its byte).
func (r *jreader) strEscaped(q, j int) (string, bool) {
	b := r.b
	n := len(r.scratch)
	out := append(r.scratch, b[q+1:j]...)
	i := j
escapes:
	for {
		// b[i] is a special byte (i < len(b)).
		if b[i] == '"' {
			break
		}
		if b[i] != '\\' || i+1 >= len(b) {
			goto fail
		}
		if c := escapedByte[b[i+1]]; c != 0 {
			out = append(out, c)
		} else if b[i+1] == 'u' {
			if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
				goto fail
			}
			c := hex4(b[i+2 : i+6])
			if utf16.IsSurrogate(c) {
				goto fail
			}
			out = utf8.AppendRune(out, c)
			i += 4
		} else {
			goto fail
		}
		i += 2
		// The plain run up to the next special byte, a word at a time
		// as in str, each word appended whole (one store, no call of
		// plainRunEnd and memmove for runs of a few bytes) and out cut
		// back to the run's end in the last one: the bytes written
		// past it are within out's capacity, in no string.
		for i <= len(b)-8 {
			x := load64(b, i)
			out = binary.LittleEndian.AppendUint64(out, x)
			if maybeSpecialStringBytes(x) != 0 {
				if m := specialStringBytes(x); m != 0 {
					k := bits.TrailingZeros64(m) >> 3
					out = out[:len(out)-8+k]
					i += k
					continue escapes
				}
			}
			i += 8
		}
		k := plainRunEnd(b, i)
		if k >= len(b) {
			goto fail
		}
		out = append(out, b[i:k]...)
		i = k
	}
	r.scratch = out
	r.i = i + 1
	// Every escape wrote a byte at least: out is longer than n.
	// unsafe: a string view of out's new bytes, as in str; FuzzStrEscaped, FuzzStreamPodList.
	return unsafe.String(&out[n], len(out)-n), true
fail:
	return "", false
}

// substr is r.s[start:end] for 0 <= start <= end < len(r.b) (end is a
// closing quote's index), without the checks of a slice expression (a
// dozen instructions a string).
func (r *jreader) substr(start, end int) string {
	// unsafe: r.b[start:end] unchecked, relying on 0 <= start <= end < len(r.b) (end is a closing quote's index); FuzzStr.
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(r.b)), start)), end-start)
}

// strOrNull reads a string; null reads as "".
func (r *jreader) strOrNull() string {
	if r.null() {
		return ""
	}
	return r.str()
}

// unescapeJSON decodes the content of a validated JSON string with escapes,
// as encoding/json does (lone surrogates become U+FFFD).
func unescapeJSON(b []byte) string {
	out := appendUnescapedJSON(make([]byte, 0, len(b)), b)
	if len(out) == 0 {
		return ""
	}
	// out is not used again: the string shares its memory (one
	// allocation, not two).
	// unsafe: a string view of out, which nothing else keeps or writes; FuzzStr.
	return unsafe.String(&out[0], len(out))
}

// appendUnescapedJSON appends the decoded content of a validated JSON
// string with escapes (unescapeJSON).
func appendUnescapedJSON(out, b []byte) []byte {
	for i := 0; i < len(b); {
		// The bytes up to the next escape at once.
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 {
			out = append(out, b[i:]...)
			break
		}
		out = append(out, b[i:i+j]...)
		i += j
		if c := escapedByte[b[i+1]]; c != 0 {
			out = append(out, c)
			i += 2
			continue
		}
		// \u, the string being valid.
		r1 := hex4(b[i+2 : i+6])
		i += 6
		if utf16.IsSurrogate(r1) {
			if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
				if dec := utf16.DecodeRune(r1, hex4(b[i+2:i+6])); dec != utf8.RuneError {
					out = utf8.AppendRune(out, dec)
					i += 6
					continue
				}
			}
			r1 = utf8.RuneError
		}
		out = utf8.AppendRune(out, r1)
	}
	return out
}

// escapedByte is the byte each one-character escape stands for (\" \\ \/
// \b \f \n \r \t), by the character after the backslash; 0 for the others
// (\u, or not an escape).
var escapedByte = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
