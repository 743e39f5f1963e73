package proxy

import (
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/v2sim"
)

// End to end: v1 dataCenterIds under each reading of v2's "Preferred data
// centers for placement". v1 restricted placement to them: a pod is
// honoured or the create is v1's stock-out under both readings (a pod v2
// placed elsewhere is deleted); a serverless worker can land elsewhere
// (the hazard in COMPATIBILITY.md), and the v1 client can see where.

func TestE2EDataCenterIdsUnderEachReading(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		// EU-CZ-1 has no RTX 4090 pod stock and no ADA_24 serverless stock.

		t.Run("pod", func(t *testing.T) {
			r := e.v1("POST", "/v1/pods", `{"name":"cz","imageName":"i","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"dataCenterIds":["EU-CZ-1"]}`)
			e.want(r, 500) // v1's stock-out, under both readings
			if m := r.message(t); !strings.Contains(m, "There are no longer any instances available") || !strings.Contains(m, "EU-CZ-1") {
				t.Errorf("message %q", m)
			}
			if n := len(e.simPods("cz")); n != 0 {
				t.Errorf("%d pods named cz left: none may be placed outside dataCenterIds", n)
			}
		})

		t.Run("a listed data center with stock is used under both", func(t *testing.T) {
			r := e.v1("POST", "/v1/pods", `{"name":"mtl","imageName":"i","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"dataCenterIds":["EU-CZ-1","CA-MTL-1"]}`)
			e.want(r, 201)
			g := e.v1("GET", "/v1/pods/"+r.json(t)["id"].(string)+"?includeMachine=true", "")
			if mc, _ := g.json(t)["machine"].(map[string]any); mc["dataCenterId"] != "CA-MTL-1" {
				t.Errorf("machine %v, want CA-MTL-1", mc)
			}
		})

		t.Run("endpoint workers", func(t *testing.T) {
			r := e.v1("POST", "/v1/endpoints", `{"templateId":"w9d2f6h4np","name":"cz","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"workersMin":1,"dataCenterIds":["EU-CZ-1"]}`)
			e.want(r, 200)
			id := r.json(t)["id"].(string)
			mustJSON(t, r.json(t)["dataCenterIds"], `["EU-CZ-1"]`)
			e.clock.advance(time.Minute)
			g := e.v1("GET", "/v1/endpoints/"+id+"?includeWorkers=true", "")
			e.want(g, 200)
			ws, _ := g.json(t)["workers"].([]any)
			if len(ws) != 1 {
				t.Fatalf("workers %s", g.body)
			}
			mc, _ := ws[0].(map[string]any)["machine"].(map[string]any)
			if rd.strictDataCenters() {
				if mc["dataCenterId"] != nil {
					t.Errorf("machine %v: no worker can be placed in EU-CZ-1", mc)
				}
			} else if dc := mc["dataCenterId"]; dc == nil || dc == "EU-CZ-1" {
				t.Errorf("machine %v: the worker should show the data center it landed in", mc)
			}
			e.want(e.v1("DELETE", "/v1/endpoints/"+id, ""), 204)
		})
	})
}

// A requested data center is honoured or the create fails as v1's
// stock-out, never placed elsewhere (issue 36 item 4): when v2 treats
// dataCenterIds as preferences and places the pod outside them, the gateway
// deletes it and tries the next candidate; a CPU pod too. Only a pod whose
// delete failed is answered, with an X-Compat-Warning naming where it is
// (P4, P7).
func TestE2EPodPlacedOutsideItsDataCenterIdsIsUndone(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		// cpu5g is offered in US-KS-2 and EU-CZ-1, cpu3c in US-TX-3 and EU-RO-1.
		r := e.v1("POST", "/v1/pods", `{"name":"ro","computeType":"CPU","imageName":"i","cpuFlavorIds":["cpu5g","cpu3c"],"cpuFlavorPriority":"custom","dataCenterIds":["EU-RO-1"]}`)
		e.want(r, 201)
		if r.json(t)["id"] == nil {
			t.Fatalf("answer %s", r.body)
		}
		g := e.v1("GET", "/v1/pods/"+r.json(t)["id"].(string)+"?includeMachine=true", "")
		if mc, _ := g.json(t)["machine"].(map[string]any); mc["dataCenterId"] != "EU-RO-1" {
			t.Errorf("machine %v, want EU-RO-1", mc)
		}
		if n := len(e.simPods("ro")); n != 1 {
			t.Errorf("%d pods named ro, want the one in EU-RO-1 (a pod placed elsewhere is deleted)", n)
		}

		e.sim.AddFault(v2sim.Fault{Method: "DELETE", PathPrefix: "/v2/pods/", Status: 500, Times: 1})
		r = e.v1("POST", "/v1/pods", `{"name":"cz","imageName":"i","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"dataCenterIds":["EU-CZ-1"]}`)
		if rd.strictDataCenters() {
			e.want(r, 500) // v1's stock-out: v2 placed nothing
			return
		}
		e.want(r, 201) // the delete failed: the pod exists and is answered
		if w := warningsOf(r); !strings.Contains(w, "dataCenterIds") || !strings.Contains(w, "could not be undone") {
			t.Errorf("a pod outside dataCenterIds answered without a warning saying so: X-Compat-Warning %q", w)
		}
	})
}
