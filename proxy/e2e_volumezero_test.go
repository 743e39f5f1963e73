package proxy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/facts"
)

// volumeInGb: 0 means "no volume" (issue 29 item 5), end to end under each
// reading of the simulator, with the fact store in memory and in Redis.
// (b) The virtual kubelet's templated pod — templateId and imageName,
// volumeInGb 0, minRAMPerGPU 16 (dropped by field_policy), container disk
// 15, SECURE — from a template that has a volume: v1 made it without a
// volume; so does the gateway, by sending the template's settings instead
// of templateId, and the pod keeps its templateId in every later answer
// and filter. (a) A template update asking for no volume on a template
// without one changes nothing.
func TestE2EVolumeZeroMeansNoVolume(t *testing.T) {
	eachFactStore(t, func(t *testing.T, rd simReading, store facts.Store) {
		e := newE2E(t, e2eOpts{sim: rd.apply, facts: store, cfg: func(c *config.Config) {
			c.FieldPolicy = map[string]string{"minRAMPerGPU": "drop"}
		}})
		r := e.v1("POST", "/v1/templates", `{"name":"k8s-base","imageName":"runpod/base:1","volumeInGb":20,"volumeMountPath":"/workspace","env":{"FROM_TEMPLATE":"1"},"ports":["8888/http"]}`)
		e.want(r, 200)
		tpl, _ := r.json(t)["id"].(string)

		r = e.v1("POST", "/v1/pods", `{"cloudType":"SECURE","volumeInGb":0,"containerDiskInGb":15,"minRAMPerGPU":16,"gpuTypeIds":["NVIDIA GeForce RTX 4090"],"name":"k8s-pod","imageName":"nginx:1","env":{},"templateId":"`+tpl+`"}`)
		e.want(r, 201)
		p := r.json(t)
		id, _ := p["id"].(string)
		if p["templateId"] != tpl || p["image"] != "nginx:1" {
			t.Errorf("created %s", r.body)
		}
		if v, _ := p["volumeInGb"].(float64); v != 0 {
			t.Errorf("volumeInGb %v, want no volume", p["volumeInGb"])
		}
		if w := warningsOf(r); !strings.Contains(w, "has a 20 GB pod volume") {
			t.Errorf("X-Compat-Warning %q does not say the template's settings were sent without its volume", w)
		}
		v2pod := e.v2("GET", "/v2/pods/"+id, "").json(t)
		if m, _ := v2pod["mounts"].(map[string]any); m["persistent"] != nil {
			t.Errorf("v2 pod has a volume: %v", m)
		}
		if env, _ := v2pod["env"].(map[string]any); env["FROM_TEMPLATE"] != "1" {
			t.Errorf("v2 pod env %v: the template's settings were not applied", env)
		}

		g := e.v1("GET", "/v1/pods/"+id, "")
		e.want(g, 200)
		if g.json(t)["templateId"] != tpl {
			t.Errorf("get: templateId lost: %s", g.body)
		}
		l := e.v1("GET", "/v1/pods?templateId="+tpl, "")
		e.want(l, 200)
		if items := l.list(t); len(items) != 1 || items[0]["id"] != id {
			t.Errorf("templateId filter: %s", l.body)
		}

		// (a) a serverless template without a volume, asked for none.
		r = e.v1("POST", "/v1/templates", `{"name":"w","imageName":"runpod/worker:1","isServerless":true}`)
		e.want(r, 200)
		sls, _ := r.json(t)["id"].(string)
		u := e.v1("PATCH", "/v1/templates/"+sls, `{"volumeInGb":0}`)
		e.want(u, 200)
		if v, _ := u.json(t)["volumeInGb"].(float64); v != 0 {
			t.Errorf("template answer %s", u.body)
		}
		// and one with a volume (issue 37 item 4): v2 cannot remove it, the
		// gateway remembers it was removed and answers volumeInGb 0, in
		// every later answer, and makes pods from the template without it.
		u = e.v1("PATCH", "/v1/templates/"+tpl, `{"volumeInGb":0}`)
		e.want(u, 200)
		if v, _ := u.json(t)["volumeInGb"].(float64); v != 0 {
			t.Errorf("template answer %s", u.body)
		}
		if g := e.v1("GET", "/v1/templates/"+tpl, ""); g.json(t)["volumeInGb"] != 0.0 {
			t.Errorf("get after the volume was removed: %s", g.body)
		}
		r = e.v1("POST", "/v1/pods", `{"gpuTypeIds":["NVIDIA GeForce RTX 4090"],"templateId":"`+tpl+`"}`)
		e.want(r, 201)
		id, _ = r.json(t)["id"].(string)
		if m, _ := e.v2("GET", "/v2/pods/"+id, "").json(t)["mounts"].(map[string]any); m["persistent"] != nil {
			t.Errorf("pod from a template whose volume was removed has one: %v", m)
		}
		if w := warningsOf(r); !strings.Contains(w, "volume was removed") {
			t.Errorf("X-Compat-Warning %q", w)
		}
		// A size brings the volume back.
		u = e.v1("PATCH", "/v1/templates/"+tpl, `{"volumeInGb":25}`)
		e.want(u, 200)
		if v, _ := u.json(t)["volumeInGb"].(float64); v != 25 {
			t.Errorf("template answer %s", u.body)
		}
	})
}

