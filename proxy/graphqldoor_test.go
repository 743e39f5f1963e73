package proxy

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/graphql"
	"github.com/v1gateway/v1gateway/usage"
	"github.com/v1gateway/v1gateway/v2sim"
)

// The GraphQL front door through the whole gateway (graphqldoor.go): the
// modes of graphql_mode, GraphQL over HTTP, the headers and /usage.

// doorWorld is the gateway in front of the simulator (v2) and a vendor
// GraphQL endpoint whose status a test sets (200: it answers; 410: gone).
type doorWorld struct {
	gw, admin string
	vendor    atomic.Int32 // status of the vendor's /graphql
	vendorN   atomic.Int32 // requests that reached it
	now       time.Time
	mu        sync.Mutex
	log       logBuffer
}

func newDoorWorld(t *testing.T, mode string) *doorWorld {
	t.Helper()
	w := &doorWorld{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	w.vendor.Store(200)
	clock := func() time.Time { w.mu.Lock(); defer w.mu.Unlock(); return w.now }
	sim := v2sim.New(v2sim.Options{Now: clock, Keys: []string{"k1"}, Seed: true})
	mux := http.NewServeMux()
	mux.HandleFunc("/graphql", func(rw http.ResponseWriter, r *http.Request) {
		w.vendorN.Add(1)
		st := int(w.vendor.Load())
		rw.Header().Set("Content-Type", "application/json")
		rw.Header().Set("X-Vendor", "yes")
		rw.WriteHeader(st)
		if st == http.StatusGone {
			_, _ = io.WriteString(rw, `{"errors":[{"message":"GraphQL has been retired: use https://api.runpod.io/v2"}]}`)
			return
		}
		_, _ = io.WriteString(rw, `{"data":{"vendor":true}}`)
	})
	mux.Handle("/", sim)
	up := httptest.NewServer(mux)
	t.Cleanup(up.Close)
	cfg := testConfig(up.URL)
	cfg.GraphQLMode = mode
	cfg.GraphQLAutoHold = time.Hour
	o := Options{Config: cfg, Now: clock}
	withLogger(&w.log)(cfg, &o)
	g, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	gw := httptest.NewServer(g)
	t.Cleanup(gw.Close)
	adm := httptest.NewServer(NewAdmin(g))
	t.Cleanup(adm.Close)
	w.gw, w.admin = gw.URL, adm.URL
	return w
}

func (w *doorWorld) advance(d time.Duration) {
	w.mu.Lock()
	w.now = w.now.Add(d)
	w.mu.Unlock()
}

// post sends a GraphQL document as runpod-python does (POST, a JSON body
// with only the query, a bearer key).
func (w *doorWorld) post(t *testing.T, query string) (*http.Response, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"query": query})
	req, _ := http.NewRequest(http.MethodPost, w.gw+"/graphql", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer k1")
	return doGraphQL(t, req)
}

func doGraphQL(t *testing.T, req *http.Request) (*http.Response, map[string]any) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%d %q is not JSON", resp.StatusCode, raw)
	}
	return resp, m
}

const doorPods = `{ myself { pods { id name desiredStatus machineId } } }`

func TestGraphQLTranslateModeAnswersFromV2(t *testing.T) {
	w := newDoorWorld(t, "translate")
	resp, m := w.post(t, doorPods)
	if resp.StatusCode != 200 || m["errors"] != nil {
		t.Fatalf("%d %v", resp.StatusCode, m)
	}
	pods, _ := m["data"].(map[string]any)["myself"].(map[string]any)["pods"].([]any)
	if len(pods) == 0 {
		t.Fatalf("no pods: %v", m)
	}
	if w.vendorN.Load() != 0 {
		t.Errorf("the vendor's GraphQL was asked %d times", w.vendorN.Load())
	}
	// machineId has no v2 source: null, and said so where operators look.
	if h := resp.Header.Get("X-Compat-Warning"); !strings.Contains(h, "Pod.machineId") {
		t.Errorf("X-Compat-Warning %q", h)
	}
	// GET with ?query= (a query, not a mutation).
	req, _ := http.NewRequest(http.MethodGet, w.gw+"/graphql?query="+url.QueryEscape(doorPods), nil)
	req.Header.Set("Authorization", "Bearer k1")
	if resp, m := doGraphQL(t, req); resp.StatusCode != 200 || m["errors"] != nil {
		t.Fatalf("GET: %d %v", resp.StatusCode, m)
	}
	// A body that is not a GraphQL request is a 400 with a GraphQL error.
	req, _ = http.NewRequest(http.MethodPost, w.gw+"/graphql", strings.NewReader(`not json`))
	req.Header.Set("Authorization", "Bearer k1")
	if resp, m := doGraphQL(t, req); resp.StatusCode != 400 || m["errors"] == nil {
		t.Fatalf("a bad body: %d %v", resp.StatusCode, m)
	}
	// So does a metric, by field.
	mr, err := http.Get(w.admin + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	mb, _ := io.ReadAll(mr.Body)
	mr.Body.Close()
	if !strings.Contains(string(mb), `v1gw_graphql_fields_total{field="myself"`) {
		t.Errorf("/metrics has no v1gw_graphql_fields_total{field=\"myself\"}")
	}
	// The access log names the root fields.
	if !strings.Contains(w.log.String(), `"graphql_fields":["myself"]`) {
		t.Errorf("access log: %s", w.log.String())
	}
	// /usage counts the request and each root field it ran, per key.
	r, err := http.Get(w.admin + "/usage")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var rep usage.Report
	if err := json.NewDecoder(r.Body).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Keys) != 1 || rep.Keys[0].GraphQL == nil || len(rep.Keys[0].GraphQLFields) != 1 ||
		rep.Keys[0].GraphQLFields[0].Operation != "myself" || rep.Keys[0].GraphQLFields[0].Count != 2 {
		b, _ := json.Marshal(rep.Keys)
		t.Errorf("/usage keys: %s", b)
	}
}

