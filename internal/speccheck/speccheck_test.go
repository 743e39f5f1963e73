package speccheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const (
	v1Name = "v1.openapi.json"
	v2Name = "v2.openapi.json"
)

var jsonHeader = http.Header{"Content-Type": {"application/json"}}

func problemHeader() http.Header {
	return http.Header{"Content-Type": {"application/problem+json"}}
}

func TestLoadAndCompileAllComponentSchemas(t *testing.T) {
	for _, tc := range []struct {
		name, version, basePath string
		ops                     int
	}{
		{v1Name, "3.0.3", "/v1", 37},
		{v2Name, "3.1.0", "", 53},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := LoadForTest(t, tc.name)
			if s.OpenAPIVersion() != tc.version || s.BasePath() != tc.basePath || s.Name() != tc.name {
				t.Errorf("got version %q basePath %q name %q", s.OpenAPIVersion(), s.BasePath(), s.Name())
			}
			if got := len(s.Operations()); got != tc.ops {
				t.Errorf("%d operations, want %d", got, tc.ops)
			}
			schemas := s.doc["components"].(map[string]any)["schemas"].(map[string]any)
			if len(schemas) == 0 {
				t.Fatal("no component schemas")
			}
			for _, name := range sortedKeys(schemas) {
				if _, err := s.schema("/components/schemas/" + escapeToken(name)); err != nil {
					t.Errorf("schema %s: %v", name, err)
				}
			}
			again, err := Load(tc.name)
			if err != nil || again != s {
				t.Errorf("second Load = %p, %v; want cached %p", again, err, s)
			}
		})
	}
}

func TestOperations(t *testing.T) {
	s := LoadForTest(t, v2Name)
	ops := s.Operations()
	found := false
	for i, op := range ops {
		if op.Method == "" || op.Path == "" || op.OperationID == "" {
			t.Errorf("incomplete operation %+v", op)
		}
		if i > 0 && ops[i-1].Path > op.Path {
			t.Errorf("operations not sorted by path: %q before %q", ops[i-1].Path, op.Path)
		}
		if op == (OperationInfo{Method: "GET", Path: "/v2/pods/{id}", OperationID: "getPod"}) {
			found = true
		}
	}
	if !found {
		t.Error("GET /v2/pods/{id} getPod not listed")
	}
}

// concretePath turns a template into a request path, filling parameters.
func concretePath(tmpl string) string {
	return regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(tmpl, "abc123")
}

type example struct {
	op, media, name string
	status          int // 0 for request examples
	path, method    string
	body            []byte
}

// documentedExamples collects the media-type level example/examples of
// every operation's request body and responses.
func documentedExamples(t *testing.T, s *Spec) []example {
	t.Helper()
	var out []example
	collect := func(base example, content map[string]any) {
		for _, media := range sortedKeys(content) {
			m, _ := content[media].(map[string]any)
			values := map[string]any{}
			if v, ok := m["example"]; ok {
				values["example"] = v
			}
			exs, _ := m["examples"].(map[string]any)
			for name, e := range exs {
				e, _ := e.(map[string]any)
				if e, _, ok := s.resolveRef(e, ""); ok {
					if v, ok := e["value"]; ok {
						values[name] = v
					}
				}
			}
			for _, name := range sortedKeys(values) {
				ex := base
				ex.media, ex.name = media, name
				if str, ok := values[name].(string); ok && !isJSONMediaType(media) {
					ex.body = []byte(str)
				} else {
					b, err := json.Marshal(values[name])
					if err != nil {
						t.Fatalf("%s %s: marshal example: %v", base.op, name, err)
					}
					ex.body = b
				}
				out = append(out, ex)
			}
		}
	}
	for _, pi := range s.paths {
		for _, op := range pi.ops {
			base := example{op: op.method + " " + pi.template, path: s.BasePath() + concretePath(pi.template), method: op.method}
			if rb, ok := op.obj["requestBody"].(map[string]any); ok {
				if rb, _, ok := s.resolveRef(rb, ""); ok {
					content, _ := rb["content"].(map[string]any)
					collect(base, content)
				}
			}
			responses, _ := op.obj["responses"].(map[string]any)
			for _, code := range sortedKeys(responses) {
				r, _ := responses[code].(map[string]any)
				r, _, ok := s.resolveRef(r, "")
				if !ok {
					t.Fatalf("%s: response %s: unresolvable", base.op, code)
				}
				rb := base
				switch {
				case code == "default":
					rb.status = 500
				case strings.HasSuffix(strings.ToUpper(code), "XX"):
					rb.status = int(code[0]-'0') * 100
				default:
					n, err := strconv.Atoi(code)
					if err != nil {
						t.Fatalf("%s: bad response code %q", base.op, code)
					}
					rb.status = n
				}
				content, _ := r["content"].(map[string]any)
				collect(rb, content)
			}
		}
	}
	return out
}

