package translate

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/podjson"
)

// The streaming list path (streamPodList: podjson.PodStream, the filters,
// podjson.AppendV1PodOf) against the decomposed one it replaced:
// podjson.DecodePodList, then the filters, R-Pod (podjson.FillV1Pod) and
// podjson.AppendV1Pod. Same answers, same errors, byte for byte. (podjson's
// stream_test.go checks the two without the plan, on random pods too.)

// decomposedList is GET /v1/pods as it was before streaming.
func decomposedList(body []byte, q *podQuery) *Result {
	all, r := decodePodListAnswer(&V2Answer{Status: 200, Body: body})
	if r != nil {
		return r
	}
	b := append(make([]byte, 0, len(body)), '[')
	var v1 podjson.V1Pod
	n := 0
	for i := range all {
		if p := &all[i]; q.match(p) {
			if n > 0 {
				b = append(b, ',')
			}
			podjson.FillV1Pod(&v1, p)
			b = podjson.AppendV1Pod(b, &v1)
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

// streamEdgeCases are podjson's (stream_test.go), for the plan.
var streamEdgeCases = []string{
	`{"pods":[]}`, `{"pods":null}`, `{"other":1,"pods":[{"id":"a"}],"more":[1,{"x":2}]}`,
	`{"pods":[{"id":"a"},{"id":"b"}],"pods":[{"id":"c"}]}`, // the last "pods" wins, as in encoding/json
	`{"pods":[{"id":"a"}],"pods":null}`, `{"pods":[{"id":"a"}],"pods":[]}`, `{"pods":null,"pods":[{"id":"z"}]}`,
	` { "pods" : [ { "id" : "a" , "gpu" : { "id" : "g" , "count" : 2 } } , { "id" : "b" , "cpu" : null } ] } `,
	`{"pods":[{"id":"a","mounts":{"network":[{"volumeId":"v1","path":"/n"}]}},{"id":"b","mounts":{"network":[]}},{"id":"c","mounts":{"network":[{"volumeId":"v2","path":"/m"}]}}]}`,
	`{"pods":[{"id":"a","runtime":{"ports":[{"private":22,"public":1,"ip":"1.2.3.4"}]}},{"id":"b","runtime":{"ports":[]}},{"id":"c","runtime":null}]}`,
	`{"pods":[{"id":"a","gpu":{"id":"g1"},"gpu":{"id":"g2","count":3}}]}`,
	// malformed: the same error as podjson.DecodePodList
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
	for _, name := range []string{"../podjson/testdata/podlist100.json", "../podjson/testdata/podlistmixed100.json"} {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
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
