package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/internal/speccheck"
	"github.com/v1gateway/v1gateway/podjson"
)

// ---------------------------------------------------------------------------
// Fixtures and helpers

var testNow = time.Date(2026, 3, 13, 20, 0, 30, 0, time.UTC)

// v2PodFixture returns a valid v2 Pod (GPU, RUNNING, persistent mount) as a
// map, for tests to modify.
func v2PodFixture(id string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(`{
		"id":"`+id+`","name":"my pod","status":"RUNNING","actions":["stop","restart","terminate"],
		"image":"runpod/pytorch:2","args":"python -m http.server 'a b'","disk":50,
		"mounts":{"persistent":{"size":20,"path":"/workspace"}},
		"ports":["8888/http","22/tcp"],"env":{"A":"1"},"registry":null,"cloud":"SECURE",
		"dataCenterId":"US-TX-3","cudaVersion":"12.8","ssh":{"proxy":null,"direct":null},
		"template":null,"cost":0.74,"locked":false,
		"runtime":{"uptime":10,"ports":[
			{"private":8888,"public":null,"type":"http","ip":null},
			{"private":22,"public":10341,"type":"tcp","ip":"100.65.0.119"}]},
		"createdAt":"2026-03-13T20:00:00Z","startedAt":"2026-03-13T20:01:00Z",
		"globalNetworking":{"enabled":false},"gpu":{"id":"NVIDIA A40","count":1}}`), &m); err != nil {
		panic(err)
	}
	return m
}

// pod encodes a v2 pod fixture after applying mods.
func pod(id string, mods ...func(m map[string]any)) string {
	m := v2PodFixture(id)
	for _, f := range mods {
		f(m)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func set(k string, v any) func(map[string]any) {
	return func(m map[string]any) {
		if v == nil {
			m[k] = nil
			return
		}
		var x any
		if s, ok := v.(string); ok && (strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")) {
			if json.Unmarshal([]byte(s), &x) == nil {
				m[k] = x
				return
			}
		}
		m[k] = v
	}
}

// cpuPod turns the fixture into a CPU pod.
func cpuPod(m map[string]any) {
	delete(m, "gpu")
	m["cpu"] = map[string]any{"id": "cpu3c", "vcpuCount": 4, "memory": 8}
	m["mounts"] = map[string]any{}
	m["cudaVersion"] = nil
}

func podList(pods ...string) string { return `{"pods":[` + strings.Join(pods, ",") + `]}` }

func mustOp(t testing.TB, name string) *Operation {
	t.Helper()
	op, ok := Lookup(name)
	if !ok || op.Plan == nil {
		t.Fatalf("operation %s has no plan", name)
	}
	return op
}

type runOpts struct {
	params  map[string]string
	query   string
	body    string
	options Options
	ctx     context.Context
	facts   Facts // Request.Facts (facts_test.go)
}

// run performs operation name against a scripted caller and checks that
// every scripted call was made.
func run(t *testing.T, name string, o runOpts, script ...step) (*Result, *fakeCaller) {
	t.Helper()
	op := mustOp(t, name)
	f := newFake(t, script...)
	q, err := url.ParseQuery(o.query)
	if err != nil {
		t.Fatal(err)
	}
	if o.options.Now == nil {
		o.options.Now = func() time.Time { return testNow }
	}
	ctx := o.ctx
	if ctx == nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
	}
	res := op.Plan(ctx, &Request{Op: op, Params: o.params, Query: q, Body: []byte(o.body), Options: o.options, Facts: o.facts}, f)
	if res == nil {
		t.Fatal("plan returned nil")
	}
	f.done()
	checkV1Answer(t, op, o.params, res)
	return res, f
}

// checkV1Answer validates a v1 answer: 2xx bodies against the v1 contract
// (start/stop/restart/reset: against the Pod schema, since v1 documented no
// body there), errors as {"message"}.
func checkV1Answer(t *testing.T, op *Operation, params map[string]string, res *Result) {
	t.Helper()
	if res.Status >= 400 {
		var e struct {
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(res.Body, &e); err != nil || e.Message == nil || *e.Message == "" {
			t.Errorf("error answer %d is not a v1 {\"message\"}: %s", res.Status, res.Body)
		}
		return
	}
	v1, _ := loadSpecs(t)
	if v1 == nil {
		return
	}
	if op.Kind == KindAction {
		if err := v1.ValidateSchema("#/components/schemas/Pod", res.Body); err != nil && len(res.Body) > 0 {
			t.Errorf("%s answer is not a v1 Pod: %v\n%s", op.Name, err, res.Body)
		}
		return
	}
	path := "/v1" + op.Path
	path = strings.ReplaceAll(path, "{podId}", url.PathEscape(params["podId"]))
	h := http.Header{}
	if res.Body != nil {
		h.Set("Content-Type", "application/json")
	}
	if err := v1.ValidateResponse(op.Method, path, res.Status, h, res.Body); err != nil {
		t.Errorf("%s answer breaks the v1 contract: %v\n%s", op.Name, err, res.Body)
	}
}

// jsonEqual compares two JSON documents semantically.
func jsonEqual(t *testing.T, what string, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: invalid JSON %q: %v", what, got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: invalid wanted JSON %q: %v", what, want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, got, want)
	}
}

