package v2sim

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "test-key"

// t0 is the test epoch: 40 s after a minute boundary, so rate-limit windows
// are easy to reason about.
var t0 = time.Date(2026, 6, 15, 12, 0, 40, 0, time.UTC)

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *testClock { return &testClock{t: t0} }

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newTestServer(opts Options) (*Server, *testClock) {
	clk := newClock()
	opts.Now = clk.Now
	return New(opts), clk
}

// do sends one request with the test key (unless hdr overrides Authorization).
func do(t testing.TB, h http.Handler, method, path string, body any, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		r = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, r)
	req.Header.Set("Authorization", "Bearer "+testKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func obj(t testing.TB, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("body is not a JSON object (%d): %v\n%s", rec.Code, err, rec.Body.String())
	}
	return m
}

func list(t testing.TB, rec *httptest.ResponseRecorder, key string) []map[string]any {
	t.Helper()
	raw, ok := obj(t, rec)[key].([]any)
	if !ok {
		t.Fatalf("answer has no %q array: %s", key, rec.Body.String())
	}
	out := make([]map[string]any, len(raw))
	for i, x := range raw {
		out[i], _ = x.(map[string]any)
	}
	return out
}

func expectStatus(t testing.TB, rec *httptest.ResponseRecorder, want int) {
	t.Helper()
	if rec.Code != want {
		t.Fatalf("status %d, want %d: %s", rec.Code, want, rec.Body.String())
	}
}

// expectProblem checks a problem answer and that its detail or errors mention
// each of the fragments.
func expectProblem(t testing.TB, rec *httptest.ResponseRecorder, status int, fragments ...string) map[string]any {
	t.Helper()
	expectStatus(t, rec, status)
	if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json", ct)
	}
	m := obj(t, rec)
	if m["title"] != http.StatusText(status) || m["status"] != float64(status) {
		t.Fatalf("problem title/status wrong: %v", m)
	}
	text := rec.Body.String()
	for _, f := range fragments {
		if !strings.Contains(text, f) {
			t.Fatalf("problem does not mention %q: %s", f, text)
		}
	}
	return m
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// createPodT creates a pod and returns its id.
func createPodT(t testing.TB, h http.Handler, body map[string]any) string {
	t.Helper()
	rec := do(t, h, "POST", "/v2/pods", body)
	expectStatus(t, rec, http.StatusCreated)
	return str(obj(t, rec), "id")
}

func gpuPodBody(name string) map[string]any {
	return map[string]any{
		"name": name, "image": "runpod/pytorch:2.8",
		"gpu":   map[string]any{"id": "NVIDIA GeForce RTX 4090", "count": 1},
		"ports": []string{"8888/http", "22/tcp"},
	}
}
