package proxy

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/usage"
)

// Metric names (OpenTelemetry; /metrics shows them with dots turned into
// underscores, "_total" on counters and the unit on histograms, e.g.
// v1gw_requests_total, v1gw_request_duration_seconds). Labels are bounded:
// operation names come from the operation table (plus "v2-passthrough",
// "graphql" and "unknown"), statuses are HTTP codes or a few words, note
// codes come from translate.NoteCodes; never ids or key ids.
const (
	metricRequests          = "v1gw.requests"
	metricRequestDuration   = "v1gw.request.duration"
	metricInflight          = "v1gw.requests.inflight"
	metricUpstreamCalls     = "v1gw.upstream.calls"
	metricUpstreamDuration  = "v1gw.upstream.duration"
	metricUpstreamRetries   = "v1gw.upstream.retries"
	metricBreakerState      = "v1gw.breaker.state"
	metricLimiterDecisions  = "v1gw.limiter.decisions"
	metricLimiterFallback   = "v1gw.limiter.redis.fallback"
	metricLimiterRedisCalls = "v1gw.limiter.redis.calls"
	metricLimiterRoundTrip  = "v1gw.limiter.redis.round_trips"
	metricLimiterRedisErrs  = "v1gw.limiter.redis.errors"
	metricLimiterFallbacks  = "v1gw.limiter.fallback.decisions"
	metricLimiterLocalDeny  = "v1gw.limiter.local.denied"
	metricUsageFlushErrors  = "v1gw.usage.flush.errors"
	metricUsagePending      = "v1gw.usage.pending"
	metricUsageDropped      = "v1gw.usage.dropped"
	metricCompatNotes       = "v1gw.compat.notes"
	metricGraphQLFields     = "v1gw.graphql.fields"
	metricSunset            = "v1gw.sunset.timestamp"
)

// Operation label values besides the table's names.
const (
	opPassThrough = usage.PassThrough // /v2/... pass-through
	opGraphQL     = usage.GraphQL     // /graphql pass-through
	opUnknown     = "unknown"         // no route (404, 405)
)

var latencyBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

type metrics struct {
	requests         hotCounter
	requestDuration  metric.Float64Histogram
	inflightN        atomic.Int64 // requests being served, observed as metricInflight
	upstreamCalls    hotCounter
	upstreamDuration metric.Float64Histogram
	upstreamRetries  metric.Int64Counter
	limiterDecisions hotCounter
	compatNotes      metric.Int64Counter
	graphqlFields    metric.Int64Counter
}

// statsLimiter is a limiter that reports counters (limiter.Redis).
type statsLimiter interface {
	Stats() limiter.Stats
}

