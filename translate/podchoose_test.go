package translate

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// Creates that real clients send without gpuTypeIds or cpuFlavorIds (issue
// 14 item 1, P3), and the fields outside the v1 document they send (item 3).

// gpuEntry is one v2 GpuType of a catalog read with include=AVAILABILITY.
func gpuEntry(id, avail string, secure, community bool, ps, pc float64, dcs ...string) string {
	dcList := make([]string, len(dcs))
	for i, dc := range dcs {
		dcList[i] = fmt.Sprintf(`{"id":%q,"name":%q,"availability":%q}`, dc, dc, avail)
	}
	return fmt.Sprintf(`{"id":%q,"name":%q,"pool":null,"manufacturer":"NVIDIA","memory":24,"secure":%t,"community":%t,
		"price":{"secure":%g,"community":%g},"maxCount":{"secure":8,"community":8},"availability":%q,"dataCenters":[%s]}`,
		id, id, secure, community, ps, pc, avail, strings.Join(dcList, ","))
}

const (
	h100  = "NVIDIA H100 80GB HBM3"
	l4    = "NVIDIA L4"
	a40   = "NVIDIA A40"
	a4000 = "NVIDIA RTX A4000"
)

// choiceCatalog: on SECURE, L4 and H100 are HIGH (L4 cheaper), A40 LOW;
// RTX A4000 is COMMUNITY only; RTX 4090 has no stock; B300 is not a v1 type.
var choiceCatalog = `{"gpus":[` + strings.Join([]string{
	gpuEntry(h100, "HIGH", true, true, 2.99, 2.69, "US-TX-3"),
	gpuEntry("NVIDIA B300", "HIGH", true, true, 0.10, 0.10, "US-TX-3"),
	gpuEntry(a40, "LOW", true, true, 0.44, 0.35, "EU-RO-1"),
	gpuEntry(l4, "HIGH", true, false, 0.39, 0, "US-TX-3", "EU-FR-1"),
	gpuEntry("NVIDIA GeForce RTX 4090", "NONE", true, true, 0.69, 0.34),
	gpuEntry(a4000, "MEDIUM", false, true, 0.25, 0.17, "EU-RO-1"),
}, ",") + `]}`

const gpuCatQuery = "cloud=SECURE&count=1&include=AVAILABILITY&product=POD"

func gpuCatStep(query, body string) step {
	return step{method: "GET", path: "/v2/catalog/gpus", query: query, status: 200, body: body}
}

func createdIDs(t *testing.T, f *fakeCaller) []string {
	t.Helper()
	var out []string
	for _, b := range f.bodies("POST", "/v2/pods") {
		var v struct {
			GPU *struct{ ID string }
			CPU *struct{ ID string }
		}
		if err := json.Unmarshal([]byte(b), &v); err != nil {
			t.Fatal(err)
		}
		switch {
		case v.GPU != nil:
			out = append(out, v.GPU.ID)
		case v.CPU != nil:
			out = append(out, v.CPU.ID)
		}
	}
	return out
}

func noteCodes(res *Result) []string {
	var out []string
	for _, n := range res.Notes {
		out = append(out, n.Code)
	}
	return out
}

