package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
)

// What v2 forgets, the gateway remembers (P8): plans against a scripted
// v2 and a fake fact store.

// fakeFacts is an in-memory Facts that records what plans asked.
type fakeFacts struct {
	mu      sync.Mutex
	m       map[string]Fact // kind + "/" + id
	fail    error           // every call fails with it
	lookups [][]string      // ids of each Lookup
	forgot  []string
}

func newFakeFacts(kv ...string) *fakeFacts {
	f := &fakeFacts{m: map[string]Fact{}}
	for i := 0; i+2 < len(kv); i += 3 {
		f.m[kv[i]+"/"+kv[i+1]] = Fact{TemplateID: kv[i+2], Created: true}
	}
	return f
}

func (f *fakeFacts) Lookup(_ context.Context, kind string, ids []string) (map[string]Fact, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lookups = append(f.lookups, append([]string(nil), ids...))
	if f.fail != nil {
		return nil, f.fail
	}
	out := map[string]Fact{}
	for _, id := range ids {
		if v, ok := f.m[kind+"/"+id]; ok {
			out[id] = v
		}
	}
	return out, nil
}

func (f *fakeFacts) Record(_ context.Context, kind, id string, fact Fact) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return f.fail
	}
	if old, ok := f.m[kind+"/"+id]; ok && old.Created {
		fact.Created = true
	}
	f.m[kind+"/"+id] = fact
	return nil
}

func (f *fakeFacts) Forget(_ context.Context, kind, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forgot = append(f.forgot, kind+"/"+id)
	delete(f.m, kind+"/"+id)
	return f.fail
}

func (f *fakeFacts) TemplateEndpoints(_ context.Context, tpl string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return nil, f.fail
	}
	var out []string
	for k, v := range f.m {
		if id, ok := strings.CutPrefix(k, FactEndpoint+"/"); ok && v.TemplateID == tpl {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (f *fakeFacts) get(kind, id string) (Fact, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.m[kind+"/"+id]
	return v, ok
}

func decodeList(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var l []map[string]any
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatalf("answer %s: %v", b, err)
	}
	return l
}

func TestPodTemplateIDComesFromV2FirstThenFromTheStore(t *testing.T) {
	tests := []struct {
		name     string
		v2       string // v2's template of p1
		stored   string // the store's templateId of p1 ("" none)
		storeErr error
		want     any
	}{
		{"v2 gives none, the store knows", "", "tpl1", nil, "tpl1"},
		{"v2 gives one: v2's wins", "tpl9", "tpl1", nil, "tpl9"},
		{"neither: nothing invented", "", "", nil, nil},
		{"the store fails: answered as v2 gives it", "", "tpl1", errors.New("down"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			facts := newFakeFacts()
			if tc.stored != "" {
				facts = newFakeFacts(FactPod, "p1", tc.stored)
			}
			facts.fail = tc.storeErr
			var tpl any
			if tc.v2 != "" {
				tpl = tc.v2
			}
			res, _ := run(t, "GetPod", runOpts{params: map[string]string{"podId": "p1"}, facts: facts},
				step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("template", tpl))})
			wantStatus(t, res, 200)
			if got := decodeV1(t, res.Body)["templateId"]; got != tc.want {
				t.Errorf("templateId %v, want %v", got, tc.want)
			}
			if tc.v2 != "" && len(facts.lookups) != 0 {
				t.Errorf("the store was asked about a pod v2 gave a template: %v", facts.lookups)
			}
		})
	}
}

