package translate

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A GPU endpoint created without gpuTypeIds (issue 29 item 1, P3): v1's
// EndpointCreateInput requires only templateId. The gateway chooses as it
// does for a pod: v1 GPU types — here those the v2 catalog shows with a
// serverless pool — most available first, ties by the lower (serverless)
// price, narrowed and ordered by default_gpu_types; the choice is named in
// X-Compat-Warning (gpu_type_chosen) and answered as gpuTypeIds.

// slsEntry is a v2 GpuType of a catalog read with include=AVAILABILITY and
// product=SERVERLESS.
func slsEntry(id, pool, avail string, serverless float64) string {
	p := "null"
	price := ""
	if pool != "" {
		p = fmt.Sprintf("%q", pool)
		price = fmt.Sprintf(`,"serverless":%g`, serverless)
	}
	return fmt.Sprintf(`{"id":%q,"name":%q,"pool":%s,"manufacturer":"NVIDIA","memory":24,"secure":true,"community":true,
		"price":{"secure":1,"community":1%s},"maxCount":{"secure":8,"community":8},"availability":%q}`, id, id, p, price, avail)
}

// slsCatalog: with a pool, RTX 4090 and L4 (ADA_24) and RTX A6000
// (AMPERE_48) are HIGH, L4 the cheapest; A40 (AMPERE_48) is MEDIUM; MI300X
// has no pool; B300 is not a v1 type.
var slsCatalog = `{"gpus":[` + strings.Join([]string{
	slsEntry("NVIDIA GeForce RTX 4090", "ADA_24", "HIGH", 1.1),
	slsEntry("NVIDIA L4", "ADA_24", "HIGH", 0.9),
	slsEntry("NVIDIA A40", "AMPERE_48", "MEDIUM", 1.3),
	slsEntry("NVIDIA RTX A6000", "AMPERE_48", "HIGH", 1.3),
	slsEntry("AMD Instinct MI300X OAM", "", "HIGH", 0),
	slsEntry("NVIDIA B300", "BLACKWELL_180", "HIGH", 0.1),
}, ",") + `]}`

const slsCatQuery = "count=1&include=AVAILABILITY&product=SERVERLESS"

func slsCatStep(query, body string) step {
	return step{method: "GET", path: "/v2/catalog/gpus", query: query, status: 200, body: body}
}

func TestCreateGPUEndpointWithoutGPUTypeIDsChoosesAsPodsDo(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		defaults []string
		catQuery string
		want     string // v2 gpu block
		chosen   string
	}{
		{name: "only templateId (official Terraform provider): the most available, then the cheapest, with a serverless pool",
			body: `{"templateId":"tpl1","name":"gen"}`, catQuery: slsCatQuery,
			want: `{"pools":["ADA_24"],"excludedTypes":["NVIDIA GeForce RTX 4090"],"count":1}`, chosen: "NVIDIA L4"},
		{name: "gpuTypeIds [] is not sent",
			body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":[],"computeType":"GPU","gpuCount":2}`, catQuery: "count=2&include=AVAILABILITY&product=SERVERLESS",
			want: `{"pools":["ADA_24"],"excludedTypes":["NVIDIA GeForce RTX 4090"],"count":2}`, chosen: "NVIDIA L4"},
		{name: "default_gpu_types narrows the set and orders ties",
			body: `{"templateId":"tpl1","name":"gen"}`, catQuery: slsCatQuery, defaults: []string{"AMD Instinct MI300X OAM", "NVIDIA A40", "NVIDIA RTX A6000", "NVIDIA GeForce RTX 4090"},
			want: `{"pools":["AMPERE_48"],"excludedTypes":["NVIDIA A40"],"count":1}`, chosen: "NVIDIA RTX A6000"},
		{name: "the CUDA constraint scopes the catalog read",
			body: `{"templateId":"tpl1","name":"gen","allowedCudaVersions":["12.8"]}`, catQuery: "count=1&cudaVersions=12.8&include=AVAILABILITY&product=SERVERLESS",
			want: `{"pools":["ADA_24"],"excludedTypes":["NVIDIA GeForce RTX 4090"],"count":1,"allowedCudaVersions":["12.8"]}`, chosen: "NVIDIA L4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "CreateEndpoint", runOpts{body: tc.body, options: Options{DefaultGPUTypes: tc.defaults}},
				slsCatStep(tc.catQuery, slsCatalog),
				step{method: "POST", path: "/v2/serverless", status: 201, body: endpoint("ep1", set("gpu", `{"pools":["ADA_24"],"excludedTypes":["NVIDIA GeForce RTX 4090"],"count":1,"allowedCudaVersions":[],"minCudaVersion":null}`))},
				workersStep("ep1", 1), tplGetStep("tpl1"))
			wantStatus(t, res, 200)
			var created map[string]any
			jsonDecode(t, f.bodies("POST", "/v2/serverless")[0], &created)
			jsonEqual(t, "v2 gpu", mustJSON(t, created["gpu"]), tc.want)
			wantWarning(t, res, "gpuTypeIds was not sent: the gateway chose "+tc.chosen)
			if !strings.Contains(strings.Join(noteCodes(res), ","), CodeGPUTypeChosen) {
				t.Errorf("notes %v lack %s", noteCodes(res), CodeGPUTypeChosen)
			}
			if got := decodeV1(t, res.Body)["gpuTypeIds"]; got == nil {
				t.Errorf("the answer has no gpuTypeIds: %s", res.Body)
			}
		})
	}
}

func TestCreateGPUEndpointWithoutGPUTypeIDsRefusals(t *testing.T) {
	t.Run("no v1 type with a serverless pool among default_gpu_types: 400 naming the setting, counted", func(t *testing.T) {
		res, f := run(t, "CreateEndpoint", runOpts{body: `{"templateId":"tpl1","name":"gen"}`, options: Options{DefaultGPUTypes: []string{"AMD Instinct MI300X OAM"}}},
			slsCatStep(slsCatQuery, slsCatalog))
		wantStatus(t, res, 400)
		wantMessage(t, res, "gpuTypeIds: not sent", "default_gpu_types", "AMD Instinct MI300X OAM", "serverless pool")
		if f.count("POST", "/v2/serverless") != 0 {
			t.Error("created anyway")
		}
		if len(res.Notes) == 0 {
			t.Error("a 400 for a request v1 accepted is not counted")
		}
	})
	t.Run("catalog unreadable: the v2 error naming gpuTypeIds, nothing created", func(t *testing.T) {
		res, f := run(t, "CreateEndpoint", runOpts{body: `{"templateId":"tpl1","name":"gen"}`},
			step{method: "GET", path: "/v2/catalog/gpus", query: slsCatQuery, status: 503, body: problem(503, "maintenance")})
		wantStatus(t, res, 502)
		wantMessage(t, res, "gpuTypeIds: not sent", "maintenance")
		if f.count("POST", "/v2/serverless") != 0 {
			t.Error("created anyway")
		}
	})
}

func jsonDecode(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
