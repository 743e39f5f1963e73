package v2sim

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func endpointBody(extra map[string]any) map[string]any {
	b := map[string]any{
		"name": "ep", "image": "runpod/worker:1", "type": "QUEUE",
		"gpu":     map[string]any{"pools": []string{"ADA_24"}},
		"scaling": map[string]any{"type": "QUEUE_DELAY", "queueDelay": 4},
	}
	for k, v := range extra {
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
	}
	return b
}

func createEndpointT(t *testing.T, s *Server, extra map[string]any) map[string]any {
	t.Helper()
	rec := do(t, s, "POST", "/v2/serverless", endpointBody(extra))
	expectStatus(t, rec, 201)
	return obj(t, rec)
}

func TestEndpointDefaults(t *testing.T) {
	s, _ := newTestServer(Options{})
	e := createEndpointT(t, s, nil)
	id := str(e, "id")
	checks := map[string]string{
		"workers":        "map[idleTimeout:10 max:3 min:0]",
		"timeout":        "300000",
		"flashboot":      "OFF",
		"gpu":            "map[allowedCudaVersions:[] count:1 minCudaVersion:<nil> pools:[ADA_24]]",
		"dataCenterIds":  "[]",
		"networkVolumes": "[]",
		"registry":       "<nil>",
		"type":           "QUEUE",
	}
	for k, want := range checks {
		if got := fmt.Sprint(e[k]); got != want {
			t.Errorf("%s = %s, want %s", k, got, want)
		}
	}
	if _, ok := e["cpu"]; ok {
		t.Error("GPU endpoint carries cpu")
	}
	urls := e["requestUrls"].(map[string]any)
	if urls["run"] != "https://api.runpod.ai/v2/"+id+"/run" || urls["status"] != "https://api.runpod.ai/v2/"+id+"/status/{job_id}" || len(urls) != 8 {
		t.Errorf("queue requestUrls %v", urls)
	}

	// Queue-based endpoints scaling on REQUEST_COUNT have no idle timeout.
	e = createEndpointT(t, s, map[string]any{"scaling": map[string]any{"type": "REQUEST_COUNT", "requestCount": 2}})
	if _, ok := e["workers"].(map[string]any)["idleTimeout"]; ok {
		t.Errorf("idleTimeout present for QUEUE+REQUEST_COUNT: %v", e["workers"])
	}
	expectProblem(t, do(t, s, "POST", "/v2/serverless", endpointBody(map[string]any{
		"scaling": map[string]any{"type": "REQUEST_COUNT", "requestCount": 2}, "workers": map[string]any{"idleTimeout": 5},
	})), 400, "idleTimeout")

	// Load-balancing endpoints.
	e = createEndpointT(t, s, map[string]any{"type": "LOAD_BALANCER", "scaling": map[string]any{"type": "REQUEST_COUNT", "requestCount": 2}})
	urls = e["requestUrls"].(map[string]any)
	if urls["base"] != "https://"+str(e, "id")+".api.runpod.ai" || urls["health"] != urls["base"].(string)+"/ping" || len(urls) != 2 {
		t.Errorf("LB requestUrls %v", urls)
	}
	if _, ok := e["workers"].(map[string]any)["idleTimeout"]; !ok {
		t.Error("LB endpoint lost its idleTimeout")
	}

	// CPU endpoints: memory from the flavor, no gpu block.
	e = createEndpointT(t, s, map[string]any{"gpu": nil, "cpu": []any{map[string]any{"id": "cpu5g", "vcpuCount": 8}}})
	if fmt.Sprint(e["cpu"]) != "[map[id:cpu5g memory:32 vcpuCount:8]]" || e["gpu"] != nil {
		t.Errorf("CPU endpoint cpu %v gpu %v", e["cpu"], e["gpu"])
	}
}

