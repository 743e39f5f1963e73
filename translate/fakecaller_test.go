package translate

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/v1gateway/v1gateway/internal/speccheck"
)

// A scripted Caller for plan tests: it expects calls in order, answers each
// with a canned v2 answer, records every request, and checks every request
// body against the v2 contract (and every canned 2xx answer too, so that
// the fixtures themselves are faithful v2).

// step is one expected v2 call and its answer.
type step struct {
	method, path string // expected; path without query
	query        string // expected encoded query (url.Values.Encode order); "" = none, "*" = any
	status       int    // answer status (0 with err set: no answer)
	body         string // answer body
	header       http.Header
	err          error
	// hook runs when the call arrives (e.g. to record side effects).
	hook func(V2Call)
}

type fakeCaller struct {
	t      testing.TB
	mu     sync.Mutex
	script []step
	n      int
	calls  []V2Call
}

func newFake(t testing.TB, script ...step) *fakeCaller {
	return &fakeCaller{t: t, script: script}
}

var (
	v2SpecOnce sync.Once
	v2Spec     *speccheck.Spec
	v1SpecOnce sync.Once
	v1Spec     *speccheck.Spec
)

// loadSpecs returns the loaded v1 and v2 contracts, or nil when absent (the
// tests then run without contract checks, and say so once).
func loadSpecs(tb testing.TB) (v1, v2 *speccheck.Spec) {
	v2SpecOnce.Do(func() {
		s, err := speccheck.Load("v2.openapi.json")
		if err != nil && !errors.Is(err, speccheck.ErrSpecsNotFound) {
			panic(err)
		}
		v2Spec = s
	})
	v1SpecOnce.Do(func() {
		s, err := speccheck.Load("v1.openapi.json")
		if err != nil && !errors.Is(err, speccheck.ErrSpecsNotFound) {
			panic(err)
		}
		if s != nil {
			// v1's answers: null only where V1Nulls lists it for the
			// object's own schema (issue 37).
			if s, err = s.WithNulls(V1Nulls); err != nil {
				panic(err)
			}
		}
		v1Spec = s
	})
	speccheck.Record(tb, v1Spec != nil && v2Spec != nil)
	if v1Spec == nil || v2Spec == nil {
		tb.Log("specs not found (see speccheck.SpecsDir): contract checks skipped")
	}
	return v1Spec, v2Spec
}

var jsonHeader = http.Header{"Content-Type": {"application/json"}}

func (f *fakeCaller) Call(ctx context.Context, c V2Call) (*V2Answer, error) {
	f.t.Helper()
	f.mu.Lock()
	f.calls = append(f.calls, c)
	i := f.n
	f.n++
	f.mu.Unlock()
	target := c.Path
	if len(c.Query) > 0 {
		target += "?" + c.Query.Encode()
	}
	if !strings.HasPrefix(c.Path, "/v2/") {
		f.t.Errorf("call %d: path %q does not start with /v2/", i, c.Path)
	}
	if _, v2 := loadSpecs(f.t); v2 != nil {
		if err := v2.ValidateRequest(c.Method, target, jsonHeader, c.Body); err != nil {
			f.t.Errorf("call %d %s %s: request breaks the v2 contract: %v\nbody: %s", i, c.Method, target, err, c.Body)
		}
	}
	if i >= len(f.script) {
		f.t.Errorf("unexpected call %d: %s %s body %s", i, c.Method, target, c.Body)
		return &V2Answer{Status: 599, Header: http.Header{}, Body: nil}, nil
	}
	s := f.script[i]
	if s.method != c.Method || s.path != c.Path {
		f.t.Errorf("call %d: got %s %s, want %s %s", i, c.Method, c.Path, s.method, s.path)
	}
	if s.query != "*" {
		got := ""
		if len(c.Query) > 0 {
			got = c.Query.Encode()
		}
		if got != s.query {
			f.t.Errorf("call %d %s: query %q, want %q", i, c.Path, got, s.query)
		}
	}
	if s.hook != nil {
		s.hook(c)
	}
	if s.err != nil {
		return nil, s.err
	}
	h := http.Header{}
	for k, v := range s.header {
		h[k] = v
	}
	ct := "application/json"
	if s.status >= 400 {
		ct = "application/problem+json"
	}
	if h.Get("Content-Type") == "" && s.body != "" {
		h.Set("Content-Type", ct)
	}
	if _, v2 := loadSpecs(f.t); v2 != nil && s.status >= 200 && s.status < 300 {
		if err := v2.ValidateResponse(c.Method, c.Path, s.status, h, []byte(s.body)); err != nil {
			f.t.Errorf("fixture for call %d %s %s is not valid v2: %v", i, c.Method, c.Path, err)
		}
	}
	return &V2Answer{Status: s.status, Header: h, Body: []byte(s.body)}, nil
}

// done checks that every scripted call was made.
func (f *fakeCaller) done() {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n < len(f.script) {
		for _, s := range f.script[f.n:] {
			f.t.Errorf("expected call not made: %s %s", s.method, s.path)
		}
	}
}

// count returns how many calls matched method and path.
func (f *fakeCaller) count(method, path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if c.Method == method && c.Path == path {
			n++
		}
	}
	return n
}

// bodies returns the request bodies of the calls to method+path.
func (f *fakeCaller) bodies(method, path string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		if c.Method == method && c.Path == path {
			out = append(out, string(c.Body))
		}
	}
	return out
}

// problem is a v2 problem body.
func problem(status int, detail string, errs ...string) string {
	b := `{"title":"` + http.StatusText(status) + `","status":` + strconv.Itoa(status) + `,"detail":"` + detail + `"`
	if len(errs) > 0 {
		b += `,"errors":["` + strings.Join(errs, `","`) + `"]`
	}
	return b + "}"
}
