package translate

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/internal/speccheck"
)

// Hostile input at the translation layer: v1 query strings and filters,
// arbitrary v2 answers as the upstream answer of every operation, and the
// JSON shape check in front of every body decoder. Never a panic; errors
// are v1 {"message"} answers; every v2 call stays inside the operation's
// declared v2 routes with each id as one path segment.

// sampleBodies are valid v1 bodies of the operations that take one, so that
// plans get as far as their v2 calls.
var sampleBodies = map[string]string{
	"CreatePod":                   `{"name":"x","imageName":"img:1","gpuTypeIds":["NVIDIA RTX A4000"],"locked":true}`,
	"UpdatePod":                   `{"name":"n","imageName":"img:2"}`,
	"UpdatePodViaPost":            `{"name":"n"}`,
	"CreateEndpoint":              `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`,
	"UpdateEndpoint":              `{"name":"n","workersMax":3}`,
	"UpdateEndpointViaPost":       `{"name":"n"}`,
	"CreateTemplate":              `{"name":"t","imageName":"img:1"}`,
	"UpdateTemplate":              `{"name":"t2"}`,
	"UpdateTemplateViaPost":       `{"name":"t2"}`,
	"CreateNetworkVolume":         `{"name":"d","size":100,"dataCenterId":"EU-RO-1"}`,
	"UpdateNetworkVolume":         `{"name":"n","size":200}`,
	"UpdateNetworkVolumeViaPost":  `{"name":"n"}`,
	"CreateContainerRegistryAuth": `{"name":"a","username":"b","password":"c"}`,
}

// sampleQueries exercise each operation's query options.
var sampleQueries = map[string]string{
	"ListPods":      "computeType=GPU&includeMachine=true&includeNetworkVolume=true&includeSavingsPlans=true&name=x&desiredStatus=RUNNING",
	"GetPod":        "includeMachine=true&includeNetworkVolume=true&includeTemplate=true",
	"ListEndpoints": "includeTemplate=true&includeWorkers=true",
	"GetEndpoint":   "includeTemplate=true&includeWorkers=true",
	"ListTemplates": "includeEndpointBoundTemplates=true&includePublicTemplates=true&includeRunpodTemplates=true",
	"PodBilling":    "bucketSize=day&grouping=podId",
}

// declaredV2 returns, per operation, matchers of its declared v2 calls: a
// placeholder matches exactly one non-empty escaped segment.
var declaredV2 = sync.OnceValue(func() map[string][]*regexp.Regexp {
	out := map[string][]*regexp.Regexp{}
	ph := regexp.MustCompile(`\\\{[A-Za-z]+\\\}`)
	for _, op := range Operations {
		for _, c := range op.V2 {
			method, path, _ := strings.Cut(c, " ")
			re := ph.ReplaceAllString(regexp.QuoteMeta(path), `[^/]+`)
			out[op.Name] = append(out[op.Name], regexp.MustCompile("^"+regexp.QuoteMeta(method)+" "+re+"$"))
		}
	}
	return out
})

// checkDeclaredCall fails unless call is one op declares, and, when id is
// not empty and the call's path carries it, carries it as one segment.
func checkDeclaredCall(t *testing.T, op *Operation, id string, call V2Call) {
	t.Helper()
	got := call.Method + " " + call.Path
	ok := false
	for _, re := range declaredV2()[op.Name] {
		if re.MatchString(got) {
			ok = true
			break
		}
	}
	if !ok {
		t.Fatalf("%s made an undeclared v2 call %s (declared: %q)", op.Name, got, op.V2)
	}
	if _, err := url.Parse(call.Path); err != nil {
		t.Fatalf("%s: v2 path %q does not parse: %v", op.Name, call.Path, err)
	}
	// The declared templates match a placeholder with one segment; an id
	// that needs escaping must never appear verbatim (it would be split
	// into several segments, or end the path).
	if id != "" && url.PathEscape(id) != id && strings.Contains(call.Path, id) && strings.ContainsAny(id, "/?#") {
		t.Fatalf("%s: v2 path %q carries id %q unescaped", op.Name, call.Path, id)
	}
}

// answerAll answers every v2 call with the same status and body, at most
// max calls (candidate loops stay bounded), and records the calls.
type answerAll struct {
	status int
	body   []byte
	max    int
	calls  []V2Call
}

func (a *answerAll) Call(_ context.Context, c V2Call) (*V2Answer, error) {
	a.calls = append(a.calls, c)
	if len(a.calls) > a.max {
		return nil, context.DeadlineExceeded
	}
	return &V2Answer{Status: a.status, Header: http.Header{"Content-Type": {"application/json"}, "Retry-After": {"7"}}, Body: a.body}, nil
}

