package translate

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// P1, decided 2026-12-04 (issue 36 item 3): a placement minimum or
// preference v2 cannot check is accepted with a warning naming what v2
// could not guarantee, one soft_constraint_unchecked note per field (so
// /usage counts it per key and field), whatever compat_mode says;
// field_policy still refuses or drops it.
func TestSoftConstraintsCreateThePodWithAWarning(t *testing.T) {
	gpu := `"imageName":"img","gpuTypeIds":["NVIDIA A40"]`
	cpu := `"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu3c"]`
	tests := []struct {
		name    string
		body    string
		options Options
		// fields: the unchecked notes, in order; say: what each warning names.
		fields []string
		say    []string
	}{
		{name: "minRAMPerGPU other than v1's default", body: `{` + gpu + `,"minRAMPerGPU":16}`,
			fields: []string{"minRAMPerGPU"}, say: []string{"16 GB of RAM per GPU cannot be checked", "field_policy minRAMPerGPU: refuse"}},
		{name: "minVCPUPerGPU other than v1's default", body: `{` + gpu + `,"minVCPUPerGPU":4}`,
			fields: []string{"minVCPUPerGPU"}, say: []string{"4 vCPUs per GPU cannot be checked"}},
		{name: "host bandwidth minimums", body: `{` + gpu + `,"minDiskBandwidthMBps":500,"minDownloadMbps":100,"minUploadMbps":50}`,
			fields: []string{"minDiskBandwidthMBps", "minDownloadMbps", "minUploadMbps"}, say: []string{"500 cannot be checked", "100 cannot be checked", "50 cannot be checked"}},
		{name: "supportPublicIp on COMMUNITY", body: `{` + gpu + `,"cloudType":"COMMUNITY","supportPublicIp":true}`,
			fields: []string{"supportPublicIp"}, say: []string{"public IP on COMMUNITY"}},
		{name: "supportPublicIp on SECURE asks nothing v2 does not give", body: `{` + gpu + `,"supportPublicIp":true}`},
		{name: "countryCodes on a CPU pod", body: `{` + cpu + `,"countryCodes":["FR"]}`,
			fields: []string{"countryCodes"}, say: []string{"cannot place a CPU pod by country", "FR cannot be checked"}},
		{name: "the same under compat_mode lenient: a soft constraint is not dropped", body: `{` + gpu + `,"minRAMPerGPU":16}`,
			options: Options{Lenient: true}, fields: []string{"minRAMPerGPU"}},
		{name: "field_policy drop: not applied, no warning", body: `{` + gpu + `,"minRAMPerGPU":16}`,
			options: Options{FieldPolicy: map[string]string{"minRAMPerGPU": FieldPolicyDrop}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := run(t, "CreatePod", runOpts{body: tc.body, options: tc.options}, createStep(newPod("p1")))
			wantStatus(t, res, 201)
			var fields []string
			for _, n := range res.Notes {
				if n.Code == CodeSoftConstraintUnchecked {
					fields = append(fields, n.Field)
				}
			}
			if !reflect.DeepEqual(fields, tc.fields) {
				t.Errorf("unchecked notes for %v, want %v (notes %+v)", fields, tc.fields, res.Notes)
			}
			all := strings.Join(res.Warnings, " | ")
			for _, s := range tc.say {
				if !strings.Contains(all, s) {
					t.Errorf("warnings %q should say %q", all, s)
				}
			}
		})
	}
	t.Run("field_policy refuse refuses a soft constraint before any v2 call", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: `{` + cpu + `,"countryCodes":["FR"]}`,
			options: Options{FieldPolicy: map[string]string{"countryCodes": FieldPolicyRefuse}}})
		wantStatus(t, res, 400)
		wantMessage(t, res, "countryCodes: v2 cannot place a CPU pod by country", "field_policy countryCodes: drop", "remove its field_policy to accept it with a warning")
		if len(f.calls) != 0 || len(res.Notes) != 1 || res.Notes[0].Code != CodeUntranslatableRefused || res.Notes[0].Field != "countryCodes" {
			t.Errorf("calls %d, notes %+v: want none, and one refusal of countryCodes", len(f.calls), res.Notes)
		}
	})
}

