package translate

import (
	"encoding/json"
	"slices"
	"testing"
)

// Every endpoint answer carries every key of v1's Endpoint schema (issue 37
// item 3: v1 answered every key, null where it had no value, and clients
// tell an absent key from a null one), but template and workers, which v1
// answered only with includeTemplate and includeWorkers, and on create. It
// is shown for every shape of answer: both compute families, both scaler
// types (and a fractional queueDelay), each operation that answers an
// endpoint, with and without the includes. The keys are read from v1's
// document (the test skips without it).
func TestEndpointAnswersCarryEveryV1Key(t *testing.T) {
	keys := v1SchemaKeys(t, "Endpoint")
	families := []struct {
		name   string
		mod    func(map[string]any)
		create string // the create body's compute fields
	}{
		{"GPU", func(map[string]any) {}, `"gpuTypeIds":["NVIDIA GeForce RTX 4090"]`},
		{"CPU", cpuEndpoint, `"computeType":"CPU","cpuFlavorIds":["cpu5c"]`},
	}
	scalers := []struct {
		name   string
		mod    func(map[string]any)
		create string
		nulls  []string // keys answered null because of the scaler
	}{
		{"QUEUE_DELAY", func(map[string]any) {}, ``, nil},
		{"REQUEST_COUNT", func(m map[string]any) {
			set("scaling", `{"type":"REQUEST_COUNT","requestCount":2}`)(m)
			set("workers", `{"min":0,"max":3}`)(m) // v2 has no idle timeout here
		}, `,"scalerType":"REQUEST_COUNT","scalerValue":2`, []string{"idleTimeout"}},
		{"fractional QUEUE_DELAY", set("scaling", `{"type":"QUEUE_DELAY","queueDelay":2.5}`), ``, []string{"scalerValue"}},
	}
	type include struct{ template, workers bool }
	includes := []include{{}, {template: true}, {workers: true}, {true, true}}
	query := func(in include) string {
		q := ""
		if in.template {
			q = "includeTemplate=true"
		}
		if in.workers {
			if q != "" {
				q += "&"
			}
			q += "includeWorkers=true"
		}
		return q
	}
	for _, fam := range families {
		for _, sc := range scalers {
			ep := endpoint("e1", fam.mod, sc.mod)
			var cat []step
			if fam.name == "GPU" {
				cat = []step{catalogStep()}
			}
			type shape struct {
				name   string
				op     string
				opts   runOpts
				script []step
				in     include
				nulls  []string
			}
			var shapes []shape
			for _, in := range includes {
				tail := []step{releasesStep("e1", 3)}
				if in.workers {
					tail = []step{workersStep("e1", 3)}
				}
				shapes = append(shapes, shape{name: "get " + query(in), op: "GetEndpoint",
					opts:   runOpts{params: map[string]string{"endpointId": "e1"}, query: query(in)},
					script: with(with([]step{epGetStep("e1", ep)}, cat...), tail...), in: in})
				var listTail []step
				var nulls []string
				if in.workers {
					listTail = []step{workersStep("e1", 3)}
				} else {
					nulls = []string{"version"} // no v2 call per endpoint
				}
				shapes = append(shapes, shape{name: "list " + query(in), op: "ListEndpoints", opts: runOpts{query: query(in)},
					script: with(with([]step{{method: "GET", path: "/v2/serverless", status: 200, body: endpointList(ep)}}, cat...), listTail...),
					in:     in, nulls: nulls})
			}
			shapes = append(shapes,
				shape{name: "create", op: "CreateEndpoint",
					opts:   runOpts{body: `{"templateId":"tpl1","name":"gen",` + fam.create + sc.create + `}`},
					script: with(with(cat, step{method: "POST", path: "/v2/serverless", status: 201, body: ep}), createdSteps("e1", 3, "tpl1")...),
					in:     include{true, true}},
				shape{name: "update", op: "UpdateEndpoint",
					opts:   runOpts{params: map[string]string{"endpointId": "e1"}, body: `{"name":"renamed"}`},
					script: with(with([]step{{method: "PATCH", path: "/v2/serverless/e1", status: 200, body: ep}}, cat...), releasesStep("e1", 3))},
			)
			for _, s := range shapes {
				t.Run(fam.name+"/"+sc.name+"/"+s.name, func(t *testing.T) {
					res, _ := run(t, s.op, s.opts, s.script...)
					if res.Status != 200 {
						t.Fatalf("status %d: %s", res.Status, res.Body)
					}
					var answers []map[string]json.RawMessage
					if s.op == "ListEndpoints" {
						if err := json.Unmarshal(res.Body, &answers); err != nil || len(answers) != 1 {
							t.Fatalf("list %s (%v)", res.Body, err)
						}
					} else {
						var m map[string]json.RawMessage
						if err := json.Unmarshal(res.Body, &m); err != nil {
							t.Fatal(err)
						}
						answers = append(answers, m)
					}
					got := answers[0]
					for _, k := range keys {
						_, ok := got[k]
						want := true
						switch k {
						case "template":
							want = s.in.template
						case "workers":
							want = s.in.workers
						}
						if ok != want {
							t.Errorf("key %s: present %v, want %v: %s", k, ok, want, res.Body)
						}
					}
					for _, k := range append(append([]string{"userId"}, sc.nulls...), s.nulls...) {
						if v, ok := got[k]; !ok || string(v) != "null" {
							t.Errorf("%s = %s (present %v), want null", k, v, ok)
						}
					}
					for _, k := range []string{"createdAt", "scalerType", "version", "idleTimeout", "scalerValue"} {
						if slices.Contains(sc.nulls, k) || slices.Contains(s.nulls, k) {
							continue
						}
						if string(got[k]) == "null" {
							t.Errorf("%s answered null although v2 gave it: %s", k, res.Body)
						}
					}
				})
			}
		}
	}
}

// R-Endpoint answers null, never leaves out, what v2 gives no v1 value for:
// a createdAt v2 left empty, a scaler type outside v1's two (and then its
// value), an idle timeout v2 does not have.
func TestREndpointNullsWhatV2DoesNotGive(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mod   func(e *v2Endpoint)
		nulls []string
	}{
		{"no createdAt", func(e *v2Endpoint) { e.CreatedAt = "" }, []string{"createdAt"}},
		{"scaler type outside v1's", func(e *v2Endpoint) { e.Scaling.Type = "SOMETHING_NEW" }, []string{"scalerType", "scalerValue"}},
		{"REQUEST_COUNT without a count", func(e *v2Endpoint) {
			e.Scaling.Type, e.Scaling.QueueDelay, e.Scaling.RequestCount = "REQUEST_COUNT", nil, nil
		}, []string{"scalerValue"}},
		{"no idle timeout", func(e *v2Endpoint) { e.Workers.IdleTimeout = nil }, []string{"idleTimeout"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e v2Endpoint
			if err := json.Unmarshal([]byte(endpoint("e1")), &e); err != nil {
				t.Fatal(err)
			}
			tc.mod(&e)
			out := v1EndpointFrom(&e)
			b, _ := json.Marshal(&out)
			var m map[string]json.RawMessage
			_ = json.Unmarshal(b, &m)
			for _, k := range append([]string{"userId", "version"}, tc.nulls...) {
				if v, ok := m[k]; !ok || string(v) != "null" {
					t.Errorf("%s = %s (present %v), want null: %s", k, v, ok, b)
				}
				if !slices.Contains(V1Nulls["Endpoint"], k) {
					t.Errorf("V1Nulls[Endpoint] does not list %s", k)
				}
			}
		})
	}
}
