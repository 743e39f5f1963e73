package v1doc

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
)

// The answers the gateway gives validate against its own document: every
// shape a v1 answer takes, produced by translate's own plans from v2
// answers (fixtures below, the same as translate's tests use), checked
// against the document v1doc generates. (translate's tests check the same
// answers against the vendor's v1 contract.)

// v2 fixtures: a GPU pod (RUNNING, persistent mount, live ports), as a
// function of what differs.
func v2Pod(id, mounts, template string) string {
	return `{"id":"` + id + `","name":"my pod","status":"RUNNING","actions":["stop","restart","terminate"],
		"image":"runpod/pytorch:2","args":"python -m http.server 'a b'","disk":50,
		"mounts":` + mounts + `,
		"ports":["8888/http","22/tcp"],"env":{"A":"1"},"registry":null,"cloud":"SECURE",
		"dataCenterId":"US-TX-3","cudaVersion":"12.8","ssh":{"proxy":null,"direct":null},
		"template":` + template + `,"cost":0.74,"locked":false,
		"runtime":{"uptime":10,"ports":[
			{"private":8888,"public":null,"type":"http","ip":null},
			{"private":22,"public":10341,"type":"tcp","ip":"100.65.0.119"}]},
		"createdAt":"2026-03-13T20:00:00Z","startedAt":"2026-03-13T20:01:00Z",
		"globalNetworking":{"enabled":false},"gpu":{"id":"NVIDIA A40","count":1}}`
}

// A CPU pod, as v2 answers a create.
const v2CPUPod = `{"id":"p2","name":"my pod","status":"PROVISIONING","actions":["stop","terminate"],
	"image":"img","args":"","disk":50,"mounts":{},"ports":["8888/http","22/tcp"],"env":{},"registry":null,"cloud":"SECURE",
	"dataCenterId":null,"cudaVersion":null,"ssh":{"proxy":null,"direct":null},"template":null,"cost":0,"locked":false,
	"runtime":null,"createdAt":"2026-03-13T20:00:30Z","startedAt":null,"globalNetworking":{"enabled":false},
	"cpu":{"id":"cpu3c","vcpuCount":4,"memory":8}}`

const (
	v2Volume   = `{"id":"vol1","name":"data","size":100,"dataCenter":"EU-RO-1","type":"STANDARD"}`
	v2Template = `{"id":"tpl1","name":"T","image":"img:t","args":"run","disk":30,"mounts":{"persistent":{"size":40,"path":"/data"}},"ports":["80/http"],"env":{"E":"1"},"registry":null,"serverless":false,"public":true,"category":"NVIDIA","startSsh":true,"startJupyter":false,"allowedCudaVersions":[]}`
	gpuCatalog = `{"gpus":[
	{"id":"NVIDIA A40","name":"A40","pool":"AMPERE_48","manufacturer":"NVIDIA","memory":48,"secure":true,"community":true,
	 "price":{"secure":0.44,"community":0.35},"maxCount":{"secure":8,"community":4},"availability":"LOW",
	 "dataCenters":[{"id":"EU-RO-1","name":"Romania 1","availability":"LOW"},{"id":"EU-FR-1","name":"France 1","availability":"LOW"}]}]}`
	cpuCatalog = `{"cpus":[
	{"id":"cpu3c","name":"Compute","group":"Gen 3","vcpu":{"min":2,"max":32},"ramGbPerVcpu":2,"price":{"securePerVcpu":0.03,"serverlessPerVcpu":0.02},"availability":"LOW"}]}`
	workers = `{"workers":[
	{"id":"w1","status":"RUNNING","isStale":false,"version":3,"gpuCount":1,"image":"img:w","uptimeSeconds":60,"gpuTypeId":"NVIDIA L4","dataCenterId":"EU-RO-1","startedAt":"2026-03-13T19:00:00Z"},
	{"id":"w2","status":"INITIALIZING","isStale":false,"version":null,"gpuCount":1,"image":null,"uptimeSeconds":null,"gpuTypeId":null,"dataCenterId":null,"startedAt":null}],
	"summary":{"running":1,"idle":0,"initializing":1,"throttled":0,"unhealthy":0,"total":2},"endpointVersion":3}`
)

