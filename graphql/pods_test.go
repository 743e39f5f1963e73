package graphql

import (
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
)

// runpod-python 1.12.0's pod lifecycle, document by document, as
// create_pod, get_pod, stop_pod, resume_pod and terminate_pod send them.
func TestRunpodPythonPodLifecycle(t *testing.T) {
	w := newWorld(t)
	// The simulator's catalog has no RTX 3070.
	a := w.ok(strings.ReplaceAll(clientDocument(t, "runpod-python/create_pod__2_podFindAndDeployOnDemand.graphql"), "RTX 3070", "RTX 4090"), "")
	id, _ := path(a.Data, "podFindAndDeployOnDemand.id").(string)
	if id == "" {
		t.Fatalf("create_pod: no id: %s", a.raw)
	}
	if path(a.Data, "podFindAndDeployOnDemand.imageName") != "runpod/stack" {
		t.Errorf("create_pod: %s", a.raw)
	}
	// cloudType ALL is narrowed to SECURE, and said so.
	if !hasNote(a.resp, translate.CodeGraphQLCloudNarrowed) {
		t.Errorf("no %s note: %v", translate.CodeGraphQLCloudNarrowed, a.resp.Notes)
	}
	if got := lastCreate(t, w); !strings.Contains(got, `"id":"NVIDIA GeForce RTX 4090"`) || !strings.Contains(got, `"cloud":"SECURE"`) {
		t.Errorf("the v2 create: %s", got)
	}

	doc := func(name string) string {
		return strings.ReplaceAll(clientDocument(t, "runpod-python/"+name), "pod-capture-1", id)
	}
	a = w.ok(doc("get_pod.graphql"), "")
	if path(a.Data, "pod.id") != id || path(a.Data, "pod.desiredStatus") == nil {
		t.Fatalf("get_pod: %s", a.raw)
	}
	a = w.ok(doc("stop_pod.graphql"), "")
	if path(a.Data, "podStop.id") != id || path(a.Data, "podStop.desiredStatus") != "EXITED" {
		t.Fatalf("stop_pod: %s", a.raw)
	}
	a = w.ok(doc("resume_pod.graphql"), "")
	if path(a.Data, "podResume.id") != id || path(a.Data, "podResume.desiredStatus") != "RUNNING" {
		t.Fatalf("resume_pod: %s", a.raw)
	}
	a = w.ok(doc("terminate_pod.graphql"), "")
	if v, ok := a.Data["podTerminate"]; !ok || v != nil {
		t.Fatalf("terminate_pod: %s", a.raw)
	}
	a = w.ok(doc("get_pod.graphql"), "")
	if a.Data["pod"] != nil {
		t.Fatalf("get_pod of a terminated pod: %s", a.raw)
	}
}

func TestRunpodPythonCreatesACPUPod(t *testing.T) {
	w := newWorld(t)
	a := w.ok(clientDocument(t, "runpod-python/create_pod_cpu.graphql"), "")
	if path(a.Data, "deployCpuPod.id") == nil {
		t.Fatalf("create_pod (CPU): %s", a.raw)
	}
	if got := lastCreate(t, w); !strings.Contains(got, `"cpu":{"id":"cpu3c"`) || !strings.Contains(got, `"vcpuCount":2`) || strings.Contains(got, "runpod-ubuntu") {
		t.Errorf("the v2 create: %s", got)
	}
	if !hasNote(a.resp, translate.CodeGraphQLDefaultTemplate) {
		t.Errorf("notes %v", a.resp.Notes)
	}
}

// runpodctl 2.7.2's pod create (GPU) sends podFindAndDeployOnDemand with
// variables and prints the whole pod.
func TestRunpodctlPodCreate(t *testing.T) {
	w := newWorld(t)
	a := w.ok(clientDocument(t, "runpodctl/pod_create_gpu.graphql"), strings.ReplaceAll(string(readClientFile(t, "runpodctl/pod_create_gpu.json")), "RTX 3070", "RTX 4090"))
	p := path(a.Data, "podFindAndDeployOnDemand")
	for _, k := range []string{"id", "name", "imageName", "desiredStatus", "costPerHr", "containerDiskInGb", "gpuCount"} {
		if path(p, k) == nil {
			t.Errorf("%s is null: %s", k, a.raw)
		}
	}
}

