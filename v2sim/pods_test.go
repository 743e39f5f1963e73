package v2sim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func action(t *testing.T, s *Server, id, a string) *reqResult {
	t.Helper()
	rec := do(t, s, "POST", "/v2/pods/"+id+"/action", map[string]any{"action": a})
	return &reqResult{code: rec.Code, body: rec.Body.String(), t: t, rec: rec}
}

type reqResult struct {
	code int
	body string
	t    *testing.T
	rec  interface{ Header() http.Header }
}

func getPod(t *testing.T, s *Server, id string) map[string]any {
	t.Helper()
	rec := do(t, s, "GET", "/v2/pods/"+id, nil)
	expectStatus(t, rec, 200)
	return obj(t, rec)
}

func TestPodLifecycle(t *testing.T) {
	s, clk := newTestServer(Options{})
	rec := do(t, s, "POST", "/v2/pods", gpuPodBody("life"))
	expectStatus(t, rec, 201)
	p := obj(t, rec)
	id := str(p, "id")
	type want struct {
		status, actions  string
		started, runtime bool
		direct           bool
		cost             float64
	}
	check := func(step string, p map[string]any, w want) {
		t.Helper()
		if got := str(p, "status"); got != w.status {
			t.Errorf("%s: status %s, want %s", step, got, w.status)
		}
		if got := fmt.Sprint(p["actions"]); got != w.actions {
			t.Errorf("%s: actions %s, want %s", step, got, w.actions)
		}
		if (p["startedAt"] != nil) != w.started {
			t.Errorf("%s: startedAt %v", step, p["startedAt"])
		}
		if (p["runtime"] != nil) != w.runtime {
			t.Errorf("%s: runtime %v", step, p["runtime"])
		}
		ssh, _ := p["ssh"].(map[string]any)
		if (ssh["direct"] != nil) != w.direct || ssh["proxy"] == nil {
			t.Errorf("%s: ssh %v", step, ssh)
		}
		if p["cost"] != w.cost {
			t.Errorf("%s: cost %v, want %v", step, p["cost"], w.cost)
		}
		if p["template"] != nil {
			t.Errorf("%s: template %v, want null", step, p["template"])
		}
	}
	check("create", p, want{"PROVISIONING", "[stop terminate]", false, false, false, 0.69})
	clk.Advance(provisionDuration)
	check("+5s", getPod(t, s, id), want{"STARTING", "[stop terminate]", false, false, false, 0.69})
	clk.Advance(startDuration - time.Second)
	check("+14s", getPod(t, s, id), want{"STARTING", "[stop terminate]", false, false, false, 0.69})
	clk.Advance(time.Second)
	p = getPod(t, s, id)
	check("+15s", p, want{"RUNNING", "[stop restart terminate]", true, true, true, 0.69})
	started := str(p, "startedAt")
	if started != ts(t0.Add(15*time.Second)) {
		t.Errorf("startedAt %s", started)
	}
	clk.Advance(time.Minute)
	if up := getPod(t, s, id)["runtime"].(map[string]any)["uptime"]; up != 60.0 {
		t.Errorf("uptime %v, want 60", up)
	}

	rec = do(t, s, "POST", "/v2/pods/"+id+"/action", map[string]any{"action": "stop"})
	expectStatus(t, rec, 200)
	check("stop", obj(t, rec), want{"EXITED", "[start terminate]", true, false, false, 0})
	if got := str(getPod(t, s, id), "startedAt"); got != started {
		t.Errorf("a stopped pod keeps its last startedAt: %s vs %s", got, started)
	}
	rec = do(t, s, "POST", "/v2/pods/"+id+"/action", map[string]any{"action": "start"})
	expectStatus(t, rec, 200)
	check("start", obj(t, rec), want{"PROVISIONING", "[stop terminate]", true, false, false, 0.69})
	clk.Advance(provisionDuration + startDuration)
	p = getPod(t, s, id)
	check("started", p, want{"RUNNING", "[stop restart terminate]", true, true, true, 0.69})
	if str(p, "startedAt") == started {
		t.Error("startedAt not updated by start")
	}
	rec = do(t, s, "POST", "/v2/pods/"+id+"/action", map[string]any{"action": "restart"})
	expectStatus(t, rec, 200)
	check("restart", obj(t, rec), want{"STARTING", "[stop terminate]", true, false, false, 0.69})
	clk.Advance(startDuration)
	check("restarted", getPod(t, s, id), want{"RUNNING", "[stop restart terminate]", true, true, true, 0.69})

	rec = do(t, s, "POST", "/v2/pods/"+id+"/action", map[string]any{"action": "terminate"})
	expectStatus(t, rec, 204)
	if rec.Body.Len() != 0 {
		t.Errorf("terminate answered a body: %s", rec.Body.String())
	}
	expectProblem(t, do(t, s, "GET", "/v2/pods/"+id, nil), 404)
	if n := len(list(t, do(t, s, "GET", "/v2/pods", nil), "pods")); n != 0 {
		t.Errorf("terminated pod still listed (%d pods)", n)
	}
}

