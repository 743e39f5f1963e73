//go:build chaos

// Package chaos runs the gateway's fault scenarios end to end: the real
// binary as its own process, a real redis-server that is frozen (SIGSTOP),
// stopped and restarted, and upstreams on loopback that hang, trickle or
// answer slowly. It prints one table, scenario → expected → observed, and
// fails when a line does not hold.
//
//	make chaos        # go test -tags chaos -count=1 -v ./chaos/
//
// It takes about a minute and is not part of CI; the fast versions of the
// same faults (one request each, in-process) run in make test:
// proxy/bounds_test.go, limiter/redis_test.go, proxy/faults_test.go.
package chaos

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/internal/testredis"
	"github.com/v1gateway/v1gateway/v2sim"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	table     []row
	tableMu   sync.Mutex
)

type row struct {
	scenario, expected, observed string
	ok                           bool
}

func record(t *testing.T, scenario, expected, observed string, ok bool) {
	t.Helper()
	tableMu.Lock()
	table = append(table, row{scenario, expected, observed, ok})
	tableMu.Unlock()
	if !ok {
		t.Errorf("%s: expected %s, observed %s", scenario, expected, observed)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	var b strings.Builder
	b.WriteString("\n| scenario | expected | observed | holds |\n|---|---|---|---|\n")
	for _, r := range table {
		mark := "yes"
		if !r.ok {
			mark = "**NO**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.scenario, r.expected, r.observed, mark)
	}
	fmt.Print(b.String())
	os.Exit(code)
}

func gatewayBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "v1gw-chaos-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "v1gateway")
		out, err := exec.Command("go", "build", "-o", binPath, "../cmd/v1gateway").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// proc is the gateway running as its own process.
type proc struct {
	cmd         *exec.Cmd
	addr, admin string
	logs        *syncBuffer
	exited      chan struct{}
	code        int
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startGateway runs the binary with args (plus listen addresses and a fixed
// key-hash secret) and waits until its admin port answers /healthz.
func startGateway(t *testing.T, args ...string) *proc {
	t.Helper()
	p := &proc{addr: freeAddr(t), admin: freeAddr(t), logs: &syncBuffer{}, exited: make(chan struct{})}
	args = append([]string{"-listen", p.addr, "-admin-listen", p.admin, "-log-level", "info"}, args...)
	p.cmd = exec.Command(gatewayBinary(t), args...)
	p.cmd.Env = append(os.Environ(), "V1GW_KEY_HASH_SECRET=chaos-secret")
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = p.cmd.Wait()
		p.code = p.cmd.ProcessState.ExitCode()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + p.admin + "/healthz")
		if err == nil {
			resp.Body.Close()
			return p
		}
		select {
		case <-p.exited:
			t.Fatalf("gateway exited with %d:\n%s", p.code, p.logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("gateway did not start:\n%s", p.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// peakRSS is the process's peak resident set (VmHWM), in MiB.
func (p *proc) peakRSS(t *testing.T) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		t.Fatalf("read /proc: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			kb, _ := strconv.Atoi(strings.Fields(line)[1])
			return float64(kb) / 1024
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

func get(url, token string, timeout time.Duration) (int, http.Header, time.Duration, error) {
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	c := &http.Client{Timeout: timeout}
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, time.Since(start), err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header, time.Since(start), nil
}

// hung is an upstream that accepts and never answers; it counts the
// connections open to it and their peak.
type hung struct {
	*httptest.Server
	conns, peak atomic.Int64
	release     chan struct{}
}

func newHung(t *testing.T) *hung {
	h := &hung{release: make(chan struct{})}
	h.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-h.release:
		case <-r.Context().Done():
		}
	}))
	h.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			n := h.conns.Add(1)
			for {
				p := h.peak.Load()
				if n <= p || h.peak.CompareAndSwap(p, n) {
					break
				}
			}
		case http.StateClosed, http.StateHijacked:
			h.conns.Add(-1)
		}
	}
	h.Start()
	t.Cleanup(func() { close(h.release); h.Close() })
	return h
}

// load sends rate requests per second for d through fn, and waits for all.
func load(rate int, d time.Duration, fn func(i int)) {
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	end := time.Now().Add(d)
	for i := 0; time.Now().Before(end); i++ {
		<-tick.C
		wg.Add(1)
		go func() { defer wg.Done(); fn(i) }()
	}
	wg.Wait()
}

// A v2 that accepts connections and never answers, under 200 requests a
// second: header timeouts open the breaker within seconds (every request
// started after that is answered 503 at once) and memory stays flat.
func TestHungUpstreamUnderLoad(t *testing.T) {
	up := newHung(t)
	g := startGateway(t, "-upstream", up.URL, "-rate-limit", "0", "-upstream-header-timeout", "1s",
		"-request-timeout", "5s", "-upstream-retries", "0", "-breaker-open-for", "60s")
	begin := time.Now()
	var late, lateFast, slow atomic.Int64
	var n atomic.Int64
	load(200, 5*time.Second, func(i int) {
		started := time.Since(begin)
		code, _, lat, err := get("http://"+g.addr+"/v1/pods", "k", 20*time.Second)
		n.Add(1)
		if lat > 6*time.Second {
			slow.Add(1)
		}
		if started > 2*time.Second {
			late.Add(1)
			if err == nil && code == 503 && lat < time.Second {
				lateFast.Add(1)
			}
		}
	})
	rss := g.peakRSS(t)
	record(t, "hung v2, 200 req/s for 5 s (upstream_header_timeout 1 s)", "every request started after 2 s answered 503 at once (< 1 s); none later than the request deadline",
		fmt.Sprintf("%d/%d after 2 s fast 503; %d of %d later than 6 s", lateFast.Load(), late.Load(), slow.Load(), n.Load()),
		late.Load() > 0 && lateFast.Load() == late.Load() && slow.Load() == 0)
	record(t, "hung v2: gateway peak RSS", "≤ 80 MiB", fmt.Sprintf("%.0f MiB", rss), rss <= 80)
}

// 200 requests wait on a hung v2 with upstream_max_conns 32: exactly 32
// connections reach it.
func TestUpstreamConnectionCap(t *testing.T) {
	up := newHung(t)
	g := startGateway(t, "-upstream", up.URL, "-rate-limit", "0", "-upstream-header-timeout", "8s",
		"-request-timeout", "10s", "-upstream-retries", "0", "-upstream-max-conns", "32")
	var wg sync.WaitGroup
	for range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, _, _ = get("http://"+g.addr+"/v2/pods", "k", 20*time.Second)
		}()
	}
	time.Sleep(3 * time.Second)
	// Before the header timeout: later, closed connections are replaced
	// faster than the upstream notices the closes, which no cap can show.
	open, peak := up.conns.Load(), up.peak.Load()
	wg.Wait()
	record(t, "200 requests waiting on a hung v2, upstream_max_conns 32", "32 connections to v2, never more", fmt.Sprintf("%d open, peak %d", open, peak),
		open == 32 && peak == 32)
}