func TestEndpointCreateRules(t *testing.T) {
	s, _ := newTestServer(Options{})
	podTpl := str(obj(t, do(t, s, "POST", "/v2/templates", map[string]any{"name": "p", "image": "i"})), "id")
	tests := []struct {
		name   string
		extra  map[string]any
		status int
		detail string
	}{
		{"neither gpu nor cpu", map[string]any{"gpu": nil}, 400, "exactly one of gpu or cpu"},
		{"both gpu and cpu", map[string]any{"cpu": []any{map[string]any{"id": "cpu5c", "vcpuCount": 2}}}, 400, "exactly one of gpu or cpu"},
		{"unknown pool", map[string]any{"gpu": map[string]any{"pools": []string{"NVIDIA GeForce RTX 4090"}}}, 400, "unknown serverless GPU pool"},
		{"exclusion outside the pools", map[string]any{"gpu": map[string]any{"pools": []string{"ADA_24"}, "excludedTypes": []string{"NVIDIA L40"}}}, 400, "not a GPU type in one of the selected pools"},
		{"exclusion empties the selection", map[string]any{"gpu": map[string]any{"pools": []string{"ADA_24"}, "excludedTypes": []string{"NVIDIA GeForce RTX 4090"}}}, 400, "leaves no GPU type"},
		{"CUDA set and floor", map[string]any{"gpu": map[string]any{"pools": []string{"ADA_24"}, "allowedCudaVersions": []string{"12.8"}, "minCudaVersion": "12.1"}}, 400, "mutually exclusive"},
		{"empty CUDA set and floor", map[string]any{"gpu": map[string]any{"pools": []string{"ADA_24"}, "allowedCudaVersions": []string{}, "minCudaVersion": "12.1"}}, 201, ""},
		{"min above max", map[string]any{"workers": map[string]any{"min": 4, "max": 2}}, 400, "workers.min"},
		{"above the worker quota", map[string]any{"workers": map[string]any{"max": 1000}}, 400, "quota"},
		{"unknown network volume", map[string]any{"networkVolumes": []string{"nope"}}, 400, "not found"},
		{"unknown data center", map[string]any{"dataCenterIds": []string{"nope"}}, 400, "unknown data center"},
		{"cpu flavor range", map[string]any{"gpu": nil, "cpu": []any{map[string]any{"id": "cpu5m", "vcpuCount": 64}}}, 400, "not valid"},
		{"pod template", map[string]any{"templateId": podTpl, "image": nil}, 422, "pod template"},
		{"unknown template", map[string]any{"templateId": "nope"}, 404, "not found"},
		{"image from template only", map[string]any{"templateId": "w9d2f6h4np", "image": nil}, 201, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, s, "POST", "/v2/serverless", endpointBody(tc.extra))
			if tc.status >= 400 {
				expectProblem(t, rec, tc.status, tc.detail)
				return
			}
			expectStatus(t, rec, tc.status)
		})
	}
}

