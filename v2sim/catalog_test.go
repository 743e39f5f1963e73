package v2sim

import (
	"fmt"
	"testing"
)

func TestGPUCatalog(t *testing.T) {
	s, _ := newTestServer(Options{}) // the catalog exists without Seed
	gpus := list(t, do(t, s, "GET", "/v2/catalog/gpus", nil), "gpus")
	pools := map[string]bool{}
	for _, g := range gpus {
		if p, ok := g["pool"].(string); ok {
			pools[p] = true
		}
		if _, ok := g["availability"]; ok {
			t.Errorf("%s: availability without include=AVAILABILITY", g["id"])
		}
		price := g["price"].(map[string]any)
		if (g["pool"] == nil) != (price["serverless"] == nil) {
			t.Errorf("%s: pool %v but serverless price %v", g["id"], g["pool"], price["serverless"])
		}
	}
	if len(gpus) < 5 || len(pools) < 3 {
		t.Fatalf("%d GPU types in %d pools, want >= 5 in >= 3", len(gpus), len(pools))
	}

	avail := list(t, do(t, s, "GET", "/v2/catalog/gpus?include=AVAILABILITY&product=POD", nil), "gpus")
	levelsSeen := map[string]bool{}
	for _, g := range avail {
		levelsSeen[str(g, "availability")] = true
		if g["availability"] == "NONE" && g["dataCenters"] != nil {
			t.Errorf("%s: NONE with dataCenters %v", g["id"], g["dataCenters"])
		}
		if g["manufacturer"] == "AMD" && g["cudaVersions"] != nil {
			t.Errorf("AMD GPU with cudaVersions")
		}
	}
	for _, l := range []string{"NONE", "LOW", "MEDIUM", "HIGH"} {
		if !levelsSeen[l] {
			t.Errorf("no GPU type with availability %s", l)
		}
	}

	byID := func(path string) map[string]any {
		rec := do(t, s, "GET", path, nil)
		expectStatus(t, rec, 200)
		return obj(t, rec)
	}
	// Products differ: the AMD card is in no serverless pool, the 4090 is not a cluster GPU.
	if g := byID("/v2/catalog/gpus/AMD%20Instinct%20MI300X%20OAM?include=AVAILABILITY&product=SERVERLESS"); g["availability"] != "NONE" {
		t.Errorf("AMD serverless availability %v", g["availability"])
	}
	if g := byID("/v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090?include=AVAILABILITY&product=CLUSTER"); g["availability"] != "NONE" {
		t.Errorf("4090 cluster availability %v", g["availability"])
	}
	// count beyond maxCount is NONE; cloud without the GPU is NONE.
	if g := byID("/v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090?include=AVAILABILITY&product=POD&count=8&cloud=COMMUNITY"); g["availability"] != "NONE" {
		t.Errorf("8 x 4090 on community %v", g["availability"])
	}
	// countryCodes narrows data centers; the single-GPU read still answers, with NONE.
	g := byID("/v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090?include=AVAILABILITY&product=POD&countryCodes=RO")
	if fmt.Sprint(g["dataCenters"]) != "[map[availability:MEDIUM id:EU-RO-1 name:EU Romania 1]]" {
		t.Errorf("RO data centers %v", g["dataCenters"])
	}
	g = byID("/v2/catalog/gpus/NVIDIA%20L40S?include=AVAILABILITY&product=POD&countryCodes=JP")
	if _, ok := g["dataCenters"]; ok || g["availability"] != "NONE" {
		t.Errorf("L40S in JP: %v", g)
	}
	jp := list(t, do(t, s, "GET", "/v2/catalog/gpus?include=AVAILABILITY&product=POD&countryCodes=JP", nil), "gpus")
	if len(jp) != 1 || jp[0]["id"] != "NVIDIA GeForce RTX 3090" {
		t.Errorf("GPU types deployable in JP: %v", jp)
	}
	// CUDA filters narrow the versions.
	g = byID("/v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090?include=AVAILABILITY&product=POD&minCudaVersion=12.6")
	if fmt.Sprint(g["cudaVersions"]) != "[map[available:true version:12.6] map[available:true version:12.8] map[available:true version:13.0]]" {
		t.Errorf("cudaVersions >= 12.6: %v", g["cudaVersions"])
	}
	g = byID("/v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090?include=AVAILABILITY&product=POD&cudaVersions=12.4")
	if g["availability"] != "NONE" || fmt.Sprint(g["cudaVersions"]) != "[map[available:false version:12.4]]" {
		t.Errorf("full CUDA version: %v %v", g["availability"], g["cudaVersions"])
	}

	for _, tc := range []struct {
		query  string
		status int
	}{
		{"include=AVAILABILITY", 400},
		{"product=POD", 400},
		{"count=2", 400},
		{"countryCodes=FR", 400},
		{"include=AVAILABILITY&product=POD&cudaVersions=12.8&minCudaVersion=12", 400},
		{"include=AVAILABILITY&product=POD&cudaVersions=12", 422},
		{"include=AVAILABILITY&product=POD&minCudaVersion=twelve", 422},
		{"include=AVAILABILITY&product=POD&countryCodes=fr", 422},
		{"include=AVAILABILITY&product=TPU", 422},
		{"include=EVERYTHING", 422},
		{"include=AVAILABILITY&product=POD&count=0", 422},
		{"include=AVAILABILITY&product=POD&cloud=PRIVATE", 422},
	} {
		rec := do(t, s, "GET", "/v2/catalog/gpus?"+tc.query, nil)
		if rec.Code != tc.status {
			t.Errorf("?%s: %d, want %d: %s", tc.query, rec.Code, tc.status, rec.Body.String())
		}
	}
	expectProblem(t, do(t, s, "GET", "/v2/catalog/gpus/NVIDIA%20RTX%209999", nil), 404)
}

