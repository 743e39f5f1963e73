package proxy

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/translate"
)

// ---- Go SDK ----

// sdkPod is cozy-creator/runpod-go-sdk's Pod: vcpuCount and memoryInGb are
// ints, costPerHr a float64, timestamps RFC 3339 (or Go's layout).
type sdkPod struct {
	ID                string            `json:"id"`
	Name              string            `json:"name"`
	DesiredStatus     string            `json:"desiredStatus"`
	ImageName         string            `json:"imageName"`
	Image             string            `json:"image"`
	GpuCount          int               `json:"gpuCount"`
	VcpuCount         int               `json:"vcpuCount"`
	MemoryInGb        int               `json:"memoryInGb"`
	ContainerDiskInGb int               `json:"containerDiskInGb"`
	VolumeInGb        int               `json:"volumeInGb"`
	CostPerHr         float64           `json:"costPerHr"`
	AdjustedCostPerHr float64           `json:"adjustedCostPerHr"`
	CreatedAt         *time.Time        `json:"createdAt"`
	LastStartedAt     *time.Time        `json:"lastStartedAt"`
	Env               map[string]string `json:"env"`
	Ports             []string          `json:"ports"`
	Locked            bool              `json:"locked"`
	Interruptible     bool              `json:"interruptible"`
	PublicIP          string            `json:"publicIp"`
	Runtime           *struct {
		Ports map[string]any `json:"ports"`
	} `json:"runtime"`
	Machine map[string]any `json:"machine"`
}

// stockOut checks v1's stock-out answer, as the SDK's fallback reads it: a
// 5xx whose message (else error) holds "no longer any instances available".
func stockOut(t *testing.T, w *clientWorld, r *e2eResp) {
	t.Helper()
	var b struct{ Message, Error string }
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.Message, translate.V1StockOut) || b.Error != b.Message ||
		!strings.Contains(strings.ToLower(b.Message), "no longer any instances available") {
		t.Errorf("not v1's stock-out: %s", r.body)
	}
}