func TestCreateGPUPodWithoutGPUTypeIDsChoosesFromTheCatalog(t *testing.T) {
	body := func(extra string) string { return `{"name":"job","imageName":"img"` + extra + `}` }
	gpuPod := func(id string) string {
		return newPod("p1", set("name", "job"), set("gpu", `{"id":"`+id+`","count":1}`))
	}
	noCapacity := createFail(400, "no capacity")

	t.Run("most available first, then the lower price; unavailable, other-cloud and non-v1 types are never tried", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body("")}, gpuCatStep(gpuCatQuery, choiceCatalog), noCapacity, noCapacity, noCapacity)
		wantStatus(t, res, 500) // v1's stock-out
		if got, want := createdIDs(t, f), []string{l4, h100, a40}; !reflect.DeepEqual(got, want) {
			t.Errorf("tried %q, want %q", got, want)
		}
		wantMessage(t, res, V1StockOut, "no gpuTypeIds could be placed")
	})
	t.Run("the chosen type and its price are named in X-Compat-Warning", func(t *testing.T) {
		res, _ := run(t, "CreatePod", runOpts{body: body("")}, gpuCatStep(gpuCatQuery, choiceCatalog), noCapacity, createStep(gpuPod(h100)))
		wantStatus(t, res, 201)
		wantWarning(t, res, "gpuTypeIds was not sent: the gateway chose NVIDIA H100 80GB HBM3 (availability HIGH, list price $2.99/h per GPU on SECURE), the first that v2 could create of 3 v1 GPU types")
		wantWarning(t, res, "more than ten times")
		if !reflect.DeepEqual(noteCodes(res), []string{CodeGPUTypeChosen}) {
			t.Errorf("notes %q", noteCodes(res))
		}
		if m := decodeV1(t, res.Body); m["gpu"].(map[string]any)["id"] != h100 {
			t.Errorf("answer %s", res.Body)
		}
	})
	t.Run("COMMUNITY cloud ranks the community offers and prices", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body(`,"cloudType":"COMMUNITY"`)},
			gpuCatStep("cloud=COMMUNITY&count=1&include=AVAILABILITY&product=POD", choiceCatalog), noCapacity, noCapacity, noCapacity)
		wantStatus(t, res, 500)
		if got, want := createdIDs(t, f), []string{h100, a4000, a40}; !reflect.DeepEqual(got, want) {
			t.Errorf("tried %q, want %q", got, want)
		}
	})
	t.Run("default_gpu_types narrows the set, and its order breaks availability ties", func(t *testing.T) {
		opts := Options{DefaultGPUTypes: []string{a40, h100, l4}}
		res, f := run(t, "CreatePod", runOpts{body: body(""), options: opts}, gpuCatStep(gpuCatQuery, choiceCatalog), noCapacity, noCapacity, createStep(gpuPod(a40)))
		wantStatus(t, res, 201)
		if got, want := createdIDs(t, f), []string{h100, l4, a40}; !reflect.DeepEqual(got, want) {
			t.Errorf("tried %q, want %q", got, want)
		}
		wantWarning(t, res, "of 3 of the gateway's default GPU types (default_gpu_types) ranked by availability, then their configured order")
	})
	t.Run("dataCenterIds keep only the types offered there", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body(`,"dataCenterIds":["EU-RO-1"]`)}, gpuCatStep(gpuCatQuery, choiceCatalog), createStep(gpuPod(a40)))
		wantStatus(t, res, 201)
		if got := createdIDs(t, f); !reflect.DeepEqual(got, []string{a40}) {
			t.Errorf("tried %q", got)
		}
		if b := f.bodies("POST", "/v2/pods")[0]; !strings.Contains(b, `"dataCenterIds":["EU-RO-1"]`) {
			t.Errorf("create body %s", b)
		}
	})
	t.Run("nothing available: v1's stock-out naming gpuTypeIds, before any create", func(t *testing.T) {
		none := `{"gpus":[` + gpuEntry(l4, "NONE", true, false, 0.39, 0) + `]}`
		res, f := run(t, "CreatePod", runOpts{body: body("")}, gpuCatStep(gpuCatQuery, none))
		wantStatus(t, res, 500)
		wantMessage(t, res, "gpuTypeIds: not sent", "none of v1's GPU types available for gpuCount 1 on SECURE cloud", "send gpuTypeIds")
		if f.count("POST", "/v2/pods") != 0 {
			t.Error("created anyway")
		}
	})
	t.Run("catalog unreadable: no guess among prices, no create", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body("")},
			step{method: "GET", path: "/v2/catalog/gpus", query: "*", status: 503, body: problem(503, "catalog down")})
		if res.Status < 500 {
			t.Errorf("status %d, want 5xx", res.Status)
		}
		wantMessage(t, res, "gpuTypeIds: not sent, and the v2 GPU catalog could not be read", "catalog down")
		if f.count("POST", "/v2/pods") != 0 {
			t.Error("created anyway")
		}
	})
	t.Run("catalog unreadable with default_gpu_types: those, in the configured order, with a warning", func(t *testing.T) {
		opts := Options{DefaultGPUTypes: []string{l4, a40}}
		res, f := run(t, "CreatePod", runOpts{body: body(""), options: opts},
			step{method: "GET", path: "/v2/catalog/gpus", query: "*", status: 503, body: problem(503, "catalog down")}, noCapacity, createStep(gpuPod(a40)))
		wantStatus(t, res, 201)
		if got := createdIDs(t, f); !reflect.DeepEqual(got, []string{l4, a40}) {
			t.Errorf("tried %q", got)
		}
		if !reflect.DeepEqual(noteCodes(res), []string{CodeCandidatesUnranked, CodeGPUTypeChosen}) {
			t.Errorf("notes %q", noteCodes(res))
		}
	})
	t.Run("at most 8 creates however many types are available", func(t *testing.T) {
		var entries []string
		for _, id := range sortedKeys(v1GPUTypeIDs)[:12] {
			entries = append(entries, gpuEntry(id, "HIGH", true, true, 1, 1))
		}
		script := []step{gpuCatStep(gpuCatQuery, `{"gpus":[`+strings.Join(entries, ",")+`]}`)}
		for i := 0; i < maxChosenCandidates; i++ {
			script = append(script, noCapacity)
		}
		res, f := run(t, "CreatePod", runOpts{body: body("")}, script...)
		wantStatus(t, res, 500)
		if n := f.count("POST", "/v2/pods"); n != maxChosenCandidates {
			t.Errorf("%d creates, want %d", n, maxChosenCandidates)
		}
	})
	for _, absent := range []string{``, `,"gpuTypeIds":null`, `,"gpuTypeIds":[]`, `,"gpuTypeIds":""`} {
		t.Run("gpuTypeIds "+strings.TrimPrefix(absent, `,"gpuTypeIds":`)+" is not sent", func(t *testing.T) {
			res, f := run(t, "CreatePod", runOpts{body: body(absent)}, gpuCatStep(gpuCatQuery, choiceCatalog), createStep(gpuPod(l4)))
			wantStatus(t, res, 201)
			if got := createdIDs(t, f); !reflect.DeepEqual(got, []string{l4}) {
				t.Errorf("tried %q", got)
			}
		})
	}
	t.Run("a lost reply is looked for, never created again (P3)", func(t *testing.T) {
		mine := gpuPod(l4)
		res, f := run(t, "CreatePod", runOpts{body: body("")}, gpuCatStep(gpuCatQuery, choiceCatalog), createFail(500, "internal"), lookupStep(podList(mine)))
		wantStatus(t, res, 201)
		if n := f.count("POST", "/v2/pods"); n != 1 {
			t.Fatalf("%d creates, want exactly 1", n)
		}
		if !reflect.DeepEqual(noteCodes(res), []string{CodeLostReplyRecovered, CodeGPUTypeChosen}) {
			t.Errorf("notes %q", noteCodes(res))
		}
	})
	t.Run("a lost reply with nothing found stops: no second candidate", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body("")}, gpuCatStep(gpuCatQuery, choiceCatalog), createFail(502, "bad gateway"), lookupStep(preList))
		wantStatus(t, res, 502)
		wantMessage(t, res, "may or may not have been created")
		if n := f.count("POST", "/v2/pods"); n != 1 {
			t.Fatalf("%d creates, want exactly 1", n)
		}
	})
	t.Run("minCudaVersion scopes the catalog and becomes the CUDA floor", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body(`,"minCudaVersion":"12.4"`)},
			gpuCatStep("cloud=SECURE&count=1&include=AVAILABILITY&minCudaVersion=12.4&product=POD", choiceCatalog), createStep(gpuPod(l4)))
		wantStatus(t, res, 201)
		if b := f.bodies("POST", "/v2/pods")[0]; !strings.Contains(b, `"gpu":{"id":"NVIDIA L4","count":1,"minCudaVersion":"12.4"}`) {
			t.Errorf("create body %s", b)
		}
	})
}