func TestPodActionValidity(t *testing.T) {
	tests := []struct {
		state  string // how to prepare the pod
		action string
		want   int
	}{
		{"PROVISIONING", "start", 409}, {"PROVISIONING", "stop", 200}, {"PROVISIONING", "restart", 409}, {"PROVISIONING", "terminate", 204},
		{"STARTING", "start", 409}, {"STARTING", "stop", 200}, {"STARTING", "restart", 409}, {"STARTING", "terminate", 204},
		{"RUNNING", "start", 409}, {"RUNNING", "stop", 200}, {"RUNNING", "restart", 200}, {"RUNNING", "terminate", 204},
		{"EXITED", "start", 200}, {"EXITED", "stop", 409}, {"EXITED", "restart", 409}, {"EXITED", "terminate", 204},
		{"ERROR", "start", 200}, {"ERROR", "stop", 409}, {"ERROR", "restart", 409}, {"ERROR", "terminate", 204},
		{"LOCKED", "stop", 409}, {"LOCKED", "restart", 200}, {"LOCKED", "terminate", 204},
	}
	for _, tc := range tests {
		t.Run(tc.state+"/"+tc.action, func(t *testing.T) {
			s, clk := newTestServer(Options{})
			id := createPodT(t, s, gpuPodBody("a"))
			switch tc.state {
			case "STARTING":
				clk.Advance(provisionDuration)
			case "RUNNING":
				clk.Advance(time.Minute)
			case "EXITED":
				action(t, s, id, "stop")
			case "ERROR":
				s.SetPodError(id)
			case "LOCKED":
				clk.Advance(time.Minute)
				expectStatus(t, do(t, s, "PATCH", "/v2/pods/"+id, map[string]any{"locked": true}), 200)
				if acts := fmt.Sprint(getPod(t, s, id)["actions"]); acts != "[restart terminate]" {
					t.Errorf("locked pod actions %s", acts)
				}
			}
			res := action(t, s, id, tc.action)
			if res.code != tc.want {
				t.Fatalf("status %d, want %d: %s", res.code, tc.want, res.body)
			}
			if tc.want == 409 && !strings.Contains(res.body, "application/problem+json") && res.rec.Header().Get("Content-Type") != "application/problem+json" {
				t.Errorf("409 is not a problem")
			}
		})
	}
}

