//go:build chaos

package chaos

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/v2sim"
)

// The GraphQL door under hostile documents (P12): the table of the issue
// that bounded it, at full size, against the binary (-demo: the door in
// front of the in-process simulator), each with its bound on CPU seconds,
// peak memory, answer size and v2 calls. The fast versions run in make
// test: graphql/limits_test.go (the documents at full size, in-process),
// proxy/v2calls_test.go, proxy/vendorbreaker_test.go, proxy/graphql_test.go.

// repeat is n copies of format (%d: the copy's index), space-separated.
func repeat(n int, format string) string {
	var b strings.Builder
	for i := range n {
		if strings.Contains(format, "%d") {
			fmt.Fprintf(&b, format, i)
		} else {
			b.WriteString(format)
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// cpuSeconds is the process's user and system CPU time so far.
func (p *proc) cpuSeconds(t *testing.T) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	u, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	return float64(u+st) / 100 // clock ticks (USER_HZ 100)
}

var upstreamCallsRe = regexp.MustCompile(`(?m)^v1gw_upstream_calls_total\{[^}]*\} (\d+)`)

// v2Calls is the number of v2 calls the gateway made (its metrics).
func (p *proc) v2Calls(t *testing.T) int {
	t.Helper()
	resp, err := http.Get("http://" + p.admin + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	n := 0
	for _, m := range upstreamCallsRe.FindAllStringSubmatch(string(b), -1) {
		x, _ := strconv.Atoi(m[1])
		n += x
	}
	return n
}

type gqlAnswer struct {
	status   int
	body     []byte
	warnings []string
	code     string // the first error's extensions.code
}

func postGQL(t *testing.T, url, key, body string) gqlAnswer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a := gqlAnswer{status: resp.StatusCode, body: b, warnings: resp.Header.Values("X-Compat-Warning")}
	var m struct {
		Errors []struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if json.Unmarshal(b, &m) == nil && len(m.Errors) > 0 {
		a.code, _ = m.Errors[0].Extensions["code"].(string)
	}
	return a
}

func gqlBody(q string) string {
	b, _ := json.Marshal(map[string]string{"query": q})
	return string(b)
}

func TestHostileGraphQLDocuments(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "230MiB") // the shipped Kubernetes limit is 256Mi
	for _, c := range []struct {
		scenario string
		doc      string
		key      string
		times    int
		maxCalls int
	}{
		{"keyless gpuTypes { id } 20,000 times (60 KB)", "{ gpuTypes { " + repeat(20000, "id") + "} }", "", 1, 0},
		{"keyless, the same field 50,000 times", "{ gpuTypes { " + repeat(50000, "id") + "} }", "", 1, 0},
		{"keyless, 1,000 fields under one alias, different arguments", "{ " + repeat(1000, `a: gpuTypes(input:{id:"g%d"}) { id }`) + "}", "", 1, 0},
		{"keyless, 4,000 fragment spreads (166 KB)", "{ gpuTypes { " + repeat(4000, "...F%d") + "} } " + repeat(4000, "fragment F%d on GpuType { id }"), "", 1, 0},
		{"keyless, 52,982 __typename aliases (1 MiB), twice", "{ " + repeat(52000, "a%d:__typename") + "}", "", 2, 0},
		{"keyed, 1,000 aliased myself, 10 times (rate_limit 60)", "{ " + repeat(1000, "m%d: myself { id pods { id } }") + "}", "demo-key", 10, 0},
		{"keyless, 30 operations of 450 fields each", repeat(30, "query q%d { gpuTypes { "+repeat(450, "id")+"} }"), "", 1, 0},
		{"keyless, 5,000 aliased gpuTypes(input:{id})", "{ " + repeat(5000, `g%d: gpuTypes(input:{id:"x%d"}) { id }`) + "}", "", 1, 0},
		{"keyed, the most root fields allowed (20 aliased myself), 10 times", "{ " + repeat(20, "m%d: myself { id pods { id } }") + "}", "demo-key", 10, 60},
		{"keyed, 1,000 aliases with notes", "{ myself { " + repeat(1000, "p%d: pods { id machineId }") + "} }", "demo-key", 1, 0},
		{"the costliest kind of document within the limits: 60 fragments of 4 fields, spread once each", "{ gpuTypes { " + repeat(60, "...F%d") + "} } " + repeat(60, "fragment F%d on GpuType { id id id id }"), "", 1, 1},
		{"within the limits: one field 499 times", "{ gpuTypes { " + repeat(499, "id") + "} }", "", 1, 1},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			g := startGateway(t, "-demo", "-rate-limit", "60", "-anonymous-rate-limit", "60")
			_ = postGQL(t, "http://"+g.addr+"/graphql", "demo-key", gqlBody("{ myself { id } }"))
			calls0, cpu0 := g.v2Calls(t), g.cpuSeconds(t)
			var a gqlAnswer
			body := gqlBody(c.doc)
			for range c.times {
				a = postGQL(t, "http://"+g.addr+"/graphql", c.key, body)
			}
			cpu, calls, rss := g.cpuSeconds(t)-cpu0, g.v2Calls(t)-calls0, g.peakRSS(t)
			observed := fmt.Sprintf("%.2f s CPU, peak %.0f MiB, %d B answer (%s), %d v2 calls, %d X-Compat-Warning", cpu, rss, len(a.body), a.code, calls, len(a.warnings))
			ok := cpu < 1 && rss < 120 && len(a.body) < 64<<10 && calls <= c.maxCalls && len(a.warnings) <= 1 &&
				(a.status == http.StatusOK || a.status == http.StatusTooManyRequests && c.maxCalls > 0)
			record(t, c.scenario, fmt.Sprintf("< 1 s CPU, < 120 MiB, < 64 KiB, ≤ %d v2 calls", c.maxCalls), observed, ok)
		})
	}
}

