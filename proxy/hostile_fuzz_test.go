package proxy

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/translate"
)

// Fuzzing the HTTP layer: arbitrary paths through the real router, and the
// RateLimit header formatting.

// FuzzRouterPath sends an arbitrary path through the real router and plans,
// to an upstream that answers 404 to everything and records what reached
// it: never a panic or a 500; v1 errors are {"message"}; a v1 request
// reaches only its operation's declared v2 routes, with the id, decoded,
// as exactly one segment; /v2 paths are forwarded verbatim; anything else
// never reaches the upstream.
func FuzzRouterPath(f *testing.F) {
	for _, op := range translate.Operations {
		f.Add(uint8(0), concretePath(op.Path))
	}
	for _, p := range []string{"/v1/pods/..", "/v1/pods/%2e%2e", "/v1/pods/a%2Fb", "/v1/pods/a%252Fb/stop", "/v1/containerregistryauth/delegations",
		"/v1/pods/action", "/v1/pods/logs", "/v1/pods/a%00b", "/v1/pods/%zz", "/v1//pods", "/v1/pods/", "/v2/pods/a%2Fb?x=1",
		"/v2/../v1/pods", "/v1/pods/a/b", "/v1/endpoints/e%3Fx%3D1", "/v1/templates/t%23frag", "/v1/networkvolumes/%20", "/x", "//v1/pods"} {
		for m := uint8(0); m < 5; m++ {
			f.Add(m, p)
		}
	}
	var mu sync.Mutex
	var got []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.EscapedPath())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(404)
		_, _ = io.WriteString(w, `{"title":"Not Found","status":404,"detail":"nothing here"}`)
	}))
	f.Cleanup(up.Close)
	cfg := testConfig(up.URL)
	cfg.RateLimitPerMinute = 0
	gw, err := New(Options{Config: cfg, Resilience: &ResilienceOptions{BreakerFailures: 1 << 30, BreakerOpenFor: time.Second}})
	if err != nil {
		f.Fatal(err)
	}
	methods := []string{"GET", "POST", "PATCH", "DELETE", "PUT"}
	f.Fuzz(func(t *testing.T, m uint8, target string) {
		if !strings.HasPrefix(target, "/") {
			target = "/" + target
		}
		u, err := url.ParseRequestURI(target)
		if err != nil || strings.ContainsAny(target, " \t\r\n\x00\x7f") {
			return // net/http refuses such a request line before the gateway sees it
		}
		for i := 0; i < len(target); i++ {
			if target[i] < 0x20 || target[i] >= 0x7f {
				return
			}
		}
		method := methods[int(m)%len(methods)]
		req := httptest.NewRequest(method, "http://gw.test/", strings.NewReader(`{}`))
		req.URL = u
		req.RequestURI = target
		req.Header.Set("Authorization", "Bearer k1")
		mu.Lock()
		n := len(got)
		mu.Unlock()
		rec := httptest.NewRecorder()
		gw.ServeHTTP(rec, req)
		mu.Lock()
		calls := append([]string(nil), got[n:]...)
		mu.Unlock()

		if rec.Code == http.StatusInternalServerError || rec.Code == http.StatusNotImplemented {
			t.Fatalf("%s %s: %d %s", method, target, rec.Code, rec.Body)
		}
		escaped := u.EscapedPath()
		if rest, ok := strings.CutPrefix(escaped, "/v1//"); ok {
			// A base URL's trailing slash: served as /v1/... (gateway.go route).
			escaped = "/v1/" + strings.TrimLeft(rest, "/")
		}
		switch {
		case strings.HasPrefix(u.Path, "/v2/"):
			for _, c := range calls {
				if c != method+" "+escaped {
					t.Fatalf("%s %s forwarded as %s", method, target, c)
				}
			}
			return
		case !strings.HasPrefix(escaped, "/v1/"):
			if len(calls) > 0 {
				t.Fatalf("%s %s reached the upstream: %q", method, target, calls)
			}
			return
		}
		if rec.Code >= 400 {
			var e struct {
				Message string `json:"message"`
			}
			if json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Message == "" {
				t.Fatalf("%s %s: %d is not a v1 {\"message\"}: %q", method, target, rec.Code, rec.Body)
			}
		}
		op, id := matchV1(method, escaped)
		if op == nil {
			if len(calls) > 0 {
				t.Fatalf("%s %s matches no operation but reached the upstream: %q", method, target, calls)
			}
			return
		}
		for _, c := range calls {
			checkV2Call(t, op, id, c)
		}
	})
}

