package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// ---------------------------------------------------------------------------
// Fixtures

// poolCatalog is a v2 GPU catalog with two serverless pools and one GPU type
// outside any pool.
const poolCatalog = `{"gpus":[
	{"id":"NVIDIA GeForce RTX 4090","name":"RTX 4090","pool":"ADA_24","manufacturer":"NVIDIA","memory":24,"secure":true,"community":true,
	 "price":{"secure":0.69,"community":0.34,"serverless":1.1},"maxCount":{"secure":8,"community":4}},
	{"id":"NVIDIA L4","name":"L4","pool":"ADA_24","manufacturer":"NVIDIA","memory":24,"secure":true,"community":false,
	 "price":{"secure":0.39,"community":0,"serverless":0.9},"maxCount":{"secure":8,"community":0}},
	{"id":"NVIDIA A40","name":"A40","pool":"AMPERE_48","manufacturer":"NVIDIA","memory":48,"secure":true,"community":true,
	 "price":{"secure":0.44,"community":0.35,"serverless":1.3},"maxCount":{"secure":8,"community":4}},
	{"id":"NVIDIA RTX A6000","name":"RTX A6000","pool":"AMPERE_48","manufacturer":"NVIDIA","memory":48,"secure":true,"community":true,
	 "price":{"secure":0.49,"community":0.33,"serverless":1.3},"maxCount":{"secure":8,"community":8}},
	{"id":"AMD Instinct MI300X OAM","name":"MI300X","pool":null,"manufacturer":"AMD","memory":192,"secure":true,"community":false,
	 "price":{"secure":2.49,"community":0},"maxCount":{"secure":8,"community":0}}]}`

// v2EndpointFixture is a valid v2 GPU Endpoint (QUEUE, QUEUE_DELAY) as a map.
func v2EndpointFixture(id string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(`{
		"id":"`+id+`","name":"image-generator","type":"QUEUE",
		"requestUrls":{"run":"https://api.runpod.ai/v2/`+id+`/run","runSync":"https://api.runpod.ai/v2/`+id+`/runsync",
			"status":"https://api.runpod.ai/v2/`+id+`/status/{job_id}","stream":"https://api.runpod.ai/v2/`+id+`/stream/{job_id}",
			"cancel":"https://api.runpod.ai/v2/`+id+`/cancel/{job_id}","retry":"https://api.runpod.ai/v2/`+id+`/retry/{job_id}",
			"purgeQueue":"https://api.runpod.ai/v2/`+id+`/purge-queue","health":"https://api.runpod.ai/v2/`+id+`/health"},
		"image":"runpod/worker:1","args":"python handler.py","disk":20,"ports":["8000/http"],"env":{"MODEL":"sdxl"},"registry":null,
		"gpu":{"pools":["ADA_24"],"excludedTypes":["NVIDIA L4"],"count":1,"allowedCudaVersions":[],"minCudaVersion":null},
		"workers":{"min":0,"max":3,"idleTimeout":5},
		"scaling":{"type":"QUEUE_DELAY","queueDelay":4},
		"dataCenterIds":["US-KS-2"],"networkVolumes":["vol1"],"timeout":300000,"flashboot":"OFF",
		"createdAt":"2026-03-13T20:00:30Z"}`), &m); err != nil {
		panic(err)
	}
	return m
}

