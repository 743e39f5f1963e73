package proxy

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkOpenBreakerAnswer measures the gateway's answer while the
// upstream breaker is open: no network, well under the 5 ms budget.
func BenchmarkOpenBreakerAnswer(b *testing.B) {
	var hits atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer up.Close()
	cfg := testConfig(up.URL)
	gw, err := New(Options{Config: cfg, Resilience: &ResilienceOptions{BreakerFailures: 1, BreakerOpenFor: time.Hour}})
	if err != nil {
		b.Fatal(err)
	}
	serve := func() int {
		req := httptest.NewRequest("GET", "/v1/pods", nil)
		req.Header.Set("Authorization", "Bearer k")
		w := httptest.NewRecorder()
		gw.ServeHTTP(w, req)
		return w.Code
	}
	serve() // one failure opens it
	if gw.BreakerState() != "open" {
		b.Fatal("breaker not open")
	}
	before := hits.Load()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if code := serve(); code != http.StatusServiceUnavailable {
			b.Fatalf("status %d", code)
		}
	}
	b.StopTimer()
	if n := hits.Load() - before; n != 0 {
		b.Fatalf("%d upstream calls while open", n)
	}
}
