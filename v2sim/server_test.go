package v2sim

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAuth(t *testing.T) {
	s, _ := newTestServer(Options{Keys: []string{"good"}, ForbiddenKeys: []string{"limited"}, RateLimitPerMinute: 10})
	open, _ := newTestServer(Options{})
	tests := []struct {
		name   string
		srv    *Server
		auth   string
		status int
		detail string
	}{
		{"missing header", s, "", 401, "missing bearer token"},
		{"basic scheme", s, "Basic Zm9vOmJhcg==", 401, "missing bearer token"},
		{"empty token", s, "Bearer   ", 401, "missing bearer token"},
		{"unknown key", s, "Bearer bad", 401, "invalid bearer token"},
		{"known key", s, "Bearer good", 200, ""},
		{"lower-case scheme", s, "bearer good", 200, ""},
		{"forbidden key", s, "Bearer limited", 403, "access denied"},
		{"any key when Keys empty", open, "Bearer whatever", 200, ""},
		{"missing header when Keys empty", open, "", 401, "missing bearer token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, tc.srv, "GET", "/v2/network-volumes", nil, "Authorization", tc.auth)
			if tc.status != 200 {
				expectProblem(t, rec, tc.status, tc.detail)
			} else {
				expectStatus(t, rec, 200)
			}
			hasRL := rec.Header().Get("RateLimit") != ""
			wantRL := tc.srv == s && tc.status != 401
			if hasRL != wantRL {
				t.Errorf("RateLimit header present=%v, want %v", hasRL, wantRL)
			}
		})
	}
}

func TestRateLimit(t *testing.T) {
	s, clk := newTestServer(Options{RateLimitPerMinute: 3})
	// t0 is 40 s into its minute: the window resets in 20 s.
	for i, want := range []string{`"minute";r=2;t=20`, `"minute";r=1;t=20`, `"minute";r=0;t=20`} {
		rec := do(t, s, "GET", "/v2/pods", nil)
		expectStatus(t, rec, 200)
		if got := rec.Header().Get("RateLimit"); got != want {
			t.Errorf("request %d: RateLimit %q, want %q", i, got, want)
		}
		if got := rec.Header().Get("RateLimit-Policy"); got != `"minute";q=3;w=60` {
			t.Errorf("RateLimit-Policy %q", got)
		}
	}
	clk.Advance(5500 * time.Millisecond)
	rec := expectProblemRec(t, do(t, s, "POST", "/v2/pods", gpuPodBody("x")), 429, "rate limit exceeded")
	if got := rec.Header().Get("Retry-After"); got != "15" {
		t.Errorf("Retry-After %q, want 15 (seconds to the window's end, rounded up)", got)
	}
	if got := rec.Header().Get("RateLimit"); got != `"minute";r=0;t=15` {
		t.Errorf("RateLimit on 429 %q", got)
	}
	if n := len(list(t, do(t, s, "GET", "/v2/pods", nil, "Authorization", "Bearer other"), "pods")); n != 0 {
		t.Errorf("the rejected create created a pod (%d pods)", n)
	}
	// Another key has its own window.
	expectStatus(t, do(t, s, "GET", "/v2/pods", nil, "Authorization", "Bearer other"), 200)
	// The next window starts afresh.
	clk.Advance(15 * time.Second)
	rec = do(t, s, "GET", "/v2/pods", nil)
	expectStatus(t, rec, 200)
	if got := rec.Header().Get("RateLimit"); got != `"minute";r=2;t=60` {
		t.Errorf("new window RateLimit %q", got)
	}

	off, _ := newTestServer(Options{})
	rec = do(t, off, "GET", "/v2/pods", nil)
	if rec.Header().Get("RateLimit") != "" || rec.Header().Get("RateLimit-Policy") != "" {
		t.Errorf("rate-limit headers sent with rate limiting disabled: %v", rec.Header())
	}
}

func expectProblemRec(t *testing.T, rec *httptest.ResponseRecorder, status int, fragments ...string) *httptest.ResponseRecorder {
	t.Helper()
	expectProblem(t, rec, status, fragments...)
	return rec
}

