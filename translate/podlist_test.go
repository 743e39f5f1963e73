package translate

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

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
			step{method: "GET", path: "/v2/serverless/ep1/workers", status: 200, body: workersBody}, catalogStep())
		wantStatus(t, res, 200)
		// Every key of v1's Pod (issue 37): v1's certain values for a
		// worker, null where v2 tells nothing (here also the container
		// fields: the pod list reads no endpoint). Its costs are the
		// catalog's serverless list price for its GPU type (NVIDIA L4:
		// 0.9 a GPU), and its cloud is Secure: the catalog operates L4
		// in no other (maxCount.community 0); unplaced, they are null.
		const rest = `"containerDiskInGb":null,"containerRegistryAuthId":null,"dockerEntrypoint":[],"dockerStartCmd":null,"env":null,"ports":null,` +
			`"interruptible":false,"locked":false,"volumeInGb":0,"volumeEncrypted":false,` +
			`"networkVolume":null,"portMappings":null,"publicIp":null,"savingsPlans":null,"volumeMountPath":null`
		// And v1's keys v2 tells nothing of for a worker: its name, CPU
		// figures, host machine, last status change and renter; and, here,
		// its template (the store does not know the endpoint's) and, before
		// v2 places it, its image, GPU, start and version.
		const unknown = `"name":null,"cpuFlavorId":null,"vcpuCount":null,"memoryInGb":null,"machineId":null,"lastStatusChange":null,"consumerUserId":null,"templateId":null`
		jsonEqual(t, "workers", res.Body, `[
			{"id":"w1","image":"img:w","desiredStatus":"RUNNING","gpu":{"id":"NVIDIA L4","count":1},"lastStartedAt":"2026-03-13T19:00:00Z",
			 "endpointId":"ep1","aiApiId":"ep1","slsVersion":3,"costPerHr":0.9,"adjustedCostPerHr":0.9,
			 "machine":{"gpuTypeId":"NVIDIA L4","dataCenterId":"EU-RO-1","secureCloud":true,"costPerHr":0.9,"currentPricePerGpu":0.9},`+rest+`,`+unknown+`},
			{"id":"w2","desiredStatus":"RUNNING","endpointId":"ep1","aiApiId":"ep1","image":null,"gpu":null,"lastStartedAt":null,"slsVersion":null,
			 "costPerHr":null,"adjustedCostPerHr":null,`+rest+`,`+unknown+`}]`)
	})
	t.Run("endpointId with filters", func(t *testing.T) {
		res, _ := run(t, "ListPods", runOpts{query: "endpointId=ep1&gpuTypeId=NVIDIA%20L4"},
			step{method: "GET", path: "/v2/serverless/ep1/workers", status: 200, body: workersBody}, catalogStep())
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
			step{method: "GET", path: "/v2/serverless/ep1/workers", status: 200, body: workersBody}, catalogStep())
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
// Benchmark: GET /v1/pods with 100 pods.

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
