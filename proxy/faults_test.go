package proxy

// End-to-end fault injection: client → gateway → v2sim (or a scripted
// upstream), through real HTTP.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/v2sim"
)

// simEnv is a gateway in front of a seeded v2sim.
type simEnv struct {
	sim   *v2sim.Server
	up    *httptest.Server
	gw    *Gateway
	srv   *httptest.Server
	admin *httptest.Server
	// down, when set, makes the upstream drop every connection without
	// an answer (as a crashed v2 would).
	down atomic.Bool
}

func newSimEnv(t *testing.T, mod func(*config.Config, *Options)) *simEnv {
	t.Helper()
	e := &simEnv{sim: v2sim.New(v2sim.Options{Seed: true})}
	e.up = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e.down.Load() {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		e.sim.ServeHTTP(w, r)
	}))
	t.Cleanup(e.up.Close)
	cfg := testConfig(e.up.URL)
	o := Options{Config: cfg, Resilience: &ResilienceOptions{Retries: 2, BreakerFailures: 3, BreakerOpenFor: time.Minute, RetryBaseDelay: time.Millisecond}}
	if mod != nil {
		mod(cfg, &o)
	}
	gw, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	e.gw = gw
	e.srv = httptest.NewServer(gw)
	t.Cleanup(e.srv.Close)
	e.admin = httptest.NewServer(NewAdmin(gw))
	t.Cleanup(e.admin.Close)
	return e
}

// calls counts the requests v2sim received (that got past its auth).
func (e *simEnv) calls(method, pathPrefix string) int {
	n := 0
	for _, c := range e.sim.Calls() {
		if c.Method == method && strings.HasPrefix(c.Path, pathPrefix) {
			n++
		}
	}
	return n
}

func (e *simEnv) get(t *testing.T, path string) (*http.Response, []byte) {
	t.Helper()
	resp := do(t, "GET", e.srv.URL+path, "k1", nil, nil)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, b
}

func v1Message(t *testing.T, body []byte) string {
	t.Helper()
	var m struct {
		Message *string `json:"message"`
	}
	if err := json.Unmarshal(body, &m); err != nil || m.Message == nil || *m.Message == "" {
		t.Fatalf("body %q is not a v1 {\"message\"} error", body)
	}
	return *m.Message
}

// waitFor polls cond until it holds: for conditions that depend on time
// passing (a breaker's open period), not for synchronising goroutines.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func readyz(t *testing.T, e *simEnv) (int, readiness) {
	t.Helper()
	resp, err := http.Get(e.admin.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rd readiness
	if err := json.NewDecoder(resp.Body).Decode(&rd); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, rd
}

func TestUpstreamDownBreakerOpensFastAndRecovers(t *testing.T) {
	e := newSimEnv(t, func(c *config.Config, o *Options) {
		// Long enough for the open-phase requests below on a busy
		// machine, short enough to wait for the probe.
		o.Resilience = &ResilienceOptions{Retries: 0, BreakerFailures: 3, BreakerOpenFor: 500 * time.Millisecond}
	})
	if resp, _ := e.get(t, "/v1/pods"); resp.StatusCode != 200 {
		t.Fatalf("healthy upstream: %d", resp.StatusCode)
	}
	e.down.Store(true)
	// Three failures: each reached the (dead) upstream and failed.
	for i := range 3 {
		resp, body := e.get(t, "/v1/pods")
		if resp.StatusCode != http.StatusBadGateway {
			t.Fatalf("failure %d: status %d %s, want 502", i, resp.StatusCode, body)
		}
		v1Message(t, body)
	}
	if got := e.gw.BreakerState(); got != "open" {
		t.Fatalf("breaker %s after 3 failures, want open", got)
	}
	if code, rd := readyz(t, e); code != 503 || rd.Checks["upstream_breaker"] != "open" || rd.Reason == "" {
		t.Fatalf("/readyz with the breaker open: %d %+v", code, rd)
	}

	// Open: answered by the gateway alone, without touching the network.
	e.down.Store(false)
	before := len(e.sim.Calls())
	for range 10 {
		start := time.Now()
		resp, body := e.get(t, "/v1/pods")
		took := time.Since(start)
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("open breaker: status %d %s, want 503", resp.StatusCode, body)
		}
		if msg := v1Message(t, body); msg != "upstream unavailable" {
			t.Fatalf("message %q", msg)
		}
		if ra := resp.Header.Get("Retry-After"); ra != "1" {
			t.Fatalf("Retry-After %q, want 1", ra)
		}
		if took > time.Second {
			t.Logf("open-breaker answer took %v (machine busy?)", took)
		}
	}
	resp, body := e.get(t, "/v2/pods")
	if resp.StatusCode != 503 || resp.Header.Get("Content-Type") != "application/problem+json" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("pass-through with the breaker open: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	if n := len(e.sim.Calls()); n != before {
		t.Fatalf("the open breaker let %d calls through to the upstream", n-before)
	}

	// After the open period one probe goes through; it succeeds, the
	// breaker closes and traffic flows again.
	waitFor(t, "the breaker to let a probe through", func() bool { return e.gw.BreakerState() == "half-open" })
	if resp, body := e.get(t, "/v1/pods"); resp.StatusCode != 200 {
		t.Fatalf("probe: %d %s", resp.StatusCode, body)
	}
	if got := e.gw.BreakerState(); got != "closed" {
		t.Fatalf("breaker %s after a successful probe", got)
	}
	if code, rd := readyz(t, e); code != 200 || rd.Checks["upstream_breaker"] != "closed" {
		t.Fatalf("/readyz after recovery: %d %+v", code, rd)
	}
	if resp, _ := e.get(t, "/v2/pods"); resp.StatusCode != 200 {
		t.Fatalf("pass-through after recovery: %d", resp.StatusCode)
	}
}