func TestPodCost(t *testing.T) {
	s, _ := newTestServer(Options{})
	tests := []struct {
		body map[string]any
		cost float64
	}{
		{map[string]any{"name": "a", "image": "i", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090", "count": 2}}, 1.38},
		{map[string]any{"name": "a", "image": "i", "cloud": "COMMUNITY", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"}}, 0.34},
		{map[string]any{"name": "a", "image": "i", "gpu": map[string]any{"id": "NVIDIA A100 80GB PCIe", "count": 3}}, 4.92},
		{map[string]any{"name": "a", "image": "i", "cpu": map[string]any{"id": "cpu5c", "vcpuCount": 4}}, 0.2},
	}
	for _, tc := range tests {
		rec := do(t, s, "POST", "/v2/pods", tc.body)
		expectStatus(t, rec, 201)
		if got := obj(t, rec)["cost"]; got != tc.cost {
			t.Errorf("%v: cost %v, want %v", tc.body, got, tc.cost)
		}
	}
}

func TestPodCreateRules(t *testing.T) {
	s, _ := newTestServer(Options{})
	vol := str(obj(t, do(t, s, "POST", "/v2/network-volumes", map[string]any{"name": "v", "size": 10, "dataCenter": "EU-RO-1"})), "id")
	gpu := func(extra map[string]any) map[string]any {
		b := map[string]any{"name": "p", "image": "i", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"}}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	tests := []struct {
		name   string
		body   map[string]any
		status int
		detail string
		check  func(t *testing.T, p map[string]any)
	}{
		{"secure-only GPU on community", gpu(map[string]any{"cloud": "COMMUNITY", "gpu": map[string]any{"id": "NVIDIA L40S"}}), 400, "not offered on COMMUNITY", nil},
		{"count above maxCount", gpu(map[string]any{"gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090", "count": 9}}), 400, "at most 8", nil},
		{"unknown GPU", gpu(map[string]any{"gpu": map[string]any{"id": "NVIDIA RTX 9999"}}), 400, "unknown GPU type", nil},
		{"unknown CPU", map[string]any{"name": "p", "image": "i", "cpu": map[string]any{"id": "cpu9z", "vcpuCount": 4}}, 400, "unknown CPU flavor", nil},
		{"vcpu beyond flavor", map[string]any{"name": "p", "image": "i", "cpu": map[string]any{"id": "cpu5m", "vcpuCount": 32}}, 400, "not valid for CPU flavor", nil},
		{"unknown data center", gpu(map[string]any{"dataCenterIds": []string{"MARS-1"}}), 400, "unknown data center", nil},
		{"sold out everywhere", gpu(map[string]any{"gpu": map[string]any{"id": "NVIDIA H200"}}), 400, "no capacity", nil},
		{"not in preferred data center", gpu(map[string]any{"dataCenterIds": []string{"EU-CZ-1"}}), 201, "", func(t *testing.T, p map[string]any) {
			if p["dataCenterId"] == "EU-CZ-1" || p["dataCenterId"] == nil {
				t.Errorf("dataCenterId %v: EU-CZ-1 has no stock, another data center should be used", p["dataCenterId"])
			}
		}},
		{"preferred data center", gpu(map[string]any{"dataCenterIds": []string{"AP-JP-1", "CA-MTL-1", "US-KS-2"}}), 201, "", func(t *testing.T, p map[string]any) {
			if p["dataCenterId"] != "CA-MTL-1" {
				t.Errorf("dataCenterId %v, want the first preferred one with stock", p["dataCenterId"])
			}
		}},
		{"bad port", gpu(map[string]any{"ports": []string{"8888"}}), 400, "port/protocol", nil},
		{"global networking on AMD", gpu(map[string]any{"globalNetworking": true, "gpu": map[string]any{"id": "AMD Instinct MI300X OAM"}}), 400, "NVIDIA", nil},
		{"global networking", gpu(map[string]any{"globalNetworking": true}), 201, "", func(t *testing.T, p map[string]any) {
			gn := p["globalNetworking"].(map[string]any)
			if gn["enabled"] != true || gn["ip"] == nil || gn["internalDns"] != str(p, "id")+".runpod.internal" {
				t.Errorf("globalNetworking %v", gn)
			}
			if dc := findDC(str(p, "dataCenterId")); dc == nil || !dc.globalNetwork {
				t.Errorf("placed in %v without global networking", p["dataCenterId"])
			}
		}},
		{"exact CUDA", gpu(map[string]any{"gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090", "allowedCudaVersions": []string{"12.6"}}}), 201, "", func(t *testing.T, p map[string]any) {
			if p["cudaVersion"] != "12.6" {
				t.Errorf("cudaVersion %v", p["cudaVersion"])
			}
		}},
		{"CUDA floor", gpu(map[string]any{"gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090", "minCudaVersion": "12.7"}}), 201, "", func(t *testing.T, p map[string]any) {
			if p["cudaVersion"] != "13.0" {
				t.Errorf("cudaVersion %v", p["cudaVersion"])
			}
		}},
		{"empty CUDA set beside a floor", gpu(map[string]any{"gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090", "allowedCudaVersions": []string{}, "minCudaVersion": "12.0"}}), 201, "", nil},
		{"CUDA set and floor", gpu(map[string]any{"gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090", "allowedCudaVersions": []string{"12.8"}, "minCudaVersion": "12.0"}}), 400, "mutually exclusive", nil},
		{"CUDA nobody offers", gpu(map[string]any{"gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090", "allowedCudaVersions": []string{"11.8"}}}), 400, "no capacity", nil},
		{"CPU pod has no CUDA", map[string]any{"name": "p", "image": "i", "cpu": map[string]any{"id": "cpu3c", "vcpuCount": 2}}, 201, "", func(t *testing.T, p map[string]any) {
			if p["cudaVersion"] != nil || p["gpu"] != nil {
				t.Errorf("CPU pod cudaVersion %v gpu %v", p["cudaVersion"], p["gpu"])
			}
			if c := p["cpu"].(map[string]any); c["memory"] != 4.0 || c["vcpuCount"] != 2.0 {
				t.Errorf("cpu %v", c)
			}
		}},
		{"network volume places the pod", gpu(map[string]any{"mounts": map[string]any{"network": []any{map[string]any{"volumeId": vol, "path": "/data"}}}}), 201, "", func(t *testing.T, p map[string]any) {
			if p["dataCenterId"] != "EU-RO-1" {
				t.Errorf("pod placed in %v, volume is in EU-RO-1", p["dataCenterId"])
			}
		}},
		{"network volume outside preferred data centers", gpu(map[string]any{"dataCenterIds": []string{"US-KS-2"}, "mounts": map[string]any{"network": []any{map[string]any{"volumeId": vol, "path": "/data"}}}}), 201, "", func(t *testing.T, p map[string]any) {
			if p["dataCenterId"] != "EU-RO-1" {
				t.Errorf("pod placed in %v, volume is in EU-RO-1", p["dataCenterId"])
			}
		}},
		{"unknown network volume", gpu(map[string]any{"mounts": map[string]any{"network": []any{map[string]any{"volumeId": "nope", "path": "/data"}}}}), 400, "not found", nil},
		{"unknown registry", gpu(map[string]any{"registry": "nope"}), 400, "registry", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, s, "POST", "/v2/pods", tc.body)
			if tc.status != 201 {
				expectProblem(t, rec, tc.status, tc.detail)
				return
			}
			expectStatus(t, rec, 201)
			if tc.check != nil {
				tc.check(t, obj(t, rec))
			}
		})
	}
}