// billing is a v2 billing answer with one record of one day.
func billing(idKey, id, amounts, uniqueKey, totals string) string {
	return `{"records":[{"startTime":"2026-06-01T00:00:00Z","endTime":"2026-06-02T00:00:00Z","` + idKey + `":"` + id + `","totalAmount":1,` + amounts + `}],` +
		`"metadata":{"query":{"startTime":"2026-06-01T00:00:00Z","endTime":"2026-07-01T00:00:00Z","bucketSize":"day","` + idKey + `":null},` +
		`"recordCount":1,"` + uniqueKey + `":1,"totals":` + totals + `}}`
}

// v2Answers answers each v2 call by "METHOD path" (a DELETE: 204).
type v2Answers map[string]string

func (a v2Answers) Call(_ context.Context, c translate.V2Call) (*translate.V2Answer, error) {
	h := http.Header{"Content-Type": {"application/json"}}
	if c.Method == http.MethodDelete {
		return &translate.V2Answer{Status: http.StatusNoContent, Header: h}, nil
	}
	body, ok := a[c.Method+" "+c.Path]
	if !ok {
		return &translate.V2Answer{Status: http.StatusNotFound, Header: h, Body: []byte(`{"title":"Not Found","status":404,"detail":"no fixture for ` + c.Method + ` ` + c.Path + `"}`)}, nil
	}
	status := http.StatusOK
	if c.Method == http.MethodPost && c.Path == "/v2/pods" {
		status = http.StatusCreated
	}
	return &translate.V2Answer{Status: status, Header: h, Body: []byte(body)}, nil
}

