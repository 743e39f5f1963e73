package proxy

import (
	"strings"
	"testing"
)

// ---- command-line tools and SDKs in other languages ----

// bashCLI is objctp/runpod-cli `rp` 0.2.0 (bash + curl + jq,
// RP_REST_BASE=http://gateway/v1). Its body builder sends an unset string
// flag as "" (name, templateId, networkVolumeId, scalerType); a status of
// 400 or more fails the command with .error // .message.
func bashCLI() []clientCase {
	const c = "bash CLI rp 0.2.0: "
	return []clientCase{
		{name: c + "template create --name rp-tpl --image runpod/base:1 --volume-gb 20 (1/2: look it up by name)", method: "GET", path: "/v1/templates", status: 200},
		{name: c + "template create --name rp-tpl --image runpod/base:1 --volume-gb 20 (2/2)", method: "POST", path: "/v1/templates",
			body: `{"name":"rp-tpl","imageName":"runpod/base:1","env":{"FROM_TEMPLATE":"1"},"volumeInGb":20,"containerDiskInGb":20}`, status: 200, save: "rptpl", reads: []string{"id"}},
		{name: c + "template create --serverless", method: "POST", path: "/v1/templates",
			body: `{"name":"rp-sls","imageName":"runpod/worker:1","isServerless":true,"containerDiskInGb":20}`, status: 200, save: "rpsls", reads: []string{"id"}},
		{name: c + "pod create --image runpod/base:1 (no GPU type, empty strings)", method: "POST", path: "/v1/pods",
			body:   `{"imageName":"runpod/base:1","name":"","cloudType":"SECURE","networkVolumeId":"","templateId":""}`,
			status: 201, save: "rppod", reads: []string{"id"}, check: warned("gpuTypeIds was not sent: the gateway chose")},
		{name: c + "pod create --template rp-tpl --volume-gb 0 --image --gpu 2 types --dc --cloud COMMUNITY --ports --env --start-cmd", method: "POST", path: "/v1/pods",
			body:   `{"imageName":"runpod/base:2","name":"rp-n","cloudType":"COMMUNITY","gpuTypeIds":["NVIDIA GeForce RTX 4090","NVIDIA A40"],"dataCenterIds":["EU-RO-1"],"ports":["8888/http","22/tcp"],"dockerStartCmd":["sleep","infinity"],"env":{"A":"B"},"gpuCount":1,"networkVolumeId":"","volumeInGb":0,"containerDiskInGb":20,"templateId":"{rptpl}"}`,
			status: 201, save: "rptplpod", reads: []string{"id"},
			check: all(wantID("templateId", "rptpl"), wantField("volumeInGb", 0.0), warned("template {rptpl} has a 20 GB pod volume"))},
		{name: c + "pod create ... --interruptible (refused, naming the setting)", method: "POST", path: "/v1/pods",
			body:   `{"imageName":"runpod/base:2","name":"rp-spot","cloudType":"COMMUNITY","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"networkVolumeId":"","templateId":"","interruptible":true}`,
			status: 400, check: refusedNaming("interruptible")},
		{name: c + "pod list", method: "GET", path: "/v1/pods", status: 200, pick: "rptplpod",
			reads: []string{"id", "name", "image", "desiredStatus", "costPerHr"}},
		{name: c + "volume create --name rp-vol --size 50 --dc EU-RO-1", method: "POST", path: "/v1/networkvolumes",
			body: `{"name":"rp-vol","size":50,"dataCenterId":"EU-RO-1"}`, status: 200, save: "rpvol", reads: []string{"id"}},
		{name: c + "endpoint create --template rp-sls (no GPU type, empty strings)", method: "POST", path: "/v1/endpoints",
			body: `{"templateId":"{rpsls}","name":"","computeType":"GPU","scalerType":""}`, status: 200, save: "rpep",
			reads: []string{"id"}, check: warned("gpuTypeIds was not sent: the gateway chose")},
		{name: c + "endpoint create --network-volume-id (1/2: its data center)", method: "GET", path: "/v1/networkvolumes/{rpvol}", status: 200, reads: []string{"dataCenterId"}},
		{name: c + "endpoint create --template --name --network-volume-id --gpu --workers --idle --scaler --flashboot --min-cuda-version --execution-timeout --env (2/2)", method: "POST", path: "/v1/endpoints",
			body:   `{"templateId":"{rpsls}","name":"rp-ep","computeType":"GPU","scalerType":"QUEUE_DELAY","networkVolumeId":"{rpvol}","dataCenterIds":["EU-RO-1"],"gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"workersMin":0,"workersMax":3,"idleTimeout":5,"scalerValue":4,"flashboot":true,"minCudaVersion":"12.4","executionTimeoutMs":600000,"env":{"K":"V"}}`,
			status: 200, save: "rpep2", reads: []string{"id"}, check: warned("env was ignored")},
		{name: c + "endpoint scale --min 0 --max 2 --idle 5", method: "PATCH", path: "/v1/endpoints/{rpep2}",
			body: `{"workersMin":0,"workersMax":2,"idleTimeout":5}`, status: 200, check: wantField("workersMax", 2.0)},
		{name: c + "endpoint list", method: "GET", path: "/v1/endpoints", status: 200, pick: "rpep2",
			reads: []string{"id", "name", "templateId", "workersMax", "idleTimeout"}},
		{name: c + "registry create --name rp-reg --server ghcr.io --username u", method: "POST", path: "/v1/containerregistryauth",
			body: `{"name":"rp-reg","server":"ghcr.io","username":"u","password":"p"}`, status: 200, save: "rpreg",
			check: warned("server was ignored")},
		{name: c + "volume update --name rp-vol2 --size 60", method: "PATCH", path: "/v1/networkvolumes/{rpvol}",
			body: `{"name":"rp-vol2","size":60}`, status: 200, check: wantField("size", 60.0)},
		{name: c + "pod stop", method: "POST", path: "/v1/pods/{rppod}/stop", status: 200},
		{name: c + "pod delete", method: "DELETE", path: "/v1/pods/{rppod}", status: 204},
		{name: c + "pod delete (the templated one)", method: "DELETE", path: "/v1/pods/{rptplpod}", status: 204},
		{name: c + "endpoint delete", method: "DELETE", path: "/v1/endpoints/{rpep}", status: 204},
		{name: c + "endpoint delete (the second)", method: "DELETE", path: "/v1/endpoints/{rpep2}", status: 204},
		{name: c + "registry delete", method: "DELETE", path: "/v1/containerregistryauth/{rpreg}", status: 204},
		{name: c + "volume delete", method: "DELETE", path: "/v1/networkvolumes/{rpvol}", status: 204},
	}
}