func TestPodListFillsTemplateIDWithOneLookupForTheWholeList(t *testing.T) {
	facts := newFakeFacts(FactPod, "p1", "tpl1", FactPod, "p3", `tpl"3`)
	list := podList(pod("p1"), pod("p2"), pod("p3"), pod("p4", set("template", "tpl4")))
	res, _ := run(t, "ListPods", runOpts{facts: facts}, step{method: "GET", path: "/v2/pods", status: 200, body: list})
	wantStatus(t, res, 200)
	l := decodeList(t, res.Body)
	got := []any{l[0]["templateId"], l[1]["templateId"], l[2]["templateId"], l[3]["templateId"]}
	if want := []any{"tpl1", nil, `tpl"3`, "tpl4"}; !slices.Equal(got, want) {
		t.Errorf("templateIds %v, want %v", got, want)
	}
	if len(facts.lookups) != 1 || !slices.Equal(facts.lookups[0], []string{"p1", "p2", "p3"}) {
		t.Errorf("lookups %v, want one for p1, p2, p3", facts.lookups)
	}
	// The other fields are the streamed ones, unchanged.
	plain, _ := run(t, "ListPods", runOpts{}, step{method: "GET", path: "/v2/pods", status: 200, body: list})
	pl := decodeList(t, plain.Body)
	for i := range pl {
		delete(l[i], "templateId")
		delete(pl[i], "templateId")
		a, _ := json.Marshal(l[i])
		b, _ := json.Marshal(pl[i])
		if string(a) != string(b) {
			t.Errorf("pod %d: %s, without the store %s", i, a, b)
		}
	}
}

// With a store, the streamed list (read whole, and through a window in
// pieces) and the decoded one (the path of include* and of the templateId
// filter) answer byte for byte the same: every pod ends with templateId,
// the store's where v2 gives none and the store knows it, else null
// (issue 37: never an absent key).
func TestPodListPathsAgreeOnTemplateIDWithAStore(t *testing.T) {
	kv := []string{FactPod, "p1", "tpl1", FactPod, "p3", `tpl"3`}
	body := []byte(podList(pod("p1"), pod("p2", cpuPod, set("mounts", `{}`)), pod("p3"), pod("p4", set("template", "tpl4"))))
	q := &podQuery{}
	decoded := listPods(context.Background(), &Request{Facts: newFakeFacts(kv...)}, nil, q, &V2Answer{Status: 200, Body: body}, nil)
	whole := streamPodList(context.Background(), &Request{Facts: newFakeFacts(kv...)}, &V2Answer{Status: 200, Body: body}, q)
	defer ReleaseBody(whole.Body)
	if decoded.Status != 200 || !bytes.Equal(whole.Body, decoded.Body) {
		t.Fatalf("streamed %s\ndecoded  %s", whole.Body, decoded.Body)
	}
	for _, chunk := range []int{1, 7, 1 << 20} {
		withStreamSizes(t, 16, 64, 2, 1<<30)
		status, got, aborted := runStreamed(t, &Request{Facts: newFakeFacts(kv...)}, body, chunk, q)
		if status != 200 || aborted || !bytes.Equal(got, decoded.Body) {
			t.Fatalf("chunks of %d: %d %s\nwant %s", chunk, status, got, decoded.Body)
		}
	}
	l := decodeList(t, decoded.Body)
	for i, want := range []string{`"tpl1"`, "null", `"tpl\"3"`, `"tpl4"`} {
		raw, _ := json.Marshal(l[i]["templateId"])
		if _, ok := l[i]["templateId"]; !ok || string(raw) != want {
			t.Errorf("pod %d: templateId %s, want %s", i, raw, want)
		}
	}
}

