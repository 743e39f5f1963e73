package proxy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/v2sim"
)

// The bad-input suite: hostile requests, end to end (raw bytes on a TCP
// connection → gateway → v2sim). Every case answers a clear 4xx naming the
// problem, and makes no upstream call unless the request is valid — and a
// valid one goes only to the v2 path its operation maps to, with the id as
// one segment.
//
// Decisions the suite pins down:
//   - Content-Type is not checked (lenient): v1 took JSON whatever the header
//     said, and `curl -d` sends application/x-www-form-urlencoded by default;
//     the body must still be a JSON object, so a real form body is a 400.
//   - A duplicate key, at any depth, is a 400 naming the key (encoding/json
//     would silently keep the last one); so are invalid UTF-8 and JSON nested
//     deeper than podjson.MaxJSONDepth levels.
//   - Two Authorization headers are a 400 (which key would be charged?).
//   - Requests net/http itself refuses (a bad percent-escape or raw control
//     bytes in the request line, malformed header lines, headers over
//     MaxHeaderBytes) never reach the gateway's handlers; JSONErrorListener
//     rewrites net/http's plain-text 400/431 into a v1 {"message"} naming
//     the problem, and the suite checks that nothing goes upstream.

// upstreamLog wraps the simulator and records each request it receives
// exactly as it arrived: method and escaped path.
type upstreamLog struct {
	next http.Handler
	mu   sync.Mutex
	got  []string
}

func (u *upstreamLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u.mu.Lock()
	u.got = append(u.got, r.Method+" "+r.URL.EscapedPath())
	u.mu.Unlock()
	u.next.ServeHTTP(w, r)
}

func (u *upstreamLog) since(n int) []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.got[n:]...)
}

func (u *upstreamLog) len() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.got)
}

type hostileEnv struct {
	sim  *v2sim.Server
	up   *upstreamLog
	addr string // gateway host:port
}

