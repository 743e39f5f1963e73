package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/podjson"
)

// ---------------------------------------------------------------------------
// Fixtures and helpers

var testNow = time.Date(2026, 3, 13, 20, 0, 30, 0, time.UTC)

// v2PodFixture returns a valid v2 Pod (GPU, RUNNING, persistent mount) as a
// map, for tests to modify.
func v2PodFixture(id string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(`{
		"id":"`+id+`","name":"my pod","status":"RUNNING","actions":["stop","restart","terminate"],
		"image":"runpod/pytorch:2","args":"python -m http.server 'a b'","disk":50,
		"mounts":{"persistent":{"size":20,"path":"/workspace"}},
		"ports":["8888/http","22/tcp"],"env":{"A":"1"},"registry":null,"cloud":"SECURE",
		"dataCenterId":"US-TX-3","cudaVersion":"12.8","ssh":{"proxy":null,"direct":null},
		"template":null,"cost":0.74,"locked":false,
		"runtime":{"uptime":10,"ports":[
			{"private":8888,"public":null,"type":"http","ip":null},
			{"private":22,"public":10341,"type":"tcp","ip":"100.65.0.119"}]},
		"createdAt":"2026-03-13T20:00:00Z","startedAt":"2026-03-13T20:01:00Z",
		"globalNetworking":{"enabled":false},"gpu":{"id":"NVIDIA A40","count":1}}`), &m); err != nil {
		panic(err)
	}
	return m
}

// pod encodes a v2 pod fixture after applying mods.
func pod(id string, mods ...func(m map[string]any)) string {
	m := v2PodFixture(id)
	for _, f := range mods {
		f(m)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func set(k string, v any) func(map[string]any) {
	return func(m map[string]any) {
		if v == nil {
			m[k] = nil
			return
		}
		var x any
		if s, ok := v.(string); ok && (strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")) {
			if json.Unmarshal([]byte(s), &x) == nil {
				m[k] = x
				return
			}
		}
		m[k] = v
	}
}

// cpuPod turns the fixture into a CPU pod.
func cpuPod(m map[string]any) {
	delete(m, "gpu")
	m["cpu"] = map[string]any{"id": "cpu3c", "vcpuCount": 4, "memory": 8}
	m["mounts"] = map[string]any{}
	m["cudaVersion"] = nil
}

func podList(pods ...string) string { return `{"pods":[` + strings.Join(pods, ",") + `]}` }

func mustOp(t testing.TB, name string) *Operation {
	t.Helper()
	op, ok := Lookup(name)
	if !ok || op.Plan == nil {
		t.Fatalf("operation %s has no plan", name)
	}
	return op
}

type runOpts struct {
	params  map[string]string
	query   string
	body    string
	options Options
	ctx     context.Context
	facts   Facts // Request.Facts (facts_test.go)
}

// run performs operation name against a scripted caller and checks that
// every scripted call was made.
func run(t *testing.T, name string, o runOpts, script ...step) (*Result, *fakeCaller) {
	t.Helper()
	op := mustOp(t, name)
	f := newFake(t, script...)
	q, err := url.ParseQuery(o.query)
	if err != nil {
		t.Fatal(err)
	}
	if o.options.Now == nil {
		o.options.Now = func() time.Time { return testNow }
	}
	ctx := o.ctx
	if ctx == nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
	}
	res := op.Plan(ctx, &Request{Op: op, Params: o.params, Query: q, Body: []byte(o.body), Options: o.options, Facts: o.facts}, f)
	if res == nil {
		t.Fatal("plan returned nil")
	}
	f.done()
	checkV1Answer(t, op, o.params, res)
	return res, f
}

// checkV1Answer validates a v1 answer: 2xx bodies against the v1 contract
// (start/stop/restart/reset: against the Pod schema, since v1 documented no
// body there), errors as {"message"}.
func checkV1Answer(t *testing.T, op *Operation, params map[string]string, res *Result) {
	t.Helper()
	if res.Status >= 400 {
		var e struct {
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(res.Body, &e); err != nil || e.Message == nil || *e.Message == "" {
			t.Errorf("error answer %d is not a v1 {\"message\"}: %s", res.Status, res.Body)
		}
		return
	}
	v1, _ := loadSpecs(t)
	if v1 == nil {
		return
	}
	if op.Kind == KindAction {
		if err := v1.ValidateSchema("#/components/schemas/Pod", res.Body); err != nil && len(res.Body) > 0 {
			t.Errorf("%s answer is not a v1 Pod: %v\n%s", op.Name, err, res.Body)
		}
		return
	}
	path := "/v1" + op.Path
	path = strings.ReplaceAll(path, "{podId}", url.PathEscape(params["podId"]))
	h := http.Header{}
	if res.Body != nil {
		h.Set("Content-Type", "application/json")
	}
	if err := v1.ValidateResponse(op.Method, path, res.Status, h, res.Body); err != nil {
		t.Errorf("%s answer breaks the v1 contract: %v\n%s", op.Name, err, res.Body)
	}
}

// jsonEqual compares two JSON documents semantically.
func jsonEqual(t *testing.T, what string, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: invalid JSON %q: %v", what, got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: invalid wanted JSON %q: %v", what, want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, got, want)
	}
}

func decodeV1(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("answer %q: %v", body, err)
	}
	return m
}

func message(t *testing.T, res *Result) string {
	t.Helper()
	var e V1Error
	if err := json.Unmarshal(res.Body, &e); err != nil {
		t.Fatalf("not an error body: %q", res.Body)
	}
	return e.Message
}

func wantStatus(t *testing.T, res *Result, status int) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status %d, want %d; body %s", res.Status, status, res.Body)
	}
}

func wantMessage(t *testing.T, res *Result, parts ...string) {
	t.Helper()
	msg := message(t, res)
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message %q should contain %q", msg, p)
		}
	}
}

// withSleep replaces Sleep for the test, recording the waits.
func withSleep(t *testing.T) *[]time.Duration {
	var waits []time.Duration
	old := Sleep
	Sleep = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	}
	t.Cleanup(func() { Sleep = old })
	return &waits
}

const preList = `{"pods":[]}`

// steps shared by create tests.
func listStep(body string) step {
	return step{method: "GET", path: "/v2/pods", status: 200, body: body}
}

// lookupStep is the pod list read after a lost create reply, answered at
// testNow on v2's clock (its Date header).
func lookupStep(body string) step {
	return lookupAt(body, testNow)
}

// lookupAt is lookupStep with v2's clock at v2now (Date header).
func lookupAt(body string, v2now time.Time) step {
	s := listStep(body)
	s.header = http.Header{"Date": {v2now.UTC().Format(http.TimeFormat)}}
	return s
}
func createStep(body string) step {
	return step{method: "POST", path: "/v2/pods", status: 201, body: body}
}
func createFail(status int, detail string) step {
	return step{method: "POST", path: "/v2/pods", status: status, body: problem(status, detail)}
}

// newPod is the v2 answer to a create: PROVISIONING, no runtime yet.
func newPod(id string, mods ...func(map[string]any)) string {
	base := []func(map[string]any){
		set("status", "PROVISIONING"), set("actions", `["stop","terminate"]`), set("runtime", nil),
		set("startedAt", nil), set("dataCenterId", nil), set("cost", 0.0), set("createdAt", "2026-03-13T20:00:30Z"),
		set("args", ""), set("env", `{}`), set("cudaVersion", nil),
	}
	return pod(id, append(base, mods...)...)
}

// ---------------------------------------------------------------------------
// #3 CreatePod: request body mapping (one candidate, no faults)

