package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/v1gateway/v1gateway/translate"
)

// countTokens is the number of lexical tokens of text, as the parser's
// token limit counts them.
func countTokens(t testing.TB, text string) int {
	t.Helper()
	lx := lexer.New(&ast.Source{Input: text})
	n := 0
	for {
		tok, err := lx.ReadToken()
		if err != nil {
			t.Fatal(err)
		}
		if tok.Kind == lexer.EOF {
			return n
		}
		n++
	}
}

// TestClientDocumentsAreWellInsideTheDefaultLimits measures every document
// the known clients send (testdata/clients) and checks that each default
// limit is at least four times the largest of the documents written by
// hand (twice for depth): the defaults' headroom. Every document is within
// each default, those a client builds from its types too (runpod-java's
// pod_getPod selects every Pod field its types declare: 379 fields, 6.4 KB,
// which the whole-document field limit of P12 admits, without the
// headroom).
func TestClientDocumentsAreWellInsideTheDefaultLimits(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "clients", "*", "*.graphql"))
	if err != nil || len(files) < 50 {
		t.Fatalf("client documents: %d, %v", len(files), err)
	}
	byHand, all := measureClientDocuments(t, files, true), measureClientDocuments(t, files, false)
	l := DefaultLimits()
	for _, c := range []struct {
		name                    string
		mostByHand, most, limit int
	}{
		{"tokens", byHand.tokens, all.tokens, l.MaxTokens},
		{"depth", byHand.depth, all.depth, l.MaxDepth},
		{"aliases", byHand.aliases, all.aliases, l.MaxAliases},
		{"root fields", byHand.roots, all.roots, l.MaxRootFields},
		{"fields", byHand.fields, all.fields, l.MaxFields},
		{"fragment spreads", byHand.spreads, all.spreads, l.MaxSpreads},
		{"bytes (document cache)", byHand.bytes, all.bytes, maxCachedDocLen},
	} {
		if c.limit < 2*c.mostByHand || (c.name != "depth" && c.limit < 4*c.mostByHand) {
			t.Errorf("%s: the default %d is not well above the largest document written by hand, %d", c.name, c.limit, c.mostByHand)
		}
		if c.limit < c.most {
			t.Errorf("%s: the default %d refuses a client's document of %d", c.name, c.limit, c.most)
		}
	}
}

// clientDocCost is the largest measure of each kind over some client
// documents.
type clientDocCost struct {
	docCost
	tokens, bytes int
}

// typeBuiltClients are the clients that build their documents from their
// types (every field a type declares), not by hand.
var typeBuiltClients = map[string]bool{"runpod-java": true}

// measureClientDocuments measures files, only those written by hand when
// byHandOnly.
func measureClientDocuments(t *testing.T, files []string, byHandOnly bool) clientDocCost {
	t.Helper()
	var most docCost
	mostTokens, mostLen, n := 0, 0, 0
	for _, name := range files {
		if byHandOnly && typeBuiltClients[filepath.Base(filepath.Dir(name))] {
			continue
		}
		n++
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		doc, err := parser.ParseQuery(&ast.Source{Input: text})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m := &measurer{frags: map[string]*ast.FragmentDefinition{}, memo: map[string]docCost{}, busy: map[string]bool{}}
		for _, f := range doc.Fragments {
			m.frags[f.Name] = f
		}
		var fields, spreads int // the document's, as check counts them
		for _, f := range doc.Fragments {
			c := m.selectionSet(f.SelectionSet)
			fields, spreads = fields+c.fields, spreads+c.spreads
		}
		for _, op := range doc.Operations {
			c := m.selectionSet(op.SelectionSet)
			fields, spreads = fields+c.fields, spreads+c.spreads
			most.aliases, most.depth, most.roots = max(most.aliases, c.aliases), max(most.depth, c.depth), max(most.roots, c.roots)
		}
		most.fields, most.spreads = max(most.fields, fields), max(most.spreads, spreads)
		mostTokens, mostLen = max(mostTokens, countTokens(t, text)), max(mostLen, len(text))
	}
	t.Logf("largest of %d client documents (written by hand only: %v): %d tokens, %d bytes, depth %d, %d aliases, %d root fields, %d fields, %d fragment spreads",
		n, byHandOnly, mostTokens, mostLen, most.depth, most.aliases, most.roots, most.fields, most.spreads)
	return clientDocCost{docCost: most, tokens: mostTokens, bytes: mostLen}
}