// matchV1 finds the operation of an escaped v1 path the way the router
// does (segment by segment, percent-encoded) and returns its id, decoded.
func matchV1(method, escaped string) (*translate.Operation, string) {
	segs := strings.Split(strings.TrimPrefix(escaped, "/v1"), "/")
	for i := range translate.Operations {
		op := &translate.Operations[i]
		if op.Method != method {
			continue
		}
		tsegs := strings.Split(op.Path, "/")
		if len(tsegs) != len(segs) {
			continue
		}
		id, ok := "", true
		for j := range tsegs {
			if strings.HasPrefix(tsegs[j], "{") {
				if segs[j] == "" {
					ok = false
					break
				}
				id = segs[j]
				continue
			}
			if tsegs[j] != segs[j] {
				ok = false
				break
			}
		}
		if ok {
			d, err := url.PathUnescape(id)
			if err != nil {
				return op, "\x00invalid"
			}
			return op, d
		}
	}
	return nil, ""
}

var placeholder = regexp.MustCompile(`^\{[A-Za-z]+\}$`)

// checkV2Call fails unless call ("METHOD /escaped/path") is one op
// declares, with every placeholder one segment that decodes to id.
func checkV2Call(t *testing.T, op *translate.Operation, id, call string) {
	t.Helper()
	method, path, _ := strings.Cut(call, " ")
	segs := strings.Split(path, "/")
	for _, d := range op.V2 {
		dm, dp, _ := strings.Cut(d, " ")
		tsegs := strings.Split(dp, "/")
		if dm != method || len(tsegs) != len(segs) {
			continue
		}
		ok := true
		for j := range tsegs {
			if placeholder.MatchString(tsegs[j]) {
				v, err := url.PathUnescape(segs[j])
				if err != nil || v == "" || (id != "" && v != id && j == 3) {
					ok = false
				}
				continue
			}
			if tsegs[j] != segs[j] {
				ok = false
			}
		}
		if ok {
			return
		}
	}
	t.Fatalf("%s (id %q): upstream request %s is not one of %q with the id as one segment", op.Name, id, call, op.V2)
}

// FuzzRateLimitHeaders: whatever the limiter decides, the RateLimit and
// RateLimit-Policy headers are well formed (IETF httpapi draft): non-negative
// integers, t at least 1 and never wrapped around.
func FuzzRateLimitHeaders(f *testing.F) {
	for _, s := range [][3]int64{{60, 59, int64(time.Minute)}, {0, 0, 0}, {1, -1, -5}, {math.MaxInt, math.MaxInt, math.MaxInt64}, {60, 0, 1}, {-3, 5, int64(time.Second) + 1}} {
		f.Add(s[0], s[1], s[2])
	}
	policy := regexp.MustCompile(`^"minute";q=(\d+);w=60$`)
	state := regexp.MustCompile(`^"minute";r=(\d+);t=(\d+)$`)
	f.Fuzz(func(t *testing.T, limit, remaining, reset int64) {
		d := limiter.Decision{Limit: int(limit), Remaining: int(remaining), Reset: time.Duration(reset)}
		h := http.Header{}
		setRateLimitHeaders(h, d, nil, nil)
		p, s := h.Get("RateLimit-Policy"), h.Get("RateLimit")
		if !policy.MatchString(p) {
			t.Fatalf("RateLimit-Policy %q for %+v", p, d)
		}
		m := state.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("RateLimit %q for %+v", s, d)
		}
		ts, err := strconv.ParseInt(m[2], 10, 64)
		if err != nil || ts < 1 {
			t.Fatalf("RateLimit t=%s for %+v", m[2], d)
		}
		if d.Reset > 0 && time.Duration(ts)*time.Second < d.Reset && ts < math.MaxInt64/int64(time.Second) {
			t.Fatalf("RateLimit t=%d is before the reset %v", ts, d.Reset)
		}
	})
}