func TestCreatePodBodyMapping(t *testing.T) {
	volume := `{"id":"vol1","name":"data","size":100,"dataCenter":"EU-RO-1","type":"STANDARD"}`
	template := `{"id":"tpl1","name":"t","image":"img:t","args":"","disk":30,"mounts":{"persistent":{"size":40,"path":"/data"}},"ports":["80/http"],"env":{},"registry":null,"serverless":false,"public":false,"category":"NVIDIA","startSsh":true,"startJupyter":false,"allowedCudaVersions":[]}`
	noMountTemplate := strings.Replace(template, `"mounts":{"persistent":{"size":40,"path":"/data"}}`, `"mounts":{}`, 1)
	tests := []struct {
		name    string
		body    string
		pre     []step // calls before the create
		want    string // v2 create body
		dropped []string
		warn    string
	}{
		{
			name: "v1 defaults sent explicitly",
			body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"]}`,
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE",
				"gpu":{"id":"NVIDIA A40","count":1},"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`,
		},
		{
			name: "every translatable field",
			body: `{"name":"trainer","imageName":"img:1","gpuTypeIds":["NVIDIA L4"],"gpuCount":2,"allowedCudaVersions":["12.8","12.4"],
				"cloudType":"COMMUNITY","dataCenterIds":["EU-RO-1","US-TX-3"],"containerDiskInGb":80,"containerRegistryAuthId":"reg1",
				"dockerStartCmd":["python","-c","print('hi there')"],"env":{"K":"v"},"ports":["80/http"],
				"volumeInGb":100,"volumeMountPath":"/data","globalNetworking":true}`,
			want: `{"name":"trainer","image":"img:1","args":"python -c 'print('\\''hi there'\\'')'","disk":80,"env":{"K":"v"},"ports":["80/http"],
				"registry":"reg1","cloud":"COMMUNITY","dataCenterIds":["EU-RO-1","US-TX-3"],
				"gpu":{"id":"NVIDIA L4","count":2,"allowedCudaVersions":["12.8","12.4"]},
				"mounts":{"persistent":{"size":100,"path":"/data"}},"globalNetworking":true,"startSsh":true}`,
		},
		{
			name: "v1 defaults and empty values of untranslatable fields are accepted silently",
			body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"dockerEntrypoint":[],"interruptible":false,"minRAMPerGPU":8,
				"minVCPUPerGPU":2,"minDiskBandwidthMBps":0,"minDownloadMbps":0,"minUploadMbps":0,"supportPublicIp":true,
				"countryCodes":[],"gpuTypePriority":"availability","dataCenterPriority":"custom","cpuFlavorIds":["cpu3c"],"vcpuCount":3,
				"dockerStartCmd":[],"env":{},"locked":false,"templateId":null,"containerDiskInGb":null}`,
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE",
				"gpu":{"id":"NVIDIA A40","count":1},"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`,
		},
		{
			name: "ports in the string form of v1's own default",
			body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"ports":"8888/http, 22/tcp","volumeInGb":0}`,
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE","gpu":{"id":"NVIDIA A40","count":1},"startSsh":true}`,
		},
		{
			name: "volumeInGb null means no volume",
			body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"volumeInGb":null,"ports":[]}`,
			want: `{"name":"my pod","image":"img","disk":50,"ports":[],"cloud":"SECURE","gpu":{"id":"NVIDIA A40","count":1},"startSsh":true}`,
		},
		{
			name: "templateId: only the client's own fields",
			body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"],"env":{"X":"y"}}`,
			want: `{"name":"my pod","templateId":"tpl1","env":{"X":"y"},"gpu":{"id":"NVIDIA A40","count":1},"startSsh":true}`,
		},
		{
			name: "templateId with a full pod volume",
			body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"],"volumeInGb":60,"volumeMountPath":"/w","imageName":"img:2","cloudType":"SECURE"}`,
			want: `{"name":"my pod","templateId":"tpl1","image":"img:2","cloud":"SECURE","gpu":{"id":"NVIDIA A40","count":1},
				"mounts":{"persistent":{"size":60,"path":"/w"}},"startSsh":true}`,
		},
		{
			name: "templateId with volumeInGb only: the template supplies the path",
			body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"],"volumeInGb":60}`,
			pre:  []step{{method: "GET", path: "/v2/templates/tpl1", status: 200, body: template}},
			want: `{"name":"my pod","templateId":"tpl1","gpu":{"id":"NVIDIA A40","count":1},"mounts":{"persistent":{"size":60,"path":"/data"}},"startSsh":true}`,
		},
		{
			name: "templateId with volumeMountPath only and a template without volume: v1 default size",
			body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"],"volumeMountPath":"/w"}`,
			pre:  []step{{method: "GET", path: "/v2/templates/tpl1", status: 200, body: noMountTemplate}},
			want: `{"name":"my pod","templateId":"tpl1","gpu":{"id":"NVIDIA A40","count":1},"mounts":{"persistent":{"size":20,"path":"/w"}},"startSsh":true}`,
		},
		{
			name: "templateId with volumeInGb 0 and a template without volume",
			body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"],"volumeInGb":0}`,
			pre:  []step{{method: "GET", path: "/v2/templates/tpl1", status: 200, body: noMountTemplate}},
			want: `{"name":"my pod","templateId":"tpl1","gpu":{"id":"NVIDIA A40","count":1},"startSsh":true}`,
		},
		{
			name: "CPU pod: cpu block, default vCPUs, the default volume dropped",
			body: `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu5c"],"gpuTypeIds":["NVIDIA A40"],"gpuCount":4,"minRAMPerGPU":64}`,
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE","cpu":{"id":"cpu5c","vcpuCount":2},"startSsh":true}`,
		},
		{
			name: "CPU pod with a network volume",
			body: `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu5c"],"vcpuCount":8,"networkVolumeId":"vol1","volumeMountPath":"/vol"}`,
			pre:  []step{{method: "GET", path: "/v2/network-volumes/vol1", status: 200, body: volume}},
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE","dataCenterIds":["EU-RO-1"],
				"cpu":{"id":"cpu5c","vcpuCount":8},"mounts":{"network":[{"volumeId":"vol1","path":"/vol"}]},"startSsh":true}`,
		},
		{
			name: "network volume replaces the pod volume and pins the data center",
			body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"networkVolumeId":"vol1","volumeInGb":50,"dataCenterIds":["US-TX-3","EU-RO-1"]}`,
			pre:  []step{{method: "GET", path: "/v2/network-volumes/vol1", status: 200, body: volume}},
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE","dataCenterIds":["EU-RO-1"],
				"gpu":{"id":"NVIDIA A40","count":1},"mounts":{"network":[{"volumeId":"vol1","path":"/workspace"}]},"startSsh":true}`,
		},
		{
			name:    "lenient mode drops untranslatable fields and says so",
			body:    `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"dockerEntrypoint":["/bin/sh"],"interruptible":true,"minUploadMbps":100,"cloudType":"COMMUNITY","supportPublicIp":true}`,
			want:    `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"COMMUNITY","gpu":{"id":"NVIDIA A40","count":1},"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`,
			dropped: []string{"dockerEntrypoint", "interruptible", "minUploadMbps", "supportPublicIp"},
		},
		{
			name: "unknown fields are ignored with a warning",
			body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"gpuTypeId":"x","bogus":1}`,
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE","gpu":{"id":"NVIDIA A40","count":1},"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`,
			warn: "bogus, gpuTypeId",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			script := append(append([]step{}, tc.pre...), createStep(newPod("p1")))
			res, f := run(t, "CreatePod", runOpts{body: tc.body, options: Options{Lenient: tc.dropped != nil}}, script...)
			wantStatus(t, res, 201)
			bodies := f.bodies("POST", "/v2/pods")
			if len(bodies) != 1 {
				t.Fatalf("%d creates, want 1", len(bodies))
			}
			jsonEqual(t, "v2 create body", []byte(bodies[0]), tc.want)
			if !reflect.DeepEqual(res.Dropped, tc.dropped) {
				t.Errorf("Dropped %v, want %v", res.Dropped, tc.dropped)
			}
			if tc.warn != "" && (len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], tc.warn)) {
				t.Errorf("Warnings %q, want one naming %s", res.Warnings, tc.warn)
			}
			if tc.warn == "" && len(res.Warnings) > 0 {
				t.Errorf("unexpected warnings %q", res.Warnings)
			}
			if strings.Contains(tc.body, "templateId\":\"tpl1") {
				if got := decodeV1(t, res.Body)["templateId"]; got != "tpl1" {
					t.Errorf("templateId %v, want tpl1 echoed from the request", got)
				}
			}
		})
	}
}

// ---------------------------------------------------------------------------
// #3 CreatePod: rejected before any v2 call

func TestCreatePodRejects(t *testing.T) {
	long := strings.Repeat("é", 192)
	gpu := `"imageName":"img","gpuTypeIds":["NVIDIA A40"]`
	tests := []struct {
		name, body string
		parts      []string
	}{
		{"empty body", ``, []string{"request body is required"}},
		{"malformed JSON", `{"imageName":`, []string{"not valid JSON"}},
		{"trailing garbage", `{"imageName":"x"} x`, []string{"not valid JSON"}},
		{"array body", `[1]`, []string{"must be a JSON object"}},
		{"null body", `null`, []string{"must be a JSON object"}},
		{"not JSON at all", `hello`, []string{"not valid JSON"}},
		{"no imageName", `{"gpuTypeIds":["NVIDIA A40"]}`, []string{"imageName: is required unless templateId"}},
		{"unknown GPU type", `{"imageName":"img","gpuTypeIds":["NVIDIA A40","RTX 9999"]}`, []string{"gpuTypeIds", "RTX 9999"}},
		{"unknown CPU flavor", `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu9x"]}`, []string{"cpuFlavorIds", "cpu9x"}},
		{"unknown cloud", `{` + gpu + `,"cloudType":"secure"}`, []string{"cloudType", `"secure" is not one of COMMUNITY, SECURE`}},
		{"unknown compute type", `{` + gpu + `,"computeType":"TPU"}`, []string{"computeType"}},
		{"unknown priority", `{` + gpu + `,"gpuTypePriority":"cheapest"}`, []string{"gpuTypePriority"}},
		{"unknown data center", `{` + gpu + `,"dataCenterIds":["MARS-1"]}`, []string{"dataCenterIds", "MARS-1"}},
		{"unknown CUDA version", `{` + gpu + `,"allowedCudaVersions":["10.0"]}`, []string{"allowedCudaVersions"}},
		{"name too long", `{` + gpu + `,"name":"` + long + `"}`, []string{"name: must be at most 191 characters, got 192"}},
		{"name not a string", `{` + gpu + `,"name":5}`, []string{"name: must be a string, got a number"}},
		{"gpuCount as string", `{` + gpu + `,"gpuCount":"2"}`, []string{"gpuCount: must be an integer, got a string"}},
		{"gpuCount fractional", `{` + gpu + `,"gpuCount":1.5}`, []string{"gpuCount: must be an integer, got 1.5"}},
		{"gpuCount zero", `{` + gpu + `,"gpuCount":0}`, []string{"gpuCount: must be at least 1"}},
		{"volume below the v2 minimum", `{` + gpu + `,"volumeInGb":5}`, []string{"volumeInGb", "at least 10 GB"}},
		{"negative volume", `{` + gpu + `,"volumeInGb":-1}`, []string{"volumeInGb: must not be negative"}},
		{"disk zero", `{` + gpu + `,"containerDiskInGb":0}`, []string{"containerDiskInGb: must be at least 1"}},
		{"vCPUs not a power of two", `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu3c"],"vcpuCount":6}`, []string{"vcpuCount", "power of two"}},
		{"vCPUs too few", `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu3c"],"vcpuCount":1}`, []string{"vcpuCount"}},
		{"env with a number", `{` + gpu + `,"env":{"A":"x","B":2}}`, []string{"env.B: must be a string, got a number"}},
		{"env as array", `{` + gpu + `,"env":["A=1"]}`, []string{"env: must be an object of strings"}},
		{"ports with a number", `{` + gpu + `,"ports":[22]}`, []string{"ports: element 0 must be a string"}},
		{"dockerStartCmd as string", `{` + gpu + `,"dockerStartCmd":"python app.py"}`, []string{"dockerStartCmd: must be an array of strings"}},
		{"locked as string", `{` + gpu + `,"locked":"true"}`, []string{"locked: must be a boolean, got a string"}},
		{"bad country code", `{` + gpu + `,"countryCodes":["France"]}`, []string{"countryCodes", "France"}},
		{"several problems at once", `{"gpuTypeIds":["x"],"gpuCount":0,"name":7}`, []string{"gpuTypeIds", "gpuCount", "name", "imageName"}},
		// P1: untranslatable fields, strict mode.
		{"dockerEntrypoint", `{` + gpu + `,"dockerEntrypoint":["/bin/sh","-c"]}`, []string{"dockerEntrypoint: v2 has no entrypoint override", "V1GW_COMPAT_MODE=lenient"}},
		{"interruptible", `{` + gpu + `,"interruptible":true}`, []string{"interruptible: v2 has no interruptible (spot) pods"}},
		{"minRAMPerGPU", `{` + gpu + `,"minRAMPerGPU":16}`, []string{"minRAMPerGPU"}},
		{"minVCPUPerGPU", `{` + gpu + `,"minVCPUPerGPU":4}`, []string{"minVCPUPerGPU"}},
		{"minDiskBandwidthMBps", `{` + gpu + `,"minDiskBandwidthMBps":500}`, []string{"minDiskBandwidthMBps"}},
		{"minDownloadMbps", `{` + gpu + `,"minDownloadMbps":100}`, []string{"minDownloadMbps"}},
		{"supportPublicIp on COMMUNITY", `{` + gpu + `,"cloudType":"COMMUNITY","supportPublicIp":true}`, []string{"supportPublicIp: v2 cannot guarantee a public IP"}},
		{"countryCodes on a CPU pod", `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu3c"],"countryCodes":["FR"]}`, []string{"countryCodes: v2 cannot place a CPU pod by country"}},
		{"pod volume on a CPU pod", `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu3c"],"volumeInGb":30}`, []string{"volumeInGb: v2 CPU pods cannot have a pod volume"}},
		{"every untranslatable field named", `{` + gpu + `,"dockerEntrypoint":["x"],"interruptible":true,"minUploadMbps":1}`, []string{"dockerEntrypoint:", "interruptible:", "minUploadMbps:"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "CreatePod", runOpts{body: tc.body})
			wantStatus(t, res, 400)
			wantMessage(t, res, tc.parts...)
			if len(f.calls) != 0 {
				t.Errorf("%d v2 calls made, want none", len(f.calls))
			}
		})
	}
}

