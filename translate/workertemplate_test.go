package translate

import (
	"encoding/json"
	"strings"
	"testing"
)

// Workers and endpoints carry templateId (issue 29 item 6): a v1 worker is
// a pod made from its endpoint's template, and clients that decode the
// list strictly reject a worker without it. The endpoint's templateId (the
// gateway's fact store, or v2 if it ever shows one) is given to each of its
// workers; where nothing shows it — an endpoint made elsewhere — a warning
// (template_id_unknown) says so instead of leaving the field silently
// absent.
func TestWorkersCarryTheirEndpointsTemplateID(t *testing.T) {
	gpu, cpu := endpoint("e1"), endpoint("e2", cpuEndpoint)
	list := step{method: "GET", path: "/v2/serverless", status: 200, body: endpointList(gpu, cpu)}
	workers := func(id string) string {
		return `{"workers":[{"id":"` + id + `","status":"IDLE","isStale":false,"version":2,"gpuCount":1,"image":"runpod/worker:1","uptimeSeconds":5,
		"gpuTypeId":"NVIDIA GeForce RTX 4090","dataCenterId":"US-KS-2","startedAt":"2026-03-13T20:01:00Z"}],
		"summary":{"running":0,"idle":1,"initializing":0,"throttled":0,"unhealthy":0,"total":1},"endpointVersion":2}`
	}
	facts := newFakeFacts(FactEndpoint, "e1", "tpl1")

	t.Run("ListEndpoints?includeWorkers", func(t *testing.T) {
		res, _ := run(t, "ListEndpoints", runOpts{query: "includeWorkers=true", facts: facts}, list, catalogStep(),
			step{method: "GET", path: "/v2/serverless/e1/workers", status: 200, body: workers("w1")},
			step{method: "GET", path: "/v2/serverless/e2/workers", status: 200, body: workers("w2")})
		wantStatus(t, res, 200)
		var out []v1Endpoint
		if err := json.Unmarshal(res.Body, &out); err != nil {
			t.Fatal(err)
		}
		if out[0].TemplateID != "tpl1" || len(out[0].Workers) != 1 || out[0].Workers[0].TemplateID != "tpl1" {
			t.Errorf("e1 and its worker: %s", res.Body)
		}
		if out[1].TemplateID != "" || out[1].Workers[0].TemplateID != "" {
			t.Errorf("e2's templateId invented: %s", res.Body)
		}
		wantWarning(t, res, "templateId omitted for endpoint e2 and its workers")
		found := false
		for _, n := range res.Notes {
			found = found || n.Code == CodeTemplateIDUnknown
		}
		if !found {
			t.Errorf("notes %+v lack %s", res.Notes, CodeTemplateIDUnknown)
		}
	})
	t.Run("GetEndpoint?includeWorkers of an endpoint the gateway knows: no warning", func(t *testing.T) {
		res, _ := run(t, "GetEndpoint", runOpts{params: map[string]string{"endpointId": "e1"}, query: "includeWorkers=true", facts: facts},
			epGetStep("e1", gpu), catalogStep(), step{method: "GET", path: "/v2/serverless/e1/workers", status: 200, body: workers("w1")})
		wantStatus(t, res, 200)
		var out v1Endpoint
		if err := json.Unmarshal(res.Body, &out); err != nil {
			t.Fatal(err)
		}
		if out.TemplateID != "tpl1" || out.Workers[0].TemplateID != "tpl1" {
			t.Errorf("answer %s", res.Body)
		}
		if strings.Contains(strings.Join(res.Warnings, " "), "templateId omitted") {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
	t.Run("ListPods?endpointId: the workers as pods, with templateId, and the templateId filter finds them", func(t *testing.T) {
		res, _ := run(t, "ListPods", runOpts{query: "endpointId=e1&templateId=tpl1", facts: facts},
			step{method: "GET", path: "/v2/serverless/e1/workers", status: 200, body: workers("w1")}, catalogStep())
		wantStatus(t, res, 200)
		var out []map[string]any
		if err := json.Unmarshal(res.Body, &out); err != nil {
			t.Fatal(err)
		}
		if len(out) != 1 || out[0]["templateId"] != "tpl1" {
			t.Errorf("answer %s", res.Body)
		}
	})
}
