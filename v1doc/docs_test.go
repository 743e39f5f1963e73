package v1doc

import (
	"regexp"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
)

// GET /v1/docs: a self-contained HTML page rendering the document.

func TestDocsPage(t *testing.T) {
	page := string(DocsPage())
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, `<meta charset="utf-8">`) {
		t.Fatalf("not an HTML5 page: %.200s", page)
	}
	if first, again := DocsPage(), DocsPage(); &first[0] != &again[0] {
		t.Error("the page is rendered more than once")
	}
	// Self-contained: no scripts, no external styles, fonts or images (users
	// behind firewalls); the only link out is the document, relative.
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "@import", "url(", "src=", "http://", "https://", "//cdn"} {
		if strings.Contains(strings.ToLower(page), bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
	if !strings.Contains(page, `href="openapi.json"`) {
		t.Error("no relative link to openapi.json")
	}
	// Every operation, its v2 calls and its deviations.
	for i := range translate.Operations {
		op := &translate.Operations[i]
		anchor := `id="op-` + op.Name + `"`
		if !strings.Contains(page, anchor) || !strings.Contains(page, `href="#op-`+op.Name+`"`) {
			t.Errorf("%s: no section or no link", op.Name)
			continue
		}
		section := page[strings.Index(page, anchor):]
		section = section[:strings.Index(section, "</section>")]
		if !strings.Contains(section, "<code>/v1"+op.Path+"</code>") || !strings.Contains(section, ">"+op.Method+"<") {
			t.Errorf("%s: method or path missing", op.Name)
		}
		for _, c := range op.V2 {
			if !strings.Contains(section, "<code>"+c+"</code>") {
				t.Errorf("%s: v2 call %s missing", op.Name, c)
			}
		}
		for _, n := range opDocs[op.Name].notes {
			if !strings.Contains(section, htmlEscape(n)) {
				t.Errorf("%s: note %q missing", op.Name, n)
			}
		}
		if op.Public != strings.Contains(section, "no authentication</span>") {
			t.Errorf("%s: public %v not shown", op.Name, op.Public)
		}
	}
	// Fields of request and answer schemas, and what is never returned.
	for _, want := range []string{`id="schema-PodCreateInput"`, `<code>gpuTypeIds</code>`, `id="schema-NetworkVolume"`,
		`<code>diskSpaceBilledGb</code>: v2 billing records carry no disk space`, `<code>userId</code></td><td>string, nullable`, `<code>dataCenterId</code> *`, "Never returned"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	// Balanced structure (html/template escapes all text).
	for _, tag := range []string{"section", "table", "tr", "ul", "p", "h2", "h3", "nav", "article", "main", "header"} {
		open := len(regexp.MustCompile(`<`+tag+`[ >]`).FindAllString(page, -1))
		if closed := strings.Count(page, "</"+tag+">"); open != closed {
			t.Errorf("<%s>: %d opened, %d closed", tag, open, closed)
		}
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;").Replace(s)
}

func TestSchemaType(t *testing.T) {
	lo, hi := 10.0, 4096.0
	tests := []struct {
		s    *oaSchema
		want string
	}{
		{refSchema("Pod"), "Pod"},
		{arraySchema(refSchema("Pod"), ""), "array of Pod"},
		{envSchema(), "map of string"},
		{&oaSchema{Type: "integer", Minimum: &lo, Maximum: &hi, Nullable: true}, "integer, 10–4096, nullable"},
		{&oaSchema{Type: "integer", Minimum: &lo}, "integer, ≥ 10"},
		{&oaSchema{Type: "string", Format: "date-time", Enum: []string{"b", "a"}}, "string (date-time), one of a, b"},
		{&oaSchema{Type: "string", Enum: oaEnums["gpuTypeId"]}, "string, one of AMD Instinct MI300X OAM"},
		{nil, ""},
	}
	for _, tc := range tests {
		if got := schemaType(tc.s); !strings.HasPrefix(got, tc.want) {
			t.Errorf("schemaType = %q, want %q", got, tc.want)
		}
	}
}
