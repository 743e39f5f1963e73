package podjson

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// jreader: the small JSON scanner behind the pod decoder (decode.go). It
// validates as it reads (RFC 8259: strings, escapes, numbers, literals,
// nesting bounded by maxJSONDepth) and hands out strings that share the
// input's memory. fieldKey recognises the members of an object by the
// order of the previous object of its kind (v2 answers repeat one order),
// falling back to a table lookup.

// maxJSONDepth bounds nesting in skipped values.
const maxJSONDepth = 256

var errJSONDepth = errors.New("JSON nested too deeply")

// jreader scans one JSON document. The first error stops it: every method
// then returns zero values and loops end.
type jreader struct {
	b   []byte
	s   string // the same bytes as a string, for allocation-free substrings
	i   int
	err error
	// base is the offset of b[0] in the document (non-zero when b is a
	// window on an answer read as a stream: PodStream.src), for messages.
	base int

	// Where the parts of pods are decoded.
	PodStorage

	// stream: pods are decoded one at a time into reused storage (see
	// PodStream).
	stream bool
	// reuseStrings: the strings with escapes of a pod are decoded into
	// scratch, reused by the next pod (set where a pod's strings are
	// already valid only until the next one: a stream read through a
	// window, PodStream.InitReader).
	reuseStrings bool
	// podField is the field of the pod member read last (pod), to name
	// it in an error.
	podField uint8

	// The order of keys in the previous object of each kind (fieldKey).
	keyOrders
}

// PodStorage is where a jreader puts the parts of the pods it decodes:
// chunked storage for the small structs of many pods (one allocation per
// chunk instead of one per pod); in stream mode, net is the reused buffer
// of network mounts and scratch that of strings with escapes
// (reuseStrings). A stream reuses it for each pod (resetPodStorage); a
// caller that streams many answers keeps one for the next stream
// (PodStream.InitReader, PodStream.Release) and empties it with Clear
// before it keeps it.
type PodStorage struct {
	gpus    slab[V2PodGPU]
	cpus    slab[V2PodCPU]
	mounts_ slab[V2PersistentMount]
	rts     slab[V2PodRuntime]
	ports   []V2RuntimePort
	net     []V2NetworkMount
	scratch []byte
}

// Past these sizes a buffer of a PodStorage is dropped by Clear, not kept.
const (
	maxKeptPorts        = 1024
	maxKeptNetMounts    = 64
	maxKeptScratchBytes = 64 << 10
)

// Clear empties st for another reader: no element keeps a reference
// (to strings of an answer, to other storage), and a buffer grown past
// what usual pods need is dropped.
func (st *PodStorage) Clear() {
	st.gpus.clear()
	st.cpus.clear()
	st.mounts_.clear()
	st.rts.clear()
	st.ports = keepCleared(st.ports, maxKeptPorts)
	st.net = keepCleared(st.net, maxKeptNetMounts)
	st.scratch = keepEmpty(st.scratch, maxKeptScratchBytes)
}

// keyOrders are the key orders of each kind of object a jreader has seen.
type keyOrders struct {
	podKeys, rtKeys, portKeys, gpuKeys, cpuKeys, mountKeys, persistentKeys keyOrder
}

// slab hands out pointers to elements of chunks that never grow in place,
// so that the pointers stay valid.
type slab[T any] struct{ buf []T }

// clear empties the current chunk and zeroes its elements (earlier
// chunks are left to the elements handed out from them).
func (s *slab[T]) clear() { s.buf = keepCleared(s.buf, cap(s.buf)) }

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, 32)
	}
	s.buf = s.buf[:len(s.buf)+1]
	e := &s.buf[len(s.buf)-1]
	// Zeroed: in stream mode the element held the previous pod's part,
	// and a part given only in part must not keep its values.
	var zero T
	*e = zero
	return e
}

// newJReader reads b. Decoded strings share b's memory (no copy): b must
// not be modified while they are in use (answers are read once, never
// written).
func newJReader(b []byte) *jreader {
	return &jreader{b: b, s: unsafe.String(unsafe.SliceData(b), len(b))}
}

func (r *jreader) fail(msg string) {
	if r.err == nil {
		r.err = errors.New(msg + " at byte " + strconv.Itoa(r.base+r.i))
	}
	r.i = len(r.b)
}

func (r *jreader) ws() {
	if r.i < len(r.b) && r.b[r.i] > ' ' {
		return // compact JSON: the common case
	}
	i, b := r.i, r.b
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	r.i = i
}

