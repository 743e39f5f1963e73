package proxy

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/usage"
)

func TestAMigratedKeyIsRefusedWith410NamingTheV2RouteFromItsTimeOn(t *testing.T) {
	now := time.Date(2027, 1, 10, 12, 0, 0, 0, time.UTC)
	srv, rec := newTestGateway(t, func(c *config.Config, o *Options) {
		id := func(tok string) string { return limiter.KeyID([]byte(c.KeyHashSecret), tok) }
		c.MigratedKeys = map[string]time.Time{
			id("done"):  now.Add(-time.Hour),
			id("later"): now.Add(24 * time.Hour),
		}
		o.Now = func() time.Time { return now }
	})
	for _, tc := range []struct {
		name, method, path, token string
		status                    int
		message                   string
	}{
		{"a migrated key's list", "GET", "/v1/pods", "done", http.StatusGone,
			"this API key is marked as migrated to v2: v1 GET /v1/pods is no longer served for it; call GET /v2/pods on the v2 API instead"},
		{"a migrated key's action", "POST", "/v1/pods/abc/stop", "done", http.StatusGone, "call POST /v2/pods/{id}/action on the v2 API"},
		{"a migrated key's update via POST", "POST", "/v1/templates/t1/update", "done", http.StatusGone, "v1 POST /v1/templates/{templateId}/update is no longer served for it; call PATCH /v2/templates/{id}"},
		{"a key migrated from tomorrow", "GET", "/v1/pods", "later", http.StatusOK, ""},
		{"another key", "GET", "/v1/pods", "k", http.StatusOK, ""},
		{"a migrated key through the /v2 pass-through", "GET", "/v2/pods", "done", http.StatusOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := rec.count()
			var body *strings.Reader
			if tc.method == "POST" {
				body = strings.NewReader(`{"name":"x"}`)
			}
			var resp *http.Response
			if body != nil {
				resp = do(t, tc.method, srv.URL+tc.path, tc.token, body, map[string]string{"Content-Type": "application/json"})
			} else {
				resp = do(t, tc.method, srv.URL+tc.path, tc.token, nil, nil)
			}
			if tc.status != http.StatusGone {
				resp.Body.Close()
				if resp.StatusCode == http.StatusGone {
					t.Fatalf("status 410 for a key that is not migrated (yet)")
				}
				return
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if msg := readMessage(t, resp); !strings.Contains(msg, tc.message) {
				t.Fatalf("message %q\ndoes not contain %q", msg, tc.message)
			}
			if rec.count() != before {
				t.Fatal("a refused migrated key reached v2")
			}
		})
	}
}

func TestPrimaryV2NamesOneOfTheOperationsOwnV2CallsOfTheSameKind(t *testing.T) {
	want := map[string]string{
		"CreatePod":        "POST /v2/pods",
		"ListPods":         "GET /v2/pods",
		"UpdatePod":        "PATCH /v2/pods/{id}",
		"ResetPod":         "POST /v2/pods/{id}/action",
		"DeleteEndpoint":   "DELETE /v2/serverless/{id}",
		"CreateEndpoint":   "POST /v2/serverless",
		"PodBilling":       "GET /v2/billing/pods",
		"GetOpenAPI":       "",
		"ListTemplates":    "GET /v2/templates",
		"GetNetworkVolume": "GET /v2/network-volumes/{id}",
	}
	for i := range translate.Operations {
		op := &translate.Operations[i]
		got := PrimaryV2(op)
		if w, ok := want[op.Name]; ok && got != w {
			t.Errorf("%s: %q, want %q", op.Name, got, w)
		}
		if op.Kind != translate.KindStatic && !slices.Contains(op.V2, got) {
			t.Errorf("%s: %q is not one of its v2 calls %v", op.Name, got, op.V2)
		}
	}
}

func TestTheSunsetWarningHeaderNamesTheDateOnlyWhenAskedAndOnlyOnV1(t *testing.T) {
	sunset := time.Date(2027, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, path string
		warn       bool
		want       string
	}{
		{"v1 with sunset_warning", "/v1/pods", true, `299 v1gateway "the v1 API behind this gateway is switched off on 2027-06-30: move this client to v2 (https://example.com/migrate)"`},
		{"v1 without sunset_warning", "/v1/pods", false, ""},
		{"the /v2 pass-through", "/v2/pods", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := newTestGateway(t, func(c *config.Config, _ *Options) {
				c.Sunset, c.SunsetLink, c.SunsetWarning = sunset, "https://example.com/migrate", tc.warn
			})
			resp := do(t, "GET", srv.URL+tc.path, "k", nil, nil)
			resp.Body.Close()
			if got := resp.Header.Get("Warning"); got != tc.want {
				t.Errorf("Warning %q, want %q", got, tc.want)
			}
		})
	}
}

