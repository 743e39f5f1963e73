package v2sim

import (
	"fmt"
	"strings"
	"testing"
)

func TestTemplateDefaults(t *testing.T) {
	s, _ := newTestServer(Options{})
	rec := do(t, s, "POST", "/v2/templates", map[string]any{"name": "t", "image": "i"})
	expectStatus(t, rec, 201)
	tpl := obj(t, rec)
	want := map[string]string{
		"startJupyter": "true", "startSsh": "true", "category": "NVIDIA", "public": "false", "serverless": "false",
		"allowedCudaVersions": "[]", "registry": "<nil>", "mounts": "map[]", "ports": "[]", "env": "map[]", "args": "",
	}
	for k, w := range want {
		if got := fmt.Sprint(tpl[k]); got != w {
			t.Errorf("%s = %s, want %s", k, got, w)
		}
	}
	if n := len(str(tpl, "id")); n != 10 {
		t.Errorf("template id %q", tpl["id"])
	}
	// PATCH: {} mounts unchanged; fields replaced.
	id := str(tpl, "id")
	rec = do(t, s, "PATCH", "/v2/templates/"+id, map[string]any{"mounts": map[string]any{"persistent": map[string]any{"size": 15, "path": "/w"}}, "startSsh": false, "category": "CPU"})
	expectStatus(t, rec, 200)
	rec = do(t, s, "PATCH", "/v2/templates/"+id, map[string]any{"mounts": map[string]any{}, "name": "n"})
	expectStatus(t, rec, 200)
	tpl = obj(t, rec)
	if fmt.Sprint(tpl["mounts"]) != "map[persistent:map[path:/w size:15]]" || tpl["startSsh"] != false || tpl["category"] != "CPU" || tpl["name"] != "n" {
		t.Errorf("patched template %v", tpl)
	}
	expectProblem(t, do(t, s, "PATCH", "/v2/templates/"+id, map[string]any{"serverless": true}), 400, "persistent")
}

// TestTemplateDelete covers the seed's template deletion rules: owner only,
// public catalog → 404, in use by a pod or bound to an endpoint → rejected
// (under the readings where a pod shows its template and the caller's own
// template is bound; both readings: readings_test.go).
func TestTemplateDelete(t *testing.T) {
	s, _ := newTestServer(Options{PodTemplate: PodTemplateVisible, EndpointTemplate: EndpointTemplateCaller})
	for _, public := range []string{"30zmvf89kd", "c5t1m8r2yb", "h7j3n9s5ue"} { // official, verified, community
		expectStatus(t, do(t, s, "GET", "/v2/templates/"+public, nil), 200)
		expectProblem(t, do(t, s, "DELETE", "/v2/templates/"+public, nil), 404)
		expectProblem(t, do(t, s, "PATCH", "/v2/templates/"+public, map[string]any{"name": "mine"}), 404)
	}
	expectProblem(t, do(t, s, "DELETE", "/v2/templates/nope", nil), 404)

	tpl := str(obj(t, do(t, s, "POST", "/v2/templates", map[string]any{"name": "t", "image": "i"})), "id")
	pod := createPodT(t, s, map[string]any{"name": "p", "templateId": tpl, "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"}})
	rec := expectProblem(t, do(t, s, "DELETE", "/v2/templates/"+tpl, nil), 400, pod)
	if !strings.Contains(str(rec, "detail"), "referenced by pod") {
		t.Errorf("detail %q", rec["detail"])
	}
	expectStatus(t, do(t, s, "DELETE", "/v2/pods/"+pod, nil), 204)
	expectStatus(t, do(t, s, "DELETE", "/v2/templates/"+tpl, nil), 204)
	expectProblem(t, do(t, s, "GET", "/v2/templates/"+tpl, nil), 404)

	sls := str(obj(t, do(t, s, "POST", "/v2/templates", map[string]any{"name": "w", "image": "i", "serverless": true})), "id")
	ep := str(createEndpointT(t, s, map[string]any{"templateId": sls, "image": nil}), "id")
	expectProblem(t, do(t, s, "DELETE", "/v2/templates/"+sls, nil), 400, "bound to serverless endpoint "+ep)
}

func TestPublicTemplateCatalog(t *testing.T) {
	s, _ := newTestServer(Options{})
	official := list(t, do(t, s, "GET", "/v2/catalog/templates", nil), "templates")
	if len(official) < 2 {
		t.Fatalf("%d official templates", len(official))
	}
	kinds := map[any]bool{}
	for _, tpl := range official {
		kinds[tpl["serverless"]] = true
		if tpl["public"] != true || tpl["registry"] != nil {
			t.Errorf("catalog template %v", tpl)
		}
	}
	if !kinds[true] || !kinds[false] {
		t.Error("the official catalog lacks a pod or a serverless template")
	}
	for _, src := range []string{"verified", "community"} {
		if n := len(list(t, do(t, s, "GET", "/v2/catalog/templates?source="+src, nil), "templates")); n != 1 {
			t.Errorf("source=%s: %d templates", src, n)
		}
	}
	// Owned templates are not in the catalog, and catalog ones are not owned.
	do(t, s, "POST", "/v2/templates", map[string]any{"name": "mine", "image": "i", "public": true})
	if n := len(list(t, do(t, s, "GET", "/v2/templates", nil), "templates")); n != 1 {
		t.Errorf("%d owned templates", n)
	}
	if n := len(list(t, do(t, s, "GET", "/v2/catalog/templates?source=community", nil), "templates")); n != 1 {
		t.Errorf("own public template listed in the community catalog")
	}
}
