package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// The streaming list path (podStream, streamPodList) against
// the decomposed one it replaced: decodePodList, then filter, R-Pod and
// encode. Same answers, same errors, byte for byte.

// decomposedList is GET /v1/pods as it was before streaming.
func decomposedList(body []byte, q *podQuery) *Result {
	all, r := decodePodListAnswer(&V2Answer{Status: 200, Body: body})
	if r != nil {
		return r
	}
	b := append(make([]byte, 0, len(body)), '[')
	var v1 v1Pod
	n := 0
	for i := range all {
		if p := &all[i]; q.match(p) {
			if n > 0 {
				b = append(b, ',')
			}
			fillV1Pod(&v1, p)
			b = appendV1Pod(b, &v1)
			n++
		}
	}
	return &Result{Status: http.StatusOK, Body: append(b, ']')}
}

func sameListAnswer(t *testing.T, body []byte, q *podQuery) {
	t.Helper()
	want := decomposedList(body, q)
	got := streamPodList(context.Background(), &Request{}, &V2Answer{Status: 200, Body: body}, q)
	if got.Status != want.Status || !bytes.Equal(got.Body, want.Body) {
		t.Fatalf("for %.300q\nstream     %d %.300s\ndecomposed %d %.300s", body, got.Status, got.Body, want.Status, want.Body)
	}
	ReleaseBody(got.Body)
}

var streamEdgeCases = []string{
	`{"pods":[]}`, `{"pods":null}`, `{"other":1,"pods":[{"id":"a"}],"more":[1,{"x":2}]}`,
	`{"pods":[{"id":"a"},{"id":"b"}],"pods":[{"id":"c"}]}`, // the last "pods" wins, as in encoding/json
	`{"pods":[{"id":"a"}],"pods":null}`, `{"pods":[{"id":"a"}],"pods":[]}`, `{"pods":null,"pods":[{"id":"z"}]}`,
	` { "pods" : [ { "id" : "a" , "gpu" : { "id" : "g" , "count" : 2 } } , { "id" : "b" , "cpu" : null } ] } `,
	`{"pods":[{"id":"a","mounts":{"network":[{"volumeId":"v1","path":"/n"}]}},{"id":"b","mounts":{"network":[]}},{"id":"c","mounts":{"network":[{"volumeId":"v2","path":"/m"}]}}]}`,
	`{"pods":[{"id":"a","runtime":{"ports":[{"private":22,"public":1,"ip":"1.2.3.4"}]}},{"id":"b","runtime":{"ports":[]}},{"id":"c","runtime":null}]}`,
	`{"pods":[{"id":"a","gpu":{"id":"g1"},"gpu":{"id":"g2","count":3}}]}`,
	// malformed: the same error as decodePodList
	``, `{`, `[]`, `{"pods":{}}`, `{"pods":[{]}`, `{"pods":[1]}`, `{"pods":[{"disk":"50"}]}`, `{"pods":[{"disk":5.5}]}`,
	`{"pods":[{"name":"a` + "\x01" + `"}]}`, `{"pods":[]} x`, `{"other":1}`, `{"pods":[{"id":"a"},]}`, `{"pods":[{"id":"a"}`,
	`{"pods":[{"id":"a"}],"x":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`,
}

func TestStreamPodListMatchesDecomposed(t *testing.T) {
	all := &podQuery{}
	for _, c := range streamEdgeCases {
		sameListAnswer(t, []byte(c), all)
	}
	sameListAnswer(t, hundredPods(), all)
	gpuOnly := &podQuery{computeType: "GPU"}
	named := &podQuery{name: ptrTo("pod007")}
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
		for _, q := range []*podQuery{all, gpuOnly, named} {
			sameListAnswer(t, body, q)
		}
	}
}

// Through the plan: GET /v1/pods answers the same as before, filters and
// all.
func TestListPodsPlanStreams(t *testing.T) {
	op, _ := Lookup("ListPods")
	body := hundredPods()
	for _, query := range []string{"", "computeType=CPU", "name=pod003", "desiredStatus=RUNNING&gpuTypeId=NVIDIA+GeForce+RTX+4090"} {
		v, _ := url.ParseQuery(query)
		q, msg := parsePodQuery(v, true)
		if msg != "" {
			t.Fatal(msg)
		}
		res := op.Plan(t.Context(), &Request{Op: op, Query: v}, cannedCaller{&V2Answer{Status: 200, Body: body}})
		want := decomposedList(body, q)
		if res.Status != 200 || !bytes.Equal(res.Body, want.Body) {
			t.Fatalf("%q: %d %.200s\nwant %.200s", query, res.Status, res.Body, want.Body)
		}
	}
}

