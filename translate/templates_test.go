package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// v2TemplateFixture is a valid v2 Template (pod template with a volume).
func v2TemplateFixture(id string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(`{"id":"`+id+`","name":"my tpl","image":"img:1","args":"python 'a b'","disk":50,
		"mounts":{"persistent":{"size":20,"path":"/workspace"}},"ports":["8888/http","22/tcp"],"env":{"K":"v"},"registry":"reg1",
		"serverless":false,"public":false,"category":"NVIDIA","startSsh":true,"startJupyter":false,"allowedCudaVersions":[]}`), &m); err != nil {
		panic(err)
	}
	return m
}

func tpl(id string, mods ...func(map[string]any)) string {
	m := v2TemplateFixture(id)
	for _, f := range mods {
		f(m)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func tplList(ts ...string) string { return `{"templates":[` + strings.Join(ts, ",") + `]}` }

// ---------------------------------------------------------------------------
// #19 CreateTemplate

func TestCreateTemplateBodyMapping(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		options Options
		want    string
		warn    []string
		dropped []string
	}{
		{
			name: "v1 defaults sent explicitly",
			body: `{"name":"t","imageName":"img:1"}`,
			want: `{"name":"t","image":"img:1","disk":50,"ports":["8888/http","22/tcp"],"category":"NVIDIA",
				"mounts":{"persistent":{"size":20,"path":"/workspace"}},"public":false,"serverless":false,"startJupyter":false,"startSsh":true}`,
		},
		{
			name: "every field",
			body: `{"name":"t","imageName":"img:1","category":"AMD","containerDiskInGb":80,"containerRegistryAuthId":"reg1",
				"dockerEntrypoint":[],"dockerStartCmd":["python","-c","print('a b')"],"env":{"A":"1"},"isPublic":true,"isServerless":false,
				"ports":"8080/http, 22/tcp","readme":"","volumeInGb":100,"volumeMountPath":"/data"}`,
			want: `{"name":"t","image":"img:1","args":"python -c 'print('\\''a b'\\'')'","disk":80,"env":{"A":"1"},"ports":["8080/http","22/tcp"],
				"registry":"reg1","category":"AMD","mounts":{"persistent":{"size":100,"path":"/data"}},"public":true,"serverless":false,
				"startJupyter":false,"startSsh":true}`,
		},
		{
			name: "serverless: no default volume",
			body: `{"name":"w","imageName":"img:1","isServerless":true,"ports":[],"volumeMountPath":"/x"}`,
			want: `{"name":"w","image":"img:1","disk":50,"ports":[],"category":"NVIDIA","public":false,"serverless":true,"startJupyter":false,"startSsh":true}`,
		},
		{
			name: "explicit no volume, readme dropped with a warning, unknown field",
			body: `{"name":"t","imageName":"img:1","volumeInGb":0,"readme":"# Hello","earned":3}`,
			want: `{"name":"t","image":"img:1","disk":50,"ports":["8888/http","22/tcp"],"category":"NVIDIA","public":false,"serverless":false,"startJupyter":false,"startSsh":true}`,
			warn: []string{"readme was not stored", "earned"},
		},
		{
			name:    "lenient drops an entrypoint",
			body:    `{"name":"t","imageName":"img:1","dockerEntrypoint":["sh","-c"],"volumeInGb":null,"containerDiskInGb":null}`,
			options: Options{Lenient: true},
			want: `{"name":"t","image":"img:1","disk":50,"ports":["8888/http","22/tcp"],"category":"NVIDIA",
				"mounts":{"persistent":{"size":20,"path":"/workspace"}},"public":false,"serverless":false,"startJupyter":false,"startSsh":true}`,
			dropped: []string{"dockerEntrypoint"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "CreateTemplate", runOpts{body: tc.body, options: tc.options},
				step{method: "POST", path: "/v2/templates", status: 201, body: tpl("t1")})
			wantStatus(t, res, 200)
			jsonEqual(t, "v2 create body", []byte(f.bodies("POST", "/v2/templates")[0]), tc.want)
			for _, w := range tc.warn {
				wantWarning(t, res, w)
			}
			if fmt.Sprint(res.Dropped) != fmt.Sprint(tc.dropped) {
				t.Errorf("dropped %v, want %v", res.Dropped, tc.dropped)
			}
		})
	}
}