func newMetrics(m metric.Meter, g *Gateway) (*metrics, error) {
	var out metrics
	var err error
	must := func(e error) {
		if err == nil {
			err = e
		}
	}
	var e error
	requests, e := m.Int64ObservableCounter(metricRequests, metric.WithDescription("Requests answered, by operation (v1 operation name, v2-passthrough or unknown) and HTTP status."))
	must(e)
	out.requestDuration, e = m.Float64Histogram(metricRequestDuration, metric.WithUnit("s"),
		metric.WithDescription("Time to answer a request, by operation and HTTP status."), metric.WithExplicitBucketBoundaries(latencyBuckets...))
	must(e)
	// In flight: an atomic counter read at collection time, rather than two
	// synchronous measurements per request.
	inflight, e := m.Int64ObservableUpDownCounter(metricInflight, metric.WithDescription("Requests being served."))
	must(e)
	upstreamCalls, e := m.Int64ObservableCounter(metricUpstreamCalls, metric.WithDescription("Calls to v2 (each attempt), by operation, method and status (HTTP code, error, timeout or breaker_open)."))
	must(e)
	out.upstreamDuration, e = m.Float64Histogram(metricUpstreamDuration, metric.WithUnit("s"),
		metric.WithDescription("Time to v2's response headers, by operation and method."), metric.WithExplicitBucketBoundaries(latencyBuckets...))
	must(e)
	out.upstreamRetries, e = m.Int64Counter(metricUpstreamRetries, metric.WithDescription("Retries of idempotent v2 calls, by method and reason."))
	must(e)
	limiterDecisions, e := m.Int64ObservableCounter(metricLimiterDecisions, metric.WithDescription("Rate-limit decisions: allowed, limited, error (allowed, fail-open), unavailable (rejected, fail-closed) or overloaded (rejected: the gateway could not have Redis decide in time)."))
	must(e)
	out.compatNotes, e = m.Int64Counter(metricCompatNotes, metric.WithDescription("Compatibility notes given to v1 clients (warnings, lenient drops, emulations, refusals; P7a), by note code and v1 operation. Per key: /usage."))
	must(e)
	out.graphqlFields, e = m.Int64Counter(metricGraphQLFields, metric.WithDescription("GraphQL root fields the gateway answered from v2 (P11), by field (the schema's, a bounded set). Per key: /usage."))
	must(e)
	if err != nil {
		return nil, err
	}

	breaker, e := m.Int64ObservableGauge(metricBreakerState, metric.WithDescription("Upstream circuit breaker state: 0 closed, 1 half-open, 2 open."))
	must(e)
	fallback, e := m.Int64ObservableGauge(metricLimiterFallback, metric.WithDescription("1 while the Redis limiter cannot use Redis (decisions from the per-process fallback, or rejected when fail-closed)."))
	must(e)
	redisCalls, e := m.Int64ObservableCounter(metricLimiterRedisCalls, metric.WithDescription("Commands the limiter sent to Redis."))
	must(e)
	roundTrips, e := m.Int64ObservableCounter(metricLimiterRoundTrip, metric.WithDescription("Pipelines the limiter sent to Redis (decisions made at the same time share one)."))
	must(e)
	redisErrs, e := m.Int64ObservableCounter(metricLimiterRedisErrs, metric.WithDescription("Limiter calls to Redis that failed."))
	must(e)
	fallbacks, e := m.Int64ObservableCounter(metricLimiterFallbacks, metric.WithDescription("Rate-limit decisions made by the per-process fallback while Redis was unusable."))
	must(e)
	localDenied, e := m.Int64ObservableCounter(metricLimiterLocalDeny, metric.WithDescription("Rate-limit denials answered from the local over-limit cache, without Redis."))
	must(e)
	flushErrs, e := m.Int64ObservableCounter(metricUsageFlushErrors, metric.WithDescription("Failed writes of the usage counts to their store (the counts are kept for the next write)."))
	must(e)
	pending, e := m.Int64ObservableGauge(metricUsagePending, metric.WithDescription("Usage counters (key id x operation) waiting for the next write."))
	must(e)
	dropped, e := m.Int64ObservableCounter(metricUsageDropped, metric.WithDescription("Calls not counted in the usage report because too many counters were pending."))
	must(e)
	// The announced sunset (config sunset), for the alert on v1 traffic
	// after it: only exported when configured.
	sunset, e := m.Int64ObservableGauge(metricSunset, metric.WithUnit("s"), metric.WithDescription("The announced switch-off of the v1 API (config sunset), as a Unix time; absent when none is announced."))
	must(e)
	if err != nil {
		return nil, err
	}
	var sunsetAt int64
	if g.cfg != nil && !g.cfg.Sunset.IsZero() {
		sunsetAt = g.cfg.Sunset.Unix()
	}
	_, err = m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		if sunsetAt != 0 {
			o.ObserveInt64(sunset, sunsetAt)
		}
		o.ObserveInt64(inflight, out.inflightN.Load())
		out.requests.observe(o, requests)
		out.upstreamCalls.observe(o, upstreamCalls)
		out.limiterDecisions.observe(o, limiterDecisions)
		o.ObserveInt64(breaker, int64(g.breaker.state()))
		if sl, ok := g.limiter.(statsLimiter); ok {
			st := sl.Stats()
			fb := int64(0)
			if st.Fallback {
				fb = 1
			}
			o.ObserveInt64(fallback, fb)
			o.ObserveInt64(redisCalls, int64(st.RedisCalls))
			o.ObserveInt64(roundTrips, int64(st.RoundTrips))
			o.ObserveInt64(redisErrs, int64(st.RedisErrors))
			o.ObserveInt64(fallbacks, int64(st.Fallbacks))
			o.ObserveInt64(localDenied, int64(st.LocalDenied))
		} else {
			o.ObserveInt64(fallback, 0)
		}
		if g.usage != nil {
			st := g.usage.Stats()
			o.ObserveInt64(flushErrs, int64(st.FlushErrors))
			o.ObserveInt64(pending, int64(st.Pending))
			o.ObserveInt64(dropped, int64(st.Dropped))
		}
		return nil
	}, inflight, requests, upstreamCalls, limiterDecisions, breaker, fallback, redisCalls, roundTrips, redisErrs, fallbacks, localDenied, flushErrs, pending, dropped, sunset)
	if err != nil {
		return nil, err
	}
	if err := registerFactsMetrics(m, g); err != nil {
		return nil, err
	}
	return &out, nil
}

