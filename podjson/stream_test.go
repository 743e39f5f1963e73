package podjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The streaming decoder (PodStream, on the whole answer and through a
// reader) with the fused encoder (AppendV1PodOf), against the whole-answer
// decoder with R-Pod's reference (DecodePodList, FillV1Pod, AppendV1Pod):
// the same v1 list and the same error, byte for byte.

// decomposedV1List is the v1 list of the pods DecodePodList reads from
// body, mapped by FillV1Pod and written by AppendV1Pod, or its error.
func decomposedV1List(body []byte) ([]byte, error) {
	pods, err := DecodePodList(body)
	if err != nil {
		return nil, err
	}
	b := []byte{'['}
	var v1 V1Pod
	for i := range pods {
		if i > 0 {
			b = append(b, ',')
		}
		FillV1Pod(&v1, &pods[i])
		b = AppendV1Pod(b, &v1)
	}
	return append(b, ']'), nil
}

// chunkReader hands out its bytes size at a time, then io.EOF.
type chunkReader struct {
	b    []byte
	size int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b[:min(len(p), r.size, len(r.b))])
	r.b = r.b[n:]
	return n, nil
}

// streamedV1List is the v1 list that PodStream and AppendV1PodOf write
// from body: read whole (chunk 0), or through a window that starts with
// its first prefix bytes and reads the rest chunk bytes at a time. A
// repeated "pods" member starts the list over, as translate's lists do.
func streamedV1List(body []byte, prefix, chunk int) ([]byte, error) {
	var s PodStream
	var st PodStorage
	if chunk == 0 {
		s.Init(body)
	} else {
		prefix = min(prefix, len(body))
		s.InitReader(append([]byte(nil), body[:prefix]...), &chunkReader{b: body[prefix:], size: chunk}, &st)
		defer s.Release(&st)
	}
	b := []byte{'['}
	var p V2Pod
	n, resets := 0, 0
	for s.Next(&p) {
		if s.Resets() != resets {
			resets, b, n = s.Resets(), b[:1], 0
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = AppendV1PodOf(b, &p)
		n++
	}
	if err := s.Finish(); err != nil {
		return nil, err
	}
	if s.Resets() != resets {
		b = b[:1] // a last "pods" member that is null or empty
	}
	return append(b, ']'), nil
}

// sameStreamedList: body streamed, whole and through windows of several
// sizes, gives the decomposed list or its error.
func sameStreamedList(t *testing.T, body []byte) {
	t.Helper()
	want, werr := decomposedV1List(body)
	for _, w := range []struct{ prefix, chunk int }{{0, 0}, {4, 1}, {4, 7}, {64, 4096}} {
		got, err := streamedV1List(body, w.prefix, w.chunk)
		if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("for %.300q (window %d, chunks of %d)\nstream     %.300s (%v)\ndecomposed %.300s (%v)", body, w.prefix, w.chunk, got, err, want, werr)
		}
	}
}

var streamEdgeCases = []string{
	`{"pods":[]}`, `{"pods":null}`, `{"other":1,"pods":[{"id":"a"}],"more":[1,{"x":2}]}`,
	`{"pods":[{"id":"a"},{"id":"b"}],"pods":[{"id":"c"}]}`, // the last "pods" wins, as in encoding/json
	`{"pods":[{"id":"a"}],"pods":null}`, `{"pods":[{"id":"a"}],"pods":[]}`, `{"pods":null,"pods":[{"id":"z"}]}`,
	` { "pods" : [ { "id" : "a" , "gpu" : { "id" : "g" , "count" : 2 } } , { "id" : "b" , "cpu" : null } ] } `,
	`{"pods":[{"id":"a","mounts":{"network":[{"volumeId":"v1","path":"/n"}]}},{"id":"b","mounts":{"network":[]}},{"id":"c","mounts":{"network":[{"volumeId":"v2","path":"/m"}]}}]}`,
	`{"pods":[{"id":"a","runtime":{"ports":[{"private":22,"public":1,"ip":"1.2.3.4"}]}},{"id":"b","runtime":{"ports":[]}},{"id":"c","runtime":null}]}`,
	`{"pods":[{"id":"a","gpu":{"id":"g1"},"gpu":{"id":"g2","count":3}}]}`,
	// malformed: the same error as DecodePodList
	``, `{`, `[]`, `{"pods":{}}`, `{"pods":[{]}`, `{"pods":[1]}`, `{"pods":[{"disk":"50"}]}`, `{"pods":[{"disk":5.5}]}`,
	`{"pods":[{"name":"a` + "\x01" + `"}]}`, `{"pods":[]} x`, `{"other":1}`, `{"pods":[{"id":"a"},]}`, `{"pods":[{"id":"a"}`,
	`{"pods":[{"id":"a"}],"x":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`,
}

