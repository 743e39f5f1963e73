package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/usage"
)

// The /graphql pass-through (issue 14, item 8), as runpodctl v2.7.2 and
// runpod-mcp send it: POST with a JSON {query, variables} body and
// "Authorization: Bearer <key>" (both clients), and ?api_key=<key> as
// older GraphQL clients did.

// A GraphQL body as runpodctl's `gpu list` sends it (internal/api/gpu.go).
const gqlGPUTypes = `{"query":"query { gpuTypes { id displayName memoryInGb secureCloud communityCloud } }","variables":null}`

// gqlEnv is a gateway in front of a fake upstream that serves /graphql.
type gqlEnv struct {
	up, srv, admin *httptest.Server
	rec            *recorder
	log            *logBuffer
}

func newGQLEnv(t *testing.T, mod func(*config.Config, *Options)) *gqlEnv {
	t.Helper()
	e := &gqlEnv{rec: &recorder{}, log: &logBuffer{}}
	e.rec.handler = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("RateLimit", `"minute";r=1;t=1`)
		fmt.Fprint(w, `{"data":{"gpuTypes":[{"id":"NVIDIA A40"}]}}`)
	}
	e.up = httptest.NewServer(e.rec)
	t.Cleanup(e.up.Close)
	cfg := testConfig(e.up.URL)
	o := Options{Config: cfg, Resilience: &ResilienceOptions{Retries: 0, BreakerFailures: 3, BreakerOpenFor: time.Minute}}
	withLogger(e.log)(cfg, &o)
	if mod != nil {
		mod(cfg, &o)
	}
	gw, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = httptest.NewServer(gw)
	t.Cleanup(e.srv.Close)
	e.admin = httptest.NewServer(NewAdmin(gw))
	t.Cleanup(e.admin.Close)
	return e
}

