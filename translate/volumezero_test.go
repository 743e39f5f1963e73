package translate

import (
	"strings"
	"testing"
)

// volumeInGb: 0 means "no volume" (issue 29 item 5): an update that asks
// for no volume on a template or pod that has none changes nothing (200);
// one that would remove a volume is a 400 v2 cannot do, counted; and a pod
// created from a template with a volume but volumeInGb 0 — what the virtual
// kubelet sends for every templated pod — is made, as v1 made it, without a
// volume: the template's settings are sent instead of templateId, and the
// answer keeps templateId (the fact store remembers it, P8).
func TestVolumeZeroOnUpdatesMeansNoVolume(t *testing.T) {
	for _, c := range []struct {
		name, op, param, path string
		current               string // the v2 resource read first
		status                int
	}{
		{"template without a volume: nothing to change", "UpdateTemplate", "templateId", "/v2/templates/t1", tpl("t1", set("mounts", `{}`)), 200},
		{"template with a volume: 400, v2 cannot remove it", "UpdateTemplate", "templateId", "/v2/templates/t1", tpl("t1"), 400},
		{"pod without a volume: nothing to change", "UpdatePod", "podId", "/v2/pods/p1", pod("p1", set("mounts", `{}`)), 200},
		{"pod with a network volume and no pod volume: nothing to change", "UpdatePod", "podId", "/v2/pods/p1", pod("p1", set("mounts", `{"network":[{"volumeId":"vol1","path":"/workspace"}]}`)), 200},
		{"pod with a volume: 400, v2 cannot remove it", "UpdatePod", "podId", "/v2/pods/p1", pod("p1"), 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			id := strings.TrimPrefix(strings.TrimPrefix(c.path, "/v2/templates/"), "/v2/pods/")
			res, f := run(t, c.op, runOpts{params: map[string]string{c.param: id}, body: `{"volumeInGb":0}`},
				step{method: "GET", path: c.path, status: 200, body: c.current})
			wantStatus(t, res, c.status)
			if n := f.count("PATCH", c.path); n != 0 {
				t.Errorf("%d PATCHes", n)
			}
			if c.status == 400 {
				wantMessage(t, res, "volumeInGb: ", "remove")
				if len(res.Notes) != 1 || res.Notes[0].Code != CodeV2LimitRefused || res.Notes[0].Field != "volumeInGb" {
					t.Errorf("notes %+v, want one %s about volumeInGb", res.Notes, CodeV2LimitRefused)
				}
			}
		})
	}
}

func TestPodFromATemplateWithAVolumeAndVolumeZero(t *testing.T) {
	template := `{"id":"tpl1","name":"t","image":"img:t","args":"serve --port 80","disk":30,"mounts":{"persistent":{"size":40,"path":"/data"}},"ports":["80/http"],"env":{"A":"1"},"registry":"reg1","serverless":false,"public":false,"category":"NVIDIA","startSsh":true,"startJupyter":true,"allowedCudaVersions":["12.8"]}`
	read := step{method: "GET", path: "/v2/templates/tpl1", status: 200, body: template}
	for _, c := range []struct {
		name, body, want string
	}{
		{name: "virtual kubelet: templateId and imageName, volumeInGb 0, minRAMPerGPU dropped by policy",
			body: `{"cloudType":"SECURE","volumeInGb":0,"containerDiskInGb":15,"minRAMPerGPU":16,"gpuTypeIds":["NVIDIA A40"],"name":"k8s-pod","imageName":"nginx:1","env":{},"templateId":"tpl1"}`,
			want: `{"name":"k8s-pod","image":"nginx:1","args":"serve --port 80","disk":15,"env":{"A":"1"},"ports":["80/http"],"registry":"reg1","cloud":"SECURE",
				"gpu":{"id":"NVIDIA A40","count":1,"allowedCudaVersions":["12.8"]},"startSsh":true,"startJupyter":true}`},
		{name: "bash CLI: --template t --volume-gb 0, the client's fields win",
			body: `{"imageName":"img","name":"n","cloudType":"COMMUNITY","gpuTypeIds":["NVIDIA A40"],"ports":["8888/http"],"dockerStartCmd":["sleep","infinity"],"env":{"B":"2"},"gpuCount":1,"networkVolumeId":"","volumeInGb":0,"containerDiskInGb":20,"templateId":"tpl1"}`,
			want: `{"name":"n","image":"img","args":"sleep infinity","disk":20,"env":{"A":"1","B":"2"},"ports":["8888/http"],"registry":"reg1","cloud":"COMMUNITY",
				"gpu":{"id":"NVIDIA A40","count":1,"allowedCudaVersions":["12.8"]},"startSsh":true,"startJupyter":true}`},
		{name: "env merged per key as v2 merges it with templateId: the client's values win, the template's other keys stay (issue 37)",
			body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"],"env":{"K":"V","A":"pod"},"volumeInGb":0}`,
			want: `{"name":"my pod","image":"img:t","args":"serve --port 80","disk":30,"env":{"A":"pod","K":"V"},"ports":["80/http"],"registry":"reg1",
				"gpu":{"id":"NVIDIA A40","count":1,"allowedCudaVersions":["12.8"]},"startSsh":true,"startJupyter":true}`},
		{name: "nothing but templateId and volumeInGb 0: every container setting is the template's",
			body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"],"volumeInGb":0}`,
			want: `{"name":"my pod","image":"img:t","args":"serve --port 80","disk":30,"env":{"A":"1"},"ports":["80/http"],"registry":"reg1",
				"gpu":{"id":"NVIDIA A40","count":1,"allowedCudaVersions":["12.8"]},"startSsh":true,"startJupyter":true}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			facts := newFakeFacts()
			res, f := run(t, "CreatePod", runOpts{body: c.body, facts: facts, options: Options{FieldPolicy: map[string]string{"minRAMPerGPU": FieldPolicyDrop}}},
				read, createStep(newPod("p1", set("name", "k8s-pod"))))
			wantStatus(t, res, 201)
			jsonEqual(t, "v2 create body", []byte(f.bodies("POST", "/v2/pods")[0]), c.want)
			if got := decodeV1(t, res.Body)["templateId"]; got != "tpl1" {
				t.Errorf("templateId %v, want tpl1", got)
			}
			wantWarning(t, res, "template tpl1 has a 40 GB pod volume")
			if fct, ok := facts.m[FactPod+"/p1"]; !ok || fct.TemplateID != "tpl1" {
				t.Errorf("fact %+v %v: templateId not remembered", fct, ok)
			}
		})
	}
}
