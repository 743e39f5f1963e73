package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/usage"
	"github.com/v1gateway/v1gateway/v2sim"
)

// The client-shaped suite (issue 14): request by request, what the real v1
// clients send and what they then read, replayed end to end (client →
// gateway → v2sim) against a world like the one -demo serves (seeded
// simulator, strict compat mode, reset rejected).
//
// Each case is named "<client> <version>: <command or tool>" and carries the
// exact method, path, query and body the client sent when it was captured
// against the gateway (runpodctl 2.7.2 built from source; runpod-mcp 1.3.0
// and 3.2.0 driven over MCP stdio with RUNPOD_REST_VERSION=v1; runpod-mcp
// 4.0.0, the npm release, driven over MCP stdio with
// RUNPOD_API_BASE_URL=<gateway>: it speaks only v2, so its cases replay
// /v2 pass-through requests), the status a user of that client expects,
// and the answer fields the client reads (from the structs it decodes into
// or the fields it prints). To add a client release, add a function
// returning its cases and a line in clientReleases.

// clientCase is one request of a real client and what the client needs back.
type clientCase struct {
	name string
	// advance moves the simulator's clock before the request (a pod boots).
	advance time.Duration
	method  string
	// path is the v1 path with its query exactly as the client sent it;
	// {key} is replaced by the id saved under key by an earlier case.
	path string
	// body is the body exactly as the client sent it ({key} replaced too);
	// bodyFn, when set, builds it from earlier answers (runpodctl's pod
	// update reads the pod's env, merges, and PATCHes the result).
	body   string
	bodyFn func(w *clientWorld) string
	status int
	// refusable names a v1 field whose refusal (400 naming it, P1 strict)
	// is an equally right answer.
	refusable string
	// decode is a value of the type the client decodes the answer into; the
	// answer must decode into it (runpodctl fails a whole command otherwise).
	decode any
	// reads lists the answer fields the client reads (dotted for nested
	// objects): each must be present, not null and not "". For a list
	// answer they are checked on the item whose id is saved under pick, or
	// on every item when pick is empty.
	reads []string
	pick  string
	// save stores the answer's "id" under this key.
	save  string
	check func(t *testing.T, w *clientWorld, r *e2eResp)
}

// clientWorld is the gateway, its simulator and a GraphQL upstream beside
// it, plus the ids the cases have created so far.
type clientWorld struct {
	*e2e
	admin   string // the admin listener (/usage)
	ids     map[string]string
	graphql *graphqlUpstream
	last    map[string]any // the last object answer
}

// graphqlUpstream plays the vendor's GraphQL endpoint, which v2sim does not
// serve: it records what reaches it and answers a fixed document.
type graphqlUpstream struct {
	mu   sync.Mutex
	seen []graphqlSeen
}

type graphqlSeen struct {
	method, auth string
	body         []byte
}

