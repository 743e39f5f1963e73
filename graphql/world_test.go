package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/internal/speccheck"
	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/v2sim"
)

// The door's tests run it against the v2 simulator in-process: a Caller
// that serves each v2 call from v2sim's handler, checking every request
// the door makes against the v2 contract (when the vendor's documents are
// found) and recording it.

var (
	v2SpecOnce sync.Once
	v2Spec     *speccheck.Spec
)

func loadV2Spec(tb testing.TB) *speccheck.Spec {
	v2SpecOnce.Do(func() {
		s, err := speccheck.Load("v2.openapi.json")
		if err != nil && !errors.Is(err, speccheck.ErrSpecsNotFound) {
			panic(err)
		}
		v2Spec = s
	})
	speccheck.Record(tb, v2Spec != nil)
	if v2Spec == nil {
		tb.Log("the vendor's OpenAPI documents were not found (see speccheck.SpecsDir): v2 contract checks skipped")
	}
	return v2Spec
}

// simCaller makes v2 calls against the simulator's handler.
type simCaller struct {
	t     testing.TB
	h     http.Handler
	key   string
	mu    sync.Mutex
	calls []translate.V2Call
}

func (c *simCaller) Call(ctx context.Context, call translate.V2Call) (*translate.V2Answer, error) {
	c.t.Helper()
	target := call.Path
	if len(call.Query) > 0 {
		target += "?" + call.Query.Encode()
	}
	if spec := loadV2Spec(c.t); spec != nil {
		if err := spec.ValidateRequest(call.Method, target, http.Header{"Content-Type": {"application/json"}}, call.Body); err != nil {
			c.t.Errorf("%s %s: the door's v2 request breaks the v2 contract: %v\nbody: %s", call.Method, target, err, call.Body)
		}
	}
	c.mu.Lock()
	c.calls = append(c.calls, call)
	c.mu.Unlock()
	var body io.Reader = http.NoBody
	if call.Body != nil {
		body = bytes.NewReader(call.Body)
	}
	r := httptest.NewRequest(call.Method, target, body).WithContext(ctx)
	if c.key != "" {
		r.Header.Set("Authorization", "Bearer "+c.key)
	}
	if call.Body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	c.h.ServeHTTP(w, r)
	return &translate.V2Answer{Status: w.Code, Header: w.Header(), Body: w.Body.Bytes()}, nil
}

// world is a door in front of a seeded simulator.
type world struct {
	t      testing.TB
	door   *Door
	sim    *v2sim.Server
	caller *simCaller
	env    *Env
	now    time.Time
	// ids are ids saved by name (TestClientDocuments).
	ids map[string]string
}

func newWorld(t testing.TB) *world {
	t.Helper()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	w := &world{t: t, now: now}
	clock := func() time.Time { return w.now }
	w.sim = v2sim.New(v2sim.Options{Now: clock, Keys: []string{"k1"}, Seed: true})
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	w.door = d
	w.caller = &simCaller{t: t, h: w.sim, key: "k1"}
	w.env = &Env{Caller: w.caller, Options: translate.Options{Now: clock}, KeyID: "key-test"}
	return w
}

// answer is a GraphQL response as a client reads it.
type answer struct {
	Data       map[string]any   `json:"data"`
	Errors     []map[string]any `json:"errors"`
	Extensions map[string]any   `json:"extensions"`
	raw        []byte
	resp       *Response
}

// do executes a document (with variables as JSON, "" for none).
func (w *world) do(query, vars string) *answer {
	w.t.Helper()
	req := Request{Query: query}
	if vars != "" {
		dec := json.NewDecoder(strings.NewReader(vars))
		dec.UseNumber()
		if err := dec.Decode(&req.Variables); err != nil {
			w.t.Fatalf("variables: %v", err)
		}
	}
	resp := w.door.Execute(context.Background(), w.env, req)
	a := &answer{raw: resp.Body, resp: resp}
	if err := json.Unmarshal(resp.Body, a); err != nil {
		w.t.Fatalf("the answer is not JSON: %v\n%s", err, resp.Body)
	}
	return a
}

// ok executes a document that must answer without errors.
func (w *world) ok(query, vars string) *answer {
	w.t.Helper()
	a := w.do(query, vars)
	if len(a.Errors) > 0 {
		w.t.Fatalf("errors: %s", a.raw)
	}
	return a
}

// errorsOf executes a document that must answer with errors, and returns
// their messages.
func (w *world) errorsOf(query, vars string) []string {
	w.t.Helper()
	a := w.do(query, vars)
	if len(a.Errors) == 0 {
		w.t.Fatalf("no errors: %s", a.raw)
	}
	var msgs []string
	for _, e := range a.Errors {
		m, ok := e["message"].(string)
		if !ok {
			w.t.Fatalf("an error without a string message: %s", a.raw)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// path reads a value by a dotted path (numbers index lists).
func path(v any, p string) any {
	for _, k := range strings.Split(p, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i := 0
			for _, c := range k {
				i = i*10 + int(c-'0')
			}
			if i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// clientDocument reads a document a real client sends, kept under
// testdata/clients (captured from the client, see README there).
func clientDocument(t testing.TB, name string) string {
	t.Helper()
	return string(readClientFile(t, name))
}

// readClientFile reads a file of testdata/clients (a document or its
// variables).
func readClientFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "clients", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
