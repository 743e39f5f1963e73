// Package proxy is the gateway's HTTP layer: the router for the 37 v1
// operations and the /v2 and /graphql pass-throughs, the middleware chain
// (request id, observability — server span, access log, metrics, usage
// record — v1 headers, body limit, bearer presence, rate limit), the
// upstream client (one circuit breaker per upstream, GET-only retries,
// client spans, shared by translated routes and the pass-throughs), and the
// admin port (/healthz, /readyz, /metrics, /usage).
package proxy

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"
	"github.com/rs/zerolog"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/facts"
	"github.com/v1gateway/v1gateway/graphql"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/usage"
)

// Version is the gateway's version, set by cmd/v1gateway from its -ldflags.
var Version = "dev"

// MaxBodyBytes is the largest request body the gateway accepts (413 beyond).
const MaxBodyBytes = 1 << 20

// DeprecatedAt is when the vendor retired v1 (2026-11-15T00:00:00Z); every v1
// answer says so in its Deprecation header (RFC 9745).
var DeprecatedAt = time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)

// CatalogTTL is how long GET /v2/catalog/... answers are reused.
const CatalogTTL = 60 * time.Second

// Options are a Gateway's dependencies.
type Options struct {
	Config    *config.Config
	Limiter   limiter.Limiter   // nil: rate limiting disabled
	Transport http.RoundTripper // nil: NewTransport with defaults
	Logger    *zerolog.Logger   // nil: disabled
	Now       func() time.Time  // nil: time.Now
	// Usage counts calls per key id and operation for /usage; nil: an
	// in-memory one (not flushed periodically; /usage flushes it).
	Usage *usage.Batcher
	// Telemetry provides traces and metrics; nil: a private one that
	// exports nothing (/metrics still works).
	Telemetry *Telemetry
	// Resilience overrides the breaker and retry settings of Config
	// (tests use it for short delays); nil: from Config.
	Resilience *ResilienceOptions
	// Facts is the fact store (P8): what v2 forgets and the gateway
	// remembers; nil: an in-memory one.
	Facts facts.Store
	// BufferBudget bounds the bytes of v2 GET answers held in memory at
	// once (membudget.go); 0: BufferBudgetShare of GOMEMLIMIT, none
	// without one; < 0: none.
	BufferBudget int64
}

// Gateway is the gateway's public HTTP handler.
type Gateway struct {
	cfg *config.Config
	// ratePolicies: the RateLimit-Policy value of each configured limit
	// (setRateLimitHeaders), read-only after New.
	ratePolicies map[int][]string
	upstream     *Upstream
	budget       *bufferBudget // nil: none (membudget.go)
	base         *url.URL
	limiter      limiter.Limiter
	log          zerolog.Logger
	now          func() time.Time
	secret       []byte
	router       *mux.Router
	fast         *v1Routes    // the v1 routes, matched without mux; nil: mux only
	v2           http.Handler // the /v2/ pass-through, as routed
	catalog      *catalogCache
	handler      http.Handler
	usage        *usage.Batcher
	tel          *Telemetry
	metrics      *metrics
	breaker      *breaker
	// vendorBreaker guards the vendor's GraphQL (graphql_mode passthrough
	// and auto): a failing vendor GraphQL opens it, never breaker, so /v1,
	// /v2 and /readyz stay as they were (P12).
	vendorBreaker *breaker
	keyIDs        *keyIDCache
	serving       atomic.Int64 // requests past load shedding (max_in_flight)
	active        sync.Map     // *reqInfo -> itself: requests being served (LogUnfinished)
	accepted      acceptedKeys // key ids v2 accepted (countsForUsage)
	facts         *observedFacts
	door          *graphql.Door // the GraphQL door (graphqldoor.go)
	gqlGone       goneHold      // graphql_mode auto: translating until

	deprecation string
	sunset      string
	sunsetLink  string
	sunsetWarn  string // Warning header (config sunset_warning)

	// deprecationHdr and sunsetHdr: the header values of deprecation and
	// sunset, shared by every answer (read-only, capped).
	deprecationHdr, sunsetHdr []string
}