func TestDocumentedExamplesValidate(t *testing.T) {
	const tolerated = 3 // vendor examples may be wrong; more than this is our bug
	for _, name := range []string{v1Name, v2Name} {
		t.Run(name, func(t *testing.T) {
			s := LoadForTest(t, name)
			exs := documentedExamples(t, s)
			invalid := 0
			for _, ex := range exs {
				h := http.Header{"Content-Type": {ex.media}}
				var err error
				if ex.status == 0 {
					err = s.ValidateRequest(ex.method, ex.path, h, ex.body)
				} else {
					err = s.ValidateResponse(ex.method, ex.path, ex.status, h, ex.body)
				}
				if err != nil {
					invalid++
					t.Logf("vendor example %q of %s (%s, status %d) does not match its own schema:\n%v", ex.name, ex.op, ex.media, ex.status, err)
				}
			}
			t.Logf("%s: %d documented examples, %d invalid", name, len(exs), invalid)
			if invalid > tolerated {
				t.Errorf("%d of %d documented examples are invalid (tolerated: %d)", invalid, len(exs), tolerated)
			}
		})
	}
}

// TestSchemaLevelExamples validates the examples attached to component
// schemas and their nested properties/items ("example" in 3.0, "examples"
// arrays in 3.1) against the schema they annotate. The raw file is read
// again because the 3.0 conversion drops "example". Invalid vendor
// examples are reported, not failed on, unless most are invalid (which
// would point at a conversion bug).
func TestSchemaLevelExamples(t *testing.T) {
	for _, name := range []string{v1Name, v2Name} {
		t.Run(name, func(t *testing.T) {
			s := LoadForTest(t, name)
			dir, err := SpecsDir()
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			raw, err := jsonschema.UnmarshalJSON(f)
			if err != nil {
				t.Fatal(err)
			}
			checked, invalid := 0, 0
			var walk func(node any, ptr string)
			walk = func(node any, ptr string) {
				m, ok := node.(map[string]any)
				if !ok {
					return
				}
				var values []any
				if v, ok := m["example"]; ok {
					values = append(values, v)
				}
				if arr, ok := m["examples"].([]any); ok {
					values = append(values, arr...)
				}
				for _, v := range values {
					b, err := json.Marshal(v)
					if err != nil {
						t.Fatal(err)
					}
					checked++
					if err := s.ValidateSchema("#"+ptr, b); err != nil {
						invalid++
						t.Logf("vendor schema example at #%s is invalid:\n%v", ptr, err)
					}
				}
				if props, ok := m["properties"].(map[string]any); ok {
					for _, k := range sortedKeys(props) {
						walk(props[k], ptr+"/properties/"+escapeToken(k))
					}
				}
				walk(m["items"], ptr+"/items")
			}
			schemas := raw.(map[string]any)["components"].(map[string]any)["schemas"].(map[string]any)
			for _, k := range sortedKeys(schemas) {
				walk(schemas[k], "/components/schemas/"+escapeToken(k))
			}
			t.Logf("%s: %d schema-level examples, %d invalid", name, checked, invalid)
			if checked > 0 && invalid > checked/4 {
				t.Errorf("%d of %d schema-level examples invalid: likely a conversion bug", invalid, checked)
			}
		})
	}
}