// checkAnyResult is what every plan must produce whatever v2 answered: an
// answer, with a status a client understands, a JSON body (or none), and a
// message on every error.
func checkAnyResult(t *testing.T, op *Operation, res *Result, input any) {
	t.Helper()
	if res == nil {
		t.Fatalf("%s: no answer for %q", op.Name, input)
	}
	if res.Status < 200 || res.Status > 599 {
		t.Fatalf("%s: status %d for %q", op.Name, res.Status, input)
	}
	if res.Body == nil {
		if res.Status >= 400 {
			t.Fatalf("%s: error %d without a body for %q", op.Name, res.Status, input)
		}
		return
	}
	if !json.Valid(res.Body) {
		t.Fatalf("%s: answer %d is not JSON for %q: %q", op.Name, res.Status, input, res.Body)
	}
	if res.Status >= 400 {
		var e V1Error
		if json.Unmarshal(res.Body, &e) != nil || e.Message == "" {
			t.Fatalf("%s: error %d is not a v1 {\"message\"}: %s", op.Name, res.Status, res.Body)
		}
	}
	if res.Status == http.StatusInternalServerError {
		t.Fatalf("%s: 500 for %q: %s", op.Name, input, res.Body)
	}
}

// sampleRequest builds a valid v1 request for op, with id as every path id.
func sampleRequest(op *Operation, id string) *Request {
	params := map[string]string{}
	for _, seg := range strings.Split(op.Path, "/") {
		if strings.HasPrefix(seg, "{") {
			params[strings.Trim(seg, "{}")] = id
		}
	}
	q, _ := url.ParseQuery(sampleQueries[op.Name])
	var body []byte
	if b, ok := sampleBodies[op.Name]; ok {
		body = []byte(b)
	}
	return &Request{Op: op, Params: params, Query: q, Body: body}
}

// specExamples returns the JSON examples of the v2 contract (nil when the
// specs are absent), as fuzz seeds.
func specExamples(tb testing.TB, file string) [][]byte {
	dir, err := speccheck.SpecsDir() // V1GW_SPECS_DIR, else the shared or downloaded specs
	var raw []byte
	if err == nil {
		raw, err = os.ReadFile(filepath.Join(dir, file))
	}
	if err != nil {
		tb.Logf("specs not found (%v): seeding without the spec examples", err)
		return nil
	}
	var doc any
	if json.Unmarshal(raw, &doc) != nil {
		return nil
	}
	var out [][]byte
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if k == "example" || k == "value" {
					if _, obj := c.(map[string]any); obj {
						if b, err := json.Marshal(c); err == nil {
							out = append(out, b)
						}
					}
				}
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(doc)
	return out
}

// FuzzV2AnswerMapping gives every operation an arbitrary v2 answer (the same
// status and body for each of its calls): never a panic, never a 500; a v1
// answer or a v1 error.
func FuzzV2AnswerMapping(f *testing.F) {
	seeds := []string{pod("p1"), podList(pod("p1"), pod("p2")), endpoint("e1"), endpointList(endpoint("e1")), tpl("t1"), tplList(tpl("t1")),
		v2Volume("v1", 100), `{"id":"r","name":"n"}`, `{"pods":null}`, `{"pods":[null]}`, `{"pods":{}}`, `{"id":1}`, `[]`, `null`, `{}`, `"x"`, ``, `{`,
		`{"id":"p1","gpu":{"count":"x"}}`, `{"pods":[{"id":"p1","costPerHr":1e999}]}`, `{"title":"Not Found","status":404,"detail":"no"}`}
	for i := range seeds {
		f.Add(uint8(i), uint16(200), []byte(seeds[i]))
	}
	for i, ex := range specExamples(f, "v2.openapi.json") {
		f.Add(uint8(i), uint16(200), ex)
	}
	for _, st := range []uint16{201, 204, 302, 400, 401, 402, 403, 404, 409, 422, 429, 500, 503, 0, 999} {
		f.Add(uint8(st), st, []byte(`{"title":"x","status":`+"400"+`,"detail":"d","errors":["a"]}`))
	}
	old := Sleep // waits on 429s and after failed creates: none while fuzzing
	Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	f.Cleanup(func() { Sleep = old })
	var ops []*Operation
	for i := range Operations {
		if Operations[i].Plan != nil {
			ops = append(ops, &Operations[i])
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, status uint16, body []byte) {
		op := ops[int(which)%len(ops)]
		st := int(status) // a real status as given; anything else folded into 100..599
		if st < 100 || st > 599 {
			st = st%500 + 100
		}
		req := sampleRequest(op, "id-1")
		req.Options.Lenient = which&0x80 != 0
		c := &answerAll{status: st, body: body, max: 12}
		res := op.Plan(context.Background(), req, c)
		checkAnyResult(t, op, res, body)
		for _, call := range c.calls {
			checkDeclaredCall(t, op, "id-1", call)
		}
	})
}

