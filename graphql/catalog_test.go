package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
)

// The catalog root fields (catalog.go) against the simulator, with the
// documents the clients send and what each client reads from the answer.

// catalogCalls are the v2 calls made so far, as "GET /v2/... ?query".
func (w *world) catalogCalls() []string {
	w.caller.mu.Lock()
	defer w.caller.mu.Unlock()
	var out []string
	for _, c := range w.caller.calls {
		s := c.Method + " " + c.Path
		if len(c.Query) > 0 {
			s += "?" + c.Query.Encode()
		}
		out = append(out, s)
	}
	return out
}

// decodeData decodes an answer's data into v, as a Go client does (an
// integer field of v rejects 24.0 or 24.5).
func decodeData(t *testing.T, a *answer, v any) {
	t.Helper()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(a.raw, &env); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(env.Data, v); err != nil {
		t.Fatalf("the data does not decode as the client decodes it: %v\n%s", err, a.raw)
	}
}

// noteCodes are the codes of the notes of an answer.
func noteCodes(a *answer) []string {
	var out []string
	for _, n := range a.resp.Notes {
		out = append(out, n.Code)
	}
	return out
}

// warnings are an answer's extensions.warnings.
func warnings(a *answer) string {
	b, _ := json.Marshal(a.Extensions["warnings"])
	return string(b)
}

// ---------------------------------------------------------------------------
// runpod-python

func TestRunpodPythonGetGPUsListsTheCatalogInOneRead(t *testing.T) {
	w := newWorld(t)
	a := w.ok(clientDocument(t, "runpod-python/get_gpus.graphql"), "")
	var data struct {
		GpuTypes []struct {
			ID          string `json:"id"`
			DisplayName string `json:"displayName"`
			MemoryInGb  int    `json:"memoryInGb"`
		} `json:"gpuTypes"`
	}
	decodeData(t, a, &data)
	if len(data.GpuTypes) < 5 {
		t.Fatalf("%d GPU types: %s", len(data.GpuTypes), a.raw)
	}
	for _, g := range data.GpuTypes {
		if g.ID == "" || g.DisplayName == "" || g.MemoryInGb <= 0 {
			t.Errorf("GPU type %+v", g)
		}
	}
	if got := w.catalogCalls(); !slices.Equal(got, []string{"GET /v2/catalog/gpus"}) {
		t.Errorf("v2 calls %v, want the catalog once, without availability", got)
	}
	if len(a.Extensions) > 0 {
		t.Errorf("extensions on a plain catalog read: %s", a.raw)
	}
}

// get_gpu and create_pod's first step read one type by id, with every
// GpuType field and lowestPrice(gpuCount: 1) without secureCloud: the
// lowest price over both clouds (the RTX 4090's community price), so the
// type's own read and the community cloud's.
func TestRunpodPythonGetGPUAnswersTheTypeWithItsLowestPrice(t *testing.T) {
	for _, doc := range []string{"runpod-python/get_gpu.graphql", "runpod-python/create_pod__1_get_gpu.graphql", "runpod-python/create_pod_all_options__1_get_gpu.graphql"} {
		t.Run(doc, func(t *testing.T) {
			w := newWorld(t)
			// The captured document asks for a type the simulator lacks.
			q := strings.Replace(clientDocument(t, doc), "NVIDIA GeForce RTX 3070", "NVIDIA GeForce RTX 4090", 1)
			a := w.ok(q, "")
			types, _ := path(a.Data, "gpuTypes").([]any)
			if len(types) != 1 {
				t.Fatalf("want one GPU type: %s", a.raw)
			}
			g := types[0]
			for k, want := range map[string]any{
				"id": "NVIDIA GeForce RTX 4090", "displayName": "RTX 4090", "manufacturer": "NVIDIA",
				"memoryInGb": 24.0, "maxGpuCount": 8.0, "secureCloud": true, "communityCloud": true,
				"securePrice": 0.69, "communityPrice": 0.34,
				"lowestPrice.uninterruptablePrice": 0.34, "lowestPrice.minimumBidPrice": nil,
				"cudaCores": nil, "oneMonthPrice": nil, "threeMonthPrice": nil, "oneWeekPrice": nil,
				"communitySpotPrice": nil, "secureSpotPrice": nil,
			} {
				if got := path(g, k); got != want {
					t.Errorf("%s = %v, want %v", k, got, want)
				}
			}
			if !strings.Contains(string(a.raw), `"maxGpuCount":8,`) || !strings.Contains(string(a.raw), `"memoryInGb":24,`) {
				t.Errorf("counts are not written as integers: %s", a.raw)
			}
			want := []string{"GET /v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090?count=1&include=AVAILABILITY&product=POD",
				"GET /v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090?cloud=COMMUNITY&count=1&include=AVAILABILITY&product=POD"}
			if got := w.catalogCalls(); !slices.Equal(got, want) {
				t.Errorf("v2 calls %v, want %v", got, want)
			}
			ws := warnings(a)
			for _, f := range []string{"GpuType.cudaCores", "GpuType.oneMonthPrice", "GpuType.secureSpotPrice", "LowestPrice.minimumBidPrice"} {
				if !strings.Contains(ws, f) {
					t.Errorf("warnings do not name %s: %s", f, ws)
				}
			}
		})
	}
}