func TestOpenAPIDescribesTheGatewaysAnswers(t *testing.T) {
	own := loadOwnSpec(t)
	netMount := `{"network":[{"volumeId":"vol1","path":"/workspace"}]}`
	fullPod := v2Pod("p1", netMount, `"tpl1"`)
	v2 := v2Answers{
		"GET /v2/pods/p1":                fullPod,
		"GET /v2/pods":                   `{"pods":[` + fullPod + `,` + v2CPUPod + `]}`,
		"POST /v2/pods":                  v2CPUPod,
		"POST /v2/pods/p1/action":        fullPod,
		"GET /v2/network-volumes/vol1":   v2Volume,
		"GET /v2/network-volumes":        `{"networkVolumes":[` + v2Volume + `]}`,
		"POST /v2/network-volumes":       v2Volume,
		"PATCH /v2/network-volumes/vol1": v2Volume,
		"GET /v2/templates/tpl1":         v2Template,
		"GET /v2/catalog/gpus":           gpuCatalog,
		"GET /v2/catalog/cpus":           cpuCatalog,
		"GET /v2/serverless/ep1/workers": workers,
		"POST /v2/registries":            `{"id":"reg1","name":"a"}`,
		"GET /v2/registries":             `{"registries":[{"id":"reg1","name":"a"}]}`,
		"GET /v2/registries/reg1":        `{"id":"reg1","name":"a"}`,
		"GET /v2/billing/pods": billing("podId", "p1", `"gpuAmount":1,"cpuAmount":0,"diskAmount":0`, "uniquePodCount",
			`{"totalAmount":0,"gpuAmount":0,"cpuAmount":0,"diskAmount":0}`),
		"GET /v2/billing/serverless": billing("serverlessId", "ep1", `"gpuAmount":1,"cpuAmount":0,"diskAmount":0,"feeAmount":0`, "uniqueServerlessCount",
			`{"totalAmount":0,"gpuAmount":0,"cpuAmount":0,"diskAmount":0,"feeAmount":0}`),
		"GET /v2/billing/network-volumes": billing("networkVolumeId", "vol1", `"standardAmount":0,"highPerformanceAmount":1`, "uniqueNetworkVolumeCount",
			`{"totalAmount":0,"standardAmount":0,"highPerformanceAmount":0}`),
	}
	includes := "includeMachine=true&includeNetworkVolume=true&includeTemplate=true"
	pod := map[string]string{"podId": "p1"}
	vol := map[string]string{"networkVolumeId": "vol1"}
	reg := map[string]string{"containerRegistryAuthId": "reg1"}
	ctx := context.Background()
	for _, tc := range []struct {
		name, query, body string
		params            map[string]string
	}{
		// Pods: every shape R-Pod and R-Worker produce.
		{name: "GetPod", params: pod, query: includes},
		{name: "GetPod", params: pod},
		{name: "CreatePod", body: `{"computeType":"CPU","cpuFlavorIds":["cpu3c"],"imageName":"img"}`},
		{name: "ListPods", query: includes},
		{name: "ListPods"},
		{name: "ListPods", query: "endpointId=ep1&includeMachine=true"},
		{name: "StartPod", params: pod},
		// Network volumes, registry credentials, billing.
		{name: "CreateNetworkVolume", body: `{"name":"d","size":10,"dataCenterId":"EU-RO-1"}`},
		{name: "ListNetworkVolumes"},
		{name: "GetNetworkVolume", params: vol},
		{name: "UpdateNetworkVolumeViaPost", params: vol, body: `{"name":"x"}`},
		{name: "DeleteNetworkVolume", params: vol},
		{name: "CreateContainerRegistryAuth", body: `{"name":"a","username":"b","password":"c"}`},
		{name: "ListContainerRegistryAuths"},
		{name: "GetContainerRegistryAuth", params: reg},
		{name: "DeleteContainerRegistryAuth", params: reg},
		{name: "PodBilling", query: "grouping=podId"},
		{name: "EndpointBilling"},
		{name: "NetworkVolumeBilling"},
	} {
		op, ok := translate.Lookup(tc.name)
		if !ok || op.Plan == nil {
			t.Fatalf("%s: no such operation with a plan", tc.name)
		}
		q, _ := url.ParseQuery(tc.query)
		res := op.Plan(ctx, &translate.Request{Op: op, Params: tc.params, Query: q, Body: []byte(tc.body)}, v2)
		body := res.Body
		if res.Stream != nil {
			var b bytes.Buffer
			if fail := res.Stream(&b); fail != nil {
				res = fail
			}
			body = b.Bytes()
		}
		path := "/v1" + op.Path
		for k, v := range tc.params {
			path = strings.ReplaceAll(path, "{"+k+"}", v)
		}
		if res.Status != op.Success {
			t.Errorf("%s %s?%s: %d %s", op.Method, path, tc.query, res.Status, res.Body)
			continue
		}
		h := http.Header{"Content-Type": {op.ContentType()}}
		if res.Status == http.StatusNoContent {
			h, body = http.Header{}, nil
		}
		if err := own.ValidateResponse(op.Method, path, res.Status, h, body); err != nil {
			t.Errorf("%s %s?%s: %v\n%s", op.Method, path, tc.query, err, body)
		}
	}
	// Errors.
	h := http.Header{"Content-Type": {"application/json"}}
	if err := own.ValidateResponse("GET", "/v1/networkvolumes/x", 404, h, translate.EncodeV1Error("not found")); err != nil {
		t.Error(err)
	}
	if err := own.ValidateResponse("GET", "/v1/pods", 429, http.Header{"Content-Type": {"application/json"}, "Retry-After": {"3"}}, translate.EncodeV1Error("slow")); err != nil {
		t.Error(err)
	}
	// The two public documents.
	for _, name := range []string{"GetOpenAPI", "GetDocs"} {
		op, _ := translate.Lookup(name)
		if err := own.ValidateResponse(op.Method, "/v1"+op.Path, 200, http.Header{"Content-Type": {op.ContentType()}}, For(op)()); err != nil {
			t.Error(err)
		}
	}
}
