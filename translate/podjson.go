package translate

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/bits"
	"net/http"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The pod list is the gateway's hot path (GET /v1/pods, docs/design.md §10: ≥70%
// of a bare reverse proxy's throughput with 100 pods). encoding/json spends
// most of its time validating, reflecting and allocating; this file decodes
// v2 pods with a small hand-written scanner and encodes v1 pods by appending
// to one buffer. Both are checked against encoding/json (same result on
// every fixture, and under fuzzing; see podjson_test.go in pods_test.go and
// pods_fuzz_test.go).
//
// Decoded strings are substrings of one copy of the answer (no allocation
// per field); env and ports are kept as raw JSON and copied to the v1
// answer unchanged (v2 env/ports and v1 env/ports have the same shape).

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
	// window on an answer read as a stream: podStream.src), for messages.
	base int

	// Chunked storage for the small structs of many pods (one allocation
	// per chunk instead of one per pod).
	gpus    slab[v2PodGPU]
	cpus    slab[v2PodCPU]
	mounts_ slab[v2PersistentMount]
	rts     slab[v2PodRuntime]
	ports   []v2RuntimePort

	// stream: pods are decoded one at a time into reused storage (see
	// podStream); net is the reused buffer of network mounts.
	stream bool
	net    []v2NetworkMount

	// The order of keys in the previous object of each kind (fieldKey).
	podKeys, rtKeys, portKeys, gpuKeys, cpuKeys, mountKeys, persistentKeys keyOrder
}

// resetPodStorage makes the storage of the previous pod available to the
// next one (stream mode: the previous pod is no longer used).
func (r *jreader) resetPodStorage() {
	r.gpus.buf = r.gpus.buf[:0]
	r.cpus.buf = r.cpus.buf[:0]
	r.mounts_.buf = r.mounts_.buf[:0]
	r.rts.buf = r.rts.buf[:0]
	r.ports = r.ports[:0]
}

// slab hands out pointers to elements of chunks that never grow in place,
// so that the pointers stay valid.
type slab[T any] struct{ buf []T }

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

// null consumes a null if there is one.
func (r *jreader) null() bool {
	if r.peek() == 'n' {
		if r.literal("null") {
			return true
		}
		r.fail("invalid literal")
	}
	return false
}

func (r *jreader) beginObject() bool {
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
	c := r.peek()
	if r.err != nil {
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
		if i+8 <= len(b) {
			// Eight bytes at a time (SWAR): jump to the first special byte.
			m := specialStringBytes(binary.LittleEndian.Uint64(b[i:]))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		} else {
			for i < len(b) && plainStringByte[b[i]] {
				i++
			}
			if i >= len(b) {
				r.i = i
				r.fail("unterminated string")
				return 0, 0, false
			}
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

// specialStringBytes marks (in the high bit of each byte; exactly for the
// lowest one) the bytes of x that are control characters, quotes or
// backslashes.
func specialStringBytes(x uint64) uint64 {
	q := x ^ (swarOnes * '"')
	bs := x ^ (swarOnes * '\\')
	return ((x-swarOnes*0x20)&^x | (q-swarOnes)&^q | (bs-swarOnes)&^bs) & swarHighs
}

// plainStringByte marks the bytes that stand for themselves inside a JSON
// string: everything but control characters, the quote and the backslash.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads a string value.
func (r *jreader) str() string {
	// Fast path: a string without escapes right here.
	b, i := r.b, r.i
	if i < len(b) && b[i] == '"' {
		j := i + 1
		for {
			if j+8 <= len(b) {
				m := specialStringBytes(binary.LittleEndian.Uint64(b[j:]))
				if m == 0 {
					j += 8
					continue
				}
				j += bits.TrailingZeros64(m) >> 3
			} else {
				for j < len(b) && plainStringByte[b[j]] {
					j++
				}
			}
			break
		}
		if j < len(b) && b[j] == '"' {
			r.i = j + 1
			return r.s[i+1 : j]
		}
	}
	start, end, escaped := r.scanString()
	if r.err != nil {
		return ""
	}
	if !escaped {
		return r.s[start:end]
	}
	return unescapeJSON(r.b[start:end])
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
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch b[i+1] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
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
			continue
		default: // " \ /
			out = append(out, b[i+1])
		}
		i += 2
	}
	if len(out) == 0 {
		return ""
	}
	// out is not used again: the string shares its memory (one
	// allocation, not two).
	return unsafe.String(&out[0], len(out))
}

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
	b := r.b
	i := r.i
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
		r.fail("expected a number")
		return ""
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			r.fail("invalid number")
			return ""
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
			r.fail("invalid number")
			return ""
		}
	}
	r.i = i
	return r.s[start:i]
}