func TestCreateTemplateRejects(t *testing.T) {
	tests := []struct {
		name, body string
		script     []step
		want       []string
	}{
		{"required", `{}`, nil, []string{"name: is required", "imageName: is required"}},
		{"empty", `{"name":"","imageName":""}`, nil, []string{"name: is required", "imageName: is required"}},
		{"bad values", `{"name":"t","imageName":"i","category":"TPU","containerDiskInGb":0,"volumeInGb":5,"env":{"A":1},"ports":[1],"isPublic":"no"}`, nil,
			[]string{"category:", "containerDiskInGb: must be at least 1", "volumeInGb: v2 volumes are at least 10 GB", "env.A: must be a string", "ports: element 0", "isPublic: must be a boolean"}},
		{"entrypoint (strict)", `{"name":"t","imageName":"i","dockerEntrypoint":["sh"]}`, nil, []string{"dockerEntrypoint: v2 has no entrypoint override", "V1GW_COMPAT_MODE=lenient"}},
		{"v2 422", `{"name":"t","imageName":"i"}`, []step{{method: "POST", path: "/v2/templates", status: 422, body: problem(422, "Request validation failed.", "$.name: too long")}},
			[]string{"Request validation failed: name: too long"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := run(t, "CreateTemplate", runOpts{body: tc.body}, tc.script...)
			wantStatus(t, res, 400)
			wantMessage(t, res, tc.want...)
		})
	}
}

func TestRTemplate(t *testing.T) {
	res, _ := run(t, "CreateTemplate", runOpts{body: `{"name":"t","imageName":"i"}`},
		step{method: "POST", path: "/v2/templates", status: 201, body: tpl("t1")})
	// Every key of v1's Template, always (issue 37): null where unknown.
	jsonEqual(t, "v1 template", res.Body, `{"id":"t1","name":"my tpl","category":"NVIDIA","containerDiskInGb":50,"containerRegistryAuthId":"reg1",
		"dockerEntrypoint":[],"dockerStartCmd":["python","a b"],"earned":null,"env":{"K":"v"},"imageName":"img:1","isPublic":false,"isRunpod":false,"isServerless":false,
		"ports":["8888/http","22/tcp"],"readme":null,"runtimeInMin":null,"volumeInGb":20,"volumeMountPath":"/workspace"}`)
	res, _ = run(t, "GetTemplate", runOpts{params: map[string]string{"templateId": "t1"}},
		step{method: "GET", path: "/v2/templates/t1", status: 200, body: tpl("t1", set("mounts", `{}`), set("registry", nil), set("args", ""), set("serverless", true))})
	jsonEqual(t, "v1 template", res.Body, `{"id":"t1","name":"my tpl","category":"NVIDIA","containerDiskInGb":50,"containerRegistryAuthId":null,
		"dockerEntrypoint":[],"dockerStartCmd":[],"earned":null,"env":{"K":"v"},"imageName":"img:1","isPublic":false,"isRunpod":false,"isServerless":true,
		"ports":["8888/http","22/tcp"],"readme":null,"runtimeInMin":null,"volumeInGb":0,"volumeMountPath":""}`)
	// A public template read by id may be the vendor's: isRunpod unknown.
	res, _ = run(t, "GetTemplate", runOpts{params: map[string]string{"templateId": "t1"}},
		step{method: "GET", path: "/v2/templates/t1", status: 200, body: tpl("t1", set("public", true), set("registry", nil))})
	if m := decodeV1(t, res.Body); m["isRunpod"] != nil || !hasAnyKey(m, "isRunpod") {
		t.Errorf("public template by id: isRunpod must be null: %s", res.Body)
	}
}