// ---------------------------------------------------------------------------
// #3 CreatePod: candidates (P3), faults, lock (P4)

const gpuCatalog = `{"gpus":[
	{"id":"NVIDIA A40","name":"A40","pool":"AMPERE_48","manufacturer":"NVIDIA","memory":48,"secure":true,"community":true,
	 "price":{"secure":0.44,"community":0.35},"maxCount":{"secure":8,"community":4},"availability":"LOW",
	 "dataCenters":[{"id":"EU-RO-1","name":"Romania 1","availability":"LOW"},{"id":"EU-FR-1","name":"France 1","availability":"LOW"}]},
	{"id":"NVIDIA L4","name":"L4","pool":"ADA_24","manufacturer":"NVIDIA","memory":24,"secure":true,"community":false,
	 "price":{"secure":0.39,"community":0},"maxCount":{"secure":8,"community":0},"availability":"HIGH",
	 "dataCenters":[{"id":"EU-FR-1","name":"France 1","availability":"HIGH"}]},
	{"id":"NVIDIA GeForce RTX 4090","name":"RTX 4090","pool":"ADA_24","manufacturer":"NVIDIA","memory":24,"secure":true,"community":true,
	 "price":{"secure":0.69,"community":0.34},"maxCount":{"secure":8,"community":8},"availability":"NONE"}]}`

func TestCreatePodCandidates(t *testing.T) {
	a40, l4, rtx := "NVIDIA A40", "NVIDIA L4", "NVIDIA GeForce RTX 4090"
	body := func(extra string) string {
		return `{"name":"job","imageName":"img","gpuTypeIds":["NVIDIA GeForce RTX 4090","NVIDIA A40","NVIDIA L4","NVIDIA H200"]` + extra + `}`
	}
	catQuery := "cloud=SECURE&count=1&include=AVAILABILITY&product=POD"
	catalog := step{method: "GET", path: "/v2/catalog/gpus", query: catQuery, status: 200, body: gpuCatalog}
	created := createStep(newPod("p1", set("name", "job")))
	gpuOf := func(b string) string {
		var v struct{ GPU struct{ ID string } }
		_ = json.Unmarshal([]byte(b), &v)
		return v.GPU.ID
	}

	t.Run("availability order from the catalog, unknown last", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body("")}, catalog, createFail(400, "no capacity"), createFail(400, "no capacity"), createFail(403, "pool not allowed"), created)
		wantStatus(t, res, 201)
		var got []string
		for _, b := range f.bodies("POST", "/v2/pods") {
			got = append(got, gpuOf(b))
		}
		want := []string{l4, a40, rtx, "NVIDIA H200"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("candidate order %q, want %q", got, want)
		}
	})
	t.Run("custom keeps the client's order and reads no catalog", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body(`,"gpuTypePriority":"custom"`)}, createFail(400, "no capacity"), created)
		wantStatus(t, res, 201)
		if got := gpuOf(f.bodies("POST", "/v2/pods")[1]); got != a40 {
			t.Errorf("second candidate %q, want %q", got, a40)
		}
	})
	t.Run("capacity failure on every candidate", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body(`,"gpuTypePriority":"custom"`)}, createFail(400, "no capacity for A"), createFail(400, "no capacity for B"), createFail(403, "forbidden C"), createFail(400, "no capacity for D"))
		wantStatus(t, res, 400)
		wantMessage(t, res, "none of the 4 candidates", rtx+": no capacity for A", "NVIDIA H200: no capacity for D", "forbidden C")
		if n := f.count("POST", "/v2/pods"); n != 4 {
			t.Errorf("%d creates, want 4", n)
		}
	})
	for _, stop := range []struct {
		status, v1 int
	}{{422, 400}, {402, 400}, {401, 401}, {404, 400}, {409, 400}} {
		t.Run(fmt.Sprintf("%d stops the loop", stop.status), func(t *testing.T) {
			res, f := run(t, "CreatePod", runOpts{body: body(`,"gpuTypePriority":"custom"`)}, createFail(stop.status, "stop here"))
			wantStatus(t, res, stop.v1)
			wantMessage(t, res, "stop here")
			if n := f.count("POST", "/v2/pods"); n != 1 {
				t.Errorf("%d creates, want 1", n)
			}
		})
	}
	t.Run("429 backs off for Retry-After and retries the same candidate", func(t *testing.T) {
		waits := withSleep(t)
		limited := step{method: "POST", path: "/v2/pods", status: 429, body: problem(429, "slow down"), header: http.Header{"Retry-After": {"2"}}}
		res, f := run(t, "CreatePod", runOpts{body: body(`,"gpuTypePriority":"custom"`)}, limited, created)
		wantStatus(t, res, 201)
		if !reflect.DeepEqual(*waits, []time.Duration{2 * time.Second}) {
			t.Errorf("waits %v, want [2s]", *waits)
		}
		b := f.bodies("POST", "/v2/pods")
		if gpuOf(b[0]) != rtx || gpuOf(b[1]) != rtx {
			t.Errorf("retried %q after %q, want the same candidate", gpuOf(b[1]), gpuOf(b[0]))
		}
	})
	t.Run("429 beyond the deadline is returned with Retry-After", func(t *testing.T) {
		waits := withSleep(t)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		limited := step{method: "POST", path: "/v2/pods", status: 429, body: problem(429, "slow down"), header: http.Header{"Retry-After": {"60"}}}
		res, _ := run(t, "CreatePod", runOpts{ctx: ctx, body: body(`,"gpuTypePriority":"custom"`)}, limited)
		wantStatus(t, res, 429)
		if res.RetryAfter != "60" {
			t.Errorf("Retry-After %q, want 60", res.RetryAfter)
		}
		if len(*waits) != 0 {
			t.Errorf("slept %v", *waits)
		}
	})
	t.Run("429 retries are bounded", func(t *testing.T) {
		withSleep(t)
		limited := step{method: "POST", path: "/v2/pods", status: 429, body: problem(429, "slow down"), header: http.Header{"Retry-After": {"1"}}}
		res, f := run(t, "CreatePod", runOpts{body: body(`,"gpuTypePriority":"custom"`)}, limited, limited, limited, limited)
		wantStatus(t, res, 429)
		if n := f.count("POST", "/v2/pods"); n != 4 {
			t.Errorf("%d creates, want 4 (3 retries)", n)
		}
	})
	t.Run("catalog failure: client order with a warning", func(t *testing.T) {
		failing := step{method: "GET", path: "/v2/catalog/gpus", query: catQuery, status: 503, body: problem(503, "catalog down")}
		res, f := run(t, "CreatePod", runOpts{body: body("")}, failing, created)
		wantStatus(t, res, 201)
		if gpuOf(f.bodies("POST", "/v2/pods")[0]) != rtx {
			t.Error("first candidate should be the client's first")
		}
		if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "catalog") {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
	t.Run("countryCodes resolved to data centers per GPU type", func(t *testing.T) {
		cat := step{method: "GET", path: "/v2/catalog/gpus", query: "cloud=SECURE&count=1&countryCodes=FR&include=AVAILABILITY&product=POD", status: 200, body: gpuCatalog}
		res, f := run(t, "CreatePod", runOpts{body: body(`,"countryCodes":["fr"]`)}, cat, createFail(400, "no capacity"), created)
		wantStatus(t, res, 201)
		b := f.bodies("POST", "/v2/pods")
		jsonEqual(t, "first create", []byte(b[0]), `{"name":"job","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE",
			"dataCenterIds":["EU-FR-1"],"gpu":{"id":"NVIDIA L4","count":1},"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`)
		jsonEqual(t, "second create", []byte(b[1]), `{"name":"job","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE",
			"dataCenterIds":["EU-RO-1","EU-FR-1"],"gpu":{"id":"NVIDIA A40","count":1},"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`)
	})
	t.Run("countryCodes within dataCenterIds matching nothing", func(t *testing.T) {
		cat := step{method: "GET", path: "/v2/catalog/gpus", query: "cloud=SECURE&count=1&countryCodes=FR&include=AVAILABILITY&product=POD", status: 200, body: gpuCatalog}
		res, _ := run(t, "CreatePod", runOpts{body: body(`,"countryCodes":["FR"],"dataCenterIds":["US-TX-3"]`)}, cat)
		wantStatus(t, res, 400)
		wantMessage(t, res, "countryCodes", "FR", "US-TX-3")
	})
	t.Run("countryCodes with the catalog down fails", func(t *testing.T) {
		cat := step{method: "GET", path: "/v2/catalog/gpus", query: "*", status: 500, body: problem(500, "boom")}
		res, f := run(t, "CreatePod", runOpts{body: body(`,"countryCodes":["FR"]`)}, cat)
		wantStatus(t, res, 502)
		wantMessage(t, res, "countryCodes")
		if f.count("POST", "/v2/pods") != 0 {
			t.Error("created without resolving countryCodes")
		}
	})
	t.Run("CPU candidates ranked by the CPU catalog", func(t *testing.T) {
		cpuCat := `{"cpus":[
			{"id":"cpu3c","name":"Compute","group":"Gen 3","vcpu":{"min":2,"max":32},"ramGbPerVcpu":2,"price":{"securePerVcpu":0.03,"serverlessPerVcpu":0.02},"availability":"LOW"},
			{"id":"cpu5c","name":"Compute","group":"Gen 5","vcpu":{"min":2,"max":32},"ramGbPerVcpu":2,"price":{"securePerVcpu":0.04,"serverlessPerVcpu":0.03},"availability":"MEDIUM"}]}`
		cat := step{method: "GET", path: "/v2/catalog/cpus", query: "include=AVAILABILITY&product=POD&vcpuCount=4", status: 200, body: cpuCat}
		res, f := run(t, "CreatePod", runOpts{body: `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu3c","cpu5c"],"vcpuCount":4}`},
			cat, createStep(newPod("p1", cpuPod)))
		wantStatus(t, res, 201)
		if b := f.bodies("POST", "/v2/pods")[0]; !strings.Contains(b, `"cpu":{"id":"cpu5c","vcpuCount":4}`) {
			t.Errorf("first CPU candidate: %s", b)
		}
		m := decodeV1(t, res.Body)
		if m["cpuFlavorId"] != "cpu3c" || m["vcpuCount"] != 4.0 || m["memoryInGb"] != 8.0 || m["gpu"] != nil {
			t.Errorf("CPU pod answer %s", res.Body)
		}
	})
	t.Run("duplicate candidates are tried once", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40","NVIDIA A40"]}`}, createFail(400, "no"))
		wantStatus(t, res, 400)
		if n := f.count("POST", "/v2/pods"); n != 1 {
			t.Errorf("%d creates", n)
		}
	})
}

