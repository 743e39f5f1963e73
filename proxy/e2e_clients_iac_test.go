package proxy

import (
	"strings"
	"testing"
	"time"
)

// ---- infrastructure-as-code providers ----

// warned checks that X-Compat-Warning holds every part (the operator's
// trace of what the client was never shown).
func warned(parts ...string) func(*testing.T, *clientWorld, *e2eResp) {
	return func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		got := strings.Join(r.header.Values("X-Compat-Warning"), " | ")
		for _, p := range parts {
			if p = w.fill(p); !strings.Contains(got, p) {
				t.Errorf("X-Compat-Warning %q lacks %q", got, p)
			}
		}
	}
}

// refusedNaming checks a 400 that names field and the setting that would
// allow it.
func refusedNaming(field string) func(*testing.T, *clientWorld, *e2eResp) {
	return func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		m := r.message(t)
		if !strings.Contains(m, field+": ") || !strings.Contains(m, "field_policy "+field+": drop (V1GW_FIELD_POLICY="+field+"=drop)") {
			t.Errorf("refusal %q does not name %s and the setting that would allow it", m, field)
		}
	}
}

// wantID checks that the answer's field is the id saved under idKey.
func wantID(field, idKey string) func(*testing.T, *clientWorld, *e2eResp) {
	return func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		if got := r.json(t)[field]; got != w.ids[idKey] {
			t.Errorf("%s = %v, want %s (%s)", field, got, w.ids[idKey], idKey)
		}
	}
}

func all(checks ...func(*testing.T, *clientWorld, *e2eResp)) func(*testing.T, *clientWorld, *e2eResp) {
	return func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		for _, c := range checks {
			c(t, w, r)
		}
	}
}

// tfPod is the third-party Terraform provider's Pod struct: a number where
// it decodes float64, an integer where it decodes int.
type tfPod struct {
	ID                string  `json:"id"`
	Name              string  `json:"name"`
	Image             string  `json:"image"`
	DesiredStatus     string  `json:"desiredStatus"`
	PublicIP          string  `json:"publicIp"`
	MachineID         string  `json:"machineId"`
	CostPerHr         float64 `json:"costPerHr"`
	AdjustedCostPerHr float64 `json:"adjustedCostPerHr"`
	MemoryInGb        float64 `json:"memoryInGb"`
	VcpuCount         int     `json:"vcpuCount"`
	GpuCount          int     `json:"gpuCount"`
	VolumeInGb        int     `json:"volumeInGb"`
	ContainerDiskInGb int     `json:"containerDiskInGb"`
	LastStartedAt     string  `json:"lastStartedAt"`
	VolumeMountPath   string  `json:"volumeMountPath"`
}