func newHostileEnv(t *testing.T) *hostileEnv {
	t.Helper()
	sim := v2sim.New(v2sim.Options{Seed: true, Keys: []string{"k1"}})
	up := &upstreamLog{next: sim}
	us := httptest.NewServer(up)
	t.Cleanup(us.Close)
	cfg := &config.Config{UpstreamURL: us.URL, RequestTimeout: 5 * time.Second, KeyHashSecret: "x", CompatMode: "strict", ResetMode: "reject"}
	g, err := New(Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	// As cmd/v1gateway serves it: requests net/http refuses itself are
	// answered {"message"} by the listener wrapper.
	gs := httptest.NewUnstartedServer(g)
	gs.Config.ReadHeaderTimeout = 5 * time.Second
	gs.Config.MaxHeaderBytes = MaxHeaderBytes
	gs.Listener = JSONErrorListener(gs.Listener, MaxHeaderBytes)
	gs.Start()
	t.Cleanup(gs.Close)
	return &hostileEnv{sim: sim, up: up, addr: strings.TrimPrefix(gs.URL, "http://")}
}

// raw sends one request as raw bytes: the request line, then the header
// lines (Host and Connection: close are added; Content-Length too when
// body is not empty and no header sets it), then the body.
func (e *hostileEnv) raw(t *testing.T, method, target string, headers []string, body string) (*http.Response, []byte) {
	t.Helper()
	c, err := net.Dial("tcp", e.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, e.addr)
	hasLen := false
	for _, h := range headers {
		if strings.HasPrefix(strings.ToLower(h), "content-length:") {
			hasLen = true
		}
		b.WriteString(h + "\r\n")
	}
	if body != "" && !hasLen {
		b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	}
	b.WriteString("\r\n")
	b.WriteString(body)
	// The server may answer (and close) before reading it all: ignore
	// write errors, read the answer.
	go func() { _, _ = io.WriteString(c, b.String()) }()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer resp.Body.Close()
	rb, _ := io.ReadAll(resp.Body)
	return resp, rb
}

// bearer is the valid key's Authorization header.
const bearer = "Authorization: Bearer k1"

// seeded ids of the simulator, found once.
func (e *hostileEnv) seededIDs(t *testing.T) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for coll, key := range map[string]string{"pods": "pods", "templates": "templates", "serverless": "endpoints", "network-volumes": "networkVolumes", "registries": "registries"} {
		req, _ := http.NewRequest("GET", "http://"+e.addr+"/v2/"+coll, nil)
		req.Header.Set("Authorization", "Bearer k1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var l map[string][]map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&l)
		resp.Body.Close()
		for _, it := range l[key] {
			if id, _ := it["id"].(string); id != "" {
				ids[coll] = id
				break
			}
		}
	}
	return ids
}

func TestE2EBadInput(t *testing.T) {
	e := newHostileEnv(t)
	ids := e.seededIDs(t)
	pod, vol := ids["pods"], ids["network-volumes"]
	if pod == "" || vol == "" {
		t.Fatalf("simulator not seeded: %v", ids)
	}
	const json = "Content-Type: application/json"
	deep := strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 200)
	huge := `{"name":"` + strings.Repeat("x", MaxBodyBytes) + `"}`
	long := strings.Repeat("a", 300)
	tests := []badCase{
		// Bodies.
		{name: "malformed JSON", method: "POST", path: "/v1/networkvolumes", body: `{"name":"d","size":`, status: 400, want: "not valid JSON"},
		{name: "trailing data", method: "POST", path: "/v1/networkvolumes", body: `{"name":"d","size":10,"dataCenterId":"EU-RO-1"} {"x":1}`, status: 400, want: "not valid JSON"},
		{name: "two objects", method: "POST", path: "/v1/templates", body: `{"name":"t","imageName":"i"}{"name":"u"}`, status: 400, want: "not valid JSON"},
		{name: "string field given a number", method: "POST", path: "/v1/networkvolumes", body: `{"name":1,"size":10,"dataCenterId":"EU-RO-1"}`, status: 400, want: "name"},
		{name: "integer field given a string", method: "POST", path: "/v1/networkvolumes", body: `{"name":"d","size":"10","dataCenterId":"EU-RO-1"}`, status: 400, want: "size"},
		{name: "integer field given a fraction", method: "POST", path: "/v1/pods", body: `{"imageName":"i","gpuTypeIds":["NVIDIA RTX A4000"],"gpuCount":1.5}`, status: 400, want: "gpuCount"},
		{name: "boolean field given a string", method: "POST", path: "/v1/pods", body: `{"imageName":"i","gpuTypeIds":["NVIDIA RTX A4000"],"locked":"yes"}`, status: 400, want: "locked"},
		{name: "array field given an object", method: "POST", path: "/v1/pods", body: `{"imageName":"i","gpuTypeIds":{"a":1}}`, status: 400, want: "gpuTypeIds"},
		{name: "object field given an array", method: "POST", path: "/v1/templates", body: `{"name":"t","imageName":"i","env":["A=1"]}`, status: 400, want: "env"},
		{name: "map value given a number", method: "POST", path: "/v1/templates", body: `{"name":"t","imageName":"i","env":{"A":1}}`, status: 400, want: "env"},
		{name: "enum given an unknown value", method: "POST", path: "/v1/pods", body: `{"imageName":"i","gpuTypeIds":["NVIDIA RTX A4000"],"cloudType":"MOON"}`, status: 400, want: "cloudType"},
		{name: "null body on create", method: "POST", path: "/v1/pods", body: `null`, status: 400, want: "must be a JSON object"},
		{name: "array body on create", method: "POST", path: "/v1/endpoints", body: `[]`, status: 400, want: "must be a JSON object"},
		{name: "null body on update", method: "PATCH", path: "/v1/networkvolumes/" + vol, body: `null`, status: 400, want: "must be a JSON object"},
		{name: "number beyond int64", method: "POST", path: "/v1/networkvolumes", body: `{"name":"d","size":99999999999999999999,"dataCenterId":"EU-RO-1"}`, status: 400, want: "size"},
		{name: "huge exponent", method: "POST", path: "/v1/pods", body: `{"imageName":"i","gpuTypeIds":["NVIDIA RTX A4000"],"containerDiskInGb":1e400}`, status: 400, want: "containerDiskInGb"},
		{name: "negative size", method: "POST", path: "/v1/networkvolumes", body: `{"name":"d","size":-5,"dataCenterId":"EU-RO-1"}`, status: 400, want: "size"},
		{name: "negative disk", method: "POST", path: "/v1/pods", body: `{"imageName":"i","gpuTypeIds":["NVIDIA RTX A4000"],"volumeInGb":-1}`, status: 400, want: "volumeInGb"},
		{name: "deeply nested", method: "POST", path: "/v1/pods", body: `{"imageName":"i","env":` + deep + `}`, status: 400, want: "nested deeper than 32 levels"},
		{name: "body over 1 MiB", method: "POST", path: "/v1/templates", body: huge, status: 413, want: "exceeds the limit"},
		{name: "body over 1 MiB, chunked", method: "POST", path: "/v1/templates", headers: []string{"Transfer-Encoding: chunked"},
			body: fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(huge), huge), status: 413, want: "exceeds the limit"},
		{name: "invalid UTF-8", method: "POST", path: "/v1/templates", body: "{\"name\":\"t\xff\xfe\",\"imageName\":\"i\"}", status: 400, want: "not valid UTF-8"},
		{name: "lone surrogate escape", method: "POST", path: "/v1/pods", body: `{"name":"\ud800","imageName":"i","gpuTypeId":"NVIDIA GeForce RTX 4090"}`, status: 400, want: "surrogate pair"},
		{name: "duplicate key", method: "POST", path: "/v1/networkvolumes", body: `{"name":"d","size":10,"size":2000,"dataCenterId":"EU-RO-1"}`, status: 400, want: `duplicate key "size"`},
		{name: "duplicate nested key", method: "POST", path: "/v1/templates", body: `{"name":"t","imageName":"i","env":{"A":"1","A":"2"}}`, status: 400, want: `duplicate key "A"`},
		{name: "empty body on create", method: "POST", path: "/v1/networkvolumes", status: 400, want: "request body is required"},
		{name: "whitespace body on create", method: "POST", path: "/v1/containerregistryauth", body: " \n\t ", status: 400, want: "request body is required"},
		{name: "form body (curl -d default)", method: "POST", path: "/v1/templates", headers: []string{"Content-Type: application/x-www-form-urlencoded"},
			body: "name=t&imageName=i", status: 400, want: "not valid JSON"},
		{name: "wrong Content-Type, JSON body: accepted", method: "POST", path: "/v1/networkvolumes", headers: []string{"Content-Type: text/plain"},
			body: `{"name":"d","size":10,"dataCenterId":"EU-RO-1"}`, status: 200, calls: []string{"POST /v2/network-volumes"}},
		{name: "unknown field: accepted, warned", method: "PATCH", path: "/v1/networkvolumes/" + vol, headers: []string{json},
			body: `{"name":"renamed","colour":"blue"}`, status: 200, calls: []string{"PATCH /v2/network-volumes/" + vol}},

		// Paths.
		{name: "dot-dot segment", method: "GET", path: "/v1/pods/..", status: 404, want: "invalid podId"},
		{name: "dot-dot escaped", method: "GET", path: "/v1/pods/%2e%2e", status: 404, want: "invalid podId"},
		{name: "dot-dot then a route", method: "DELETE", path: "/v1/pods/../templates/x", status: 404, want: "no such route"},
		{name: "dot segment", method: "GET", path: "/v1/templates/.", status: 404, want: "invalid templateId"},
		// P9: an id holding / or \ once decoded is never forwarded.
		{name: "escaped slash in an id: never forwarded", method: "GET", path: "/v1/pods/a%2Fb", status: 404, want: "invalid podId"},
		{name: "escaped slash to another route: never forwarded", method: "DELETE", path: "/v1/pods/" + pod + "%2Faction", status: 404, want: "invalid podId"},
		{name: "escaped backslash in an id: never forwarded", method: "GET", path: "/v1/templates/a%5Cb", status: 404, want: "invalid templateId"},
		{name: "escaped slash in an endpoint id", method: "POST", path: "/v1/endpoints/a%2F..%2Fx/update", status: 404, want: "invalid endpointId"},
		{name: "double encoding stays encoded", method: "GET", path: "/v1/networkvolumes/a%252Fb", status: 404, calls: []string{"GET /v2/network-volumes/a%252Fb"}},
		{name: "bad escape", method: "GET", path: "/v1/pods/%zz", status: 400, want: `invalid percent-escape "%zz"`},
		{name: "id delegations", method: "GET", path: "/v1/containerregistryauth/delegations", status: 404, want: "delegations"},
		{name: "id DELEGATIONS", method: "DELETE", path: "/v1/containerregistryauth/DELEGATIONS", status: 404, want: "reserved by the v2 API"},
		{name: "id delegations%2Fx", method: "GET", path: "/v1/containerregistryauth/delegations%2Fx", status: 404, want: "delegations"},
		{name: "id action: a pod id upstream", method: "GET", path: "/v1/pods/action", status: 404, calls: []string{"GET /v2/pods/action"}},
		{name: "id logs: a pod id upstream", method: "GET", path: "/v1/pods/logs", status: 404, calls: []string{"GET /v2/pods/logs"}},
		{name: "id releases", method: "GET", path: "/v1/endpoints/releases", status: 404, calls: []string{"GET /v2/serverless/releases"}},
		{name: "very long id", method: "GET", path: "/v1/pods/" + long, status: 404, want: "invalid podId"},
		{name: "escaped NUL in an id", method: "GET", path: "/v1/pods/a%00b", status: 404, want: "invalid podId"},
		{name: "escaped CRLF in an id", method: "POST", path: "/v1/pods/a%0d%0aX-Evil:%201/stop", status: 404, want: "invalid podId"},
		{name: "raw control byte in the path", method: "GET", path: "/v1/pods/a\x01b", status: 400, want: "malformed request URI: control character 0x01"},
		{name: "trailing slash", method: "GET", path: "/v1/pods/", status: 404, want: "no such route"},
		{name: "double slash inside the path", method: "GET", path: "/v1/pods//p1", status: 404, want: "no such route"},
		{name: "unknown v1 route", method: "GET", path: "/v1/clusters", status: 404, want: "no such route"},
		// runpod-mcp 4.x (v2 only) with the /v1 base URL of its 3.x release:
		// the 404 names the setting to change.
		{name: "v2 path under the v1 base URL", method: "GET", path: "/v1/v2/pods", status: 404, want: "base URL to the gateway's address without /v1"},
		{name: "v2 path under the v1 base URL, with an id", method: "POST", path: "/v1/v2/pods/p1/start", status: 404, want: "calls to /v2/pods/p1/start are passed through"},

		// Headers.
		{name: "no Authorization", method: "GET", path: "/v1/pods", headers: []string{"-"}, status: 401, want: "missing API key"},
		{name: "Basic scheme", method: "GET", path: "/v1/pods", headers: []string{"-", "Authorization: Basic azE6"}, status: 401, want: "missing API key"},
		{name: "Token scheme", method: "GET", path: "/v1/pods", headers: []string{"-", "Authorization: Token k1"}, status: 401, want: "missing API key"},
		{name: "two Authorization headers", method: "GET", path: "/v1/pods", headers: []string{"Authorization: Bearer k2"}, status: 400, want: "more than one Authorization header"},
		{name: "CRLF in a header value", method: "GET", path: "/v1/pods", headers: []string{"-", "Authorization: Bearer k1\rX-Evil: 1"}, status: 400, want: `control character in the value of "Authorization"`},
		{name: "bare LF header injection is two headers", method: "GET", path: "/v1/pods", headers: []string{"X-Request-Id: a\nAuthorization: Bearer k9"}, status: 400, want: "more than one Authorization header"},
		{name: "header without a colon", method: "GET", path: "/v1/pods", headers: []string{"Garbage"}, status: 400, want: "malformed header line: no colon"},
		{name: "huge header", method: "GET", path: "/v1/pods", headers: []string{"X-Big: " + strings.Repeat("b", MaxHeaderBytes+8192)}, status: 431, want: "request headers too large: the limit is 65536 bytes"},
		{name: "hostile X-Request-Id is replaced", method: "GET", path: "/v1/pods/zz", headers: []string{"X-Request-Id: <script>"}, status: 404, calls: []string{"GET /v2/pods/zz"}},

		// Methods.
		{name: "PUT on a collection", method: "PUT", path: "/v1/pods", body: `{}`, status: 405, want: "method PUT is not allowed"},
		{name: "DELETE on a collection", method: "DELETE", path: "/v1/templates", status: 405, want: "method DELETE is not allowed"},
		{name: "GET on an action", method: "GET", path: "/v1/pods/" + pod + "/stop", status: 405, want: "method GET is not allowed"},
		{name: "PATCH on a registry", method: "PATCH", path: "/v1/containerregistryauth/r1", body: `{}`, status: 405, want: "method PATCH is not allowed"},
		{name: "TRACE", method: "TRACE", path: "/v1/pods", status: 405, want: "method TRACE is not allowed"},
		{name: "made-up method", method: "BREW", path: "/v1/pods", status: 405, want: "method BREW is not allowed"},
	}
	allow := map[string]string{"/v1/pods": "GET, POST", "/v1/templates": "GET, POST", "/v1/pods/" + pod + "/stop": "POST",
		"/v1/containerregistryauth/r1": "GET, DELETE"}
	runBadCases(t, e, allow, tests)
}

