package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/usage"
)

// reqInfo is what the layers of one request learn about it, for its
// access-log line, metrics, span and usage record. The handlers fill it in;
// withObservability reads it once the answer is written.
type reqInfo struct {
	op    string // v1 operation name, "v2-passthrough", "graphql" or "unknown"
	keyID string // after auth; usage.Anonymous for a keyless /graphql call
	// anonKey is the rate-limit key of a keyless /graphql call (its client
	// address, hashed; withKeyOrAnonymous), "" for every other request.
	anonKey   string
	requestID string // set by withRequestID
	// sw is the request's statusWriter (allocated with reqInfo: one
	// allocation per request for both).
	sw statusWriter
	// routed: the v1 route was found by v1Routes (fastroute.go), whose
	// path variables (name, value pairs, escaped) are vars, in varsBuf.
	routed  bool
	vars    []string
	varsBuf [2 * maxPathVars]string

	mu          sync.Mutex
	calls       []v2CallRec // logged as "GET /v2/pods -> 200"
	upStatuses  []int
	upDuration  time.Duration
	breakerOpen *BreakerOpenError
	limiter     string // allowed, limited, error, unavailable; "" when not asked
	errMsg      string // the message of a 5xx v1 answer, for the access log
	// graphqlFields are the root fields the GraphQL door ran ("query
	// myself"): /usage counts each (graphqldoor.go).
	graphqlFields []string
	bodyErr       atomic.Pointer[ClientBodyError] // the client's body failed (deadlineBody)
	// the v2 call sent and not answered yet (LogUnfinished; "" method:
	// none), kept as its parts: the line is built only if the drain cuts
	// the request off.
	sendingMethod, sendingPath string
	// callsBuf and statusBuf hold the first calls and statuses, so that a
	// request of one or two v2 calls does not allocate the slices.
	callsBuf  [2]v2CallRec
	statusBuf [2]int
	// method, path and start are what LogUnfinished tells of a request
	// being served (g.active maps the reqInfo to itself).
	method, path string
	start        time.Time
	// notes are the compatibility notes of the v1 answer (P7a): counted
	// per key in /usage, by code in a metric, their codes in the log.
	notes []translate.Note
	// Allocated with the reqInfo (withRequestID): the request's context
	// that carries it, the value of the answer's X-Request-Id header and
	// that of its RateLimit header (setRateLimitHeaders).
	ctx          infoContext
	idHdr        [1]string
	rateLimitHdr [1]string
}

// infoContext is the context that carries a request's reqInfo: what
// context.WithValue(Context, infoKey{}, info) gives, allocated as part of
// the reqInfo.
type infoContext struct {
	context.Context
	info *reqInfo
}

func (c *infoContext) Value(key any) any {
	if _, ok := key.(infoKey); ok {
		return c.info
	}
	return c.Context.Value(key)
}

// setNotes records the compatibility notes of the request's v1 answer.
func (i *reqInfo) setNotes(notes []translate.Note) {
	if i == nil || len(notes) == 0 {
		return
	}
	i.mu.Lock()
	i.notes = notes
	i.mu.Unlock()
}

// setError records the message of a v1 error answer body for the access
// log (the answer's own words: never a credential).
func (i *reqInfo) setError(body []byte) {
	if i == nil {
		return
	}
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &e) != nil || e.Message == "" {
		return
	}
	if len(e.Message) > 1000 {
		e.Message = e.Message[:1000]
	}
	i.mu.Lock()
	i.errMsg = e.Message
	i.mu.Unlock()
}

type infoKey struct{}

func infoFrom(ctx context.Context) *reqInfo {
	i, _ := ctx.Value(infoKey{}).(*reqInfo)
	return i
}

func (i *reqInfo) addCall(method, path, outcome string, status int, d time.Duration) {
	if i == nil {
		return
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.sendingMethod, i.sendingPath = "", ""
	if len(i.calls) < 32 { // bounded, whatever a plan does
		if i.calls == nil {
			i.calls = i.callsBuf[:0]
		}
		i.calls = append(i.calls, v2CallRec{method, path, outcome})
	}
	if status != 0 && len(i.upStatuses) < 32 {
		if i.upStatuses == nil {
			i.upStatuses = i.statusBuf[:0]
		}
		i.upStatuses = append(i.upStatuses, status)
	}
	i.upDuration += d
}

// v2CallRec is one v2 call of a request, kept as its parts: the line
// "GET /v2/pods -> 200" is written straight into the access log
// (appendCallsJSON), not built as a string per call.
type v2CallRec struct{ method, path, outcome string }

func (c v2CallRec) String() string { return c.method + " " + c.path + " -> " + c.outcome }

func callStrings(calls []v2CallRec) []string {
	out := make([]string, len(calls), len(calls)+1)
	for i, c := range calls {
		out[i] = c.String()
	}
	return out
}

// appendCallsJSON appends calls as a JSON array of their lines: the value
// zerolog's Strs writes for callStrings(calls).
func appendCallsJSON(b []byte, calls []v2CallRec) []byte {
	b = append(b, '[')
	for i, c := range calls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = appendJSONStringContent(b, c.method)
		b = append(b, ' ')
		b = appendJSONStringContent(b, c.path)
		b = append(b, " -> "...)
		b = appendJSONStringContent(b, c.outcome)
		b = append(b, '"')
	}
	return append(b, ']')
}