// TestMountRules covers every mount rule of the brief: both kinds → 400,
// partial entries → 422, PATCH {} / omitted → unchanged, network: [] → 400,
// kind fixed at create → 400, volumeId immutable → 400, persistent on CPU → 400.
func TestMountRules(t *testing.T) {
	s, _ := newTestServer(Options{})
	vol := str(obj(t, do(t, s, "POST", "/v2/network-volumes", map[string]any{"name": "v", "size": 10, "dataCenter": "US-KS-2"})), "id")
	vol2 := str(obj(t, do(t, s, "POST", "/v2/network-volumes", map[string]any{"name": "v2", "size": 10, "dataCenter": "US-KS-2"})), "id")
	persistent := map[string]any{"persistent": map[string]any{"size": 20, "path": "/workspace"}}
	network := map[string]any{"network": []any{map[string]any{"volumeId": vol, "path": "/data"}}}
	mk := func(mounts map[string]any, cpu bool) string {
		b := gpuPodBody("m")
		if cpu {
			delete(b, "gpu")
			b["cpu"] = map[string]any{"id": "cpu5c", "vcpuCount": 2}
		}
		if mounts != nil {
			b["mounts"] = mounts
		}
		return createPodT(t, s, b)
	}
	persPod, netPod, bare, cpuNet := mk(persistent, false), mk(network, false), mk(nil, false), mk(network, true)

	create := []struct {
		name   string
		mounts any
		cpu    bool
		status int
	}{
		{"both kinds", map[string]any{"persistent": persistent["persistent"], "network": network["network"]}, false, 400},
		{"persistent without path", map[string]any{"persistent": map[string]any{"size": 20}}, false, 422},
		{"persistent without size", map[string]any{"persistent": map[string]any{"path": "/w"}}, false, 422},
		{"network without path", map[string]any{"network": []any{map[string]any{"volumeId": vol}}}, false, 422},
		{"network without volumeId", map[string]any{"network": []any{map[string]any{"path": "/d"}}}, false, 422},
		{"persistent on CPU pod", persistent, true, 400},
		{"network on CPU pod", network, true, 201},
		{"empty mounts", map[string]any{}, false, 201},
	}
	for _, tc := range create {
		t.Run("create/"+tc.name, func(t *testing.T) {
			b := gpuPodBody("m")
			if tc.cpu {
				delete(b, "gpu")
				b["cpu"] = map[string]any{"id": "cpu5c", "vcpuCount": 2}
			}
			b["mounts"] = tc.mounts
			rec := do(t, s, "POST", "/v2/pods", b)
			if tc.status >= 400 {
				expectProblem(t, rec, tc.status)
			} else {
				expectStatus(t, rec, tc.status)
			}
		})
	}

	patch := []struct {
		name   string
		pod    string
		body   map[string]any
		status int
		mounts string // expected mounts JSON after a success
	}{
		{"omitted leaves persistent", persPod, map[string]any{"name": "n"}, 200, `{"persistent":{"size":20,"path":"/workspace"}}`},
		{"{} leaves persistent", persPod, map[string]any{"mounts": map[string]any{}}, 200, `{"persistent":{"size":20,"path":"/workspace"}}`},
		{"persistent path change", persPod, map[string]any{"mounts": map[string]any{"persistent": map[string]any{"size": 30, "path": "/w2"}}}, 200, `{"persistent":{"size":30,"path":"/w2"}}`},
		{"partial persistent", persPod, map[string]any{"mounts": map[string]any{"persistent": map[string]any{"path": "/w3"}}}, 422, ""},
		{"network on persistent pod", persPod, network, 400, ""},
		{"network: [] on persistent pod", persPod, map[string]any{"mounts": map[string]any{"network": []any{}}}, 400, ""},
		{"both kinds", persPod, map[string]any{"mounts": map[string]any{"persistent": persistent["persistent"], "network": network["network"]}}, 400, ""},
		{"{} leaves network", netPod, map[string]any{"mounts": map[string]any{}}, 200, `{"network":[{"volumeId":"` + vol + `","path":"/data"}]}`},
		{"network path change", netPod, map[string]any{"mounts": map[string]any{"network": []any{map[string]any{"volumeId": vol, "path": "/new"}}}}, 200, `{"network":[{"volumeId":"` + vol + `","path":"/new"}]}`},
		{"network: [] clears nothing", netPod, map[string]any{"mounts": map[string]any{"network": []any{}}}, 400, ""},
		{"different volumeId", netPod, map[string]any{"mounts": map[string]any{"network": []any{map[string]any{"volumeId": vol2, "path": "/new"}}}}, 400, ""},
		{"partial network", netPod, map[string]any{"mounts": map[string]any{"network": []any{map[string]any{"volumeId": vol}}}}, 422, ""},
		{"persistent on network pod", netPod, map[string]any{"mounts": persistent}, 400, ""},
		{"persistent on mountless pod", bare, map[string]any{"mounts": persistent}, 400, ""},
		{"network on mountless pod", bare, map[string]any{"mounts": network}, 400, ""},
		{"{} on mountless pod", bare, map[string]any{"mounts": map[string]any{}}, 200, `{}`},
		{"persistent on CPU pod", cpuNet, map[string]any{"mounts": persistent}, 400, ""},
	}
	for _, tc := range patch {
		t.Run("patch/"+tc.name, func(t *testing.T) {
			body := tc.body
			if _, ok := body["mounts"]; !ok && tc.name != "omitted leaves persistent" {
				body = map[string]any{"mounts": body}
			}
			rec := do(t, s, "PATCH", "/v2/pods/"+tc.pod, body)
			if tc.status >= 400 {
				expectProblem(t, rec, tc.status)
				return
			}
			expectStatus(t, rec, tc.status)
			raw := rec.Body.String()
			if !strings.Contains(raw, `"mounts":`+tc.mounts) {
				t.Errorf("mounts not %s in %s", tc.mounts, raw)
			}
		})
	}
}