func decodeV1(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("answer %q: %v", body, err)
	}
	return m
}

func message(t *testing.T, res *Result) string {
	t.Helper()
	var e V1Error
	if err := json.Unmarshal(res.Body, &e); err != nil {
		t.Fatalf("not an error body: %q", res.Body)
	}
	return e.Message
}

func wantStatus(t *testing.T, res *Result, status int) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status %d, want %d; body %s", res.Status, status, res.Body)
	}
}

func wantMessage(t *testing.T, res *Result, parts ...string) {
	t.Helper()
	msg := message(t, res)
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message %q should contain %q", msg, p)
		}
	}
}

// withSleep replaces Sleep for the test, recording the waits.
func withSleep(t *testing.T) *[]time.Duration {
	var waits []time.Duration
	old := Sleep
	Sleep = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	}
	t.Cleanup(func() { Sleep = old })
	return &waits
}

const preList = `{"pods":[]}`

// steps shared by create tests.
func listStep(body string) step {
	return step{method: "GET", path: "/v2/pods", status: 200, body: body}
}

// lookupStep is the pod list read after a lost create reply, answered at
// testNow on v2's clock (its Date header).
func lookupStep(body string) step {
	return lookupAt(body, testNow)
}

// lookupAt is lookupStep with v2's clock at v2now (Date header).
func lookupAt(body string, v2now time.Time) step {
	s := listStep(body)
	s.header = http.Header{"Date": {v2now.UTC().Format(http.TimeFormat)}}
	return s
}
func createStep(body string) step {
	return step{method: "POST", path: "/v2/pods", status: 201, body: body}
}
func createFail(status int, detail string) step {
	return step{method: "POST", path: "/v2/pods", status: status, body: problem(status, detail)}
}

// newPod is the v2 answer to a create: PROVISIONING, no runtime yet.
func newPod(id string, mods ...func(map[string]any)) string {
	base := []func(map[string]any){
		set("status", "PROVISIONING"), set("actions", `["stop","terminate"]`), set("runtime", nil),
		set("startedAt", nil), set("dataCenterId", nil), set("cost", 0.0), set("createdAt", "2026-03-13T20:00:30Z"),
		set("args", ""), set("env", `{}`), set("cudaVersion", nil),
	}
	return pod(id, append(base, mods...)...)
}

type cannedCaller struct{ a *V2Answer }

func (c cannedCaller) Call(context.Context, V2Call) (*V2Answer, error) { return c.a, nil }

func hundredPods() []byte {
	var pods []string
	for i := 0; i < 100; i++ {
		id := fmt.Sprintf("pod%03d", i)
		if i%4 == 3 {
			pods = append(pods, pod(id, cpuPod))
		} else {
			pods = append(pods, pod(id, set("env", `{"JUPYTER_PASSWORD":"secret","HF_TOKEN":"hf_xxxxxxxxxxxxxxxxxxxx","MODEL":"llama-3-8b"}`)))
		}
	}
	return []byte(podList(pods...))
}

// ---------------------------------------------------------------------------
// R-Pod