// An unknown id is an empty list, never an error: runpod-python's get_gpu
// raises its own "No GPU found" on [].
func TestGPUTypesWithAnUnknownIDIsAnEmptyList(t *testing.T) {
	w := newWorld(t)
	for _, doc := range []string{
		clientDocument(t, "runpod-python/get_gpu.graphql"), // RTX 3070: not in the catalog
		`{ gpuTypes(input: {id: "unknown"}) { id displayName } }`,
		`{ gpuTypes(input: {id: "NVIDIA GeForce RTX 4090/.."}) { id } }`, // not a v2 id: never sent
	} {
		a := w.ok(doc, "")
		if got, ok := path(a.Data, "gpuTypes").([]any); !ok || len(got) != 0 {
			t.Errorf("gpuTypes = %v, want []: %s", path(a.Data, "gpuTypes"), a.raw)
		}
	}
	for _, c := range w.catalogCalls() {
		if strings.Contains(c, "..") {
			t.Errorf("an id that is not one reached v2: %s", c)
		}
	}
	// The filter is exact: a prefix of an id is no id.
	a := w.ok(`{ gpuTypes(input: {id: "NVIDIA GeForce RTX"}) { id } }`, "")
	if got, _ := path(a.Data, "gpuTypes").([]any); len(got) != 0 {
		t.Errorf("a prefix matched: %s", a.raw)
	}
}

// ---------------------------------------------------------------------------
// runpodctl

// runpodctl's own types (internal/api/gpu.go): Go ints and strings.
type ctlGPUType struct {
	ID             string `json:"id"`
	DisplayName    string `json:"displayName"`
	MemoryInGb     int    `json:"memoryInGb"`
	SecureCloud    bool   `json:"secureCloud"`
	CommunityCloud bool   `json:"communityCloud"`
}

type ctlDataCenter struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Location        string `json:"location"`
	GpuAvailability []struct {
		GpuTypeID   string `json:"gpuTypeId"`
		DisplayName string `json:"displayName"`
		StockStatus string `json:"stockStatus"`
	} `json:"gpuAvailability"`
}

func TestRunpodctlGPUListReadsTypesThenDataCenterStock(t *testing.T) {
	for _, cmd := range []string{"gpu_list", "gpu_list_all"} {
		t.Run(cmd, func(t *testing.T) {
			w := newWorld(t)
			var types struct {
				GpuTypes []ctlGPUType `json:"gpuTypes"`
			}
			decodeData(t, w.ok(clientDocument(t, "runpodctl/"+cmd+"__1_gpuTypes.graphql"), ""), &types)
			if len(types.GpuTypes) < 5 {
				t.Fatalf("%d GPU types", len(types.GpuTypes))
			}
			var dcs struct {
				DataCenters []ctlDataCenter `json:"dataCenters"`
			}
			a := w.ok(clientDocument(t, "runpodctl/"+cmd+"__2_dataCenters.graphql"), "")
			decodeData(t, a, &dcs)
			checkDataCenters(t, dcs.DataCenters)
			// runpodctl's gpu list: the best stock of each type over the data
			// centers; a type without any entry is unavailable.
			best := map[string]string{}
			for _, dc := range dcs.DataCenters {
				for _, g := range dc.GpuAvailability {
					if rank(g.StockStatus) > rank(best[g.GpuTypeID]) {
						best[g.GpuTypeID] = g.StockStatus
					}
				}
			}
			if best["NVIDIA GeForce RTX 4090"] != "High" || best["NVIDIA GeForce RTX 3090"] != "High" {
				t.Errorf("best stock %v", best)
			}
			if s, ok := best["NVIDIA H200"]; ok {
				t.Errorf("the H200 has no stock anywhere but is listed as %q", s)
			}
			want := []string{"GET /v2/catalog/gpus", "GET /v2/catalog/datacenters?include=GPU_AVAILABILITY"}
			if got := w.catalogCalls(); !slices.Equal(got, want) {
				t.Errorf("v2 calls %v, want %v", got, want)
			}
		})
	}
}