// integer reads an integer that fits an int (as encoding/json into int:
// no fraction, no exponent).
func (r *jreader) integer() int {
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
	tok := r.number()
	if r.err != nil {
		return 0
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil {
		r.fail("number out of range")
		return 0
	}
	return f
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

// skip validates and skips any value.
func (r *jreader) skip() { r.skipDepth(0) }

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

// ---------------------------------------------------------------------------
// v2 pods

// decodePodList decodes a v2 ListPodsResponse ({"pods": [...]}, required).
func decodePodList(b []byte) ([]v2Pod, error) {
	r := newJReader(b)
	var pods []v2Pod
	seen := false
	if r.beginObject() {
		first := true
		for k, ok := r.nextKey(&first); ok; k, ok = r.nextKey(&first) {
			if k != "pods" {
				r.skip()
				continue
			}
			seen = true
			pods = pods[:0]
			if r.null() {
				continue
			}
			if pods == nil {
				pods = make([]v2Pod, 0, len(b)/600+1)
			}
			if !r.beginArray() {
				break
			}
			fa := true
			for r.nextElem(&fa) {
				pods = append(pods, v2Pod{})
				if r.pod(&pods[len(pods)-1]); r.err != nil {
					r.err = podErr(len(pods)-1, r.err)
				}
			}
		}
	}
	r.end()
	if r.err != nil {
		return nil, r.err
	}
	if !seen {
		return nil, errors.New("no pods property")
	}
	return pods, nil
}

// podBox is a pod with room for its parts: one allocation for a single pod
// instead of one per part (and chunks sized for lists).
type podBox struct {
	p   v2Pod
	gpu [1]v2PodGPU
	cpu [1]v2PodCPU
	pm  [1]v2PersistentMount
	rt  [1]v2PodRuntime
}

// decodePod decodes one v2 Pod.
func decodePod(b []byte) (*v2Pod, error) {
	r := jreader{b: b, s: unsafe.String(unsafe.SliceData(b), len(b))}
	box := new(podBox)
	r.gpus.buf, r.cpus.buf, r.mounts_.buf, r.rts.buf = box.gpu[:0], box.cpu[:0], box.pm[:0], box.rt[:0]
	r.pod(&box.p)
	r.end()
	if r.err != nil {
		return nil, r.err
	}
	return &box.p, nil
}

// podStream decodes the pods of a v2 ListPodsResponse one at a time, with
// decodePodList's semantics (same pods, same errors), but without a slice
// of pods: each pod is decoded into the caller's v2Pod, and its parts
// (gpu, cpu, mounts, runtime ports) into storage reused by the next pod, so
// a pod is valid until the next call of next. The gateway's largest answer
// (GET /v1/pods) is thus mapped and encoded pod by pod with a few
// allocations in all, instead of a 100-pod slice for the garbage collector
// to zero, scan and free.
//
//	var s podStream
//	s.init(body)
//	for s.next(&p) { … }
//	err := s.finish()
//
// Like encoding/json, a repeated "pods" member replaces the earlier one: s.resets
// counts the "pods" members seen, and a caller that keeps something per
// pod starts over when it changes.
type podStream struct {
	r jreader
	// src, when set, is the rest of the answer after r.b (a window that
	// fill reads into): see podstreamio.go.
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

func (s *podStream) init(b []byte) {
	s.r = jreader{b: b, s: unsafe.String(unsafe.SliceData(b), len(b)), stream: true}
}

// next decodes the next pod into p; false at the end of the list or on an
// error (see finish).
func (s *podStream) next(p *v2Pod) bool {
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
			*p = v2Pod{}
			r.resetPodStorage()
			start := r.i
			r.pod(p)
			if r.err != nil && s.src != nil && s.srcErr == nil {
				// The window may end inside this pod (podstreamio.go):
				// read the pod whole and decode it again.
				r.i, r.err = start, nil
				if !s.fillValue() {
					s.state = 3
					return false
				}
				*p = v2Pod{}
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

// finish reads to the end of the document and returns decodePodList's
// error, if any.
func (s *podStream) finish() error {
	for s.state != 3 {
		var p v2Pod
		s.next(&p)
	}
	if s.src != nil {
		for s.r.err == nil && s.more() {
		}
		if s.srcErr != nil && s.srcErr != io.EOF {
			return &SourceError{s.srcErr}
		}
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

// Answer buffers are recycled: v1 pod answers are built in buffers from a
// pool, and the proxy hands each Result.Body back with ReleaseBody once it
// has written it. Only buffers handed out here are ever reused — a bounded
// set of outstanding buffers says which — so releasing any other body (a
// constant, a json.Marshal result) does nothing.
var answerBufs = struct {
	pool sync.Pool // *[]byte
	mu   sync.Mutex
	out  map[*byte]struct{} // outstanding pooled bodies (at most maxOutstandingBodies)
}{out: map[*byte]struct{}{}}

// maxOutstandingBodies bounds the bodies awaiting ReleaseBody: a caller
// that never releases (a test calling plans directly) costs at most this
// many buffers kept alive.
const maxOutstandingBodies = 256

// getAnswerBuf returns an empty buffer, with room for hint bytes when it is
// a new one.
func getAnswerBuf(hint int) []byte {
	if v, ok := answerBufs.pool.Get().(*[]byte); ok {
		return (*v)[:0]
	}
	return make([]byte, 0, hint)
}

// pooledBody records b (built in a getAnswerBuf buffer) as outstanding.
func pooledBody(b []byte) []byte {
	if cap(b) == 0 {
		return b
	}
	answerBufs.mu.Lock()
	if len(answerBufs.out) >= maxOutstandingBodies {
		clear(answerBufs.out) // forgotten ones are left to the garbage collector
	}
	answerBufs.out[unsafe.SliceData(b)] = struct{}{}
	answerBufs.mu.Unlock()
	return b
}

// ReleaseBody gives back the Body of a Result once it has been written and
// is no longer used, so that its buffer serves another answer. Bodies that
// were not built in a pooled buffer are ignored.
func ReleaseBody(b []byte) {
	if cap(b) == 0 {
		return
	}
	p := unsafe.SliceData(b)
	answerBufs.mu.Lock()
	_, ok := answerBufs.out[p]
	delete(answerBufs.out, p)
	answerBufs.mu.Unlock()
	if ok {
		b = b[:0]
		answerBufs.pool.Put(&b)
	}
}

// intern returns a constant for common enum values (no allocation).
func internPodEnum(s string) string {
	switch s {
	case "RUNNING":
		return "RUNNING"
	case "EXITED":
		return "EXITED"
	case "PROVISIONING":
		return "PROVISIONING"
	case "STARTING":
		return "STARTING"
	case "ERROR":
		return "ERROR"
	case "TERMINATED":
		return "TERMINATED"
	case "SECURE":
		return "SECURE"
	case "COMMUNITY":
		return "COMMUNITY"
	}
	return s
}

// Members of the objects decoded on the hot path are recognised by field
// number, not by key string. Each kind of object (pod, runtime, runtime
// port, gpu, cpu) has a table of its keys in their JSON form, `"key":`,
// indexed by field number; a keyOrder remembers the order in which the
// previous object of that kind listed its keys. Every object of one list
// comes from the same encoder, so the next object's keys come in the same
// order and each is recognised by one comparison — no scanning of the key,
// no switch over strings. A key that does not come in the expected place
// (the first object, a reordered or unknown key, whitespace, escapes) is
// read the general way (nextKey) and looked up in the table; the
// semantics are the same either way: exact keys, the last duplicate wins,
// unknown keys are skipped.

// keyOrder is the order of keys seen in the previous object of one kind.
type keyOrder struct {
	seq [40]uint8 // field numbers in order; 0: a key not in the table
	n   int       // entries of seq in use
	pos int       // position of the next member in the current object
}

// beginFields starts reading an object of the kind ko remembers.
func (r *jreader) beginFields(ko *keyOrder) bool {
	ko.pos = 0
	return r.beginObject()
}

// fieldKey advances to the next member of an object of the kind described
// by lits (lits[f] is `"key":` for field f > 0) and returns its field
// number (0 for an unknown key, whose value the caller skips); false at the
// closing brace or on an error. Start each object with beginFields.
func (r *jreader) fieldKey(ko *keyOrder, lits keyTable) (uint8, bool) {
	first := ko.pos == 0 // pos counts the members read so far
	b, i := r.b, r.i
	if i < len(b) {
		c := b[i]
		if c == ',' && !first {
			i++
		} else if c == '}' {
			r.i = i + 1
			ko.n = min(ko.n, ko.pos)
			return 0, false
		}
		if i < len(b) && b[i] == '"' && (c == ',' || first) {
			if ko.pos < ko.n {
				f := ko.seq[ko.pos]
				if l := &lits[f]; f != 0 && l.at(b[i:]) {
					r.i = i + len(l.s)
					ko.pos++
					return f, true
				}
			}
		}
	}
	k, ok := r.nextKey(&first)
	if !ok {
		ko.n = min(ko.n, ko.pos)
		return 0, false
	}
	f := uint8(0)
	for j := 1; j < len(lits); j++ {
		if l := lits[j].s; len(l) == len(k)+3 && l[1:len(l)-2] == k {
			f = uint8(j)
			break
		}
	}
	if ko.pos < len(ko.seq) {
		ko.seq[ko.pos] = f
		ko.n = max(ko.n, ko.pos+1)
	}
	ko.pos++
	return f, true
}

// Fields of a v2 Pod.
const (
	pfID uint8 = iota + 1
	pfName
	pfStatus
	pfImage
	pfArgs
	pfDisk
	pfMounts
	pfPorts
	pfEnv
	pfRegistry
	pfCloud
	pfDataCenterID
	pfGPU
	pfCPU
	pfTemplate
	pfCost
	pfLocked
	pfRuntime
	pfCreatedAt
	pfStartedAt
	// Keys v1 has no use for, listed so that they are recognised by
	// place as well (their values are skipped).
	pfActions
	pfCudaVersion
	pfSSH
	pfGlobalNetworking
	pfCount
)

var podKeyLits = func() keyTable {
	t := make(keyTable, pfCount)
	for f, k := range map[uint8]string{
		pfID: "id", pfName: "name", pfStatus: "status", pfImage: "image", pfArgs: "args",
		pfDisk: "disk", pfMounts: "mounts", pfPorts: "ports", pfEnv: "env", pfRegistry: "registry",
		pfCloud: "cloud", pfDataCenterID: "dataCenterId", pfGPU: "gpu", pfCPU: "cpu",
		pfTemplate: "template", pfCost: "cost", pfLocked: "locked", pfRuntime: "runtime",
		pfCreatedAt: "createdAt", pfStartedAt: "startedAt", pfActions: "actions",
		pfCudaVersion: "cudaVersion", pfSSH: "ssh", pfGlobalNetworking: "globalNetworking",
	} {
		t[f] = newKeyLit(k)
	}
	return t
}()

func (r *jreader) pod(p *v2Pod) {
	if !r.beginFields(&r.podKeys) {
		return
	}
	for {
		f, ok := r.fieldKey(&r.podKeys, podKeyLits)
		if !ok {
			return
		}
		switch f {
		case pfID:
			p.ID = r.str()
		case pfName:
			p.Name = r.str()
		case pfStatus:
			p.Status = internPodEnum(r.str())
		case pfImage:
			p.Image = r.str()
		case pfArgs:
			p.Args = r.str()
		case pfDisk:
			p.Disk = r.integer()
		case pfMounts:
			p.Mounts = v2Mounts{}
			if !r.null() {
				r.mounts(&p.Mounts)
			}
		case pfPorts:
			p.Ports = r.rawOrNil()
		case pfEnv:
			p.Env = r.rawOrNil()
		case pfRegistry:
			p.Registry = r.strOrNull()
		case pfCloud:
			p.Cloud = internPodEnum(r.str())
		case pfDataCenterID:
			p.DataCenterID = r.strOrNull()
		case pfGPU:
			p.GPU = nil
			if !r.null() {
				p.GPU = r.gpus.new()
				r.gpu(p.GPU)
			}
		case pfCPU:
			p.CPU = nil
			if !r.null() {
				p.CPU = r.cpus.new()
				r.cpu(p.CPU)
			}
		case pfTemplate:
			p.Template = r.strOrNull()
		case pfCost:
			p.Cost = r.float()
		case pfLocked:
			p.Locked = r.boolean()
		case pfRuntime:
			p.Runtime = nil
			if !r.null() {
				p.Runtime = r.rts.new()
				r.runtime(p.Runtime)
			}
		case pfCreatedAt:
			p.CreatedAt = r.str()
		case pfStartedAt:
			p.StartedAt = r.strOrNull()
		default:
			r.skip()
		}
		if r.err != nil && f != 0 {
			// Name the field: "gpu: expected an object at byte 812".
			lit := podKeyLits[f].s
			r.err = errors.New(lit[1:len(lit)-2] + ": " + r.err.Error())
		}
	}
}

// podErr names the pod of a list an error was found in.
func podErr(i int, err error) error {
	return errors.New("pods[" + strconv.Itoa(i) + "]: " + err.Error())
}

// rawOrNil returns a value as raw JSON, or nil for null (as
// json.RawMessage keeps "null"; both mean "absent" to rawOr).
func (r *jreader) rawOrNil() []byte {
	if r.null() {
		return nil
	}
	return r.raw()
}

func (r *jreader) mounts(m *v2Mounts) {
	if !r.beginFields(&r.mountKeys) {
		return
	}
	for {
		f, ok := r.fieldKey(&r.mountKeys, mountsKeyLits)
		if !ok {
			return
		}
		switch f {
		case 1: // persistent
			m.Persistent = nil
			if !r.null() {
				m.Persistent = r.mounts_.new()
				if !r.beginFields(&r.persistentKeys) {
					return
				}
				for {
					f2, ok2 := r.fieldKey(&r.persistentKeys, persistentKeyLits)
					if !ok2 {
						break
					}
					switch f2 {
					case 1:
						m.Persistent.Size = r.integer()
					case 2:
						m.Persistent.Path = r.str()
					default:
						r.skip()
					}
				}
			}
		case 2: // network
			m.Network = nil
			if r.null() || !r.beginArray() {
				continue
			}
			if r.stream {
				m.Network = r.net[:0]
			}
			fa := true
			for r.nextElem(&fa) {
				var n v2NetworkMount
				if !r.beginObject() {
					return
				}
				fn := true
				for k2, ok2 := r.nextKey(&fn); ok2; k2, ok2 = r.nextKey(&fn) {
					switch k2 {
					case "volumeId":
						n.VolumeID = r.str()
					case "path":
						n.Path = r.str()
					default:
						r.skip()
					}
				}
				m.Network = append(m.Network, n)
			}
			if r.stream {
				r.net = m.Network
				if len(m.Network) == 0 {
					m.Network = nil
				}
			}
		default:
			r.skip()
		}
	}
}

// keyTable is a fieldKey table: the keys of one kind of object at their
// field numbers (1, 2, …; index 0 unused).
type keyTable []keyLit

// keyLits is the keyTable of keys, numbered from 1 in order.
func keyLits(keys ...string) keyTable {
	t := make(keyTable, len(keys)+1)
	for i, k := range keys {
		t[i+1] = newKeyLit(k)
	}
	return t
}

// keyLit is a member's key as it appears in compact JSON, `"key":`, with
// its first sixteen bytes as two little-endian words and masks, so that
// recognising it costs two loads and compares (no call).
type keyLit struct {
	s      string
	w0, w1 uint64
	m0, m1 uint64
}

func newKeyLit(k string) keyLit {
	s := `"` + k + `":`
	var buf [16]byte
	n := copy(buf[:], s)
	mask := func(n int) uint64 {
		switch {
		case n <= 0:
			return 0
		case n >= 8:
			return ^uint64(0)
		}
		return 1<<(8*n) - 1
	}
	return keyLit{
		s:  s,
		w0: binary.LittleEndian.Uint64(buf[:8]), w1: binary.LittleEndian.Uint64(buf[8:]),
		m0: mask(n), m1: mask(n - 8),
	}
}

// at reports whether b starts with the key.
func (l *keyLit) at(b []byte) bool {
	if len(b) < 16 {
		return len(b) >= len(l.s) && string(b[:len(l.s)]) == l.s
	}
	if binary.LittleEndian.Uint64(b)&l.m0 != l.w0 || binary.LittleEndian.Uint64(b[8:])&l.m1 != l.w1 {
		return false
	}
	return len(l.s) <= 16 || (len(b) >= len(l.s) && string(b[16:len(l.s)]) == l.s[16:])
}

var (
	gpuKeyLits        = keyLits("id", "count")
	cpuKeyLits        = keyLits("id", "vcpuCount", "memory")
	runtimeKeyLits    = keyLits("ports", "uptime", "gpus", "cpu", "memory")
	mountsKeyLits     = keyLits("persistent", "network")
	persistentKeyLits = keyLits("size", "path")
	rtPortKeyLits     = keyLits("private", "public", "ip", "type")
)

func (r *jreader) gpu(g *v2PodGPU) {
	if !r.beginFields(&r.gpuKeys) {
		return
	}
	for {
		f, ok := r.fieldKey(&r.gpuKeys, gpuKeyLits)
		if !ok {
			return
		}
		switch f {
		case 1:
			g.ID = r.str()
		case 2:
			g.Count = r.integer()
		default:
			r.skip()
		}
	}
}

func (r *jreader) cpu(c *v2PodCPU) {
	if !r.beginFields(&r.cpuKeys) {
		return
	}
	for {
		f, ok := r.fieldKey(&r.cpuKeys, cpuKeyLits)
		if !ok {
			return
		}
		switch f {
		case 1:
			c.ID = r.str()
		case 2:
			c.VcpuCount = r.integer()
		case 3:
			c.Memory = r.integer()
		default:
			r.skip()
		}
	}
}

func (r *jreader) runtime(rt *v2PodRuntime) {
	if !r.beginFields(&r.rtKeys) {
		return
	}
	for {
		f, ok := r.fieldKey(&r.rtKeys, runtimeKeyLits)
		if !ok {
			return
		}
		if f != 1 { // only ports
			r.skip()
			continue
		}
		rt.Ports = nil
		if r.null() || !r.beginArray() {
			continue
		}
		// The ports of all pods share chunks of one buffer.
		start := len(r.ports)
		fa := true
		for r.nextElem(&fa) {
			var p v2RuntimePort
			if !r.beginFields(&r.portKeys) {
				return
			}
			for {
				f2, ok2 := r.fieldKey(&r.portKeys, rtPortKeyLits)
				if !ok2 {
					break
				}
				switch f2 {
				case 1:
					p.Private = r.integer()
				case 2:
					p.Public = r.intOrNull()
				case 3:
					p.IP = r.strOrNull()
				default:
					r.skip()
				}
			}
			if r.err != nil {
				return
			}
			if len(r.ports) == cap(r.ports) {
				n := len(r.ports) - start
				nb := make([]v2RuntimePort, n, max(128, 2*n))
				copy(nb, r.ports[start:])
				r.ports, start = nb, 0
			}
			r.ports = append(r.ports, p)
		}
		rt.Ports = r.ports[start:len(r.ports):len(r.ports)]
	}
}

// ---------------------------------------------------------------------------
// v1 encoding

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD (as
// encoding/json does, minus its HTML escaping, which JSON does not need).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain ASCII bytes at a time (SWAR).
		if i+8 <= len(s) {
			x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			if x&swarHighs == 0 && specialStringBytes(x) == 0 {
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

const hexDigit = "0123456789abcdef"

// appendJSONFloat formats f as encoding/json does.
func appendJSONFloat(b []byte, f float64) []byte {
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

func (w *jw) str(k, v string) { w.key(k); w.b = appendJSONString(w.b, v) }
func (w *jw) strOmit(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}
func (w *jw) int(k string, v int) { w.key(k); w.b = strconv.AppendInt(w.b, int64(v), 10) }
func (w *jw) float(k string, v float64) {
	w.key(k)
	w.b = appendJSONFloat(w.b, v)
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
		w.b = appendJSONString(w.b, s)
	}
	w.b = append(w.b, ']')
}

// appendV1Pod appends p as JSON; the result equals json.Marshal(p) up to
// HTML escaping and the whitespace inside env and ports.
func appendV1Pod(b []byte, p *v1Pod) []byte {
	b = append(b, '{')
	w := jw{b: b, first: true}
	w.str("id", p.ID)
	w.str("name", p.Name)
	w.str("image", p.Image)
	w.int("containerDiskInGb", p.ContainerDiskInGb)
	w.strOmit("containerRegistryAuthId", p.ContainerRegistryAuthID)
	if p.DockerStartCmd != nil {
		w.strs("dockerStartCmd", p.DockerStartCmd)
	}
	w.raw("env", rawOr(p.Env, jsonNull))
	w.raw("ports", rawOr(p.Ports, jsonNull))
	w.strOmit("desiredStatus", p.DesiredStatus)
	w.boolean("locked", p.Locked)
	w.float("costPerHr", p.CostPerHr)
	w.float("adjustedCostPerHr", p.AdjustedCostPerHr)
	if g := p.GPU; g != nil {
		w.key("gpu")
		w.b = appendV1PodGPU(w.b, g)
	}
	w.strOmit("cpuFlavorId", p.CPUFlavorID)
	if p.VcpuCount != 0 {
		w.int("vcpuCount", p.VcpuCount)
	}
	if p.MemoryInGb != 0 {
		w.int("memoryInGb", p.MemoryInGb)
	}
	w.int("volumeInGb", p.VolumeInGb)
	w.strOmit("volumeMountPath", p.VolumeMountPath)
	if v := p.NetworkVolume; v != nil {
		w.key("networkVolume")
		w.b = append(w.b, '{')
		vw := jw{b: w.b, first: true}
		vw.str("id", v.ID)
		vw.str("name", v.Name)
		vw.int("size", v.Size)
		vw.str("dataCenterId", v.DataCenterID)
		w.b = append(vw.b, '}')
	}
	w.key("portMappings")
	w.b = p.PortMappings.appendJSON(w.b)
	w.key("publicIp")
	if p.PublicIP != "" {
		w.b = appendJSONString(w.b, string(p.PublicIP))
	} else {
		w.b = append(w.b, "null"...)
	}
	w.strOmit("lastStartedAt", p.LastStartedAt)
	w.strOmit("createdAt", p.CreatedAt)
	w.strOmit("cloudType", p.CloudType)
	w.str("imageName", p.ImageName)
	w.strOmit("gpuTypeId", p.GpuTypeID)
	if p.GpuCount != 0 {
		w.int("gpuCount", p.GpuCount)
	}
	w.strOmit("templateId", p.TemplateID)
	if m := p.Machine; m != nil {
		w.key("machine")
		w.b = append(w.b, '{')
		mw := jw{b: w.b, first: true}
		mw.strOmit("gpuTypeId", m.GpuTypeID)
		if t := m.GpuType; t != nil {
			mw.key("gpuType")
			mw.b = append(mw.b, '{')
			tw := jw{b: mw.b, first: true}
			tw.str("id", t.ID)
			tw.strOmit("displayName", t.DisplayName)
			tw.floatPtr("securePrice", t.SecurePrice)
			tw.floatPtr("communityPrice", t.CommunityPrice)
			mw.b = append(tw.b, '}')
		}
		mw.strOmit("dataCenterId", m.DataCenterID)
		if m.SecureCloud != nil {
			mw.boolean("secureCloud", *m.SecureCloud)
		}
		mw.strOmit("gpuDisplayName", m.GpuDisplayName)
		w.b = append(mw.b, '}')
	}
	if t := p.Template; t != nil {
		w.key("template")
		w.b = append(w.b, '{')
		tw := jw{b: w.b, first: true}
		tw.str("id", t.ID)
		tw.str("name", t.Name)
		tw.str("imageName", t.ImageName)
		tw.int("containerDiskInGb", t.ContainerDiskInGb)
		tw.strOmit("containerRegistryAuthId", t.ContainerRegistryAuthID)
		if t.DockerStartCmd != nil {
			tw.strs("dockerStartCmd", t.DockerStartCmd)
		}
		tw.raw("env", rawOr(t.Env, jsonNull))
		tw.raw("ports", rawOr(t.Ports, jsonNull))
		tw.strOmit("category", t.Category)
		tw.boolean("isPublic", t.IsPublic)
		tw.boolean("isServerless", t.IsServerless)
		tw.int("volumeInGb", t.VolumeInGb)
		tw.strOmit("volumeMountPath", t.VolumeMountPath)
		w.b = append(tw.b, '}')
	}
	return append(w.b, '}')
}

// appendV1PodOf appends the v1 Pod of p — R-Pod without include*
// expansions — as JSON: the same bytes as fillV1Pod then appendV1Pod
// (podstream_test.go checks it byte for byte), without the intermediate
// v1Pod. That one points into itself (GPU → gpu), so it lives on the heap,
// and filling it pod after pod costs a GC write barrier per string while
// a collection runs: the list path encodes straight from the v2 pod.
func appendV1PodOf(b []byte, p *v2Pod) []byte {
	// The keys come in a fixed order and "id" is always first, so each
	// key is appended with its comma as one literal.
	b = append(b, `{"id":`...)
	b = appendJSONString(b, p.ID)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, p.Name)
	b = append(b, `,"image":`...)
	b = appendJSONString(b, p.Image)
	b = append(b, `,"containerDiskInGb":`...)
	b = strconv.AppendInt(b, int64(p.Disk), 10)
	if p.Registry != "" {
		b = append(b, `,"containerRegistryAuthId":`...)
		b = appendJSONString(b, p.Registry)
	}
	w := jw{b: b}
	b = appendPodArgs(&w, p.Args)
	b = append(b, `,"env":`...)
	b = append(b, rawOr(p.Env, jsonEmptyObject)...)
	b = append(b, `,"ports":`...)
	b = append(b, rawOr(p.Ports, jsonEmptyArray)...)
	if ds := desiredStatus(p.Status); ds != "" {
		b = append(b, `,"desiredStatus":"`...)
		b = append(b, ds...) // a constant without characters to escape
		b = append(b, '"')
	}
	if p.Locked {
		b = append(b, `,"locked":true`...)
	} else {
		b = append(b, `,"locked":false`...)
	}
	// costPerHr and adjustedCostPerHr are the same number: formatted once.
	b = append(b, `,"costPerHr":`...)
	n := len(b)
	b = appendJSONFloat(b, p.Cost)
	cost := len(b) - n
	b = append(b, `,"adjustedCostPerHr":`...)
	b = append(b, b[n:n+cost]...)
	if g := p.GPU; g != nil {
		b = append(b, `,"gpu":{"id":`...)
		b = appendJSONString(b, g.ID)
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(g.Count), 10)
		b = append(b, '}')
	}
	if c := p.CPU; c != nil {
		if c.ID != "" {
			b = append(b, `,"cpuFlavorId":`...)
			b = appendJSONString(b, c.ID)
		}
		if c.VcpuCount != 0 {
			b = append(b, `,"vcpuCount":`...)
			b = strconv.AppendInt(b, int64(c.VcpuCount), 10)
		}
		if c.Memory != 0 {
			b = append(b, `,"memoryInGb":`...)
			b = strconv.AppendInt(b, int64(c.Memory), 10)
		}
	}
	size, path := 0, ""
	if pm := p.Mounts.Persistent; pm != nil {
		size, path = pm.Size, pm.Path
	} else if len(p.Mounts.Network) > 0 {
		path = p.Mounts.Network[0].Path
	}
	b = append(b, `,"volumeInGb":`...)
	b = strconv.AppendInt(b, int64(size), 10)
	if path != "" {
		b = append(b, `,"volumeMountPath":`...)
		b = appendJSONString(b, path)
	}
	var ports []v2RuntimePort
	if p.Runtime != nil {
		ports = p.Runtime.Ports
	}
	b = append(b, `,"portMappings":`...)
	b = v1PortMappings(ports).appendJSON(b)
	if ip := publicIP(ports); ip != "" {
		b = append(b, `,"publicIp":`...)
		b = appendJSONString(b, string(ip))
	} else {
		b = append(b, `,"publicIp":null`...)
	}
	if p.StartedAt != "" {
		b = append(b, `,"lastStartedAt":`...)
		b = appendJSONString(b, p.StartedAt)
	}
	if p.CreatedAt != "" {
		b = append(b, `,"createdAt":`...)
		b = appendJSONString(b, p.CreatedAt)
	}
	switch p.Cloud { // interned: the two values are literals
	case "":
	case "SECURE":
		b = append(b, `,"cloudType":"SECURE"`...)
	case "COMMUNITY":
		b = append(b, `,"cloudType":"COMMUNITY"`...)
	default:
		b = append(b, `,"cloudType":`...)
		b = appendJSONString(b, p.Cloud)
	}
	// The names runpodctl reads (v1Pod.ImageName): the values above again.
	b = append(b, `,"imageName":`...)
	b = appendJSONString(b, p.Image)
	if g := p.GPU; g != nil {
		if g.ID != "" {
			b = append(b, `,"gpuTypeId":`...)
			b = appendJSONString(b, g.ID)
		}
		if g.Count != 0 {
			b = append(b, `,"gpuCount":`...)
			b = strconv.AppendInt(b, int64(g.Count), 10)
		}
	}
	if p.Template != "" {
		b = append(b, `,"templateId":`...)
		b = appendJSONString(b, p.Template)
	}
	return append(b, '}')
}

// appendPodArgs appends dockerStartCmd as fillV1Pod sets it (H-args: args
// split into words, omitted when they cannot be split), without a slice of
// words in the common case of arguments without quotes or backslashes.
func appendPodArgs(w *jw, args string) []byte {
	for i := 0; i < len(args); i++ {
		if c := args[i]; c == '\\' || c == '\'' || c == '"' {
			return appendQuotedPodArgs(w, args)
		}
	}
	w.key("dockerStartCmd")
	w.b = append(w.b, '[')
	n, start := 0, -1
	for i := 0; i <= len(args); i++ {
		if i == len(args) || isArgSpace(args[i]) {
			if start >= 0 {
				if n > 0 {
					w.b = append(w.b, ',')
				}
				w.b = appendJSONString(w.b, args[start:i])
				n++
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return append(w.b, ']')
}

// appendQuotedPodArgs is appendPodArgs for args with quotes or
// backslashes: the words are split (SplitArgs) straight into the answer,
// without a string per word; on an unterminated quote dockerStartCmd is
// left out, as fillV1Pod leaves it.
func appendQuotedPodArgs(w *jw, args string) []byte {
	mark, first := len(w.b), w.first
	w.key("dockerStartCmd")
	w.b = append(w.b, '[')
	var buf [256]byte
	word := buf[:0]
	it := argWords{s: args}
	for n := 0; ; n++ {
		var ok bool
		var err error
		word, ok, err = it.next(word[:0])
		if err != nil {
			w.b, w.first = w.b[:mark], first
			return w.b
		}
		if !ok {
			return append(w.b, ']')
		}
		if n > 0 {
			w.b = append(w.b, ',')
		}
		if len(word) == 0 {
			w.b = append(w.b, '"', '"')
			continue
		}
		w.b = appendJSONString(w.b, unsafe.String(&word[0], len(word)))
	}
}

func appendV1PodGPU(b []byte, g *v1PodGPU) []byte {
	b = append(b, '{')
	w := jw{b: b, first: true}
	w.str("id", g.ID)
	w.int("count", g.Count)
	w.strOmit("displayName", g.DisplayName)
	w.floatPtr("securePrice", g.SecurePrice)
	w.floatPtr("communityPrice", g.CommunityPrice)
	return append(w.b, '}')
}

var jsonNull = []byte("null")

// appendV1Pods appends a JSON array of pods.
func appendV1Pods(b []byte, pods []v1Pod) []byte {
	b = append(b, '[')
	for i := range pods {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendV1Pod(b, &pods[i])
	}
	return append(b, ']')
}

// podAnswer is a v1 answer with one pod.
func podAnswer(status int, p *v1Pod) *Result {
	return &Result{Status: status, Body: pooledBody(appendV1Pod(getAnswerBuf(1024), p))}
}

// decodePodAnswer decodes the v2 pod of an answer, or returns the 502.
func decodePodAnswer(a *V2Answer) (*v2Pod, *Result) {
	p, err := decodePod(a.Body)
	if err != nil {
		return nil, Fail(http.StatusBadGateway, "the v2 API answered with a pod the gateway cannot read: "+err.Error())
	}
	return p, nil
}

// decodePodListAnswer decodes the pods of a v2 list answer, or returns the 502.
func decodePodListAnswer(a *V2Answer) ([]v2Pod, *Result) {
	pods, err := decodePodList(a.Body)
	if err != nil {
		return nil, Fail(http.StatusBadGateway, "the v2 API answered with a pod list the gateway cannot read: "+err.Error())
	}
	return pods, nil
}
