package proxy

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/v2sim"
)

// A keyless /graphql call reaches the translating GraphQL door as anonymous
// (the mark of withKeyOrAnonymous, Anonymous(ctx)), where the door decides:
// a public catalog query is answered with graphql_public_key (or an error
// naming that setting), anything else is refused as needing a key. It is
// never refused at the gateway's entrance for want of a key.
func TestKeylessCallsReachTheTranslatingDoorAsAnonymous(t *testing.T) {
	for _, c := range []struct {
		name, publicKey, query, want string
	}{
		{"a public catalog query, with graphql_public_key", "k1", `query { gpuTypes { id } }`, ""},
		{"a public catalog query, without graphql_public_key", "", `query { gpuTypes { id } }`, "graphql_public_key"},
		{"an account query", "k1", `query { myself { pods { id } } }`, "myself needs an API key"},
	} {
		// What is missing is a key, not something v2 cannot do: the
		// error's code says so (as GraphQL servers say it).
		wantCode := "UNAUTHENTICATED"
		t.Run(c.name, func(t *testing.T) {
			sim := v2sim.New(v2sim.Options{Keys: []string{"k1"}, Seed: true})
			up := httptest.NewServer(sim)
			t.Cleanup(up.Close)
			cfg := testConfig(up.URL)
			cfg.GraphQLMode = "translate"
			cfg.GraphQLAutoHold = time.Hour
			cfg.GraphQLPublicKey = c.publicKey
			cfg.AnonymousRateLimitPerMinute = config.DefaultAnonymousRateLimit
			g, err := New(Options{Config: cfg})
			if err != nil {
				t.Fatal(err)
			}
			gw := httptest.NewServer(g)
			t.Cleanup(gw.Close)
			b, _ := json.Marshal(map[string]string{"query": c.query})
			req, _ := http.NewRequest(http.MethodPost, gw.URL+"/graphql", strings.NewReader(string(b)))
			req.Header.Set("Content-Type", "application/json")
			resp, m := doGraphQL(t, req)
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %v (the door should answer)", resp.StatusCode, m)
			}
			errs, _ := json.Marshal(m["errors"])
			if c.want == "" {
				// Answered with the operator's key, as the vendor answered it.
				if types, _ := m["data"].(map[string]any)["gpuTypes"].([]any); m["errors"] != nil || len(types) == 0 {
					t.Errorf("answer %v: want the GPU types", m)
				}
				return
			}
			if !strings.Contains(string(errs), c.want) {
				t.Errorf("errors %s lack %q", errs, c.want)
			}
			if !strings.Contains(string(errs), `"code":"`+wantCode+`"`) {
				t.Errorf("errors %s: want extensions.code %s", errs, wantCode)
			}
		})
	}
}