func TestPodFromTemplate(t *testing.T) {
	s, _ := newTestServer(Options{})
	tpl := str(obj(t, do(t, s, "POST", "/v2/templates", map[string]any{
		"name": "t", "image": "tpl/image:1", "args": "serve", "disk": 33, "ports": []string{"8888/http"},
		"env": map[string]string{"A": "tpl", "B": "tpl"}, "mounts": map[string]any{"persistent": map[string]any{"size": 25, "path": "/ws"}},
		"allowedCudaVersions": []string{"12.6"},
	})), "id")
	rec := do(t, s, "POST", "/v2/pods", map[string]any{
		"name": "p", "templateId": tpl, "disk": 40, "env": map[string]string{"B": "body", "C": "body"},
		"gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"},
	})
	expectStatus(t, rec, 201)
	p := obj(t, rec)
	env := p["env"].(map[string]any)
	if p["image"] != "tpl/image:1" || p["args"] != "serve" || p["disk"] != 40.0 || env["A"] != "tpl" || env["B"] != "body" || env["C"] != "body" {
		t.Errorf("template resolution: image %v args %v disk %v env %v", p["image"], p["args"], p["disk"], env)
	}
	if _, ok := env["JUPYTER_PASSWORD"]; !ok {
		t.Error("template startJupyter (default true) did not inject JUPYTER_PASSWORD")
	}
	if _, ok := env["PUBLIC_KEY"]; ok {
		t.Error("PUBLIC_KEY injected although no SSH key is registered")
	}
	if p["template"] != nil {
		t.Errorf("template %v, want null (the pod keeps no link)", p["template"])
	}
	if p["cudaVersion"] != "12.6" {
		t.Errorf("template CUDA constraint not applied: %v", p["cudaVersion"])
	}
	if !strings.Contains(rec.Body.String(), `"mounts":{"persistent":{"size":25,"path":"/ws"}}`) {
		t.Errorf("template persistent mount not applied: %s", rec.Body.String())
	}

	// startSsh injects the registered keys; a CPU pod ignores the template's persistent mount.
	expectStatus(t, do(t, s, "PUT", "/v2/account/ssh-keys", map[string]any{"keys": []string{SeedSSHKey}}), 200)
	rec = do(t, s, "POST", "/v2/pods", map[string]any{"name": "c", "templateId": tpl, "startJupyter": false, "cpu": map[string]any{"id": "cpu5c", "vcpuCount": 2}})
	expectStatus(t, rec, 201)
	p = obj(t, rec)
	env = p["env"].(map[string]any)
	if env["PUBLIC_KEY"] != SeedSSHKey {
		t.Errorf("PUBLIC_KEY %v", env["PUBLIC_KEY"])
	}
	if _, ok := env["JUPYTER_PASSWORD"]; ok {
		t.Error("startJupyter=false in the body did not override the template")
	}
	if !strings.Contains(rec.Body.String(), `"mounts":{}`) {
		t.Errorf("CPU pod inherited the persistent mount: %s", rec.Body.String())
	}

	// PATCH with templateId applies container settings, not mounts; env replaced by template+body.
	id := createPodT(t, s, gpuPodBody("x"))
	rec = do(t, s, "PATCH", "/v2/pods/"+id, map[string]any{"templateId": tpl, "env": map[string]string{"Z": "1"}})
	expectStatus(t, rec, 200)
	p = obj(t, rec)
	if p["image"] != "tpl/image:1" || fmt.Sprint(p["env"]) != "map[A:tpl B:tpl Z:1]" || !strings.Contains(rec.Body.String(), `"mounts":{}`) {
		t.Errorf("PATCH templateId: image %v env %v body %s", p["image"], p["env"], rec.Body.String())
	}
}

