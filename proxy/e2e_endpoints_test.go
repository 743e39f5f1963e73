package proxy

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// End to end: v1 client → gateway → v2 simulator, for the six serverless
// endpoint operations. Every v1 answer is checked against the v1 contract
// (in e2e.call), and each step checks exactly which v2 calls were made.

// mark returns the number of calls the simulator has seen so far.
func (e *e2e) mark() int { return len(e.sim.Calls()) }

// callsSince lists the simulator's calls after mark as "METHOD path".
func (e *e2e) callsSince(mark int) []string {
	var out []string
	for _, c := range e.sim.Calls()[mark:] {
		p := c.Path
		if c.RawQuery != "" {
			p += "?" + c.RawQuery
		}
		out = append(out, c.Method+" "+p)
	}
	return out
}

// wantCalls checks the v2 calls made since mark.
func (e *e2e) wantCalls(mark int, want ...string) {
	e.t.Helper()
	got := e.callsSince(mark)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		e.t.Errorf("v2 calls:\n got %q\nwant %q", got, want)
	}
}

// lastBody decodes the body of the last simulator call to method path.
func (e *e2e) lastBody(method, path string) map[string]any {
	e.t.Helper()
	calls := e.sim.Calls()
	for i := len(calls) - 1; i >= 0; i-- {
		if calls[i].Method == method && calls[i].Path == path {
			var m map[string]any
			if err := json.Unmarshal(calls[i].Body, &m); err != nil {
				e.t.Fatalf("%s %s body %q: %v", method, path, calls[i].Body, err)
			}
			return m
		}
	}
	e.t.Fatalf("no call %s %s", method, path)
	return nil
}

func warningsOf(r *e2eResp) string { return strings.Join(r.header.Values("X-Compat-Warning"), " | ") }

func mustJSON(t *testing.T, v any, want string) {
	t.Helper()
	b, _ := json.Marshal(v)
	var g, w any
	_ = json.Unmarshal(b, &g)
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !jsonEq(g, w) {
		t.Errorf("got %s, want %s", b, want)
	}
}

func TestE2EEndpointLifecycle(t *testing.T) {
	underEachReading(t, testE2EEndpointLifecycle)
}

