package proxy

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/v2sim"
)

// meteredDoor is the translating door in front of the simulator, counting
// the v2 calls that reach it, with the in-memory limiter and a per-key
// limit of limit a minute.
func meteredDoor(t *testing.T, limit int) (gw string, v2calls *atomic.Int64) {
	t.Helper()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	sim := v2sim.New(v2sim.Options{Now: clock, Keys: []string{"k1"}, Seed: true})
	v2calls = &atomic.Int64{}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v2calls.Add(1)
		sim.ServeHTTP(w, r)
	}))
	t.Cleanup(up.Close)
	cfg := testConfig(up.URL)
	cfg.GraphQLMode = "translate"
	cfg.RateLimitPerMinute = limit
	cfg.AnonymousRateLimitPerMinute = limit
	cfg.GraphQLPublicKey = "k1"
	g, err := New(Options{Config: cfg, Now: clock, Limiter: limiter.NewMemory(clock)})
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewServer(g)
	t.Cleanup(s.Close)
	return s.URL, v2calls
}

func TestEachV2CallOfAGraphQLRequestCountsAgainstTheKeysLimit(t *testing.T) {
	gw, v2calls := meteredDoor(t, 6)
	// Ten root fields, each a v2 call (GET /v2/pods): the key's limit of
	// 6 allows six, the rest answer the rate-limit error without a call.
	q := "{ "
	for i := range 10 {
		q += fmt.Sprintf("m%d: myself { pods { id } } ", i)
	}
	q += "}"
	resp, m := postGraphQL(t, gw, "k1", q)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if n := v2calls.Load(); n > 6 {
		t.Errorf("%d v2 calls for a key limited to 6 a minute", n)
	}
	errs, _ := m["errors"].([]any)
	if len(errs) == 0 {
		t.Fatalf("no rate-limit error: %v", m)
	}
	for _, e := range errs {
		ext, _ := e.(map[string]any)["extensions"].(map[string]any)
		msg, _ := e.(map[string]any)["message"].(string)
		if ext["code"] != "RATE_LIMITED" || !strings.Contains(msg, "rate limit exceeded for the minute window") {
			t.Errorf("error %v, want RATE_LIMITED naming the limit", e)
		}
	}
	if resp.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	// The key's minute is spent: the next request is refused at the door.
	if resp, _ := postGraphQL(t, gw, "k1", "{ myself { id } }"); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("next request: status %d, want 429", resp.StatusCode)
	}
	if n := v2calls.Load(); n > 6 {
		t.Errorf("%d v2 calls in all", n)
	}
}

func TestKeylessV2CallsCountAgainstTheAddresssLimit(t *testing.T) {
	gw, v2calls := meteredDoor(t, 3)
	// Distinct inputs: each a catalog read the cache cannot answer.
	q := `{ a: gpuTypes(input:{id:"NVIDIA A40"}) { id } b: gpuTypes(input:{id:"NVIDIA L40"}) { id } c: dataCenters { id } d: gpuTypes(input:{id:"NVIDIA L4"}) { id } e: gpuTypes(input:{id:"NVIDIA A100"}) { id } }`
	_, m := postGraphQL(t, gw, "", q)
	if n := v2calls.Load(); n > 3 {
		t.Errorf("%d v2 calls for an address limited to 3 a minute: %v", n, m)
	}
}

func TestADocumentOverALimitIsRefusedBeforeAnyV2Call(t *testing.T) {
	gw, v2calls := meteredDoor(t, 60)
	q := "{ "
	for i := range 21 {
		q += fmt.Sprintf("m%d: myself { id } ", i)
	}
	q += "}"
	resp, m := postGraphQL(t, gw, "k1", q)
	errs, _ := m["errors"].([]any)
	if resp.StatusCode != http.StatusOK || len(errs) != 1 || v2calls.Load() != 0 {
		t.Fatalf("status %d, %d v2 calls: %v", resp.StatusCode, v2calls.Load(), m)
	}
	if ext, _ := errs[0].(map[string]any)["extensions"].(map[string]any); ext["code"] != "MAX_ROOT_FIELDS_LIMIT" {
		t.Errorf("error %v", errs[0])
	}
}
