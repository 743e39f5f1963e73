package proxy

import (
	"encoding/json"
	"slices"
	"testing"
)

// The Crossplane provider torrescd/provider-runpod (commit 9df1dc1, its
// internal/client/runpod and internal/controller/template), driven as its
// template controller drives v1: Create sends every TemplateInput key
// (readme "", dockerEntrypoint [], env {}, volumeInGb 0, volumeMountPath ""),
// then Observe reads GET /templates/{id}?includeEndpointBoundTemplates=true
// and is ready only when unrepairableExternalState finds every key present
// and templateMatchesInput finds it equal (issue 37 item 3: before, the
// answer omitted readme, dockerEntrypoint, isRunpod, volumeMountPath and
// containerRegistryAuthId, and the controller never became ready). A PATCH
// with the same input must leave it ready.
func TestCrossplaneTemplateControllerBecomesReady(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		const input = `{"name":"worker-xp-0f3c","category":"NVIDIA","imageName":"ghcr.io/acme/worker@sha256:` +
			`0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","isPublic":false,"isServerless":true,` +
			`"containerDiskInGb":50,"dockerEntrypoint":[],"dockerStartCmd":[],"ports":["8000/http"],"readme":"",` +
			`"volumeInGb":0,"volumeMountPath":"","env":{},"containerRegistryAuthId":""}`
		r := e.v1("POST", "/v1/templates", input)
		e.want(r, 200)
		id, _ := r.json(t)["id"].(string)
		observe := func(what string, body []byte) {
			t.Helper()
			var got map[string]json.RawMessage
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			// unrepairableExternalState: every one of these keys present.
			for _, k := range []string{"isPublic", "isRunpod", "isServerless", "containerDiskInGb", "volumeInGb", "dockerEntrypoint",
				"dockerStartCmd", "ports", "env", "readme", "volumeMountPath", "containerRegistryAuthId"} {
				if v, ok := got[k]; !ok || (string(v) == "null" && k != "containerRegistryAuthId") {
					t.Errorf("%s: %s is %s: the controller refuses a rolling PATCH loop and is never ready", what, k, v)
				}
			}
			// templateMatchesInput.
			var tpl struct {
				Name, Category, ImageName, Readme, VolumeMountPath string
				IsPublic, IsRunpod, IsServerless                   bool
				ContainerDiskInGb, VolumeInGb                      int
				DockerEntrypoint, DockerStartCmd, Ports            []string
				Env                                                map[string]string
				ContainerRegistryAuthID                            *string
			}
			if err := json.Unmarshal(body, &tpl); err != nil {
				t.Fatal(err)
			}
			if tpl.Name != "worker-xp-0f3c" || tpl.Category != "NVIDIA" || tpl.IsPublic || tpl.IsRunpod || !tpl.IsServerless ||
				tpl.ContainerDiskInGb != 50 || tpl.VolumeInGb != 0 || tpl.Readme != "" || tpl.VolumeMountPath != "" || len(tpl.Env) != 0 ||
				(tpl.ContainerRegistryAuthID != nil && *tpl.ContainerRegistryAuthID != "") ||
				!slices.Equal(tpl.DockerEntrypoint, []string{}) || !slices.Equal(tpl.DockerStartCmd, []string{}) || !slices.Equal(tpl.Ports, []string{"8000/http"}) {
				t.Errorf("%s: not up to date for the controller: %s", what, body)
			}
		}
		observe("create answer", r.body)
		g := e.v1("GET", "/v1/templates/"+id+"?includeEndpointBoundTemplates=true", "")
		e.want(g, 200)
		observe("Observe", g.body)
		u := e.v1("PATCH", "/v1/templates/"+id, `{"name":"worker-xp-0f3c","imageName":"ghcr.io/acme/worker@sha256:`+
			`0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","isPublic":false,"containerDiskInGb":50,"dockerEntrypoint":[],`+
			`"dockerStartCmd":[],"ports":["8000/http"],"readme":"","volumeInGb":0,"volumeMountPath":"","env":{},"containerRegistryAuthId":""}`)
		e.want(u, 200)
		observe("Update answer", u.body)
		l := e.v1("GET", "/v1/templates?includeEndpointBoundTemplates=true", "")
		e.want(l, 200)
		for _, it := range l.list(t) {
			if it["id"] == id {
				b, _ := json.Marshal(it)
				observe("FindTemplateByName", b)
			}
		}
	})
}