// cpuChoiceCatalog: cpu5c HIGH, cpu3c HIGH but dearer, cpu3g LOW, cpu5g
// NONE; cpu3m and cpu5m are not listed.
const cpuChoiceCatalog = `{"cpus":[
	{"id":"cpu3g","name":"General","group":"Gen 3","vcpu":{"min":2,"max":32},"ramGbPerVcpu":4,"price":{"securePerVcpu":0.025,"serverlessPerVcpu":0.02},"availability":"LOW"},
	{"id":"cpu3c","name":"Compute","group":"Gen 3","vcpu":{"min":2,"max":32},"ramGbPerVcpu":2,"price":{"securePerVcpu":0.05,"serverlessPerVcpu":0.04},"availability":"HIGH"},
	{"id":"cpu5g","name":"General","group":"Gen 5","vcpu":{"min":2,"max":32},"ramGbPerVcpu":4,"price":{"securePerVcpu":0.03,"serverlessPerVcpu":0.02},"availability":"NONE"},
	{"id":"cpu5c","name":"Compute","group":"Gen 5","vcpu":{"min":2,"max":32},"ramGbPerVcpu":2,"price":{"securePerVcpu":0.04,"serverlessPerVcpu":0.03},"availability":"HIGH"}]}`

func TestCreateCPUPodWithoutCPUFlavorIDs(t *testing.T) {
	cpuCat := step{method: "GET", path: "/v2/catalog/cpus", query: "include=AVAILABILITY&product=POD&vcpuCount=2", status: 200, body: cpuChoiceCatalog}
	created := createStep(newPod("p1", cpuPod))
	noCapacity := createFail(400, "no capacity")
	for _, absent := range []string{``, `,"cpuFlavorIds":null`, `,"cpuFlavorIds":[]`, `,"cpuFlavorIds":""`} {
		t.Run("cpuFlavorIds "+strings.TrimPrefix(absent, `,"cpuFlavorIds":`)+" is not sent: available flavors by availability, then price, 2 vCPUs", func(t *testing.T) {
			res, f := run(t, "CreatePod", runOpts{body: `{"computeType":"CPU","imageName":"img"` + absent + `}`}, cpuCat, noCapacity, noCapacity, created)
			wantStatus(t, res, 201)
			if got, want := createdIDs(t, f), []string{"cpu5c", "cpu3c", "cpu3g"}; !reflect.DeepEqual(got, want) {
				t.Errorf("tried %q, want %q", got, want)
			}
			if b := f.bodies("POST", "/v2/pods")[0]; !strings.Contains(b, `"cpu":{"id":"cpu5c","vcpuCount":2}`) {
				t.Errorf("create body %s", b)
			}
			wantWarning(t, res, "cpuFlavorIds was not sent: the gateway chose cpu3c (availability HIGH, list price $0.050/h per vCPU), the first that v2 could create of 3 v1 CPU flavors")
		})
	}
	t.Run("catalog unreadable: every v1 CPU flavor in turn, with a warning", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: `{"computeType":"CPU","imageName":"img","vcpuCount":4}`},
			step{method: "GET", path: "/v2/catalog/cpus", query: "*", status: 500, body: problem(500, "boom")}, noCapacity, created)
		wantStatus(t, res, 201)
		if got, want := createdIDs(t, f), []string{"cpu3c", "cpu3g"}; !reflect.DeepEqual(got, want) {
			t.Errorf("tried %q, want %q", got, want)
		}
		if !reflect.DeepEqual(noteCodes(res), []string{CodeCandidatesUnranked, CodeCPUFlavorChosen}) {
			t.Errorf("notes %q", noteCodes(res))
		}
	})
	t.Run("nothing available: v1's stock-out naming cpuFlavorIds, before any create", func(t *testing.T) {
		none := strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(cpuChoiceCatalog, `"HIGH"`, `"NONE"`), `"LOW"`, `"NONE"`), `"MEDIUM"`, `"NONE"`)
		res, f := run(t, "CreatePod", runOpts{body: `{"computeType":"CPU","imageName":"img"}`},
			step{method: "GET", path: "/v2/catalog/cpus", query: "*", status: 200, body: none})
		wantStatus(t, res, 500)
		wantMessage(t, res, "cpuFlavorIds: not sent", "vcpuCount 2")
		if f.count("POST", "/v2/pods") != 0 {
			t.Error("created anyway")
		}
	})
	t.Run("runpodctl 2.7.2 pod create --compute-type cpu, body as sent", func(t *testing.T) {
		// internal/api/pods.go PodCreateRequest with cmd/pod/create.go's
		// defaults; empty strings for what the user did not give.
		body := `{"name":"cpu-box","imageName":"ubuntu:22.04","computeType":"CPU","containerDiskInGb":20,"volumeMountPath":"/workspace",
			"cloudType":"SECURE","templateId":"","networkVolumeId":"","minCudaVersion":"12.4","dockerArgs":"sleep infinity","supportPublicIp":true}`
		res, f := run(t, "CreatePod", runOpts{body: body}, cpuCat, created)
		wantStatus(t, res, 201)
		jsonEqual(t, "v2 create body", []byte(f.bodies("POST", "/v2/pods")[0]), `{"name":"cpu-box","image":"ubuntu:22.04","args":"sleep infinity",
			"disk":20,"ports":["8888/http","22/tcp"],"cloud":"SECURE","cpu":{"id":"cpu5c","vcpuCount":2},"startSsh":true}`)
		if len(res.Dropped) != 0 || strings.Contains(warnings(res), "ignored") {
			t.Errorf("dropped %q, warnings %q", res.Dropped, res.Warnings)
		}
	})
}