func rank(s string) int {
	return map[string]int{"High": 3, "Medium": 2, "Low": 1}[s]
}

// checkDataCenters: every data center with id, name and a location in
// words; gpuAvailability entries only with some stock.
func checkDataCenters(t *testing.T, dcs []ctlDataCenter) {
	t.Helper()
	if len(dcs) < 3 {
		t.Fatalf("%d data centers", len(dcs))
	}
	for _, dc := range dcs {
		if dc.ID == "" || dc.Name == "" {
			t.Errorf("data center %+v", dc)
		}
		if !regexp.MustCompile(`^[A-Z][a-z]+( [A-Z][a-z]+)*$`).MatchString(dc.Location) {
			t.Errorf("%s: location %q is not a region in words", dc.ID, dc.Location)
		}
		for _, g := range dc.GpuAvailability {
			if rank(g.StockStatus) == 0 || g.GpuTypeID == "" || g.DisplayName == "" {
				t.Errorf("%s: GPU availability %+v", dc.ID, g)
			}
		}
	}
	if dcs[0].ID != "US-KS-2" || dcs[0].Location != "North America" {
		t.Errorf("first data center %+v", dcs[0])
	}
}

func TestRunpodctlDatacenterList(t *testing.T) {
	w := newWorld(t)
	var dcs struct {
		DataCenters []ctlDataCenter `json:"dataCenters"`
	}
	decodeData(t, w.ok(clientDocument(t, "runpodctl/datacenter_list.graphql"), ""), &dcs)
	checkDataCenters(t, dcs.DataCenters)
	if n := len(w.catalogCalls()); n != 1 {
		t.Errorf("%d v2 calls, want 1", n)
	}
}

// serverless create maps a GPU type id to its pool with serverlessGpuPools.
func TestRunpodctlServerlessCreateMapsGPUTypesToPools(t *testing.T) {
	for _, doc := range []string{"serverless_create__1_serverlessGpuPools", "serverless_create_all__1_serverlessGpuPools", "serverless_create_hub__2_serverlessGpuPools"} {
		t.Run(doc, func(t *testing.T) {
			w := newWorld(t)
			var data struct {
				ServerlessGpuPools []struct {
					ID         string   `json:"id"`
					GpuTypeIDs []string `json:"gpuTypeIds"`
				} `json:"serverlessGpuPools"`
			}
			decodeData(t, w.ok(clientDocument(t, "runpodctl/"+doc+".graphql"), ""), &data)
			pool := map[string]string{}
			for _, p := range data.ServerlessGpuPools {
				if p.ID == "" || len(p.GpuTypeIDs) == 0 {
					t.Errorf("pool %+v", p)
				}
				for _, id := range p.GpuTypeIDs {
					if pool[id] != "" {
						t.Errorf("%s is in pools %s and %s", id, pool[id], p.ID)
					}
					pool[id] = p.ID
				}
			}
			for id, want := range map[string]string{"NVIDIA GeForce RTX 4090": "ADA_24", "NVIDIA L40": "ADA_48_PRO", "NVIDIA L40S": "ADA_48_PRO", "NVIDIA GeForce RTX 3090": "AMPERE_24", "AMD Instinct MI300X OAM": ""} {
				if pool[id] != want {
					t.Errorf("%s: pool %q, want %q", id, pool[id], want)
				}
			}
			if got := w.catalogCalls(); !slices.Equal(got, []string{"GET /v2/catalog/gpus"}) {
				t.Errorf("v2 calls %v", got)
			}
		})
	}
}