func testE2EEndpointLifecycle(t *testing.T, rd simReading) {
	e := newE2E(t, e2eOpts{sim: rd.apply})

	// A serverless template, made through v1.
	m := e.mark()
	r := e.v1("POST", "/v1/templates", `{"name":"sdxl-worker","imageName":"runpod/worker-sdxl:1","isServerless":true,"env":{"MODEL":"sdxl"},"ports":[]}`)
	e.want(r, 200)
	e.wantCalls(m, "POST /v2/templates")
	tplID, _ := r.json(t)["id"].(string)

	// Create without a name: the template's; one GPU type out of a pool of three.
	m = e.mark()
	r = e.v1("POST", "/v1/endpoints", `{"templateId":"`+tplID+`","gpuTypeIds":["NVIDIA L40S"],"workersMin":1,"workersMax":2}`)
	e.want(r, 200)
	// The answer carries the template and the workers, as v1's create did
	// (issue 37): the template read above, and the workers, which give
	// version (no releases call).
	e.wantCalls(m, "GET /v2/templates/"+tplID, "GET /v2/catalog/gpus", "POST /v2/serverless", "GET /v2/serverless/"+r.json(t)["id"].(string)+"/workers")
	// Your own template is spread into the create, never named (H4): no
	// reading of v2 can bind it to the endpoint.
	mustJSON(t, e.lastBody("POST", "/v2/serverless"), `{"name":"sdxl-worker","type":"QUEUE",
		"image":"runpod/worker-sdxl:1","args":"","disk":50,"env":{"MODEL":"sdxl"},"ports":[],
		"scaling":{"type":"QUEUE_DELAY","queueDelay":4},"gpu":{"pools":["ADA_48_PRO"],"excludedTypes":["NVIDIA L40","NVIDIA RTX 6000 Ada Generation"],"count":1},
		"workers":{"min":1,"max":2,"idleTimeout":5}}`)
	ep := r.json(t)
	id, _ := ep["id"].(string)
	if ep["name"] != "sdxl-worker" || ep["templateId"] != tplID || ep["computeType"] != "GPU" || ep["version"] != 1.0 ||
		ep["idleTimeout"] != 5.0 || ep["scalerType"] != "QUEUE_DELAY" || ep["scalerValue"] != 4.0 || ep["workersMin"] != 1.0 ||
		ep["workersMax"] != 2.0 || ep["executionTimeoutMs"] != 300000.0 {
		t.Errorf("created %s", r.body)
	}
	mustJSON(t, ep["gpuTypeIds"], `["NVIDIA L40S"]`)
	if w := warningsOf(r); !strings.Contains(w, "ADA_48_PRO") || !strings.Contains(w, "added to these pools later") {
		t.Errorf("pool warning: %q", w)
	}

	// Get: templateId from the gateway's fact store (P8); version from the
	// releases.
	m = e.mark()
	g := e.v1("GET", "/v1/endpoints/"+id, "")
	e.want(g, 200)
	e.wantCalls(m, "GET /v2/serverless/"+id, "GET /v2/serverless/"+id+"/releases") // catalog: cached by the gateway
	if gj := g.json(t); gj["templateId"] != tplID || gj["version"] != 1.0 || gj["workers"] != nil || gj["template"] != nil {
		t.Errorf("get %s", g.body)
	}

	// List with workers and the template, which the gateway knows (the
	// fact store) and reads (issue 37).
	e.clock.advance(30e9)
	m = e.mark()
	l := e.v1("GET", "/v1/endpoints?includeWorkers=true&includeTemplate=true", "")
	e.want(l, 200)
	e.wantCalls(m, "GET /v2/serverless", "GET /v2/serverless/"+id+"/workers", "GET /v2/templates/"+tplID)
	items := l.list(t)
	if len(items) != 1 {
		t.Fatalf("list %s", l.body)
	}
	ws, _ := items[0]["workers"].([]any)
	tp, _ := items[0]["template"].(map[string]any)
	if len(ws) != 1 || ws[0].(map[string]any)["endpointId"] != id || tp["imageName"] != "runpod/worker-sdxl:1" || tp["isServerless"] != true || tp["id"] != tplID || items[0]["templateId"] != tplID {
		t.Errorf("list %s", l.body)
	}
	// A worker runs its endpoint's container (issue 37): v1's Pod keys.
	if w, _ := ws[0].(map[string]any); w == nil || w["containerDiskInGb"] == nil || w["env"] == nil || w["ports"] == nil ||
		w["interruptible"] != false || w["volumeInGb"] != 0.0 || !hasKeys(w, "costPerHr", "savingsPlans", "publicIp", "dockerEntrypoint") {
		t.Errorf("worker %v", ws[0])
	}

	// Update: scaler value only (current type), flashboot, a wider GPU set.
	m = e.mark()
	u := e.v1("PATCH", "/v1/endpoints/"+id, `{"scalerValue":8,"flashboot":true,"gpuTypeIds":["NVIDIA L40S","NVIDIA L40"],"idleTimeout":20}`)
	e.want(u, 200)
	e.wantCalls(m, "GET /v2/serverless/"+id, "PATCH /v2/serverless/"+id, "GET /v2/serverless/"+id+"/releases")
	mustJSON(t, e.lastBody("PATCH", "/v2/serverless/"+id), `{"scaling":{"type":"QUEUE_DELAY","queueDelay":8},"flashboot":"FLASHBOOT",
		"workers":{"idleTimeout":20},"gpu":{"pools":["ADA_48_PRO"],"excludedTypes":["NVIDIA RTX 6000 Ada Generation"],"count":1}}`)
	uj := u.json(t)
	mustJSON(t, uj["gpuTypeIds"], `["NVIDIA L40S","NVIDIA L40"]`)
	if uj["scalerValue"] != 8.0 || uj["idleTimeout"] != 20.0 || uj["version"] != 2.0 || uj["templateId"] != tplID {
		t.Errorf("updated %s", u.body)
	}

	// PRIORITY_FLASHBOOT (set through v2) is not downgraded by flashboot:true.
	e.want(e.v2("PATCH", "/v2/serverless/"+id, `{"flashboot":"PRIORITY_FLASHBOOT"}`), 200)
	m = e.mark()
	e.want(e.v1("POST", "/v1/endpoints/"+id+"/update", `{"flashboot":true,"name":"renamed"}`), 200)
	e.wantCalls(m, "GET /v2/serverless/"+id, "PATCH /v2/serverless/"+id, "GET /v2/serverless/"+id+"/releases")
	mustJSON(t, e.lastBody("PATCH", "/v2/serverless/"+id), `{"name":"renamed"}`)
	if fb := e.v2("GET", "/v2/serverless/"+id, "").json(t)["flashboot"]; fb != "PRIORITY_FLASHBOOT" {
		t.Errorf("flashboot %v", fb)
	}

	// Delete: 204 without the H4 warning: the endpoint was made without
	// naming your template, so under every reading its bound template is
	// its own (P8, H4).
	m = e.mark()
	d := e.v1("DELETE", "/v1/endpoints/"+id, "")
	e.want(d, 204)
	e.wantCalls(m, "DELETE /v2/serverless/"+id)
	if w := warningsOf(d); w != "" {
		t.Errorf("delete warning %q", w)
	}
	// Your template survives under both readings: another endpoint can be
	// made from it, and it can be deleted while that endpoint exists.
	e.want(e.v1("GET", "/v1/templates/"+tplID, ""), 200)
	again := e.v1("POST", "/v1/endpoints", `{"templateId":"`+tplID+`","gpuTypeIds":["NVIDIA L40S"]}`)
	e.want(again, 200)
	e.want(e.v1("DELETE", "/v1/templates/"+tplID, ""), 204)
	e.want(e.v1("DELETE", "/v1/endpoints/"+again.json(t)["id"].(string), ""), 204)
	e.want(e.v1("GET", "/v1/endpoints/"+id, ""), 404)
	e.want(e.v1("DELETE", "/v1/endpoints/"+id, ""), 400)
	e.want(e.v1("PATCH", "/v1/endpoints/"+id, `{"name":"x"}`), 400)
	l = e.v1("GET", "/v1/endpoints", "")
	e.want(l, 200)
	if string(l.body) != "[]" {
		t.Errorf("list after delete %s", l.body)
	}
}

