package proxy

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/mux"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/propagation"

	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/translate"
)

// plainPath must only accept paths that url.Parse returns unchanged as
// Path with no RawPath, query or fragment (the fast path of Upstream.open).
func TestPlainPathMatchesURLParse(t *testing.T) {
	paths := []string{
		"/v2/pods", "/v2/pods/abc123", "/v2/pods/a-b_c.d~e", "/v2/pods/..", "/v2/pods/./x",
		"/", "", "v2/pods", "//evil/v2/pods", "/v2//pods", "/v2/pods/a%2Fb", "/v2/pods/a%zz",
		"/v2/pods/a b", "/v2/pods?x=1", "/v2/pods#f", "/v2/pods/a:b", "/v2/pods/a@b", "/v2/pods/a;b",
		"/v2/pods/a+b", "/v2/pods/ä", "/v2/pods/a\x00b", "/v2/pods/a\\b", "/v2/pods/a'b", "/v2/pods/a%20b",
	}
	for c := 0x20; c < 0x7f; c++ {
		paths = append(paths, "/v2/x"+string(rune(c))+"y")
	}
	for _, p := range paths {
		if !plainPath(p) {
			continue
		}
		u, err := url.Parse(p)
		if err != nil {
			t.Errorf("plainPath(%q) but url.Parse fails: %v", p, err)
			continue
		}
		if u.Path != p || u.RawPath != "" || u.RawQuery != "" || u.Fragment != "" || u.Host != "" || u.Scheme != "" || u.EscapedPath() != p {
			t.Errorf("plainPath(%q) but url.Parse gives %#v", p, u)
		}
	}
	for _, p := range []string{"/v2/pods", "/v2/pods/pod00000benchx", "/v2/endpoints/e-1/workers"} {
		if !plainPath(p) {
			t.Errorf("plainPath(%q) = false; the fast path is not taken for ids", p)
		}
	}
}