func (g *graphqlUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	g.mu.Lock()
	g.seen = append(g.seen, graphqlSeen{method: r.Method, auth: r.Header.Get("Authorization"), body: b})
	g.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"data":{"upstream":"graphql"}}`))
}

func (g *graphqlUpstream) last() (graphqlSeen, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.seen) == 0 {
		return graphqlSeen{}, false
	}
	return g.seen[len(g.seen)-1], true
}

// newClientWorld starts the gateway in front of a seeded simulator whose
// clock starts at start (zero: a fixed day).
func newClientWorld(t *testing.T, start time.Time, cfg func(*config.Config)) *clientWorld {
	t.Helper()
	if start.IsZero() {
		start = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	}
	clock := &e2eClock{t: start}
	sim := v2sim.New(v2sim.Options{Now: clock.now, Keys: []string{"k1"}, Seed: true})
	gql := &graphqlUpstream{}
	mux := http.NewServeMux()
	mux.Handle("/graphql", gql)
	mux.Handle("/", sim)
	up := httptest.NewServer(mux)
	t.Cleanup(up.Close)
	c := &config.Config{UpstreamURL: up.URL, RequestTimeout: 5 * time.Second, KeyHashSecret: "x", CompatMode: "strict", ResetMode: "reject"}
	if cfg != nil {
		cfg(c)
	}
	g, err := New(Options{Config: c})
	if err != nil {
		t.Fatal(err)
	}
	gw := httptest.NewServer(g)
	t.Cleanup(gw.Close)
	adm := httptest.NewServer(NewAdmin(g))
	t.Cleanup(adm.Close)
	w := &clientWorld{e2e: &e2e{t: t, sim: sim, simU: up.URL, gw: gw.URL, clock: clock}, admin: adm.URL, ids: map[string]string{}, graphql: gql}
	// The seeded resources a demo user finds (their ids are random).
	for _, s := range []struct{ key, path, list, name string }{
		{"seedgpu", "/v2/pods", "pods", "pytorch-training"},
		{"seedep", "/v2/serverless", "endpoints", ""},
	} {
		r := w.v2("GET", s.path, "")
		w.want(r, 200)
		var l map[string][]map[string]any
		if err := json.Unmarshal(r.body, &l); err != nil {
			t.Fatal(err)
		}
		for _, it := range l[s.list] {
			if s.name == "" || it["name"] == s.name {
				w.ids[s.key], _ = it["id"].(string)
				break
			}
		}
		if w.ids[s.key] == "" {
			t.Fatalf("seeded world has no %s %q: %s", s.list, s.name, r.body)
		}
	}
	return w
}

func (w *clientWorld) fill(s string) string {
	for k, v := range w.ids {
		s = strings.ReplaceAll(s, "{"+k+"}", v)
	}
	return s
}

// send makes the request without the v1 contract check of e2e.call where
// the path is not a v1 route as documented (a doubled slash, /graphql).
func (w *clientWorld) send(method, path, body string) *e2eResp {
	w.t.Helper()
	if strings.HasPrefix(path, "/v1/") && !strings.HasPrefix(path, "/v1//") {
		return w.call(w.gw, "k1", method, path, body)
	}
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, w.gw+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer k1")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return &e2eResp{status: resp.StatusCode, header: resp.Header, body: b}
}

// v2Wording lists what must never reach a v1 client in an error message
// (item 5): v2 routes, v2 JSON paths, doubled punctuation.
var v2Wording = []string{"/v2/", "$.", ".:", " dataCenter:", "gpu.id"}

func (w *clientWorld) run(t *testing.T, c clientCase) {
	t.Helper()
	if c.advance > 0 {
		w.clock.advance(c.advance)
	}
	body := w.fill(c.body)
	if c.bodyFn != nil {
		body = c.bodyFn(w)
	}
	path := w.fill(c.path)
	r := w.send(c.method, path, body)
	if r.status >= 500 {
		t.Fatalf("%s %s: %d %s", c.method, path, r.status, r.body)
	}
	if r.status >= 400 {
		m := r.message(t)
		for _, bad := range v2Wording {
			if strings.Contains(m, bad) {
				t.Errorf("v2 wording %q in a v1 error: %q", bad, m)
			}
		}
	}
	if c.refusable != "" && r.status == 400 && c.status != 400 {
		if m := r.message(t); !strings.Contains(m, c.refusable) {
			t.Fatalf("refused without naming %s: %q", c.refusable, m)
		}
		return
	}
	if r.status != c.status {
		t.Fatalf("%s %s %s: status %d, want %d: %s", c.method, path, body, r.status, c.status, r.body)
	}
	if r.status < 300 && len(r.body) > 0 {
		// runpod-mcp 1.3.0 only parses answers labelled JSON.
		if ct := r.header.Get("Content-Type"); !strings.Contains(ct, "application/json") {
			t.Errorf("Content-Type %q: the client would not read the answer", ct)
		}
		if c.decode != nil {
			v := reflect.New(reflect.TypeOf(c.decode))
			if err := json.Unmarshal(r.body, v.Interface()); err != nil {
				t.Errorf("the client cannot decode the answer into %T: %v\n%s", c.decode, err, r.body)
			}
		}
	}
	var obj map[string]any
	if r.status < 300 && len(r.body) > 0 && r.body[0] == '{' {
		obj = r.json(t)
		w.last = obj
	}
	if c.save != "" {
		id, _ := obj["id"].(string)
		if id == "" {
			t.Fatalf("no id to save as %s: %s", c.save, r.body)
		}
		w.ids[c.save] = id
	}
	if len(c.reads) > 0 {
		items := []map[string]any{obj}
		if len(r.body) > 0 && r.body[0] == '[' {
			items = r.list(t)
			if c.pick != "" {
				items = pickID(items, w.ids[c.pick])
				if len(items) == 0 {
					t.Fatalf("the list has no item %s (%s): %s", c.pick, w.ids[c.pick], r.body)
				}
			}
		}
		for _, it := range items {
			for _, f := range c.reads {
				if !present(it, f) {
					t.Errorf("the client reads %s, missing or empty in %v", f, it)
				}
			}
			if ca, ok := it["createdAt"].(string); ok && ca != "" {
				if _, err := time.Parse(time.RFC3339, ca); err != nil {
					t.Errorf("createdAt %q: runpodctl parses RFC 3339 only", ca)
				}
			}
		}
	}
	if c.check != nil {
		c.check(t, w, r)
	}
}

func pickID(items []map[string]any, id string) []map[string]any {
	for _, it := range items {
		if it["id"] == id {
			return []map[string]any{it}
		}
	}
	return nil
}

func present(m map[string]any, dotted string) bool {
	var v any = m
	for _, k := range strings.Split(dotted, ".") {
		o, ok := v.(map[string]any)
		if !ok {
			return false
		}
		v = o[k]
	}
	if v == nil || v == "" {
		return false
	}
	return true
}

// ---- what the clients decode into (their JSON shapes, not their code) ----

// ctlPod is runpodctl 2.7.2's view of a v1 pod: integer fields must be
// integers and env a map of strings, or the command fails to parse.
type ctlPod struct {
	ID                string            `json:"id"`
	Name              string            `json:"name"`
	DesiredStatus     string            `json:"desiredStatus"`
	CreatedAt         any               `json:"createdAt"`
	LastStatusChange  any               `json:"lastStatusChange"`
	UptimeSeconds     any               `json:"uptimeSeconds"`
	ImageName         string            `json:"imageName"`
	GpuTypeID         string            `json:"gpuTypeId"`
	GpuCount          int               `json:"gpuCount"`
	VolumeInGb        int               `json:"volumeInGb"`
	ContainerDiskInGb int               `json:"containerDiskInGb"`
	MemoryInGb        int               `json:"memoryInGb"`
	VcpuCount         int               `json:"vcpuCount"`
	VolumeMountPath   string            `json:"volumeMountPath"`
	Ports             []string          `json:"ports"`
	CostPerHr         float64           `json:"costPerHr"`
	Machine           map[string]any    `json:"machine"`
	Runtime           map[string]any    `json:"runtime"`
	Env               map[string]string `json:"env"`
}

type ctlEndpoint struct {
	ID                 string         `json:"id"`
	Name               string         `json:"name"`
	TemplateID         string         `json:"templateId"`
	GpuIDs             string         `json:"gpuIds"`
	InstanceIDs        []string       `json:"instanceIds"`
	NetworkVolumeID    string         `json:"networkVolumeId"`
	NetworkVolumeIDs   []any          `json:"networkVolumeIds"`
	Locations          string         `json:"locations"`
	IdleTimeout        int            `json:"idleTimeout"`
	ScalerType         string         `json:"scalerType"`
	ScalerValue        int            `json:"scalerValue"`
	WorkersMin         int            `json:"workersMin"`
	WorkersMax         int            `json:"workersMax"`
	GpuCount           int            `json:"gpuCount"`
	MinCudaVersion     string         `json:"minCudaVersion"`
	Flashboot          *bool          `json:"flashboot"`
	FlashBootType      string         `json:"flashBootType"`
	ComputeType        string         `json:"computeType"`
	ExecutionTimeoutMs int            `json:"executionTimeoutMs"`
	ModelReferences    []string       `json:"modelReferences"`
	Template           map[string]any `json:"template"`
	Workers            []any          `json:"workers"`
}

type ctlTemplate struct {
	ID                      string            `json:"id"`
	Name                    string            `json:"name"`
	ImageName               string            `json:"imageName"`
	IsServerless            bool              `json:"isServerless"`
	IsPublic                bool              `json:"isPublic"`
	IsRunpod                bool              `json:"isRunpod"`
	Category                string            `json:"category"`
	Ports                   []string          `json:"ports"`
	DockerEntrypoint        []string          `json:"dockerEntrypoint"`
	DockerStartCmd          []string          `json:"dockerStartCmd"`
	Env                     map[string]string `json:"env"`
	ContainerDiskInGb       int               `json:"containerDiskInGb"`
	ContainerRegistryAuthID string            `json:"containerRegistryAuthId"`
	VolumeInGb              int               `json:"volumeInGb"`
	VolumeMountPath         string            `json:"volumeMountPath"`
	Readme                  string            `json:"readme"`
}

type ctlVolume struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Size         int    `json:"size"`
	DataCenterID string `json:"dataCenterId"`
}

type ctlRegistry struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Username string `json:"username"`
}

type ctlBilling struct {
	Time            string  `json:"time"`
	Amount          float64 `json:"amount"`
	TimeBilledMs    int64   `json:"timeBilledMs"`
	DiskSpaceBilled int     `json:"diskSpaceBilledGb"`
	PodID           string  `json:"podId"`
	EndpointID      string  `json:"endpointId"`
	GpuTypeID       string  `json:"gpuTypeId"`
}

// ---- checks shared by the cases ----

func wantField(key string, want any) func(*testing.T, *clientWorld, *e2eResp) {
	return func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		if got := r.json(t)[key]; !jsonEq(got, want) {
			t.Errorf("%s = %v, want %v", key, got, want)
		}
	}
}

func wantWarning(t *testing.T, r *e2eResp) {
	t.Helper()
	if r.header.Get("X-Compat-Warning") == "" {
		t.Errorf("no X-Compat-Warning: the operator cannot see what the gateway did")
	}
}

// wantNothingDropped: a field a real client sends is translated or refused,
// never dropped with only a header (P1, item 3): neither X-Compat-Dropped
// nor an X-Compat-Warning about ignored fields may name it.
func wantNothingDropped(fields ...string) func(*testing.T, *clientWorld, *e2eResp) {
	return func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		dropped := r.header.Get("X-Compat-Dropped")
		for _, h := range r.header.Values("X-Compat-Warning") {
			if strings.Contains(h, "ignored") {
				dropped += "," + h
			}
		}
		for _, f := range fields {
			if strings.Contains(dropped, f) {
				t.Errorf("%s dropped with only a header: %s", f, dropped)
			}
		}
	}
}

// lastV2Body is the body of the gateway's last POST to a v2 path.
func (w *clientWorld) lastV2Body(path string) map[string]any { return w.lastBody("POST", path) }

// listedSince is runpodctl's pod list --since / --created-after filter:
// the pods whose createdAt is at or after cutoff.
func listedSince(t *testing.T, r *e2eResp, cutoff time.Time) map[string]bool {
	t.Helper()
	var pods []ctlPod
	if err := json.Unmarshal(r.body, &pods); err != nil {
		t.Fatalf("runpodctl cannot decode the list: %v", err)
	}
	out := map[string]bool{}
	for _, p := range pods {
		s, _ := p.CreatedAt.(string)
		c, err := time.Parse(time.RFC3339, s)
		if err != nil || c.Before(cutoff) {
			continue
		}
		out[p.ID] = true
	}
	return out
}

// ---- runpodctl 2.7.2 ----

// ctlPodAliasReads are the pod fields runpodctl 2.7.2 prints under names
// v1's Pod schema does not have (it calls them image and gpu.{id,count});
// issue 14 lists them among its reads, and the gateway answers them beside
// image and gpu (podjson.V1Pod.ImageName).
var ctlPodAliasReads = []string{"imageName", "gpuTypeId", "gpuCount"}

// runpodctl272 lists every v1 REST call of runpodctl 2.7.2, in the order of
// a user session. Its GPU pod create, serverless create, template search and
// SSH info go to GraphQL (see the graphql cases). Bodies are Go structs with
// omitempty: zero values are never sent.
func runpodctl272() []clientCase {
	const c = "runpodctl 2.7.2: "
	return []clientCase{
		{name: c + "pod create --compute-type cpu --image ubuntu:22.04 --name cpu-ctl",
			method: "POST", path: "/v1/pods",
			body:   `{"name":"cpu-ctl","imageName":"ubuntu:22.04","computeType":"CPU","containerDiskInGb":20,"volumeMountPath":"/workspace","cloudType":"SECURE"}`,
			status: 201, decode: ctlPod{}, save: "cpupod",
			reads: []string{"id", "name", "desiredStatus", "image", "createdAt", "vcpuCount", "memoryInGb", "cpuFlavorId"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if v := r.json(t)["vcpuCount"]; v != 2.0 {
					t.Errorf("vcpuCount %v, want v1's default 2", v)
				}
			}},
		{name: c + "pod restart (right after create)",
			method: "POST", path: "/v1/pods/{cpupod}/restart",
			status: 200, decode: ctlPod{}, reads: []string{"id", "desiredStatus"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) { wantWarning(t, r) }},
		{name: c + "pod create --compute-type cpu --docker-args 'sleep infinity' --ports '8888/http, 22/tcp' --env --data-center-ids",
			method: "POST", path: "/v1/pods",
			body:   `{"imageName":"ubuntu:22.04","computeType":"CPU","containerDiskInGb":20,"volumeMountPath":"/workspace","ports":["8888/http"," 22/tcp"],"env":{"A":"1"},"cloudType":"SECURE","dataCenterIds":["EU-RO-1"],"dockerArgs":"sleep infinity"}`,
			status: 201, decode: ctlPod{}, reads: []string{"id", "image", "createdAt"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantNothingDropped("dockerArgs")(t, w, r)
				if a := w.lastV2Body("/v2/pods")["args"]; a != "sleep infinity" {
					t.Errorf("v2 args %v, want the dockerArgs the user gave", a)
				}
				if p := r.json(t)["ports"]; !jsonEq(p, []any{"8888/http", "22/tcp"}) {
					t.Errorf("ports %v, want the two ports normalised", p)
				}
			}},
		{name: c + "pod create --compute-type cpu --min-cuda-version 12.6",
			method: "POST", path: "/v1/pods",
			body:   `{"imageName":"ubuntu:22.04","computeType":"CPU","containerDiskInGb":20,"volumeMountPath":"/workspace","cloudType":"SECURE","minCudaVersion":"12.6"}`,
			status: 201, refusable: "minCudaVersion", decode: ctlPod{}, reads: []string{"id"},
			check: wantNothingDropped("minCudaVersion")},
		{name: c + "pod create --compute-type cpu --data-center-ids XX-NOWHERE-1 (a v1 error naming the v1 field)",
			method: "POST", path: "/v1/pods",
			body:   `{"imageName":"ubuntu:22.04","computeType":"CPU","containerDiskInGb":20,"volumeMountPath":"/workspace","cloudType":"SECURE","dataCenterIds":["XX-NOWHERE-1"]}`,
			status: 400,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if m := r.message(t); !strings.Contains(m, "dataCenterIds") {
					t.Errorf("message %q does not name dataCenterIds", m)
				}
			}},
		{name: c + "pod create --compute-type cpu --cloud-type COMMUNITY --public-ip (refused: v2 cannot promise it)",
			method: "POST", path: "/v1/pods",
			body:   `{"imageName":"ubuntu:22.04","computeType":"CPU","supportPublicIp":true,"containerDiskInGb":20,"volumeMountPath":"/workspace","cloudType":"COMMUNITY"}`,
			status: 400,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if m := r.message(t); !strings.Contains(m, "supportPublicIp") {
					t.Errorf("message %q does not name supportPublicIp", m)
				}
			}},
		{name: c + "pod list", method: "GET", path: "/v1/pods",
			status: 200, decode: []ctlPod{}, pick: "seedgpu",
			reads: []string{"id", "name", "desiredStatus", "image", "gpu.id", "gpu.count", "volumeInGb", "costPerHr", "createdAt"}},
		// runpodctl prints imageName, gpuTypeId (as gpuId) and gpuCount: names
		// its struct shares with GraphQL, which v1's Pod schema calls image
		// and gpu.{id,count}. Without them its list shows "" and 0.
		{name: c + "pod list (the names runpodctl prints: imageName, gpuTypeId, gpuCount)", method: "GET", path: "/v1/pods",
			status: 200, decode: []ctlPod{}, pick: "seedgpu", reads: ctlPodAliasReads},
		{name: c + "pod list (a CPU pod as the list prints it)", method: "GET", path: "/v1/pods",
			status: 200, decode: []ctlPod{}, pick: "cpupod",
			reads: []string{"id", "name", "desiredStatus", "image", "createdAt"}},
		{name: c + "pod list --compute-type CPU --name cpu-ctl", method: "GET", path: "/v1/pods?computeType=CPU&name=cpu-ctl",
			status: 200, decode: []ctlPod{}, pick: "cpupod", reads: []string{"id", "name"}},
		{name: c + "pod list --all --since 7d", method: "GET", path: "/v1/pods",
			status: 200, decode: []ctlPod{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if got := listedSince(t, r, w.clock.now().Add(-7*24*time.Hour)); !got[w.ids["cpupod"]] {
					t.Errorf("--since 7d does not list the pod created just now: %v", got)
				}
			}},
		{name: c + "pod list --all --created-after <yesterday>", method: "GET", path: "/v1/pods",
			status: 200, decode: []ctlPod{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				y := w.clock.now().AddDate(0, 0, -1).Truncate(24 * time.Hour)
				if got := listedSince(t, r, y); !got[w.ids["cpupod"]] {
					t.Errorf("--created-after does not list the pod created today: %v", got)
				}
			}},
		{name: c + "pod get", method: "GET", path: "/v1/pods/{cpupod}",
			status: 200, decode: ctlPod{}, reads: []string{"id", "name", "desiredStatus", "image", "createdAt", "memoryInGb", "vcpuCount"}},
		{name: c + "pod get --include-machine --include-network-volume", method: "GET", path: "/v1/pods/{seedgpu}?includeMachine=true&includeNetworkVolume=true",
			status: 200, decode: ctlPod{}, reads: []string{"id", "image", "gpu.id", "costPerHr", "createdAt", "machine", "machine.dataCenterId"}},
		{name: c + "pod get (the names runpodctl prints: imageName, gpuTypeId, gpuCount)", method: "GET", path: "/v1/pods/{seedgpu}",
			status: 200, decode: ctlPod{}, reads: ctlPodAliasReads},
		{name: c + "pod update --name renamed --container-disk-in-gb 30", method: "PATCH", path: "/v1/pods/{seedgpu}",
			body: `{"name":"renamed","containerDiskInGb":30}`, status: 200, decode: ctlPod{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "renamed")(t, w, r)
				wantField("containerDiskInGb", 30.0)(t, w, r)
			}},
		{name: c + "pod update --env (1/2: GET the pod's env)", method: "GET", path: "/v1/pods/{seedgpu}",
			status: 200, decode: ctlPod{}, reads: []string{"env.PUBLIC_KEY"}},
		{name: c + "pod update --env '{\"B\":\"2\"}' (2/2: PATCH the merged env)", method: "PATCH", path: "/v1/pods/{seedgpu}",
			bodyFn: func(w *clientWorld) string {
				env := map[string]any{}
				if e, ok := w.last["env"].(map[string]any); ok {
					env = e
				}
				env["B"] = "2"
				b, _ := json.Marshal(map[string]any{"env": env})
				return string(b)
			},
			status: 200, decode: ctlPod{}, reads: []string{"env.B", "env.PUBLIC_KEY", "env.JUPYTER_ENABLE_LAB"}},
		{name: c + "pod update --ports 8888/http,22/tcp", method: "PATCH", path: "/v1/pods/{seedgpu}",
			body: `{"ports":["8888/http","22/tcp"]}`, status: 200, decode: ctlPod{},
			check: wantField("ports", []any{"8888/http", "22/tcp"})},
		{name: c + "pod update --ports '8888/http, 22/tcp' (a space after the comma)", method: "PATCH", path: "/v1/pods/{seedgpu}",
			body: `{"ports":["8888/http"," 22/tcp"]}`, status: 200, decode: ctlPod{},
			check: wantField("ports", []any{"8888/http", "22/tcp"})},
		{name: c + "pod stop", advance: 30 * time.Second, method: "POST", path: "/v1/pods/{seedgpu}/stop",
			status: 200, decode: ctlPod{}, check: wantField("desiredStatus", "EXITED")},
		{name: c + "pod start", method: "POST", path: "/v1/pods/{seedgpu}/start",
			status: 200, decode: ctlPod{}, check: wantField("desiredStatus", "RUNNING")},
		{name: c + "pod restart", advance: 30 * time.Second, method: "POST", path: "/v1/pods/{seedgpu}/restart",
			status: 200, decode: ctlPod{}, check: wantField("desiredStatus", "RUNNING")},
		{name: c + "pod reset (refused by default, naming restart)", method: "POST", path: "/v1/pods/{seedgpu}/reset",
			status: 400,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if m := r.message(t); !strings.Contains(m, "restart") {
					t.Errorf("reset message %q", m)
				}
			}},

		{name: c + "template create --name tpl-ctl --image alpine:3 --ports 8888/http --env", method: "POST", path: "/v1/templates",
			body:   `{"name":"tpl-ctl","imageName":"alpine:3","ports":["8888/http"],"env":{"K":"v"},"containerDiskInGb":20,"volumeMountPath":"/workspace"}`,
			status: 200, decode: ctlTemplate{}, save: "tpl", reads: []string{"id", "name", "imageName", "ports"}},
		{name: c + "template create --serverless", method: "POST", path: "/v1/templates",
			body:   `{"name":"tpl-sls","imageName":"alpine:3","isServerless":true,"containerDiskInGb":20}`,
			status: 200, decode: ctlTemplate{}, save: "tplsls", reads: []string{"id", "name", "imageName"},
			check: wantField("isServerless", true)},
		{name: c + "template list --type user", method: "GET", path: "/v1/templates",
			status: 200, decode: []ctlTemplate{}, pick: "tpl", reads: []string{"id", "name", "imageName"}},
		{name: c + "template get", method: "GET", path: "/v1/templates/{tpl}",
			status: 200, decode: ctlTemplate{}, reads: []string{"id", "name", "imageName", "ports", "env"}},
		{name: c + "template update --name --env --container-disk-in-gb", method: "PATCH", path: "/v1/templates/{tpl}",
			body: `{"name":"tpl-ctl2","env":{"K":"w"},"containerDiskInGb":25}`, status: 200, decode: ctlTemplate{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "tpl-ctl2")(t, w, r)
				wantField("env", map[string]any{"K": "w"})(t, w, r)
				wantField("containerDiskInGb", 25.0)(t, w, r)
			}},

		{name: c + "serverless list", method: "GET", path: "/v1/endpoints",
			status: 200, decode: []ctlEndpoint{}, pick: "seedep", reads: []string{"id", "name", "computeType", "workersMax"}},
		{name: c + "serverless list --include-template --include-workers", method: "GET", path: "/v1/endpoints?includeTemplate=true&includeWorkers=true",
			status: 200, decode: []ctlEndpoint{}, pick: "seedep", reads: []string{"id", "name", "template"}},
		{name: c + "serverless get", method: "GET", path: "/v1/endpoints/{seedep}",
			status: 200, decode: ctlEndpoint{}, reads: []string{"id", "name", "workersMax", "idleTimeout", "scalerType"}},
		{name: c + "serverless get --include-template --include-workers", method: "GET", path: "/v1/endpoints/{seedep}?includeTemplate=true&includeWorkers=true",
			status: 200, decode: ctlEndpoint{}, reads: []string{"id", "template"}},
		{name: c + "serverless update --name --workers-min 0 --workers-max 2 --idle-timeout 10 --scale-by delay --scale-threshold 4 (1/2: PATCH)",
			method: "PATCH", path: "/v1/endpoints/{seedep}",
			body:   `{"name":"ep-ctl2","workersMax":2,"idleTimeout":10,"scalerType":"QUEUE_DELAY","scalerValue":4}`,
			status: 200, decode: ctlEndpoint{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "ep-ctl2")(t, w, r)
				wantField("workersMax", 2.0)(t, w, r)
				wantField("idleTimeout", 10.0)(t, w, r)
			}},
		{name: c + "serverless update (2/2: GET)", method: "GET", path: "/v1/endpoints/{seedep}",
			status: 200, decode: ctlEndpoint{}, check: wantField("name", "ep-ctl2")},

		{name: c + "network-volume create --name vol-ctl --size 20 --data-center-id EU-RO-1", method: "POST", path: "/v1/networkvolumes",
			body: `{"name":"vol-ctl","size":20,"dataCenterId":"EU-RO-1"}`, status: 200, decode: ctlVolume{}, save: "vol",
			reads: []string{"id", "name", "size", "dataCenterId"}},
		{name: c + "network-volume list", method: "GET", path: "/v1/networkvolumes",
			status: 200, decode: []ctlVolume{}, pick: "vol", reads: []string{"id", "name", "size", "dataCenterId"}},
		{name: c + "network-volume get", method: "GET", path: "/v1/networkvolumes/{vol}",
			status: 200, decode: ctlVolume{}, reads: []string{"id", "name", "size", "dataCenterId"}},
		{name: c + "network-volume update --size 40", method: "PATCH", path: "/v1/networkvolumes/{vol}",
			body: `{"size":40}`, status: 200, decode: ctlVolume{}, check: wantField("size", 40.0)},
		{name: c + "network-volume update --name vol-ctl2", method: "PATCH", path: "/v1/networkvolumes/{vol}",
			body: `{"name":"vol-ctl2"}`, status: 200, decode: ctlVolume{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "vol-ctl2")(t, w, r)
				wantField("size", 40.0)(t, w, r)
			}},

		{name: c + "registry create --name reg-ctl --username u --password p", method: "POST", path: "/v1/containerregistryauth",
			body: `{"name":"reg-ctl","username":"u","password":"p"}`, status: 200, decode: ctlRegistry{}, save: "reg",
			reads: []string{"id", "name"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if bytes.Contains(r.body, []byte(`"password"`)) {
					t.Errorf("the password came back: %s", r.body)
				}
			}},
		{name: c + "registry list", method: "GET", path: "/v1/containerregistryauth",
			status: 200, decode: []ctlRegistry{}, pick: "reg", reads: []string{"id", "name"}},
		{name: c + "registry get", method: "GET", path: "/v1/containerregistryauth/{reg}",
			status: 200, decode: ctlRegistry{}, reads: []string{"id", "name"}},

		{name: c + "billing pods", method: "GET", path: "/v1/billing/pods?bucketSize=day&grouping=gpuTypeId",
			status: 200, decode: []ctlBilling{}, reads: []string{"time"}},
		{name: c + "billing pods --grouping podId --bucket-size hour --start-time --end-time", method: "GET",
			path:   "/v1/billing/pods?bucketSize=hour&endTime=2026-06-01T12%3A00%3A00Z&grouping=podId&startTime=2026-05-25T00%3A00%3A00Z",
			status: 200, decode: []ctlBilling{}, reads: []string{"time", "podId"}},
		{name: c + "billing pods --gpu-id 'NVIDIA GeForce RTX 4090'", method: "GET",
			path:   "/v1/billing/pods?bucketSize=day&gpuTypeId=NVIDIA+GeForce+RTX+4090&grouping=gpuTypeId",
			status: 200, decode: []ctlBilling{}, reads: []string{"time", "gpuTypeId"}},
		{name: c + "billing serverless", method: "GET", path: "/v1/billing/endpoints?bucketSize=day&grouping=endpointId",
			status: 200, decode: []ctlBilling{}, reads: []string{"time", "endpointId"}},
		{name: c + "billing network-volume", method: "GET", path: "/v1/billing/networkvolumes?bucketSize=day",
			status: 200, decode: []ctlBilling{}, reads: []string{"time"}},

		// RUNPOD_API_URL / restApiUrl written with a trailing slash.
		{name: c + "pod list with RUNPOD_API_URL=http://gateway/v1/", method: "GET", path: "/v1//pods",
			status: 200, decode: []ctlPod{}, pick: "seedgpu", reads: []string{"id"}},
		{name: c + "network-volume list with RUNPOD_API_URL=http://gateway/v1/", method: "GET", path: "/v1//networkvolumes",
			status: 200, decode: []ctlVolume{}},
		{name: c + "serverless delete", method: "DELETE", path: "/v1/endpoints/{seedep}", status: 204},
		{name: c + "template delete", method: "DELETE", path: "/v1/templates/{tpl}", status: 204},
		{name: c + "template delete (the serverless one)", method: "DELETE", path: "/v1/templates/{tplsls}", status: 204},
		{name: c + "network-volume delete", method: "DELETE", path: "/v1/networkvolumes/{vol}", status: 204},
		{name: c + "registry delete", method: "DELETE", path: "/v1/containerregistryauth/{reg}", status: 204},
		{name: c + "pod delete (the CPU pod)", method: "DELETE", path: "/v1/pods/{cpupod}", status: 204},
		{name: c + "pod delete", method: "DELETE", path: "/v1/pods/{seedgpu}", status: 204},
	}
}

// runpodctlGraphQL lists what runpodctl 2.7.2 sends to RUNPOD_GRAPHQL_URL
// when that points at the gateway: passed through verbatim (item 8).
func runpodctlGraphQL() []clientCase {
	const c = "runpodctl 2.7.2: "
	pass := func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		got, ok := w.graphql.last()
		if !ok {
			t.Fatal("nothing reached the GraphQL upstream")
		}
		if got.auth != "Bearer k1" {
			t.Errorf("upstream Authorization %q", got.auth)
		}
		if !bytes.Equal(r.body, []byte(`{"data":{"upstream":"graphql"}}`)) {
			t.Errorf("answer not passed through verbatim: %s", r.body)
		}
	}
	return []clientCase{
		{name: c + "pod create --image runpod/pytorch:2 --gpu-id 'NVIDIA GeForce RTX 4090' (GraphQL podFindAndDeployOnDemand)",
			method: "POST", path: "/graphql",
			body:   `{"query":"\n\t\tmutation createPod($input: PodFindAndDeployOnDemandInput!) {\n\t\t\tpodFindAndDeployOnDemand(input: $input) {\n\t\t\t\tid\n\t\t\t\tname\n\t\t\t\timageName\n\t\t\t\tdesiredStatus\n\t\t\t}\n\t\t}\n\t","variables":{"input":{"cloudType":"SECURE","containerDiskInGb":20,"gpuCount":1,"gpuTypeId":"NVIDIA GeForce RTX 4090","imageName":"runpod/pytorch:2","name":"gpu-ctl","startSsh":true,"volumeMountPath":"/workspace"}}}`,
			status: 200, check: pass},
		{name: c + "pod get (GraphQL myPods for SSH info)",
			method: "POST", path: "/graphql",
			body:   `{"query":"\n\t\tquery myPods {\n\t\t\tmyself {\n\t\t\t  pods {\n\t\t\t\tid\n\t\t\t\tdesiredStatus\n\t\t\t  }\n\t\t\t}\n\t\t}\n\t","variables":null}`,
			status: 200, check: pass},
		{name: c + "serverless create (GraphQL saveEndpoint)",
			method: "POST", path: "/graphql",
			body:   `{"query":"\n\t\tmutation SaveEndpoint($input: EndpointInput!) {\n\t\t\tsaveEndpoint(input: $input) {\n\t\t\t\tid\n\t\t\t\tname\n\t\t\t}\n\t\t}\n\t","variables":{"input":{"name":"ep-ctl","templateId":"abc","gpuIds":"ADA_24","gpuCount":1,"workersMax":3}}}`,
			status: 200, check: pass},
	}
}

// ---- runpod-mcp 1.3.0 and 3.2.0 (RUNPOD_REST_VERSION=v1) ----

// runpodMCP lists the v1 calls of runpod-mcp's tools. Both releases send the
// tool's arguments as the body, keys in the order of the tool's schema;
// where the releases differ, the case says so. 1.3.0's create-pod has no
// computeType (a CPU pod cannot be asked for) and its list answers are used
// as they come; 3.2.0 adds computeType and volumeType, answers restart-pod
// and get-billing itself (501) on v1, and keeps a v1 list only if it is a
// JSON array.
func runpodMCP(version string) []clientCase {
	c := "runpod-mcp " + version + ": "
	v3 := strings.HasPrefix(version, "3.")
	var cases []clientCase
	add := func(cs ...clientCase) { cases = append(cases, cs...) }

	add(clientCase{name: c + `create-pod {name, imageName} (a GPU pod without gpuTypeIds)`,
		method: "POST", path: "/v1/pods", body: `{"name":"gpu-any-mcp","imageName":"runpod/pytorch:2"}`,
		status: 201, reads: []string{"id", "desiredStatus", "image", "gpu.id", "costPerHr"},
		check: func(t *testing.T, w *clientWorld, r *e2eResp) {
			wantWarning(t, r)
			if gpu, _ := r.json(t)["gpu"].(map[string]any); gpu != nil && !strings.Contains(r.header.Get("X-Compat-Warning"), fmt.Sprint(gpu["id"])) {
				t.Errorf("X-Compat-Warning %q does not name the chosen GPU type %v", r.header.Get("X-Compat-Warning"), gpu["id"])
			}
		}})
	if v3 {
		add(clientCase{name: c + `create-pod {name, imageName, computeType: "CPU"}`,
			method: "POST", path: "/v1/pods", body: `{"name":"cpu-mcp","imageName":"ubuntu:22.04","computeType":"CPU"}`,
			status: 201, save: "mcpcpu", reads: []string{"id", "desiredStatus", "image", "cpuFlavorId", "vcpuCount", "memoryInGb"}})
	}
	add(clientCase{name: c + "create-pod (GPU, every field of the tool)",
		method: "POST", path: "/v1/pods",
		body:   `{"name":"gpu-mcp","imageName":"runpod/pytorch:2","cloudType":"SECURE","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"containerDiskInGb":20,"volumeInGb":20,"volumeMountPath":"/workspace","ports":["8888/http","22/tcp"],"env":{"A":"1"},"dataCenterIds":["EU-RO-1"]}`,
		status: 201, save: "mcppod", reads: []string{"id", "name", "desiredStatus", "image", "gpu.id", "costPerHr", "env.A"}},
		clientCase{name: c + `create-pod {ports: ["8888/http,22/tcp"]} (one comma-joined element)`,
			method: "POST", path: "/v1/pods",
			body:   `{"name":"ports-mcp","imageName":"runpod/pytorch:2","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"ports":["8888/http,22/tcp"]}`,
			status: 201, check: wantField("ports", []any{"8888/http", "22/tcp"})},
		clientCase{name: c + "list-pods {}", method: "GET", path: "/v1/pods",
			status: 200, pick: "mcppod", reads: []string{"id", "name", "desiredStatus", "image", "gpu.id"}},
		clientCase{name: c + "list-pods {computeType, gpuTypeId×2, dataCenterId×2, name, includeMachine, includeNetworkVolume}", method: "GET",
			path:   "/v1/pods?computeType=GPU&gpuTypeId=NVIDIA+GeForce+RTX+4090&gpuTypeId=NVIDIA+A40&dataCenterId=EU-RO-1&dataCenterId=US-KS-2&name=gpu-mcp&includeMachine=true&includeNetworkVolume=true",
			status: 200, pick: "mcppod", reads: []string{"id", "machine", "machine.dataCenterId"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if l := r.list(t); len(l) != 1 {
					t.Errorf("filters matched %d pods, want exactly gpu-mcp", len(l))
				}
			}},
		clientCase{name: c + "get-pod {includeMachine, includeNetworkVolume}", method: "GET",
			path: "/v1/pods/{mcppod}?includeMachine=true&includeNetworkVolume=true", status: 200, reads: []string{"id", "machine"}},
		clientCase{name: c + "update-pod {name, ports, env} (PUBLIC_KEY kept)", method: "PATCH", path: "/v1/pods/{mcppod}",
			body: `{"name":"gpu-mcp2","ports":["8888/http"],"env":{"B":"2"}}`, status: 200,
			reads: []string{"id", "env.B", "env.PUBLIC_KEY"}, check: wantField("name", "gpu-mcp2")},
		clientCase{name: c + "stop-pod", advance: 30 * time.Second, method: "POST", path: "/v1/pods/{mcppod}/stop",
			status: 200, check: wantField("desiredStatus", "EXITED")},
		clientCase{name: c + "start-pod", method: "POST", path: "/v1/pods/{mcppod}/start",
			status: 200, check: wantField("desiredStatus", "RUNNING")},
	)
	add(clientCase{name: c + "create-template {name, imageName, ports, env, containerDiskInGb, volumeMountPath}", method: "POST", path: "/v1/templates",
		body:   `{"name":"tpl-mcp","imageName":"alpine:3","ports":["8888/http"],"env":{"K":"v"},"containerDiskInGb":10,"volumeInGb":20,"volumeMountPath":"/workspace"}`,
		status: 200, save: "mcptpl", reads: []string{"id", "name", "imageName", "ports", "env.K"}},
		clientCase{name: c + "create-template {isServerless, dockerStartCmd, readme}", method: "POST", path: "/v1/templates",
			body:   `{"name":"tpl-sls-mcp","imageName":"alpine:3","isServerless":true,"ports":["8000/http"],"dockerStartCmd":["python","handler.py"],"env":{"K":"v"},"containerDiskInGb":10,"readme":"# hi"}`,
			status: 200, save: "mcpsls", reads: []string{"id", "name", "imageName", "dockerStartCmd"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) { wantWarning(t, r) }}, // readme has no v2 home
		clientCase{name: c + "create-template {isServerless} (for the CPU endpoint)", method: "POST", path: "/v1/templates",
			body:   `{"name":"tpl-cpu-mcp","imageName":"alpine:3","isServerless":true}`,
			status: 200, save: "mcpslscpu", reads: []string{"id"}},
		clientCase{name: c + "list-templates {}", method: "GET", path: "/v1/templates",
			status: 200, pick: "mcptpl", reads: []string{"id", "name", "imageName"}},
		clientCase{name: c + "list-templates {includeRunpodTemplates, includePublicTemplates, includeEndpointBoundTemplates}", method: "GET",
			path:   "/v1/templates?includeRunpodTemplates=true&includePublicTemplates=true&includeEndpointBoundTemplates=true",
			status: 200, pick: "mcptpl", reads: []string{"id", "name"}},
		clientCase{name: c + "get-template", method: "GET", path: "/v1/templates/{mcptpl}",
			status: 200, reads: []string{"id", "name", "imageName", "ports", "env"}},
		clientCase{name: c + "update-template {name, env}", method: "PATCH", path: "/v1/templates/{mcptpl}",
			body: `{"name":"tpl-mcp2","env":{"K":"w"}}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "tpl-mcp2")(t, w, r)
				wantField("env", map[string]any{"K": "w"})(t, w, r)
			}},
	)

	epBody := `{"name":"ep-mcp","templateId":"{mcpsls}","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"workersMin":0,"workersMax":2,"dataCenterIds":["EU-RO-1"]}`
	cpuBody := `{"name":"ep-cpu-mcp","templateId":"{mcpslscpu}","computeType":"CPU"}`
	if v3 { // 3.2.0 copies the v1 fields in its own order
		epBody = `{"templateId":"{mcpsls}","name":"ep-mcp","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuCount":1,"workersMin":0,"workersMax":2,"dataCenterIds":["EU-RO-1"]}`
		cpuBody = `{"templateId":"{mcpslscpu}","name":"ep-cpu-mcp","computeType":"CPU"}`
	}
	add(clientCase{name: c + "create-endpoint {name, templateId, gpuTypeIds, gpuCount, workersMin, workersMax, dataCenterIds}", method: "POST", path: "/v1/endpoints",
		body: epBody, status: 200, save: "mcpep", reads: []string{"id", "name", "templateId", "gpuTypeIds", "workersMax"}},
		clientCase{name: c + `create-endpoint {name, templateId, computeType: "CPU"}`, method: "POST", path: "/v1/endpoints",
			body: cpuBody, status: 200, save: "mcpcpuep", reads: []string{"id", "name", "computeType"},
			check: wantField("computeType", "CPU")},
		clientCase{name: c + "list-endpoints {}", method: "GET", path: "/v1/endpoints",
			status: 200, pick: "mcpep", reads: []string{"id", "name", "gpuTypeIds", "workersMax"}},
		clientCase{name: c + "list-endpoints {includeTemplate, includeWorkers}", method: "GET", path: "/v1/endpoints?includeTemplate=true&includeWorkers=true",
			status: 200, pick: "mcpep", reads: []string{"id", "template"}},
		clientCase{name: c + "get-endpoint {includeTemplate, includeWorkers}", method: "GET", path: "/v1/endpoints/{mcpep}?includeTemplate=true&includeWorkers=true",
			status: 200, reads: []string{"id", "name", "template"}},
		clientCase{name: c + "update-endpoint {name, workersMin, workersMax, idleTimeout, scalerType, scalerValue}", method: "PATCH", path: "/v1/endpoints/{mcpep}",
			body: `{"name":"ep-mcp2","workersMin":0,"workersMax":3,"idleTimeout":10,"scalerType":"QUEUE_DELAY","scalerValue":4}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "ep-mcp2")(t, w, r)
				wantField("workersMax", 3.0)(t, w, r)
			}},
	)

	add(clientCase{name: c + "create-network-volume {name, size, dataCenterId}", method: "POST", path: "/v1/networkvolumes",
		body: `{"name":"vol-mcp","size":20,"dataCenterId":"EU-RO-1"}`, status: 200, save: "mcpvol",
		reads: []string{"id", "name", "size", "dataCenterId"}})
	if v3 {
		add(clientCase{name: c + `create-network-volume {volumeType: "HIGH_PERFORMANCE"}`, method: "POST", path: "/v1/networkvolumes",
			body: `{"name":"vol-hps-mcp","size":20,"dataCenterId":"EU-RO-1","volumeType":"HIGH_PERFORMANCE"}`, status: 200,
			reads: []string{"id", "name", "size", "dataCenterId"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantNothingDropped("volumeType")(t, w, r)
				if ty := w.lastV2Body("/v2/network-volumes")["type"]; ty != "HIGH_PERFORMANCE" {
					t.Errorf("v2 volume type %v, want the tier the client asked for", ty)
				}
			}})
	}
	add(clientCase{name: c + "list-network-volumes", method: "GET", path: "/v1/networkvolumes",
		status: 200, pick: "mcpvol", reads: []string{"id", "name", "size", "dataCenterId"}},
		clientCase{name: c + "get-network-volume", method: "GET", path: "/v1/networkvolumes/{mcpvol}",
			status: 200, reads: []string{"id", "name", "size", "dataCenterId"}},
		clientCase{name: c + "update-network-volume {name, size}", method: "PATCH", path: "/v1/networkvolumes/{mcpvol}",
			body: `{"name":"vol-mcp2","size":40}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "vol-mcp2")(t, w, r)
				wantField("size", 40.0)(t, w, r)
			}},

		clientCase{name: c + "create-container-registry-auth {name, username, password}", method: "POST", path: "/v1/containerregistryauth",
			body: `{"name":"reg-mcp","username":"u","password":"p"}`, status: 200, save: "mcpreg", reads: []string{"id", "name"}},
		clientCase{name: c + "list-container-registry-auths", method: "GET", path: "/v1/containerregistryauth",
			status: 200, pick: "mcpreg", reads: []string{"id", "name"}},
		clientCase{name: c + "get-container-registry-auth", method: "GET", path: "/v1/containerregistryauth/{mcpreg}",
			status: 200, reads: []string{"id", "name"}},

		clientCase{name: c + "delete-endpoint", method: "DELETE", path: "/v1/endpoints/{mcpep}", status: 204},
		clientCase{name: c + "delete-endpoint (the CPU one)", method: "DELETE", path: "/v1/endpoints/{mcpcpuep}", status: 204},
		clientCase{name: c + "delete-template", method: "DELETE", path: "/v1/templates/{mcptpl}", status: 204},
		clientCase{name: c + "delete-network-volume", method: "DELETE", path: "/v1/networkvolumes/{mcpvol}", status: 204},
		clientCase{name: c + "delete-container-registry-auth", method: "DELETE", path: "/v1/containerregistryauth/{mcpreg}", status: 204},
		clientCase{name: c + "delete-pod", method: "DELETE", path: "/v1/pods/{mcppod}", status: 204},
		// RUNPOD_REST_API_URL written with a trailing slash.
		clientCase{name: c + "list-pods {} with RUNPOD_REST_API_URL=http://gateway/v1/", method: "GET", path: "/v1//pods", status: 200},
	)
	return cases
}

