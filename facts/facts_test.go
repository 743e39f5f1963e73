package facts

// The same behaviour is checked on both stores: memory, and a real Redis
// (internal/testredis: V1GW_TEST_REDIS_URL when set, else a throwaway
// redis-server; skipped without either unless V1GW_REQUIRE_REDIS=1). Tests
// on a shared Redis use a fresh key prefix and flush nothing.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/v1gateway/v1gateway/internal/testredis"
	"github.com/v1gateway/v1gateway/podjson"
	"github.com/v1gateway/v1gateway/translate"
)

// testPrefix is a key prefix no other test (or earlier run) uses.
func testPrefix(t testing.TB) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "v1gw:test:facts:" + hex.EncodeToString(b) + ":"
}

// newTestRedis is a Redis store on a real Redis, with its client.
func newTestRedis(t testing.TB, ttl time.Duration) (*Redis, redis.UniversalClient) {
	t.Helper()
	url := testredis.URL(t)
	c, err := NewRedisClient(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	s := NewRedis(c, RedisOptions{Prefix: testPrefix(t), TTL: ttl})
	t.Cleanup(func() { _ = s.Close() })
	return s, c
}

// eachStore runs test against memory, Redis and a Redis Cluster (keys in
// different slots: lookups pipeline GETs instead of one MGET).
func eachStore(t *testing.T, test func(t *testing.T, s Store)) {
	t.Run("memory", func(t *testing.T) { test(t, NewMemory(MemoryOptions{})) })
	t.Run("redis", func(t *testing.T) {
		s, _ := newTestRedis(t, time.Hour)
		test(t, s)
	})
	t.Run("redis cluster", func(t *testing.T) {
		srv := testredis.StartCluster(t)
		c, err := NewRedisClient(srv.URL() + "?addr=" + srv.Addr())
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := c.(*redis.ClusterClient); !ok {
			t.Fatalf("client %T, want a cluster client", c)
		}
		t.Cleanup(func() { _ = c.Close() })
		test(t, NewRedis(c, RedisOptions{Prefix: testPrefix(t)}))
	})
}

func TestStoresRecordLookupAndForgetFacts(t *testing.T) {
	eachStore(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		if m, err := s.Lookup(ctx, translate.FactPod, []string{"p1"}); err != nil || len(m) != 0 {
			t.Fatalf("empty store: %v %v", m, err)
		}
		if err := s.Record(ctx, translate.FactPod, "p1", translate.Fact{TemplateID: "t1", Created: true}); err != nil {
			t.Fatal(err)
		}
		if err := s.Record(ctx, translate.FactEndpoint, "p1", translate.Fact{TemplateID: "t9"}); err != nil {
			t.Fatal(err)
		}
		m, err := s.Lookup(ctx, translate.FactPod, []string{"p0", "p1", "p2"})
		if err != nil || len(m) != 1 || m["p1"] != (translate.Fact{TemplateID: "t1", Created: true}) {
			t.Fatalf("lookup %v %v", m, err)
		}
		// Kinds are apart.
		if m, _ := s.Lookup(ctx, translate.FactEndpoint, []string{"p1"}); m["p1"].TemplateID != "t9" || m["p1"].Created {
			t.Fatalf("endpoint fact %v", m)
		}
		if err := s.Forget(ctx, translate.FactPod, "p1"); err != nil {
			t.Fatal(err)
		}
		if m, _ := s.Lookup(ctx, translate.FactPod, []string{"p1"}); len(m) != 0 {
			t.Fatalf("forgotten fact still there: %v", m)
		}
		if err := s.Forget(ctx, translate.FactPod, "never-known"); err != nil {
			t.Fatalf("forgetting an unknown id: %v", err)
		}
		if _, err := s.Lookup(ctx, "volume", []string{"x"}); err == nil {
			t.Fatal("an unknown kind should be refused")
		}
	})
}

func TestStoresKeepEachTemplatesEndpointsAcrossUpdates(t *testing.T) {
	eachStore(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		rec := func(id, tpl string, created bool) {
			t.Helper()
			if err := s.Record(ctx, translate.FactEndpoint, id, translate.Fact{TemplateID: tpl, Created: created}); err != nil {
				t.Fatal(err)
			}
		}
		eps := func(tpl string) []string {
			t.Helper()
			ids, err := s.TemplateEndpoints(ctx, tpl)
			if err != nil {
				t.Fatal(err)
			}
			return ids
		}
		rec("e1", "tA", true)
		rec("e2", "tA", true)
		rec("e3", "tB", false)
		if got := eps("tA"); !slices.Equal(got, []string{"e1", "e2"}) {
			t.Fatalf("tA: %v", got)
		}
		// An update with another template moves the endpoint; how it was
		// created stays.
		rec("e2", "tB", false)
		if got := eps("tA"); !slices.Equal(got, []string{"e1"}) {
			t.Fatalf("tA after the update: %v", got)
		}
		if got := eps("tB"); !slices.Equal(got, []string{"e2", "e3"}) {
			t.Fatalf("tB: %v", got)
		}
		if m, _ := s.Lookup(ctx, translate.FactEndpoint, []string{"e2"}); m["e2"] != (translate.Fact{TemplateID: "tB", Created: true}) {
			t.Fatalf("e2 after the update: %v", m)
		}
		// A deleted endpoint leaves its template's set.
		if err := s.Forget(ctx, translate.FactEndpoint, "e3"); err != nil {
			t.Fatal(err)
		}
		if got := eps("tB"); !slices.Equal(got, []string{"e2"}) {
			t.Fatalf("tB after the delete: %v", got)
		}
		if got := eps("none"); len(got) != 0 {
			t.Fatalf("unknown template: %v", got)
		}
	})
}