const validPod = `{
  "id": "7h9k2m4n6p", "name": "pytorch-training",
  "image": "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404", "args": "", "disk": 50,
  "ports": ["8888/http", "22/tcp"], "env": {"MODEL_NAME": "llama-3"}, "registry": null,
  "status": "RUNNING", "actions": ["stop", "restart", "terminate"],
  "mounts": {"persistent": {"size": 20, "path": "/workspace"}},
  "gpu": {"id": "NVIDIA GeForce RTX 4090", "count": 1}, "cloud": "SECURE",
  "dataCenterId": "US-KS-2", "cudaVersion": "12.8",
  "ssh": {"proxy": {"host": "ssh.runpod.io", "port": 22, "username": "u", "command": "ssh u@ssh.runpod.io"},
          "direct": {"host": "195.26.233.3", "port": 34446, "username": "root", "command": "ssh root@195.26.233.3 -p 34446"}},
  "template": "9x4m2p7v", "cost": 0.44, "locked": false, "globalNetworking": {"enabled": false},
  "runtime": {"uptime": 3600, "ports": [{"private": 22, "public": 34446, "type": "tcp", "ip": "195.26.233.3"}]},
  "createdAt": "2026-06-01T12:00:00Z", "startedAt": "2026-06-01T12:02:00Z"
}`

// withPod returns validPod with key replaced by raw JSON value (or deleted
// when raw is "").
func withPod(t *testing.T, key, raw string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(validPod), &m); err != nil {
		t.Fatal(err)
	}
	if raw == "" {
		delete(m, key)
	} else {
		m[key] = json.RawMessage(raw)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestValidateResponseV2(t *testing.T) {
	s := LoadForTest(t, v2Name)
	if err := s.ValidateSchema("#/components/schemas/Pod", []byte(validPod)); err != nil {
		t.Fatalf("fixture pod invalid: %v", err)
	}
	problem := `{"title": "Not Found", "status": 404, "detail": "pod not found"}`
	tests := []struct {
		name         string
		method, path string
		status       int
		header       http.Header
		body         string
		wantErr      []string // substrings; nil means valid
	}{
		{"valid pod", "GET", "/v2/pods/7h9k2m4n6p", 200, jsonHeader, validPod, nil},
		{"valid pod, charset param and query", "GET", "/v2/pods/x?foo=bar", 200, http.Header{"Content-Type": {"application/json; charset=utf-8"}}, validPod, nil},
		{"valid list", "GET", "/v2/pods", 200, jsonHeader, `{"pods": [` + validPod + `]}`, nil},
		{"missing required field", "GET", "/v2/pods/x", 200, jsonHeader, withPod(t, "status", ""), []string{"GET /v2/pods/x", "getPod", "status 200", "missing property 'status'", "#/components/schemas/Pod"}},
		{"wrong type", "GET", "/v2/pods/x", 200, jsonHeader, withPod(t, "disk", `"50"`), []string{"at '/disk'", "want integer"}},
		{"bad enum", "GET", "/v2/pods/x", 200, jsonHeader, withPod(t, "status", `"DANCING"`), []string{"at '/status'"}},
		{"not json", "GET", "/v2/pods/x", 200, jsonHeader, `{"id":`, []string{"not valid JSON"}},
		{"empty json body", "GET", "/v2/pods/x", 200, jsonHeader, ``, []string{"body is empty"}},
		{"default covers undocumented 404", "GET", "/v2/registries/delegations", 404, problemHeader(), problem, nil},
		{"default requires problem+json", "GET", "/v2/registries/delegations", 404, jsonHeader, problem, []string{"Content-Type application/json not documented"}},
		{"default covers 500", "GET", "/v2/pods/x", 500, problemHeader(), `{"title": "Internal", "status": 500, "detail": "boom"}`, nil},
		{"problem+json 404", "GET", "/v2/pods/x", 404, problemHeader(), problem, nil},
		{"404 as application/json", "GET", "/v2/pods/x", 404, jsonHeader, problem, []string{"Content-Type application/json not documented", "application/problem+json"}},
		{"200 as problem+json", "GET", "/v2/pods/x", 200, problemHeader(), validPod, []string{"Content-Type application/problem+json not documented"}},
		{"missing content type", "GET", "/v2/pods/x", 200, nil, validPod, []string{"missing Content-Type"}},
		{"problem missing detail", "GET", "/v2/pods/x", 404, problemHeader(), `{"title": "Not Found", "status": 404}`, []string{"missing property 'detail'"}},
		{"204 empty", "DELETE", "/v2/pods/x", 204, nil, "", nil},
		{"204 whitespace", "DELETE", "/v2/pods/x", 204, nil, " \n", nil},
		{"204 with body", "DELETE", "/v2/pods/x", 204, jsonHeader, `{}`, []string{"no content"}},
		{"429 valid Retry-After", "GET", "/v2/pods", 429, http.Header{"Content-Type": {"application/problem+json"}, "Retry-After": {"12"}}, `{"title": "Too Many Requests", "status": 429, "detail": "slow down"}`, nil},
		{"429 bad Retry-After", "GET", "/v2/pods", 429, http.Header{"Content-Type": {"application/problem+json"}, "Retry-After": {"soon"}}, `{"title": "Too Many Requests", "status": 429, "detail": "slow down"}`, []string{"response header Retry-After", "want integer"}},
		{"unknown path", "GET", "/v2/nothing", 200, jsonHeader, `{}`, []string{"no path template matches"}},
		{"undocumented method", "PUT", "/v2/pods/x", 200, jsonHeader, validPod, []string{"method PUT not documented", "GET, DELETE, PATCH"}},
		{"literal path beats parameter", "GET", "/v2/registries/delegations", 200, jsonHeader, `{"registries": []}`, []string{"listDelegations", "missing property 'delegations'"}},
		{"sse stream", "GET", "/v2/pods/x/logs", 200, http.Header{"Content-Type": {"text/event-stream"}}, "id: 1\ndata: {}\n\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := s.ValidateResponse(tc.method, tc.path, tc.status, tc.header, []byte(tc.body))
			checkErr(t, err, tc.wantErr)
		})
	}
}