func TestRouting(t *testing.T) {
	s, _ := newTestServer(Options{Seed: true})
	tests := []struct {
		method, path string
		status       int
		allow        string
	}{
		{"GET", "/v2/nope", 404, ""},
		{"GET", "/v1/pods", 404, ""},
		{"GET", "/", 404, ""},
		{"GET", "/v2/pods/", 404, ""},
		{"PUT", "/v2/pods", 405, "GET, POST"},
		{"POST", "/v2/pods/abc", 405, "DELETE, GET, PATCH"},
		{"GET", "/v2/pods/abc/action", 405, "POST"},
		{"DELETE", "/v2/account/ssh-keys", 405, "GET, PUT"},
		{"HEAD", "/v2/catalog/gpus", 405, "GET"},
		// The literal route wins over {id}: this is the delegation list.
		{"GET", "/v2/registries/delegations", 200, ""},
		// DELETE only exists on /v2/registries/{id}: no registry has that id.
		{"DELETE", "/v2/registries/delegations", 404, ""},
		{"GET", "/v2/catalog/gpus/NVIDIA%20L40S", 200, ""},
		{"GET", "/v2/catalog/gpus/NVIDIA%2FL40S", 404, ""},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			rec := do(t, s, tc.method, tc.path, nil)
			if tc.status >= 400 {
				expectProblem(t, rec, tc.status)
			} else {
				expectStatus(t, rec, tc.status)
			}
			if got := rec.Header().Get("Allow"); got != tc.allow {
				t.Errorf("Allow %q, want %q", got, tc.allow)
			}
		})
	}
	if _, ok := obj(t, do(t, s, "GET", "/v2/registries/delegations", nil))["delegations"]; !ok {
		t.Error("GET /v2/registries/delegations is not the delegation list")
	}
}

func TestFaults(t *testing.T) {
	count := func(t *testing.T, s *Server) int {
		return len(list(t, do(t, s, "GET", "/v2/pods", nil), "pods"))
	}
	t.Run("status replaces processing", func(t *testing.T) {
		s, _ := newTestServer(Options{})
		s.AddFault(Fault{Method: "POST", PathPrefix: "/v2/pods", Status: 503})
		expectProblem(t, do(t, s, "POST", "/v2/pods", gpuPodBody("a")), 503, "Service Unavailable")
		if n := count(t, s); n != 0 {
			t.Fatalf("faulted create created %d pods", n)
		}
		expectStatus(t, do(t, s, "POST", "/v2/pods", gpuPodBody("a")), 201)
		if n := count(t, s); n != 1 {
			t.Fatalf("%d pods after the retry, want 1", n)
		}
	})
	t.Run("after process: created but reply lost", func(t *testing.T) {
		s, _ := newTestServer(Options{})
		s.AddFault(Fault{Method: "post", PathPrefix: "/v2/pods", Status: 502, Detail: "upstream reset", AfterProcess: true})
		expectProblem(t, do(t, s, "POST", "/v2/pods", gpuPodBody("dup")), 502, "upstream reset")
		pods := list(t, do(t, s, "GET", "/v2/pods", nil), "pods")
		if len(pods) != 1 || str(pods[0], "name") != "dup" {
			t.Fatalf("pods after AfterProcess fault: %v", pods)
		}
		calls := s.Calls()
		if calls[0].Status != 502 {
			t.Errorf("logged status %d, want 502", calls[0].Status)
		}
	})
	t.Run("times, method and prefix filters", func(t *testing.T) {
		s, _ := newTestServer(Options{})
		s.AddFault(Fault{Method: "GET", PathPrefix: "/v2/templates", Status: 500, Times: 2})
		expectStatus(t, do(t, s, "GET", "/v2/pods", nil), 200)                                             // other prefix
		expectStatus(t, do(t, s, "POST", "/v2/templates", map[string]any{"name": "t", "image": "i"}), 201) // other method
		expectProblem(t, do(t, s, "GET", "/v2/templates", nil), 500)
		expectProblem(t, do(t, s, "GET", "/v2/templates/x", nil), 500)
		expectStatus(t, do(t, s, "GET", "/v2/templates", nil), 200)
	})
	t.Run("forever until cleared", func(t *testing.T) {
		s, _ := newTestServer(Options{})
		s.AddFault(Fault{Status: 429, Times: -1})
		for i := 0; i < 3; i++ {
			rec := expectProblemRec(t, do(t, s, "GET", "/v2/pods", nil), 429)
			if rec.Header().Get("Retry-After") == "" {
				t.Error("429 fault without Retry-After")
			}
		}
		s.ClearFaults()
		expectStatus(t, do(t, s, "GET", "/v2/pods", nil), 200)
	})
	t.Run("delay then normal processing", func(t *testing.T) {
		s, _ := newTestServer(Options{})
		s.AddFault(Fault{PathPrefix: "/v2/pods", Delay: time.Millisecond})
		expectStatus(t, do(t, s, "POST", "/v2/pods", gpuPodBody("slow")), 201)
		if n := count(t, s); n != 1 {
			t.Fatalf("%d pods, want 1", n)
		}
	})
	t.Run("delay respects the request context", func(t *testing.T) {
		s, _ := newTestServer(Options{})
		s.AddFault(Fault{PathPrefix: "/v2/pods", Delay: time.Hour, Status: 500})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req := httptest.NewRequest("POST", "/v2/pods", strings.NewReader(`{}`)).WithContext(ctx)
		req.Header.Set("Authorization", "Bearer k")
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { s.ServeHTTP(rec, req); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("the fault delay ignored the cancelled context")
		}
		if calls := s.Calls(); len(calls) != 1 || calls[0].Status != 0 {
			t.Errorf("calls after an abandoned request: %+v", calls)
		}
	})
}

