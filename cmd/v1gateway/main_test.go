package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/internal/testredis"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/usage"
	"github.com/v1gateway/v1gateway/v2sim"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func noEnv(string) string { return "" }

// TestDemo starts the demo as a user would and runs the curl line it prints.
func TestDemo(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	ready := make(chan [2]string, 1)
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"-demo", "-listen", "127.0.0.1:0", "-admin-listen", "127.0.0.1:0"}, noEnv, &out, &errOut, ready)
	}()
	var addrs [2]string
	select {
	case addrs = <-ready:
	case code := <-done:
		t.Fatalf("exited with %d: %s %s", code, out.String(), errOut.String())
	case <-time.After(20 * time.Second):
		t.Fatal("demo did not start")
	}

	lines := regexp.MustCompile(`curl -s -H 'Authorization: Bearer ([^']+)' (http://\S+)`).FindAllStringSubmatch(out.String(), -1)
	if len(lines) != 2 {
		t.Fatalf("want two curl lines (v1 and v2) in the demo's output:\n%s", out.String())
	}
	get := func(m []string) []byte {
		req, _ := http.NewRequest("GET", m[2], nil)
		req.Header.Set("Authorization", "Bearer "+m[1])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("printed curl %s: status %d: %s", m[2], resp.StatusCode, body)
		}
		return body
	}
	m := lines[0]
	var v1pods []struct {
		ID            string `json:"id"`
		DesiredStatus string `json:"desiredStatus"`
	}
	if body := get(lines[0]); json.Unmarshal(body, &v1pods) != nil || len(v1pods) == 0 || v1pods[0].DesiredStatus == "" {
		t.Fatalf("demo v1 pod list is not a bare array of v1 pods: %s", body)
	}
	var list struct {
		Pods []json.RawMessage `json:"pods"`
	}
	if body := get(lines[1]); json.Unmarshal(body, &list) != nil || len(list.Pods) != len(v1pods) {
		t.Fatalf("demo v2 pod list %s", body)
	}

	resp, err := http.Get("http://" + addrs[1] + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit code %d after SIGTERM-equivalent: %s", code, errOut.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("did not stop")
	}
	if strings.Contains(out.String(), m[1]+`"`) {
		t.Error("the API key appears in the logs")
	}
}

func TestBadConfigExitsWithOneLine(t *testing.T) {
	var out, errOut syncBuffer
	code := run(context.Background(), []string{"-rate-limit", "-5"}, noEnv, &out, &errOut, nil)
	if code != 2 {
		t.Fatalf("exit code %d, want 2", code)
	}
	msg := strings.TrimSpace(errOut.String())
	if strings.Count(msg, "\n") != 0 || !strings.Contains(msg, "rate-limit") {
		t.Fatalf("want one line naming the setting, got %q", msg)
	}
}

func TestHelp(t *testing.T) {
	var out, errOut syncBuffer
	if code := run(context.Background(), []string{"-h"}, noEnv, &out, &errOut, nil); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	for _, want := range []string{"-listen", "V1GW_UPSTREAM_URL", "-demo"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage lacks %s:\n%s", want, out.String())
		}
	}
}

// gateway is run() in a goroutine.
type gateway struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when run has returned, with code set
	code   int
	out    *syncBuffer
	errOut *syncBuffer
	addr   string // public host:port
	admin  string // admin host:port
}

func startGateway(t *testing.T, args []string, env map[string]string) *gateway {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	g := &gateway{cancel: cancel, done: make(chan struct{}), out: &syncBuffer{}, errOut: &syncBuffer{}}
	ready := make(chan [2]string, 1)
	args = append([]string{"-listen", "127.0.0.1:0", "-admin-listen", "127.0.0.1:0"}, args...)
	go func() {
		defer close(g.done)
		g.code = run(ctx, args, func(k string) string { return env[k] }, g.out, g.errOut, ready)
	}()
	select {
	case a := <-ready:
		g.addr, g.admin = a[0], a[1]
	case <-g.done:
		t.Fatalf("exited with %d: %s %s", g.code, g.out.String(), g.errOut.String())
	case <-time.After(20 * time.Second):
		t.Fatal("gateway did not start")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case <-g.done:
		case <-time.After(20 * time.Second):
		}
	})
	return g
}