func TestCreatePodLostReply(t *testing.T) {
	body := `{"name":"job","imageName":"img","gpuTypeIds":["NVIDIA A40","NVIDIA L4"],"gpuTypePriority":"custom"}`
	mine := newPod("p-new", set("name", "job"))
	old := pod("p-old", set("name", "job"))          // same name, existed before
	other := newPod("p-other", set("name", "other")) // created meanwhile, another name
	otherGPU := newPod("p-l4", set("name", "job"), set("gpu", `{"id":"NVIDIA L4","count":1}`))

	t.Run("5xx with the pod created: exactly one create, 201 and a warning", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body},
			createFail(500, "internal"), lookupStep(podList(old, other, otherGPU, mine)))
		wantStatus(t, res, 201)
		if n := f.count("POST", "/v2/pods"); n != 1 {
			t.Fatalf("%d creates, want exactly 1", n)
		}
		if decodeV1(t, res.Body)["id"] != "p-new" {
			t.Errorf("answer %s, want pod p-new", res.Body)
		}
		if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "reply to the create was lost") {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
	t.Run("timeout with no pod found: 504, no second create", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body},
			step{method: "POST", path: "/v2/pods", err: context.DeadlineExceeded}, lookupStep(podList(old)))
		wantStatus(t, res, 504)
		wantMessage(t, res, `"job"`, "may or may not have been created", "GET /v1/pods?name=job")
		if n := f.count("POST", "/v2/pods"); n != 1 {
			t.Fatalf("%d creates, want exactly 1", n)
		}
	})
	t.Run("connection lost and the check fails: 502", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body},
			step{method: "POST", path: "/v2/pods", err: errors.New("connection reset")},
			step{method: "GET", path: "/v2/pods", status: 503, body: problem(503, "unavailable")})
		wantStatus(t, res, 502)
		wantMessage(t, res, "may or may not have been created", "looking for it failed")
		if n := f.count("POST", "/v2/pods"); n != 1 {
			t.Fatalf("%d creates", n)
		}
	})
	t.Run("two candidate pods appeared: ambiguous, 502", func(t *testing.T) {
		mine2 := newPod("p-new2", set("name", "job"))
		res, _ := run(t, "CreatePod", runOpts{body: body}, createFail(502, "bad gateway"), lookupStep(podList(mine, mine2)))
		wantStatus(t, res, 502)
		wantMessage(t, res, "p-new", "p-new2", "cannot tell")
	})
	t.Run("a create reads no pod list before it is sent", func(t *testing.T) {
		// The create costs the same for an account of 10 pods or 10,000:
		// the script has no GET /v2/pods before the POST.
		res, f := run(t, "CreatePod", runOpts{body: body}, createStep(mine))
		wantStatus(t, res, 201)
		if n := f.count("GET", "/v2/pods"); n != 0 {
			t.Fatalf("%d pod lists read for a create that succeeded, want none", n)
		}
	})
	at := func(d time.Duration) string { return testNow.Add(d).UTC().Format(time.RFC3339) }
	windows := []struct {
		name   string
		skew   time.Duration // v2's clock minus the gateway's
		pods   []string
		status int
		want   string // the pod answered, or a message part
	}{
		{"a same-named pod two seconds older than the request is not taken", 0,
			[]string{newPod("p-before", set("name", "job"), set("createdAt", at(-2*time.Second)))}, 502, "not listed yet"},
		{"a pod stamped in the request's own second is taken", 0,
			[]string{newPod("p-same", set("name", "job"), set("createdAt", at(0)))}, 201, "p-same"},
		{"v2's clock ten minutes ahead: its Date header places the window", 10 * time.Minute,
			[]string{newPod("p-older", set("name", "job"), set("createdAt", at(10*time.Minute-10*time.Second))),
				newPod("p-ahead", set("name", "job"), set("createdAt", at(10*time.Minute+time.Second)))}, 201, "p-ahead"},
		{"v2's clock ten minutes behind: its pod is still recognised", -10 * time.Minute,
			[]string{newPod("p-behind", set("name", "job"), set("createdAt", at(-10*time.Minute)))}, 201, "p-behind"},
		{"v2's clock ahead: two pods inside the window are never guessed between", 10 * time.Minute,
			[]string{newPod("p-a", set("name", "job"), set("createdAt", at(10*time.Minute))),
				newPod("p-b", set("name", "job"), set("createdAt", at(10*time.Minute+time.Second)))}, 502, "cannot tell"},
	}
	for _, tc := range windows {
		t.Run(tc.name, func(t *testing.T) {
			lookup := lookupAt(podList(tc.pods...), testNow.Add(tc.skew))
			res, f := run(t, "CreatePod", runOpts{body: body}, createFail(503, "unavailable"), lookup)
			wantStatus(t, res, tc.status)
			if n := f.count("POST", "/v2/pods"); n != 1 {
				t.Fatalf("%d creates, want exactly 1", n)
			}
			if tc.status == 201 {
				if id := decodeV1(t, res.Body)["id"]; id != tc.want {
					t.Errorf("answered pod %v, want %s", id, tc.want)
				}
			} else {
				wantMessage(t, res, tc.want)
			}
		})
	}
	t.Run("no Date header: v2's clock is unknown and createClockSkew is allowed", func(t *testing.T) {
		stale := pod("p-stale", set("name", "job"), set("createdAt", "2026-03-13T19:00:00Z"))
		recent := newPod("p-recent", set("name", "job"), set("createdAt", at(-time.Minute)))
		res, _ := run(t, "CreatePod", runOpts{body: body}, createFail(503, "unavailable"), listStep(podList(stale, recent)))
		wantStatus(t, res, 201)
		if decodeV1(t, res.Body)["id"] != "p-recent" {
			t.Errorf("answer %s", res.Body)
		}
	})
	t.Run("expired request deadline: the check still runs within the grace period", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		res, f := run(t, "CreatePod", runOpts{ctx: ctx, body: body}, step{method: "POST", path: "/v2/pods", err: context.DeadlineExceeded, hook: func(V2Call) { cancel() }},
			lookupStep(podList(mine)))
		wantStatus(t, res, 201)
		if n := f.count("POST", "/v2/pods"); n != 1 {
			t.Fatalf("%d creates", n)
		}
	})
	t.Run("breaker open: nothing was sent, 503 without a check", func(t *testing.T) {
		res, _ := run(t, "CreatePod", runOpts{body: body}, step{method: "POST", path: "/v2/pods", err: unavailableErr{}})
		wantStatus(t, res, 503)
	})
}

type unavailableErr struct{}

func (unavailableErr) Error() string     { return "circuit breaker is open" }
func (unavailableErr) Unavailable() bool { return true }

func TestCreatePodLock(t *testing.T) {
	body := `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"locked":true}`
	patch := func(status int, b string) step {
		return step{method: "PATCH", path: "/v2/pods/p1", status: status, body: b}
	}
	t.Run("locked after create", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body}, createStep(newPod("p1")), patch(200, newPod("p1", set("locked", true))))
		wantStatus(t, res, 201)
		jsonEqual(t, "lock body", []byte(f.bodies("PATCH", "/v2/pods/p1")[0]), `{"locked":true}`)
		if decodeV1(t, res.Body)["locked"] != true {
			t.Errorf("answer %s should be locked", res.Body)
		}
	})
	t.Run("lock retried once", func(t *testing.T) {
		res, _ := run(t, "CreatePod", runOpts{body: body}, createStep(newPod("p1")),
			patch(500, problem(500, "boom")), patch(200, newPod("p1", set("locked", true))))
		wantStatus(t, res, 201)
		if len(res.Warnings) != 0 {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
	t.Run("lock failure: 201 with the pod and a warning (P4)", func(t *testing.T) {
		res, _ := run(t, "CreatePod", runOpts{body: body}, createStep(newPod("p1")),
			patch(500, problem(500, "boom")), step{method: "PATCH", path: "/v2/pods/p1", err: errors.New("reset")})
		wantStatus(t, res, 201)
		if decodeV1(t, res.Body)["locked"] != false {
			t.Errorf("answer %s should show the pod unlocked", res.Body)
		}
		if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "locked=true could not be applied") {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
}

func TestCreatePodNetworkVolumeErrors(t *testing.T) {
	vol := `{"id":"vol1","name":"data","size":100,"dataCenter":"EU-RO-1","type":"STANDARD"}`
	t.Run("volume outside dataCenterIds", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"networkVolumeId":"vol1","dataCenterIds":["US-TX-3"]}`},
			step{method: "GET", path: "/v2/network-volumes/vol1", status: 200, body: vol})
		wantStatus(t, res, 400)
		wantMessage(t, res, "EU-RO-1", "US-TX-3")
		if f.count("POST", "/v2/pods") != 0 {
			t.Error("created anyway")
		}
	})
	t.Run("unknown volume", func(t *testing.T) {
		res, _ := run(t, "CreatePod", runOpts{body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"networkVolumeId":"nope"}`},
			step{method: "GET", path: "/v2/network-volumes/nope", status: 404, body: problem(404, "network volume not found")})
		wantStatus(t, res, 400)
		wantMessage(t, res, "networkVolumeId", "nope")
	})
	t.Run("volume id is percent-encoded", func(t *testing.T) {
		res, _ := run(t, "CreatePod", runOpts{body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"networkVolumeId":"a/b?c"}`},
			step{method: "GET", path: "/v2/network-volumes/a%2Fb%3Fc", status: 404, body: problem(404, "network volume not found")})
		wantStatus(t, res, 400)
	})
	t.Run("template with a volume cannot be created without one", func(t *testing.T) {
		tpl := `{"id":"tpl1","name":"t","image":"img:t","args":"","disk":30,"mounts":{"persistent":{"size":40,"path":"/data"}},"ports":[],"env":{},"registry":null,"serverless":false,"public":false,"category":"NVIDIA","startSsh":true,"startJupyter":false,"allowedCudaVersions":[]}`
		res, _ := run(t, "CreatePod", runOpts{body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"],"volumeInGb":0}`},
			step{method: "GET", path: "/v2/templates/tpl1", status: 200, body: tpl})
		wantStatus(t, res, 400)
		wantMessage(t, res, "volumeInGb", "tpl1")
	})
}