// laravelRunPod is ChrisThompsonTLDR/laravel-runpod 8e5be5e, a PHP SDK
// whose configuration defaults put placement minimums (minRAMPerGPU 15,
// minVCPUPerGPU 2) in every pod create: run with field_policy dropping
// them. Deletes expect exactly 204; errors are read from message, then
// error.
func laravelRunPod() []clientCase {
	const c = "PHP SDK laravel-runpod 8e5be5e: "
	return []clientCase{
		{name: c + "RunPodPodManager create (minRAMPerGPU 15, minVCPUPerGPU 2)", method: "POST", path: "/v1/pods",
			body:   `{"name":"runpod-pod","imageName":"runpod/pytorch:2","volumeInGb":50,"containerDiskInGb":50,"volumeMountPath":"/workspace","ports":["8000/http"],"env":{"APP":"1"},"gpuCount":1,"gpuTypeIds":["NVIDIA GeForce RTX 4090"],"minRAMPerGPU":15,"minVCPUPerGPU":2}`,
			status: 201, save: "lvpod", reads: []string{"id", "desiredStatus"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if d := r.header.Get("X-Compat-Dropped"); d != "minRAMPerGPU" {
					t.Errorf("X-Compat-Dropped %q, want minRAMPerGPU (the policy's)", d)
				}
			}},
		{name: c + "PodSpec create (minVcpuCount, outside v1's document)", method: "POST", path: "/v1/pods",
			body:   `{"name":"spec-pod","imageName":"runpod/pytorch:2","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"minVcpuCount":2,"minRAMPerGPU":15,"volumeInGb":20}`,
			status: 201, save: "lvspec", check: warned("minVcpuCount was ignored")},
		{name: c + "PodSpec create with dataCenterIds [US-MD-1] (outside v1's enum: refused, as v1 refused it)", method: "POST", path: "/v1/pods",
			body:   `{"name":"spec-pod","imageName":"runpod/pytorch:2","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"minVcpuCount":2,"minRAMPerGPU":15,"dataCenterIds":["US-MD-1"],"volumeInGb":20}`,
			status: 400, check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if m := r.message(t); !strings.Contains(m, "dataCenterIds") || strings.Contains(m, "minRAMPerGPU") {
					t.Errorf("message %q", m)
				}
			}},
		{name: c + "templates create (serverless)", method: "POST", path: "/v1/templates",
			body: `{"name":"lv-worker","imageName":"runpod/worker:1","isServerless":true}`, status: 200, save: "lvtpl"},
		{name: c + "endpoints create {templateId, name, computeType} (no gpuTypeIds)", method: "POST", path: "/v1/endpoints",
			body: `{"templateId":"{lvtpl}","name":"unnamed","computeType":"GPU"}`, status: 200, save: "lvep",
			reads: []string{"id", "gpuTypeIds"}, check: warned("gpuTypeIds was not sent")},
		{name: c + "pod stop", method: "POST", path: "/v1/pods/{lvpod}/stop", status: 200},
		{name: c + "pod delete (exactly 204)", method: "DELETE", path: "/v1/pods/{lvpod}", status: 204},
		{name: c + "pod delete (PodSpec)", method: "DELETE", path: "/v1/pods/{lvspec}", status: 204},
		{name: c + "endpoint delete (exactly 204)", method: "DELETE", path: "/v1/endpoints/{lvep}", status: 204},
	}
}
