package proxy

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/translate"
)

// The key's limit holds in v2 calls (P12). A v1 request makes a bounded
// number of v2 calls, and withRateLimit counts it once. A GraphQL request
// makes as many as its root fields ask for: each v2 call it makes after
// its first (which the request's own unit paid for) takes one more unit
// of the same bucket — its key's, or for a keyless call its client
// address's — so that rate_limit_per_minute 60 allows at most 60 v2 calls
// a minute through GraphQL too. Calls the catalog cache answers reach no
// v2 and cost nothing. When the bucket is empty the call is not made: it
// is answered as v2 answers a 429 (Retry-After: when the window resets),
// which the plan turns into its rate-limit error, and the door stops the
// rest of the document (graphql's run).

// callMeter counts one GraphQL request's v2 calls against its bucket.
type callMeter struct {
	g      *Gateway
	bucket string
	limit  int
	calls  atomic.Int64
}

// newCallMeter is the meter of the request of ctx, nil when its calls are
// not limited (no limiter, or a limit of 0).
func (g *Gateway) newCallMeter(ctx context.Context) *callMeter {
	if g.limiter == nil {
		return nil
	}
	bucket := KeyIDFrom(ctx)
	limit := g.limitFor(bucket)
	if key := anonymousKey(ctx); key != "" {
		bucket, limit = key, g.cfg.AnonymousRateLimitPerMinute
	}
	if limit <= 0 {
		return nil
	}
	return &callMeter{g: g, bucket: bucket, limit: limit}
}

// admit is upstreamCaller.admit: nil to make the call, or the 429 that
// stands for it.
func (m *callMeter) admit(ctx context.Context) *translate.V2Answer {
	if m.calls.Add(1) == 1 {
		return nil // the request's own unit (withRateLimit)
	}
	d, err := m.g.limiter.Allow(ctx, m.bucket, m.limit)
	switch {
	case errors.Is(err, limiter.ErrUnavailable), errors.Is(err, limiter.ErrOverloaded):
		// limiter_fail closed, or too busy to count: no uncounted call.
		return rateLimitedAnswer(1)
	case err != nil:
		return nil // fail open, as withRateLimit does
	case !d.Allowed:
		return rateLimitedAnswer(d.ResetSeconds())
	}
	return nil
}

// rateLimitedAnswer is the 429 that stands for a v2 call the key's limit
// does not allow, in v2's error shape (a problem document), so that the
// plan reads it as it reads v2's own.
func rateLimitedAnswer(retryAfter int) *translate.V2Answer {
	return &translate.V2Answer{
		Status: http.StatusTooManyRequests,
		Header: http.Header{"Content-Type": {"application/problem+json"}, "Retry-After": {strconv.Itoa(max(retryAfter, 1))}},
		Body:   []byte(`{"title":"Too Many Requests","status":429,"detail":"rate limit exceeded for the minute window: each v2 call a GraphQL request makes counts against the key's limit"}`),
	}
}
