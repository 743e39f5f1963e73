package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/rs/zerolog"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/usage"
	"github.com/v1gateway/v1gateway/v2sim"
)

// logBuffer collects a logger's lines, safely for the server goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// lines returns the JSON log lines whose message is msg.
func (l *logBuffer) lines(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(l.String()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line is not JSON: %s", sc.Text())
		}
		if m["message"] == msg {
			out = append(out, m)
		}
	}
	return out
}

func withLogger(buf *logBuffer) func(*config.Config, *Options) {
	return func(_ *config.Config, o *Options) {
		l := zerolog.New(buf).With().Timestamp().Logger()
		o.Logger = &l
	}
}

// The bearer token never reaches a log line, whatever the route and
// outcome (success, rate limit, unknown route, upstream failure, breaker
// open, pass-through, body too large).
func TestNoLogLineContainsTheToken(t *testing.T) {
	const token = "sk-SECRET-token-4711"
	var buf logBuffer
	e := newSimEnv(t, func(c *config.Config, o *Options) {
		withLogger(&buf)(c, o)
		c.RateLimitPerMinute = 10
		o.Limiter = limiter.NewMemory(nil)
		o.Resilience.Retries = 0
	})
	doTok := func(method, path, body string) {
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		resp := do(t, method, e.srv.URL+path, token, r, map[string]string{"User-Agent": "legacy-cli/1.0"})
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	doTok("GET", "/v1/pods", "")
	doTok("GET", "/v1/pods/nope", "")
	doTok("POST", "/v1/pods", createBody)
	doTok("POST", "/v1/pods", `{"dockerEntrypoint":["`+token+`"]}`) // strict-mode rejection echoing fields
	doTok("GET", "/v2/pods", "")
	doTok("GET", "/v1/nope", "")
	doTok("POST", "/v2/pods", strings.Repeat("x", MaxBodyBytes+1))
	e.down.Store(true)
	for range 4 {
		doTok("GET", "/v1/pods", "") // failures, then the open breaker
	}
	for range 3 {
		doTok("GET", "/v1/pods", "") // over the rate limit
	}
	out := buf.String()
	if strings.Contains(out, token) || strings.Contains(out, "SECRET") {
		t.Fatalf("the token appears in the logs:\n%s", out)
	}
	lines := buf.lines(t, "request")
	if len(lines) != 14 {
		t.Fatalf("%d access lines for 14 requests:\n%s", len(lines), out)
	}
	statuses := map[float64]bool{}
	for _, l := range lines {
		statuses[l["status"].(float64)] = true
		for _, f := range []string{"request_id", "method", "path", "operation", "status", "duration_ms"} {
			if _, ok := l[f]; !ok {
				t.Errorf("access line lacks %s: %v", f, l)
			}
		}
	}
	for _, s := range []float64{200, 201, 404, 413, 502, 503, 429} {
		if !statuses[s] {
			t.Errorf("no request answered %v: the test did not cover it", s)
		}
	}
}

func TestAccessLogLine(t *testing.T) {
	var buf logBuffer
	e := newSimEnv(t, func(c *config.Config, o *Options) {
		withLogger(&buf)(c, o)
		c.CompatMode = "lenient"
		o.Limiter = limiter.NewMemory(nil)
	})
	resp := do(t, "POST", e.srv.URL+"/v1/pods", "k1",
		strings.NewReader(`{"imageName":"runpod/pytorch:latest","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"interruptible":true}`),
		map[string]string{"X-Request-Id": "req-42"})
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	lines := buf.lines(t, "request")
	if len(lines) != 1 {
		t.Fatalf("lines: %s", buf.String())
	}
	l := lines[0]
	t.Logf("sample access line: %s", strings.TrimSpace(buf.String()))
	want := map[string]any{
		"request_id": "req-42", "method": "POST", "path": "/v1/pods", "operation": "CreatePod", "status": 201.0,
		"key_id": limiter.KeyID([]byte("test-secret"), "k1"), "rate_limit": "allowed", "compat_dropped": "interruptible",
	}
	for k, v := range want {
		if l[k] != v {
			t.Errorf("%s = %v, want %v", k, l[k], v)
		}
	}
	calls, _ := l["v2_calls"].([]any)
	if len(calls) == 0 || !strings.Contains(strings.Join(toStrings(calls), " "), "POST /v2/pods -> 201") {
		t.Errorf("v2_calls %v", l["v2_calls"])
	}
	if st, _ := l["upstream_statuses"].([]any); len(st) != len(calls) {
		t.Errorf("upstream_statuses %v for calls %v", l["upstream_statuses"], calls)
	}
}

func toStrings(a []any) []string {
	out := make([]string, len(a))
	for i, v := range a {
		out[i], _ = v.(string)
	}
	return out
}

func scrape(t *testing.T, adminURL string) string {
	t.Helper()
	resp, err := http.Get(adminURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("/metrics: %d %s", resp.StatusCode, b)
	}
	return string(b)
}

func TestMetricsEndpoint(t *testing.T) {
	mr := miniredis.RunT(t)
	rl, err := limiter.NewRedis(limiter.RedisOptions{URL: "redis://" + mr.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	defer rl.Close()
	e := newSimEnv(t, func(c *config.Config, o *Options) {
		c.RateLimitPerMinute = 3
		o.Limiter = rl
	})
	for range 4 {
		e.get(t, "/v1/pods") // 3 allowed, 1 limited
	}
	resp := do(t, "GET", e.srv.URL+"/v2/pods", "k2", nil, nil)
	resp.Body.Close()
	e.get(t, "/v1/nope")

	out := scrape(t, e.admin.URL)
	for _, series := range []string{
		`v1gw_requests_total{operation="ListPods",status="200"} 3`,
		`v1gw_requests_total{operation="ListPods",status="429"} 1`,
		`v1gw_requests_total{operation="v2-passthrough",status="200"} 1`,
		`v1gw_requests_total{operation="unknown",status="404"} 1`,
		`v1gw_request_duration_seconds_bucket{operation="ListPods",status="200",le="0.005"}`,
		`v1gw_request_duration_seconds_count{operation="ListPods",status="200"} 3`,
		`v1gw_requests_inflight`,
		`v1gw_upstream_calls_total{method="GET",operation="ListPods",status="200"} 3`,
		`v1gw_upstream_calls_total{method="GET",operation="v2-passthrough",status="200"} 1`,
		`v1gw_upstream_duration_seconds_bucket{method="GET",operation="ListPods",le="0.005"}`,
		`v1gw_breaker_state 0`,
		`v1gw_limiter_decisions_total{decision="allowed"} 4`,
		`v1gw_limiter_decisions_total{decision="limited"} 1`,
		`v1gw_limiter_redis_fallback 0`,
		`v1gw_limiter_redis_calls_total`,
		`v1gw_limiter_redis_round_trips_total`,
		`v1gw_limiter_redis_errors_total 0`,
		`v1gw_limiter_fallback_decisions_total 0`,
		`v1gw_limiter_local_denied_total`,
		`v1gw_usage_flush_errors_total 0`,
		`v1gw_usage_pending`,
		`v1gw_usage_dropped_total 0`,
		`go_goroutines`,
		`target_info{`,
	} {
		if !strings.Contains(out, series) {
			t.Errorf("/metrics lacks %s", series)
		}
	}
	// Bounded labels: no key id, no path, no pod id.
	for _, leak := range []string{limiter.KeyID([]byte("test-secret"), "k1"), "/v2/pods", "/v1/nope", "key_id"} {
		if strings.Contains(out, leak) {
			t.Errorf("/metrics contains %q", leak)
		}
	}
	if t.Failed() {
		t.Logf("metrics:\n%s", grep(out, "v1gw_"))
	}
	// Every gateway has its own registry: a second one starts at zero.
	e2 := newSimEnv(t, nil)
	if out2 := scrape(t, e2.admin.URL); strings.Contains(out2, `v1gw_requests_total{operation="ListPods"`) {
		t.Error("a new gateway shares the first one's metrics")
	}
}

func grep(s, substr string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, substr) && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestTracePropagation(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tel, err := NewTelemetry(context.Background(), TelemetryOptions{SpanExporter: exp, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	var mu sync.Mutex
	var upstreamParents []string
	sim := v2sim.New(v2sim.Options{Seed: true})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		upstreamParents = append(upstreamParents, r.Header.Get("Traceparent"))
		mu.Unlock()
		sim.ServeHTTP(w, r)
	}))
	defer up.Close()
	gw, err := New(Options{Config: testConfig(up.URL), Telemetry: tel})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	defer srv.Close()

	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	for _, path := range []string{"/v1/pods", "/v2/pods"} {
		resp := do(t, "GET", srv.URL+path, "k", nil, map[string]string{"Traceparent": "00-" + traceID + "-00f067aa0ba902b7-01"})
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(upstreamParents) != 2 {
		t.Fatalf("upstream saw %d calls", len(upstreamParents))
	}
	for _, tp := range upstreamParents {
		if !regexp.MustCompile(`^00-` + traceID + `-[0-9a-f]{16}-01$`).MatchString(tp) {
			t.Errorf("upstream traceparent %q does not continue the caller's trace", tp)
		}
	}
	spans := exp.GetSpans()
	byName := map[string]tracetest.SpanStub{}
	for _, s := range spans {
		byName[s.Name] = s
	}
	server, ok := byName["ListPods"]
	if !ok || server.SpanKind != trace.SpanKindServer || server.SpanContext.TraceID().String() != traceID {
		t.Fatalf("no server span ListPods in the caller's trace: %v", names(spans))
	}
	if _, ok := byName[opPassThrough]; !ok {
		t.Errorf("no server span for the pass-through: %v", names(spans))
	}
	var client *tracetest.SpanStub
	for i, s := range spans {
		if s.SpanKind == trace.SpanKindClient && s.Parent.SpanID() == server.SpanContext.SpanID() {
			client = &spans[i]
		}
	}
	if client == nil {
		t.Fatalf("no client span under ListPods: %v", names(spans))
	}
	if !strings.Contains(upstreamParents[0], client.SpanContext.SpanID().String()) {
		t.Errorf("upstream parent %s is not the client span %s", upstreamParents[0], client.SpanContext.SpanID())
	}
	var _ sdktrace.SpanExporter = exp
}

// TestTraceContextWithoutExporter: with nothing exported, a call made
// outside any trace context sends v2 no trace context (a new trace nobody
// records is noise), while a caller's traceparent, sampled or not, and its
// baggage are still continued upstream.
func TestTraceContextWithoutExporter(t *testing.T) {
	tel, err := NewTelemetry(context.Background(), TelemetryOptions{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	var mu sync.Mutex
	var seen []http.Header
	sim := v2sim.New(v2sim.Options{Seed: true})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		sim.ServeHTTP(w, r)
	}))
	defer up.Close()
	gw, err := New(Options{Config: testConfig(up.URL), Telemetry: tel})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	defer srv.Close()

	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	for _, tc := range []struct {
		name              string
		hdr               map[string]string
		parent, baggageRe string // regexps of what v2 receives; "" = header absent
	}{
		{"no trace context", nil, "", ""},
		{"caller's sampled trace", map[string]string{"Traceparent": "00-" + traceID + "-00f067aa0ba902b7-01"}, `^00-` + traceID + `-[0-9a-f]{16}-01$`, ""},
		{"caller's unsampled trace", map[string]string{"Traceparent": "00-" + traceID + "-00f067aa0ba902b7-00"}, `^00-` + traceID + `-[0-9a-f]{16}-00$`, ""},
		// Baggage is trace context: the server span it starts (unsampled)
		// is continued upstream with it.
		{"baggage only", map[string]string{"Baggage": "tenant=acme"}, `^00-[0-9a-f]{32}-[0-9a-f]{16}-00$`, `^tenant=acme$`},
	} {
		for _, path := range []string{"/v1/pods", "/v2/pods"} {
			mu.Lock()
			seen = nil
			mu.Unlock()
			resp := do(t, "GET", srv.URL+path, "k", nil, tc.hdr)
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			mu.Lock()
			if len(seen) != 1 {
				t.Fatalf("%s %s: upstream saw %d calls", tc.name, path, len(seen))
			}
			h := seen[0]
			mu.Unlock()
			for _, c := range []struct{ header, re string }{{"Traceparent", tc.parent}, {"Baggage", tc.baggageRe}} {
				got, present := h[c.header]
				switch {
				case c.re == "" && present:
					t.Errorf("%s %s: v2 received %s %q, want none", tc.name, path, c.header, got)
				case c.re != "" && (len(got) != 1 || !regexp.MustCompile(c.re).MatchString(got[0])):
					t.Errorf("%s %s: v2 received %s %q, want %s", tc.name, path, c.header, got, c.re)
				}
			}
		}
	}
}

func names(spans tracetest.SpanStubs) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name+"/"+s.SpanKind.String())
	}
	return out
}

