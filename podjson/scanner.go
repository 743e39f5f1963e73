package podjson

import (
	"errors"
	"strconv"
	"unsafe"
)

// jreader: the small JSON scanner behind the pod decoder (decode.go). It
// validates as it reads (RFC 8259: strings, escapes, numbers, literals,
// nesting bounded by maxJSONDepth) and hands out strings that share the
// input's memory. This file is its core: whitespace, literals, objects,
// arrays and errors; strings.go reads strings, numbers.go numbers,
// skip.go skips the values the decoder does not keep, and keys.go
// recognises the members of an object by the order of the previous
// object of its kind (v2 answers repeat one order), falling back to a
// table lookup (fieldKey).

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
	// reuseStrings: the strings with escapes are decoded into scratch
	// (appended: a string that grows it keeps the memory it was written
	// in), which a stream read through a window reuses for the next pod
	// (PodStream.InitReader: a pod's strings are already valid only until
	// the next one), and a list decoded into a caller's storage keeps
	// until the caller empties it (DecodePodListInto).
	reuseStrings bool
	// podField is the field of the pod member read last (pod), to name
	// it in an error.
	podField uint8

	// The order of keys in the previous object of each kind (fieldKey).
	keyOrders
}

// newJReader reads b. Decoded strings share b's memory (no copy): b must
// not be modified while they are in use (answers are read once, never
// written).
func newJReader(b []byte) *jreader {
	// unsafe: a string view of b, valid while b is not written (answers are read once); FuzzSkipFast, FuzzStr, FuzzPodListDecode.
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

// rawOrNil returns a value as raw JSON, or nil for null (as
// json.RawMessage keeps "null"; both mean "absent" to rawOr).
func (r *jreader) rawOrNil() []byte {
	if r.null() {
		return nil
	}
	return r.raw()
}