func TestValidateResponseV1(t *testing.T) {
	s := LoadForTest(t, v1Name)
	pod := `{"id": "xedezhzb9la3ye", "desiredStatus": "RUNNING", "publicIp": null, "portMappings": null, "env": {"A": "b"}}`
	tests := []struct {
		name         string
		method, path string
		status       int
		header       http.Header
		body         string
		wantErr      []string
	}{
		{"pod with /v1 prefix", "GET", "/v1/pods/xedezhzb9la3ye", 200, jsonHeader, pod, nil},
		{"pod without prefix", "GET", "/pods/xedezhzb9la3ye", 200, jsonHeader, pod, nil},
		{"nullable accepts null", "GET", "/v1/pods/x", 200, jsonHeader, `{"publicIp": null}`, nil},
		{"nullable still typed", "GET", "/v1/pods/x", 200, jsonHeader, `{"publicIp": 7}`, []string{"at '/publicIp'"}},
		{"non-nullable rejects null", "GET", "/v1/pods/x", 200, jsonHeader, `{"desiredStatus": null}`, []string{"at '/desiredStatus'"}},
		{"bad enum", "GET", "/v1/pods/x", 200, jsonHeader, `{"desiredStatus": "DANCING"}`, []string{"at '/desiredStatus'"}},
		{"list", "GET", "/v1/pods?computeType=GPU", 200, jsonHeader, `[` + pod + `]`, nil},
		{"list must be array", "GET", "/v1/pods", 200, jsonHeader, pod, []string{"want array"}},
		{"delete 204", "DELETE", "/v1/pods/x", 204, nil, "", nil},
		{"undocumented 500", "GET", "/v1/pods/x", 500, jsonHeader, `{}`, []string{"status 500 not documented", "200, 400, 404"}},
		{"undocumented method", "PUT", "/v1/pods/x", 200, jsonHeader, pod, []string{"method PUT not documented"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := s.ValidateResponse(tc.method, tc.path, tc.status, tc.header, []byte(tc.body))
			checkErr(t, err, tc.wantErr)
		})
	}
}

