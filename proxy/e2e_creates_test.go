package proxy

import (
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
)

// End to end (client → gateway → v2sim): the creates real v1 clients send
// (issue 14 items 1, 1a and 3) — without gpuTypeIds or cpuFlavorIds, with
// "" for what the user did not give, and with fields outside the v1
// document (dockerArgs, minCudaVersion, volumeType).

// podCreates counts the simulator's POST /v2/pods since mark.
func (e *e2e) podCreatesSince(mark int) int {
	n := 0
	for _, c := range e.callsSince(mark) {
		if c == "POST /v2/pods" {
			n++
		}
	}
	return n
}

func TestE2ECreatePodWithoutCandidates(t *testing.T) {
	t.Run("runpodctl 2.7.2 pod create --compute-type cpu --docker-args: a CPU pod running the given command", func(t *testing.T) {
		e := newE2E(t, e2eOpts{})
		mark := e.mark()
		r := e.v1("POST", "/v1/pods", `{"name":"cpu-box","imageName":"ubuntu:22.04","templateId":"","computeType":"CPU",
			"containerDiskInGb":20,"volumeMountPath":"/workspace","cloudType":"SECURE","networkVolumeId":"","minCudaVersion":"12.4",
			"dockerArgs":"sleep infinity"}`)
		e.want(r, 201)
		pod := r.json(t)
		if pod["vcpuCount"] != 2.0 || pod["gpu"] != nil || pod["name"] != "cpu-box" {
			t.Errorf("created pod %s", r.body)
		}
		flavor, _ := pod["cpuFlavorId"].(string)
		if flavor == "" {
			t.Fatalf("no cpuFlavorId in %s", r.body)
		}
		body := e.lastBody("POST", "/v2/pods")
		if body["args"] != "sleep infinity" || body["gpu"] != nil {
			t.Errorf("v2 create body %v", body)
		}
		if w := warningsOf(r); !strings.Contains(w, "cpuFlavorIds was not sent: the gateway chose "+flavor) {
			t.Errorf("X-Compat-Warning %q", w)
		}
		if n := e.podCreatesSince(mark); n < 1 || n > 6 {
			t.Errorf("%d creates", n)
		}
	})
	t.Run("a GPU pod without gpuTypeIds: the chosen type is named, with its price", func(t *testing.T) {
		e := newE2E(t, e2eOpts{})
		mark := e.mark()
		r := e.v1("POST", "/v1/pods", `{"name":"iac-pod","imageName":"runpod/pytorch:2","gpuCount":1}`)
		e.want(r, 201)
		pod := r.json(t)
		gpu, _ := pod["gpu"].(map[string]any)
		chosen, _ := gpu["id"].(string)
		if chosen == "" || pod["costPerHr"] == 0.0 {
			t.Fatalf("created pod %s", r.body)
		}
		w := warningsOf(r)
		t.Logf("X-Compat-Warning: %s", w)
		if !strings.Contains(w, "gpuTypeIds was not sent: the gateway chose "+chosen+" (availability ") || !strings.Contains(w, "/h per GPU on SECURE") {
			t.Errorf("X-Compat-Warning %q", w)
		}
		if n := e.podCreatesSince(mark); n < 1 || n > 8 {
			t.Errorf("%d creates, want 1 to 8", n)
		}
		calls := e.callsSince(mark)
		if len(calls) == 0 || !strings.HasPrefix(calls[0], "GET /v2/catalog/gpus?") || !strings.Contains(calls[0], "include=AVAILABILITY") {
			t.Errorf("v2 calls %q: the catalog first", calls)
		}
	})
	t.Run("default_gpu_types narrows the choice", func(t *testing.T) {
		want := []string{"NVIDIA RTX A4000", "NVIDIA GeForce RTX 4090"}
		e := newE2E(t, e2eOpts{cfg: func(c *config.Config) { c.DefaultGPUTypes = want }})
		r := e.v1("POST", "/v1/pods", `{"name":"cheap","imageName":"img","gpuTypeIds":[]}`)
		e.want(r, 201)
		gpu, _ := r.json(t)["gpu"].(map[string]any)
		if id, _ := gpu["id"].(string); id != want[0] && id != want[1] {
			t.Errorf("chose %q, want one of %q", id, want)
		}
		if w := warningsOf(r); !strings.Contains(w, "default_gpu_types") {
			t.Errorf("X-Compat-Warning %q", w)
		}
	})
	t.Run("minCudaVersion becomes the CUDA floor of the GPU request", func(t *testing.T) {
		e := newE2E(t, e2eOpts{})
		r := e.v1("POST", "/v1/pods", `{"name":"cuda","imageName":"img","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"minCudaVersion":"12.4"}`)
		e.want(r, 201)
		gpu, _ := e.lastBody("POST", "/v2/pods")["gpu"].(map[string]any)
		if gpu["minCudaVersion"] != "12.4" {
			t.Errorf("v2 gpu %v", gpu)
		}
	})
}

