package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/translate"
)

// recorder is a fake upstream that records what reaches it.
type recorder struct {
	mu      sync.Mutex
	reqs    []*http.Request
	bodies  [][]byte
	handler http.HandlerFunc
	// bodyHook, when set, is told how the upstream's read of each request
	// body ended (nil: complete).
	bodyHook func(n int, err error)
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if rc.bodyHook != nil {
		rc.bodyHook(len(b), err)
	}
	rc.mu.Lock()
	rc.reqs = append(rc.reqs, r)
	rc.bodies = append(rc.bodies, b)
	h := rc.handler
	rc.mu.Unlock()
	if h != nil {
		h(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("RateLimit", `"minute";r=1;t=1`)
	fmt.Fprintf(w, `{"pods":[{"id":"abc"}],"path":%q}`, r.URL.Path)
}

// bodiesCopy returns the request bodies received so far (the upstream may
// still be receiving one: read them under the lock).
func (rc *recorder) bodiesCopy() [][]byte {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([][]byte(nil), rc.bodies...)
}

func (rc *recorder) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.reqs)
}

func (rc *recorder) last() *http.Request {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.reqs[len(rc.reqs)-1]
}

func testConfig(upstream string) *config.Config {
	return &config.Config{
		UpstreamURL:        upstream,
		RateLimitPerMinute: 60,
		CompatMode:         "strict",
		ResetMode:          "reject",
		KeyHashSecret:      "test-secret",
		RequestTimeout:     5 * time.Second,
		DrainTimeout:       5 * time.Second,
		// The GraphQL door's default limits: the clients' documents pass
		// them end to end.
		GraphQLMaxTokens:          config.DefaultGraphQLMaxTokens,
		GraphQLMaxDepth:           config.DefaultGraphQLMaxDepth,
		GraphQLMaxAliases:         config.DefaultGraphQLMaxAliases,
		GraphQLMaxRootFields:      config.DefaultGraphQLMaxRootFields,
		GraphQLMaxFields:          config.DefaultGraphQLMaxFields,
		GraphQLMaxFragmentSpreads: config.DefaultGraphQLMaxFragmentSpreads,
	}
}

func newTestGateway(t *testing.T, mod func(*config.Config, *Options)) (*httptest.Server, *recorder) {
	t.Helper()
	rec := &recorder{}
	up := httptest.NewServer(rec)
	t.Cleanup(up.Close)
	cfg := testConfig(up.URL)
	o := Options{Config: cfg}
	if mod != nil {
		mod(cfg, &o)
	}
	gw, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	t.Cleanup(srv.Close)
	return srv, rec
}

func do(t *testing.T, method, url, token string, body io.Reader, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func readMessage(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	var e struct {
		Message *string `json:"message"`
	}
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &e); err != nil || e.Message == nil || *e.Message == "" {
		t.Fatalf("body %q is not a v1 {\"message\"} error", b)
	}
	return *e.Message
}

// concretePath fills a v1 path template with sample ids.
func concretePath(tmpl string) string {
	r := strings.NewReplacer("{podId}", "p1", "{endpointId}", "e1", "{templateId}", "t1",
		"{networkVolumeId}", "n1", "{containerRegistryAuthId}", "r1")
	return "/v1" + r.Replace(tmpl)
}

// TestEveryV1OperationIsRouted drives each of the 37 v1 operations through
// the router: none is unrouted (404/405), none answers 501, every answer is
// marked deprecated, and the public ones need no key. The upstream here
// answers nonsense, so statuses vary; the end-to-end tests check behaviour.
func TestEveryV1OperationIsRouted(t *testing.T) {
	srv, _ := newTestGateway(t, nil)
	for _, op := range translate.Operations {
		t.Run(op.Name, func(t *testing.T) {
			if op.Plan == nil && op.Kind != translate.KindStatic {
				t.Fatal("operation has no plan: it would answer 501")
			}
			token := "k1"
			if op.Public {
				token = ""
			}
			resp := do(t, op.Method, srv.URL+concretePath(op.Path), token, strings.NewReader(`{}`), nil)
			resp.Body.Close()
			switch resp.StatusCode {
			case http.StatusNotImplemented, http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusUnauthorized:
				if !(resp.StatusCode == http.StatusNotFound && op.Kind == translate.KindGet) {
					t.Fatalf("status %d", resp.StatusCode)
				}
			}
			if got := resp.Header.Get("Deprecation"); got != "@1794700800" {
				t.Errorf("Deprecation %q, want @1794700800", got)
			}
		})
	}
}

