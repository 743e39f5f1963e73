package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"runtime"
	"sync"
	"testing"
)

// Streamed GET /v1/pods (issue 16): the plan as the proxy runs it, reading
// v2's answer from a reader and writing the v1 one to a writer; and the
// memory that 128 lists of 1000 pods hold at once, read whole (as before)
// and streamed.

// readerCaller answers GET /v2/pods with body, streamed from a reader.
type readerCaller struct{ body []byte }

func (c readerCaller) Call(context.Context, V2Call) (*V2Answer, error) {
	return &V2Answer{Status: 200, Body: c.body}, nil
}

func (c readerCaller) CallStream(context.Context, V2Call) (*V2Answer, io.ReadCloser, error) {
	return &V2Answer{Status: 200}, io.NopCloser(bytes.NewReader(c.body)), nil
}

func benchStreamedPlan(b *testing.B, body []byte) {
	op, _ := Lookup("ListPods")
	c := readerCaller{body}
	req := &Request{Op: op, Query: url.Values{}}
	ctx := context.Background()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		res := op.Plan(ctx, req, c)
		if res.Status != 200 {
			b.Fatal(res.Status, string(res.Body))
		}
		if res.Stream != nil {
			if fail := res.Stream(io.Discard); fail != nil {
				b.Fatal(fail.Status, string(fail.Body))
			}
		}
		ReleaseBody(res.Body)
	}
}

// BenchmarkPodListPlanStreamed is BenchmarkPodListPlan through a
// StreamCaller, as the proxy runs it.
func BenchmarkPodListPlanStreamed(b *testing.B) { benchStreamedPlan(b, benchPodList(b)) }

// BenchmarkPodListPlanStreamedMixed is the same on the mixed list.
func BenchmarkPodListPlanStreamedMixed(b *testing.B) { benchStreamedPlan(b, benchMixedList(b)) }

// BenchmarkPodListPlanStreamed1000 is the same on 1000 mixed pods.
func BenchmarkPodListPlanStreamed1000(b *testing.B) { benchStreamedPlan(b, mixedList1000(b)) }

// BenchmarkPodListPlan1000 is the whole-answer plan on 1000 mixed pods.
func BenchmarkPodListPlan1000(b *testing.B) {
	body := mixedList1000(b)
	op, _ := Lookup("ListPods")
	c := cannedCaller{&V2Answer{Status: 200, Body: body}}
	req := &Request{Op: op, Query: url.Values{}}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		res := op.Plan(context.Background(), req, c)
		if res.Status != 200 {
			b.Fatal(res.Status)
		}
		ReleaseBody(res.Body)
	}
}

// mixedList1000 is the mixed list's pods ten times over.
func mixedList1000(b testing.TB) []byte {
	body, err := os.ReadFile("../podjson/testdata/podlistmixed100.json")
	if err != nil {
		b.Fatal(err)
	}
	var l struct {
		Pods []json.RawMessage `json:"pods"`
	}
	if err := json.Unmarshal(body, &l); err != nil {
		b.Fatal(err)
	}
	out := []byte(`{"pods":[`)
	for i := range 1000 {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, l.Pods[i%len(l.Pods)]...)
	}
	return append(out, "]}"...)
}

// BenchmarkPodListInFlight128 holds 128 GET /v1/pods of 1000 mixed pods in
// flight at once — each stopped where its answer is written — and reports
// the live heap per request (after a collection): "whole" is the path
// before streaming (the v2 answer read whole, as the proxy's readBody
// does, and the v1 answer built whole), "streamed" the streamed one, and
// "streamed-with-store" the same with a fact store (windows of 128 pods).
func BenchmarkPodListInFlight128(b *testing.B) {
	body := mixedList1000(b)
	op, _ := Lookup("ListPods")
	const inflight = 128
	run := func(b *testing.B, streamed bool, facts Facts) {
		var perReq float64
		for b.Loop() {
			// Twice: pooled buffers survive one collection.
			runtime.GC()
			runtime.GC()
			var base runtime.MemStats
			runtime.ReadMemStats(&base)
			var arrived, wg sync.WaitGroup
			arrived.Add(inflight)
			release := make(chan struct{})
			wg.Add(inflight)
			for range inflight {
				go func() {
					defer wg.Done()
					req := &Request{Op: op, Query: url.Values{}, Facts: facts}
					if !streamed {
						// The proxy reads v2's answer into its own buffer.
						a := &V2Answer{Status: 200, Body: append([]byte(nil), body...)}
						res := op.Plan(context.Background(), req, cannedCaller{a})
						arrived.Done()
						<-release
						runtime.KeepAlive(a.Body)
						ReleaseBody(res.Body)
						return
					}
					res := op.Plan(context.Background(), req, readerCaller{body})
					w := &parkWriter{arrived: &arrived, release: release}
					if fail := res.Stream(w); fail != nil {
						b.Error(fail.Status)
					}
				}()
			}
			arrived.Wait()
			runtime.GC()
			var at runtime.MemStats
			runtime.ReadMemStats(&at)
			close(release)
			wg.Wait()
			perReq = float64(int64(at.HeapInuse)-int64(base.HeapInuse)) / inflight
		}
		b.ReportMetric(perReq/1024, "KiB/req-in-flight")
		b.ReportMetric(perReq*inflight/(1<<20), "MiB-at-128")
	}
	b.Run("whole", func(b *testing.B) { run(b, false, nil) })
	b.Run("streamed", func(b *testing.B) { run(b, true, nil) })
	// With a store that knows none of the pods: windows of 128 pods.
	b.Run("streamed-with-store", func(b *testing.B) { run(b, true, newFakeFacts()) })
}

// parkWriter stops its stream at its first Write until released.
type parkWriter struct {
	arrived *sync.WaitGroup
	release chan struct{}
	once    bool
}

func (w *parkWriter) Write(p []byte) (int, error) {
	if !w.once {
		w.once = true
		w.arrived.Done()
		<-w.release
	}
	return len(p), nil
}
