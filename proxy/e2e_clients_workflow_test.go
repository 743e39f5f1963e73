package proxy

import "time"

// ---- workflow and orchestration tools ----

// comfyUINodes is ssube/comfyui-runpod-agentic-nodes 648eee5, ComfyUI
// custom nodes: GPU pods go through GraphQL; CPU pods and network volumes
// through v1, with templateId and imageName together and terminateAfter
// (outside v1's document) from its keep-alive policy.
func comfyUINodes() []clientCase {
	const c = "workflow nodes: ComfyUI runpod-agentic-nodes 648eee5: "
	return []clientCase{
		{name: c + "(setup: the resolved agent template, no volume)", method: "POST", path: "/v1/templates",
			body: `{"name":"crag-agent","imageName":"runpod/base:1","volumeInGb":0,"ports":["22/tcp"]}`, status: 200, save: "cfytpl"},
		{name: c + "auto-created network volume", method: "POST", path: "/v1/networkvolumes",
			body: `{"name":"crag-vol","size":20,"dataCenterId":"EU-RO-1"}`, status: 200, save: "cfyvol", reads: []string{"id"}},
		{name: c + "RunPod deploy node, cpu_only, vcpu_count 4 (templateId and imageName, terminateAfter)", method: "POST", path: "/v1/pods",
			body:   `{"templateId":"{cfytpl}","name":"crag-agent-1","env":{"RUNPOD_MANAGED_BY":"crag","CRAG_NODE_ID":"n1","CRAG_ROLE":"agent","CRAG_DESIRED_HASH":"h"},"ports":["22/tcp"],"containerDiskInGb":40,"computeType":"CPU","vcpuCount":4,"cloudType":"SECURE","imageName":"runpod/base:2","networkVolumeId":"{cfyvol}","volumeMountPath":"/workspace","terminateAfter":"2026-06-02T12:00:00Z","dockerStartCmd":["sleep","infinity"]}`,
			status: 201, save: "cfypod", reads: []string{"id", "desiredStatus"}, check: warned("terminateAfter was ignored")},
		{name: c + "save_template_rest (POST /templates/{id}/update with isServerless)", method: "POST", path: "/v1/templates/{cfytpl}/update",
			body:   `{"name":"crag-agent","imageName":"runpod/base:2","env":{"A":"1"},"ports":["22/tcp"],"dockerStartCmd":["sleep","infinity"],"isPublic":false,"isServerless":false}`,
			status: 200, check: wantField("isServerless", false)},
		{name: c + "cleanup pod", method: "DELETE", path: "/v1/pods/{cfypod}", status: 204},
		{name: c + "cleanup network volume", method: "DELETE", path: "/v1/networkvolumes/{cfyvol}", status: 204},
	}
}

// transformerLab is transformerlab-app 0176863's RunPod compute provider
// (ML job orchestration, api_base_url=http://gateway/v1): GPU and CPU jobs
// as pods, with region (outside v1's document) on GPU jobs.
func transformerLab() []clientCase {
	const c = "ML job orchestrator: Transformer Lab 0176863: "
	return []clientCase{
		{name: c + "launch: GET /gpu-types first (not a v1 path; failure ignored)", method: "GET", path: "/v1/gpu-types", status: 404},
		{name: c + "launch a GPU job (accelerators RTX4090:1, region)", method: "POST", path: "/v1/pods",
			body:   `{"name":"tlab-job","imageName":"runpod/pytorch:1.0.3-cu1281-torch290-ubuntu2204","computeType":"GPU","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"containerDiskInGb":50,"volumeInGb":50,"env":{"TLAB":"1"},"ports":["22/tcp"],"dockerStartCmd":["sh","-c","mkdir -p /workspace && ((echo setup && echo run) 2>&1 | tee /workspace/run_logs.txt)"],"region":"EU"}`,
			status: 201, save: "tlgpu", reads: []string{"id"}, check: warned("region was ignored")},
		{name: c + "launch a CPU job", method: "POST", path: "/v1/pods",
			body: `{"name":"tlab-cpu","imageName":"runpod/base:1.0.2-ubuntu2204","computeType":"CPU","vcpuCount":2}`, status: 201, save: "tlcpu", reads: []string{"id"}},
		{name: c + "status / find by name", advance: 30 * time.Second, method: "GET", path: "/v1/pods", status: 200, pick: "tlgpu",
			reads: []string{"name", "id", "createdAt", "containerDiskInGb", "volumeInGb"}},
		{name: c + "status of one job", method: "GET", path: "/v1/pods/{tlgpu}", status: 200, reads: []string{"id", "name"}},
		{name: c + "stop cluster", method: "DELETE", path: "/v1/pods/{tlgpu}", status: 204},
		{name: c + "stop cluster (CPU)", method: "DELETE", path: "/v1/pods/{tlcpu}", status: 204},
	}
}