// TestEndpointBoundTemplate: under the EndpointTemplateCaller reading an
// endpoint's bound template is the one it was created from when owned, else
// an auto-created one; deleting the endpoint permanently removes that
// template and terminates its workers. (Both readings: readings_test.go.)
func TestEndpointBoundTemplate(t *testing.T) {
	s, _ := newTestServer(Options{EndpointTemplate: EndpointTemplateCaller})
	templates := func() []map[string]any { return list(t, do(t, s, "GET", "/v2/templates", nil), "templates") }

	t.Run("auto-created", func(t *testing.T) {
		e := createEndpointT(t, s, map[string]any{"workers": map[string]any{"min": 2}})
		id := str(e, "id")
		tpls := templates()
		if len(tpls) != 1 || tpls[0]["serverless"] != true || tpls[0]["image"] != "runpod/worker:1" || !strings.Contains(str(tpls[0], "name"), "__template__") {
			t.Fatalf("auto-created bound template: %v", tpls)
		}
		tpl := str(tpls[0], "id")
		expectProblem(t, do(t, s, "DELETE", "/v2/templates/"+tpl, nil), 400, "bound to serverless endpoint "+id)
		if n := len(list(t, do(t, s, "GET", "/v2/serverless/"+id+"/workers", nil), "workers")); n != 2 {
			t.Fatalf("%d workers, want workers.min = 2", n)
		}
		expectStatus(t, do(t, s, "DELETE", "/v2/serverless/"+id, nil), 204)
		expectProblem(t, do(t, s, "GET", "/v2/templates/"+tpl, nil), 404)
		expectProblem(t, do(t, s, "GET", "/v2/serverless/"+id+"/workers", nil), 404)
		expectProblem(t, do(t, s, "GET", "/v2/serverless/"+id, nil), 404)
		if n := len(templates()); n != 0 {
			t.Errorf("%d templates left", n)
		}
	})
	t.Run("from an owned template", func(t *testing.T) {
		tpl := str(obj(t, do(t, s, "POST", "/v2/templates", map[string]any{"name": "w", "image": "w:1", "serverless": true, "allowedCudaVersions": []string{"12.8"}})), "id")
		e := createEndpointT(t, s, map[string]any{"templateId": tpl, "image": nil})
		if e["image"] != "w:1" || fmt.Sprint(e["gpu"].(map[string]any)["allowedCudaVersions"]) != "[12.8]" {
			t.Errorf("template not resolved: image %v gpu %v", e["image"], e["gpu"])
		}
		if n := len(templates()); n != 1 {
			t.Errorf("%d templates: an owned template should be bound, not copied", n)
		}
		expectProblem(t, do(t, s, "DELETE", "/v2/templates/"+tpl, nil), 400, "bound")
		// A floor in the body stops the template's CUDA set from being seeded.
		e2 := createEndpointT(t, s, map[string]any{"templateId": tpl, "image": nil, "gpu": map[string]any{"pools": []string{"ADA_24"}, "minCudaVersion": "12.4"}})
		if g := e2["gpu"].(map[string]any); fmt.Sprint(g["allowedCudaVersions"]) != "[]" || g["minCudaVersion"] != "12.4" {
			t.Errorf("CUDA seeding beside a floor: %v", g)
		}
		expectStatus(t, do(t, s, "DELETE", "/v2/serverless/"+str(e, "id"), nil), 204)
		expectProblem(t, do(t, s, "GET", "/v2/templates/"+tpl, nil), 404)
		expectStatus(t, do(t, s, "DELETE", "/v2/serverless/"+str(e2, "id"), nil), 204)
	})
	t.Run("from a public template", func(t *testing.T) {
		e := createEndpointT(t, s, map[string]any{"templateId": "w9d2f6h4np", "image": nil})
		if e["env"].(map[string]any)["MODEL_NAME"] == nil {
			t.Errorf("public template env not applied: %v", e["env"])
		}
		expectStatus(t, do(t, s, "DELETE", "/v2/serverless/"+str(e, "id"), nil), 204)
		expectStatus(t, do(t, s, "GET", "/v2/templates/w9d2f6h4np", nil), 200)
	})
}