// goSDK is cozy-creator/runpod-go-sdk ee6dacf (runpod.WithBaseURL). Its
// CreatePodWithFallback sends one POST /pods per GPU type and moves on only
// after a 5xx: a stock-out must be v1's 500, or the fan-out stops at the
// first type. POSTs are never retried on a 5xx.
func goSDK() []clientCase {
	const c = "Go SDK cozy-creator/runpod-go-sdk ee6dacf: "
	return []clientCase{
		{name: c + "CreatePodWithFallback, first type (no stock: v1's 500)", method: "POST", path: "/v1/pods",
			body:   `{"name":"worker-1","imageName":"runpod/pytorch:2","gpuTypeIds":["NVIDIA H200"],"gpuCount":1,"containerDiskInGb":50,"cloudType":"SECURE"}`,
			status: 500, check: stockOut},
		{name: c + "CreatePodWithFallback, next type", method: "POST", path: "/v1/pods",
			body:   `{"name":"worker-1","imageName":"runpod/pytorch:2","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"containerDiskInGb":50,"cloudType":"SECURE"}`,
			status: 201, decode: sdkPod{}, save: "sdkpod", reads: []string{"id", "name", "desiredStatus", "gpuCount", "costPerHr"}},
		{name: c + "CreatePod with every field the SDK may send but interruptible (dockerArgs, minCudaVersion, bidPerGpu)", method: "POST", path: "/v1/pods",
			body:   `{"name":"sdk-full","imageName":"runpod/pytorch:2","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"minRAMPerGPU":8,"minVCPUPerGPU":2,"containerDiskInGb":50,"volumeInGb":20,"volumeMountPath":"/workspace","env":{"A":"1"},"ports":["8888/http"],"dockerArgs":"python -m http.server 8888","cloudType":"SECURE","bidPerGpu":0.3,"minCudaVersion":"12.4","gpuTypePriority":"custom","dataCenterPriority":"availability"}`,
			status: 201, decode: sdkPod{}, save: "sdkfull", reads: []string{"id"},
			check: all(warned("bidPerGpu was ignored"), wantNothingDropped("dockerArgs", "minCudaVersion"))},
		{name: c + "CreateSpotPod (interruptible: refused, naming the setting)", method: "POST", path: "/v1/pods",
			body:   `{"name":"sdk-live-spot-test","imageName":"runpod/base:0.6.2-cuda12.4.1","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"containerDiskInGb":10,"cloudType":"SECURE","interruptible":true,"bidPerGpu":0.2}`,
			status: 400, check: refusedNaming("interruptible")},
		{name: c + "CreatePod (CPU)", method: "POST", path: "/v1/pods",
			body:   `{"name":"sdk-cpu","imageName":"ubuntu:22.04","cpuFlavorIds":["cpu5c"],"vcpuCount":4,"containerDiskInGb":20,"computeType":"CPU"}`,
			status: 201, decode: sdkPod{}, save: "sdkcpu", reads: []string{"id", "vcpuCount", "memoryInGb"}},
		{name: c + "GetPodWithOptions (includeMachine, includeNetworkVolume)", method: "GET", path: "/v1/pods/{sdkpod}?includeMachine=true&includeNetworkVolume=true",
			status: 200, decode: sdkPod{}, reads: []string{"id", "desiredStatus", "machine"}},
		{name: c + "ListPods (limit and offset, outside v1's document)", method: "GET", path: "/v1/pods?limit=10&offset=0",
			status: 200, decode: []sdkPod{}, pick: "sdkpod", reads: []string{"id", "name"}},
		{name: c + "ListPodCreateDatacenterIDs (GET /openapi.json)", method: "GET", path: "/v1/openapi.json", status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				var doc struct {
					Components struct {
						Schemas map[string]struct {
							Properties map[string]struct {
								Items struct {
									Enum []string `json:"enum"`
								} `json:"items"`
							} `json:"properties"`
						} `json:"schemas"`
					} `json:"components"`
				}
				if err := json.Unmarshal(r.body, &doc); err != nil {
					t.Fatal(err)
				}
				if e := doc.Components.Schemas["PodCreateInput"].Properties["dataCenterIds"].Items.Enum; len(e) == 0 {
					t.Error("PodCreateInput.dataCenterIds has no enum: the SDK fails closed")
				}
			}},
		{name: c + "CreateNetworkVolume", method: "POST", path: "/v1/networkvolumes",
			body: `{"name":"sdk-vol","size":20,"dataCenterId":"EU-RO-1"}`, status: 200, save: "sdkvol", reads: []string{"id", "name", "size", "dataCenterId"}},
		{name: c + "UpdateNetworkVolume {name, size}", method: "PATCH", path: "/v1/networkvolumes/{sdkvol}",
			body: `{"name":"sdk-vol2","size":30}`, status: 200, check: wantField("size", 30.0)},
		{name: c + "CreateContainerRegistryAuth", method: "POST", path: "/v1/containerregistryauth",
			body: `{"name":"sdk-reg","username":"u","password":"p"}`, status: 200, save: "sdkreg", reads: []string{"id", "name"}},
		{name: c + "StopPod", method: "POST", path: "/v1/pods/{sdkpod}/stop", status: 200},
		{name: c + "TerminatePod", method: "DELETE", path: "/v1/pods/{sdkpod}", status: 204},
		{name: c + "TerminatePod (the full one)", method: "DELETE", path: "/v1/pods/{sdkfull}", status: 204},
		{name: c + "TerminatePod (CPU)", method: "DELETE", path: "/v1/pods/{sdkcpu}", status: 204},
		{name: c + "DeleteNetworkVolume", method: "DELETE", path: "/v1/networkvolumes/{sdkvol}", status: 204},
		{name: c + "DeleteContainerRegistryAuth", method: "DELETE", path: "/v1/containerregistryauth/{sdkreg}", status: 204},
	}
}
