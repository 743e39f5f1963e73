package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// Every document a real client sends (testdata/clients, see README there),
// run against the door in front of the seeded simulator, in the order a
// user's session would send them, each with the outcome its client needs:
//
//   - answered: data and no errors, and the fields the client's code reads
//     present and not null (reads);
//   - refused: an error naming the root field (in its message or path) and
//     the reason (P11: v2 has no hub, no model repository, ...), with data
//     null for that field;
//   - invalid: a deliberate validation error (why says why it is right).
//
// Ids the clients put in their documents (captured against a recording
// server: pod-capture-1, tpl-1, ...) are replaced so that each document
// reaches a seeded or created resource; the substitutions are in the table
// (subst), and {key} stands for an id saved by an earlier row (save) or a
// seeded one (seedIDs). Every answer is also checked for what the clients
// decode strictly: numbers are integers where the schema says Int
// (runpodctl decodes counts into Go ints) and errors[].message is always a
// string (runpodctl's legacy code type-asserts it and panics otherwise).

type outcome int

const (
	wantAnswer outcome = iota
	wantRefusal
	wantInvalid
)

func (o outcome) String() string {
	return [...]string{"answered", "refused", "invalid"}[o]
}

// clientDoc is one captured document and what its client needs back.
type clientDoc struct {
	// name is "<client> <version>: <command or function>".
	name string
	// file is the document under testdata/clients; its variables are the
	// .json file beside it, when there is one.
	file string
	// subst are old, new pairs replaced in the document and its
	// variables, in order; {key} in new is the id saved under key.
	subst []string
	want  outcome
	// reads are the answer paths the client reads (below data): dotted,
	// "*" for every element of a list that must not be empty, "+" for at
	// least one element. Each must be present and not null.
	reads []string
	// field is the root field a refusal names (refused), or what a
	// validation error names (invalid); reason is a piece of its message.
	field, reason string
	// why says why a validation error is the right answer (invalid).
	why string
	// save keeps a string of the answer (a path below data) under a key
	// for later rows.
	save map[string]string
	// check is any further check.
	check func(t *testing.T, w *world, a *answer)
	// policy, on a refused row, is a field_policy (field → refuse or
	// drop) an operator may set to let the document through: it is sent
	// again under it and must then be answered, with reads, save and
	// check applying to that answer.
	policy map[string]string
}

// clientVersions are the client releases whose documents are kept, by
// folder (README.md in testdata/clients), and run against the door here.
var clientVersions = map[string]string{
	"runpod-python":     "runpod-python 1.12.0",
	"runpodctl":         "runpodctl 2.7.2",
	"runpod-mcp":        "runpod-mcp 3.4.0",
	"gpuhunt":           "gpuhunt 0.1.30",
	"skypilot":          "SkyPilot (master)",
	"runpod-go-sdk":     "runpod-go-sdk (master ee6dacf)",
	"runpod-flash":      "runpod-flash 1.19.0",
	"runpod-java":       "runpod-java 0.1-SNAPSHOT",
	"laravel-runpod":    "laravel-runpod (master 8e5be5e)",
	"dstack":            "dstack 0.21.2",
	"runpod-api-helper": "runpod-graphql 0.3.2",
	"runpod-docs":       "the vendor's GraphQL documentation",
}

// recordedClients are the programs whose documents are recorded but not
// run against the door here (valid against the vendor's schema:
// vendorschema_clients_test.go). Every program recorded for issue 36
// (docs/clients.md, "GraphQL clients found for issue 36") is now run; a
// program recorded later starts here and moves to clientVersions, with a
// row per document, once the door answers it.
var recordedClients = map[string]string{}

