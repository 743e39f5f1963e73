package podjson

import (
	"errors"
	"io"
	"unsafe"
)

// PodStream decodes the pods of a v2 ListPodsResponse one at a time, with
// DecodePodList's semantics (same pods, same errors), but without a slice
// of pods: each pod is decoded into the caller's V2Pod, and its parts
// (gpu, cpu, mounts, runtime ports) into storage reused by the next pod, so
// a pod is valid until the next call of Next. The gateway's largest answer
// (GET /v1/pods) is thus mapped and encoded pod by pod with a few
// allocations in all, instead of a 100-pod slice for the garbage collector
// to zero, scan and free.
//
//	var s PodStream
//	s.Init(body)
//	for s.Next(&p) { … }
//	err := s.Finish()
//
// Like encoding/json, a repeated "pods" member replaces the earlier one:
// Resets counts the "pods" members seen, and a caller that keeps something
// per pod starts over when it changes.
type PodStream struct {
	r  jreader
	ko *keyOrders // taken at Init, given back at Finish
	// src, when set, is the rest of the answer after r.b (a window that
	// fill reads into): see InitReader.
	src       io.Reader
	srcErr    error // what ended src: io.EOF at its end
	buf       []byte
	state     uint8 // 0: before the object, 1: in its members, 2: in the pods array, 3: done
	firstKey  bool
	firstElem bool
	seen      bool
	resets    int
	n         int // pods decoded since the last "pods" member began
}

// Init starts s on the whole answer b. Decoded strings share b's memory:
// b must not be modified while they are in use.
func (s *PodStream) Init(b []byte) {
	// unsafe: a string view of b, valid while b is not written (Init's contract); FuzzStreamPodList.
	s.r = jreader{b: b, s: unsafe.String(unsafe.SliceData(b), len(b)), stream: true}
	s.ko = s.r.takeKeyOrders()
}

// Next decodes the next pod into p; false at the end of the list or on an
// error (see Finish).
func (s *PodStream) Next(p *V2Pod) bool {
	r := &s.r
	for {
		if s.src != nil && !s.fill() {
			s.state = 3
			return false
		}
		switch s.state {
		case 0:
			s.state = 3
			if !r.beginObject() {
				return false
			}
			s.state, s.firstKey = 1, true
		case 1:
			k, ok := r.nextKey(&s.firstKey)
			if !ok {
				s.state = 3
				return false
			}
			if k != "pods" {
				if s.src != nil && !s.fillValue() {
					s.state = 3
					return false
				}
				r.skip()
				continue
			}
			if s.src != nil && r.peek() != '[' && !s.fillValue() {
				s.state = 3
				return false
			}
			s.seen = true
			s.resets++
			s.n = 0
			if r.null() {
				continue
			}
			if !r.beginArray() {
				s.state = 3
				return false
			}
			s.state, s.firstElem = 2, true
		case 2:
			if !r.nextElem(&s.firstElem) {
				s.state = 1
				if r.err != nil {
					s.state = 3
					return false
				}
				continue
			}
			if s.src != nil && s.srcErr == nil && len(r.b)-r.i < streamLowWater {
				// Little of the window is left: read on before the
				// pod rather than decode it twice when it is cut.
				s.more()
			}
			*p = V2Pod{}
			r.resetPodStorage()
			start := r.i
			r.pod(p)
			if r.err != nil && s.src != nil && s.srcErr == nil {
				// The window may end inside this pod (InitReader):
				// read the pod whole and decode it again.
				r.i, r.err = start, nil
				if !s.fillValue() {
					s.state = 3
					return false
				}
				*p = V2Pod{}
				r.resetPodStorage()
				r.pod(p)
			}
			if r.err != nil {
				r.err = podErr(s.n, r.err)
				s.state = 3
				return false
			}
			s.n++
			return true
		default:
			return false
		}
	}
}

// Resets is the number of "pods" members read so far: when it changes, the
// pods before belong to a member that a later one replaced.
func (s *PodStream) Resets() int { return s.resets }

// Finish reads to the end of the document and returns DecodePodList's
// error, if any: a *SourceError when src failed (InitReader).
func (s *PodStream) Finish() error {
	for s.state != 3 {
		var p V2Pod
		s.Next(&p)
	}
	if s.src != nil {
		for s.r.err == nil && s.more() {
		}
		if s.srcErr != nil && s.srcErr != io.EOF {
			return &SourceError{s.srcErr}
		}
	}
	if s.ko != nil {
		s.r.giveKeyOrders(s.ko)
		s.ko = nil
	}
	s.r.end()
	if s.r.err != nil {
		return s.r.err
	}
	if !s.seen {
		return errors.New("no pods property")
	}
	return nil
}

// A pod list read as a stream (issue 16): PodStream with src set reads the
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
// share the window and are valid until the next call of Next.

// SourceError is a failure to read the rest of a v2 answer from the
// reader of InitReader (the connection broke, the request's time ran out,
// the answer passed the gateway's size limit), as Finish returns it: Err
// is the reader's error, not a fault of the answer.
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

// InitReader starts s on an answer whose first bytes, prefix (a buffer s
// then owns and reuses as its window), are followed by src; the parts of
// its pods are decoded into st's buffers, which s borrows until Release.
// A pod's strings share the window and are valid until the next call of
// Next.
func (s *PodStream) InitReader(prefix []byte, src io.Reader, st *PodStorage) {
	s.buf = prefix[:cap(prefix)]
	// unsafe: a string view of the window, valid until more moves its bytes (a pod's strings: until the next Next); FuzzStreamPodList, translate's FuzzStreamPodListReader.
	s.r = jreader{b: prefix, s: unsafe.String(unsafe.SliceData(prefix), len(prefix)), stream: true}
	s.ko = s.r.takeKeyOrders()
	s.r.reuseStrings = true
	s.src = src
	s.r.PodStorage = *st
}

// Release ends a stream started by InitReader, finished or not: it hands
// the storage it decoded into back to st (for the next stream) and
// returns its window buffer (prefix's, or a larger one it grew into) for
// the caller to reuse. Neither s nor its pods are used after.
func (s *PodStream) Release(st *PodStorage) (window []byte) {
	*st = s.r.PodStorage
	return s.buf
}

// more drops the bytes read from the window and reads more of src into
// it; false when src has nothing more (s.srcErr says why).
func (s *PodStream) more() bool {
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
	// unsafe: the window's string view again, its bytes moved (the previous pod's strings are no longer used); FuzzStreamPodList, translate's FuzzStreamPodListReader.
	r.s = unsafe.String(unsafe.SliceData(r.b), n)
	return s.srcErr == nil
}

// fill makes the window hold the next step's unit; false when src failed
// (not at its end: there the window holds all that is left).
func (s *PodStream) fill() bool {
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
func (s *PodStream) fillValue() bool {
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
