package proxy

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
)

// End to end: the three v1 billing histories. Expected amounts are computed
// from the simulator's own v2 records, read directly.

type v2Record struct {
	StartTime             string  `json:"startTime"`
	PodID                 string  `json:"podId"`
	ServerlessID          string  `json:"serverlessId"`
	NetworkVolumeID       string  `json:"networkVolumeId"`
	TotalAmount           float64 `json:"totalAmount"`
	HighPerformanceAmount float64 `json:"highPerformanceAmount"`
}

func (e *e2e) v2Records(path string) []v2Record {
	e.t.Helper()
	r := e.v2("GET", path, "")
	e.want(r, 200)
	var l struct {
		Records []v2Record `json:"records"`
	}
	if err := json.Unmarshal(r.body, &l); err != nil {
		e.t.Fatal(err)
	}
	return l.Records
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// billingWorld creates two GPU pods of different types, a CPU pod, a pod
// that is then terminated, two network volumes (one high-performance), and a
// serverless endpoint with one worker; then lets two days pass.
func billingWorld(t *testing.T, o e2eOpts) (e *e2e, gpuPods map[string]string, cpuPod, gone string) {
	e = newE2E(t, o)
	gpuPods = map[string]string{}
	for name, gpu := range map[string]string{"a": "NVIDIA RTX A4000", "b": "NVIDIA L40S"} {
		r := e.v1("POST", "/v1/pods", `{"name":"`+name+`","imageName":"img","gpuTypeIds":["`+gpu+`"]}`)
		e.want(r, 201)
		gpuPods[r.json(t)["id"].(string)] = gpu
	}
	r := e.v1("POST", "/v1/pods", `{"name":"c","computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu3c"]}`)
	e.want(r, 201)
	cpuPod = r.json(t)["id"].(string)
	r = e.v1("POST", "/v1/pods", `{"name":"gone","imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"]}`)
	e.want(r, 201)
	gone = r.json(t)["id"].(string)
	e.want(e.v1("POST", "/v1/networkvolumes", `{"name":"std","size":100,"dataCenterId":"EU-RO-1"}`), 200)
	e.want(e.v1("POST", "/v1/networkvolumes", `{"name":"hp","size":200,"dataCenterId":"US-KS-2"}`), 200)
	e.want(e.v2("POST", "/v2/serverless", `{"name":"ep","type":"QUEUE","scaling":{"type":"QUEUE_DELAY","queueDelay":4},"gpu":{"pools":["AMPERE_16"]},"image":"img","workers":{"min":1,"max":2}}`), 201)
	e.clock.advance(30 * time.Hour)
	e.want(e.v1("DELETE", "/v1/pods/"+gone, ""), 204)
	e.clock.advance(20 * time.Hour)
	return e, gpuPods, cpuPod, gone
}

func TestE2EPodBilling(t *testing.T) {
	e, gpuPods, cpuPod, gone := billingWorld(t, e2eOpts{})
	v2 := e.v2Records("/v2/billing/pods")

	t.Run("default grouping gpuTypeId", func(t *testing.T) {
		want := map[[2]string]float64{} // (time, gpu type) → amount
		for _, r := range v2 {
			want[[2]string{r.StartTime, gpuPods[r.PodID]}] += r.TotalAmount
		}
		r, calls := e.rsV1("GET", "/v1/billing/pods", "")
		e.want(r, 200)
		e.rsWantCalls(calls, "GET /v2/billing/pods", "GET /v2/pods")
		got := r.list(t)
		if len(got) != len(want) {
			t.Fatalf("%d records, want %d: %s", len(got), len(want), r.body)
		}
		for _, rec := range got {
			gt, _ := rec["gpuTypeId"].(string)
			if a, ok := want[[2]string{rec["time"].(string), gt}]; !ok || !near(a, rec["amount"].(float64)) {
				t.Errorf("record %v, want amount %v", rec, a)
			}
			if rec["podId"] != nil || rec["diskSpaceBilledGb"] != nil || rec["timeBilledMs"] != nil {
				t.Errorf("record %v has fields v2 cannot fill", rec)
			}
		}
		w := strings.Join(r.header.Values("X-Compat-Warning"), " | ")
		if !strings.Contains(w, gone) || !strings.Contains(w, "1 CPU pod(s)") {
			t.Errorf("X-Compat-Warning %q should name the terminated pod and the CPU pod", w)
		}
	})

	t.Run("grouping podId with a pod filter", func(t *testing.T) {
		r, calls := e.rsV1("GET", "/v1/billing/pods?grouping=podId&podId="+cpuPod+"&bucketSize=hour&startTime=2026-06-02T00:00:00Z&endTime=2026-06-02T05:59:59Z", "")
		e.want(r, 200)
		e.rsWantCalls(calls, "GET /v2/billing/pods?bucketSize=hour&endTime=2026-06-02T05%3A59%3A59Z&podId="+cpuPod+"&startTime=2026-06-02T00%3A00%3A00Z")
		got := r.list(t)
		if len(got) != 6 {
			t.Fatalf("%d hourly records: %s", len(got), r.body)
		}
		for _, rec := range got {
			if rec["podId"] != cpuPod || rec["gpuTypeId"] != nil {
				t.Errorf("record %v", rec)
			}
		}
	})

	t.Run("gpuTypeId filter", func(t *testing.T) {
		var want float64
		for _, r := range v2 {
			if gpuPods[r.PodID] == "NVIDIA L40S" {
				want += r.TotalAmount
			}
		}
		r, calls := e.rsV1("GET", "/v1/billing/pods?gpuTypeId=NVIDIA%20L40S", "")
		e.want(r, 200)
		e.rsWantCalls(calls, "GET /v2/billing/pods", "GET /v2/pods")
		var sum float64
		for _, rec := range r.list(t) {
			if rec["gpuTypeId"] != "NVIDIA L40S" {
				t.Errorf("record %v", rec)
			}
			sum += rec["amount"].(float64)
		}
		if want == 0 || !near(sum, want) {
			t.Errorf("sum %v, want %v", sum, want)
		}
	})

	t.Run("invalid parameters before any v2 call", func(t *testing.T) {
		for _, q := range []string{"grouping=endpointId", "bucketSize=minute", "startTime=yesterday", "gpuTypeId=NVIDIA%20X"} {
			r, calls := e.rsV1("GET", "/v1/billing/pods?"+q, "")
			e.want(r, 400)
			e.rsWantCalls(calls)
		}
	})
}

func TestE2EEndpointBilling(t *testing.T) {
	e, _, _, _ := billingWorld(t, e2eOpts{})
	v2 := e.v2Records("/v2/billing/serverless")
	if len(v2) == 0 {
		t.Fatal("the simulator billed no serverless usage")
	}
	r, calls := e.rsV1("GET", "/v1/billing/endpoints", "")
	e.want(r, 200)
	e.rsWantCalls(calls, "GET /v2/billing/serverless") // never /v2/billing/endpoints (Public Endpoints)
	got := r.list(t)
	if len(got) != len(v2) {
		t.Fatalf("%d records, want %d", len(got), len(v2))
	}
	for i, rec := range got {
		if rec["time"] != v2[i].StartTime || rec["endpointId"] != v2[i].ServerlessID || !near(rec["amount"].(float64), v2[i].TotalAmount) {
			t.Errorf("record %v, v2 %+v", rec, v2[i])
		}
	}
	id := v2[0].ServerlessID
	r, calls = e.rsV1("GET", "/v1/billing/endpoints?endpointId="+id+"&grouping=endpointId&bucketSize=week", "")
	e.want(r, 200)
	e.rsWantCalls(calls, "GET /v2/billing/serverless?bucketSize=week&serverlessId="+id)

	for _, q := range []string{"grouping=podId", "grouping=gpuTypeId", "dataCenterId=EU-RO-1", "gpuTypeId=NVIDIA%20L40S", "imageName=img", "templateId=t"} {
		r, calls := e.rsV1("GET", "/v1/billing/endpoints?"+q, "")
		e.want(r, 400)
		e.rsWantCalls(calls)
	}

	lenient := newE2E(t, e2eOpts{cfg: func(c *config.Config) { c.CompatMode = "lenient" }})
	r, calls = lenient.rsV1("GET", "/v1/billing/endpoints?grouping=podId&imageName=img", "")
	lenient.want(r, 200)
	lenient.rsWantCalls(calls, "GET /v2/billing/serverless")
	if d := r.header.Get("X-Compat-Dropped"); d != "grouping,imageName" {
		t.Errorf("X-Compat-Dropped %q", d)
	}
}

func TestE2ENetworkVolumeBilling(t *testing.T) {
	e, _, _, _ := billingWorld(t, e2eOpts{})
	v2 := e.v2Records("/v2/billing/network-volumes")
	type sums struct{ amount, hp float64 }
	want := map[string]*sums{}
	volumes := map[string]bool{}
	for _, r := range v2 {
		if want[r.StartTime] == nil {
			want[r.StartTime] = &sums{}
		}
		want[r.StartTime].amount += r.TotalAmount
		want[r.StartTime].hp += r.HighPerformanceAmount
		volumes[r.NetworkVolumeID] = true
	}
	if len(volumes) != 2 {
		t.Fatalf("v2 billed %d volumes", len(volumes))
	}
	r, calls := e.rsV1("GET", "/v1/billing/networkvolumes", "")
	e.want(r, 200)
	e.rsWantCalls(calls, "GET /v2/billing/network-volumes")
	got := r.list(t)
	if len(got) != len(want) || len(got) != 3 {
		t.Fatalf("%d records (one per day), want %d: %s", len(got), len(want), r.body)
	}
	for _, rec := range got {
		w := want[rec["time"].(string)]
		if w == nil || !near(w.amount, rec["amount"].(float64)) || !near(w.hp, rec["highPerformanceStorageAmount"].(float64)) || w.hp == 0 {
			t.Errorf("record %v, want %+v", rec, w)
		}
	}
	r, calls = e.rsV1("GET", "/v1/billing/networkvolumes?bucketSize=month&startTime=2026-06-01T00:00:00Z", "")
	e.want(r, 200)
	e.rsWantCalls(calls, "GET /v2/billing/network-volumes?bucketSize=month&startTime=2026-06-01T00%3A00%3A00Z")
	if l := r.list(t); len(l) != 1 {
		t.Errorf("monthly %s", r.body)
	}
}