// pageOut, when set, is where TestTheCockpitPageOfAFixedReport writes the
// page (make screenshot renders it in headless Chromium).
var pageOut = flag.String("page-out", "", "write the cockpit page of the fixed report to this file")

// fixtureNow is the fixed report's time.
var fixtureNow = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// fixtureKeys are the fixed report's key ids.
const (
	fixCI      = "3f2a9c0d5e6b7a8f9c0d1e2f3a4b5c6d"
	fixNightly = "9b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e"
	fixML      = "c0ffee00c0ffee00c0ffee00c0ffee00"
	fixOld     = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
	fixV2      = "ffeeddccbbaa99887766554433221100"
)

// fixtureEntries is a fleet three months into its migration: a CI fleet
// burning down, a nightly job that stopped ten days ago, an ML team that
// depends on emulated resets (and is marked migrated), an old script
// quiet for fifty days and a key that only uses the /v2 pass-through.
func fixtureEntries() []usage.Entry {
	today := usage.DayOf(fixtureNow)
	var es []usage.Entry
	series := func(key, op string, from, to int, f func(i int) int64) {
		e := usage.Entry{KeyID: key, Op: op}
		for i := from; i >= to; i-- { // days ago, oldest first
			n := f(i)
			if n <= 0 {
				continue
			}
			e.Days = append(e.Days, usage.DayCount{Day: today - usage.Day(i), Count: n})
			e.Count += n
		}
		e.First = (today - usage.Day(from)).Time().Add(9 * time.Hour)
		e.Last = fixtureNow.Add(-time.Duration(to)*24*time.Hour - 17*time.Minute)
		es = append(es, e)
	}
	series(fixCI, "ListPods", 89, 0, func(i int) int64 { return int64(40 + i*4 + (i*7)%11) })
	series(fixCI, "CreatePod", 89, 0, func(i int) int64 { return int64(i/6 + (i*3)%4) })
	series(fixCI, "DeletePod", 89, 1, func(i int) int64 { return int64(i/8 + i%2) })
	series(fixCI, usage.GraphQL, 60, 2, func(i int) int64 { return int64(5 + i%3) })
	series(fixNightly, "PodBilling", 89, 10, func(i int) int64 { return 1 })
	series(fixNightly, "EndpointBilling", 89, 10, func(i int) int64 { return 1 })
	series(fixML, "GetPod", 70, 3, func(i int) int64 { return int64(10 + i%5) })
	series(fixML, "ResetPod", 70, 3, func(i int) int64 { return int64(i % 3) })
	series(fixML, "CreateTemplate", 40, 5, func(i int) int64 { return int64(i % 2) })
	series(fixOld, "ListNetworkVolumes", 89, 50, func(i int) int64 { return int64(2 + i%2) })
	series(fixV2, usage.PassThrough, 30, 1, func(i int) int64 { return 30 })
	note := func(key, op, code, msg string, n int64, lastAgo time.Duration) {
		es = append(es, usage.Entry{KeyID: key, Op: op, Code: code, Message: msg, Count: n,
			First: fixtureNow.Add(-60 * 24 * time.Hour), Last: fixtureNow.Add(-lastAgo)})
	}
	note(fixCI, "CreatePod", "lenient_dropped", "dropped: readme", 310, 2*time.Hour)
	note(fixCI, "CreatePod", "gpu_type_chosen", "gpuTypeIds missing: chose NVIDIA A40 (most available, cheapest)", 95, 5*time.Hour)
	note(fixML, "ResetPod", "reset_emulated", "reset emulated with restart: v2 has no reset", 88, 3*24*time.Hour)
	note(fixML, "CreateTemplate", "readme_dropped", "readme was not stored: v2 templates have none", 17, 5*24*time.Hour)
	return es
}

func fixtureReport() *usage.Report {
	r := usage.BuildReport(fixtureEntries(), map[string]string{fixCI: "ci-fleet", fixNightly: "nightly-billing-export", fixML: "ml-research", fixOld: "legacy volume script"}, "redis", fixtureNow)
	r.HistoryDays = 90
	return r
}

func fixturePageOptions() usage.PageOptions {
	return usage.PageOptions{Ops: pageOps, QuietDays: 30, Sunset: time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC),
		Migrated: map[string]time.Time{fixML: time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC)}}
}