func TestGraphQLPassthroughModeForwards(t *testing.T) {
	w := newDoorWorld(t, "passthrough")
	w.vendor.Store(http.StatusGone)
	resp, m := w.post(t, doorPods)
	if resp.StatusCode != http.StatusGone || m["errors"] == nil || resp.Header.Get("X-Vendor") != "yes" {
		t.Fatalf("%d %v", resp.StatusCode, m)
	}
}

// auto forwards while the vendor answers; its 410 Gone is answered by the
// door (that very request too), which keeps answering for
// graphql_auto_hold without asking the vendor; then the vendor is asked
// again.
func TestGraphQLAutoModeTranslatesOnceTheVendorIsGone(t *testing.T) {
	w := newDoorWorld(t, "auto")
	resp, m := w.post(t, doorPods)
	if resp.StatusCode != 200 || m["data"].(map[string]any)["vendor"] != true {
		t.Fatalf("while the vendor answers: %d %v", resp.StatusCode, m)
	}
	w.vendor.Store(http.StatusGone)
	resp, m = w.post(t, doorPods)
	if resp.StatusCode != 200 || m["errors"] != nil || m["data"].(map[string]any)["myself"] == nil {
		t.Fatalf("the request that met the 410: %d %v", resp.StatusCode, m)
	}
	if resp.Header.Get("X-Vendor") != "" {
		t.Errorf("the vendor's headers leaked into the door's answer")
	}
	asked := w.vendorN.Load()
	w.advance(59 * time.Minute)
	if resp, _ := w.post(t, doorPods); resp.StatusCode != 200 || w.vendorN.Load() != asked {
		t.Fatalf("within the hold the vendor was asked again (%d → %d)", asked, w.vendorN.Load())
	}
	w.advance(2 * time.Minute)
	w.vendor.Store(200)
	if _, m := w.post(t, doorPods); m["data"].(map[string]any)["vendor"] != true || w.vendorN.Load() != asked+1 {
		t.Fatalf("after the hold: %v (vendor asked %d times)", m, w.vendorN.Load())
	}
}

func TestTheGraphQLLimitSettingsDefaultToTheDoorsLimits(t *testing.T) {
	if got, want := graphQLLimits(config.Default()), graphql.DefaultLimits(); got != want {
		t.Errorf("config's defaults %+v, the door's %+v", got, want)
	}
}

// A key v2 refuses is answered HTTP 401, as the vendor answered it:
// runpod-python raises its "Unauthorized request, please check your API
// key." on the status alone, and dstack's validate_api_key reads 401 as
// invalid credentials (driven against the gateway, it took any key for a
// valid one). The body still carries the GraphQL errors.
func TestGraphQLWithAKeyV2RefusesIsA401(t *testing.T) {
	w := newDoorWorld(t, "translate")
	for _, tc := range []struct {
		name, key, doc string
		status         int
	}{
		{"the key check myself { id }, with a bad key", "not-a-key", `query myself { myself { id authId email } }`, http.StatusUnauthorized},
		{"a pod list, with a bad key", "not-a-key", doorPods, http.StatusUnauthorized},
		{"the key check, with a valid key", "k1", `query myself { myself { id authId email } }`, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := json.Marshal(map[string]string{"query": tc.doc})
			req, _ := http.NewRequest(http.MethodPost, w.gw+"/graphql", strings.NewReader(string(b)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+tc.key)
			resp, m := doGraphQL(t, req)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %v", resp.StatusCode, tc.status, m)
			}
			errs, _ := json.Marshal(m["errors"])
			if bad := tc.status == http.StatusUnauthorized; bad != strings.Contains(string(errs), `"code":"UNAUTHENTICATED"`) {
				t.Errorf("errors %s", errs)
			}
		})
	}
}
