package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/facts"
	"github.com/v1gateway/v1gateway/internal/speccheck"
	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/v2sim"
)

// End to end: v1 client → gateway → v2 simulator, for the ten pod
// operations. Every v1 answer is checked against the v1 contract.

// e2eClock is the simulator's clock, moved by the tests.
type e2eClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *e2eClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *e2eClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type e2e struct {
	t     *testing.T
	sim   *v2sim.Server
	simU  string
	gw    string
	clock *e2eClock
	spec  *speccheck.Spec // v1
	cfg   *config.Config  // the gateway's (e2e_facts_test.go starts replicas with it)
	g     *Gateway
}

type e2eOpts struct {
	cfg   func(*config.Config)
	sim   func(*v2sim.Options)
	seed  bool
	facts facts.Store // nil: the gateway's default (memory)
}

func newE2E(t *testing.T, o e2eOpts) *e2e {
	t.Helper()
	clock := &e2eClock{t: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
	so := v2sim.Options{Now: clock.now, Keys: []string{"k1"}, ForbiddenKeys: []string{"k-forbidden"}, Seed: o.seed}
	if o.sim != nil {
		o.sim(&so)
	}
	sim := v2sim.New(so)
	up := httptest.NewServer(sim)
	t.Cleanup(up.Close)
	cfg := &config.Config{UpstreamURL: up.URL, RequestTimeout: 5 * time.Second, KeyHashSecret: "x", CompatMode: "strict", ResetMode: "reject"}
	if o.cfg != nil {
		o.cfg(cfg)
	}
	g, err := New(Options{Config: cfg, Facts: o.facts})
	if err != nil {
		t.Fatal(err)
	}
	gw := httptest.NewServer(g)
	t.Cleanup(gw.Close)
	e := &e2e{t: t, sim: sim, simU: up.URL, gw: gw.URL, clock: clock, cfg: cfg, g: g}
	s, err := speccheck.Load("v1.openapi.json")
	speccheck.Record(t, err == nil)
	switch {
	case errors.Is(err, speccheck.ErrSpecsNotFound):
		t.Log("v1 spec not found: answers are not checked against the v1 contract")
	case err != nil:
		t.Fatal(err)
	}
	if s != nil {
		// v1's answers: null only where translate.V1Nulls lists it for
		// the object's own schema (issue 37).
		if s, err = s.WithNulls(translate.V1Nulls); err != nil {
			t.Fatal(err)
		}
	}
	e.spec = s
	return e
}

type e2eResp struct {
	status int
	header http.Header
	body   []byte
}

func (r *e2eResp) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("answer %q: %v", r.body, err)
	}
	return m
}

func (r *e2eResp) list(t *testing.T) []map[string]any {
	t.Helper()
	var l []map[string]any
	if err := json.Unmarshal(r.body, &l); err != nil {
		t.Fatalf("answer %q: %v", r.body, err)
	}
	return l
}

func (r *e2eResp) message(t *testing.T) string {
	t.Helper()
	var e struct {
		Message string `json:"message"`
	}
	if err := json.Unmarshal(r.body, &e); err != nil || e.Message == "" {
		t.Fatalf("not a v1 error: %q", r.body)
	}
	return e.Message
}

// call makes a request to base with key; v1 answers are checked against the
// v1 contract (start/stop/restart/reset: against the Pod schema, since v1
// documents no body there).
func (e *e2e) call(base, key, method, path, body string) *e2eResp {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := &e2eResp{status: resp.StatusCode, header: resp.Header, body: b}
	if base == e.gw && e.spec != nil && strings.HasPrefix(path, "/v1/") && r.status < 300 {
		path = "/v1/" + strings.TrimLeft(path[len("/v1/"):], "/") // a base URL's trailing slash (/v1//pods)
		p, _, _ := strings.Cut(path, "?")
		if isPodAction(method, p) {
			if err := e.spec.ValidateSchema("#/components/schemas/Pod", b); err != nil {
				e.t.Errorf("%s %s: answer is not a v1 Pod: %v\n%s", method, path, err, b)
			}
		} else if err := e.spec.ValidateResponse(method, path, r.status, resp.Header, b); err != nil {
			e.t.Errorf("%s %s: answer breaks the v1 contract: %v\n%s", method, path, err, b)
		}
	}
	return r
}

