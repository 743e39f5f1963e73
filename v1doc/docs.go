package v1doc

import (
	"bytes"
	"encoding/json"
	"html/template"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// GET /v1/docs (P10): a self-contained HTML page rendering the document
// (openapi.go), server-side, without any external script, style or font
// (users behind firewalls).

var (
	docsOnce sync.Once
	docsHTML []byte
)

// DocsPage returns the HTML documentation page, rendered once from the
// OpenAPI document. The slice is shared: do not modify it.
func DocsPage() []byte {
	docsOnce.Do(func() {
		doc, _ := openAPI()
		var b bytes.Buffer
		if err := docsTemplate.Execute(&b, newDocsView(doc)); err != nil {
			b.Reset()
			b.WriteString("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>v1gateway</title></head><body><p>The documentation page could not be rendered: ")
			template.HTMLEscape(&b, []byte(err.Error()))
			b.WriteString(". The OpenAPI document is at <a href=\"openapi.json\">openapi.json</a>.</p></body></html>")
		}
		docsHTML = b.Bytes()
	})
	return docsHTML
}

// ---------------------------------------------------------------------------
// The page's view of the document.

type docsView struct {
	Title, Version string
	Intro          []string
	Groups         []docsGroup
	Schemas        []docsSchema
}

type docsGroup struct {
	Tag, Desc string
	Ops       []docsOp
}

type docsOp struct {
	Anchor, Method, Path, Summary, OperationID, Name string
	Public                                           bool
	V2Calls, Notes                                   []string
	Params                                           []docsField
	Body                                             string // schema name
	Responses                                        []docsResponse
}

type docsResponse struct {
	Status, Desc, Media, Type string
	Ref                       string // component schema the body is (an array) of
}

type docsField struct {
	Name, In, Type, Default, Desc string
	Required                      bool
}

type docsSchema struct {
	Name, Desc string
	Fields     []docsField
	Omitted    []docsField
}

func newDocsView(d *oaDocument) *docsView {
	v := &docsView{Title: d.Info.Title, Version: d.Info.Version}
	v.Intro = append(v.Intro, strings.Split(d.Info.Description, "\n\n")...)
	groups := map[string]*docsGroup{}
	for _, t := range d.Tags {
		v.Groups = append(v.Groups, docsGroup{Tag: t.Name, Desc: t.Description})
	}
	for i := range v.Groups {
		groups[v.Groups[i].Tag] = &v.Groups[i]
	}
	for _, pi := range d.Paths {
		for _, mo := range pi.Value {
			o := mo.Value
			op := docsOp{
				Anchor: "op-" + o.XGatewayOperation, Method: strings.ToUpper(mo.Key), Path: "/v1" + pi.Key,
				Summary: o.Summary, OperationID: o.OperationID, Name: o.XGatewayOperation,
				Public: o.Security != nil, V2Calls: o.XV2Calls, Notes: o.XDeviations,
			}
			for _, p := range o.Parameters {
				op.Params = append(op.Params, docsField{Name: p.Name, In: p.In, Type: schemaType(p.Schema), Default: string(p.Schema.Default), Desc: p.Description, Required: p.Required})
			}
			if o.RequestBody != nil {
				op.Body = o.RequestBody.schemaName
			}
			for _, r := range o.Responses {
				resp := r.Value
				dr := docsResponse{Status: r.Key}
				if resp.Ref != "" {
					name := strings.TrimPrefix(resp.Ref, "#/components/responses/")
					if c, ok := d.Components.Responses.get(name); ok {
						resp = c
					}
				}
				dr.Desc = resp.Description
				for _, c := range resp.Content {
					dr.Media, dr.Type = c.Key, schemaType(c.Value.Schema)
					if sch := c.Value.Schema; sch.Ref != "" {
						dr.Ref = dr.Type
					} else if sch.Items != nil && sch.Items.Ref != "" {
						dr.Ref = schemaType(sch.Items)
					}
				}
				op.Responses = append(op.Responses, dr)
			}
			if g := groups[o.Tags[0]]; g != nil {
				g.Ops = append(g.Ops, op)
			}
		}
	}
	for _, s := range d.Components.Schemas {
		ds := docsSchema{Name: s.Key, Desc: s.Value.Description}
		req := map[string]bool{}
		for _, r := range s.Value.Required {
			req[r] = true
		}
		for _, p := range s.Value.Properties {
			ds.Fields = append(ds.Fields, docsField{Name: p.Key, Type: schemaType(p.Value), Default: string(p.Value.Default), Desc: p.Value.Description, Required: req[p.Key]})
		}
		for _, o := range s.Value.XOmitted {
			ds.Omitted = append(ds.Omitted, docsField{Name: o.Key, Desc: o.Value})
		}
		v.Schemas = append(v.Schemas, ds)
	}
	return v
}

// schemaType is a short human description of a schema's type.
func schemaType(s *oaSchema) string {
	if s == nil {
		return ""
	}
	if s.Ref != "" {
		return s.Ref[strings.LastIndexByte(s.Ref, '/')+1:]
	}
	t := s.Type
	switch {
	case t == "array" && s.Items != nil:
		t = "array of " + schemaType(s.Items)
	case t == "object" && s.AdditionalProperties != nil:
		t = "map of " + schemaType(s.AdditionalProperties)
	}
	if s.Format != "" {
		t += " (" + s.Format + ")"
	}
	if len(s.Enum) > 0 {
		vals := append([]string(nil), s.Enum...)
		sort.Strings(vals)
		if len(vals) > 8 {
			t += ", one of " + strings.Join(vals[:8], ", ") + ", … (" + itoa(len(vals)) + " values)"
		} else {
			t += ", one of " + strings.Join(vals, ", ")
		}
	}
	if s.Minimum != nil || s.Maximum != nil {
		t += ", " + bounds(s.Minimum, s.Maximum)
	}
	if s.Nullable {
		t += ", nullable"
	}
	return t
}

func bounds(lo, hi *float64) string {
	switch {
	case lo != nil && hi != nil:
		return ftoa(*lo) + "–" + ftoa(*hi)
	case lo != nil:
		return "≥ " + ftoa(*lo)
	default:
		return "≤ " + ftoa(*hi)
	}
}

// ftoa formats f as encoding/json does (the document's bounds are written
// the same way).
func ftoa(f float64) string {
	b, err := json.Marshal(f)
	if err != nil {
		return strconv.FormatFloat(f, 'g', -1, 64) // NaN or ±Inf: not JSON
	}
	return string(b)
}

func itoa(n int) string { return strconv.Itoa(n) }

var docsTemplate = template.Must(template.New("docs").Funcs(template.FuncMap{
	"lower": strings.ToLower,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1b1f24;background:#fff}
header{background:#1b1f24;color:#fff;padding:1.2em 2em}header h1{margin:0;font-size:1.5em}header a{color:#9cdcfe}
main{display:flex;align-items:flex-start}nav{position:sticky;top:0;max-height:100vh;overflow:auto;min-width:17em;padding:1em;border-right:1px solid #ddd;font-size:.9em}
nav ul{list-style:none;padding-left:.5em;margin:.2em 0 .8em}nav a{text-decoration:none;color:#0b5cad}
article{padding:1em 2em;max-width:70em;min-width:0}section.op{border:1px solid #ddd;border-radius:6px;padding:.2em 1em 1em;margin:1.2em 0}
h2{border-bottom:2px solid #1b1f24;padding-bottom:.2em;margin-top:1.6em}h3{font-size:1.1em}
.m{display:inline-block;min-width:4.5em;text-align:center;border-radius:4px;color:#fff;font-size:.8em;padding:.1em .4em;margin-right:.4em}
.GET{background:#2f7d32}.POST{background:#0b5cad}.PATCH{background:#a05a00}.DELETE{background:#b3261e}
code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f4f6;padding:0 .25em;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:.4em 0;font-size:.92em}th,td{border:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}th{background:#f6f8fa}
.note{color:#57606a}.tag{color:#57606a;font-size:.9em}.pub{background:#e6f4ea;color:#1e4620;border-radius:4px;padding:0 .4em;font-size:.8em}
ul.dev li{margin:.2em 0}
</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
<div>Version {{.Version}} · <a href="openapi.json">openapi.json</a></div>
</header>
<main>
<nav>
{{range .Groups}}<strong>{{.Tag}}</strong>
<ul>{{range .Ops}}<li><a href="#{{.Anchor}}"><code>{{.Method}}</code> {{.Path}}</a></li>{{end}}</ul>
{{end}}<strong><a href="#schemas">Schemas</a></strong>
</nav>
<article>
{{range .Intro}}<p>{{.}}</p>
{{end}}
{{range .Groups}}
<h2 id="tag-{{.Tag}}">{{.Tag}}</h2>
<p class="tag">{{.Desc}}</p>
{{range .Ops}}
<section class="op" id="{{.Anchor}}">
<h3><span class="m {{.Method}}">{{.Method}}</span><code>{{.Path}}</code>{{if .Public}} <span class="pub">no authentication</span>{{end}}</h3>
<p>{{.Summary}} · operationId <code>{{.OperationID}}</code>{{if ne .Name .OperationID}} · gateway operation <code>{{.Name}}</code>{{end}}</p>
<p><strong>v2 calls:</strong> {{if .V2Calls}}{{range $i, $c := .V2Calls}}{{if $i}}, {{end}}<code>{{$c}}</code>{{end}}{{else}}none{{end}}</p>
{{if .Notes}}<strong>Deviations and notes</strong>
<ul class="dev">{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Params}}<strong>Parameters</strong>
<table><tr><th>Name</th><th>In</th><th>Type</th><th>Default</th><th>What the gateway does</th></tr>
{{range .Params}}<tr><td><code>{{.Name}}</code>{{if .Required}} *{{end}}</td><td>{{.In}}</td><td>{{.Type}}</td><td>{{if .Default}}<code>{{.Default}}</code>{{end}}</td><td>{{.Desc}}</td></tr>
{{end}}</table>{{end}}
{{if .Body}}<p><strong>Request body</strong> (application/json): <a href="#schema-{{.Body}}">{{.Body}}</a></p>{{end}}
<strong>Responses</strong>
<table><tr><th>Status</th><th>Description</th><th>Body</th></tr>
{{range .Responses}}<tr><td>{{.Status}}</td><td>{{.Desc}}</td><td>{{if .Media}}{{.Media}}: {{if .Ref}}<a href="#schema-{{.Ref}}">{{.Type}}</a>{{else}}{{.Type}}{{end}}{{end}}</td></tr>
{{end}}</table>
</section>
{{end}}{{end}}
<h2 id="schemas">Schemas</h2>
{{range .Schemas}}
<section class="op" id="schema-{{.Name}}">
<h3>{{.Name}}</h3>
<p>{{.Desc}}</p>
{{if .Fields}}<table><tr><th>Field</th><th>Type</th><th>Default</th><th>What the gateway does</th></tr>
{{range .Fields}}<tr><td><code>{{.Name}}</code>{{if .Required}} *{{end}}</td><td>{{.Type}}</td><td>{{if .Default}}<code>{{.Default}}</code>{{end}}</td><td>{{.Desc}}</td></tr>
{{end}}</table>{{end}}
{{if .Omitted}}<p><strong>Never returned</strong> (v2 has no source):</p>
<ul>{{range .Omitted}}<li><code>{{.Name}}</code>: {{.Desc}}</li>{{end}}</ul>{{end}}
</section>
{{end}}
<p class="note">* required. Generated by v1gateway from its operation table.</p>
</article>
</main>
</body>
</html>
`))
