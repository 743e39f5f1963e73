package graphql

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/bench/canned"
	"github.com/v1gateway/v1gateway/translate"
)

// FuzzDoorExecute runs the whole door — entrance, validation, variables,
// executor, resolvers, plans — on arbitrary documents and variables,
// against canned v2 answers (bench/canned, anything else a 404). Whatever
// comes in, the door must not panic, must answer a JSON object with data
// or errors, give every error an extensions.code, and stay within its
// bounds: at most maxValidationErrors+1 errors before execution, and
// few v2 calls for a document within the root-field limit.
func FuzzDoorExecute(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "clients", "*", "*.graphql"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		vars, _ := os.ReadFile(strings.TrimSuffix(name, ".graphql") + ".json")
		f.Add(string(b), string(vars), false)
	}
	for _, h := range hostileDocuments(100) {
		f.Add(h.doc, "", h.anon)
	}
	f.Add(`query q($n: Int, $id: ID) { gpuTypes(input: {id: $id}) { id lowestPrice(input: {gpuCount: $n}) { stockStatus } } }`, `{"n": "2", "id": 7}`, true)
	f.Add(`mutation { podStop(input: {podId: "../x"}) { id } }`, "", false)
	f.Add(`{ a: myself { pods { id ...on Pod { name } } } ...F } fragment F on Query { b: myself { id } }`, "", false)
	d, err := New()
	if err != nil {
		f.Fatal(err)
	}
	bodies := canned.New(5)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, doc, vars string, anon bool) {
		var vs map[string]any
		if vars != "" {
			dec := json.NewDecoder(strings.NewReader(vars))
			dec.UseNumber()
			_ = dec.Decode(&vs)
		}
		c := &countingCaller{next: cannedCaller{bodies}}
		env := &Env{Caller: c, Options: translate.Options{Now: func() time.Time { return now }}, KeyID: "k", Anonymous: anon}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		resp := d.Execute(ctx, env, Request{Query: doc, Variables: vs})
		var a struct {
			Data   json.RawMessage `json:"data"`
			Errors []struct {
				Message    string         `json:"message"`
				Extensions map[string]any `json:"extensions"`
			} `json:"errors"`
		}
		if err := json.Unmarshal(resp.Body, &a); err != nil {
			t.Fatalf("the answer is not JSON (%v): %.500s", err, resp.Body)
		}
		if a.Data == nil && len(a.Errors) == 0 {
			t.Fatalf("neither data nor errors: %.500s", resp.Body)
		}
		if a.Data == nil && len(a.Errors) > maxValidationErrors+1 {
			t.Fatalf("%d errors", len(a.Errors))
		}
		for _, e := range a.Errors {
			if code, _ := e.Extensions["code"].(string); code == "" {
				t.Fatalf("an error without extensions.code: %q", e.Message)
			}
		}
		// A root field's plan makes a few calls (a create tries a few
		// candidates); DefaultMaxRootFields bound the root fields.
		if c.n > 10*DefaultMaxRootFields {
			t.Fatalf("%d v2 calls", c.n)
		}
		ReleaseBody(resp.Body)
	})
}

// countingCaller counts the calls it passes on; answers next has no route
// for are a 404.
type countingCaller struct {
	next cannedCaller
	n    int
}

func (c *countingCaller) Call(ctx context.Context, call translate.V2Call) (*translate.V2Answer, error) {
	c.n++
	if a, err := c.next.Call(ctx, call); err == nil {
		return a, nil
	}
	return &translate.V2Answer{Status: 404, Body: []byte(`{"error":"not found"}`)}, nil
}
