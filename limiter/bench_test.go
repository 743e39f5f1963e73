package limiter

// Benchmarks of the decision path (go test -run '^$' -bench Allow -benchmem
// ./limiter/). Quotas are high enough that no key is ever denied, so every
// Redis decision is a real script call. Besides ns/op and allocs/op they
// report decisions/s and, for Redis, redis-cmds/op: the commands sent per
// decision (1.00: one round trip).

import (
	"context"
	"fmt"
	"testing"

	"github.com/v1gateway/v1gateway/internal/testredis"
)

const benchKeys = 1024

func benchKeyIDs() []string {
	ids := make([]string, benchKeys)
	for i := range ids {
		ids[i] = KeyID([]byte("bench"), fmt.Sprint("token-", i))
	}
	return ids
}

// benchAllow runs serial and parallel decisions; stats, when not nil,
// gives the Redis limiter's counters for the per-run metrics.
func benchAllow(b *testing.B, l Limiter, stats func() Stats) {
	ids := benchKeyIDs()
	ctx := context.Background()
	var start Stats
	begin := func() {
		if stats != nil {
			start = stats()
		}
	}
	end := func(b *testing.B) {
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
		if stats == nil {
			return
		}
		s := stats()
		if s.Fallbacks != start.Fallbacks {
			b.Fatalf("%d decisions fell back to memory: Redis failed (%d errors)", s.Fallbacks-start.Fallbacks, s.RedisErrors-start.RedisErrors)
		}
		b.ReportMetric(float64(s.RedisCalls-start.RedisCalls)/float64(b.N), "redis-cmds/op")
	}
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		begin()
		i := 0
		for b.Loop() {
			if _, err := l.Allow(ctx, ids[i%benchKeys], 1<<30); err != nil {
				b.Fatal(err)
			}
			i++
		}
		end(b)
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		begin()
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				if _, err := l.Allow(ctx, ids[i%benchKeys], 1<<30); err != nil {
					b.Error(err)
					return
				}
				i++
			}
		})
		end(b)
	})
}

func BenchmarkMemoryAllow(b *testing.B) {
	benchAllow(b, NewMemory(nil), nil)
}

func BenchmarkRedisAllow(b *testing.B) {
	r, err := NewRedis(RedisOptions{URL: testredis.URL(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	// Connect and load the script before measuring.
	if _, err := r.Allow(context.Background(), "warm-up", 1<<30); err != nil {
		b.Fatal(err)
	}
	benchAllow(b, r, r.Stats)
}