// A pod volume below v2's 10 GB minimum (runpodctl 1.x sends 1 GB) is
// rounded up, with a warning naming the storage billed beyond what was
// asked; field_policy volumeInGb: refuse refuses it as before.
func TestAVolumeBelowV2sMinimumIsRoundedUp(t *testing.T) {
	body := `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"volumeInGb":1}`
	res, f := run(t, "CreatePod", runOpts{body: body}, createStep(newPod("p1")))
	wantStatus(t, res, 201)
	jsonEqual(t, "v2 create body", []byte(f.bodies("POST", "/v2/pods")[0]), `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE",
		"gpu":{"id":"NVIDIA A40","count":1},"mounts":{"persistent":{"size":10,"path":"/workspace"}},"startSsh":true}`)
	if len(res.Notes) != 1 || res.Notes[0].Code != CodeVolumeRoundedUp || res.Notes[0].Field != "volumeInGb" ||
		!strings.Contains(res.Notes[0].Message, "1 GB was rounded up to 10 GB") || !strings.Contains(res.Notes[0].Message, "billed for 9 GB of volume storage more than asked") {
		t.Errorf("notes %+v, want one %s naming the 9 GB billed beyond what was asked", res.Notes, CodeVolumeRoundedUp)
	}

	res, f = run(t, "CreatePod", runOpts{body: body, options: Options{FieldPolicy: map[string]string{"volumeInGb": FieldPolicyRefuse}}})
	wantStatus(t, res, 400)
	wantMessage(t, res, "volumeInGb: v2 volumes are at least 10 GB", "field_policy volumeInGb: refuse")
	if len(f.calls) != 0 {
		t.Errorf("%d v2 calls, want none", len(f.calls))
	}

	// A network volume replaces the pod volume: nothing is rounded.
	res, _ = run(t, "CreatePod", runOpts{body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"volumeInGb":1,"networkVolumeId":"vol1"}`},
		step{method: "GET", path: "/v2/network-volumes/vol1", status: 200, body: `{"id":"vol1","name":"data","size":100,"dataCenter":"EU-RO-1","type":"STANDARD"}`},
		createStep(newPod("p1")))
	wantStatus(t, res, 201)
	if len(res.Notes) != 0 {
		t.Errorf("notes %+v, want none", res.Notes)
	}
}

// A price cap (the GraphQL door's deployCost) is checked against the
// catalog's list prices: only the types at or under it are tried, and none
// left is v1's stock-out.
func TestAPriceCapIsCheckedAgainstTheCatalog(t *testing.T) {
	catalog := step{method: "GET", path: "/v2/catalog/gpus", query: "cloud=SECURE&count=2&include=AVAILABILITY&product=POD", status: 200, body: gpuCatalog}
	gpuOf := func(b string) string {
		var v struct{ GPU struct{ ID string } }
		_ = json.Unmarshal([]byte(b), &v)
		return v.GPU.ID
	}
	t.Run("the types above the cap are not tried", func(t *testing.T) {
		// A40 2 × $0.44 = $0.88, L4 2 × $0.39 = $0.78: a cap of $0.80 keeps L4.
		body := `{"imageName":"img","gpuCount":2,"gpuTypeIds":["NVIDIA A40","NVIDIA L4"],"gpuTypePriority":"custom","deployCost":0.8}`
		res, f := run(t, "CreatePod", runOpts{body: body}, catalog, createStep(newPod("p1")))
		wantStatus(t, res, 201)
		if b := f.bodies("POST", "/v2/pods"); len(b) != 1 || gpuOf(b[0]) != "NVIDIA L4" {
			t.Errorf("creates %q, want one of NVIDIA L4", b)
		}
		if len(res.Warnings) != 0 {
			t.Errorf("warnings %q: a checked price cap warns of nothing", res.Warnings)
		}
	})
	t.Run("none under the cap is v1's stock-out", func(t *testing.T) {
		body := `{"imageName":"img","gpuCount":2,"gpuTypeIds":["NVIDIA A40","NVIDIA L4"],"deployCost":0.5}`
		res, f := run(t, "CreatePod", runOpts{body: body}, catalog)
		wantStatus(t, res, 500)
		wantMessage(t, res, "There are no longer any instances available", "deployCost", "$0.5/h", "NVIDIA A40 on SECURE $0.88/h")
		if f.count("POST", "/v2/pods") != 0 {
			t.Error("created above the price cap")
		}
	})
	t.Run("the catalog down: no create", func(t *testing.T) {
		body := `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"deployCost":2}`
		res, f := run(t, "CreatePod", runOpts{body: body}, step{method: "GET", path: "/v2/catalog/gpus", query: "*", status: 503, body: problem(503, "down")})
		wantStatus(t, res, 502)
		wantMessage(t, res, "deployCost: the v2 catalog could not be read")
		if f.count("POST", "/v2/pods") != 0 {
			t.Error("created without checking the price cap")
		}
	})
	t.Run("field_policy drop: not applied", func(t *testing.T) {
		body := `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"deployCost":0.01}`
		res, _ := run(t, "CreatePod", runOpts{body: body, options: Options{FieldPolicy: map[string]string{"deployCost": FieldPolicyDrop}}}, createStep(newPod("p1")))
		wantStatus(t, res, 201)
		if !reflect.DeepEqual(res.Dropped, []string{"deployCost"}) {
			t.Errorf("dropped %v, want deployCost", res.Dropped)
		}
	})
	t.Run("a negative price cap is a client mistake", func(t *testing.T) {
		res, _ := run(t, "CreatePod", runOpts{body: `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"deployCost":-1}`})
		wantStatus(t, res, 400)
		wantMessage(t, res, "deployCost: must not be negative")
	})
}

// cloudType ALL (the GraphQL door's) means either cloud: each candidate is
// tried on SECURE, then COMMUNITY, so a GPU type offered only on COMMUNITY
// is created there (issue 36 item 4).
func TestCloudTypeAllMeansEitherCloud(t *testing.T) {
	cloudOf := func(b string) string {
		var v struct{ Cloud string }
		_ = json.Unmarshal([]byte(b), &v)
		return v.Cloud
	}
	t.Run("without the catalog: SECURE, then COMMUNITY", func(t *testing.T) {
		body := `{"imageName":"img","gpuTypeIds":["NVIDIA GeForce RTX 3090"],"cloudType":"ALL"}`
		res, f := run(t, "CreatePod", runOpts{body: body},
			createFail(400, `gpu.id: GPU type "NVIDIA GeForce RTX 3090" is not offered on SECURE cloud`),
			createStep(newPod("p1", set("cloud", "COMMUNITY"))))
		wantStatus(t, res, 201)
		var clouds []string
		for _, b := range f.bodies("POST", "/v2/pods") {
			clouds = append(clouds, cloudOf(b))
		}
		if !reflect.DeepEqual(clouds, []string{"SECURE", "COMMUNITY"}) {
			t.Errorf("clouds tried %v, want SECURE then COMMUNITY", clouds)
		}
	})
	t.Run("with the catalog: only the clouds a type is offered on, within the price cap", func(t *testing.T) {
		// L4 is SECURE only; A40 on both, but $0.44 SECURE is over a $0.40 cap.
		body := `{"imageName":"img","gpuTypeIds":["NVIDIA A40","NVIDIA L4"],"gpuTypePriority":"custom","cloudType":"ALL","deployCost":0.4}`
		catalog := step{method: "GET", path: "/v2/catalog/gpus", query: "cloud=SECURE&count=1&include=AVAILABILITY&product=POD", status: 200, body: gpuCatalog}
		res, f := run(t, "CreatePod", runOpts{body: body}, catalog, createFail(400, "no capacity"), createStep(newPod("p1")))
		wantStatus(t, res, 201)
		b := f.bodies("POST", "/v2/pods")
		if len(b) != 2 || !strings.Contains(b[0], `"NVIDIA A40"`) || cloudOf(b[0]) != "COMMUNITY" || !strings.Contains(b[1], `"NVIDIA L4"`) || cloudOf(b[1]) != "SECURE" {
			t.Errorf("creates %q, want A40 on COMMUNITY then L4 on SECURE", b)
		}
	})
	t.Run("supportPublicIp on a pod that landed on COMMUNITY is named", func(t *testing.T) {
		body := `{"imageName":"img","gpuTypeIds":["NVIDIA GeForce RTX 3090"],"cloudType":"ALL","supportPublicIp":true}`
		res, _ := run(t, "CreatePod", runOpts{body: body}, createFail(400, "not offered on SECURE cloud"), createStep(newPod("p1", set("cloud", "COMMUNITY"))))
		wantStatus(t, res, 201)
		if len(res.Notes) != 1 || res.Notes[0].Code != CodeSoftConstraintUnchecked || res.Notes[0].Field != "supportPublicIp" {
			t.Errorf("notes %+v, want one unchecked supportPublicIp", res.Notes)
		}
	})
	t.Run("supportPublicIp refused by field_policy keeps ALL on SECURE", func(t *testing.T) {
		body := `{"imageName":"img","gpuTypeIds":["NVIDIA GeForce RTX 3090"],"cloudType":"ALL","supportPublicIp":true}`
		res, f := run(t, "CreatePod", runOpts{body: body, options: Options{FieldPolicy: map[string]string{"supportPublicIp": FieldPolicyRefuse}}},
			createFail(400, "not offered on SECURE cloud"))
		wantStatus(t, res, 400)
		if f.count("POST", "/v2/pods") != 1 {
			t.Error("COMMUNITY tried although only SECURE promises a public IP")
		}
	})
	t.Run("without gpuTypeIds: the community cloud's catalog too, a type only there chosen", func(t *testing.T) {
		secure := step{method: "GET", path: "/v2/catalog/gpus", query: "cloud=SECURE&count=1&include=AVAILABILITY&product=POD", status: 200,
			body: `{"gpus":[{"id":"NVIDIA GeForce RTX 3090","name":"RTX 3090","pool":"AMPERE_24","manufacturer":"NVIDIA","memory":24,"secure":false,"community":true,
				"price":{"secure":0.43,"community":0.22},"maxCount":{"secure":0,"community":8},"availability":"NONE"}]}`}
		community := step{method: "GET", path: "/v2/catalog/gpus", query: "cloud=COMMUNITY&count=1&include=AVAILABILITY&product=POD", status: 200,
			body: `{"gpus":[{"id":"NVIDIA GeForce RTX 3090","name":"RTX 3090","pool":"AMPERE_24","manufacturer":"NVIDIA","memory":24,"secure":false,"community":true,
				"price":{"secure":0.43,"community":0.22},"maxCount":{"secure":0,"community":8},"availability":"HIGH",
				"dataCenters":[{"id":"CA-MTL-1","name":"Montreal 1","availability":"HIGH"}]}]}`}
		res, f := run(t, "CreatePod", runOpts{body: `{"imageName":"img","cloudType":"ALL"}`}, secure, community,
			createStep(newPod("p1", set("cloud", "COMMUNITY"), set("gpu", `{"id":"NVIDIA GeForce RTX 3090","count":1}`))))
		wantStatus(t, res, 201)
		if b := f.bodies("POST", "/v2/pods"); len(b) != 1 || !strings.Contains(b[0], `"NVIDIA GeForce RTX 3090"`) || cloudOf(b[0]) != "COMMUNITY" {
			t.Errorf("creates %q, want the RTX 3090 on COMMUNITY", b)
		}
		if w := strings.Join(res.Warnings, " | "); !strings.Contains(w, "the gateway chose NVIDIA GeForce RTX 3090 (availability HIGH, list price $0.22/h per GPU on the cheaper cloud)") {
			t.Errorf("warnings %q", w)
		}
	})
	t.Run("a CPU pod: SECURE only (v2 CPU pods)", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu3c"],"cloudType":"ALL"}`}, createStep(newPod("p1")))
		wantStatus(t, res, 201)
		if b := f.bodies("POST", "/v2/pods"); len(b) != 1 || cloudOf(b[0]) != "SECURE" {
			t.Errorf("creates %q, want one on SECURE", b)
		}
	})
}