// hotCounter is a counter of the request path (requests, v2 calls, rate
// limit decisions): Add is one atomic increment of its label
// combination's cell, and the totals are reported when metrics are
// collected (an observable counter), rather than a measurement through
// the SDK on every request (which resolves its attribute set each time).
// What /metrics and OTLP show is the same counter.
type hotCounter struct {
	cells sync.Map // *attrOpts -> *atomic.Int64
}

// Add adds n to the count of the label combination a (from cachedAttrs).
func (c *hotCounter) Add(n int64, a *attrOpts) {
	v, ok := c.cells.Load(a)
	if !ok {
		v, _ = c.cells.LoadOrStore(a, new(atomic.Int64))
	}
	v.(*atomic.Int64).Add(n)
}

// observe reports every label combination's count as inst.
func (c *hotCounter) observe(o metric.Observer, inst metric.Int64Observable) {
	c.cells.Range(func(k, v any) bool {
		o.ObserveInt64(inst, v.(*atomic.Int64).Load(), k.(*attrOpts).opt)
		return true
	})
}

// attrKey is a label combination: up to three name/value pairs.
type attrKey [6]string

// attrOpts is the attribute set of one label combination, as the option
// slices the instruments take: Add(ctx, n, a.add...) passes the cached
// slice, where Add(ctx, n, opt) would allocate a one-element variadic
// slice on every call (the instruments are interfaces, so the slice
// escapes). The slices are never changed after they are built.
type attrOpts struct {
	opt metric.MeasurementOption
	add []metric.AddOption
	rec []metric.RecordOption
}

// attrCache keeps one attribute set per label combination, so that the
// request path does not build sets. Its size is bounded by the label
// values, which are bounded. Reads are lock-free (an immutable map, copied
// on the rare insert) and allocation-free.
var (
	attrCache   atomic.Pointer[map[attrKey]*attrOpts]
	attrCacheMu sync.Mutex // serialises inserts
)

func cachedAttrs(kv ...string) *attrOpts {
	var k attrKey
	copy(k[:], kv)
	if m := attrCache.Load(); m != nil {
		if o, ok := (*m)[k]; ok {
			return o
		}
	}
	attrCacheMu.Lock()
	defer attrCacheMu.Unlock()
	old := attrCache.Load()
	if old != nil {
		if o, ok := (*old)[k]; ok {
			return o
		}
	}
	attrs := make([]attribute.KeyValue, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		attrs = append(attrs, attribute.String(kv[i], kv[i+1]))
	}
	mo := metric.WithAttributeSet(attribute.NewSet(attrs...))
	o := &attrOpts{opt: mo, add: []metric.AddOption{mo}, rec: []metric.RecordOption{mo}}
	next := make(map[attrKey]*attrOpts, 1)
	if old != nil {
		next = make(map[attrKey]*attrOpts, len(*old)+1)
		for kk, v := range *old {
			next[kk] = v
		}
	}
	next[k] = o
	attrCache.Store(&next)
	return o
}

// statusStrings holds "100" … "599", so that labelling a status does not
// allocate.
var statusStrings = func() (t [600]string) {
	for i := 100; i < len(t); i++ {
		t[i] = strconv.Itoa(i)
	}
	return t
}()

func statusString(code int) string {
	if code >= 100 && code < len(statusStrings) {
		return statusStrings[code]
	}
	return strconv.Itoa(code)
}

func opStatusAttrs(op string, status int) *attrOpts {
	return cachedAttrs("operation", op, "status", statusString(status))
}
