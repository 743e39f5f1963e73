package translate

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// Fuzzing the v1 endpoint and template bodies: never a panic, never a 5xx;
// either a 4xx v1 error, or v2 bodies that validate against the v2
// contract and a v1 answer that validates against the v1 contract.

// epRoutedCaller answers the endpoint and template routes with valid v2
// fixtures, checking every request against the v2 contract.
type epRoutedCaller struct {
	t        testing.TB
	mu       sync.Mutex
	calls    []V2Call
	endpoint string // the answer of endpoint GET/PATCH/POST
	template string // the answer of template GET/PATCH/POST
}

func (c *epRoutedCaller) Call(_ context.Context, call V2Call) (*V2Answer, error) {
	c.mu.Lock()
	c.calls = append(c.calls, call)
	c.mu.Unlock()
	target := call.Path
	if len(call.Query) > 0 {
		target += "?" + call.Query.Encode()
	}
	if _, v2 := loadSpecs(c.t); v2 != nil {
		if err := v2.ValidateRequest(call.Method, target, jsonHeader, call.Body); err != nil {
			c.t.Fatalf("%s %s breaks the v2 contract: %v\nbody: %s", call.Method, target, err, call.Body)
		}
	}
	ok := func(status int, body string) (*V2Answer, error) {
		return &V2Answer{Status: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}, nil
	}
	switch {
	case call.Path == "/v2/catalog/gpus":
		return ok(200, poolCatalog)
	case call.Path == "/v2/catalog/cpus":
		// A CPU endpoint without cpuFlavorIds ranks every v1 flavor.
		return ok(200, cpuChoiceCatalog)
	case call.Path == "/v2/serverless" && call.Method == "POST":
		return ok(201, c.endpoint)
	case call.Path == "/v2/serverless":
		return ok(200, `{"endpoints":[`+c.endpoint+`]}`)
	case strings.HasSuffix(call.Path, "/releases"):
		return ok(200, releases(1))
	case strings.HasSuffix(call.Path, "/workers"):
		return ok(200, `{"workers":[],"summary":{"running":0,"idle":0,"initializing":0,"throttled":0,"unhealthy":0,"total":0},"endpointVersion":1}`)
	case strings.HasPrefix(call.Path, "/v2/serverless/"):
		return ok(200, c.endpoint)
	case call.Path == "/v2/templates" && call.Method == "POST":
		return ok(201, c.template)
	case strings.HasPrefix(call.Path, "/v2/templates/"):
		return ok(200, c.template)
	}
	c.t.Fatalf("unexpected call %s %s", call.Method, target)
	return nil, nil
}

func checkFuzzAnswer(t *testing.T, op *Operation, params map[string]string, res *Result, body []byte) {
	t.Helper()
	switch {
	case isV1StockOut(res):
	case res.Status >= 500:
		t.Fatalf("%d for %q: %s", res.Status, body, res.Body)
	case res.Status >= 400:
		var e V1Error
		if err := json.Unmarshal(res.Body, &e); err != nil || e.Message == "" {
			t.Fatalf("%d without a v1 message for %q: %s", res.Status, body, res.Body)
		}
	default:
		v1, _ := loadSpecs(t)
		if v1 == nil {
			return
		}
		path := "/v1" + op.Path
		for k, v := range params {
			path = strings.ReplaceAll(path, "{"+k+"}", v)
		}
		if err := v1.ValidateResponse(op.Method, path, res.Status, http.Header{"Content-Type": {"application/json"}}, res.Body); err != nil {
			t.Fatalf("answer to %q breaks the v1 contract: %v\n%s", body, err, res.Body)
		}
	}
}

func FuzzEndpointCreateBody(f *testing.F) {
	for _, s := range []string{
		`{"templateId":"tpl1","gpuTypeIds":["NVIDIA L4"]}`,
		`{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA L4","NVIDIA A40","Tesla T4"],"gpuCount":2,"allowedCudaVersions":["12.8","12.4"],"minCudaVersion":"12.6",
			"scalerType":"REQUEST_COUNT","scalerValue":3,"workersMin":1,"workersMax":4,"idleTimeout":60,"executionTimeoutMs":600000,"flashboot":true,
			"dataCenterIds":["US-KS-2"],"networkVolumeId":"vol1","networkVolumeIds":["vol2","vol1"]}`,
		`{"templateId":"tpl1","name":"c","computeType":"CPU","cpuFlavorIds":["cpu5c","cpu3c"],"vcpuCount":8}`,
		`{"templateId":"tpl1","gpuTypeIds":["AMD Instinct MI300X OAM"]}`,
		`{"templateId":"","gpuTypeIds":[],"name":""}`, `{"templateId":1}`, `[]`, `{`, ``, `null`,
	} {
		f.Add([]byte(s))
	}
	op := mustOp(f, "CreateEndpoint")
	gpu, cpu := endpoint("ep1"), endpoint("ep1", cpuEndpoint)
	f.Fuzz(func(t *testing.T, body []byte) {
		c := &epRoutedCaller{t: t, endpoint: gpu, template: serverlessTemplate}
		if strings.Contains(string(body), "CPU") {
			c.endpoint = cpu
		}
		res := op.Plan(context.Background(), &Request{Op: op, Body: body}, c)
		checkFuzzAnswer(t, op, nil, res, body)
		creates := 0
		for _, call := range c.calls {
			if call.Method == "POST" {
				creates++
			}
		}
		if creates > 1 || (res.Status < 300 && creates != 1) {
			t.Fatalf("%d creates for a %d", creates, res.Status)
		}
	})
}

