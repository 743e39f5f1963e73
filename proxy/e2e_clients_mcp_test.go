package proxy

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// ---- runpod-mcp 1.3.0 and 3.2.0 (RUNPOD_REST_VERSION=v1) ----

// runpodMCP lists the v1 calls of runpod-mcp's tools. Both releases send the
// tool's arguments as the body, keys in the order of the tool's schema;
// where the releases differ, the case says so. 1.3.0's create-pod has no
// computeType (a CPU pod cannot be asked for) and its list answers are used
// as they come; 3.2.0 adds computeType and volumeType, answers restart-pod
// and get-billing itself (501) on v1, and keeps a v1 list only if it is a
// JSON array.
func runpodMCP(version string) []clientCase {
	c := "runpod-mcp " + version + ": "
	v3 := strings.HasPrefix(version, "3.")
	var cases []clientCase
	add := func(cs ...clientCase) { cases = append(cases, cs...) }

	add(clientCase{name: c + `create-pod {name, imageName} (a GPU pod without gpuTypeIds)`,
		method: "POST", path: "/v1/pods", body: `{"name":"gpu-any-mcp","imageName":"runpod/pytorch:2"}`,
		status: 201, reads: []string{"id", "desiredStatus", "image", "gpu.id", "costPerHr"},
		check: func(t *testing.T, w *clientWorld, r *e2eResp) {
			wantWarning(t, r)
			if gpu, _ := r.json(t)["gpu"].(map[string]any); gpu != nil && !strings.Contains(r.header.Get("X-Compat-Warning"), fmt.Sprint(gpu["id"])) {
				t.Errorf("X-Compat-Warning %q does not name the chosen GPU type %v", r.header.Get("X-Compat-Warning"), gpu["id"])
			}
		}})
	if v3 {
		add(clientCase{name: c + `create-pod {name, imageName, computeType: "CPU"}`,
			method: "POST", path: "/v1/pods", body: `{"name":"cpu-mcp","imageName":"ubuntu:22.04","computeType":"CPU"}`,
			status: 201, save: "mcpcpu", reads: []string{"id", "desiredStatus", "image", "cpuFlavorId", "vcpuCount", "memoryInGb"}})
	}
	add(clientCase{name: c + "create-pod (GPU, every field of the tool)",
		method: "POST", path: "/v1/pods",
		body:   `{"name":"gpu-mcp","imageName":"runpod/pytorch:2","cloudType":"SECURE","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"containerDiskInGb":20,"volumeInGb":20,"volumeMountPath":"/workspace","ports":["8888/http","22/tcp"],"env":{"A":"1"},"dataCenterIds":["EU-RO-1"]}`,
		status: 201, save: "mcppod", reads: []string{"id", "name", "desiredStatus", "image", "gpu.id", "costPerHr", "env.A"}},
		clientCase{name: c + `create-pod {ports: ["8888/http,22/tcp"]} (one comma-joined element)`,
			method: "POST", path: "/v1/pods",
			body:   `{"name":"ports-mcp","imageName":"runpod/pytorch:2","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"ports":["8888/http,22/tcp"]}`,
			status: 201, check: wantField("ports", []any{"8888/http", "22/tcp"})},
		clientCase{name: c + "list-pods {}", method: "GET", path: "/v1/pods",
			status: 200, pick: "mcppod", reads: []string{"id", "name", "desiredStatus", "image", "gpu.id"}},
		clientCase{name: c + "list-pods {computeType, gpuTypeId×2, dataCenterId×2, name, includeMachine, includeNetworkVolume}", method: "GET",
			path:   "/v1/pods?computeType=GPU&gpuTypeId=NVIDIA+GeForce+RTX+4090&gpuTypeId=NVIDIA+A40&dataCenterId=EU-RO-1&dataCenterId=US-KS-2&name=gpu-mcp&includeMachine=true&includeNetworkVolume=true",
			status: 200, pick: "mcppod", reads: []string{"id", "machine", "machine.dataCenterId"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if l := r.list(t); len(l) != 1 {
					t.Errorf("filters matched %d pods, want exactly gpu-mcp", len(l))
				}
			}},
		clientCase{name: c + "get-pod {includeMachine, includeNetworkVolume}", method: "GET",
			path: "/v1/pods/{mcppod}?includeMachine=true&includeNetworkVolume=true", status: 200, reads: []string{"id", "machine"}},
		clientCase{name: c + "update-pod {name, ports, env} (PUBLIC_KEY kept)", method: "PATCH", path: "/v1/pods/{mcppod}",
			body: `{"name":"gpu-mcp2","ports":["8888/http"],"env":{"B":"2"}}`, status: 200,
			reads: []string{"id", "env.B", "env.PUBLIC_KEY"}, check: wantField("name", "gpu-mcp2")},
		clientCase{name: c + "stop-pod", advance: 30 * time.Second, method: "POST", path: "/v1/pods/{mcppod}/stop",
			status: 200, check: wantField("desiredStatus", "EXITED")},
		clientCase{name: c + "start-pod", method: "POST", path: "/v1/pods/{mcppod}/start",
			status: 200, check: wantField("desiredStatus", "RUNNING")},
	)
	add(clientCase{name: c + "create-template {name, imageName, ports, env, containerDiskInGb, volumeMountPath}", method: "POST", path: "/v1/templates",
		body:   `{"name":"tpl-mcp","imageName":"alpine:3","ports":["8888/http"],"env":{"K":"v"},"containerDiskInGb":10,"volumeInGb":20,"volumeMountPath":"/workspace"}`,
		status: 200, save: "mcptpl", reads: []string{"id", "name", "imageName", "ports", "env.K"}},
		clientCase{name: c + "create-template {isServerless, dockerStartCmd, readme}", method: "POST", path: "/v1/templates",
			body:   `{"name":"tpl-sls-mcp","imageName":"alpine:3","isServerless":true,"ports":["8000/http"],"dockerStartCmd":["python","handler.py"],"env":{"K":"v"},"containerDiskInGb":10,"readme":"# hi"}`,
			status: 200, save: "mcpsls", reads: []string{"id", "name", "imageName", "dockerStartCmd"},
			check: wantField("readme", "# hi")}, // v2 has no readme: the fact store keeps it
		clientCase{name: c + "create-template {isServerless} (for the CPU endpoint)", method: "POST", path: "/v1/templates",
			body:   `{"name":"tpl-cpu-mcp","imageName":"alpine:3","isServerless":true}`,
			status: 200, save: "mcpslscpu", reads: []string{"id"}},
		clientCase{name: c + "list-templates {}", method: "GET", path: "/v1/templates",
			status: 200, pick: "mcptpl", reads: []string{"id", "name", "imageName"}},
		clientCase{name: c + "list-templates {includeRunpodTemplates, includePublicTemplates, includeEndpointBoundTemplates}", method: "GET",
			path:   "/v1/templates?includeRunpodTemplates=true&includePublicTemplates=true&includeEndpointBoundTemplates=true",
			status: 200, pick: "mcptpl", reads: []string{"id", "name"}},
		clientCase{name: c + "get-template", method: "GET", path: "/v1/templates/{mcptpl}",
			status: 200, reads: []string{"id", "name", "imageName", "ports", "env"}},
		clientCase{name: c + "update-template {name, env}", method: "PATCH", path: "/v1/templates/{mcptpl}",
			body: `{"name":"tpl-mcp2","env":{"K":"w"}}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "tpl-mcp2")(t, w, r)
				wantField("env", map[string]any{"K": "w"})(t, w, r)
			}},
	)

	epBody := `{"name":"ep-mcp","templateId":"{mcpsls}","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"workersMin":0,"workersMax":2,"dataCenterIds":["EU-RO-1"]}`
	cpuBody := `{"name":"ep-cpu-mcp","templateId":"{mcpslscpu}","computeType":"CPU"}`
	if v3 { // 3.2.0 copies the v1 fields in its own order
		epBody = `{"templateId":"{mcpsls}","name":"ep-mcp","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"workersMin":0,"workersMax":2,"dataCenterIds":["EU-RO-1"]}`
		cpuBody = `{"templateId":"{mcpslscpu}","name":"ep-cpu-mcp","computeType":"CPU"}`
	}
	add(clientCase{name: c + "create-endpoint {name, templateId, gpuTypeIds, gpuCount, workersMin, workersMax, dataCenterIds}", method: "POST", path: "/v1/endpoints",
		body: epBody, status: 200, save: "mcpep", reads: []string{"id", "name", "templateId", "gpuTypeIds", "workersMax"}},
		clientCase{name: c + `create-endpoint {name, templateId, computeType: "CPU"}`, method: "POST", path: "/v1/endpoints",
			body: cpuBody, status: 200, save: "mcpcpuep", reads: []string{"id", "name", "computeType"},
			check: wantField("computeType", "CPU")},
		clientCase{name: c + "list-endpoints {}", method: "GET", path: "/v1/endpoints",
			status: 200, pick: "mcpep", reads: []string{"id", "name", "gpuTypeIds", "workersMax"}},
		clientCase{name: c + "list-endpoints {includeTemplate, includeWorkers}", method: "GET", path: "/v1/endpoints?includeTemplate=true&includeWorkers=true",
			status: 200, pick: "mcpep", reads: []string{"id", "template"}},
		clientCase{name: c + "get-endpoint {includeTemplate, includeWorkers}", method: "GET", path: "/v1/endpoints/{mcpep}?includeTemplate=true&includeWorkers=true",
			status: 200, reads: []string{"id", "name", "template"}},
		clientCase{name: c + "update-endpoint {name, workersMin, workersMax, idleTimeout, scalerType, scalerValue}", method: "PATCH", path: "/v1/endpoints/{mcpep}",
			body: `{"name":"ep-mcp2","workersMin":0,"workersMax":3,"idleTimeout":10,"scalerType":"QUEUE_DELAY","scalerValue":4}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "ep-mcp2")(t, w, r)
				wantField("workersMax", 3.0)(t, w, r)
			}},
	)
	if v3 {
		add(clientCase{name: c + "update-endpoint {workersMax, imageName, env, gpuPoolIds} (its v1+v2 union: the container fields ignored, as v1 ignored them)", method: "PATCH", path: "/v1/endpoints/{mcpep}",
			body: `{"workersMax":2,"imageName":"runpod/worker:2","env":{"A":"1"},"gpuPoolIds":["ADA_24"]}`, status: 200,
			check: all(wantField("workersMax", 2.0), warned("imageName was ignored", "env was ignored", "gpuPoolIds was ignored"))})
	}

	add(clientCase{name: c + "create-network-volume {name, size, dataCenterId}", method: "POST", path: "/v1/networkvolumes",
		body: `{"name":"vol-mcp","size":20,"dataCenterId":"EU-RO-1"}`, status: 200, save: "mcpvol",
		reads: []string{"id", "name", "size", "dataCenterId"}})
	if v3 {
		add(clientCase{name: c + `create-network-volume {volumeType: "HIGH_PERFORMANCE"}`, method: "POST", path: "/v1/networkvolumes",
			body: `{"name":"vol-hps-mcp","size":20,"dataCenterId":"EU-RO-1","volumeType":"HIGH_PERFORMANCE"}`, status: 200,
			reads: []string{"id", "name", "size", "dataCenterId"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantNothingDropped("volumeType")(t, w, r)
				if ty := w.lastV2Body("/v2/network-volumes")["type"]; ty != "HIGH_PERFORMANCE" {
					t.Errorf("v2 volume type %v, want the tier the client asked for", ty)
				}
			}})
	}
	add(clientCase{name: c + "list-network-volumes", method: "GET", path: "/v1/networkvolumes",
		status: 200, pick: "mcpvol", reads: []string{"id", "name", "size", "dataCenterId"}},
		clientCase{name: c + "get-network-volume", method: "GET", path: "/v1/networkvolumes/{mcpvol}",
			status: 200, reads: []string{"id", "name", "size", "dataCenterId"}},
		clientCase{name: c + "update-network-volume {name, size}", method: "PATCH", path: "/v1/networkvolumes/{mcpvol}",
			body: `{"name":"vol-mcp2","size":40}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "vol-mcp2")(t, w, r)
				wantField("size", 40.0)(t, w, r)
			}},

		clientCase{name: c + "create-container-registry-auth {name, username, password}", method: "POST", path: "/v1/containerregistryauth",
			body: `{"name":"reg-mcp","username":"u","password":"p"}`, status: 200, save: "mcpreg", reads: []string{"id", "name"}},
		clientCase{name: c + "list-container-registry-auths", method: "GET", path: "/v1/containerregistryauth",
			status: 200, pick: "mcpreg", reads: []string{"id", "name"}},
		clientCase{name: c + "get-container-registry-auth", method: "GET", path: "/v1/containerregistryauth/{mcpreg}",
			status: 200, reads: []string{"id", "name"}},

		clientCase{name: c + "delete-endpoint", method: "DELETE", path: "/v1/endpoints/{mcpep}", status: 204},
		clientCase{name: c + "delete-endpoint (the CPU one)", method: "DELETE", path: "/v1/endpoints/{mcpcpuep}", status: 204},
		clientCase{name: c + "delete-template", method: "DELETE", path: "/v1/templates/{mcptpl}", status: 204},
		clientCase{name: c + "delete-network-volume", method: "DELETE", path: "/v1/networkvolumes/{mcpvol}", status: 204},
		clientCase{name: c + "delete-container-registry-auth", method: "DELETE", path: "/v1/containerregistryauth/{mcpreg}", status: 204},
		clientCase{name: c + "delete-pod", method: "DELETE", path: "/v1/pods/{mcppod}", status: 204},
		// RUNPOD_REST_API_URL written with a trailing slash.
		clientCase{name: c + "list-pods {} with RUNPOD_REST_API_URL=http://gateway/v1/", method: "GET", path: "/v1//pods", status: 200},
	)
	return cases
}

// ---- runpod-mcp 4.0.0 (v2 only, through the /v2 pass-through) ----

// v2Listed checks a v2 list answer, an object holding the list under key
// (v2 wraps its lists): it must be an array (runpod-mcp 4.0.0's trimmed
// list tools answer "returned no list data" otherwise), and the item whose
// id is saved under pick, or every item when pick is empty, must carry the
// fields the tool reads.
func v2Listed(key, pick string, fields ...string) func(*testing.T, *clientWorld, *e2eResp) {
	return func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		var m map[string][]map[string]any
		if err := json.Unmarshal(r.body, &m); err != nil || m[key] == nil {
			t.Fatalf("no %s array in the answer (%v): %s", key, err, r.body)
		}
		items := m[key]
		if pick != "" {
			if items = pickID(items, w.ids[pick]); len(items) == 0 {
				t.Fatalf("the list has no item %s (%s): %s", pick, w.ids[pick], r.body)
			}
		}
		for _, it := range items {
			for _, f := range fields {
				if !present(it, f) {
					t.Errorf("the tool reads %s, missing or empty in %v", f, it)
				}
			}
		}
	}
}