// Legacy get cloud: lowestPrice(input: $input) on every type, with its
// variables; minMemory and minVcpu have no v2 source (null, named).
func TestRunpodctlGetCloud(t *testing.T) {
	for _, tc := range []struct {
		doc     string
		call    string
		ignored bool
	}{
		{"get_cloud", "GET /v2/catalog/gpus?count=1&include=AVAILABILITY&product=POD", false},
		{"get_cloud_opts", "GET /v2/catalog/gpus?cloud=SECURE&count=2&include=AVAILABILITY&product=POD", true},
	} {
		t.Run(tc.doc, func(t *testing.T) {
			w := newWorld(t)
			a := w.ok(clientDocument(t, "runpodctl/"+tc.doc+".graphql"), clientDocument(t, "runpodctl/"+tc.doc+".json"))
			var data struct {
				GpuTypes []struct {
					LowestPrice *struct {
						GpuName              string   `json:"gpuName"`
						GpuTypeID            string   `json:"gpuTypeId"`
						MinimumBidPrice      *float64 `json:"minimumBidPrice"`
						UninterruptablePrice *float64 `json:"uninterruptablePrice"`
						MinMemory            *float64 `json:"minMemory"`
						MinVcpu              *float64 `json:"minVcpu"`
					} `json:"lowestPrice"`
				} `json:"gpuTypes"`
			}
			decodeData(t, a, &data)
			if len(data.GpuTypes) < 5 {
				t.Fatalf("%d GPU types", len(data.GpuTypes))
			}
			for _, g := range data.GpuTypes {
				lp := g.LowestPrice
				if lp == nil || lp.GpuTypeID == "" || lp.GpuName == "" || lp.MinimumBidPrice != nil || lp.MinMemory != nil || lp.MinVcpu != nil {
					t.Errorf("lowestPrice %+v", lp)
				}
			}
			calls := w.catalogCalls()
			if len(calls) == 0 || calls[0] != tc.call {
				t.Errorf("v2 calls %v, want first %s", calls, tc.call)
			}
			if ign := slices.Contains(noteCodes(a), translate.CodeGraphQLInputIgnored); ign != tc.ignored {
				t.Errorf("input-ignored note %v, want %v: %s", ign, tc.ignored, warnings(a))
			}
			if tc.ignored && !strings.Contains(warnings(a), "minMemoryInGb, minVcpuCount, totalDisk not applied") {
				t.Errorf("warnings %s", warnings(a))
			}
			if !strings.Contains(warnings(a), "LowestPrice.minMemory") {
				t.Errorf("minMemory not named as unanswered: %s", warnings(a))
			}
		})
	}
}

// ---------------------------------------------------------------------------
// runpod-mcp

// list-gpu-types: available = stockStatus non-empty and not "Out"; so no
// stock must read null, never a word.
func TestRunpodMCPListGPUTypesStockIsNullWithoutStock(t *testing.T) {
	w := newWorld(t)
	a := w.ok(clientDocument(t, "runpod-mcp/list_gpu_types_v1.graphql"), "")
	stock := map[string]any{}
	for _, g := range path(a.Data, "gpuTypes").([]any) {
		s := path(g, "lowestPrice.stockStatus")
		if s != nil && rank(s.(string)) == 0 {
			t.Errorf("%v: stockStatus %q", path(g, "id"), s)
		}
		stock[path(g, "id").(string)] = s
	}
	for id, want := range map[string]any{
		"NVIDIA GeForce RTX 4090": "High",
		"NVIDIA H200":             nil,    // NONE everywhere
		"NVIDIA GeForce RTX 3090": "High", // community only: answered for the community cloud
		"NVIDIA L40":              "Low",
	} {
		if stock[id] != want {
			t.Errorf("%s: stockStatus %v, want %v", id, stock[id], want)
		}
	}
	// One read with availability for the secure cloud (v2's default),
	// one for the community cloud (the types offered only there).
	want := []string{
		"GET /v2/catalog/gpus?count=1&include=AVAILABILITY&product=POD",
		"GET /v2/catalog/gpus?cloud=COMMUNITY&count=1&include=AVAILABILITY&product=POD",
	}
	if got := w.catalogCalls(); !slices.Equal(got, want) {
		t.Errorf("v2 calls %v, want %v", got, want)
	}
	// The lowest price over both clouds is what the vendor answered:
	// nothing was narrowed.
	if slices.Contains(noteCodes(a), translate.CodeGraphQLCloudNarrowed) {
		t.Errorf("a cloud narrowing note: %v", noteCodes(a))
	}
}

