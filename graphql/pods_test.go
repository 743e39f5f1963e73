package graphql

import (
	"bytes"
	"context"
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
	// cloudType ALL is either cloud, SECURE tried first; its defaults
	// (supportPublicIp true, minimums of 1) ask nothing v1 did not give.
	if got := lastCreate(t, w); !strings.Contains(got, `"id":"NVIDIA GeForce RTX 4090"`) || !strings.Contains(got, `"cloud":"SECURE"`) {
		t.Errorf("the v2 create: %s", got)
	}
	if len(a.resp.Warnings) != 1 || !strings.Contains(a.resp.Warnings[0], "answered null") {
		t.Errorf("warnings %q, want only the unanswered fields", a.resp.Warnings)
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

// runpod-graphql 0.3.2's pods.createCpu always sends templateId
// "runpod-ubuntu" with imageName "" (driven by its own code against -demo:
// docs/clients.md). v2 has no template of that id and nothing says what
// to run instead, so the door refuses it before any v2 call, naming the
// template and imageName, where it used to send the create and pass on
// v2's bare "template not found".
func TestACPUCreateWithOnlyTheVendorsDefaultTemplateIsRefusedNamingImageName(t *testing.T) {
	w := newWorld(t)
	mark := w.mark()
	a := w.do(clientDocument(t, "runpod-api-helper/pods_createCpu.graphql"), "")
	if len(a.Errors) != 1 {
		t.Fatalf("want one error: %s", a.raw)
	}
	msg, _ := a.Errors[0]["message"].(string)
	for _, s := range []string{"deployCpuPod", "templateId runpod-ubuntu", "v2 has no template of that id", "send imageName"} {
		if !strings.Contains(msg, s) {
			t.Errorf("message %q does not say %q", msg, s)
		}
	}
	if code := path(a.Errors[0], "extensions.code"); code != "NOT_SUPPORTED_BY_V2" {
		t.Errorf("extensions.code %v: %s", code, a.raw)
	}
	for _, c := range w.callsSince(mark) {
		if strings.HasPrefix(c, "POST ") {
			t.Errorf("a refused create sent %s", c)
		}
	}
	// With a template of the account's instead, the pod is created from it.
	doc := strings.ReplaceAll(clientDocument(t, "runpod-api-helper/pods_createCpu.graphql"), "runpod-ubuntu", w.seeded().podTemplate)
	if a := w.ok(doc, ""); path(a.Data, "deployCpuPod.id") == nil {
		t.Fatalf("deployCpuPod from the account's template: %s", a.raw)
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
		{"a price cap no GPU type meets: v1's stock-out", `deployCost: 0.5`, "deployCost: no gpuTypeIds asked for has a v2 list price at or under $0.5/h"},
		{"a stop time", `stopAfter: "2026-04-15T00:00:00Z"`, "stopAfter"},
		{"compliance", `compliance: [GDPR]`, "compliance"},
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

// P1 of 2026-12-04: the soft constraints of every launch path create the
// pod in the default settings, each accepted with a warning (and a note,
// which /usage counts per field) or checked against the catalog.
func TestLaunchPathsWithSoftConstraintsCreateThePod(t *testing.T) {
	cases := []struct {
		name, input string
		warn        []string // what the warnings say
		names       []string // which GraphQL input a warning's v1 field was (none: no warning says so)
		noWarn      bool     // nothing to warn of
		create      string   // in the v2 create
	}{
		// The vendor's GraphQL documentation (podFindAndDeployOnDemand's example).
		{name: "the vendor's documented create", input: `cloudType: ALL, gpuCount: 1, volumeInGb: 40, containerDiskInGb: 40, minVcpuCount: 2, minMemoryInGb: 15, gpuTypeId: "NVIDIA GeForce RTX 4090", name: "RunPod Tensorflow", imageName: "runpod/tensorflow", dockerArgs: "", ports: "8888/http", volumeMountPath: "/workspace", env: [{key: "JUPYTER_PASSWORD", value: "x"}]`,
			warn: []string{"minRAMPerGPU was accepted but not guaranteed", "15 GB of RAM per GPU cannot be checked"}, create: `"cloud":"SECURE"`,
			names: []string{"(podFindAndDeployOnDemand's minMemoryInGb is v1's minRAMPerGPU)"}},
		{name: "runpod-python's default supportPublicIp: true on ALL", input: `cloudType: ALL, supportPublicIp: true, gpuTypeId: "NVIDIA GeForce RTX 4090", name: "x", imageName: "img"`,
			noWarn: true, create: `"cloud":"SECURE"`},
		{name: "supportPublicIp on COMMUNITY", input: `cloudType: COMMUNITY, supportPublicIp: true, gpuTypeId: "NVIDIA GeForce RTX 4090", name: "x", imageName: "img"`,
			warn: []string{"supportPublicIp was accepted but not guaranteed"}, create: `"cloud":"COMMUNITY"`},
		{name: "runpodctl 1.x: --mem 20 and a 1 GB volume", input: `cloudType: SECURE, gpuTypeId: "NVIDIA GeForce RTX 4090", name: "x", imageName: "img", minMemoryInGb: 20, minVcpuCount: 1, volumeInGb: 1`,
			warn: []string{"minRAMPerGPU was accepted", "volumeInGb: 1 GB was rounded up to 10 GB", "9 GB of volume storage more than asked"}, create: `"size":10`,
			names: []string{"podFindAndDeployOnDemand's minMemoryInGb is v1's minRAMPerGPU"}},
		{name: "an orchestrator's offer: vCPU, memory, bandwidth, country, price cap", input: `cloudType: SECURE, gpuCount: 2, gpuTypeId: "NVIDIA GeForce RTX 4090", name: "x", imageName: "img", minVcpuCount: 16, minMemoryInGb: 64, minDownload: 500, minUpload: 100, countryCode: "US", deployCost: 2`,
			warn: []string{"minVCPUPerGPU was accepted", "minRAMPerGPU was accepted", "minDownloadMbps was accepted", "minUploadMbps was accepted"}, create: `"dataCenterIds":["US-KS-2","US-TX-3"]`,
			names: []string{"podFindAndDeployOnDemand's minVcpuCount is v1's minVCPUPerGPU", "podFindAndDeployOnDemand's minMemoryInGb is v1's minRAMPerGPU",
				"podFindAndDeployOnDemand's minDownload is v1's minDownloadMbps", "podFindAndDeployOnDemand's minUpload is v1's minUploadMbps"}},
		{name: "a GPU type only on COMMUNITY with cloudType ALL", input: `cloudType: ALL, gpuTypeId: "NVIDIA GeForce RTX 3090", name: "x", imageName: "img"`,
			noWarn: true, create: `"cloud":"COMMUNITY"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			a := w.ok(`mutation { podFindAndDeployOnDemand(input: {`+c.input+`}) { id } }`, "")
			if path(a.Data, "podFindAndDeployOnDemand.id") == nil {
				t.Fatalf("no pod: %s", a.raw)
			}
			if got := lastCreate(t, w); !strings.Contains(got, c.create) {
				t.Errorf("the v2 create %s does not hold %s", got, c.create)
			}
			if c.noWarn && len(a.resp.Warnings) != 0 {
				t.Errorf("warnings %q, want none", a.resp.Warnings)
			}
			warned(c.warn...)(t, w, a)
			// As a refusal does, a warning says which input its v1 field was.
			for _, s := range c.names {
				if !strings.Contains(warnings(a), s) {
					t.Errorf("warnings %s do not say %q", warnings(a), s)
				}
			}
			if len(c.names) == 0 && strings.Contains(warnings(a), "is v1's") {
				t.Errorf("warnings %s name an input the client did not send under another name", warnings(a))
			}
			for _, n := range a.resp.Notes {
				if n.Code == translate.CodeSoftConstraintUnchecked && n.Field == "" {
					t.Errorf("a soft constraint's note names no field (/usage counts per field): %+v", n)
				}
			}
		})
	}
}

// deployCpuPod's countryCode: v2 cannot place a CPU pod by country, so it
// is accepted with a warning naming that.
func TestDeployCpuPodWithACountryCreatesThePod(t *testing.T) {
	w := newWorld(t)
	a := w.ok(`mutation { deployCpuPod(input: {name: "x", imageName: "img", instanceId: "cpu3c-2-4", countryCode: "FR", cloudType: ALL}) { id } }`, "")
	if path(a.Data, "deployCpuPod.id") == nil {
		t.Fatalf("no pod: %s", a.raw)
	}
	warned("countryCodes was accepted but not guaranteed", "FR cannot be checked")(t, w, a)
}

// A data center asked for is honoured or the create fails as v1's
// stock-out, never placed elsewhere (the simulator, as v2's document
// says, takes dataCenterIds as preferences).
func TestDeployCpuPodInADataCenterIsHonouredOrAStockOut(t *testing.T) {
	w := newWorld(t)
	before := len(podIDs(t, w))
	// cpu3c is offered in US-TX-3 and EU-RO-1, not in US-KS-2: v2 places
	// it elsewhere, and the gateway deletes it.
	a := w.do(`mutation { deployCpuPod(input: {name: "x", imageName: "img", instanceId: "cpu3c-2-4", dataCenterId: "US-KS-2"}) { id } }`, "")
	if len(a.Errors) == 0 || !strings.Contains(a.Errors[0]["message"].(string), "There are no longer any instances available") ||
		!strings.Contains(a.Errors[0]["message"].(string), "deleted it") {
		t.Fatalf("want v1's stock-out naming the pod deleted, got %s", a.raw)
	}
	if after := len(podIDs(t, w)); after != before {
		t.Errorf("%d pods after, %d before: a pod placed elsewhere was left behind", after, before)
	}
	a = w.ok(`mutation { deployCpuPod(input: {name: "x", imageName: "img", instanceId: "cpu3c-2-4", dataCenterId: "EU-RO-1"}) { id } }`, "")
	if path(a.Data, "deployCpuPod.id") == nil || !strings.Contains(lastCreate(t, w), `"dataCenterIds":["EU-RO-1"]`) {
		t.Fatalf("no pod in EU-RO-1: %s", a.raw)
	}
}

// aliasedTemplateCaller is a v2 whose public catalog also serves a
// template under the vendor's v1 id alias (as v2 may serve runpod-ubuntu):
// the simulator's template id answers for it, and the calls the door sent
// are kept as sent.
type aliasedTemplateCaller struct {
	next      translate.Caller
	alias, id string
	sent      []translate.V2Call
}

func (c *aliasedTemplateCaller) Call(ctx context.Context, call translate.V2Call) (*translate.V2Answer, error) {
	c.sent = append(c.sent, call)
	if call.Method == "GET" && call.Path == "/v2/templates/"+c.alias {
		call.Path = "/v2/templates/" + c.id
		a, err := c.next.Call(ctx, call)
		if err == nil {
			a.Body = bytes.ReplaceAll(a.Body, []byte(`"`+c.id+`"`), []byte(`"`+c.alias+`"`))
		}
		return a, err
	}
	if call.Method == "POST" && call.Path == "/v2/pods" {
		call.Body = bytes.ReplaceAll(call.Body, []byte(`"templateId":"`+c.alias+`"`), []byte(`"templateId":"`+c.id+`"`))
	}
	return c.next.Call(ctx, call)
}

// runpod-python's and runpod-graphql's CPU creates name the vendor's
// template runpod-ubuntu. Where v2 serves a template of that id (GET
// /v2/templates/{id} serves the public catalog), it is sent as v1 sent it,
// without a warning, and runpod-graphql's create (imageName "") runs the
// template's image; only v2's 404 makes the door drop it (with an image)
// or refuse (without).
func TestTheVendorsCPUTemplateIsSentWhenV2ServesIt(t *testing.T) {
	cases := []struct{ name, file string }{
		{"runpod-python", "runpod-python/create_pod_cpu.graphql"},
		{"runpod-graphql", "runpod-api-helper/pods_createCpu.graphql"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			ac := &aliasedTemplateCaller{next: w.caller, alias: "runpod-ubuntu", id: "k3v8q1x7mz"}
			w.env.Caller = ac
			a := w.ok(clientDocument(t, c.file), "")
			if path(a.Data, "deployCpuPod.id") == nil {
				t.Fatalf("deployCpuPod: %s", a.raw)
			}
			if hasNote(a.resp, translate.CodeGraphQLDefaultTemplate) {
				t.Errorf("warned that the template was not sent: %v", a.resp.Notes)
			}
			var create string
			for _, call := range ac.sent {
				if call.Method == "POST" && call.Path == "/v2/pods" {
					create = string(call.Body)
				}
			}
			if !strings.Contains(create, `"templateId":"runpod-ubuntu"`) {
				t.Errorf("the v2 create does not name the template: %s", create)
			}
		})
	}
}
