package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

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
				"countryCodes":[],"gpuTypePriority":"availability","dataCenterPriority":"custom","cpuFlavorIds":[],"vcpuCount":2,"cpuFlavorPriority":"availability",
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
			warn: "ignored gpuTypeIds, gpuCount, minRAMPerGPU: the pod is a CPU pod (computeType CPU), and v1 ignored GPU fields on CPU pods",
		},
		{
			name: "CPU pod: v1's GPU defaults and empty GPU fields are ignored silently",
			body: `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu5c"],"gpuTypeIds":[],"gpuCount":1,"allowedCudaVersions":[],"gpuTypePriority":"availability","minRAMPerGPU":8,"minVCPUPerGPU":2,"minCudaVersion":"12.4"}`,
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE","cpu":{"id":"cpu5c","vcpuCount":2},"startSsh":true}`,
		},
		{
			name: "GPU pod: CPU fields are ignored with a warning",
			body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"cpuFlavorIds":["cpu3c"],"vcpuCount":3,"cpuFlavorPriority":"custom"}`,
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE",
				"gpu":{"id":"NVIDIA A40","count":1},"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`,
			warn: "ignored cpuFlavorIds, cpuFlavorPriority, vcpuCount: the pod is a GPU pod (computeType GPU, v1's default), and v1 ignored CPU fields on GPU pods",
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
			// Soft constraints (minUploadMbps, supportPublicIp) are not
			// compat_mode's: TestSoftConstraintsCreateThePodWithAWarning.
			name:    "lenient mode drops untranslatable fields and says so",
			body:    `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"dockerEntrypoint":["/bin/sh"],"interruptible":true,"cloudType":"COMMUNITY"}`,
			want:    `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"COMMUNITY","gpu":{"id":"NVIDIA A40","count":1},"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`,
			dropped: []string{"dockerEntrypoint", "interruptible"},
		},
		{
			name: "unknown fields are ignored with a warning",
			body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"zzz":"x","bogus":1,"empty":[],"none":{}}`,
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE","gpu":{"id":"NVIDIA A40","count":1},"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`,
			warn: "bogus, zzz",
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
		// Soft constraints are accepted: TestSoftConstraintsCreateThePodWithAWarning.
		{"an entrypoint in dockerArgs' JSON form", `{` + gpu + `,"dockerArgs":"{\"cmd\":[\"serve\"],\"entrypoint\":[\"/bin/sh\",\"-c\"]}"}`,
			[]string{"dockerEntrypoint: the entrypoint [\"/bin/sh\" \"-c\"] of dockerArgs' JSON form: v2 has no entrypoint override", "field_policy dockerEntrypoint: drop"}},
		{"dockerArgs' JSON form with another key", `{` + gpu + `,"dockerArgs":"{\"cmd\":[\"a\"],\"args\":[\"b\"]}"}`, []string{"dockerArgs: the JSON form of dockerArgs has cmd and entrypoint, not \"args\""}},
		{"dockerArgs' JSON form with a string cmd", `{` + gpu + `,"dockerArgs":"{\"cmd\":\"serve\"}"}`, []string{"dockerArgs: cmd in the JSON form of dockerArgs must be an array of strings, got a string"}},
		{"pod volume on a CPU pod", `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu3c"],"volumeInGb":30}`, []string{"volumeInGb: v2 CPU pods cannot have a pod volume"}},
		{"every untranslatable field named, the soft constraint not", `{` + gpu + `,"dockerEntrypoint":["x"],"interruptible":true,"minUploadMbps":1}`, []string{"dockerEntrypoint:", "interruptible:"}},
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
	t.Run("capacity failure on every candidate: v1's stock-out", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body(`,"gpuTypePriority":"custom"`)}, createFail(400, "no capacity for A"), createFail(400, "no capacity for B"), createFail(403, "forbidden C"), createFail(400, "no capacity for D"))
		wantStatus(t, res, 500)
		wantMessage(t, res, V1StockOut, "no gpuTypeIds could be placed", rtx+" in any data center: no capacity for A", "NVIDIA H200 in any data center: no capacity for D", "forbidden C")
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
		wantStatus(t, res, 500) // v1's stock-out: a country is its data centers
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
	t.Run("template with a volume and volumeInGb 0: its settings without the volume (volumezero_test.go)", func(t *testing.T) {
		tpl := `{"id":"tpl1","name":"t","image":"img:t","args":"","disk":30,"mounts":{"persistent":{"size":40,"path":"/data"}},"ports":[],"env":{},"registry":null,"serverless":false,"public":false,"category":"NVIDIA","startSsh":true,"startJupyter":false,"allowedCudaVersions":[]}`
		res, f := run(t, "CreatePod", runOpts{body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"],"volumeInGb":0}`},
			step{method: "GET", path: "/v2/templates/tpl1", status: 200, body: tpl}, createStep(newPod("p1")))
		wantStatus(t, res, 201)
		jsonEqual(t, "v2 create body", []byte(f.bodies("POST", "/v2/pods")[0]),
			`{"name":"my pod","image":"img:t","disk":30,"ports":[],"gpu":{"id":"NVIDIA A40","count":1},"startSsh":true,"startJupyter":false}`)
	})
}