// R-Pod carries createdAt and cloudType (not in v1's document, but real v1
// answered them: runpodctl's pod list --since filters on createdAt), the
// names runpodctl 2.7 prints (imageName, gpuTypeId, gpuCount: the values of
// image and gpu again), and every other key of v1's Pod (issue 37): v1's
// value where it is certain for a pod in v2 (dockerEntrypoint [],
// interruptible false, volumeEncrypted false without a volume), null where
// v2 has no value (a GPU pod's cpuFlavorId, vcpuCount and memoryInGb, the
// host machine, savings plans, a worker's keys on a pod).
func TestRPod(t *testing.T) {
	res, _ := run(t, "GetPod", runOpts{params: map[string]string{"podId": "p1"}},
		step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("registry", "reg1"), set("template", "tpl9"))})
	wantStatus(t, res, 200)
	const never = `"machineId":null,"lastStatusChange":null,"consumerUserId":null,"savingsPlans":null,"endpointId":null,"aiApiId":null,"slsVersion":null`
	jsonEqual(t, "R-Pod", res.Body, `{
		"id":"p1","name":"my pod","image":"runpod/pytorch:2","containerDiskInGb":50,"containerRegistryAuthId":"reg1","dockerEntrypoint":[],
		"dockerStartCmd":["python","-m","http.server","a b"],"env":{"A":"1"},"ports":["8888/http","22/tcp"],
		"desiredStatus":"RUNNING","locked":false,"interruptible":false,"costPerHr":0.74,"adjustedCostPerHr":0.74,
		"gpu":{"id":"NVIDIA A40","count":1},"cpuFlavorId":null,"vcpuCount":null,"memoryInGb":null,
		"volumeInGb":20,"volumeMountPath":"/workspace","volumeEncrypted":null,
		"portMappings":{"22":10341},"publicIp":"100.65.0.119","lastStartedAt":"2026-03-13T20:01:00Z",
		"createdAt":"2026-03-13T20:00:00Z","cloudType":"SECURE",
		"imageName":"runpod/pytorch:2","gpuTypeId":"NVIDIA A40","gpuCount":1,`+never+`,"templateId":"tpl9"}`)

	statuses := map[string]string{"PROVISIONING": "RUNNING", "STARTING": "RUNNING", "RUNNING": "RUNNING",
		"EXITED": "EXITED", "ERROR": "EXITED", "TERMINATED": "TERMINATED"}
	for v2, v1 := range statuses {
		p, _ := podjson.DecodePod([]byte(pod("p", set("status", v2))))
		if got := podjson.V1PodFrom(p).DesiredStatus; string(got) != v1 {
			t.Errorf("status %s → %q, want %s", v2, got, v1)
		}
	}

	// A stopped CPU pod with a network volume, no runtime, unsplittable args.
	p, _ := podjson.DecodePod([]byte(pod("c1", cpuPod, set("status", "EXITED"), set("runtime", nil), set("startedAt", nil), set("cloud", "COMMUNITY"),
		set("args", `echo "unterminated`), set("mounts", `{"network":[{"volumeId":"vol1","path":"/vol"}]}`), set("cost", 0))))
	b, _ := json.Marshal(podjson.V1PodFrom(p))
	jsonEqual(t, "CPU pod", b, `{
		"id":"c1","name":"my pod","image":"runpod/pytorch:2","containerDiskInGb":50,"containerRegistryAuthId":null,"dockerEntrypoint":[],
		"dockerStartCmd":null,"env":{"A":"1"},"ports":["8888/http","22/tcp"],
		"desiredStatus":"EXITED","locked":false,"interruptible":false,"costPerHr":0,"adjustedCostPerHr":0,
		"gpu":null,"cpuFlavorId":"cpu3c","vcpuCount":4,"memoryInGb":8,
		"volumeInGb":0,"volumeMountPath":"/vol","volumeEncrypted":null,"portMappings":{},"publicIp":null,"lastStartedAt":null,
		"createdAt":"2026-03-13T20:00:00Z","cloudType":"COMMUNITY","imageName":"runpod/pytorch:2",`+never+`,"templateId":null}`)

	// No volume at all: nothing encrypted, no mount path; a status v2 may
	// add later: null.
	p, _ = podjson.DecodePod([]byte(pod("n1", set("mounts", `{}`), set("status", "HIBERNATING"))))
	b, _ = json.Marshal(podjson.V1PodFrom(p))
	var got map[string]json.RawMessage
	_ = json.Unmarshal(b, &got)
	for k, want := range map[string]string{"volumeInGb": "0", "volumeMountPath": "null", "volumeEncrypted": "false", "desiredStatus": "null"} {
		if string(got[k]) != want {
			t.Errorf("pod without a volume: %s is %s, want %s", k, got[k], want)
		}
	}
}