// New builds a gateway from its options.
func New(o Options) (*Gateway, error) {
	if o.Config == nil {
		return nil, errors.New("proxy: nil config")
	}
	base, err := url.Parse(o.Config.UpstreamURL)
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("proxy: bad upstream URL %q", o.Config.UpstreamURL)
	}
	g := &Gateway{
		cfg:          o.Config,
		base:         base,
		limiter:      o.Limiter,
		now:          o.Now,
		secret:       []byte(o.Config.KeyHashSecret),
		keyIDs:       newKeyIDCache([]byte(o.Config.KeyHashSecret)),
		accepted:     acceptedKeys{max: 100000},
		deprecation:  "@" + strconv.FormatInt(DeprecatedAt.Unix(), 10),
		ratePolicies: ratePoliciesFor(o.Config.RateLimitPerMinute, o.Config.KeyLimits, o.Config.AnonymousRateLimitPerMinute),
		usage:        o.Usage,
		tel:          o.Telemetry,
	}
	g.deprecationHdr = []string{g.deprecation}
	if o.Logger != nil {
		g.log = *o.Logger
	} else {
		g.log = zerolog.Nop()
	}
	if g.now == nil {
		g.now = time.Now
	}
	fs := o.Facts
	if fs == nil {
		fs = facts.NewMemory(facts.MemoryOptions{Now: g.now})
	}
	g.facts = &observedFacts{store: fs, log: g.log}
	if g.door, err = graphql.NewWithLimits(graphQLLimits(o.Config)); err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	if g.usage == nil {
		g.usage = usage.New(usage.Options{Now: g.now, HistoryDays: o.Config.UsageHistoryDays})
	}
	if g.tel == nil {
		g.tel, err = NewTelemetry(context.Background(), TelemetryOptions{Getenv: func(string) string { return "" }})
		if err != nil {
			return nil, fmt.Errorf("proxy: telemetry: %w", err)
		}
	}
	ro := ResilienceOptions{
		Retries:         o.Config.UpstreamRetries,
		BreakerFailures: o.Config.BreakerFailures,
		BreakerOpenFor:  o.Config.BreakerOpenFor,
	}
	if o.Resilience != nil {
		ro = *o.Resilience
	}
	if ro.BreakerFailures <= 0 {
		ro.BreakerFailures = config.DefaultBreakerFailures
	}
	if ro.BreakerOpenFor <= 0 {
		ro.BreakerOpenFor = config.DefaultBreakerOpenFor
	}
	g.breaker = newBreaker(ro.BreakerFailures, ro.BreakerOpenFor, g.log)
	if g.metrics, err = newMetrics(g.tel.meter, g); err != nil {
		return nil, fmt.Errorf("proxy: metrics: %w", err)
	}
	raw := o.Transport
	if raw == nil {
		// Headers well before the request deadline: a hung v2 is a
		// timeout (a breaker failure) after UpstreamHeaderTimeout, and the
		// connections to it are capped, so requests cannot pile up.
		hdr := o.Config.UpstreamHeaderTimeout
		if hdr <= 0 || hdr > o.Config.RequestTimeout {
			hdr = o.Config.RequestTimeout
		}
		raw = NewTransport(UpstreamOptions{ResponseHeaderTimeout: hdr, MaxConnsPerHost: o.Config.UpstreamMaxConns})
	}
	// Each attempt within a trace context is a client span whose context
	// goes upstream in traceparent; the gateway's own metrics count the
	// calls.
	traced := newClientTracing(raw, g.tel)
	rt := newResilientTransport(traced, g.breaker, ro, g.metrics)
	g.vendorBreaker = newNamedBreaker("vendor_graphql", "the vendor's GraphQL", ro.BreakerFailures, ro.BreakerOpenFor, g.log)
	vendorRT := newResilientTransport(traced, g.vendorBreaker, ro, g.metrics)
	g.upstream = NewUpstream(base, rt)
	if o.Config.UpstreamMaxBody > 0 {
		g.upstream.MaxBody = o.Config.UpstreamMaxBody
	}
	switch {
	case o.BufferBudget > 0:
		g.budget = newBufferBudgetOf(o.BufferBudget)
	case o.BufferBudget == 0:
		g.budget = newBufferBudget(g.upstream.MaxBody)
	}
	if !o.Config.Sunset.IsZero() {
		g.sunset = o.Config.Sunset.UTC().Format(http.TimeFormat)
		g.sunsetHdr = []string{g.sunset}
		if o.Config.SunsetLink != "" {
			g.sunsetLink = "<" + o.Config.SunsetLink + `>; rel="sunset"`
		}
		if o.Config.SunsetWarning {
			g.sunsetWarn = sunsetWarning(o.Config.Sunset, o.Config.SunsetLink)
		}
	}
	g.catalog = newCatalogCache(CatalogTTL, g.now)
	g.router = g.routes(rt, vendorRT)
	g.handler = g.withRequestID(g.withObservability(g.withV1Headers(g.withLoadShedding(g.withBodyLimit(http.HandlerFunc(g.route))))))
	return g, nil
}

// ServeHTTP implements http.Handler.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) { g.handler.ServeHTTP(w, r) }

// Usage returns the gateway's usage recorder.
func (g *Gateway) Usage() *usage.Batcher { return g.usage }

// Telemetry returns the gateway's telemetry.
func (g *Gateway) Telemetry() *Telemetry { return g.tel }

// BreakerState is the upstream circuit breaker's state: "closed",
// "half-open" or "open".
func (g *Gateway) BreakerState() string { return g.breaker.state().String() }