// appendJSONStringContent appends s escaped for a JSON string (without
// the quotes): plain ASCII as it is, anything else as encoding/json
// escapes it (invalid UTF-8 becomes U+FFFD).
func appendJSONStringContent(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			plain = false
			break
		}
	}
	if plain {
		return append(b, s...)
	}
	q, _ := json.Marshal(s)
	return append(b, q[1:len(q)-1]...)
}

// startCall records a v2 call being sent, until addCall records its end.
func (i *reqInfo) startCall(method, path string) {
	if i == nil {
		return
	}
	i.mu.Lock()
	i.sendingMethod, i.sendingPath = method, path
	i.mu.Unlock()
}

func (i *reqInfo) setBreakerOpen(e *BreakerOpenError) {
	if i == nil {
		return
	}
	i.mu.Lock()
	i.breakerOpen = e
	i.mu.Unlock()
}

func (i *reqInfo) breakerOpenErr() *BreakerOpenError {
	if i == nil {
		return nil
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.breakerOpen
}

func (i *reqInfo) setLimiter(decision string) {
	if i != nil {
		i.mu.Lock()
		i.limiter = decision
		i.mu.Unlock()
	}
}

// statusWriter records the status and size of an answer. It keeps
// streaming working: Flush passes through, and Unwrap lets
// http.ResponseController reach the connection.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Flush() {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// withObservability wraps every request (inside the request id): a server
// span continuing the caller's W3C trace context, then, once answered, one
// access-log line, the request metrics and the usage record.
//
// Hot path: the reqInfo comes from withRequestID (one allocation for it and
// the statusWriter), and the request is copied (WithContext) only when a
// span is started. No server span is started when nothing would record or
// export it (see Telemetry.unsampledRoots) and the caller sent no trace
// context; nor then a client span (clientTracing): v2 receives no
// traceparent, since a new trace that nothing records would tell nobody
// anything. A caller's trace context is always continued upstream.
func (g *Gateway) withObservability(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ctx := r.Context()
		info := infoFrom(ctx)
		if info == nil {
			info = &reqInfo{op: opUnknown}
			ctx = context.WithValue(ctx, infoKey{}, info)
		}
		ctx, span := g.startServerSpan(ctx, r)
		if ctx != r.Context() {
			r = r.WithContext(ctx)
		}
		g.metrics.inflightN.Add(1)
		info.method, info.path, info.start = r.Method, r.URL.Path, start
		g.active.Store(info, info)
		sw := &info.sw
		sw.ResponseWriter = w
		defer func() {
			g.active.Delete(info)
			// A panic (http.ErrAbortHandler from the pass-through when a
			// stream breaks, or a bug) is still logged and counted, then
			// handed on to net/http.
			p := recover()
			g.metrics.inflightN.Add(-1)
			switch {
			case sw.status == 0 && p != nil:
				sw.status = http.StatusInternalServerError
			case sw.status == 0:
				sw.status = http.StatusOK // the handler wrote nothing: net/http answers 200
			}
			if p != nil && p != http.ErrAbortHandler {
				g.log.Error().Str("request_id", RequestID(ctx)).Interface("panic", p).Msg("handler panicked")
			}
			defer func() {
				if p != nil {
					panic(p)
				}
			}()
			dur := time.Since(start)
			attrs := opStatusAttrs(info.op, sw.status)
			g.metrics.requests.Add(1, attrs)
			g.metrics.requestDuration.Record(ctx, dur.Seconds(), attrs.rec...)
			counted := g.countsForUsage(info)
			if counted && info.op != opUnknown && g.usage != nil {
				g.usage.Record(info.keyID, info.op)
				for _, f := range info.graphqlFields {
					g.usage.Record(info.keyID, usage.GraphQLField(f))
				}
			}
			for _, f := range info.graphqlFields {
				g.metrics.graphqlFields.Add(ctx, 1, cachedAttrs("field", f).add...)
			}
			g.recordNotes(ctx, info, counted)
			if span != nil {
				if span.IsRecording() {
					span.SetName(info.op)
					span.SetAttributes(attribute.String("v1gw.operation", info.op), attribute.Int("http.response.status_code", sw.status),
						attribute.String("v1gw.request_id", RequestID(ctx)))
					if len(info.graphqlFields) > 0 {
						span.SetAttributes(attribute.StringSlice("v1gw.graphql_fields", info.graphqlFields))
					}
					if sw.status >= 500 {
						span.SetStatus(codes.Error, http.StatusText(sw.status))
					}
				}
				span.End()
			}
			g.accessLog(r, sw, info, dur)
		}()
		next.ServeHTTP(sw, r)
	})
}

