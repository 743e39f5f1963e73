package graphql

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/facts"
)

// Endpoints: the documents runpod-python, runpodctl and runpod-mcp send,
// against the door in front of the simulator.

func TestRunpodPythonGetEndpointsAnswersTheFieldsItSelects(t *testing.T) {
	w := newWorld(t)
	for _, doc := range []string{"runpod-python/get_endpoints", "runpodctl/project_get_endpoints"} {
		a := w.clientOK(doc)
		eps, _ := path(a.Data, "myself.endpoints").([]any)
		if len(eps) != 1 {
			t.Fatalf("%s: %s", doc, a.raw)
		}
		want := map[string]any{
			"name": "image-generator", "gpuIds": "ADA_24", "type": "QB", "idleTimeout": 5.0, "workersMin": 1.0,
			"workersMax": 3.0, "scalerType": "QUEUE_DELAY", "scalerValue": 4.0, "gpuCount": 1.0, "locations": "",
			"createdAt": "2026-11-30T12:00:00Z", "env.0.key": "MODEL_NAME", "env.0.value": "sdxl",
		}
		for k, v := range want {
			if got := path(eps[0], k); got != v {
				t.Errorf("%s: %s = %v, want %v", doc, k, got, v)
			}
		}
		if str(path(eps[0], "id")) == "" {
			t.Errorf("%s: no id", doc)
		}
		// What v2 cannot tell reads null, and the answer says so.
		for _, k := range []string{"aiKey", "userId", "workersStandby", "version", "templateId", "networkVolume"} {
			if v, ok := eps[0].(map[string]any)[k]; !ok || v != nil {
				t.Errorf("%s: %s = %v, want null", doc, k, v)
			}
		}
		if !a.warned("Endpoint.aiKey, Endpoint.userId, Endpoint.workersStandby") || !a.warned("Endpoint.version was answered null") {
			t.Errorf("%s: warnings %q", doc, a.resp.Warnings)
		}
	}
}

