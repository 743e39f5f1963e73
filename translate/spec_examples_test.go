package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The v2 answers every plan must survive: FuzzV2AnswerMapping's seeds and
// every example of the v2 contract, given to every operation as 200, 201
// and 204 answers (the fuzz target gives each seed one status; here each
// body meets every success status).

// v2AnswerSeeds are FuzzV2AnswerMapping's hand-written seeds.
func v2AnswerSeeds() []string {
	return []string{pod("p1"), podList(pod("p1"), pod("p2")), endpoint("e1"), endpointList(endpoint("e1")), tpl("t1"), tplList(tpl("t1")),
		v2Volume("v1", 100), `{"id":"r","name":"n"}`, `{"pods":null}`, `{"pods":[null]}`, `{"pods":{}}`, `{"id":1}`, `[]`, `null`, `{}`, `"x"`, ``, `{`,
		`{"id":"p1","gpu":{"count":"x"}}`, `{"pods":[{"id":"p1","costPerHr":1e999}]}`, `{"title":"Not Found","status":404,"detail":"no"}`}
}

func TestV2ExamplesAsSuccessAnswers(t *testing.T) {
	old := Sleep
	Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	t.Cleanup(func() { Sleep = old })
	var bodies [][]byte
	for _, s := range v2AnswerSeeds() {
		bodies = append(bodies, []byte(s))
	}
	examples := specExamples(t, "v2.openapi.json")
	bodies = append(bodies, examples...)
	if len(examples) == 0 {
		t.Log("no v2 spec examples: only the hand-written seeds are mapped")
	}
	for i := range Operations {
		op := &Operations[i]
		if op.Plan == nil {
			continue
		}
		for _, st := range []int{200, 201, 204} {
			for j, b := range bodies {
				for _, lenient := range []bool{false, true} {
					req := sampleRequest(op, "id-1")
					req.Options.Lenient = lenient
					c := &answerAll{status: st, body: b, max: 12}
					res := op.Plan(context.Background(), req, c)
					checkAnyResult(t, op, res, fmt.Sprintf("status %d, body #%d %.200s", st, j, b))
					for _, call := range c.calls {
						checkDeclaredCall(t, op, "id-1", call)
					}
				}
			}
		}
	}
}

// The v2 contract's example answers through the pod-list decoders (the
// streaming and the decomposed path must agree, and never panic) and its
// problem examples through ProblemMessage.
func TestV2ExamplesThroughDecoders(t *testing.T) {
	examples := specExamples(t, "v2.openapi.json")
	for _, ex := range examples {
		for _, q := range []*podQuery{{}, {computeType: "GPU"}, {computeType: "CPU"}} {
			sameListAnswer(t, ex, q)
		}
		if res := decomposedList(ex, &podQuery{}); res.Status == 200 && !json.Valid(res.Body) {
			t.Fatalf("invalid v1 JSON %q from %q", res.Body, ex)
		}
		var p struct {
			Title  string `json:"title"`
			Status int    `json:"status"`
			Detail string `json:"detail"`
		}
		if json.Unmarshal(ex, &p) == nil && p.Title != "" && p.Status >= 400 {
			msg := ProblemMessage(ex, p.Status)
			if msg == "" || !json.Valid(EncodeV1Error(msg)) {
				t.Fatalf("ProblemMessage(%s) = %q", ex, msg)
			}
			if p.Detail != "" && !strings.Contains(msg, p.Detail) {
				t.Errorf("ProblemMessage(%s) = %q: the detail is lost", ex, msg)
			}
		}
	}
	if len(examples) == 0 {
		t.Skip("specs not found: nothing to check")
	}
}

// v1QueryExamples returns, per v1 GET path, one query string per query
// parameter of the v1 contract that has an example or an enum (every enum
// value, and arrays both repeated and comma-joined).
func v1QueryExamples(t *testing.T) map[string][]string {
	t.Helper()
	dir := ""
	for d, _ := os.Getwd(); d != "/" && d != "."; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			dir = filepath.Join(d, "..", "shared", "specs")
			break
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, "v1.openapi.json"))
	if err != nil {
		return nil
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name    string `json:"name"`
				In      string `json:"in"`
				Example any    `json:"example"`
				Schema  struct {
					Example any   `json:"example"`
					Enum    []any `json:"enum"`
					Items   struct {
						Enum []any `json:"enum"`
					} `json:"items"`
				} `json:"schema"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for path, methods := range doc.Paths {
		get, ok := methods["get"]
		if !ok {
			continue
		}
		for _, p := range get.Parameters {
			if p.In != "query" {
				continue
			}
			var values [][]string
			add := func(v any) {
				switch x := v.(type) {
				case nil:
				case []any:
					var vs []string
					for _, e := range x {
						vs = append(vs, fmt.Sprint(e))
					}
					values = append(values, vs, []string{strings.Join(vs, ",")})
				default:
					values = append(values, []string{fmt.Sprint(x)})
				}
			}
			add(p.Example)
			add(p.Schema.Example)
			for _, e := range append(p.Schema.Enum, p.Schema.Items.Enum...) {
				add(e)
			}
			for _, vs := range values {
				out[path] = append(out[path], url.Values{p.Name: vs}.Encode())
			}
		}
	}
	return out
}

// Every query example and enum value of the v1 contract, on its operation:
// never a panic, never a 5xx, v1 JSON (errors {"message"}), and only the
// operation's declared v2 calls.
func TestV1QueryExamples(t *testing.T) {
	examples := v1QueryExamples(t)
	if examples == nil {
		t.Skip("specs not found: nothing to check")
	}
	n := 0
	for i := range Operations {
		op := &Operations[i]
		if op.Method != http.MethodGet || op.Plan == nil {
			continue
		}
		for _, query := range examples[op.Path] {
			n++
			q, err := url.ParseQuery(query)
			if err != nil {
				t.Fatal(err)
			}
			req := sampleRequest(op, "p1")
			req.Query = q
			if op.Resource == "billing" {
				c := &resourceCaller{t: t}
				res := op.Plan(context.Background(), req, c)
				checkResourceFuzz(t, op, nil, res, query)
				continue
			}
			c := &listCaller{}
			res := op.Plan(context.Background(), req, c)
			checkAnyResult(t, op, res, query)
			if res.Status >= 500 && !c.fallback {
				t.Errorf("%s?%s: %d %s", op.Name, query, res.Status, res.Body)
			}
			for _, call := range c.calls {
				checkDeclaredCall(t, op, "p1", call)
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d query examples checked", n)
	}
}