func TestValidateRequest(t *testing.T) {
	v1 := LoadForTest(t, v1Name)
	v2 := LoadForTest(t, v2Name)
	tests := []struct {
		name         string
		spec         *Spec
		method, path string
		header       http.Header
		body         string
		wantErr      []string
	}{
		{"v2 create pod", v2, "POST", "/v2/pods", jsonHeader, `{"name": "p", "image": "nginx"}`, nil},
		{"v2 create pod without content-type", v2, "POST", "/v2/pods", nil, `{"name": "p", "image": "nginx"}`, nil},
		{"v2 create pod missing required", v2, "POST", "/v2/pods", jsonHeader, `{"name": "p"}`, []string{"POST /v2/pods", "createPod", "request", "missing property 'image'"}},
		{"v2 create pod wrong type", v2, "POST", "/v2/pods", jsonHeader, `{"name": "p", "image": 3}`, []string{"at '/image'", "want string"}},
		{"v2 unknown key in strict body", v2, "POST", "/v2/pods", jsonHeader, `{"name": "p", "image": "nginx", "bogus": 1}`, []string{"property 'bogus' is not allowed"}},
		{"v2 empty required body", v2, "POST", "/v2/pods", jsonHeader, ``, []string{"request body is required"}},
		{"v2 wrong content type", v2, "POST", "/v2/pods", http.Header{"Content-Type": {"text/plain"}}, `{"name": "p", "image": "nginx"}`, []string{"Content-Type text/plain not documented"}},
		{"v2 body on GET", v2, "GET", "/v2/pods", nil, `{"x": 1}`, []string{"no requestBody"}},
		{"v2 GET no body", v2, "GET", "/v2/pods?includeClusterPods=true", nil, ``, nil},
		{"v2 bad boolean query", v2, "GET", "/v2/pods?includeClusterPods=yes", nil, ``, []string{"query parameter includeClusterPods", "want boolean"}},
		{"v2 integer query bounds", v2, "GET", "/v2/pods/x/logs?tail=6000", nil, ``, []string{"query parameter tail", "maximum"}},
		{"v2 array query (explode=false)", v2, "GET", "/v2/catalog/gpus?countryCodes=US,DE&count=2", nil, ``, nil},
		{"v2 array query item pattern", v2, "GET", "/v2/catalog/gpus?countryCodes=US,de", nil, ``, []string{"at '/1'", "pattern"}},
		{"v2 create delegation (literal path)", v2, "POST", "/v2/registries/delegations", jsonHeader, `{}`, []string{"createDelegation"}},
		{"v1 create pod", v1, "POST", "/v1/pods", jsonHeader, `{"imageName": "nginx", "name": "p", "containerDiskInGb": null}`, nil},
		{"v1 create pod wrong type", v1, "POST", "/v1/pods", jsonHeader, `{"imageName": "nginx", "gpuCount": "one"}`, []string{"at '/gpuCount'"}},
		{"v1 bad query enum", v1, "GET", "/v1/pods?computeType=TPU", nil, ``, []string{"query parameter computeType"}},
		{"v1 repeated array query", v1, "GET", "/v1/pods?gpuTypeId=A&gpuTypeId=B", nil, ``, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.spec.ValidateRequest(tc.method, tc.path, tc.header, []byte(tc.body))
			checkErr(t, err, tc.wantErr)
		})
	}
}

func TestValidateSchema(t *testing.T) {
	s := LoadForTest(t, v2Name)
	tests := []struct {
		ref, body string
		wantErr   []string
	}{
		{"#/components/schemas/Pod", validPod, nil},
		{"Pod", validPod, nil},
		{"#/components/schemas/Pod", `{"id": 1}`, []string{"schema #/components/schemas/Pod", "at '/id'"}},
		{"#/components/schemas/ErrorResponse", `{"title": "t", "status": 400, "detail": "d", "errors": ["x"]}`, nil},
		{"#/components/schemas/NoSuchThing", `{}`, []string{"no such schema"}},
		{"#/paths/~1v2~1pods/get/responses/200/content/application~1json/schema", `{"pods": []}`, nil},
		{"../other.json#/x", `{}`, []string{"invalid ref"}},
		{"Pod", `not json`, []string{"not valid JSON"}},
	}
	for _, tc := range tests {
		t.Run(tc.ref, func(t *testing.T) {
			checkErr(t, s.ValidateSchema(tc.ref, []byte(tc.body)), tc.wantErr)
		})
	}
}