func TestAuthPresence(t *testing.T) {
	srv, rec := newTestGateway(t, nil)
	tests := []struct {
		name, path, auth string
		status           int
		problem          bool
	}{
		{"v1 no header", "/v1/pods", "", 401, false},
		{"v1 basic auth", "/v1/pods", "Basic Zm9vOmJhcg==", 401, false},
		{"v1 empty bearer", "/v1/pods", "Bearer   ", 401, false},
		{"v2 no header", "/v2/pods", "", 401, true},
		{"v1 key longer than any real key", "/v1/pods", "Bearer " + strings.Repeat("k", MaxAPIKeyBytes+1), 401, false},
		{"v2 key longer than any real key", "/v2/pods", "Bearer " + strings.Repeat("k", MaxAPIKeyBytes+1), 401, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{}
			if tc.auth != "" {
				hdr["Authorization"] = tc.auth
			}
			resp := do(t, "GET", srv.URL+tc.path, "", nil, hdr)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.problem {
				if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
					t.Errorf("Content-Type %q, want application/problem+json", ct)
				}
				resp.Body.Close()
				return
			}
			readMessage(t, resp)
		})
	}
	if rec.count() != 0 {
		t.Fatalf("requests without a bearer reached the upstream %d times", rec.count())
	}
}

func TestUnknownRoutesAndMethods(t *testing.T) {
	srv, rec := newTestGateway(t, nil)
	tests := []struct {
		method, path string
		status       int
	}{
		{"GET", "/", 404},
		{"GET", "/v1", 404},
		{"GET", "/v1/nope", 404},
		{"GET", "/v1/pods/p1/logs", 404},
		{"GET", "/v3/pods", 404},
		{"PUT", "/v1/pods", 405},
		{"DELETE", "/v1/pods", 405},
	}
	for _, tc := range tests {
		resp := do(t, tc.method, srv.URL+tc.path, "k", nil, nil)
		if resp.StatusCode != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, resp.StatusCode, tc.status)
		}
		readMessage(t, resp)
	}
	if rec.count() != 0 {
		t.Fatalf("unknown routes reached the upstream")
	}
}

func TestPassThrough(t *testing.T) {
	srv, rec := newTestGateway(t, func(_ *config.Config, o *Options) { o.Limiter = limiter.NewMemory(nil) })
	resp := do(t, "GET", srv.URL+"/v2/pods/a%20b?computeType=GPU&x=%20y", "k1", nil, map[string]string{
		"Connection":   "X-Hop, keep-alive",
		"X-Hop":        "secret-hop",
		"X-Request-Id": "req-123",
		"X-Custom":     "kept",
	})
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if !bytes.Contains(body, []byte(`"pods":[{"id":"abc"}]`)) {
		t.Errorf("body changed: %s", body)
	}
	r := rec.last()
	if r.URL.EscapedPath() != "/v2/pods/a%20b" {
		t.Errorf("upstream path %q, want /v2/pods/a%%20b", r.URL.EscapedPath())
	}
	if r.URL.RawQuery != "computeType=GPU&x=%20y" {
		t.Errorf("upstream query %q", r.URL.RawQuery)
	}
	if r.Header.Get("Authorization") != "Bearer k1" {
		t.Errorf("Authorization not forwarded")
	}
	if r.Header.Get("X-Hop") != "" {
		t.Errorf("hop-by-hop header forwarded")
	}
	if r.Header.Get("X-Custom") != "kept" || r.Header.Get("X-Request-Id") != "req-123" {
		t.Errorf("end-to-end headers lost: %v", r.Header)
	}
	if !strings.HasPrefix(r.Host, "127.0.0.1:") {
		t.Errorf("Host %q not rewritten to the upstream's", r.Host)
	}
	if got := resp.Header.Values("RateLimit"); len(got) != 1 || !strings.HasPrefix(got[0], `"minute";r=59;`) {
		t.Errorf("RateLimit %q: want only the gateway's own", got)
	}
	if resp.Header.Get("Deprecation") != "" {
		t.Errorf("v2 answers must not carry Deprecation")
	}
}