func TestRunpodMCPListDataCenters(t *testing.T) {
	w := newWorld(t)
	a := w.ok(clientDocument(t, "runpod-mcp/list_data_centers_v1.graphql"), "")
	var dcs struct {
		DataCenters []ctlDataCenter `json:"dataCenters"`
	}
	decodeData(t, a, &dcs)
	checkDataCenters(t, dcs.DataCenters)
	// Without gpuAvailability selected, the read asks for none.
	if got := w.catalogCalls(); !slices.Equal(got, []string{"GET /v2/catalog/datacenters"}) {
		t.Errorf("v2 calls %v", got)
	}
	// The region filter lower-cases location.
	europe := 0
	for _, dc := range dcs.DataCenters {
		if strings.ToLower(dc.Location) == "europe" {
			europe++
		}
	}
	if europe != 2 {
		t.Errorf("%d data centers in europe, want 2", europe)
	}
}

func TestRunpodMCPGetCapacity(t *testing.T) {
	for _, tc := range []struct {
		doc   string
		calls []string
	}{
		{"get_capacity_matrix", []string{
			"GET /v2/catalog/gpus?count=1&include=AVAILABILITY&product=POD",
			"GET /v2/catalog/gpus?cloud=COMMUNITY&count=1&include=AVAILABILITY&product=POD"}},
		{"get_capacity_matrix_secure_gpucount2", []string{"GET /v2/catalog/gpus?cloud=SECURE&count=2&include=AVAILABILITY&product=POD"}},
		{"get_capacity_probe_12_8", []string{
			"GET /v2/catalog/gpus?count=1&cudaVersions=12.8&include=AVAILABILITY&product=POD",
			"GET /v2/catalog/gpus?cloud=COMMUNITY&count=1&cudaVersions=12.8&include=AVAILABILITY&product=POD"}},
		{"get_capacity_probe_13_0_secure", []string{"GET /v2/catalog/gpus?cloud=SECURE&count=4&cudaVersions=13.0&include=AVAILABILITY&product=POD"}},
	} {
		t.Run(tc.doc, func(t *testing.T) {
			w := newWorld(t)
			a := w.ok(clientDocument(t, "runpod-mcp/"+tc.doc+".graphql"), "")
			var data struct {
				GpuTypes []struct {
					ID          string `json:"id"`
					DisplayName string `json:"displayName"`
					MemoryInGb  int    `json:"memoryInGb"`
					LowestPrice *struct {
						StockStatus          *string  `json:"stockStatus"`
						UninterruptablePrice *float64 `json:"uninterruptablePrice"`
						GpuTypeCudaVersions  []struct {
							CudaVersion  string `json:"cudaVersion"`
							Availability string `json:"availability"`
						} `json:"gpuTypeCudaVersions"`
					} `json:"lowestPrice"`
				} `json:"gpuTypes"`
			}
			decodeData(t, a, &data)
			inStock := 0
			for _, g := range data.GpuTypes {
				lp := g.LowestPrice
				if lp == nil {
					t.Fatalf("%s: no lowestPrice", g.ID)
				}
				if lp.StockStatus != nil {
					inStock++
					if rank(*lp.StockStatus) == 0 {
						t.Errorf("%s: stockStatus %q", g.ID, *lp.StockStatus)
					}
				}
				for _, c := range lp.GpuTypeCudaVersions {
					if c.Availability != "AVAILABLE" && c.Availability != "UNAVAILABLE" {
						t.Errorf("%s: CUDA %+v", g.ID, c)
					}
				}
			}
			if inStock == 0 {
				t.Errorf("no GPU type in stock: %s", a.raw)
			}
			if got := w.catalogCalls(); !slices.Equal(got, tc.calls) {
				t.Errorf("v2 calls %v, want %v", got, tc.calls)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// The price, the clouds and the inputs

func TestLowestPriceIsThePerGPUListPriceOfTheCloudAskedFor(t *testing.T) {
	w := newWorld(t)
	a := w.ok(`{ gpuTypes(input: {id: "NVIDIA GeForce RTX 4090"}) {
		secure: lowestPrice(input: {gpuCount: 2, secureCloud: true}) { uninterruptablePrice stockStatus gpuName gpuTypeId }
		community: lowestPrice(input: {gpuCount: 2, secureCloud: false}) { uninterruptablePrice stockStatus }
		one: lowestPrice(input: {gpuCount: 1}) { uninterruptablePrice }
	} }`, "")
	g := path(a.Data, "gpuTypes.0")
	for k, want := range map[string]any{
		// Without secureCloud: the lowest over both clouds (issue 36 item 4).
		"secure.uninterruptablePrice": 0.69, "community.uninterruptablePrice": 0.34, "one.uninterruptablePrice": 0.34,
		"secure.stockStatus": "High", "secure.gpuName": "RTX 4090", "secure.gpuTypeId": "NVIDIA GeForce RTX 4090",
	} {
		if got := path(g, k); got != want {
			t.Errorf("%s = %v, want %v", k, got, want)
		}
	}
	// One read per distinct input: the first seeds the type's own read.
	if n := len(w.catalogCalls()); n != 3 {
		t.Errorf("%d v2 calls, want 3: %v", n, w.catalogCalls())
	}
	// A type not offered in the cloud asked for has no price there.
	a = w.ok(`{ gpuTypes(input: {id: "NVIDIA L40S"}) { lowestPrice(input: {secureCloud: false}) { uninterruptablePrice stockStatus } } }`, "")
	if got := path(a.Data, "gpuTypes.0.lowestPrice"); fmt.Sprint(got) != "map[stockStatus:<nil> uninterruptablePrice:<nil>]" {
		t.Errorf("L40S on the community cloud: %v", got)
	}
}

func TestLowestPriceRefusesInputsV2CannotRead(t *testing.T) {
	w := newWorld(t)
	for _, doc := range []string{
		`{ gpuTypes { id lowestPrice(input: {gpuCount: 0}) { stockStatus } } }`,
		`{ gpuTypes { id lowestPrice(input: {allowedCudaVersions: ["12"]}) { stockStatus } } }`,
	} {
		a := w.do(doc, "")
		if len(a.Errors) == 0 {
			t.Errorf("%s: no error: %s", doc, a.raw)
			continue
		}
		if _, ok := path(a.Data, "gpuTypes.0.id").(string); !ok {
			t.Errorf("the error took more than the field: %s", a.raw)
		}
		// Each type's field fails at its own path.
		if got := fmt.Sprint(a.Errors[1]["path"]); got != "[gpuTypes 1 lowestPrice]" {
			t.Errorf("second error's path %s: %s", got, a.raw)
		}
	}
	// A root field's error is at the root field.
	w.env.Caller = failingCaller{status: http.StatusTooManyRequests}
	a := w.do(`{ gpuTypes { id } }`, "")
	if got := fmt.Sprint(a.Errors[0]["path"]); got != "[gpuTypes]" {
		t.Errorf("root error's path %s", got)
	}
}

// ---------------------------------------------------------------------------
// One read per distinct input, whatever the number of types

// wideCatalog is a v2 GPU catalog of n types, every fourth offered on the
// community cloud only; it counts the reads and checks each against the
// v2 contract.
type wideCatalog struct {
	t     testing.TB
	n     int
	mu    sync.Mutex
	calls []string
}

func (c *wideCatalog) Call(_ context.Context, call translate.V2Call) (*translate.V2Answer, error) {
	target := call.Path
	if len(call.Query) > 0 {
		target += "?" + call.Query.Encode()
	}
	if spec := loadV2Spec(c.t); spec != nil {
		if err := spec.ValidateRequest(call.Method, target, nil, nil); err != nil {
			c.t.Errorf("%s: %v", target, err)
		}
	}
	c.mu.Lock()
	c.calls = append(c.calls, target)
	c.mu.Unlock()
	if call.Path != "/v2/catalog/gpus" {
		return &translate.V2Answer{Status: http.StatusNotFound, Body: []byte(`{"title":"Not Found","status":404}`)}, nil
	}
	return &translate.V2Answer{Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}, Body: wideCatalogBody(c.n, call.Query)}, nil
}

func wideCatalogBody(n int, q url.Values) []byte {
	var b strings.Builder
	b.WriteString(`{"gpus":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		secure := i%4 != 0
		fmt.Fprintf(&b, `{"id":"GPU %d","name":"G%d","pool":"POOL_%d","manufacturer":"NVIDIA","memory":%d,"secure":%t,"community":true,`+
			`"price":{"secure":%d.5,"community":%d.25},"maxCount":{"secure":8,"community":4}`, i, i, i%5, 16+i, secure, i, i)
		if q.Get("include") == "AVAILABILITY" {
			fmt.Fprintf(&b, `,"availability":%q,"cudaVersions":[{"version":"12.8","available":true}]`, []string{"HIGH", "MEDIUM", "LOW", "NONE"}[i%4])
		}
		b.WriteByte('}')
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func TestALowestPriceListOf40TypesReadsTheCatalogOncePerInput(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		reads     int
	}{
		{"secure, gpuCount 2 (runpod-mcp)", clientDocument(t, "runpod-mcp/get_capacity_matrix_secure_gpucount2.graphql"), 1},
		{"community", `{ gpuTypes { id lowestPrice(input: {secureCloud: false}) { stockStatus uninterruptablePrice } } }`, 1},
		// No cloud named: the secure read, and the community read for the
		// types offered only there.
		{"no cloud (runpod-mcp)", clientDocument(t, "runpod-mcp/list_gpu_types_v1.graphql"), 2},
		{"two inputs", `{ gpuTypes { id
			a: lowestPrice(input: {gpuCount: 1, secureCloud: true}) { stockStatus }
			b: lowestPrice(input: {gpuCount: 2, secureCloud: true}) { stockStatus }
			c: lowestPrice(input: {gpuCount: 1, secureCloud: true}) { uninterruptablePrice } } }`, 2},
		{"through a fragment", `query { gpuTypes { ...G } } fragment G on GpuType { id lowestPrice(input: {gpuCount: 3, secureCloud: true}) { stockStatus } }`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			wc := &wideCatalog{t: t, n: 40}
			w.env.Caller = wc
			a := w.ok(tc.doc, "")
			if n := len(path(a.Data, "gpuTypes").([]any)); n != 40 {
				t.Fatalf("%d GPU types, want 40", n)
			}
			if len(wc.calls) != tc.reads {
				t.Errorf("%d v2 reads, want %d: %v", len(wc.calls), tc.reads, wc.calls)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Failures and keys

func TestACatalogReadThatFailsIsAGraphQLErrorWithV2sMessage(t *testing.T) {
	w := newWorld(t)
	w.env.Caller = failingCaller{status: http.StatusTooManyRequests}
	for _, doc := range []string{
		clientDocument(t, "runpod-python/get_gpus.graphql"),
		clientDocument(t, "runpod-mcp/list_gpu_types_v1.graphql"),
		clientDocument(t, "runpodctl/datacenter_list.graphql"),
		clientDocument(t, "runpodctl/serverless_create__1_serverlessGpuPools.graphql"),
	} {
		a := w.do(doc, "")
		if len(a.Errors) == 0 {
			t.Fatalf("no error: %s", a.raw)
		}
		msg, _ := a.Errors[0]["message"].(string)
		if !strings.Contains(msg, "slow down") || path(a.Errors[0], "extensions.code") != "RATE_LIMITED" {
			t.Errorf("error %v", a.Errors[0])
		}
		if _, ok := a.Errors[0]["extensions"].(map[string]any)["v1Operation"]; ok {
			t.Errorf("a catalog read names a v1 operation: %v", a.Errors[0])
		}
		if a.resp.RetryAfter != "7" {
			t.Errorf("Retry-After %q, want v2's", a.resp.RetryAfter)
		}
	}
}

type failingCaller struct{ status int }

func (c failingCaller) Call(context.Context, translate.V2Call) (*translate.V2Answer, error) {
	return &translate.V2Answer{Status: c.status, Header: http.Header{"Retry-After": {"7"}, "Content-Type": {"application/problem+json"}},
		Body: []byte(`{"title":"Too Many Requests","status":429,"detail":"slow down"}`)}, nil
}

// The catalog is public: answered without a key when the gateway has one
// for public queries, refused (with the reason) when it has none.
func TestTheCatalogIsAnsweredWithoutAKey(t *testing.T) {
	w := newWorld(t)
	w.env.Anonymous, w.env.KeyID = true, ""
	for _, doc := range []string{"runpod-mcp/list_gpu_types_v1.graphql", "runpod-mcp/list_data_centers_v1.graphql", "runpodctl/serverless_create__1_serverlessGpuPools.graphql"} {
		w.ok(clientDocument(t, doc), "")
	}
	msgs := w.errorsOf(`{ myself { id } }`, "")
	if !strings.Contains(msgs[0], "needs an API key") {
		t.Errorf("myself without a key: %v", msgs)
	}
	w.env.NoPublicKey = true
	msgs = w.errorsOf(clientDocument(t, "runpod-mcp/list_gpu_types_v1.graphql"), "")
	if !strings.Contains(msgs[0], "graphql_public_key") {
		t.Errorf("without a public key: %v", msgs)
	}
}

// lowestPrice reads its placement inputs from v2's catalog rather than
// ignoring them silently (gpuhunt asks one per data center and per
// country, always with minCudaVersion 12.8): dataCenterId is the type's
// stock in that data center, countryCode v2's countryCodes (a type with
// no data center there: its price, no stock, and the list of types is not
// narrowed), minCudaVersion v2's minCudaVersion; a machine minimum v2
// cannot filter by is named in a warning.
func TestLowestPriceAppliesDataCenterCountryAndCUDA(t *testing.T) {
	cases := []struct {
		name, input string
		stock       map[string]any // GPU type → stockStatus (nil: null)
		query       string         // in the catalog read
		warn        string
	}{
		{name: "a data center with the type in stock", input: `gpuCount: 1, secureCloud: true, dataCenterId: "EU-RO-1"`,
			stock: map[string]any{"NVIDIA GeForce RTX 4090": "Medium", "NVIDIA L40S": nil, "NVIDIA RTX A4000": "High"}},
		{name: "another data center", input: `gpuCount: 1, secureCloud: true, dataCenterId: "EU-CZ-1"`,
			stock: map[string]any{"NVIDIA GeForce RTX 4090": nil, "NVIDIA L40S": "High"}},
		{name: "a country", input: `gpuCount: 1, secureCloud: true, countryCode: "CZ"`, query: "countryCodes=CZ",
			stock: map[string]any{"NVIDIA GeForce RTX 4090": nil, "NVIDIA L40S": "High", "NVIDIA RTX A4000": "Low"}},
		{name: "a CUDA minimum", input: `gpuCount: 1, secureCloud: true, minCudaVersion: "12.8"`, query: "minCudaVersion=12.8",
			stock: map[string]any{"NVIDIA GeForce RTX 4090": "High", "NVIDIA RTX A4000": nil}},
		{name: "machine minimums", input: `gpuCount: 1, secureCloud: true, minDisk: 100, minDownload: 400, supportPublicIp: true`,
			stock: map[string]any{"NVIDIA GeForce RTX 4090": "High"}, warn: "lowestPrice: minDisk, minDownload, supportPublicIp not applied"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			mark := w.mark()
			a := w.ok(`query { gpuTypes { id lowestPrice(input: {`+c.input+`}) { stockStatus uninterruptablePrice } } }`, "")
			types, _ := a.Data["gpuTypes"].([]any)
			if len(types) != 10 {
				t.Errorf("%d GPU types, want the 10 of the catalog: %s", len(types), a.raw)
			}
			for _, g := range types {
				want, ok := c.stock[path(g, "id").(string)]
				if !ok {
					continue
				}
				if got := path(g, "lowestPrice.stockStatus"); got != want {
					t.Errorf("%s: stockStatus %v, want %v", path(g, "id"), got, want)
				}
				if path(g, "lowestPrice.uninterruptablePrice") == nil {
					t.Errorf("%s: no price: %s", path(g, "id"), a.raw)
				}
			}
			if c.query != "" {
				var queries []string
				for _, call := range w.caller.calls[mark:] {
					queries = append(queries, call.Query.Encode())
				}
				if !slices.ContainsFunc(queries, func(s string) bool { return strings.Contains(s, c.query) }) {
					t.Errorf("no catalog read with %s: %v", c.query, queries)
				}
			}
			if c.warn != "" && !a.warned(c.warn) {
				t.Errorf("warnings %q do not say %q", a.resp.Warnings, c.warn)
			}
			if c.warn == "" && a.warned("not applied") {
				t.Errorf("warnings %q", a.resp.Warnings)
			}
		})
	}
	w := newWorld(t)
	for _, in := range []string{`countryCode: "cz"`, `minCudaVersion: "twelve"`} {
		if a := w.do(`query { gpuTypes { lowestPrice(input: {`+in+`}) { stockStatus } } }`, ""); len(a.Errors) == 0 {
			t.Errorf("%s: %s", in, a.raw)
		}
	}
}