func TestFindOperation(t *testing.T) {
	v1 := LoadForTest(t, v1Name)
	v2 := LoadForTest(t, v2Name)
	tests := []struct {
		spec             *Spec
		method, path     string
		wantID, wantTmpl string // wantID "" means not found
	}{
		{v2, "GET", "/v2/registries/delegations", "listDelegations", "/v2/registries/delegations"},
		{v2, "POST", "/v2/registries/delegations", "createDelegation", "/v2/registries/delegations"},
		{v2, "GET", "/v2/registries/abc", "getRegistry", "/v2/registries/{id}"},
		{v2, "DELETE", "/v2/registries/delegations/d1", "revokeDelegation", "/v2/registries/delegations/{id}"},
		{v2, "DELETE", "/v2/registries/delegations", "", ""}, // literal path wins, has no DELETE
		{v2, "get", "/v2/pods?includeClusterPods=true", "listPods", "/v2/pods"},
		{v2, "GET", "/v2/pods/a%2Fb", "getPod", "/v2/pods/{id}"},
		{v2, "GET", "https://api.runpod.io/v2/pods/x/logs", "getPodLogs", "/v2/pods/{id}/logs"},
		{v2, "GET", "/v2/serverless/e1/workers/w1/logs", "getWorkerLogs", "/v2/serverless/{id}/workers/{workerId}/logs"},
		{v2, "GET", "/v2/pods/", "", ""},
		{v2, "GET", "/pods", "", ""},
		{v2, "GET", "", "", ""},
		{v1, "GET", "/v1/pods", "ListPods", "/pods"},
		{v1, "GET", "/pods", "ListPods", "/pods"},
		{v1, "POST", "/v1/pods/p1/update", "UpdatePod", "/pods/{podId}/update"},
		{v1, "PATCH", "/pods/p1", "UpdatePod", "/pods/{podId}"},
		{v1, "GET", "/v1/billing/pods", "PodBilling", "/billing/pods"},
		{v1, "GET", "/v1", "", ""},
		{v1, "GET", "/v2/pods", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			id, tmpl, ok := tc.spec.FindOperation(tc.method, tc.path)
			if ok != (tc.wantID != "") || id != tc.wantID || tmpl != tc.wantTmpl {
				t.Errorf("FindOperation = %q, %q, %v; want %q, %q", id, tmpl, ok, tc.wantID, tc.wantTmpl)
			}
		})
	}
}

func TestErrorUnwrapsSchemaError(t *testing.T) {
	s := LoadForTest(t, v2Name)
	err := s.ValidateResponse("GET", "/v2/pods/x", 200, jsonHeader, []byte(`{"id": 1}`))
	var ce *ContractError
	if !errors.As(err, &ce) || ce.Status != 200 || ce.OperationID != "getPod" || ce.Template != "/v2/pods/{id}" {
		t.Fatalf("want *ContractError for getPod 200, got %#v", err)
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Errorf("error does not unwrap to *jsonschema.ValidationError: %v", err)
	}
	// Many missing properties are still reported in a bounded message.
	if n := len(err.Error()); n > 4000 {
		t.Errorf("error message is %d bytes long", n)
	}
}

func TestSkipWhenSpecsDirMissing(t *testing.T) {
	t.Setenv(EnvContractReport, "") // the skip below is on purpose: not a contract test
	missing := filepath.Join(t.TempDir(), "does-not-exist")
	t.Setenv(EnvSpecsDir, missing)
	if _, err := SpecsDir(); !errors.Is(err, ErrSpecsNotFound) || !strings.Contains(err.Error(), missing) {
		t.Errorf("SpecsDir error = %v; want ErrSpecsNotFound naming %s", err, missing)
	}
	if _, err := Load(v2Name); !errors.Is(err, ErrSpecsNotFound) {
		t.Errorf("Load error = %v; want ErrSpecsNotFound", err)
	}
	var inner *testing.T
	t.Run("inner", func(t *testing.T) {
		inner = t
		LoadForTest(t, v2Name)
		t.Error("LoadForTest returned instead of skipping")
	})
	if !inner.Skipped() {
		t.Error("LoadForTest did not skip")
	}
}