func TestCalls(t *testing.T) {
	s, _ := newTestServer(Options{})
	do(t, s, "GET", "/v2/pods", nil, "Authorization", "") // 401: not logged
	do(t, s, "POST", "/v2/templates?x=1", map[string]any{"name": "t", "image": "i"})
	do(t, s, "GET", "/v2/nope", nil)
	calls := s.Calls()
	if len(calls) != 2 {
		t.Fatalf("%d calls, want 2: %+v", len(calls), calls)
	}
	c := calls[0]
	if c.Method != "POST" || c.Path != "/v2/templates" || c.RawQuery != "x=1" || c.Status != 201 || !strings.Contains(string(c.Body), `"name":"t"`) {
		t.Errorf("first call %+v", c)
	}
	if calls[1].Status != 404 {
		t.Errorf("second call status %d", calls[1].Status)
	}
	calls[0].Body[0] = 'X' // a copy
	if s.Calls()[0].Body[0] == 'X' {
		t.Error("Calls returned the internal buffer")
	}
	s.ResetCalls()
	if len(s.Calls()) != 0 {
		t.Error("ResetCalls kept calls")
	}
}

func TestBodyRules(t *testing.T) {
	s, _ := newTestServer(Options{})
	expectProblem(t, do(t, s, "POST", "/v2/templates", `{"name":"t","image":"i"}`, "Content-Type", "text/plain"), 415)
	expectStatus(t, do(t, s, "POST", "/v2/templates", `{"name":"t","image":"i"}`, "Content-Type", "application/json; charset=utf-8"), 201)
	expectStatus(t, do(t, s, "POST", "/v2/templates", `{"name":"t","image":"i"}`, "Content-Type", ""), 201)
	big := `{"name":"` + strings.Repeat("x", maxBodyBytes) + `"}`
	expectProblem(t, do(t, s, "POST", "/v2/templates", big), 413)
}