func (g *gateway) stop(t *testing.T) int {
	t.Helper()
	g.cancel()
	select {
	case <-g.done:
		return g.code
	case <-time.After(20 * time.Second):
		t.Fatal("did not stop")
		return -1
	}
}

func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestSIGTERMUnderLoad cancels run's context (what SIGTERM does) while
// requests are in flight upstream: /readyz turns 503 at once, new
// connections are refused, every in-flight request completes with 200, and
// run returns 0.
func TestSIGTERMUnderLoad(t *testing.T) {
	sim := v2sim.New(v2sim.Options{Seed: true})
	gate := make(chan struct{})
	var arrived atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "GET" && r.URL.Path == "/v2/pods" {
			arrived.Add(1)
			<-gate // held in flight until the drain has begun
		}
		sim.ServeHTTP(w, r)
	}))
	defer up.Close()
	g := startGateway(t, []string{"-upstream", up.URL, "-rate-limit", "0", "-request-timeout", "15s", "-drain-timeout", "20s"}, nil)

	const n = 16
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	var wg sync.WaitGroup
	statuses := make([]int, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := "/v1/pods"
			if i%4 == 3 {
				path = "/v2/pods"
			}
			req, _ := http.NewRequest("GET", "http://"+g.addr+path, nil)
			req.Header.Set("Authorization", "Bearer load-key")
			resp, err := client.Do(req)
			if err != nil {
				errs[i] = err
				return
			}
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			statuses[i], errs[i] = resp.StatusCode, err
		}()
	}
	poll(t, "every request to reach the upstream", func() bool { return arrived.Load() == n })

	g.cancel() // SIGTERM
	poll(t, "/readyz to answer 503", func() bool {
		resp, err := http.Get("http://" + g.admin + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 503
	})
	poll(t, "the public listener to close", func() bool {
		c, err := net.DialTimeout("tcp", g.addr, time.Second)
		if err != nil {
			return true
		}
		c.Close()
		return false
	})
	select {
	case <-g.done:
		t.Fatalf("run returned %d with requests in flight", g.code)
	default:
	}

	close(gate)
	wg.Wait()
	for i := range n {
		if errs[i] != nil || statuses[i] != 200 {
			t.Errorf("request %d dropped: status %d, %v", i, statuses[i], errs[i])
		}
	}
	select {
	case <-g.done:
		if g.code != 0 {
			t.Fatalf("exit code %d: %s", g.code, g.errOut.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("did not stop after the drain")
	}
	if c := strings.Count(g.out.String(), `"message":"request"`); c != n {
		t.Errorf("%d access lines for %d requests", c, n)
	}
	if !strings.Contains(g.out.String(), `"message":"stopped"`) {
		t.Error("no 'stopped' line")
	}
}

// TestAdminPort checks /metrics, /usage, /readyz and /healthz of a running
// gateway, and that nothing logs the token.
func TestAdminPort(t *testing.T) {
	g := startGateway(t, []string{"-demo"}, map[string]string{"V1GW_KEY_HASH_SECRET": "s"})
	const token = "admin-port-secret-token"
	for _, path := range []string{"/v1/pods", "/v1/pods/nope", "/v2/pods", "/v1/nope"} {
		req, _ := http.NewRequest("GET", "http://"+g.addr+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	get := func(path string) (int, string) {
		resp, err := http.Get("http://" + g.admin + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, `v1gw_requests_total{operation="ListPods",status="200"} 1`) {
		t.Errorf("/metrics: %d\n%s", code, body)
	}
	code, body := get("/usage")
	var rep struct {
		Summary struct {
			TotalV1Calls int `json:"total_v1_calls"`
		} `json:"summary"`
		Store string `json:"store"`
	}
	if err := json.Unmarshal([]byte(body), &rep); code != 200 || err != nil || rep.Summary.TotalV1Calls != 2 || rep.Store != "memory" {
		t.Errorf("/usage: %d %v\n%s", code, err, body)
	}
	if code, body := get("/readyz"); code != 200 || !strings.Contains(body, `"upstream_breaker": "closed"`) {
		t.Errorf("/readyz: %d %s", code, body)
	}
	if code, _ := get("/healthz"); code != 200 {
		t.Errorf("/healthz: %d", code)
	}
	if code := g.stop(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(g.out.String(), token) || strings.Contains(g.errOut.String(), token) {
		t.Error("the token appears in the output")
	}
}

// TestUsageWrittenToRedisOnShutdown: with V1GW_REDIS_URL, the usage counts
// reach Redis (here only through the final write on shutdown: the periodic
// one is an hour away), so that a report from any replica includes them.
func TestUsageWrittenToRedisOnShutdown(t *testing.T) {
	// A throwaway server, never the shared one: the binary writes under
	// the production prefix (v1gw:usage:), whose keys have no TTL.
	url := testredis.Start(t).URL()
	sim := httptest.NewServer(v2sim.New(v2sim.Options{Seed: true}))
	defer sim.Close()
	var b [8]byte
	_, _ = rand.Read(b[:])
	secret := hex.EncodeToString(b[:]) // a fresh key id: nothing to clean up
	g := startGateway(t, []string{"-upstream", sim.URL, "-redis", url, "-usage-flush-interval", "1h"},
		map[string]string{"V1GW_KEY_HASH_SECRET": secret})
	for range 3 {
		req, _ := http.NewRequest("GET", "http://"+g.addr+"/v1/pods", nil)
		req.Header.Set("Authorization", "Bearer usage-key")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if code := g.stop(t); code != 0 {
		t.Fatalf("exit %d: %s", code, g.errOut.String())
	}
	client, err := usage.NewRedisClient(url)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	es, err := usage.NewRedisStore(client, "").Entries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	keyID := limiter.KeyID([]byte(secret), "usage-key")
	for _, e := range es {
		if e.KeyID == keyID && e.Op == "ListPods" && e.Count == 3 {
			return
		}
	}
	t.Fatalf("the shutdown did not write the usage counts of %s to Redis", keyID)
}

// TestHealthcheckFlag runs `v1gateway -healthcheck` against a running
// gateway (healthy: 0) and against a port nothing listens on (1).
func TestHealthcheckFlag(t *testing.T) {
	g := startGateway(t, []string{"-demo"}, map[string]string{"V1GW_KEY_HASH_SECRET": "s"})
	var out syncBuffer
	if code := run(context.Background(), []string{"-healthcheck", "-admin-listen", g.admin}, noEnv, &out, &out, nil); code != 0 {
		t.Fatalf("healthy gateway: exit %d: %s", code, out.String())
	}
	out = syncBuffer{}
	if code := run(context.Background(), []string{"-admin-listen", "127.0.0.1:1", "-healthcheck"}, noEnv, &out, &out, nil); code != 1 {
		t.Fatalf("nothing listening: exit %d, want 1: %s", code, out.String())
	}
}

// TestMalformedRequestsAnswerJSON: the public server answers requests
// net/http refuses itself (a bad percent-escape, headers over
// proxy.MaxHeaderBytes) as v1 errors, {"message"}, not net/http's plain text.
func TestMalformedRequestsAnswerJSON(t *testing.T) {
	g := startGateway(t, []string{"-demo"}, map[string]string{"V1GW_KEY_HASH_SECRET": "s"})
	for _, tc := range []struct {
		name, request string
		status        int
		want          string
	}{
		{"bad escape", "GET /v1/pods/%zz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\n\r\n", 400, `invalid percent-escape "%zz"`},
		{"huge header", "GET /v1/pods HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("b", 70<<10) + "\r\n\r\n", 431, "the limit is 65536 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", g.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(10 * time.Second))
			go func() { _, _ = io.WriteString(c, tc.request) }()
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			var m struct{ Message string }
			if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "application/json" ||
				json.Unmarshal(body, &m) != nil || !strings.Contains(m.Message, tc.want) {
				t.Errorf("%d %q %s; want %d and a message saying %q", resp.StatusCode, resp.Header.Get("Content-Type"), body, tc.status, tc.want)
			}
		})
	}
}

func TestTheFactStoreTakesFactsTTL(t *testing.T) {
	cfg, err := config.Load([]string{"-facts-ttl", "720h"}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	mo, ro := factStoreOptions(cfg)
	if mo.TTL != 720*time.Hour || ro.TTL != 720*time.Hour {
		t.Errorf("memory TTL %v, Redis TTL %v; want 720h", mo.TTL, ro.TTL)
	}
}