func TestPodListTemplateIDFilterAndIncludeTemplateUseTheStore(t *testing.T) {
	facts := newFakeFacts(FactPod, "p1", "tpl1", FactPod, "p2", "tpl2")
	list := podList(pod("p1"), pod("p2"), pod("p3"))
	res, _ := run(t, "ListPods", runOpts{facts: facts, query: "templateId=tpl1"}, step{method: "GET", path: "/v2/pods", status: 200, body: list})
	wantStatus(t, res, 200)
	if l := decodeList(t, res.Body); len(l) != 1 || l[0]["id"] != "p1" || l[0]["templateId"] != "tpl1" {
		t.Errorf("templateId=tpl1: %s", res.Body)
	}

	tpl := `{"id":"tpl1","name":"torch","image":"runpod/pytorch:2","args":"","disk":50,"mounts":{},"ports":[],"env":{},"registry":null,"serverless":false,"public":false,"category":"NVIDIA","startSsh":true,"startJupyter":false,"allowedCudaVersions":[]}`
	res, _ = run(t, "GetPod", runOpts{facts: facts, params: map[string]string{"podId": "p1"}, query: "includeTemplate=true"},
		step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1")},
		step{method: "GET", path: "/v2/templates/tpl1", status: 200, body: tpl})
	wantStatus(t, res, 200)
	if tp, _ := decodeV1(t, res.Body)["template"].(map[string]any); tp["id"] != "tpl1" || tp["name"] != "torch" {
		t.Errorf("includeTemplate: %s", res.Body)
	}
}