// What v2 cannot do is refused before anything is created, naming the
// input and why; the refusal is counted.
func TestPodInputsV2CannotHonourAreRefusedBeforeAnyCreate(t *testing.T) {
	cases := []struct{ name, input, want string }{
		{"a price cap", `deployCost: 0.5`, "deployCost"},
		{"a stop time", `stopAfter: "2026-04-15T00:00:00Z"`, "stopAfter"},
		{"compliance", `compliance: [GDPR]`, "compliance"},
		{"a placement minimum above v1's default (P1)", `minMemoryInGb: 64`, "minRAMPerGPU"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			msgs := w.errorsOf(`mutation { podFindAndDeployOnDemand(input: {name: "x", imageName: "img", gpuTypeId: "NVIDIA GeForce RTX 4090", `+c.input+`}) { id } }`, "")
			if !strings.Contains(msgs[0], c.want) {
				t.Fatalf("errors %v, want one naming %s", msgs, c.want)
			}
			for _, call := range w.caller.calls {
				if call.Method == "POST" && call.Path == "/v2/pods" {
					t.Fatalf("a pod was created: %s", call.Body)
				}
			}
		})
	}
}

// runpod-python's defaults ask nothing v1 did not accept by default.
func TestRunpodPythonMinimumsOfOneAreNotRefused(t *testing.T) {
	w := newWorld(t)
	w.ok(`mutation { podFindAndDeployOnDemand(input: {name: "x", imageName: "img", gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCount: 2, minVcpuCount: 4, minMemoryInGb: 16}) { id } }`, "")
}

func TestRootFieldsV2CannotPerformAreRefusedWithTheReason(t *testing.T) {
	w := newWorld(t)
	for _, c := range []struct{ doc, want string }{
		{`mutation { podRentInterruptable(input: {bidPerGpu: 0.2, gpuTypeId: "x"}) { id } }`, "interruptible"},
		{`mutation { podBidResume(input: {podId: "x", bidPerGpu: 0.2}) { id } }`, "spot"},
		{`mutation { updateRegistryAuth(input: {id: "x", username: "u", password: "p"}) { id } }`, "cannot change a registry credential"},
		{`{ listings(input: {}) { id } }`, "hub"},
		{clientDocument(t, "runpodctl/model_list.graphql"), "model repository"},
		{clientDocument(t, "runpod-mcp/list_public_endpoints.graphql"), "public endpoints"},
	} {
		a := w.do(c.doc, "")
		if len(a.Errors) == 0 || !strings.Contains(a.Errors[0]["message"].(string), c.want) {
			t.Errorf("%s\n answered %s, want an error with %q", c.doc, a.raw, c.want)
		}
		if !hasNote(a.resp, translate.CodeGraphQLRefused) {
			t.Errorf("%s: the refusal is not counted: %v", c.doc, a.resp.Notes)
		}
	}
}

// podResume with another GPU count than the pod's is refused: v2 resumes
// a pod with the GPUs it has.
func TestPodResumeWithAnotherGPUCountIsRefused(t *testing.T) {
	w := newWorld(t)
	id := podIDs(t, w)[0]
	w.ok(`mutation { podStop(input: {podId: "`+id+`"}) { id } }`, "")
	msgs := w.errorsOf(`mutation { podResume(input: {podId: "`+id+`", gpuCount: 3}) { id } }`, "")
	if !strings.Contains(msgs[0], "gpuCount 3") {
		t.Fatalf("errors %v", msgs)
	}
	w.ok(`mutation { podResume(input: {podId: "`+id+`", gpuCount: 1}) { id desiredStatus } }`, "")
}

func hasNote(r *Response, code string) bool {
	for _, n := range r.Notes {
		if n.Code == code {
			return true
		}
	}
	return false
}

// lastCreate is the body of the last POST /v2/pods the door made.
func lastCreate(t *testing.T, w *world) string {
	t.Helper()
	for i := len(w.caller.calls) - 1; i >= 0; i-- {
		if c := w.caller.calls[i]; c.Method == "POST" && c.Path == "/v2/pods" {
			return string(c.Body)
		}
	}
	t.Fatal("no POST /v2/pods")
	return ""
}
