package translate

import (
	"context"
	"io"
	"net/http"
	"sync"

	"github.com/v1gateway/v1gateway/podjson"
)

// GET /v1/pods as a stream (issue 16): the v2 answer is read pod by pod and
// each pod's v1 form is written on, so that a request in flight holds a
// window of the v2 answer and a window of the v1 one, whatever the number
// of pods.
//
// The status is committed late, so that it is right whenever it can be:
//   - a v2 answer of at most listPrefixBytes is read whole and answered as
//     before (streamPodList): any failure is a 502 with its message;
//   - a longer one is streamed, but the v1 answer is held until it reaches
//     listCommitBytes: a failure before that (an unreadable pod, v2's
//     connection breaking, a repeated "pods" member) is still a 502 (504
//     for v2's time running out) with its message, and an answer that ends
//     before that is sent whole, with its length (WholeWriter): one write
//     instead of two per chunked piece;
//   - once the held answer has been sent (status 200), a failure aborts
//     the connection (no closing bracket, no final chunk), so that no
//     client can take a truncated list for a complete one.
//
// Without a fact store, the held answer is written whenever it reaches
// listCommitBytes. With one (the gateway always has one: memory or Redis),
// pods are translated in windows of listWindowPods pods (fewer only when
// their v1 form passes listWindowBytes), with one batched lookup of their
// templateId per window: a list of up to 128 pods costs one lookup, as
// before, and a list of 1000 pods eight. A window is written at once, so a
// list of up to 128 pods is sent whole, with its length.

// Sizes of the stream (variables for tests).
var (
	listPrefixBytes = 64 << 10  // v2 answer read before deciding to stream
	listCommitBytes = 32 << 10  // v1 answer held before the status is sent
	listWindowPods  = 128       // pods per fact-store lookup
	listWindowBytes = 256 << 10 // v1 answer per window at most, with a store
)

// StreamBufferBytes is what one streamed list holds in memory, beyond one
// pod, without a fact store (the proxy charges it to its byte budget): the
// 64 KiB window on the v2 answer and the 32 KiB of v1 answer held (in a
// 48 KiB buffer). With a store, a window of 128 v1 pods (~100 KB for
// typical pods, at most listWindowBytes) takes the place of the latter.
const StreamBufferBytes = 64<<10 + 48<<10

// WholeWriter is a stream's writer that can send an answer it is given
// whole with its length (Content-Length) rather than in chunks: a streamed
// list that ends within listCommitBytes is written with WriteWhole.
type WholeWriter interface {
	io.Writer
	WriteWhole(p []byte) (int, error)
}

// StreamCaller is a Caller that can hand over a v2 answer's body unread.
// For a 2xx answer it returns the body to read and close (a.Body is nil);
// for any other answer, a.Body holds it whole and the reader is nil.
type StreamCaller interface {
	Caller
	CallStream(ctx context.Context, c V2Call) (a *V2Answer, body io.ReadCloser, err error)
}

// listPodsStreamed is listPodsPlan's v2 call and answer for the common case
// (no include*, no templateId filter with a store) when c can stream.
func listPodsStreamed(ctx context.Context, req *Request, c StreamCaller, q *podQuery) *Result {
	a, body, err := c.CallStream(ctx, V2Call{Method: http.MethodGet, Path: "/v2/pods"})
	if err != nil {
		return FromCallError(err)
	}
	if body == nil || !a.OK() {
		if body != nil {
			body.Close()
		}
		if !a.OK() {
			return FromV2Error(req.Op, a)
		}
		return streamPodList(ctx, req, a, q)
	}
	// The window on the v2 answer is the list scratch's: a list that is
	// streamed takes the scratch with it (listStream), any other gives it
	// back untouched but for the window and the memo of args (both still
	// empty of references: a scratch in the pool always is).
	sc := listScratches.Get().(*listScratch)
	buf := sc.takePrefix()
	n, err := io.ReadFull(body, buf)
	if err == nil {
		return &newListStream(ctx, req, q, sc, buf[:n], body).res
	}
	body.Close()
	var res *Result
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		// The whole answer: as before. The v1 answer shares none of buf.
		whole := &V2Answer{Status: a.Status, Header: a.Header, Body: buf[:n]}
		res = streamPodListWith(ctx, req, whole, q, &sc.args)
		sc.args.Reset()
	} else {
		res = FromCallError(err)
	}
	sc.keepPrefix(buf)
	listScratches.Put(sc)
	return res
}

