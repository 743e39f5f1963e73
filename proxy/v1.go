package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gorilla/mux"

	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/v1doc"
)

// upstreamCaller makes a plan's v2 calls with the client's own credentials.
// The upstream transport logs each attempt in the request's reqInfo.
type upstreamCaller struct {
	op            *translate.Operation
	up            *Upstream
	cache         *catalogCache
	authorization string
	requestID     string

	// bodies are the answers read for this request, given back to the
	// pool by release once the v1 answer is written.
	mu       sync.Mutex
	bodies   [][]byte
	released bool

	// budget, when set, bounds the bytes of GET answers in memory across
	// requests (membudget.go); held is this request's share, given back
	// by releaseBudget when the request ends.
	budget *bufferBudget
	held   atomic.Int64

	// admit, when set (the GraphQL door: v2calls.go), is asked before
	// each call that goes to v2 (not one the catalog cache answers): nil
	// to make it, or the answer that stands for it (a 429).
	admit func(ctx context.Context) *translate.V2Answer
}

// callObserver, when set (by tests), sees every v2 call a plan makes.
var callObserver func(op *translate.Operation, call translate.V2Call)

func (c *upstreamCaller) Call(ctx context.Context, call translate.V2Call) (*translate.V2Answer, error) {
	if callObserver != nil {
		callObserver(c.op, call)
	}
	if a, ok := c.cache.get(call); ok {
		infoFrom(ctx).addCall(call.Method, call.Path, "cached", 0, 0)
		return a, nil
	}
	if c.admit != nil {
		if a := c.admit(ctx); a != nil {
			return a, nil
		}
	}
	uc := Call{Method: call.Method, Path: call.Path, Query: call.Query, Body: call.Body}
	if c.budget != nil && call.Method == http.MethodGet {
		uc.Charge = func(n int64) bool {
			if !c.budget.acquire(ctx, n, BufferBudgetWait) {
				return false
			}
			c.held.Add(n)
			return true
		}
	}
	resp, err := c.up.Do(ctx, uc, c.authorization, c.requestID)
	if err != nil {
		return nil, normalizeCallError(err)
	}
	a := &translate.V2Answer{Status: resp.Status, Header: resp.Header, Body: resp.Body}
	if kept := c.cache.put(call, a); kept != nil {
		// The plan reads the cached answer, as later requests will: what
		// it decodes from it is kept for them (translate, answermemo.go).
		return kept, nil
	}
	c.mu.Lock()
	if !c.released && len(c.bodies) < 32 {
		c.bodies = append(c.bodies, resp.Body)
	}
	c.mu.Unlock()
	return a, nil
}

// CallStream makes a GET whose 2xx answer the plan reads as a stream
// (translate.StreamCaller: GET /v1/pods). Such an answer is never held
// whole: it takes a flat translate.StreamBufferBytes of the byte budget
// (the windows the plan holds), whatever its length; another answer (a v2
// error) is read whole and charged as by Call.
func (c *upstreamCaller) CallStream(ctx context.Context, call translate.V2Call) (*translate.V2Answer, io.ReadCloser, error) {
	if callObserver != nil {
		callObserver(c.op, call)
	}
	if c.admit != nil {
		if a := c.admit(ctx); a != nil {
			return a, nil, nil
		}
	}
	uc := Call{Method: call.Method, Path: call.Path, Query: call.Query, Body: call.Body}
	if c.budget != nil && call.Method == http.MethodGet {
		if !c.budget.acquire(ctx, translate.StreamBufferBytes, BufferBudgetWait) {
			return nil, nil, &BudgetExceededError{}
		}
		c.held.Add(translate.StreamBufferBytes)
		uc.Charge = func(n int64) bool {
			if !c.budget.acquire(ctx, n, BufferBudgetWait) {
				return false
			}
			c.held.Add(n)
			return true
		}
	}
	whole, resp, err := c.up.Stream(ctx, uc, c.authorization, c.requestID)
	if err != nil {
		return nil, nil, normalizeCallError(err)
	}
	if resp == nil {
		a := &translate.V2Answer{Status: whole.Status, Header: whole.Header, Body: whole.Body}
		c.mu.Lock()
		if !c.released && len(c.bodies) < 32 {
			c.bodies = append(c.bodies, whole.Body)
		}
		c.mu.Unlock()
		return a, nil, nil
	}
	// The answer and its readers in one allocation.
	sa := &streamedAnswer{a: translate.V2Answer{Status: resp.StatusCode, Header: resp.Header}, lim: c.up.limited(resp.Body)}
	sa.body = streamBody{&sa.lim}
	return &sa.a, &sa.body, nil
}

// streamedAnswer is what CallStream allocates for a streamed answer: its
// body read through Upstream.limited, with the errors as Call gives them.
type streamedAnswer struct {
	a    translate.V2Answer
	body streamBody
	lim  limitedBody
}

// streamBody reads a streamed answer, with its errors as Call gives them.
type streamBody struct{ io.ReadCloser }