func TestBreakerCountsFiveHundredsNotFourHundreds(t *testing.T) {
	e := newSimEnv(t, func(_ *config.Config, o *Options) { o.Resilience.Retries = 0 }) // 3 failures open it
	for range 5 {
		if resp, _ := e.get(t, "/v1/pods/does-not-exist"); resp.StatusCode != 404 {
			t.Fatalf("status %d, want 404", resp.StatusCode)
		}
	}
	e.sim.AddFault(v2sim.Fault{Method: "GET", PathPrefix: "/v2/pods", Status: 429, Times: 5})
	for range 5 {
		if resp, _ := e.get(t, "/v1/pods"); resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1" {
			t.Fatalf("status %d Retry-After %q, want 429 with v2's Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	if got := e.gw.BreakerState(); got != "closed" {
		t.Fatalf("4xx answers opened the breaker (%s)", got)
	}
	e.sim.AddFault(v2sim.Fault{Method: "GET", PathPrefix: "/v2/pods", Status: 500, Times: -1})
	for range 3 {
		if resp, body := e.get(t, "/v1/pods"); resp.StatusCode < 500 {
			t.Fatalf("status %d %s", resp.StatusCode, body)
		}
	}
	if got := e.gw.BreakerState(); got != "open" {
		t.Fatalf("breaker %s after three 500s", got)
	}
}

func TestUpstreamSlowDeadlineNoGoroutineLeak(t *testing.T) {
	e := newSimEnv(t, func(c *config.Config, _ *Options) { c.RequestTimeout = 150 * time.Millisecond })
	// Warm up: connections, pools and lazily started goroutines.
	for range 3 {
		e.get(t, "/v1/pods")
		e.get(t, "/v2/pods")
	}
	http.DefaultClient.CloseIdleConnections()
	base := runtime.NumGoroutine()

	e.sim.AddFault(v2sim.Fault{Method: "GET", PathPrefix: "/v2/pods", Delay: time.Minute, Times: -1})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := "/v1/pods"
			if i%2 == 1 {
				path = "/v2/pods"
			}
			start := time.Now()
			resp := do(t, "GET", e.srv.URL+path, "k1", nil, nil)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusGatewayTimeout {
				t.Errorf("%s: status %d %s, want 504", path, resp.StatusCode, body)
			}
			if path == "/v1/pods" {
				if !strings.Contains(string(body), `"message"`) {
					t.Errorf("v1 504 body %s", body)
				}
			} else if resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Errorf("v2 504 Content-Type %q", resp.Header.Get("Content-Type"))
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("%s took %v: the deadline was not applied", path, d)
			}
		}()
	}
	wg.Wait()
	e.sim.ClearFaults()
	http.DefaultClient.CloseIdleConnections()
	// Every goroutine of the timed-out calls (gateway handlers, upstream
	// connections, the simulator's delayed handlers) ends.
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= base+2 {
			break
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("goroutines: %d before, %d after the timeouts\n%s", base, n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestStreamingPassThroughHasNoDeadline(t *testing.T) {
	srv, rec := newTestGateway(t, func(c *config.Config, _ *Options) { c.RequestTimeout = 100 * time.Millisecond })
	rec.handler = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if !strings.HasSuffix(r.URL.Path, "/logs") {
			// Not a stream: slower than the request timeout.
			select {
			case <-time.After(2 * time.Second):
			case <-r.Context().Done():
				return
			}
		}
		fmt.Fprintln(w, "line 1")
		w.(http.Flusher).Flush()
		select {
		case <-time.After(300 * time.Millisecond): // longer than the request timeout
		case <-r.Context().Done():
			return
		}
		fmt.Fprintln(w, "line 2")
	}
	for _, path := range []string{"/v2/pods/p1/logs", "/v2/serverless/e1/workers/w1/logs"} {
		resp := do(t, "GET", srv.URL+path, "k", nil, nil)
		br := bufio.NewReader(resp.Body)
		l1, _ := br.ReadString('\n')
		l2, err := br.ReadString('\n')
		resp.Body.Close()
		if l1 != "line 1\n" || l2 != "line 2\n" {
			t.Errorf("%s: lines %q %q (%v): the stream was cut", path, l1, l2, err)
		}
	}
	resp := do(t, "GET", srv.URL+"/v2/pods/p1", "k", nil, nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusGatewayTimeout {
		t.Errorf("non-streaming pass-through: status %d, want 504", resp.StatusCode)
	}
	if !streamingRoute(httptest.NewRequest("GET", "/v2/pods/x/logs", nil)) || streamingRoute(httptest.NewRequest("POST", "/v2/pods/x/logs", nil)) ||
		streamingRoute(httptest.NewRequest("GET", "/v2/pods/x/logs/y", nil)) || streamingRoute(httptest.NewRequest("GET", "/v2/pods//logs", nil)) {
		t.Error("streamingRoute misclassifies")
	}
}

func TestUpstreamGarbageJSON(t *testing.T) {
	srv, rec := newTestGateway(t, nil)
	rec.handler = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"pods": [{"id": "p1", "na`)
	}
	for _, path := range []string{"/v1/pods", "/v1/pods/p1"} {
		resp := do(t, "GET", srv.URL+path, "k", nil, nil)
		if resp.StatusCode != http.StatusBadGateway {
			t.Errorf("%s: status %d, want 502", path, resp.StatusCode)
		}
		readMessage(t, resp)
	}
}

const createBody = `{"name":"fault test","imageName":"runpod/pytorch:latest","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`

func TestCreateTimeoutNoRetryNoDuplicate(t *testing.T) {
	e := newSimEnv(t, func(c *config.Config, o *Options) {
		c.RequestTimeout = 300 * time.Millisecond
		o.Resilience.Retries = 2
	})
	podsBefore := countPods(t, e)
	e.sim.AddFault(v2sim.Fault{Method: "POST", PathPrefix: "/v2/pods", Delay: time.Minute, Times: -1})
	resp := do(t, "POST", e.srv.URL+"/v1/pods", "k1", strings.NewReader(createBody), nil)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode < 500 {
		t.Fatalf("status %d %s: a create that timed out is not a success", resp.StatusCode, body)
	}
	v1Message(t, body)
	if n := e.calls("POST", "/v2/pods"); n != 1 {
		t.Fatalf("%d POST /v2/pods for one v1 create, want exactly 1", n)
	}
	e.sim.ClearFaults()
	if n := countPods(t, e); n > podsBefore+1 {
		t.Fatalf("%d pods after one create (was %d)", n, podsBefore)
	}
}

// The reads a create needs first (here the GPU catalog, to rank two
// candidates) use up the deadline: no POST is sent, the client is told that
// nothing was created, and the unsent create is neither counted as a v2
// call nor as a breaker failure.
func TestCreateWhoseReadsUseUpTheDeadlineSaysNothingWasCreated(t *testing.T) {
	var logs logBuffer
	e := newSimEnv(t, func(c *config.Config, o *Options) {
		withLogger(&logs)(c, o)
		c.RequestTimeout = 300 * time.Millisecond
		o.Resilience.Retries = 0
	})
	e.sim.AddFault(v2sim.Fault{Method: "GET", PathPrefix: "/v2/catalog/gpus", Delay: time.Minute, Times: -1})
	body := `{"name":"slow reads","imageName":"runpod/pytorch:latest","gpuTypeIds":["NVIDIA GeForce RTX 4090","NVIDIA A40"]}`
	resp := do(t, "POST", e.srv.URL+"/v1/pods", "k1", strings.NewReader(body), nil)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if n := e.calls("POST", "/v2/pods"); n != 0 {
		t.Fatalf("%d POST /v2/pods sent after the deadline", n)
	}
	if resp.StatusCode != 504 || !strings.Contains(string(b), "nothing was created") {
		t.Fatalf("status %d %s: want an error saying nothing was created", resp.StatusCode, b)
	}
	if strings.Contains(string(b), "may or may not") || strings.Contains(logs.String(), `POST /v2/pods ->`) {
		t.Fatalf("an unsent create reported as in doubt: %s\n%s", b, logs.String())
	}
}

func TestCreate5xxAfterProcessingNoRetry(t *testing.T) {
	e := newSimEnv(t, func(_ *config.Config, o *Options) { o.Resilience.Retries = 2 })
	podsBefore := countPods(t, e)
	e.sim.ResetCalls()
	// v2 creates the pod, then the answer is lost in a 503.
	e.sim.AddFault(v2sim.Fault{Method: "POST", PathPrefix: "/v2/pods", Status: 503, AfterProcess: true})
	resp := do(t, "POST", e.srv.URL+"/v1/pods", "k1", strings.NewReader(createBody), nil)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if n := e.calls("POST", "/v2/pods"); n != 1 {
		t.Fatalf("%d POST /v2/pods for one v1 create, want exactly 1 (status %d %s)", n, resp.StatusCode, body)
	}
	if n := e.calls("GET", "/v2/pods"); n != 1 {
		t.Errorf("%d pod lists read, want exactly the one lookup after the lost reply", n)
	}
	if n := countPods(t, e); n != podsBefore+1 {
		t.Fatalf("%d pods after one create (was %d): duplicate or lost", n, podsBefore)
	}
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("status %d %s: the pod v2 created is found and answered", resp.StatusCode, body)
	}
}

// A create reads no pod list (its cost does not grow with the account), and
// a pod whose create reply was lost is recognised by its v2 creation time
// read on v2's clock (its Date header), however far that clock is from the
// gateway's.
func TestCreateLostReplyAcrossClockSkew(t *testing.T) {
	for _, skew := range []time.Duration{0, 7 * time.Minute, -7 * time.Minute} {
		t.Run("v2 clock off by "+skew.String(), func(t *testing.T) {
			e := newSimEnv(t, func(_ *config.Config, o *Options) { o.Resilience.Retries = 2 })
			e.sim = v2sim.New(v2sim.Options{Seed: true, Now: func() time.Time { return time.Now().Add(skew) }})
			resp := do(t, "POST", e.srv.URL+"/v1/pods", "k1", strings.NewReader(createBody), nil)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated || e.calls("GET", "/v2/pods") != 0 {
				t.Fatalf("plain create: %d %s, %d pod lists read (want 201, none)", resp.StatusCode, body, e.calls("GET", "/v2/pods"))
			}
			before := countPods(t, e)
			e.sim.ResetCalls()
			e.sim.AddFault(v2sim.Fault{Method: "POST", PathPrefix: "/v2/pods", Status: 503, AfterProcess: true})
			resp = do(t, "POST", e.srv.URL+"/v1/pods", "k1", strings.NewReader(strings.Replace(createBody, "fault test", "lost reply", 1)), nil)
			body, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("status %d %s, want 201 with the pod v2 created", resp.StatusCode, body)
			}
			if w := resp.Header.Get("X-Compat-Warning"); !strings.Contains(w, "lost") {
				t.Errorf("X-Compat-Warning %q should say the reply was lost", w)
			}
			if n := e.calls("POST", "/v2/pods"); n != 1 {
				t.Fatalf("%d POST /v2/pods, want exactly 1", n)
			}
			if n := e.calls("GET", "/v2/pods"); n != 1 {
				t.Errorf("%d pod lists read, want exactly the one lookup after the lost reply", n)
			}
			if n := countPods(t, e); n != before+1 {
				t.Fatalf("%d pods, want %d", n, before+1)
			}
		})
	}
}

func countPods(t *testing.T, e *simEnv) int {
	t.Helper()
	resp, body := e.get(t, "/v2/pods")
	if resp.StatusCode != 200 {
		t.Fatalf("GET /v2/pods: %d %s", resp.StatusCode, body)
	}
	var l struct {
		Pods []json.RawMessage `json:"pods"`
	}
	if err := json.Unmarshal(body, &l); err != nil {
		t.Fatal(err)
	}
	return len(l.Pods)
}

// listenerGone returns an address nothing listens on.
func listenerGone(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestUpstreamRefusedIsBadGateway(t *testing.T) {
	gw, err := New(Options{Config: testConfig("http://" + listenerGone(t))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	defer srv.Close()
	resp := do(t, "GET", srv.URL+"/v1/pods", "k", nil, nil)
	if resp.StatusCode != http.StatusBadGateway {
		t.Fatalf("status %d, want 502", resp.StatusCode)
	}
	readMessage(t, resp)
}
