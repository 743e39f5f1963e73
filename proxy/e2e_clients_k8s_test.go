package proxy

// ---- Kubernetes ----

// kubePod is what the virtual kubelet decodes from a v1 pod.
type kubePod struct {
	ID            string         `json:"id"`
	Name          string         `json:"name"`
	DesiredStatus string         `json:"desiredStatus"`
	CostPerHr     float64        `json:"costPerHr"`
	MachineID     string         `json:"machineId"`
	Image         string         `json:"image"`
	TemplateID    string         `json:"templateId"`
	PortMappings  map[string]int `json:"portMappings"`
	Machine       map[string]any `json:"machine"`
}

// kubeletTemplated is the virtual kubelet's create of a pod whose
// annotation names a template: volumeInGb 0 (always sent), minRAMPerGPU
// 16 (its default), container disk 15, SECURE, and templateId together
// with imageName.
const kubeletTemplated = `{"cloudType":"SECURE","volumeInGb":0,"containerDiskInGb":15,"minRAMPerGPU":16,"gpuTypeIds":["NVIDIA RTX A4000","NVIDIA GeForce RTX 3090","NVIDIA GeForce RTX 4090"],"name":"k8s-web-0","imageName":"nginx:1","env":{"TEST_ENV_VAR":"test_value"},"ports":["8080/http"],"templateId":"{k8stpl}"}`

// virtualKubelet is BSVogler/k8s-runpod-kubelet d9b7e16 (a Kubernetes
// virtual kubelet; its base URL is a constant with a trailing slash). Its
// default minRAMPerGPU 16 is a placement minimum v2 cannot honour: the
// operator runs it with field_policy minRAMPerGPU: drop.
func virtualKubelet() []clientCase {
	const c = "Kubernetes virtual kubelet d9b7e16: "
	return []clientCase{
		{name: c + "API health check (GET /gpuTypes, not a v1 path: any status will do)", method: "GET", path: "/v1/gpuTypes", status: 404},
		{name: c + "(setup: the template the pod annotation runpod.io/templateId names, with a volume)", method: "POST", path: "/v1/templates",
			body: `{"name":"k8s-base","imageName":"runpod/base:1","volumeInGb":20,"volumeMountPath":"/workspace","ports":["8888/http"]}`, status: 200, save: "k8stpl"},
		{name: c + "schedule a pod with a template annotation (volumeInGb 0, minRAMPerGPU 16, templateId and imageName)", method: "POST", path: "/v1/pods",
			body: kubeletTemplated, status: 201, decode: kubePod{}, save: "k8spod",
			reads: []string{"id", "name", "desiredStatus", "image", "costPerHr", "templateId"},
			check: all(wantID("templateId", "k8stpl"), wantField("volumeInGb", 0.0), warned("template {k8stpl} has a 20 GB pod volume"))},
		{name: c + "schedule a pod when no GPU matched (gpuTypeIds [])", method: "POST", path: "/v1/pods",
			body:   `{"cloudType":"SECURE","volumeInGb":0,"containerDiskInGb":15,"minRAMPerGPU":16,"gpuTypeIds":[],"name":"k8s-web-1","imageName":"nginx:1","env":{}}`,
			status: 201, decode: kubePod{}, save: "k8spod2", reads: []string{"id"}, check: warned("gpuTypeIds was not sent")},
		{name: c + "pod status poll", method: "GET", path: "/v1/pods/{k8spod}", status: 200, decode: kubePod{},
			reads: []string{"id", "desiredStatus", "templateId"}, check: wantID("templateId", "k8stpl")},
		{name: c + "reconcile at start-up (desiredStatus=RUNNING)", method: "GET", path: "/v1/pods?desiredStatus=RUNNING",
			status: 200, decode: []kubePod{}, pick: "k8spod", reads: []string{"id", "name", "desiredStatus"}},
		{name: c + "pod deletion (POST //pods/{id}/stop, exactly 200)", method: "POST", path: "/v1//pods/{k8spod}/stop", status: 200},
		{name: c + "pod deletion (the second)", method: "POST", path: "/v1//pods/{k8spod2}/stop", status: 200},
		{name: c + "pod status poll of a pod that is gone (404 is NOT_FOUND)", method: "GET", path: "/v1/pods/k8s-gone-000", status: 404},
	}
}

// virtualKubeletStrict is the same kubelet against a gateway left at its
// defaults: its minRAMPerGPU 16 is refused, naming the setting that would
// let it through.
func virtualKubeletStrict() []clientCase {
	const c = "Kubernetes virtual kubelet d9b7e16, gateway defaults: "
	return []clientCase{
		{name: c + "(setup: the template)", method: "POST", path: "/v1/templates",
			body: `{"name":"k8s-base","imageName":"runpod/base:1","volumeInGb":20}`, status: 200, save: "k8stpl"},
		{name: c + "schedule a pod (minRAMPerGPU 16: accepted with a warning, P1)", method: "POST", path: "/v1/pods",
			body: kubeletTemplated, status: 201, check: acceptedUnchecked("minRAMPerGPU")},
	}
}