func endpoint(id string, mods ...func(map[string]any)) string {
	m := v2EndpointFixture(id)
	for _, f := range mods {
		f(m)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// cpuEndpoint turns the fixture into a CPU endpoint.
func cpuEndpoint(m map[string]any) {
	delete(m, "gpu")
	m["cpu"] = []any{map[string]any{"id": "cpu5c", "vcpuCount": 4, "memory": 8}, map[string]any{"id": "cpu5g", "vcpuCount": 8, "memory": 32}}
}

const serverlessTemplate = `{"id":"tpl1","name":"worker-tpl","image":"runpod/worker:1","args":"","disk":20,"mounts":{},"ports":[],"env":{},"registry":null,"serverless":true,"public":false,"category":"NVIDIA","startSsh":true,"startJupyter":false,"allowedCudaVersions":[]}`

func releases(version int) string {
	return fmt.Sprintf(`{"endpointVersion":%d,"rollout":{"inProgress":false,"workersOnLatest":0,"workersTotal":0,"percentOnLatest":0},"releases":[]}`, version)
}

func catalogStep() step {
	return step{method: "GET", path: "/v2/catalog/gpus", status: 200, body: poolCatalog}
}
func releasesStep(id string, version int) step {
	return step{method: "GET", path: "/v2/serverless/" + id + "/releases", status: 200, body: releases(version)}
}

// createdSteps are the reads of a create's answer, which carries the
// endpoint's template and workers as v1's did (issue 37): its workers
// (which give version), then its template tpl, unless the plan read it
// already (tpl "").
func createdSteps(id string, version int, tpl string) []step {
	s := []step{workersStep(id, version)}
	if tpl != "" {
		s = append(s, tplGetStep(tpl))
	}
	return s
}

// tplGetStep answers GET /v2/templates/{id} with serverlessTemplate.
func tplGetStep(id string) step {
	return step{method: "GET", path: "/v2/templates/" + id, status: 200, body: strings.Replace(serverlessTemplate, `"id":"tpl1"`, `"id":"`+id+`"`, 1)}
}

// workersStep answers GET /v2/serverless/{id}/workers with no worker.
func workersStep(id string, version int) step {
	return step{method: "GET", path: "/v2/serverless/" + id + "/workers", status: 200,
		body: fmt.Sprintf(`{"workers":[],"summary":{"running":0,"idle":0,"initializing":0,"throttled":0,"unhealthy":0,"total":0},"endpointVersion":%d}`, version)}
}

// with is steps followed by more.
func with(steps []step, more ...step) []step { return append(append([]step{}, steps...), more...) }

func epGetStep(id, body string) step {
	return step{method: "GET", path: "/v2/serverless/" + id, status: 200, body: body}
}

func warnings(res *Result) string { return strings.Join(res.Warnings, " | ") }

func wantWarning(t *testing.T, res *Result, part string) {
	t.Helper()
	if !strings.Contains(warnings(res), part) {
		t.Errorf("warnings %q should contain %q", res.Warnings, part)
	}
}

// ---------------------------------------------------------------------------
// #13 CreateEndpoint

func TestCreateEndpointBodyMapping(t *testing.T) {
	created := endpoint("ep1")
	tests := []struct {
		name string
		body string
		pre  []step // before the create
		want string // v2 create body
		warn []string
		// quiet: no warning contains it.
		quiet string
	}{
		{
			name: "minimal GPU, v1 defaults sent",
			body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`,
			pre:  []step{catalogStep()},
			want: `{"name":"gen","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
				"gpu":{"pools":["ADA_24"],"excludedTypes":["NVIDIA L4"],"count":1},"workers":{"idleTimeout":5}}`,
			warn: []string{"ADA_24", "added to these pools later"},
		},
		{
			name: "name from the template",
			body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40","NVIDIA RTX A6000","NVIDIA L4"]}`,
			pre:  []step{{method: "GET", path: "/v2/templates/tpl1", status: 200, body: serverlessTemplate}, catalogStep()},
			want: `{"name":"worker-tpl","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
				"gpu":{"pools":["AMPERE_48","ADA_24"],"excludedTypes":["NVIDIA GeForce RTX 4090"],"count":1},"workers":{"idleTimeout":5}}`,
		},
		{
			name: "every GPU field",
			body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA L4","NVIDIA GeForce RTX 4090"],"gpuCount":2,
				"allowedCudaVersions":["12.8","12.4","12.9"],"minCudaVersion":"12.6",
				"scalerType":"QUEUE_DELAY","scalerValue":10,"workersMin":1,"workersMax":4,"idleTimeout":60,
				"executionTimeoutMs":600000,"flashboot":true,"dataCenterIds":["US-KS-2","EU-RO-1"],
				"networkVolumeId":"vol1","networkVolumeIds":["vol2","vol1"],"cpuFlavorIds":["cpu3c"],"vcpuCount":4}`,
			pre: []step{catalogStep()},
			want: `{"name":"gen","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":10},
				"gpu":{"pools":["ADA_24"],"excludedTypes":[],"count":2,"allowedCudaVersions":["12.8","12.9"]},
				"workers":{"min":1,"max":4,"idleTimeout":60},"dataCenterIds":["US-KS-2","EU-RO-1"],"networkVolumes":["vol1","vol2"],
				"timeout":600000,"flashboot":"FLASHBOOT"}`,
			warn: []string{"ignored cpuFlavorIds, vcpuCount: the endpoint is a GPU endpoint (computeType GPU, v1's default), and v1 ignored CPU fields on GPU endpoints"},
		},
		{
			name: "GPU: v1's CPU default and empty CPU fields are ignored silently",
			body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA A40"],"cpuFlavorIds":[],"vcpuCount":2}`,
			pre:  []step{catalogStep()},
			want: `{"name":"gen","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
				"gpu":{"pools":["AMPERE_48"],"excludedTypes":["NVIDIA RTX A6000"],"count":1},"workers":{"idleTimeout":5}}`,
			quiet: "ignored",
		},
		{
			name: "REQUEST_COUNT: no idleTimeout",
			body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA A40"],"scalerType":"REQUEST_COUNT","scalerValue":3,"idleTimeout":30,"flashboot":false}`,
			pre:  []step{catalogStep()},
			want: `{"name":"gen","type":"QUEUE","templateId":"tpl1","scaling":{"type":"REQUEST_COUNT","requestCount":3},
				"gpu":{"pools":["AMPERE_48"],"excludedTypes":["NVIDIA RTX A6000"],"count":1},"flashboot":"OFF"}`,
			warn: []string{"idleTimeout was not applied"},
		},
		{
			name: "empty CUDA set and a floor",
			body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA A40"],"allowedCudaVersions":[],"minCudaVersion":"12.4"}`,
			pre:  []step{catalogStep()},
			want: `{"name":"gen","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
				"gpu":{"pools":["AMPERE_48"],"excludedTypes":["NVIDIA RTX A6000"],"count":1,"allowedCudaVersions":[],"minCudaVersion":"12.4"},"workers":{"idleTimeout":5}}`,
		},
		{
			name: "types outside any serverless pool are left out",
			body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["Tesla T4","AMD Instinct MI300X OAM","NVIDIA L4"]}`,
			pre:  []step{catalogStep()},
			want: `{"name":"gen","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
				"gpu":{"pools":["ADA_24"],"excludedTypes":["NVIDIA GeForce RTX 4090"],"count":1},"workers":{"idleTimeout":5}}`,
			warn: []string{"Tesla T4, AMD Instinct MI300X OAM left out"},
		},
		{
			name: "CPU: GPU fields ignored, no catalog",
			body: `{"templateId":"tpl1","name":"cpu","computeType":"CPU","cpuFlavorIds":["cpu5c","cpu3c","cpu5c"],"vcpuCount":4,"gpuTypeIds":["NVIDIA L4"],"minCudaVersion":"12.4"}`,
			want: `{"name":"cpu","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
				"cpu":[{"id":"cpu5c","vcpuCount":4},{"id":"cpu3c","vcpuCount":4}],"workers":{"idleTimeout":5}}`,
			warn: []string{"ignored gpuTypeIds, minCudaVersion: the endpoint is a CPU endpoint (computeType CPU), and v1 ignored GPU fields on CPU endpoints"},
		},
		{
			name: "CPU: v1's GPU default and empty GPU fields are ignored silently",
			body: `{"templateId":"tpl1","name":"cpu","computeType":"CPU","cpuFlavorIds":["cpu5c"],"gpuTypeIds":[],"gpuCount":1,"allowedCudaVersions":[],"minCudaVersion":""}`,
			want: `{"name":"cpu","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
				"cpu":[{"id":"cpu5c","vcpuCount":2}],"workers":{"idleTimeout":5}}`,
			quiet: "ignored",
		},
		{
			name: "CPU default vcpuCount",
			body: `{"templateId":"tpl1","name":"cpu","computeType":"CPU","cpuFlavorIds":["cpu3g"],"bogus":1}`,
			want: `{"name":"cpu","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
				"cpu":[{"id":"cpu3g","vcpuCount":2}],"workers":{"idleTimeout":5}}`,
			warn: []string{"bogus"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			answer := created
			if strings.Contains(tc.body, `"CPU"`) {
				answer = endpoint("ep1", cpuEndpoint)
			}
			tpl := "tpl1"
			if hasStep(tc.pre, "/v2/templates/tpl1") {
				tpl = "" // read for the name: not again
			}
			script := with(append(append([]step{}, tc.pre...),
				step{method: "POST", path: "/v2/serverless", status: 201, body: answer}), createdSteps("ep1", 1, tpl)...)
			res, f := run(t, "CreateEndpoint", runOpts{body: tc.body}, script...)
			wantStatus(t, res, 200)
			bodies := f.bodies("POST", "/v2/serverless")
			if len(bodies) != 1 {
				t.Fatalf("%d creates", len(bodies))
			}
			jsonEqual(t, "v2 create body", []byte(bodies[0]), tc.want)
			for _, w := range tc.warn {
				wantWarning(t, res, w)
			}
			if tc.quiet != "" && strings.Contains(warnings(res), tc.quiet) {
				t.Errorf("warnings %q should not contain %q", res.Warnings, tc.quiet)
			}
			if m := decodeV1(t, res.Body); m["templateId"] != "tpl1" {
				t.Errorf("templateId not echoed: %s", res.Body)
			}
		})
	}
}

func TestCreateEndpointAnswer(t *testing.T) {
	created := endpoint("ep1", set("gpu", `{"pools":["ADA_24","AMPERE_48"],"excludedTypes":["NVIDIA L4"],"count":2,"allowedCudaVersions":["12.8"],"minCudaVersion":null}`),
		set("networkVolumes", `["vol1","vol2"]`), set("timeout", 600000))
	res, _ := run(t, "CreateEndpoint", runOpts{body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`},
		with([]step{catalogStep(), {method: "POST", path: "/v2/serverless", status: 201, body: created}}, createdSteps("ep1", 1, "tpl1")...)...)
	wantStatus(t, res, 200)
	jsonEqual(t, "v1 endpoint", res.Body, `{"id":"ep1","name":"image-generator","allowedCudaVersions":["12.8"],"computeType":"GPU",
		"createdAt":"2026-03-13T20:00:30Z","dataCenterIds":["US-KS-2"],"env":{"MODEL":"sdxl"},"executionTimeoutMs":600000,"flashboot":false,"gpuCount":2,
		"gpuTypeIds":["NVIDIA GeForce RTX 4090","NVIDIA A40","NVIDIA RTX A6000"],"idleTimeout":5,"instanceIds":[],"minCudaVersion":null,"networkVolumeId":"vol1",
		"networkVolumeIds":["vol1","vol2"],"scalerType":"QUEUE_DELAY","scalerValue":4,
		"template":{"id":"tpl1","name":"worker-tpl","category":"NVIDIA","containerDiskInGb":20,"containerRegistryAuthId":null,"dockerEntrypoint":[],"dockerStartCmd":[],
		"earned":null,"env":{},"imageName":"runpod/worker:1","isPublic":false,"isRunpod":false,"isServerless":true,"ports":[],"readme":null,"runtimeInMin":null,
		"volumeInGb":0,"volumeMountPath":""},"templateId":"tpl1","userId":null,"version":1,"workers":[],"workersMax":3,"workersMin":0}`)
}