// ---- runpod-mcp 4.0.0 (v2 only, through the /v2 pass-through) ----

// v2Listed checks a v2 list answer, an object holding the list under key
// (v2 wraps its lists): it must be an array (runpod-mcp 4.0.0's trimmed
// list tools answer "returned no list data" otherwise), and the item whose
// id is saved under pick, or every item when pick is empty, must carry the
// fields the tool reads.
func v2Listed(key, pick string, fields ...string) func(*testing.T, *clientWorld, *e2eResp) {
	return func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		var m map[string][]map[string]any
		if err := json.Unmarshal(r.body, &m); err != nil || m[key] == nil {
			t.Fatalf("no %s array in the answer (%v): %s", key, err, r.body)
		}
		items := m[key]
		if pick != "" {
			if items = pickID(items, w.ids[pick]); len(items) == 0 {
				t.Fatalf("the list has no item %s (%s): %s", pick, w.ids[pick], r.body)
			}
		}
		for _, it := range items {
			for _, f := range fields {
				if !present(it, f) {
					t.Errorf("the tool reads %s, missing or empty in %v", f, it)
				}
			}
		}
	}
}

// runpodMCP400 lists what runpod-mcp 4.0.0 sends through the gateway. 4.0.0
// removed the v1 fallback: it has no RUNPOD_REST_VERSION and ignores
// RUNPOD_REST_API_URL, and its REST tools call v2 paths on
// RUNPOD_API_BASE_URL (default https://api.runpod.io; trailing slashes cut).
// Pointed at the gateway (RUNPOD_API_BASE_URL=http://gateway, no /v1) every
// REST tool goes through the /v2 pass-through, which must hand the request
// to v2 and v2's answer back unchanged. Generated tools send the tool's body
// argument as the model wrote it and return the parsed answer; list-endpoints
// and list-templates keep a few fields of each item and fail without the
// list array. Captured with the arguments a model gives from each tool's
// schema.
func runpodMCP400() []clientCase {
	const c = "runpod-mcp 4.0.0: "
	return []clientCase{
		{name: c + "list-pods {}", method: "GET", path: "/v2/pods", status: 200,
			check: v2Listed("pods", "seedgpu", "id", "name", "status", "image", "gpu.id", "cost")},
		{name: c + "create-pod (GPU: name, image, gpu, cloud, disk, mounts, ports, env, dataCenterIds)", method: "POST", path: "/v2/pods",
			body:   `{"name":"gpu-mcp4","image":"runpod/pytorch:2","gpu":{"id":"NVIDIA GeForce RTX 4090","count":1},"cloud":"SECURE","disk":20,"mounts":{"persistent":{"size":20,"path":"/workspace"}},"ports":["8888/http","22/tcp"],"env":{"A":"1"},"dataCenterIds":["EU-RO-1"]}`,
			status: 201, save: "mcppod", reads: []string{"id", "name", "status", "image", "gpu.id", "cost", "env.A"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if b := w.lastV2Body("/v2/pods"); !jsonEq(b["mounts"], map[string]any{"persistent": map[string]any{"size": 20.0, "path": "/workspace"}}) {
					t.Errorf("v2 got mounts %v, not the client's", b["mounts"])
				}
			}},
		{name: c + "create-pod (CPU: name, image, cpu)", method: "POST", path: "/v2/pods",
			body:   `{"name":"cpu-mcp4","image":"ubuntu:22.04","cpu":{"id":"cpu3c","vcpuCount":2}}`,
			status: 201, save: "mcpcpu", reads: []string{"id", "status", "cpu.id", "cpu.vcpuCount"}},
		{name: c + "get-pod", method: "GET", path: "/v2/pods/{mcppod}", status: 200,
			reads: []string{"id", "name", "status", "image", "gpu.id", "ports"}},
		{name: c + "list-pods {includeClusterPods}", method: "GET", path: "/v2/pods?includeClusterPods=true", status: 200,
			check: v2Listed("pods", "mcpcpu", "id", "name", "status", "cpu.id")},
		{name: c + "update-pod {name, env}", method: "PATCH", path: "/v2/pods/{mcppod}",
			body: `{"name":"gpu-mcp4b","env":{"B":"2"}}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "gpu-mcp4b")(t, w, r)
				wantField("env", map[string]any{"B": "2"})(t, w, r) // as v2 answers: the pass-through merges nothing
			}},
		{name: c + `pod-action {action: "stop"}`, advance: 30 * time.Second, method: "POST", path: "/v2/pods/{mcppod}/action",
			body: `{"action":"stop"}`, status: 200, check: wantField("status", "EXITED")},
		{name: c + `pod-action {action: "start"}`, method: "POST", path: "/v2/pods/{mcppod}/action",
			body: `{"action":"start"}`, status: 200, reads: []string{"id", "status"}},

		{name: c + "create-template {name, image, ports, env, disk}", method: "POST", path: "/v2/templates",
			body:   `{"name":"tpl-mcp4","image":"alpine:3","ports":["8888/http"],"env":{"K":"v"},"disk":10}`,
			status: 201, save: "mcptpl", reads: []string{"id", "name", "image", "ports", "env.K"}},
		{name: c + "list-templates", method: "GET", path: "/v2/templates", status: 200,
			check: v2Listed("templates", "mcptpl", "id", "name", "image")},
		{name: c + "get-template", method: "GET", path: "/v2/templates/{mcptpl}", status: 200,
			reads: []string{"id", "name", "image", "env"}},
		{name: c + "update-template {name, env}", method: "PATCH", path: "/v2/templates/{mcptpl}",
			body: `{"name":"tpl-mcp4b","env":{"K":"w"}}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "tpl-mcp4b")(t, w, r)
				wantField("env", map[string]any{"K": "w"})(t, w, r)
			}},
		{name: c + "list-public-templates", method: "GET", path: "/v2/catalog/templates", status: 200,
			check: v2Listed("templates", "", "id", "name", "image")},

		{name: c + "create-endpoint {name, image, type, scaling, gpu, workers}", method: "POST", path: "/v2/serverless",
			body:   `{"name":"ep-mcp4","image":"runpod/worker:1","type":"QUEUE","scaling":{"type":"QUEUE_DELAY","queueDelay":4},"gpu":{"pools":["ADA_24"],"count":1},"workers":{"min":0,"max":2}}`,
			status: 201, save: "mcpep", reads: []string{"id", "name", "type", "gpu.pools", "workers", "scaling", "requestUrls.run"}},
		{name: c + "list-endpoints", method: "GET", path: "/v2/serverless", status: 200,
			check: v2Listed("endpoints", "mcpep", "id", "name", "type", "image", "gpu", "workers", "scaling")},
		{name: c + "get-endpoint", method: "GET", path: "/v2/serverless/{mcpep}", status: 200,
			reads: []string{"id", "name", "type", "gpu.pools", "workers", "scaling"}},
		{name: c + "update-endpoint {name, workers}", method: "PATCH", path: "/v2/serverless/{mcpep}",
			body: `{"name":"ep-mcp4b","workers":{"min":0,"max":3}}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "ep-mcp4b")(t, w, r)
				if max := r.json(t)["workers"].(map[string]any)["max"]; max != 3.0 {
					t.Errorf("workers.max %v, want 3", max)
				}
			}},
		{name: c + "update-endpoint {scaling: REQUEST_COUNT}", method: "PATCH", path: "/v2/serverless/{mcpep}",
			body: `{"scaling":{"type":"REQUEST_COUNT","requestCount":3}}`, status: 200,
			check: wantField("scaling", map[string]any{"type": "REQUEST_COUNT", "requestCount": 3.0})},
		// set-endpoint-gpus reads the endpoint, then patches its gpu object.
		{name: c + "set-endpoint-gpus {pools, gpuCount} (reads the endpoint)", method: "GET", path: "/v2/serverless/{mcpep}", status: 200,
			reads: []string{"id", "gpu.pools"}},
		{name: c + "set-endpoint-gpus {pools, gpuCount} (patches gpu)", method: "PATCH", path: "/v2/serverless/{mcpep}",
			body: `{"gpu":{"pools":["ADA_24","AMPERE_24"],"excludedTypes":[],"count":2}}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if gpu, _ := r.json(t)["gpu"].(map[string]any); gpu["count"] != 2.0 || !jsonEq(gpu["pools"], []any{"ADA_24", "AMPERE_24"}) {
					t.Errorf("gpu %v, want pools ADA_24, AMPERE_24 and count 2", gpu)
				}
			}},
		{name: c + "list-endpoint-workers", method: "GET", path: "/v2/serverless/{mcpep}/workers", status: 200,
			reads: []string{"summary", "workers"}},
		{name: c + "list-endpoint-releases", method: "GET", path: "/v2/serverless/{mcpep}/releases", status: 200,
			reads: []string{"releases"}},

		{name: c + "create-network-volume {name, size, dataCenter}", method: "POST", path: "/v2/network-volumes",
			body: `{"name":"vol-mcp4","size":20,"dataCenter":"EU-RO-1"}`, status: 201, save: "mcpvol",
			reads: []string{"id", "name", "size", "dataCenter", "type"}},
		{name: c + "list-network-volumes", method: "GET", path: "/v2/network-volumes", status: 200,
			check: v2Listed("networkVolumes", "mcpvol", "id", "name", "size", "dataCenter")},
		{name: c + "get-network-volume", method: "GET", path: "/v2/network-volumes/{mcpvol}", status: 200,
			reads: []string{"id", "name", "size", "dataCenter"}},
		{name: c + "update-network-volume {name, size}", method: "PATCH", path: "/v2/network-volumes/{mcpvol}",
			body: `{"name":"vol-mcp4b","size":40}`, status: 200,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "vol-mcp4b")(t, w, r)
				wantField("size", 40.0)(t, w, r)
			}},

		{name: c + "create-registry {name, username, password}", method: "POST", path: "/v2/registries",
			body: `{"name":"reg-mcp4","username":"u","password":"p"}`, status: 201, save: "mcpreg", reads: []string{"id", "name"}},
		{name: c + "list-registries", method: "GET", path: "/v2/registries", status: 200,
			check: v2Listed("registries", "mcpreg", "id", "name")},
		{name: c + "get-registry", method: "GET", path: "/v2/registries/{mcpreg}", status: 200, reads: []string{"id", "name"}},
		// v2's own delegations route: a v1 registry id "delegations" is a 404
		// (P9), the v2 route passes through.
		{name: c + "list-delegations", method: "GET", path: "/v2/registries/delegations", status: 200, reads: []string{"delegations"}},

		{name: c + "list-gpu-types", method: "GET", path: "/v2/catalog/gpus", status: 200,
			check: v2Listed("gpus", "", "id", "name", "memory", "price")},
		{name: c + "list-gpu-types {include: [AVAILABILITY], product: SERVERLESS, cloud}", method: "GET",
			path: "/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS&cloud=SECURE", status: 200,
			check: v2Listed("gpus", "", "id", "name", "availability")},
		{name: c + "get-gpu-type {id with spaces, include, product}", method: "GET",
			path: "/v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090?include=AVAILABILITY&product=POD", status: 200,
			reads: []string{"id", "name", "pool", "price"}, check: wantField("id", "NVIDIA GeForce RTX 4090")},
		{name: c + "list-cpu-types", method: "GET", path: "/v2/catalog/cpus", status: 200,
			check: v2Listed("cpus", "", "id", "name", "price")},
		{name: c + "get-cpu-type", method: "GET", path: "/v2/catalog/cpus/cpu3c", status: 200, reads: []string{"id", "name", "price"}},
		{name: c + "list-data-centers {include: [GPU_AVAILABILITY]}", method: "GET", path: "/v2/catalog/datacenters?include=GPU_AVAILABILITY", status: 200,
			check: v2Listed("dataCenters", "", "id", "name", "region")},
		{name: c + "get-data-center {include: [GPU_AVAILABILITY]}", method: "GET", path: "/v2/catalog/datacenters/EU-RO-1?include=GPU_AVAILABILITY", status: 200,
			reads: []string{"id", "name", "region"}},

		{name: c + "list-billing {bucketSize, lastN}", method: "GET", path: "/v2/billing?bucketSize=day&lastN=7", status: 200,
			reads: []string{"metadata", "records"}},
		{name: c + "list-pod-billing {startTime, endTime, bucketSize}", method: "GET",
			path: "/v2/billing/pods?startTime=2026-05-01T00%3A00%3A00Z&endTime=2026-06-01T00%3A00%3A00Z&bucketSize=day", status: 200,
			reads: []string{"metadata", "records"}},
		{name: c + "list-serverless-billing {bucketSize, lastN}", method: "GET", path: "/v2/billing/serverless?bucketSize=day&lastN=7", status: 200,
			reads: []string{"metadata", "records"}},
		{name: c + "list-network-volume-billing {bucketSize, lastN}", method: "GET", path: "/v2/billing/network-volumes?bucketSize=day&lastN=7", status: 200,
			reads: []string{"metadata", "records"}},
		{name: c + "list-cluster-billing {bucketSize, lastN}", method: "GET", path: "/v2/billing/clusters?bucketSize=day&lastN=3", status: 200,
			reads: []string{"metadata", "records"}},
		{name: c + "get-ssh-keys", method: "GET", path: "/v2/account/ssh-keys", status: 200, reads: []string{"keys"}},
		{name: c + "list-clusters", method: "GET", path: "/v2/clusters", status: 200, reads: []string{"clusters"}},

		{name: c + "delete-endpoint", method: "DELETE", path: "/v2/serverless/{mcpep}", status: 204},
		{name: c + "delete-template", method: "DELETE", path: "/v2/templates/{mcptpl}", status: 204},
		{name: c + "delete-network-volume", method: "DELETE", path: "/v2/network-volumes/{mcpvol}", status: 204},
		{name: c + "delete-registry", method: "DELETE", path: "/v2/registries/{mcpreg}", status: 204},
		{name: c + `pod-action {action: "terminate"}`, method: "POST", path: "/v2/pods/{mcpcpu}/action",
			body: `{"action":"terminate"}`, status: 204},
		{name: c + "delete-pod", method: "DELETE", path: "/v2/pods/{mcppod}", status: 204},
	}
}

