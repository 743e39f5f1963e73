package proxy

// Handler benchmarks (go test -run '^$' -bench . -benchmem ./proxy/): the
// gateway built as cmd/v1gateway builds it — telemetry, JSON access log at
// info level (to io.Discard), usage recorder, breaker, rate limiter — in
// front of an in-process upstream answering the benchmark's canned v2 JSON
// (bench/canned), and the bare httputil.ReverseProxy that make bench
// compares it with. Neither a network nor net/http's server is involved, so
// allocs/op is the handler's own work plus the canned upstream's one
// http.Response per call. make bench reads these results for its
// allocations-per-request column.

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"testing"

	"github.com/rs/zerolog"

	"github.com/v1gateway/v1gateway/bench/canned"
	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/internal/testredis"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/usage"
)

var benchBodies = canned.New(canned.DefaultPods)

// benchWriter is a reusable ResponseWriter that keeps the status and drops
// the body.
type benchWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *benchWriter) Header() http.Header { return w.h }
func (w *benchWriter) WriteHeader(s int) {
	if w.status == 0 {
		w.status = s
	}
}
func (w *benchWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.n += len(b)
	return len(b), nil
}
func (w *benchWriter) Flush() {}
func (w *benchWriter) reset() {
	clear(w.h)
	w.status, w.n = 0, 0
}

// rewindBody is a request body that can be read again.
type rewindBody struct{ bytes.Reader }

func (*rewindBody) Close() error { return nil }

// benchRequest is one request, reused by every iteration.
type benchRequest struct {
	r    *http.Request
	body []byte
	rb   *rewindBody
	want int
}

func newBenchRequest(method, target, body string, want int) *benchRequest {
	br := &benchRequest{want: want}
	r, _ := http.NewRequest(method, "http://gateway.bench"+target, nil)
	r.RemoteAddr = "127.0.0.1:40000"
	r.RequestURI = target
	r.Header.Set("Authorization", "Bearer "+canned.Token)
	r.Header.Set("Accept", "application/json")
	if body != "" {
		br.body = []byte(body)
		br.rb = &rewindBody{}
		r.Header.Set("Content-Type", "application/json")
		r.ContentLength = int64(len(body))
		r.Body = br.rb
	}
	br.r = r
	return br
}

// run serves the request b.N times through h.
func (br *benchRequest) run(b *testing.B, h http.Handler) {
	w := &benchWriter{h: http.Header{}}
	serve := func() {
		w.reset()
		if br.rb != nil {
			br.rb.Reset(br.body)
		}
		h.ServeHTTP(w, br.r)
		if w.status != br.want {
			b.Fatalf("%s %s: status %d, want %d", br.r.Method, br.r.URL, w.status, br.want)
		}
	}
	serve() // warm: connections, caches, first-use allocations
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		serve()
	}
}

// benchGateway builds the gateway as cmd/v1gateway does, with the limiter
// kind "memory" or "redis" (real Redis: skipped without one).
func benchGateway(b *testing.B, kind string) *Gateway {
	b.Helper()
	return benchGatewayWith(b, kind, benchBodies)
}

// benchGatewayWith is benchGateway in front of the given canned answers;
// mod, when given, changes the configuration first.
func benchGatewayWith(b *testing.B, kind string, bodies *canned.Bodies, mod ...func(*config.Config)) *Gateway {
	b.Helper()
	// TestMain's check of declared v2 calls (a regexp per call) is not
	// part of the gateway.
	obs := callObserver
	callObserver = nil
	b.Cleanup(func() { callObserver = obs })
	cfg := config.Default()
	cfg.UpstreamURL = "http://upstream.bench"
	cfg.RateLimitPerMinute = 1_000_000_000 // never reached
	cfg.KeyHashSecret = "bench-secret"
	for _, m := range mod {
		m(cfg)
	}
	log := zerolog.New(io.Discard).Level(zerolog.InfoLevel).With().Timestamp().Logger()
	var lim limiter.Limiter
	switch kind {
	case "memory":
		lim = limiter.NewMemory(nil)
	case "redis":
		rl, err := limiter.NewRedis(limiter.RedisOptions{URL: testredis.URL(b)})
		if err != nil {
			b.Fatal(err)
		}
		lim = rl
	}
	b.Cleanup(func() { _ = lim.Close() })
	tel, err := NewTelemetry(context.Background(), TelemetryOptions{Getenv: func(string) string { return "" }, Logger: &log})
	if err != nil {
		b.Fatal(err)
	}
	rec := usage.New(usage.Options{FlushInterval: cfg.UsageFlushInterval})
	gw, err := New(Options{Config: cfg, Limiter: lim, Transport: canned.Transport{B: bodies}, Logger: &log, Usage: rec, Telemetry: tel})
	if err != nil {
		b.Fatal(err)
	}
	return gw
}

