package proxy

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"github.com/sony/gobreaker/v2"
)

// ResilienceOptions tune the upstream circuit breaker and retries. Zero
// values take the defaults.
type ResilienceOptions struct {
	// Retries of a failed GET or HEAD without a body (0: none; at most 2).
	Retries int
	// BreakerFailures consecutive failures open the breaker (default 5).
	BreakerFailures int
	// BreakerOpenFor is how long the breaker stays open before one probe
	// (default 10s).
	BreakerOpenFor time.Duration
	// RetryBaseDelay is the first retry's backoff before jitter (default
	// 100ms); each retry doubles it.
	RetryBaseDelay time.Duration
	// MaxRetryAfter is the longest Retry-After (of a 429 or 503) worth
	// waiting for before retrying; a longer one is answered as it is
	// (default 2s).
	MaxRetryAfter time.Duration
}

// BreakerOpenError is returned, without any network call, while the
// upstream circuit breaker is open (or half-open with its probe in flight).
// It satisfies translate.FromCallError's Unavailable contract (→ 503).
type BreakerOpenError struct {
	RetryAfter time.Duration // until the breaker lets a probe through
}

func (e *BreakerOpenError) Error() string { return "upstream unavailable: circuit breaker open" }

// Unavailable reports true: the upstream is known to be down.
func (e *BreakerOpenError) Unavailable() bool { return true }

// RetryAfterSeconds is RetryAfter rounded up to whole seconds, at least 1.
func (e *BreakerOpenError) RetryAfterSeconds() int {
	s := int((e.RetryAfter + time.Second - 1) / time.Second)
	return max(s, 1)
}

// errUpstream5xx marks a 5xx answer as a breaker failure.
var errUpstream5xx = errors.New("upstream answered 5xx")

// breakerState is the breaker's state as a metric value.
type breakerState int

const (
	breakerClosed   breakerState = 0
	breakerHalfOpen breakerState = 1
	breakerOpen     breakerState = 2
)

func (s breakerState) String() string {
	switch s {
	case breakerHalfOpen:
		return "half-open"
	case breakerOpen:
		return "open"
	}
	return "closed"
}

// breaker wraps gobreaker: one per upstream, shared by the translated
// routes' client and the /v2 pass-through.
type breaker struct {
	cb       *gobreaker.TwoStepCircuitBreaker[struct{}]
	openFor  time.Duration
	openedAt atomic.Int64 // unix nanoseconds of the last transition to open
}

func newBreaker(failures int, openFor time.Duration, log zerolog.Logger) *breaker {
	return newNamedBreaker("upstream", "v2", failures, openFor, log)
}

// newNamedBreaker is a breaker named name (in its log lines) in front of
// what: "upstream" before v2, "vendor_graphql" before the vendor's GraphQL
// (P12: its failures never open v2's breaker, nor turn /readyz 503).
func newNamedBreaker(name, what string, failures int, openFor time.Duration, log zerolog.Logger) *breaker {
	b := &breaker{openFor: openFor}
	log = log.With().Str("breaker", name).Logger()
	b.cb = gobreaker.NewTwoStepCircuitBreaker[struct{}](gobreaker.Settings{
		Name:        name,
		MaxRequests: 1, // one probe while half-open
		Timeout:     openFor,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= uint32(failures) },
		IsSuccessful: func(err error) bool {
			return err == nil
		},
		// A caller that went away says nothing about the upstream.
		// Nor does a client whose request body did not arrive.
		IsExcluded: func(err error) bool {
			if err == nil {
				return false // without this, cbe escapes on every success
			}
			var cbe *ClientBodyError
			return errors.Is(err, context.Canceled) || errors.As(err, &cbe)
		},
		OnStateChange: func(_ string, from, to gobreaker.State) {
			if to == gobreaker.StateOpen {
				b.openedAt.Store(time.Now().UnixNano())
				log.Warn().Str("from", from.String()).Dur("open_for", openFor).Msg(name + " circuit breaker opened: answering 503 without calling " + what)
				return
			}
			log.Info().Str("from", from.String()).Str("to", to.String()).Msg(name + " circuit breaker state changed")
		},
	})
	return b
}

func (b *breaker) state() breakerState {
	switch b.cb.State() {
	case gobreaker.StateOpen:
		return breakerOpen
	case gobreaker.StateHalfOpen:
		return breakerHalfOpen
	}
	return breakerClosed
}

// openError is the error of a rejected call.
func (b *breaker) openError() *BreakerOpenError {
	left := b.openFor - time.Since(time.Unix(0, b.openedAt.Load()))
	if left < 0 {
		left = 0 // half-open, probe in flight
	}
	return &BreakerOpenError{RetryAfter: left}
}

