package translate

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"testing"
)

// The benchmarks below measure the list's plan (GET /v1/pods) on
// podjson's testdata/podlist100.json: the canned v2 list of make bench
// (100 pods, ~98 KB, written by bench/canned), so that figures here and
// there agree. podjson's own benchmarks measure its decoder and encoder
// alone on the same lists.

func benchPodList(b *testing.B) []byte {
	return benchPodListFile(b, "../podjson/testdata/podlist100.json")
}

// benchMixedList is podjson's testdata/podlistmixed100.json:
// bench/canned's Mixed(100), five kinds of pods, most with quotes and
// escapes in args (issue 16).
func benchMixedList(b *testing.B) []byte {
	return benchPodListFile(b, "../podjson/testdata/podlistmixed100.json")
}

func benchPodListFile(b *testing.B, name string) []byte {
	body, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// BenchmarkPodListPlan is the whole ListPods plan on the canned list, with
// the answer buffer given back as the proxy does.
func BenchmarkPodListPlan(b *testing.B) {
	body := benchPodList(b)
	op, _ := Lookup("ListPods")
	c := cannedCaller{&V2Answer{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}}
	req := &Request{Op: op, Query: url.Values{}}
	ctx := context.Background()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		res := op.Plan(ctx, req, c)
		if res.Status != 200 {
			b.Fatal(res.Status)
		}
		ReleaseBody(res.Body)
	}
}

// BenchmarkPodListPlanMixed is BenchmarkPodListPlan on the mixed list.
func BenchmarkPodListPlanMixed(b *testing.B) {
	body := benchMixedList(b)
	op, _ := Lookup("ListPods")
	c := cannedCaller{&V2Answer{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}}
	req := &Request{Op: op, Query: url.Values{}}
	ctx := context.Background()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		res := op.Plan(ctx, req, c)
		if res.Status != 200 {
			b.Fatal(res.Status, string(res.Body))
		}
		ReleaseBody(res.Body)
	}
}
