package proxy

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/v1gateway/v1gateway/limiter"
)

// validRequestID accepts a caller's X-Request-Id only when it is short and
// made of harmless characters, so that it can go into logs and upstream
// headers as it is.
func validRequestID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func (g *Gateway) withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := headerValue(r.Header, "X-Request-Id")
		if !validRequestID(id) {
			id = newRequestID()
		}
		// The request's reqInfo (see withObservability) carries the id:
		// one context value for everything the layers learn. It is also
		// that context (infoContext) and holds the header's value: one
		// allocation for the three.
		info := &reqInfo{op: opUnknown, requestID: id}
		info.idHdr[0] = id
		w.Header()["X-Request-Id"] = info.idHdr[:] // capped: an Add copies
		info.ctx = infoContext{Context: r.Context(), info: info}
		next.ServeHTTP(w, r.WithContext(&info.ctx))
	})
}

// headerValue is h.Get(key) for a key already in canonical form: the
// same lookup without CanonicalMIMEHeaderKey's pass over the key (a few
// hundred instructions a call, several calls a request).
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// withV1Headers marks every answer on the v1 surface as deprecated (RFC 9745)
// and, when configured, announces the gateway's own sunset (RFC 8594).
func (g *Gateway) withV1Headers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1" || strings.HasPrefix(r.URL.Path, "/v1/") {
			h := w.Header()
			// Constant values: the slices are shared by every answer
			// (capped: an Add copies; nothing changes one in place).
			h["Deprecation"] = g.deprecationHdr
			if g.sunset != "" {
				h["Sunset"] = g.sunsetHdr
				if g.sunsetLink != "" {
					h.Add("Link", g.sunsetLink)
				}
				if g.sunsetWarn != "" {
					h.Set("Warning", g.sunsetWarn)
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// withBodyLimit refuses bodies over MaxBodyBytes: at once when the declared
// length says so, and while reading otherwise (handlers see
// *http.MaxBytesError and answer 413).
func (g *Gateway) withBodyLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > MaxBodyBytes {
			writeError(w, r, http.StatusRequestEntityTooLarge,
				fmt.Sprintf("request body of %d bytes exceeds the limit of %d bytes", r.ContentLength, MaxBodyBytes))
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
			if t := g.cfg.BodyReadTimeout; t > 0 {
				r.Body = newDeadlineBody(w, r, t)
			}
		}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody bounds the time to receive a request body (issue: bodies
// trickled a byte at a time held connections open for minutes, because
// the request deadline starts only once the body is read). It sets the
// connection's read deadline when the body is first read and clears it at
// the end of the body: the server's background read after the body (which
// notices a client going away) must not hit the deadline during a long
// upstream call. A read error is returned as a *ClientBodyError, so that
// the pass-through and the breaker never blame v2 for it.
type deadlineBody struct {
	rc      *http.ResponseController
	body    io.ReadCloser
	timeout time.Duration
	armed   bool
	done    bool
	// failed receives the read error, for whoever learns of it only as
	// the request's context being canceled: net/http cancels the request
	// when a body read fails, and the transport of the pass-through may
	// report that instead of the read error. It is the request's reqInfo
	// field (nil without one).
	failed *atomic.Pointer[ClientBodyError]
}

func newDeadlineBody(w http.ResponseWriter, r *http.Request, timeout time.Duration) *deadlineBody {
	d := &deadlineBody{rc: http.NewResponseController(w), body: r.Body, timeout: timeout}
	if info := infoFrom(r.Context()); info != nil {
		d.failed = &info.bodyErr
	}
	return d
}

func (d *deadlineBody) Read(p []byte) (int, error) {
	if !d.armed {
		d.armed = true
		// Not every ResponseWriter supports deadlines (httptest recorders):
		// then the body is simply not bounded.
		_ = d.rc.SetReadDeadline(time.Now().Add(d.timeout))
	}
	n, err := d.body.Read(p)
	if err != nil && !d.done {
		d.done = true
		_ = d.rc.SetReadDeadline(time.Time{})
		if err != io.EOF {
			cbe := &ClientBodyError{Err: err, Timeout: isTimeout(err), Limit: d.timeout}
			if d.failed != nil {
				d.failed.Store(cbe)
			}
			err = cbe
		}
	}
	return n, err
}

func (d *deadlineBody) Close() error { return d.body.Close() }

// clientBodyError finds the client's body failure behind err: err itself,
// or, when err is only the cancellation it caused, the one the request's
// body recorded.
func clientBodyError(err error, ctx context.Context) (*ClientBodyError, bool) {
	var cbe *ClientBodyError
	if errors.As(err, &cbe) {
		return cbe, true
	}
	if info := infoFrom(ctx); info != nil {
		if cbe = info.bodyErr.Load(); cbe != nil {
			return cbe, true
		}
	}
	return nil, false
}

// ClientBodyError is a failure to read the client's request body: the
// client's doing, never the upstream's.
type ClientBodyError struct {
	Err     error
	Timeout bool          // the body did not arrive within Limit
	Limit   time.Duration // body_read_timeout
}

func (e *ClientBodyError) Error() string {
	if e.Timeout {
		return fmt.Sprintf("the request body was not received within %s", e.Limit)
	}
	return "cannot read the request body: " + e.Err.Error()
}

func (e *ClientBodyError) Unwrap() error { return e.Err }

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// withLoadShedding caps the requests served at once (max_in_flight): past
// it a request is answered 503 with Retry-After at once, before it holds
// any memory or upstream connection (issue: a hung upstream let ~6000
// requests and 635 connections pile up before the breaker opened).
func (g *Gateway) withLoadShedding(next http.Handler) http.Handler {
	limit := int64(g.cfg.MaxInFlight)
	if limit <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.serving.Add(1) > limit {
			g.serving.Add(-1)
			w.Header().Set("Retry-After", "1")
			writeError(w, r, http.StatusServiceUnavailable,
				fmt.Sprintf("the gateway is serving its limit of %d requests at once (max_in_flight); try again shortly", limit))
			return
		}
		defer g.serving.Add(-1)
		next.ServeHTTP(w, r)
	})
}

// bearerToken returns the token of an "Authorization: Bearer <token>"
// header, or "" when there is none.
func bearerToken(r *http.Request) string {
	a := headerValue(r.Header, "Authorization")
	if len(a) < 7 || !strings.EqualFold(a[:7], "bearer ") {
		return ""
	}
	return strings.TrimSpace(a[7:])
}

// withAuth checks only that a bearer token is present; the upstream decides
// whether it is valid. Without one the request never leaves the gateway.
func (g *Gateway) withAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header["Authorization"]) > 1 {
			// Ambiguous: which key should be charged and forwarded?
			writeError(w, r, http.StatusBadRequest, "more than one Authorization header: send exactly one")
			return
		}
		tok := bearerToken(r)
		if len(tok) > MaxAPIKeyBytes {
			w.Header().Set("WWW-Authenticate", `Bearer realm="v1gateway", error="invalid_token"`)
			writeError(w, r, http.StatusUnauthorized, fmt.Sprintf("API key too long: %d bytes, the gateway accepts at most %d", len(tok), MaxAPIKeyBytes))
			return
		}
		if tok == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="v1gateway"`)
			writeError(w, r, http.StatusUnauthorized, "missing API key: send it as Authorization: Bearer <key>")
			return
		}
		keyID := g.keyIDs.get(tok)
		if i := infoFrom(r.Context()); i != nil {
			// The reqInfo carries it (KeyIDFrom): no new context.
			i.keyID = keyID
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKeyID, keyID)))
	})
}

// KeyIDFrom returns the key id of the request's API key ("" before auth).
func KeyIDFrom(ctx context.Context) string {
	if i := infoFrom(ctx); i != nil && i.keyID != "" {
		return i.keyID
	}
	s, _ := ctx.Value(ctxKeyID).(string)
	return s
}

// MaxAPIKeyBytes bounds the bearer token the gateway accepts. The vendor's
// keys are a few dozen characters; a longer token is refused with 401
// before it is hashed, cached or forwarded, so that tokens near the 64 KiB
// header limit cannot make the gateway hold or hash large strings.
const MaxAPIKeyBytes = 512

// keyIDCache remembers the key id of recent tokens: limiter.KeyID is an
// HMAC-SHA256 (four SHA-256 blocks and two allocations) that every
// authenticated request would otherwise pay again for the same few keys.
// Bounded by entries and by bytes: it is keyed by the SHA-256 of the token
// (fixed 32 bytes, never the token itself) and starts over when full, so
// it holds at most max × (32 + 32) bytes of keys and ids however long the
// tokens are.
type keyIDCache struct {
	secret []byte
	max    int

	mu  sync.RWMutex
	ids map[[sha256.Size]byte]string // SHA-256(token) -> key id
}

func newKeyIDCache(secret []byte) *keyIDCache {
	return &keyIDCache{secret: secret, max: 4096, ids: make(map[[sha256.Size]byte]string)}
}

func (c *keyIDCache) get(token string) string {
	h := sha256.Sum256([]byte(token))
	c.mu.RLock()
	id, ok := c.ids[h]
	c.mu.RUnlock()
	if ok {
		return id
	}
	id = limiter.KeyID(c.secret, token)
	c.mu.Lock()
	if len(c.ids) >= c.max {
		clear(c.ids)
	}
	c.ids[h] = id
	c.mu.Unlock()
	return id
}

// limitFor is the per-minute quota of a key id: its override from the
// config file when there is one, else the global limit.
func (g *Gateway) limitFor(keyID string) int {
	if n, ok := g.cfg.KeyLimits[keyID]; ok {
		return n
	}
	return g.cfg.RateLimitPerMinute
}

func (g *Gateway) withRateLimit(next http.Handler) http.Handler {
	if g.limiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		keyID := KeyIDFrom(r.Context())
		limit := g.limitFor(keyID)
		if key := anonymousKey(r.Context()); key != "" {
			// A keyless /graphql call: its client address's own bucket,
			// never a key's (anonymous.go).
			keyID, limit = key, g.cfg.AnonymousRateLimitPerMinute
		}
		if limit <= 0 {
			next.ServeHTTP(w, r)
			return
		}
		d, err := g.limiter.Allow(r.Context(), keyID, limit)
		info := infoFrom(r.Context())
		if errors.Is(err, limiter.ErrUnavailable) {
			// V1GW_LIMITER_FAIL=closed: no limiter, no traffic.
			g.limiterDecision(r.Context(), info, "unavailable")
			w.Header().Set("Retry-After", "1")
			writeError(w, r, http.StatusServiceUnavailable, "rate limiter unavailable; try again shortly")
			return
		}
		if errors.Is(err, limiter.ErrOverloaded) {
			// This process is too busy to have the shared count decide in
			// time: shed the request rather than admit it uncounted.
			g.limiterDecision(r.Context(), info, "overloaded")
			w.Header().Set("Retry-After", "1")
			writeError(w, r, http.StatusServiceUnavailable, "the gateway is overloaded; try again shortly")
			return
		}
		if err != nil {
			// Fail open: a limiter failure never fails a request.
			g.limiterDecision(r.Context(), info, "error")
			g.log.Warn().Err(err).Str("key_id", keyID).Msg("rate limiter unavailable; request allowed")
			next.ServeHTTP(w, r)
			return
		}
		var vals *[1]string
		if info != nil {
			vals = &info.rateLimitHdr
		}
		setRateLimitHeaders(w.Header(), d, g.ratePolicies, vals)
		if !d.Allowed {
			g.limiterDecision(r.Context(), info, "limited")
			w.Header().Set("Retry-After", strconv.Itoa(d.ResetSeconds()))
			writeError(w, r, http.StatusTooManyRequests, "rate limit exceeded for the minute window")
			return
		}
		g.limiterDecision(r.Context(), info, "allowed")
		next.ServeHTTP(w, r)
	})
}

// limiterDecision records a rate-limit decision in the metrics and the
// request's log line.
func (g *Gateway) limiterDecision(ctx context.Context, info *reqInfo, decision string) {
	g.metrics.limiterDecisions.Add(1, cachedAttrs("decision", decision))
	info.setLimiter(decision)
}

// setRateLimitHeaders writes the IETF httpapi RateLimit headers, in the
// same form v2 sends them. Negative counts (never sent by the draft's
// grammar) are written as 0. Every request the limiter admits pays for
// it, so the keys are assigned in their canonical form (what Header.Set
// would look up); the policy's value is shared, from policies
// (ratePoliciesFor: read-only, capped so that an Add copies), when the
// limit is one configured; the RateLimit value is kept in val (the
// request's reqInfo; nil: a new one), also capped.
func setRateLimitHeaders(h http.Header, d limiter.Decision, policies map[int][]string, val *[1]string) {
	policy, ok := policies[d.Limit]
	if !ok {
		policy = []string{rateLimitPolicy(d.Limit)}
	}
	if val == nil {
		val = new([1]string)
	}
	var buf [64]byte
	b := append(buf[:0], `"minute";r=`...)
	b = strconv.AppendInt(b, int64(max(d.Remaining, 0)), 10)
	b = append(b, `;t=`...)
	b = strconv.AppendInt(b, int64(d.ResetSeconds()), 10)
	val[0] = string(b)
	h[hdrRateLimitPolicy] = policy[0:1:1]
	h[hdrRateLimit] = val[:]
}

// rateLimitPolicy is the RateLimit-Policy value of a limit.
func rateLimitPolicy(limit int) string {
	var buf [64]byte
	b := append(buf[:0], `"minute";q=`...)
	b = strconv.AppendInt(b, int64(max(limit, 0)), 10)
	b = append(b, `;w=60`...)
	return string(b)
}

// ratePoliciesFor precomputes the RateLimit-Policy header values of the
// limits the gateway is configured with: the global one and every key's.
// The values are shared by every answer: never changed in place.
func ratePoliciesFor(global int, keyLimits map[string]int, more ...int) map[int][]string {
	m := map[int][]string{global: {rateLimitPolicy(global)}}
	add := func(n int) {
		if _, ok := m[n]; !ok {
			m[n] = []string{rateLimitPolicy(n)}
		}
	}
	for _, n := range keyLimits {
		add(n)
	}
	for _, n := range more {
		add(n)
	}
	return m
}

// Canonical forms of the RateLimit header names (http.CanonicalHeaderKey).
const (
	hdrRateLimitPolicy = "Ratelimit-Policy"
	hdrRateLimit       = "Ratelimit"
)
