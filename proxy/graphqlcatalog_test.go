package proxy

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
)

// The GraphQL door's catalog reads (graphql/catalog.go) go through the
// upstream caller's catalog cache, as the v1 plans' do: a second identical
// query costs no v2 call, and the cache tells reads apart by their query
// string (the availability of 1 GPU is not that of 2).
func TestGraphQLCatalogReadsAreCachedByTheirQuery(t *testing.T) {
	srv, rec := newTestGateway(t, func(c *config.Config, _ *Options) { c.GraphQLMode = "translate" })
	rec.handler = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		avail := ""
		if r.URL.Query().Get("include") == "AVAILABILITY" {
			avail = `,"availability":"HIGH"`
		}
		fmt.Fprintf(w, `{"gpus":[{"id":"NVIDIA A40","name":"A40","pool":"AMPERE_48","manufacturer":"NVIDIA","memory":48,"secure":true,"community":false,`+
			`"price":{"secure":0.4,"community":0},"maxCount":{"secure":8,"community":0}%s}]}`, avail)
	}
	ask := func(query string) string {
		t.Helper()
		body := fmt.Sprintf(`{"query":%q}`, query)
		resp := do(t, "POST", srv.URL+"/graphql", "k1", strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || strings.Contains(string(b), `"errors"`) {
			t.Fatalf("%d %s", resp.StatusCode, b)
		}
		return string(b)
	}
	price := func(n int) string {
		return fmt.Sprintf(`{ gpuTypes { id lowestPrice(input: {gpuCount: %d, secureCloud: true}) { stockStatus uninterruptablePrice } } }`, n)
	}
	steps := []struct {
		query   string
		calls   int // upstream calls so far
		upQuery string
	}{
		{price(1), 1, "cloud=SECURE&count=1&include=AVAILABILITY&product=POD"},
		{price(1), 1, ""},
		{price(2), 2, "cloud=SECURE&count=2&include=AVAILABILITY&product=POD"},
		{`{ serverlessGpuPools { id gpuTypeIds } }`, 3, ""},
		{`{ gpuTypes { id } }`, 3, ""}, // the same plain read as the pools'
	}
	for i, s := range steps {
		out := ask(s.query)
		if i == 0 && !strings.Contains(out, `"stockStatus":"High","uninterruptablePrice":0.4`) {
			t.Errorf("answer %s", out)
		}
		if n := rec.count(); n != s.calls {
			t.Fatalf("step %d: %d upstream calls, want %d", i, n, s.calls)
		}
		if s.upQuery != "" {
			if got := rec.last().URL.RawQuery; got != s.upQuery {
				t.Errorf("step %d: upstream query %q, want %q", i, got, s.upQuery)
			}
		}
	}
}
