package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingDecode is a decode func for decoded that counts its calls and
// gives each call a value of its own (so that a test can tell which
// decode's value a reader got).
func countingDecode(n *atomic.Int64) func(*V2Answer) (*int, *Result) {
	return func(a *V2Answer) (*int, *Result) {
		v := new(int)
		*v = int(n.Add(1))
		return v, nil
	}
}

func TestDecodedOncePerAnswer(t *testing.T) {
	type read struct {
		answer int // index into the case's answers
		name   string
	}
	for _, tc := range []struct {
		name        string
		answers     int
		reads       []read
		wantDecodes int64
	}{
		{"one read", 1, []read{{0, "x"}}, 1},
		{"the same answer read twice decodes once", 1, []read{{0, "x"}, {0, "x"}}, 1},
		{"the same answer read five times decodes once", 1, []read{{0, "x"}, {0, "x"}, {0, "x"}, {0, "x"}, {0, "x"}}, 1},
		{"two answers decode independently", 2, []read{{0, "x"}, {1, "x"}, {0, "x"}, {1, "x"}}, 2},
		{"two names on one answer are two forms", 1, []read{{0, "x"}, {0, "y"}, {0, "x"}, {0, "y"}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answers := make([]*V2Answer, tc.answers)
			for i := range answers {
				answers[i] = &V2Answer{Status: 200, Body: []byte(`{}`)}
			}
			var n atomic.Int64
			decode := countingDecode(&n)
			first := map[read]*int{}
			for _, rd := range tc.reads {
				v, r := decoded(answers[rd.answer], rd.name, decode)
				if r != nil || v == nil {
					t.Fatalf("read %v: %v, %v", rd, v, r)
				}
				if f, ok := first[rd]; ok && f != v {
					t.Errorf("read %v: another value than the first read's", rd)
				}
				first[rd] = v
			}
			if got := n.Load(); got != tc.wantDecodes {
				t.Errorf("%d decodes, want %d", got, tc.wantDecodes)
			}
		})
	}
}

// Two forms of different types under one name do not meet.
func TestDecodedKeysByType(t *testing.T) {
	a := &V2Answer{Status: 200, Body: []byte(`{}`)}
	i, _ := decoded(a, "x", func(*V2Answer) (int, *Result) { return 1, nil })
	s, _ := decoded(a, "x", func(*V2Answer) (string, *Result) { return "one", nil })
	i2, _ := decoded(a, "x", func(*V2Answer) (int, *Result) { return 2, nil })
	if i != 1 || s != "one" || i2 != 1 {
		t.Errorf("got %d %q %d, want 1 \"one\" 1", i, s, i2)
	}
}

// A body that cannot be decoded gives the answer it gave before the memo
// (decodeV2's 502), every time, and nothing is kept: each reader gets a
// Result of its own.
func TestDecodedFailureNotKept(t *testing.T) {
	for _, body := range []string{`{"gpus":{}}`, `not json`, `{"gpus":[{"id":7}]}`, ``} {
		t.Run(body, func(t *testing.T) {
			a := &V2Answer{Status: 200, Body: []byte(body)}
			_, want := decodeV2[v2GPUCatalog](&V2Answer{Status: 200, Body: []byte(body)}, "a GPU catalog")
			if want == nil {
				t.Fatal("the body decodes")
			}
			var seen []*Result
			for range 3 {
				cat, r := decodeShared[v2GPUCatalog](a, "a GPU catalog")
				if cat != nil || r == nil || r.Status != want.Status || !bytes.Equal(r.Body, want.Body) {
					t.Fatalf("decodeShared: %v, %d %s; want %d %s", cat, r.Status, r.Body, want.Status, want.Body)
				}
				for _, s := range seen {
					if s == r {
						t.Error("a failure's Result was shared between readers")
					}
				}
				seen = append(seen, r)
				m, r := gpuTypesByID(a)
				if m != nil || r == nil || r.Status != want.Status || !bytes.Equal(r.Body, want.Body) {
					t.Fatalf("gpuTypesByID: %v, %v; want %d %s", m, r, want.Status, want.Body)
				}
			}
			if len(a.memo.forms) != 0 {
				t.Errorf("a failure was kept: %v", a.memo.forms)
			}

			// The v1 answer of GET /pods?includeMachine=true is the same 502.
			c := &sharedCatalogCaller{pods: podList(pod("a")), catalog: a}
			res := listPodsWithMachine(c)
			if res.Status != want.Status || !bytes.Equal(res.Body, want.Body) {
				t.Errorf("ListPods: %d %s, want %d %s", res.Status, res.Body, want.Status, want.Body)
			}
		})
	}
}