// Fifty clients trickle their request bodies a byte at a time: each is
// answered 408 and closed after body_read_timeout.
func TestTrickledBodies(t *testing.T) {
	sim := httptest.NewServer(v2sim.New(v2sim.Options{Seed: true}))
	t.Cleanup(sim.Close)
	g := startGateway(t, "-upstream", sim.URL, "-rate-limit", "0", "-body-read-timeout", "2s")
	var wg sync.WaitGroup
	var got408, closedLate atomic.Int64
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", g.addr)
			if err != nil {
				return
			}
			defer conn.Close()
			path := "/v1/pods"
			if i%2 == 1 {
				path = "/v2/pods"
			}
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer k\r\nContent-Length: 1000\r\n\r\n{", path)
			stop := make(chan struct{})
			defer close(stop)
			go func() {
				for {
					select {
					case <-stop:
						return
					case <-time.After(200 * time.Millisecond):
						if _, err := conn.Write([]byte(" ")); err != nil {
							return
						}
					}
				}
			}()
			start := time.Now()
			_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == 408 {
					got408.Add(1)
				}
			}
			if el := time.Since(start); el > 5*time.Second {
				closedLate.Add(1)
				code := 0
				if resp != nil {
					code = resp.StatusCode
				}
				t.Logf("late: %s %d %v err=%v", path, code, el, err)
			}
		}()
	}
	wg.Wait()
	record(t, "50 trickled request bodies (body_read_timeout 2 s)", "50 answered 408 within 5 s", fmt.Sprintf("%d answered 408, %d later than 5 s", got408.Load(), closedLate.Load()),
		got408.Load() == 50 && closedLate.Load() == 0)
}