func (b *streamBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = normalizeCallError(err)
	}
	return n, err
}

// release gives the request's answer bodies back to the pool. Call it only
// when nothing refers to them any more: plans decode strings that share a
// body's memory, so the v1 answer must be written first. Cached answers
// are never released.
func (c *upstreamCaller) release() {
	c.mu.Lock()
	bodies := c.bodies
	c.bodies, c.released = nil, true
	c.mu.Unlock()
	for _, b := range bodies {
		releaseBody(b)
	}
}

// releaseBudget gives the request's share of the memory budget back.
func (c *upstreamCaller) releaseBudget() {
	if c.budget != nil {
		c.budget.release(c.held.Swap(0))
	}
}

// timeoutError is an upstream timeout that is not the request's deadline
// (the transport's response-header timeout): plans treat it as one
// (translate.FromCallError: 504).
type timeoutError struct{ err error }

func (e timeoutError) Error() string        { return e.err.Error() }
func (e timeoutError) Unwrap() error        { return e.err }
func (e timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

func normalizeCallError(err error) error {
	var ne net.Error
	if !errors.Is(err, context.DeadlineExceeded) && errors.As(err, &ne) && ne.Timeout() {
		return timeoutError{err}
	}
	return err
}

// v1Handler answers one v1 operation by running its plan: translate's, or
// for the gateway's own document and page, staticPlan. An operation
// without one answers 501 so that a client learns at once, and loudly,
// what it cannot rely on.
func (g *Gateway) v1Handler(op *translate.Operation) http.Handler {
	plan := op.Plan
	if op.Kind == translate.KindStatic {
		plan = staticPlan(op)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if plan == nil {
			writeError(w, r, http.StatusNotImplemented,
				fmt.Sprintf("%s (%s /v1%s) is not implemented yet by this gateway", op.Name, op.Method, op.Path))
			return
		}
		// nil without path variables (GET /v1/pods): plans only read it.
		var params map[string]string
		if info := infoFrom(r.Context()); info != nil && info.routed {
			for i := 0; i+1 < len(info.vars); i += 2 {
				if !addParam(w, r, &params, info.vars[i], info.vars[i+1]) {
					return
				}
			}
		} else {
			for k, v := range mux.Vars(r) {
				if !addParam(w, r, &params, k, v) {
					return
				}
			}
		}
		var body []byte
		if r.Body == http.NoBody {
			// What io.ReadAll gives for it (empty, not nil), without
			// its 512-byte buffer: every GET the server reads has this body.
			body = []byte{}
		} else if r.Body != nil {
			b, err := io.ReadAll(r.Body)
			if err != nil {
				var mbe *http.MaxBytesError
				var cbe *ClientBodyError
				if errors.As(err, &mbe) {
					writeError(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds the limit of %d bytes", MaxBodyBytes))
					return
				}
				if errors.As(err, &cbe) && cbe.Timeout {
					w.Header().Set("Connection", "close")
					writeError(w, r, http.StatusRequestTimeout, cbe.Error())
					return
				}
				writeError(w, r, http.StatusBadRequest, "cannot read the request body: "+err.Error())
				return
			}
			body = b
		}
		ctx, cancel := context.WithTimeout(r.Context(), g.cfg.RequestTimeout)
		defer cancel()
		// The caller, the plan's request and the writer of a streamed
		// answer in one allocation.
		call := &v1Call{
			caller: upstreamCaller{op: op, up: g.upstream, cache: g.catalog, authorization: headerValue(r.Header, "Authorization"), requestID: RequestID(r.Context()), budget: g.budget},
			req: translate.Request{
				Op:     op,
				Params: params,
				Query:  query(r.URL),
				Body:   body,
				Options: translate.Options{
					Lenient:         g.cfg.CompatMode == "lenient",
					ResetRestart:    g.cfg.ResetMode == "restart",
					Now:             g.now,
					DefaultGPUTypes: g.cfg.DefaultGPUTypes,
					FieldPolicy:     g.cfg.FieldPolicy,
				},
				Facts: g.factsForPlans(),
			},
		}
		caller := &call.caller
		defer caller.releaseBudget()
		res := plan(ctx, &call.req, caller)
		if res == nil {
			res = translate.Fail(http.StatusInternalServerError, op.Name+": the gateway produced no answer")
		}
		// Every warning, lenient drop, emulation and refusal reaches the
		// operator (P7a): withObservability counts them once answered.
		infoFrom(r.Context()).setNotes(res.Notes)
		if res.Status == http.StatusServiceUnavailable && res.RetryAfter == "" {
			if oe := infoFrom(r.Context()).breakerOpenErr(); oe != nil {
				res.RetryAfter = retryAfterHeader(oe.RetryAfterSeconds())
			}
		}
		if res.Stream != nil && res.Status < 300 {
			// Streamed (GET /v1/pods): the status is sent with the first
			// bytes. A failure before them is answered as any; after them,
			// the connection is aborted (no final chunk), so that the
			// client cannot take the truncated list for a whole one.
			sw := &call.sw
			sw.w, sw.op, sw.res = w, op, res
			fail := res.Stream(sw)
			if fail != nil {
				infoFrom(r.Context()).setError(fail.Body)
				if sw.committed {
					caller.release()
					panic(http.ErrAbortHandler)
				}
				writeResult(w, fail)
			} else if !sw.committed {
				sw.commit()
			}
			caller.release()
			return
		}
		if res.Status < 300 {
			if cc := op.CacheControl(); cc != "" {
				w.Header().Set("Cache-Control", cc)
			}
			writeResultAs(w, res, op.ContentType())
		} else {
			if res.Status >= 500 {
				// The gateway's own account of a failure (an unreadable v2
				// answer, a lost reply, …) goes to the access log too.
				infoFrom(r.Context()).setError(res.Body)
			}
			writeResult(w, res)
		}
		// Written: the buffers can serve other answers (a no-op for bodies
		// that do not come from translate's pool).
		translate.ReleaseBody(res.Body)
		caller.release()
	})
}

// staticPlan answers a KindStatic operation — GET /v1/openapi.json or
// GET /v1/docs (P10) — with what package v1doc generates for it (once, at
// the first request), making no v2 call; nil when v1doc makes nothing for
// op. Its content type and caching are op's, as for every answer.
func staticPlan(op *translate.Operation) translate.PlanFunc {
	body := v1doc.For(op)
	if body == nil {
		return nil
	}
	return func(context.Context, *translate.Request, translate.Caller) *translate.Result {
		return &translate.Result{Status: http.StatusOK, Body: body()}
	}
}

// v1Call is what the v1 handler allocates per request for its plan.
type v1Call struct {
	caller upstreamCaller
	req    translate.Request
	sw     streamWriter // for a streamed answer
}

// query is u.Query(), nil for an empty query: plans only read it, and
// url.ParseQuery would allocate an empty map for every request without one.
func query(u *url.URL) url.Values {
	if u.RawQuery == "" {
		return nil
	}
	return u.Query()
}

// addParam adds the path variable k, escaped value v, to *params (made on
// the first); an invalid id is answered 404 (false).
func addParam(w http.ResponseWriter, r *http.Request, params *map[string]string, k, v string) bool {
	id, err := url.PathUnescape(v)
	if err != nil || !translate.ValidID(id) {
		writeError(w, r, http.StatusNotFound, fmt.Sprintf("invalid %s %q", k, v))
		return false
	}
	if *params == nil {
		*params = make(map[string]string, 2)
	}
	(*params)[k] = id
	return true
}

// writeResult writes a plan's v1 answer.
func writeResult(w http.ResponseWriter, res *translate.Result) {
	writeResultAs(w, res, "application/json")
}

// writeResultAs writes a plan's v1 answer with a body of media type ct.
func writeResultAs(w http.ResponseWriter, res *translate.Result, ct string) {
	h := w.Header()
	setResultHeaders(h, res)
	if res.Body == nil || res.Status == http.StatusNoContent {
		w.WriteHeader(res.Status)
		return
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Length", strconv.Itoa(len(res.Body)))
	w.WriteHeader(res.Status)
	_, _ = w.Write(res.Body)
}

// streamWriter sends the status and headers (commit) before the first
// bytes of a streamed answer.
type streamWriter struct {
	w         http.ResponseWriter
	op        *translate.Operation
	res       *translate.Result
	committed bool
}

// commit sends the status and headers of the streamed answer.
func (s *streamWriter) commit() {
	h := s.w.Header()
	if cc := s.op.CacheControl(); cc != "" {
		h.Set("Cache-Control", cc)
	}
	setResultHeaders(h, s.res)
	h.Set("Content-Type", s.op.ContentType())
	s.w.WriteHeader(s.res.Status)
}

func (s *streamWriter) Write(p []byte) (int, error) {
	if !s.committed {
		s.committed = true
		s.commit()
	}
	return s.w.Write(p)
}

// WriteWhole writes p as the whole answer, with its length: one write, no
// chunked encoding (translate.WholeWriter).
func (s *streamWriter) WriteWhole(p []byte) (int, error) {
	if !s.committed {
		s.w.Header()["Content-Length"] = []string{strconv.Itoa(len(p))}
	}
	return s.Write(p)
}

// setResultHeaders sets the headers that say what the gateway did.
func setResultHeaders(h http.Header, res *translate.Result) {
	for _, warn := range res.Warnings {
		h.Add("X-Compat-Warning", asciiHeaderValue(warn))
	}
	if len(res.Dropped) > 0 {
		h.Set("X-Compat-Dropped", asciiHeaderValue(strings.Join(res.Dropped, ",")))
	}
	if res.Emulated != "" {
		h.Set("X-Compat-Emulated", asciiHeaderValue(res.Emulated))
	}
	if res.RetryAfter != "" {
		h.Set("Retry-After", res.RetryAfter)
	}
}
