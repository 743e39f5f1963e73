package translate

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// Fuzzing the network volume, registry and billing inputs: never a panic,
// never a 5xx; either a 4xx v1 error, or v2 requests that validate against
// the v2 contract and a v1 answer that validates against the v1 contract.

// resourceCaller answers the v2 routes of volumes, registries and billing.
type resourceCaller struct {
	t     testing.TB
	mu    sync.Mutex
	calls []V2Call
}

func (c *resourceCaller) Call(_ context.Context, call V2Call) (*V2Answer, error) {
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
	case call.Method == "DELETE":
		return ok(204, "")
	case call.Path == "/v2/network-volumes" && call.Method == "POST":
		return ok(201, v2Volume("vol1", 100))
	case strings.HasPrefix(call.Path, "/v2/network-volumes/"):
		return ok(200, v2Volume("vol1", 100))
	case call.Path == "/v2/registries" && call.Method == "POST":
		return ok(201, `{"id":"r","name":"n"}`)
	case call.Path == "/v2/billing/pods":
		return ok(200, podBilling(billRec{day: 1, id: "p1", amount: 1}, billRec{day: 1, id: "gone", amount: 2}))
	case call.Path == "/v2/billing/serverless":
		return ok(200, serverlessBilling(billRec{day: 1, id: "e", amount: 1}))
	case call.Path == "/v2/billing/network-volumes":
		return ok(200, volumeBilling(billRec{day: 1, id: "v", amount: 1, hp: 0.5}))
	case call.Path == "/v2/pods":
		return ok(200, podList(pod("p1")))
	}
	c.t.Fatalf("unexpected call %s %s", call.Method, target)
	return nil, nil
}

func checkResourceFuzz(t *testing.T, op *Operation, params map[string]string, res *Result, input any) {
	t.Helper()
	switch {
	case res.Status >= 500:
		t.Fatalf("%d for %q: %s", res.Status, input, res.Body)
	case res.Status >= 400:
		if len(message(t, res)) == 0 {
			t.Fatalf("%d without a message for %q", res.Status, input)
		}
	default:
		v1, _ := loadSpecs(t)
		if v1 == nil || res.Status == 204 {
			return
		}
		path := "/v1" + op.Path
		for k, v := range params {
			path = strings.ReplaceAll(path, "{"+k+"}", url.PathEscape(v))
		}
		if err := v1.ValidateResponse(op.Method, path, res.Status, http.Header{"Content-Type": {"application/json"}}, res.Body); err != nil {
			t.Fatalf("answer to %q breaks the v1 contract: %v\n%s", input, err, res.Body)
		}
	}
}

func FuzzNetworkVolumeCreateBody(f *testing.F) {
	for _, s := range []string{`{"name":"d","size":100,"dataCenterId":"EU-RO-1"}`, `{"name":"d","size":4096,"dataCenterId":"x","type":"STANDARD"}`,
		`{"name":"","size":9,"dataCenterId":""}`, `{"size":1e3}`, `{"size":10.5}`, `{}`, `[]`, `{"name":`, ``, `null`} {
		f.Add([]byte(s))
	}
	op := mustOp(f, "CreateNetworkVolume")
	f.Fuzz(func(t *testing.T, body []byte) {
		c := &resourceCaller{t: t}
		res := op.Plan(context.Background(), &Request{Op: op, Body: body}, c)
		checkResourceFuzz(t, op, nil, res, body)
		if res.Status == 200 && len(c.calls) != 1 {
			t.Fatalf("%d calls", len(c.calls))
		}
	})
}

func FuzzNetworkVolumeUpdateBody(f *testing.F) {
	for _, s := range []string{`{"name":"n"}`, `{"size":200}`, `{"size":100}`, `{"size":50}`, `{}`, `{"size":null,"name":null}`,
		`{"name":"","size":0}`, `{"x":1}`, `[`, ``} {
		f.Add([]byte(s), "vol1", false)
	}
	f.Add([]byte(`{"name":"n"}`), "a/b", true)
	f.Add([]byte(`{"name":"n"}`), "..", false)
	f.Fuzz(func(t *testing.T, body []byte, id string, viaPost bool) {
		op := mustOp(t, "UpdateNetworkVolume")
		if viaPost {
			op = mustOp(t, "UpdateNetworkVolumeViaPost")
		}
		params := map[string]string{"networkVolumeId": id}
		c := &resourceCaller{t: t}
		res := op.Plan(context.Background(), &Request{Op: op, Params: params, Body: body}, c)
		checkResourceFuzz(t, op, params, res, body)
		for _, call := range c.calls {
			if call.Method == "PATCH" && strings.TrimSpace(string(call.Body)) == "{}" {
				t.Fatalf("empty PATCH for %q", body)
			}
		}
	})
}

func FuzzRegistryCreateBody(f *testing.F) {
	for _, s := range []string{`{"name":"a","username":"b","password":"c"}`, `{"name":"","username":1}`, `{}`, `"x"`, ``} {
		f.Add([]byte(s))
	}
	op := mustOp(f, "CreateContainerRegistryAuth")
	f.Fuzz(func(t *testing.T, body []byte) {
		res := op.Plan(context.Background(), &Request{Op: op, Body: body}, &resourceCaller{t: t})
		checkResourceFuzz(t, op, nil, res, body)
	})
}

func FuzzBillingQuery(f *testing.F) {
	for _, s := range []string{"", "grouping=podId&podId=p1", "gpuTypeId=NVIDIA%20A40", "bucketSize=week&startTime=2026-06-01T00:00:00Z&endTime=2026-06-30T23:59:59.5%2B02:00",
		"grouping=gpuTypeId&dataCenterId=EU-RO-1,CA-MTL-1&imageName=x&templateId=y&endpointId=e", "startTime=%00", "bucketSize=day&bucketSize=day"} {
		f.Add(s, uint8(0), false)
	}
	names := []string{"PodBilling", "EndpointBilling", "NetworkVolumeBilling"}
	f.Fuzz(func(t *testing.T, query string, which uint8, lenient bool) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		op := mustOp(t, names[int(which)%len(names)])
		res := op.Plan(context.Background(), &Request{Op: op, Query: q, Options: Options{Lenient: lenient}}, &resourceCaller{t: t})
		checkResourceFuzz(t, op, nil, res, query)
	})
}
