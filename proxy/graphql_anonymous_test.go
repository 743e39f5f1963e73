package proxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/usage"
)

// Keyless GraphQL (issue 29 item 7): runpod-mcp sends its catalog queries
// (GPU types, data centers, hub listings, public endpoint configs) without
// any key, and the vendor answers them. /graphql passes a keyless request
// through, with no Authorization upstream, under a limit per client
// address (anonymous_rate_limit_per_minute) that never mixes with the
// keyed limits, and counts it as "anonymous" in /usage. /v1 and /v2 still
// require a key.
func TestKeylessGraphQLPassesThroughUnderAPerAddressLimit(t *testing.T) {
	e := newGQLEnv(t, func(c *config.Config, o *Options) {
		c.AnonymousRateLimitPerMinute = 2
		c.RateLimitPerMinute = 1
		o.Limiter = limiter.NewMemory(nil)
	})
	post := func(token string) *http.Response {
		return do(t, "POST", e.srv.URL+"/graphql", token, strings.NewReader(gqlGPUTypes), nil)
	}
	for i := 0; i < 2; i++ {
		resp := post("")
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != `{"data":{"gpuTypes":[{"id":"NVIDIA A40"}]}}` {
			t.Fatalf("keyless call %d: %d %s", i, resp.StatusCode, b)
		}
		if got := e.rec.last().Header.Get("Authorization"); got != "" {
			t.Errorf("keyless call sent Authorization %q upstream", got)
		}
		if resp.Header.Get("RateLimit-Policy") != `"minute";q=2;w=60` {
			t.Errorf("RateLimit-Policy %q, want the anonymous limit", resp.Header.Get("RateLimit-Policy"))
		}
	}
	resp := post("")
	resp.Body.Close()
	if resp.StatusCode != 429 {
		t.Fatalf("third keyless call from one address: %d, want 429", resp.StatusCode)
	}
	// A keyed call is in its own bucket (1 a minute), and spending it does
	// not touch the anonymous one.
	resp = post("k1")
	resp.Body.Close()
	if resp.StatusCode != 200 || e.rec.last().Header.Get("Authorization") != "Bearer k1" {
		t.Fatalf("keyed call after the anonymous limit: %d", resp.StatusCode)
	}
	resp = post("k1")
	resp.Body.Close()
	if resp.StatusCode != 429 {
		t.Fatalf("second keyed call: %d, want 429 (the key's own limit)", resp.StatusCode)
	}

	// /v1 and /v2 still need a key.
	for _, p := range []string{"/v1/pods", "/v2/pods"} {
		resp := do(t, "GET", e.srv.URL+p, "", nil, nil)
		resp.Body.Close()
		if resp.StatusCode != 401 {
			t.Errorf("keyless GET %s: %d, want 401", p, resp.StatusCode)
		}
	}
	// An Authorization header that is not a bearer token is not anonymous.
	resp = do(t, "POST", e.srv.URL+"/graphql", "", strings.NewReader(gqlGPUTypes), map[string]string{"Authorization": "Basic eDp5"})
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("Authorization: Basic: %d, want 401", resp.StatusCode)
	}

	// /usage counts the keyless calls as anonymous, the throttled one too,
	// as for a key.
	if got := anonymousGraphQLCalls(t, e.admin.URL); got != 3 {
		t.Errorf("/usage counts %d anonymous /graphql calls, want 3", got)
	}
}

func TestKeylessGraphQLOffIsA401(t *testing.T) {
	e := newGQLEnv(t, func(c *config.Config, o *Options) { c.AnonymousRateLimitPerMinute = 0 })
	resp := do(t, "POST", e.srv.URL+"/graphql", "", strings.NewReader(gqlGPUTypes), nil)
	if resp.StatusCode != 401 {
		t.Fatalf("status %d, want 401 with anonymous_rate_limit_per_minute 0", resp.StatusCode)
	}
	if msg := gqlErrors(t, resp); !strings.Contains(msg, "anonymous_rate_limit_per_minute") {
		t.Errorf("message %q does not name the setting that would allow it", msg)
	}
	if e.rec.count() != 0 {
		t.Fatal("a refused keyless request reached the upstream")
	}
}

// The marker the GraphQL front door reads: Anonymous(ctx) is true for a
// keyless /graphql request, false for a keyed one, and the key id of an
// anonymous request is usage.Anonymous, never a key's.
func TestAnonymousMarker(t *testing.T) {
	srv, _ := newTestGateway(t, func(c *config.Config, o *Options) { c.AnonymousRateLimitPerMinute = 60 })
	g := srv.Config.Handler.(*Gateway)
	var anon bool
	var keyID string
	h := g.withRequestID(g.withKeyOrAnonymous(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		anon, keyID = Anonymous(r.Context()), KeyIDFrom(r.Context())
	})))
	for _, c := range []struct {
		token  string
		anon   bool
		wantID string
	}{{"", true, usage.Anonymous}, {"k1", false, ""}} {
		req := httptest.NewRequest("POST", "/graphql", strings.NewReader(gqlGPUTypes))
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
		if anon != c.anon || (c.wantID != "" && keyID != c.wantID) || (!c.anon && keyID == usage.Anonymous) {
			t.Errorf("token %q: Anonymous %v, key id %q", c.token, anon, keyID)
		}
	}
}