// decodePod (which starts from the key orders of the pods it read before)
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
		one, err := decodePod(pod)
		if err != nil {
			t.Fatal(err)
		}
		list, err := decodePodList([]byte(`{"pods":[` + string(pod) + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		// An empty "ports" array reads as an empty or a nil slice
		// (whether the reader had port storage yet): the same to every
		// encoder.
		for _, p := range []*v2Pod{one, &list[0]} {
			if p.Runtime != nil && len(p.Runtime.Ports) == 0 {
				p.Runtime.Ports = nil
			}
		}
		if !reflect.DeepEqual(*one, list[0]) {
			t.Fatalf("round %d: decodePod %+v (gpu %+v runtime %+v)\ndecodePodList %+v (gpu %+v runtime %+v)\n%s", round, *one, one.GPU, one.Runtime, list[0], list[0].GPU, list[0].Runtime, pod)
		}
	}
}

func TestReleaseBody(t *testing.T) {
	// A body that did not come from the pool is never reused.
	static := []byte(`{"static":true}`)
	ReleaseBody(static)
	ReleaseBody(nil)
	for range 10 {
		b := pooledBody(append(getAnswerBuf(64), "overwritten"...))
		ReleaseBody(b)
		ReleaseBody(b) // twice: the second is a no-op
	}
	if string(static) != `{"static":true}` {
		t.Fatalf("a released non-pooled body was reused: %s", static)
	}
	// Releasing twice never hands one buffer to two answers.
	b := pooledBody(append(getAnswerBuf(64), "x"...))
	ReleaseBody(b)
	ReleaseBody(b)
	b1, b2 := getAnswerBuf(64), getAnswerBuf(64)
	if cap(b1) > 0 && cap(b2) > 0 && &b1[:1][0] == &b2[:1][0] {
		t.Fatal("one buffer handed out twice")
	}
	// Forgotten bodies are bounded.
	for range 3 * maxOutstandingBodies {
		pooledBody(append(getAnswerBuf(8), 'x'))
	}
	answerBufs.mu.Lock()
	n := len(answerBufs.out)
	answerBufs.mu.Unlock()
	if n > maxOutstandingBodies {
		t.Fatalf("%d outstanding bodies", n)
	}
}

// FuzzStreamPodList: on any input, the streaming path answers exactly as
// the decomposed one.
func FuzzStreamPodList(f *testing.F) {
	for _, c := range streamEdgeCases {
		f.Add([]byte(c))
	}
	f.Add(hundredPods()[:3000])
	f.Fuzz(func(t *testing.T, b []byte) {
		sameListAnswer(t, b, &podQuery{})
	})
}

// TestStreamPodListPartsNotInherited: the streaming decoder reuses the
// storage of a pod's parts (gpu, cpu, mounts, runtime) for the next pod; a
// part the next pod gives only in part must not keep the previous pod's
// values — a pod must never be shown with another pod's GPU, ports or
// public IP. (Found by FuzzStreamPodList; the seed is in testdata.)
func TestStreamPodListPartsNotInherited(t *testing.T) {
	body := `{"pods":[` +
		`{"id":"a","gpu":{"id":"NVIDIA H100 80GB HBM3","count":8},"mounts":{"persistent":{"size":500,"path":"/data"}},` +
		`"runtime":{"ports":[{"private":22,"public":10341,"type":"tcp","ip":"203.0.113.7"}]}},` +
		`{"id":"c","cpu":{"id":"cpu5c","vcpuCount":16,"memory":64}},` +
		`{"id":"b","gpu":{"id":"NVIDIA A40"},"cpu":{"id":"cpu3c"},"mounts":{"persistent":{"path":"/w"}},"runtime":{"uptime":0}}]}`
	res := streamPodList(context.Background(), &Request{}, &V2Answer{Status: 200, Body: []byte(body)}, &podQuery{})
	defer ReleaseBody(res.Body)
	var pods []map[string]any
	if err := json.Unmarshal(res.Body, &pods); err != nil || len(pods) != 3 {
		t.Fatalf("%d pods, %v: %s", len(pods), err, res.Body)
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
	sameListAnswer(t, []byte(body), &podQuery{})
}