// Thousands of distinct long tokens (no authentication needed to send
// them) do not grow memory: tokens are cached by a fixed-size hash, and a
// token past 512 bytes is refused before anything.
func TestTokenFlood(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(401)
		_, _ = w.Write([]byte(`{"title":"Unauthorized","status":401,"detail":"invalid key"}`))
	}))
	t.Cleanup(up.Close)
	g := startGateway(t, "-upstream", up.URL, "-rate-limit", "60")
	_, _, _, _ = get("http://"+g.addr+"/v2/pods", "warm-up", 5*time.Second)
	before := g.peakRSS(t)
	var sem = make(chan struct{}, 32)
	var wg sync.WaitGroup
	var over401 atomic.Int64
	for i := range 4096 {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			tok := fmt.Sprintf("%05d", i) + strings.Repeat("t", 500)
			_, _, _, _ = get("http://"+g.addr+"/v2/pods", tok, 5*time.Second)
		}()
	}
	for i := range 200 {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			tok := fmt.Sprintf("%05d", i) + strings.Repeat("T", 60<<10)
			if code, _, _, err := get("http://"+g.addr+"/v2/pods", tok, 5*time.Second); err == nil && code == 401 {
				over401.Add(1)
			}
		}()
	}
	wg.Wait()
	grew := g.peakRSS(t) - before
	record(t, "4,096 tokens of 505 bytes + 200 of 60 KiB", "peak RSS grows ≤ 25 MiB; 60 KiB tokens refused 401", fmt.Sprintf("+%.1f MiB; %d/200 refused", grew, over401.Load()), grew <= 25 && over401.Load() == 200)
}

// Redis frozen for 3 s under fail-open: no request fails because of it.
func TestRedisFrozenFailOpen(t *testing.T) {
	srv := testredis.Start(t)
	sim := httptest.NewServer(v2sim.New(v2sim.Options{Seed: true}))
	t.Cleanup(sim.Close)
	g := startGateway(t, "-upstream", sim.URL, "-redis", srv.URL(), "-rate-limit", "100000")
	var n, failed atomic.Int64
	go func() {
		time.Sleep(time.Second)
		srv.Freeze()
		time.Sleep(3 * time.Second)
		srv.Thaw()
	}()
	load(50, 6*time.Second, func(int) {
		code, _, _, err := get("http://"+g.addr+"/v1/pods", "k", 10*time.Second)
		n.Add(1)
		if err != nil || code != 200 {
			failed.Add(1)
		}
	})
	record(t, "Redis frozen (SIGSTOP) 3 s, limiter_fail=open, 50 req/s", "0 failed requests", fmt.Sprintf("%d failed of %d", failed.Load(), n.Load()), failed.Load() == 0)
}