func TestCreatePodFieldsRealClientsSendOutsideV1(t *testing.T) {
	gpu := `"imageName":"img","gpuTypeIds":["NVIDIA A40"]`
	tests := []struct {
		name string
		body string
		want string // substring of the v2 create body
	}{
		{"dockerArgs becomes args, verbatim", `{` + gpu + `,"dockerArgs":"bash -c 'sleep infinity'"}`, `"args":"bash -c 'sleep infinity'"`},
		{"dockerArgs beside the same dockerStartCmd", `{` + gpu + `,"dockerArgs":"sleep infinity","dockerStartCmd":["sleep","infinity"]}`, `"args":"sleep infinity"`},
		{"dockerArgs beside an empty dockerStartCmd", `{` + gpu + `,"dockerArgs":"sleep 1","dockerStartCmd":[]}`, `"args":"sleep 1"`},
		{"minCudaVersion becomes the CUDA floor", `{` + gpu + `,"minCudaVersion":"12.4"}`, `"gpu":{"id":"NVIDIA A40","count":1,"minCudaVersion":"12.4"}`},
		{"minCudaVersion narrows allowedCudaVersions (v2 refuses both)", `{` + gpu + `,"minCudaVersion":"12.4","allowedCudaVersions":["12.1","12.4","12.8"]}`,
			`"gpu":{"id":"NVIDIA A40","count":1,"allowedCudaVersions":["12.4","12.8"]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "CreatePod", runOpts{body: tc.body}, createStep(newPod("p1")))
			wantStatus(t, res, 201)
			if b := f.bodies("POST", "/v2/pods")[0]; !strings.Contains(b, tc.want) {
				t.Errorf("create body %s should contain %s", b, tc.want)
			}
			if len(res.Warnings) != 0 {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
	t.Run("minCudaVersion on a CPU pod is ignored, as v1 ignored GPU fields there", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu3c"],"minCudaVersion":"12.4"}`},
			createStep(newPod("p1", cpuPod)))
		wantStatus(t, res, 201)
		if b := f.bodies("POST", "/v2/pods")[0]; strings.Contains(b, "Cuda") {
			t.Errorf("create body %s", b)
		}
	})
	for _, tc := range []struct{ name, body, msg string }{
		{"dockerArgs and a different dockerStartCmd", `{` + gpu + `,"dockerArgs":"a","dockerStartCmd":["b"]}`, "dockerArgs: both dockerArgs and dockerStartCmd"},
		{"dockerArgs not a string", `{` + gpu + `,"dockerArgs":["sleep"]}`, "dockerArgs: must be a string"},
		{"minCudaVersion outside v1's list", `{` + gpu + `,"minCudaVersion":"9.0"}`, `minCudaVersion: "9.0" is not one of`},
		{"minCudaVersion above every allowed version", `{` + gpu + `,"minCudaVersion":"12.8","allowedCudaVersions":["12.1"]}`, "allowedCudaVersions: none of 12.1 is at or above minCudaVersion 12.8"},
	} {
		t.Run(tc.name+" is a 400 before any call", func(t *testing.T) {
			res, _ := run(t, "CreatePod", runOpts{body: tc.body})
			wantStatus(t, res, 400)
			wantMessage(t, res, tc.msg)
		})
	}
	t.Run("dockerArgs on an update becomes args", func(t *testing.T) {
		res, f := run(t, "UpdatePod", runOpts{params: map[string]string{"podId": "p1"}, body: `{"dockerArgs":"sleep infinity"}`},
			step{method: "PATCH", path: "/v2/pods/p1", status: 200, body: pod("p1")})
		wantStatus(t, res, 200)
		jsonEqual(t, "PATCH body", []byte(f.bodies("PATCH", "/v2/pods/p1")[0]), `{"args":"sleep infinity"}`)
	})
}