// A pod created from a template with volumeInGb 0 is the pod v2 makes from
// the template, less the volume (issue 37 item 1): the same pod request is
// sent once without volumeInGb (v2 resolves templateId) and once with 0
// (the gateway sends the template's settings itself), and the two v2 pods
// must have the same image, args, disk, ports, registry and env — env
// merged per key, the client's values winning — under every reading.
func TestE2EVolumeZeroPodIsTheTemplatedPodLessTheVolume(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply, facts: facts.NewMemory(facts.MemoryOptions{})})
		reg := e.v1("POST", "/v1/containerregistryauth", `{"name":"envreg","username":"u","password":"p"}`)
		e.want(reg, 200)
		regID, _ := reg.json(t)["id"].(string)
		r := e.v1("POST", "/v1/templates", `{"name":"envtpl","imageName":"runpod/base:1","volumeInGb":20,"dockerStartCmd":["serve","--port","80"],"containerDiskInGb":30,`+
			`"ports":["80/http","22/tcp"],"containerRegistryAuthId":"`+regID+`","env":{"A":"1","SHARED":"tpl"}}`)
		e.want(r, 200)
		tpl, _ := r.json(t)["id"].(string)
		for _, c := range []struct{ name, extra string }{
			{"the virtual kubelet's shape (env with a shared key)", `"env":{"K":"V","SHARED":"pod"}`},
			{"no env, no container field", `"name":"plain"`},
			{"the client's image, args, disk and ports win", `"imageName":"nginx:1","dockerStartCmd":["nginx"],"containerDiskInGb":12,"ports":["8080/http"],"env":{"SHARED":"pod"}`},
		} {
			t.Run(c.name, func(t *testing.T) {
				body := `{"templateId":"` + tpl + `","gpuTypeIds":["NVIDIA GeForce RTX 4090"],` + c.extra
				pods := [2]map[string]any{}
				for i, vol := range []string{"", `,"volumeInGb":0`} {
					cr := e.v1("POST", "/v1/pods", body+vol+"}")
					e.want(cr, 201)
					id, _ := cr.json(t)["id"].(string)
					pods[i] = e.v2("GET", "/v2/pods/"+id, "").json(t)
				}
				for _, k := range []string{"image", "args", "disk", "ports", "registry"} {
					if a, b := jsonText(t, pods[0][k]), jsonText(t, pods[1][k]); a != b {
						t.Errorf("%s: %s from templateId, %s inline", k, a, b)
					}
				}
				envs := [2]map[string]any{}
				for i := range pods {
					envs[i], _ = pods[i]["env"].(map[string]any)
					delete(envs[i], "JUPYTER_PASSWORD") // generated per pod
				}
				if a, b := jsonText(t, envs[0]), jsonText(t, envs[1]); a != b {
					t.Errorf("env: %s from templateId, %s inline", a, b)
				}
				if envs[1]["A"] != "1" {
					t.Errorf("inline env %v lost the template's A", envs[1])
				}
				if m, _ := pods[1]["mounts"].(map[string]any); m["persistent"] != nil {
					t.Errorf("inline pod has a volume: %v", m)
				}
			})
		}
	})
}

// jsonText is v as JSON (maps with sorted keys), for comparing values
// decoded from two answers.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
