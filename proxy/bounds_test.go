package proxy

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/translate"
)

// Bounds under faults (operator guide, "Sizing"): each test reproduces one
// fault that used to hold memory or connections without bound.

// hungUpstream accepts requests and answers none until the test ends.
func hungUpstream(t *testing.T) (*httptest.Server, *atomic.Int64, *atomic.Int64) {
	up, inFlight, conns, _ := hungUpstreamWithRelease(t)
	return up, inFlight, conns
}

// hungUpstreamWithRelease also returns a function that lets every waiting
// request finish (idempotent).
func hungUpstreamWithRelease(t *testing.T) (*httptest.Server, *atomic.Int64, *atomic.Int64, func()) {
	t.Helper()
	release := make(chan struct{})
	var once sync.Once
	releaseAll := func() { once.Do(func() { close(release) }) }
	var inFlight, conns atomic.Int64
	up := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inFlight.Add(1)
		defer inFlight.Add(-1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	up.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			conns.Add(1)
		case http.StateClosed, http.StateHijacked:
			conns.Add(-1)
		}
	}
	up.Start()
	t.Cleanup(func() { releaseAll(); up.Close() })
	return up, &inFlight, &conns, releaseAll
}

func gatewayFor(t *testing.T, upstream string, mod func(*config.Config)) *httptest.Server {
	t.Helper()
	cfg := testConfig(upstream)
	mod(cfg)
	gw, err := New(Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	t.Cleanup(srv.Close)
	return srv
}

// A hung upstream is a timeout after upstream_header_timeout (not the
// request deadline), each one a breaker failure, so the breaker opens
// after breaker_failures of them and later requests are answered at once.
func TestHungUpstreamTimesOutOnHeadersAndOpensTheBreaker(t *testing.T) {
	up, _, _ := hungUpstream(t)
	srv := gatewayFor(t, up.URL, func(c *config.Config) {
		c.RequestTimeout = 10 * time.Second
		c.UpstreamHeaderTimeout = 150 * time.Millisecond
		c.UpstreamRetries = 0
		c.BreakerFailures = 2
		c.BreakerOpenFor = time.Minute
	})
	for i, want := range []int{504, 504, 503} {
		start := time.Now()
		resp := do(t, "GET", srv.URL+"/v1/pods", "k1", nil, nil)
		msg := readMessage(t, resp)
		if resp.StatusCode != want {
			t.Fatalf("call %d: %d %q, want %d", i, resp.StatusCode, msg, want)
		}
		if el := time.Since(start); el > 3*time.Second {
			t.Fatalf("call %d took %v: the header timeout did not apply", i, el)
		}
	}
}

// Past max_in_flight, a request is answered 503 with Retry-After at once.
func TestLoadSheddingPastMaxInFlight(t *testing.T) {
	up, inFlight, _ := hungUpstream(t)
	srv := gatewayFor(t, up.URL, func(c *config.Config) {
		c.MaxInFlight = 2
		c.UpstreamHeaderTimeout = 5 * time.Second
	})
	var wg sync.WaitGroup
	getInBackground(&wg, srv.URL+"/v2/pods", 2)
	waitUntil(t, 3*time.Second, func() bool { return inFlight.Load() == 2 })
	for _, path := range []string{"/v1/pods", "/v2/pods"} {
		start := time.Now()
		resp := do(t, "GET", srv.URL+path, "k1", nil, nil)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" {
			t.Fatalf("%s past max_in_flight: %d Retry-After %q, want 503 with Retry-After 1", path, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		resp.Body.Close()
		if el := time.Since(start); el > time.Second {
			t.Fatalf("%s: shed after %v, want at once", path, el)
		}
	}
	up.CloseClientConnections()
	wg.Wait()
}

// upstream_max_conns caps the connections to v2 however many requests wait:
// with 12 requests waiting on a hung v2, exactly 3 reach it.
func TestUpstreamConnectionsAreCapped(t *testing.T) {
	up, inFlight, conns, release := hungUpstreamWithRelease(t)
	srv := gatewayFor(t, up.URL, func(c *config.Config) {
		c.UpstreamMaxConns = 3
		c.UpstreamHeaderTimeout = 4 * time.Second
		c.UpstreamRetries = 0
		c.BreakerFailures = 100
	})
	var wg sync.WaitGroup
	getInBackground(&wg, srv.URL+"/v2/pods", 12)
	waitUntil(t, 3*time.Second, func() bool { return inFlight.Load() == 3 })
	time.Sleep(200 * time.Millisecond) // would a fourth connection come?
	if n, c := inFlight.Load(), conns.Load(); n != 3 || c != 3 {
		t.Fatalf("%d requests on %d connections reached v2, want 3 on 3", n, c)
	}
	release()
	wg.Wait()
}

// A body trickled byte by byte is cut off after body_read_timeout with a
// 408, on translated routes and the pass-through alike, and it is not a
// breaker failure (the client is slow, not v2).
func TestSlowRequestBodyIsCutOff(t *testing.T) {
	for _, path := range []string{"/v1/pods", "/v2/pods"} {
		t.Run(path, func(t *testing.T) {
			srv, rec := newTestGateway(t, func(c *config.Config, _ *Options) {
				c.BodyReadTimeout = 200 * time.Millisecond
				c.BreakerFailures = 1
			})
			conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_, _ = conn.Write([]byte("POST " + path + " HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer k1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"))
			done := make(chan struct{})
			go func() { // trickle, as the abusive client did
				for {
					select {
					case <-done:
						return
					case <-time.After(50 * time.Millisecond):
						if _, err := conn.Write([]byte(" ")); err != nil {
							return
						}
					}
				}
			}()
			defer close(done)
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			start := time.Now()
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer to a trickled body: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestTimeout {
				t.Fatalf("status %d, want 408", resp.StatusCode)
			}
			if el := time.Since(start); el > 2*time.Second {
				t.Fatalf("cut off after %v, want about 200ms", el)
			}
			if path == "/v1/pods" && rec.count() != 0 {
				t.Fatalf("a v1 request whose body never arrived reached v2 %d times", rec.count())
			}
			// The breaker (1 failure opens it) is still closed: the next
			// request reaches v2.
			resp2 := do(t, "GET", srv.URL+"/v2/pods", "k1", nil, nil)
			resp2.Body.Close()
			if resp2.StatusCode != http.StatusOK {
				t.Fatalf("after a slow client, GET /v2/pods = %d: the breaker blamed v2", resp2.StatusCode)
			}
		})
	}
}

func waitUntil(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The drain must cover a request and its lost-reply lookup: config's
// LookupGrace is translate's LostReplyGrace.
func TestDrainCoversTheLostReplyLookup(t *testing.T) {
	if config.LookupGrace != translate.LostReplyGrace {
		t.Fatalf("config.LookupGrace %v != translate.LostReplyGrace %v", config.LookupGrace, translate.LostReplyGrace)
	}
	d := config.Default()
	if d.DrainTimeout < d.RequestTimeout+translate.LostReplyGrace {
		t.Fatalf("default drain %v < request timeout %v + lookup %v", d.DrainTimeout, d.RequestTimeout, translate.LostReplyGrace)
	}
}

// A request the drain cuts off is logged with what is known of it and
// still counted in /usage.
func TestUnfinishedRequestsAreLoggedAndCounted(t *testing.T) {
	up, inFlight, _, release := hungUpstreamWithRelease(t)
	defer release()
	var logBuf logBuffer
	log := zerolog.New(&logBuf)
	cfg := testConfig(up.URL)
	gw, err := New(Options{Config: cfg, Logger: &log})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	t.Cleanup(srv.Close)
	go func() {
		req, _ := http.NewRequest("POST", srv.URL+"/v1/pods", strings.NewReader(`{"imageName":"img","gpuTypeIds":["NVIDIA A40"]}`))
		req.Header.Set("Authorization", "Bearer k1")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	waitUntil(t, 3*time.Second, func() bool { return inFlight.Load() == 1 })
	if n := gw.LogUnfinished(); n != 1 {
		t.Fatalf("LogUnfinished = %d, want 1", n)
	}
	line := logBuf.String()
	for _, want := range []string{`"operation":"CreatePod"`, `"key_id":"`, `"method":"POST"`, "cut off by the shutdown drain"} {
		if !strings.Contains(line, want) {
			t.Errorf("log %q lacks %s", line, want)
		}
	}
	if strings.Contains(line, "k1") && !strings.Contains(line, `"key_id":"k1`) {
		// key ids are HMACs: the token itself must never appear
		t.Errorf("log carries the API key: %s", line)
	}
	if s := gw.Usage().Stats(); s.Pending == 0 {
		t.Errorf("the cut-off request was not counted for /usage: %+v", s)
	}
}

// With admin_token set, /usage needs it; /healthz and /readyz do not.
func TestAdminTokenGuardsUsage(t *testing.T) {
	cfg := testConfig("http://127.0.0.1:1")
	cfg.AdminToken = "s3cret"
	gw, err := New(Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	admin := httptest.NewServer(NewAdmin(gw))
	t.Cleanup(admin.Close)
	for _, tc := range []struct {
		path, token string
		want        int
	}{
		{"/usage", "", 401},
		{"/usage", "wrong", 401},
		{"/usage", "s3cret", 200},
		{"/healthz", "", 200},
	} {
		resp := do(t, "GET", admin.URL+tc.path, tc.token, nil, nil)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s with token %q: %d, want %d", tc.path, tc.token, resp.StatusCode, tc.want)
		}
	}
}

// Forty bodies trickled at once on the pass-through: every one is answered
// 408. (net/http cancels a request whose body read fails, and the
// transport may report that cancellation instead of the read error: the
// answer once went missing for a quarter of them — found by make chaos.)
func TestManySlowBodiesOnThePassThroughAreAllAnswered408(t *testing.T) {
	srv, _ := newTestGateway(t, func(c *config.Config, _ *Options) {
		c.BodyReadTimeout = 300 * time.Millisecond
	})
	var wg sync.WaitGroup
	var bad atomic.Int64
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
			if err != nil {
				bad.Add(1)
				return
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /v2/pods HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer k\r\nContent-Length: 1000\r\n\r\n{")
			stop := make(chan struct{})
			defer close(stop)
			go func() {
				for {
					select {
					case <-stop:
						return
					case <-time.After(50 * time.Millisecond):
						if _, err := conn.Write([]byte(" ")); err != nil {
							return
						}
					}
				}
			}()
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil || resp.StatusCode != 408 {
				bad.Add(1)
				t.Logf("%d: %v %v", i, err, resp)
			}
		}()
	}
	wg.Wait()
	if bad.Load() > 0 {
		t.Fatalf("%d of 40 trickled bodies were not answered 408", bad.Load())
	}
}

// /usage counts only keys v2 accepted at least once: tokens v2 rejects
// (401/403) leave no entry, however many there are, and the gateway's own
// refusals count only for a key already accepted.
func TestUsageCountsOnlyKeysV2Accepted(t *testing.T) {
	srv, rec := newTestGateway(t, nil)
	rec.handler = func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good" {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(401)
			_, _ = w.Write([]byte(`{"title":"Unauthorized","status":401,"detail":"invalid key"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"pods":[]}`))
	}
	gw := srv.Config.Handler.(*Gateway)
	for i := range 300 {
		resp := do(t, "GET", srv.URL+"/v1/pods", fmt.Sprintf("junk-%d", i), nil, nil)
		resp.Body.Close()
	}
	// A junk key's request the gateway refuses itself (no v2 call).
	resp := do(t, "POST", srv.URL+"/v1/pods/p1/reset", "junk-1", nil, nil)
	resp.Body.Close()
	// The good key: refused by the gateway before v2 ever saw it (not
	// counted yet), then accepted by v2, then refused by the gateway again.
	for _, path := range []string{"/v1/pods/p1/reset", "/v1/pods", "/v1/pods/p1/reset"} {
		method := "POST"
		if path == "/v1/pods" {
			method = "GET"
		}
		resp := do(t, method, srv.URL+path, "good", nil, nil)
		resp.Body.Close()
	}
	es, err := gw.Usage().Entries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	good := limiter.KeyID([]byte("test-secret"), "good")
	got := map[string]int64{}
	for _, e := range es {
		if e.KeyID != good {
			t.Fatalf("a key v2 rejected is in /usage: %+v", e)
		}
		if e.Code == "" {
			got[e.Op] += e.Count
		}
	}
	if got["ListPods"] != 1 || got["ResetPod"] != 1 {
		t.Fatalf("good key counted %v, want ListPods 1 and ResetPod 1 (the refusal before any accepted call is not counted)", got)
	}
}

// getInBackground sends n GETs with a valid key at once, each in its own
// goroutine, answers discarded; wg counts them.
func getInBackground(wg *sync.WaitGroup, url string, n int) {
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("GET", url, nil)
			req.Header.Set("Authorization", "Bearer k1")
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
}