func benchGatewayRoute(b *testing.B, method, target, body string, want int) {
	for _, kind := range []string{"memory", "redis"} {
		b.Run(kind, func(b *testing.B) {
			newBenchRequest(method, target, body, want).run(b, benchGateway(b, kind))
		})
	}
}

// BenchmarkGatewayPassThrough: GET /v2/pods (100 pods) passed through.
func BenchmarkGatewayPassThrough(b *testing.B) {
	benchGatewayRoute(b, "GET", "/v2/pods", "", http.StatusOK)
}

// BenchmarkGatewayListPods100: GET /v1/pods, translated from a 100-pod v2 list.
func BenchmarkGatewayListPods100(b *testing.B) {
	benchGatewayRoute(b, "GET", "/v1/pods", "", http.StatusOK)
}

// BenchmarkGatewayGraphQLGetPods: POST /graphql with runpod-python's
// get_pods (myself { pods {...} }) over the 100-pod list, answered by the
// GraphQL door (graphql_mode translate), beside GatewayListPods100.
func BenchmarkGatewayGraphQLGetPods(b *testing.B) {
	translateMode := func(c *config.Config) { c.GraphQLMode = "translate" }
	for _, kind := range []string{"memory", "redis"} {
		b.Run(kind, func(b *testing.B) {
			newBenchRequest("POST", "/graphql", canned.GraphQLGetPodsBody, http.StatusOK).run(b, benchGatewayWith(b, kind, benchBodies, translateMode))
		})
	}
}

// BenchmarkGatewayGetPod: GET /v1/pods/{id}.
func BenchmarkGatewayGetPod(b *testing.B) {
	benchGatewayRoute(b, "GET", "/v1/pods/"+canned.PodID, "", http.StatusOK)
}

// BenchmarkGatewayCreatePod: POST /v1/pods (one create).
func BenchmarkGatewayCreatePod(b *testing.B) {
	benchGatewayRoute(b, "POST", "/v1/pods", canned.CreateBody, http.StatusCreated)
}

// BenchmarkGatewayCreatePodAccount: POST /v1/pods for an account of 10 and
// of 1000 pods (what GET /v2/pods would answer); the cost must not depend
// on it.
func BenchmarkGatewayCreatePodAccount(b *testing.B) {
	for _, n := range []int{10, 1000} {
		bodies := canned.New(n)
		b.Run(strconv.Itoa(n)+"pods", func(b *testing.B) {
			newBenchRequest("POST", "/v1/pods", canned.CreateBody, http.StatusCreated).run(b, benchGatewayWith(b, "memory", bodies))
		})
	}
}

// BenchmarkBareReverseProxy is the baseline: a plain ReverseProxy
// forwarding the same v2 requests to the same in-process upstream.
func BenchmarkBareReverseProxy(b *testing.B) {
	up, _ := url.Parse("http://upstream.bench")
	rp := &httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(up) },
		Transport: canned.Transport{B: benchBodies},
	}
	for _, c := range []struct {
		name, method, target, body string
		want                       int
	}{
		{"list", "GET", "/v2/pods", "", http.StatusOK},
		{"get", "GET", "/v2/pods/" + canned.PodID, "", http.StatusOK},
		{"create", "POST", "/v2/pods", canned.V2CreateBody, http.StatusCreated},
	} {
		b.Run(c.name, func(b *testing.B) {
			newBenchRequest(c.method, c.target, c.body, c.want).run(b, rp)
		})
	}
}
