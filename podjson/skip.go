package podjson

import (
	"math/bits"
	"unsafe"
)

// Skipping: the values a pod has that v1 has no use for are validated
// all the same (an answer that is not JSON is refused, not translated),
// by skipFast without a call per token, falling back on skipDepth for
// errors and deep nesting.

// skip validates and skips any value. (Inlined: skipFast falls back on
// skipDepth itself.)
func (r *jreader) skip() { r.skipFast() }

// skipFastDepth is the nesting skipFast handles (a bit of a word each,
// under the bit that marks the bottom).
const skipFastDepth = 63

// closer is the byte that closes an array (0) or an object (1).
var closer = [2]byte{']', '}'}

// skipFast is skip: for a valid value nested at most skipFastDepth deep,
// it validates exactly as skipDepth does, without a call per token, and
// returns true. On anything else (an error, the end of the input, deeper
// nesting) it leaves r.i where the value starts, has skipDepth read the
// value again (and fail with its message, at its byte), and returns
// false.
func (r *jreader) skipFast() bool {
	b := r.b
	i := r.i
	// The open containers, innermost in bit 0 (1: an object, 0: an
	// array), above a 1 bit: 1 when none is open.
	objs := uint64(1)
	key := false        // a member's key comes next, not a value
	last8 := len(b) - 8 // the last index a word can be read from
	for {
		// A value, or a key.
		if uint(i) >= uint(len(b)) {
			goto slow
		}
		switch c := b[i]; {
		case c == '"':
			// A string, eight bytes at a time (SWAR), as scanString
			// (with load64 spelled out as its bytes: one load all the
			// same, where load64, inlined, adds a no-op to the loop,
			// the mark of the inlined call).
			i++
			for {
				for ; i <= last8; i += 8 {
					// unsafe: reads b[i:i+8] unchecked, i <= last8 = len(b)-8 by the loop; FuzzSkipFast.
					w := (*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
					x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
						uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
					if m := specialStringBytes(x); m != 0 {
						i += bits.TrailingZeros64(m) >> 3
						goto special
					}
				}
				for uint(i) < uint(len(b)) && plainStringByte[b[i]] {
					i++
				}
				if uint(i) >= uint(len(b)) {
					goto slow
				}
			special:
				// unsafe: reads b[i] without checking it again, i < len(b) on both ways here; FuzzSkipFast.
				if *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i)) == '"' {
					i++
					break
				}
				if b[i] != '\\' || i+1 >= len(b) {
					goto slow
				}
				switch b[i+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					i += 2
				case 'u':
					if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
						goto slow
					}
					i += 6
				default:
					goto slow
				}
			}
			if key {
				// The colon, right here in compact JSON.
				if uint(i) >= uint(len(b)) || b[i] != ':' {
					if i = skipWS(b, i); uint(i) >= uint(len(b)) || b[i] != ':' {
						goto slow
					}
				}
				i++
				key = false
				continue
			}
		case c <= ' ':
			// (After strings: compact JSON has no whitespace.)
			if j := skipWS(b, i); j != i {
				i = j
				continue
			}
			goto slow
		case key:
			goto slow
		case c == '{':
			if i++; uint(i) < uint(len(b)) && b[i] <= ' ' {
				i = skipWS(b, i)
			}
			if uint(i) < uint(len(b)) && b[i] == '}' {
				i++
				break
			}
			if objs>>skipFastDepth != 0 {
				goto slow
			}
			objs = objs<<1 | 1
			key = true
			continue
		case c == '[':
			if i++; uint(i) < uint(len(b)) && b[i] <= ' ' {
				i = skipWS(b, i)
			}
			if uint(i) < uint(len(b)) && b[i] == ']' {
				i++
				break
			}
			if objs>>skipFastDepth != 0 {
				goto slow
			}
			objs <<= 1
			continue
		case c == 't':
			if len(b)-i < 4 || string(b[i:i+4]) != "true" {
				goto slow
			}
			i += 4
		case c == 'f':
			if len(b)-i < 5 || string(b[i:i+5]) != "false" {
				goto slow
			}
			i += 5
		case c == 'n':
			if len(b)-i < 4 || string(b[i:i+4]) != "null" {
				goto slow
			}
			i += 4
		default:
			// A plain integer ([1-9][0-9]*, neither fraction nor
			// exponent after it) here; any other number by skipNum.
			if j := i + 1; c-'1' < 9 {
				for j < len(b) && b[j]-'0' < 10 {
					j++
				}
				if j < len(b) && b[j] != '.' && b[j]|0x20 != 'e' {
					i = j
					break
				}
			}
			if i = skipNum(b, i); i < 0 {
				goto slow
			}
		}
		// After a value: the end of the skipped one, or what follows a
		// member or an element.
		for {
			if objs == 1 {
				r.i = i
				return true
			}
			if uint(i) >= uint(len(b)) {
				goto slow
			}
			// (Whitespace last: compact JSON has none.)
			if c := b[i]; c == ',' {
				i++
				key = objs&1 != 0
				break
			} else if c == closer[objs&1] {
				i++
				objs >>= 1
				continue
			} else if c <= ' ' {
				if j := skipWS(b, i); j != i {
					i = j
					continue
				}
			}
			goto slow
		}
	}
slow:
	r.skipDepth(0)
	return false
}

// skipWS returns the index of the first non-space byte of b from i.
func skipWS(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func (r *jreader) skipDepth(depth int) {
	if depth > maxJSONDepth {
		r.err = errJSONDepth
		r.i = len(r.b)
		return
	}
	switch r.peek() {
	case '{':
		r.i++
		first := true
		for _, ok := r.nextKey(&first); ok; _, ok = r.nextKey(&first) {
			r.skipDepth(depth + 1)
		}
	case '[':
		r.i++
		first := true
		for r.nextElem(&first) {
			r.skipDepth(depth + 1)
		}
	case '"':
		r.scanString()
	case 't':
		if !r.literal("true") {
			r.fail("invalid literal")
		}
	case 'f':
		if !r.literal("false") {
			r.fail("invalid literal")
		}
	case 'n':
		if !r.literal("null") {
			r.fail("invalid literal")
		}
	default:
		r.number()
	}
}
