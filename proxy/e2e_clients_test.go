package proxy

import (
	"bytes"
	"encoding/json"
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
	// noKey sends the request without any Authorization (runpod-mcp's
	// credential-free GraphQL queries).
	noKey bool
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
	c := &config.Config{UpstreamURL: up.URL, RequestTimeout: 5 * time.Second, KeyHashSecret: "x", CompatMode: "strict", ResetMode: "reject",
		AnonymousRateLimitPerMinute: config.DefaultAnonymousRateLimit}
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
func (w *clientWorld) send(method, path, body string, noKey bool) *e2eResp {
	w.t.Helper()
	if strings.HasPrefix(path, "/v1/") && !strings.HasPrefix(path, "/v1//") && !noKey {
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
	if !noKey {
		req.Header.Set("Authorization", "Bearer k1")
	}
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
	r := w.send(c.method, path, body, c.noKey)
	if r.status >= 500 && c.status < 500 {
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

// acceptedUnchecked: a soft constraint v2 cannot check was accepted with a
// warning naming each field (P1 of 2026-12-04).
func acceptedUnchecked(fields ...string) func(*testing.T, *clientWorld, *e2eResp) {
	return func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		got := strings.Join(r.header.Values("X-Compat-Warning"), " | ")
		for _, f := range fields {
			if !strings.Contains(got, f+" was accepted but not guaranteed") {
				t.Errorf("X-Compat-Warning %q does not name %s as accepted unchecked", got, f)
			}
		}
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

// clientReleases is every client release the suite replays; each runs in a
// world of its own, its cases in order (later cases use the ids earlier
// ones created). usage lists what the operator's /usage report must show
// afterwards: note codes of the warnings and refusals these clients never
// display (P7a), and, for a client that only uses the /v2 pass-through,
// the operation it is counted under (the key still needs the gateway).
//
// cfg, when set, is the operator's configuration the release needs beyond
// the defaults (a field_policy), as its COMPATIBILITY.md row says.
var clientReleases = []struct {
	name  string
	cases func() []clientCase
	usage []string
	cfg   func(*config.Config)
}{
	{name: "runpodctl 2.7.2", cases: runpodctl272, usage: []string{translate.CodeResetRefused, translate.CodeRegistryUnset}},
	{name: "runpodctl 2.7.2 GraphQL", cases: runpodctlGraphQL},
	{name: "runpod-mcp 1.3.0", cases: func() []clientCase { return runpodMCP("1.3.0") }, usage: []string{translate.CodeRegistryUnset}},
	{name: "runpod-mcp 3.2.0", cases: func() []clientCase { return runpodMCP("3.2.0") }, usage: []string{translate.CodeRegistryUnset, translate.CodeUnknownFields}},
	{name: "runpod-mcp 3.2.0 keyless GraphQL", cases: runpodMCPKeylessGraphQL, usage: []string{usage.Anonymous}},
	{name: "runpod-mcp 4.0.0", cases: runpodMCP400, usage: []string{usage.PassThrough}},
	{name: "Terraform provider (official) 23c31e3", cases: terraformOfficial,
		usage: []string{translate.CodeGPUTypeChosen, translate.CodeUnknownFields, translate.CodeTemplateIDUnknown}},
	{name: "Terraform provider (third-party) v1.0.1", cases: terraformThirdParty},
	{name: "bash CLI rp 0.2.0", cases: bashCLI, usage: []string{translate.CodeGPUTypeChosen, translate.CodeTemplateInlined, translate.CodeUnknownFields, translate.CodeUntranslatableRefused}},
	{name: "Go SDK cozy-creator/runpod-go-sdk ee6dacf", cases: goSDK, usage: []string{translate.CodeStockOut, translate.CodeUnknownFields, translate.CodeUntranslatableRefused}},
	{name: "Kubernetes virtual kubelet d9b7e16 (field_policy minRAMPerGPU: drop)", cases: virtualKubelet, usage: []string{translate.CodeLenientDropped, translate.CodeTemplateInlined},
		cfg: func(c *config.Config) { c.FieldPolicy = map[string]string{"minRAMPerGPU": "drop"} }},
	{name: "Kubernetes virtual kubelet d9b7e16 (defaults)", cases: virtualKubeletStrict, usage: []string{translate.CodeSoftConstraintUnchecked, translate.CodeTemplateInlined}},
	{name: "Crossplane provider v0.2.0", cases: crossplane},
	{name: "workflow nodes: ComfyUI runpod-agentic-nodes 648eee5", cases: comfyUINodes, usage: []string{translate.CodeUnknownFields}},
	{name: "ML job orchestrator: Transformer Lab 0176863", cases: transformerLab, usage: []string{translate.CodeUnknownFields}},
	{name: "PHP SDK laravel-runpod 8e5be5e (field_policy placement minimums: drop)", cases: laravelRunPod, usage: []string{translate.CodeLenientDropped, translate.CodeGPUTypeChosen},
		cfg: func(c *config.Config) {
			c.FieldPolicy = map[string]string{"minRAMPerGPU": "drop", "minVCPUPerGPU": "drop"}
		}},
}

// TestRealClientsWorkEndToEnd replays each client release against the gateway
// in front of v2sim. A case that fails does not stop the ones after it,
// unless a later case needs an id it was to save.
func TestRealClientsWorkEndToEnd(t *testing.T) {
	for _, rel := range clientReleases {
		t.Run(rel.name, func(t *testing.T) {
			w := newClientWorld(t, time.Time{}, rel.cfg)
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
