package translate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/internal/speccheck"
)

// v2 problems reach v1 clients in v1 words: the v1 field the client sent,
// no v2 route, no doubled punctuation (issue 14, item 5). The texts are
// the v2 simulator's own problem details and errors.
func TestV2ProblemsInV1Words(t *testing.T) {
	p := func(status int, detail string, errs ...string) string {
		b, _ := json.Marshal(Problem{Title: "x", Status: status, Detail: detail, Errors: errs})
		return string(b)
	}
	tests := []struct {
		name, resource, body, want string
	}{
		{"a volume's data center is v1's dataCenterId, without the catalog route", "networkvolumes",
			p(400, `dataCenter: unknown data center "MARS-1" (see GET /v2/catalog/datacenters)`),
			`dataCenterId: unknown data center "MARS-1"`},
		{"a volume tier is volumeType", "networkvolumes",
			p(400, `type: data center EU-RO-1 does not offer HIGH_PERFORMANCE network volumes (it offers [STANDARD])`),
			`volumeType: data center EU-RO-1 does not offer HIGH_PERFORMANCE network volumes (it offers [STANDARD])`},
		{"a CPU pod without capacity is told to try another CPU flavor", "pods",
			p(400, `no capacity: cpu5c with 2 vCPUs could not be placed in EU-RO-1; try another GPU type or data center`),
			`no capacity: cpu5c with 2 vCPUs could not be placed in EU-RO-1; try another CPU flavor (cpuFlavorIds) or data center (dataCenterIds)`},
		{"a GPU pod likewise, naming gpuTypeIds", "pods",
			p(400, `no capacity: 1 x NVIDIA A40 (SECURE) could not be placed in any data center; try another GPU type or data center`),
			`no capacity: 1 x NVIDIA A40 (SECURE) could not be placed in any data center; try another GPU type (gpuTypeIds) or data center (dataCenterIds)`},
		{"validation errors: one colon, v1 field names", "pods",
			p(422, "Request validation failed.", "$.templateId: length must be >= 1", "$.mounts.persistent.size: must be >= 1"),
			`Request validation failed: templateId: length must be >= 1; volumeInGb: must be >= 1`},
		{"a missing property is v1's is required", "pods",
			p(422, "Request validation failed.", "$: missing property 'name'", "$.gpu: missing property 'id'"),
			`Request validation failed: name: is required; gpuTypeIds: is required`},
		{"array indices carry over", "pods",
			p(400, `dataCenterIds[1]: unknown data center "XX" (see GET /v2/catalog/datacenters)`),
			`dataCenterIds[1]: unknown data center "XX"`},
		{"ports keep their index", "pods",
			p(400, `ports[0] "8888/http,22/tcp": expected port/protocol, e.g. 8888/http or 22/tcp`),
			`ports[0] "8888/http,22/tcp": expected port/protocol, e.g. 8888/http or 22/tcp`},
		{"unknown GPU type", "pods",
			p(400, `gpu.id: unknown GPU type "NVIDIA H900" (see GET /v2/catalog/gpus)`),
			`gpuTypeIds: unknown GPU type "NVIDIA H900"`},
		{"unknown CPU flavor of an endpoint", "endpoints",
			p(400, `cpu[1].id: unknown CPU flavor "cpu9x" (see GET /v2/catalog/cpus)`),
			`cpuFlavorIds[1]: unknown CPU flavor "cpu9x"`},
		{"serverless pools are v1 GPU types", "endpoints",
			p(400, `gpu.pools[0]: unknown serverless GPU pool "XYZ" (see the pool field of GET /v2/catalog/gpus)`),
			`gpuTypeIds: unknown serverless GPU pool "XYZ"`},
		{"worker bounds, both named", "endpoints",
			p(400, `workers.min (3) must be <= workers.max (2)`),
			`workersMin (3) must be <= workersMax (2)`},
		{"execution timeout", "endpoints",
			p(400, `timeout must be a positive number of milliseconds`),
			`executionTimeoutMs must be a positive number of milliseconds`},
		{"CUDA fields", "endpoints",
			p(400, `gpu.allowedCudaVersions (non-empty) and gpu.minCudaVersion are mutually exclusive`),
			`allowedCudaVersions (non-empty) and minCudaVersion are mutually exclusive`},
		{"network volumes of an endpoint", "endpoints",
			p(400, `networkVolumes[0]: network volume "v9" not found`),
			`networkVolumeIds[0]: network volume "v9" not found`},
		{"container disk", "templates",
			p(400, `disk 200000 GB exceeds the 100000 GB container disk limit`),
			`containerDiskInGb 200000 GB exceeds the 100000 GB container disk limit`},
		{"a pod's network volume", "pods",
			p(400, `mounts.network[0].volumeId: network volume "v1" not found`),
			`networkVolumeId: network volume "v1" not found`},
		{"a clause sending the client to a v2 route goes", "pods",
			p(409, `pod "p1" belongs to cluster "c1" and cannot be modified via the pod endpoints; manage it through /v2/clusters/c1`),
			`pod "p1" belongs to cluster "c1" and cannot be modified via the pod endpoints`},
		{"an env key keeps its name", "pods",
			p(422, "Request validation failed.", "$.env.HF_TOKEN: expected string, but got number"),
			`Request validation failed: env.HF_TOKEN: expected string, but got number`},
		{"a v2 path without a v1 field says so", "pods",
			p(422, "Request validation failed.", "$.startJupyter: expected boolean, but got string"),
			`Request validation failed: v2 field startJupyter: expected boolean, but got string`},
		{"words that are not fields stay", "pods",
			p(400, `exactly one of gpu or cpu must be set`), `exactly one of gpu or cpu must be set`},
		{"plain detail", "pods", p(404, `pod "p1" not found`), `pod "p1" not found`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := problemMessage(tc.resource, []byte(tc.body), 400); got != tc.want {
				t.Errorf("\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// v2Leak matches what a v1 message must not carry: a v2 route, a JSON path
// or doubled punctuation.
var v2Leak = regexp.MustCompile(`/v2/|\$\.|\$:|\.:`)

// The v2 document's own error examples become v1 messages without v2
// wording.
func TestV2DocumentErrorExamplesInV1Words(t *testing.T) {
	dir, err := speccheck.SpecsDir()
	if err != nil {
		t.Skipf("v2 document not found: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "v2.openapi.json"))
	if err != nil {
		t.Skipf("v2 document not found: %v", err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if d, ok := x["detail"].(string); ok {
				if st, ok := x["status"].(float64); ok {
					body, _ := json.Marshal(x)
					msg := problemMessage("pods", body, int(st))
					n++
					if v2Leak.MatchString(msg) || !strings.Contains(msg, strings.TrimRight(d, ".")) {
						t.Errorf("example %s → %q", body, msg)
					}
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	if n == 0 {
		t.Error("no error examples found in the v2 document")
	}
}
