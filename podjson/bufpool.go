package podjson

import (
	"sync"
	"unsafe"
)

// Answer buffers are recycled: v1 answers are built in buffers from a pool
// (GetAnswerBuf), recorded as outstanding once handed out as an answer's
// body (PooledBody), and given back with ReleaseBody once that body has
// been written. Only buffers handed out here are ever reused — a bounded
// set of outstanding buffers says which — so releasing any other body (a
// constant, a json.Marshal result) does nothing.
var answerBufs = struct {
	pool sync.Pool // *[]byte
	mu   sync.Mutex
	out  map[*byte]struct{} // outstanding pooled bodies (at most maxOutstandingBodies)
}{out: map[*byte]struct{}{}}

// maxOutstandingBodies bounds the bodies awaiting ReleaseBody: a caller
// that never releases (a test that does not write its answers) costs at
// most this many buffers kept alive.
const maxOutstandingBodies = 256

// GetAnswerBuf returns an empty buffer, with room for hint bytes when it is
// a new one.
func GetAnswerBuf(hint int) []byte {
	if v, ok := answerBufs.pool.Get().(*[]byte); ok {
		return (*v)[:0]
	}
	return make([]byte, 0, hint)
}

// PutAnswerBuf gives b (a GetAnswerBuf buffer never handed out as a body:
// not outstanding) back to the pool.
func PutAnswerBuf(b []byte) {
	b = b[:0]
	answerBufs.pool.Put(&b)
}

// PooledBody records b (built in a GetAnswerBuf buffer) as outstanding, an
// answer's body that ReleaseBody will give back, and returns it.
func PooledBody(b []byte) []byte {
	if cap(b) == 0 {
		return b
	}
	answerBufs.mu.Lock()
	if len(answerBufs.out) >= maxOutstandingBodies {
		clear(answerBufs.out) // forgotten ones are left to the garbage collector
	}
	// unsafe: the buffer's address only names it (cap(b) > 0), never dereferenced; TestReleaseBody (no fuzz target: the pool reads no input).
	answerBufs.out[unsafe.SliceData(b)] = struct{}{}
	answerBufs.mu.Unlock()
	return b
}

// ReleaseBody gives back an answer's body once it has been written and is
// no longer used, so that its buffer serves another answer. Bodies that
// were not recorded by PooledBody are ignored, and so is a second release.
func ReleaseBody(b []byte) {
	if cap(b) == 0 {
		return
	}
	// unsafe: the address only names the buffer, as in PooledBody; TestReleaseBody (no fuzz target: the pool reads no input).
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
