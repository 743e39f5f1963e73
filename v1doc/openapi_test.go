package v1doc

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/internal/speccheck"
	"github.com/v1gateway/v1gateway/translate"
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
	if n != len(translate.Operations) {
		t.Errorf("%d operations in the document, %d in the table", n, len(translate.Operations))
	}
	for i := range translate.Operations {
		op := &translate.Operations[i]
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
		if _, ok := translate.Lookup(name); !ok {
			t.Errorf("opDocs documents %s, which is not in the table", name)
		}
	}
}

// loadOwnSpec writes the document where speccheck can load it, and loads
// it (every schema compiled).
func loadOwnSpec(t *testing.T) *speccheck.Spec {
	t.Helper()
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
	for i := range translate.Operations {
		op := &translate.Operations[i]
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

// For gives the generator of the answer of exactly the KindStatic
// operations, which have no plan in translate's table (the proxy serves
// them with For): the document (JSON) and the page (HTML).
func TestForServesTheStaticOperations(t *testing.T) {
	for i := range translate.Operations {
		op := &translate.Operations[i]
		get := For(op)
		if (get != nil) != (op.Kind == translate.KindStatic) {
			t.Errorf("%s (kind %s): For gives a generator: %v", op.Name, op.Kind, get != nil)
		}
		if op.Kind == translate.KindStatic && op.Plan != nil {
			t.Errorf("%s: a plan in translate's table as well", op.Name)
		}
	}
	op, _ := translate.Lookup("GetOpenAPI")
	if b := For(op)(); !json.Valid(b) || !bytes.Equal(b, OpenAPIDocument()) {
		t.Error("GetOpenAPI does not answer the document")
	}
	op, _ = translate.Lookup("GetDocs")
	if b := For(op)(); !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) || !bytes.Equal(b, DocsPage()) {
		t.Error("GetDocs does not answer the page")
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