// An api_key spelled otherwise, and a failing vendor GraphQL, in
// passthrough mode: the vendor never sees the key in a URL, and its
// failures leave /v1, /v2 and /readyz as they were.
func TestVendorGraphQLPassthrough(t *testing.T) {
	sim := v2sim.New(v2sim.Options{Seed: true, Keys: []string{"k1"}})
	var mu sync.Mutex
	var urls []string
	var vendor atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/graphql", func(w http.ResponseWriter, r *http.Request) {
		vendor.Add(1)
		mu.Lock()
		urls = append(urls, r.RequestURI)
		mu.Unlock()
		http.Error(w, `{"errors":[{"message":"internal"}]}`, http.StatusInternalServerError)
	})
	mux.Handle("/", sim)
	up := httptest.NewServer(mux)
	t.Cleanup(up.Close)
	g := startGateway(t, "-upstream", up.URL, "-graphql-mode", "passthrough")
	for _, q := range []string{"api%5Fkey=k1", "API_KEY=k1", "api_key%5B%5D=k1", "api_key[]=k1", "Api_Key=k1"} {
		_ = postGQL(t, "http://"+g.addr+"/graphql?"+q, "", gqlBody("{ myself { id } }"))
	}
	mu.Lock()
	leaked := 0
	for _, u := range urls {
		if strings.Contains(u, "k1") {
			leaked++
		}
	}
	mu.Unlock()
	record(t, "api_key in 5 spellings, passthrough", "the key never in the vendor's URL", fmt.Sprintf("%d of %d URLs held it", leaked, len(urls)), leaked == 0)
	for range 5 {
		_ = postGQL(t, "http://"+g.addr+"/graphql", "k1", gqlBody("{ myself { id } }"))
	}
	v1, _, _, _ := get("http://"+g.addr+"/v1/pods", "k1", 5*time.Second)
	v2, _, _, _ := get("http://"+g.addr+"/v2/pods", "k1", 5*time.Second)
	ready, _, _, _ := get("http://"+g.admin+"/readyz", "", 5*time.Second)
	record(t, "the vendor's GraphQL answers 500 ten times (passthrough)", "/v1 200, /v2 200, /readyz 200", fmt.Sprintf("/v1 %d, /v2 %d, /readyz %d (vendor called %d times)", v1, v2, ready, vendor.Load()), v1 == 200 && v2 == 200 && ready == 200)
}
