package proxy

// The fact store's cost per request (P8), in process, as bench_test.go
// measures the gateway: GET /v1/endpoints (20 endpoints) and GET /v1/pods
// (100 pods) with no store, with the in-memory store and with a real Redis
// (skipped without one), every resource known to the store. The redis
// cases also report the store's Redis round trips per request.
//
//	go test -run '^$' -bench 'Facts' -benchmem ./proxy/

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/v1gateway/v1gateway/bench/canned"
	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/facts"
	"github.com/v1gateway/v1gateway/internal/testredis"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/usage"
)

const benchEndpoints = 20

// benchEndpointList is GET /v2/serverless with benchEndpoints CPU endpoints.
var benchEndpointList = func() []byte {
	var b strings.Builder
	b.WriteString(`{"endpoints":[`)
	for i := range benchEndpoints {
		if i > 0 {
			b.WriteByte(',')
		}
		id := fmt.Sprintf("ep%012d", i)
		fmt.Fprintf(&b, `{"id":%q,"name":"worker-%d","type":"QUEUE","requestUrls":{"run":"https://api.runpod.ai/v2/%s/run"},`+
			`"image":"runpod/worker:1","args":"python handler.py","disk":20,"ports":["8000/http"],"env":{"MODEL":"sdxl"},"registry":null,`+
			`"cpu":[{"id":"cpu5c","vcpuCount":4,"memory":8}],"workers":{"min":0,"max":3,"idleTimeout":5},"scaling":{"type":"QUEUE_DELAY","queueDelay":4},`+
			`"dataCenterIds":[],"networkVolumes":[],"timeout":300000,"flashboot":"OFF","createdAt":"2026-03-13T20:00:30Z"}`, id, i, id)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}()

// factsTransport answers GET /v2/serverless, and the rest as canned does.
type factsTransport struct{ canned.Transport }

func (t factsTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == "/v2/serverless" && r.Method == http.MethodGet {
		return canned.Transport{B: &canned.Bodies{List: benchEndpointList}}.RoundTrip(withPath(r, "/v2/pods"))
	}
	return t.Transport.RoundTrip(r)
}

func withPath(r *http.Request, path string) *http.Request {
	r2 := r.Clone(r.Context())
	u := *r.URL
	u.Path = path
	r2.URL = &u
	return r2
}

// commandCount counts what a go-redis client sends: one per command sent
// alone, one per pipeline.
type commandCount struct{ n atomic.Int64 }

func (*commandCount) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *commandCount) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { h.n.Add(1); return next(ctx, cmd) }
}
func (h *commandCount) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { h.n.Add(1); return next(ctx, cmds) }
}

// benchFactsGateway is benchGateway (memory limiter) with the fact store
// kind "none", "memory" or "redis", in which ids of kind are all known.
func benchFactsGateway(b *testing.B, store, kind string, ids []string) (*Gateway, *commandCount) {
	b.Helper()
	// As benchGateway builds it (memory limiter), with factsTransport.
	obs := callObserver
	callObserver = nil
	b.Cleanup(func() { callObserver = obs })
	cfg := config.Default()
	cfg.UpstreamURL = "http://upstream.bench"
	cfg.RateLimitPerMinute = 1_000_000_000
	cfg.KeyHashSecret = "bench-secret"
	log := zerolog.New(io.Discard).Level(zerolog.InfoLevel).With().Timestamp().Logger()
	tel, err := NewTelemetry(context.Background(), TelemetryOptions{Getenv: func(string) string { return "" }, Logger: &log})
	if err != nil {
		b.Fatal(err)
	}
	gw, err := New(Options{Config: cfg, Limiter: limiter.NewMemory(nil), Transport: factsTransport{canned.Transport{B: benchBodies}},
		Logger: &log, Usage: usage.New(usage.Options{FlushInterval: cfg.UsageFlushInterval}), Telemetry: tel})
	if err != nil {
		b.Fatal(err)
	}
	var s facts.Store
	var cc *commandCount
	switch store {
	case "memory":
		s = facts.NewMemory(facts.MemoryOptions{})
	case "memory-unknown": // the store knows none of them
		s = facts.NewMemory(facts.MemoryOptions{})
		ids = nil
	case "redis":
		c, err := facts.NewRedisClient(testredis.URL(b))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = c.Close() })
		cc = &commandCount{}
		c.AddHook(cc)
		s = facts.NewRedis(c, facts.RedisOptions{Prefix: factsPrefix()})
	}
	if s == nil {
		gw.facts = nil
	} else {
		for _, id := range ids {
			if err := s.Record(context.Background(), kind, id, translate.Fact{TemplateID: "tpl_bench", Created: true}); err != nil {
				b.Fatal(err)
			}
		}
		gw.facts = &observedFacts{store: s, log: gw.log}
	}
	return gw, cc
}

func benchFacts(b *testing.B, target, kind string, ids []string) {
	for _, store := range []string{"none", "memory-unknown", "memory", "redis"} {
		b.Run(store, func(b *testing.B) {
			gw, cc := benchFactsGateway(b, store, kind, ids)
			br := newBenchRequest("GET", target, "", http.StatusOK)
			var before int64
			if cc != nil {
				before = cc.n.Load()
			}
			br.run(b, gw)
			if cc != nil {
				// run serves b.N+1 requests (one to warm up).
				b.ReportMetric(float64(cc.n.Load()-before)/float64(b.N+1), "redis-trips/op")
			}
		})
	}
}

// BenchmarkFactsListEndpoints: GET /v1/endpoints, 20 endpoints, all known.
func BenchmarkFactsListEndpoints(b *testing.B) {
	ids := make([]string, benchEndpoints)
	for i := range ids {
		ids[i] = fmt.Sprintf("ep%012d", i)
	}
	benchFacts(b, "/v1/endpoints", translate.FactEndpoint, ids)
}

// BenchmarkFactsListPods100: GET /v1/pods, 100 pods, all known to the store
// (the canned pods v2 gives no template).
func BenchmarkFactsListPods100(b *testing.B) {
	var l struct {
		Pods []struct {
			ID string `json:"id"`
		} `json:"pods"`
	}
	if err := json.Unmarshal(benchBodies.List, &l); err != nil {
		b.Fatal(err)
	}
	ids := make([]string, len(l.Pods))
	for i, p := range l.Pods {
		ids[i] = p.ID
	}
	benchFacts(b, "/v1/pods", translate.FactPod, ids)
}