func TestRunpodPythonCreateEndpoint(t *testing.T) {
	w := newWorld(t)
	tpl := w.serverlessTemplate()
	a := w.clientOK("runpod-python/create_endpoint", "tpl-capture-1", tpl)
	ep := path(a.Data, "saveEndpoint")
	want := map[string]any{
		"name": "v1gw-driver-ep", "templateId": tpl, "gpuIds": "AMPERE_16", "networkVolumeId": nil, "locations": "",
		"idleTimeout": 5.0, "scalerType": "QUEUE_DELAY", "scalerValue": 4.0, "workersMin": 0.0, "workersMax": 3.0,
		"allowedCudaVersions": nil, "gpuCount": 1.0, "flashBootType": "OFF",
	}
	for k, v := range want {
		if got := path(ep, k); got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	if str(path(ep, "id")) == "" {
		t.Fatalf("no id: %s", a.raw)
	}
	if !a.warned("v2 selects serverless GPUs by pool (AMPERE_16)") {
		t.Errorf("the pool hazard (H2) is not told: %q", a.resp.Warnings)
	}
}

func TestRunpodPythonCreateEndpointAllOptions(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	tpl := w.serverlessTemplate()
	// As captured, locations names countries ("US,CZ"): GraphQL's locations
	// are data center ids (runpodctl sends its --data-center-ids there), and
	// the error says which v1 field the plan checked them as.
	msgs := w.clientErrors("runpod-python/create_endpoint_all_options", "tpl-capture-1", tpl, "nv-driver", s.volume)
	if !strings.Contains(msgs[0], `dataCenterIds: "US" is not a valid value`) || !strings.Contains(msgs[0], "saveEndpoint's locations is v1's dataCenterIds") {
		t.Errorf("message %q", msgs[0])
	}
	a := w.clientOK("runpod-python/create_endpoint_all_options", "tpl-capture-1", tpl, "nv-driver", s.volume, "US,CZ", "US-KS-2,EU-CZ-1")
	ep := path(a.Data, "saveEndpoint")
	want := map[string]any{
		"name": "v1gw-driver-ep-all", "templateId": tpl, "gpuIds": "AMPERE_24,ADA_24", // the client's order "networkVolumeId": s.volume,
		"locations": "US-KS-2,EU-CZ-1", "scalerType": "REQUEST_COUNT", "scalerValue": 2.0, "workersMin": 1.0,
		"workersMax": 5.0, "allowedCudaVersions": "12.4,12.5", "gpuCount": 2.0, "flashBootType": "FLASHBOOT",
		// v2 has no idle timeout on a queue endpoint scaling on REQUEST_COUNT.
		"idleTimeout": nil,
	}
	for k, v := range want {
		if got := path(ep, k); got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	if !a.warned("idleTimeout was not applied") {
		t.Errorf("warnings %q", a.resp.Warnings)
	}
}

func TestUpdateEndpointTemplate(t *testing.T) {
	for _, doc := range []string{"runpod-python/update_endpoint_template", "runpodctl/serverless_update_template", "runpodctl/project_update_endpoint_template"} {
		t.Run(doc, func(t *testing.T) {
			w := newWorld(t)
			s := w.seeded()
			tpl := w.serverlessTemplate()
			mark := w.mark()
			a := w.clientOK(doc, "ep-capture-1", s.endpoint, "ep-1", s.endpoint, "tpl-capture-2", tpl, "tpl-capture-1", tpl, "tpl-2", tpl)
			up := path(a.Data, "updateEndpointTemplate")
			if path(up, "id") != s.endpoint || path(up, "templateId") != tpl {
				t.Errorf("answer %s", a.raw)
			}
			if b := w.bodyOf(mark, "PATCH", "/v2/serverless/"); b == nil || b["templateId"] != tpl || len(b) != 1 {
				t.Errorf("PATCH body %v", b)
			}
			if !a.warned("later edits of the template will not roll out") {
				t.Errorf("warnings %q", a.resp.Warnings)
			}
		})
	}
}

func TestRunpodctlServerlessCreate(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	tpl := w.serverlessTemplate()

	a := w.clientOK("runpodctl/serverless_create__2_saveEndpoint", "tpl-capture-1", tpl)
	ep := path(a.Data, "saveEndpoint")
	for k, v := range map[string]any{"name": "capture-ep", "gpuIds": "AMPERE_16", "gpuCount": 1.0, "workersMax": 3.0,
		"flashBootType": "FLASHBOOT", "computeType": "GPU", "instanceIds": nil, "templateId": tpl, "executionTimeoutMs": 300000.0} {
		if got := path(ep, k); got != v {
			t.Errorf("GPU: %s = %v, want %v", k, got, v)
		}
	}
	if str(path(ep, "id")) == "" {
		t.Error("GPU: no id")
	}

	a = w.clientOK("runpodctl/serverless_create_cpu", "tpl-capture-1", tpl)
	ep = path(a.Data, "saveEndpoint")
	for k, v := range map[string]any{"name": "capture-cpu-ep", "gpuIds": nil, "gpuCount": nil, "computeType": "CPU",
		"instanceIds.0": "cpu3g-4-16", "flashBootType": "FLASHBOOT"} {
		if got := path(ep, k); got != v {
			t.Errorf("CPU: %s = %v, want %v", k, got, v)
		}
	}

	// --all sends model references, which v2 has no place for: refused,
	// named, counted; without them the same create goes through.
	a = w.client("runpodctl/serverless_create_all__2_saveEndpoint", "tpl-capture-1", tpl, "nv-1", s.volume, "nv-2", s.volume)
	if len(a.Errors) != 1 || !strings.Contains(a.Errors[0]["message"].(string), "modelReferences: v2 endpoints have no cached models") || !a.refused() {
		t.Errorf("--all: %s", a.raw)
	}
	a = w.clientOK("runpodctl/serverless_create_all__2_saveEndpoint", "tpl-capture-1", tpl, "nv-1", s.volume, "nv-2", s.volume,
		`"https://huggingface.co/x/y:main"`, "", "EU-RO-1", "US-KS-2")
	ep = path(a.Data, "saveEndpoint")
	for k, v := range map[string]any{"gpuCount": 2.0, "workersMin": 1.0, "workersMax": 5.0, "locations": "US-KS-2",
		"networkVolumeId": s.volume, "networkVolumeIds.0.networkVolumeId": s.volume, "networkVolumeIds.0.dataCenterId": "US-KS-2",
		"scalerType": "REQUEST_COUNT", "scalerValue": 3.0, "executionTimeoutMs": 600000.0, "minCudaVersion": "12.6",
		"flashBootType": "OFF", "modelReferences": nil} {
		if got := path(ep, k); got != v {
			t.Errorf("--all: %s = %v, want %v", k, got, v)
		}
	}
	if n := len(path(ep, "networkVolumeIds").([]any)); n != 1 {
		t.Errorf("--all: one volume twice is one volume, got %d", n)
	}
}

func TestHubDeploysAreRefused(t *testing.T) {
	w := newWorld(t)
	for _, doc := range []string{"runpodctl/serverless_create_hub__3_saveEndpoint", "runpod-mcp/deploy_hub_repo__2_saveEndpoint"} {
		mark := w.mark()
		a := w.client(doc)
		msg := a.message()
		if !strings.Contains(msg, "hubReleaseId: v2 has no hub") || !strings.Contains(msg, "template: an endpoint is made from a template") || !a.refused() {
			t.Errorf("%s: %s", doc, a.raw)
		}
		if path(a.Data, "saveEndpoint") != nil {
			t.Errorf("%s: data %s", doc, a.raw)
		}
		if calls := w.callsSince(mark); len(calls) != 0 {
			t.Errorf("%s: a refusal calls v2: %v", doc, calls)
		}
	}
}

func TestRunpodctlProjectCreateEndpoint(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	tpl := w.serverlessTemplate()
	a := w.clientOK("runpodctl/project_create_endpoint", "tpl-1", tpl, "nv-1", s.volume)
	ep := path(a.Data, "saveEndpoint")
	for k, v := range map[string]any{"name": "proj-endpoint-abc", "gpuIds": "AMPERE_16", "networkVolumeId": s.volume,
		"templateId": tpl, "idleTimeout": 5.0, "scalerValue": 4.0, "userId": nil} {
		if got := path(ep, k); got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	// The endpoint list tells the volume's data center (runpod-python's
	// get_endpoints selects networkVolume { id dataCenterId }).
	a = w.clientOK("runpod-python/get_endpoints")
	found := false
	for _, e := range path(a.Data, "myself.endpoints").([]any) {
		if path(e, "name") == "proj-endpoint-abc" {
			found = true
			if path(e, "networkVolume.id") != s.volume || path(e, "networkVolume.dataCenterId") != "US-KS-2" {
				t.Errorf("networkVolume %v", path(e, "networkVolume"))
			}
		}
	}
	if !found {
		t.Errorf("not listed: %s", a.raw)
	}
}

func TestRunpodMCPSetEndpointGPUs(t *testing.T) {
	w := newWorld(t)
	w.env.Facts = facts.NewMemory(facts.MemoryOptions{Now: func() time.Time { return w.now }})
	s := w.seeded()
	tpl := w.serverlessTemplate()
	// An endpoint the gateway made, so that it knows its template (P8).
	a := w.clientOK("runpodctl/serverless_create__2_saveEndpoint", "tpl-capture-1", tpl, `"workersMax": 3`, `"workersMax": 3, "networkVolumeIds": [{"networkVolumeId": "`+s.volume+`"}]`)
	id := str(path(a.Data, "saveEndpoint.id"))

	// The tool reads the endpoints, then saves the one it changes whole.
	a = w.clientOK("runpod-mcp/set_endpoint_gpus__1_myself_endpoints")
	var read any
	for _, e := range path(a.Data, "myself.endpoints").([]any) {
		if path(e, "id") == id {
			read = e
		}
	}
	for k, v := range map[string]any{"templateId": tpl, "gpuIds": "AMPERE_16", "type": "QB", "flashBootType": "FLASHBOOT",
		"networkVolumeIds.0.networkVolumeId": s.volume, "networkVolumeIds.0.dataCenterId": "US-KS-2", "compliance": nil, "modelReferences": nil} {
		if got := path(read, k); got != v {
			t.Errorf("read: %s = %v, want %v", k, got, v)
		}
	}

	mark := w.mark()
	a = w.clientOK("runpod-mcp/set_endpoint_gpus__2_saveEndpoint", `"ep-1"`, `"`+id+`"`, "tpl-1", tpl, "nv-1", s.volume,
		"AMPERE_16,-NVIDIA RTX A4500", "ADA_24,AMPERE_16,-NVIDIA RTX A4000")
	ep := path(a.Data, "saveEndpoint")
	if path(ep, "id") != id || path(ep, "gpuIds") != "ADA_24" || path(ep, "gpuCount") != 1.0 || path(ep, "workersMax") != 3.0 {
		t.Errorf("answer %s", a.raw)
	}
	patch := w.bodyOf(mark, "PATCH", "/v2/serverless/")
	if patch == nil {
		t.Fatalf("no PATCH: %v", w.callsSince(mark))
	}
	// The template the endpoint already has is not applied again (a new
	// release), nor are unset fields sent.
	if _, ok := patch["templateId"]; ok {
		t.Errorf("templateId sent again: %v", patch)
	}
	if fmt.Sprint(path(patch, "gpu.pools")) != "[ADA_24]" {
		t.Errorf("gpu %v", patch["gpu"])
	}
	if _, ok := patch["dataCenterIds"]; ok {
		t.Errorf("locations null was sent: %v", patch)
	}
}

func TestSaveEndpointUpdateRefusesWhatV2CannotDo(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	const save = `mutation($input: EndpointInput!) { saveEndpoint(input: $input) { id gpuIds } }`
	in := func(fields string) string {
		return `{"input": {"id": "` + s.endpoint + `", "name": "image-generator"` + fields + `}}`
	}
	for _, tc := range []struct{ fields, want string }{
		{`, "type": "LB"`, "endpoint " + s.endpoint + " is QB, and v2 cannot change an endpoint's type"},
		{`, "compliance": ["GDPR"]`, "compliance: v2 places endpoints by data center"},
		{`, "modelReferences": ["m"]`, "modelReferences: v2 endpoints have no cached models"},
	} {
		a := w.do(save, in(tc.fields))
		if msg := a.message(); !strings.Contains(msg, tc.want) || !a.refused() {
			t.Errorf("%s: %s", tc.fields, a.raw)
		}
	}
	for _, tc := range []struct{ fields, want string }{
		{`, "gpuIds": "NO_POOL"`, `gpuIds: "NO_POOL" is not a serverless GPU pool of the v2 catalog (its pools: ADA_24, AMPERE_16`},
		{`, "gpuIds": "-NVIDIA A40"`, "names no serverless GPU pool"},
		{`, "gpuIds": "AMPERE_16,-NVIDIA RTX A4000"`, "leaves no GPU type"},
		{`, "type": "XL"`, `type: "XL" is neither QB`},
	} {
		msgs := w.errorsOf(save, in(tc.fields))
		if !strings.Contains(msgs[0], tc.want) {
			t.Errorf("%s: %q", tc.fields, msgs)
		}
	}
	// A create of a load-balancer endpoint: v1 makes queue endpoints only.
	a := w.do(save, `{"input": {"name": "lb", "type": "LB", "templateId": "t", "gpuIds": "ADA_24"}}`)
	if msg := a.message(); !strings.Contains(msg, "type LB: the gateway creates endpoints through v1's CreateEndpoint") || !a.refused() {
		t.Errorf("LB: %s", a.raw)
	}
	msgs := w.errorsOf(save, `{"input": {"name": "x", "templateId": "t", "gpuIds": "ADA_24", "instanceIds": ["cpu3c-2-4"]}}`)
	if !strings.Contains(msgs[0], "gpuIds and instanceIds") {
		t.Errorf("both: %q", msgs)
	}
	// flashBootType is a String in the vendor's schema: a value that is
	// not a FlashBoot mode is named; runpodctl's "" (from a REST read)
	// means not set, as "" does in every input.
	a = w.do(save, in(`, "flashBootType": "TURBO"`))
	if msg := a.message(); !strings.Contains(msg, `flashBootType: "TURBO" is not one of OFF, FLASHBOOT, PRIORITY_FLASHBOOT`) || a.code() != "BAD_USER_INPUT" {
		t.Errorf("flashBootType TURBO: %s", a.raw)
	}
	if a = w.do(save, in(`, "flashBootType": ""`)); len(a.Errors) > 0 {
		t.Errorf("flashBootType \"\": %s", a.raw)
	}
}

func TestEndpointAliasesFragmentsVariablesAndWorkers(t *testing.T) {
	w := newWorld(t)
	a := w.ok(`query Q($skip: Boolean!) {
		me: myself {
			endpoints {
				...ep
				gpus: gpuIds
				name @skip(if: $skip)
				pods { id desiredStatus imageName gpuCount machine { gpuDisplayName location } env }
			}
		}
	}
	fragment ep on Endpoint { key: id type __typename env { k: key } }`, `{"skip": true}`)
	ep := path(a.Data, "me.endpoints.0")
	m, _ := ep.(map[string]any)
	if m["gpus"] != "ADA_24" || m["type"] != "QB" || m["__typename"] != "Endpoint" || str(m["key"]) == "" || path(ep, "env.0.k") != "MODEL_NAME" {
		t.Errorf("%s", a.raw)
	}
	if _, ok := m["name"]; ok {
		t.Errorf("@skip: %s", a.raw)
	}
	// pods are the endpoint's workers (includeWorkers): workers.min 1.
	pods, _ := m["pods"].([]any)
	if len(pods) != 1 || path(pods[0], "desiredStatus") != "RUNNING" || path(pods[0], "machine.gpuDisplayName") != "RTX 4090" || str(path(pods[0], "id")) == "" {
		t.Errorf("pods: %s", a.raw)
	}
	if !a.warned("Endpoint.pods.env") {
		t.Errorf("warnings %q", a.resp.Warnings)
	}
	if !slices.Contains(w.callsSince(0), "GET /v2/serverless/"+str(m["key"])+"/workers") {
		t.Errorf("calls %v", w.callsSince(0))
	}
}

func TestDeleteEndpoint(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	a := w.ok(`mutation { deleteEndpoint(id: "`+s.endpoint+`") }`, "")
	if v, ok := a.Data["deleteEndpoint"]; !ok || v != nil {
		t.Errorf("%s", a.raw)
	}
	if eps := path(w.ok(`{ myself { endpoints { id } } }`, "").Data, "myself.endpoints").([]any); len(eps) != 0 {
		t.Errorf("still listed: %v", eps)
	}
	msgs := w.errorsOf(`mutation { deleteEndpoint(id: "`+s.endpoint+`") }`, "")
	if !strings.Contains(msgs[0], "not found") {
		t.Errorf("%q", msgs)
	}
}

func TestRunpodctlServerlessUpdateModels(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	tpl := w.serverlessTemplate()
	subs := []string{`"ep-1"`, `"` + s.endpoint + `"`, "tpl-1", tpl, "nv-1", s.volume}
	// --model-reference: v2 has no cached models.
	a := w.client("runpodctl/serverless_update_models", subs...)
	if !strings.Contains(a.message(), "modelReferences: v2 endpoints have no cached models") || !a.refused() {
		t.Errorf("%s", a.raw)
	}
	// --clear-models saves the endpoint whole without them: the update
	// goes through, with what it restates.
	a = w.clientOK("runpodctl/serverless_update_models", append(subs, `["https://huggingface.co/x/y:main"]`, "[]")...)
	ep := path(a.Data, "saveEndpoint")
	for k, v := range map[string]any{"id": s.endpoint, "name": "capture-ep", "templateId": tpl, "gpuIds": "AMPERE_16",
		"networkVolumeIds.0.networkVolumeId": s.volume, "executionTimeoutMs": 600000.0, "minCudaVersion": nil, "instanceIds": nil,
		"modelReferences": nil} {
		if got := path(ep, k); got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
}

func TestSaveEndpointAnswersTheVersion(t *testing.T) {
	w := newWorld(t)
	tpl := w.serverlessTemplate()
	a := w.ok(`mutation { saveEndpoint(input: {name: "v", templateId: "`+tpl+`", gpuIds: "ADA_24"}) { id version } }`, "")
	if _, ok := path(a.Data, "saveEndpoint.version").(float64); !ok || a.warned("Endpoint.version") {
		t.Errorf("%s", a.raw)
	}
}