func TestPassThroughStreams(t *testing.T) {
	release := make(chan struct{})
	srv, rec := newTestGateway(t, nil)
	rec.handler = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintln(w, "line 1")
		w.(http.Flusher).Flush()
		<-release
		fmt.Fprintln(w, "line 2")
	}
	resp := do(t, "GET", srv.URL+"/v2/pods/p1/logs", "k", nil, nil)
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n')
	if err != nil || line != "line 1\n" {
		t.Fatalf("first line %q, %v: the pass-through buffered the stream", line, err)
	}
	close(release)
	line, _ = br.ReadString('\n')
	if line != "line 2\n" {
		t.Fatalf("second line %q", line)
	}
}

func TestBodyLimit(t *testing.T) {
	srv, rec := newTestGateway(t, nil)
	big := bytes.Repeat([]byte("a"), MaxBodyBytes+1)
	resp := do(t, "POST", srv.URL+"/v1/pods", "k", bytes.NewReader(big), nil)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
	readMessage(t, resp)
	resp = do(t, "POST", srv.URL+"/v2/pods", "k", bytes.NewReader(big), nil)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("v2 status %d, want 413", resp.StatusCode)
	}
	resp.Body.Close()
	if rec.count() != 0 {
		t.Fatalf("oversized bodies reached the upstream")
	}
	// Exactly at the limit is fine.
	resp = do(t, "POST", srv.URL+"/v2/pods", "k", bytes.NewReader(big[:MaxBodyBytes]), nil)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("1 MiB body: status %d", resp.StatusCode)
	}
}

type fixedClock struct{ t time.Time }

func (c *fixedClock) now() time.Time { return c.t }

func TestRateLimit(t *testing.T) {
	clk := &fixedClock{t: time.Date(2026, 11, 22, 12, 0, 20, 0, time.UTC)}
	srv, rec := newTestGateway(t, func(c *config.Config, o *Options) {
		c.RateLimitPerMinute = 2
		c.KeyLimits = map[string]int{limiter.KeyID([]byte(c.KeyHashSecret), "vip"): 0}
		o.Limiter = limiter.NewMemory(clk.now)
	})
	for i, want := range []int{200, 200, 429} {
		resp := do(t, "GET", srv.URL+"/v2/pods", "k1", nil, nil)
		if resp.StatusCode != want {
			t.Fatalf("request %d: status %d, want %d", i, resp.StatusCode, want)
		}
		if got := resp.Header.Get("RateLimit-Policy"); got != `"minute";q=2;w=60` {
			t.Errorf("RateLimit-Policy %q", got)
		}
		wantRL := fmt.Sprintf(`"minute";r=%d;t=40`, max(1-i, 0))
		if got := resp.Header.Get("RateLimit"); got != wantRL {
			t.Errorf("RateLimit %q, want %q", got, wantRL)
		}
		if want == 429 && resp.Header.Get("Retry-After") != "40" {
			t.Errorf("Retry-After %q, want 40", resp.Header.Get("Retry-After"))
		}
		resp.Body.Close()
	}
	resp := do(t, "GET", srv.URL+"/v1/pods", "k1", nil, nil)
	if resp.StatusCode != 429 {
		t.Fatalf("v1 over limit: %d", resp.StatusCode)
	}
	if msg := readMessage(t, resp); msg != "rate limit exceeded for the minute window" {
		t.Errorf("message %q", msg)
	}
	if rec.count() != 2 {
		t.Fatalf("upstream saw %d requests, want 2", rec.count())
	}
	// A key with a 0 override is unlimited; another key has its own quota.
	for range 3 {
		resp := do(t, "GET", srv.URL+"/v2/pods", "vip", nil, nil)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("unlimited key got %d", resp.StatusCode)
		}
	}
	resp = do(t, "GET", srv.URL+"/v2/pods", "k2", nil, nil)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("other key got %d", resp.StatusCode)
	}
}

