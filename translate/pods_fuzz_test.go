package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// ---------------------------------------------------------------------------
// Fuzzing the v1 bodies: never a panic, never a 5xx (but v1's
// stock-out); either a 4xx v1 error
// or v2 bodies that validate against the v2 contract and a v1 answer that
// validates against the v1 contract.

// isV1StockOut reports an answer that is v1's stock-out (500 and its
// sentence): a deliberate 5xx, not a gateway fault.
func isV1StockOut(res *Result) bool {
	return res.Status == http.StatusInternalServerError && bytes.HasPrefix(res.Body, []byte(`{"message":"`+V1StockOut))
}

// routedCaller answers by route, so that any plan can run against it.
type routedCaller struct {
	t     testing.TB
	mu    sync.Mutex
	calls []V2Call
	pod   string // the pod GET/PATCH/create answer with
}

func (c *routedCaller) Call(_ context.Context, call V2Call) (*V2Answer, error) {
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
	case call.Path == "/v2/pods" && call.Method == "GET":
		return ok(200, `{"pods":[]}`)
	case call.Path == "/v2/pods" && call.Method == "POST":
		return ok(201, c.pod)
	case strings.HasPrefix(call.Path, "/v2/network-volumes/"):
		return ok(200, `{"id":"vol1","name":"data","size":100,"dataCenter":"EU-RO-1","type":"STANDARD"}`)
	case strings.HasPrefix(call.Path, "/v2/templates/"):
		return ok(200, `{"id":"tpl1","name":"t","image":"img:t","args":"","disk":30,"mounts":{"persistent":{"size":40,"path":"/data"}},"ports":[],"env":{},"registry":null,"serverless":false,"public":false,"category":"NVIDIA","startSsh":true,"startJupyter":false,"allowedCudaVersions":[]}`)
	case call.Path == "/v2/catalog/gpus":
		return ok(200, gpuCatalog)
	case call.Path == "/v2/catalog/cpus":
		return ok(200, `{"cpus":[]}`)
	case strings.HasPrefix(call.Path, "/v2/pods/"):
		return ok(200, c.pod)
	}
	c.t.Fatalf("unexpected call %s %s", call.Method, target)
	return nil, nil
}

func checkFuzzResult(t *testing.T, op *Operation, res *Result, body []byte) {
	t.Helper()
	switch {
	case isV1StockOut(res):
		// The fuzzer's catalog can leave every candidate unavailable.
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
		path := "/v1" + strings.ReplaceAll(op.Path, "{podId}", "p1")
		if err := v1.ValidateResponse(op.Method, path, res.Status, http.Header{"Content-Type": {"application/json"}}, res.Body); err != nil {
			t.Fatalf("answer to %q breaks the v1 contract: %v\n%s", body, err, res.Body)
		}
	}
}

var fuzzCreateSeeds = []string{
	`{"imageName":"img","gpuTypeIds":["NVIDIA A40"]}`,
	`{"name":"trainer","imageName":"img:1","gpuTypeIds":["NVIDIA L4","NVIDIA A40"],"gpuCount":2,"allowedCudaVersions":["12.8"],"cloudType":"COMMUNITY","dataCenterIds":["EU-RO-1"],"containerDiskInGb":80,"containerRegistryAuthId":"reg1","dockerStartCmd":["python","-c","print('x')"],"env":{"K":"v"},"ports":["80/http"],"volumeInGb":100,"volumeMountPath":"/data","globalNetworking":true,"locked":true}`,
	`{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu5c","cpu3c"],"vcpuCount":8,"networkVolumeId":"vol1"}`,
	`{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"],"volumeInGb":60}`,
	`{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"countryCodes":["FR"],"ports":"8888/http,22/tcp"}`,
	`{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"dockerEntrypoint":["sh"],"interruptible":true,"minUploadMbps":1}`,
	`{"imageName":"","gpuTypeIds":[],"volumeInGb":5,"name":""}`,
	`{"computeType":"CPU","imageName":"0"}`, // no flavor named, none available: v1's stock-out 500
	// P1's soft constraints, cloudType ALL, a price cap, dockerArgs' JSON form (issue 36).
	`{"imageName":"img","gpuTypeIds":["NVIDIA A40","NVIDIA L4"],"cloudType":"ALL","deployCost":0.5,"minRAMPerGPU":16,"minVCPUPerGPU":4,"supportPublicIp":true,"volumeInGb":1}`,
	`{"imageName":"img","cloudType":"ALL","deployCost":0.4,"countryCodes":["FR"],"minDownloadMbps":100}`,
	`{"computeType":"CPU","imageName":"img","countryCodes":["US"],"deployCost":0.1,"cloudType":"ALL","dataCenterIds":["EU-RO-1"]}`,
	`{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"dockerArgs":"{\"cmd\":[\"python\",\"a b\"],\"entrypoint\":[\"/init\"]}"}`,
	`{"env":{"a":1},"ports":[1],"locked":"x"}`, `[]`, `{`, `null`, `"x"`, ``,
}

func FuzzPodCreateBody(f *testing.F) {
	for _, s := range fuzzCreateSeeds {
		f.Add([]byte(s), false)
	}
	op := mustOp(f, "CreatePod")
	created := newPod("p1")
	f.Fuzz(func(t *testing.T, body []byte, lenient bool) {
		c := &routedCaller{t: t, pod: created}
		res := op.Plan(context.Background(), &Request{Op: op, Body: body, Options: Options{Lenient: lenient}}, c)
		checkFuzzResult(t, op, res, body)
		creates := 0
		for _, call := range c.calls {
			if call.Method == "POST" {
				creates++
			}
		}
		if res.Status < 300 && creates != 1 {
			t.Fatalf("%d creates for a %d", creates, res.Status)
		}
	})
}

func FuzzPodUpdateBody(f *testing.F) {
	for _, s := range []string{
		`{"name":"renamed"}`, `{"volumeInGb":50,"volumeMountPath":"/d"}`, `{"volumeInGb":10}`, `{}`, `{"dockerStartCmd":[],"env":{},"ports":[],"containerRegistryAuthId":""}`,
		`{"name":"n","imageName":"i","containerDiskInGb":60,"dockerStartCmd":["a","b c"],"env":{"K":"V"},"globalNetworking":true,"locked":false}`,
		`{"dockerEntrypoint":["x"]}`, `{"volumeInGb":0}`, `[1]`, `{"name":`, ``,
		`{"dockerArgs":"{\"cmd\":[\"a\"],\"entrypoint\":null}"}`, `{"dockerArgs":"{ sleep 1; }"}`,
	} {
		f.Add([]byte(s), false, false)
	}
	op := mustOp(f, "UpdatePod")
	persistent, network := pod("p1"), pod("p1", set("mounts", `{"network":[{"volumeId":"vol1","path":"/workspace"}]}`))
	f.Fuzz(func(t *testing.T, body []byte, lenient, net bool) {
		c := &routedCaller{t: t, pod: persistent}
		if net {
			c.pod = network
		}
		res := op.Plan(context.Background(), &Request{Op: op, Params: map[string]string{"podId": "p1"}, Body: body, Options: Options{Lenient: lenient}}, c)
		checkFuzzResult(t, op, res, body)
	})
}