// ---------------------------------------------------------------------------
// R-Pod

// R-Pod carries createdAt and cloudType (not in v1's document, but real v1
// answered them: runpodctl's pod list --since filters on createdAt), the
// names runpodctl 2.7 prints (imageName, gpuTypeId, gpuCount: the values of
// image and gpu again) and leaves a GPU pod's memoryInGb out (v2 has no RAM
// figure for it).
func TestRPod(t *testing.T) {
	res, _ := run(t, "GetPod", runOpts{params: map[string]string{"podId": "p1"}},
		step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("registry", "reg1"), set("template", "tpl9"))})
	wantStatus(t, res, 200)
	jsonEqual(t, "R-Pod", res.Body, `{
		"id":"p1","name":"my pod","image":"runpod/pytorch:2","containerDiskInGb":50,"containerRegistryAuthId":"reg1",
		"dockerStartCmd":["python","-m","http.server","a b"],"env":{"A":"1"},"ports":["8888/http","22/tcp"],
		"desiredStatus":"RUNNING","locked":false,"costPerHr":0.74,"adjustedCostPerHr":0.74,
		"gpu":{"id":"NVIDIA A40","count":1},"volumeInGb":20,"volumeMountPath":"/workspace",
		"portMappings":{"22":10341},"publicIp":"100.65.0.119","lastStartedAt":"2026-03-13T20:01:00Z",
		"createdAt":"2026-03-13T20:00:00Z","cloudType":"SECURE",
		"imageName":"runpod/pytorch:2","gpuTypeId":"NVIDIA A40","gpuCount":1,"templateId":"tpl9"}`)

	statuses := map[string]string{"PROVISIONING": "RUNNING", "STARTING": "RUNNING", "RUNNING": "RUNNING",
		"EXITED": "EXITED", "ERROR": "EXITED", "TERMINATED": "TERMINATED"}
	for v2, v1 := range statuses {
		p, _ := podjson.DecodePod([]byte(pod("p", set("status", v2))))
		if got := podjson.V1PodFrom(p).DesiredStatus; got != v1 {
			t.Errorf("status %s → %q, want %s", v2, got, v1)
		}
	}

	// A stopped CPU pod with a network volume, no runtime, unsplittable args.
	p, _ := podjson.DecodePod([]byte(pod("c1", cpuPod, set("status", "EXITED"), set("runtime", nil), set("startedAt", nil), set("cloud", "COMMUNITY"),
		set("args", `echo "unterminated`), set("mounts", `{"network":[{"volumeId":"vol1","path":"/vol"}]}`), set("cost", 0))))
	b, _ := json.Marshal(podjson.V1PodFrom(p))
	jsonEqual(t, "CPU pod", b, `{
		"id":"c1","name":"my pod","image":"runpod/pytorch:2","containerDiskInGb":50,"env":{"A":"1"},"ports":["8888/http","22/tcp"],
		"desiredStatus":"EXITED","locked":false,"costPerHr":0,"adjustedCostPerHr":0,"cpuFlavorId":"cpu3c","vcpuCount":4,"memoryInGb":8,
		"volumeInGb":0,"volumeMountPath":"/vol","portMappings":{},"publicIp":null,"createdAt":"2026-03-13T20:00:00Z","cloudType":"COMMUNITY",
		"imageName":"runpod/pytorch:2"}`)
}

// ---------------------------------------------------------------------------
// #4 ListPods

func TestListPodsFilters(t *testing.T) {
	pods := podList(
		pod("g1"), // A40, RUNNING, US-TX-3
		pod("g2", set("gpu", `{"id":"NVIDIA L4","count":2}`), set("status", "ERROR"), set("dataCenterId", "EU-RO-1"),
			set("mounts", `{"network":[{"volumeId":"vol1","path":"/workspace"}]}`), set("name", "trainer")),
		pod("c1", cpuPod, set("status", "EXITED"), set("image", "alpine"), set("template", "tpl1")),
		pod("g3", set("status", "PROVISIONING"), set("dataCenterId", nil)),
	)
	tests := []struct {
		query string
		ids   []string
	}{
		{"", []string{"g1", "g2", "c1", "g3"}},
		{"computeType=GPU", []string{"g1", "g2", "g3"}},
		{"computeType=CPU", []string{"c1"}},
		{"cpuFlavorId=cpu3c", []string{"c1"}},
		{"cpuFlavorId=cpu5c,cpu3g", []string{}},
		{"gpuTypeId=NVIDIA%20L4", []string{"g2"}},
		{"gpuTypeId=NVIDIA%20L4&gpuTypeId=NVIDIA%20A40", []string{"g1", "g2", "g3"}},
		{"gpuTypeId=NVIDIA%20L4,NVIDIA%20A40", []string{"g1", "g2", "g3"}},
		{"dataCenterId=EU-RO-1", []string{"g2"}},
		{"dataCenterId=EU-RO-1,US-TX-3", []string{"g1", "g2", "c1"}},
		{"desiredStatus=RUNNING", []string{"g1", "g3"}},
		{"desiredStatus=EXITED", []string{"g2", "c1"}},
		{"desiredStatus=TERMINATED", []string{}},
		{"id=c1", []string{"c1"}},
		{"imageName=alpine", []string{"c1"}},
		{"name=trainer", []string{"g2"}},
		{"networkVolumeId=vol1", []string{"g2"}},
		{"templateId=tpl1", []string{"c1"}},
		{"computeType=GPU&desiredStatus=RUNNING&dataCenterId=US-TX-3", []string{"g1"}},
		{"includeSavingsPlans=true&includeWorkers=false&unknown=1", []string{"g1", "g2", "c1", "g3"}},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			res, _ := run(t, "ListPods", runOpts{query: tc.query}, listStep(pods))
			wantStatus(t, res, 200)
			var got []struct{ ID string }
			if err := json.Unmarshal(res.Body, &got); err != nil {
				t.Fatal(err)
			}
			ids := []string{}
			for _, p := range got {
				ids = append(ids, p.ID)
			}
			if !reflect.DeepEqual(ids, tc.ids) {
				t.Errorf("ids %v, want %v", ids, tc.ids)
			}
		})
	}
}

func TestListPodsInvalidQuery(t *testing.T) {
	for _, q := range []string{
		"computeType=TPU", "desiredStatus=running", "includeMachine=yes", "includeNetworkVolume=2",
		"name=" + strings.Repeat("x", 192), "endpointId=" + strings.Repeat("x", 192), "id=a&id=b", "includeTemplate=true&includeTemplate=false",
	} {
		t.Run(q[:min(len(q), 30)], func(t *testing.T) {
			res, f := run(t, "ListPods", runOpts{query: q})
			wantStatus(t, res, 400)
			name, _, _ := strings.Cut(q, "=")
			wantMessage(t, res, "query parameter "+name)
			if len(f.calls) != 0 {
				t.Error("v2 called despite an invalid query")
			}
		})
	}
}

func TestListPodsIncludes(t *testing.T) {
	vols := `{"networkVolumes":[{"id":"vol1","name":"data","size":100,"dataCenter":"EU-RO-1","type":"STANDARD"},{"id":"vol2","name":"other","size":10,"dataCenter":"US-TX-3","type":"STANDARD"}]}`
	tpl := `{"id":"tpl1","name":"T","image":"img:t","args":"run","disk":30,"mounts":{"persistent":{"size":40,"path":"/data"}},"ports":["80/http"],"env":{"E":"1"},"registry":null,"serverless":false,"public":true,"category":"NVIDIA","startSsh":true,"startJupyter":false,"allowedCudaVersions":[]}`
	netMount := set("mounts", `{"network":[{"volumeId":"vol1","path":"/workspace"}]}`)
	pods := podList(pod("a", netMount, set("template", "tpl1")), pod("b", netMount, set("template", "tpl1")), pod("c", cpuPod, set("template", "gone")))
	res, f := run(t, "ListPods", runOpts{query: "includeNetworkVolume=true&includeTemplate=true&includeMachine=true"},
		listStep(pods),
		step{method: "GET", path: "/v2/network-volumes", status: 200, body: vols},
		step{method: "GET", path: "/v2/templates/tpl1", status: 200, body: tpl},
		step{method: "GET", path: "/v2/templates/gone", status: 404, body: problem(404, "template not found")},
		step{method: "GET", path: "/v2/catalog/gpus", status: 200, body: gpuCatalog},
	)
	wantStatus(t, res, 200)
	var got []map[string]any
	_ = json.Unmarshal(res.Body, &got)
	if len(got) != 3 {
		t.Fatalf("%d pods", len(got))
	}
	wantNV := map[string]any{"id": "vol1", "name": "data", "size": 100.0, "dataCenterId": "EU-RO-1"}
	if !reflect.DeepEqual(got[0]["networkVolume"], wantNV) || !reflect.DeepEqual(got[1]["networkVolume"], wantNV) {
		t.Errorf("networkVolume %v", got[0]["networkVolume"])
	}
	if got[2]["networkVolume"] != nil || got[2]["template"] != nil {
		t.Errorf("pod c: %v", got[2])
	}
	tv := got[0]["template"].(map[string]any)
	if tv["imageName"] != "img:t" || tv["volumeInGb"] != 40.0 || !reflect.DeepEqual(tv["dockerStartCmd"], []any{"run"}) {
		t.Errorf("template %v", tv)
	}
	m := got[0]["machine"].(map[string]any)
	wantM := map[string]any{"gpuTypeId": "NVIDIA A40", "dataCenterId": "US-TX-3", "secureCloud": true, "gpuDisplayName": "A40",
		"gpuType": map[string]any{"id": "NVIDIA A40", "displayName": "A40", "securePrice": 0.44, "communityPrice": 0.35}}
	if !reflect.DeepEqual(m, wantM) {
		t.Errorf("machine %v", m)
	}
	g := got[0]["gpu"].(map[string]any)
	if g["displayName"] != "A40" || g["securePrice"] != 0.44 {
		t.Errorf("gpu %v", g)
	}
	if f.count("GET", "/v2/templates/tpl1") != 1 {
		t.Error("template read more than once")
	}
}

