package proxy

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/translate"
)

// The GPU catalog the pods' machine is read from is decoded once per
// cached answer (translate, answermemo.go): the answer the cache keeps is
// the one the first request's plan reads, so what it decodes serves every
// later request until the entry expires. GET /v1/pods?includeMachine=true
// and the GraphQL door's pods answer the same with the catalog cached.
func TestE2ECachedCatalogDecodedOnce(t *testing.T) {
	e := newE2E(t, e2eOpts{cfg: func(c *config.Config) { c.GraphQLMode = "translate" }})
	e.want(e.v1("POST", "/v1/pods", `{"name":"memo-gpu","imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"]}`), 201)
	e.want(e.v1("POST", "/v1/pods", `{"name":"memo-cpu","imageName":"img","computeType":"CPU","cpuFlavorIds":["cpu3c"],"vcpuCount":2}`), 201)
	mark := e.mark()

	machines := func(r *e2eResp) map[string]any {
		t.Helper()
		e.want(r, 200)
		out := map[string]any{}
		for _, p := range r.list(t) {
			out[p["name"].(string)] = p["machine"]
		}
		return out
	}
	first := machines(e.v1("GET", "/v1/pods?includeMachine=true", ""))
	gm, _ := first["memo-gpu"].(map[string]any)
	gt, _ := gm["gpuType"].(map[string]any)
	if gm["gpuTypeId"] != "NVIDIA RTX A4000" || gm["gpuDisplayName"] != "RTX A4000" || gt["displayName"] != "RTX A4000" || gt["securePrice"] == nil {
		t.Fatalf("GPU pod's machine %v", gm)
	}
	if cm, _ := first["memo-cpu"].(map[string]any); cm == nil || cm["gpuTypeId"] != nil || cm["dataCenterId"] == nil {
		t.Errorf("CPU pod's machine %v", first["memo-cpu"])
	}

	// A probe: the cached answer's body is replaced by one that cannot be
	// decoded (a new slice, under the cache's lock; the answer's memo is
	// kept). Were the catalog decoded again, the next answers would fail.
	cc := e.g.catalog
	cc.mu.Lock()
	entry, ok := cc.entries["/v2/catalog/gpus"]
	if ok {
		entry.answer.Body = []byte(`not json`)
	}
	cc.mu.Unlock()
	if !ok {
		t.Fatal("the GPU catalog is not cached")
	}

	for i := range 2 {
		if again := machines(e.v1("GET", "/v1/pods?includeMachine=true", "")); !jsonEq(again, first) {
			t.Errorf("request %d: machines\n%v\nwant\n%v", i+2, again, first)
		}
	}
	// The GraphQL door's pods read the same catalog answer.
	r := e.call(e.gw, "k1", "POST", "/graphql", `{"query":"{ myself { pods { name machine { gpuDisplayName } } } }"}`)
	e.want(r, 200)
	if !strings.Contains(string(r.body), `{"name":"memo-gpu","machine":{"gpuDisplayName":"RTX A4000"}}`) || strings.Contains(string(r.body), `"errors"`) {
		t.Errorf("GraphQL pods %s", r.body)
	}

	n := 0
	for _, c := range e.callsSince(mark) {
		if strings.HasPrefix(c, "GET /v2/catalog/gpus") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d GPU catalog reads upstream, want 1 (the cache's): %v", n, e.callsSince(mark))
	}
}

// put answers with the answer it keeps, the one get returns: the first
// request reads it too.
func TestCatalogCachePutReturnsKept(t *testing.T) {
	cc := newCatalogCache(CatalogTTL, time.Now)
	call := translate.V2Call{Method: "GET", Path: "/v2/catalog/gpus"}
	for _, tc := range []struct {
		name string
		call translate.V2Call
		a    *translate.V2Answer
		kept bool
	}{
		{"catalog 200", call, &translate.V2Answer{Status: 200, Header: http.Header{"Ratelimit": {"x"}, "Content-Type": {"application/json"}}, Body: []byte(`{"gpus":[]}`)}, true},
		{"catalog 503", translate.V2Call{Method: "GET", Path: "/v2/catalog/cpus"}, &translate.V2Answer{Status: 503}, false},
		{"not a catalog", translate.V2Call{Method: "GET", Path: "/v2/pods"}, &translate.V2Answer{Status: 200}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept := cc.put(tc.call, tc.a)
			if (kept != nil) != tc.kept {
				t.Fatalf("kept %v, want %v", kept, tc.kept)
			}
			if kept == nil {
				return
			}
			got, ok := cc.get(tc.call)
			if !ok || got != kept {
				t.Errorf("get gives %p %v, put kept %p", got, ok, kept)
			}
			if kept.Header.Get("RateLimit") != "" || kept.Header.Get("Content-Type") != "application/json" || string(kept.Body) != string(tc.a.Body) {
				t.Errorf("kept %v %s", kept.Header, kept.Body)
			}
		})
	}
}