// listStream is a streamed list's Result and what its Stream writes from.
// It holds the list's scratch only until the list is written: write takes
// it (and the window) out before it gives it back to the pool, so that a
// Result kept, or written twice, cannot reach a scratch that another list
// (another API key's) is using.
type listStream struct {
	res    Result
	q      podQuery
	ctx    context.Context
	req    *Request
	sc     *listScratch
	prefix []byte // the answer's first bytes, in sc's window buffer
	body   io.ReadCloser
}

// newListStream is the streamed list of the answer whose first bytes,
// prefix, are in sc's window: the Result, its stream and the query in
// one allocation (and the method value).
func newListStream(ctx context.Context, req *Request, q *podQuery, sc *listScratch, prefix []byte, body io.ReadCloser) *listStream {
	ls := &listStream{ctx: ctx, req: req, q: *q, sc: sc, prefix: prefix, body: body}
	ls.res = Result{Status: http.StatusOK, Stream: ls.write}
	return ls
}

// write is the Result's Stream.
func (ls *listStream) write(w io.Writer) *Result {
	sc, prefix := ls.sc, ls.prefix
	if sc == nil {
		return Fail(http.StatusInternalServerError, "the pod list was already written")
	}
	ls.sc, ls.prefix = nil, nil
	defer ls.body.Close()
	return writePodStream(ls.ctx, ls.req, sc, prefix, ls.body, &ls.q, w)
}

