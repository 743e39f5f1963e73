package proxy

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/translate"
)

// More of the bad-input suite: cases e2e_badinput_test.go does not have
// (each with its three assertions),
// 405 on every v1 route, the upstream problem named in 502s, and the
// upstream answer bound checked as memory, not only as a status.

func TestBadInputMoreCases(t *testing.T) {
	e := newHostileEnv(t)
	ids := e.seededIDs(t)
	pod, tplID, ep := ids["pods"], ids["templates"], ids["serverless"]
	if pod == "" || tplID == "" || ep == "" {
		t.Fatalf("simulator not seeded: %v", ids)
	}
	const gpu = `"gpuTypeIds":["NVIDIA RTX A4000"]`
	const epGPU = `"templateId":"t","gpuTypeIds":["NVIDIA GeForce RTX 4090"]`
	runBadCases(t, e, nil, []badCase{
		// Field kinds the suite does not cover.
		{name: "number field given a string", method: "POST", path: "/v1/pods", body: `{"imageName":"i",` + gpu + `,"minUploadMbps":"fast"}`, status: 400, want: "minUploadMbps: must be a number"},
		{name: "array element of the wrong type", method: "POST", path: "/v1/pods", body: `{"imageName":"i","gpuTypeIds":[1]}`, status: 400, want: "gpuTypeIds: element 0 must be a string"},
		{name: "array field given a string", method: "POST", path: "/v1/pods", body: `{"imageName":"i",` + gpu + `,"dockerStartCmd":"ls"}`, status: 400, want: "dockerStartCmd"},
		{name: "map value null", method: "POST", path: "/v1/pods", body: `{"imageName":"i",` + gpu + `,"env":{"A":null}}`, status: 400, want: "env.A"},
		{name: "boolean given a number", method: "POST", path: "/v1/templates", body: `{"name":"t","imageName":"i","isPublic":1}`, status: 400, want: "isPublic"},
		{name: "endpoint boolean given a string", method: "POST", path: "/v1/endpoints", body: `{` + epGPU + `,"flashboot":"yes"}`, status: 400, want: "flashboot"},
		{name: "endpoint enum given an unknown value", method: "POST", path: "/v1/endpoints", body: `{` + epGPU + `,"scalerType":"MOON"}`, status: 400, want: "scalerType"},
		{name: "update integer given a string", method: "PATCH", path: "/v1/endpoints/" + ep, body: `{"workersMax":"3"}`, status: 400, want: "workersMax"},
		{name: "registry string given a number", method: "POST", path: "/v1/containerregistryauth", body: `{"name":"a","username":"b","password":5}`, status: 400, want: "password"},
		// Ranges.
		{name: "integer just beyond int64", method: "POST", path: "/v1/pods", body: `{"imageName":"i",` + gpu + `,"gpuCount":9223372036854775808}`, status: 400, want: "gpuCount"},
		{name: "integer just below int64", method: "POST", path: "/v1/pods", body: `{"imageName":"i",` + gpu + `,"containerDiskInGb":-9223372036854775809}`, status: 400, want: "containerDiskInGb"},
		{name: "endpoint count beyond int64", method: "POST", path: "/v1/endpoints", body: `{` + epGPU + `,"workersMax":99999999999999999999}`, status: 400, want: "workersMax"},
		{name: "negative workers", method: "POST", path: "/v1/endpoints", body: `{` + epGPU + `,"workersMax":-1}`, status: 400, want: "workersMax"},
		{name: "negative template volume", method: "POST", path: "/v1/templates", body: `{"name":"t","imageName":"i","volumeInGb":-1}`, status: 400, want: "volumeInGb"},
		// Empty and null bodies on every create, and on updates.
		{name: "empty body on CreatePod", method: "POST", path: "/v1/pods", status: 400, want: "request body is required"},
		{name: "empty body on CreateEndpoint", method: "POST", path: "/v1/endpoints", status: 400, want: "request body is required"},
		{name: "empty body on CreateTemplate", method: "POST", path: "/v1/templates", status: 400, want: "request body is required"},
		{name: "null body on CreateContainerRegistryAuth", method: "POST", path: "/v1/containerregistryauth", body: `null`, status: 400, want: "must be a JSON object"},
		{name: "null body on CreateTemplate", method: "POST", path: "/v1/templates", body: `null`, status: 400, want: "must be a JSON object"},
		{name: "empty body on UpdatePod", method: "PATCH", path: "/v1/pods/" + pod, status: 400, want: "request body is required"},
		{name: "null body on UpdatePod", method: "PATCH", path: "/v1/pods/" + pod, body: `null`, status: 400, want: "must be a JSON object"},
		// Trailing data and duplicate keys on updates (also via POST .../update).
		{name: "trailing data on an update", method: "PATCH", path: "/v1/templates/" + tplID, body: `{"name":"x"} x`, status: 400, want: "not valid JSON"},
		{name: "duplicate key via POST update", method: "POST", path: "/v1/pods/" + pod + "/update", body: `{"name":"a","name":"b"}`, status: 400, want: `duplicate key "name"`},
		{name: "deeply nested on an update", method: "PATCH", path: "/v1/endpoints/" + ep,
			body: `{"name":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, status: 400, want: "nested deeper than"},
		// Path spellings of "." and "..".
		{name: "dot-dot escaped upper case", method: "GET", path: "/v1/pods/%2E%2E", status: 404, want: "invalid podId"},
		{name: "dot-dot half escaped", method: "GET", path: "/v1/pods/.%2e", status: 404, want: "invalid podId"},
		{name: "dot escaped", method: "GET", path: "/v1/pods/%2e", status: 404, want: "invalid podId"},
		{name: "dot-dot escaped in an action", method: "POST", path: "/v1/pods/%2e%2e/stop", status: 404, want: "invalid podId"},
		{name: "dot-dot escaped endpoint", method: "GET", path: "/v1/endpoints/%2e%2e", status: 404, want: "invalid endpointId"},
		{name: "dot-dot slash dot-dot: never forwarded", method: "GET", path: "/v1/pods/..%2F..", status: 404, want: "invalid podId"},
		{name: "double-encoded dot-dot stays encoded", method: "GET", path: "/v1/pods/%252e%252e", status: 404, want: "not found",
			calls: []string{"GET /v2/pods/%252e%252e"}},
		// Ids equal to v2 route names, other resources.
		{name: "endpoint id workers: an endpoint id upstream", method: "GET", path: "/v1/endpoints/workers", status: 404, want: "not found",
			calls: []string{"GET /v2/serverless/workers"}},
		{name: "DELETE delegations", method: "DELETE", path: "/v1/containerregistryauth/delegations", status: 404, want: "reserved by the v2 API"},
		{name: "delegations escaped", method: "GET", path: "/v1/containerregistryauth/%64elegations", status: 404, want: "reserved by the v2 API"},
		// Long ids: the limit is 191 bytes.
		{name: "id of 192 bytes", method: "GET", path: "/v1/networkvolumes/" + strings.Repeat("v", 192), status: 404, want: "invalid networkVolumeId"},
		{name: "id of 191 bytes is forwarded", method: "GET", path: "/v1/networkvolumes/" + strings.Repeat("v", 191), status: 404, want: "not found",
			calls: []string{"GET /v2/network-volumes/" + strings.Repeat("v", 191)}},
		// Escaped control characters.
		{name: "escaped DEL in an id", method: "GET", path: "/v1/pods/a%7Fb", status: 404, want: "invalid podId"},
		{name: "escaped TAB in an id", method: "GET", path: "/v1/pods/a%09b", status: 404, want: "invalid podId"},
		{name: "escaped LF in a template id", method: "DELETE", path: "/v1/templates/a%0Ab", status: 404, want: "invalid templateId"},
		// Header tricks.
		{name: "Bearer without a key", method: "GET", path: "/v1/pods", headers: []string{"-", "Authorization: Bearer"}, status: 401, want: "missing API key"},
		{name: "Bearer and spaces only", method: "GET", path: "/v1/pods", headers: []string{"-", "Authorization: Bearer    "}, status: 401, want: "missing API key"},
		{name: "the same Authorization twice", method: "GET", path: "/v1/pods", headers: []string{"Authorization: Bearer k1"}, status: 400, want: "more than one Authorization header"},
		{name: "many headers, together too large", method: "GET", path: "/v1/pods",
			headers: []string{"X-A: " + strings.Repeat("a", 40000), "X-B: " + strings.Repeat("b", 40000)}, status: 431, want: "request headers too large"},
		// Methods.
		{name: "OPTIONS", method: "OPTIONS", path: "/v1/pods", status: 405, want: "method OPTIONS is not allowed"},
		{name: "CONNECT", method: "CONNECT", path: "/v1/pods", status: 405, want: "method CONNECT is not allowed"},
	})
}

// Every v1 route answers every method it does not have with 405, Allow
// listing exactly the methods it has, a v1 {"message"} naming the method,
// and no upstream call.
func TestEveryRouteRefusesOtherMethods(t *testing.T) {
	e := newHostileEnv(t)
	order := []string{"GET", "POST", "PUT", "PATCH", "DELETE"}
	has := map[string]map[string]bool{}
	for _, op := range translate.Operations {
		p := concretePath(op.Path)
		if has[p] == nil {
			has[p] = map[string]bool{}
		}
		has[p][op.Method] = true
	}
	paths := make([]string, 0, len(has))
	for p := range has {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var cases []badCase
	allow := map[string]string{}
	for _, p := range paths {
		var a []string
		for _, m := range order {
			if has[p][m] {
				a = append(a, m)
			}
		}
		allow[p] = strings.Join(a, ", ")
		for _, m := range append(order, "OPTIONS", "TRACE") {
			if has[p][m] {
				continue
			}
			body := ""
			if m == "POST" || m == "PUT" || m == "PATCH" {
				body = `{}`
			}
			cases = append(cases, badCase{name: m + " " + p, method: m, path: p, body: body, status: 405, want: "method " + m + " is not allowed"})
		}
	}
	if len(cases) < 60 {
		t.Fatalf("only %d cases", len(cases))
	}
	runBadCases(t, e, nil, cases)
	for _, p := range paths {
		resp, _ := e.raw(t, "TRACE", p, []string{bearer}, "")
		if got := resp.Header.Get("Allow"); got != allow[p] {
			t.Errorf("%s: Allow %q, want %q", p, got, allow[p])
		}
	}
}

// A v2 answer of the wrong shape is a 502 whose message says which v2
// answer could not be read and why (for the encoding/json decoders, the
// field), and the 502 is logged with the v2 call it came from.
func TestUpstreamWrongTypesNamed(t *testing.T) {
	var logs logBuffer
	srv, rec := newTestGateway(t, func(c *config.Config, o *Options) {
		withLogger(&logs)(c, o)
		c.RateLimitPerMinute = 0
	})
	for _, tc := range []struct {
		path, answer, call string
		want               []string
	}{
		{"/v1/pods/p1", `{"id":1,"name":"x"}`, "GET /v2/pods/p1", []string{"a pod the gateway cannot read", "id: expected a string"}},
		{"/v1/pods/p1", `{"id":"p1","gpu":{"count":"x"}}`, "GET /v2/pods/p1", []string{"a pod the gateway cannot read", "gpu: expected a number"}},
		{"/v1/pods", `{"pods":"many"}`, "GET /v2/pods", []string{"a pod list the gateway cannot read", "expected an array"}},
		{"/v1/pods", `{"pods":[{"id":"p1","cost":"x"}]}`, "GET /v2/pods", []string{"a pod list the gateway cannot read", "pods[0]: cost: "}},
		{"/v1/templates/t1", `[1,2,3]`, "GET /v2/templates/t1", []string{"a template the gateway cannot read", "cannot unmarshal array"}},
		{"/v1/networkvolumes/n1", `{"id":"n1","name":"v","size":"big"}`, "GET /v2/network-volumes/n1", []string{"a network volume the gateway cannot read", "size"}},
		{"/v1/endpoints/e1", `{"id":"e1","workers":{"min":"zero"}}`, "GET /v2/serverless/e1", []string{"an endpoint the gateway cannot read", "workers.min"}},
		{"/v1/containerregistryauth", `{"registries":[{"id":5}]}`, "GET /v2/registries", []string{"a registry credential list the gateway cannot read", "id"}},
		{"/v1/networkvolumes", `<html>oops</html>`, "GET /v2/network-volumes", []string{"a network volume list the gateway cannot read", "invalid character"}},
	} {
		t.Run(tc.path+" "+tc.answer, func(t *testing.T) {
			answer := tc.answer
			rec.mu.Lock()
			rec.handler = func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, answer)
			}
			rec.mu.Unlock()
			resp := do(t, "GET", srv.URL+tc.path, "k1", nil, nil)
			if resp.StatusCode != http.StatusBadGateway {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				t.Fatalf("status %d: %s", resp.StatusCode, b)
			}
			msg := readMessage(t, resp)
			if !strings.HasPrefix(msg, "the v2 API answered with ") {
				t.Errorf("message %q does not say the v2 answer is at fault", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not say %q", msg, w)
				}
			}
			var line map[string]any
			for _, l := range logs.lines(t, "request") {
				if fmt.Sprint(l["path"]) == tc.path && l["status"] == 502.0 {
					line = l
				}
			}
			if line == nil {
				t.Fatalf("the 502 is not logged: %s", logs.String())
			}
			if line["level"] != "warn" || !strings.Contains(fmt.Sprint(line["v2_calls"]), tc.call+" -> 200") {
				t.Errorf("the 502's log line does not name the v2 call at fault: %v", line)
			}
			if line["error"] != msg {
				t.Errorf("the 502's log line says error=%v, want the answer's message %q", line["error"], msg)
			}
		})
	}
}

// An upstream answer over upstream_max_body costs the gateway about the
// limit in memory, whether it is declared (Content-Length) or streamed
// without end: the connection to v2 dropped rather than drained, and no
// buffering of the rest. A declared one is a 502 naming the limit; a pod
// list without a length is streamed to the client (issue 16), whose
// answer breaks off — never a complete-looking list — once v2's passes
// the limit.
func TestUpstreamAnswerBounded(t *testing.T) {
	const limit = 256 << 10
	srv, rec := newTestGateway(t, func(c *config.Config, o *Options) {
		c.RateLimitPerMinute = 0
		c.UpstreamMaxBody = limit
	})
	chunk := []byte(strings.Repeat(`{"id":"p1","name":"x"},`, 1400))
	for _, declared := range []bool{false, true} {
		t.Run("declared="+strconv.FormatBool(declared), func(t *testing.T) {
			const total = 1 << 30 // never sent whole: the gateway must hang up
			var wrote atomic.Int64
			done := make(chan struct{}, 8)
			rec.mu.Lock()
			rec.handler = func(w http.ResponseWriter, r *http.Request) {
				defer func() { done <- struct{}{} }()
				w.Header().Set("Content-Type", "application/json")
				if declared {
					w.Header().Set("Content-Length", strconv.Itoa(total))
				}
				_, _ = io.WriteString(w, `{"pods":[`)
				for wrote.Load() < total {
					n, err := w.Write(chunk)
					wrote.Add(int64(n))
					if err != nil {
						return
					}
				}
			}
			rec.mu.Unlock()
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			resp := do(t, "GET", srv.URL+"/v1/pods", "k1", nil, nil)
			if declared {
				if resp.StatusCode != http.StatusBadGateway {
					resp.Body.Close()
					t.Fatalf("status %d", resp.StatusCode)
				}
				msg := readMessage(t, resp)
				if !strings.Contains(msg, "larger than the gateway's limit of 262144 bytes") {
					t.Errorf("message %q", msg)
				}
			} else {
				// Read without keeping it (the allocations below are the
				// gateway's): the first bytes and the last.
				var head, tail []byte
				buf := make([]byte, 32<<10)
				var err error
				for {
					var n int
					n, err = resp.Body.Read(buf)
					if len(head) == 0 {
						head = append(head, buf[:min(n, 64)]...)
					}
					if n > 0 {
						tail = append(tail[:0], buf[max(0, n-64):n]...)
					}
					if err != nil {
						break
					}
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || err == io.EOF || !strings.HasPrefix(string(head), `[{"id":"p1"`) || strings.HasSuffix(string(tail), "]") {
					t.Fatalf("status %d, read error %v, answer %s…%s: want the streamed list broken off", resp.StatusCode, err, head, tail)
				}
			}
			runtime.ReadMemStats(&after)
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("the upstream is still sending after %v (%d bytes): the gateway drains the answer", time.Since(start), wrote.Load())
			}
			// Retries may read the head of the answer again; each read is
			// bounded, so the whole request allocates a small multiple
			// of the limit, never the answer's size.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16*limit {
				t.Errorf("the request allocated %d bytes for a limit of %d", alloc, limit)
			}
			if w := wrote.Load(); w > 256<<20 {
				t.Errorf("the upstream could write %d bytes before the gateway hung up", w)
			}
		})
	}
}
