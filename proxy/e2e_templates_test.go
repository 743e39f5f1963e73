package proxy

import (
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
)

// End to end: the six v1 template operations against the v2 simulator.

func TestE2ETemplateLifecycle(t *testing.T) {
	underEachReading(t, testE2ETemplateLifecycle)
}

func testE2ETemplateLifecycle(t *testing.T, rd simReading) {
	e := newE2E(t, e2eOpts{sim: rd.apply})

	// Create: v1 defaults sent explicitly; the readme, which v2 has no
	// field for, kept in the fact store.
	m := e.mark()
	r := e.v1("POST", "/v1/templates", `{"name":"torch","imageName":"runpod/pytorch:2","dockerStartCmd":["jupyter","lab"],"readme":"# notes"}`)
	e.want(r, 200)
	e.wantCalls(m, "POST /v2/templates")
	mustJSON(t, e.lastBody("POST", "/v2/templates"), `{"name":"torch","image":"runpod/pytorch:2","args":"jupyter lab","disk":50,
		"ports":["8888/http","22/tcp"],"category":"NVIDIA","mounts":{"persistent":{"size":20,"path":"/workspace"}},
		"public":false,"serverless":false,"startJupyter":false,"startSsh":true}`)
	if w := warningsOf(r); w != "" {
		t.Errorf("warning %q", w)
	}
	tj := r.json(t)
	id, _ := tj["id"].(string)
	if tj["volumeInGb"] != 20.0 || tj["volumeMountPath"] != "/workspace" || tj["containerDiskInGb"] != 50.0 || tj["isServerless"] != false ||
		tj["readme"] != "# notes" || tj["isRunpod"] != false {
		t.Errorf("created %s", r.body)
	}
	mustJSON(t, tj["dockerStartCmd"], `["jupyter","lab"]`)

	// List: owned only, then with the official and public catalogs.
	m = e.mark()
	l := e.v1("GET", "/v1/templates", "")
	e.want(l, 200)
	e.wantCalls(m, "GET /v2/templates")
	if items := l.list(t); len(items) != 1 || items[0]["id"] != id || items[0]["isRunpod"] != false {
		t.Errorf("list %s", l.body)
	}
	m = e.mark()
	l = e.v1("GET", "/v1/templates?includeRunpodTemplates=true&includePublicTemplates=true", "")
	e.want(l, 200)
	e.wantCalls(m, "GET /v2/templates", "GET /v2/catalog/templates?source=official", "GET /v2/catalog/templates?source=verified",
		"GET /v2/catalog/templates?source=community")
	runpod := map[string]any{}
	for _, it := range l.list(t) {
		runpod[it["id"].(string)] = it["isRunpod"]
	}
	if runpod[id] != false || runpod["30zmvf89kd"] != true || runpod["w9d2f6h4np"] != true || runpod["c5t1m8r2yb"] != false || runpod["h7j3n9s5ue"] != false {
		t.Errorf("isRunpod %v", runpod)
	}

	// Get: owned and public.
	e.want(e.v1("GET", "/v1/templates/"+id, ""), 200)
	if g := e.v1("GET", "/v1/templates/30zmvf89kd", ""); g.status != 200 || g.json(t)["isPublic"] != true {
		t.Errorf("public template %d %s", g.status, g.body)
	}

	// Update: a partial mount is completed from the current template.
	m = e.mark()
	u := e.v1("PATCH", "/v1/templates/"+id, `{"volumeInGb":40}`)
	e.want(u, 200)
	e.wantCalls(m, "GET /v2/templates/"+id, "PATCH /v2/templates/"+id)
	mustJSON(t, e.lastBody("PATCH", "/v2/templates/"+id), `{"mounts":{"persistent":{"size":40,"path":"/workspace"}}}`)
	if uj := u.json(t); uj["volumeInGb"] != 40.0 || uj["volumeMountPath"] != "/workspace" {
		t.Errorf("updated %s", u.body)
	}
	m = e.mark()
	u = e.v1("POST", "/v1/templates/"+id+"/update", `{"name":"torch2","containerRegistryAuthId":null,"env":{"A":"b"}}`)
	e.want(u, 200)
	e.wantCalls(m, "PATCH /v2/templates/"+id)
	mustJSON(t, e.lastBody("PATCH", "/v2/templates/"+id), `{"name":"torch2","env":{"A":"b"},"registry":null}`)
	if w := warningsOf(u); w != "" {
		t.Errorf("pod template update warns: %q", w)
	}

	// A pod made from the template. When v2 shows the pod's template, it is
	// the pod's templateId and blocks the template's delete (400 with v2's
	// reason); when v2 keeps no link ("`template` stays null"), the gateway
	// fills it from its fact store (P8) and nothing blocks the delete.
	p := e.v1("POST", "/v1/pods", `{"templateId":"`+id+`","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`)
	e.want(p, 201)
	podID := p.json(t)["id"].(string)
	g := e.v1("GET", "/v1/pods/"+podID, "")
	e.want(g, 200)
	m = e.mark()
	d := e.v1("DELETE", "/v1/templates/"+id, "")
	e.wantCalls(m, "DELETE /v2/templates/"+id)
	if rd.podTemplateShown() {
		if g.json(t)["templateId"] != id {
			t.Errorf("pod templateId %v, want %s (v2 shows it)", g.json(t)["templateId"], id)
		}
		e.want(d, 400)
		if msg := d.message(t); !strings.Contains(msg, "referenced by pod") {
			t.Errorf("in-use message %q", msg)
		}
		e.want(e.v1("DELETE", "/v1/pods/"+podID, ""), 204)
		m = e.mark()
		e.want(e.v1("DELETE", "/v1/templates/"+id, ""), 204)
		e.wantCalls(m, "DELETE /v2/templates/"+id)
	} else {
		// v2 keeps no link; the gateway remembers it (P8). The pod still
		// does not block the delete, as v2 does not know of the link.
		if tid := g.json(t)["templateId"]; tid != id {
			t.Errorf("pod templateId %v, want %s (from the fact store)", tid, id)
		}
		e.want(d, 204)
		e.want(e.v1("GET", "/v1/pods/"+podID, ""), 200)
		e.want(e.v1("DELETE", "/v1/pods/"+podID, ""), 204)
	}

	// Deleted.
	e.want(e.v1("GET", "/v1/templates/"+id, ""), 404)
	e.want(e.v1("DELETE", "/v1/templates/"+id, ""), 400)
	e.want(e.v1("PATCH", "/v1/templates/"+id, `{"name":"x"}`), 400)
	// Public catalog templates cannot be deleted or changed (v2 404 → 400).
	e.want(e.v1("DELETE", "/v1/templates/30zmvf89kd", ""), 400)
}

