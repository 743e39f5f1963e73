package graphql

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/v1gateway/v1gateway/translate"
)

// Helpers of the resource tests: client documents with the simulator's
// ids in place of the captured ones, what the world holds, and what the
// door did.

// client runs a captured client document (client/name, with its .json
// variables when there are any) after replacing, in both, each old
// string of subs by the new one that follows it.
func (w *world) client(name string, subs ...string) *answer {
	w.t.Helper()
	doc := clientDocument(w.t, name+".graphql")
	vars := ""
	if b, err := os.ReadFile(filepath.Join("testdata", "clients", name+".json")); err == nil {
		vars = string(b)
	}
	r := strings.NewReplacer(subs...)
	return w.do(r.Replace(doc), r.Replace(vars))
}

// clientOK is client for a document that must answer without errors.
func (w *world) clientOK(name string, subs ...string) *answer {
	w.t.Helper()
	a := w.client(name, subs...)
	if len(a.Errors) > 0 {
		w.t.Fatalf("%s: errors: %s", name, a.raw)
	}
	return a
}

// clientErrors is client for a document that must answer with errors:
// their messages.
func (w *world) clientErrors(name string, subs ...string) []string {
	w.t.Helper()
	a := w.client(name, subs...)
	if len(a.Errors) == 0 {
		w.t.Fatalf("%s: no errors: %s", name, a.raw)
	}
	var msgs []string
	for _, e := range a.Errors {
		m, _ := e["message"].(string)
		msgs = append(msgs, m)
	}
	return msgs
}

// seeded are the ids of what the simulator's seed made.
type seeded struct {
	endpoint, volume, podTemplate, registry string
}

func (w *world) seeded() seeded {
	w.t.Helper()
	a := w.ok(`{ myself { endpoints { id } networkVolumes { id } podTemplates { id name } } }`, "")
	s := seeded{
		endpoint: str(path(a.Data, "myself.endpoints.0.id")),
		volume:   str(path(a.Data, "myself.networkVolumes.0.id")),
	}
	for _, t := range path(a.Data, "myself.podTemplates").([]any) {
		if str(path(t, "name")) == "PyTorch GPU Template" {
			s.podTemplate = str(path(t, "id"))
		}
	}
	res, err := w.run("ListContainerRegistryAuths", nil)
	if err != nil {
		w.t.Fatal(err)
	}
	s.registry = res.Model.([]translate.V1Registry)[0].ID
	if s.endpoint == "" || s.volume == "" || s.podTemplate == "" {
		w.t.Fatalf("seed: %+v", s)
	}
	return s
}

// run performs a v1 operation's plan against the simulator (to look at
// the world through v1, beside the door).
func (w *world) run(op string, params map[string]string) (*translate.Result, error) {
	w.t.Helper()
	o, _ := translate.Lookup(op)
	res := o.Plan(w.t.Context(), &translate.Request{Op: o, Params: params, Body: []byte{}, Options: w.env.Options, Models: true}, w.caller)
	if res.Status >= 300 {
		return res, &planError{status: res.Status, message: string(res.Body), op: op}
	}
	return res, nil
}

// serverlessTemplate creates a serverless template (runpod-python's
// create_template) and returns its id.
func (w *world) serverlessTemplate() string {
	w.t.Helper()
	a := w.clientOK("runpod-python/create_template")
	id := str(path(a.Data, "saveTemplate.id"))
	if id == "" {
		w.t.Fatalf("no template id: %s", a.raw)
	}
	return id
}

// calls are the v2 calls made since mark (len(w.caller.calls) then), as
// "METHOD path".
func (w *world) callsSince(mark int) []string {
	w.caller.mu.Lock()
	defer w.caller.mu.Unlock()
	var out []string
	for _, c := range w.caller.calls[mark:] {
		out = append(out, c.Method+" "+c.Path)
	}
	return out
}

func (w *world) mark() int {
	w.caller.mu.Lock()
	defer w.caller.mu.Unlock()
	return len(w.caller.calls)
}

// bodyOf is the JSON body of the last v2 call with that method and path
// prefix since mark (nil when none).
func (w *world) bodyOf(mark int, method, prefix string) map[string]any {
	w.caller.mu.Lock()
	defer w.caller.mu.Unlock()
	for i := len(w.caller.calls) - 1; i >= mark; i-- {
		c := w.caller.calls[i]
		if c.Method == method && strings.HasPrefix(c.Path, prefix) {
			var m map[string]any
			_ = json.Unmarshal(c.Body, &m)
			return m
		}
	}
	return nil
}

// refused reports whether the answer counts a refusal (graphql_refused).
func (a *answer) refused() bool {
	return a.resp.Refused && slices.ContainsFunc(a.resp.Notes, func(n translate.Note) bool { return n.Code == translate.CodeGraphQLRefused })
}

// warned reports whether a warning of the answer contains s.
func (a *answer) warned(s string) bool {
	return slices.ContainsFunc(a.resp.Warnings, func(x string) bool { return strings.Contains(x, s) })
}

func str(v any) string { s, _ := v.(string); return s }

// message is the message of the answer's first error ("" for none).
func (a *answer) message() string {
	if len(a.Errors) == 0 {
		return ""
	}
	return str(a.Errors[0]["message"])
}

// code is the extensions.code of the answer's first error ("" for none).
func (a *answer) code() string {
	if len(a.Errors) == 0 {
		return ""
	}
	ext, _ := a.Errors[0]["extensions"].(map[string]any)
	return str(ext["code"])
}

// noted reports whether the answer's notes (for /usage) hold code.
func (a *answer) noted(code string) bool {
	return slices.ContainsFunc(a.resp.Notes, func(n translate.Note) bool { return n.Code == code })
}