// terraformOfficial is the official Terraform/OpenTofu provider at
// 23c31e3, its last v1 commit (RUNPOD_BASE_URL=http://gateway/v1): pod,
// endpoint, template, network volume and registry resources, billing data
// sources. Pod create reads the config, not the plan: gpuTypeIds is never
// sent; endpoint create and update send every set attribute, env,
// gpuTypePriority and computeType included; deletes must answer exactly 204.
func terraformOfficial() []clientCase {
	const c = "Terraform provider (official) 23c31e3: "
	return []clientCase{
		{name: c + "apply runpod_template (serverless)", method: "POST", path: "/v1/templates",
			body:   `{"name":"tf-worker","imageName":"runpod/worker:1","isServerless":true,"category":"NVIDIA","containerDiskInGb":20,"env":{"MODEL":"sdxl"},"ports":["8000/http"]}`,
			status: 200, save: "tftpl", reads: []string{"id", "name", "imageName", "category", "isServerless"}},
		{name: c + "apply runpod_template (pod, with a volume)", method: "POST", path: "/v1/templates",
			body:   `{"name":"tf-pod-tpl","imageName":"runpod/pytorch:2","volumeInGb":20,"volumeMountPath":"/workspace","ports":["8888/http","22/tcp"]}`,
			status: 200, save: "tfpodtpl", reads: []string{"id"}},
		{name: c + "apply runpod_endpoint with only templateId", method: "POST", path: "/v1/endpoints",
			body: `{"templateId":"{tftpl}"}`, status: 200, save: "tfep", reads: []string{"id", "templateId", "computeType", "gpuTypeIds", "name"},
			check: all(wantField("computeType", "GPU"), warned("gpuTypeIds was not sent: the gateway chose"))},
		{name: c + "apply runpod_endpoint with env, gpuTypePriority and cpuFlavorPriority", method: "POST", path: "/v1/endpoints",
			body:   `{"templateId":"{tftpl}","name":"tf-ep2","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuTypePriority":"custom","cpuFlavorPriority":"availability","env":{"MODEL":"small"},"workersMax":2,"idleTimeout":5}`,
			status: 200, save: "tfep2", reads: []string{"id", "templateId", "computeType", "name"},
			check: all(wantField("name", "tf-ep2"), warned("env was ignored: its environment: a v1 endpoint runs its template's settings", "gpuTypePriority was ignored"))},
		{name: c + "refresh runpod_endpoint", method: "GET", path: "/v1/endpoints/{tfep}",
			status: 200, reads: []string{"id", "templateId", "computeType", "gpuCount", "workersMax", "idleTimeout", "scalerType", "scalerValue", "createdAt"}},
		{name: c + "update runpod_endpoint (every set attribute again, computeType and env included)", method: "PATCH", path: "/v1/endpoints/{tfep2}",
			body:   `{"name":"tf-ep2","computeType":"GPU","gpuCount":1,"vcpuCount":2,"workersMin":0,"workersMax":3,"idleTimeout":5,"scalerType":"QUEUE_DELAY","scalerValue":4,"env":{"MODEL":"small"},"gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuTypePriority":"custom"}`,
			status: 200, reads: []string{"id", "templateId", "computeType"},
			check: all(wantField("workersMax", 3.0), warned("computeType was ignored", "env was ignored"))},
		{name: c + "data.runpod_endpoints", method: "GET", path: "/v1/endpoints",
			status: 200, pick: "tfep", reads: []string{"id", "name", "templateId", "computeType", "gpuCount", "workersMax", "idleTimeout", "scalerType", "scalerValue", "createdAt"}},
		{name: c + "update runpod_template (category, isServerless and volumeInGb 0 with the rest)", method: "PATCH", path: "/v1/templates/{tftpl}",
			body:   `{"name":"tf-worker","imageName":"runpod/worker:2","category":"NVIDIA","isServerless":true,"containerDiskInGb":20,"volumeInGb":0,"env":{"MODEL":"sdxl"},"ports":["8000/http"]}`,
			status: 200, reads: []string{"id", "imageName", "category", "isServerless"},
			check: wantField("imageName", "runpod/worker:2")},
		{name: c + "apply runpod_pod with template_id (no gpuTypeIds)", method: "POST", path: "/v1/pods",
			body: `{"gpuCount":1,"name":"tf-pod","templateId":"{tfpodtpl}"}`, status: 201, save: "tfpod",
			reads: []string{"id"}, check: all(wantID("templateId", "tfpodtpl"), warned("gpuTypeIds was not sent: the gateway chose"))},
		{name: c + "apply runpod_pod with image_name", method: "POST", path: "/v1/pods",
			body:   `{"gpuCount":1,"name":"tf-img","imageName":"runpod/pytorch:2","cloudType":"SECURE","volumeInGb":20,"containerDiskInGb":20,"volumeMountPath":"/workspace","env":{"A":"1"}}`,
			status: 201, save: "tfimg", reads: []string{"id"}},
		{name: c + "refresh runpod_pod", method: "GET", path: "/v1/pods/{tfpod}",
			status: 200, reads: []string{"desiredStatus", "createdAt", "costPerHr", "containerDiskInGb", "templateId"},
			check: wantID("templateId", "tfpodtpl")},
		{name: c + "update runpod_pod name", method: "PATCH", path: "/v1/pods/{tfimg}", body: `{"name":"tf-img2"}`,
			status: 200, reads: []string{"id"}, check: wantField("name", "tf-img2")},
		{name: c + "apply runpod_network_volume with storageTier", method: "POST", path: "/v1/networkvolumes",
			body: `{"name":"tf-vol","size":50,"dataCenterId":"EU-RO-1","storageTier":"HIGH_PERFORMANCE"}`, status: 200, save: "tfvol",
			reads: []string{"id", "name", "size", "dataCenterId"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if ty := w.lastV2Body("/v2/network-volumes")["type"]; ty != "HIGH_PERFORMANCE" {
					t.Errorf("v2 volume type %v, want the storageTier asked for", ty)
				}
				wantNothingDropped("storageTier")(t, w, r)
			}},
		{name: c + "update runpod_network_volume name", method: "PATCH", path: "/v1/networkvolumes/{tfvol}", body: `{"name":"tf-vol2"}`,
			status: 200, check: wantField("name", "tf-vol2")},
		{name: c + "apply runpod_container_registry_auth", method: "POST", path: "/v1/containerregistryauth",
			body: `{"name":"tf-reg","username":"u","password":"p"}`, status: 200, save: "tfreg", reads: []string{"id", "name"}},
		{name: c + "data.runpod_billing_pod", method: "GET", path: "/v1/billing/pods?bucketSize=day", status: 200},
		{name: c + "destroy runpod_pod (exactly 204)", method: "DELETE", path: "/v1/pods/{tfpod}", status: 204},
		{name: c + "refresh runpod_pod after destroy (404 removes it from state)", method: "GET", path: "/v1/pods/{tfpod}", status: 404},
		{name: c + "destroy runpod_pod with image_name", method: "DELETE", path: "/v1/pods/{tfimg}", status: 204},
		{name: c + "destroy runpod_endpoint", method: "DELETE", path: "/v1/endpoints/{tfep}", status: 204},
		{name: c + "destroy runpod_endpoint (the second)", method: "DELETE", path: "/v1/endpoints/{tfep2}", status: 204},
		{name: c + "destroy runpod_template", method: "DELETE", path: "/v1/templates/{tftpl}", status: 204},
		{name: c + "destroy runpod_network_volume", method: "DELETE", path: "/v1/networkvolumes/{tfvol}", status: 204},
		{name: c + "destroy runpod_container_registry_auth", method: "DELETE", path: "/v1/containerregistryauth/{tfreg}", status: 204},
	}
}