// TestEveryClientDocumentHasARow fails when a captured document of a
// client run against the door has no row (or a row names a file that is
// not there, or is named for another client), or when a folder of
// testdata/clients is in neither clientVersions nor recordedClients.
func TestEveryClientDocumentHasARow(t *testing.T) {
	rows := map[string]bool{}
	for _, r := range clientDocs() {
		if rows[r.file] {
			t.Errorf("%s has two rows", r.file)
		}
		rows[r.file] = true
		folder, _, _ := strings.Cut(r.file, "/")
		if v, ok := clientVersions[folder]; !ok || !strings.HasPrefix(r.name, v+": ") || len(r.name) == len(v)+2 {
			t.Errorf("row %q (%s): name it %q", r.name, r.file, clientVersions[folder]+": <command or function>")
		}
		if r.want == wantInvalid && r.why == "" {
			t.Errorf("row %q: a validation error needs its why", r.name)
		}
		if r.want != wantAnswer && (r.field == "" || r.reason == "") {
			t.Errorf("row %q: a %s row needs field and reason", r.name, r.want)
		}
		if r.policy != nil && r.want != wantRefusal {
			t.Errorf("row %q: a field_policy is for a refused row", r.name)
		}
	}
	root := filepath.Join("testdata", "clients")
	var docs int
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		folder, _, _ := strings.Cut(rel, "/")
		_, driven := clientVersions[folder]
		_, recorded := recordedClients[folder]
		switch {
		case filepath.Ext(p) != ".graphql" && filepath.Ext(p) != ".json":
		case driven == recorded:
			t.Errorf("%s: its folder must be in one of clientVersions (run against the door) and recordedClients (recorded for later)", rel)
			return nil
		case recorded:
			if filepath.Ext(p) == ".json" {
				if _, err := os.Stat(strings.TrimSuffix(p, ".json") + ".graphql"); err != nil {
					t.Errorf("%s: variables without a document", rel)
				}
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".graphql":
			docs++
			if !rows[rel] {
				t.Errorf("%s has no row in clientDocs (clients_table_test.go)", rel)
			}
			delete(rows, rel)
		case ".json":
			if _, err := os.ReadFile(strings.TrimSuffix(p, ".json") + ".graphql"); err != nil {
				t.Errorf("%s: variables without a document", rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for f := range rows {
		t.Errorf("row for %s, which is not in testdata/clients", f)
	}
	if docs == 0 {
		t.Fatal("no documents under testdata/clients")
	}
}

// TestClientDocuments runs every row, in order, in one world.
func TestClientDocuments(t *testing.T) {
	w := newWorld(t)
	w.ids = seedIDs(t, w)
	counts := map[outcome]int{}
	for _, r := range clientDocs() {
		t.Run(r.name+" ("+r.file+")", func(t *testing.T) {
			counts[r.want]++
			w.runClientDoc(t, r)
		})
	}
	t.Logf("documents: %d answered, %d refused, %d validation errors", counts[wantAnswer], counts[wantRefusal], counts[wantInvalid])
}

func (w *world) runClientDoc(t *testing.T, r clientDoc) {
	t.Helper()
	ids := w.ids
	query := string(readClientFile(t, r.file))
	vars := ""
	if b, err := os.ReadFile(filepath.Join("testdata", "clients", strings.TrimSuffix(r.file, ".graphql")+".json")); err == nil {
		vars = string(b)
	}
	if len(r.subst)%2 != 0 {
		t.Fatalf("subst has an odd number of strings: %q", r.subst)
	}
	for i := 0; i < len(r.subst); i += 2 {
		repl := fillIDs(t, r.subst[i+1], ids)
		if !strings.Contains(query, r.subst[i]) && !strings.Contains(vars, r.subst[i]) {
			t.Fatalf("subst: %q is neither in the document nor in its variables", r.subst[i])
		}
		query = strings.ReplaceAll(query, r.subst[i], repl)
		vars = strings.ReplaceAll(vars, r.subst[i], repl)
	}
	a := w.do(query, vars)
	checkErrorMessages(t, a.raw)
	checkInts(t, w, query, a.raw)
	switch r.want {
	case wantAnswer:
		if len(a.Errors) > 0 || a.Data == nil {
			t.Fatalf("the client needs an answer without errors; got %s", a.raw)
		}
		for _, p := range r.reads {
			if err := readPath(a.Data, p); err != nil {
				t.Errorf("the client reads %s: %v\n%s", p, err, a.raw)
			}
		}
	case wantRefusal:
		if len(a.Errors) == 0 {
			t.Fatalf("want a refusal of %s (%s); got %s", r.field, r.reason, a.raw)
		}
		msg, _ := a.Errors[0]["message"].(string)
		if !strings.Contains(msg, r.reason) {
			t.Errorf("the refusal %q does not say %q", msg, r.reason)
		}
		if !strings.Contains(msg, r.field) && !pathNames(a.Errors[0], r.field) {
			t.Errorf("the refusal names %s neither in its message nor in its path: %s", r.field, a.raw)
		}
		if a.Data != nil && a.Data[r.field] != nil {
			t.Errorf("a refused %s answers data: %s", r.field, a.raw)
		}
		if r.policy != nil {
			w.env.Options.FieldPolicy = r.policy
			a = w.do(query, vars)
			w.env.Options.FieldPolicy = nil
			checkErrorMessages(t, a.raw)
			if len(a.Errors) > 0 || a.Data == nil {
				t.Fatalf("under field_policy %v the client needs an answer without errors; got %s", r.policy, a.raw)
			}
			for _, p := range r.reads {
				if err := readPath(a.Data, p); err != nil {
					t.Errorf("under field_policy %v the client reads %s: %v\n%s", r.policy, p, err, a.raw)
				}
			}
		}
	case wantInvalid:
		if len(a.Errors) == 0 || a.Data != nil {
			t.Fatalf("want a validation error naming %s (%s); got %s", r.field, r.why, a.raw)
		}
		msg, _ := a.Errors[0]["message"].(string)
		if !strings.Contains(msg, r.field) || !strings.Contains(msg, r.reason) {
			t.Errorf("the validation error %q does not name %s with %q", msg, r.field, r.reason)
		}
	}
	for k, p := range r.save {
		v, _ := path(a.Data, p).(string)
		if v == "" {
			t.Errorf("no %s to save as {%s}: %s", p, k, a.raw)
			continue
		}
		ids[k] = v
	}
	if r.check != nil {
		r.check(t, w, a)
	}
}

var placeholder = regexp.MustCompile(`\{[a-zA-Z0-9]+\}`)

// fillIDs replaces each {key} of s by the id saved under key.
func fillIDs(t *testing.T, s string, ids map[string]string) string {
	t.Helper()
	var missing []string
	out := placeholder.ReplaceAllStringFunc(s, func(m string) string {
		v, ok := ids[m[1:len(m)-1]]
		if !ok {
			missing = append(missing, m)
		}
		return v
	})
	if len(missing) > 0 {
		t.Fatalf("needs %v, which no earlier row saved (did it fail?)", missing)
	}
	return out
}

// readPath checks that p (dotted, with * and + for lists) is present and
// not null in v.
func readPath(v any, p string) error {
	head, rest, more := strings.Cut(p, ".")
	switch head {
	case "*", "+":
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%v is not a list", v)
		}
		if len(l) == 0 {
			return fmt.Errorf("the list is empty")
		}
		var firstErr error
		for i, e := range l {
			var err error
			if !more {
				if e == nil {
					err = fmt.Errorf("element %d is null", i)
				}
			} else if err = readPath(e, rest); err != nil {
				err = fmt.Errorf("element %d: %w", i, err)
			}
			if err == nil && head == "+" {
				return nil
			}
			if err != nil && head == "*" {
				return err
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		if head == "+" {
			return fmt.Errorf("no element: %w", firstErr)
		}
		return nil
	}
	var next any
	switch x := v.(type) {
	case map[string]any:
		n, ok := x[head]
		if !ok {
			return fmt.Errorf("%s is absent", head)
		}
		next = n
	case []any:
		i := 0
		for _, c := range head {
			if c < '0' || c > '9' {
				return fmt.Errorf("%s: not an index of a list", head)
			}
			i = i*10 + int(c-'0')
		}
		if i >= len(x) {
			return fmt.Errorf("no element %d (%d)", i, len(x))
		}
		next = x[i]
	default:
		return fmt.Errorf("%s: %v is not an object", head, v)
	}
	if next == nil {
		return fmt.Errorf("%s is null", head)
	}
	if !more {
		return nil
	}
	if err := readPath(next, rest); err != nil {
		return fmt.Errorf("%s.%w", head, err)
	}
	return nil
}

// pathNames reports whether a GraphQL error's path starts with field.
func pathNames(e map[string]any, field string) bool {
	p, _ := e["path"].([]any)
	return len(p) > 0 && p[0] == field
}

// checkErrorMessages fails when errors is present but empty or not a list,
// or an error has no string message: runpod-python reads errors[0], and
// runpodctl's legacy code type-asserts errors[0]["message"].(string).
func checkErrorMessages(t *testing.T, raw []byte) {
	t.Helper()
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("the answer is not a JSON object: %v\n%s", err, raw)
	}
	e, ok := body["errors"]
	if !ok {
		return
	}
	var errs []map[string]any
	if err := json.Unmarshal(e, &errs); err != nil || len(errs) == 0 {
		t.Fatalf("errors is not a list of errors (runpod-python reads errors[0]): %s", raw)
	}
	for i, x := range errs {
		if m, ok := x["message"].(string); !ok || m == "" {
			t.Errorf("errors[%d].message is not a string: %s", i, raw)
		}
	}
}

// checkInts fails when an Int field of the schema is answered with a
// number that is not an integer (runpodctl decodes counts into Go ints,
// and 4.0 fails there).
func checkInts(t *testing.T, w *world, query string, raw []byte) {
	t.Helper()
	doc, errs := gqlparser.LoadQueryWithRules(w.door.Schema(), query, nil)
	if len(errs) > 0 {
		return // a validation error: no data to check
	}
	var body struct {
		Data json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(raw, &body)
	dec := json.NewDecoder(bytes.NewReader(body.Data))
	dec.UseNumber()
	var data any
	if err := dec.Decode(&data); err != nil || data == nil {
		return
	}
	for _, op := range doc.Operations {
		for _, bad := range intProblems(doc, op.SelectionSet, data, "") {
			t.Errorf("Int field %s is not an integer in the answer: %s", bad, raw)
		}
	}
}

// intProblems walks a selection set and the answer beside it, and lists
// the paths of Int fields answered with a non-integral number.
func intProblems(doc *ast.QueryDocument, set ast.SelectionSet, v any, at string) []string {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Definition == nil || s.Name == "__typename" {
				continue
			}
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			p := strings.TrimPrefix(at+"."+key, ".")
			val := obj[key]
			if namedType(s.Definition.Type) == "Int" {
				out = append(out, nonIntegers(val, p)...)
			}
			if len(s.SelectionSet) > 0 {
				if l, ok := val.([]any); ok {
					for i, e := range l {
						out = append(out, intProblems(doc, s.SelectionSet, e, fmt.Sprintf("%s.%d", p, i))...)
					}
				} else {
					out = append(out, intProblems(doc, s.SelectionSet, val, p)...)
				}
			}
		case *ast.InlineFragment:
			out = append(out, intProblems(doc, s.SelectionSet, v, at)...)
		case *ast.FragmentSpread:
			def := s.Definition
			if def == nil {
				def = doc.Fragments.ForName(s.Name)
			}
			if def != nil {
				out = append(out, intProblems(doc, def.SelectionSet, v, at)...)
			}
		}
	}
	return out
}

// nonIntegers lists v (or its elements) when it is a number that is not an
// integer, or not a number at all.
func nonIntegers(v any, p string) []string {
	switch x := v.(type) {
	case nil:
		return nil
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return []string{p + " = " + string(x)}
		}
		return nil
	case []any:
		var out []string
		for i, e := range x {
			out = append(out, nonIntegers(e, fmt.Sprintf("%s.%d", p, i))...)
		}
		return out
	}
	return []string{fmt.Sprintf("%s = %v (%T)", p, v, v)}
}

// seedIDs are the ids of the seeded world's resources (v2sim's Seed),
// read from the simulator (they are random), and of a second network
// volume, in EU-RO-1, made for multi-region endpoints ({euvol}).
func seedIDs(t *testing.T, w *world) map[string]string {
	t.Helper()
	ids := map[string]string{}
	r := httptest.NewRequestWithContext(context.Background(), http.MethodPost, "/v2/network-volumes",
		strings.NewReader(`{"name": "eu-dataset", "size": 50, "dataCenter": "EU-RO-1"}`))
	r.Header.Set("Authorization", "Bearer k1")
	r.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	w.sim.ServeHTTP(rec, r)
	var vol struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &vol); err != nil || vol.ID == "" {
		t.Fatalf("POST /v2/network-volumes: %d %s", rec.Code, rec.Body.Bytes())
	}
	ids["euvol"] = vol.ID
	for _, s := range []struct{ key, path, name string }{
		{"seedgpu", "/v2/pods", "pytorch-training"},
		{"seedcpu", "/v2/pods", "cpu-worker"},
		{"seedep", "/v2/serverless", "image-generator"},
		{"seedtpl", "/v2/templates", "PyTorch GPU Template"},
		{"seedvol", "/v2/network-volumes", "training-dataset"},
		{"seedcra", "/v2/registries", "dockerhub-private"},
	} {
		r := httptest.NewRequestWithContext(context.Background(), http.MethodGet, s.path, nil)
		r.Header.Set("Authorization", "Bearer k1")
		rec := httptest.NewRecorder()
		w.sim.ServeHTTP(rec, r)
		var list []map[string]any
		var wrapped map[string][]map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &wrapped) == nil {
			for _, l := range wrapped {
				list = append(list, l...)
			}
		} else if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil {
			t.Fatalf("GET %s: %d %s", s.path, rec.Code, rec.Body.Bytes())
		}
		i := slices.IndexFunc(list, func(it map[string]any) bool { return it["name"] == s.name })
		if i < 0 {
			t.Fatalf("the seeded world has no %q at %s: %s", s.name, s.path, rec.Body.Bytes())
		}
		ids[s.key], _ = list[i]["id"].(string)
	}
	return ids
}

// The Int check is not vacuous: a float where the schema says Int, in a
// list, behind an alias and a fragment, is caught; a Float field is not.
func TestIntCheckFindsNonIntegers(t *testing.T) {
	w := newWorld(t)
	query := `query { myself { pods { n: gpuCount ...F costPerHr } } } fragment F on Pod { containerDiskInGb }`
	doc, errs := gqlparser.LoadQueryWithRules(w.door.Schema(), query, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	dec := json.NewDecoder(strings.NewReader(`{"myself": {"pods": [{"n": 1, "containerDiskInGb": 20, "costPerHr": 0.5}, {"n": 2.0, "containerDiskInGb": 1e1, "costPerHr": 1}]}}`))
	dec.UseNumber()
	var data any
	if err := dec.Decode(&data); err != nil {
		t.Fatal(err)
	}
	got := intProblems(doc, doc.Operations[0].SelectionSet, data, "")
	want := []string{"myself.pods.1.n = 2.0", "myself.pods.1.containerDiskInGb = 1e1"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