// The same provider's endpoint controller: Create sends its EndpointInput,
// Observe reads GET /endpoints/{id}?includeTemplate=true&includeWorkers=true
// and checks the endpoint (endpointMatchesInput, unrepairableExternalState),
// the template it was made from (endpointTemplateMatches: the template
// itself, with its name, category, readme "", isRunpod false) and each
// worker (endpointWorkersMatch). Everything but the workers' cost and
// machine.secureCloud is answered as it checks (issue 37); those two have no
// v2 source for a worker (COMPATIBILITY.md), so with an active worker the
// controller does not reach ready.
func TestCrossplaneEndpointControllerObservesWhatItChecks(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		r := e.v1("POST", "/v1/templates", `{"name":"worker-xp-1","category":"NVIDIA","imageName":"ghcr.io/acme/w@sha256:`+
			`0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","isPublic":false,"isServerless":true,"containerDiskInGb":50,`+
			`"dockerEntrypoint":[],"dockerStartCmd":[],"ports":["8000/http"],"readme":"","volumeInGb":0,"volumeMountPath":"","env":{},"containerRegistryAuthId":""}`)
		e.want(r, 200)
		tpl, _ := r.json(t)["id"].(string)
		c := e.v1("POST", "/v1/endpoints", `{"name":"llm-xp-1","templateId":"`+tpl+`","computeType":"GPU","gpuCount":1,"gpuTypeIds":["NVIDIA GeForce RTX 4090"],`+
			`"allowedCudaVersions":[],"dataCenterIds":["US-TX-3"],"workersMin":1,"workersMax":1,"idleTimeout":5,"scalerType":"QUEUE_DELAY","scalerValue":4,`+
			`"executionTimeoutMs":600000,"flashboot":false,"networkVolumeIds":[]}`)
		e.want(c, 200)
		id, _ := c.json(t)["id"].(string)
		g := e.v1("GET", "/v1/endpoints/"+id+"?includeTemplate=true&includeWorkers=true", "")
		e.want(g, 200)
		var got map[string]json.RawMessage
		if err := json.Unmarshal(g.body, &got); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"name": `"llm-xp-1"`, "templateId": `"` + tpl + `"`, "computeType": `"GPU"`, "gpuCount": "1", "workersMin": "1", "workersMax": "1",
			"idleTimeout": "5", "scalerType": `"QUEUE_DELAY"`, "scalerValue": "4", "executionTimeoutMs": "600000", "flashboot": "false",
			"networkVolumeId": "null", "networkVolumeIds": "[]", "minCudaVersion": "null", "env": "{}", "allowedCudaVersions": "[]",
			"gpuTypeIds": `["NVIDIA GeForce RTX 4090"]`, "dataCenterIds": `["US-TX-3"]`}
		for k, v := range want {
			if string(got[k]) != v {
				t.Errorf("%s: %s, the controller wants %s", k, got[k], v)
			}
		}
		if _, ok := got["version"]; !ok {
			t.Error("no version: the controller refuses the observation")
		}
		var tp map[string]json.RawMessage
		_ = json.Unmarshal(got["template"], &tp)
		for k, v := range map[string]string{"id": `"` + tpl + `"`, "name": `"worker-xp-1"`, "category": `"NVIDIA"`, "isPublic": "false", "isRunpod": "false",
			"isServerless": "true", "containerDiskInGb": "50", "volumeInGb": "0", "env": "{}", "containerRegistryAuthId": "null", "readme": `""`,
			"volumeMountPath": `""`, "dockerEntrypoint": "[]", "dockerStartCmd": "[]", "ports": `["8000/http"]`} {
			if string(tp[k]) != v {
				t.Errorf("template %s: %s, the controller wants %s", k, tp[k], v)
			}
		}
		var ws []map[string]json.RawMessage
		if err := json.Unmarshal(got["workers"], &ws); err != nil || ws == nil {
			t.Errorf("workers %s: the controller wants a list", got["workers"])
		}
		if len(ws) == 0 {
			t.Fatal("no worker: the simulator starts workersMin of them")
		}
		for _, w := range ws {
			for k, v := range map[string]string{"endpointId": `"` + id + `"`, "templateId": `"` + tpl + `"`, "containerDiskInGb": "50", "containerRegistryAuthId": "null",
				"dockerEntrypoint": "[]", "dockerStartCmd": "[]", "ports": `["8000/http"]`, "env": "{}", "volumeInGb": "0", "volumeMountPath": "null",
				"volumeEncrypted": "false", "networkVolume": "null", "publicIp": "null", "portMappings": "null", "savingsPlans": "null",
				"desiredStatus": `"RUNNING"`, "interruptible": "false", "locked": "false",
				// The rest of endpointWorkersMatch and of the client's
				// validateEndpointResponse: the worker's identity, the
				// endpoint's version, the template's image and one GPU.
				"image":      `"ghcr.io/acme/w@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"`,
				"slsVersion": string(got["version"])} {
				if string(w[k]) != v {
					t.Errorf("worker %s: %s, the controller wants %s", k, w[k], v)
				}
			}
			var g struct{ Count *int }
			if id, ok := w["id"]; !ok || string(id) == "null" || json.Unmarshal(w["gpu"], &g) != nil || g.Count == nil || *g.Count != 1 {
				t.Errorf("worker id %s, gpu %s: the controller wants an id and gpu.count 1", w["id"], w["gpu"])
			}
			// Every key of v1's Pod: the controller decodes each one and
			// tells an absent key from null (issue 37); machine only with
			// includeMachine, which it does not send.
			for _, k := range []string{"adjustedCostPerHr", "aiApiId", "consumerUserId", "containerDiskInGb", "containerRegistryAuthId", "costPerHr",
				"cpuFlavorId", "desiredStatus", "dockerEntrypoint", "dockerStartCmd", "endpointId", "env", "gpu", "id", "image", "interruptible",
				"lastStartedAt", "lastStatusChange", "locked", "machineId", "memoryInGb", "name", "networkVolume", "portMappings", "ports",
				"publicIp", "savingsPlans", "slsVersion", "templateId", "vcpuCount", "volumeEncrypted", "volumeInGb", "volumeMountPath"} {
				if _, ok := w[k]; !ok {
					t.Errorf("worker has no %s", k)
				}
			}
		}
	})
}
