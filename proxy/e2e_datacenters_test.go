package proxy

import (
	"strings"
	"testing"
	"time"
)

// End to end: v1 dataCenterIds under each reading of v2's "Preferred data
// centers for placement". v1 restricted placement to them; when v2 treats
// them as preferences, a pod or a worker can land elsewhere (the hazard in
// COMPATIBILITY.md), and the v1 client can see where.

func TestE2EDataCenterIdsUnderEachReading(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		// EU-CZ-1 has no RTX 4090 pod stock and no ADA_24 serverless stock.

		t.Run("pod", func(t *testing.T) {
			r := e.v1("POST", "/v1/pods", `{"name":"cz","imageName":"i","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"dataCenterIds":["EU-CZ-1"]}`)
			if rd.strictDataCenters() {
				e.want(r, 500) // v1's stock-out
				if m := r.message(t); !strings.Contains(m, "no capacity") || !strings.Contains(m, "EU-CZ-1") {
					t.Errorf("message %q", m)
				}
				return
			}
			e.want(r, 201)
			g := e.v1("GET", "/v1/pods/"+r.json(t)["id"].(string)+"?includeMachine=true", "")
			e.want(g, 200)
			mc, _ := g.json(t)["machine"].(map[string]any)
			if dc := mc["dataCenterId"]; dc == nil || dc == "EU-CZ-1" {
				t.Errorf("machine %v: the pod should show the data center it landed in, outside dataCenterIds", mc)
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

// P7 (hazards are not hidden): when v2 treats dataCenterIds as preferences
// and places a pod outside them, v2's answer says where (`dataCenterId`), so
// a v1 client, for which the list was a restriction, must be told: the
// create answer carries an X-Compat-Warning naming dataCenterIds and the
// data center used. Under the strict reading the create fails instead.
//
// Known gap (issue 19 report): the gateway gives no such warning today; the
// fix belongs in translate's pod creation.
func TestE2EPodPlacedOutsideItsDataCenterIdsIsFlagged(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		r := e.v1("POST", "/v1/pods", `{"name":"cz","imageName":"i","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"dataCenterIds":["EU-CZ-1"]}`)
		if rd.strictDataCenters() {
			e.want(r, 500) // v1's stock-out
			return
		}
		e.want(r, 201)
		g := e.v1("GET", "/v1/pods/"+r.json(t)["id"].(string)+"?includeMachine=true", "")
		mc, _ := g.json(t)["machine"].(map[string]any)
		dc, _ := mc["dataCenterId"].(string)
		if w := warningsOf(r); !strings.Contains(w, "dataCenterIds") || dc == "" || !strings.Contains(w, dc) {
			t.Errorf("pod placed in %q, outside dataCenterIds [EU-CZ-1], without a warning saying so: X-Compat-Warning %q", dc, w)
		}
	})
}