// clientReleases is every client release the suite replays; each runs in a
// world of its own, its cases in order (later cases use the ids earlier
// ones created). usage lists what the operator's /usage report must show
// afterwards: note codes of the warnings and refusals these clients never
// display (P7a), and, for a client that only uses the /v2 pass-through,
// the operation it is counted under (the key still needs the gateway).
var clientReleases = []struct {
	name  string
	cases func() []clientCase
	usage []string
}{
	{"runpodctl 2.7.2", runpodctl272, []string{translate.CodeResetRefused, translate.CodeRegistryUnset}},
	{"runpodctl 2.7.2 GraphQL", runpodctlGraphQL, nil},
	{"runpod-mcp 1.3.0", func() []clientCase { return runpodMCP("1.3.0") }, []string{translate.CodeReadmeDropped, translate.CodeRegistryUnset}},
	{"runpod-mcp 3.2.0", func() []clientCase { return runpodMCP("3.2.0") }, []string{translate.CodeReadmeDropped, translate.CodeRegistryUnset}},
	{"runpod-mcp 4.0.0", runpodMCP400, []string{usage.PassThrough}},
}

// TestRealClientsWorkEndToEnd replays each client release against the gateway
// in front of v2sim. A case that fails does not stop the ones after it,
// unless a later case needs an id it was to save.
func TestRealClientsWorkEndToEnd(t *testing.T) {
	for _, rel := range clientReleases {
		t.Run(rel.name, func(t *testing.T) {
			w := newClientWorld(t, time.Time{}, nil)
			names := map[string]bool{}
			for _, c := range rel.cases() {
				if names[c.name] {
					t.Fatalf("two cases named %q", c.name)
				}
				names[c.name] = true
				t.Run(c.name, func(t *testing.T) {
					w.t = t
					for _, k := range placeholders(c.path + c.body + "{" + c.pick + "}") {
						if w.ids[k] == "" {
							t.Fatalf("needs the id {%s}, which an earlier case failed to create", k)
						}
					}
					w.run(t, c)
				})
			}
			if len(rel.usage) > 0 {
				t.Run("operator: /usage shows what "+rel.name+" was never shown", func(t *testing.T) {
					resp, err := http.Get(w.admin + "/usage")
					if err != nil {
						t.Fatal(err)
					}
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						t.Fatalf("/usage: %d %s", resp.StatusCode, b)
					}
					for _, code := range rel.usage {
						if !bytes.Contains(b, []byte(`"`+code+`"`)) {
							t.Errorf("/usage does not show %s: %s", code, b)
						}
					}
				})
			}
		})
	}
}

func placeholders(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		k := s[i+1 : i+j]
		if k != "" && !strings.ContainsAny(k, `":,{ `) {
			out = append(out, k)
		}
		s = s[i+j+1:]
	}
	sort.Strings(out)
	return out
}