func TestTheCockpitPageOfAFixedReportNamesTheV2CallsAndSectionsOfTheOperationTable(t *testing.T) {
	var buf bytes.Buffer
	if err := fixtureReport().WritePage(&buf, fixturePageOptions()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if *pageOut != "" {
		if err := os.WriteFile(*pageOut, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		"<b>ResetPod</b>", "<code>POST /v1/pods/{podId}/reset</code>", "<code>POST /v2/pods/{id}/action</code>",
		`<a href="` + DocsBase + `#pods">COMPATIBILITY.md</a>`, `<a href="` + DocsBase + `#billing">COMPATIBILITY.md</a>`,
		"migrated: v1 refused (410) from 2026-12-15", "announced sunset: 2027-01-31 (in 60 days)",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

func TestEveryCompatibilitySectionThePageLinksExists(t *testing.T) {
	doc, err := os.ReadFile("../COMPATIBILITY.md")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			a := strings.Map(func(r rune) rune {
				switch {
				case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
					return r
				case r >= 'A' && r <= 'Z':
					return r + 'a' - 'A'
				case r == ' ':
					return '-'
				}
				return -1
			}, strings.TrimSpace(h))
			anchors[a] = true
		}
	}
	for i := range translate.Operations {
		op := &translate.Operations[i]
		if op.Kind == translate.KindStatic {
			continue
		}
		a, ok := compatSections[op.Resource]
		if !ok || !anchors[a] {
			t.Errorf("%s: resource %q has no COMPATIBILITY.md section (%q)", op.Name, op.Resource, a)
		}
	}
}

func TestTheUsageEndpointServesThePageToBrowsersAndTheDailyHistoryAsJSONAndCSV(t *testing.T) {
	clk := &fixedClock{t: time.Date(2026, 11, 22, 23, 59, 0, 0, time.UTC)}
	e := newSimEnv(t, func(c *config.Config, o *Options) {
		c.UsageHistoryDays, c.RetireQuietDays = 45, 30
		o.Now = clk.now
		o.Usage = usage.New(usage.Options{Now: clk.now, HistoryDays: 45})
	})
	get := func(path string, hdr map[string]string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", e.admin.URL+path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	for range 2 {
		resp := do(t, "GET", e.srv.URL+"/v1/pods", "ci-token", nil, nil)
		resp.Body.Close()
	}
	clk.t = clk.t.Add(2 * time.Minute) // the next UTC day
	resp := do(t, "GET", e.srv.URL+"/v1/pods", "ci-token", nil, nil)
	resp.Body.Close()

	for _, tc := range []struct {
		name string
		path string
		hdr  map[string]string
	}{
		{"a browser's Accept", "/usage", map[string]string{"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}},
		{"format=html", "/usage?format=html", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(tc.path, tc.hdr)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
				t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'none'") {
				t.Errorf("CSP %q", csp)
			}
			for _, want := range []string{`id="burndown"`, "Not ready to retire", "for 30 days (retire_quiet_days)", "<b>ListPods</b>", "<code>GET /v2/pods</code>", "cover 45 UTC days"} {
				if !strings.Contains(body, want) {
					t.Errorf("the page lacks %s", want)
				}
			}
			if strings.Contains(body, "ci-token") {
				t.Fatal("the page shows a token")
			}
		})
	}
	_, body := get("/usage", map[string]string{"Accept": "application/json"})
	var rep usage.Report
	if err := json.Unmarshal([]byte(body), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.HistoryDays != 45 || len(rep.Summary.DailyV1Calls) != 2 || rep.Summary.DailyV1Calls[0].Count != 2 || rep.Summary.DailyV1Calls[1].Day.String() != "2026-11-23" {
		t.Fatalf("history %d, daily %+v", rep.HistoryDays, rep.Summary.DailyV1Calls)
	}
	resp, body = get("/usage?format=csv&view=daily", nil)
	ci := limiter.KeyID([]byte("test-secret"), "ci-token")
	want := "key_id,name,operation,day,count\n" + ci + ",,ListPods,2026-11-22,2\n" + ci + ",,ListPods,2026-11-23,1\n"
	if body != want || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("daily CSV:\n%s\nwant:\n%s", body, want)
	}
	if resp, body = get("/usage?format=csv&view=weekly", nil); resp.StatusCode != 400 || !strings.Contains(body, "view must be calls, notes or daily") {
		t.Fatalf("view=weekly: %d %s", resp.StatusCode, body)
	}
}

func TestThePageNeedsTheAdminTokenLikeTheReport(t *testing.T) {
	e := newSimEnv(t, func(c *config.Config, _ *Options) { c.AdminToken = "adm1n" })
	resp, err := http.Get(e.admin.URL + "/usage?format=html")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without the token: %d", resp.StatusCode)
	}
}

func TestTheSunsetIsExportedAsAMetricOnlyWhenAnnounced(t *testing.T) {
	e := newSimEnv(t, nil)
	if m := scrape(t, e.admin.URL); strings.Contains(m, "v1gw_sunset_timestamp_seconds") {
		t.Fatal("a sunset metric without a sunset")
	}
	e = newSimEnv(t, func(c *config.Config, _ *Options) { c.Sunset = time.Date(2027, 6, 30, 0, 0, 0, 0, time.UTC) })
	if m := scrape(t, e.admin.URL); !strings.Contains(m, "v1gw_sunset_timestamp_seconds 1.8143136e+09") {
		t.Fatalf("no sunset metric:\n%s", m)
	}
}