func TestE2ECreateCPUEndpointWithoutFlavors(t *testing.T) {
	e := newE2E(t, e2eOpts{})
	r := e.v1("POST", "/v1/templates", `{"name":"cpu-worker","imageName":"runpod/worker:1","isServerless":true}`)
	e.want(r, 200)
	tplID, _ := r.json(t)["id"].(string)
	// runpod-mcp 3.2.0 create-endpoint on v1: only these keys, computeType CPU.
	r = e.v1("POST", "/v1/endpoints", `{"templateId":"`+tplID+`","name":"cpu-ep","computeType":"CPU","workersMin":0,"workersMax":1}`)
	e.want(r, 200)
	ep := r.json(t)
	if ep["computeType"] != "CPU" {
		t.Errorf("endpoint %s", r.body)
	}
	cpus, _ := e.lastBody("POST", "/v2/serverless")["cpu"].([]any)
	if len(cpus) != 4 {
		t.Errorf("v2 cpu %v, want the four v1 endpoint flavors", cpus)
	}
	if w := warningsOf(r); !strings.Contains(w, "cpuFlavorIds was not sent") {
		t.Errorf("X-Compat-Warning %q", w)
	}
}

func TestE2EEmptyStringsAndVolumeType(t *testing.T) {
	e := newE2E(t, e2eOpts{})
	r := e.v1("POST", "/v1/pods", `{"name":"","imageName":"img","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"templateId":"","networkVolumeId":"",
		"containerRegistryAuthId":"","cloudType":"","gpuTypePriority":""}`)
	e.want(r, 201)
	if p := r.json(t); p["name"] != "my pod" {
		t.Errorf("pod name %v, want v1's default", p["name"])
	}

	mark := e.mark()
	r = e.v1("POST", "/v1/networkvolumes", `{"name":"fast","size":50,"dataCenterId":"EU-RO-1","volumeType":"HIGH_PERFORMANCE"}`)
	e.want(r, 200)
	e.wantCalls(mark, "POST /v2/network-volumes")
	if b := e.lastBody("POST", "/v2/network-volumes"); b["type"] != "HIGH_PERFORMANCE" {
		t.Errorf("v2 body %v", b)
	}
	id, _ := r.json(t)["id"].(string)

	// runpodctl / runpod-mcp network volume update with only a size.
	r = e.v1("PATCH", "/v1/networkvolumes/"+id, `{"name":"","size":120}`)
	e.want(r, 200)
	if v := r.json(t); v["size"] != 120.0 || v["name"] != "fast" {
		t.Errorf("updated volume %s", r.body)
	}

	mark = e.mark()
	r = e.v1("POST", "/v1/networkvolumes", `{"name":"x","size":50,"dataCenterId":"EU-RO-1","volumeType":"FAST"}`)
	e.want(r, 400)
	if m := r.message(t); !strings.Contains(m, `volumeType: "FAST" is not one of HIGH_PERFORMANCE, STANDARD`) {
		t.Errorf("message %q", m)
	}
	e.wantCalls(mark)
}