func TestPodFactsAreRecordedAfterTheCreateAndForgottenWithThePod(t *testing.T) {
	facts := newFakeFacts()
	res, _ := run(t, "CreatePod", runOpts{facts: facts, body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"]}`},
		createStep(newPod("p1")))
	wantStatus(t, res, 201)
	if f, ok := facts.get(FactPod, "p1"); !ok || f != (Fact{TemplateID: "tpl1", Created: true}) {
		t.Errorf("fact after the create: %v %v", f, ok)
	}

	// A create v2 refuses records nothing.
	facts = newFakeFacts()
	res, _ = run(t, "CreatePod", runOpts{facts: facts, body: `{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"]}`},
		step{method: "POST", path: "/v2/pods", status: 402, body: `{"type":"about:blank","title":"Payment Required","status":402,"detail":"balance too low"}`})
	wantStatus(t, res, 400)
	if len(facts.m) != 0 {
		t.Errorf("a refused create recorded %v", facts.m)
	}

	// A delete v2 confirms forgets the pod; a 404 forgets nothing (it may
	// be another account's pod, which this key cannot see).
	facts = newFakeFacts(FactPod, "p1", "tpl1", FactPod, "other", "tpl1")
	res, _ = run(t, "DeletePod", runOpts{facts: facts, params: map[string]string{"podId": "p1"}}, step{method: "DELETE", path: "/v2/pods/p1", status: 204})
	wantStatus(t, res, 204)
	notFound := `{"type":"about:blank","title":"Not Found","status":404,"detail":"pod other not found"}`
	res, _ = run(t, "GetPod", runOpts{facts: facts, params: map[string]string{"podId": "other"}},
		step{method: "GET", path: "/v2/pods/other", status: 404, body: notFound})
	wantStatus(t, res, 404)
	res, _ = run(t, "DeletePod", runOpts{facts: facts, params: map[string]string{"podId": "other"}},
		step{method: "DELETE", path: "/v2/pods/other", status: 404, body: notFound})
	wantStatus(t, res, 400)
	if !slices.Equal(facts.forgot, []string{"pod/p1"}) {
		t.Errorf("forgot %v, want only pod/p1", facts.forgot)
	}
	if _, ok := facts.get(FactPod, "other"); !ok {
		t.Error("another account's pod's fact was erased by a 404")
	}
}

// ownTemplate is a serverless template of the client's own, with settings
// to spread.
const ownTemplate = `{"id":"tpl1","name":"worker-tpl","image":"runpod/worker:2","args":"python h.py","disk":30,"mounts":{},"ports":["8000/http"],"env":{"A":"1"},"registry":"reg1","serverless":true,"public":false,"category":"NVIDIA","startSsh":true,"startJupyter":false,"allowedCudaVersions":["12.8"]}`

func TestEndpointCreateSpreadsTheClientsOwnTemplateAndRemembersIt(t *testing.T) {
	publicTpl := strings.Replace(strings.Replace(ownTemplate, `"public":false`, `"public":true`, 1), `"registry":"reg1"`, `"registry":null`, 1)
	tests := []struct {
		name, body, template, want string
	}{
		{
			name: "own template: its settings spread, no templateId, CUDA seeded",
			body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`, template: ownTemplate,
			want: `{"name":"gen","type":"QUEUE","image":"runpod/worker:2","args":"python h.py","disk":30,"ports":["8000/http"],"env":{"A":"1"},"registry":"reg1",
				"scaling":{"type":"QUEUE_DELAY","queueDelay":4},"gpu":{"pools":["ADA_24"],"excludedTypes":["NVIDIA L4"],"count":1,"allowedCudaVersions":["12.8"]},"workers":{"idleTimeout":5}}`,
		},
		{
			name: "own template with a CUDA floor sent: not seeded",
			body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"minCudaVersion":"12.4"}`, template: ownTemplate,
			want: `{"name":"gen","type":"QUEUE","image":"runpod/worker:2","args":"python h.py","disk":30,"ports":["8000/http"],"env":{"A":"1"},"registry":"reg1",
				"scaling":{"type":"QUEUE_DELAY","queueDelay":4},"gpu":{"pools":["ADA_24"],"excludedTypes":["NVIDIA L4"],"count":1,"minCudaVersion":"12.4"},"workers":{"idleTimeout":5}}`,
		},
		{
			name: "public template: named, as v2 resolves it",
			body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`, template: publicTpl,
			want: `{"name":"gen","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
				"gpu":{"pools":["ADA_24"],"excludedTypes":["NVIDIA L4"],"count":1},"workers":{"idleTimeout":5}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			facts := newFakeFacts()
			res, f := run(t, "CreateEndpoint", runOpts{facts: facts, body: tc.body},
				step{method: "GET", path: "/v2/templates/tpl1", status: 200, body: tc.template}, catalogStep(),
				step{method: "POST", path: "/v2/serverless", status: 201, body: endpoint("ep1")}, workersStep("ep1", 1))
			wantStatus(t, res, 200)
			jsonEqual(t, "v2 create body", []byte(f.bodies("POST", "/v2/serverless")[0]), tc.want)
			if got := decodeV1(t, res.Body)["templateId"]; got != "tpl1" {
				t.Errorf("templateId %v", got)
			}
			if fact, ok := facts.get(FactEndpoint, "ep1"); !ok || fact != (Fact{TemplateID: "tpl1", Created: true}) {
				t.Errorf("fact %v %v", fact, ok)
			}
		})
	}
}

func TestEndpointAnswersTakeTemplateIDFromTheStore(t *testing.T) {
	facts := newFakeFacts(FactEndpoint, "ep1", "tpl1")
	res, _ := run(t, "GetEndpoint", runOpts{facts: facts, params: map[string]string{"endpointId": "ep1"}, query: "includeTemplate=true"},
		epGetStep("ep1", endpoint("ep1")), catalogStep(), releasesStep("ep1", 3),
		step{method: "GET", path: "/v2/templates/tpl1", status: 200, body: serverlessTemplate})
	wantStatus(t, res, 200)
	j := decodeV1(t, res.Body)
	// includeTemplate: the template itself, as v1 answered it (issue 37).
	if tp, _ := j["template"].(map[string]any); j["templateId"] != "tpl1" || tp["id"] != "tpl1" || tp["imageName"] != "runpod/worker:1" ||
		tp["name"] != "worker-tpl" || tp["category"] != "NVIDIA" || tp["isRunpod"] != false || tp["volumeInGb"] != 0.0 {
		t.Errorf("get %s", res.Body)
	}
	// A template v2 cannot give: the view synthesised from the endpoint.
	res, _ = run(t, "GetEndpoint", runOpts{facts: facts, params: map[string]string{"endpointId": "ep1"}, query: "includeTemplate=true"},
		epGetStep("ep1", endpoint("ep1")), catalogStep(), releasesStep("ep1", 3),
		step{method: "GET", path: "/v2/templates/tpl1", status: 404, body: `{"type":"about:blank","title":"Not Found","status":404,"detail":"not found"}`})
	wantStatus(t, res, 200)
	if tp, _ := decodeV1(t, res.Body)["template"].(map[string]any); tp["id"] != "tpl1" || tp["imageName"] != "runpod/worker:1" || tp["isPublic"] != nil {
		t.Errorf("get, template gone: %s", res.Body)
	}

	res, _ = run(t, "ListEndpoints", runOpts{facts: facts},
		step{method: "GET", path: "/v2/serverless", status: 200, body: `{"endpoints":[` + endpoint("ep1") + `,` + endpoint("ep2") + `]}`}, catalogStep())
	wantStatus(t, res, 200)
	l := decodeList(t, res.Body)
	if l[0]["templateId"] != "tpl1" || l[1]["templateId"] != nil {
		t.Errorf("list %s", res.Body)
	}
	if last := facts.lookups[len(facts.lookups)-1]; !slices.Equal(last, []string{"ep1", "ep2"}) {
		t.Errorf("list lookup %v, want one for both", last)
	}

	// A 404 forgets nothing (it may be another account's endpoint).
	res, _ = run(t, "GetEndpoint", runOpts{facts: facts, params: map[string]string{"endpointId": "ep1"}},
		step{method: "GET", path: "/v2/serverless/ep1", status: 404, body: `{"type":"about:blank","title":"Not Found","status":404,"detail":"not found"}`})
	wantStatus(t, res, 404)
	if _, ok := facts.get(FactEndpoint, "ep1"); !ok {
		t.Error("a 404 erased the fact")
	}
}

func TestEndpointUpdateWithTemplateIDIsRemembered(t *testing.T) {
	facts := newFakeFacts(FactEndpoint, "ep1", "tpl1")
	res, _ := run(t, "UpdateEndpoint", runOpts{facts: facts, params: map[string]string{"endpointId": "ep1"}, body: `{"templateId":"tpl2"}`},
		step{method: "PATCH", path: "/v2/serverless/ep1", status: 200, body: endpoint("ep1")}, catalogStep(), releasesStep("ep1", 2))
	wantStatus(t, res, 200)
	if f, _ := facts.get(FactEndpoint, "ep1"); f != (Fact{TemplateID: "tpl2", Created: true}) {
		t.Errorf("fact after the update %v", f)
	}
}

func TestEndpointDeleteWarnsAboutTheBoundTemplateOnlyForEndpointsMadeElsewhere(t *testing.T) {
	tests := []struct {
		name  string
		facts *fakeFacts
		warn  bool
	}{
		{"created through the gateway", newFakeFacts(FactEndpoint, "ep1", "tpl1"), false},
		{"not known to the store", newFakeFacts(), true},
		{"only updated with templateId through the gateway", &fakeFacts{m: map[string]Fact{"endpoint/ep1": {TemplateID: "tpl1"}}}, true},
		{"no store", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := runOpts{params: map[string]string{"endpointId": "ep1"}}
			if tc.facts != nil {
				o.facts = tc.facts
			}
			res, _ := run(t, "DeleteEndpoint", o, step{method: "DELETE", path: "/v2/serverless/ep1", status: 204})
			wantStatus(t, res, 204)
			if got := len(res.Warnings) > 0; got != tc.warn {
				t.Errorf("warnings %q, want a warning: %v", res.Warnings, tc.warn)
			}
			if tc.facts != nil {
				if _, ok := tc.facts.get(FactEndpoint, "ep1"); ok {
					t.Error("the deleted endpoint's fact was kept")
				}
			}
		})
	}
}

