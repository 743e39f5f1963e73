package graphql

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/bench/canned"
	"github.com/v1gateway/v1gateway/podjson"
	"github.com/v1gateway/v1gateway/translate"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden from the door's answers")

// allPodFields selects every Pod field, under aliases, fragments (spread
// and inline), @skip/@include and a key selected twice (merged), with
// __typename at each level: the executor's every way of writing a pod.
const allPodFields = `
query AllPodFields($yes: Boolean!, $no: Boolean!) {
  myself {
    __typename
    pods {
      __typename
      id
      podId: id
      ...podLeaves
      ... on Pod { env ports }
      name @include(if: $yes)
      imageName @skip(if: $no)
      desiredStatus @skip(if: $yes)
      machine { __typename gpuDisplayName location podHostId }
      machine { gpuDisplayName }
      runtime {
        __typename
        uptimeInSeconds
        ports { __typename ip isIpPublic privatePort publicPort type }
        open: ports { publicPort }
        gpus { id gpuUtilPercent }
        container { cpuPercent memoryPercent }
      }
    }
  }
}
fragment podLeaves on Pod {
  containerDiskInGb costPerHr dockerArgs dockerId gpuCount lastStatusChange
  machineId memoryInGb podType port uptimeSeconds vcpuCount volumeInGb
  volumeMountPath
}`

// TestAnswersMatchTheirGoldenFiles pins the door's whole answers (data,
// errors, warnings) over make bench's 100 mixed pods, byte for byte:
// a change of how the executor writes must not change what it writes.
// go test ./graphql -run Golden -update rewrites them.
func TestAnswersMatchTheirGoldenFiles(t *testing.T) {
	cases := []struct {
		golden string
		req    Request
	}{
		{"get_pods.json", Request{Query: clientDocument(t, "runpod-python/get_pods.graphql")}},
		{"all_pod_fields.json", Request{Query: allPodFields, Variables: map[string]any{"yes": true, "no": false}}},
	}
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	env := &Env{Caller: cannedCaller{canned.New(100)}, Options: translate.Options{Now: func() time.Time { return now }}, KeyID: "key-golden"}
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			resp := d.Execute(context.Background(), env, c.req)
			got := append([]byte(nil), resp.Body...)
			podjson.ReleaseBody(resp.Body)
			file := filepath.Join("testdata", "golden", c.golden)
			if *updateGolden {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (go test -run Golden -update writes it)", err)
			}
			if !bytes.Equal(got, want) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Errorf("the answer differs from %s at byte %d:\n got: %.200s\nwant: %.200s", file, i, got[max(0, i-60):], want[max(0, i-60):])
			}
		})
	}
}

// TestConcurrentAnswersAreIntact runs the golden get_pods from many
// goroutines at once: a pod list's models live in pooled storage given
// back when the answer is written (translate.Result.Release), and no
// answer may read another's.
func TestConcurrentAnswersAreIntact(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "golden", "get_pods.json"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	env := &Env{Caller: cannedCaller{canned.New(100)}, Options: translate.Options{Now: func() time.Time { return now }}, KeyID: "key-golden"}
	req := Request{Query: clientDocument(t, "runpod-python/get_pods.graphql")}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Go(func() {
			for range 20 {
				resp := d.Execute(context.Background(), env, req)
				if !bytes.Equal(resp.Body, want) {
					t.Errorf("an answer differs from testdata/golden/get_pods.json (%d bytes, want %d)", len(resp.Body), len(want))
				}
				podjson.ReleaseBody(resp.Body)
			}
		})
	}
	wg.Wait()
}