func TestDeterministicIDs(t *testing.T) {
	ids := func() []string {
		s, _ := newTestServer(Options{Seed: true})
		var out []string
		for _, p := range list(t, do(t, s, "GET", "/v2/pods", nil), "pods") {
			out = append(out, str(p, "id"))
		}
		out = append(out, createPodT(t, s, gpuPodBody("x")))
		return out
	}
	a, b := ids(), ids()
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Fatalf("ids differ between identical runs: %v vs %v", a, b)
	}
	for _, id := range a {
		if len(id) != 14 || strings.Trim(id, idAlphabet) != "" {
			t.Errorf("id %q is not 14 lowercase alphanumerics", id)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	s, clk := newTestServer(Options{Seed: true, RateLimitPerMinute: 1000})
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]bool{}
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				rec := do(t, s, "POST", "/v2/pods", gpuPodBody(fmt.Sprintf("p%d-%d", g, i)))
				if rec.Code != 201 {
					t.Errorf("create: %d %s", rec.Code, rec.Body.String())
					return
				}
				id := str(obj(t, rec), "id")
				mu.Lock()
				if seen[id] {
					t.Errorf("duplicate id %s", id)
				}
				seen[id] = true
				mu.Unlock()
				do(t, s, "GET", "/v2/pods", nil)
				do(t, s, "GET", "/v2/billing/pods", nil)
				clk.Advance(time.Second)
				_ = s.Calls()
			}
		}(g)
	}
	wg.Wait()
	if n := len(list(t, do(t, s, "GET", "/v2/pods", nil), "pods")); n != 82 {
		t.Errorf("%d pods, want 82", n)
	}
}

// TestNoServerErrorOnGarbage throws malformed input at every route: nothing
// may panic or answer 5xx.
func TestNoServerErrorOnGarbage(t *testing.T) {
	s, _ := newTestServer(Options{Seed: true})
	bodies := []string{
		``, `{`, `[]`, `null`, `"x"`, `1e999`, `{"name": 1e400}`, `{"disk": 1e400, "name": "x", "image": "y"}`,
		`{"name":"☃","image":"ü","gpu":{"id":"☃","count":9223372036854775807}}`,
		`{"name":"x","image":"y","cpu":{"id":"cpu5c","vcpuCount":-9223372036854775808}}`,
		`{"size": 99999999999999999999999}`, `{"keys": [null]}`, `{"action": null}`,
		`{"workers":{"min":1e300,"max":1e300}}`, `{"gpu":{"pools":[]}}`, `{"mounts":{"network":[null]}}`,
		`{"name":"x","image":"y","type":"QUEUE","scaling":{"type":"QUEUE_DELAY","queueDelay":1e999},"gpu":{"pools":["ADA_24"]}}`,
		`{"name":"x","image":"y","type":"QUEUE","scaling":{"type":7},"cpu":[{"id":"cpu5c","vcpuCount":4},{"id":"cpu5c","vcpuCount":4.0}]}`,
		`{"a":` + strings.Repeat(`[`, 5000) + strings.Repeat(`]`, 5000) + `}`,
		"{\"name\":\"\x00\"}", `{"name":"x","size":10.5,"dataCenter":"US-KS-2"}`,
	}
	ids := []string{"x", "%00", "%E2%98%83", strings.Repeat("a", 3000), "delegations", "..", "%2F"}
	methods := []string{"GET", "POST", "PUT", "PATCH", "DELETE"}
	for _, rt := range s.routes {
		for _, id := range ids {
			path := "/" + strings.Join(rt.segs, "/")
			path = strings.NewReplacer("{id}", id, "{workerId}", id).Replace(path)
			for _, m := range methods {
				for _, b := range bodies {
					rec := do(t, s, m, path+"?tail=abc&lastN=999999999999&include=x,y&count=-1&startTime=nope", b)
					if rec.Code >= 500 {
						t.Fatalf("%s %s body %.40q: %d %s", m, path, b, rec.Code, rec.Body.String())
					}
				}
			}
		}
	}
}

func TestSetPodError(t *testing.T) {
	s, _ := newTestServer(Options{})
	id := createPodT(t, s, gpuPodBody("e"))
	if s.SetPodError("nope") {
		t.Error("SetPodError accepted an unknown pod")
	}
	if !s.SetPodError(id) {
		t.Fatal("SetPodError refused an existing pod")
	}
	p := obj(t, do(t, s, "GET", "/v2/pods/"+id, nil))
	if str(p, "status") != "ERROR" || fmt.Sprint(p["actions"]) != "[start terminate]" || p["cost"] != 0.0 {
		t.Errorf("errored pod: status %v actions %v cost %v", p["status"], p["actions"], p["cost"])
	}
	expectStatus(t, do(t, s, "POST", "/v2/pods/"+id+"/action", map[string]any{"action": "start"}), 200)
}

var _ = http.StatusOK
