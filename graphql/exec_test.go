package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The executor, on the door's own Pod reads: the answer holds exactly the
// fields selected, under their aliases, through fragments and directives.
func TestTheAnswerHoldsExactlyTheFieldsSelected(t *testing.T) {
	w := newWorld(t)
	cases := []struct {
		name, query, vars string
		want              string // the data, as JSON, with the pods' order as listed
	}{
		{"aliases", `{ me: myself { first: pods { podId: id, n: name } } }`, "",
			`{"me":{"first":[{"podId":"{pod0}","n":"pytorch-training"},{"podId":"{pod1}","n":"cpu-worker"}]}}`},
		{"a named fragment", `query { myself { pods { ...f } } } fragment f on Pod { name desiredStatus }`, "",
			`{"myself":{"pods":[{"name":"pytorch-training","desiredStatus":"RUNNING"},{"name":"cpu-worker","desiredStatus":"EXITED"}]}}`},
		{"an inline fragment and __typename", `{ myself { __typename pods { ... on Pod { id } __typename } } }`, "",
			`{"myself":{"__typename":"User","pods":[{"id":"{pod0}","__typename":"Pod"},{"id":"{pod1}","__typename":"Pod"}]}}`},
		{"@skip and @include", `query q($s: Boolean!) { myself { pods { id @skip(if: $s) name @include(if: $s) } } }`, `{"s": true}`,
			`{"myself":{"pods":[{"name":"pytorch-training"},{"name":"cpu-worker"}]}}`},
		{"the same key twice, merged", `{ myself { pods { id } pods { name } } }`, "",
			`{"myself":{"pods":[{"id":"{pod0}","name":"pytorch-training"},{"id":"{pod1}","name":"cpu-worker"}]}}`},
	}
	ids := podIDs(t, w)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := w.ok(c.query, c.vars)
			got, _ := json.Marshal(a.Data)
			want := strings.NewReplacer("{pod0}", ids[0], "{pod1}", ids[1]).Replace(c.want)
			if !jsonEqual(t, got, []byte(want)) {
				t.Fatalf("data\n got %s\nwant %s", got, want)
			}
		})
	}
}

// podIDs is the seeded pods' ids, in the order v2 lists them.
func podIDs(t *testing.T, w *world) []string {
	t.Helper()
	a := w.ok(`{ myself { pods { id } } }`, "")
	var ids []string
	for _, p := range path(a.Data, "myself.pods").([]any) {
		ids = append(ids, path(p, "id").(string))
	}
	if len(ids) < 2 {
		t.Fatalf("the seeded world has %d pods", len(ids))
	}
	return ids
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

// A document that cannot run is answered with errors naming what is wrong,
// and no data; nothing is sent to v2.
func TestADocumentThatCannotRunNamesWhatIsWrong(t *testing.T) {
	cases := []struct {
		name, query, vars, operation string
		get                          bool
		want                         string
	}{
		{name: "a field outside the schema", query: `{ myself { pods { id sshCommand } } }`, want: `Cannot query field "sshCommand" on type "Pod"`},
		{name: "an unknown argument", query: `{ pod(id: "x") { id } }`, want: `Unknown argument "id" on field "Query.pod"`},
		{name: "a syntax error", query: `{ myself { pods { id }`, want: "Expected Name, found <EOF>"},
		{name: "a missing variable", query: `query q($id: String!) { pod(input: {podId: $id}) { id } }`, want: `must be defined`},
		{name: "a variable of the wrong type", query: `query q($n: Int) { gpuTypes { lowestPrice(input: {gpuCount: $n}) { stockStatus } } }`, vars: `{"n": "two"}`, want: "\"two\" is not a valid Int"},
		{name: "two operations, none named", query: `query a { myself { id } } query b { myself { id } }`, want: "name the one to run in operationName"},
		{name: "an operation name not in the document", query: `query a { myself { id } }`, operation: "b", want: `no operation named "b"`},
		{name: "a mutation over GET", query: `mutation { podStop(input: {podId: "x"}) { id } }`, get: true, want: "cannot be sent with GET"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			req := Request{Query: c.query, OperationName: c.operation, QueryOnly: c.get}
			if c.vars != "" {
				_ = json.Unmarshal([]byte(c.vars), &req.Variables)
			}
			resp := w.door.Execute(t.Context(), w.env, req)
			var a answer
			if err := json.Unmarshal(resp.Body, &a); err != nil {
				t.Fatal(err)
			}
			if len(a.Errors) == 0 || !strings.Contains(a.Errors[0]["message"].(string), c.want) {
				t.Fatalf("errors %s, want one with %q", resp.Body, c.want)
			}
			if strings.Contains(string(resp.Body), `"data"`) {
				t.Errorf("an operation that did not run has data: %s", resp.Body)
			}
			if len(w.caller.calls) > 0 {
				t.Errorf("v2 was called: %v", w.caller.calls)
			}
		})
	}
}

// A field error is the field's null, an error with its path, and the rest
// of the answer.
func TestAFieldErrorNullsTheFieldAndKeepsTheRest(t *testing.T) {
	w := newWorld(t)
	a := w.do(`{ myself { id } pod(input: {podId: "x"}) { id } listings { id } }`, "")
	if len(a.Errors) != 1 || !strings.Contains(a.Errors[0]["message"].(string), "listings") {
		t.Fatalf("errors: %s", a.raw)
	}
	if p, _ := json.Marshal(a.Errors[0]["path"]); string(p) != `["listings"]` {
		t.Errorf("path %s", p)
	}
	if path(a.Data, "myself.id") != "key-test" || a.Data["pod"] != nil || a.Data["listings"] != nil {
		t.Errorf("data: %s", a.raw)
	}
	if !strings.HasPrefix(string(a.raw), `{"errors":`) {
		t.Errorf("errors do not come first: %s", a.raw)
	}
}

func TestJSONStringsAreEscaped(t *testing.T) {
	for in, want := range map[string]string{
		"plain":      `"plain"`,
		"q\"b\\n\n":  `"q\"b\\n\n"`,
		"\x01\t\r":   `"\u0001\t\r"`,
		"é…":         `"é…"`,
		"bad\xffutf": `"bad\ufffdutf"`,
	} {
		if got := string(appendString(nil, in)); got != want {
			t.Errorf("appendString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestManyAliasesAreCollectedInOrderWithTheirDuplicatesMerged(t *testing.T) {
	d, err := NewWithLimits(Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// 100 keys (collect indexes them past 64), then the first ten again.
	q := "{ " + repeat(100, "a%d: __typename") + repeat(10, "a%d: __typename") + "}"
	resp := d.Execute(context.Background(), &Env{Anonymous: true}, Request{Query: q})
	want := "{\"data\":{"
	for i := range 100 {
		if i > 0 {
			want += ","
		}
		want += fmt.Sprintf(`"a%d":"Query"`, i)
	}
	want += "}}"
	if string(resp.Body) != want {
		t.Errorf("answer %s", resp.Body)
	}
}
