package proxy

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/v1doc"
)

// End to end: GET /v1/openapi.json and GET /v1/docs, served without a key
// and without any v2 call: the document and page package v1doc generates.

func TestE2EDocs(t *testing.T) {
	e := newE2E(t, e2eOpts{})

	// openapi.json: e.call checks the answer against the v1 contract.
	r, calls := func() (*e2eResp, []string) {
		n := len(e.sim.Calls())
		r := e.call(e.gw, "", "GET", "/v1/openapi.json", "")
		return r, e.rsSimCalls(n)
	}()
	e.want(r, 200)
	e.rsWantCalls(calls)
	var doc struct {
		OpenAPI string `json:"openapi"`
		Servers []struct {
			URL string `json:"url"`
		} `json:"servers"`
		Paths map[string]map[string]struct {
			OperationID string   `json:"operationId"`
			V2Calls     []string `json:"x-v2-calls"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.0.3" || len(doc.Servers) == 0 || doc.Servers[0].URL != "/v1" {
		t.Errorf("openapi %q servers %v", doc.OpenAPI, doc.Servers)
	}
	for i := range translate.Operations {
		op := &translate.Operations[i]
		if o, ok := doc.Paths[op.Path][strings.ToLower(op.Method)]; !ok || o.OperationID != op.OperationID {
			t.Errorf("%s missing from the served document", op.Name)
		}
	}
	if !bytes.Equal(r.body, v1doc.OpenAPIDocument()) {
		t.Error("the served document is not v1doc's")
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	if r.header.Get("Deprecation") == "" {
		t.Error("no Deprecation header")
	}
	// Also with a key, and with a wrong one: the documents are public.
	e.want(e.call(e.gw, "k1", "GET", "/v1/openapi.json", ""), 200)
	e.want(e.call(e.gw, "nonsense", "GET", "/v1/openapi.json", ""), 200)

	// docs: HTML (not checked by e.call: the v1 contract documents text/html).
	n := len(e.sim.Calls())
	resp, err := http.Get(e.gw + "/v1/docs")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("docs: %d %s", resp.StatusCode, body)
	}
	e.rsWantCalls(e.rsSimCalls(n))
	if !bytes.Equal(body, v1doc.DocsPage()) {
		t.Error("the served page is not v1doc's")
	}
	page := string(body)
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, `href="openapi.json"`) || strings.Contains(page, "<script") {
		t.Errorf("docs page %.300s", page)
	}
	for i := range translate.Operations {
		if op := &translate.Operations[i]; !strings.Contains(page, "<code>/v1"+op.Path+"</code>") {
			t.Errorf("docs page lacks %s %s", op.Method, op.Path)
		}
	}

	// Content-Type and Cache-Control come from translate.Operation's
	// ContentType / CacheControl.
	op, _ := translate.Lookup("GetDocs")
	if ct := resp.Header.Get("Content-Type"); ct != op.ContentType() || !strings.HasPrefix(ct, "text/html") {
		t.Errorf("Content-Type %q, want %q", ct, op.ContentType())
	}
	if cc := resp.Header.Get("Cache-Control"); cc == "" || cc != op.CacheControl() {
		t.Errorf("Cache-Control %q, want %q", cc, op.CacheControl())
	}
}