func TestTemplateUpdateRollsOutToTheEndpointsMadeFromIt(t *testing.T) {
	tpl := strings.Replace(serverlessTemplate, `"name":"worker-tpl"`, `"name":"v2"`, 1)
	notFound := `{"type":"about:blank","title":"Not Found","status":404,"detail":"not found"}`
	facts := newFakeFacts(FactEndpoint, "ep1", "tpl1", FactEndpoint, "ep2", "tpl1", FactEndpoint, "ep3", "tpl1", FactEndpoint, "ep9", "other")
	res, f := run(t, "UpdateTemplate", runOpts{facts: facts, params: map[string]string{"templateId": "tpl1"}, body: `{"name":"v2"}`},
		step{method: "PATCH", path: "/v2/templates/tpl1", status: 200, body: tpl},
		step{method: "PATCH", path: "/v2/serverless/ep1", status: 200, body: endpoint("ep1")},
		step{method: "PATCH", path: "/v2/serverless/ep2", status: 404, body: notFound},
		step{method: "PATCH", path: "/v2/serverless/ep3", status: 422, body: `{"type":"about:blank","title":"Unprocessable","status":422,"detail":"disk too small"}`})
	wantStatus(t, res, 200)
	for _, b := range f.bodies("PATCH", "/v2/serverless/ep1") {
		jsonEqual(t, "rollout body", []byte(b), `{"templateId":"tpl1"}`)
	}
	wantWarning(t, res, "rolled out to endpoint(s) ep1 ")
	wantWarning(t, res, "could not be rolled out to endpoint(s) ep3 (")
	codes := map[string]bool{}
	for _, n := range res.Notes {
		codes[n.Code] = true
	}
	if !codes[CodeTemplateRolledOut] || !codes[CodeTemplateRolloutFailed] || codes[CodeTemplateNoRollout] {
		t.Errorf("notes %v", res.Notes)
	}
	if _, ok := facts.get(FactEndpoint, "ep2"); ok {
		t.Error("an endpoint v2 no longer has was kept (a private template's rollout)")
	}

	// A public template's endpoints may be other accounts': a 404 is
	// skipped, and forgets nothing.
	facts = newFakeFacts(FactEndpoint, "ep1", "tpl1", FactEndpoint, "ep2", "tpl1")
	res, _ = run(t, "UpdateTemplate", runOpts{facts: facts, params: map[string]string{"templateId": "tpl1"}, body: `{"name":"v2"}`},
		step{method: "PATCH", path: "/v2/templates/tpl1", status: 200, body: strings.Replace(tpl, `"public":false`, `"public":true`, 1)},
		step{method: "PATCH", path: "/v2/serverless/ep1", status: 200, body: endpoint("ep1")},
		step{method: "PATCH", path: "/v2/serverless/ep2", status: 404, body: notFound})
	wantStatus(t, res, 200)
	if _, ok := facts.get(FactEndpoint, "ep2"); !ok || strings.Contains(warnings(res), "ep2") {
		t.Errorf("public template rollout: ep2 forgotten or named: %q", res.Warnings)
	}

	// No endpoint known: the H3 warning, as before the store.
	res, _ = run(t, "UpdateTemplate", runOpts{facts: newFakeFacts(), params: map[string]string{"templateId": "tpl1"}, body: `{"name":"v2"}`},
		step{method: "PATCH", path: "/v2/templates/tpl1", status: 200, body: tpl})
	wantWarning(t, res, "no longer roll out")

	// The store cannot be read: said, not hidden.
	broken := newFakeFacts()
	broken.fail = errors.New("down")
	res, _ = run(t, "UpdateTemplate", runOpts{facts: broken, params: map[string]string{"templateId": "tpl1"}, body: `{"name":"v2"}`},
		step{method: "PATCH", path: "/v2/templates/tpl1", status: 200, body: tpl})
	wantStatus(t, res, 200)
	wantWarning(t, res, "could not be rolled out")
}