// recordNotes counts the request's compatibility notes: per key id and
// operation in the usage batcher (an in-process map update, flushed with
// the call counts), and by code and operation in v1gw_compat_notes_total.
func (g *Gateway) recordNotes(ctx context.Context, info *reqInfo, counted bool) {
	info.mu.Lock()
	notes := info.notes
	info.mu.Unlock()
	for _, n := range notes {
		g.metrics.compatNotes.Add(ctx, 1, cachedAttrs("code", n.Code, "operation", info.op).add...)
		if counted && g.usage != nil {
			g.usage.RecordFieldNote(info.keyID, info.op, n.Code, n.Field, n.Message)
		}
	}
}

// startServerSpan continues the caller's trace context, if any, in a
// server span; it returns a nil span when none is needed (nothing records
// or exports spans and the caller sent no trace context).
func (g *Gateway) startServerSpan(ctx context.Context, r *http.Request) (context.Context, trace.Span) {
	t := g.tel
	if t.hasPropagationHeaders(r.Header) {
		ctx = t.propagator.Extract(ctx, propagation.HeaderCarrier(r.Header))
	} else if t.unsampledRoots {
		return ctx, nil
	}
	ctx, span := t.tracer.Start(ctx, r.Method, serverSpanKind)
	if span.IsRecording() {
		span.SetAttributes(attribute.String("http.request.method", r.Method), attribute.String("url.path", r.URL.EscapedPath()))
	}
	return ctx, span
}

// accessLog writes the request's one line: never a token, never a body.
func (g *Gateway) accessLog(r *http.Request, sw *statusWriter, info *reqInfo, dur time.Duration) {
	var ev *zerolog.Event
	switch {
	case sw.status >= 500:
		ev = g.log.Warn()
	default:
		ev = g.log.Info()
	}
	if !ev.Enabled() {
		return
	}
	info.mu.Lock()
	calls, statuses, upDur, lim, errMsg, notes := info.calls, info.upStatuses, info.upDuration, info.limiter, info.errMsg, info.notes
	info.mu.Unlock()
	ev = ev.Str("request_id", RequestID(r.Context())).
		Str("method", r.Method).
		Str("path", capString(r.URL.EscapedPath(), maxLogString)).
		Str("operation", info.op).
		Int("status", sw.status).
		Float64("duration_ms", float64(dur.Microseconds())/1000).
		Int64("bytes", sw.bytes)
	if info.keyID != "" {
		ev = ev.Str("key_id", info.keyID)
	}
	if lim != "" {
		ev = ev.Str("rate_limit", lim)
	}
	if len(info.graphqlFields) > 0 {
		ev = ev.Strs("graphql_fields", capStrings(info.graphqlFields, maxLogList))
	}
	if len(calls) > 0 {
		var buf [512]byte
		ev = ev.RawJSON("v2_calls", appendCallsJSON(buf[:0], calls)).Ints("upstream_statuses", statuses).
			Float64("upstream_ms", float64(upDur.Microseconds())/1000)
	}
	if errMsg != "" {
		ev = ev.Str("error", capString(errMsg, maxLogString))
	}
	h := sw.Header()
	if v := h["X-Compat-Warning"]; len(v) > 0 {
		ev = ev.Strs("compat_warning", capStrings(v, maxLogList))
	}
	if v := headerValue(h, "X-Compat-Dropped"); v != "" {
		ev = ev.Str("compat_dropped", v)
	}
	if v := headerValue(h, "X-Compat-Emulated"); v != "" {
		ev = ev.Str("compat_emulated", v)
	}
	if len(notes) > 0 {
		codes := make([]string, 0, min(len(notes), maxLogList+1))
		for _, n := range notes {
			if len(codes) == maxLogList {
				codes = append(codes, fmt.Sprintf("(+%d more)", len(notes)-maxLogList))
				break
			}
			codes = append(codes, n.Code)
		}
		ev = ev.Strs("compat_notes", codes)
	}
	if ua := headerValue(r.Header, "User-Agent"); ua != "" {
		if len(ua) > 200 {
			ua = ua[:200]
		}
		ev = ev.Str("user_agent", ua)
	}
	ev.Msg("request")
}