// A requested data center is honoured or the create is v1's stock-out:
// a pod v2 placed elsewhere (v2 calls dataCenterIds preferences) is
// deleted, and the next candidate tried (issue 36 item 4).
func TestARequestedDataCenterIsHonouredOrAStockOut(t *testing.T) {
	cpu := `{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu3c","cpu5c"],"cpuFlavorPriority":"custom","dataCenterIds":["EU-RO-1"]}`
	misplaced := createStep(newPod("p1", set("dataCenterId", "US-TX-3")))
	deleted := step{method: "DELETE", path: "/v2/pods/p1", status: 204}
	t.Run("placed elsewhere: deleted, the next candidate tried", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: cpu}, misplaced, deleted, createStep(newPod("p2", set("dataCenterId", "EU-RO-1"))))
		wantStatus(t, res, 201)
		if decodeV1(t, res.Body)["id"] != "p2" || len(res.Warnings) != 0 {
			t.Errorf("answer %s, warnings %q: want p2 without warnings", res.Body, res.Warnings)
		}
		if f.count("DELETE", "/v2/pods/p1") != 1 {
			t.Error("the misplaced pod was not deleted")
		}
	})
	t.Run("every candidate placed elsewhere: v1's stock-out", func(t *testing.T) {
		res, _ := run(t, "CreatePod", runOpts{body: cpu}, misplaced, deleted,
			createStep(newPod("p2", set("dataCenterId", "US-KS-2"))), step{method: "DELETE", path: "/v2/pods/p2", status: 204})
		wantStatus(t, res, 500)
		wantMessage(t, res, "There are no longer any instances available", "cpu3c in EU-RO-1: v2 placed it in US-TX-3", "deleted it")
	})
	t.Run("with the catalog read anyway, a type not offered there is not tried", func(t *testing.T) {
		// L4 is offered in EU-FR-1 only, A40 in EU-RO-1 and EU-FR-1.
		body := `{"imageName":"img","gpuTypeIds":["NVIDIA L4","NVIDIA A40"],"dataCenterIds":["EU-RO-1"]}`
		catalog := step{method: "GET", path: "/v2/catalog/gpus", query: "cloud=SECURE&count=1&include=AVAILABILITY&product=POD", status: 200, body: gpuCatalog}
		res, f := run(t, "CreatePod", runOpts{body: body}, catalog, createStep(newPod("p1", set("dataCenterId", "EU-RO-1"))))
		wantStatus(t, res, 201)
		if b := f.bodies("POST", "/v2/pods"); len(b) != 1 || !strings.Contains(b[0], `"NVIDIA A40"`) {
			t.Errorf("creates %q, want one of NVIDIA A40", b)
		}
		res, f = run(t, "CreatePod", runOpts{body: `{"imageName":"img","gpuTypeIds":["NVIDIA L4","NVIDIA A40"],"dataCenterIds":["US-TX-3"]}`},
			catalog)
		wantStatus(t, res, 500)
		wantMessage(t, res, "There are no longer any instances available", "dataCenterIds: the v2 catalog shows none of gpuTypeIds")
		if f.count("POST", "/v2/pods") != 0 {
			t.Error("created a type the catalog shows outside the data centers asked for")
		}
	})
	t.Run("the delete fails: the pod is answered, with the warning (P4)", func(t *testing.T) {
		res, _ := run(t, "CreatePod", runOpts{body: cpu}, misplaced, step{method: "DELETE", path: "/v2/pods/p1", status: 500, body: problem(500, "boom")})
		wantStatus(t, res, 201)
		if len(res.Notes) != 1 || res.Notes[0].Code != CodePlacedOutsideDataCenters {
			t.Errorf("notes %+v, want %s", res.Notes, CodePlacedOutsideDataCenters)
		}
	})
}

