package usage

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

// The request path's cost of the usage counts (Record) and the flush's,
// with the daily history; compare with an older version by running the
// same benchmarks there (BENCHMARKS.md does not cover them: make bench
// measures the gateway end to end).

func BenchmarkBatcherRecordOnePair(b *testing.B) {
	bt := New(Options{})
	b.ReportAllocs()
	for b.Loop() {
		bt.Record("3f2a9c0d5e6b7a8f9c0d1e2f3a4b5c6d", "ListPods")
	}
}

func BenchmarkBatcherRecordParallel(b *testing.B) {
	bt := New(Options{})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			bt.Record("3f2a9c0d5e6b7a8f9c0d1e2f3a4b5c6d", "ListPods")
		}
	})
}

// BenchmarkBatcherRecordAndFlush1000Pairs: 1000 calls of 1000 distinct
// (key id, operation) pairs, then a flush to a MemoryStore, per op.
func BenchmarkBatcherRecordAndFlush1000Pairs(b *testing.B) {
	keys := make([]string, 100)
	for i := range keys {
		keys[i] = "key" + strconv.Itoa(i)
	}
	ops := []string{"ListPods", "GetPod", "CreatePod", "StopPod", "StartPod", "DeletePod", "ListEndpoints", "GetEndpoint", "PodBilling", "ListTemplates"}
	clk := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	bt := New(Options{Now: func() time.Time { return clk }})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, k := range keys {
			for _, op := range ops {
				bt.Record(k, op)
			}
		}
		if err := bt.Flush(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRedisFlush1000Pairs: the flush of 1000 pairs (100 key ids) to
// the Redis of V1GW_TEST_REDIS_URL: one pipeline, per key id one script
// call (now also writing the daily hash) and one SADD.
func BenchmarkRedisFlush1000Pairs(b *testing.B) {
	url := os.Getenv("V1GW_TEST_REDIS_URL")
	if url == "" {
		b.Skip("V1GW_TEST_REDIS_URL not set")
	}
	client, err := NewRedisClient(url)
	if err != nil {
		b.Fatal(err)
	}
	defer client.Close()
	prefix := "v1gw:bench:" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":"
	defer func() {
		ctx := context.Background()
		iter := client.Scan(ctx, 0, prefix+"*", 1000).Iterator()
		for iter.Next(ctx) {
			client.Del(ctx, iter.Val())
		}
	}()
	bt := New(Options{Store: NewRedisStore(client, prefix)})
	ops := []string{"ListPods", "GetPod", "CreatePod", "StopPod", "StartPod", "DeletePod", "ListEndpoints", "GetEndpoint", "PodBilling", "ListTemplates"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for i := range 100 {
			for _, op := range ops {
				bt.Record("key"+strconv.Itoa(i), op)
			}
		}
		if err := bt.Flush(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
