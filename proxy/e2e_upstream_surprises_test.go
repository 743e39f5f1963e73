package proxy

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
)

// Upstream surprises: v2 answers that are not quite what the contract says.
// Unknown fields are ignored; missing optional fields are null in the v1
// answer (never an absent key: issue 37); wrong types are a 502 {"message"} naming the upstream problem,
// and logged; an answer over Upstream.MaxBody is a 502, never buffered
// beyond the limit.

const surprisePod = `{"id":"p1","name":"my pod","status":"RUNNING","actions":["stop"],"image":"img:1","args":"","disk":50,
	"mounts":{"persistent":{"size":20,"path":"/workspace"}},"ports":["8888/http"],"env":{},"registry":null,"cloud":"SECURE",
	"dataCenterId":"US-TX-3","cudaVersion":"12.8","ssh":{"proxy":null,"direct":null},"template":null,"cost":0.74,"locked":false,
	"runtime":null,"createdAt":"2026-03-13T20:00:00Z","startedAt":"2026-03-13T20:01:00Z","globalNetworking":{"enabled":false},
	"gpu":{"id":"NVIDIA A40","count":1}`

func TestE2EUpstreamSurprises(t *testing.T) {
	var logs logBuffer
	// The maximum (V1GW_UPSTREAM_MAX_BODY) is lowered so that "huge" stays
	// cheap to produce.
	const maxBody = 256 << 10
	srv, rec := newTestGateway(t, func(c *config.Config, o *Options) {
		withLogger(&logs)(c, o)
		c.RateLimitPerMinute = 0
		c.UpstreamMaxBody = maxBody
	})
	big := `{"pods":[` + strings.Repeat(surprisePod+`},`, 2000) + surprisePod + `}]}`
	tests := []struct {
		name, path, answer string
		status             int
		want               []string // substrings of the v1 answer
		wantNot            []string
	}{
		{name: "unknown fields are ignored", path: "/v1/pods/p1",
			answer: surprisePod + `,"futureField":{"x":1},"shinyNewThing":[1,2]}`, status: 200,
			want: []string{`"id":"p1"`, `"image":"img:1"`}, wantNot: []string{"futureField", "shinyNewThing"}},
		{name: "unknown fields in a list", path: "/v1/pods",
			answer: `{"pods":[` + surprisePod + `,"futureField":1}],"nextCursor":"abc","futureTop":true}`, status: 200,
			want: []string{`"id":"p1"`}, wantNot: []string{"futureField", "nextCursor", "futureTop"}},
		{name: "missing optional fields are null", path: "/v1/pods/p1",
			answer: `{"id":"p1","name":"bare","status":"EXITED","image":"img:1"}`, status: 200,
			want:    []string{`"id":"p1"`, `"name":"bare"`, `"gpu":null`, `"publicIp":null`, `"templateId":null`, `"lastStartedAt":null`},
			wantNot: []string{`"publicIp":"`}},
		{name: "wrong type: id a number", path: "/v1/pods/p1", answer: `{"id":1,"name":"x"}`, status: 502,
			want: []string{"v2"}},
		{name: "wrong type: list not an array", path: "/v1/pods", answer: `{"pods":"many"}`, status: 502, want: []string{"v2"}},
		{name: "wrong type: answer an array", path: "/v1/templates/t1", answer: `[1,2,3]`, status: 502, want: []string{"v2"}},
		{name: "wrong type: volume size a string", path: "/v1/networkvolumes/n1",
			answer: `{"id":"n1","name":"v","size":"big","dataCenterId":"EU-RO-1"}`, status: 502, want: []string{"v2"}},
		{name: "not JSON at all", path: "/v1/networkvolumes", answer: `<html>oops</html>`, status: 502, want: []string{"v2"}},
		{name: "truncated JSON", path: "/v1/endpoints", answer: `{"endpoints":[{"id":"e1"`, status: 502, want: []string{"v2"}},
		{name: "answer over the maximum", path: "/v1/pods", answer: big, status: 502, want: []string{"larger than the gateway's limit of 262144 bytes"}},
	}
	if len(big) <= maxBody {
		t.Fatalf("the huge answer is only %d bytes", len(big))
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec.mu.Lock()
			rec.handler = func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if tc.name == "answer over the maximum" {
					// Declared: refused before anything is read. (Without
					// a Content-Length, a pod list is streamed and breaks
					// off at the limit: TestUpstreamAnswerBounded.)
					w.Header().Set("Content-Length", strconv.Itoa(len(tc.answer)))
				}
				_, _ = io.WriteString(w, tc.answer)
			}
			rec.mu.Unlock()
			resp := do(t, "GET", srv.URL+tc.path, "k1", nil, nil)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, b)
			}
			if tc.status >= 400 {
				var e struct {
					Message string `json:"message"`
				}
				if json.Unmarshal(b, &e) != nil || e.Message == "" {
					t.Fatalf("not a v1 {\"message\"}: %s", b)
				}
			} else if !json.Valid(b) {
				t.Fatalf("answer is not JSON: %s", b)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("answer %s does not contain %q", b, w)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(string(b), w) {
					t.Errorf("answer %s contains %q", b, w)
				}
			}
			if tc.status == 502 {
				found := false
				for _, l := range logs.lines(t, "request") {
					if l["status"] == 502.0 && fmt.Sprint(l["path"]) == tc.path {
						found = true
					}
				}
				if !found {
					t.Errorf("the 502 is not in the access log: %s", logs.String())
				}
			}
		})
	}
}
