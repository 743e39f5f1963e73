package translate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/podjson"
)

// A serverless worker's costs and cloud come from the GPU catalog's list
// prices and clouds (issue 37): the serverless price per GPU × gpuCount,
// and secureCloud only where the type runs in one cloud.
func TestPriceWorkersFromTheCatalog(t *testing.T) {
	var cat v2GPUPoolCatalog
	if err := json.Unmarshal([]byte(poolCatalog), &cat); err != nil {
		t.Fatal(err)
	}
	community := v2PoolGPU{ID: "NVIDIA GeForce RTX 3090", Community: true}
	community.MaxCount.Community = 8
	community.Price.Serverless = ptrTo(0.86)
	offBoth := v2PoolGPU{ID: "odd", Secure: false, Community: false} // offered nowhere now: unknown
	cat.GPUs = append(cat.GPUs, community, offBoth)
	fptr := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name      string
		gpu       string
		count     int
		machine   bool
		cost      *float64 // costPerHr and adjustedCostPerHr, and machine.costPerHr
		perGPU    *float64 // machine.currentPricePerGpu
		secure    *bool
		noMachine bool
	}{
		{"secure-only type (maxCount.community 0): Secure Cloud, list price", "NVIDIA L4", 1, true, fptr(0.9), fptr(0.9), ptrTo(true), false},
		{"two GPUs: twice the price per GPU", "NVIDIA L4", 2, true, fptr(1.8), fptr(0.9), ptrTo(true), false},
		{"three GPUs: rounded, not 3.3000000000000003", "NVIDIA GeForce RTX 4090", 3, true, fptr(3.3), fptr(1.1), nil, false},
		{"a type in both clouds: the cloud is unknown (null)", "NVIDIA A40", 1, true, fptr(1.3), fptr(1.3), nil, false},
		{"community-only type: not Secure Cloud", "NVIDIA GeForce RTX 3090", 1, true, fptr(0.86), fptr(0.86), ptrTo(false), false},
		{"no serverless price: null costs", "AMD Instinct MI300X OAM", 1, true, nil, nil, ptrTo(true), false},
		{"a type the catalog does not know: all null", "NVIDIA B300", 1, true, nil, nil, nil, false},
		{"a type offered in no cloud now: cloud unknown", "odd", 1, true, nil, nil, nil, false},
		{"no machine (no includeMachine in GET /pods): only the costs", "NVIDIA L4", 1, false, fptr(0.9), nil, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := []v1Worker{{GPU: nil}, {}}
			w[1].GPU = &podjson.V1PodGPU{ID: tc.gpu, Count: tc.count}
			if tc.machine {
				w[1].Machine = &v1WorkerMachine{GpuTypeID: tc.gpu, DataCenterID: "EU-RO-1"}
			}
			priceWorkers(w, &cat)
			if w[0].CostPerHr != nil || w[0].AdjustedCostPerHr != nil {
				t.Errorf("unplaced worker priced: %v", *w[0].CostPerHr)
			}
			eq := func(what string, got, want *float64) {
				t.Helper()
				if (got == nil) != (want == nil) || (got != nil && *got != *want) {
					t.Errorf("%s = %v, want %v", what, deref(got), deref(want))
				}
			}
			eq("costPerHr", w[1].CostPerHr, tc.cost)
			eq("adjustedCostPerHr", w[1].AdjustedCostPerHr, tc.cost)
			if m := w[1].Machine; m != nil {
				eq("machine.costPerHr", m.CostPerHr, tc.cost)
				eq("machine.currentPricePerGpu", m.CurrentPricePerGpu, tc.perGPU)
				if (m.SecureCloud == nil) != (tc.secure == nil) || (m.SecureCloud != nil && *m.SecureCloud != *tc.secure) {
					t.Errorf("machine.secureCloud = %v, want %v", m.SecureCloud, tc.secure)
				}
				b, _ := json.Marshal(m)
				for _, k := range []string{"secureCloud", "costPerHr", "currentPricePerGpu"} {
					if !strings.Contains(string(b), `"`+k+`":`) {
						t.Errorf("machine %s has no %s key: the client tells absent from null", b, k)
					}
				}
			} else if !tc.noMachine {
				t.Error("machine dropped")
			}
		})
	}
	t.Run("no catalog: nothing priced", func(t *testing.T) {
		w := []v1Worker{{}}
		w[0].GPU = &podjson.V1PodGPU{ID: "NVIDIA L4", Count: 1}
		priceWorkers(w, nil)
		if w[0].CostPerHr != nil {
			t.Error("priced without a catalog")
		}
	})
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// An endpoint's workers carry what the Crossplane provider's worker proof
// reads (machine with its cloud and prices, the costs) from the catalog
// the answer already reads: no further v2 call.
func TestEndpointWorkersArePricedWithoutAnotherCall(t *testing.T) {
	ws := `{"workers":[{"id":"w1","status":"IDLE","isStale":false,"version":2,"gpuCount":1,"image":"runpod/worker:1","uptimeSeconds":5,
		"gpuTypeId":"NVIDIA L4","dataCenterId":"EU-RO-1","startedAt":"2026-03-13T20:01:00Z"}],
		"summary":{"running":0,"idle":1,"initializing":0,"throttled":0,"unhealthy":0,"total":1},"endpointVersion":2}`
	res, f := run(t, "GetEndpoint", runOpts{params: map[string]string{"endpointId": "e1"}, query: "includeWorkers=true"},
		epGetStep("e1", endpoint("e1")), catalogStep(), step{method: "GET", path: "/v2/serverless/e1/workers", status: 200, body: ws})
	wantStatus(t, res, 200)
	if n := len(f.calls); n != 3 {
		t.Errorf("%d v2 calls, want 3", n)
	}
	var got struct {
		Workers []map[string]json.RawMessage
	}
	if err := json.Unmarshal(res.Body, &got); err != nil || len(got.Workers) != 1 {
		t.Fatalf("answer %s", res.Body)
	}
	w := got.Workers[0]
	jsonEqual(t, "machine", w["machine"], `{"gpuTypeId":"NVIDIA L4","dataCenterId":"EU-RO-1","secureCloud":true,"costPerHr":0.9,"currentPricePerGpu":0.9}`)
	if string(w["costPerHr"]) != "0.9" || string(w["adjustedCostPerHr"]) != "0.9" {
		t.Errorf("costs %s %s", w["costPerHr"], w["adjustedCostPerHr"])
	}
}

// A create's answer carries its workers (issue 37); when they cannot be
// read the endpoint, created, is still answered, with version from its
// releases and a warning, never a failure inviting a second create.
func TestCreateEndpointAnswerSurvivesAnUnreadableWorkerList(t *testing.T) {
	res, f := run(t, "CreateEndpoint", runOpts{body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA L4"]}`},
		catalogStep(), step{method: "POST", path: "/v2/serverless", status: 201, body: endpoint("ep1")},
		step{method: "GET", path: "/v2/serverless/ep1/workers", status: 500, body: problem(500, "boom")},
		releasesStep("ep1", 4), tplGetStep("tpl1"))
	wantStatus(t, res, 200)
	wantWarning(t, res, "workers omitted: the endpoint was created")
	m := decodeV1(t, res.Body)
	if m["version"] != float64(4) || m["templateId"] != "tpl1" {
		t.Errorf("answer %s", res.Body)
	}
	if f.count("POST", "/v2/serverless") != 1 {
		t.Error("created again")
	}
}
