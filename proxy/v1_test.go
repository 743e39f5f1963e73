package proxy

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/mux"

	"github.com/v1gateway/v1gateway/translate"
)

func TestPlanExecution(t *testing.T) {
	srv, rec := newTestGateway(t, nil)
	gw := srv.Config.Handler.(*Gateway)

	var got *translate.Request
	op := &translate.Operation{Name: "Probe", Method: "POST", Path: "/things/{thingId}", Kind: translate.KindUpdate, Success: 200,
		Plan: func(ctx context.Context, req *translate.Request, c translate.Caller) *translate.Result {
			got = req
			if _, ok := ctx.Deadline(); !ok {
				t.Error("plan runs without a deadline")
			}
			a, err := c.Call(ctx, translate.V2Call{Method: "GET", Path: translate.V2Path("/v2/pods/%s", req.Params["thingId"])})
			if err != nil {
				return translate.FromCallError(err)
			}
			return &translate.Result{Status: 200, Body: a.Body, Warnings: []string{"careful\nnow"}, Dropped: []string{"a", "b"}, Emulated: "reset"}
		}}
	h := gw.v1Handler(op)

	req := httptest.NewRequest("POST", "/v1/things/x%20y?q=1", strings.NewReader(`{"k":1}`))
	req.Header.Set("Authorization", "Bearer tok")
	req = mux.SetURLVars(req, map[string]string{"thingId": "x%20y"})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)

	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if got.Params["thingId"] != "x y" || got.Query.Get("q") != "1" || string(got.Body) != `{"k":1}` {
		t.Errorf("plan got params %v query %v body %q", got.Params, got.Query, got.Body)
	}
	if p := rec.last().URL.EscapedPath(); p != "/v2/pods/x%20y" {
		t.Errorf("upstream path %q", p)
	}
	if rec.last().Header.Get("Authorization") != "Bearer tok" {
		t.Error("bearer not forwarded to the upstream")
	}
	if w.Header().Get("X-Compat-Warning") != "careful now" || w.Header().Get("X-Compat-Dropped") != "a,b" || w.Header().Get("X-Compat-Emulated") != "reset" {
		t.Errorf("compat headers: %v", w.Header())
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}

	// Ids that would address another route never reach the plan.
	for _, id := range []string{"..", ".", "%2E%2E", "a%00b"} {
		req := httptest.NewRequest("POST", "/v1/things/x", nil)
		req = mux.SetURLVars(req, map[string]string{"thingId": id})
		w := httptest.NewRecorder()
		got = nil
		h.ServeHTTP(w, req)
		if w.Code != 404 || got != nil {
			t.Errorf("id %q: status %d, plan called %v", id, w.Code, got != nil)
		}
	}
}

func TestCatalogCache(t *testing.T) {
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	cc := newCatalogCache(time.Minute, func() time.Time { return now })
	gpus := translate.V2Call{Method: "GET", Path: "/v2/catalog/gpus", Query: map[string][]string{"include": {"AVAILABILITY"}}}
	ans := &translate.V2Answer{Status: 200, Header: http.Header{"Ratelimit": {"x"}, "Content-Type": {"application/json"}}, Body: []byte(`{"gpus":[]}`)}
	cc.put(gpus, ans)
	cc.put(translate.V2Call{Method: "GET", Path: "/v2/pods"}, ans)                                      // not catalog
	cc.put(translate.V2Call{Method: "GET", Path: "/v2/catalog/cpus"}, &translate.V2Answer{Status: 500}) // not 200

	if a, ok := cc.get(gpus); !ok || string(a.Body) != `{"gpus":[]}` || a.Header.Get("RateLimit") != "" {
		t.Fatalf("cached answer %v %v", a, ok)
	}
	if _, ok := cc.get(translate.V2Call{Method: "GET", Path: "/v2/catalog/gpus"}); ok {
		t.Error("a different query hit the cache")
	}
	if _, ok := cc.get(translate.V2Call{Method: "GET", Path: "/v2/pods"}); ok {
		t.Error("non-catalog call cached")
	}
	if _, ok := cc.get(translate.V2Call{Method: "GET", Path: "/v2/catalog/cpus"}); ok {
		t.Error("error answer cached")
	}
	now = now.Add(time.Minute)
	if _, ok := cc.get(gpus); ok {
		t.Error("expired entry served")
	}
}

func TestUpstreamDoReadsBoundedBody(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 100))
	}))
	defer up.Close()
	gw, err := New(Options{Config: testConfig(up.URL)})
	if err != nil {
		t.Fatal(err)
	}
	gw.upstream.MaxBody = 10
	if _, err := gw.upstream.Do(context.Background(), Call{Method: "GET", Path: "/v2/pods"}, "", ""); err == nil {
		t.Fatal("oversized upstream answer accepted")
	}
}
