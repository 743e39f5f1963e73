package proxy

import (
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
)

// TestRunpodctlBinaryGraphQLCommandsWorkAgainstTheGateway runs the
// runpodctl 2.7.x commands that speak GraphQL (RUNPOD_GRAPHQL_URL at the
// gateway's /graphql) against the gateway in graphql_mode translate, in
// front of a seeded v2sim: each checked by exit status and what it prints
// (the structs of runpodctl's internal/api, printed as JSON). Gated, like
// TestRunpodctlBinaryWorksAgainstTheGateway, by RUNPODCTL.
func TestRunpodctlBinaryGraphQLCommandsWorkAgainstTheGateway(t *testing.T) {
	h := newRunpodctl(t, func(c *config.Config) { c.GraphQLMode = "translate" })
	run, obj, list := h.run, h.obj, h.list
	ids := map[string]string{}
	need := func(t *testing.T, k string) string {
		t.Helper()
		if ids[k] == "" {
			t.Fatalf("needs the %s an earlier step failed to create", k)
		}
		return ids[k]
	}
	find := func(l []map[string]any, k, v string) map[string]any {
		for _, it := range l {
			if it[k] == v {
				return it
			}
		}
		return nil
	}
	const gpu = "NVIDIA GeForce RTX 4090"
	available := 0 // GPU types gpu list printed

	steps := []struct {
		name string
		fn   func(t *testing.T)
	}{
		// gpu list: gpuTypes, then dataCenters for the stock status; a GPU
		// type no data center has in stock is left out.
		{"gpu list", func(t *testing.T) {
			l := list(t, run(t, "gpu", "list"))
			g := find(l, "gpuId", gpu)
			if g == nil || g["available"] != true || g["stockStatus"] == "" || g["stockStatus"] == nil ||
				g["displayName"] == "" || g["memoryInGb"] != 24.0 || g["secureCloud"] != true {
				t.Errorf("%s as printed: %v\nall: %v", gpu, g, l)
			}
			for _, it := range l {
				if it["available"] != true {
					t.Errorf("an unavailable GPU type is listed without --include-unavailable: %v", it)
				}
			}
			available = len(l)
		}},
		{"gpu list --include-unavailable", func(t *testing.T) {
			if l := list(t, run(t, "gpu", "list", "--include-unavailable")); len(l) < available || find(l, "gpuId", gpu) == nil {
				t.Errorf("%v", l)
			}
		}},
		{"datacenter list", func(t *testing.T) {
			l := list(t, run(t, "datacenter", "list"))
			dc := find(l, "id", "US-KS-2")
			if dc == nil || dc["name"] == "" || dc["location"] == "" {
				t.Fatalf("US-KS-2 as printed: %v\nall: %v", dc, l)
			}
			avail, _ := dc["gpuAvailability"].([]any)
			if len(avail) == 0 {
				t.Errorf("US-KS-2 has no gpuAvailability: %v", dc)
			}
			for _, a := range avail {
				if m, _ := a.(map[string]any); m["gpuTypeId"] == "" || m["stockStatus"] == "" {
					t.Errorf("US-KS-2 gpuAvailability %v", a)
				}
			}
		}},
		// user: v2 has no account profile; the id is the gateway's key id,
		// the rest print as zero values (null in the answer).
		{"user", func(t *testing.T) {
			u := obj(t, run(t, "user"))
			if id, _ := u["id"].(string); id == "" {
				t.Errorf("user as printed: %v", u)
			}
			if _, ok := u["currentSpendPerHr"].(float64); !ok {
				t.Errorf("user as printed has no currentSpendPerHr: %v", u)
			}
		}},
		// template list: official (isRunpod true) then community
		// templates, the first 10; errors are swallowed by runpodctl, so
		// an empty list is the failure.
		{"template list", func(t *testing.T) {
			l := list(t, run(t, "template", "list"))
			if len(l) == 0 || find(l, "name", "PyTorch 2.8") == nil {
				t.Errorf("template list: %v", l)
			}
			for _, tpl := range l {
				if tpl["id"] == "" || tpl["imageName"] == "" {
					t.Errorf("template as printed: %v", tpl)
				}
			}
		}},
		{"template list --type official", func(t *testing.T) {
			l := list(t, run(t, "template", "list", "--type", "official"))
			if len(l) == 0 {
				t.Fatal("no official templates")
			}
			for _, tpl := range l {
				if tpl["isRunpod"] != true {
					t.Errorf("not an official template: %v", tpl)
				}
			}
		}},
		{"template search pytorch", func(t *testing.T) {
			out := run(t, "template", "search", "pytorch")
			if strings.HasPrefix(string(out), "no templates found") {
				t.Fatalf("%s", out)
			}
			l := list(t, out)
			if find(l, "name", "PyTorch 2.8") == nil {
				t.Errorf("template search pytorch: %v", l)
			}
			for _, tpl := range l {
				s := strings.ToLower(tpl["id"].(string) + " " + tpl["name"].(string) + " " + tpl["imageName"].(string))
				if !strings.Contains(s, "pytorch") {
					t.Errorf("does not match pytorch: %v", tpl)
				}
			}
		}},
		// pod create (GPU): GraphQL podFindAndDeployOnDemand; the pod is
		// printed as answered.
		{"pod create --gpu-id", func(t *testing.T) {
			p := obj(t, run(t, "pod", "create", "--gpu-id", gpu, "--image", "runpod/pytorch:2", "--name", "gpu-gql"))
			ids["pod"], _ = p["id"].(string)
			if ids["pod"] == "" || p["desiredStatus"] != "RUNNING" || p["imageName"] != "runpod/pytorch:2" ||
				p["name"] != "gpu-gql" || p["gpuCount"] != 1.0 || p["containerDiskInGb"] != 20.0 {
				t.Errorf("created pod as printed: %v", p)
			}
			if c, _ := p["costPerHr"].(float64); c <= 0 {
				t.Errorf("costPerHr %v", p["costPerHr"])
			}
		}},
		{"pod get (the GPU pod, with its SSH info over GraphQL)", func(t *testing.T) {
			if p := obj(t, run(t, "pod", "get", need(t, "pod"))); p["id"] != ids["pod"] {
				t.Errorf("pod get: %v", p)
			}
		}},
		{"template create --serverless", func(t *testing.T) {
			ids["tpl"], _ = obj(t, run(t, "template", "create", "--name", "tpl-gql", "--image", "runpod/worker:1", "--serverless"))["id"].(string)
		}},
		// serverless create: serverlessGpuPools (the GPU type's pool),
		// then saveEndpoint.
		{"serverless create --gpu-id", func(t *testing.T) {
			ep := obj(t, run(t, "serverless", "create", "--template-id", need(t, "tpl"), "--gpu-id", gpu, "--name", "ep-gql"))
			ids["ep"], _ = ep["id"].(string)
			if ids["ep"] == "" || ep["name"] != "ep-gql" || ep["gpuIds"] != "ADA_24" || ep["workersMax"] != 3.0 {
				t.Errorf("created endpoint as printed: %v", ep)
			}
		}},
		{"serverless get (the endpoint just created)", func(t *testing.T) {
			if ep := obj(t, run(t, "serverless", "get", need(t, "ep"))); ep["id"] != ids["ep"] {
				t.Errorf("serverless get: %v", ep)
			}
		}},
		// What v2 cannot do fails with the gateway's reason.
		{"hub list (refused: v2 has no hub)", func(t *testing.T) {
			out, errb, err := h.exec("hub", "list")
			if err == nil || !strings.Contains(string(errb), "v2 has no hub") {
				t.Errorf("hub list: %v\n%s%s", err, out, errb)
			}
		}},
		{"serverless delete", func(t *testing.T) { run(t, "serverless", "delete", need(t, "ep")) }},
		{"template delete", func(t *testing.T) { run(t, "template", "delete", need(t, "tpl")) }},
		{"pod delete", func(t *testing.T) { run(t, "pod", "delete", need(t, "pod")) }},
	}
	for _, s := range steps {
		t.Run("runpodctl "+s.name, s.fn)
	}
}