// terraformThirdParty is decentralized-infrastructure/terraform-provider-
// runpod v1.0.1 (its base URL is a constant: reached by DNS
// interception). Create reads the plan, so every schema default is sent;
// the answer must echo the planned name, templateId and computeType.
func terraformThirdParty() []clientCase {
	const c = "Terraform provider (third-party) v1.0.1: "
	return []clientCase{
		{name: c + "apply runpod_pod, minimal HCL (every default sent)", method: "POST", path: "/v1/pods",
			body:   `{"name":"my pod","imageName":"runpod/pytorch:2","computeType":"GPU","cloudType":"SECURE","gpuCount":1,"vcpuCount":2,"gpuTypeIds":["NVIDIA GeForce RTX 4090"],"containerDiskInGb":50,"volumeInGb":20,"volumeMountPath":"/workspace","interruptible":false,"locked":false,"minVCPUPerGPU":2,"minRAMPerGPU":8,"globalNetworking":false,"gpuTypePriority":"availability","cpuFlavorPriority":"availability","dataCenterPriority":"availability"}`,
			status: 201, decode: tfPod{}, save: "tppod", reads: []string{"id", "name", "desiredStatus", "costPerHr", "containerDiskInGb"},
			check: wantField("name", "my pod")},
		// supportPublicIp on COMMUNITY is accepted with a warning (P1);
		// the simulator's v2 knows no US-CA-2 and refuses the create.
		{name: c + "apply examples/basic-pod (COMMUNITY with supportPublicIp: accepted; v2 refuses US-CA-2)", method: "POST", path: "/v1/pods",
			body:   `{"name":"basic-example-pod","imageName":"runpod/pytorch:2","computeType":"GPU","cloudType":"COMMUNITY","gpuCount":1,"vcpuCount":2,"gpuTypeIds":["NVIDIA GeForce RTX 4090","NVIDIA GeForce RTX 3090","NVIDIA A40","NVIDIA RTX A4000"],"dataCenterIds":["US-CA-2","US-TX-3","EU-RO-1"],"containerDiskInGb":20,"volumeInGb":20,"volumeMountPath":"/workspace","ports":["8888/http","22/tcp"],"env":{"MY_VAR":"example_value"},"supportPublicIp":true,"interruptible":false,"locked":false,"minVCPUPerGPU":2,"minRAMPerGPU":8,"globalNetworking":false,"gpuTypePriority":"availability","cpuFlavorPriority":"availability","dataCenterPriority":"availability"}`,
			status: 400, check: all(acceptedUnchecked("supportPublicIp"), messageNaming("US-CA-2"))},
		{name: c + "apply runpod_template (serverless)", method: "POST", path: "/v1/templates",
			body: `{"name":"tp-worker","imageName":"runpod/worker:1","isServerless":true,"containerDiskInGb":20}`, status: 200, save: "tptpl"},
		{name: c + "apply runpod_endpoint, minimal HCL (defaults, no gpuTypeIds)", method: "POST", path: "/v1/endpoints",
			body:   `{"templateId":"{tptpl}","computeType":"GPU","gpuCount":1,"vcpuCount":2,"workersMin":0,"idleTimeout":5,"scalerType":"QUEUE_DELAY","scalerValue":4}`,
			status: 200, save: "tpep", reads: []string{"id", "templateId", "computeType", "createdAt", "gpuCount", "idleTimeout", "scalerValue", "scalerType"},
			check: all(wantID("templateId", "tptpl"), wantField("computeType", "GPU"))},
		{name: c + "data.runpod_pods", method: "GET", path: "/v1/pods", status: 200, decode: []tfPod{}, pick: "tppod",
			reads: []string{"id", "name", "image", "desiredStatus", "costPerHr", "gpuCount"}},
		{name: c + "data.runpod_network_volumes", method: "GET", path: "/v1/networkvolumes", status: 200},
		{name: c + "data.runpod_templates", method: "GET", path: "/v1/templates", status: 200, pick: "tptpl",
			reads: []string{"id", "name", "imageName", "isServerless", "isPublic"}},
		{name: c + "destroy runpod_pod", method: "DELETE", path: "/v1/pods/{tppod}", status: 204},
		{name: c + "destroy runpod_pod, then poll GET until it errors", method: "GET", path: "/v1/pods/{tppod}", status: 404},
		{name: c + "destroy runpod_endpoint", method: "DELETE", path: "/v1/endpoints/{tpep}", status: 204},
	}
}