func TestMemoryFactsExpireAfterTheirTTL(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := NewMemory(MemoryOptions{TTL: time.Hour, MaxEntries: 2, Now: func() time.Time { return now }})
	ctx := context.Background()
	_ = m.Record(ctx, translate.FactPod, "p1", translate.Fact{TemplateID: "t"})
	_ = m.Record(ctx, translate.FactEndpoint, "e1", translate.Fact{TemplateID: "t"})
	if err := m.Record(ctx, translate.FactPod, "p2", translate.Fact{TemplateID: "t"}); !errors.Is(err, ErrFull) {
		t.Fatalf("a third fact in a store of two: %v", err)
	}
	now = now.Add(time.Hour)
	if got, _ := m.Lookup(ctx, translate.FactPod, []string{"p1"}); len(got) != 0 {
		t.Fatalf("expired fact: %v", got)
	}
	if got, _ := m.TemplateEndpoints(ctx, "t"); len(got) != 0 {
		t.Fatalf("expired endpoint: %v", got)
	}
	// Expired entries make room.
	if err := m.Record(ctx, translate.FactPod, "p2", translate.Fact{TemplateID: "t"}); err != nil {
		t.Fatal(err)
	}
	if m.Len() != 1 {
		t.Fatalf("len %d after the sweep", m.Len())
	}
}