func hasAnyKey(m map[string]any, k string) bool { _, ok := m[k]; return ok }

// What v2 has no field for is remembered in the fact store (issue 37 items
// 3 and 4): the readme sent on create or update ("" when none was sent), and
// volumeInGb 0 on a template that has a volume, which v2 cannot remove: the
// template is answered with volumeInGb 0 and without a PATCH of its mount.
func TestTemplateFactsRemembered(t *testing.T) {
	facts := newFakeFacts()
	res, _ := run(t, "CreateTemplate", runOpts{body: `{"name":"t","imageName":"i","readme":"# notes"}`, facts: facts},
		step{method: "POST", path: "/v2/templates", status: 201, body: tpl("t1")})
	wantStatus(t, res, 200)
	if m := decodeV1(t, res.Body); m["readme"] != "# notes" || len(res.Warnings) != 0 {
		t.Errorf("create: readme not answered, or warned %v: %s", res.Warnings, res.Body)
	}
	res, _ = run(t, "CreateTemplate", runOpts{body: `{"name":"t","imageName":"i"}`, facts: facts},
		step{method: "POST", path: "/v2/templates", status: 201, body: tpl("t2")})
	if m := decodeV1(t, res.Body); m["readme"] != "" {
		t.Errorf("create without readme: readme %v, want \"\"", m["readme"])
	}
	params := map[string]string{"templateId": "t1"}
	res, _ = run(t, "GetTemplate", runOpts{params: params, facts: facts}, step{method: "GET", path: "/v2/templates/t1", status: 200, body: tpl("t1")})
	if m := decodeV1(t, res.Body); m["readme"] != "# notes" {
		t.Errorf("get: readme %v", m["readme"])
	}

	// volumeInGb 0 on the template's 20 GB volume: remembered, no PATCH.
	res, f := run(t, "UpdateTemplate", runOpts{params: params, body: `{"volumeInGb":0,"readme":"new"}`, facts: facts},
		step{method: "GET", path: "/v2/templates/t1", status: 200, body: tpl("t1")})
	wantStatus(t, res, 200)
	if n := f.count("PATCH", "/v2/templates/t1"); n != 0 {
		t.Errorf("%d PATCHes", n)
	}
	if m := decodeV1(t, res.Body); m["volumeInGb"] != 0.0 || m["readme"] != "new" {
		t.Errorf("update answer %s", res.Body)
	}
	fct := facts.m[FactTemplate+"/t1"].Template
	if fct == nil || !fct.NoVolume || fct.Readme == nil || *fct.Readme != "new" {
		t.Errorf("fact %+v", fct)
	}
	res, _ = run(t, "ListTemplates", runOpts{facts: facts}, step{method: "GET", path: "/v2/templates", status: 200, body: tplList(tpl("t1"), tpl("t9"))})
	var out []map[string]any
	_ = json.Unmarshal(res.Body, &out)
	if len(out) != 2 || out[0]["volumeInGb"] != 0.0 || out[0]["readme"] != "new" || out[1]["readme"] != nil || out[1]["volumeInGb"] != 20.0 {
		t.Errorf("list %s", res.Body)
	}
	// A size again restores the volume (and PATCHes it).
	res, f = run(t, "UpdateTemplate", runOpts{params: params, body: `{"volumeInGb":30}`, facts: facts},
		step{method: "GET", path: "/v2/templates/t1", status: 200, body: tpl("t1")},
		step{method: "PATCH", path: "/v2/templates/t1", status: 200, body: tpl("t1", set("mounts", `{"persistent":{"size":30,"path":"/workspace"}}`))})
	wantStatus(t, res, 200)
	if m := decodeV1(t, res.Body); m["volumeInGb"] != 30.0 || facts.m[FactTemplate+"/t1"].Template.NoVolume {
		t.Errorf("restored: %s, fact %+v", res.Body, facts.m[FactTemplate+"/t1"].Template)
	}
	mustBody(t, f.bodies("PATCH", "/v2/templates/t1"), `{"mounts":{"persistent":{"size":30,"path":"/workspace"}}}`)

	// A delete v2 confirmed forgets what the gateway kept of the template.
	res, _ = run(t, "DeleteTemplate", runOpts{params: params, facts: facts}, step{method: "DELETE", path: "/v2/templates/t1", status: 204})
	wantStatus(t, res, 204)
	if _, ok := facts.m[FactTemplate+"/t1"]; ok {
		t.Error("the deleted template's facts were kept")
	}

	// Without a fact store, the readme is lost (warned) and the volume
	// cannot be removed (400).
	res, _ = run(t, "UpdateTemplate", runOpts{params: params, body: `{"volumeInGb":0}`},
		step{method: "GET", path: "/v2/templates/t1", status: 200, body: tpl("t1")})
	wantStatus(t, res, 400)
	wantMessage(t, res, "volumeInGb: 0 would remove", "fact store")
}