func TestCreateEndpointRejects(t *testing.T) {
	tests := []struct {
		name, body string
		script     []step
		status     int
		want       []string
	}{
		{"no body", ``, nil, 400, []string{"request body is required"}},
		{"not an object", `[1]`, nil, 400, []string{"must be a JSON object"}},
		{"no templateId", `{"name":"x","gpuTypeIds":["NVIDIA L4"]}`, nil, 400, []string{"templateId: is required"}},
		{"bad values", `{"templateId":"t","name":"","gpuTypeIds":["NVIDIA X"],"gpuCount":0,"scalerType":"FAST","scalerValue":0,"idleTimeout":0,
			"workersMin":-1,"executionTimeoutMs":0,"flashboot":"yes","dataCenterIds":["MARS-1"],"networkVolumeIds":[""],"cpuFlavorIds":["cpu3m"],"vcpuCount":3}`,
			nil, 400, []string{"gpuTypeIds: \"NVIDIA X\"", "gpuCount: must be at least 1", "scalerType:", "scalerValue: must be at least 1",
				"idleTimeout: must be between", "workersMin: must not be negative", "executionTimeoutMs: must be a positive", "flashboot: must be a boolean",
				"dataCenterIds:", "networkVolumeIds: element 0 is empty", "cpuFlavorIds: \"cpu3m\"", "vcpuCount: must be a power of two"}},
		{"min above max", `{"templateId":"t","gpuTypeIds":["NVIDIA L4"],"workersMin":5,"workersMax":2}`, nil, 400, []string{"workersMin: 5 is more than workersMax 2"}},
		{"CUDA set below the floor", `{"templateId":"t","gpuTypeIds":["NVIDIA L4"],"allowedCudaVersions":["11.8","12.0"],"minCudaVersion":"12.4"}`, nil, 400,
			[]string{"allowedCudaVersions: none of 11.8, 12.0 is at or above minCudaVersion 12.4"}},
		{"no type in a pool", `{"templateId":"t","name":"n","gpuTypeIds":["AMD Instinct MI300X OAM"]}`, []step{catalogStep()}, 400,
			[]string{"gpuTypeIds: none of AMD Instinct MI300X OAM can run serverless workers in v2"}},
		{"catalog down", `{"templateId":"t","name":"n","gpuTypeIds":["NVIDIA L4"]}`,
			[]step{{method: "GET", path: "/v2/catalog/gpus", status: 503, body: problem(503, "maintenance")}}, 502,
			[]string{"gpuTypeIds: the v2 GPU catalog could not be read: maintenance"}},
		{"unknown template", `{"templateId":"nope","gpuTypeIds":["NVIDIA L4"]}`,
			[]step{{method: "GET", path: "/v2/templates/nope", status: 404, body: problem(404, "template not found")}}, 400,
			[]string{`templateId: template "nope" not found`}},
		{"pod template", `{"templateId":"tpl1","gpuTypeIds":["NVIDIA L4"]}`,
			[]step{{method: "GET", path: "/v2/templates/tpl1", status: 200, body: strings.Replace(serverlessTemplate, `"serverless":true`, `"serverless":false`, 1)}}, 400,
			[]string{"is a pod template"}},
		{"v2 422", `{"templateId":"t","name":"n","gpuTypeIds":["NVIDIA L4"]}`,
			[]step{catalogStep(), {method: "POST", path: "/v2/serverless", status: 422, body: problem(422, "Request validation failed.", "$.templateId: template is a pod template")}}, 400,
			[]string{"Request validation failed: templateId: template is a pod template"}},
		{"v2 404 template", `{"templateId":"t","name":"n","computeType":"CPU","cpuFlavorIds":["cpu3c"]}`,
			[]step{{method: "POST", path: "/v2/serverless", status: 404, body: problem(404, "template t not found")}}, 400,
			[]string{"template t not found"}},
		{"v2 429", `{"templateId":"t","name":"n","computeType":"CPU","cpuFlavorIds":["cpu3c"]}`,
			[]step{{method: "POST", path: "/v2/serverless", status: 429, body: problem(429, "slow down"), header: http.Header{"Retry-After": {"7"}}}}, 429,
			[]string{"slow down"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "CreateEndpoint", runOpts{body: tc.body}, tc.script...)
			wantStatus(t, res, tc.status)
			wantMessage(t, res, tc.want...)
			if n := f.count("POST", "/v2/serverless"); n > 1 {
				t.Errorf("%d creates", n)
			}
			if tc.status == 429 && res.RetryAfter != "7" {
				t.Errorf("Retry-After %q", res.RetryAfter)
			}
		})
	}
}

