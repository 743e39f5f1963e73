package translate

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/internal/speccheck"

	"github.com/v1gateway/v1gateway/podjson"
)

// The gateway's own v1 OpenAPI document (P10): generated from the operation
// table, valid OpenAPI 3.0 whose schemas compile, covering every operation
// of the vendor's v1 contract with the same operationId, and describing the
// answers the gateway actually gives.

// rawDoc decodes the served document generically.
func rawDoc(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(OpenAPIDocument(), &m); err != nil {
		t.Fatalf("the document is not JSON: %v", err)
	}
	return m
}

func TestOpenAPIDocumentFromTheTable(t *testing.T) {
	d, _ := openAPI()
	if len(d.schemaErrs) > 0 {
		t.Fatalf("schema generator:\n%s", strings.Join(d.schemaErrs, "\n"))
	}
	m := rawDoc(t)
	if m["openapi"] != "3.0.3" {
		t.Errorf("openapi %v", m["openapi"])
	}
	servers, _ := m["servers"].([]any)
	if len(servers) == 0 || servers[0].(map[string]any)["url"] != "/v1" {
		t.Errorf("servers %v: want a relative /v1", servers)
	}
	paths, _ := m["paths"].(map[string]any)
	n := 0
	for _, item := range paths {
		n += len(item.(map[string]any))
	}
	if n != len(Operations) {
		t.Errorf("%d operations in the document, %d in the table", n, len(Operations))
	}
	for i := range Operations {
		op := &Operations[i]
		t.Run(op.Name, func(t *testing.T) {
			item, _ := paths[op.Path].(map[string]any)
			o, _ := item[strings.ToLower(op.Method)].(map[string]any)
			if o == nil {
				t.Fatalf("%s %s missing", op.Method, op.Path)
			}
			if o["operationId"] != op.OperationID || o["x-gateway-operation"] != op.Name {
				t.Errorf("operationId %v, x-gateway-operation %v", o["operationId"], o["x-gateway-operation"])
			}
			calls := []string{}
			for _, c := range o["x-v2-calls"].([]any) {
				calls = append(calls, c.(string))
			}
			if !slices.Equal(calls, op.V2) && !(len(calls) == 0 && len(op.V2) == 0) {
				t.Errorf("x-v2-calls %v, table %v", calls, op.V2)
			}
			resp, _ := o["responses"].(map[string]any)
			if resp[strconv.Itoa(op.Success)] == nil {
				t.Errorf("success status %d not documented", op.Success)
			}
			sec, hasSec := o["security"]
			switch {
			case op.Public && (!hasSec || len(sec.([]any)) != 0):
				t.Errorf("public operation: security %v, want []", sec)
			case !op.Public && hasSec:
				t.Errorf("authenticated operation overrides security: %v", sec)
			}
			if s, _ := o["summary"].(string); s == "" || s == op.Name {
				t.Errorf("no summary (add %s to opDocs)", op.Name)
			}
			if _, ok := opDocs[op.Name]; !ok && !strings.HasSuffix(op.Name, "ViaPost") {
				t.Errorf("no opDocs entry")
			}
			for _, p := range pathParamRE.FindAllStringSubmatch(op.Path, -1) {
				if pathParamDocs[p[1]] == "" {
					t.Errorf("path parameter %s undocumented", p[1])
				}
			}
		})
	}
	for name := range opDocs {
		if _, ok := Lookup(name); !ok {
			t.Errorf("opDocs documents %s, which is not in the table", name)
		}
	}
}