// resilientTransport is the RoundTripper every upstream call goes through:
// the breaker, GET-only retries, metrics and the per-request call log.
type resilientTransport struct {
	next          http.RoundTripper
	breaker       *breaker
	retries       int
	baseDelay     time.Duration
	maxRetryAfter time.Duration
	metrics       *metrics
}

func newResilientTransport(next http.RoundTripper, b *breaker, o ResilienceOptions, m *metrics) *resilientTransport {
	t := &resilientTransport{next: next, breaker: b, retries: o.Retries, baseDelay: o.RetryBaseDelay, maxRetryAfter: o.MaxRetryAfter, metrics: m}
	t.retries = min(max(t.retries, 0), 2)
	if t.baseDelay <= 0 {
		t.baseDelay = 100 * time.Millisecond
	}
	if t.maxRetryAfter <= 0 {
		t.maxRetryAfter = 2 * time.Second
	}
	return t
}

// idempotentNoBody reports whether req may be sent again: a GET or HEAD
// without a body. POST, PATCH and DELETE never are (P3: never risk a
// duplicate billable resource).
func idempotentNoBody(req *http.Request) bool {
	return (req.Method == http.MethodGet || req.Method == http.MethodHead) &&
		(req.Body == nil || req.Body == http.NoBody) && req.ContentLength <= 0
}

// RoundTrip implements http.RoundTripper.
func (t *resilientTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	retryable := t.retries > 0 && idempotentNoBody(req)
	ctx := req.Context()
	for attempt := 0; ; attempt++ {
		resp, err := t.attempt(req)
		if !retryable || attempt >= t.retries {
			return resp, err
		}
		wait, reason, ok := t.retryPlan(ctx, attempt, resp, err)
		if !ok {
			return resp, err
		}
		if dl, has := ctx.Deadline(); has && time.Until(dl) <= wait {
			return resp, err // no time left for another attempt
		}
		if resp != nil {
			_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
			resp.Body.Close()
		}
		t.metrics.upstreamRetries.Add(ctx, 1, cachedAttrs("method", req.Method, "reason", reason).add...)
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		}
	}
}

// retryPlan decides whether a failed attempt is worth retrying, after how
// long, and why (for the metric).
func (t *resilientTransport) retryPlan(ctx context.Context, attempt int, resp *http.Response, err error) (time.Duration, string, bool) {
	backoff := t.baseDelay << attempt
	backoff = backoff/2 + rand.N(backoff/2+1) // jitter in [d/2, d]
	if err != nil {
		var open *BreakerOpenError
		if ctx.Err() != nil || errors.As(err, &open) {
			return 0, "", false
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return backoff, "timeout", true
		}
		return backoff, "error", true
	}
	switch resp.StatusCode {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return backoff, strconv.Itoa(resp.StatusCode), true
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		ra, has := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		if !has {
			if resp.StatusCode == http.StatusTooManyRequests {
				return 0, "", false // v2's quota: asking again at once only spends more of it
			}
			return backoff, "503", true
		}
		if ra > t.maxRetryAfter {
			return 0, "", false
		}
		return max(ra, backoff), strconv.Itoa(resp.StatusCode), true
	}
	return 0, "", false
}

// parseRetryAfter reads delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// attempt makes one call through the breaker and records it.
func (t *resilientTransport) attempt(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	info := infoFrom(ctx)
	op := opUnknown
	if info != nil && info.op != "" {
		op = info.op
	}
	if err := ctx.Err(); err != nil {
		// Never sent: neither a call to count nor a breaker failure.
		return nil, err
	}
	done, err := t.breaker.cb.Allow()
	if err != nil {
		oe := t.breaker.openError()
		t.metrics.upstreamCalls.Add(1, cachedAttrs("operation", op, "method", req.Method, "status", "breaker_open"))
		info.addCall(req.Method, req.URL.EscapedPath(), "breaker-open", 0, 0)
		info.setBreakerOpen(oe)
		return nil, oe
	}
	start := time.Now()
	info.startCall(req.Method, req.URL.EscapedPath())
	resp, err := t.next.RoundTrip(req)
	dur := time.Since(start)
	status := ""
	code := 0
	switch {
	case err != nil:
		done(err)
		status = "error"
		var ne net.Error
		if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
			status = "timeout"
		}
	case resp.StatusCode >= 500:
		done(errUpstream5xx)
	default:
		done(nil)
	}
	if resp != nil {
		code = resp.StatusCode
		status = statusString(code)
	}
	t.metrics.upstreamCalls.Add(1, cachedAttrs("operation", op, "method", req.Method, "status", status))
	t.metrics.upstreamDuration.Record(ctx, dur.Seconds(), cachedAttrs("operation", op, "method", req.Method).rec...)
	info.addCall(req.Method, req.URL.EscapedPath(), status, code, dur)
	return resp, err
}
