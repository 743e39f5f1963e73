package proxy

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/usage"
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
		t.Run(c.name, func(t *testing.T) {
			gw, _ := newTranslatingDoor(t, c.publicKey)
			resp, m := postGraphQL(t, gw.URL, "", c.query)
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
			// What is missing is a key, not something v2 cannot do: the
			// error's code says so (as GraphQL servers say it).
			if !strings.Contains(string(errs), `"code":"UNAUTHENTICATED"`) {
				t.Errorf("errors %s: want extensions.code UNAUTHENTICATED", errs)
			}
		})
	}
}

// Every keyless call is counted as anonymous in /usage, whether or not it
// reached v2: one answered from the shared catalog cache, or refused by
// the door for want of a key, is a client's call all the same (the
// "accepted key" rule, which keeps keys v2 rejects out of /usage, is about
// keys; the anonymous row is one bounded entry).
func TestEveryKeylessCallIsCountedAsAnonymous(t *testing.T) {
	gw, admin := newTranslatingDoor(t, "k1")
	post := func(token, query string) {
		t.Helper()
		if resp, m := postGraphQL(t, gw.URL, token, query); resp.StatusCode != 200 {
			t.Fatalf("status %d: %v", resp.StatusCode, m)
		}
	}
	post("k1", `query { gpuTypes { id } }`) // fills the catalog cache
	for range 3 {
		post("", `query { gpuTypes { id } }`) // answered from it
	}
	post("", `query { myself { id } }`) // refused: needs a key
	if got := anonymousGraphQLCalls(t, admin.URL); got != 4 {
		t.Errorf("/usage counts %d anonymous /graphql calls, want 4", got)
	}
}

// newTranslatingDoor is a gateway in graphql_mode translate in front of the
// seeded simulator (key k1), answering keyless catalog queries with
// publicKey (graphql_public_key), and its admin port.
func newTranslatingDoor(t *testing.T, publicKey string) (gw, admin *httptest.Server) {
	t.Helper()
	sim := v2sim.New(v2sim.Options{Keys: []string{"k1"}, Seed: true})
	up := httptest.NewServer(sim)
	t.Cleanup(up.Close)
	cfg := testConfig(up.URL)
	cfg.GraphQLMode = "translate"
	cfg.GraphQLAutoHold = time.Hour
	cfg.GraphQLPublicKey = publicKey
	cfg.AnonymousRateLimitPerMinute = config.DefaultAnonymousRateLimit
	g, err := New(Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	gw = httptest.NewServer(g)
	t.Cleanup(gw.Close)
	admin = httptest.NewServer(NewAdmin(g))
	t.Cleanup(admin.Close)
	return gw, admin
}

// postGraphQL posts query to base's /graphql, with token as the bearer key
// ("": none), and reads the GraphQL answer.
func postGraphQL(t *testing.T, base, token, query string) (*http.Response, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"query": query})
	req, _ := http.NewRequest(http.MethodPost, base+"/graphql", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return doGraphQL(t, req)
}

// anonymousGraphQLCalls is the count of /graphql calls /usage (at the
// admin port adminURL) holds for the anonymous id, -1 for no such row.
func anonymousGraphQLCalls(t *testing.T, adminURL string) int64 {
	t.Helper()
	r, err := http.Get(adminURL + "/usage")
	if err != nil {
		t.Fatal(err)
	}
	var rep usage.Report
	err = json.NewDecoder(r.Body).Decode(&rep)
	r.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range rep.Keys {
		if k.KeyID == usage.Anonymous && k.GraphQL != nil {
			return k.GraphQL.Count
		}
	}
	return -1
}