// A pod from a template whose volume was removed through the gateway is
// made without it (issue 37 item 4), as v1 made it: the template's settings
// are sent instead of templateId.
func TestPodFromATemplateWhoseVolumeWasRemoved(t *testing.T) {
	facts := newFakeFacts()
	facts.m[FactTemplate+"/tpl1"] = Fact{Template: &TemplateFact{NoVolume: true}}
	res, f := run(t, "CreatePod", runOpts{body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"]}`, facts: facts},
		step{method: "GET", path: "/v2/templates/tpl1", status: 200, body: tpl("tpl1", set("id", "tpl1"))}, createStep(newPod("p1")))
	wantStatus(t, res, 201)
	body := f.bodies("POST", "/v2/pods")[0]
	if strings.Contains(body, "templateId") || strings.Contains(body, "mounts") {
		t.Errorf("v2 create body %s: want the template's settings without its volume", body)
	}
	wantWarning(t, res, "volume was removed")
}

// ---------------------------------------------------------------------------
// #20 ListTemplates, #21 GetTemplate

func TestListTemplates(t *testing.T) {
	owned := step{method: "GET", path: "/v2/templates", status: 200, body: tplList(tpl("mine"), tpl("shared", set("public", true)))}
	catalog := func(source string, ts ...string) step {
		return step{method: "GET", path: "/v2/catalog/templates", query: "source=" + source, status: 200, body: tplList(ts...)}
	}
	t.Run("owned only", func(t *testing.T) {
		res, _ := run(t, "ListTemplates", runOpts{query: "includeEndpointBoundTemplates=false"}, owned)
		wantStatus(t, res, 200)
		var out []v1Template
		_ = json.Unmarshal(res.Body, &out)
		if len(out) != 2 || out[0].ID != "mine" || out[0].IsRunpod == nil || *out[0].IsRunpod {
			t.Errorf("list %s", res.Body)
		}
	})
	t.Run("every slice, deduplicated", func(t *testing.T) {
		res, f := run(t, "ListTemplates", runOpts{query: "includeRunpodTemplates=true&includePublicTemplates=true&includeEndpointBoundTemplates=true"}, owned,
			catalog("official", tpl("off1", set("registry", nil)), tpl("shared", set("registry", nil))),
			catalog("verified", tpl("ver1", set("registry", nil)), tpl("off1", set("registry", nil))),
			catalog("community", tpl("com1", set("registry", nil))))
		wantStatus(t, res, 200)
		var out []v1Template
		_ = json.Unmarshal(res.Body, &out)
		var got []string
		for _, t := range out {
			got = append(got, fmt.Sprintf("%s:%v", t.ID, *t.IsRunpod))
		}
		if fmt.Sprint(got) != "[mine:false shared:false off1:true ver1:false com1:false]" {
			t.Errorf("got %v", got)
		}
		// The models say which catalog each came from (the GraphQL door
		// tells the account's own from the community's by it).
		var sources []string
		for _, m := range res.Model.([]TemplateModel) {
			sources = append(sources, m.V1.ID+":"+m.Catalog)
		}
		if fmt.Sprint(sources) != "[mine: shared: off1:official ver1:verified com1:community]" {
			t.Errorf("catalogs %v", sources)
		}
		if len(f.calls) != 4 {
			t.Errorf("%d calls", len(f.calls))
		}
	})
	t.Run("public only; a full catalog page warns", func(t *testing.T) {
		var many []string
		for i := 0; i < catalogTemplateCap; i++ {
			many = append(many, tpl(fmt.Sprintf("c%d", i), set("registry", nil)))
		}
		res, _ := run(t, "ListTemplates", runOpts{query: "includePublicTemplates=true"}, owned, catalog("verified"), catalog("community", many...))
		wantStatus(t, res, 200)
		wantWarning(t, res, "at most 100")
	})
	t.Run("catalog failure fails", func(t *testing.T) {
		res, _ := run(t, "ListTemplates", runOpts{query: "includeRunpodTemplates=true"}, owned,
			step{method: "GET", path: "/v2/catalog/templates", query: "source=official", status: 503, body: problem(503, "down")})
		wantStatus(t, res, 502)
	})
	t.Run("empty", func(t *testing.T) {
		res, _ := run(t, "ListTemplates", runOpts{}, step{method: "GET", path: "/v2/templates", status: 200, body: `{"templates":[]}`})
		jsonEqual(t, "list", res.Body, `[]`)
	})
	t.Run("bad query", func(t *testing.T) {
		res, _ := run(t, "ListTemplates", runOpts{query: "includeRunpodTemplates=yes"})
		wantStatus(t, res, 400)
		wantMessage(t, res, "includeRunpodTemplates")
	})
}

func TestGetTemplate(t *testing.T) {
	params := map[string]string{"templateId": "t1"}
	res, _ := run(t, "GetTemplate", runOpts{params: params, query: "includePublicTemplates=true"}, step{method: "GET", path: "/v2/templates/t1", status: 200, body: tpl("t1")})
	wantStatus(t, res, 200)
	if m := decodeV1(t, res.Body); m["isRunpod"] != false {
		t.Errorf("a private template is the account's (isRunpod false): %s", res.Body)
	}
	res, _ = run(t, "GetTemplate", runOpts{params: params}, step{method: "GET", path: "/v2/templates/t1", status: 404, body: problem(404, "template t1 not found")})
	wantStatus(t, res, 404)
	res, _ = run(t, "GetTemplate", runOpts{params: params, query: "includeRunpodTemplates=2"})
	wantStatus(t, res, 400)
	res, _ = run(t, "GetTemplate", runOpts{params: map[string]string{"templateId": "."}})
	wantStatus(t, res, 404)
}

// ---------------------------------------------------------------------------
// #22 / #24 UpdateTemplate, #23 DeleteTemplate

func TestUpdateTemplate(t *testing.T) {
	cur := tpl("t1")
	noMount := tpl("t1", set("mounts", `{}`))
	get := func(b string) step { return step{method: "GET", path: "/v2/templates/t1", status: 200, body: b} }
	tests := []struct {
		name   string
		body   string
		pre    []step
		answer string
		want   string // PATCH body; "" none
		warn   []string
		status int
		msg    string
	}{
		{name: "fields without pre-read", body: `{"name":"n","imageName":"i:2","containerDiskInGb":60,"containerRegistryAuthId":null,"dockerStartCmd":[],"env":{},"ports":[],"isPublic":true}`,
			want: `{"name":"n","image":"i:2","args":"","disk":60,"env":{},"ports":[],"registry":null,"public":true}`},
		{name: "volume size keeps the path", body: `{"volumeInGb":40}`, pre: []step{get(cur)}, want: `{"mounts":{"persistent":{"size":40,"path":"/workspace"}}}`},
		{name: "path keeps the size", body: `{"volumeMountPath":"/data"}`, pre: []step{get(cur)}, want: `{"mounts":{"persistent":{"size":20,"path":"/data"}}}`},
		{name: "a volume added", body: `{"volumeInGb":30}`, pre: []step{get(noMount)}, want: `{"mounts":{"persistent":{"size":30,"path":"/workspace"}}}`},
		{name: "path without a volume", body: `{"volumeMountPath":"/data"}`, pre: []step{get(noMount)}, status: 400, msg: "has no volume"},
		{name: "volume 0 on a template with a volume", body: `{"volumeInGb":0}`, pre: []step{get(cur)}, status: 400, msg: "0 would remove"},
		{name: "volume 0 on a template without one: nothing to change", body: `{"volumeInGb":0}`, pre: []step{get(noMount)}},
		{name: "readme only: no PATCH", body: `{"readme":"text"}`, pre: []step{get(cur)}, warn: []string{"readme was not stored"}},
		{name: "empty body", body: `{}`, pre: []step{get(cur)}},
		{name: "serverless template warns about rollouts", body: `{"imageName":"w:2"}`, answer: tpl("t1", set("serverless", true), set("mounts", `{}`)),
			want: `{"image":"w:2"}`, warn: []string{"no longer roll out"}},
		{name: "entrypoint", body: `{"dockerEntrypoint":["x"]}`, status: 400, msg: "dockerEntrypoint"},
		{name: "category and isServerless, outside the update input, are v2's (the official Terraform provider sends them)", body: `{"category":"AMD","isServerless":true,"name":"x"}`,
			want: `{"name":"x","category":"AMD","serverless":true}`, answer: tpl("t1", set("serverless", true), set("category", "AMD"), set("mounts", `{}`)), warn: []string{"no longer roll out"}},
	}
	for _, tc := range tests {
		for _, opName := range []string{"UpdateTemplate", "UpdateTemplateViaPost"} {
			t.Run(opName+"/"+tc.name, func(t *testing.T) {
				script := append([]step{}, tc.pre...)
				answer := tc.answer
				if answer == "" {
					answer = cur
				}
				if tc.want != "" {
					script = append(script, step{method: "PATCH", path: "/v2/templates/t1", status: 200, body: answer})
				}
				res, f := run(t, opName, runOpts{params: map[string]string{"templateId": "t1"}, body: tc.body}, script...)
				if tc.status != 0 {
					wantStatus(t, res, tc.status)
					wantMessage(t, res, tc.msg)
					return
				}
				wantStatus(t, res, 200)
				patches := f.bodies("PATCH", "/v2/templates/t1")
				if tc.want == "" && len(patches) != 0 {
					t.Fatalf("unexpected PATCH %v", patches)
				}
				if tc.want != "" {
					jsonEqual(t, "v2 PATCH body", []byte(patches[0]), tc.want)
				}
				for _, w := range tc.warn {
					wantWarning(t, res, w)
				}
				if len(tc.warn) == 0 && len(res.Warnings) != 0 {
					t.Errorf("warnings %v", res.Warnings)
				}
			})
		}
	}
	res, _ := run(t, "UpdateTemplate", runOpts{params: map[string]string{"templateId": "pub"}, body: `{"name":"x"}`},
		step{method: "PATCH", path: "/v2/templates/pub", status: 404, body: problem(404, "template pub not found")})
	wantStatus(t, res, 400)
}

func TestDeleteTemplate(t *testing.T) {
	params := map[string]string{"templateId": "t1"}
	res, _ := run(t, "DeleteTemplate", runOpts{params: params}, step{method: "DELETE", path: "/v2/templates/t1", status: 204})
	wantStatus(t, res, 204)
	res, _ = run(t, "DeleteTemplate", runOpts{params: params}, step{method: "DELETE", path: "/v2/templates/t1", status: 400,
		body: problem(400, "template t1 cannot be deleted: it is bound to serverless endpoint e1")})
	wantStatus(t, res, 400)
	wantMessage(t, res, "bound to serverless endpoint e1")
	res, _ = run(t, "DeleteTemplate", runOpts{params: params}, step{method: "DELETE", path: "/v2/templates/t1", status: 404, body: problem(404, "template t1 not found")})
	wantStatus(t, res, 400)
}

func TestTemplateTransportErrors(t *testing.T) {
	res, f := run(t, "CreateTemplate", runOpts{body: `{"name":"t","imageName":"i"}`},
		step{method: "POST", path: "/v2/templates", err: context.DeadlineExceeded})
	wantStatus(t, res, 504)
	wantMessage(t, res, "may or may not have been created", `"t"`)
	if f.count("POST", "/v2/templates") != 1 {
		t.Error("created again")
	}
	res, _ = run(t, "DeleteTemplate", runOpts{params: map[string]string{"templateId": "t1"}},
		step{method: "DELETE", path: "/v2/templates/t1", err: unavailableErr{}})
	wantStatus(t, res, 503)
	res, _ = run(t, "UpdateTemplate", runOpts{params: map[string]string{"templateId": "t1"}, body: `{"volumeInGb":30}`},
		step{method: "GET", path: "/v2/templates/t1", status: 429, body: problem(429, "slow"), header: http.Header{"Retry-After": {"2"}}})
	wantStatus(t, res, 429)
	if res.RetryAfter != "2" {
		t.Errorf("Retry-After %q", res.RetryAfter)
	}
}

// mustBody checks that exactly one v2 body was sent, equal to want.
func mustBody(t *testing.T, bodies []string, want string) {
	t.Helper()
	if len(bodies) != 1 {
		t.Fatalf("%d bodies, want 1", len(bodies))
	}
	jsonEqual(t, "v2 body", []byte(bodies[0]), want)
}

// A template update v2 applied but answered unreadably (P4) is answered as
// v2 now has it, read again, with every v1 key and the readme the update
// told the gateway (remembered either way); only when that read fails too
// is the id alone answered, saying so.
func TestUpdateTemplateAppliedButUnreadable(t *testing.T) {
	params := map[string]string{"templateId": "t1"}
	update := func(t *testing.T, facts *fakeFacts, again step) *Result {
		// The PATCH's answer is not a v2 Template: the fake is told not to
		// fail on it (quietTB).
		f := newFake(&quietTB{TB: t}, step{method: "PATCH", path: "/v2/templates/t1", status: 200, body: `{"id":7}`}, again)
		op := mustOp(t, "UpdateTemplate")
		res := op.Plan(context.Background(), &Request{Op: op, Params: params, Body: []byte(`{"name":"n","readme":"kept"}`), Facts: facts}, f)
		f.done()
		wantStatus(t, res, 200)
		if fct := facts.m[FactTemplate+"/t1"].Template; fct == nil || fct.Readme == nil || *fct.Readme != "kept" {
			t.Errorf("fact %+v", fct)
		}
		return res
	}
	t.Run("read again: the whole template", func(t *testing.T) {
		res := update(t, newFakeFacts(), step{method: "GET", path: "/v2/templates/t1", status: 200, body: tpl("t1")})
		wantWarning(t, res, "the update was applied but v2's answer could not be read; the template was read again")
		m := decodeV1(t, res.Body)
		for _, k := range []string{"id", "name", "imageName", "containerDiskInGb", "volumeInGb", "readme", "dockerEntrypoint", "isRunpod"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%s absent: %s", k, res.Body)
			}
		}
		if m["readme"] != "kept" {
			t.Errorf("readme %v", m["readme"])
		}
	})
	t.Run("not read again: its id, the readme still remembered", func(t *testing.T) {
		res := update(t, newFakeFacts(), step{method: "GET", path: "/v2/templates/t1", status: 500, body: problem(500, "boom")})
		wantWarning(t, res, "nor the template read again")
		if string(res.Body) != `{"id":"t1"}` {
			t.Errorf("answer %s", res.Body)
		}
	})
}
