package translate

import (
	"io"
	"unsafe"
)

// A pod list read as a stream (issue 16): podStream with src set reads the
// v2 answer through a window (r.b) that holds, at the start of each step of
// its state machine, the whole next unit the step reads (a member's key,
// a value to skip) — or everything up to the end of the answer. Pods, the
// bulk of the bytes, are decoded speculatively instead (scanning each one
// first cost ~40% more CPU): a pod that decodes is whole (it ends at its
// closing brace, which a cut window cannot supply); one that fails before
// src's end is decoded again once the window holds it whole, so its error
// is the whole answer's. The jreader thus decodes exactly as on the whole
// answer: same pods, same errors (offsets count from the start of the
// answer: jreader.base). What has been
// read is dropped from the window before more is read, so the window
// holds about one pod, whatever the length of the list; a pod's strings
// share the window and are valid until the next call of next.

// SourceError is a failure to read the rest of a v2 answer (the connection
// broke, the request's time ran out, the answer passed the gateway's size
// limit): a plan answers it as FromCallError answers the error it wraps.
type SourceError struct{ Err error }

func (e *SourceError) Error() string { return "reading the v2 answer: " + e.Err.Error() }
func (e *SourceError) Unwrap() error { return e.Err }

// streamReadSize is the least room fill reads into at a time.
const streamReadSize = 16 << 10

// streamLowWater: a pod is decoded from a window with fewer bytes left
// than this only after src has been read on (more), so that the pods of
// usual sizes are rarely cut by the window's end and decoded twice (a
// larger pod still is, as before).
const streamLowWater = 4 << 10

// initReader starts a stream on an answer whose first bytes, prefix (a
// buffer the stream then owns and reuses), are followed by src.
func (s *podStream) initReader(prefix []byte, src io.Reader) {
	s.buf = prefix[:cap(prefix)]
	s.r = jreader{b: prefix, s: unsafe.String(unsafe.SliceData(prefix), len(prefix)), stream: true}
	s.ko = s.r.takeKeyOrders()
	s.r.reuseStrings = true
	s.src = src
}

// more drops the bytes read from the window and reads more of src into
// it; false when src has nothing more (s.srcErr says why).
func (s *podStream) more() bool {
	if s.srcErr != nil {
		return false
	}
	r := &s.r
	n := len(r.b)
	if r.i > 0 {
		n = copy(s.buf, r.b[r.i:])
		r.base += r.i
		r.i = 0
	}
	if len(s.buf)-n < streamReadSize {
		nb := make([]byte, max(2*len(s.buf), n+streamReadSize))
		copy(nb, s.buf[:n])
		s.buf = nb
	}
	for {
		m, err := s.src.Read(s.buf[n:])
		n += m
		if err != nil {
			s.srcErr = err
			break
		}
		if m > 0 {
			break
		}
	}
	r.b = s.buf[:n]
	r.s = unsafe.String(unsafe.SliceData(r.b), n)
	return s.srcErr == nil
}

// fill makes the window hold the next step's unit; false when src failed
// (not at its end: there the window holds all that is left).
func (s *podStream) fill() bool {
	for {
		var done bool
		b, i := s.r.b, s.r.i
		switch s.state {
		case 0:
			done = wsEnd(b, i) < len(b)
		case 1:
			done = keyComplete(b, i, s.firstKey)
		case 2:
			// The next element's first byte is enough: a pod is decoded
			// from the window as it is, and only when that fails before
			// src's end is the window filled to hold it whole (next).
			done = wsEnd(b, i) < len(b)
		default:
			return true
		}
		if done || s.r.err != nil {
			return true
		}
		if !s.more() {
			return s.srcErr == io.EOF
		}
	}
}

// fillValue makes the window hold the next value whole.
func (s *podStream) fillValue() bool {
	for {
		if _, ok := valueEnd(s.r.b, wsEnd(s.r.b, s.r.i)); ok {
			return true
		}
		if !s.more() {
			return s.srcErr == io.EOF
		}
	}
}

// wsEnd returns the index of the first non-space byte at or after i.
func wsEnd(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the end of the value at b[i] and true, or false when b
// ends inside it. It follows only the structure (strings, nesting): for a
// malformed value it returns a point the jreader fails at or before.
func valueEnd(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				e, ok := stringEnd(b, i)
				if !ok {
					return e, false
				}
				i = e
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return i, false
	case '}', ']', ',', ':':
		return i, true // malformed: the jreader fails here
	}
	// A number or a literal: complete once a byte that ends it follows
	// (the jreader looks no further than that byte).
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r', ',', ']', '}', ':', '"', '[', '{':
			return i, true
		}
	}
	return i, false
}

// stringEnd returns the end of the string whose opening quote is b[i].
func stringEnd(b []byte, i int) (int, bool) {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return len(b), false
}

// keyComplete: the window holds the next member's key, its colon and the
// first byte of its value (or the object's end, or a byte the jreader
// fails at).
func keyComplete(b []byte, i int, first bool) bool {
	i = wsEnd(b, i)
	if i >= len(b) {
		return false
	}
	if b[i] == '}' {
		return true
	}
	if !first {
		if b[i] != ',' {
			return true
		}
		if i = wsEnd(b, i+1); i >= len(b) {
			return false
		}
	}
	if b[i] != '"' {
		return true
	}
	e, ok := stringEnd(b, i)
	if !ok {
		return false
	}
	if i = wsEnd(b, e); i >= len(b) {
		return false
	}
	if b[i] != ':' {
		return true
	}
	return wsEnd(b, i+1) < len(b)
}
