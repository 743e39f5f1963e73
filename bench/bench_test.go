package bench

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	RunRole() // the test binary is re-executed as the upstream and the bare proxy
	os.Exit(m.Run())
}

// TestMiniRun runs the whole harness once, tiny, so that it cannot rot:
// build the gateway, start every kind of server, load each briefly, write
// the report. It asserts what was measured exists, never how fast.
func TestMiniRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/v1gateway and starts servers")
	}
	out := t.TempDir()
	o := Options{
		Out:          out,
		Rounds:       1,
		Warmup:       50 * time.Millisecond,
		MaxDuration:  200 * time.Millisecond,
		RateDuration: 200 * time.Millisecond,
		Concurrency:  4,
		Pods:         100,
		Only:         "^(list/(direct|bare|nginx|gateway-v2|gateway-v1|gateway-v1-redis)|graphql/gateway|get/gateway-v1|create/gateway-v1)$",
		GoBench:      false,
	}
	if testing.Verbose() {
		o.Log = testWriter{t}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := Run(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]*CaseResult{}
	for _, c := range rep.Cases {
		ids[c.ID] = c
		if len(c.Max) != 1 || len(c.Half) != 1 {
			t.Errorf("%s: %d max and %d half-load samples, want 1 each", c.ID, len(c.Max), len(c.Half))
			continue
		}
		if c.Max[0].Requests == 0 || c.Half[0].Requests == 0 || c.MaxRPS <= 0 || c.HalfP50 <= 0 {
			t.Errorf("%s: nothing measured: %+v %+v", c.ID, c.Max[0], c.Half[0])
		}
		if c.Errors > 0 {
			t.Errorf("%s: %d errors: %s", c.ID, c.Errors, fmtErrorKinds(c.ErrorKinds))
		}
		if c.Server != srvDirect && c.PeakRSS <= 0 {
			t.Errorf("%s: no peak RSS", c.ID)
		}
		// One figure per run (CPU time comes in 10 ms ticks: a short run
		// of a cheap proxy may round to 0, never below).
		if c.Server != srvDirect && (len(c.CPUPerReq) != 1 || c.CPUPerReq[0] < 0) {
			t.Errorf("%s: CPU per request %v, want one figure", c.ID, c.CPUPerReq)
		}
		if c.Rate <= 0 {
			t.Errorf("%s: no half-load rate", c.ID)
		}
	}
	for _, id := range []string{"list/direct", "list/bare", "list/gateway-v2", "list/gateway-v1", "graphql/gateway", "get/gateway-v1", "create/gateway-v1"} {
		if ids[id] == nil {
			t.Errorf("case %s not run", id)
		}
	}
	if c := ids["list/gateway-v1-redis"]; c != nil {
		if len(c.RedisCmds) != 1 || c.RedisCmds[0] < 1 {
			t.Errorf("Redis commands per request %v: the limiter sends one per request", c.RedisCmds)
		}
		if len(c.LimiterCalls) != 1 || c.LimiterCalls[0] < 0.9 || c.LimiterCalls[0] > 1.2 {
			t.Errorf("limiter Redis calls per request %v, want ~1", c.LimiterCalls)
		}
		if len(c.Scripts) != 1 || c.Scripts[0] != 1 {
			t.Errorf("scripts Redis ran per decision %v, want exactly 1", c.Scripts)
		}
		if len(c.RoundTrips) != 1 || c.RoundTrips[0] <= 0 || c.RoundTrips[0] > 1.2 {
			t.Errorf("limiter round trips per request %v, want one figure in (0, 1]", c.RoundTrips)
		}
		// One figure (ticks of 10 ms: a short run may round it to 0).
		if len(c.RedisCPU) != 1 || c.RedisCPU[0] < 0 {
			t.Errorf("redis-server CPU per decision %v, want one figure", c.RedisCPU)
		}
	} else {
		t.Log("no Redis: the Redis limiter case was skipped")
	}
	md, err := os.ReadFile(filepath.Join(out, ResultsMarkdown))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Targets", "| gateway GET /v1/pods |", "| gateway POST /graphql myself { pods } |", "GraphQL myself { pods }", "latency.svg", rep.Machine.Go, "CPU µs/req", "Where the CPU goes", "µs of gateway CPU per request"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("results.md lacks %q", want)
		}
	}
	svg, err := os.ReadFile(filepath.Join(out, LatencySVG))
	if err != nil || !strings.HasPrefix(string(svg), "<svg") || !strings.Contains(string(svg), "gateway GET /v1/pods") {
		t.Errorf("latency.svg: %v %.100s", err, svg)
	}
	var back Report
	if b, err := os.ReadFile(filepath.Join(out, ResultsJSON)); err != nil || json.Unmarshal(b, &back) != nil || len(back.Cases) != len(rep.Cases) {
		t.Errorf("results.json: %v", err)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestAttackCountsErrorsByKind: every unexpected answer is counted by its
// status, not only the first one, so that a report can say what failed.
func TestAttackCountsErrorsByKind(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) % 4 {
		case 1:
			w.WriteHeader(http.StatusServiceUnavailable)
		case 2:
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	s := Attack(Target{Method: http.MethodGet, URL: srv.URL}, http.StatusOK, Load{Concurrency: 1, Duration: 200 * time.Millisecond})
	if s.Errors == 0 || s.Errors == s.Requests {
		t.Fatalf("%d errors in %d requests, want some but not all", s.Errors, s.Requests)
	}
	sum := 0
	for _, c := range s.ErrorKinds {
		sum += c
	}
	if sum != s.Errors || s.ErrorKinds["status 503"] == 0 || s.ErrorKinds["status 429"] == 0 || len(s.ErrorKinds) != 2 {
		t.Fatalf("errors by kind %v do not add up to %d errors of two kinds", s.ErrorKinds, s.Errors)
	}
	if got, want := fmtErrorKinds(map[string]int{"status 429": 2, "EOF": 5, "status 503": 2}), "5 × EOF, 2 × status 429, 2 × status 503"; got != want {
		t.Errorf("fmtErrorKinds = %q, want %q", got, want)
	}
	if got := errorsSuffix(nil); got != "" {
		t.Errorf("errorsSuffix(nil) = %q, want none", got)
	}
}

func TestPercentiles(t *testing.T) {
	var lat []time.Duration
	for i := 1000; i >= 1; i-- {
		lat = append(lat, time.Duration(i)*time.Microsecond)
	}
	p50, p99, p999, mx := percentiles(lat)
	if p50 != 500*time.Microsecond || p99 != 990*time.Microsecond || p999 != 999*time.Microsecond || mx != 1000*time.Microsecond {
		t.Fatalf("got %v %v %v %v", p50, p99, p999, mx)
	}
	if a, b, c, d := percentiles(nil); a+b+c+d != 0 {
		t.Fatal("empty input")
	}
	if p50, _, _, _ := percentiles([]time.Duration{7}); p50 != 7 {
		t.Fatal(p50)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestParseGoBench(t *testing.T) {
	out := `goos: linux
BenchmarkGatewayPassThrough/memory-2         	    2000	     28187 ns/op	   10274 B/op	     122 allocs/op
BenchmarkGatewayListPods100/redis-16         	    2000	    529912 ns/op	  414453 B/op	     283 allocs/op
BenchmarkBareReverseProxy/list               	    2000	     13549 ns/op	   35056 B/op	      30 allocs/op
--- SKIP: BenchmarkGatewayGetPod/redis
PASS
`
	got := parseGoBench([]byte(out))
	want := map[string]GoBench{
		"GatewayPassThrough/memory": {"GatewayPassThrough/memory", 28187, 10274, 122},
		"GatewayListPods100/redis":  {"GatewayListPods100/redis", 529912, 414453, 283},
		"BareReverseProxy/list":     {"BareReverseProxy/list", 13549, 35056, 30},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %+v, want %+v", k, got[k], v)
		}
	}
}

// Every case's Go benchmark exists in proxy's benchmarks (by name).
func TestGoBenchNamesMatchProxy(t *testing.T) {
	b, err := os.ReadFile("../proxy/bench_test.go")
	if err != nil {
		t.Skip(err)
	}
	for _, c := range allCases() {
		if c.GoBench == "" {
			continue
		}
		fn, sub, _ := strings.Cut(c.GoBench, "/")
		if !strings.Contains(string(b), "func Benchmark"+fn+"(") || !strings.Contains(string(b), `"`+sub+`"`) {
			t.Errorf("%s: no Benchmark%s with sub-benchmark %q in proxy/bench_test.go", c.ID, fn, sub)
		}
	}
}

func TestReportWithoutCases(t *testing.T) {
	r := &Report{Options: DefaultOptions()}
	for _, tr := range r.Targets() {
		if tr.Known {
			t.Errorf("%s: known without cases", tr.Name)
		}
	}
	if !strings.HasPrefix(r.SVG(), "<svg") || !strings.Contains(r.Markdown(), "## Targets") {
		t.Error("empty report not rendered")
	}
}

func TestFormatting(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{fmtDur(0), "—"},
		{fmtDur(250 * time.Microsecond), "250 µs"},
		{fmtDur(1500 * time.Microsecond), "1.50 ms"},
		{fmtSigned(-300 * time.Microsecond), "−300 µs"},
		{fmtSigned(0), "±0"},
		{fmtSigned(2 * time.Millisecond), "+2.00 ms"},
		{fmtMs(0.05), "0.05"},
		{fmtMs(20), "20"},
		{fmtBytes(2048), "2.0 KiB"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestLimitSectionSaysWhetherAdmittedIsTheLimit(t *testing.T) {
	for _, tc := range []struct {
		admitted int
		want     string
	}{{600, "| **yes** |"}, {1182, "| no |"}} {
		r := &Report{Options: DefaultOptions(), Limit: &LimitResult{Limit: 600, Gateways: 2, Connections: 128, Admitted: tc.admitted}}
		if md := r.Markdown(); !strings.Contains(md, "## Rate limit under saturation") || !strings.Contains(md, tc.want) {
			t.Errorf("admitted %d: section %q missing or without %q", tc.admitted, "Rate limit under saturation", tc.want)
		}
	}
}

func TestScalingSectionListsEveryAccountSize(t *testing.T) {
	r := &Report{Options: DefaultOptions(), Scaling: &ScalingResult{
		Lists:   []ScalingRow{{Pods: 1, Gateway: ScalingPoint{PeakRSS: 40 << 20}, Bare: ScalingPoint{PeakRSS: 20 << 20}}, {Pods: 1000}},
		Creates: []ScalingRow{{Pods: 10}, {Pods: 1000, Gateway: ScalingPoint{Errors: 3}}},
	}}
	md := r.Markdown()
	for _, want := range []string{"## Scaling with the account", "| 1 | ", "| 1000 | ", "| 10 | ", "2.0×", "(3 errors)"} {
		if !strings.Contains(md, want) {
			t.Errorf("scaling section lacks %q", want)
		}
	}
}

func TestMedianPointTakesEachFiguresMedian(t *testing.T) {
	got := medianPoint([]ScalingPoint{
		{RPS: 100, CPUPerReq: 30, PeakRSS: 80 << 20, Errors: 1},
		{RPS: 300, CPUPerReq: 10, PeakRSS: 40 << 20},
		{RPS: 200, CPUPerReq: 20, PeakRSS: 60 << 20, Errors: 2},
	})
	if got != (ScalingPoint{RPS: 200, CPUPerReq: 20, PeakRSS: 60 << 20, Errors: 3}) {
		t.Errorf("medianPoint = %+v", got)
	}
	if (medianPoint(nil) != ScalingPoint{}) {
		t.Error("medianPoint(nil) is not zero")
	}
}