// peek returns the next non-space byte, 0 at the end.
func (r *jreader) peek() byte {
	if r.i < len(r.b) && r.b[r.i] > ' ' {
		return r.b[r.i]
	}
	r.ws()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

// end checks that nothing but whitespace follows the document.
func (r *jreader) end() {
	r.ws()
	if r.err == nil && r.i != len(r.b) {
		r.fail("unexpected data after the JSON value")
	}
}

func (r *jreader) literal(lit string) bool {
	if len(r.b)-r.i >= len(lit) && r.s[r.i:r.i+len(lit)] == lit {
		r.i += len(lit)
		return true
	}
	return false
}

// null consumes a null if there is one. (Inlined: most values are not
// null, and their first byte is right here.)
func (r *jreader) null() bool {
	if r.i < len(r.b) && notNullStart[r.b[r.i]] {
		return false
	}
	return r.nullSlow()
}

// notNullStart marks the bytes that start a value other than null.
var notNullStart = func() (t [256]bool) {
	for c := '!'; c < 256; c++ {
		t[c] = c != 'n'
	}
	return t
}()

// nullSlow is null past whitespace, at a null or at the end.
func (r *jreader) nullSlow() bool {
	// A null right here first (compact JSON: no call of peek).
	if i := r.i; len(r.b)-i >= 4 && r.s[i:i+4] == "null" {
		r.i = i + 4
		return true
	}
	if r.peek() == 'n' {
		if r.literal("null") {
			return true
		}
		r.fail("invalid literal")
	}
	return false
}

func (r *jreader) beginObject() bool {
	if r.i < len(r.b) && r.b[r.i] == '{' {
		r.i++
		return true
	}
	return r.beginObjectSlow()
}

// beginObjectSlow is beginObject past whitespace (or failing). (The
// fast path above spares the call of peek; it is one node too big to be
// inlined.)
func (r *jreader) beginObjectSlow() bool {
	if r.peek() != '{' {
		r.fail("expected an object")
		return false
	}
	r.i++
	return true
}

// nextKey advances to the next member of an object and returns its key; it
// returns false at the closing brace (or on error).
func (r *jreader) nextKey(first *bool) (string, bool) {
	// Fast path for compact JSON: `"key":` or `,"key":` right here.
	b, i := r.b, r.i
	if i < len(b) {
		c := b[i]
		if c == '}' {
			r.i = i + 1
			return "", false
		}
		fast := false
		if *first && c == '"' {
			*first, fast = false, true
		} else if !*first && c == ',' && i+1 < len(b) && b[i+1] == '"' {
			r.i, fast = i+1, true
		}
		if fast {
			key := r.str()
			if r.i < len(b) && b[r.i] == ':' {
				r.i++
				return key, r.err == nil
			}
			return r.colon(key)
		}
	}
	c := r.peek()
	if r.err != nil {
		return "", false
	}
	if c == '}' {
		r.i++
		return "", false
	}
	if *first {
		*first = false
	} else {
		if c != ',' {
			r.fail("expected , or } in an object")
			return "", false
		}
		r.i++
		r.ws()
	}
	return r.colon(r.str())
}

// colon consumes the colon after an object key.
func (r *jreader) colon(key string) (string, bool) {
	if r.peek() != ':' {
		r.fail("expected : after an object key")
		return "", false
	}
	r.i++
	return key, r.err == nil
}

func (r *jreader) beginArray() bool {
	if r.peek() != '[' {
		r.fail("expected an array")
		return false
	}
	r.i++
	return true
}

// nextElem advances to the next element of an array; false at the closing
// bracket (or on error).
func (r *jreader) nextElem(first *bool) bool {
	// peek's fast case here (no call): the byte right here, not a space.
	// (r.err is nil then: an error leaves r.i at the end.)
	var c byte
	if r.i < len(r.b) && r.b[r.i] > ' ' {
		c = r.b[r.i]
	} else if c = r.peek(); r.err != nil {
		return false
	}
	if c == ']' {
		r.i++
		return false
	}
	if *first {
		*first = false
		return true
	}
	if c != ',' {
		r.fail("expected , or ] in an array")
		return false
	}
	r.i++
	return true
}

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
	return unsafe.String(&out[n], len(out)-n), true
fail:
	return "", false
}

// substr is r.s[start:end] for 0 <= start <= end < len(r.b) (end is a
// closing quote's index), without the checks of a slice expression (a
// dozen instructions a string).
func (r *jreader) substr(start, end int) string {
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(r.b)), start)), end-start)
}