// The access log line is bounded (P12), whatever a request holds: at most
// maxLogList entries of a list (the rest counted), maxLogString bytes of a
// string. A GraphQL document of 1,000 aliased root fields wrote a line of
// 281 KB.
const (
	maxLogList   = 32
	maxLogString = 1024
)

// capStrings is l, at most n entries of it and one saying how many more.
func capStrings(l []string, n int) []string {
	if len(l) <= n && !slices.ContainsFunc(l, func(s string) bool { return len(s) > maxLogString }) {
		return l
	}
	out := make([]string, 0, min(len(l), n)+1)
	for _, s := range l[:min(len(l), n)] {
		out = append(out, capString(s, maxLogString))
	}
	if len(l) > n {
		out = append(out, fmt.Sprintf("(+%d more)", len(l)-n))
	}
	return out
}

// capString is s, cut to at most n bytes (on a rune boundary) and marked.
func capString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// named sets the operation name of the requests h serves.
func named(op string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if i := infoFrom(r.Context()); i != nil {
			i.op = op
		}
		h.ServeHTTP(w, r)
	})
}

// retryAfterHeader formats seconds for Retry-After.
func retryAfterHeader(s int) string { return strconv.Itoa(max(s, 1)) }

// LogUnfinished writes an access-log line, at error level, for every
// request still being served — called when the shutdown drain ran out, so
// that a request cut off (a create v2 may still complete) leaves a trace:
// its operation, key id, request id, the v2 calls made so far, and a usage
// count. It returns how many there were.
func (g *Gateway) LogUnfinished() int {
	n := 0
	g.active.Range(func(k, _ any) bool {
		info := k.(*reqInfo)
		info.mu.Lock()
		calls := callStrings(info.calls)
		if info.sendingMethod != "" {
			calls = append(calls, info.sendingMethod+" "+info.sendingPath+" -> (no answer yet)")
		}
		info.mu.Unlock()
		g.log.Error().Str("request_id", info.requestID).Str("operation", info.op).Str("key_id", info.keyID).
			Str("method", info.method).Str("path", info.path).Dur("elapsed", time.Since(info.start)).Strs("v2_calls", calls).
			Msg("request cut off by the shutdown drain: the client got no answer; v2 may still complete what was sent")
		// Counted when its key is known good or a v2 call was sent: v2
		// may complete what the client never heard about.
		if (g.countsForUsage(info) || (info.keyID != "" && len(calls) > 0)) && info.op != opUnknown && g.usage != nil {
			g.usage.Record(info.keyID, info.op)
		}
		n++
		return true
	})
	return n
}

// countsForUsage decides whether a request is counted in /usage: only
// keys that v2 accepted at least once are (issue: any bearer token,
// including ones v2 rejects, became a permanent /usage entry, and enough
// junk crowded out real keys). A request whose v2 answers include 401 or
// 403 is never counted; one that v2 answered otherwise marks its key as
// accepted; one that made no v2 call (refused by the gateway itself, rate
// limited) counts only for a key already accepted. Keyless calls are all
// counted, under the one anonymous id: it is a single bounded entry, and
// a keyless call answered from a cache or refused by the door is a
// client's call all the same.
func (g *Gateway) countsForUsage(info *reqInfo) bool {
	switch info.keyID {
	case "":
		return false
	case usage.Anonymous:
		return true
	}
	info.mu.Lock()
	rejected, answered := false, false
	for _, s := range info.upStatuses {
		switch {
		case s == http.StatusUnauthorized || s == http.StatusForbidden:
			rejected = true
		case s > 0:
			answered = true
		}
	}
	info.mu.Unlock()
	switch {
	case rejected:
		return false
	case answered:
		g.accepted.add(info.keyID)
		return true
	}
	return g.accepted.has(info.keyID)
}

// acceptedKeys is the set of key ids v2 accepted, per replica. Bounded:
// it starts over when full (a key then counts again from its next call
// that reaches v2).
type acceptedKeys struct {
	mu  sync.RWMutex
	ids map[string]struct{}
	max int
}

func (a *acceptedKeys) has(id string) bool {
	a.mu.RLock()
	_, ok := a.ids[id]
	a.mu.RUnlock()
	return ok
}

func (a *acceptedKeys) add(id string) {
	if a.has(id) {
		return
	}
	a.mu.Lock()
	if a.ids == nil || len(a.ids) >= a.max {
		a.ids = make(map[string]struct{})
	}
	a.ids[id] = struct{}{}
	a.mu.Unlock()
}