// Every key of v1's Pod schema is in every pod answer (issue 37: v1 sent
// each one, and clients tell an absent key from a null one), on each
// operation that answers a pod and on both paths of the list (streamed and
// decoded), for a GPU pod, a CPU pod and a pod of unknown template;
// machine and networkVolume with their include*, as in v1 (networkVolume
// null for a pod without one).
func TestEveryPodAnswerHasEveryKeyOfV1sPod(t *testing.T) {
	v1, _ := loadSpecs(t)
	if v1 == nil {
		t.Skip("no v1 OpenAPI document")
	}
	keys := v1SchemaKeys(t, "Pod")
	check := func(what string, body []byte, included ...string) {
		t.Helper()
		var pods []map[string]json.RawMessage
		if body[0] == '[' {
			if err := json.Unmarshal(body, &pods); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		} else {
			var p map[string]json.RawMessage
			if err := json.Unmarshal(body, &p); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			pods = append(pods, p)
		}
		if len(pods) == 0 {
			t.Fatalf("%s: no pod", what)
		}
		for _, p := range pods {
			for _, k := range keys {
				if _, ok := p[k]; !ok && (k != "machine" && k != "networkVolume" || slices.Contains(included, k)) {
					t.Errorf("%s: pod %s has no %s", what, p["id"], k)
				}
			}
		}
	}
	params := map[string]string{"podId": "p1"}
	one := pod("p1", set("template", nil))
	list := podList(pod("p1", set("template", nil)), pod("c1", cpuPod, set("mounts", `{}`), set("runtime", nil), set("startedAt", nil)))
	res, _ := run(t, "GetPod", runOpts{params: params}, step{method: "GET", path: "/v2/pods/p1", status: 200, body: one})
	check("GetPod", res.Body)
	res, _ = run(t, "ListPods", runOpts{}, step{method: "GET", path: "/v2/pods", status: 200, body: list})
	check("ListPods", res.Body)
	res, _ = run(t, "ListPods", runOpts{query: "includeMachine=true&includeNetworkVolume=true"},
		step{method: "GET", path: "/v2/pods", status: 200, body: podList(pod("p1", set("mounts", `{"network":[{"volumeId":"vol1","path":"/workspace"}]}`)),
			pod("c1", cpuPod, set("mounts", `{}`)))},
		step{method: "GET", path: "/v2/network-volumes", status: 200, body: `{"networkVolumes":[{"id":"vol1","name":"data","size":100,"dataCenter":"EU-RO-1","type":"STANDARD"}]}`},
		step{method: "GET", path: "/v2/catalog/gpus", status: 200, body: gpuCatalog})
	check("ListPods with includes", res.Body, "machine", "networkVolume") // null for the pod without one
	res, _ = run(t, "StartPod", runOpts{params: params}, step{method: "POST", path: "/v2/pods/p1/action", status: 200, body: one})
	check("StartPod", res.Body)
	res, _ = run(t, "UpdatePod", runOpts{params: params, body: `{"name":"x"}`},
		step{method: "PATCH", path: "/v2/pods/p1", status: 200, body: one})
	check("UpdatePod", res.Body)
}