func TestPodListAndFilters(t *testing.T) {
	s, clk := newTestServer(Options{Seed: true})
	pods := list(t, do(t, s, "GET", "/v2/pods", nil), "pods")
	if len(pods) != 2 || str(pods[0], "status") != "RUNNING" || str(pods[1], "status") != "EXITED" {
		t.Fatalf("seeded pods: %v", pods)
	}
	do(t, s, "POST", "/v2/clusters", map[string]any{"name": "c", "type": "TRAINING", "compute": map[string]any{"gpuTypeId": "NVIDIA H100 80GB HBM3", "gpuCountPerPod": 1, "podCount": 2}})
	clk.Advance(time.Minute)
	if n := len(list(t, do(t, s, "GET", "/v2/pods", nil), "pods")); n != 2 {
		t.Errorf("cluster members listed by default (%d pods)", n)
	}
	all := list(t, do(t, s, "GET", "/v2/pods?includeClusterPods=true", nil), "pods")
	if len(all) != 4 || all[2]["cluster"] == nil {
		t.Errorf("includeClusterPods=true: %d pods", len(all))
	}
	if n := len(list(t, do(t, s, "GET", "/v2/pods?includeClusterPods=false", nil), "pods")); n != 2 {
		t.Errorf("includeClusterPods=false: %d pods", n)
	}
}