func TestE2EEndpointVariants(t *testing.T) {
	underEachReading(t, testE2EEndpointVariants)
}

func testE2EEndpointVariants(t *testing.T, rd simReading) {
	e := newE2E(t, e2eOpts{sim: rd.apply})
	// The public catalog's serverless template.
	const public = "w9d2f6h4np"

	t.Run("CPU endpoint", func(t *testing.T) {
		m := e.mark()
		r := e.v1("POST", "/v1/endpoints", `{"templateId":"`+public+`","name":"cpu","computeType":"CPU","cpuFlavorIds":["cpu5c","cpu3c"],"vcpuCount":4,
			"gpuTypeIds":["NVIDIA L4"],"executionTimeoutMs":60000,"scalerType":"REQUEST_COUNT","scalerValue":2,"idleTimeout":30,"flashboot":false}`)
		e.want(r, 200)
		id := r.json(t)["id"].(string)
		// A public template is read (never spread: it cannot be yours to
		// lose) and named.
		e.wantCalls(m, "GET /v2/templates/"+public, "POST /v2/serverless", "GET /v2/serverless/"+id+"/workers")
		mustJSON(t, e.lastBody("POST", "/v2/serverless"), `{"name":"cpu","type":"QUEUE","templateId":"`+public+`","scaling":{"type":"REQUEST_COUNT","requestCount":2},
			"cpu":[{"id":"cpu5c","vcpuCount":4},{"id":"cpu3c","vcpuCount":4}],"timeout":60000,"flashboot":"OFF"}`)
		j := r.json(t)
		mustJSON(t, j["instanceIds"], `["cpu5c-4-8","cpu3c-4-8"]`)
		if j["computeType"] != "CPU" || j["idleTimeout"] != nil || j["scalerType"] != "REQUEST_COUNT" || j["scalerValue"] != 2.0 ||
			j["executionTimeoutMs"] != 60000.0 || j["gpuCount"] != nil || !hasKeys(j, "gpuCount") {
			t.Errorf("CPU endpoint %s", r.body)
		}
		// The GPU fields say there is none (the gpuTypeIds sent were
		// ignored, as v1 ignored them).
		mustJSON(t, j["gpuTypeIds"], `[]`)
		mustJSON(t, j["allowedCudaVersions"], `[]`)
		if w := warningsOf(r); !strings.Contains(w, "idleTimeout was not applied") {
			t.Errorf("warning %q", w)
		}
		// vcpuCount alone keeps the flavors.
		m = e.mark()
		u := e.v1("PATCH", "/v1/endpoints/"+id, `{"vcpuCount":8,"gpuCount":2}`)
		e.want(u, 200)
		e.wantCalls(m, "GET /v2/serverless/"+id, "PATCH /v2/serverless/"+id, "GET /v2/serverless/"+id+"/releases")
		mustJSON(t, e.lastBody("PATCH", "/v2/serverless/"+id), `{"cpu":[{"id":"cpu5c","vcpuCount":8},{"id":"cpu3c","vcpuCount":8}]}`)
		if w := warningsOf(u); !strings.Contains(w, "ignored gpuCount") {
			t.Errorf("warning %q", w)
		}
		e.want(e.v1("DELETE", "/v1/endpoints/"+id, ""), 204)
		// A public template is not deleted with the endpoint.
		e.want(e.v1("GET", "/v1/templates/"+public, ""), 200)
	})

	t.Run("CUDA: a floor replaces a set", func(t *testing.T) {
		r := e.v1("POST", "/v1/endpoints", `{"templateId":"`+public+`","name":"cuda","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"allowedCudaVersions":["12.4","12.8"]}`)
		e.want(r, 200)
		id := r.json(t)["id"].(string)
		mustJSON(t, r.json(t)["allowedCudaVersions"], `["12.4","12.8"]`)
		u := e.v1("PATCH", "/v1/endpoints/"+id, `{"minCudaVersion":"12.6"}`)
		e.want(u, 200)
		mustJSON(t, e.lastBody("PATCH", "/v2/serverless/"+id), `{"gpu":{"allowedCudaVersions":[],"minCudaVersion":"12.6","count":1}}`)
		if uj := u.json(t); uj["minCudaVersion"] != "12.6" || fmt.Sprint(uj["allowedCudaVersions"]) != "[]" {
			t.Errorf("updated %s", u.body)
		}
		// An empty update answers the endpoint without a PATCH.
		m := e.mark()
		e.want(e.v1("PATCH", "/v1/endpoints/"+id, `{}`), 200)
		e.wantCalls(m, "GET /v2/serverless/"+id, "GET /v2/serverless/"+id+"/releases")
		e.want(e.v1("DELETE", "/v1/endpoints/"+id, ""), 204)
	})

	t.Run("errors", func(t *testing.T) {
		tests := []struct {
			method, path, body string
			status             int
			msg                string
			calls              []string
		}{
			{"POST", "/v1/endpoints", `{"gpuTypeIds":["NVIDIA L4"]}`, 400, "templateId: is required", nil},
			{"POST", "/v1/endpoints", `{"templateId":"nope","gpuTypeIds":["NVIDIA L4"]}`, 400, `template "nope" not found`, []string{"GET /v2/templates/nope"}},
			{"POST", "/v1/endpoints", `{"templateId":"30zmvf89kd","gpuTypeIds":["NVIDIA L4"]}`, 400, "is a pod template", []string{"GET /v2/templates/30zmvf89kd"}},
			{"POST", "/v1/endpoints", `{"templateId":"30zmvf89kd","name":"x","computeType":"CPU","cpuFlavorIds":["cpu3c"]}`, 400, "pod template", []string{"GET /v2/templates/30zmvf89kd"}},
			{"POST", "/v1/endpoints", `{"templateId":"` + public + `","name":"x","gpuTypeIds":["AMD Instinct MI300X OAM"]}`, 400, "none of AMD Instinct MI300X OAM", []string{"GET /v2/templates/" + public}},
			{"POST", "/v1/endpoints", `{"templateId":"` + public + `","name":"x","computeType":"CPU","cpuFlavorIds":["cpu3c"],"workersMin":5}`, 400, "workersMin (5) must be <= workersMax (3)", []string{"GET /v2/templates/" + public, "POST /v2/serverless"}},
			{"GET", "/v1/endpoints/nope", ``, 404, "not found", []string{"GET /v2/serverless/nope"}},
			{"GET", "/v1/endpoints?includeWorkers=yes", ``, 400, "includeWorkers", nil},
			{"PATCH", "/v1/endpoints/nope", `{"scalerValue":2}`, 400, "not found", []string{"GET /v2/serverless/nope"}},
			{"PATCH", "/v1/endpoints/nope", `{"idleTimeout":0}`, 400, "idleTimeout", nil},
			{"DELETE", "/v1/endpoints/nope", ``, 400, "not found", []string{"DELETE /v2/serverless/nope"}},
		}
		for _, tc := range tests {
			m := e.mark()
			r := e.v1(tc.method, tc.path, tc.body)
			e.want(r, tc.status)
			if msg := r.message(t); !strings.Contains(msg, tc.msg) {
				t.Errorf("%s %s: message %q should contain %q", tc.method, tc.path, msg, tc.msg)
			}
			// The GPU catalog may come from the gateway's cache.
			var got []string
			for _, c := range e.callsSince(m) {
				if c != "GET /v2/catalog/gpus" {
					got = append(got, c)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.calls, ",") {
				t.Errorf("%s %s %s: calls %q, want %q", tc.method, tc.path, tc.body, got, tc.calls)
			}
		}
	})
}

func hasKeys(m map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}