func TestCreateCPUEndpointWithoutCPUFlavorIDs(t *testing.T) {
	want := func(vcpu int, ids ...string) string {
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = fmt.Sprintf(`{"id":%q,"vcpuCount":%d}`, id, vcpu)
		}
		return `{"name":"cpu","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
			"cpu":[` + strings.Join(parts, ",") + `],"workers":{"idleTimeout":5}}`
	}
	created := step{method: "POST", path: "/v2/serverless", status: 201, body: endpoint("ep1", cpuEndpoint)}
	for _, tc := range []struct {
		name, body string
		cat        step
		want       string
		codes      []string
	}{
		{"every v1 endpoint flavor, by serverless availability then price", `{"templateId":"tpl1","name":"cpu","computeType":"CPU"}`,
			step{method: "GET", path: "/v2/catalog/cpus", query: "include=AVAILABILITY&product=SERVERLESS&vcpuCount=2", status: 200, body: cpuChoiceCatalog},
			want(2, "cpu5c", "cpu3c", "cpu3g", "cpu5g"), []string{CodeCPUFlavorChosen}},
		{"runpod-mcp 3.2.0 create-endpoint computeType CPU with vcpuCount and empty strings", `{"templateId":"tpl1","name":"cpu","computeType":"CPU","cpuFlavorIds":[],"vcpuCount":4,"scalerType":""}`,
			step{method: "GET", path: "/v2/catalog/cpus", query: "include=AVAILABILITY&product=SERVERLESS&vcpuCount=4", status: 200, body: cpuChoiceCatalog},
			want(4, "cpu5c", "cpu3c", "cpu3g", "cpu5g"), []string{CodeCPUFlavorChosen}},
		{"catalog unreadable: v1's order, with a warning", `{"templateId":"tpl1","name":"cpu","computeType":"CPU"}`,
			step{method: "GET", path: "/v2/catalog/cpus", query: "*", status: 500, body: problem(500, "boom")},
			want(2, "cpu3c", "cpu3g", "cpu5c", "cpu5g"), []string{CodeCandidatesUnranked, CodeCPUFlavorChosen}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "CreateEndpoint", runOpts{body: tc.body}, tc.cat, created, workersStep("ep1", 1), tplGetStep("tpl1"))
			wantStatus(t, res, 200)
			jsonEqual(t, "v2 create body", []byte(f.bodies("POST", "/v2/serverless")[0]), tc.want)
			if !reflect.DeepEqual(noteCodes(res), tc.codes) {
				t.Errorf("notes %q, want %q", noteCodes(res), tc.codes)
			}
		})
	}
}