// The JSON form of dockerArgs ({"cmd": [...], "entrypoint": [...]}),
// which the vendor accepted and orchestrators send, is parsed, never split
// as a shell line (issue 36 item 4).
func TestTheJSONFormOfDockerArgsIsParsed(t *testing.T) {
	argsOf := func(b string) string {
		var v struct{ Args string }
		_ = json.Unmarshal([]byte(b), &v)
		return v.Args
	}
	gpu := `"imageName":"img","gpuTypeIds":["NVIDIA A40"]`
	tests := []struct{ name, dockerArgs, args string }{
		{"cmd becomes the start command", `{\"cmd\":[\"python\",\"serve.py\",\"--name\",\"a b\"]}`, `python serve.py --name 'a b'`},
		{"an empty entrypoint asks nothing", `{\"cmd\":[\"sleep\",\"infinity\"],\"entrypoint\":[]}`, `sleep infinity`},
		{"a shell line stays verbatim", `bash -c 'sleep 1'`, `bash -c 'sleep 1'`},
		{"a shell group command is not JSON", `{ sleep 1; }`, `{ sleep 1; }`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "CreatePod", runOpts{body: `{` + gpu + `,"dockerArgs":"` + tc.dockerArgs + `"}`}, createStep(newPod("p1")))
			wantStatus(t, res, 201)
			if got := argsOf(f.bodies("POST", "/v2/pods")[0]); got != tc.args {
				t.Errorf("args %q, want %q", got, tc.args)
			}
		})
	}
	t.Run("an entrypoint dropped by field_policy: the cmd still runs", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: `{` + gpu + `,"dockerArgs":"{\"cmd\":[\"serve\"],\"entrypoint\":[\"/init\"]}"}`,
			options: Options{FieldPolicy: map[string]string{"dockerEntrypoint": FieldPolicyDrop}}}, createStep(newPod("p1")))
		wantStatus(t, res, 201)
		if got := argsOf(f.bodies("POST", "/v2/pods")[0]); got != "serve" || !reflect.DeepEqual(res.Dropped, []string{"dockerEntrypoint"}) {
			t.Errorf("args %q, dropped %v: want serve, dockerEntrypoint dropped", got, res.Dropped)
		}
	})
	t.Run("on update too", func(t *testing.T) {
		res, _ := run(t, "UpdatePod", runOpts{params: map[string]string{"podId": "p1"}, body: `{"dockerArgs":"{\"cmd\":[\"a\"],\"entrypoint\":[\"/init\"]}"}`})
		wantStatus(t, res, 400)
		wantMessage(t, res, "dockerEntrypoint: the entrypoint")
	})
}
