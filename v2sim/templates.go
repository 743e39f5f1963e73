package v2sim

import (
	"net/http"
	"sort"
	"strings"
)

type template struct {
	seq          int64
	id, name     string
	container    containerCfg
	persistent   *persistentMount
	serverless   bool
	public       bool
	category     string
	startSSH     bool
	startJupyter bool
	allowedCuda  []string
	owned        bool   // owned by the simulated account
	source       string // public catalog slice of a template the account does not own
}

type templateMountsJSON struct {
	Persistent *persistentJSON `json:"persistent,omitempty"`
}

type templateJSON struct {
	ID                  string             `json:"id"`
	Name                string             `json:"name"`
	Image               string             `json:"image"`
	Args                string             `json:"args"`
	Disk                int                `json:"disk"`
	Mounts              templateMountsJSON `json:"mounts"`
	Ports               []string           `json:"ports"`
	Env                 map[string]string  `json:"env"`
	Registry            *string            `json:"registry"`
	Serverless          bool               `json:"serverless"`
	Public              bool               `json:"public"`
	Category            string             `json:"category"`
	StartSSH            bool               `json:"startSsh"`
	StartJupyter        bool               `json:"startJupyter"`
	AllowedCudaVersions []string           `json:"allowedCudaVersions"`
}

func (t *template) render() templateJSON {
	out := templateJSON{
		ID: t.id, Name: t.name, Image: t.container.image, Args: t.container.args, Disk: t.container.disk,
		Ports: nonNilStrings(t.container.ports), Env: nonNilMap(t.container.env),
		Serverless: t.serverless, Public: t.public, Category: t.category,
		StartSSH: t.startSSH, StartJupyter: t.startJupyter, AllowedCudaVersions: nonNilStrings(t.allowedCuda),
	}
	if t.owned {
		out.Registry = t.container.registryJSON()
	}
	if t.persistent != nil {
		out.Mounts.Persistent = &persistentJSON{Size: t.persistent.size, Path: t.persistent.path}
	}
	return out
}

// publicTemplates is the vendor's public template catalog.
func publicTemplates() []*template {
	mk := func(id, name, source, image string, serverless bool, category string, ports []string, env map[string]string, disk int, persistent *persistentMount) *template {
		return &template{
			id: id, name: name, source: source, public: true, serverless: serverless, category: category,
			container:  containerCfg{image: image, disk: disk, ports: ports, env: env},
			persistent: persistent, startSSH: !serverless, startJupyter: !serverless && category != "CPU",
			allowedCuda: []string{},
		}
	}
	return []*template{
		mk("30zmvf89kd", "PyTorch 2.8", "official", "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404", false, "NVIDIA",
			[]string{"8888/http", "22/tcp"}, map[string]string{}, 50, nil),
		mk("k3v8q1x7mz", "Ubuntu 24.04 (CPU)", "official", "runpod/base:0.7.0-ubuntu2404", false, "CPU",
			[]string{"22/tcp"}, map[string]string{}, 20, nil),
		mk("w9d2f6h4np", "vLLM Serverless Worker", "official", "runpod/worker-v1-vllm:v2.7.0", true, "NVIDIA",
			[]string{}, map[string]string{"MODEL_NAME": "meta-llama/Llama-3.1-8B-Instruct"}, 40, nil),
		mk("c5t1m8r2yb", "ComfyUI", "verified", "runpod/comfyui:0.3.40-cu128", false, "NVIDIA",
			[]string{"8188/http", "22/tcp"}, map[string]string{}, 60, &persistentMount{size: 50, path: "/workspace"}),
		mk("h7j3n9s5ue", "Stable Diffusion WebUI Forge", "community", "someuser/sd-forge:latest", false, "NVIDIA",
			[]string{"7860/http"}, map[string]string{}, 40, nil),
	}
}

