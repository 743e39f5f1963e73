package proxy

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/v2sim"
)

// gpuhunt 0.1.30 (dstack's offer catalog) refreshes its RunPod offers with
// a burst of keyless GraphQL queries from one address: the GPU types, the
// countries and data centers, one lowestPrice query per GPU count and
// secure data center or community country, the cluster offers, and one
// cpuFlavors query per data center (98 in the run driven by its own code,
// docs/clients.md). Under a per-address limit below the burst, gpuhunt
// got 429s and its get() raised: no catalog at all. This replays such a
// refresh, built from its recorded documents, under the default
// anonymous_rate_limit_per_minute, and checks every query is answered.
func TestGpuhuntRefreshIsAnsweredUnderTheDefaultKeylessLimit(t *testing.T) {
	sim := v2sim.New(v2sim.Options{Keys: []string{"k1"}, Seed: true})
	up := httptest.NewServer(sim)
	t.Cleanup(up.Close)
	cfg := testConfig(up.URL)
	cfg.GraphQLMode = "translate"
	cfg.GraphQLPublicKey = "k1"
	cfg.AnonymousRateLimitPerMinute = config.DefaultAnonymousRateLimit
	g, err := New(Options{Config: cfg, Limiter: limiter.NewMemory(nil)})
	if err != nil {
		t.Fatal(err)
	}
	gw := httptest.NewServer(g)
	t.Cleanup(gw.Close)
	dir := filepath.Join("..", "graphql", "testdata", "clients", "gpuhunt")
	doc := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name+".graphql"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	vars := func(name string) map[string]any {
		b, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	type query struct {
		name string
		vars map[string]any
	}
	var refresh []query
	for _, name := range []string{"get__1_gpuTypes", "get__2_countryCodes", "get__6_dataCenters"} {
		refresh = append(refresh, query{name: name})
	}
	for _, name := range []string{"get__5_gpuTypes_cluster", "get__7_cpuFlavors"} {
		refresh = append(refresh, query{name, vars(name)})
	}
	dataCenters := []string{"US-KS-2", "US-TX-3", "CA-MTL-1", "EU-RO-1", "EU-CZ-1"}
	for _, dc := range dataCenters {
		for n := 1; n <= 8; n++ {
			v := vars("get__3_gpuTypes_secure")
			in := v["lowestPriceInput"].(map[string]any)
			in["dataCenterId"], in["gpuCount"] = dc, n
			refresh = append(refresh, query{"get__3_gpuTypes_secure", v})
		}
		v := vars("get__7_cpuFlavors")
		v["dataCenterId"] = dc
		refresh = append(refresh, query{"get__7_cpuFlavors", v})
	}
	for _, country := range []string{"US", "CA", "RO", "CZ", "NO", "SE"} {
		for n := 1; n <= 8; n++ {
			v := vars("get__4_gpuTypes_community")
			in := v["lowestPriceInput"].(map[string]any)
			in["countryCode"], in["gpuCount"] = country, n
			refresh = append(refresh, query{"get__4_gpuTypes_community", v})
		}
	}
	if len(refresh) < 98 {
		t.Fatalf("the replayed refresh has %d queries, fewer than gpuhunt's 98", len(refresh))
	}
	for i, q := range refresh {
		b, _ := json.Marshal(map[string]any{"query": doc(q.name), "variables": q.vars})
		req, _ := http.NewRequest(http.MethodPost, gw.URL+"/graphql", strings.NewReader(string(b)))
		req.Header.Set("Content-Type", "application/json") // no key, as gpuhunt sends
		resp, m := doGraphQL(t, req)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("query %d of the refresh (%s): status %d: %v", i+1, q.name, resp.StatusCode, m["errors"])
		}
		if m["data"] == nil {
			t.Fatalf("query %d (%s): no data (gpuhunt crashes on a missing data): %v", i+1, q.name, m["errors"])
		}
		if errs, _ := m["errors"].([]any); len(errs) > 0 {
			for _, e := range errs {
				if ext, _ := e.(map[string]any)["extensions"].(map[string]any); ext["code"] == "RATE_LIMITED" {
					t.Fatalf("query %d (%s): %v", i+1, q.name, e)
				}
			}
		}
	}
}
