package proxy

import (
	"strings"
	"testing"
)

// Workers carry templateId (issue 29 item 6), end to end: the workers of
// an endpoint created through the gateway carry the endpoint's templateId
// (a v1 worker is a pod made from its endpoint's template); an endpoint
// made elsewhere — the seeded one — has none that v2 shows, and the answer
// says so in X-Compat-Warning rather than leaving it silently absent.
func TestE2EWorkersCarryTheirEndpointsTemplateID(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply, seed: true})
		r := e.v1("POST", "/v1/templates", `{"name":"worker","imageName":"runpod/worker:1","isServerless":true}`)
		e.want(r, 200)
		tpl, _ := r.json(t)["id"].(string)
		r = e.v1("POST", "/v1/endpoints", `{"templateId":"`+tpl+`","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"workersMin":1,"workersMax":2}`)
		e.want(r, 200)
		mine, _ := r.json(t)["id"].(string)
		e.clock.advance(60e9)

		l := e.v1("GET", "/v1/endpoints?includeWorkers=true", "")
		e.want(l, 200)
		var others []string
		for _, ep := range l.list(t) {
			ws, _ := ep["workers"].([]any)
			if ep["id"] == mine {
				if ep["templateId"] != tpl || len(ws) == 0 {
					t.Fatalf("the gateway's endpoint: %v", ep)
				}
				for _, w := range ws {
					if w.(map[string]any)["templateId"] != tpl {
						t.Errorf("worker without its endpoint's templateId: %v", w)
					}
				}
				continue
			}
			others = append(others, ep["id"].(string))
		}
		if len(others) == 0 {
			t.Fatal("no seeded endpoint")
		}
		w := warningsOf(l)
		for _, id := range others {
			if !strings.Contains(w, id) || !strings.Contains(w, "templateId omitted") {
				t.Errorf("X-Compat-Warning %q does not say that %s's templateId is unknown", w, id)
			}
		}
	})
}