// templateInUse names what blocks a template's deletion, if anything: a pod
// whose visible `template` names it (only under PodTemplateVisible does a pod
// show one), or a serverless endpoint it is bound to (see EndpointTemplate).
func (s *Server) templateInUse(id string) string {
	var pods []string
	for _, p := range s.st.pods {
		if p.templateID == id { // the pod's visible `template`
			pods = append(pods, p.id)
		}
	}
	if len(pods) > 0 {
		sort.Strings(pods)
		return "it is referenced by pod(s) " + strings.Join(pods, ", ")
	}
	for _, e := range s.sortedEndpoints() {
		if e.templateID == id {
			return "it is bound to serverless endpoint " + e.id + " (deleting the endpoint deletes its bound template)"
		}
	}
	return ""
}

func templateFromBody(t *template, body map[string]any) {
	if v, ok := getStr(body, "name"); ok {
		t.name = v
	}
	t.container.applyBody(body)
	if v, ok := getStrings(body, "allowedCudaVersions"); ok {
		t.allowedCuda = v
	}
	if v, ok := getStr(body, "category"); ok {
		t.category = v
	}
	if m, ok := getObj(body, "mounts"); ok {
		if p, ok := getObj(m, "persistent"); ok {
			t.persistent = parsePersistent(p)
		}
	}
	if v, ok := getBool(body, "public"); ok {
		t.public = v
	}
	if v, ok := getBool(body, "serverless"); ok {
		t.serverless = v
	}
	if v, ok := getBool(body, "startJupyter"); ok {
		t.startJupyter = v
	}
	if v, ok := getBool(body, "startSsh"); ok {
		t.startSSH = v
	}
}

func (s *Server) listTemplates(c *call) *reply {
	out := []templateJSON{}
	for _, t := range s.st.sortedTemplates() {
		if t.owned {
			out = append(out, t.render())
		}
	}
	return jsonReply(http.StatusOK, map[string]any{"templates": out})
}

func (s *Server) getTemplate(c *call) *reply {
	t := s.st.templates[c.param("id")]
	if t == nil || (!t.owned && !t.public) {
		return notFound("template", c.param("id"))
	}
	return jsonReply(http.StatusOK, t.render())
}

func (s *Server) createTemplate(c *call) *reply {
	body, rep := decodeBody(c.body, createTemplateSchema)
	if rep != nil {
		return rep
	}
	// Simulator's choice: disk 50 (the document's example; it gives no default).
	t := &template{
		owned: true, category: "NVIDIA", startSSH: true, startJupyter: true, allowedCuda: []string{},
		container: containerCfg{disk: 50, ports: []string{}, env: map[string]string{}},
	}
	templateFromBody(t, body)
	if rep := s.checkContainer(t.container); rep != nil {
		return rep
	}
	if t.serverless && t.persistent != nil {
		// Simulator's choice: the document does not say; endpoints have no
		// persistent mount a serverless template could seed.
		return badRequest("mounts.persistent: serverless templates do not support a persistent mount")
	}
	t.seq, t.id = s.st.nextSeq(), s.newID(10)
	s.st.templates[t.id] = t
	return jsonReply(http.StatusCreated, t.render())
}

func (s *Server) updateTemplate(c *call) *reply {
	body, rep := decodeBody(c.body, updateTemplateSchema)
	if rep != nil {
		return rep
	}
	cur := s.st.templates[c.param("id")]
	if cur == nil || !cur.owned {
		return notFound("template", c.param("id"))
	}
	t := *cur
	t.container = cur.container.clone()
	templateFromBody(&t, body)
	if rep := s.checkContainerPatch(cur.container, t.container); rep != nil {
		return rep
	}
	if t.serverless && t.persistent != nil {
		return badRequest("mounts.persistent: serverless templates do not support a persistent mount")
	}
	*cur = t
	return jsonReply(http.StatusOK, cur.render())
}

func (s *Server) deleteTemplate(c *call) *reply {
	t := s.st.templates[c.param("id")]
	if t == nil || !t.owned {
		return notFound("template", c.param("id"))
	}
	if why := s.templateInUse(t.id); why != "" {
		return badRequest("template %q cannot be deleted: %s", t.id, why)
	}
	delete(s.st.templates, t.id)
	return noContent()
}
