package proxy

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/limiter"
)

// The precomputed RateLimit-Policy values and the reqInfo's storage give
// the same headers as values made for the answer, and no Add reaches a value
// shared with other answers or the other header.
func TestSetRateLimitHeadersWith(t *testing.T) {
	policies := ratePoliciesFor(60, map[string]int{"k1": 10, "k2": 60, "k3": -1})
	for _, d := range []limiter.Decision{
		{Allowed: true, Limit: 60, Remaining: 59, Reset: 30 * time.Second},
		{Allowed: true, Limit: 10, Remaining: 0, Reset: time.Second + 1},
		{Allowed: false, Limit: -1, Remaining: -5, Reset: 0},
		{Allowed: true, Limit: 7, Remaining: 3, Reset: time.Minute}, // not configured: formatted
	} {
		want := http.Header{}
		setRateLimitHeaders(want, d, nil, nil)
		for _, val := range []*[1]string{nil, new([1]string)} {
			h := http.Header{}
			setRateLimitHeaders(h, d, policies, val)
			if !reflect.DeepEqual(h, want) {
				t.Errorf("%+v: headers %v, want %v", d, h, want)
			}
			h.Add("Ratelimit-Policy", "second")
			h.Add("Ratelimit", "second")
			again := http.Header{}
			setRateLimitHeaders(again, d, policies, nil)
			if !reflect.DeepEqual(again, want) {
				t.Errorf("%+v: an Add to one answer's headers reached another's: %v", d, again)
			}
		}
	}
	if got := policies[60]; !slices.Equal(got, []string{`"minute";q=60;w=60`}) || cap(got) != 1 {
		t.Errorf("policy of 60: %q (cap %d)", got, cap(got))
	}
	if got := policies[-1]; !slices.Equal(got, []string{`"minute";q=0;w=60`}) {
		t.Errorf("policy of -1: %q", got)
	}
}

// The context withRequestID makes (part of the reqInfo) is what
// context.WithValue would give: the reqInfo under infoKey, the parent's
// values and cancellation otherwise.
func TestInfoContext(t *testing.T) {
	type otherKey struct{}
	parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), otherKey{}, "v"))
	info := &reqInfo{requestID: "rid"}
	info.ctx = infoContext{Context: parent, info: info}
	ctx := context.Context(&info.ctx)
	child, stop := context.WithTimeout(ctx, time.Hour)
	defer stop()
	for _, c := range []context.Context{ctx, child} {
		if infoFrom(c) != info || RequestID(c) != "rid" {
			t.Errorf("infoFrom: %p, want %p", infoFrom(c), info)
		}
		if c.Value(otherKey{}) != "v" {
			t.Errorf("parent's value: %v", c.Value(otherKey{}))
		}
	}
	cause := errors.New("gone")
	cancel(cause)
	<-child.Done()
	if !errors.Is(child.Err(), context.Canceled) || context.Cause(child) != cause || context.Cause(ctx) != cause {
		t.Errorf("cancellation: %v, cause %v", child.Err(), context.Cause(child))
	}
}

// The request's X-Request-Id is answered as before, and an Add to it
// does not change the reqInfo's id.
func TestRequestIDHeaderOwn(t *testing.T) {
	g := &Gateway{}
	var info *reqInfo
	h := g.withRequestID(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info = infoFrom(r.Context())
		w.Header().Add("X-Request-Id", "more")
	}))
	for _, tc := range []struct{ sent, want string }{{"abc-123", "abc-123"}, {"", ""}, {"bad id", ""}} {
		r := httptest.NewRequest("GET", "/v1/pods", nil)
		if tc.sent != "" {
			r.Header.Set("X-Request-Id", tc.sent)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		got := w.Header().Values("X-Request-Id")
		if len(got) != 2 || got[1] != "more" || info == nil || got[0] != info.requestID || (tc.want != "" && got[0] != tc.want) || got[0] == "" {
			t.Errorf("sent %q: X-Request-Id %q, reqInfo id %q", tc.sent, got, info.requestID)
		}
		if info.idHdr[0] != info.requestID {
			t.Errorf("sent %q: header storage %q changed by an Add", tc.sent, info.idHdr[0])
		}
	}
}

// query gives the plan nil for no query, else the parsed query.
func TestQueryOfURL(t *testing.T) {
	for _, tc := range []struct {
		target string
		want   url.Values
	}{
		{"/v1/pods", nil},
		{"/v1/pods?", nil},
		{"/v1/pods?a=1&a=2&b", url.Values{"a": {"1", "2"}, "b": {""}}},
		{"/v1/pods?%zz", url.Values{}},
	} {
		u, err := url.Parse(tc.target)
		if err != nil {
			t.Fatal(err)
		}
		if got := query(u); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %#v, want %#v", tc.target, got, tc.want)
		}
	}
}

// addParam makes the map on the first variable and refuses invalid ids.
func TestAddParam(t *testing.T) {
	var params map[string]string
	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/v1/pods/x", nil)
	if !addParam(w, r, &params, "podId", "abc%2Dd") || params["podId"] != "abc-d" {
		t.Errorf("params %v", params)
	}
	if !addParam(w, r, &params, "other", "e") || len(params) != 2 {
		t.Errorf("params %v", params)
	}
	var none map[string]string
	if addParam(w, r, &none, "podId", "%zz") || none != nil || w.Code != http.StatusNotFound {
		t.Errorf("invalid id: params %v, status %d", none, w.Code)
	}
}

// The Deprecation and Sunset values are shared by every answer: an Add to
// one answer's does not reach the next answer's.
func TestV1HeadersShared(t *testing.T) {
	g := &Gateway{deprecation: "@1", sunset: "Sun, 31 Jan 2027 00:00:00 GMT"}
	g.deprecationHdr, g.sunsetHdr = []string{g.deprecation}, []string{g.sunset}
	h := g.withV1Headers(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Deprecation", "more")
		w.Header().Add("Sunset", "more")
	}))
	for range 2 {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/v1/pods", nil))
		if got := w.Header().Values("Deprecation"); !slices.Equal(got, []string{"@1", "more"}) {
			t.Errorf("Deprecation %q", got)
		}
		if got := w.Header().Values("Sunset"); !slices.Equal(got, []string{g.sunset, "more"}) {
			t.Errorf("Sunset %q", got)
		}
	}
	if !slices.Equal(g.deprecationHdr, []string{"@1"}) || !slices.Equal(g.sunsetHdr, []string{g.sunset}) {
		t.Errorf("shared values changed: %q %q", g.deprecationHdr, g.sunsetHdr)
	}
}