// strOrNull reads a string; null reads as "".
func (r *jreader) strOrNull() string {
	if r.null() {
		return ""
	}
	return r.str()
}

// intOrNull reads an integer; null reads as 0.
func (r *jreader) intOrNull() int {
	if r.null() {
		return 0
	}
	return r.integer()
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

// number scans a number token and returns it.
func (r *jreader) number() string {
	r.ws()
	start := r.i
	i := skipNum(r.b, start)
	if i < 0 {
		// The message says which part is wrong; the byte is the token's
		// first either way.
		j := start
		if j < len(r.b) && r.b[j] == '-' {
			j++
		}
		if j < len(r.b) && r.b[j] >= '0' && r.b[j] <= '9' {
			r.fail("invalid number")
		} else {
			r.fail("expected a number")
		}
		return ""
	}
	r.i = i
	return r.s[start:i]
}

// integer reads an integer that fits an int (as encoding/json into int:
// no fraction, no exponent).
//
// Fast path: compact JSON, 1 to 7 digits without a sign, with 8 bytes of
// input from the first digit, read as one word (SWAR) and not digit by
// digit: the digits are the bytes below the lowest byte that is not a
// digit, followed by something that is neither a fraction nor an exponent
// (what comes after the number is checked by the caller, as integerToken
// leaves it). A leading 0 is the whole number, as integerToken reads it
// ("01" is 0, then the 1 left for the caller). Anything else is
// integerToken's.
func (r *jreader) integer() int {
	if b, i := r.b, r.i; len(b)-i >= 8 {
		x := load64(b, i)
		t := x ^ swarD.zeros // a digit's byte is its value, 0 to 9
		// The high bit of each byte of t above 9 (exact for the lowest
		// one: no carry reaches it from the digits below it).
		m := (t + swarD.above9 | t) & swarK.highs
		if byte(t) == 0 {
			m |= 0x8000 // a leading 0 is one digit
		}
		// The lowest marked byte's high bit: 8*digits + 7. (Bit 63
		// spares the test of m == 0: 8 digits, the last one taken
		// for what follows the number, go to integerToken.)
		if hb := uint(bits.TrailingZeros64(m | 1<<63)); hb >= 15 && !numberCont[byte(x>>(hb&56))] {
			r.i = i + int(hb>>3)
			// The digits at the top of the word (the first one
			// most significant, as in a number written the other
			// way round), then added up in pairs, fours, eights.
			v := t << ((64 - hb&56) & 63)
			v = v * (10<<8 + 1) >> 8 & swarD.pairs
			v = v * (100<<16 + 1) >> 16 & swarD.quads
			return int(v * swarD.k10000 >> 32)
		}
	}
	return r.integerToken()
}

// numberCont marks the bytes that continue a number: digits, and the
// start of a fraction or an exponent.
var numberCont = [256]bool{
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	'.': true, 'e': true, 'E': true,
}

// swarD holds integer's constants (read from memory, as swarK's): zeros
// is '0' in each byte; above9 carries a byte's value above 9 into its
// high bit; pairs, quads and k10000 add up the digits of a word (each
// step's products stay within their lanes: 99, 9999).
var swarD = struct{ zeros, above9, pairs, quads, k10000 uint64 }{
	swarOnes * '0', swarOnes * (0x80 - 10), 0x00ff00ff00ff00ff, 0x0000ffff0000ffff, 10000<<32 + 1,
}

// integerToken is integer for any number token.
func (r *jreader) integerToken() int {
	tok := r.number()
	if r.err != nil {
		return 0
	}
	if len(tok) <= 18 {
		// Fast path: at most 18 digits cannot overflow an int64.
		neg := tok[0] == '-'
		digits := tok
		if neg {
			digits = tok[1:]
		}
		var n int64
		for i := 0; i < len(digits); i++ {
			c := digits[i]
			if c < '0' || c > '9' {
				r.fail("expected an integer")
				return 0
			}
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		if n != int64(int(n)) {
			r.fail("expected an integer")
			return 0
		}
		return int(n)
	}
	n, err := strconv.ParseInt(tok, 10, 64)
	if err != nil || n != int64(int(n)) {
		r.fail("expected an integer")
		return 0
	}
	return int(n)
}

func (r *jreader) float() float64 {
	// Fast path: compact JSON, a short decimal without sign or exponent
	// (prices), followed by something that cannot continue a number:
	// parseShortDecimal's value, read in the same pass as its digits
	// (not number's, then parseShortDecimal's). Anything else is
	// floatToken's.
	b, i := r.b, r.i
	if uint(i) < uint(len(b)) && b[i]-'0' < 10 {
		m, digits, d := uint64(0), 0, 0
		j := i
		if b[j] == '0' {
			j++
			digits = 1
		} else {
			for j < len(b) && b[j]-'0' < 10 {
				m = m*10 + uint64(b[j]-'0')
				j++
			}
			digits = j - i
		}
		if j < len(b) && b[j] == '.' {
			j++
			k := j
			for j < len(b) && b[j]-'0' < 10 {
				m = m*10 + uint64(b[j]-'0')
				j++
			}
			d = j - k
			digits += d
		}
		if j < len(b) && b[j] != 'e' && b[j] != 'E' && (d > 0 || b[j-1] != '.') && digits <= 15 {
			r.i = j
			f := float64(m)
			if d > 0 {
				f /= float64pow10[d]
			}
			return f
		}
	}
	return r.floatToken()
}

// floatToken is float for any number token.
func (r *jreader) floatToken() float64 {
	tok := r.number()
	if r.err != nil {
		return 0
	}
	if f, ok := parseShortDecimal(tok); ok {
		return f
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil {
		r.fail("number out of range")
		return 0
	}
	return f
}

// parseShortDecimal reads a number token without an exponent and with at
// most 15 digits (prices) as strconv.ParseFloat does: its digits m and
// the 10^d of its d decimals are exact float64s, so m/10^d is the
// correctly rounded value.
func parseShortDecimal(tok string) (float64, bool) {
	neg := tok[0] == '-'
	i := 0
	if neg {
		i = 1
	}
	var m uint64
	digits, d := 0, -1
	for ; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
			if d >= 0 {
				d++
			}
		case c == '.':
			d = 0
		default:
			return 0, false // an exponent
		}
	}
	if digits > 15 {
		return 0, false
	}
	f := float64(m)
	if d > 0 {
		f /= float64pow10[d]
	}
	if neg {
		f = -f
	}
	return f, true
}

func (r *jreader) boolean() bool {
	switch r.peek() {
	case 't':
		if r.literal("true") {
			return true
		}
	case 'f':
		if r.literal("false") {
			return false
		}
	}
	r.fail("expected a boolean")
	return false
}

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
				// b[i], i < len(b) on both ways here, without checking
				// it again.
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

// skipNum skips a valid number at b[i] (number and skipFast):
// the index after it, or -1.
func skipNum(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return -1
		}
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

// raw validates and returns one value as raw JSON (a subslice of the input).
func (r *jreader) raw() []byte {
	r.ws()
	start := r.i
	r.skip()
	if r.err != nil {
		return nil
	}
	return r.b[start:r.i:r.i]
}

// keyOrder is the order of keys seen in the objects of one kind: the
// longest order seen, each position holding the key of the last object
// that had one there (and the key before that, for kinds that alternate).
type keyOrder struct {
	// exp[p] is the literal expected at position p (`"key":` at 0,
	// `,"key":` after), with its field number: the key's words in
	// keyWordsTab, or noKeyLit's (0) for a key not in the table, which
	// never match. alt[p] is the literal exp[p] held before (0 if none).
	// (Indexes, not pointers: a keyOrder is copied in and out of
	// learnedKeyOrders, and the garbage collector has nothing to scan.)
	exp, alt [keyOrderLen]uint8 // indexes in keyWordsTab
	n        int                // entries of exp in use
	pos      int                // position in exp of the next member of the current object (0: none read yet)
}

// keyOrderLen bounds the keys a keyOrder remembers (v2 pods have 23).
const keyOrderLen = 32

// beginFields starts reading an object of the kind ko remembers.
func (r *jreader) beginFields(ko *keyOrder) bool {
	ko.pos = 0
	return r.beginObject()
}

// matchKey reports whether the literal v is at b[i:] (len(b)-i >= 24).
func matchKey(v *keyWords, b []byte, i int) bool {
	return load64(b, i)&v.m[0] == v.w[0] &&
		load64(b, i+8)&v.m[1] == v.w[1] &&
		load64(b, i+16)&v.m[2] == v.w[2]
}

// fieldKey advances to the next member of an object of the kind described
// by lits (lits[f] is `"key":` for field f > 0) and returns its field
// number (0 for an unknown key, whose value the caller skips); false at the
// closing brace or on an error. Start each object with beginFields.
//
// The key is first compared with the one expected at this position, as
// three words (no scan of the key, no lookup); only a key that is not
// there exactly (another key, whitespace, an escape, the end of the
// input near) is read the general way, by fieldKeySlow. Either way the
// member read is the same: a literal matches only the bytes nextKey
// would read as that key.
//
// The decoder's loops spell the fast path out before calling fieldKey, as
//
//	if v := ko.expected(); len(r.b)-r.i >= 24 && matchKey(v, r.b, r.i) {
//		f = r.takeKey(ko, v)
//	} else if f, ok = r.fieldKey(ko, lits); !ok {
//		…
//	}
//
// (fieldKey is too big to be inlined, and its call costs a third of
// the match). There the expected literal may also be the closing brace,
// learnt by ko after its keys (closeKeyLit): f is then len(lits)-1, and
// the object has ended.
func (r *jreader) fieldKey(ko *keyOrder, lits keyTable) (uint8, bool) {
	b, i := r.b, r.i
	// The closing brace first: many calls are at the end of an object
	// (the loops match their keys before calling), and no key literal
	// starts with a brace.
	if i < len(b) && b[i] == '}' {
		r.i = i + 1
		// The brace is learnt after the keys ko remembers, for the
		// inline fast paths (closeKeyLit); not in place of a key, which
		// shorter objects of a kind would make the longer ones miss.
		if pos := ko.pos; pos >= ko.n && pos < keyOrderLen {
			ko.exp[pos] = lits[len(lits)-1].v[0]
			ko.n = pos + 1
		}
		return 0, false
	}
	if v := ko.expected(); len(b)-i >= 24 && matchKey(v, b, i) {
		return r.takeKey(ko, v), true
	}
	return r.fieldKeySlow(ko, lits)
}

// expected returns the literal of the key expected at the next position
// of ko: noKeyWords, which matches nothing, past the keys it remembers.
// (Past ko.n, exp holds 0, noKeyWords' index: fieldKeySlow writes exp[p]
// only for p < n, or with n = p+1. One test, which also bounds the
// index, instead of two.)
func (ko *keyOrder) expected() *keyWords {
	if uint(ko.pos) < keyOrderLen {
		return &keyWordsTab.w[ko.exp[ko.pos]]
	}
	return &keyWordsTab.w[0]
}

// takeKey consumes the literal v, the key expected next (matched at r.i),
// and returns its field number.
func (r *jreader) takeKey(ko *keyOrder, v *keyWords) uint8 {
	r.i += v.n
	ko.pos++
	return v.f
}

// fieldKeySlow is fieldKey for a key not where the previous object had
// it (or near the end of the input, or the closing brace). Before
// reading the key, it tries the key this position held before (kinds of
// objects that alternate, as pods with a gpu and pods with a cpu) and the
// key of the next position (an object without the expected key).
func (r *jreader) fieldKeySlow(ko *keyOrder, lits keyTable) (uint8, bool) {
	b, i, pos := r.b, r.i, ko.pos
	if pos < ko.n && len(b)-i >= 24 {
		if a := ko.alt[pos]; a != 0 && matchKey(&keyWordsTab.w[a], b, i) {
			v := &keyWordsTab.w[a]
			ko.alt[pos], ko.exp[pos] = ko.exp[pos], a
			r.i = i + v.n
			ko.pos = pos + 1
			return v.f, true
		}
		// (Not at the first position, whose literals have no comma.)
		if pos > 0 && pos+1 < ko.n {
			if v := &keyWordsTab.w[ko.exp[pos+1]]; matchKey(v, b, i) {
				r.i = i + v.n
				ko.pos = pos + 2
				return v.f, true
			}
		}
	}
	first := pos == 0 // pos > 0 once a member is read
	k, ok := r.nextKey(&first)
	if !ok {
		return 0, false
	}
	f := uint8(0)
	for j := 1; j < len(lits)-1; j++ { // (the last is the closing brace)
		if l := lits[j].s; len(l) == len(k)+3 && l[1:len(l)-2] == k {
			f = uint8(j)
			break
		}
	}
	if pos < len(ko.exp) {
		v := lits[f].v[min(pos, 1)]
		if pos < ko.n && ko.exp[pos] != v {
			ko.alt[pos] = ko.exp[pos]
		}
		ko.exp[pos] = v
		ko.n = max(ko.n, pos+1)
	}
	ko.pos = pos + 1
	return f, true
}

// rawOrNil returns a value as raw JSON, or nil for null (as
// json.RawMessage keeps "null"; both mean "absent" to rawOr).
func (r *jreader) rawOrNil() []byte {
	if r.null() {
		return nil
	}
	return r.raw()
}

// keyTable is a fieldKey table: the keys of one kind of object at their
// field numbers (1, 2, …; index 0 unused), then closeKeyLit.
type keyTable []keyLit

// keyLits is the keyTable of keys, numbered from 1 in order; the closing
// brace has field number len(keys)+1.
func keyLits(keys ...string) keyTable {
	t := make(keyTable, len(keys)+2)
	t[0] = noKeyLit
	for i, k := range keys {
		t[i+1] = newKeyLit(k, uint8(i+1))
	}
	t[len(keys)+1] = closeKeyLit(uint8(len(keys) + 1))
	return t
}

// closeKeyLit is the last entry of a keyTable: the closing brace of its
// objects, `}`, with the field number f past the table's keys. fieldKey
// learns it at the position where an object ended, so that the next
// object's end, at the same position, is matched on the inline fast path
// of the loops as a key is (which then return at field f) instead of
// costing a call of fieldKey. A brace can follow a value or the opening
// brace wherever a key can, and fieldKey reads it the same way (its first
// test); fieldKey itself never returns f.
func closeKeyLit(f uint8) keyLit {
	c := internKeyWords(keyWords{w: [3]uint64{'}'}, m: [3]uint64{0xff}, n: 1, f: f})
	return keyLit{s: "}", v: [2]uint8{c, c}}
}

// keyLit is a member's key as it appears in compact JSON, `"key":` (and
// `,"key":` after the first member), as little-endian words and masks, so
// that recognising it costs three loads and compares (no call).
type keyLit struct {
	s string
	v [2]uint8 // in keyWordsTab, v[0]: `"key":`, v[1]: `,"key":`
}

// keyWords are the first 24 bytes of a key's literal, as words and masks
// for the bytes in use, and its length (literals longer than 24 bytes
// never match: their keys are read the slow way).
type keyWords struct {
	w, m [3]uint64
	n    int
	f    uint8 // the key's field number (0 in noKeyLit)
}

// noKeyLit is keyTable[0]: its words match nothing (a byte masked with
// 0xff is never 0x100).
var noKeyLit = keyLit{}

// noKeyWords are keyWordsTab.w[0], words that match nothing (a byte
// masked with 0xff is never 0x100).
var noKeyWords = keyWords{w: [3]uint64{0x100}, m: [3]uint64{0xff}}

// keyWordsTab holds the keyWords of all keyTables, so that a keyOrder
// names them by a byte (indexes need no bounds check, and hold no
// pointer). Identical entries are shared: the tables of the package take
// about a hundred entries.
var keyWordsTab struct {
	mu sync.Mutex
	n  int
	w  [256]keyWords
}

// internKeyWords returns the index of kw in keyWordsTab.
func internKeyWords(kw keyWords) uint8 {
	keyWordsTab.mu.Lock()
	defer keyWordsTab.mu.Unlock()
	if keyWordsTab.n == 0 {
		keyWordsTab.w[0], keyWordsTab.n = noKeyWords, 1
	}
	for i := range keyWordsTab.n {
		if keyWordsTab.w[i] == kw {
			return uint8(i)
		}
	}
	if keyWordsTab.n == len(keyWordsTab.w) {
		panic("podjson: too many distinct object keys for keyWordsTab")
	}
	keyWordsTab.w[keyWordsTab.n] = kw
	keyWordsTab.n++
	return uint8(keyWordsTab.n - 1)
}

func newKeyLit(k string, f uint8) keyLit {
	s := `"` + k + `":`
	words := func(s string) uint8 {
		if len(s) > 24 {
			return 0
		}
		var buf [24]byte
		copy(buf[:], s)
		kw := keyWords{n: len(s), f: f}
		for j := range 3 {
			kw.w[j] = binary.LittleEndian.Uint64(buf[8*j:])
			switch n := len(s) - 8*j; {
			case n >= 8:
				kw.m[j] = ^uint64(0)
			case n > 0:
				kw.m[j] = 1<<(8*n) - 1
			}
		}
		return internKeyWords(kw)
	}
	return keyLit{s: s, v: [2]uint8{words(s), words("," + s)}}
}