// badCase is one hostile request and what must come of it.
type badCase struct {
	name         string
	method, path string
	headers      []string // after the valid key; "-" first: no key
	body         string
	status       int
	want         string   // substring of the v1 message (4xx)
	calls        []string // upstream requests, exactly (nil: none)
}

// runBadCases makes the suite's assertions for each case: the status with
// a v1 {"message"} naming the problem (and never echoing the key); exactly
// the expected upstream requests (none for an invalid request), and
// nothing else upstream; for a 405, when allow is given, the Allow header
// of the case's path.
func runBadCases(t *testing.T, e *hostileEnv, allow map[string]string, cases []badCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			headers := tc.headers
			if len(headers) > 0 && headers[0] == "-" {
				headers = headers[1:] // no key
			} else {
				headers = append([]string{bearer}, headers...)
			}
			n := e.up.len()
			resp, body := e.raw(t, tc.method, tc.path, headers, tc.body)
			got := e.up.since(n)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if strings.Join(got, " | ") != strings.Join(tc.calls, " | ") {
				t.Fatalf("upstream requests\n got %q\nwant %q", got, tc.calls)
			}
			if tc.status == 405 && allow != nil {
				if a := resp.Header.Get("Allow"); a != allow[tc.path] {
					t.Errorf("Allow %q, want %q", a, allow[tc.path])
				}
			}
			if tc.status < 400 {
				return
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			var m struct {
				Message *string `json:"message"`
			}
			if err := json.Unmarshal(body, &m); err != nil || m.Message == nil || *m.Message == "" {
				t.Fatalf("not a v1 {\"message\"}: %q", body)
			}
			if !strings.Contains(*m.Message, tc.want) {
				t.Errorf("message %q does not say %q", *m.Message, tc.want)
			}
			if strings.Contains(*m.Message, "k1") && strings.Contains(*m.Message, "Bearer") {
				t.Errorf("message echoes the key: %q", *m.Message)
			}
		})
	}
}
