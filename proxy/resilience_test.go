package proxy

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/metric/noop"

	"github.com/v1gateway/v1gateway/translate"
)

// scripted is an upstream that answers from a script of statuses (the last
// one repeats) and counts the requests per method.
type scripted struct {
	mu       sync.Mutex
	statuses []int
	header   http.Header
	n        int
	methods  map[string]int
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	s.mu.Lock()
	st := s.statuses[min(s.n, len(s.statuses)-1)]
	s.n++
	if s.methods == nil {
		s.methods = map[string]int{}
	}
	s.methods[r.Method]++
	hdr := s.header
	s.mu.Unlock()
	if st == 0 { // drop the connection
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	for k, v := range hdr {
		w.Header()[k] = v
	}
	w.WriteHeader(st)
}

func (s *scripted) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func testMetrics(t *testing.T) *metrics {
	t.Helper()
	g := &Gateway{}
	g.breaker = newBreaker(100, time.Minute, zerolog.Nop())
	m, err := newMetrics(noop.NewMeterProvider().Meter("t"), g)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func newTestTransport(t *testing.T, o ResilienceOptions) (*resilientTransport, *breaker) {
	t.Helper()
	if o.BreakerFailures == 0 {
		o.BreakerFailures = 100
	}
	if o.BreakerOpenFor == 0 {
		o.BreakerOpenFor = time.Minute
	}
	if o.RetryBaseDelay == 0 {
		o.RetryBaseDelay = time.Millisecond
	}
	b := newBreaker(o.BreakerFailures, o.BreakerOpenFor, zerolog.Nop())
	return newResilientTransport(http.DefaultTransport, b, o, testMetrics(t)), b
}

func roundTrip(t *testing.T, rt http.RoundTripper, ctx context.Context, method, url string, body io.Reader) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rt.RoundTrip(req)
	if resp != nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return resp, err
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name      string
		method    string
		body      string
		statuses  []int
		header    http.Header
		retries   int
		want      int // final status; 0: an error
		wantCalls int
	}{
		{"GET 503 then 200", "GET", "", []int{503, 502, 200}, nil, 2, 200, 3},
		{"GET at most 2 retries", "GET", "", []int{500}, nil, 2, 500, 3},
		{"GET retries disabled", "GET", "", []int{500, 200}, nil, 0, 500, 1},
		{"GET one retry", "GET", "", []int{504, 504, 200}, nil, 1, 504, 2},
		{"GET connection dropped", "GET", "", []int{0, 200}, nil, 2, 200, 2},
		{"HEAD retried", "HEAD", "", []int{503, 200}, nil, 2, 200, 2},
		{"GET 404 not retried", "GET", "", []int{404, 200}, nil, 2, 404, 1},
		{"GET 429 without Retry-After not retried", "GET", "", []int{429, 200}, nil, 2, 429, 1},
		{"GET 503 Retry-After too long not retried", "GET", "", []int{503, 200}, http.Header{"Retry-After": {"30"}}, 2, 503, 1},
		{"GET 429 Retry-After 0 retried", "GET", "", []int{429, 200}, http.Header{"Retry-After": {"0"}}, 2, 200, 2},
		{"POST 503 never retried", "POST", `{}`, []int{503, 201}, nil, 2, 503, 1},
		{"POST dropped never retried", "POST", `{}`, []int{0, 201}, nil, 2, 0, 1},
		{"PATCH never retried", "PATCH", `{}`, []int{502, 200}, nil, 2, 502, 1},
		{"DELETE never retried", "DELETE", "", []int{503, 204}, nil, 2, 503, 1},
		{"GET with a body never retried", "GET", "x", []int{503, 200}, nil, 2, 503, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := &scripted{statuses: tt.statuses, header: tt.header}
			srv := httptest.NewServer(up)
			defer srv.Close()
			rt, _ := newTestTransport(t, ResilienceOptions{Retries: tt.retries})
			var body io.Reader
			if tt.body != "" {
				body = strings.NewReader(tt.body)
			}
			resp, err := roundTrip(t, rt, context.Background(), tt.method, srv.URL+"/v2/pods", body)
			switch {
			case tt.want == 0 && err == nil:
				t.Fatalf("status %d, want an error", resp.StatusCode)
			case tt.want != 0 && err != nil:
				t.Fatalf("error %v, want %d", err, tt.want)
			case tt.want != 0 && resp.StatusCode != tt.want:
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.want)
			}
			if up.count() != tt.wantCalls {
				t.Fatalf("%d upstream calls, want %d", up.count(), tt.wantCalls)
			}
		})
	}
}