func TestListPodsNoIncludeCallsWithoutReferences(t *testing.T) {
	res, _ := run(t, "ListPods", runOpts{query: "includeNetworkVolume=true&includeTemplate=true&includeMachine=true"},
		listStep(podList(pod("c", cpuPod))))
	wantStatus(t, res, 200)
	if m := decodeV1(t, []byte(strings.Trim(string(res.Body), "[]")))["machine"]; !reflect.DeepEqual(m, map[string]any{"dataCenterId": "US-TX-3", "secureCloud": true}) {
		t.Errorf("machine %v", m)
	}
}

const workersBody = `{"workers":[
	{"id":"w1","status":"RUNNING","isStale":false,"version":3,"gpuCount":1,"image":"img:w","uptimeSeconds":60,"gpuTypeId":"NVIDIA L4","dataCenterId":"EU-RO-1","startedAt":"2026-03-13T19:00:00Z"},
	{"id":"w2","status":"INITIALIZING","isStale":false,"version":null,"gpuCount":1,"image":null,"uptimeSeconds":null,"gpuTypeId":null,"dataCenterId":null,"startedAt":null}],
	"summary":{"running":1,"idle":0,"initializing":1,"throttled":0,"unhealthy":0,"total":2},"endpointVersion":3}`

func TestListPodsWorkers(t *testing.T) {
	t.Run("endpointId", func(t *testing.T) {
		res, _ := run(t, "ListPods", runOpts{query: "endpointId=ep1&includeMachine=true"},
			step{method: "GET", path: "/v2/serverless/ep1/workers", status: 200, body: workersBody})
		wantStatus(t, res, 200)
		jsonEqual(t, "workers", res.Body, `[
			{"id":"w1","image":"img:w","desiredStatus":"RUNNING","gpu":{"id":"NVIDIA L4","count":1},"lastStartedAt":"2026-03-13T19:00:00Z",
			 "endpointId":"ep1","aiApiId":"ep1","slsVersion":3,"machine":{"gpuTypeId":"NVIDIA L4","dataCenterId":"EU-RO-1"}},
			{"id":"w2","desiredStatus":"RUNNING","endpointId":"ep1","aiApiId":"ep1"}]`)
	})
	t.Run("endpointId with filters", func(t *testing.T) {
		res, _ := run(t, "ListPods", runOpts{query: "endpointId=ep1&gpuTypeId=NVIDIA%20L4"},
			step{method: "GET", path: "/v2/serverless/ep1/workers", status: 200, body: workersBody})
		if !strings.Contains(string(res.Body), `"w1"`) || strings.Contains(string(res.Body), `"w2"`) {
			t.Errorf("answer %s", res.Body)
		}
	})
	t.Run("unknown endpoint matches nothing", func(t *testing.T) {
		res, _ := run(t, "ListPods", runOpts{query: "endpointId=nope"},
			step{method: "GET", path: "/v2/serverless/nope/workers", status: 404, body: problem(404, "endpoint not found")})
		wantStatus(t, res, 200)
		jsonEqual(t, "answer", res.Body, `[]`)
	})
	t.Run("includeWorkers appends every endpoint's workers", func(t *testing.T) {
		eps := `{"endpoints":[{"id":"ep1","name":"e","workers":{"min":0,"max":3},"scaling":{"type":"QUEUE_DELAY","queueDelay":4},"dataCenterIds":[],"networkVolumes":[],"timeout":300000,"flashboot":"OFF","createdAt":"2026-03-13T20:00:00Z"}]}`
		res, _ := run(t, "ListPods", runOpts{query: "includeWorkers=true"},
			listStep(podList(pod("p1"))),
			step{method: "GET", path: "/v2/serverless", status: 200, body: eps},
			step{method: "GET", path: "/v2/serverless/ep1/workers", status: 200, body: workersBody})
		wantStatus(t, res, 200)
		var got []struct{ ID string }
		_ = json.Unmarshal(res.Body, &got)
		if len(got) != 3 || got[0].ID != "p1" || got[1].ID != "w1" || got[2].ID != "w2" {
			t.Errorf("answer %s", res.Body)
		}
	})
}

func TestListPodsErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		s      step
		status int
	}{
		{"401", step{method: "GET", path: "/v2/pods", status: 401, body: problem(401, "invalid token")}, 401},
		{"403", step{method: "GET", path: "/v2/pods", status: 403, body: problem(403, "no access")}, 403},
		{"429", step{method: "GET", path: "/v2/pods", status: 429, body: problem(429, "slow"), header: http.Header{"Retry-After": {"7"}}}, 429},
		{"500", step{method: "GET", path: "/v2/pods", status: 500, body: problem(500, "boom")}, 502},
		{"timeout", step{method: "GET", path: "/v2/pods", err: context.DeadlineExceeded}, 504},
		{"unreadable", step{method: "GET", path: "/v2/pods", status: 200, body: `{"pods":{}}`}, 502},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op := mustOp(t, "ListPods")
			f := newFake(t, tc.s)
			f.t = &quietTB{TB: t} // the unreadable fixture is invalid on purpose
			res := op.Plan(context.Background(), &Request{Op: op, Query: url.Values{}}, f)
			wantStatus(t, res, tc.status)
			if tc.status == 429 && res.RetryAfter != "7" {
				t.Errorf("Retry-After %q", res.RetryAfter)
			}
		})
	}
}

// quietTB ignores Errorf (for fixtures that are invalid on purpose).
type quietTB struct{ testing.TB }

func (q *quietTB) Errorf(string, ...any) {}

// ---------------------------------------------------------------------------
// #5 GetPod

func TestGetPod(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	t.Run("404 stays 404", func(t *testing.T) {
		res, _ := run(t, "GetPod", runOpts{params: params}, step{method: "GET", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")})
		wantStatus(t, res, 404)
		wantMessage(t, res, "pod not found")
	})
	t.Run("includeNetworkVolume reads the one volume", func(t *testing.T) {
		res, _ := run(t, "GetPod", runOpts{params: params, query: "includeNetworkVolume=true&includeWorkers=true"},
			step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("mounts", `{"network":[{"volumeId":"vol1","path":"/w"}]}`))},
			step{method: "GET", path: "/v2/network-volumes/vol1", status: 200, body: `{"id":"vol1","name":"data","size":100,"dataCenter":"EU-RO-1","type":"STANDARD"}`})
		wantStatus(t, res, 200)
		if nv := decodeV1(t, res.Body)["networkVolume"]; nv == nil {
			t.Error("no networkVolume")
		}
	})
	t.Run("invalid include", func(t *testing.T) {
		res, _ := run(t, "GetPod", runOpts{params: params, query: "includeMachine=maybe"})
		wantStatus(t, res, 400)
	})
	t.Run("ids are percent-encoded", func(t *testing.T) {
		res, _ := run(t, "GetPod", runOpts{params: map[string]string{"podId": "a..b c"}},
			step{method: "GET", path: "/v2/pods/a..b%20c", status: 404, body: problem(404, "pod not found")})
		wantStatus(t, res, 404)
	})
	t.Run("ids with a slash or backslash are never forwarded (P9)", func(t *testing.T) {
		for _, id := range []string{"a/../b", `a\b`, "/", `..\..`} {
			res, f := run(t, "GetPod", runOpts{params: map[string]string{"podId": id}})
			wantStatus(t, res, 404)
			if len(f.calls) != 0 {
				t.Errorf("%q forwarded", id)
			}
		}
	})
	t.Run("invalid id", func(t *testing.T) {
		res, _ := run(t, "GetPod", runOpts{params: map[string]string{"podId": ".."}})
		wantStatus(t, res, 404)
	})
}

// ---------------------------------------------------------------------------
// #6/#8 UpdatePod