func TestE2ETemplateVariants(t *testing.T) {
	underEachReading(t, testE2ETemplateVariants)
}

func testE2ETemplateVariants(t *testing.T, rd simReading) {
	e := newE2E(t, e2eOpts{sim: rd.apply})

	// A serverless template: no default volume; edits warn that endpoints
	// keep their settings.
	r := e.v1("POST", "/v1/templates", `{"name":"worker","imageName":"w:1","isServerless":true,"category":"CPU"}`)
	e.want(r, 200)
	mustJSON(t, e.lastBody("POST", "/v2/templates"), `{"name":"worker","image":"w:1","disk":50,"ports":["8888/http","22/tcp"],
		"category":"CPU","public":false,"serverless":true,"startJupyter":false,"startSsh":true}`)
	id := r.json(t)["id"].(string)
	if j := r.json(t); j["volumeInGb"] != 0.0 || j["category"] != "CPU" || j["isServerless"] != true {
		t.Errorf("created %s", r.body)
	}
	u := e.v1("PATCH", "/v1/templates/"+id, `{"imageName":"w:2"}`)
	e.want(u, 200)
	if w := warningsOf(u); !strings.Contains(w, "no longer roll out") {
		t.Errorf("rollout warning %q", w)
	}

	// Errors: strict rejection before any v2 call, v2 validation as 400.
	m := e.mark()
	bad := e.v1("POST", "/v1/templates", `{"name":"t","imageName":"i","dockerEntrypoint":["sh","-c"]}`)
	e.want(bad, 400)
	e.wantCalls(m)
	if msg := bad.message(t); !strings.Contains(msg, "dockerEntrypoint") {
		t.Errorf("message %q", msg)
	}
	e.want(e.v1("POST", "/v1/templates", `{"name":"t","imageName":"i","volumeInGb":5}`), 400)
	e.want(e.v1("PATCH", "/v1/templates/"+id, `{"volumeMountPath":"/data"}`), 400) // no volume to move
	e.want(e.v1("GET", "/v1/templates?includePublicTemplates=maybe", ""), 400)
	e.want(e.v1("GET", "/v1/templates/nope", ""), 404)

	// Lenient mode drops the entrypoint and says so.
	le := newE2E(t, e2eOpts{cfg: func(c *config.Config) { c.CompatMode = "lenient" }})
	r = le.v1("POST", "/v1/templates", `{"name":"t","imageName":"i","dockerEntrypoint":["sh","-c"]}`)
	le.want(r, 200)
	if d := r.header.Get("X-Compat-Dropped"); d != "dockerEntrypoint" {
		t.Errorf("X-Compat-Dropped %q", d)
	}
}