// gqlErrors reads a GraphQL error answer ({"errors":[{"message"}]}).
func gqlErrors(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var e struct {
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(b, &e); err != nil || len(e.Errors) != 1 || e.Errors[0].Message == "" {
		t.Fatalf("body %q is not a GraphQL error answer", b)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	return e.Errors[0].Message
}

func TestGraphQLIsPassedThroughVerbatimToTheUpstreamGraphQL(t *testing.T) {
	e := newGQLEnv(t, func(_ *config.Config, o *Options) { o.Limiter = limiter.NewMemory(nil) })
	resp := do(t, "POST", e.srv.URL+"/graphql", "k1", strings.NewReader(gqlGPUTypes), map[string]string{
		"Content-Type": "application/json",
		"User-Agent":   "RunPod-CLI/2.7.2 (linux; amd64)",
		"X-Request-Id": "req-gql",
	})
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != `{"data":{"gpuTypes":[{"id":"NVIDIA A40"}]}}` {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
	r := e.rec.last()
	if r.Method != "POST" || r.URL.Path != "/graphql" || r.URL.RawQuery != "" {
		t.Errorf("upstream got %s %s", r.Method, r.URL)
	}
	if got := string(e.rec.bodiesCopy()[0]); got != gqlGPUTypes {
		t.Errorf("upstream body %q", got)
	}
	if r.Header.Get("Authorization") != "Bearer k1" || r.Header.Get("User-Agent") != "RunPod-CLI/2.7.2 (linux; amd64)" ||
		r.Header.Get("Content-Type") != "application/json" || r.Header.Get("X-Request-Id") != "req-gql" {
		t.Errorf("upstream headers %v", r.Header)
	}
	if got := resp.Header.Values("RateLimit"); len(got) != 1 || !strings.HasPrefix(got[0], `"minute";r=59;`) {
		t.Errorf("RateLimit %q: want only the gateway's own", got)
	}
	if resp.Header.Get("Deprecation") != "" {
		t.Error("GraphQL answers must not carry v1's Deprecation")
	}

	// GET (queries in the URL) goes through too, its query string intact.
	resp = do(t, "GET", e.srv.URL+"/graphql?query=%7BgpuTypes%7Bid%7D%7D&operationName=x", "k1", nil, nil)
	resp.Body.Close()
	if resp.StatusCode != 200 || e.rec.last().Method != "GET" || e.rec.last().URL.RawQuery != "query=%7BgpuTypes%7Bid%7D%7D&operationName=x" {
		t.Fatalf("GET: status %d, upstream %s", resp.StatusCode, e.rec.last().URL)
	}

	// Other methods are the gateway's 405, in GraphQL's error shape.
	n := e.rec.count()
	resp = do(t, "PUT", e.srv.URL+"/graphql", "k1", strings.NewReader("{}"), nil)
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, POST" {
		t.Errorf("PUT: status %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	gqlErrors(t, resp)
	if e.rec.count() != n {
		t.Error("PUT /graphql reached the upstream")
	}
}

// With anonymous_rate_limit_per_minute 0 (the zero Config here; the
// default is 60: graphql_anonymous_test.go), a keyless call is refused.
func TestGraphQLWithoutAKeyIsA401ThatNeverLeavesTheGateway(t *testing.T) {
	e := newGQLEnv(t, nil)
	// runpod-mcp's credential-free catalog queries send no Authorization.
	resp := do(t, "POST", e.srv.URL+"/graphql", "", strings.NewReader(gqlGPUTypes), nil)
	if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") == "" {
		t.Fatalf("status %d, WWW-Authenticate %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	if msg := gqlErrors(t, resp); !strings.Contains(msg, "API key") {
		t.Errorf("message %q", msg)
	}
	// An empty ?api_key= is no key either.
	resp = do(t, "POST", e.srv.URL+"/graphql?api_key=", "", strings.NewReader(gqlGPUTypes), nil)
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("empty api_key: status %d", resp.StatusCode)
	}
	if e.rec.count() != 0 {
		t.Fatal("a request without a key reached the upstream")
	}
}

func TestGraphQLStreamsTheAnswerAsItArrives(t *testing.T) {
	e := newGQLEnv(t, nil)
	release := make(chan struct{})
	e.rec.handler = func(w http.ResponseWriter, r *http.Request) {
		// An incremental (@defer) answer: the first part, then the rest later.
		w.Header().Set("Content-Type", `multipart/mixed; boundary="-"`)
		fmt.Fprint(w, "---\r\nContent-Type: application/json\r\n\r\n{\"data\":{},\"hasNext\":true}\n")
		w.(http.Flusher).Flush()
		<-release
		fmt.Fprint(w, "---\r\n{\"hasNext\":false}\n-----\r\n")
	}
	resp := do(t, "POST", e.srv.URL+"/graphql", "k", strings.NewReader(gqlGPUTypes), nil)
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	got := make(chan string, 1)
	go func() {
		var b strings.Builder
		for !strings.Contains(b.String(), `"hasNext":true`) {
			line, err := br.ReadString('\n')
			b.WriteString(line)
			if err != nil {
				break
			}
		}
		got <- b.String()
	}()
	select {
	case first := <-got:
		if !strings.Contains(first, `"hasNext":true`) {
			t.Fatalf("first part %q", first)
		}
	case <-time.After(5 * time.Second):
		close(release)
		t.Fatal("the first part did not arrive before the answer ended: the pass-through buffered it")
	}
	close(release)
	rest, _ := io.ReadAll(br)
	if !strings.Contains(string(rest), `"hasNext":false`) {
		t.Fatalf("rest %q", rest)
	}
}

func TestGraphQLBodyOverTheLimitIsA413BeforeTheUpstream(t *testing.T) {
	e := newGQLEnv(t, nil)
	big := `{"query":"` + strings.Repeat("a", MaxBodyBytes) + `"}`
	// Declared length over the limit.
	resp := do(t, "POST", e.srv.URL+"/graphql", "k", strings.NewReader(big), nil)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
	gqlErrors(t, resp)
	// Chunked (no declared length): refused while streaming.
	resp = do(t, "POST", e.srv.URL+"/graphql", "k", io.MultiReader(strings.NewReader(big)), nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked: status %d, want 413", resp.StatusCode)
	}
	for i, b := range e.rec.bodiesCopy() {
		if len(b) > MaxBodyBytes {
			t.Fatalf("upstream request %d got %d bytes", i, len(b))
		}
	}
	// Exactly at the limit is fine.
	resp = do(t, "POST", e.srv.URL+"/graphql", "k", strings.NewReader(big[:MaxBodyBytes]), nil)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("1 MiB body: status %d", resp.StatusCode)
	}
}

func TestGraphQLSharesTheRateLimitOfV1AndV2(t *testing.T) {
	clk := &fixedClock{t: time.Date(2026, 11, 22, 12, 0, 20, 0, time.UTC)}
	e := newGQLEnv(t, func(c *config.Config, o *Options) {
		c.RateLimitPerMinute = 2
		o.Limiter = limiter.NewMemory(clk.now)
	})
	resp := do(t, "POST", e.srv.URL+"/graphql", "k1", strings.NewReader(gqlGPUTypes), nil)
	resp.Body.Close()
	resp = do(t, "GET", e.srv.URL+"/v2/pods", "k1", nil, nil)
	resp.Body.Close()
	resp = do(t, "POST", e.srv.URL+"/graphql", "k1", strings.NewReader(gqlGPUTypes), nil)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "40" || resp.Header.Get("RateLimit") != `"minute";r=0;t=40` {
		t.Fatalf("third call: status %d, headers %v", resp.StatusCode, resp.Header)
	}
	gqlErrors(t, resp)
	if e.rec.count() != 2 {
		t.Fatalf("upstream saw %d requests, want 2", e.rec.count())
	}
	// The same key sent as ?api_key= is the same key: same quota.
	resp = do(t, "POST", e.srv.URL+"/graphql?api_key=k1", "", strings.NewReader(gqlGPUTypes), nil)
	resp.Body.Close()
	if resp.StatusCode != 429 {
		t.Fatalf("?api_key= of a limited key: status %d", resp.StatusCode)
	}
}

func TestGraphQLHasABreakerOfItsOwn(t *testing.T) {
	e := newGQLEnv(t, nil)
	var calls atomic.Int32
	e.rec.handler = func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		http.Error(w, `{"errors":[{"message":"internal"}]}`, http.StatusInternalServerError)
	}
	for i := range 3 {
		resp := do(t, "POST", e.srv.URL+"/graphql", "k", strings.NewReader(gqlGPUTypes), nil)
		resp.Body.Close()
		if resp.StatusCode != 500 {
			t.Fatalf("call %d: status %d, want v2's 500 passed through", i, resp.StatusCode)
		}
	}
	// POST is never re-sent: three calls, three upstream requests.
	if calls.Load() != 3 {
		t.Fatalf("upstream saw %d requests for 3 calls", calls.Load())
	}
	// Open: GraphQL is answered at once, without the upstream.
	resp := do(t, "POST", e.srv.URL+"/graphql", "k", strings.NewReader(gqlGPUTypes), nil)
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("open breaker: status %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	gqlErrors(t, resp)
	// The vendor's GraphQL breaker is not v2's (P12): /v2 still asks v2.
	resp = do(t, "GET", e.srv.URL+"/v2/pods", "k", nil, nil)
	resp.Body.Close()
	if resp.StatusCode != 500 || calls.Load() != 4 {
		t.Fatalf("/v2 with the vendor's GraphQL breaker open: status %d, upstream calls %d", resp.StatusCode, calls.Load())
	}
}

func TestGraphQLIsCountedInUsageApartFromV1AndV2(t *testing.T) {
	e := newGQLEnv(t, nil)
	for _, c := range []struct{ method, path, token string }{
		{"POST", "/graphql", "ci-token"},
		{"POST", "/graphql?api_key=ci-token", ""}, // the same key, the same key id
		{"GET", "/graphql?query=%7Bmyself%7Bid%7D%7D", "ci-token"},
		{"GET", "/v2/pods", "ci-token"},
		{"GET", "/v1/pods", "ci-token"},
		{"POST", "/graphql", ""}, // no key: not counted
	} {
		var body io.Reader
		if c.method == "POST" {
			body = strings.NewReader(gqlGPUTypes)
		}
		resp := do(t, c.method, e.srv.URL+c.path, c.token, body, nil)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	resp, err := http.Get(e.admin.URL + "/usage")
	if err != nil {
		t.Fatal(err)
	}
	var rep usage.Report
	err = json.NewDecoder(resp.Body).Decode(&rep)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Summary
	if s.TotalGraphQL != 3 || s.KeysGraphQL7d != 1 || s.TotalV2PassThrough != 1 || s.TotalV1Calls != 1 || len(rep.Keys) != 1 {
		t.Fatalf("summary %+v keys %+v", s, rep.Keys)
	}
	k := rep.Keys[0]
	if k.KeyID != limiter.KeyID([]byte("test-secret"), "ci-token") || k.GraphQL == nil || k.GraphQL.Count != 3 ||
		k.V1Calls != 1 || k.V2PassThrough == nil || k.V2PassThrough.Count != 1 {
		t.Fatalf("key %+v", k)
	}
	resp, _ = http.Get(e.admin.URL + "/usage?format=csv")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(b, []byte(",graphql,3,")) {
		t.Errorf("CSV lacks the graphql row:\n%s", b)
	}
	// And the request metrics name it.
	if m := scrape(t, e.admin.URL); !strings.Contains(m, `operation="graphql"`) {
		t.Error("no request metric with operation=\"graphql\"")
	}
}

func TestGraphQLQueryKeyBecomesABearerAndLeavesTheURL(t *testing.T) {
	e := newGQLEnv(t, nil)
	resp := do(t, "POST", e.srv.URL+"/graphql?api_key=sk-QUERY-4711&x=%20y", "", strings.NewReader(gqlGPUTypes), nil)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	r := e.rec.last()
	if r.Header.Get("Authorization") != "Bearer sk-QUERY-4711" || r.URL.RawQuery != "x=%20y" {
		t.Fatalf("upstream got Authorization %q, query %q", r.Header.Get("Authorization"), r.URL.RawQuery)
	}
	// The same key in both places is fine; different keys are ambiguous.
	resp = do(t, "POST", e.srv.URL+"/graphql?api_key=sk-QUERY-4711", "sk-QUERY-4711", strings.NewReader(gqlGPUTypes), nil)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("same key twice: status %d", resp.StatusCode)
	}
	n := e.rec.count()
	for _, c := range []struct{ path, token string }{
		{"/graphql?api_key=sk-QUERY-4711", "sk-OTHER"},
		{"/graphql?api_key=sk-QUERY-4711&api_key=sk-OTHER", ""},
	} {
		resp = do(t, "POST", e.srv.URL+c.path, c.token, strings.NewReader(gqlGPUTypes), nil)
		if resp.StatusCode != 400 {
			t.Fatalf("%s with bearer %q: status %d, want 400", c.path, c.token, resp.StatusCode)
		}
		if msg := gqlErrors(t, resp); strings.Contains(msg, "4711") || strings.Contains(msg, "OTHER") {
			t.Errorf("the error names a key: %q", msg)
		}
	}
	// Two Authorization headers stay ambiguous, whatever the query says.
	req, _ := http.NewRequest("POST", e.srv.URL+"/graphql?api_key=sk-QUERY-4711", strings.NewReader(gqlGPUTypes))
	req.Header.Add("Authorization", "Bearer sk-QUERY-4711")
	req.Header.Add("Authorization", "Bearer sk-OTHER")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 400 {
		t.Fatalf("two Authorization headers and api_key: status %d", resp.StatusCode)
	}
	gqlErrors(t, resp)
	if e.rec.count() != n {
		t.Fatal("an ambiguous key reached the upstream")
	}
}

func TestGraphQLQueryKeyInAnySpellingIsAKeyAndLeavesTheURL(t *testing.T) {
	for _, q := range []string{
		"api%5Fkey=sk-QUERY-4711", "API_KEY=sk-QUERY-4711", "Api_Key=sk-QUERY-4711",
		"api_key%5B%5D=sk-QUERY-4711", "api_key[]=sk-QUERY-4711", "api_key[0]=sk-QUERY-4711",
		"%61pi_key=sk-QUERY-4711", "x=1&API%5fKEY=sk-QUERY-4711",
	} {
		t.Run(q, func(t *testing.T) {
			e := newGQLEnv(t, nil)
			resp := do(t, "POST", e.srv.URL+"/graphql?"+q, "", strings.NewReader(gqlGPUTypes), nil)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			r := e.rec.last()
			if r.Header.Get("Authorization") != "Bearer sk-QUERY-4711" {
				t.Errorf("upstream Authorization %q: the key was not recognised", r.Header.Get("Authorization"))
			}
			if strings.Contains(r.URL.RawQuery, "4711") || strings.Contains(r.RequestURI, "4711") {
				t.Errorf("the key reached the vendor in the URL: %q", r.RequestURI)
			}
		})
	}
	// Nor does /v2 forward it in its URL.
	e := newGQLEnv(t, nil)
	resp := do(t, "GET", e.srv.URL+"/v2/pods?API%5FKEY=sk-QUERY-4711&x=1", "", nil, nil)
	resp.Body.Close()
	if r := e.rec.last(); resp.StatusCode != 200 || strings.Contains(r.RequestURI, "4711") || r.Header.Get("Authorization") != "Bearer sk-QUERY-4711" {
		t.Errorf("/v2: status %d, upstream URL %q, Authorization %q", resp.StatusCode, r.RequestURI, r.Header.Get("Authorization"))
	}
	// A duplicate in another spelling is refused as today.
	resp = do(t, "POST", e.srv.URL+"/graphql?api_key=sk-QUERY-4711&API%5FKEY=sk-OTHER", "", strings.NewReader(gqlGPUTypes), nil)
	if resp.StatusCode != 400 {
		t.Fatalf("two keys in two spellings: status %d, want 400", resp.StatusCode)
	}
	resp.Body.Close()
}

func TestGraphQLKeyNeverReachesLogsMetricsOrUsage(t *testing.T) {
	// Marks no request id, key id or timestamp can contain (they are hex
	// or digits): a random request id once held "4711".
	const bearer, query = "sk-SECRET-bearer-qzwx", "sk-SECRET-query-qzwy"
	e := newGQLEnv(t, func(c *config.Config, o *Options) {
		c.RateLimitPerMinute = 2
		o.Limiter = limiter.NewMemory(nil)
	})
	call := func(path, token string) {
		resp := do(t, "POST", e.srv.URL+path, token, strings.NewReader(gqlGPUTypes), map[string]string{"User-Agent": "RunPod-CLI/2.7.2"})
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	call("/graphql", bearer)
	call("/graphql?api_key="+query, "")
	call("/graphql?x=1&api_key="+query, "")
	resp := do(t, "POST", e.srv.URL+"/graphql?api_key="+query, "", strings.NewReader(strings.Repeat("x", MaxBodyBytes+1)), nil)
	resp.Body.Close()                                       // 413
	call("/graphql?api_key="+query, "")                     // over the rate limit: 429
	call("/graphql?api_key="+query+"&api_key=other", "")    // ambiguous: 400
	e.up.Close()                                            // the upstream is gone: the error names its URL
	call("/graphql?api_key="+query+"&q=2", bearer+"-other") // 400 before the upstream
	call("/graphql?api_key="+bearer+"-new", "")             // new key, dead upstream: 502

	out := e.log.String()
	for _, secret := range []string{"SECRET", "qzwx", "qzwy"} {
		if strings.Contains(out, secret) {
			t.Fatalf("a key appears in the logs:\n%s", out)
		}
	}
	lines := e.log.lines(t, "request")
	if len(lines) != 8 {
		t.Fatalf("%d access lines for 8 requests:\n%s", len(lines), out)
	}
	statuses := map[float64]bool{}
	for _, l := range lines {
		statuses[l["status"].(float64)] = true
		// (A declared length over the limit is refused before routing,
		// as on every route: operation "unknown".)
		if l["operation"] != "graphql" && l["status"] != 413.0 || l["path"] != "/graphql" {
			t.Errorf("access line %v", l)
		}
	}
	for _, s := range []float64{200, 400, 413, 429, 502} {
		if !statuses[s] {
			t.Errorf("no request answered %v: the test did not cover it", s)
		}
	}
	m := scrape(t, e.admin.URL)
	resp, _ = http.Get(e.admin.URL + "/usage")
	rep, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, secret := range []string{"SECRET", "qzwx", "qzwy"} {
		if strings.Contains(m, secret) || strings.Contains(string(rep), secret) {
			t.Fatalf("a key appears in /metrics or /usage")
		}
	}
}

func TestSplitQueryKeyKeepsTheOtherParametersByteForByte(t *testing.T) {
	for _, c := range []struct {
		raw, rest string
		keys      []string
	}{
		{"", "", nil},
		{"query=%7Bx%7D&b=1", "query=%7Bx%7D&b=1", nil},
		{"api_key=k1", "", []string{"k1"}},
		{"a=%20&api_key=k%2B1&b=+", "a=%20&b=+", []string{"k+1"}},
		{"api%5Fkey=k1&x", "x", []string{"k1"}},
		{"api_key=&api_key=k2", "", []string{"", "k2"}},
		{"api_keys=1&my_api_key=2", "api_keys=1&my_api_key=2", nil},
		{"api_key=%zz", "", []string{"%zz"}},
	} {
		rest, keys := splitQueryKey(c.raw)
		if rest != c.rest || strings.Join(keys, "|") != strings.Join(c.keys, "|") || (keys == nil) != (c.keys == nil) {
			t.Errorf("splitQueryKey(%q) = %q, %q; want %q, %q", c.raw, rest, keys, c.rest, c.keys)
		}
	}
}