func TestRetryHonoursDeadline(t *testing.T) {
	// Retry-After: 1 would be worth waiting for, but the request has less
	// time than that left: the 503 is answered at once.
	up := &scripted{statuses: []int{503, 200}, header: http.Header{"Retry-After": {"1"}}}
	srv := httptest.NewServer(up)
	defer srv.Close()
	rt, _ := newTestTransport(t, ResilienceOptions{Retries: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	resp, err := roundTrip(t, rt, ctx, "GET", srv.URL+"/v2/pods", nil)
	if err != nil || resp.StatusCode != 503 || up.count() != 1 {
		t.Fatalf("got %v %v after %d calls, want the 503 after 1", resp, err, up.count())
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	up := &scripted{statuses: []int{503, 200}, header: http.Header{"Retry-After": {"1"}}}
	srv := httptest.NewServer(up)
	defer srv.Close()
	rt, _ := newTestTransport(t, ResilienceOptions{Retries: 2})
	start := time.Now()
	resp, err := roundTrip(t, rt, context.Background(), "GET", srv.URL+"/v2/pods", nil)
	if err != nil || resp.StatusCode != 200 || up.count() != 2 {
		t.Fatalf("got %v %v after %d calls", resp, err, up.count())
	}
	if d := time.Since(start); d < time.Second {
		t.Fatalf("retried after %v, before Retry-After: 1", d)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false}, {"3", 3 * time.Second, true}, {"-1", 0, false}, {"soon", 0, false},
		{"Sun, 22 Nov 2026 12:00:05 GMT", 5 * time.Second, true},
		{"Sun, 22 Nov 2026 11:00:00 GMT", 0, true},
	} {
		got, ok := parseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseRetryAfter(%q) = %v %v, want %v %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBreakerTransport(t *testing.T) {
	up := &scripted{statuses: []int{500}}
	srv := httptest.NewServer(up)
	defer srv.Close()
	rt, b := newTestTransport(t, ResilienceOptions{BreakerFailures: 2, BreakerOpenFor: time.Minute})

	// A caller that goes away does not count.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 3 {
		if _, err := roundTrip(t, rt, ctx, "GET", srv.URL+"/x", nil); err == nil {
			t.Fatal("canceled request succeeded")
		}
	}
	if b.state() != breakerClosed {
		t.Fatal("canceled requests opened the breaker")
	}
	for range 2 {
		roundTrip(t, rt, context.Background(), "POST", srv.URL+"/x", strings.NewReader("{}"))
	}
	if b.state() != breakerOpen {
		t.Fatalf("breaker %s after 2 failures", b.state())
	}
	n := up.count()
	_, err := roundTrip(t, rt, context.Background(), "GET", srv.URL+"/x", nil)
	var open *BreakerOpenError
	if !errors.As(err, &open) || open.RetryAfterSeconds() < 59 || open.RetryAfterSeconds() > 60 {
		t.Fatalf("open breaker: %v", err)
	}
	if up.count() != n {
		t.Fatal("the open breaker called the upstream")
	}
	// The plans' error contract: 503 "upstream unavailable".
	res := translate.FromCallError(err)
	if res.Status != 503 || !strings.Contains(string(res.Body), "upstream unavailable") {
		t.Fatalf("FromCallError: %d %s", res.Status, res.Body)
	}
}

func TestTimeoutErrorsAre504(t *testing.T) {
	// The transport's response-header timeout is not the context's
	// deadline; plans answer it as one.
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer up.Close()
	tr := NewTransport(UpstreamOptions{ResponseHeaderTimeout: 50 * time.Millisecond})
	defer tr.CloseIdleConnections()
	req, _ := http.NewRequest("GET", up.URL, nil)
	_, err := tr.RoundTrip(req)
	if err == nil {
		t.Fatal("no timeout")
	}
	if res := translate.FromCallError(normalizeCallError(err)); res.Status != http.StatusGatewayTimeout {
		t.Fatalf("header timeout became %d, want 504", res.Status)
	}
	if res := translate.FromCallError(normalizeCallError(errors.New("connection refused"))); res.Status != http.StatusBadGateway {
		t.Fatalf("connection error became %d, want 502", res.Status)
	}
}