func TestCPUCatalog(t *testing.T) {
	s, _ := newTestServer(Options{})
	cpus := list(t, do(t, s, "GET", "/v2/catalog/cpus", nil), "cpus")
	if len(cpus) < 2 {
		t.Fatalf("%d CPU types", len(cpus))
	}
	c := obj(t, do(t, s, "GET", "/v2/catalog/cpus/cpu5m?include=AVAILABILITY&product=POD,SERVERLESS&vcpuCount=32", nil))
	if c["availability"] != "NONE" {
		t.Errorf("32 vCPU of a 16-vCPU flavor: %v", c["availability"])
	}
	c = obj(t, do(t, s, "GET", "/v2/catalog/cpus/cpu5c?include=AVAILABILITY&product=POD", nil))
	if c["availability"] != "HIGH" || len(c["dataCenters"].([]any)) != 3 {
		t.Errorf("cpu5c availability %v %v", c["availability"], c["dataCenters"])
	}
	expectProblem(t, do(t, s, "GET", "/v2/catalog/cpus?vcpuCount=4", nil), 400)
	expectProblem(t, do(t, s, "GET", "/v2/catalog/cpus?include=AVAILABILITY&product=CLUSTER", nil), 422)
	expectProblem(t, do(t, s, "GET", "/v2/catalog/cpus?include=AVAILABILITY&product=POD&vcpuCount=6", nil), 422)
	expectProblem(t, do(t, s, "GET", "/v2/catalog/cpus/nope", nil), 404)
}

func TestDataCenterCatalog(t *testing.T) {
	s, _ := newTestServer(Options{})
	all := list(t, do(t, s, "GET", "/v2/catalog/datacenters", nil), "dataCenters")
	if len(all) < 3 {
		t.Fatalf("%d data centers", len(all))
	}
	for _, dc := range all {
		if dc["gpuAvailability"] != nil || dc["cpuAvailability"] != nil {
			t.Errorf("%s: availability without include", dc["id"])
		}
	}
	ids := func(query string) string {
		var out []string
		for _, dc := range list(t, do(t, s, "GET", "/v2/catalog/datacenters?"+query, nil), "dataCenters") {
			out = append(out, str(dc, "id"))
		}
		return fmt.Sprint(out)
	}
	for query, want := range map[string]string{
		"regions=EUROPE":                               "[EU-RO-1 EU-CZ-1]",
		"regions=EUROPE,ASIA":                          "[EU-RO-1 EU-CZ-1 AP-JP-1]",
		"compliance=GDPR,SOC_2_TYPE_2":                 "[EU-CZ-1]",
		"networkVolumeTypes=STANDARD,HIGH_PERFORMANCE": "[US-KS-2 EU-RO-1]",
		"globalNetwork=false":                          "[CA-MTL-1 EU-RO-1 AP-JP-1]",
		"globalNetwork=true&regions=NORTH_AMERICA":     "[US-KS-2 US-TX-3]",
	} {
		if got := ids(query); got != want {
			t.Errorf("?%s: %s, want %s", query, got, want)
		}
	}
	dc := obj(t, do(t, s, "GET", "/v2/catalog/datacenters/AP-JP-1?include=GPU_AVAILABILITY,CPU_AVAILABILITY", nil))
	if fmt.Sprint(dc["gpuAvailability"]) != "[map[availability:MEDIUM id:NVIDIA GeForce RTX 3090 name:RTX 3090]]" {
		t.Errorf("AP-JP-1 GPUs %v", dc["gpuAvailability"])
	}
	if _, ok := dc["cpuAvailability"]; ok {
		t.Errorf("AP-JP-1 offers no CPU flavors, cpuAvailability must be omitted: %v", dc["cpuAvailability"])
	}
	expectProblem(t, do(t, s, "GET", "/v2/catalog/datacenters?include=GPU", nil), 422)
	expectProblem(t, do(t, s, "GET", "/v2/catalog/datacenters?globalNetwork=maybe", nil), 422)
	expectProblem(t, do(t, s, "GET", "/v2/catalog/datacenters/XX-1", nil), 404)
}