// writePodStream translates the answer (prefix, then src) onto w, in the
// storage of sc (from the lists before: no pod, id or string of this list
// is used once it returns), which it gives back to the pool.
func writePodStream(ctx context.Context, req *Request, sc *listScratch, prefix []byte, src io.Reader, q *podQuery, w io.Writer) *Result {
	var s podjson.PodStream
	s.InitReader(prefix, src, &sc.store)
	ends := sc.ends[:0]
	ids := sc.ids[:0] // the bytes of the ids of the window's ends
	out := append(sc.takeOut(), '[')
	defer func() {
		sc.keepPrefix(s.Release(&sc.store))
		sc.ends, sc.ids = ends, ids
		sc.out = out
		sc.release()
	}()
	committed := false
	var werr error
	var p podjson.V2Pod
	n, resets, window := 0, 0, 0
	// flush ends a window: its templates, then the held answer is sent
	// once long enough (or at the end).
	flush := func(final bool) {
		nameWindowIDs(ends, ids)
		out = insertPodTemplates(ctx, req, out, ends, &sc.keys, &sc.spare)
		ends, ids, window = ends[:0], ids[:0], 0
		if final || len(out) >= listCommitBytes {
			if ww, ok := w.(WholeWriter); ok && final && !committed {
				_, werr = ww.WriteWhole(out)
			} else {
				_, werr = w.Write(out)
			}
			if werr == nil {
				committed = true
			}
			out = out[:0]
		}
	}
	for s.Next(&p) {
		if s.Resets() != resets {
			if committed {
				return Fail(http.StatusBadGateway, "the v2 API answered with a pod list the gateway cannot read: a second \"pods\" member after the first was sent")
			}
			// A repeated "pods" member replaces what came before.
			resets, out, n, ends, ids, window = s.Resets(), out[:1], 0, ends[:0], ids[:0], 0
		}
		if !q.match(&p) {
			continue
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = sc.args.AppendV1PodOf(out, &p)
		if p.Template == "" && req.Facts != nil {
			// The id shares the window, which the next pod overwrites: it
			// is copied into ids, which serves one window, and named when
			// the window ends (nameWindowIDs).
			ids = append(ids, p.ID...)
			ends = append(ends, podListEnd{end: len(out) - 1, idEnd: len(ids)})
		}
		n++
		window++
		// Without a store, a window is what is written at once; with
		// one, it is also the pods of one lookup.
		if req.Facts == nil && len(out) >= listCommitBytes || req.Facts != nil && (window >= listWindowPods || len(out) >= listWindowBytes) {
			if flush(false); werr != nil {
				return nil // the client is gone
			}
		}
	}
	if err := s.Finish(); err != nil {
		if se, ok := err.(*podjson.SourceError); ok {
			return FromCallError(se.Err)
		}
		return Fail(http.StatusBadGateway, "the v2 API answered with a pod list the gateway cannot read: "+err.Error())
	}
	if s.Resets() != resets {
		// A last "pods" member that is null or empty.
		if committed {
			return Fail(http.StatusBadGateway, "the v2 API answered with a pod list the gateway cannot read: a second \"pods\" member after the first was sent")
		}
		out, ends = out[:1], ends[:0]
	}
	out = append(out, ']')
	// The closing bracket is outside any pod: insertPodTemplates inserts
	// before each pod's closing brace.
	flush(true)
	return nil
}

// nameWindowIDs gives the pods of a window (ends) their ids: substrings
// of one copy of the window's id bytes, ids, where each ends at its
// idEnd. One copy a window rather than one a pod; the store keeps none of
// the ids it is asked about.
func nameWindowIDs(ends []podListEnd, ids []byte) {
	if len(ends) == 0 {
		return
	}
	all := string(ids)
	start := 0
	for i := range ends {
		ends[i].id = all[start:ends[i].idEnd]
		start = ends[i].idEnd
	}
}

// listScratch is the working storage of one streamed list
// (writePodStream): where its reader decodes each pod, and the ids of a
// window's pods, as kept and as asked of the fact store; the window on
// the v2 answer and the v1 answer held. It goes on to the next list
// (listScratches) emptied and without a pointer left in it, so that a warm
// gateway allocates none of it per list: before, a 100-pod list allocated
// ~20 KB of it, most of what a list gave the garbage collector. (The
// buffers of bytes keep the bytes of the last list, as any pooled buffer:
// a list reads only what it has written into them.)
type listScratch struct {
	store podjson.PodStorage
	ends  []podListEnd
	ids   []byte
	keys  []string
	// args: the dockerStartCmd of the list's distinct args, split once.
	args podjson.ArgsMemo
	// prefix: the window on the v2 answer (cap listPrefixBytes), nil
	// while a list has it; out: the v1 answer held, and spare: where
	// insertPodTemplates rebuilds it (they swap). Own buffers, not the
	// answer pool's: a list got a single pod's buffer from it and grew it.
	prefix, out, spare []byte
}

var listScratches = sync.Pool{New: func() any { return new(listScratch) }}

// Past these sizes a buffer of a listScratch is dropped, not kept: a rare
// list of unusual pods does not pin its memory.
const (
	maxKeptListEnds = 512 // a window holds 128 (listWindowPods)
	maxKeptIDBytes  = 64 << 10
	maxKeptOutBytes = 512 << 10 // twice listWindowBytes
)

// takePrefix takes sc's window buffer, listPrefixBytes long (a new one
// when sc has none of that size).
func (sc *listScratch) takePrefix() []byte {
	b := sc.prefix
	sc.prefix = nil
	if cap(b) != listPrefixBytes {
		return make([]byte, listPrefixBytes)
	}
	return b[:listPrefixBytes]
}

// keepPrefix gives sc the window buffer b back, if it has not grown.
func (sc *listScratch) keepPrefix(b []byte) {
	if cap(b) == listPrefixBytes {
		sc.prefix = b[:0]
	}
}

// takeOut returns sc's buffer for the v1 answer, emptied: a new one is
// sized for what is held before the status is sent, and never past what a
// scratch keeps (tests hold whole lists with listCommitBytes at 1 GiB).
func (sc *listScratch) takeOut() []byte {
	if sc.out == nil {
		return make([]byte, 0, min(listCommitBytes, maxKeptOutBytes)+16<<10)
	}
	return sc.out[:0]
}

// release empties sc and hands it to the next list.
func (sc *listScratch) release() {
	sc.reset()
	listScratches.Put(sc)
}

// reset empties sc: no element keeps a reference, and a buffer grown past
// the usual sizes is dropped.
func (sc *listScratch) reset() {
	sc.store.Clear()
	sc.args.Reset()
	sc.ends = keepCleared(sc.ends, maxKeptListEnds)
	sc.keys = keepCleared(sc.keys, maxKeptListEnds)
	sc.ids = keepEmpty(sc.ids, maxKeptIDBytes)
	sc.out = keepEmpty(sc.out, maxKeptOutBytes)
	sc.spare = keepEmpty(sc.spare, maxKeptOutBytes)
}

// keepEmpty returns b emptied, or nil if its capacity is over max.
func keepEmpty[T any](b []T, max int) []T {
	if cap(b) > max {
		return nil
	}
	return b[:0]
}

// keepCleared is keepEmpty, with every element of b's capacity zeroed
// (for elements that hold references).
func keepCleared[T any](b []T, max int) []T {
	if b = keepEmpty(b, max); b != nil {
		clear(b[:cap(b)])
	}
	return b
}