// v2 injects PUBLIC_KEY into the env of pods started with SSH; a v1 env
// update replaces the whole env. The pod's key is kept unless the new env
// sets one, and an explicit "" removes it (issue 14, item 6).
func TestUpdatePodKeepsPublicKey(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	withKey := step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("env", `{"A":"1","PUBLIC_KEY":"ssh-ed25519 AAAA me"}`))}
	noKey := step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1")}
	patched := step{method: "PATCH", path: "/v2/pods/p1", status: 200, body: pod("p1")}
	tests := []struct {
		name   string
		body   string
		script []step
		want   string // PATCH body
		kept   bool   // public_key_kept warning
	}{
		{"an env without PUBLIC_KEY keeps the pod's key", `{"env":{"B":"2"}}`, []step{withKey, patched},
			`{"env":{"B":"2","PUBLIC_KEY":"ssh-ed25519 AAAA me"}}`, true},
		{"an empty env keeps it too", `{"env":{},"name":"x"}`, []step{withKey, patched},
			`{"name":"x","env":{"PUBLIC_KEY":"ssh-ed25519 AAAA me"}}`, true},
		{"a pod without a key gets none", `{"env":{"B":"2"}}`, []step{noKey, patched}, `{"env":{"B":"2"}}`, false},
		{"a new key replaces it without a pre-read", `{"env":{"PUBLIC_KEY":"ssh-rsa new"}}`, []step{patched}, `{"env":{"PUBLIC_KEY":"ssh-rsa new"}}`, false},
		{"an explicit empty key removes it", `{"env":{"B":"2","PUBLIC_KEY":""}}`, []step{patched}, `{"env":{"B":"2","PUBLIC_KEY":""}}`, false},
		{"no env, no pre-read", `{"name":"x"}`, []step{patched}, `{"name":"x"}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "UpdatePod", runOpts{params: params, body: tc.body}, tc.script...)
			wantStatus(t, res, 200)
			jsonEqual(t, "PATCH", []byte(f.bodies("PATCH", "/v2/pods/p1")[0]), tc.want)
			kept := slices.ContainsFunc(res.Notes, func(n Note) bool { return n.Code == CodePublicKeyKept })
			if kept != tc.kept {
				t.Errorf("public_key_kept %v, want %v (warnings %q)", kept, tc.kept, res.Warnings)
			}
			if kept && strings.Contains(strings.Join(res.Warnings, " "), "AAAA") {
				t.Errorf("the warning shows the key: %q", res.Warnings)
			}
		})
	}
}

func TestUpdatePod(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	get := step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1")}
	netPod := step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("mounts", `{"network":[{"volumeId":"vol1","path":"/workspace"}]}`))}
	noMount := step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("mounts", `{}`))}
	patched := step{method: "PATCH", path: "/v2/pods/p1", status: 200, body: pod("p1")}
	tests := []struct {
		name   string
		body   string
		script []step
		want   string // PATCH body; "" = no PATCH
		status int
		parts  []string
	}{
		{"only what was sent, no v1 defaults", `{"name":"renamed"}`, []step{patched}, `{"name":"renamed"}`, 200, nil},
		{"every field", `{"name":"n","imageName":"i","containerDiskInGb":60,"containerRegistryAuthId":"r","dockerStartCmd":["a","b c"],"env":{"K":"V"},"ports":["80/http"],"globalNetworking":true,"locked":true}`,
			[]step{get, patched}, `{"name":"n","image":"i","disk":60,"registry":"r","args":"a 'b c'","env":{"K":"V"},"ports":["80/http"],"globalNetworking":true,"locked":true}`, 200, nil},
		{"clearing values", `{"dockerStartCmd":[],"env":{},"ports":[],"containerRegistryAuthId":null}`, []step{get, patched}, `{"args":"","env":{},"ports":[],"registry":null}`, 200, nil},
		{"volume grows: GET first, full entry", `{"volumeInGb":50}`, []step{get, patched}, `{"mounts":{"persistent":{"size":50,"path":"/workspace"}}}`, 200, nil},
		{"mount path moves", `{"volumeMountPath":"/data"}`, []step{get, patched}, `{"mounts":{"persistent":{"size":20,"path":"/data"}}}`, 200, nil},
		{"network mount path", `{"volumeMountPath":"/data"}`, []step{netPod, patched}, `{"mounts":{"network":[{"volumeId":"vol1","path":"/data"}]}}`, 200, nil},
		{"shrink refused", `{"volumeInGb":10}`, []step{get}, "", 400, []string{"shrinking"}},
		{"kind change refused", `{"volumeInGb":50}`, []step{netPod}, "", 400, []string{"network volume"}},
		{"no mount to change", `{"volumeMountPath":"/x"}`, []step{noMount}, "", 400, []string{"without a volume"}},
		{"volume removal refused", `{"volumeInGb":0}`, nil, "", 400, []string{"volumeInGb", "remove"}},
		{"volume below minimum", `{"volumeInGb":5}`, nil, "", 400, []string{"volumeInGb"}},
		{"empty update answers the pod without a PATCH", `{}`, []step{get}, "", 200, nil},
		{"defaults of untranslatable fields only", `{"dockerEntrypoint":[]}`, []step{get}, "", 200, nil},
		{"entrypoint refused", `{"dockerEntrypoint":["sh"],"name":"x"}`, nil, "", 400, []string{"dockerEntrypoint"}},
		{"wrong type", `{"locked":1}`, nil, "", 400, []string{"locked: must be a boolean"}},
		{"empty strings leave the pod unchanged", `{"name":"","imageName":"","volumeMountPath":"","containerRegistryAuthId":"","dockerArgs":""}`, []step{get}, "", 200, nil},
		{"malformed", `{"name"`, nil, "", 400, []string{"not valid JSON"}},
		{"no body", ``, nil, "", 400, []string{"request body is required"}},
		{"404 becomes 400", `{"name":"x"}`, []step{{method: "PATCH", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")}}, "*", 400, []string{"pod not found"}},
		{"409 becomes 400", `{"name":"x"}`, []step{{method: "PATCH", path: "/v2/pods/p1", status: 409, body: problem(409, "pod belongs to a cluster")}}, "*", 400, []string{"cluster"}},
		{"422 becomes 400 with errors", `{"name":"x"}`, []step{{method: "PATCH", path: "/v2/pods/p1", status: 422, body: problem(422, "Request validation failed.", "$.name: bad")}}, "*", 400, []string{"Request validation failed: name: bad"}},
		{"404 on the pre-read becomes 400", `{"volumeInGb":50}`, []step{{method: "GET", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")}}, "", 400, nil},
	}
	for _, op := range []string{"UpdatePod", "UpdatePodViaPost"} {
		for _, tc := range tests {
			t.Run(op+"/"+tc.name, func(t *testing.T) {
				res, f := run(t, op, runOpts{params: params, body: tc.body}, tc.script...)
				wantStatus(t, res, tc.status)
				if tc.parts != nil {
					wantMessage(t, res, tc.parts...)
				}
				patches := f.bodies("PATCH", "/v2/pods/p1")
				switch {
				case tc.want == "" && len(patches) > 0:
					t.Errorf("unexpected PATCH %s", patches[0])
				case tc.want != "" && tc.want != "*":
					if len(patches) != 1 {
						t.Fatalf("%d PATCHes", len(patches))
					}
					jsonEqual(t, "PATCH body", []byte(patches[0]), tc.want)
				}
			})
		}
	}
	t.Run("lenient drops the entrypoint", func(t *testing.T) {
		res, _ := run(t, "UpdatePod", runOpts{params: params, body: `{"dockerEntrypoint":["sh"],"name":"x","foo":1}`, options: Options{Lenient: true}}, patched)
		wantStatus(t, res, 200)
		if !reflect.DeepEqual(res.Dropped, []string{"dockerEntrypoint"}) || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "foo") {
			t.Errorf("dropped %v warnings %v", res.Dropped, res.Warnings)
		}
	})
}

// ---------------------------------------------------------------------------
// #7 DeletePod, #9/#10/#12 actions, #11 reset

func TestDeletePod(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	for _, tc := range []struct {
		s      step
		status int
	}{
		{step{method: "DELETE", path: "/v2/pods/p1", status: 204}, 204},
		{step{method: "DELETE", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")}, 400},
		{step{method: "DELETE", path: "/v2/pods/p1", status: 409, body: problem(409, "cluster member")}, 400},
		{step{method: "DELETE", path: "/v2/pods/p1", status: 401, body: problem(401, "bad token")}, 401},
		{step{method: "DELETE", path: "/v2/pods/p1", err: errors.New("refused")}, 502},
	} {
		t.Run(fmt.Sprint(tc.s.status), func(t *testing.T) {
			res, _ := run(t, "DeletePod", runOpts{params: params}, tc.s)
			wantStatus(t, res, tc.status)
			if tc.status == 204 && res.Body != nil {
				t.Errorf("204 with a body %q", res.Body)
			}
		})
	}
}

func TestPodActions(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	for _, tc := range []struct{ op, action, status string }{
		{"StartPod", "start", "RUNNING"}, {"StopPod", "stop", "EXITED"}, {"RestartPod", "restart", "RUNNING"},
	} {
		t.Run(tc.op, func(t *testing.T) {
			res, f := run(t, tc.op, runOpts{params: params},
				step{method: "POST", path: "/v2/pods/p1/action", status: 200, body: pod("p1", set("status", tc.status))})
			wantStatus(t, res, 200)
			jsonEqual(t, "action body", []byte(f.bodies("POST", "/v2/pods/p1/action")[0]), `{"action":"`+tc.action+`"}`)
			if got := decodeV1(t, res.Body)["desiredStatus"]; got != tc.status {
				t.Errorf("desiredStatus %v", got)
			}
		})
		t.Run(tc.op+"/409 of an unreadable pod keeps v2's reason", func(t *testing.T) {
			res, _ := run(t, tc.op, runOpts{params: params},
				step{method: "POST", path: "/v2/pods/p1/action", status: 409, body: problem(409, "invalid transition")},
				step{method: "GET", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")})
			wantStatus(t, res, 400)
			wantMessage(t, res, "invalid transition")
		})
		t.Run(tc.op+"/404", func(t *testing.T) {
			res, _ := run(t, tc.op, runOpts{params: params},
				step{method: "POST", path: "/v2/pods/p1/action", status: 404, body: problem(404, "pod not found")})
			wantStatus(t, res, 400)
		})
	}
}

// v1 shows desiredStatus RUNNING while v2 still reports a new or started
// pod PROVISIONING or STARTING and refuses restart (v2sim: actions stop,
// terminate). Each refused action is decided by what the v1 client asked
// for and can see.
func TestPodActionsOnAPodStillStarting(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	refused := func(action, st string) step {
		return step{method: "POST", path: "/v2/pods/p1/action", status: 409,
			body: problem(409, `action "`+action+`" is not valid for a pod in status `+st+`; valid actions: stop, terminate`)}
	}
	getPod := func(opts ...func(map[string]any)) step {
		return step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", opts...)}
	}
	tests := []struct {
		name, op, action string
		script           []step
		status           int
		code             string   // note code of the warning, if any
		msg              []string // parts of the warning or the error message
		actions          int      // POST .../action calls made
	}{
		{name: "a restart of a provisioning pod is answered with the pod and a warning", op: "RestartPod", action: "restart",
			script: []step{refused("restart", "PROVISIONING"), getPod(set("status", "PROVISIONING"), set("runtime", nil))},
			status: 200, code: CodePodAlreadyStarting, msg: []string{"still starting", "PROVISIONING", "no restart was sent"}, actions: 1},
		{name: "a restart of a starting pod likewise", op: "RestartPod", action: "restart",
			script: []step{refused("restart", "STARTING"), getPod(set("status", "STARTING"))},
			status: 200, code: CodePodAlreadyStarting, msg: []string{"STARTING"}, actions: 1},
		{name: "a start of a starting pod likewise", op: "StartPod", action: "start",
			script: []step{refused("start", "STARTING"), getPod(set("status", "STARTING"))},
			status: 200, code: CodePodAlreadyStarting, msg: []string{"no start was sent"}, actions: 1},
		{name: "a start of a running pod is answered with the pod and a warning", op: "StartPod", action: "start",
			script: []step{refused("start", "RUNNING"), getPod(set("status", "RUNNING"))},
			status: 200, code: CodePodAlreadyRunning, msg: []string{"already running"}, actions: 1},
		{name: "a restart refused while starting is sent again once the pod runs", op: "RestartPod", action: "restart",
			script: []step{refused("restart", "STARTING"), getPod(set("status", "RUNNING")),
				{method: "POST", path: "/v2/pods/p1/action", status: 200, body: pod("p1", set("status", "PROVISIONING"))}},
			status: 200, actions: 2},
		{name: "only once", op: "RestartPod", action: "restart",
			script: []step{refused("restart", "STARTING"), getPod(set("status", "RUNNING")),
				{method: "POST", path: "/v2/pods/p1/action", status: 409, body: problem(409, `pod p1 belongs to cluster c1; member pods are managed through /v2/clusters/c1`)},
				getPod(set("status", "RUNNING"))},
			status: 400, msg: []string{`pod p1 belongs to cluster c1`}, actions: 2},
		{name: "a restart of a stopped pod is a 400 naming v1's status and route", op: "RestartPod", action: "restart",
			script: []step{refused("restart", "EXITED"), getPod(set("status", "EXITED"))},
			status: 400, msg: []string{"desiredStatus EXITED", "POST /v1/pods/{podId}/start"}, actions: 1},
		{name: "a stop of a stopped pod is a 400", op: "StopPod", action: "stop",
			script: []step{refused("stop", "EXITED"), getPod(set("status", "EXITED"))},
			status: 400, msg: []string{"already stopped"}, actions: 1},
		{name: "a stop of a locked pod is a 400 naming locked", op: "StopPod", action: "stop",
			script: []step{{method: "POST", path: "/v2/pods/p1/action", status: 409, body: problem(409, `pod "p1" is locked and cannot be stopped; unlock it first (PATCH {"locked": false})`)},
				getPod(set("locked", true))},
			status: 400, msg: []string{"locked", "PATCH /v1/pods/{podId}"}, actions: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, tc.op, runOpts{params: params}, tc.script...)
			wantStatus(t, res, tc.status)
			if n := len(f.bodies("POST", "/v2/pods/p1/action")); n != tc.actions {
				t.Errorf("%d actions sent, want %d", n, tc.actions)
			}
			for _, b := range f.bodies("POST", "/v2/pods/p1/action") {
				jsonEqual(t, "action", []byte(b), `{"action":"`+tc.action+`"}`)
			}
			if tc.status >= 400 {
				wantMessage(t, res, tc.msg...)
				if strings.Contains(string(res.Body), "/v2") || strings.Contains(string(res.Body), "PROVISIONING") {
					t.Errorf("v2 wording in a v1 error: %s", res.Body)
				}
				return
			}
			if got := decodeV1(t, res.Body)["desiredStatus"]; got != "RUNNING" {
				t.Errorf("desiredStatus %v", got)
			}
			if tc.code == "" {
				if len(res.Warnings) != 0 {
					t.Errorf("warnings %q", res.Warnings)
				}
				return
			}
			if len(res.Notes) != 1 || res.Notes[0].Code != tc.code {
				t.Fatalf("notes %+v, want one %s", res.Notes, tc.code)
			}
			for _, m := range tc.msg {
				if !strings.Contains(res.Warnings[0], m) {
					t.Errorf("warning %q lacks %q", res.Warnings[0], m)
				}
			}
		})
	}
}

func TestResetPod(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	t.Run("rejected by default, naming restart", func(t *testing.T) {
		res, f := run(t, "ResetPod", runOpts{params: params})
		wantStatus(t, res, 400)
		wantMessage(t, res, "restart")
		if len(f.calls) != 0 || res.Emulated != "" {
			t.Error("reset must not call v2 by default")
		}
	})
	emulate := Options{ResetRestart: true}
	for _, tc := range []struct{ status, action string }{{"RUNNING", "restart"}, {"EXITED", "start"}, {"ERROR", "start"}} {
		t.Run("emulated from "+tc.status, func(t *testing.T) {
			res, f := run(t, "ResetPod", runOpts{params: params, options: emulate},
				step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("status", tc.status))},
				step{method: "POST", path: "/v2/pods/p1/action", status: 200, body: pod("p1", set("status", "RUNNING"))})
			wantStatus(t, res, 200)
			if res.Emulated != "reset" {
				t.Errorf("Emulated %q", res.Emulated)
			}
			jsonEqual(t, "action", []byte(f.bodies("POST", "/v2/pods/p1/action")[0]), `{"action":"`+tc.action+`"}`)
		})
	}
	for _, st := range []string{"STARTING", "PROVISIONING"} {
		t.Run("emulated from "+st+": already starting from scratch, nothing sent", func(t *testing.T) {
			res, f := run(t, "ResetPod", runOpts{params: params, options: emulate},
				step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("status", st))})
			wantStatus(t, res, 200)
			if res.Emulated != "reset" || len(f.bodies("POST", "/v2/pods/p1/action")) != 0 {
				t.Errorf("Emulated %q, %d actions", res.Emulated, len(f.bodies("POST", "/v2/pods/p1/action")))
			}
			if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "still starting") {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
	// A reset that ends in a 400 was not emulated: no X-Compat-Emulated,
	// and no reset_emulated note counted.
	noEmulation := func(t *testing.T, res *Result) {
		t.Helper()
		if res.Emulated != "" {
			t.Errorf("a refused reset carries Emulated %q", res.Emulated)
		}
		for _, n := range res.Notes {
			if n.Code == CodeResetEmulated {
				t.Errorf("a refused reset counts as emulated: %+v", res.Notes)
			}
		}
	}
	t.Run("locked pods cannot be reset", func(t *testing.T) {
		res, _ := run(t, "ResetPod", runOpts{params: params, options: emulate},
			step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("locked", true))})
		wantStatus(t, res, 400)
		wantMessage(t, res, "locked")
		noEmulation(t, res)
	})
	t.Run("unknown pod", func(t *testing.T) {
		res, _ := run(t, "ResetPod", runOpts{params: params, options: emulate},
			step{method: "GET", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")})
		wantStatus(t, res, 400)
		noEmulation(t, res)
	})
	t.Run("a restart v2 refuses", func(t *testing.T) {
		res, _ := run(t, "ResetPod", runOpts{params: params, options: emulate},
			step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("status", "RUNNING"))},
			step{method: "POST", path: "/v2/pods/p1/action", status: 409, body: problem(409, "no")},
			step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("status", "EXITED"))})
		wantStatus(t, res, 400)
		noEmulation(t, res)
	})
}

// ---------------------------------------------------------------------------
// Benchmark: GET /v1/pods with 100 pods.

type cannedCaller struct{ a *V2Answer }

func (c cannedCaller) Call(context.Context, V2Call) (*V2Answer, error) { return c.a, nil }

func hundredPods() []byte {
	var pods []string
	for i := 0; i < 100; i++ {
		id := fmt.Sprintf("pod%03d", i)
		if i%4 == 3 {
			pods = append(pods, pod(id, cpuPod))
		} else {
			pods = append(pods, pod(id, set("env", `{"JUPYTER_PASSWORD":"secret","HF_TOKEN":"hf_xxxxxxxxxxxxxxxxxxxx","MODEL":"llama-3-8b"}`)))
		}
	}
	return []byte(podList(pods...))
}

func BenchmarkListPods100(b *testing.B) {
	op, _ := Lookup("ListPods")
	c := cannedCaller{&V2Answer{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: hundredPods()}}
	req := &Request{Op: op, Query: url.Values{}}
	ctx := context.Background()
	b.SetBytes(int64(len(c.a.Body)))
	b.ReportAllocs()
	for b.Loop() {
		if res := op.Plan(ctx, req, c); res.Status != 200 {
			b.Fatal(res.Status)
		}
	}
}

func TestListPods100(t *testing.T) {
	op, _ := Lookup("ListPods")
	c := cannedCaller{&V2Answer{Status: 200, Body: hundredPods()}}
	res := op.Plan(context.Background(), &Request{Op: op, Query: url.Values{}}, c)
	wantStatus(t, res, 200)
	checkV1Answer(t, op, nil, res)
	var got []map[string]any
	if err := json.Unmarshal(res.Body, &got); err != nil || len(got) != 100 {
		t.Fatalf("%d pods, %v", len(got), err)
	}
}

// Real clients send comma-joined ports, with spaces, in one array element
// or one string; each becomes its own v2 port (issue 14, item 7). Pods
// (create and update) and templates share the rule.
func TestPortsAreNormalised(t *testing.T) {
	tests := []struct {
		name, ports, want string
	}{
		{"comma-joined element", `["8888/http,22/tcp"]`, `["8888/http","22/tcp"]`},
		{"a space after the comma", `["8888/http, 22/tcp"]`, `["8888/http","22/tcp"]`},
		{"a string with a space", `"8888/http, 22/tcp"`, `["8888/http","22/tcp"]`},
		{"padded elements", `[" 8888/http ","22/tcp"]`, `["8888/http","22/tcp"]`},
		{"a trailing comma", `["8888/http,"]`, `["8888/http"]`},
		{"a port listed twice once", `["22/tcp,8888/http","22/tcp"]`, `["22/tcp","8888/http"]`},
		{"already separate", `["8888/http","22/tcp"]`, `["8888/http","22/tcp"]`},
		{"none", `[]`, `[]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, msg := parsePodUpdate([]byte(`{"ports":` + tc.ports + `}`))
			if u == nil {
				t.Fatal(msg)
			}
			got, _ := json.Marshal(*u.body.Ports)
			jsonEqual(t, "pod update ports", got, tc.want)
			res, f := run(t, "UpdateTemplate", runOpts{params: map[string]string{"templateId": "t1"}, body: `{"ports":` + tc.ports + `}`},
				step{method: "PATCH", path: "/v2/templates/t1", status: 200, body: tpl("t1")})
			wantStatus(t, res, 200)
			var sent struct{ Ports json.RawMessage }
			_ = json.Unmarshal([]byte(f.bodies("PATCH", "/v2/templates/t1")[0]), &sent)
			jsonEqual(t, "template ports", sent.Ports, tc.want)
		})
	}
	if _, msg := parsePodUpdate([]byte(`{"ports":["8888/http"," "]}`)); !strings.Contains(msg, "ports: element 1 is empty") {
		t.Errorf("an empty element: %q", msg)
	}
}