func TestRequestIDAndSunset(t *testing.T) {
	srv, _ := newTestGateway(t, func(c *config.Config, _ *Options) {
		c.Sunset = time.Date(2027, 6, 30, 0, 0, 0, 0, time.UTC)
		c.SunsetLink = "https://example.com/migrate"
	})
	resp := do(t, "GET", srv.URL+"/v1/pods", "k", nil, map[string]string{"X-Request-Id": "bad id with spaces"})
	resp.Body.Close()
	id := resp.Header.Get("X-Request-Id")
	if !validRequestID(id) || len(id) != 24 {
		t.Errorf("generated request id %q", id)
	}
	if got := resp.Header.Get("Sunset"); got != "Wed, 30 Jun 2027 00:00:00 GMT" {
		t.Errorf("Sunset %q", got)
	}
	if got := resp.Header.Get("Link"); got != `<https://example.com/migrate>; rel="sunset"` {
		t.Errorf("Link %q", got)
	}
	resp = do(t, "GET", srv.URL+"/v1/pods", "k", nil, map[string]string{"X-Request-Id": "client-id.1"})
	resp.Body.Close()
	if got := resp.Header.Get("X-Request-Id"); got != "client-id.1" {
		t.Errorf("request id %q, want the client's", got)
	}
}

func TestUpstreamDown(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL
	dead.Close()
	gw, err := New(Options{Config: testConfig(url)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	defer srv.Close()
	resp := do(t, "GET", srv.URL+"/v2/pods", "k", nil, nil)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway {
		t.Fatalf("status %d, want 502", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q", ct)
	}
}

// P9 on the pass-through: a path with a dot segment, or a segment holding a
// slash once decoded, is a 404 (v2 problem format) and never reaches v2,
// whose path normalisation could serve another route.
func TestPassThroughRefusesDotSegments(t *testing.T) {
	srv, rec := newTestGateway(t, nil)
	for _, tc := range []struct{ method, path string }{
		{"GET", "/v2/pods/../templates"},
		{"GET", "/v2/pods/%2e%2e/templates"},
		{"GET", "/v2/pods/./x"},
		{"DELETE", "/v2/pods/x%2F..%2Ftemplates"},
		{"GET", "/v2/pods/x%5C..%5Ctemplates"},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil) // sent as written, not cleaned
		req.Header.Set("Authorization", "Bearer k1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 404 || resp.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(string(b), "dot segment") {
			t.Errorf("%s %s: %d %s %s, want a 404 problem naming the dot segment", tc.method, tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
	if n := rec.count(); n != 0 {
		t.Fatalf("%d requests reached v2", n)
	}
	// An ordinary id with dots is forwarded.
	resp := do(t, "GET", srv.URL+"/v2/pods/a.b..c", "k1", nil, nil)
	resp.Body.Close()
	if resp.StatusCode != 200 || rec.count() != 1 {
		t.Fatalf("GET /v2/pods/a.b..c: %d, %d upstream calls", resp.StatusCode, rec.count())
	}
}

// An over-limit chunked body on the pass-through is refused with 413, and
// v2 never sees a complete request: the upstream request is aborted
// without its final chunk, so v2 reads an error, not a short body.
func TestPassThroughChunkedBodyOverLimitNeverCompletes(t *testing.T) {
	var complete, failed atomic.Int64
	// With the body read deadline on, as in production (it once turned the
	// 413 into a 400).
	srv, rec := newTestGateway(t, func(c *config.Config, _ *Options) { c.BodyReadTimeout = config.DefaultBodyReadTimeout })
	rec.handler = func(w http.ResponseWriter, r *http.Request) {}
	upBody := make(chan error, 1)
	rec.bodyHook = func(n int, err error) {
		if err != nil {
			failed.Add(1)
		} else {
			complete.Add(1)
		}
		upBody <- err
	}
	pr, pw := io.Pipe()
	go func() {
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for i := 0; i < (MaxBodyBytes/len(chunk))+2; i++ {
			if _, err := pw.Write(chunk); err != nil {
				return
			}
		}
		pw.Close()
	}()
	req, _ := http.NewRequest("POST", srv.URL+"/v2/pods", pr) // no length: chunked
	req.Header.Set("Authorization", "Bearer k1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	pr.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
	select {
	case err := <-upBody:
		if err == nil {
			t.Fatal("v2 read a complete request body")
		}
	case <-time.After(5 * time.Second):
		// v2 never got as far as a request: fine too.
	}
	if complete.Load() != 0 {
		t.Fatalf("%d complete requests reached v2", complete.Load())
	}
}