// sharedCatalogCaller answers GET /v2/pods with a new answer each time and
// GET /v2/catalog/gpus with the same answer, as the proxy's catalog cache
// does.
type sharedCatalogCaller struct {
	pods    string
	catalog *V2Answer
}

func (c *sharedCatalogCaller) Call(_ context.Context, call V2Call) (*V2Answer, error) {
	switch call.Path {
	case "/v2/pods":
		return &V2Answer{Status: 200, Header: jsonHeader, Body: []byte(c.pods)}, nil
	case "/v2/catalog/gpus":
		if len(call.Query) == 0 {
			return c.catalog, nil
		}
	}
	return &V2Answer{Status: 404, Body: []byte(problem(404, "no "+call.Path))}, nil
}

// listPodsWithMachine is GET /v1/pods?includeMachine=true through c.
func listPodsWithMachine(c Caller) *Result {
	op, _ := Lookup("ListPods")
	req := &Request{Op: op, Query: url.Values{"includeMachine": {"true"}}, Options: Options{Now: func() time.Time { return testNow }}}
	return op.Plan(context.Background(), req, c)
}

const wantTwoMachines = `[
	{"machine":{"gpuTypeId":"NVIDIA A40","dataCenterId":"US-TX-3","secureCloud":true,"gpuDisplayName":"A40",
	  "gpuType":{"id":"NVIDIA A40","displayName":"A40","securePrice":0.44,"communityPrice":0.35}}},
	{"machine":{"dataCenterId":"US-TX-3","secureCloud":true}}]`

// machinesOf is the machine of each pod of a v1 list.
func machinesOf(t testing.TB, body []byte) []byte {
	var pods []map[string]any
	if err := json.Unmarshal(body, &pods); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	out := make([]map[string]any, len(pods))
	for i, p := range pods {
		out[i] = map[string]any{"machine": p["machine"]}
	}
	b, _ := json.Marshal(out)
	return b
}

// GET /pods?includeMachine=true reads the GPU catalog's answer once: a
// second request on the same answer uses what the first decoded (its body
// is not read again), and says the same.
func TestListPodsMachineDecodesSharedCatalogOnce(t *testing.T) {
	catalog := &V2Answer{Status: 200, Header: jsonHeader, Body: []byte(gpuCatalog)}
	c := &sharedCatalogCaller{pods: podList(pod("a"), pod("c", cpuPod)), catalog: catalog}
	first := listPodsWithMachine(c)
	wantStatus(t, first, 200)
	jsonEqual(t, "machines", machinesOf(t, first.Body), wantTwoMachines)
	m1, _ := gpuTypesByID(catalog)

	// A probe: were the body read again, the second answer would fail.
	catalog.Body = []byte(`not json`)
	second := listPodsWithMachine(c)
	wantStatus(t, second, 200)
	if !bytes.Equal(first.Body, second.Body) {
		t.Errorf("second answer differs:\n%s\n%s", first.Body, second.Body)
	}
	m2, r := gpuTypesByID(catalog)
	if r != nil || len(m1) != 3 || m1["NVIDIA A40"] != m2["NVIDIA A40"] {
		t.Errorf("the map by id was made again: %v %v %v", m1, m2, r)
	}

	// Another answer (the cache entry expired) is decoded anew.
	c.catalog = &V2Answer{Status: 200, Header: jsonHeader, Body: []byte(`{"gpus":[{"id":"NVIDIA A40","name":"A40 new","price":{"secure":0.5}}]}`)}
	third := listPodsWithMachine(c)
	wantStatus(t, third, 200)
	jsonEqual(t, "machines", machinesOf(t, third.Body), `[
		{"machine":{"gpuTypeId":"NVIDIA A40","dataCenterId":"US-TX-3","secureCloud":true,"gpuDisplayName":"A40 new",
		  "gpuType":{"id":"NVIDIA A40","displayName":"A40 new","securePrice":0.5}}},
		{"machine":{"dataCenterId":"US-TX-3","secureCloud":true}}]`)
}