// writeDoc writes the document where speccheck can load it, after the
// package's own contract specs were loaded (they are cached per process:
// the spec directory override must not hide them).
func loadOwnSpec(t *testing.T) *speccheck.Spec {
	t.Helper()
	loadSpecs(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gateway.openapi.json"), OpenAPIDocument(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(speccheck.EnvSpecsDir, dir)
	s, err := speccheck.Load("gateway.openapi.json")
	if err != nil {
		t.Fatalf("the document does not load as OpenAPI 3.0 (every schema compiled): %v", err)
	}
	return s
}

func TestOpenAPIDocumentIsValidOpenAPI(t *testing.T) {
	s := loadOwnSpec(t)
	if s.OpenAPIVersion() != "3.0.3" || s.BasePath() != "/v1" {
		t.Errorf("version %q base %q", s.OpenAPIVersion(), s.BasePath())
	}
	for i := range Operations {
		op := &Operations[i]
		id, tmpl, ok := s.FindOperation(op.Method, "/v1"+op.Path)
		if !ok || id != op.OperationID || tmpl != op.Path {
			t.Errorf("%s: found %q %q %v", op.Name, id, tmpl, ok)
		}
	}
	// Structural rules of OpenAPI 3.0 the schema compiler does not check.
	m := rawDoc(t)
	refs := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if r, ok := x["$ref"].(string); ok {
				refs[r] = true
				if len(x) != 1 {
					t.Errorf("$ref %s has siblings (ignored by OpenAPI 3.0): %v", r, x)
				}
			}
			if typ, ok := x["type"]; ok {
				if _, isStr := typ.(string); !isStr {
					t.Errorf("type %v is not a string (OpenAPI 3.0)", typ)
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(m)
	for r := range refs {
		parts := strings.Split(strings.TrimPrefix(r, "#/"), "/")
		var cur any = m
		for _, p := range parts {
			cur, _ = cur.(map[string]any)[p]
		}
		if cur == nil {
			t.Errorf("unresolved $ref %s", r)
		}
	}
	if info, _ := m["info"].(map[string]any); info["title"] == "" || info["version"] == "" {
		t.Errorf("info %v", info)
	}
	for path, item := range m["paths"].(map[string]any) {
		for method, o := range item.(map[string]any) {
			params, _ := o.(map[string]any)["parameters"].([]any)
			for _, p := range params {
				pm := p.(map[string]any)
				if pm["in"] == "path" && pm["required"] != true {
					t.Errorf("%s %s: path parameter %v not required", method, path, pm["name"])
				}
				if pm["in"] == "path" && !strings.Contains(path, "{"+pm["name"].(string)+"}") {
					t.Errorf("%s %s: path parameter %v not in the path", method, path, pm["name"])
				}
			}
		}
	}
}

// Every operation of the vendor's v1 contract is in the document with the
// same operationId, with every query parameter v1 documented, and every
// field of v1's request schemas; every field of v1's answer schemas is
// either described or listed as never returned (x-omitted).
func TestOpenAPICoversTheV1Contract(t *testing.T) {
	v1 := speccheck.LoadForTest(t, "v1.openapi.json")
	dir, err := speccheck.SpecsDir()
	if err != nil {
		t.Skip(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "v1.openapi.json"))
	if err != nil {
		t.Skip(err)
	}
	var vendor map[string]any
	if err := json.Unmarshal(b, &vendor); err != nil {
		t.Fatal(err)
	}
	own := rawDoc(t)
	ownPaths := own["paths"].(map[string]any)
	ownSchemas := own["components"].(map[string]any)["schemas"].(map[string]any)
	for _, vo := range v1.Operations() {
		o, _ := ownPaths[vo.Path].(map[string]any)[strings.ToLower(vo.Method)].(map[string]any)
		if o == nil {
			t.Errorf("v1 %s %s (%s) missing from the gateway's document", vo.Method, vo.Path, vo.OperationID)
			continue
		}
		if o["operationId"] != vo.OperationID {
			t.Errorf("%s %s: operationId %v, v1 %s", vo.Method, vo.Path, o["operationId"], vo.OperationID)
		}
		vop := vendor["paths"].(map[string]any)[vo.Path].(map[string]any)[strings.ToLower(vo.Method)].(map[string]any)
		ownParams := map[string]bool{}
		oparams, _ := o["parameters"].([]any)
		for _, p := range oparams {
			pm := p.(map[string]any)
			ownParams[pm["in"].(string)+":"+pm["name"].(string)] = true
		}
		vparams, _ := vop["parameters"].([]any)
		for _, p := range vparams {
			pm := p.(map[string]any)
			if k := pm["in"].(string) + ":" + pm["name"].(string); !ownParams[k] {
				t.Errorf("%s %s: v1 parameter %s not documented", vo.Method, vo.Path, k)
			}
		}
		if rb, ok := vop["requestBody"].(map[string]any); ok {
			vref := rb["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)["$ref"].(string)
			orb, _ := o["requestBody"].(map[string]any)
			if orb == nil {
				t.Errorf("%s %s: no request body", vo.Method, vo.Path)
				continue
			}
			oref := orb["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)["$ref"].(string)
			vs := schemaAt(vendor, vref)
			ownS := schemaAt(own, oref)
			for f := range vs["properties"].(map[string]any) {
				if _, ok := ownS["properties"].(map[string]any)[f]; !ok {
					t.Errorf("%s %s: v1 request field %s of %s not declared in %s", vo.Method, vo.Path, f, vref, oref)
				}
			}
		}
	}
	// Answer schemas: v1 schema → the gateway's.
	for v1Name, ownName := range map[string]string{"Pod": "Pod", "Endpoint": "Endpoint", "Template": "Template", "NetworkVolume": "NetworkVolume",
		"ContainerRegistryAuth": "ContainerRegistryAuth", "BillingRecord": "BillingRecord", "NetworkVolumeBillingRecord": "NetworkVolumeBillingRecord"} {
		vs := vendor["components"].(map[string]any)["schemas"].(map[string]any)[v1Name].(map[string]any)
		ownS := ownSchemas[ownName].(map[string]any)
		props, _ := ownS["properties"].(map[string]any)
		omitted, _ := ownS["x-omitted"].(map[string]any)
		for f := range vs["properties"].(map[string]any) {
			if props[f] == nil && omitted[f] == nil {
				t.Errorf("%s.%s is neither described nor listed in x-omitted", ownName, f)
			}
			if props[f] != nil && omitted[f] != nil {
				t.Errorf("%s.%s is both described and omitted", ownName, f)
			}
		}
		for f := range props {
			if vs["properties"].(map[string]any)[f] == nil && !slices.Contains(answerExtras[ownName], f) {
				t.Errorf("%s.%s is not a v1 field", ownName, f)
			}
		}
	}
}

func schemaAt(doc map[string]any, ref string) map[string]any {
	name := strings.TrimPrefix(ref, "#/components/schemas/")
	return doc["components"].(map[string]any)["schemas"].(map[string]any)[name].(map[string]any)
}

// The answers the gateway gives validate against its own document (and
// against v1's, checked by run()).
func TestOpenAPIDescribesTheGatewaysAnswers(t *testing.T) {
	own := loadOwnSpec(t)
	h := http.Header{"Content-Type": {"application/json"}}
	check := func(method, path string, status int, body []byte) {
		t.Helper()
		if err := own.ValidateResponse(method, path, status, h, body); err != nil {
			t.Errorf("%v\n%s", err, body)
		}
	}
	// Pods: every shape R-Pod produces.
	full := podjson.V1PodFrom(mustDecodePod(t, pod("p1")))
	full.Machine = &podjson.V1PodMachine{GpuTypeID: "NVIDIA A40", DataCenterID: "US-TX-3", SecureCloud: ptrTo(true), GpuType: &podjson.V1MachineGPU{ID: "NVIDIA A40"}}
	full.NetworkVolume = &podjson.V1PodNetworkVolume{ID: "v", Name: "n", Size: 10, DataCenterID: "EU-RO-1"}
	full.Template = &podjson.V1PodTemplateView{ID: "t", Name: "t", ImageName: "i", Env: jsonEmptyObject, Ports: jsonEmptyArray}
	cpu := podjson.V1PodFrom(mustDecodePod(t, pod("p2", cpuPod)))
	check("GET", "/v1/pods/p1", 200, podAnswer(200, &full).Body)
	check("POST", "/v1/pods", 201, podAnswer(201, &cpu).Body)
	check("GET", "/v1/pods", 200, podjson.AppendV1Pods(nil, []podjson.V1Pod{full, cpu}))
	check("GET", "/v1/pods", 200, mustJSON(t, []v1Worker{{ID: "w", DesiredStatus: "RUNNING", EndpointID: "e", AiAPIID: "e", SlsVersion: ptrTo(3)}}))
	check("POST", "/v1/pods/p1/start", 200, podAnswer(200, &full).Body)

	// This helper's operations, through their plans.
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		params map[string]string
		query  string
		body   string
		answer string
	}{
		{name: "CreateNetworkVolume", body: `{"name":"d","size":10,"dataCenterId":"EU-RO-1"}`, answer: v2Volume("vol1", 10)},
		{name: "ListNetworkVolumes", answer: `{"networkVolumes":[` + v2Volume("vol1", 10) + `]}`},
		{name: "GetNetworkVolume", params: volParams, answer: v2Volume("vol1", 10)},
		{name: "UpdateNetworkVolumeViaPost", params: volParams, body: `{"name":"x"}`, answer: v2Volume("vol1", 10)},
		{name: "DeleteNetworkVolume", params: volParams},
		{name: "CreateContainerRegistryAuth", body: `{"name":"a","username":"b","password":"c"}`, answer: `{"id":"r","name":"a"}`},
		{name: "ListContainerRegistryAuths", answer: `{"registries":[{"id":"r","name":"a"}]}`},
		{name: "GetContainerRegistryAuth", params: regParams, answer: `{"id":"r","name":"a"}`},
		{name: "DeleteContainerRegistryAuth", params: regParams},
		{name: "PodBilling", query: "grouping=podId", answer: podBilling(billRec{day: 1, id: "p", amount: 1})},
		{name: "EndpointBilling", answer: serverlessBilling(billRec{day: 1, id: "e", amount: 1})},
		{name: "NetworkVolumeBilling", answer: volumeBilling(billRec{day: 1, id: "v", amount: 1, hp: 1})},
	} {
		op := mustOp(t, tc.name)
		q, _ := url.ParseQuery(tc.query)
		res := op.Plan(ctx, &Request{Op: op, Params: tc.params, Query: q, Body: []byte(tc.body)}, callerFunc(func(c V2Call) (*V2Answer, error) {
			if c.Method == "DELETE" {
				return &V2Answer{Status: 204}, nil
			}
			return &V2Answer{Status: 200, Body: []byte(tc.answer)}, nil
		}))
		path := "/v1" + op.Path
		for k, v := range tc.params {
			path = strings.ReplaceAll(path, "{"+k+"}", v)
		}
		if res.Status != op.Success {
			t.Errorf("%s: %d %s", tc.name, res.Status, res.Body)
			continue
		}
		if res.Status == 204 {
			if err := own.ValidateResponse(op.Method, path, 204, http.Header{}, nil); err != nil {
				t.Error(err)
			}
			continue
		}
		check(op.Method, path, res.Status, res.Body)
	}
	// Errors.
	check("GET", "/v1/networkvolumes/x", 404, EncodeV1Error("not found"))
	if err := own.ValidateResponse("GET", "/v1/pods", 429, http.Header{"Content-Type": {"application/json"}, "Retry-After": {"3"}}, EncodeV1Error("slow")); err != nil {
		t.Error(err)
	}
	// The two public documents.
	if err := own.ValidateResponse("GET", "/v1/openapi.json", 200, h, OpenAPIDocument()); err != nil {
		t.Error(err)
	}
	if err := own.ValidateResponse("GET", "/v1/docs", 200, http.Header{"Content-Type": {docsContentType}}, DocsPage()); err != nil {
		t.Error(err)
	}
}

func mustDecodePod(t *testing.T, s string) *podjson.V2Pod {
	t.Helper()
	p, err := podjson.DecodePod([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOpenAPIGeneratorCatchesUnknownTypes(t *testing.T) {
	g := newSchemaGen()
	type odd struct {
		Raw json.RawMessage `json:"raw"`
		Ch  chan int        `json:"ch"`
		M   jsonMarshaler   `json:"m"`
		E   string          `json:"e" enum:"nope"`
		D   int             `json:"d" default:"{"`
	}
	g.object(reflect.TypeFor[odd]())
	if len(g.errs) != 5 {
		t.Errorf("errors %q, want one per field", g.errs)
	}
}

type jsonMarshaler struct{}

func (jsonMarshaler) MarshalJSON() ([]byte, error) { return nil, errors.New("x") }

func TestStaticPlansMakeNoCall(t *testing.T) {
	for _, name := range []string{"GetOpenAPI", "GetDocs"} {
		op := mustOp(t, name)
		res := op.Plan(context.Background(), &Request{Op: op}, callerFunc(func(c V2Call) (*V2Answer, error) {
			t.Errorf("%s made a v2 call: %v", name, c)
			return nil, errors.New("no")
		}))
		if res.Status != 200 || len(res.Body) == 0 {
			t.Errorf("%s: %d", name, res.Status)
		}
		if !op.Public || op.CacheControl() == "" {
			t.Errorf("%s: public %v, Cache-Control %q", name, op.Public, op.CacheControl())
		}
	}
	if op := mustOp(t, "GetOpenAPI"); !json.Valid(op.Plan(context.Background(), &Request{Op: op}, nil).Body) || op.ContentType() != "application/json" {
		t.Error("GetOpenAPI answers JSON")
	}
	if op := mustOp(t, "GetDocs"); !strings.HasPrefix(op.ContentType(), "text/html") {
		t.Errorf("GetDocs content type %q", op.ContentType())
	}
	for i := range Operations {
		op := &Operations[i]
		if op.Kind != KindStatic && (op.CacheControl() != "" || op.ContentType() != "application/json") {
			t.Errorf("%s: Cache-Control %q, Content-Type %q", op.Name, op.CacheControl(), op.ContentType())
		}
	}
}

// The descriptions of answer fields name fields the answer types have (a
// renamed field would silently lose its description).
func TestOpenAPIFieldDocsNameRealFields(t *testing.T) {
	d, _ := openAPI()
	for schema, docs := range map[string]map[string]string{"Pod": podFieldDocs, "Endpoint": endpointFieldDocs, "Template": templateFieldDocs} {
		s, _ := d.Components.Schemas.get(schema)
		for f := range docs {
			p, ok := s.Properties.get(f)
			if !ok {
				t.Errorf("%s has no field %s", schema, f)
			} else if p.Description != docs[f] && p.Ref == "" {
				t.Errorf("%s.%s: description not applied", schema, f)
			}
		}
	}
}