func TestStreamMatchesDecodePodList(t *testing.T) {
	for _, c := range streamEdgeCases {
		sameStreamedList(t, []byte(c))
	}
	sameStreamedList(t, hundredPods())
	for _, name := range []string{"testdata/podlist100.json", "testdata/podlistmixed100.json"} {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sameStreamedList(t, body)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 300; round++ {
		var pods []any
		for i := r.IntN(6); i >= 0; i-- {
			pods = append(pods, randomV2Pod(r, i))
		}
		body, err := json.Marshal(map[string]any{"pods": pods})
		if err != nil {
			t.Fatal(err)
		}
		if round%3 == 1 {
			body = []byte(strings.ReplaceAll(string(body), ",", " ,\n\t"))
		}
		sameStreamedList(t, body)
	}
}

// DecodePod (which starts from the key orders of the pods it read before)
// and a list of one pod (which starts from none) read the same pod, over
// pods whose keys come in one order, then in others.
func TestDecodePodMatchesList(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 400; round++ {
		pod, err := json.Marshal(randomV2Pod(r, round))
		if err != nil {
			t.Fatal(err)
		}
		if round%4 == 3 {
			pod = shuffledJSON(t, r, randomV2Pod(r, round))
		}
		one, err := DecodePod(pod)
		if err != nil {
			t.Fatal(err)
		}
		list, err := DecodePodList([]byte(`{"pods":[` + string(pod) + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		// An empty "ports" array reads as an empty or a nil slice
		// (whether the reader had port storage yet): the same to every
		// encoder.
		for _, p := range []*V2Pod{one, &list[0]} {
			if p.Runtime != nil && len(p.Runtime.Ports) == 0 {
				p.Runtime.Ports = nil
			}
		}
		if !reflect.DeepEqual(*one, list[0]) {
			t.Fatalf("round %d: decodePod %+v (gpu %+v runtime %+v)\ndecodePodList %+v (gpu %+v runtime %+v)\n%s", round, *one, one.GPU, one.Runtime, list[0], list[0].GPU, list[0].Runtime, pod)
		}
	}
}

// FuzzStreamPodList: on any input, read whole or through a window, the
// streaming path answers exactly as the decomposed one.
func FuzzStreamPodList(f *testing.F) {
	for _, c := range streamEdgeCases {
		f.Add([]byte(c))
	}
	f.Add(hundredPods()[:3000])
	f.Fuzz(func(t *testing.T, b []byte) {
		sameStreamedList(t, b)
	})
}

// TestStreamPodListPartsNotInherited: the streaming decoder reuses the
// storage of a pod's parts (gpu, cpu, mounts, runtime) for the next pod; a
// part the next pod gives only in part must not keep the previous pod's
// values — a pod must never be shown with another pod's GPU, ports or
// public IP. (Found by FuzzStreamPodList; the seed is in testdata/fuzz.)
func TestStreamPodListPartsNotInherited(t *testing.T) {
	body := `{"pods":[` +
		`{"id":"a","gpu":{"id":"NVIDIA H100 80GB HBM3","count":8},"mounts":{"persistent":{"size":500,"path":"/data"}},` +
		`"runtime":{"ports":[{"private":22,"public":10341,"type":"tcp","ip":"203.0.113.7"}]}},` +
		`{"id":"c","cpu":{"id":"cpu5c","vcpuCount":16,"memory":64}},` +
		`{"id":"b","gpu":{"id":"NVIDIA A40"},"cpu":{"id":"cpu3c"},"mounts":{"persistent":{"path":"/w"}},"runtime":{"uptime":0}}]}`
	list, err := streamedV1List([]byte(body), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var pods []map[string]any
	if err := json.Unmarshal(list, &pods); err != nil || len(pods) != 3 {
		t.Fatalf("%d pods, %v: %s", len(pods), err, list)
	}
	b := pods[2]
	if g := b["gpu"].(map[string]any); g["id"] != "NVIDIA A40" || g["count"] != 0.0 {
		t.Errorf("pod b's gpu %v: another pod's values leaked in", g)
	}
	if b["vcpuCount"] != nil || b["memoryInGb"] != nil {
		t.Errorf("pod b shows pod c's CPU: vcpuCount %v, memoryInGb %v", b["vcpuCount"], b["memoryInGb"])
	}
	if b["volumeInGb"] != 0.0 || b["publicIp"] != nil || len(b["portMappings"].(map[string]any)) != 0 {
		t.Errorf("pod b shows pod a's volume or ports: volumeInGb %v, publicIp %v, portMappings %v", b["volumeInGb"], b["publicIp"], b["portMappings"])
	}
	sameStreamedList(t, []byte(body))
}

// TestPodStorageClearKeepsNoPointer: what a stream leaves in its storage
// for the next one holds, once cleared, no reference to its answer, and
// buffers grown past the usual are dropped.
func TestPodStorageClearKeepsNoPointer(t *testing.T) {
	var st PodStorage
	if _, err := streamedV1ListInto(&st, hundredPods()); err != nil {
		t.Fatal(err)
	}
	if cap(st.gpus.buf) == 0 || cap(st.ports) == 0 {
		t.Fatalf("the stream's storage was not handed back: gpus cap %d, ports cap %d", cap(st.gpus.buf), cap(st.ports))
	}
	st.gpus.new().ID = "NVIDIA A40"
	st.rts.new().Ports = make([]V2RuntimePort, 3)
	st.ports = append(st.ports, V2RuntimePort{IP: "10.0.0.1"})
	st.net = append(st.net, V2NetworkMount{VolumeID: "vol1"})
	st.scratch = append(st.scratch, "x"...)
	var big PodStorage
	big.ports = make([]V2RuntimePort, maxKeptPorts+1)

	st.Clear()
	big.Clear()
	if g := st.gpus.buf[:1][0]; g != (V2PodGPU{}) {
		t.Errorf("a GPU kept: %+v", g)
	}
	if rt := st.rts.buf[:1][0]; rt.Ports != nil {
		t.Errorf("a runtime kept its ports")
	}
	if st.ports[:1][0] != (V2RuntimePort{}) || st.net[:1][0] != (V2NetworkMount{}) {
		t.Errorf("a port or network mount kept: %+v %+v", st.ports[:1], st.net[:1])
	}
	if len(st.ports) != 0 || len(st.scratch) != 0 || cap(st.ports) == 0 {
		t.Errorf("not emptied, or not kept: %d ports (cap %d), %d bytes", len(st.ports), cap(st.ports), len(st.scratch))
	}
	if big.ports != nil {
		t.Errorf("buffers past the usual sizes kept: %d ports", cap(big.ports))
	}
}

// streamedV1ListInto streams body through a window, in st's storage,
// which it hands back to st.
func streamedV1ListInto(st *PodStorage, body []byte) (int, error) {
	var s PodStream
	s.InitReader(append([]byte(nil), body[:64]...), &chunkReader{b: body[64:], size: 1000}, st)
	defer s.Release(st)
	n := 0
	var p V2Pod
	for s.Next(&p) {
		n++
	}
	return n, s.Finish()
}
