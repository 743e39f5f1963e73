package translate

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"testing"
)

// The benchmarks below measure the gateway's hot path piece by piece on
// testdata/podlist100.json: the canned v2 list of make bench (100 pods,
// ~98 KB, written by bench/canned), so that figures here and there agree.

func benchPodList(b *testing.B) []byte {
	return benchPodListFile(b, "testdata/podlist100.json")
}

// benchMixedList is testdata/podlistmixed100.json: bench/canned's Mixed(100),
// five kinds of pods, most with quotes and escapes in args (issue 16).
func benchMixedList(b *testing.B) []byte {
	return benchPodListFile(b, "testdata/podlistmixed100.json")
}

func benchPodListFile(b *testing.B, name string) []byte {
	body, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// BenchmarkPodListDecode decodes the 100 pods one at a time (podStream).
func BenchmarkPodListDecode(b *testing.B) {
	benchDecode(b, benchPodList(b))
}

// BenchmarkPodListDecodeMixed is BenchmarkPodListDecode on the mixed list.
func BenchmarkPodListDecodeMixed(b *testing.B) {
	benchDecode(b, benchMixedList(b))
}

func benchDecode(b *testing.B, body []byte) {
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	var p v2Pod
	for b.Loop() {
		var s podStream
		s.init(body)
		n := 0
		for s.next(&p) {
			n++
		}
		if err := s.finish(); err != nil || n != 100 {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkPodListEncode encodes the 100 decoded pods as v1 pods.
func BenchmarkPodListEncode(b *testing.B) {
	body := benchPodList(b)
	pods, err := decodePodList(body)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	buf := make([]byte, 0, len(body))
	for b.Loop() {
		buf = buf[:0]
		for i := range pods {
			buf = appendV1PodOf(buf, &pods[i])
		}
	}
	b.SetBytes(int64(len(buf)))
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
