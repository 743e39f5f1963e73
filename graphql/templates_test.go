package graphql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/facts"
	"github.com/v1gateway/v1gateway/podjson"
)

// Templates: the documents runpod-python and runpodctl send.

func TestRunpodPythonCreateTemplate(t *testing.T) {
	w := newWorld(t)
	mark := w.mark()
	a := w.clientOK("runpod-python/create_template")
	tpl := path(a.Data, "saveTemplate")
	for k, v := range map[string]any{"name": "v1gw-driver-tpl", "imageName": "runpod/stack", "containerDiskInGb": 10.0,
		"volumeInGb": 0.0, "volumeMountPath": nil, "ports": "", "isServerless": true} {
		if got := path(tpl, k); got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	if str(path(tpl, "id")) == "" {
		t.Errorf("no id: %s", a.raw)
	}
	if env, _ := path(tpl, "env").([]any); env == nil || len(env) != 0 {
		t.Errorf("env %v", path(tpl, "env"))
	}
	// dockerArgs is the same command, perhaps quoted anew (H-args).
	words, err := podjson.SplitArgs(str(path(tpl, "dockerArgs")))
	if err != nil || fmt.Sprint(words) != `[bash -c python -u handler.py]` {
		t.Errorf("dockerArgs %q: %q %v", path(tpl, "dockerArgs"), words, err)
	}
	// ports "" is no ports, not v1's default two; v1's SSH on and Jupyter
	// off, as runpod-python asks (startSsh: true, and no startJupyter).
	body := w.bodyOf(mark, "POST", "/v2/templates")
	if fmt.Sprint(body["ports"]) != "[]" || body["startSsh"] != true || body["startJupyter"] != false || body["registry"] != nil {
		t.Errorf("v2 body %v", body)
	}
	if len(a.resp.Warnings) != 0 {
		t.Errorf("warnings %q", a.resp.Warnings)
	}
}

func TestRunpodPythonCreateTemplateAllOptions(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	// As captured, a 5 GB volume: v2's volumes are at least 10 GB, and the
	// gateway does not round a billed size up (H-mount-create).
	msgs := w.clientErrors("runpod-python/create_template_all_options", "cra-driver", s.registry)
	if !strings.Contains(msgs[0], "volumeInGb: v2 volumes are at least 10 GB") {
		t.Errorf("%q", msgs)
	}
	a := w.clientOK("runpod-python/create_template_all_options", "cra-driver", s.registry, "volumeInGb: 5", "volumeInGb: 10")
	tpl := path(a.Data, "saveTemplate")
	for k, v := range map[string]any{"name": "v1gw-driver-tpl-all", "dockerArgs": "sleep infinity", "containerDiskInGb": 20.0,
		"volumeInGb": 10.0, "volumeMountPath": "/workspace", "ports": "8888/http,22/tcp", "env.0.key": "A", "env.0.value": "1",
		"isServerless": false} {
		if got := path(tpl, k); got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	got := w.ok(`{ podTemplate(id: "`+str(path(tpl, "id"))+`") { containerRegistryAuthId isRunpod isPublic category startSsh startJupyter } }`, "")
	if path(got.Data, "podTemplate.containerRegistryAuthId") != s.registry || path(got.Data, "podTemplate.isRunpod") != false ||
		path(got.Data, "podTemplate.category") != "NVIDIA" || path(got.Data, "podTemplate.startSsh") != true {
		t.Errorf("%s", got.raw)
	}
}

func TestRunpodctlTemplateListAndSearch(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	for _, tc := range []struct {
		doc       string
		runpod    bool
		wantNames []string
	}{
		{"runpodctl/template_list__1_podTemplates", true, []string{"PyTorch 2.8"}},
		{"runpodctl/template_list_official", true, []string{"PyTorch 2.8"}},
		{"runpodctl/template_search__1_podTemplates", true, []string{"PyTorch 2.8"}},
		// isRunpod false: the community's public templates, as runpodctl
		// reads them (it lists the account's own from REST).
		{"runpodctl/template_list__2_podTemplates", false, []string{"ComfyUI"}},
		{"runpodctl/template_search__2_podTemplates", false, []string{"ComfyUI"}},
	} {
		a := w.clientOK(tc.doc)
		list, _ := path(a.Data, "podTemplates").([]any)
		if len(list) == 0 {
			t.Fatalf("%s: %s", tc.doc, a.raw)
		}
		names := map[string]bool{}
		for _, tpl := range list {
			names[str(path(tpl, "name"))] = true
			if path(tpl, "isRunpod") != tc.runpod || path(tpl, "isPublic") != true || path(tpl, "id") == s.podTemplate {
				t.Errorf("%s: %v", tc.doc, tpl)
			}
			for _, k := range []string{"imageName", "category"} {
				if str(path(tpl, k)) == "" {
					t.Errorf("%s: %s empty in %v", tc.doc, k, tpl)
				}
			}
			if _, ok := path(tpl, "containerDiskInGb").(float64); !ok {
				t.Errorf("%s: containerDiskInGb %v", tc.doc, tpl)
			}
		}
		for _, n := range tc.wantNames {
			if !names[n] {
				t.Errorf("%s: %q missing from %v", tc.doc, n, names)
			}
		}
	}
	// Without isRunpod, and as User.podTemplates: the account's own.
	for _, doc := range []string{`{ podTemplates { id name isRunpod } }`, `{ myself { podTemplates { id name isRunpod } } }`} {
		a := w.ok(doc, "")
		list, _ := path(a.Data, "podTemplates").([]any)
		if list == nil {
			list, _ = path(a.Data, "myself.podTemplates").([]any)
		}
		found := false
		for _, tpl := range list {
			found = found || path(tpl, "id") == s.podTemplate
			if path(tpl, "isRunpod") != false {
				t.Errorf("%s: %v", doc, tpl)
			}
		}
		if !found {
			t.Errorf("%s: the seeded template is missing: %s", doc, a.raw)
		}
	}
}

func TestRunpodctlTemplateGet(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	a := w.clientOK("runpodctl/template_get", "tpl-capture-1", s.podTemplate)
	tpl := path(a.Data, "podTemplate")
	for k, v := range map[string]any{"id": s.podTemplate, "name": "PyTorch GPU Template", "isServerless": false, "isPublic": false,
		"isRunpod": false, "category": "NVIDIA", "ports": "8888/http,22/tcp", "env.0.key": "JUPYTER_ENABLE_LAB",
		"containerDiskInGb": 50.0, "containerRegistryAuthId": nil, "volumeInGb": 20.0, "volumeMountPath": "/workspace",
		"portsConfig": nil, "readme": nil} {
		if got := path(tpl, k); got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	if !a.warned("PodTemplate.portsConfig, PodTemplate.readme") {
		t.Errorf("warnings %q", a.resp.Warnings)
	}
	// Unknown: null, without an error (runpodctl: "template not found").
	for _, id := range []string{"tpl-capture-1", "../pods"} {
		a = w.clientOK("runpodctl/template_get", "tpl-capture-1", id)
		if v, ok := a.Data["podTemplate"]; !ok || v != nil {
			t.Errorf("%s: %s", id, a.raw)
		}
	}
	// A public template read by id: whether it is the vendor's, v2 does
	// not say there.
	a = w.ok(`{ podTemplate(id: "30zmvf89kd") { name isRunpod isPublic } }`, "")
	if path(a.Data, "podTemplate.isPublic") != true || path(a.Data, "podTemplate.isRunpod") != nil || !a.warned("PodTemplate.isRunpod") {
		t.Errorf("%s", a.raw)
	}
}

func TestRunpodctlProjectCreateTemplate(t *testing.T) {
	w := newWorld(t)
	a := w.clientOK("runpodctl/project_create_template")
	tpl := path(a.Data, "saveTemplate")
	for k, v := range map[string]any{"name": "proj-endpoint-abc-1700000000000", "containerDiskInGb": 10.0, "env.0.key": "A",
		"ports": "", "startSsh": true, "startJupyter": false, "volumeInGb": 0.0,
		// A mount path without a volume: nothing to mount.
		"volumeMountPath": nil, "readme": nil, "startScript": nil, "advancedStart": nil} {
		if got := path(tpl, k); got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	words, _ := podjson.SplitArgs(str(path(tpl, "dockerArgs")))
	if len(words) != 3 || words[2] != ". /runpod-volume/abc/prod/venv/bin/activate && python -u /runpod-volume/abc/prod/proj/src/handler.py" {
		t.Errorf("dockerArgs %q", path(tpl, "dockerArgs"))
	}
}

func TestRunpodctlTemplatePortLabels(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	// runpodctl reads the account's templates (until the one it just made
	// through REST appears), then saves it whole with its port labels.
	a := w.clientOK("runpodctl/template_port_labels__1_myself")
	var read any
	for _, tpl := range path(a.Data, "myself.podTemplates").([]any) {
		if path(tpl, "id") == s.podTemplate {
			read = tpl
		}
	}
	if path(read, "startSsh") != true || path(read, "startJupyter") != false || path(read, "volumeInGb") != 20.0 || path(read, "dockerArgs") != "" {
		t.Errorf("read %v", read)
	}

	// A pod template without a volume, saved as captured.
	made := w.ok(`mutation { saveTemplate(input: {name: "capture-tpl", imageName: "runpod/stack", containerDiskInGb: 20, volumeInGb: 0, ports: "8888/http"}) { id } }`, "")
	id := str(path(made.Data, "saveTemplate.id"))
	mark := w.mark()
	a = w.clientOK("runpodctl/template_port_labels__2_saveTemplate", `"tpl-1"`, `"`+id+`"`)
	if path(a.Data, "saveTemplate.id") != id {
		t.Errorf("%s", a.raw)
	}
	if !a.warned("portsConfig was not stored") {
		t.Errorf("warnings %q", a.resp.Warnings)
	}
	patch := w.bodyOf(mark, "PATCH", "/v2/templates/")
	if fmt.Sprint(patch["ports"]) != "[8888/http 22/tcp]" || fmt.Sprint(patch["env"]) != "map[A:1]" || patch["mounts"] != nil {
		t.Errorf("PATCH %v", patch)
	}

	// The seeded template has a 20 GB volume: saving it with volumeInGb 0
	// would remove it, which v2 cannot do.
	msgs := w.clientErrors("runpodctl/template_port_labels__2_saveTemplate", `"tpl-1"`, `"`+s.podTemplate+`"`)
	if !strings.Contains(msgs[0], "volumeInGb: 0 would remove template") || !strings.Contains(msgs[0], "20 GB volume") {
		t.Errorf("%q", msgs)
	}
}

func TestSaveTemplateUpdate(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	const save = `mutation($input: SaveTemplateInput) { saveTemplate(input: $input) {
		id name dockerArgs env { key value } ports containerRegistryAuthId volumeInGb volumeMountPath } }`
	in := func(fields string) string {
		return `{"input": {"id": "` + s.podTemplate + `", "name": "renamed", "imageName": "runpod/pytorch:2", "containerDiskInGb": 50, "volumeInGb": 30` + fields + `}}`
	}
	a := w.ok(save, in(`, "dockerArgs": "python -m http.server 'my dir'", "env": [{"key": "K", "value": "v"}], "ports": "22/tcp", "volumeMountPath": "/data", "containerRegistryAuthId": "`+s.registry+`"`))
	tpl := path(a.Data, "saveTemplate")
	for k, v := range map[string]any{"name": "renamed", "dockerArgs": "python -m http.server 'my dir'", "env.0.key": "K", "ports": "22/tcp",
		"containerRegistryAuthId": s.registry, "volumeInGb": 30.0, "volumeMountPath": "/data"} {
		if got := path(tpl, k); got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	// Saved again without a registry credential: it is cleared; without
	// dockerArgs, env and ports: they stay.
	a = w.ok(save, in(`, "containerRegistryAuthId": ""`))
	tpl = path(a.Data, "saveTemplate")
	if path(tpl, "containerRegistryAuthId") != nil || path(tpl, "ports") != "22/tcp" || path(tpl, "env.0.key") != "K" {
		t.Errorf("%s", a.raw)
	}
	for _, tc := range []struct{ fields, want string }{
		{`, "isServerless": true`, "isServerless: the gateway changes templates through v1's template update"},
		{`, "category": "AMD"`, "category: the gateway changes templates through v1's template update"},
		{`, "startScript": "echo hi"`, "startScript: v2 templates have no start script"},
	} {
		mark := w.mark()
		a := w.do(save, in(tc.fields))
		if !strings.Contains(a.message(), tc.want) || !a.refused() {
			t.Errorf("%s: %s", tc.fields, a.raw)
		}
		for _, c := range w.callsSince(mark) {
			if !strings.HasPrefix(c, "GET ") {
				t.Errorf("%s: a refusal changed something: %v", tc.fields, c)
			}
		}
	}
	a = w.ok(save, in(`, "startJupyter": true, "startSsh": false, "advancedStart": true`))
	for _, want := range []string{"startSsh false was not applied", "startJupyter true was not applied", "advancedStart was not stored"} {
		if !a.warned(want) {
			t.Errorf("warnings %q: no %q", a.resp.Warnings, want)
		}
	}
	msgs := w.errorsOf(save, in(`, "dockerArgs": "bash -c 'unterminated"`))
	if !strings.Contains(msgs[0], "dockerArgs") || !strings.Contains(msgs[0], "unterminated") {
		t.Errorf("%q", msgs)
	}
}

func TestDeleteTemplateByName(t *testing.T) {
	w := newWorld(t)
	const del = `mutation($n: String) { deleteTemplate(templateName: $n) }`
	msgs := w.errorsOf(del, `{"n": "no such template"}`)
	if !strings.Contains(msgs[0], `the account has no template named "no such template"`) {
		t.Errorf("%q", msgs)
	}
	// The vendor's templates are not the account's to delete.
	if msgs := w.errorsOf(del, `{"n": "PyTorch 2.8"}`); !strings.Contains(msgs[0], "has no template named") {
		t.Errorf("%q", msgs)
	}
	mk := `mutation { saveTemplate(input: {name: "twin", imageName: "i", containerDiskInGb: 10, volumeInGb: 0}) { id } }`
	first := str(path(w.ok(mk, "").Data, "saveTemplate.id"))
	second := str(path(w.ok(mk, "").Data, "saveTemplate.id"))
	mark := w.mark()
	msgs = w.errorsOf(del, `{"n": "twin"}`)
	if !strings.Contains(msgs[0], "2 of the account's templates are named \"twin\"") || !strings.Contains(msgs[0], first) || !strings.Contains(msgs[0], second) {
		t.Errorf("%q", msgs)
	}
	if calls := w.callsSince(mark); len(calls) != 1 {
		t.Errorf("calls %v", calls)
	}
	w.ok(`mutation { saveTemplate(input: {id: "`+second+`", name: "twin 2", imageName: "i", containerDiskInGb: 10, volumeInGb: 0}) { id } }`, "")
	a := w.ok(del, `{"n": "twin"}`)
	if v, ok := a.Data["deleteTemplate"]; !ok || v != nil {
		t.Errorf("%s", a.raw)
	}
	if _, err := w.run("GetTemplate", map[string]string{"templateId": first}); err == nil {
		t.Error("not deleted")
	}
	if _, err := w.run("GetTemplate", map[string]string{"templateId": second}); err != nil {
		t.Errorf("the other was deleted: %v", err)
	}
}

func TestPodTemplateAliasesAndFragments(t *testing.T) {
	w := newWorld(t)
	s := w.seeded()
	a := w.ok(`query($id: String) {
		t: podTemplate(id: $id) { ...f image: imageName e: env { ...kv } }
		all: podTemplates(input: {isRunpod: true}) { __typename id }
	}
	fragment f on PodTemplate { tid: id disk: containerDiskInGb }
	fragment kv on EnvironmentVariable { k: key v: value }`, `{"id": "`+s.podTemplate+`"}`)
	if path(a.Data, "t.tid") != s.podTemplate || path(a.Data, "t.disk") != 50.0 || path(a.Data, "t.e.0.k") != "JUPYTER_ENABLE_LAB" ||
		path(a.Data, "t.e.0.v") != "yes" || str(path(a.Data, "t.image")) == "" || path(a.Data, "all.0.__typename") != "PodTemplate" {
		t.Errorf("%s", a.raw)
	}
}

// A template's readme, which v2 has no field for, is answered from the fact
// store the v1 plans keep it in (issue 37), by the GraphQL door as by v1.
func TestTemplateReadmeRememberedThroughTheDoor(t *testing.T) {
	w := newWorld(t)
	w.env.Facts = facts.NewMemory(facts.MemoryOptions{})
	a := w.ok(`mutation { saveTemplate(input: {name: "r", imageName: "img:1", containerDiskInGb: 10, volumeInGb: 0, readme: "# hi"}) { id readme } }`, "")
	id, _ := path(a.Data, "saveTemplate.id").(string)
	if path(a.Data, "saveTemplate.readme") != "# hi" {
		t.Errorf("saveTemplate: %s", a.raw)
	}
	a = w.ok(`{ podTemplate(id: "`+id+`") { readme } }`, "")
	if path(a.Data, "podTemplate.readme") != "# hi" || a.warned("PodTemplate.readme") {
		t.Errorf("podTemplate: %s", a.raw)
	}
}