func TestTelemetryExportsOnlyWhenConfigured(t *testing.T) {
	for _, tt := range []struct {
		env             map[string]string
		traces, metrics bool
	}{
		{map[string]string{}, false, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"}, true, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:1/v1/traces"}, true, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_METRICS_EXPORTER": "none"}, true, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_SDK_DISABLED": "true"}, false, false},
	} {
		tel, err := NewTelemetry(context.Background(), TelemetryOptions{Getenv: func(k string) string { return tt.env[k] }})
		if err != nil {
			t.Fatalf("%v: %v (a collector that is down must not fail start-up)", tt.env, err)
		}
		if tel.OTLPTraces != tt.traces || tel.OTLPMetrics != tt.metrics {
			t.Errorf("%v: traces %v metrics %v", tt.env, tel.OTLPTraces, tel.OTLPMetrics)
		}
		// Shutting down with an unreachable collector returns quickly.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = tel.Shutdown(ctx)
		cancel()
	}
}

func TestUsageReportThroughTheGateway(t *testing.T) {
	clk := &fixedClock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	ciKey := limiter.KeyID([]byte("test-secret"), "ci-token")
	e := newSimEnv(t, func(c *config.Config, o *Options) {
		c.KeyNames = map[string]string{ciKey: "CI pipeline", "ffff": "unused key"}
		o.Now = clk.now
		o.Usage = usage.New(usage.Options{Now: clk.now})
	})
	get := func(tok, path string) {
		resp := do(t, "GET", e.srv.URL+path, tok, nil, nil)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	get("ci-token", "/v1/pods")
	get("ci-token", "/v1/pods")
	get("other", "/v1/pods")
	clk.t = clk.t.Add(time.Minute)
	get("ci-token", "/v1/pods/nope") // a 404 is still a v1 call
	get("ci-token", "/v2/pods")      // pass-through: counted apart
	get("", "/v1/pods")              // no key: not counted
	get("ci-token", "/v1/nope")      // no such operation: not counted

	resp, err := http.Get(e.admin.URL + "/usage")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("/usage: %d %s", resp.StatusCode, body)
	}
	t.Logf("sample /usage:\n%s", body)
	var rep usage.Report
	if err := json.Unmarshal(body, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Store != "memory" || rep.Summary.TotalV1Calls != 4 || rep.Summary.KeysCallingV1 != 2 || rep.Summary.TotalV2PassThrough != 1 {
		t.Fatalf("summary %+v", rep.Summary)
	}
	ci := rep.Keys[0]
	if ci.KeyID != ciKey || ci.Name != "CI pipeline" || ci.V1Calls != 3 || ci.V2PassThrough == nil || ci.V2PassThrough.Count != 1 {
		t.Fatalf("first key %+v", ci)
	}
	if ci.Operations[0].Operation != "GetPod" || ci.Operations[1].Operation != "ListPods" || ci.Operations[1].Count != 2 {
		t.Fatalf("operations by last use %+v", ci.Operations)
	}
	if len(rep.NamedKeysWithoutCalls) != 1 || rep.NamedKeysWithoutCalls[0].Name != "unused key" {
		t.Fatalf("named keys without calls %+v", rep.NamedKeysWithoutCalls)
	}
	if strings.Contains(string(body), "ci-token") {
		t.Fatal("the report contains a token")
	}

	resp, err = http.Get(e.admin.URL + "/usage?format=csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(resp.Body).ReadAll()
	resp.Body.Close()
	if err != nil || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %v %v", err, resp.Header)
	}
	if len(rows) != 5 || strings.Join(rows[0], ",") != "key_id,name,operation,count,first_seen,last_seen" ||
		rows[1][0] != ciKey || rows[1][1] != "CI pipeline" || rows[1][2] != "GetPod" {
		t.Fatalf("csv rows %q", rows)
	}
	resp, _ = http.Get(e.admin.URL + "/usage?format=xml")
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("format=xml: %d", resp.StatusCode)
	}
}