// runpodMCP400 lists what runpod-mcp 4.0.0 sends through the gateway. 4.0.0
// removed the v1 fallback: it has no RUNPOD_REST_VERSION and ignores
// RUNPOD_REST_API_URL, and its REST tools call v2 paths on
// RUNPOD_API_BASE_URL (default https://api.runpod.io; trailing slashes cut).
// Pointed at the gateway (RUNPOD_API_BASE_URL=http://gateway, no /v1) every
// REST tool goes through the /v2 pass-through, which must hand the request
// to v2 and v2's answer back unchanged. Generated tools send the tool's body
// argument as the model wrote it and return the parsed answer; list-endpoints
// and list-templates keep a few fields of each item and fail without the
// list array. Captured with the arguments a model gives from each tool's
// schema.
func runpodMCP400() []clientCase {
	const c = "runpod-mcp 4.0.0: "
	return []clientCase{
		{name: c + "list-pods {}", method: "GET", path: "/v2/pods", status: 200,
			check: v2Listed("pods", "seedgpu", "id", "name", "status", "image", "gpu.id", "cost")},
		{name: c + "create-pod (GPU: name, image, gpu, cloud, disk, mounts, ports, env, dataCenterIds)", method: "POST", path: "/v2/pods",
			body:   `{"name":"gpu-mcp4","image":"runpod/pytorch:2","gpu":{"id":"NVIDIA GeForce RTX 4090","count":1},"cloud":"SECURE","disk":20,"mounts":{"persistent":{"size":20,"path":"/workspace"}},"ports":["8888/http","22/tcp"],"env":{"A":"1"},"dataCenterIds":["EU-RO-1"]}`,
			status: 201, save: "mcppod", reads: []string{"id", "name", "status", "image", "gpu.id", "cost", "env.A"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if b := w.lastV2Body("/v2/pods"); !jsonEq(b["mounts"], map[string]any{"persistent": map[string]any{"size": 20.0, "path": "/workspace"}}) {
					t.Errorf("v2 got mounts %v, not the client's", b["mounts"])
				}
			}},
		{name: c + "create-pod (CPU: name, image, cpu)", method: "POST", path: "/v2/pods",
			body:   `{"name":"cpu-mcp4","image":"ubuntu:22.04","cpu":{"id":"cpu3c","vcpuCount":2}}`,
			status: 201, save: "mcpcpu", reads: []string{"id", "status", "cpu.id", "cpu.vcpuCount"}},
		{name: c + "get-pod", method: "GET", path: "/v2/pods/{mcppod}", status: 200,
			reads: []string{"id", "name", "status", "image", "gpu.id", "ports"}},
		{name: c + "list-pods {includeClusterPods}", method: "GET", path: "/v2/pods?includeClusterPods=true", status: 200,
			check: v2Listed("pods", "mcpcpu", "id", "name", "status", "cpu.id")},
		{name: c + "update-pod {name, env}", method: "PATCH", path: "/v2/pods/{mcppod}",
			body: `{"name":"gpu-mcp4b","env":{"B":"2"}}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "gpu-mcp4b")(t, w, r)
				wantField("env", map[string]any{"B": "2"})(t, w, r) // as v2 answers: the pass-through merges nothing
			}},
		{name: c + `pod-action {action: "stop"}`, advance: 30 * time.Second, method: "POST", path: "/v2/pods/{mcppod}/action",
			body: `{"action":"stop"}`, status: 200, check: wantField("status", "EXITED")},
		{name: c + `pod-action {action: "start"}`, method: "POST", path: "/v2/pods/{mcppod}/action",
			body: `{"action":"start"}`, status: 200, reads: []string{"id", "status"}},

		{name: c + "create-template {name, image, ports, env, disk}", method: "POST", path: "/v2/templates",
			body:   `{"name":"tpl-mcp4","image":"alpine:3","ports":["8888/http"],"env":{"K":"v"},"disk":10}`,
			status: 201, save: "mcptpl", reads: []string{"id", "name", "image", "ports", "env.K"}},
		{name: c + "list-templates", method: "GET", path: "/v2/templates", status: 200,
			check: v2Listed("templates", "mcptpl", "id", "name", "image")},
		{name: c + "get-template", method: "GET", path: "/v2/templates/{mcptpl}", status: 200,
			reads: []string{"id", "name", "image", "env"}},
		{name: c + "update-template {name, env}", method: "PATCH", path: "/v2/templates/{mcptpl}",
			body: `{"name":"tpl-mcp4b","env":{"K":"w"}}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "tpl-mcp4b")(t, w, r)
				wantField("env", map[string]any{"K": "w"})(t, w, r)
			}},
		{name: c + "list-public-templates", method: "GET", path: "/v2/catalog/templates", status: 200,
			check: v2Listed("templates", "", "id", "name", "image")},

		{name: c + "create-endpoint {name, image, type, scaling, gpu, workers}", method: "POST", path: "/v2/serverless",
			body:   `{"name":"ep-mcp4","image":"runpod/worker:1","type":"QUEUE","scaling":{"type":"QUEUE_DELAY","queueDelay":4},"gpu":{"pools":["ADA_24"],"count":1},"workers":{"min":0,"max":2}}`,
			status: 201, save: "mcpep", reads: []string{"id", "name", "type", "gpu.pools", "workers", "scaling", "requestUrls.run"}},
		{name: c + "list-endpoints", method: "GET", path: "/v2/serverless", status: 200,
			check: v2Listed("endpoints", "mcpep", "id", "name", "type", "image", "gpu", "workers", "scaling")},
		{name: c + "get-endpoint", method: "GET", path: "/v2/serverless/{mcpep}", status: 200,
			reads: []string{"id", "name", "type", "gpu.pools", "workers", "scaling"}},
		{name: c + "update-endpoint {name, workers}", method: "PATCH", path: "/v2/serverless/{mcpep}",
			body: `{"name":"ep-mcp4b","workers":{"min":0,"max":3}}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "ep-mcp4b")(t, w, r)
				if max := r.json(t)["workers"].(map[string]any)["max"]; max != 3.0 {
					t.Errorf("workers.max %v, want 3", max)
				}
			}},
		{name: c + "update-endpoint {scaling: REQUEST_COUNT}", method: "PATCH", path: "/v2/serverless/{mcpep}",
			body: `{"scaling":{"type":"REQUEST_COUNT","requestCount":3}}`, status: 200,
			check: wantField("scaling", map[string]any{"type": "REQUEST_COUNT", "requestCount": 3.0})},
		// set-endpoint-gpus reads the endpoint, then patches its gpu object.
		{name: c + "set-endpoint-gpus {pools, gpuCount} (reads the endpoint)", method: "GET", path: "/v2/serverless/{mcpep}", status: 200,
			reads: []string{"id", "gpu.pools"}},
		{name: c + "set-endpoint-gpus {pools, gpuCount} (patches gpu)", method: "PATCH", path: "/v2/serverless/{mcpep}",
			body: `{"gpu":{"pools":["ADA_24","AMPERE_24"],"excludedTypes":[],"count":2}}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if gpu, _ := r.json(t)["gpu"].(map[string]any); gpu["count"] != 2.0 || !jsonEq(gpu["pools"], []any{"ADA_24", "AMPERE_24"}) {
					t.Errorf("gpu %v, want pools ADA_24, AMPERE_24 and count 2", gpu)
				}
			}},
		{name: c + "list-endpoint-workers", method: "GET", path: "/v2/serverless/{mcpep}/workers", status: 200,
			reads: []string{"summary", "workers"}},
		{name: c + "list-endpoint-releases", method: "GET", path: "/v2/serverless/{mcpep}/releases", status: 200,
			reads: []string{"releases"}},

		{name: c + "create-network-volume {name, size, dataCenter}", method: "POST", path: "/v2/network-volumes",
			body: `{"name":"vol-mcp4","size":20,"dataCenter":"EU-RO-1"}`, status: 201, save: "mcpvol",
			reads: []string{"id", "name", "size", "dataCenter", "type"}},
		{name: c + "list-network-volumes", method: "GET", path: "/v2/network-volumes", status: 200,
			check: v2Listed("networkVolumes", "mcpvol", "id", "name", "size", "dataCenter")},
		{name: c + "get-network-volume", method: "GET", path: "/v2/network-volumes/{mcpvol}", status: 200,
			reads: []string{"id", "name", "size", "dataCenter"}},
		{name: c + "update-network-volume {name, size}", method: "PATCH", path: "/v2/network-volumes/{mcpvol}",
			body: `{"name":"vol-mcp4b","size":40}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "vol-mcp4b")(t, w, r)
				wantField("size", 40.0)(t, w, r)
			}},

		{name: c + "create-registry {name, username, password}", method: "POST", path: "/v2/registries",
			body: `{"name":"reg-mcp4","username":"u","password":"p"}`, status: 201, save: "mcpreg", reads: []string{"id", "name"}},
		{name: c + "list-registries", method: "GET", path: "/v2/registries", status: 200,
			check: v2Listed("registries", "mcpreg", "id", "name")},
		{name: c + "get-registry", method: "GET", path: "/v2/registries/{mcpreg}", status: 200, reads: []string{"id", "name"}},
		// v2's own delegations route: a v1 registry id "delegations" is a 404
		// (P9), the v2 route passes through.
		{name: c + "list-delegations", method: "GET", path: "/v2/registries/delegations", status: 200, reads: []string{"delegations"}},

		{name: c + "list-gpu-types", method: "GET", path: "/v2/catalog/gpus", status: 200,
			check: v2Listed("gpus", "", "id", "name", "memory", "price")},
		{name: c + "list-gpu-types {include: [AVAILABILITY], product: SERVERLESS, cloud}", method: "GET",
			path: "/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS&cloud=SECURE", status: 200,
			check: v2Listed("gpus", "", "id", "name", "availability")},
		{name: c + "get-gpu-type {id with spaces, include, product}", method: "GET",
			path: "/v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090?include=AVAILABILITY&product=POD", status: 200,
			reads: []string{"id", "name", "pool", "price"}, check: wantField("id", "NVIDIA GeForce RTX 4090")},
		{name: c + "list-cpu-types", method: "GET", path: "/v2/catalog/cpus", status: 200,
			check: v2Listed("cpus", "", "id", "name", "price")},
		{name: c + "get-cpu-type", method: "GET", path: "/v2/catalog/cpus/cpu3c", status: 200, reads: []string{"id", "name", "price"}},
		{name: c + "list-data-centers {include: [GPU_AVAILABILITY]}", method: "GET", path: "/v2/catalog/datacenters?include=GPU_AVAILABILITY", status: 200,
			check: v2Listed("dataCenters", "", "id", "name", "region")},
		{name: c + "get-data-center {include: [GPU_AVAILABILITY]}", method: "GET", path: "/v2/catalog/datacenters/EU-RO-1?include=GPU_AVAILABILITY", status: 200,
			reads: []string{"id", "name", "region"}},

		{name: c + "list-billing {bucketSize, lastN}", method: "GET", path: "/v2/billing?bucketSize=day&lastN=7", status: 200,
			reads: []string{"metadata", "records"}},
		{name: c + "list-pod-billing {startTime, endTime, bucketSize}", method: "GET",
			path: "/v2/billing/pods?startTime=2026-05-01T00%3A00%3A00Z&endTime=2026-06-01T00%3A00%3A00Z&bucketSize=day", status: 200,
			reads: []string{"metadata", "records"}},
		{name: c + "list-serverless-billing {bucketSize, lastN}", method: "GET", path: "/v2/billing/serverless?bucketSize=day&lastN=7", status: 200,
			reads: []string{"metadata", "records"}},
		{name: c + "list-network-volume-billing {bucketSize, lastN}", method: "GET", path: "/v2/billing/network-volumes?bucketSize=day&lastN=7", status: 200,
			reads: []string{"metadata", "records"}},
		{name: c + "list-cluster-billing {bucketSize, lastN}", method: "GET", path: "/v2/billing/clusters?bucketSize=day&lastN=3", status: 200,
			reads: []string{"metadata", "records"}},
		{name: c + "get-ssh-keys", method: "GET", path: "/v2/account/ssh-keys", status: 200, reads: []string{"keys"}},
		{name: c + "list-clusters", method: "GET", path: "/v2/clusters", status: 200, reads: []string{"clusters"}},

		{name: c + "delete-endpoint", method: "DELETE", path: "/v2/serverless/{mcpep}", status: 204},
		{name: c + "delete-template", method: "DELETE", path: "/v2/templates/{mcptpl}", status: 204},
		{name: c + "delete-network-volume", method: "DELETE", path: "/v2/network-volumes/{mcpvol}", status: 204},
		{name: c + "delete-registry", method: "DELETE", path: "/v2/registries/{mcpreg}", status: 204},
		{name: c + `pod-action {action: "terminate"}`, method: "POST", path: "/v2/pods/{mcpcpu}/action",
			body: `{"action":"terminate"}`, status: 204},
		{name: c + "delete-pod", method: "DELETE", path: "/v2/pods/{mcppod}", status: 204},
	}
}

// runpodMCPKeylessGraphQL lists the credential-free GraphQL queries of
// runpod-mcp 3.2.0's catalog, hub and public-endpoint tools (its
// RUNPOD_PUBLIC_GRAPHQL_URL pointed at the gateway): sent without any key,
// passed through without Authorization, limited per client address and
// counted as anonymous in /usage.
func runpodMCPKeylessGraphQL() []clientCase {
	const c = "runpod-mcp 3.2.0: "
	keyless := func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		got, ok := w.graphql.last()
		if !ok || got.auth != "" {
			t.Fatalf("upstream saw Authorization %q (reached %v)", got.auth, ok)
		}
		if string(r.body) != `{"data":{"upstream":"graphql"}}` {
			t.Errorf("answer not passed through verbatim: %s", r.body)
		}
	}
	q := func(query string) string {
		b, _ := json.Marshal(map[string]string{"query": query})
		return string(b)
	}
	return []clientCase{
		{name: c + "list-gpu-types (keyless GraphQL)", method: "POST", path: "/graphql", noKey: true, status: 200, check: keyless,
			body: q("\n        query {\n          gpuTypes {\n            id\n            displayName\n            memoryInGb\n            secureCloud\n            communityCloud\n            lowestPrice(input: { gpuCount: 1 }) {\n              stockStatus\n            }\n          }\n        }\n      ")},
		{name: c + "list-data-centers (keyless GraphQL)", method: "POST", path: "/graphql", noKey: true, status: 200, check: keyless,
			body: q("\n        query {\n          dataCenters {\n            id\n            name\n            location\n          }\n        }\n      ")},
		{name: c + "search-hub (keyless GraphQL listings)", method: "POST", path: "/graphql", noKey: true, status: 200, check: keyless,
			body: q("\n    query {\n      listings(input: {}) {\n        id\n        repoId\n        title\n      }\n    }\n  ")},
		{name: c + "list-public-endpoints (keyless GraphQL)", method: "POST", path: "/graphql", noKey: true, status: 200, check: keyless,
			body: q("\n        query {\n          allAiApiPublicConfigs {\n            id\n            aiApiId\n            modelName\n            displayName\n            isLive\n          }\n        }\n      ")},
		{name: c + "a keyless REST call is still a 401", method: "GET", path: "/v1/pods", noKey: true, status: 401},
	}
}
