package deploy

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"gopkg.in/yaml.v3"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/proxy"
	"github.com/v1gateway/v1gateway/v2sim"
)

// The monitoring files of deploy/monitoring: a Grafana dashboard and the
// alerting rules, as a plain Prometheus rules file and as a PrometheusRule.
const (
	dashboardFile      = "deploy/monitoring/grafana-dashboard.json"
	rulesFile          = "deploy/monitoring/prometheus-rules.yaml"
	prometheusRuleFile = "deploy/monitoring/prometheusrule.yaml"
)

type ruleGroups struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Alert       string            `yaml:"alert"`
			Expr        string            `yaml:"expr"`
			For         string            `yaml:"for"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

type dashboard struct {
	Title      string `json:"title"`
	UID        string `json:"uid"`
	Templating struct {
		List []struct {
			Name, Type, Query string
		} `json:"list"`
	} `json:"templating"`
	Panels []struct {
		ID         int    `json:"id"`
		Type       string `json:"type"`
		Title      string `json:"title"`
		Datasource *struct {
			Type, UID string
		} `json:"datasource"`
		Targets []struct {
			Expr string `json:"expr"`
		} `json:"targets"`
	} `json:"panels"`
}

func readRules(t *testing.T) (plain, operator ruleGroups) {
	t.Helper()
	if err := yaml.Unmarshal([]byte(readFile(t, rulesFile)), &plain); err != nil {
		t.Fatalf("%s: %v", rulesFile, err)
	}
	var pr struct {
		APIVersion string     `yaml:"apiVersion"`
		Kind       string     `yaml:"kind"`
		Spec       ruleGroups `yaml:"spec"`
	}
	if err := yaml.Unmarshal([]byte(readFile(t, prometheusRuleFile)), &pr); err != nil {
		t.Fatalf("%s: %v", prometheusRuleFile, err)
	}
	if pr.APIVersion != "monitoring.coreos.com/v1" || pr.Kind != "PrometheusRule" {
		t.Errorf("%s: %s %s, want monitoring.coreos.com/v1 PrometheusRule", prometheusRuleFile, pr.APIVersion, pr.Kind)
	}
	return plain, pr.Spec
}

func readDashboard(t *testing.T) dashboard {
	t.Helper()
	var d dashboard
	if err := json.Unmarshal([]byte(readFile(t, dashboardFile)), &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	return d
}

// TestAlertingRulesAreComplete: the plain file and the PrometheusRule hold
// the same groups, and every alert the issue asks for, each with a
// severity and a summary.
func TestAlertingRulesAreComplete(t *testing.T) {
	plain, operator := readRules(t)
	if !reflect.DeepEqual(plain, operator) {
		t.Fatalf("%s and %s hold different rules", rulesFile, prometheusRuleFile)
	}
	alerts := map[string]bool{}
	for _, g := range plain.Groups {
		for _, r := range g.Rules {
			alerts[r.Alert] = true
			if r.Expr == "" || r.Labels["severity"] == "" || r.Annotations["summary"] == "" || r.Annotations["description"] == "" {
				t.Errorf("alert %s: needs an expr, a severity, a summary and a description", r.Alert)
			}
			if r.For != "" {
				if _, err := time.ParseDuration(r.For); err != nil {
					t.Errorf("alert %s: for %q: %v", r.Alert, r.For, err)
				}
			}
		}
	}
	for _, want := range []string{"V1GatewayBreakerOpen", "V1GatewayLimiterFailingOpen", "V1GatewayHigh5xxRatio", "V1GatewayUpstreamSlow", "V1GatewayV1TrafficAfterSunset"} {
		if !alerts[want] {
			t.Errorf("no alert %s", want)
		}
	}
}

// TestGrafanaDashboardIsImportable: a dashboard model Grafana imports: a
// uid, a Prometheus datasource variable every panel uses, unique panel ids.
func TestGrafanaDashboardIsImportable(t *testing.T) {
	d := readDashboard(t)
	if d.Title == "" || d.UID == "" {
		t.Fatalf("title %q uid %q", d.Title, d.UID)
	}
	if len(d.Templating.List) != 1 || d.Templating.List[0].Type != "datasource" || d.Templating.List[0].Query != "prometheus" {
		t.Fatalf("templating %+v: want one Prometheus datasource variable", d.Templating.List)
	}
	ids := map[int]bool{}
	for _, p := range d.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d twice", p.ID)
		}
		ids[p.ID] = true
		if p.Type == "row" {
			continue
		}
		if p.Datasource == nil || p.Datasource.UID != "${datasource}" || len(p.Targets) == 0 {
			t.Errorf("panel %q: no query on the datasource variable", p.Title)
		}
	}
}

var metricName = regexp.MustCompile(`\bv1gw_[a-z0-9_]+`)

// TestMonitoringUsesOnlyMetricsTheGatewayExports: every metric name of the
// dashboard and the rules is one that /metrics of a running gateway shows
// after a few requests of each kind, so that they cannot drift apart.
func TestMonitoringUsesOnlyMetricsTheGatewayExports(t *testing.T) {
	used := map[string][]string{}
	d := readDashboard(t)
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			for _, m := range metricName.FindAllString(tg.Expr, -1) {
				used[m] = append(used[m], dashboardFile+": "+p.Title)
			}
		}
	}
	for _, f := range []string{rulesFile, prometheusRuleFile} {
		plain := ruleGroups{}
		if f == rulesFile {
			plain, _ = readRules(t)
		} else {
			_, plain = readRules(t)
		}
		for _, g := range plain.Groups {
			for _, r := range g.Rules {
				for _, m := range metricName.FindAllString(r.Expr, -1) {
					used[m] = append(used[m], f+": "+r.Alert)
				}
			}
		}
	}
	if len(used) < 10 {
		t.Fatalf("only %d metric names found in the monitoring files", len(used))
	}

	exported := scrapeRunningGateway(t)
	var names []string
	for m := range used {
		names = append(names, m)
	}
	sort.Strings(names)
	for _, m := range names {
		if !exported[m] {
			t.Errorf("%s is not in /metrics of a running gateway (used by %s)", m, strings.Join(used[m], "; "))
		}
	}
}

// scrapeRunningGateway starts a gateway in front of the v2 simulator, with
// a Redis limiter and an announced sunset, makes requests of each kind (v1
// calls answered 200 and 404, a refused reset that gives a compatibility
// note, a /v2 pass-through call) and returns the metric names /metrics
// shows: each family, and a histogram's _bucket, _sum and _count series.
func scrapeRunningGateway(t *testing.T) map[string]bool {
	t.Helper()
	up := httptest.NewServer(v2sim.New(v2sim.Options{Seed: true}))
	t.Cleanup(up.Close)
	cfg := config.Default()
	cfg.UpstreamURL = up.URL
	cfg.KeyHashSecret = "monitoring-test"
	cfg.Sunset = time.Date(2027, 6, 30, 0, 0, 0, 0, time.UTC)
	// The limiter's metrics need a Redis limiter; which Redis does not
	// matter to the names, so an in-process one keeps this test hermetic.
	mr := miniredis.RunT(t)
	lim, err := limiter.NewRedis(limiter.RedisOptions{URL: "redis://" + mr.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lim.Close() })
	gw, err := proxy.New(proxy.Options{Config: cfg, Limiter: lim})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	t.Cleanup(srv.Close)
	admin := httptest.NewServer(proxy.NewAdmin(gw))
	t.Cleanup(admin.Close)
	for _, c := range []struct{ method, path string }{
		{"GET", "/v1/pods"}, {"GET", "/v1/pods/nope"}, {"POST", "/v1/pods/nope/reset"}, {"GET", "/v2/pods"}, {"GET", "/v1/nope"},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		req.Header.Set("Authorization", "Bearer k")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	resp, err := http.Get(admin.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	names := map[string]bool{}
	for _, line := range strings.Split(string(body), "\n") {
		if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
			f := strings.Fields(rest)
			if len(f) != 2 {
				continue
			}
			names[f[0]] = true
			if f[1] == "histogram" {
				for _, s := range []string{"_bucket", "_sum", "_count"} {
					names[f[0]+s] = true
				}
			}
		}
	}
	return names
}
