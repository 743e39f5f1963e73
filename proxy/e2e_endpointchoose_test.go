package proxy

import (
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
)

// A GPU endpoint created with only templateId (issue 29 item 1), end to
// end: the gateway chooses as for a pod — the v1 GPU types the catalog
// shows with a serverless pool, most available first, then the cheapest
// (or default_gpu_types' order) — names the choice in X-Compat-Warning and
// answers it as gpuTypeIds, on the create and on every later read.
func TestE2EGPUEndpointWithoutGPUTypeIDs(t *testing.T) {
	for _, c := range []struct {
		name     string
		defaults []string
		chosen   string
		pool     string
	}{
		{name: "the cheapest of the most available", chosen: "NVIDIA RTX A4000", pool: "AMPERE_16"},
		{name: "default_gpu_types decides ties", defaults: []string{"NVIDIA H200", "NVIDIA GeForce RTX 4090", "NVIDIA RTX A4000"}, chosen: "NVIDIA GeForce RTX 4090", pool: "ADA_24"},
	} {
		t.Run(c.name, func(t *testing.T) {
			underEachReading(t, func(t *testing.T, rd simReading) {
				e := newE2E(t, e2eOpts{sim: rd.apply, cfg: func(cfg *config.Config) { cfg.DefaultGPUTypes = c.defaults }})
				r := e.v1("POST", "/v1/templates", `{"name":"worker","imageName":"runpod/worker:1","isServerless":true}`)
				e.want(r, 200)
				tpl, _ := r.json(t)["id"].(string)

				r = e.v1("POST", "/v1/endpoints", `{"templateId":"`+tpl+`"}`)
				e.want(r, 200)
				ep := r.json(t)
				mustJSON(t, ep["gpuTypeIds"], `["`+c.chosen+`"]`)
				if ep["templateId"] != tpl || ep["computeType"] != "GPU" {
					t.Errorf("answer %s", r.body)
				}
				if w := warningsOf(r); !strings.Contains(w, "gpuTypeIds was not sent: the gateway chose "+c.chosen) {
					t.Errorf("X-Compat-Warning %q does not name the choice", w)
				}
				if gpu, _ := e.lastBody("POST", "/v2/serverless")["gpu"].(map[string]any); gpu == nil || !jsonEq(gpu["pools"], []any{c.pool}) {
					t.Errorf("v2 gpu %v, want pool %s", gpu, c.pool)
				}
				id, _ := ep["id"].(string)
				g := e.v1("GET", "/v1/endpoints/"+id, "")
				e.want(g, 200)
				mustJSON(t, g.json(t)["gpuTypeIds"], `["`+c.chosen+`"]`)
			})
		})
	}
}
