package translate

import (
	"strings"
	"testing"
)

// Item 1a of issue 14: clients that send every field they know send "" for
// the ones the user did not give. An empty string is "not sent" on every
// create and update: v1's default applies on a create, the value is left
// unchanged on an update, and a required field stays required. An unknown
// field sent as "" or null is not named as ignored.
func TestEmptyStringsMeanNotSetOnEveryOperation(t *testing.T) {
	podParams := map[string]string{"podId": "p1"}
	epParams := map[string]string{"endpointId": "e1"}
	tplParams := map[string]string{"templateId": "t1"}
	volParams := map[string]string{"networkVolumeId": "vol1"}
	serverlessTpl := step{method: "GET", path: "/v2/templates/tpl1", status: 200, body: serverlessTemplate}
	volume := func(method string, size int) step {
		return step{method: method, path: "/v2/network-volumes/vol1", status: 200, body: v2Volume("vol1", size)}
	}
	tests := []struct {
		op     string
		params map[string]string
		body   string
		script []step
		write  string // "METHOD path" of the call whose body is checked
		want   string // its v2 body
		status int
		msg    string
	}{
		{op: "CreatePod", body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"name":"","templateId":"","networkVolumeId":"","containerRegistryAuthId":"",
			"cloudType":"","computeType":"","gpuTypePriority":"","cpuFlavorPriority":"","dataCenterPriority":"","volumeMountPath":"","dockerArgs":"","minCudaVersion":"",
			"ports":"","env":"","vcpuCount":""}`,
			script: []step{createStep(newPod("p1"))}, write: "POST /v2/pods", status: 201,
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE","gpu":{"id":"NVIDIA A40","count":1},
				"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`},
		{op: "UpdatePod", params: podParams, body: `{"name":"","imageName":"","containerRegistryAuthId":"","volumeMountPath":"","dockerArgs":"","containerDiskInGb":60}`,
			script: []step{{method: "PATCH", path: "/v2/pods/p1", status: 200, body: pod("p1")}}, write: "PATCH /v2/pods/p1", status: 200,
			want: `{"disk":60}`},
		{op: "UpdatePodViaPost", params: podParams, body: `{"name":"","env":{"A":"b"}}`,
			// An env update reads the pod first (its PUBLIC_KEY is kept).
			script: []step{{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1")}, {method: "PATCH", path: "/v2/pods/p1", status: 200, body: pod("p1")}}, write: "PATCH /v2/pods/p1", status: 200,
			want: `{"env":{"A":"b"}}`},
		{op: "CreateEndpoint", body: `{"templateId":"tpl1","name":"","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"scalerType":"","computeType":"","minCudaVersion":"","networkVolumeId":""}`,
			script: []step{serverlessTpl, catalogStep(), {method: "POST", path: "/v2/serverless", status: 201, body: endpoint("ep1")}, workersStep("ep1", 1)},
			write:  "POST /v2/serverless", status: 200,
			want: `{"name":"worker-tpl","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
				"gpu":{"pools":["ADA_24"],"excludedTypes":["NVIDIA L4"],"count":1},"workers":{"idleTimeout":5}}`},
		{op: "UpdateEndpoint", params: epParams, body: `{"name":"","templateId":"","scalerType":"","minCudaVersion":"","networkVolumeId":"","workersMax":5,"computeType":"","bogus":null}`,
			script: []step{{method: "PATCH", path: "/v2/serverless/e1", status: 200, body: endpoint("e1")}, catalogStep(), releasesStep("e1", 2)},
			write:  "PATCH /v2/serverless/e1", status: 200, want: `{"workers":{"max":5}}`},
		{op: "CreateTemplate", body: `{"name":"t","imageName":"img:1","containerRegistryAuthId":"","category":"","volumeMountPath":"","readme":""}`,
			script: []step{{method: "POST", path: "/v2/templates", status: 201, body: tpl("t1")}}, write: "POST /v2/templates", status: 200,
			want: `{"name":"t","image":"img:1","disk":50,"ports":["8888/http","22/tcp"],"category":"NVIDIA",
				"mounts":{"persistent":{"size":20,"path":"/workspace"}},"public":false,"serverless":false,"startJupyter":false,"startSsh":true}`},
		{op: "UpdateTemplate", params: tplParams, body: `{"name":"","imageName":"","containerRegistryAuthId":"","volumeMountPath":"","readme":"","containerDiskInGb":60}`,
			script: []step{{method: "PATCH", path: "/v2/templates/t1", status: 200, body: tpl("t1")}}, write: "PATCH /v2/templates/t1", status: 200,
			want: `{"disk":60}`},
		{op: "CreateNetworkVolume", body: `{"name":"data","size":50,"dataCenterId":"EU-RO-1","volumeType":""}`,
			script: []step{{method: "POST", path: "/v2/network-volumes", status: 201, body: v2Volume("vol1", 50)}}, write: "POST /v2/network-volumes", status: 200,
			want: `{"name":"data","size":50,"dataCenter":"EU-RO-1"}`},
		{op: "UpdateNetworkVolume", params: volParams, body: `{"name":"","size":120}`,
			script: []step{volume("GET", 100), volume("PATCH", 120)}, write: "PATCH /v2/network-volumes/vol1", status: 200,
			want: `{"size":120}`},
		{op: "UpdateNetworkVolumeViaPost", params: volParams, body: `{"name":"","size":120}`,
			script: []step{volume("GET", 100), volume("PATCH", 120)}, write: "PATCH /v2/network-volumes/vol1", status: 200,
			want: `{"size":120}`},
		// Required fields without a v1 default stay required.
		{op: "CreateNetworkVolume", body: `{"name":"","size":50,"dataCenterId":""}`, status: 400, msg: "name: is required; dataCenterId: is required"},
		{op: "CreateContainerRegistryAuth", body: `{"name":"","username":"me","password":"pw"}`, status: 400, msg: "name: is required"},
		{op: "CreateTemplate", body: `{"name":"t","imageName":""}`, status: 400, msg: "imageName: is required"},
		{op: "CreatePod", body: `{"gpuTypeIds":["NVIDIA A40"],"imageName":"","templateId":""}`, status: 400, msg: "imageName: is required unless templateId is set"},
		{op: "CreateEndpoint", body: `{"templateId":"","gpuTypeIds":["NVIDIA A40"]}`, status: 400, msg: "templateId: is required"},
	}
	for _, tc := range tests {
		t.Run(tc.op+" "+tc.body, func(t *testing.T) {
			res, f := run(t, tc.op, runOpts{params: tc.params, body: tc.body}, tc.script...)
			wantStatus(t, res, tc.status)
			if tc.msg != "" {
				wantMessage(t, res, tc.msg)
			}
			if tc.write == "" {
				return
			}
			method, path, _ := strings.Cut(tc.write, " ")
			bodies := f.bodies(method, path)
			if len(bodies) != 1 {
				t.Fatalf("%d %s calls, want 1", len(bodies), tc.write)
			}
			jsonEqual(t, tc.write+" body", []byte(bodies[0]), tc.want)
			if strings.Contains(warnings(res), "ignored") {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
}