// FuzzListQuery gives the list and get operations arbitrary v1 query
// strings: a 400 {"message"} before any v2 call, or a plan whose calls are
// declared and whose answer is v1.
func FuzzListQuery(f *testing.F) {
	names := []string{"ListPods", "GetPod", "ListEndpoints", "GetEndpoint", "ListTemplates", "GetTemplate",
		"ListNetworkVolumes", "GetNetworkVolume", "ListContainerRegistryAuths", "GetContainerRegistryAuth"}
	for i, n := range names {
		f.Add(uint8(i), sampleQueries[n])
	}
	for _, q := range []string{"computeType=TPU", "includeMachine=yes", "includeMachine=true&includeMachine=false", "gpuTypeId=NVIDIA%20A40&gpuTypeId=x",
		"desiredStatus=running", "name=%00", "dataCenterId=EU-RO-1,,", "includeWorkers=1", "%zz", "a=b;c=d", "imageName=" + strings.Repeat("x", 300),
		"id=p1&id=p2", "cpuFlavorId=cpu3c&gpuTypeId=x", "includeTemplate=TRUE", "includeTemplate="} {
		f.Add(uint8(0), q)
		f.Add(uint8(2), q)
	}
	f.Fuzz(func(t *testing.T, which uint8, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return // the router hands plans only what url.Query parsed
		}
		op := mustOp(t, names[int(which)%len(names)])
		req := sampleRequest(op, "p1")
		req.Query = q
		c := &listCaller{}
		res := op.Plan(context.Background(), req, c)
		checkAnyResult(t, op, res, query)
		if res.Status == http.StatusBadRequest && len(c.calls) > 0 && strings.Contains(message(t, res), "query") {
			t.Fatalf("%s: query refused after %d v2 calls: %s", op.Name, len(c.calls), res.Body)
		}
		if res.Status >= 500 && !c.fallback {
			t.Fatalf("%s: %d for %q: %s", op.Name, res.Status, query, res.Body)
		}
		for _, call := range c.calls {
			checkDeclaredCall(t, op, "p1", call)
		}
	})
}

// listCaller answers the read routes with faithful fixtures.
type listCaller struct {
	calls    []V2Call
	fallback bool // a call got the 404 of a route without a fixture
}

func (c *listCaller) Call(_ context.Context, call V2Call) (*V2Answer, error) {
	c.calls = append(c.calls, call)
	ok := func(body string) (*V2Answer, error) {
		return &V2Answer{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}, nil
	}
	p := call.Path
	switch {
	case p == "/v2/pods":
		return ok(podList(pod("p1"), pod("p2")))
	case strings.HasPrefix(p, "/v2/pods/"):
		return ok(pod("p1"))
	case p == "/v2/serverless":
		return ok(endpointList(endpoint("e1")))
	case strings.HasSuffix(p, "/releases"):
		return ok(releases(1))
	case strings.HasSuffix(p, "/workers"):
		return ok(`{"workers":[]}`)
	case strings.HasPrefix(p, "/v2/serverless/"):
		return ok(endpoint("p1"))
	case p == "/v2/templates":
		return ok(tplList(tpl("t1")))
	case strings.HasPrefix(p, "/v2/templates/"):
		return ok(tpl("t1"))
	case p == "/v2/network-volumes":
		return ok(`{"networkVolumes":[` + v2Volume("v1", 100) + `]}`)
	case strings.HasPrefix(p, "/v2/network-volumes/"):
		return ok(v2Volume("p1", 100))
	case p == "/v2/registries":
		return ok(`{"registries":[{"id":"r1","name":"n"}]}`)
	case strings.HasPrefix(p, "/v2/registries/"):
		return ok(`{"id":"p1","name":"n"}`)
	}
	c.fallback = true
	return &V2Answer{Status: 404, Header: http.Header{"Content-Type": {"application/problem+json"}}, Body: []byte(problem(404, "no such route"))}, nil
}

// Every body decoder goes through parseBodyObject, so each refuses them.
func TestBodyDecodersRefuseAmbiguousJSON(t *testing.T) {
	for name := range sampleBodies {
		op := mustOp(t, name)
		for _, body := range []string{`{"name":"a","name":"b"}`, "{\"name\":\"\xff\"}", strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40)} {
			res := op.Plan(t.Context(), &Request{Op: op, Params: sampleRequest(op, "x").Params, Body: []byte(body)}, newFake(t))
			if res.Status != 400 {
				t.Errorf("%s %q: status %d: %s", name, body, res.Status, res.Body)
			}
		}
	}
}

// Regression (found by FuzzV2AnswerMapping): a create answer without an id
// made CreatePod lock "PATCH /v2/pods/" — the collection, not a pod.
func TestCreatePodLockNeedsAnID(t *testing.T) {
	old := Sleep
	Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	defer func() { Sleep = old }()
	op := mustOp(t, "CreatePod")
	for _, answer := range []string{`{}`, `{"id":""}`, `{"id":".."}`} {
		c := &answerAll{status: 201, body: []byte(answer), max: 12}
		res := op.Plan(context.Background(), sampleRequest(op, ""), c)
		for _, call := range c.calls {
			checkDeclaredCall(t, op, "", call)
			if call.Method == "PATCH" {
				t.Errorf("answer %s: PATCH %s", answer, call.Path)
			}
		}
		if res.Status < 300 && !strings.Contains(strings.Join(res.Warnings, " "), "locked=true could not be applied") {
			t.Errorf("answer %s: %d without a lock warning: %q", answer, res.Status, res.Warnings)
		}
	}
}