// Redis down at start with limiter_fail=closed: /readyz says so before any
// request, and turns ready when Redis comes up, without traffic.
func TestRedisDownAtStartFailClosed(t *testing.T) {
	srv := testredis.Start(t)
	srv.Stop()
	sim := httptest.NewServer(v2sim.New(v2sim.Options{Seed: true}))
	t.Cleanup(sim.Close)
	g := startGateway(t, "-upstream", sim.URL, "-redis", srv.URL(), "-limiter-fail", "closed")
	code, _, _, _ := get("http://"+g.admin+"/readyz", "", 5*time.Second)
	srv.Restart()
	start := time.Now()
	var after int
	for time.Since(start) < 5*time.Second {
		if after, _, _, _ = get("http://"+g.admin+"/readyz", "", 5*time.Second); after == 200 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	logged := strings.Count(g.logs.String(), "unreachable at start")
	record(t, "Redis down at start, limiter_fail=closed", "/readyz 503 before any request, logged once; 200 within 3 s of Redis starting",
		fmt.Sprintf("/readyz %d, logged %d×; then %d after %v", code, logged, after, time.Since(start).Round(100*time.Millisecond)),
		code == 503 && logged == 1 && after == 200 && time.Since(start) <= 3*time.Second)
}

// SIGTERM while a create waits 3 s for v2: the default drain lets it
// finish; the client gets its pod, the access log has the line.
func TestSIGTERMDuringSlowCreate(t *testing.T) {
	sim := v2sim.New(v2sim.Options{Seed: true})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && r.URL.Path == "/v2/pods" {
			time.Sleep(3 * time.Second)
		}
		sim.ServeHTTP(w, r)
	}))
	t.Cleanup(up.Close)
	g := startGateway(t, "-upstream", up.URL, "-rate-limit", "0")
	type answer struct {
		code int
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		req, _ := http.NewRequest("POST", "http://"+g.addr+"/v1/pods", strings.NewReader(`{"name":"slow","imageName":"runpod/base:0.0.0","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`))
		req.Header.Set("Authorization", "Bearer k")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- answer{0, err}
			return
		}
		resp.Body.Close()
		done <- answer{resp.StatusCode, nil}
	}()
	time.Sleep(time.Second)
	_ = g.cmd.Process.Signal(syscall.SIGTERM)
	a := <-done
	<-g.exited
	logged := strings.Contains(g.logs.String(), `"operation":"CreatePod"`)
	record(t, "SIGTERM during a 3 s create (default drain 35 s)", "client gets 201; access-log line; exit 0",
		fmt.Sprintf("client %d %v; logged %v; exit %d", a.code, a.err, logged, g.code), a.code == 201 && logged && g.code == 0)
}

// 300 requests at once on a hung v2 with max_in_flight 100: the excess is
// shed at once with 503 and Retry-After.
func TestLoadShedding(t *testing.T) {
	up := newHung(t)
	g := startGateway(t, "-upstream", up.URL, "-rate-limit", "0", "-max-in-flight", "100", "-upstream-header-timeout", "3s", "-request-timeout", "5s")
	var wg sync.WaitGroup
	var shedFast atomic.Int64
	for range 300 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, h, lat, err := get("http://"+g.addr+"/v2/pods", "k", 20*time.Second)
			if err == nil && code == 503 && h.Get("Retry-After") != "" && lat < time.Second {
				shedFast.Add(1)
			}
		}()
	}
	wg.Wait()
	record(t, "300 concurrent requests, hung v2, max_in_flight 100", "≥ 190 shed at once (503, Retry-After)", fmt.Sprintf("%d shed within 1 s", shedFast.Load()), shedFast.Load() >= 190)
}

// A chunked /v2 body past the 1 MiB limit: 413, and v2 never reads a
// complete request.
func TestOverLimitChunkedBody(t *testing.T) {
	var complete atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err == nil {
			complete.Add(1)
		}
	}))
	t.Cleanup(up.Close)
	g := startGateway(t, "-upstream", up.URL, "-rate-limit", "0")
	pr, pw := io.Pipe()
	go func() {
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for range 40 {
			if _, err := pw.Write(chunk); err != nil {
				return
			}
		}
		pw.Close()
	}()
	req, _ := http.NewRequestWithContext(context.Background(), "POST", "http://"+g.addr+"/v2/pods", pr)
	req.Header.Set("Authorization", "Bearer k")
	code := 0
	if resp, err := http.DefaultClient.Do(req); err == nil {
		code = resp.StatusCode
		resp.Body.Close()
	}
	pr.Close()
	time.Sleep(200 * time.Millisecond)
	record(t, "2.5 MiB chunked body on /v2 (limit 1 MiB)", "413; v2 reads no complete request", fmt.Sprintf("%d; %d complete", code, complete.Load()), code == 413 && complete.Load() == 0)
}

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