// route sends /v2/... straight to the pass-through (gorilla/mux would first
// try the pattern of every v1 route; the outcome is the same, as no v1 route
// starts with /v2/) and everything else to the router.
//
// A client whose base URL ends in a slash (".../v1/") sends /v1//pods: the
// slashes right after /v1 are one, so it is served as /v1/pods. Only those:
// the rest of the path, ids included, is matched and checked (P9) as sent.
func (g *Gateway) route(w http.ResponseWriter, r *http.Request) {
	p := r.URL.EscapedPath()
	if strings.HasPrefix(p, "/v2/") {
		if seg, ok := dotSegment(p); ok {
			// An upstream (or a proxy before it) that normalises the path
			// would serve another route than the one asked for (P9).
			writeError(w, r, http.StatusNotFound, fmt.Sprintf("no such route: %s %s (the path segment %q is a dot segment or holds a slash once decoded; the gateway never forwards it)", r.Method, p, seg))
			return
		}
		g.v2.ServeHTTP(w, r)
		return
	}
	if strings.HasPrefix(p, "/v1//") {
		r = withV1BaseSlashes(r)
		p = r.URL.EscapedPath()
	}
	if g.fast != nil {
		// The route mux would choose, found without it (fastroute.go);
		// what no route matches is mux's to answer.
		if info := infoFrom(r.Context()); info != nil {
			if h, vars := g.fast.match(r.Method, p, info.varsBuf[:0]); h != nil {
				info.routed, info.vars = true, vars
				h.ServeHTTP(w, r)
				return
			}
		}
	}
	g.router.ServeHTTP(w, r)
}

// withV1BaseSlashes returns r with the run of slashes after /v1 made one.
func withV1BaseSlashes(r *http.Request) *http.Request {
	one := func(p string) string {
		if rest, ok := strings.CutPrefix(p, "/v1/"); ok {
			return "/v1/" + strings.TrimLeft(rest, "/")
		}
		return p
	}
	u := *r.URL
	u.Path = one(u.Path)
	if u.RawPath != "" {
		u.RawPath = one(u.RawPath)
	}
	r2 := r.WithContext(r.Context())
	r2.URL = &u
	return r2
}

func (g *Gateway) routes(rt, vendorRT http.RoundTripper) *mux.Router {
	m := mux.NewRouter()
	m.UseEncodedPath() // ids are matched percent-encoded, never decoded into another route
	m.SkipClean(true)
	fast := &v1Routes{}
	fastOK := true
	for i := range translate.Operations {
		op := &translate.Operations[i]
		var h http.Handler = g.v1Handler(op)
		if !op.Public {
			h = g.withAuth(g.withMigratedKeys(op, g.withRateLimit(h)))
		}
		h = named(op.Name, h)
		m.Handle("/v1"+op.Path, h).Methods(op.Method)
		fastOK = fastOK && fast.add(op.Method, "/v1"+op.Path, h)
	}
	if fastOK {
		g.fast = fast
	}
	// A key in the query (?api_key=, in any spelling) is taken out of the
	// URL here too: forwarded verbatim, it would reach v2 in its URL.
	g.v2 = named(opPassThrough, withQueryKey(g.withAuth(g.withRateLimit(g.passThrough(rt)))))
	m.PathPrefix("/v2/").Handler(g.v2)
	// GraphQL: the same layers, to <upstream>/graphql (graphql.go).
	// A keyless call is anonymous: passed through (or answered by the
	// GraphQL door) without the client's Authorization, under a limit per
	// client address (anonymous.go).
	// The vendor's GraphQL has a breaker of its own (vendorRT).
	m.Handle(graphQLPath, named(opGraphQL, withQueryKey(g.withKeyOrAnonymous(g.withRateLimit(g.graphqlFront(g.passThrough(vendorRT))))))).
		Methods(http.MethodGet, http.MethodPost)
	m.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, http.StatusNotFound, notFoundMessage(r.Method, r.URL.Path))
	})
	m.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allowedMethods(m, r))
		writeError(w, r, http.StatusMethodNotAllowed, fmt.Sprintf("method %s is not allowed on %s", r.Method, r.URL.Path))
	})
	return m
}

type ctxKey int

const (
	ctxRequestID ctxKey = iota
	ctxKeyID
)

// RequestID returns the request id the gateway assigned to r.
func RequestID(ctx context.Context) string {
	if i := infoFrom(ctx); i != nil && i.requestID != "" {
		return i.requestID
	}
	s, _ := ctx.Value(ctxRequestID).(string)
	return s
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	const hex = "0123456789abcdef"
	var out [24]byte
	for i, c := range b {
		out[2*i] = hex[c>>4]
		out[2*i+1] = hex[c&15]
	}
	return string(out[:])
}

// dotSegment returns the first segment of an escaped path that, after one
// percent-decoding, is "." or ".." or holds a slash or backslash.
func dotSegment(escaped string) (string, bool) {
	for seg := range strings.SplitSeq(escaped, "/") {
		d, err := url.PathUnescape(seg)
		if err != nil {
			continue // forwarded as it is; v2 answers it
		}
		if d == "." || d == ".." || strings.ContainsAny(d, `/\`) {
			return seg, true
		}
	}
	return "", false
}
