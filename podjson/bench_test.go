package podjson

import (
	"os"
	"testing"
)

// The benchmarks below measure the engine of the gateway's hot path piece
// by piece on testdata/podlist100.json: the canned v2 list of make bench
// (100 pods, ~98 KB, written by bench/canned), so that figures here and
// there agree. The list's whole plan, as the proxy runs it, is measured in
// translate (BenchmarkPodListPlanStreamedMixed, which reads these files).

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

// BenchmarkPodListDecode decodes the 100 pods one at a time (PodStream).
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
	var p V2Pod
	for b.Loop() {
		var s PodStream
		s.Init(body)
		n := 0
		for s.Next(&p) {
			n++
		}
		if err := s.Finish(); err != nil || n != 100 {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkPodListEncode encodes the 100 decoded pods as v1 pods.
func BenchmarkPodListEncode(b *testing.B) {
	body := benchPodList(b)
	pods, err := DecodePodList(body)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	buf := make([]byte, 0, len(body))
	for b.Loop() {
		buf = buf[:0]
		for i := range pods {
			buf = AppendV1PodOf(buf, &pods[i])
		}
	}
	b.SetBytes(int64(len(buf)))
}