// cpPod is what the Crossplane provider decodes on Observe.
type cpPod struct {
	ID            string           `json:"id"`
	DesiredStatus string           `json:"desiredStatus"`
	PublicIP      string           `json:"publicIp"`
	PortMappings  map[string]int32 `json:"portMappings"`
	CostPerHr     float64          `json:"costPerHr"`
	LastStartedAt string           `json:"lastStartedAt"`
	Env           map[string]string
	Ports         []string `json:"ports"`
}

// crossplane is zapr-16/provider-runpod v0.2.0, a Crossplane provider of
// one managed resource, Pod (base URL a constant). Its create sends no
// name; Observe reads the pod with includeMachine on every reconcile and
// re-creates on any non-2xx.
func crossplane() []clientCase {
	const c = "Crossplane provider v0.2.0: "
	return []clientCase{
		{name: c + "kubectl apply examples/pod-minimal.yaml (no name)", method: "POST", path: "/v1/pods",
			body:   `{"imageName":"python:3.11-slim","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"cloudType":"SECURE","supportPublicIp":false,"ports":["8888/http"],"dockerStartCmd":["python","-m","http.server","8888"]}`,
			status: 201, save: "cppod", reads: []string{"id"}},
		{name: c + "Observe (every reconcile)", advance: 30 * time.Second, method: "GET", path: "/v1/pods/{cppod}?includeMachine=true",
			status: 200, decode: cpPod{}, reads: []string{"id", "desiredStatus", "costPerHr"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if s, _ := r.json(t)["lastStartedAt"].(string); s != "" {
					if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
						t.Errorf("lastStartedAt %q: Observe fails on anything but RFC 3339 or Go's time layout", s)
					}
				}
			}},
		{name: c + "Delete", method: "DELETE", path: "/v1/pods/{cppod}", status: 204},
	}
}

// messageNaming checks that the v1 error's message says s.
func messageNaming(s string) func(*testing.T, *clientWorld, *e2eResp) {
	return func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		if m := r.message(t); !strings.Contains(m, s) {
			t.Errorf("message %q does not say %q", m, s)
		}
	}
}