// unhealthyLimiter is a Redis limiter whose Redis is down.
type unhealthyLimiter struct{ downLimiter }

func (unhealthyLimiter) Healthy() bool { return false }

func TestReadyz(t *testing.T) {
	for _, tt := range []struct {
		name     string
		lim      limiter.Limiter
		fail     string
		code     int
		limCheck string
	}{
		{"memory limiter", limiter.NewMemory(nil), "open", 200, "memory"},
		{"no limiter", nil, "open", 200, "disabled"},
		{"redis down, fail-open", unhealthyLimiter{}, "open", 200, "redis unavailable (fail-open: per-process limits)"},
		{"redis down, fail-closed", unhealthyLimiter{}, "closed", 503, "redis unavailable (fail-closed: requests rejected)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newSimEnv(t, func(c *config.Config, o *Options) {
				c.LimiterFail = tt.fail
				o.Limiter = tt.lim
			})
			code, rd := readyz(t, e)
			if code != tt.code || rd.Checks["limiter"] != tt.limCheck || rd.Checks["upstream_breaker"] != "closed" {
				t.Fatalf("readyz %d %+v", code, rd)
			}
		})
	}
	e := newSimEnv(t, nil)
	admin := NewAdmin(e.gw)
	admin.SetDraining()
	w := httptest.NewRecorder()
	admin.ServeHTTP(w, httptest.NewRequest("GET", "/readyz", nil))
	if w.Code != 503 || !strings.Contains(w.Body.String(), `"draining"`) {
		t.Fatalf("draining: %d %s", w.Code, w.Body)
	}
	w = httptest.NewRecorder()
	admin.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
	if w.Code != 200 {
		t.Fatalf("healthz while draining: %d", w.Code)
	}
}

func TestPanicIsLoggedAndCounted(t *testing.T) {
	var buf logBuffer
	e := newSimEnv(t, withLogger(&buf))
	srv := httptest.NewServer(e.gw.withRequestID(e.gw.withObservability(named("ListPods", http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("boom")
	})))))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/v1/pods")
	if err == nil {
		resp.Body.Close()
	}
	waitFor(t, "the access line", func() bool { return len(buf.lines(t, "request")) == 1 })
	if l := buf.lines(t, "request")[0]; l["status"] != 500.0 || l["operation"] != "ListPods" {
		t.Fatalf("access line %v", l)
	}
	if len(buf.lines(t, "handler panicked")) != 1 {
		t.Fatalf("no panic line: %s", buf.String())
	}
	if !strings.Contains(scrape(t, e.admin.URL), `v1gw_requests_total{operation="ListPods",status="500"} 1`) {
		t.Fatal("the panic was not counted")
	}
}