// The upstream request built without parsing is the one built by parsing.
func TestUpstreamRequestURL(t *testing.T) {
	for _, base := range []string{"http://upstream.test", "http://upstream.test:80", "https://u:p@upstream.test:8443/ignored?q=1"} {
		b, _ := url.Parse(base)
		var got *http.Request
		u := NewUpstream(b, roundTripFunc(func(r *http.Request) (*http.Response, error) {
			got = r
			return &http.Response{StatusCode: 200, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
		}))
		for _, path := range []string{"/v2/pods/abc", "/v2/pods/a%2Fb", "/v2/pods/a b", "/v2/pods/a:b"} {
			resp, err := u.open(t.Context(), Call{Method: http.MethodGet, Path: path, Query: url.Values{"x": {"1"}}}, "Bearer k", "rid")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			want := *b
			ref, _ := url.Parse(path)
			want.Path, want.RawPath, want.RawQuery = ref.Path, ref.RawPath, "x=1"
			if got.URL.String() != want.String() || got.URL.EscapedPath() != want.EscapedPath() {
				t.Errorf("%s %s: URL %s (escaped path %s), want %s (%s)", base, path, got.URL, got.URL.EscapedPath(), &want, want.EscapedPath())
			}
			wantReq, _ := http.NewRequest(http.MethodGet, want.String(), nil)
			if got.Host != wantReq.Host {
				t.Errorf("%s %s: Host %q, want %q", base, path, got.Host, wantReq.Host)
			}
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The RateLimit headers share one backing array: adding to one must not
// change the other.
func TestSetRateLimitHeadersIndependent(t *testing.T) {
	h := http.Header{}
	h.Set("RateLimit", "old")
	setRateLimitHeaders(h, limiter.Decision{Allowed: true, Limit: 60, Remaining: 59}, nil, nil)
	if got := h.Get("RateLimit-Policy"); got != `"minute";q=60;w=60` {
		t.Errorf("RateLimit-Policy %q", got)
	}
	r := h.Get("RateLimit")
	h.Add("RateLimit-Policy", "second")
	if h.Get("RateLimit") != r || len(h.Values("RateLimit")) != 1 {
		t.Errorf("RateLimit changed by an Add to RateLimit-Policy: %q", h.Values("RateLimit"))
	}
	if len(h) != 2 {
		t.Errorf("headers %v: want exactly the two canonical keys", h)
	}
}

// canonicalCarrier injects what propagation.HeaderCarrier injects.
func TestCanonicalCarrier(t *testing.T) {
	a, b := http.Header{}, http.Header{}
	for _, kv := range [][2]string{{"traceparent", "tp"}, {"tracestate", "ts"}, {"baggage", "bg"}, {"x-other", "o"}} {
		propagation.HeaderCarrier(a).Set(kv[0], kv[1])
		canonicalCarrier(b).Set(kv[0], kv[1])
	}
	if len(a) != len(b) {
		t.Fatalf("%v vs %v", a, b)
	}
	for k, v := range a {
		if len(b[k]) != 1 || b[k][0] != v[0] {
			t.Errorf("%s: %q vs %q", k, b[k], v)
		}
	}
	if canonicalCarrier(b).Get("traceparent") != "tp" || len(canonicalCarrier(b).Keys()) != 4 {
		t.Errorf("Get/Keys: %v", b)
	}
}

// v1Routes chooses the route gorilla/mux chooses, with the same variables,
// for every v1 route and method, ids plain, encoded, empty or spanning
// segments, and paths around the templates; and leaves to mux what mux
// matches to no v1 route.
func TestV1RoutesMatchMux(t *testing.T) {
	srv, _ := newTestGateway(t, nil)
	gw := srv.Config.Handler.(*Gateway)
	if gw.fast == nil {
		t.Fatal("the v1 routes are not matched by v1Routes")
	}
	ids := []string{"abc", "pod00000benchx", "a%2Fb", "a%20b", "%zz", "a.b", "..", ".", "x/y", "", "{podId}", "a;b", "a:b", "a@b"}
	paths := []string{"/v1", "/v1/", "/v1//", "/v1/pods/", "/v1/pods//", "/v1/pods/x/", "/v2/pods", "/graphql", "/v1/graphql", "/v1/Pods", "/v1/pods/x/start/now", "/v1/docs/x"}
	for _, op := range translate.Operations {
		for _, id := range ids {
			p := "/v1" + op.Path
			for _, name := range []string{"podId", "endpointId", "templateId", "networkVolumeId", "containerRegistryAuthId"} {
				p = strings.ReplaceAll(p, "{"+name+"}", id)
			}
			paths = append(paths, p, p+"/", p+"/x", "/v1/"+p)
		}
	}
	methods := []string{"GET", "POST", "PATCH", "DELETE", "PUT", "HEAD", "OPTIONS", "get"}
	n := 0
	for _, p := range paths {
		for _, m := range methods {
			req := &http.Request{Method: m, URL: &url.URL{Path: p, RawPath: p}, Header: http.Header{}}
			if u, err := url.Parse(p); err == nil {
				req.URL = u
			}
			escaped := req.URL.EscapedPath()
			var match mux.RouteMatch
			muxOK := gw.router.Match(req, &match) && match.MatchErr == nil
			i, vars := gw.fast.matchIndex(m, escaped, nil)
			if i < 0 {
				if muxOK && strings.HasPrefix(escaped, "/v1/") {
					tpl, _ := match.Route.GetPathTemplate()
					t.Errorf("%s %s: mux matches %s, v1Routes nothing", m, escaped, tpl)
				}
				continue
			}
			n++
			if !muxOK {
				t.Errorf("%s %s: v1Routes matches route %d, mux nothing (err %v)", m, escaped, i, match.MatchErr)
				continue
			}
			op := translate.Operations[i]
			tpl, _ := match.Route.GetPathTemplate()
			ms, _ := match.Route.GetMethods()
			if tpl != "/v1"+op.Path || len(ms) != 1 || ms[0] != op.Method {
				t.Errorf("%s %s: v1Routes matches %s %s, mux %v %s", m, escaped, op.Method, op.Path, ms, tpl)
			}
			got := map[string]string{}
			for j := 0; j+1 < len(vars); j += 2 {
				got[vars[j]] = vars[j+1]
			}
			if !maps.Equal(got, match.Vars) {
				t.Errorf("%s %s: vars %v, mux %v", m, escaped, got, match.Vars)
			}
		}
	}
	if n < len(translate.Operations) {
		t.Errorf("only %d fast matches", n)
	}
}

// LogUnfinished tells the call being sent (built from its parts only then)
// and the request's method and path, kept in its reqInfo.
func TestLogUnfinishedTellsTheCallBeingSent(t *testing.T) {
	var logBuf logBuffer
	log := zerolog.New(&logBuf)
	gw, err := New(Options{Config: testConfig("http://127.0.0.1:1"), Logger: &log})
	if err != nil {
		t.Fatal(err)
	}
	info := &reqInfo{op: "GetPod", requestID: "rid", method: "GET", path: "/v1/pods/p1", start: time.Now()}
	gw.active.Store(info, info)
	info.addCall("GET", "/v2/catalog", "200", 200, time.Millisecond)
	info.startCall("GET", "/v2/pods/p1")
	if n := gw.LogUnfinished(); n != 1 {
		t.Fatalf("LogUnfinished = %d", n)
	}
	line := logBuf.String()
	for _, want := range []string{`"v2_calls":["GET /v2/catalog -> 200","GET /v2/pods/p1 -> (no answer yet)"]`, `"method":"GET"`, `"path":"/v1/pods/p1"`, `"request_id":"rid"`} {
		if !strings.Contains(line, want) {
			t.Errorf("log %s lacks %s", line, want)
		}
	}
	info.addCall("GET", "/v2/pods/p1", "200", 200, time.Millisecond)
	info.addCall("GET", "/v2/x", "error", 0, 0)
	if got := strings.Join(callStrings(info.calls), "|"); got != "GET /v2/catalog -> 200|GET /v2/pods/p1 -> 200|GET /v2/x -> error" || len(info.upStatuses) != 2 || info.sendingMethod != "" {
		t.Errorf("calls %q statuses %v sending %q", got, info.upStatuses, info.sendingMethod)
	}
}

// streamingRoute decides as the split of the whole path it replaced.
func TestStreamingRouteAsSplit(t *testing.T) {
	old := func(r *http.Request) bool {
		if r.Method != http.MethodGet {
			return false
		}
		seg := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/v2/"), "/")
		switch len(seg) {
		case 3:
			return seg[0] == "pods" && seg[1] != "" && seg[2] == "logs"
		case 5:
			return seg[0] == "serverless" && seg[1] != "" && seg[2] == "workers" && seg[3] != "" && seg[4] == "logs"
		}
		return false
	}
	parts := []string{"", "pods", "x", "logs", "serverless", "workers", "a%2Fb", "v2"}
	var paths []string
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		paths = append(paths, prefix)
		if depth == 0 {
			return
		}
		for _, p := range parts {
			gen(prefix+"/"+p, depth-1)
		}
	}
	gen("/v2", 6)
	paths = append(paths, "/v2/logs", "logs", "/logs", "/v2/pods/x/logs/", "/v1/pods/x/logs")
	for _, p := range paths {
		for _, m := range []string{"GET", "POST"} {
			r := &http.Request{Method: m, URL: &url.URL{Path: p}}
			if got, want := streamingRoute(r), old(r); got != want {
				t.Errorf("%s %s: %v, want %v", m, p, got, want)
			}
		}
	}
}

// The pass-through's buffer pool gives back full-size buffers and drops
// foreign ones.
func TestBufferPool(t *testing.T) {
	var p bufferPool
	b := p.Get()
	if len(b) != passThroughBuffer {
		t.Fatalf("len %d", len(b))
	}
	b2 := p.Get()
	p.Put(b)
	p.Put(b2[:10]) // a shortened one of the pool's is still whole
	p.Put(make([]byte, 100))
	for range 3 {
		if b := p.Get(); len(b) != passThroughBuffer {
			t.Fatalf("len %d", len(b))
		}
	}
}

// A GET without a body (http.NoBody, as the server gives it) reaches the
// plan as an empty, non-nil body, as io.ReadAll made it.
func TestPlanBodyOfGetWithoutBody(t *testing.T) {
	srv, _ := newTestGateway(t, nil)
	gw := srv.Config.Handler.(*Gateway)
	var got []byte
	op := &translate.Operation{Name: "Probe", Method: "GET", Path: "/things", Kind: translate.KindGet, Success: 200,
		Plan: func(ctx context.Context, req *translate.Request, c translate.Caller) *translate.Result {
			got = req.Body
			return &translate.Result{Status: 200, Body: []byte(`{}`)}
		}}
	for _, body := range []io.ReadCloser{http.NoBody, io.NopCloser(strings.NewReader(""))} {
		got = nil
		req := httptest.NewRequest("GET", "/v1/things", nil)
		req.Body = body
		w := httptest.NewRecorder()
		gw.v1Handler(op).ServeHTTP(w, req)
		if w.Code != 200 || got == nil || len(got) != 0 {
			t.Errorf("body %T: status %d, plan body %#v (want empty, not nil)", body, w.Code, got)
		}
	}
}

// The header names looked up or assigned without canonicalisation are in
// canonical form, so that they are the keys Header.Get and Header.Set use.
func TestHeaderKeysCanonical(t *testing.T) {
	for _, k := range []string{"X-Request-Id", "Authorization", "X-Compat-Warning", "X-Compat-Dropped", "X-Compat-Emulated",
		"User-Agent", "Deprecation", "Sunset", "Accept", "Content-Type", hdrRateLimit, hdrRateLimitPolicy, "Traceparent", "Tracestate", "Baggage"} {
		if c := http.CanonicalHeaderKey(k); c != k {
			t.Errorf("%q is not canonical (%q)", k, c)
		}
	}
	h := http.Header{}
	h.Set("x-request-id", "a")
	h.Add("X-Request-ID", "b")
	if headerValue(h, "X-Request-Id") != h.Get("x-request-id") || headerValue(h, "Nope") != "" {
		t.Errorf("headerValue differs from Get: %v", h)
	}
}

// The v2 calls of the access log are the JSON array of their lines,
// whatever the bytes of a path.
func TestAppendCallsJSON(t *testing.T) {
	for _, calls := range [][]v2CallRec{
		nil,
		{{"GET", "/v2/pods", "200"}},
		{{"GET", "/v2/pods/a%22b", "404"}, {"POST", `/v2/x"y\z`, "error"}},
		{{"GET", "/v2/\x01\n<&>", "breaker-open"}, {"GET", "/v2/é\xff", "(no answer yet)"}},
	} {
		var got []string
		raw := appendCallsJSON(nil, calls)
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		want := callStrings(calls)
		for i := range want {
			want[i] = strings.ToValidUTF8(want[i], "\uFFFD")
		}
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("%q decodes to %q, want %q", raw, got, want)
		}
	}
}
