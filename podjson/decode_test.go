package podjson

import (
	"fmt"
	"strings"
	"testing"
)

// TestPodErrorNamesField: an error in the value of a pod's field is
// named by the field (pod names it when it next reads a key, as an error
// leaves the reader at the end of its input), also past the positions a
// keyOrder remembers; an error in a key, or in the value of an unknown
// key, is not.
func TestPodErrorNamesField(t *testing.T) {
	many := `"id":"x"` + strings.Repeat(`,"zz":1`, 40)
	for _, c := range []struct{ doc, want string }{
		{`{"pods":[{"id":"a","gpu":5}]}`, "pods[0]: gpu: expected an object at byte 25"},
		{`{"pods":[{"id":"a","gpu":{"id":"x","count":"1"}}]}`, "pods[0]: gpu: expected a number at byte 43"},
		{`{"pods":[{"id":"a","disk":1.5,"name":"n"}]}`, "pods[0]: disk: expected an integer at byte 29"},
		{`{"pods":[{"id":7}]}`, "pods[0]: id: expected a string at byte 15"},
		{`{"pods":[{"id":"a","zz":[1,}]}`, "pods[0]: expected a number at byte 27"},
		{`{"pods":[{"id":"a",5:1}]}`, "pods[0]: expected a string at byte 19"},
		{`{"pods":[{"id":"a","runtime":{"ports":[{"private":"x"}]}}]}`, "pods[0]: runtime: expected a number at byte 50"},
		{`{"pods":[{"id":"a","env":[1 2]}]}`, "pods[0]: env: expected , or ] in an array at byte 28"},
		{`{"pods":[{"id":"a","cost":nul}]}`, "pods[0]: cost: expected a number at byte 26"},
		{`{"pods":[{` + many + `,"cpu":{"id":1}}]}`, "pods[0]: cpu: expected a string at byte 311"},
		{`{"pods":[{` + many + `,"locked":tru}]}`, "pods[0]: locked: expected a boolean at byte 308"},
		{`{"pods":[{"id":"a","name":"b"},{"id":"a","name":"b"},{"id":"a","name":"\x01"}]}`, "pods[2]: name: invalid escape at byte 71"},
		{`{"pods":[{"id":"a","status":"RUNNING","startedAt":5}]}`, "pods[0]: startedAt: expected a string at byte 50"},
		{`{"pods":[{"id":"a","status":"RUNNING"}  ,  {"id":"b", "mounts":{"persistent":{"size":-}}}]}`, "pods[1]: mounts: expected a number at byte 85"},
	} {
		_, err := DecodePodList([]byte(c.doc))
		var s PodStream
		s.Init([]byte(c.doc))
		var p V2Pod
		for s.Next(&p) {
		}
		err2 := s.Finish()
		if fmt.Sprint(err) != c.want || fmt.Sprint(err2) != c.want {
			t.Errorf("%s: decodePodList %v, podStream %v, want %s", c.doc, err, err2, c.want)
		}
	}
}