// hostile is a document of the table (and a few more), with the
// error code its answer must carry and the most bytes that answer may have.
type hostile struct {
	name     string
	doc      string
	vars     map[string]any
	anon     bool
	code     string
	maxBytes int
}

// repeat is n copies of format (with %d: the copy's index), space-separated.
func repeat(n int, format string) string {
	var b strings.Builder
	for i := range n {
		if strings.Contains(format, "%d") {
			fmt.Fprintf(&b, format, i)
		} else {
			b.WriteString(format)
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// hostileDocuments are the documents at their sizes divided by
// scale (1: the table's), then one document just over each default limit.
func hostileDocuments(scale int) []hostile {
	n := func(full int) int { return max(full/scale, 2) }
	l := DefaultLimits()
	return []hostile{
		{name: "the same field 20,000 times", anon: true,
			doc: "{ gpuTypes { " + repeat(n(20000), "id") + "} }", code: codeMaxTokens, maxBytes: 400},
		{name: "30 operations of 450 fields each", anon: true,
			doc: repeat(30, "query q%d { gpuTypes { "+repeat(450, "x%d")+"} }"), code: codeMaxFields, maxBytes: 400},
		{name: "1,000 operations spreading one fragment of 450 fields", anon: true,
			doc: repeat(1000, "query q%d { gpuTypes { ...F } }") + " fragment F on GpuType { " + repeat(450, "x%d") + "}", code: codeMaxFields, maxBytes: 400},
		{name: "1,000 fields under one alias with different arguments", anon: true,
			doc: "{ " + repeat(n(1000), `a: gpuTypes(input:{id:"g%d"}) { id }`) + "}", code: codeMaxTokens, maxBytes: 400},
		{name: "4,000 fragment spreads", anon: true,
			doc: "{ gpuTypes { " + repeat(n(4000), "...F%d") + "} } " + repeat(n(4000), "fragment F%d on GpuType { id }"), code: codeMaxTokens, maxBytes: 400},
		{name: "52,982 __typename aliases (1 MiB)", anon: true,
			doc: "{ " + repeat(n(52982), "a%d:__typename") + "}", code: codeMaxTokens, maxBytes: 400},
		{name: "1,000 aliased myself", doc: "{ " + repeat(n(1000), "m%d: myself { id pods { id } }") + "}", code: codeMaxFields, maxBytes: 400},
		{name: "5,000 aliased gpuTypes(input)", anon: true,
			doc: "{ " + repeat(n(5000), `g%d: gpuTypes(input:{id:"x%d"}) { id }`) + "}", code: codeMaxTokens, maxBytes: 400},
		{name: "1,000 aliases with notes", doc: "{ myself { " + repeat(n(1000), "p%d: pods { id machineId }") + "} }", code: codeMaxFields, maxBytes: 400},
		{name: "an unused fragment of 20,000 fields", anon: true,
			doc: "{ gpuTypes { id } } fragment U on GpuType { " + repeat(n(20000), "id") + "}", code: codeMaxTokens, maxBytes: 400},
		{name: "one field more than graphql_max_fields", anon: true,
			doc: "{ gpuTypes { " + repeat(l.MaxFields, "id") + "} }", code: codeMaxFields, maxBytes: 400},
		{name: "an unused fragment of more than graphql_max_fields", anon: true,
			doc: "{ gpuTypes { id } } fragment U on GpuType { " + repeat(l.MaxFields+1, "id") + "}", code: codeMaxFields, maxBytes: 400},
		{name: "one root field more than graphql_max_root_fields", anon: true,
			doc: "{ " + repeat(l.MaxRootFields+1, "g%d: gpuTypes { id }") + "}", code: codeMaxRootFields, maxBytes: 400},
		{name: "root fields through fragments", anon: true,
			doc: "{ ...R } fragment R on Query { " + repeat(l.MaxRootFields+1, "g%d: dataCenters { id }") + "}", code: codeMaxRootFields, maxBytes: 400},
		{name: "one alias more than graphql_max_aliases",
			doc: "{ myself { " + repeat(l.MaxAliases+1, "p%d: pods { id }") + "} }", code: codeMaxAliases, maxBytes: 400},
		{name: "one fragment spread more than graphql_max_fragment_spreads", anon: true,
			doc: "{ gpuTypes { " + repeat(l.MaxSpreads+1, "...F") + "} } fragment F on GpuType { id }", code: codeMaxSpreads, maxBytes: 400},
		{name: "fragments spread exponentially", anon: true,
			doc: "{ gpuTypes { ...F0 } } " + exponentialFragments(60), code: codeMaxFields, maxBytes: 400},
		{name: "selections one deeper than graphql_max_depth",
			doc: "{ myself " + strings.Repeat("{ pods ", l.MaxDepth) + "{ id }" + strings.Repeat(" }", l.MaxDepth+1), code: codeMaxDepth, maxBytes: 400},
		{name: "one field repeated once more than the door allows in one selection set", anon: true,
			doc: "{ gpuTypes { " + repeat(maxSameKey+1, "id") + "} }", code: codeMaxSameKey, maxBytes: 400},
		{name: "one field repeated through inline fragments", anon: true,
			doc: "{ gpuTypes { " + repeat(maxSameKey+1, "... on GpuType { id }") + "} }", code: codeMaxSameKey, maxBytes: 400},
		{name: "one field repeated in a fragment", anon: true,
			doc: "{ gpuTypes { ...F } } fragment F on GpuType { " + repeat(maxSameKey+1, "id") + "}", code: codeMaxSameKey, maxBytes: 400},
		{name: "150 distinct validation errors under the limits", anon: true,
			doc: "{ gpuTypes { " + repeat(150, "x%d") + "} }", code: codeValidationFailed, maxBytes: 40 << 10},
	}
}

// exponentialFragments is n fragments, each spreading the next twice:
// 2^n fields once expanded.
func exponentialFragments(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "fragment F%d on GpuType { ...F%d ...F%d } ", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "fragment F%d on GpuType { id }", n)
	return b.String()
}

// TestHostileDocumentsAreRefusedAtTheEntrance sends the hostile
// documents at their full sizes to the door (chaos/ sends them to the
// binary and measures its CPU and memory) and checks each is refused with
// its code, in a small answer, before any v2 call, and never cached.
func TestHostileDocumentsAreRefusedAtTheEntrance(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hostileDocuments(1) {
		t.Run(h.name, func(t *testing.T) {
			env := &Env{Caller: refusingCaller{t}, Anonymous: h.anon, KeyID: "k"}
			resp := d.Execute(context.Background(), env, Request{Query: h.doc, Variables: h.vars})
			var a struct {
				Errors []struct {
					Message    string         `json:"message"`
					Extensions map[string]any `json:"extensions"`
				} `json:"errors"`
				Data json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(resp.Body, &a); err != nil || len(a.Errors) == 0 {
				t.Fatalf("answer %.300s (%v)", resp.Body, err)
			}
			if got := a.Errors[len(a.Errors)-1].Extensions["code"]; got != h.code {
				t.Errorf("code %v, want %s: %.300s", got, h.code, resp.Body)
			}
			for _, e := range a.Errors {
				if e.Extensions["code"] == nil {
					t.Errorf("an error without extensions.code: %s", e.Message)
				}
			}
			if len(resp.Body) > h.maxBytes {
				t.Errorf("answer of %d bytes, more than %d", len(resp.Body), h.maxBytes)
			}
			if len(a.Errors) > maxValidationErrors+1 {
				t.Errorf("%d errors", len(a.Errors))
			}
			if len(d.docs.docs) != 0 {
				t.Errorf("the document cache keeps %d refused documents", len(d.docs.docs))
			}
		})
	}
}

// refusingCaller fails the test on any v2 call: a refused document makes none.
type refusingCaller struct{ t *testing.T }

func (c refusingCaller) Call(_ context.Context, call translate.V2Call) (*translate.V2Answer, error) {
	c.t.Errorf("a refused document called v2: %s %s", call.Method, call.Path)
	return nil, fmt.Errorf("no v2 here")
}

func TestValidationStopsAtTheRequestsDeadline(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	// The deadline passes while the walk is under way: after the check
	// before validation, at the first check in it.
	ctx := &expiringContext{Context: context.Background(), left: 1}
	resp := d.Execute(ctx, &Env{Caller: refusingCaller{t}, Anonymous: true}, Request{Query: "{ gpuTypes { " + repeat(400, "x%d") + "} }"})
	if !strings.Contains(string(resp.Body), "validation stopped at the request's deadline") || !strings.Contains(string(resp.Body), codeTimeout) {
		t.Errorf("answer %.300s", resp.Body)
	}
	if ctx.left > -1 {
		t.Errorf("the walk asked the deadline %d times, want 2", 1-ctx.left)
	}
	// Passed before: nothing is validated.
	ctx = &expiringContext{Context: context.Background()}
	resp = d.Execute(ctx, &Env{Caller: refusingCaller{t}, Anonymous: true}, Request{Query: "{ gpuTypes { id } }"})
	if !strings.Contains(string(resp.Body), "deadline passed before validation") {
		t.Errorf("answer %.300s", resp.Body)
	}
}

// expiringContext's deadline passes after left calls of Err.
type expiringContext struct {
	context.Context
	left int
}

func (c *expiringContext) Err() error {
	if c.left--; c.left < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

func TestValidationStopsAfterAHundredErrors(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	resp := d.Execute(context.Background(), &Env{Caller: refusingCaller{t}, Anonymous: true},
		Request{Query: "{ gpuTypes { " + repeat(400, "x%d") + "} }"})
	var a struct {
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(resp.Body, &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Errors) != maxValidationErrors+1 || !strings.Contains(a.Errors[maxValidationErrors].Message, "stopped after") {
		t.Errorf("%d errors, last %+v", len(a.Errors), a.Errors[len(a.Errors)-1])
	}
}

func TestOnlyValidSmallDocumentsAreCached(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Caller: refusingCaller{t}, Anonymous: true, NoPublicKey: true}
	for _, q := range []string{
		"{ gpuTypes { nope } }",
		"{ gpuTypes { id " + strings.Repeat(" ", maxCachedDocLen) + "} }",
	} {
		d.Execute(context.Background(), env, Request{Query: q})
	}
	if len(d.docs.docs) != 0 {
		t.Errorf("cached %d documents, want none", len(d.docs.docs))
	}
	d.Execute(context.Background(), env, Request{Query: "{ gpuTypes { id } }"})
	if len(d.docs.docs) != 1 {
		t.Errorf("cached %d documents, want the valid one", len(d.docs.docs))
	}
}

// BenchmarkWorstDocumentsWithinTheLimits validates the costliest documents
// the default limits let through (gqlparser's pairwise rule at its most),
// uncached: what one request can make the door do before any v2 call.
func BenchmarkWorstDocumentsWithinTheLimits(b *testing.B) {
	l := DefaultLimits()
	d, err := New()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, doc string }{
		{"same field", "{ gpuTypes { " + repeat(maxSameKey, "id") + "} }"},
		{"same fields in many sets", "{ myself { " + repeat(maxSameKey, "pods { "+repeat(maxSameKey, "id")+"}") + "} }"},
		{"same fields in nested sets", "{ myself { " + repeat(maxSameKey-1, "pods { "+repeat(maxSameKey-1, "pods { id id id id }")+"}") + "} }"},
		{"same fields in many sets of aliases", "{ myself { " + repeat(l.MaxAliases, "p%d: pods { "+repeat(l.MaxFields/l.MaxAliases-2, "x%d")+"}") + "} }"},
		{"same alias, different arguments", "{ gpuTypes { " + repeat(maxSameKey, `a: lowestPrice(input:{gpuCount:%d}) { minimumBidPrice }`) + "} }"},
		{"fragment spreads", "{ gpuTypes { " + repeat(l.MaxSpreads, "...F%d") + "} } " + repeat(l.MaxSpreads, "fragment F%d on GpuType { id }")},
		{"fragment spreads of many fields", "{ gpuTypes { " + repeat(l.MaxSpreads/2, "...F%d") + "} } " + repeat(l.MaxSpreads/2, "fragment F%d on GpuType { id id id id }")},
		{"inline fragments", "{ gpuTypes { " + repeat(maxSameKey, "... on GpuType { id }") + "} }"},
		{"nested same fields", "{ myself { " + repeat(maxSameKey, "pods { id }") + "} }"},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, errs := l.parseAndValidate(context.Background(), d.schema, c.doc); len(errs) > 0 {
				if code, _ := errs[0].Extensions["code"].(string); strings.HasPrefix(code, "MAX_") {
					b.Fatalf("not within the limits: %v", errs[0])
				}
			}
			for b.Loop() {
				l.parseAndValidate(context.Background(), d.schema, c.doc)
			}
		})
	}
}