func TestEndpointPatch(t *testing.T) {
	s, clk := newTestServer(Options{})
	e := createEndpointT(t, s, map[string]any{"gpu": map[string]any{"pools": []string{"ADA_48_PRO"}, "excludedTypes": []string{"NVIDIA L40 "}, "minCudaVersion": "12.4"}})
	id := str(e, "id")
	if fmt.Sprint(e["gpu"].(map[string]any)["excludedTypes"]) != "[NVIDIA L40]" {
		t.Errorf("excludedTypes not trimmed: %v", e["gpu"])
	}
	cpu := str(createEndpointT(t, s, map[string]any{"gpu": nil, "cpu": []any{map[string]any{"id": "cpu5c", "vcpuCount": 2}}}), "id")
	tests := []struct {
		name   string
		id     string
		body   map[string]any
		status int
		check  string // fmt of a field after success: "field=value"
	}{
		{"gpu on CPU endpoint", cpu, map[string]any{"gpu": map[string]any{"count": 2}}, 400, ""},
		{"cpu on GPU endpoint", id, map[string]any{"cpu": []any{map[string]any{"id": "cpu5c", "vcpuCount": 2}}}, 400, ""},
		{"both", id, map[string]any{"gpu": map[string]any{"count": 2}, "cpu": []any{map[string]any{"id": "cpu5c", "vcpuCount": 2}}}, 400, ""},
		{"set beside an existing floor", id, map[string]any{"gpu": map[string]any{"allowedCudaVersions": []string{"12.8"}}}, 400, ""},
		{"set and clear the floor", id, map[string]any{"gpu": map[string]any{"allowedCudaVersions": []string{"12.8"}, "minCudaVersion": ""}}, 200, "gpu=map[allowedCudaVersions:[12.8] count:1 excludedTypes:[NVIDIA L40] minCudaVersion:<nil> pools:[ADA_48_PRO]]"},
		{"pools without excludedTypes clears them", id, map[string]any{"gpu": map[string]any{"pools": []string{"ADA_48_PRO", "ADA_24"}}}, 200, "gpu=map[allowedCudaVersions:[12.8] count:1 minCudaVersion:<nil> pools:[ADA_48_PRO ADA_24]]"},
		{"clear the set", id, map[string]any{"gpu": map[string]any{"allowedCudaVersions": []string{}, "count": 2}}, 200, "gpu=map[allowedCudaVersions:[] count:2 minCudaVersion:<nil> pools:[ADA_48_PRO ADA_24]]"},
		{"workers partially", id, map[string]any{"workers": map[string]any{"min": 2}}, 200, "workers=map[idleTimeout:10 max:3 min:2]"},
		{"scaling switch hides idleTimeout", id, map[string]any{"scaling": map[string]any{"type": "REQUEST_COUNT", "requestCount": 5}}, 200, "workers=map[max:3 min:2]"},
		{"idleTimeout with REQUEST_COUNT", id, map[string]any{"workers": map[string]any{"idleTimeout": 30}}, 400, ""},
		{"cpu replaced", cpu, map[string]any{"cpu": []any{map[string]any{"id": "cpu3g", "vcpuCount": 4}}}, 200, "cpu=[map[id:cpu3g memory:16 vcpuCount:4]]"},
		{"timeout and flashboot", cpu, map[string]any{"timeout": 60000, "flashboot": "FLASHBOOT"}, 200, "flashboot=FLASHBOOT"},
		{"unknown", "nope", map[string]any{"name": "x"}, 404, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, s, "PATCH", "/v2/serverless/"+tc.id, tc.body)
			if tc.status >= 400 {
				expectProblem(t, rec, tc.status)
				return
			}
			expectStatus(t, rec, tc.status)
			field, want, _ := strings.Cut(tc.check, "=")
			if got := fmt.Sprint(obj(t, rec)[field]); got != want {
				t.Errorf("%s = %s, want %s", field, got, want)
			}
		})
	}

	// LB endpoints refuse queue-delay scaling.
	lb := str(createEndpointT(t, s, map[string]any{"type": "LOAD_BALANCER", "scaling": map[string]any{"type": "REQUEST_COUNT", "requestCount": 1}}), "id")
	expectProblem(t, do(t, s, "PATCH", "/v2/serverless/"+lb, map[string]any{"scaling": map[string]any{"type": "QUEUE_DELAY", "queueDelay": 2}}), 400, "REQUEST_COUNT")
	clk.Advance(time.Second)
}