// v1SchemaKeys is the names of the properties of a schema of v1's document.
func v1SchemaKeys(t *testing.T, schema string) []string {
	t.Helper()
	dir, err := speccheck.SpecsDir()
	if err != nil {
		t.Skip("no v1 OpenAPI document")
	}
	raw, err := os.ReadFile(filepath.Join(dir, "v1.openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range doc.Components.Schemas[schema].Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		t.Fatalf("v1's %s has no properties", schema)
	}
	return keys
}

// ---------------------------------------------------------------------------
// #5 GetPod

func TestGetPod(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	t.Run("404 stays 404", func(t *testing.T) {
		res, _ := run(t, "GetPod", runOpts{params: params}, step{method: "GET", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")})
		wantStatus(t, res, 404)
		wantMessage(t, res, "pod not found")
	})
	t.Run("includeNetworkVolume reads the one volume", func(t *testing.T) {
		res, _ := run(t, "GetPod", runOpts{params: params, query: "includeNetworkVolume=true&includeWorkers=true"},
			step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("mounts", `{"network":[{"volumeId":"vol1","path":"/w"}]}`))},
			step{method: "GET", path: "/v2/network-volumes/vol1", status: 200, body: `{"id":"vol1","name":"data","size":100,"dataCenter":"EU-RO-1","type":"STANDARD"}`})
		wantStatus(t, res, 200)
		if nv := decodeV1(t, res.Body)["networkVolume"]; nv == nil {
			t.Error("no networkVolume")
		}
	})
	t.Run("invalid include", func(t *testing.T) {
		res, _ := run(t, "GetPod", runOpts{params: params, query: "includeMachine=maybe"})
		wantStatus(t, res, 400)
	})
	t.Run("ids are percent-encoded", func(t *testing.T) {
		res, _ := run(t, "GetPod", runOpts{params: map[string]string{"podId": "a..b c"}},
			step{method: "GET", path: "/v2/pods/a..b%20c", status: 404, body: problem(404, "pod not found")})
		wantStatus(t, res, 404)
	})
	t.Run("ids with a slash or backslash are never forwarded (P9)", func(t *testing.T) {
		for _, id := range []string{"a/../b", `a\b`, "/", `..\..`} {
			res, f := run(t, "GetPod", runOpts{params: map[string]string{"podId": id}})
			wantStatus(t, res, 404)
			if len(f.calls) != 0 {
				t.Errorf("%q forwarded", id)
			}
		}
	})
	t.Run("invalid id", func(t *testing.T) {
		res, _ := run(t, "GetPod", runOpts{params: map[string]string{"podId": ".."}})
		wantStatus(t, res, 404)
	})
}

// ---------------------------------------------------------------------------
// #6/#8 UpdatePod

// v2 injects PUBLIC_KEY into the env of pods started with SSH; a v1 env
// update replaces the whole env. The pod's key is kept unless the new env
// sets one, and an explicit "" removes it (issue 14, item 6).
func TestUpdatePodKeepsPublicKey(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	withKey := step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("env", `{"A":"1","PUBLIC_KEY":"ssh-ed25519 AAAA me"}`))}
	noKey := step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1")}
	patched := step{method: "PATCH", path: "/v2/pods/p1", status: 200, body: pod("p1")}
	tests := []struct {
		name   string
		body   string
		script []step
		want   string // PATCH body
		kept   bool   // public_key_kept warning
	}{
		{"an env without PUBLIC_KEY keeps the pod's key", `{"env":{"B":"2"}}`, []step{withKey, patched},
			`{"env":{"B":"2","PUBLIC_KEY":"ssh-ed25519 AAAA me"}}`, true},
		{"an empty env keeps it too", `{"env":{},"name":"x"}`, []step{withKey, patched},
			`{"name":"x","env":{"PUBLIC_KEY":"ssh-ed25519 AAAA me"}}`, true},
		{"a pod without a key gets none", `{"env":{"B":"2"}}`, []step{noKey, patched}, `{"env":{"B":"2"}}`, false},
		{"a new key replaces it without a pre-read", `{"env":{"PUBLIC_KEY":"ssh-rsa new"}}`, []step{patched}, `{"env":{"PUBLIC_KEY":"ssh-rsa new"}}`, false},
		{"an explicit empty key removes it", `{"env":{"B":"2","PUBLIC_KEY":""}}`, []step{patched}, `{"env":{"B":"2","PUBLIC_KEY":""}}`, false},
		{"no env, no pre-read", `{"name":"x"}`, []step{patched}, `{"name":"x"}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "UpdatePod", runOpts{params: params, body: tc.body}, tc.script...)
			wantStatus(t, res, 200)
			jsonEqual(t, "PATCH", []byte(f.bodies("PATCH", "/v2/pods/p1")[0]), tc.want)
			kept := slices.ContainsFunc(res.Notes, func(n Note) bool { return n.Code == CodePublicKeyKept })
			if kept != tc.kept {
				t.Errorf("public_key_kept %v, want %v (warnings %q)", kept, tc.kept, res.Warnings)
			}
			if kept && strings.Contains(strings.Join(res.Warnings, " "), "AAAA") {
				t.Errorf("the warning shows the key: %q", res.Warnings)
			}
		})
	}
}

func TestUpdatePod(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	get := step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1")}
	netPod := step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("mounts", `{"network":[{"volumeId":"vol1","path":"/workspace"}]}`))}
	noMount := step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("mounts", `{}`))}
	patched := step{method: "PATCH", path: "/v2/pods/p1", status: 200, body: pod("p1")}
	tests := []struct {
		name   string
		body   string
		script []step
		want   string // PATCH body; "" = no PATCH
		status int
		parts  []string
	}{
		{"only what was sent, no v1 defaults", `{"name":"renamed"}`, []step{patched}, `{"name":"renamed"}`, 200, nil},
		{"every field", `{"name":"n","imageName":"i","containerDiskInGb":60,"containerRegistryAuthId":"r","dockerStartCmd":["a","b c"],"env":{"K":"V"},"ports":["80/http"],"globalNetworking":true,"locked":true}`,
			[]step{get, patched}, `{"name":"n","image":"i","disk":60,"registry":"r","args":"a 'b c'","env":{"K":"V"},"ports":["80/http"],"globalNetworking":true,"locked":true}`, 200, nil},
		{"clearing values", `{"dockerStartCmd":[],"env":{},"ports":[],"containerRegistryAuthId":null}`, []step{get, patched}, `{"args":"","env":{},"ports":[],"registry":null}`, 200, nil},
		{"volume grows: GET first, full entry", `{"volumeInGb":50}`, []step{get, patched}, `{"mounts":{"persistent":{"size":50,"path":"/workspace"}}}`, 200, nil},
		{"mount path moves", `{"volumeMountPath":"/data"}`, []step{get, patched}, `{"mounts":{"persistent":{"size":20,"path":"/data"}}}`, 200, nil},
		{"network mount path", `{"volumeMountPath":"/data"}`, []step{netPod, patched}, `{"mounts":{"network":[{"volumeId":"vol1","path":"/data"}]}}`, 200, nil},
		{"shrink refused", `{"volumeInGb":10}`, []step{get}, "", 400, []string{"shrinking"}},
		{"kind change refused", `{"volumeInGb":50}`, []step{netPod}, "", 400, []string{"network volume"}},
		{"no mount to change", `{"volumeMountPath":"/x"}`, []step{noMount}, "", 400, []string{"without a volume"}},
		{"volume removal refused", `{"volumeInGb":0}`, []step{get}, "", 400, []string{"volumeInGb", "remove"}},
		{"no volume asked of a pod without one: nothing to change", `{"volumeInGb":0}`, []step{noMount}, "", 200, nil},
		{"volume below minimum", `{"volumeInGb":5}`, nil, "", 400, []string{"volumeInGb"}},
		{"empty update answers the pod without a PATCH", `{}`, []step{get}, "", 200, nil},
		{"defaults of untranslatable fields only", `{"dockerEntrypoint":[]}`, []step{get}, "", 200, nil},
		{"entrypoint refused", `{"dockerEntrypoint":["sh"],"name":"x"}`, nil, "", 400, []string{"dockerEntrypoint"}},
		{"wrong type", `{"locked":1}`, nil, "", 400, []string{"locked: must be a boolean"}},
		{"empty strings leave the pod unchanged", `{"name":"","imageName":"","volumeMountPath":"","containerRegistryAuthId":"","dockerArgs":""}`, []step{get}, "", 200, nil},
		{"malformed", `{"name"`, nil, "", 400, []string{"not valid JSON"}},
		{"no body", ``, nil, "", 400, []string{"request body is required"}},
		{"404 becomes 400", `{"name":"x"}`, []step{{method: "PATCH", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")}}, "*", 400, []string{"pod not found"}},
		{"409 becomes 400", `{"name":"x"}`, []step{{method: "PATCH", path: "/v2/pods/p1", status: 409, body: problem(409, "pod belongs to a cluster")}}, "*", 400, []string{"cluster"}},
		{"422 becomes 400 with errors", `{"name":"x"}`, []step{{method: "PATCH", path: "/v2/pods/p1", status: 422, body: problem(422, "Request validation failed.", "$.name: bad")}}, "*", 400, []string{"Request validation failed: name: bad"}},
		{"404 on the pre-read becomes 400", `{"volumeInGb":50}`, []step{{method: "GET", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")}}, "", 400, nil},
	}
	for _, op := range []string{"UpdatePod", "UpdatePodViaPost"} {
		for _, tc := range tests {
			t.Run(op+"/"+tc.name, func(t *testing.T) {
				res, f := run(t, op, runOpts{params: params, body: tc.body}, tc.script...)
				wantStatus(t, res, tc.status)
				if tc.parts != nil {
					wantMessage(t, res, tc.parts...)
				}
				patches := f.bodies("PATCH", "/v2/pods/p1")
				switch {
				case tc.want == "" && len(patches) > 0:
					t.Errorf("unexpected PATCH %s", patches[0])
				case tc.want != "" && tc.want != "*":
					if len(patches) != 1 {
						t.Fatalf("%d PATCHes", len(patches))
					}
					jsonEqual(t, "PATCH body", []byte(patches[0]), tc.want)
				}
			})
		}
	}
	t.Run("lenient drops the entrypoint", func(t *testing.T) {
		res, _ := run(t, "UpdatePod", runOpts{params: params, body: `{"dockerEntrypoint":["sh"],"name":"x","foo":1}`, options: Options{Lenient: true}}, patched)
		wantStatus(t, res, 200)
		if !reflect.DeepEqual(res.Dropped, []string{"dockerEntrypoint"}) || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "foo") {
			t.Errorf("dropped %v warnings %v", res.Dropped, res.Warnings)
		}
	})
}

// Real clients send comma-joined ports, with spaces, in one array element
// or one string; each becomes its own v2 port (issue 14, item 7). Pods
// (create and update) and templates share the rule.
func TestPortsAreNormalised(t *testing.T) {
	tests := []struct {
		name, ports, want string
	}{
		{"comma-joined element", `["8888/http,22/tcp"]`, `["8888/http","22/tcp"]`},
		{"a space after the comma", `["8888/http, 22/tcp"]`, `["8888/http","22/tcp"]`},
		{"a string with a space", `"8888/http, 22/tcp"`, `["8888/http","22/tcp"]`},
		{"padded elements", `[" 8888/http ","22/tcp"]`, `["8888/http","22/tcp"]`},
		{"a trailing comma", `["8888/http,"]`, `["8888/http"]`},
		{"a port listed twice once", `["22/tcp,8888/http","22/tcp"]`, `["22/tcp","8888/http"]`},
		{"already separate", `["8888/http","22/tcp"]`, `["8888/http","22/tcp"]`},
		{"none", `[]`, `[]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, r := parsePodUpdate([]byte(`{"ports":` + tc.ports + `}`))
			if u == nil {
				t.Fatal(message(t, r))
			}
			got, _ := json.Marshal(*u.body.Ports)
			jsonEqual(t, "pod update ports", got, tc.want)
			res, f := run(t, "UpdateTemplate", runOpts{params: map[string]string{"templateId": "t1"}, body: `{"ports":` + tc.ports + `}`},
				step{method: "PATCH", path: "/v2/templates/t1", status: 200, body: tpl("t1")})
			wantStatus(t, res, 200)
			var sent struct{ Ports json.RawMessage }
			_ = json.Unmarshal([]byte(f.bodies("PATCH", "/v2/templates/t1")[0]), &sent)
			jsonEqual(t, "template ports", sent.Ports, tc.want)
		})
	}
	if _, r := parsePodUpdate([]byte(`{"ports":["8888/http"," "]}`)); r == nil || !strings.Contains(message(t, r), "ports: element 1 is empty") {
		t.Errorf("an empty element: %v", r)
	}
}

// ---------------------------------------------------------------------------
// #7 DeletePod

func TestDeletePod(t *testing.T) {
	params := map[string]string{"podId": "p1"}
	for _, tc := range []struct {
		s      step
		status int
	}{
		{step{method: "DELETE", path: "/v2/pods/p1", status: 204}, 204},
		{step{method: "DELETE", path: "/v2/pods/p1", status: 404, body: problem(404, "pod not found")}, 400},
		{step{method: "DELETE", path: "/v2/pods/p1", status: 409, body: problem(409, "cluster member")}, 400},
		{step{method: "DELETE", path: "/v2/pods/p1", status: 401, body: problem(401, "bad token")}, 401},
		{step{method: "DELETE", path: "/v2/pods/p1", err: errors.New("refused")}, 502},
	} {
		t.Run(fmt.Sprint(tc.s.status), func(t *testing.T) {
			res, _ := run(t, "DeletePod", runOpts{params: params}, tc.s)
			wantStatus(t, res, tc.status)
			if tc.status == 204 && res.Body != nil {
				t.Errorf("204 with a body %q", res.Body)
			}
		})
	}
}