func TestCreateEndpointLostReply(t *testing.T) {
	body := `{"templateId":"tpl1","name":"gen","computeType":"CPU","cpuFlavorIds":["cpu3c"]}`
	post := func(s step) step { s.method, s.path = "POST", "/v2/serverless"; return s }
	mine := endpoint("ep9", set("name", "gen"), cpuEndpoint)
	old := endpoint("ep0", set("name", "gen"), cpuEndpoint, set("createdAt", "2026-03-01T00:00:00Z"))
	t.Run("found after a timeout", func(t *testing.T) {
		res, f := run(t, "CreateEndpoint", runOpts{body: body},
			with([]step{post(step{err: context.DeadlineExceeded}), {method: "GET", path: "/v2/serverless", status: 200, body: `{"endpoints":[` + old + `,` + mine + `]}`}},
				createdSteps("ep9", 1, "tpl1")...)...)
		wantStatus(t, res, 200)
		wantWarning(t, res, "endpoint ep9 was found")
		if m := decodeV1(t, res.Body); m["id"] != "ep9" {
			t.Errorf("answer %s", res.Body)
		}
		if f.count("POST", "/v2/serverless") != 1 {
			t.Error("created again")
		}
	})
	// The window is placed on v2's clock, read from the lookup's Date
	// header, as for pods (createdSince).
	at := func(d time.Duration) string { return testNow.Add(d).UTC().Format(time.RFC3339) }
	lookupAt := func(v2now time.Time, eps ...string) step {
		return step{method: "GET", path: "/v2/serverless", status: 200, body: `{"endpoints":[` + strings.Join(eps, ",") + `]}`,
			header: http.Header{"Date": {v2now.UTC().Format(http.TimeFormat)}}}
	}
	windows := []struct {
		name   string
		skew   time.Duration // v2's clock minus the gateway's
		eps    []string
		status int
		want   string // the endpoint answered, or a message part
	}{
		{"a same-named endpoint a minute older than the request is not taken (the local window allowed two)", 0,
			[]string{endpoint("ep-before", set("name", "gen"), cpuEndpoint, set("createdAt", at(-time.Minute)))}, 502, "not listed yet"},
		{"an endpoint stamped in the request's own second is taken", 0,
			[]string{endpoint("ep-same", set("name", "gen"), cpuEndpoint, set("createdAt", at(0)))}, 200, "ep-same"},
		{"v2's clock ten minutes ahead: its Date header places the window", 10 * time.Minute,
			[]string{endpoint("ep-older", set("name", "gen"), cpuEndpoint, set("createdAt", at(10*time.Minute-10*time.Second))),
				endpoint("ep-ahead", set("name", "gen"), cpuEndpoint, set("createdAt", at(10*time.Minute+time.Second)))}, 200, "ep-ahead"},
		{"v2's clock ten minutes behind: its endpoint is still recognised", -10 * time.Minute,
			[]string{endpoint("ep-behind", set("name", "gen"), cpuEndpoint, set("createdAt", at(-10*time.Minute)))}, 200, "ep-behind"},
		{"two endpoints inside the window are never guessed between", 10 * time.Minute,
			[]string{endpoint("ep-a", set("name", "gen"), cpuEndpoint, set("createdAt", at(10*time.Minute))),
				endpoint("ep-b", set("name", "gen"), cpuEndpoint, set("createdAt", at(10*time.Minute+time.Second)))}, 502, "cannot tell"},
	}
	for _, tc := range windows {
		t.Run(tc.name, func(t *testing.T) {
			script := []step{post(step{status: 503, body: problem(503, "unavailable")}), lookupAt(testNow.Add(tc.skew), tc.eps...)}
			if tc.status == 200 {
				script = append(script, createdSteps(tc.want, 1, "tpl1")...)
			}
			res, f := run(t, "CreateEndpoint", runOpts{body: body}, script...)
			wantStatus(t, res, tc.status)
			if n := f.count("POST", "/v2/serverless"); n != 1 {
				t.Fatalf("%d creates, want exactly 1", n)
			}
			if tc.status == 200 {
				if id := decodeV1(t, res.Body)["id"]; id != tc.want {
					t.Errorf("answered endpoint %v, want %s", id, tc.want)
				}
			} else {
				wantMessage(t, res, tc.want)
			}
		})
	}
	t.Run("5xx and not listed", func(t *testing.T) {
		res, _ := run(t, "CreateEndpoint", runOpts{body: body},
			post(step{status: 502, body: problem(502, "bad gateway")}),
			step{method: "GET", path: "/v2/serverless", status: 200, body: `{"endpoints":[` + old + `]}`})
		wantStatus(t, res, 502)
		wantMessage(t, res, "may or may not have been created", "did not retry")
	})
	t.Run("breaker open: nothing sent", func(t *testing.T) {
		res, _ := run(t, "CreateEndpoint", runOpts{body: body}, post(step{err: unavailableErr{}}))
		wantStatus(t, res, 503)
	})
	t.Run("unreadable 2xx, lookup fails", func(t *testing.T) {
		op := mustOp(t, "CreateEndpoint")
		f := newFake(&quietTB{TB: t}, // the unreadable answer is invalid on purpose
			post(step{status: 201, body: `{"id":"ep9","cpu":"oops"}`}),
			step{method: "GET", path: "/v2/serverless", status: 500, body: problem(500, "boom")})
		res := op.Plan(context.Background(), &Request{Op: op, Body: []byte(body), Options: Options{Now: func() time.Time { return testNow }}}, f)
		f.done()
		wantStatus(t, res, 502)
		wantMessage(t, res, "unreadable endpoint", "looking for it failed")
	})
}

// ---------------------------------------------------------------------------
// R-Endpoint