func isPodAction(method, path string) bool {
	if method != http.MethodPost {
		return false
	}
	for _, a := range []string{"/start", "/stop", "/restart", "/reset"} {
		if strings.HasPrefix(path, "/v1/pods/") && strings.HasSuffix(path, a) {
			return true
		}
	}
	return false
}

func (e *e2e) v1(method, path, body string) *e2eResp {
	e.t.Helper()
	return e.call(e.gw, "k1", method, path, body)
}

func (e *e2e) v2(method, path, body string) *e2eResp {
	e.t.Helper()
	return e.call(e.simU, "k1", method, path, body)
}

func (e *e2e) want(r *e2eResp, status int) {
	e.t.Helper()
	if r.status != status {
		e.t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
}

// simPods lists the simulator's pods named name.
func (e *e2e) simPods(name string) []map[string]any {
	e.t.Helper()
	r := e.v2("GET", "/v2/pods", "")
	e.want(r, 200)
	var l struct {
		Pods []map[string]any `json:"pods"`
	}
	if err := json.Unmarshal(r.body, &l); err != nil {
		e.t.Fatal(err)
	}
	var out []map[string]any
	for _, p := range l.Pods {
		if p["name"] == name {
			out = append(out, p)
		}
	}
	return out
}

func (e *e2e) simCreates() int {
	n := 0
	for _, c := range e.sim.Calls() {
		if c.Method == "POST" && c.Path == "/v2/pods" {
			n++
		}
	}
	return n
}

func TestE2EPodLifecycle(t *testing.T) {
	e := newE2E(t, e2eOpts{})
	r := e.v1("POST", "/v1/pods", `{"name":"trainer","imageName":"runpod/pytorch:2","gpuTypeIds":["NVIDIA GeForce RTX 4090"],
		"dockerStartCmd":["python","train.py","--note","a b"],"env":{"K":"v"}}`)
	e.want(r, 201)
	pod := r.json(t)
	id, _ := pod["id"].(string)
	if id == "" || pod["desiredStatus"] != "RUNNING" || pod["volumeInGb"] != 20.0 || pod["volumeMountPath"] != "/workspace" ||
		pod["containerDiskInGb"] != 50.0 || pod["name"] != "trainer" {
		t.Fatalf("created pod %s", r.body)
	}
	if got := pod["dockerStartCmd"]; !jsonEq(got, []any{"python", "train.py", "--note", "a b"}) {
		t.Errorf("dockerStartCmd %v", got)
	}
	if got := pod["ports"]; !jsonEq(got, []any{"8888/http", "22/tcp"}) {
		t.Errorf("ports %v (the v1 default)", got)
	}

	// List, with filters.
	e.want(e.v1("GET", "/v1/pods", ""), 200)
	if l := e.v1("GET", "/v1/pods?gpuTypeId=NVIDIA%20GeForce%20RTX%204090&name=trainer", "").list(t); len(l) != 1 || l[0]["id"] != id {
		t.Errorf("filtered list %v", l)
	}
	if l := e.v1("GET", "/v1/pods?computeType=CPU", "").list(t); len(l) != 0 {
		t.Errorf("CPU filter: %v", l)
	}

	// Running after the simulated boot: port mappings and public IP.
	e.clock.advance(20 * time.Second)
	got := e.v1("GET", "/v1/pods/"+id, "")
	e.want(got, 200)
	g := got.json(t)
	if pm, _ := g["portMappings"].(map[string]any); pm["22"] == nil || g["publicIp"] == nil || g["lastStartedAt"] == nil {
		t.Errorf("running pod %s", got.body)
	}

	// Update: only what was sent; the volume grows through a full mount.
	up := e.v1("PATCH", "/v1/pods/"+id, `{"name":"renamed","volumeInGb":40}`)
	e.want(up, 200)
	if u := up.json(t); u["name"] != "renamed" || u["volumeInGb"] != 40.0 || u["volumeMountPath"] != "/workspace" || u["containerDiskInGb"] != 50.0 {
		t.Errorf("updated pod %s", up.body)
	}
	e.want(e.v1("POST", "/v1/pods/"+id+"/update", `{"env":{"A":"1"}}`), 200)
	if m := e.v1("PATCH", "/v1/pods/"+id, `{"volumeInGb":30}`).message(t); !strings.Contains(m, "shrinking") {
		t.Errorf("shrink message %q", m)
	}

	// Actions.
	e.want(e.v1("POST", "/v1/pods/"+id+"/restart", ""), 200)
	st := e.v1("POST", "/v1/pods/"+id+"/stop", "")
	e.want(st, 200)
	if st.json(t)["desiredStatus"] != "EXITED" {
		t.Errorf("stopped pod %s", st.body)
	}
	bad := e.v1("POST", "/v1/pods/"+id+"/stop", "")
	e.want(bad, 400) // v2 409: invalid transition
	rs := e.v1("POST", "/v1/pods/"+id+"/reset", "")
	e.want(rs, 400)
	if !strings.Contains(rs.message(t), "restart") {
		t.Errorf("reset message %q", rs.body)
	}
	sta := e.v1("POST", "/v1/pods/"+id+"/start", "")
	e.want(sta, 200)
	if sta.json(t)["desiredStatus"] != "RUNNING" {
		t.Errorf("started pod %s", sta.body)
	}

	// Delete, then it is gone.
	del := e.v1("DELETE", "/v1/pods/"+id, "")
	e.want(del, 204)
	if len(del.body) != 0 {
		t.Errorf("204 with a body %q", del.body)
	}
	e.want(e.v1("GET", "/v1/pods/"+id, ""), 404)
	e.want(e.v1("DELETE", "/v1/pods/"+id, ""), 400)
	e.want(e.v1("PATCH", "/v1/pods/"+id, `{"name":"x"}`), 400)
	e.want(e.v1("POST", "/v1/pods/"+id+"/start", ""), 400)
}

func jsonEq(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestE2ECreateVariants(t *testing.T) {
	e := newE2E(t, e2eOpts{})
	vol := e.v2("POST", "/v2/network-volumes", `{"name":"data","size":50,"dataCenter":"EU-RO-1"}`)
	e.want(vol, 201)
	volID, _ := vol.json(t)["id"].(string)

	t.Run("CPU pod with a network volume", func(t *testing.T) {
		r := e.v1("POST", "/v1/pods", `{"name":"cpu","computeType":"CPU","imageName":"alpine","cpuFlavorIds":["cpu3c"],"vcpuCount":4,"networkVolumeId":"`+volID+`","volumeMountPath":"/data"}`)
		e.want(r, 201)
		p := r.json(t)
		if p["cpuFlavorId"] != "cpu3c" || p["vcpuCount"] != 4.0 || p["memoryInGb"] == nil || p["volumeMountPath"] != "/data" || p["volumeInGb"] != 0.0 || p["gpu"] != nil {
			t.Errorf("CPU pod %s", r.body)
		}
		l := e.v1("GET", "/v1/pods?includeNetworkVolume=true&includeMachine=true&networkVolumeId="+volID, "")
		e.want(l, 200)
		pods := l.list(t)
		if len(pods) != 1 {
			t.Fatalf("list %s", l.body)
		}
		nv, _ := pods[0]["networkVolume"].(map[string]any)
		if nv["id"] != volID || nv["dataCenterId"] != "EU-RO-1" || nv["size"] != 50.0 {
			t.Errorf("networkVolume %v", nv)
		}
		if m, _ := pods[0]["machine"].(map[string]any); m["dataCenterId"] != "EU-RO-1" || m["secureCloud"] != true {
			t.Errorf("machine %v", m)
		}
	})
	t.Run("network volume outside dataCenterIds", func(t *testing.T) {
		r := e.v1("POST", "/v1/pods", `{"imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"],"networkVolumeId":"`+volID+`","dataCenterIds":["US-TX-3"]}`)
		e.want(r, 400)
	})
	t.Run("candidates: capacity on the first, the second created", func(t *testing.T) {
		before := e.simCreates()
		r := e.v1("POST", "/v1/pods", `{"name":"cand","imageName":"img","gpuTypeIds":["NVIDIA H200","NVIDIA RTX A4000"],"gpuTypePriority":"custom"}`)
		e.want(r, 201)
		if g, _ := r.json(t)["gpu"].(map[string]any); g["id"] != "NVIDIA RTX A4000" {
			t.Errorf("gpu %v", g)
		}
		if n := e.simCreates() - before; n != 2 {
			t.Errorf("%d creates, want 2", n)
		}
	})
	t.Run("candidates by availability skip the sold-out type", func(t *testing.T) {
		before := e.simCreates()
		r := e.v1("POST", "/v1/pods", `{"name":"avail","imageName":"img","gpuTypeIds":["NVIDIA H200","NVIDIA L40S"]}`)
		e.want(r, 201)
		if g, _ := r.json(t)["gpu"].(map[string]any); g["id"] != "NVIDIA L40S" {
			t.Errorf("gpu %v", g)
		}
		if n := e.simCreates() - before; n != 1 {
			t.Errorf("%d creates, want 1 (H200 ranked last)", n)
		}
	})
	t.Run("no capacity anywhere: v1's stock-out", func(t *testing.T) {
		r := e.v1("POST", "/v1/pods", `{"imageName":"img","gpuTypeIds":["NVIDIA H200"]}`)
		e.want(r, 500)
		if !strings.Contains(r.message(t), "capacity") {
			t.Errorf("message %q", r.body)
		}
	})
	t.Run("countryCodes pick the data centers", func(t *testing.T) {
		r := e.v1("POST", "/v1/pods", `{"name":"cz","imageName":"img","gpuTypeIds":["NVIDIA L40S"],"countryCodes":["CZ"]}`)
		e.want(r, 201)
		p := e.v1("GET", "/v1/pods/"+r.json(t)["id"].(string)+"?includeMachine=true", "").json(t)
		if m, _ := p["machine"].(map[string]any); m["dataCenterId"] != "EU-CZ-1" {
			t.Errorf("machine %v", m)
		}
	})
	t.Run("locked", func(t *testing.T) {
		r := e.v1("POST", "/v1/pods", `{"name":"locked","imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"],"locked":true}`)
		e.want(r, 201)
		if r.json(t)["locked"] != true {
			t.Errorf("pod %s", r.body)
		}
		if p := e.simPods("locked"); len(p) != 1 || p[0]["locked"] != true {
			t.Errorf("sim pod %v", p)
		}
	})
	t.Run("untranslatable fields rejected before any call", func(t *testing.T) {
		before := len(e.sim.Calls())
		r := e.v1("POST", "/v1/pods", `{"imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"],"dockerEntrypoint":["/bin/sh"],"interruptible":true}`)
		e.want(r, 400)
		if m := r.message(t); !strings.Contains(m, "dockerEntrypoint") || !strings.Contains(m, "interruptible") {
			t.Errorf("message %q", m)
		}
		if n := len(e.sim.Calls()) - before; n != 0 {
			t.Errorf("%d v2 calls", n)
		}
	})
	t.Run("malformed body", func(t *testing.T) {
		e.want(e.v1("POST", "/v1/pods", `{"imageName":`), 400)
	})
	t.Run("template", func(t *testing.T) {
		tpl := e.v2("POST", "/v2/templates", `{"name":"t","image":"img:tpl","disk":30,"ports":["80/http"],"mounts":{"persistent":{"size":40,"path":"/data"}}}`)
		e.want(tpl, 201)
		tid := tpl.json(t)["id"].(string)
		r := e.v1("POST", "/v1/pods", `{"name":"fromtpl","templateId":"`+tid+`","gpuTypeIds":["NVIDIA RTX A4000"]}`)
		e.want(r, 201)
		p := r.json(t)
		if p["templateId"] != tid || p["image"] != "img:tpl" || p["containerDiskInGb"] != 30.0 || p["volumeInGb"] != 40.0 {
			t.Errorf("pod from template %s (the template's settings must win over v1 defaults)", r.body)
		}
	})
}

func TestE2ENoDuplicateCreate(t *testing.T) {
	t.Run("reply lost after the create", func(t *testing.T) {
		e := newE2E(t, e2eOpts{})
		e.sim.AddFault(v2sim.Fault{Method: "POST", PathPrefix: "/v2/pods", Status: 500, AfterProcess: true, Times: 1})
		r := e.v1("POST", "/v1/pods", `{"name":"once","imageName":"img","gpuTypeIds":["NVIDIA RTX A4000","NVIDIA L40S"],"gpuTypePriority":"custom"}`)
		e.want(r, 201)
		if !strings.Contains(r.header.Get("X-Compat-Warning"), "lost") {
			t.Errorf("X-Compat-Warning %q", r.header.Get("X-Compat-Warning"))
		}
		if n := len(e.simPods("once")); n != 1 {
			t.Fatalf("%d pods named once in v2, want exactly 1", n)
		}
		if r.json(t)["id"] != e.simPods("once")[0]["id"] {
			t.Error("the answer is not the pod v2 created")
		}
	})
	t.Run("capacity failure whose reply is lost: nothing found, stop", func(t *testing.T) {
		e := newE2E(t, e2eOpts{})
		e.sim.AddFault(v2sim.Fault{Method: "POST", PathPrefix: "/v2/pods", Status: 500, AfterProcess: true, Times: 1})
		r := e.v1("POST", "/v1/pods", `{"name":"maybe","imageName":"img","gpuTypeIds":["NVIDIA H200","NVIDIA RTX A4000"],"gpuTypePriority":"custom"}`)
		e.want(r, 502)
		if m := r.message(t); !strings.Contains(m, "may or may not have been created") || !strings.Contains(m, `"maybe"`) {
			t.Errorf("message %q", m)
		}
		if e.simCreates() != 1 || len(e.simPods("maybe")) != 0 {
			t.Errorf("creates %d, pods %d", e.simCreates(), len(e.simPods("maybe")))
		}
	})
	t.Run("reply lost, request timed out", func(t *testing.T) {
		e := newE2E(t, e2eOpts{cfg: func(c *config.Config) { c.RequestTimeout = 400 * time.Millisecond }})
		e.sim.AddFault(v2sim.Fault{Method: "POST", PathPrefix: "/v2/pods", Status: 503, AfterProcess: true, Delay: 800 * time.Millisecond, Times: 1})
		r := e.v1("POST", "/v1/pods", `{"name":"slow","imageName":"img","gpuTypeIds":["NVIDIA RTX A4000","NVIDIA L40S"],"gpuTypePriority":"custom"}`)
		if r.status != 504 && r.status != 502 && r.status != 201 {
			t.Fatalf("status %d: %s", r.status, r.body)
		}
		if r.status != 201 && !strings.Contains(r.message(t), "may or may not have been created") {
			t.Errorf("message %q", r.body)
		}
		if n := e.simCreates(); n != 1 {
			t.Fatalf("%d creates reached v2, want exactly 1", n)
		}
		if n := len(e.simPods("slow")); n > 1 {
			t.Fatalf("%d pods named slow", n)
		}
	})
	t.Run("5xx without a pod: stop, do not try the next candidate", func(t *testing.T) {
		e := newE2E(t, e2eOpts{})
		e.sim.AddFault(v2sim.Fault{Method: "POST", PathPrefix: "/v2/pods", Status: 503, Times: 1})
		r := e.v1("POST", "/v1/pods", `{"name":"none","imageName":"img","gpuTypeIds":["NVIDIA RTX A4000","NVIDIA L40S"],"gpuTypePriority":"custom"}`)
		e.want(r, 502)
		if e.simCreates() != 1 || len(e.simPods("none")) != 0 {
			t.Errorf("creates %d, pods %d", e.simCreates(), len(e.simPods("none")))
		}
	})
	t.Run("lock fails: 201 with a warning", func(t *testing.T) {
		e := newE2E(t, e2eOpts{})
		e.sim.AddFault(v2sim.Fault{Method: "PATCH", PathPrefix: "/v2/pods/", Status: 500, Times: 2})
		r := e.v1("POST", "/v1/pods", `{"name":"unlocked","imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"],"locked":true}`)
		e.want(r, 201)
		if r.json(t)["locked"] != false || !strings.Contains(r.header.Get("X-Compat-Warning"), "locked") {
			t.Errorf("answer %s, warning %q", r.body, r.header.Get("X-Compat-Warning"))
		}
	})
}

func TestE2EModes(t *testing.T) {
	t.Run("lenient drops and says so; a soft constraint is accepted with a warning, as in strict", func(t *testing.T) {
		e := newE2E(t, e2eOpts{cfg: func(c *config.Config) { c.CompatMode = "lenient" }})
		r := e.v1("POST", "/v1/pods", `{"imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"],"dockerEntrypoint":["/bin/sh"],"minRAMPerGPU":32}`)
		e.want(r, 201)
		if got := r.header.Get("X-Compat-Dropped"); got != "dockerEntrypoint" {
			t.Errorf("X-Compat-Dropped %q, want dockerEntrypoint", got)
		}
		if w := r.header.Get("X-Compat-Warning"); !strings.Contains(w, "minRAMPerGPU was accepted but not guaranteed") {
			t.Errorf("X-Compat-Warning %q does not name minRAMPerGPU", w)
		}
	})
	t.Run("reset emulated", func(t *testing.T) {
		e := newE2E(t, e2eOpts{cfg: func(c *config.Config) { c.ResetMode = "restart" }})
		id := e.v1("POST", "/v1/pods", `{"imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"]}`).json(t)["id"].(string)
		r0 := e.v1("POST", "/v1/pods/"+id+"/reset", "") // still PROVISIONING: already starting from scratch
		e.want(r0, 200)
		if !strings.Contains(r0.header.Get("X-Compat-Warning"), "still starting") || r0.header.Get("X-Compat-Emulated") != "reset" {
			t.Errorf("reset of a provisioning pod: warning %q, emulated %q", r0.header.Get("X-Compat-Warning"), r0.header.Get("X-Compat-Emulated"))
		}
		e.clock.advance(20 * time.Second)
		r := e.v1("POST", "/v1/pods/"+id+"/reset", "")
		e.want(r, 200)
		if r.header.Get("X-Compat-Emulated") != "reset" {
			t.Errorf("X-Compat-Emulated %q", r.header.Get("X-Compat-Emulated"))
		}
		e.want(e.v1("POST", "/v1/pods/"+id+"/stop", ""), 200)
		e.want(e.v1("POST", "/v1/pods/"+id+"/reset", ""), 200) // EXITED → start
	})
	t.Run("a reset that ends in 400 carries no X-Compat-Emulated", func(t *testing.T) {
		e := newE2E(t, e2eOpts{cfg: func(c *config.Config) { c.ResetMode = "restart" }})
		id := e.v1("POST", "/v1/pods", `{"imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"],"locked":true}`).json(t)["id"].(string)
		e.clock.advance(20 * time.Second)
		r := e.v1("POST", "/v1/pods/"+id+"/reset", "")
		e.want(r, 400)
		if h := r.header.Get("X-Compat-Emulated"); h != "" {
			t.Errorf("a refused reset carries X-Compat-Emulated %q", h)
		}
	})
}

// v1 shows desiredStatus RUNNING from the create on, while v2 reports the
// pod PROVISIONING, then STARTING, and refuses restart and start until it
// runs (issue 14, item 4): real clients restart or start right after a
// create and must not get a 400 about a status they cannot see.
func TestE2EActionsOnAPodStillStarting(t *testing.T) {
	e := newE2E(t, e2eOpts{})
	id := e.v1("POST", "/v1/pods", `{"imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"]}`).json(t)["id"].(string)
	for _, a := range []string{"restart", "start"} {
		r := e.v1("POST", "/v1/pods/"+id+"/"+a, "")
		e.want(r, 200)
		if r.json(t)["desiredStatus"] != "RUNNING" || !strings.Contains(r.header.Get("X-Compat-Warning"), "no "+a+" was sent") {
			t.Errorf("%s right after create: %s, warning %q", a, r.body, r.header.Get("X-Compat-Warning"))
		}
	}
	e.clock.advance(20 * time.Second) // RUNNING
	r := e.v1("POST", "/v1/pods/"+id+"/start", "")
	e.want(r, 200)
	if !strings.Contains(r.header.Get("X-Compat-Warning"), "already running") {
		t.Errorf("start of a running pod: warning %q", r.header.Get("X-Compat-Warning"))
	}
	r = e.v1("POST", "/v1/pods/"+id+"/restart", "")
	e.want(r, 200)
	if w := r.header.Get("X-Compat-Warning"); w != "" {
		t.Errorf("a real restart warns %q", w)
	}
	// A stop of a pod still provisioning is valid in v2 too: it stops.
	st := e.v1("POST", "/v1/pods/"+id+"/stop", "")
	e.want(st, 200)
	if st.json(t)["desiredStatus"] != "EXITED" {
		t.Errorf("stop while provisioning: %s", st.body)
	}
	// A restart of a stopped pod is refused in v1 words.
	m := e.v1("POST", "/v1/pods/"+id+"/restart", "")
	e.want(m, 400)
	if msg := m.message(t); !strings.Contains(msg, "desiredStatus EXITED") || strings.Contains(msg, "/v2") {
		t.Errorf("restart of a stopped pod: %q", msg)
	}
}

func TestE2EListSeeded(t *testing.T) {
	e := newE2E(t, e2eOpts{seed: true})
	all := e.v1("GET", "/v1/pods", "").list(t)
	if len(all) < 2 {
		t.Fatalf("seeded pods: %v", all)
	}
	if l := e.v1("GET", "/v1/pods?desiredStatus=EXITED&computeType=CPU", "").list(t); len(l) != 1 || l[0]["name"] != "cpu-worker" {
		t.Errorf("EXITED CPU pods: %v", l)
	}
	inc := e.v1("GET", "/v1/pods?includeNetworkVolume=true&includeMachine=true&includeTemplate=true&includeSavingsPlans=true", "")
	e.want(inc, 200)
	for _, p := range inc.list(t) {
		if p["machine"] == nil {
			t.Errorf("pod %v without machine", p["name"])
		}
		if p["name"] == "cpu-worker" && p["networkVolume"] == nil {
			t.Error("cpu-worker without its network volume")
		}
	}
	// Serverless workers.
	eps := e.v2("GET", "/v2/serverless", "")
	var l struct {
		Endpoints []struct{ ID string } `json:"endpoints"`
	}
	_ = json.Unmarshal(eps.body, &l)
	if len(l.Endpoints) == 0 {
		t.Fatal("no seeded endpoint")
	}
	w := e.v1("GET", "/v1/pods?endpointId="+l.Endpoints[0].ID, "")
	e.want(w, 200)
	for _, p := range w.list(t) {
		if p["endpointId"] != l.Endpoints[0].ID || p["desiredStatus"] != "RUNNING" {
			t.Errorf("worker %v", p)
		}
	}
	withW := e.v1("GET", "/v1/pods?includeWorkers=true", "").list(t)
	if len(withW) != len(all)+len(w.list(t)) {
		t.Errorf("includeWorkers: %d items, want %d pods + %d workers", len(withW), len(all), len(w.list(t)))
	}
	e.want(e.v1("GET", "/v1/pods?desiredStatus=running", ""), 400)
}

func TestE2EPodErrors(t *testing.T) {
	e := newE2E(t, e2eOpts{sim: func(o *v2sim.Options) { o.RateLimitPerMinute = 3 }})
	if r := e.call(e.gw, "k-wrong", "GET", "/v1/pods", ""); r.status != 401 {
		t.Errorf("wrong key: %d %s", r.status, r.body)
	}
	if r := e.call(e.gw, "k-forbidden", "GET", "/v1/pods", ""); r.status != 403 {
		t.Errorf("forbidden key: %d %s", r.status, r.body)
	}
	var last *e2eResp
	for i := 0; i < 5; i++ {
		last = e.v1("GET", "/v1/pods", "")
	}
	if last.status != 429 || last.header.Get("Retry-After") == "" {
		t.Errorf("rate limited: %d, Retry-After %q", last.status, last.header.Get("Retry-After"))
	}
	e.want(e.v1("GET", "/v1/pods/..", ""), 404)

	down := newE2E(t, e2eOpts{cfg: func(c *config.Config) { c.UpstreamURL = "http://127.0.0.1:1" }})
	if r := down.v1("GET", "/v1/pods", ""); r.status != 502 && r.status != 503 {
		t.Errorf("upstream down: %d %s", r.status, r.body)
	}
}

// A v1 env update replaces the whole env; the SSH key v2 injected at create
// (PUBLIC_KEY) is kept unless the new env sets one (issue 14, item 6).
func TestE2EEnvUpdateKeepsSSHKey(t *testing.T) {
	e := newE2E(t, e2eOpts{seed: true}) // the seed registers an SSH key
	id := e.v1("POST", "/v1/pods", `{"imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"]}`).json(t)["id"].(string)
	key := func(r *e2eResp) any { env, _ := r.json(t)["env"].(map[string]any); return env["PUBLIC_KEY"] }
	if key(e.v1("GET", "/v1/pods/"+id, "")) != v2sim.SeedSSHKey {
		t.Fatal("the simulator injected no PUBLIC_KEY")
	}
	up := e.v1("PATCH", "/v1/pods/"+id, `{"env":{"HF_TOKEN":"x"}}`)
	e.want(up, 200)
	if key(up) != v2sim.SeedSSHKey || !strings.Contains(up.header.Get("X-Compat-Warning"), "PUBLIC_KEY") {
		t.Errorf("after an env update: %s, warning %q", up.body, up.header.Get("X-Compat-Warning"))
	}
	if strings.Contains(up.header.Get("X-Compat-Warning"), "AAAA") {
		t.Errorf("the warning shows the key: %q", up.header.Get("X-Compat-Warning"))
	}
	rm := e.v1("PATCH", "/v1/pods/"+id, `{"env":{"HF_TOKEN":"x","PUBLIC_KEY":""}}`)
	e.want(rm, 200)
	if key(rm) != "" {
		t.Errorf("an explicit empty PUBLIC_KEY kept %v", key(rm))
	}
}

// Messages v2 gives reach v1 clients in v1 words (issue 14, item 5): the
// v1 field, no v2 route, no JSON path, no doubled punctuation.
func TestE2EV2ProblemsInV1Words(t *testing.T) {
	e := newE2E(t, e2eOpts{})
	leak := regexp.MustCompile(`/v2/|\$\.|\$:|\.:`)
	for _, tc := range []struct {
		method, path, body string
		want               string // part of the v1 message
	}{
		{"POST", "/v1/networkvolumes", `{"name":"d","size":10,"dataCenterId":"MARS-1"}`, "dataCenterId"},
		{"POST", "/v1/pods", `{"imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"],"dataCenterIds":["MARS-1"]}`, "dataCenterIds"},
		{"POST", "/v1/pods", `{"imageName":"img","computeType":"CPU","cpuFlavorIds":["cpu3c"],"vcpuCount":1024}`, "vcpuCount"},
	} {
		r := e.v1(tc.method, tc.path, tc.body)
		if r.status != 400 {
			t.Errorf("%s %s %s: %d %s", tc.method, tc.path, tc.body, r.status, r.body)
			continue
		}
		msg := r.message(t)
		t.Logf("%s → %q", tc.body, msg)
		if !strings.Contains(msg, tc.want) || leak.MatchString(msg) {
			t.Errorf("%s %s %s: message %q (want %q, no v2 wording)", tc.method, tc.path, tc.body, msg, tc.want)
		}
	}
}

// A base URL configured with a trailing slash (".../v1/") makes clients
// send /v1//pods: served as /v1/pods (issue 14, item 7), and no way around
// P9's id checks or into another route.
func TestE2EBaseURLWithTrailingSlash(t *testing.T) {
	e := newE2E(t, e2eOpts{seed: true})
	want := e.v1("GET", "/v1/pods", "")
	e.want(want, 200)
	for _, p := range []string{"/v1//pods", "/v1///pods"} {
		r := e.v1("GET", p, "")
		e.want(r, 200)
		if len(r.list(t)) != len(want.list(t)) {
			t.Errorf("%s: %s", p, r.body)
		}
	}
	id := want.list(t)[0]["id"].(string)
	e.want(e.v1("GET", "/v1//pods/"+id, ""), 200)
	c := e.v1("POST", "/v1//pods", `{"imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"]}`)
	e.want(c, 201)
	for _, p := range []string{
		"/v1//pods/..", "/v1//pods/%2e%2e", "/v1//pods/a%2Fb", "/v1//pods/%2e%2e%2fdelegations",
		"/v1//../v2/pods", "/v1//%2e%2e/v2/pods", "/v1/pods//" + id, "/v1//registries/delegations", "/v1/pods/%ff", "/v1/pods/ab%c3",
	} {
		if r := e.v1("GET", p, ""); r.status != 404 {
			t.Errorf("GET %s: %d %s", p, r.status, r.body)
		}
	}
}