func TestCreateNetworkVolumeType(t *testing.T) {
	vol := `{"id":"vol1","name":"data","size":50,"dataCenter":"EU-RO-1","type":"HIGH_PERFORMANCE"}`
	for _, tc := range []struct{ name, body, want string }{
		{"runpod-mcp's volumeType becomes the v2 tier", `{"name":"data","size":50,"dataCenterId":"EU-RO-1","volumeType":"HIGH_PERFORMANCE"}`,
			`{"name":"data","size":50,"dataCenter":"EU-RO-1","type":"HIGH_PERFORMANCE"}`},
		{"an empty volumeType is not sent: the data center's default tier", `{"name":"data","size":50,"dataCenterId":"EU-RO-1","volumeType":""}`,
			`{"name":"data","size":50,"dataCenter":"EU-RO-1"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "CreateNetworkVolume", runOpts{body: tc.body},
				step{method: "POST", path: "/v2/network-volumes", status: 201, body: vol})
			wantStatus(t, res, 200)
			jsonEqual(t, "v2 create body", []byte(f.bodies("POST", "/v2/network-volumes")[0]), tc.want)
			if len(res.Warnings) != 0 {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
	t.Run("a volumeType outside v2's tiers is a 400 before any call", func(t *testing.T) {
		res, _ := run(t, "CreateNetworkVolume", runOpts{body: `{"name":"data","size":50,"dataCenterId":"EU-RO-1","volumeType":"FAST"}`})
		wantStatus(t, res, 400)
		wantMessage(t, res, `volumeType: "FAST" is not one of HIGH_PERFORMANCE, STANDARD`)
	})
}

// runpod-mcp 3.x update-endpoint (and create-endpoint) is a v1+v2 union: on
// v1 it sends the v2 container fields as given. A v1 endpoint runs its
// template's settings and v1 ignored these fields (runpod-mcp 3.2 says so),
// so they are ignored with a warning each, in either compat_mode, never
// refused (issue 29 item 2); empty values name nothing.
func TestEndpointContainerFieldsAreIgnoredAsV1Did(t *testing.T) {
	params := map[string]string{"endpointId": "e1"}
	body := `{"name":"n","imageName":"img:2","args":"python serve.py","env":{"A":"b"},"gpuPoolIds":["ADA_24"],"ports":[],"containerRegistryAuthId":""}`
	for _, lenient := range []bool{false, true} {
		t.Run(fmt.Sprintf("lenient %v: ignored with a warning each, the rest applied", lenient), func(t *testing.T) {
			res, f := run(t, "UpdateEndpoint", runOpts{params: params, body: body, options: Options{Lenient: lenient}},
				step{method: "PATCH", path: "/v2/serverless/e1", status: 200, body: endpoint("e1")}, catalogStep(), releasesStep("e1", 2))
			wantStatus(t, res, 200)
			jsonEqual(t, "PATCH body", []byte(f.bodies("PATCH", "/v2/serverless/e1")[0]), `{"name":"n"}`)
			wantWarning(t, res, "args was ignored: its start command: a v1 endpoint runs its template's settings")
			wantWarning(t, res, "env was ignored: its environment")
			wantWarning(t, res, "gpuPoolIds was ignored: v1 endpoints choose GPUs with gpuTypeIds")
			wantWarning(t, res, "imageName was ignored: its image")
			if w := strings.Join(res.Warnings, " "); strings.Contains(w, "ports") || strings.Contains(w, "containerRegistryAuthId") {
				t.Errorf("empty values named: %q", w)
			}
			if len(res.Dropped) != 0 {
				t.Errorf("dropped %q", res.Dropped)
			}
		})
	}
	t.Run("on create too", func(t *testing.T) {
		res, f := run(t, "CreateEndpoint", runOpts{body: `{"templateId":"tpl1","name":"n","gpuTypeIds":["NVIDIA L4"],"imageName":"img"}`},
			catalogStep(), step{method: "POST", path: "/v2/serverless", status: 201, body: endpoint("ep1")}, workersStep("ep1", 1), tplGetStep("tpl1"))
		wantStatus(t, res, 200)
		wantWarning(t, res, "imageName was ignored")
		if b := f.bodies("POST", "/v2/serverless")[0]; strings.Contains(b, "img") {
			t.Errorf("create body %s carries the ignored image", b)
		}
	})
}

func TestEndpointFlashbootAsV2Mode(t *testing.T) {
	params := map[string]string{"endpointId": "e1"}
	for _, mode := range []string{"OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"} {
		t.Run("runpod-mcp 3.x update-endpoint flashboot "+mode+" is v2's mode, without a read", func(t *testing.T) {
			res, f := run(t, "UpdateEndpoint", runOpts{params: params, body: `{"flashboot":"` + mode + `"}`},
				step{method: "PATCH", path: "/v2/serverless/e1", status: 200, body: endpoint("e1")}, catalogStep(), releasesStep("e1", 2))
			wantStatus(t, res, 200)
			jsonEqual(t, "PATCH body", []byte(f.bodies("PATCH", "/v2/serverless/e1")[0]), `{"flashboot":"`+mode+`"}`)
		})
	}
	t.Run("on create", func(t *testing.T) {
		res, f := run(t, "CreateEndpoint", runOpts{body: `{"templateId":"tpl1","name":"n","computeType":"CPU","cpuFlavorIds":["cpu3c"],"flashboot":"PRIORITY_FLASHBOOT"}`},
			step{method: "POST", path: "/v2/serverless", status: 201, body: endpoint("ep1", cpuEndpoint)}, workersStep("ep1", 1), tplGetStep("tpl1"))
		wantStatus(t, res, 200)
		if b := f.bodies("POST", "/v2/serverless")[0]; !strings.Contains(b, `"flashboot":"PRIORITY_FLASHBOOT"`) {
			t.Errorf("create body %s", b)
		}
	})
	t.Run("another string is a 400 naming flashboot", func(t *testing.T) {
		res, _ := run(t, "UpdateEndpoint", runOpts{params: params, body: `{"flashboot":"yes"}`})
		wantStatus(t, res, 400)
		wantMessage(t, res, `flashboot: must be a boolean (or one of OFF, FLASHBOOT, PRIORITY_FLASHBOOT), got "yes"`)
	})
}