func TestREndpoint(t *testing.T) {
	tests := []struct {
		name string
		ep   string
		want string
	}{
		{"CPU endpoint", endpoint("e", cpuEndpoint, set("networkVolumes", `[]`), set("dataCenterIds", `[]`)),
			`{"id":"e","name":"image-generator","allowedCudaVersions":[],"computeType":"CPU","createdAt":"2026-03-13T20:00:30Z","dataCenterIds":[],"env":{"MODEL":"sdxl"},
			"executionTimeoutMs":300000,"flashboot":false,"gpuCount":null,"gpuTypeIds":[],"idleTimeout":5,"instanceIds":["cpu5c-4-8","cpu5g-8-32"],"minCudaVersion":null,"networkVolumeId":null,"networkVolumeIds":[],"scalerType":"QUEUE_DELAY",
			"scalerValue":4,"templateId":null,"userId":null,"version":3,"workersMax":3,"workersMin":0}`},
		{"REQUEST_COUNT, no idleTimeout, floor, fractional never", endpoint("e", set("scaling", `{"type":"REQUEST_COUNT","requestCount":7}`),
			set("workers", `{"min":1,"max":2}`), set("gpu", `{"pools":["AMPERE_48"],"count":1,"allowedCudaVersions":[],"minCudaVersion":"12.4"}`)),
			`{"id":"e","name":"image-generator","allowedCudaVersions":[],"computeType":"GPU","createdAt":"2026-03-13T20:00:30Z","dataCenterIds":["US-KS-2"],
			"env":{"MODEL":"sdxl"},"executionTimeoutMs":300000,"flashboot":false,"gpuCount":1,"gpuTypeIds":["NVIDIA A40","NVIDIA RTX A6000"],"idleTimeout":null,"instanceIds":[],"minCudaVersion":"12.4",
			"networkVolumeId":"vol1","networkVolumeIds":["vol1"],"scalerType":"REQUEST_COUNT","scalerValue":7,"templateId":null,"userId":null,"version":3,"workersMax":2,"workersMin":1}`},
		{"fractional queueDelay is null, CUDA outside v1 null, PRIORITY_FLASHBOOT is flashboot", endpoint("e", set("scaling", `{"type":"QUEUE_DELAY","queueDelay":2.5}`), set("flashboot", "PRIORITY_FLASHBOOT"),
			set("gpu", `{"pools":["ADA_24"],"excludedTypes":[" NVIDIA L4"],"count":1,"allowedCudaVersions":["12.8","11.7"],"minCudaVersion":"11.0"}`)),
			`{"id":"e","name":"image-generator","allowedCudaVersions":null,"computeType":"GPU","createdAt":"2026-03-13T20:00:30Z","dataCenterIds":["US-KS-2"],
			"env":{"MODEL":"sdxl"},"executionTimeoutMs":300000,"flashboot":true,"gpuCount":1,"gpuTypeIds":["NVIDIA GeForce RTX 4090"],"idleTimeout":5,"instanceIds":[],
			"minCudaVersion":null,"networkVolumeId":"vol1","networkVolumeIds":["vol1"],"scalerType":"QUEUE_DELAY","scalerValue":null,"templateId":null,"userId":null,"version":3,"workersMax":3,"workersMin":0}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			script := []step{epGetStep("e", tc.ep)}
			if !strings.Contains(tc.name, "CPU endpoint") {
				script = append(script, catalogStep())
			}
			script = append(script, releasesStep("e", 3))
			res, _ := run(t, "GetEndpoint", runOpts{params: map[string]string{"endpointId": "e"}}, script...)
			wantStatus(t, res, 200)
			jsonEqual(t, "v1 endpoint", res.Body, tc.want)
		})
	}
}

func TestPoolSelection(t *testing.T) {
	var cat v2GPUPoolCatalog
	if err := json.Unmarshal([]byte(poolCatalog), &cat); err != nil {
		t.Fatal(err)
	}
	all := []string{"NVIDIA GeForce RTX 4090", "NVIDIA L4", "NVIDIA A40", "NVIDIA RTX A6000", "AMD Instinct MI300X OAM", "Tesla T4"}
	// Every subset: the eligible set after the round trip is exactly the
	// listed types that are in a pool.
	for mask := 1; mask < 1<<len(all); mask++ {
		var listed, inPool []string
		for i, id := range all {
			if mask&(1<<i) != 0 {
				listed = append(listed, id)
				if i < 4 {
					inPool = append(inPool, id)
				}
			}
		}
		pools, excluded, dropped := cat.poolSelection(listed)
		if len(inPool) == 0 {
			if len(pools) != 0 {
				t.Errorf("%v: pools %v", listed, pools)
			}
			continue
		}
		got := cat.eligible(pools, excluded)
		if fmt.Sprint(sortedCopy(got)) != fmt.Sprint(sortedCopy(inPool)) {
			t.Errorf("%v: eligible %v (pools %v excluded %v)", listed, got, pools, excluded)
		}
		if len(dropped) != len(listed)-len(inPool) {
			t.Errorf("%v: dropped %v", listed, dropped)
		}
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestCudaLess(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{{"12.2", "12.11", true}, {"12.11", "12.2", false}, {"11.8", "12.0", true}, {"12.4", "12.4", false}, {"x", "y", true}} {
		if got := cudaLess(tc.a, tc.b); got != tc.want {
			t.Errorf("cudaLess(%s,%s)=%v", tc.a, tc.b, got)
		}
	}
}

// ---------------------------------------------------------------------------
// #14 ListEndpoints, #15 GetEndpoint

func endpointList(eps ...string) string { return `{"endpoints":[` + strings.Join(eps, ",") + `]}` }

func TestListEndpoints(t *testing.T) {
	gpu, cpu := endpoint("e1"), endpoint("e2", cpuEndpoint)
	list := step{method: "GET", path: "/v2/serverless", status: 200, body: endpointList(gpu, cpu)}
	workers := `{"workers":[{"id":"w1","status":"IDLE","isStale":false,"version":2,"gpuCount":1,"image":"runpod/worker:1","uptimeSeconds":5,
		"gpuTypeId":"NVIDIA GeForce RTX 4090","dataCenterId":"US-KS-2","startedAt":"2026-03-13T20:01:00Z"}],
		"summary":{"running":0,"idle":1,"initializing":0,"throttled":0,"unhealthy":0,"total":1},"endpointVersion":2}`
	noWorkers := `{"workers":[],"summary":{"running":0,"idle":0,"initializing":0,"throttled":0,"unhealthy":0,"total":0},"endpointVersion":5}`

	t.Run("plain", func(t *testing.T) {
		res, _ := run(t, "ListEndpoints", runOpts{}, list, catalogStep())
		wantStatus(t, res, 200)
		var out []map[string]any
		_ = json.Unmarshal(res.Body, &out)
		if len(out) != 2 || out[0]["version"] != nil || out[1]["version"] != nil || out[0]["templateId"] != nil ||
			out[0]["workers"] != nil || out[0]["template"] != nil || out[1]["computeType"] != "CPU" {
			t.Errorf("list %s", res.Body)
		}
		if got := out[0]["gpuTypeIds"]; fmt.Sprint(got) != "[NVIDIA GeForce RTX 4090]" {
			t.Errorf("gpuTypeIds %v", got)
		}
	})
	t.Run("includeWorkers and includeTemplate", func(t *testing.T) {
		res, _ := run(t, "ListEndpoints", runOpts{query: "includeWorkers=true&includeTemplate=true"}, list, catalogStep(),
			step{method: "GET", path: "/v2/serverless/e1/workers", status: 200, body: workers},
			step{method: "GET", path: "/v2/serverless/e2/workers", status: 200, body: noWorkers})
		wantStatus(t, res, 200)
		var out []v1Endpoint
		if err := json.Unmarshal(res.Body, &out); err != nil {
			t.Fatal(err)
		}
		if len(out[0].Workers) != 1 || out[0].Workers[0].EndpointID != "e1" || out[0].Workers[0].GPU.ID != "NVIDIA GeForce RTX 4090" ||
			*out[0].Version != 2 || out[1].Workers == nil || len(out[1].Workers) != 0 || *out[1].Version != 5 {
			t.Errorf("workers %s", res.Body)
		}
		tpl := out[0].Template
		if tpl == nil || tpl.ImageName != "runpod/worker:1" || !tpl.IsServerless || fmt.Sprint(tpl.DockerStartCmd) != "[python handler.py]" || tpl.ID != "" {
			t.Errorf("template %+v", tpl)
		}
	})
	t.Run("includeWorkers above the cap", func(t *testing.T) {
		var eps []string
		for i := 0; i <= maxWorkerEndpoints; i++ {
			eps = append(eps, endpoint(fmt.Sprintf("c%d", i), cpuEndpoint))
		}
		res, _ := run(t, "ListEndpoints", runOpts{query: "includeWorkers=true"}, step{method: "GET", path: "/v2/serverless", status: 200, body: endpointList(eps...)})
		wantStatus(t, res, 400)
		wantMessage(t, res, "includeWorkers")
	})
	t.Run("catalog failure answers gpuTypeIds null", func(t *testing.T) {
		res, _ := run(t, "ListEndpoints", runOpts{}, list,
			step{method: "GET", path: "/v2/catalog/gpus", status: 500, body: problem(500, "boom")})
		wantStatus(t, res, 200)
		wantWarning(t, res, "gpuTypeIds answered null")
		var out []map[string]json.RawMessage
		_ = json.Unmarshal(res.Body, &out)
		if len(out) != 2 || string(out[0]["gpuTypeIds"]) != "null" || string(out[1]["gpuTypeIds"]) != "[]" {
			t.Errorf("answer %s", res.Body)
		}
	})
	t.Run("load balancer warning", func(t *testing.T) {
		res, _ := run(t, "ListEndpoints", runOpts{}, step{method: "GET", path: "/v2/serverless", status: 200,
			body: endpointList(endpoint("lb", cpuEndpoint, set("type", "LOAD_BALANCER"), set("scaling", `{"type":"REQUEST_COUNT","requestCount":2}`),
				set("requestUrls", `{"base":"https://lb.api.runpod.ai","health":"https://lb.api.runpod.ai/ping"}`)))})
		wantStatus(t, res, 200)
		wantWarning(t, res, "lb are v2 LOAD_BALANCER endpoints")
	})
	t.Run("empty", func(t *testing.T) {
		res, _ := run(t, "ListEndpoints", runOpts{}, step{method: "GET", path: "/v2/serverless", status: 200, body: `{"endpoints":[]}`})
		wantStatus(t, res, 200)
		jsonEqual(t, "list", res.Body, `[]`)
	})
	t.Run("bad query", func(t *testing.T) {
		res, _ := run(t, "ListEndpoints", runOpts{query: "includeWorkers=maybe&includeTemplate=1&includeTemplate=0"})
		wantStatus(t, res, 400)
		wantMessage(t, res, "includeTemplate: must be given at most once", `includeWorkers: "maybe" is not a boolean`)
	})
	t.Run("v2 error", func(t *testing.T) {
		res, _ := run(t, "ListEndpoints", runOpts{}, step{method: "GET", path: "/v2/serverless", status: 403, body: problem(403, "no access")})
		wantStatus(t, res, 403)
	})
}

func TestGetEndpoint(t *testing.T) {
	params := map[string]string{"endpointId": "e1"}
	t.Run("includeWorkers uses the workers' version", func(t *testing.T) {
		res, f := run(t, "GetEndpoint", runOpts{params: params, query: "includeWorkers=true"}, epGetStep("e1", endpoint("e1")), catalogStep(),
			step{method: "GET", path: "/v2/serverless/e1/workers", status: 200, body: `{"workers":[],"summary":{"running":0,"idle":0,"initializing":0,"throttled":0,"unhealthy":0,"total":0},"endpointVersion":4}`})
		wantStatus(t, res, 200)
		if m := decodeV1(t, res.Body); m["version"] != 4.0 || fmt.Sprint(m["workers"]) != "[]" {
			t.Errorf("answer %s", res.Body)
		}
		if f.count("GET", "/v2/serverless/e1/releases") != 0 {
			t.Error("releases read too")
		}
	})
	t.Run("version is best effort", func(t *testing.T) {
		for _, tc := range []struct {
			s    step
			warn string
		}{
			{step{status: 429, body: problem(429, "slow")}, "rate limit"},
			{step{status: 500, body: problem(500, "boom")}, "releases of e1 ("},
			{step{err: context.DeadlineExceeded}, "releases of e1 ("},
			{step{status: 404, body: problem(404, "gone")}, ""},
		} {
			tc.s.method, tc.s.path = "GET", "/v2/serverless/e1/releases"
			res, _ := run(t, "GetEndpoint", runOpts{params: params}, epGetStep("e1", endpoint("e1")), catalogStep(), tc.s)
			wantStatus(t, res, 200)
			if m := decodeV1(t, res.Body); m["version"] != nil {
				t.Errorf("version %v", m["version"])
			}
			if tc.warn != "" {
				wantWarning(t, res, tc.warn)
			} else if w := strings.Join(res.Warnings, " | "); strings.Contains(w, "version") {
				t.Errorf("warnings %v", res.Warnings)
			}
		}
	})
	t.Run("not found", func(t *testing.T) {
		res, _ := run(t, "GetEndpoint", runOpts{params: params}, step{method: "GET", path: "/v2/serverless/e1", status: 404, body: problem(404, "serverless endpoint e1 not found")})
		wantStatus(t, res, 404)
		wantMessage(t, res, "not found")
	})
	t.Run("workers failure fails", func(t *testing.T) {
		res, _ := run(t, "GetEndpoint", runOpts{params: params, query: "includeWorkers=true"}, epGetStep("e1", endpoint("e1")), catalogStep(),
			step{method: "GET", path: "/v2/serverless/e1/workers", status: 429, body: problem(429, "slow"), header: http.Header{"Retry-After": {"3"}}})
		wantStatus(t, res, 429)
	})
	t.Run("id that is not forwarded", func(t *testing.T) {
		res, f := run(t, "GetEndpoint", runOpts{params: map[string]string{"endpointId": ".."}})
		wantStatus(t, res, 404)
		if len(f.calls) != 0 {
			t.Error("forwarded")
		}
	})
	t.Run("id with a slash is not forwarded (P9)", func(t *testing.T) {
		res, f := run(t, "GetEndpoint", runOpts{params: map[string]string{"endpointId": "a/b"}})
		wantStatus(t, res, 404)
		if len(f.calls) != 0 {
			t.Error("forwarded")
		}
	})
	t.Run("templateId only when v2 says it", func(t *testing.T) {
		res, _ := run(t, "GetEndpoint", runOpts{params: params}, epGetStep("e1", endpoint("e1")), catalogStep(), releasesStep("e1", 1))
		if m := decodeV1(t, res.Body); m["templateId"] != nil {
			t.Errorf("templateId invented: %s", res.Body)
		}
		var e v2Endpoint
		_ = json.Unmarshal([]byte(endpoint("e1", set("templateId", "tplX"))), &e)
		if v1EndpointFrom(&e).TemplateID != "tplX" {
			t.Error("templateId from v2 not used")
		}
	})
}

// ---------------------------------------------------------------------------
// #16 / #18 UpdateEndpoint

func TestUpdateEndpoint(t *testing.T) {
	gpuCur := endpoint("e1")
	rc := endpoint("e1", set("scaling", `{"type":"REQUEST_COUNT","requestCount":2}`), set("workers", `{"min":0,"max":3}`))
	prio := endpoint("e1", set("flashboot", "PRIORITY_FLASHBOOT"))
	allowedCur := endpoint("e1", set("gpu", `{"pools":["ADA_24"],"count":2,"allowedCudaVersions":["12.4"],"minCudaVersion":null}`))
	floorCur := endpoint("e1", set("gpu", `{"pools":["ADA_24"],"count":2,"allowedCudaVersions":[],"minCudaVersion":"12.2"}`))
	cpuCur := endpoint("e1", cpuEndpoint)
	get := func(b string) step { return epGetStep("e1", b) }
	tests := []struct {
		name   string
		body   string
		pre    []step // before the PATCH
		want   string // PATCH body; "" = no PATCH
		warn   []string
		status int
	}{
		{name: "name only: no pre-read", body: `{"name":"renamed","workersMin":1,"workersMax":5,"executionTimeoutMs":1000,"flashboot":false,"dataCenterIds":[]}`,
			want: `{"name":"renamed","workers":{"min":1,"max":5},"timeout":1000,"flashboot":"OFF","dataCenterIds":[]}`},
		{name: "both scaler fields", body: `{"scalerType":"REQUEST_COUNT","scalerValue":6}`, want: `{"scaling":{"type":"REQUEST_COUNT","requestCount":6}}`},
		{name: "same scalerType keeps the value", body: `{"scalerType":"QUEUE_DELAY"}`, pre: []step{get(gpuCur)},
			want: `{"scaling":{"type":"QUEUE_DELAY","queueDelay":4}}`},
		{name: "new scalerType gets v1's default value", body: `{"scalerType":"REQUEST_COUNT"}`, pre: []step{get(gpuCur)},
			want: `{"scaling":{"type":"REQUEST_COUNT","requestCount":4}}`},
		{name: "scalerValue takes the current type", body: `{"scalerValue":9}`, pre: []step{get(rc)},
			want: `{"scaling":{"type":"REQUEST_COUNT","requestCount":9}}`},
		{name: "idleTimeout", body: `{"idleTimeout":30}`, pre: []step{get(gpuCur)}, want: `{"workers":{"idleTimeout":30}}`},
		{name: "idleTimeout on REQUEST_COUNT: not applied, no PATCH", body: `{"idleTimeout":30}`, pre: []step{get(rc)},
			warn: []string{"idleTimeout was not applied"}},
		{name: "idleTimeout with a switch to REQUEST_COUNT", body: `{"idleTimeout":30,"scalerType":"REQUEST_COUNT","scalerValue":2}`, pre: []step{get(gpuCur)},
			want: `{"scaling":{"type":"REQUEST_COUNT","requestCount":2}}`, warn: []string{"idleTimeout was not applied"}},
		{name: "flashboot keeps PRIORITY_FLASHBOOT", body: `{"flashboot":true,"name":"n"}`, pre: []step{get(prio)}, want: `{"name":"n"}`},
		{name: "flashboot on", body: `{"flashboot":true}`, pre: []step{get(gpuCur)}, want: `{"flashboot":"FLASHBOOT"}`},
		{name: "gpuTypeIds: pools and exclusions, always both", body: `{"gpuTypeIds":["NVIDIA A40","NVIDIA RTX A6000"]}`, pre: []step{get(gpuCur), catalogStep()},
			want: `{"gpu":{"pools":["AMPERE_48"],"excludedTypes":[],"count":1}}`, warn: []string{"AMPERE_48"}},
		{name: "gpuCount", body: `{"gpuCount":2}`, pre: []step{get(gpuCur)}, want: `{"gpu":{"count":2}}`},
		{name: "floor clears the set", body: `{"minCudaVersion":"12.6"}`, pre: []step{get(allowedCur)},
			want: `{"gpu":{"allowedCudaVersions":[],"minCudaVersion":"12.6","count":2}}`},
		{name: "set clears the floor", body: `{"allowedCudaVersions":["12.8"]}`, pre: []step{get(floorCur)},
			want: `{"gpu":{"allowedCudaVersions":["12.8"],"minCudaVersion":"","count":2}}`},
		{name: "set and floor together", body: `{"allowedCudaVersions":["12.8","12.2"],"minCudaVersion":"12.4"}`, pre: []step{get(allowedCur)},
			want: `{"gpu":{"allowedCudaVersions":["12.8"],"minCudaVersion":"","count":2}}`},
		{name: "empty set clears", body: `{"allowedCudaVersions":[]}`, pre: []step{get(allowedCur)},
			want: `{"gpu":{"allowedCudaVersions":[],"count":2}}`},
		{name: "cpuFlavorIds keep each flavor's vCPUs", body: `{"cpuFlavorIds":["cpu5g","cpu3c"]}`, pre: []step{get(cpuCur)},
			want: `{"cpu":[{"id":"cpu5g","vcpuCount":8},{"id":"cpu3c","vcpuCount":4}]}`},
		{name: "vcpuCount applies to the current flavors", body: `{"vcpuCount":16}`, pre: []step{get(cpuCur)},
			want: `{"cpu":[{"id":"cpu5c","vcpuCount":16},{"id":"cpu5g","vcpuCount":16}]}`},
		{name: "CPU fields on a GPU endpoint are ignored", body: `{"cpuFlavorIds":["cpu3c"],"vcpuCount":4}`, pre: []step{get(gpuCur)},
			warn: []string{"ignored cpuFlavorIds, vcpuCount"}},
		{name: "GPU fields on a CPU endpoint are ignored", body: `{"gpuTypeIds":["NVIDIA L4"],"gpuCount":2,"name":"x"}`, pre: []step{get(cpuCur)},
			want: `{"name":"x"}`, warn: []string{"ignored gpuCount, gpuTypeIds"}},
		{name: "templateId is applied once", body: `{"templateId":"tpl2"}`, want: `{"templateId":"tpl2"}`, warn: []string{"will not roll out"}},
		{name: "network volumes replace the list", body: `{"networkVolumeId":"v9"}`, want: `{"networkVolumes":["v9"]}`},
		{name: "network volumes cleared", body: `{"networkVolumeIds":[]}`, want: `{"networkVolumes":[]}`},
		{name: "empty body: no PATCH", body: `{}`, pre: []step{get(gpuCur)}},
		{name: "only unknown fields", body: `{"computeType":"CPU"}`, pre: []step{get(gpuCur)}, warn: []string{"computeType"}},
		{name: "empty gpuTypeIds", body: `{"gpuTypeIds":[]}`, pre: []step{get(gpuCur)}, status: 400},
		{name: "empty cpuFlavorIds", body: `{"cpuFlavorIds":[]}`, pre: []step{get(cpuCur)}, status: 400},
		{name: "bad body", body: `{"scalerType":1}`, status: 400},
	}
	for _, tc := range tests {
		for _, opName := range []string{"UpdateEndpoint", "UpdateEndpointViaPost"} {
			t.Run(opName+"/"+tc.name, func(t *testing.T) {
				script := append([]step{}, tc.pre...)
				answer := gpuCur
				if tc.want != "" {
					script = append(script, step{method: "PATCH", path: "/v2/serverless/e1", status: 200, body: answer})
				}
				if tc.status == 0 {
					if !strings.Contains(answer, `"cpu"`) {
						if !hasStep(script, "/v2/catalog/gpus") {
							script = append(script, catalogStep())
						}
					}
					script = append(script, releasesStep("e1", 2))
				}
				res, f := run(t, opName, runOpts{params: map[string]string{"endpointId": "e1"}, body: tc.body}, script...)
				if tc.status != 0 {
					wantStatus(t, res, tc.status)
					return
				}
				wantStatus(t, res, 200)
				patches := f.bodies("PATCH", "/v2/serverless/e1")
				if tc.want == "" {
					if len(patches) != 0 {
						t.Fatalf("unexpected PATCH %v", patches)
					}
				} else {
					jsonEqual(t, "v2 PATCH body", []byte(patches[0]), tc.want)
				}
				for _, w := range tc.warn {
					wantWarning(t, res, w)
				}
				m := decodeV1(t, res.Body)
				if strings.Contains(tc.body, "templateId") != (m["templateId"] == "tpl2") {
					t.Errorf("templateId: %v", m["templateId"])
				}
			})
		}
	}
}

func hasStep(s []step, path string) bool {
	for _, x := range s {
		if x.path == path {
			return true
		}
	}
	return false
}

func TestUpdateEndpointErrors(t *testing.T) {
	params := map[string]string{"endpointId": "e1"}
	t.Run("unknown endpoint → 400", func(t *testing.T) {
		res, _ := run(t, "UpdateEndpoint", runOpts{params: params, body: `{"name":"x"}`},
			step{method: "PATCH", path: "/v2/serverless/e1", status: 404, body: problem(404, "serverless endpoint e1 not found")})
		wantStatus(t, res, 400)
		wantMessage(t, res, "not found")
	})
	t.Run("unknown endpoint on the pre-read → 400", func(t *testing.T) {
		res, _ := run(t, "UpdateEndpoint", runOpts{params: params, body: `{"scalerValue":3}`},
			step{method: "GET", path: "/v2/serverless/e1", status: 404, body: problem(404, "serverless endpoint e1 not found")})
		wantStatus(t, res, 400)
	})
	t.Run("v2 400", func(t *testing.T) {
		res, _ := run(t, "UpdateEndpoint", runOpts{params: params, body: `{"workersMax":1000}`},
			step{method: "PATCH", path: "/v2/serverless/e1", status: 400, body: problem(400, "workers.max 1000 exceeds the account's worker quota (100)")})
		wantStatus(t, res, 400)
		wantMessage(t, res, "worker quota")
	})
	t.Run("catalog failure", func(t *testing.T) {
		res, _ := run(t, "UpdateEndpoint", runOpts{params: params, body: `{"gpuTypeIds":["NVIDIA L4"]}`}, epGetStep("e1", endpoint("e1")),
			step{method: "GET", path: "/v2/catalog/gpus", err: context.DeadlineExceeded})
		wantStatus(t, res, 504)
		wantMessage(t, res, "gpuTypeIds: the v2 GPU catalog could not be read")
	})
	t.Run("applied but unreadable, and not read again: its id", func(t *testing.T) {
		f := newFake(&quietTB{TB: t}, step{method: "PATCH", path: "/v2/serverless/e1", status: 200, body: `{"id":7}`},
			step{method: "GET", path: "/v2/serverless/e1", status: 500, body: problem(500, "boom")})
		op := mustOp(t, "UpdateEndpoint")
		res := op.Plan(context.Background(), &Request{Op: op, Params: params, Body: []byte(`{"name":"x"}`)}, f)
		f.done()
		wantStatus(t, res, 200)
		wantWarning(t, res, "nor the endpoint read again")
		if string(res.Body) != `{"id":"e1"}` {
			t.Errorf("answer %s", res.Body)
		}
	})
	t.Run("applied but unreadable, read again: the whole endpoint", func(t *testing.T) {
		f := newFake(&quietTB{TB: t}, step{method: "PATCH", path: "/v2/serverless/e1", status: 200, body: `{"id":7}`},
			epGetStep("e1", endpoint("e1")), catalogStep(), releasesStep("e1", 2))
		op := mustOp(t, "UpdateEndpoint")
		res := op.Plan(context.Background(), &Request{Op: op, Params: params, Body: []byte(`{"name":"x"}`)}, f)
		f.done()
		wantStatus(t, res, 200)
		wantWarning(t, res, "the update was applied but v2's answer could not be read; the endpoint was read again")
		m := decodeV1(t, res.Body)
		for _, k := range []string{"id", "name", "computeType", "gpuTypeIds", "idleTimeout", "scalerType", "scalerValue", "templateId", "userId", "version", "workersMax"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%s absent: %s", k, res.Body)
			}
		}
		if m["version"] != 2.0 {
			t.Errorf("version %v", m["version"])
		}
	})
}

// ---------------------------------------------------------------------------
// #17 DeleteEndpoint

func TestDeleteEndpoint(t *testing.T) {
	params := map[string]string{"endpointId": "e1"}
	res, _ := run(t, "DeleteEndpoint", runOpts{params: params}, step{method: "DELETE", path: "/v2/serverless/e1", status: 204})
	wantStatus(t, res, 204)
	wantWarning(t, res, "bound template")
	if res.Body != nil {
		t.Errorf("body %q", res.Body)
	}
	res, _ = run(t, "DeleteEndpoint", runOpts{params: params}, step{method: "DELETE", path: "/v2/serverless/e1", status: 404, body: problem(404, "serverless endpoint e1 not found")})
	wantStatus(t, res, 400)
	if len(res.Warnings) != 0 {
		t.Errorf("warnings on a failure: %v", res.Warnings)
	}
	res, _ = run(t, "DeleteEndpoint", runOpts{params: map[string]string{"endpointId": ""}})
	wantStatus(t, res, 404)
}
