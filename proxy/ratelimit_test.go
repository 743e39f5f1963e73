package proxy

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/internal/testredis"
	"github.com/v1gateway/v1gateway/limiter"
)

type downLimiter struct{}

func (downLimiter) Allow(context.Context, string, int) (limiter.Decision, error) {
	return limiter.Decision{}, limiter.ErrUnavailable
}
func (downLimiter) Close() error { return nil }

func TestLimiterFailClosedAnswers503(t *testing.T) {
	srv, rec := newTestGateway(t, func(_ *config.Config, o *Options) { o.Limiter = downLimiter{} })
	resp := do(t, "GET", srv.URL+"/v1/pods", "k", nil, nil)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", resp.StatusCode)
	}
	readMessage(t, resp)
	if rec.count() != 0 {
		t.Fatal("request reached the upstream without a rate-limit decision")
	}
}

type overloadedLimiter struct{}

func (overloadedLimiter) Allow(context.Context, string, int) (limiter.Decision, error) {
	return limiter.Decision{}, fmt.Errorf("%w: no turn to send to Redis within 500ms", limiter.ErrOverloaded)
}
func (overloadedLimiter) Close() error { return nil }

// A gateway too busy to have Redis decide in time sheds the request (503,
// Retry-After) in fail-open mode too: it never admits it uncounted.
func TestLimiterOverloadedSheds503(t *testing.T) {
	srv, rec := newTestGateway(t, func(_ *config.Config, o *Options) { o.Limiter = overloadedLimiter{} })
	resp := do(t, "GET", srv.URL+"/v1/pods", "k", nil, nil)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" {
		t.Fatalf("status %d, Retry-After %q; want 503 and 1", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if msg := readMessage(t, resp); !strings.Contains(msg, "overloaded") {
		t.Errorf("message %q", msg)
	}
	if rec.count() != 0 {
		t.Fatal("request reached the upstream without a rate-limit decision")
	}
}

// TestReplicasShareRedisQuota runs three gateway replicas against one real
// Redis: together they let exactly the quota through for one key, and
// another key is unaffected.
func TestReplicasShareRedisQuota(t *testing.T) {
	url := testredis.URL(t)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"pods":[]}`))
	}))
	defer up.Close()

	var b [8]byte
	_, _ = rand.Read(b[:])
	secret := "replicas-" + hex.EncodeToString(b[:]) // fresh key ids per run: nothing to flush
	const quota = 12
	var gws []*httptest.Server
	for range 3 {
		cfg := testConfig(up.URL)
		cfg.KeyHashSecret = secret
		cfg.RateLimitPerMinute = quota
		rl, err := limiter.NewRedis(limiter.RedisOptions{URL: url})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rl.Close() })
		gw, err := New(Options{Config: cfg, Limiter: rl})
		if err != nil {
			t.Fatal(err)
		}
		s := httptest.NewServer(gw)
		t.Cleanup(s.Close)
		gws = append(gws, s)
	}
	// Warm up each replica's Redis connection first: with a 50ms call
	// timeout, a burst of first connections on a loaded machine would
	// send decisions to the per-process fallback (fail-open), which is
	// not what this test is about.
	for _, s := range gws {
		resp := do(t, "GET", s.URL+"/v2/pods", "warm-up-key", nil, nil)
		resp.Body.Close()
	}
	var ok, limited atomic.Int64
	var wg sync.WaitGroup
	// One client per replica, concurrently: 30 requests in all.
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				resp := do(t, "GET", gws[i].URL+"/v2/pods", "shared-key", nil, nil)
				resp.Body.Close()
				switch resp.StatusCode {
				case 200:
					ok.Add(1)
				case 429:
					limited.Add(1)
				default:
					t.Errorf("status %d", resp.StatusCode)
				}
			}
		}()
	}
	wg.Wait()
	// A window boundary during the run would let up to 2×quota through;
	// the limiter package's own tests pin windows exactly. Here the point is
	// that replicas share one count.
	if n := ok.Load(); n != quota && n > 2*quota {
		t.Fatalf("%d requests passed across 3 replicas, want %d", n, quota)
	}
	if limited.Load() == 0 {
		t.Fatal("no request was limited: replicas do not share the quota")
	}
	resp := do(t, "GET", gws[0].URL+"/v2/pods", "other-key", nil, nil)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("another key got %d", resp.StatusCode)
	}
}