// The catalog readers of the GraphQL door share the decoded catalog too.
func TestReadGPUTypesSharesDecodedCatalog(t *testing.T) {
	catalog := &V2Answer{Status: 200, Header: jsonHeader, Body: []byte(gpuCatalog)}
	c := &sharedCatalogCaller{catalog: catalog}
	t1, r1 := ReadGPUTypes(context.Background(), &Request{}, c, GPUCatalogQuery{})
	t2, r2 := ReadGPUTypes(context.Background(), &Request{}, c, GPUCatalogQuery{})
	if r1 != nil || r2 != nil || len(t1) != 3 || len(t2) != 3 || &t1[0] != &t2[0] {
		t.Errorf("two reads of one answer: %v %v, %d and %d types, shared %v", r1, r2, len(t1), len(t2), len(t1) > 0 && len(t2) > 0 && &t1[0] == &t2[0])
	}
}

// Many requests reading one shared catalog answer at once (run with
// -race): every reader gets the same decoded form, and every v1 answer is
// right.
func TestDecodedConcurrentReaders(t *testing.T) {
	const readers = 64
	t.Run("decoded", func(t *testing.T) {
		a := &V2Answer{Status: 200, Body: []byte(`{}`)}
		var n atomic.Int64
		decode := countingDecode(&n)
		got := make([]*int, readers)
		var start, wg sync.WaitGroup
		start.Add(1)
		for i := range readers {
			wg.Go(func() {
				start.Wait()
				for range 20 {
					v, r := decoded(a, "x", decode)
					if r != nil {
						t.Error(r)
						return
					}
					if got[i] != nil && got[i] != v {
						t.Error("a reader got two values")
					}
					got[i] = v
				}
			})
		}
		start.Done()
		wg.Wait()
		for i := range got {
			if got[i] != got[0] {
				t.Fatalf("readers %d and 0 got different values", i)
			}
		}
		if d := n.Load(); d < 1 || d > readers {
			t.Errorf("%d decodes", d)
		}
	})
	t.Run("ListPods includeMachine", func(t *testing.T) {
		catalog := &V2Answer{Status: 200, Header: jsonHeader, Body: []byte(gpuCatalog)}
		c := &sharedCatalogCaller{pods: podList(pod("a"), pod("c", cpuPod)), catalog: catalog}
		// What every answer must be: the same list on a catalog answer of
		// its own.
		want := listPodsWithMachine(&sharedCatalogCaller{pods: c.pods, catalog: &V2Answer{Status: 200, Body: []byte(gpuCatalog)}})
		wantStatus(t, want, 200)
		jsonEqual(t, "machines", machinesOf(t, want.Body), wantTwoMachines)
		var start, wg sync.WaitGroup
		start.Add(1)
		maps := make([]map[string]*v2GPUType, readers)
		for i := range readers {
			wg.Go(func() {
				start.Wait()
				for range 5 {
					res := listPodsWithMachine(c)
					if res.Status != 200 || !bytes.Equal(res.Body, want.Body) {
						t.Errorf("%d %s\nwant %s", res.Status, res.Body, want.Body)
						return
					}
					ReleaseBody(res.Body)
				}
				types, _ := ReadGPUTypes(context.Background(), &Request{}, c, GPUCatalogQuery{})
				if len(types) != 3 {
					t.Errorf("%d types", len(types))
				}
				maps[i], _ = gpuTypesByID(catalog)
			})
		}
		start.Done()
		wg.Wait()
		for i := range maps {
			if maps[i]["NVIDIA A40"] == nil || maps[i]["NVIDIA A40"] != maps[0]["NVIDIA A40"] {
				t.Fatalf("readers %d and 0 got different maps", i)
			}
		}
	})
}