func TestSpecFileMissingInExistingDir(t *testing.T) {
	t.Setenv(EnvSpecsDir, t.TempDir())
	if _, err := Load(v2Name); !errors.Is(err, ErrSpecsNotFound) {
		t.Errorf("Load error = %v; want ErrSpecsNotFound", err)
	}
	if _, err := Load("../v2.openapi.json"); err == nil || errors.Is(err, ErrSpecsNotFound) {
		t.Errorf("Load of a path-like name = %v; want an invalid-name error", err)
	}
}

func TestSpecsDirFromRepo(t *testing.T) {
	t.Setenv(EnvSpecsDir, "")
	dir, err := SpecsDir()
	if errors.Is(err, ErrSpecsNotFound) {
		t.Skipf("specs not found: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	shared := filepath.Base(dir) == "specs" && filepath.Base(filepath.Dir(dir)) == "shared"
	if !shared && filepath.Base(dir) != DownloadDir {
		t.Errorf("SpecsDir = %s; want <root>/../shared/specs or <root>/%s", dir, DownloadDir)
	}
	// The override accepts an existing directory.
	t.Setenv(EnvSpecsDir, dir)
	if got, err := SpecsDir(); err != nil || got != dir {
		t.Errorf("SpecsDir with override = %q, %v; want %q", got, err, dir)
	}
}

func TestConcurrentUse(t *testing.T) {
	LoadForTest(t, v2Name) // skip early when absent
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 8 {
		wg.Go(func() {
			s, err := Load(v2Name)
			if err != nil {
				errs <- err
				return
			}
			if err := s.ValidateResponse("GET", "/v2/pods/x", 200, jsonHeader, []byte(validPod)); err != nil {
				errs <- err
			}
			// lazily compiled refs, concurrently
			ref := []string{"#/components/schemas/Pod/properties/gpu", "#/components/schemas/Pod/properties/ssh"}[i%2]
			if err := s.ValidateSchema(ref, []byte(`{}`)); err == nil {
				errs <- fmt.Errorf("%s accepted {}", ref)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestConvert30 checks the OpenAPI 3.0 → draft 2020-12 conversion on an
// in-memory document; it needs no spec files.
func TestConvert30(t *testing.T) {
	doc := `{
	  "openapi": "3.0.3",
	  "servers": [{"url": "https://example.com/api/v9/"}],
	  "paths": {
	    "/things/{id}": {
	      "get": {"operationId": "getThing", "responses": {"200": {"description": "ok",
	        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}}
	    },
	    "/things/special": {
	      "get": {"operationId": "special", "responses": {"204": {"description": "none"}}}
	    }
	  },
	  "components": {"schemas": {
	    "Thing": {
	      "type": "object", "required": ["n"], "example": {"n": 1},
	      "properties": {
	        "n": {"type": "integer", "minimum": 0, "exclusiveMinimum": true, "maximum": 10, "exclusiveMaximum": false},
	        "s": {"type": "string", "nullable": true, "enum": ["a", "b"]},
	        "o": {"$ref": "#/components/schemas/Other", "description": "ignored sibling", "nullable": true},
	        "arr": {"type": "array", "items": {"type": "string", "nullable": true, "example": "x"}},
	        "example": {"type": "string"}
	      }
	    },
	    "Other": {"type": "object", "properties": {"x": {"type": "string"}}}
	  }}
	}`
	raw, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSpec("test.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	if s.BasePath() != "/api/v9" {
		t.Errorf("BasePath = %q", s.BasePath())
	}
	tests := []struct {
		body    string
		wantErr []string
	}{
		{`{"n": 1}`, nil},
		{`{"n": 0}`, []string{"at '/n'"}},  // exclusiveMinimum: true
		{`{"n": 10}`, nil},                 // exclusiveMaximum: false keeps maximum inclusive
		{`{"n": 11}`, []string{"at '/n'"}}, // maximum kept
		{`{"n": 1, "s": null}`, nil},
		{`{"n": 1, "s": "c"}`, []string{"at '/s'"}},
		{`{"n": 1, "o": {"x": "y"}}`, nil},
		{`{"n": 1, "o": null}`, []string{"at '/o'"}}, // $ref siblings (nullable) ignored
		{`{"n": 1, "arr": ["a", null]}`, nil},
		{`{"n": 1, "example": "a property named example survives"}`, nil},
		{`{"n": 1, "example": 5}`, []string{"at '/example'"}},
		{`{}`, []string{"missing property 'n'"}},
	}
	for _, tc := range tests {
		err := s.ValidateResponse("GET", "/api/v9/things/t1", 200, jsonHeader, []byte(tc.body))
		checkErr(t, err, tc.wantErr)
	}
	if id, _, _ := s.FindOperation("GET", "/api/v9/things/special"); id != "special" {
		t.Errorf("literal path: got %q", id)
	}
	if id, _, _ := s.FindOperation("GET", "/things/t1"); id != "getThing" {
		t.Errorf("path without base: got %q", id)
	}
}

func TestUnsupportedDocument(t *testing.T) {
	for _, doc := range []any{
		[]any{},
		map[string]any{"openapi": "2.0"},
		map[string]any{"openapi": "3.1.0"}, // no paths
	} {
		if _, err := newSpec("bad.json", doc); err == nil {
			t.Errorf("newSpec(%v) succeeded", doc)
		}
	}
}

func checkErr(t *testing.T, err error, want []string) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Errorf("unexpected error: %v", err)
		}
		return
	}
	if err == nil {
		t.Errorf("no error; want one containing %q", want)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error does not contain %q:\n%v", w, err)
		}
	}
}

func TestLongErrorsAreCapped(t *testing.T) {
	s := LoadForTest(t, v2Name)
	var pods []string
	for i := range 20 {
		pods = append(pods, fmt.Sprintf(`{"id": %d}`, i))
	}
	err := s.ValidateResponse("GET", "/v2/pods", 200, jsonHeader, []byte(`{"pods": [`+strings.Join(pods, ",")+`]}`))
	checkErr(t, err, []string{"listPods", "... and", "more"})
	if n := strings.Count(err.Error(), "\n"); n > maxSchemaErrors+3 {
		t.Errorf("error has %d lines:\n%v", n, err)
	}
	long := strings.Repeat("é", 500)
	if got := trim(long, 101); len(got) > 101+len("…") || !strings.HasSuffix(got, "…") {
		t.Errorf("trim produced %d bytes", len(got))
	}
}

func TestSchemaTypeAndCoerce(t *testing.T) {
	num := json.Number("1")
	tests := []struct {
		node map[string]any
		want string
	}{
		{map[string]any{"type": "integer"}, "integer"},
		{map[string]any{"type": []any{"null", "boolean"}}, "boolean"},
		{map[string]any{"enum": []any{"a", "b"}}, "string"},
		{map[string]any{"enum": []any{num}}, "number"},
		{map[string]any{"const": true}, "boolean"},
		{map[string]any{}, ""},
		{nil, ""},
	}
	for _, tc := range tests {
		if got := schemaType(tc.node); got != tc.want {
			t.Errorf("schemaType(%v) = %q; want %q", tc.node, got, tc.want)
		}
	}
	coerceTests := []struct {
		in, typ string
		want    any
	}{
		{"12", "integer", json.Number("12")},
		{"1.5", "number", json.Number("1.5")},
		{"x", "integer", "x"},
		{"12 ", "integer", "12 "},
		{"true", "boolean", true},
		{"false", "boolean", false},
		{"yes", "boolean", "yes"},
		{"12", "string", "12"},
	}
	for _, tc := range coerceTests {
		if got := coerce(tc.in, tc.typ); got != tc.want {
			t.Errorf("coerce(%q, %q) = %#v; want %#v", tc.in, tc.typ, got, tc.want)
		}
	}
}