func TestPodLogs(t *testing.T) {
	s, clk := newTestServer(Options{})
	id := createPodT(t, s, gpuPodBody("l"))
	clk.Advance(15*time.Second + 10*time.Minute)
	rec := do(t, s, "GET", "/v2/pods/"+id+"/logs", nil)
	expectStatus(t, rec, 200)
	for k, v := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"} {
		if got := rec.Header().Get(k); got != v {
			t.Errorf("%s %q, want %q", k, got, v)
		}
	}
	events := strings.Split(strings.TrimSpace(rec.Body.String()), "\n\n")
	if len(events) != 15 { // 4 system + container started + 10 heartbeats
		t.Fatalf("%d events: %s", len(events), rec.Body.String())
	}
	first := strings.SplitN(events[0], "\n", 2)
	// The document: "Log-event id values are the event ts timestamp".
	if first[0] != "id: "+ts(t0) || !strings.Contains(first[1], `"ts":"`+ts(t0)+`"`) || !strings.HasPrefix(first[1], `data: {"line":`) || !strings.Contains(first[1], `"source":"system"`) {
		t.Errorf("first event %q", events[0])
	}
	tail := strings.Split(strings.TrimSpace(do(t, s, "GET", "/v2/pods/"+id+"/logs?tail=2&source=container", nil).Body.String()), "\n\n")
	if len(tail) != 2 || !strings.Contains(tail[1], "heartbeat 10") {
		t.Errorf("tail=2: %q", tail)
	}
	if body := do(t, s, "GET", "/v2/pods/"+id+"/logs?source=system", nil).Body.String(); strings.Contains(body, `"container"`) {
		t.Errorf("source=system returned container lines")
	}
	lastID := strings.TrimPrefix(strings.SplitN(events[12], "\n", 2)[0], "id: ")
	resumed := strings.Split(strings.TrimSpace(do(t, s, "GET", "/v2/pods/"+id+"/logs", nil, "Last-Event-ID", lastID).Body.String()), "\n\n")
	if len(resumed) != 2 {
		t.Errorf("resume after %s: %q", lastID, resumed)
	}
	for _, ev := range events {
		id, data, _ := strings.Cut(ev, "\n")
		var d map[string]string
		if err := json.Unmarshal([]byte(strings.TrimPrefix(data, "data: ")), &d); err != nil || "id: "+d["ts"] != id {
			t.Errorf("event id is not its ts: %q", ev)
		}
	}
	expectProblem(t, do(t, s, "GET", "/v2/pods/"+id+"/logs", nil, "Last-Event-ID", ts(t0)+"/000000000001"), 422, "Last-Event-ID")
	since := strings.Split(strings.TrimSpace(do(t, s, "GET", "/v2/pods/"+id+"/logs?tail=0&since="+ts(t0.Add(15*time.Second+9*time.Minute)), nil).Body.String()), "\n\n")
	if len(since) != 2 {
		t.Errorf("since: %q", since)
	}
	if body := do(t, s, "GET", "/v2/pods/"+id+"/logs?tail=0", nil).Body.String(); body != "" {
		t.Errorf("tail=0 backfilled: %q", body)
	}
	expectProblem(t, do(t, s, "GET", "/v2/pods/"+id+"/logs?tail=5001", nil), 422, "query.tail")
	expectProblem(t, do(t, s, "GET", "/v2/pods/"+id+"/logs?source=stderr", nil), 422, "query.source")
}