func FuzzEndpointUpdateBody(f *testing.F) {
	for _, s := range []string{
		`{"name":"x"}`, `{"scalerType":"REQUEST_COUNT"}`, `{"scalerValue":7}`, `{"idleTimeout":9}`, `{"flashboot":true}`,
		`{"gpuTypeIds":["NVIDIA A40"],"gpuCount":2,"minCudaVersion":"12.4"}`, `{"allowedCudaVersions":["12.8"]}`,
		`{"cpuFlavorIds":["cpu3g"],"vcpuCount":4}`, `{"templateId":"t2","networkVolumeIds":[]}`, `{}`, `{"gpuTypeIds":[]}`, `[`, ``,
	} {
		f.Add([]byte(s), false)
	}
	op := mustOp(f, "UpdateEndpoint")
	gpu, cpu := endpoint("ep1", set("flashboot", "PRIORITY_FLASHBOOT")), endpoint("ep1", cpuEndpoint, set("scaling", `{"type":"REQUEST_COUNT","requestCount":2}`), set("workers", `{"min":0,"max":3}`))
	params := map[string]string{"endpointId": "ep1"}
	f.Fuzz(func(t *testing.T, body []byte, isCPU bool) {
		c := &epRoutedCaller{t: t, endpoint: gpu}
		if isCPU {
			c.endpoint = cpu
		}
		res := op.Plan(context.Background(), &Request{Op: op, Params: params, Body: body}, c)
		checkFuzzAnswer(t, op, params, res, body)
	})
}

func FuzzTemplateCreateBody(f *testing.F) {
	for _, s := range []string{
		`{"name":"t","imageName":"i"}`,
		`{"name":"t","imageName":"i","category":"CPU","containerDiskInGb":10,"containerRegistryAuthId":"r","dockerEntrypoint":[],"dockerStartCmd":["a","b c"],
			"env":{"A":"B"},"isPublic":true,"isServerless":true,"ports":"80/http","readme":"# x","volumeInGb":10,"volumeMountPath":"/v"}`,
		`{"name":"t","imageName":"i","dockerEntrypoint":["sh"]}`, `{"name":"","volumeInGb":3}`, `{}`, `1`, ``,
	} {
		f.Add([]byte(s), false)
	}
	op := mustOp(f, "CreateTemplate")
	answer := tpl("t1")
	f.Fuzz(func(t *testing.T, body []byte, lenient bool) {
		c := &epRoutedCaller{t: t, template: answer}
		res := op.Plan(context.Background(), &Request{Op: op, Body: body, Options: Options{Lenient: lenient}}, c)
		checkFuzzAnswer(t, op, nil, res, body)
	})
}

func FuzzTemplateUpdateBody(f *testing.F) {
	for _, s := range []string{
		`{"name":"t"}`, `{"volumeInGb":30}`, `{"volumeMountPath":"/x"}`, `{"readme":"r"}`, `{}`,
		`{"imageName":"i","containerDiskInGb":5,"containerRegistryAuthId":"","dockerStartCmd":[],"env":{},"ports":[],"isPublic":false}`, `{"volumeInGb":0}`, `x`,
	} {
		f.Add([]byte(s), false, false)
	}
	op := mustOp(f, "UpdateTemplate")
	withMount, without := tpl("t1"), tpl("t1", set("mounts", `{}`), set("serverless", true))
	params := map[string]string{"templateId": "t1"}
	f.Fuzz(func(t *testing.T, body []byte, lenient, noMount bool) {
		c := &epRoutedCaller{t: t, template: withMount}
		if noMount {
			c.template = without
		}
		res := op.Plan(context.Background(), &Request{Op: op, Params: params, Body: body, Options: Options{Lenient: lenient}}, c)
		checkFuzzAnswer(t, op, params, res, body)
	})
}