func TestWorkersAndReleases(t *testing.T) {
	s, clk := newTestServer(Options{})
	e := createEndpointT(t, s, map[string]any{"workers": map[string]any{"min": 3, "max": 5}})
	id := str(e, "id")
	workers := func() (map[string]any, []map[string]any) {
		rec := do(t, s, "GET", "/v2/serverless/"+id+"/workers", nil)
		expectStatus(t, rec, 200)
		return obj(t, rec), list(t, rec, "workers")
	}
	releases := func() map[string]any { return obj(t, do(t, s, "GET", "/v2/serverless/"+id+"/releases", nil)) }

	body, ws := workers()
	if fmt.Sprint(body["summary"]) != "map[idle:0 initializing:3 running:0 throttled:0 total:3 unhealthy:0]" || body["endpointVersion"] != 1.0 {
		t.Errorf("fresh workers: %v", body)
	}
	if ws[0]["uptimeSeconds"] != nil || ws[0]["startedAt"] != nil || ws[0]["gpuTypeId"] != "NVIDIA GeForce RTX 4090" || ws[0]["gpuCount"] != 1.0 {
		t.Errorf("initializing worker %v", ws[0])
	}
	clk.Advance(workerInitDuration)
	body, ws = workers()
	sum := body["summary"].(map[string]any)
	if sum["running"].(float64)+sum["idle"].(float64) != 3 || sum["total"] != 3.0 || len(ws) != 3 {
		t.Errorf("ready workers summary %v", sum)
	}
	rel := releases()
	if fmt.Sprint(rel["rollout"]) != "map[inProgress:false percentOnLatest:100 workersOnLatest:3 workersTotal:3]" {
		t.Errorf("rollout %v", rel["rollout"])
	}
	if r := rel["releases"].([]any); len(r) != 1 || r[0].(map[string]any)["version"] != 1.0 || r[0].(map[string]any)["workerCount"] != 3.0 {
		t.Errorf("initial release %v", r)
	}

	// A change creates a release that rolls out worker by worker.
	expectStatus(t, do(t, s, "PATCH", "/v2/serverless/"+id, map[string]any{"image": "runpod/worker:2", "workers": map[string]any{"max": 10}}), 200)
	rel = releases()
	r := rel["releases"].([]any)
	latest := r[0].(map[string]any)
	if rel["endpointVersion"] != 2.0 || len(r) != 2 || latest["version"] != 2.0 || latest["source"] != "MANUAL" || latest["buildId"] != nil {
		t.Fatalf("releases after PATCH: %v", rel)
	}
	if got := fmt.Sprint(latest["diff"]); got != "[map[field:image new:runpod/worker:2 old:runpod/worker:1] map[field:workers.max new:10 old:5]]" {
		t.Errorf("diff %s", got)
	}
	if fmt.Sprint(rel["rollout"]) != "map[inProgress:true percentOnLatest:0 workersOnLatest:0 workersTotal:3]" {
		t.Errorf("rollout at release %v", rel["rollout"])
	}
	_, ws = workers()
	if ws[0]["isStale"] != true || ws[0]["version"] != 1.0 || ws[0]["image"] != "runpod/worker:1" {
		t.Errorf("worker before roll-out %v", ws[0])
	}
	clk.Advance(rollStep)
	_, ws = workers()
	if ws[0]["isStale"] != false || ws[0]["image"] != "runpod/worker:2" || ws[1]["isStale"] != true {
		t.Errorf("worker 0 rolled, 1 not: %v / %v", ws[0], ws[1])
	}
	if ro := fmt.Sprint(releases()["rollout"]); ro != "map[inProgress:true percentOnLatest:33 workersOnLatest:1 workersTotal:3]" {
		t.Errorf("mid roll-out %s", ro)
	}
	clk.Advance(2 * rollStep)
	if ro := fmt.Sprint(releases()["rollout"]); ro != "map[inProgress:false percentOnLatest:100 workersOnLatest:3 workersTotal:3]" {
		t.Errorf("rolled out %s", ro)
	}
	// A PATCH that changes nothing makes no release.
	expectStatus(t, do(t, s, "PATCH", "/v2/serverless/"+id, map[string]any{"image": "runpod/worker:2"}), 200)
	if n := len(releases()["releases"].([]any)); n != 2 {
		t.Errorf("%d releases after a no-op PATCH", n)
	}
	// Scaling workers.min down releases workers.
	expectStatus(t, do(t, s, "PATCH", "/v2/serverless/"+id, map[string]any{"workers": map[string]any{"min": 1}}), 200)
	if _, ws = workers(); len(ws) != 1 {
		t.Errorf("%d workers after min=1", len(ws))
	}

	// Worker logs.
	logs := do(t, s, "GET", "/v2/serverless/"+id+"/workers/"+str(ws[0], "id")+"/logs", nil)
	expectStatus(t, logs, 200)
	if !strings.Contains(logs.Body.String(), "Worker ready.") || logs.Header().Get("Content-Type") != "text/event-stream" {
		t.Errorf("worker logs %s", logs.Body.String())
	}
	expectProblem(t, do(t, s, "GET", "/v2/serverless/"+id+"/workers/nope/logs", nil), 404)
}