func TestRedisFactsCarryTheirTTLAndThePrefix(t *testing.T) {
	s, c := newTestRedis(t, 90*time.Second)
	ctx := context.Background()
	if err := s.Record(ctx, translate.FactEndpoint, "e1", translate.Fact{TemplateID: "t1", Created: true}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{s.prefix + "endpoint:{e1}", s.prefix + "tpl:{t1}"} {
		ttl, err := c.TTL(ctx, k).Result()
		if err != nil || ttl <= 0 || ttl > 90*time.Second {
			t.Errorf("%s: TTL %v %v", k, ttl, err)
		}
	}
	if v, _ := c.Get(ctx, s.prefix+"endpoint:{e1}").Result(); v != "c:t1" {
		t.Errorf("stored %q", v)
	}
	if err := s.Forget(ctx, translate.FactEndpoint, "e1"); err != nil {
		t.Fatal(err)
	}
	if n, _ := c.Exists(ctx, s.prefix+"endpoint:{e1}").Result(); n != 0 {
		t.Error("the fact outlived its endpoint's delete")
	}
}

// roundTrips counts what a go-redis client sends: one per command sent
// alone, one per pipeline.
type roundTrips struct{ n atomic.Int64 }

func (*roundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *roundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { h.n.Add(1); return next(ctx, cmd) }
}
func (h *roundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { h.n.Add(1); return next(ctx, cmds) }
}

func TestRedisLookupOfAListIsOneRoundTrip(t *testing.T) {
	s, c := newTestRedis(t, time.Hour)
	h := &roundTrips{}
	c.AddHook(h)
	ctx := context.Background()
	ids := make([]string, 100)
	for i := range ids {
		ids[i] = "p" + string(rune('a'+i%26)) + hex.EncodeToString([]byte{byte(i)})
		if i%3 == 0 {
			_ = s.Record(ctx, translate.FactPod, ids[i], translate.Fact{TemplateID: "t", Created: true})
		}
	}
	_, _ = s.Lookup(ctx, translate.FactPod, ids) // a connection made ready (its HELLO and SELECT are not the lookup's)
	before := h.n.Load()
	m, err := s.Lookup(ctx, translate.FactPod, ids)
	if err != nil || len(m) != 34 {
		t.Fatalf("lookup: %d facts, %v", len(m), err)
	}
	if n := h.n.Load() - before; n != 1 {
		t.Errorf("a lookup of 100 ids took %d round trips, want 1", n)
	}
}

func TestRedisDownFailsFastAndIsNotAskedAgainForASecond(t *testing.T) {
	srv := testredis.Start(t)
	c, err := NewRedisClient(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := NewRedis(c, RedisOptions{Prefix: testPrefix(t), Now: func() time.Time { return now }})
	ctx := context.Background()
	if err := s.Record(ctx, translate.FactPod, "p1", translate.Fact{TemplateID: "t"}); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := s.Lookup(cctx, translate.FactPod, []string{"p1"}); err == nil {
		t.Fatal("a lookup with Redis stopped succeeded")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the failed lookup took %v", d)
	}
	if _, err := s.Lookup(ctx, translate.FactPod, []string{"p1"}); !errors.Is(err, ErrDown) {
		t.Fatalf("within a second of a failure: %v, want ErrDown", err)
	}
	srv.Restart()
	now = now.Add(2 * time.Second)
	if _, err := s.Lookup(ctx, translate.FactPod, []string{"p1"}); err != nil {
		t.Fatalf("after the pause, with Redis back: %v", err)
	}
}

// The gateway decodes v2 answers without copying: ids may point into a
// buffer reused for the next answer. The memory store keeps copies.
func TestMemoryKeepsCopiesOfIdsThatPointIntoReusedBuffers(t *testing.T) {
	m := NewMemory(MemoryOptions{})
	ctx := context.Background()
	// The pod decoder's strings share the answer's buffer (podjson reads
	// without copying), as the ids the plans record do.
	buf := []byte(`{"id":"pod1","template":"tpl1"}`)
	p, err := podjson.DecodePod(buf)
	if err != nil {
		t.Fatal(err)
	}
	_ = m.Record(ctx, translate.FactEndpoint, p.ID, translate.Fact{TemplateID: p.Template, Created: true})
	for i := range buf {
		buf[i] = 'X' // the buffer serves another answer
	}
	if p.ID == "pod1" {
		t.Fatal("the decoder copied the id: this test no longer checks what it says")
	}
	if got, _ := m.Lookup(ctx, translate.FactEndpoint, []string{"pod1"}); got["pod1"].TemplateID != "tpl1" {
		t.Fatalf("lookup after the buffer was reused: %v", got)
	}
	if eps, _ := m.TemplateEndpoints(ctx, "tpl1"); !slices.Equal(eps, []string{"pod1"}) {
		t.Fatalf("template endpoints after the buffer was reused: %v", eps)
	}
}

// A template's facts (its readme, its volume removed) are kept as they
// were recorded, by both stores' encoding (issue 37).
func TestTemplateFactsRoundTrip(t *testing.T) {
	readme, empty := "# notes\nwith t:-r in it", ""
	for _, f := range []translate.TemplateFact{
		{Readme: &readme}, {Readme: &empty}, {NoVolume: true}, {NoVolume: true, Readme: &readme}, {},
	} {
		got, ok := decode(encode(translate.Fact{Template: &f}))
		if !ok || got.Template == nil || got.Template.NoVolume != f.NoVolume || (got.Template.Readme == nil) != (f.Readme == nil) ||
			(f.Readme != nil && *got.Template.Readme != *f.Readme) {
			t.Errorf("%+v: decoded %+v %v", f, got.Template, ok)
		}
	}
	m := NewMemory(MemoryOptions{})
	if err := m.Record(context.Background(), translate.FactTemplate, "t1", translate.Fact{Template: &translate.TemplateFact{Readme: &readme, NoVolume: true}}); err != nil {
		t.Fatal(err)
	}
	got, err := m.Lookup(context.Background(), translate.FactTemplate, []string{"t1", "t2"})
	if err != nil || len(got) != 1 || !got["t1"].Template.NoVolume || *got["t1"].Template.Readme != readme {
		t.Errorf("lookup %+v %v", got, err)
	}
}

// Readmes are bounded by bytes, not only by entries (P12): a record that
// would hold more than MaxText is refused (ErrFull, counted by the proxy,
// never a failure of the request), and what a forget or a replacement frees
// is counted back.
func TestMemoryBoundsTemplateReadmes(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(MemoryOptions{MaxText: 10})
	readme := func(s string) translate.Fact { return translate.Fact{Template: &translate.TemplateFact{Readme: &s}} }
	if err := m.Record(ctx, translate.FactTemplate, "a", readme("123456")); err != nil {
		t.Fatal(err)
	}
	if err := m.Record(ctx, translate.FactTemplate, "b", readme("12345")); !errors.Is(err, ErrFull) {
		t.Errorf("over the bound: %v, want ErrFull", err)
	}
	if err := m.Record(ctx, translate.FactTemplate, "a", readme("1234567890")); err != nil {
		t.Errorf("a replacement within the bound: %v", err)
	}
	if err := m.Forget(ctx, translate.FactTemplate, "a"); err != nil {
		t.Fatal(err)
	}
	if err := m.Record(ctx, translate.FactTemplate, "b", readme("1234567890")); err != nil {
		t.Errorf("after a forget: %v", err)
	}
}
