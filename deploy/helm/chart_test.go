package helm

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/strvals"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// kinds lists "Kind name" of objs, sorted.
func kinds(objs []object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Kind+" "+o.Name)
	}
	sort.Strings(out)
	return out
}

// fullValues turns on every option and sets every setting to a value that
// is not its default.
func fullValues() map[string]any {
	return map[string]any{
		"image": map[string]any{
			"repository": "registry.example.com/platform/v1gateway",
			"digest":     "sha256:" + strings.Repeat("ab", 32),
			"pullPolicy": "Always",
		},
		"imagePullSecrets": []any{map[string]any{"name": "registry"}},
		"config":           fullConfig(),
		"secrets": map[string]any{
			"existingSecret": "gateway-secrets",
			"keys": map[string]any{
				"key_hash_secret":    "hash",
				"redis_url":          "",
				"admin_token":        "admin",
				"graphql_public_key": "public-key",
			},
		},
		"redis":                         map[string]any{"enabled": true},
		"autoscaling":                   map[string]any{"enabled": false},
		"replicaCount":                  2,
		"podDisruptionBudget":           map[string]any{"maxUnavailable": "50%"},
		"service":                       map[string]any{"type": "LoadBalancer", "port": 8080, "annotations": map[string]any{"example.com/lb": "internal"}},
		"goMemLimit":                    "460MiB",
		"resources":                     map[string]any{"requests": map[string]any{"cpu": "1", "memory": "256Mi"}, "limits": map[string]any{"cpu": "4", "memory": "512Mi"}},
		"terminationGracePeriodSeconds": 90,
		"preStopSleepSeconds":           20,
		"podAnnotations":                map[string]any{"example.com/team": "platform"},
		"podLabels":                     map[string]any{"example.com/cost-centre": "migration"},
		"nodeSelector":                  map[string]any{"kubernetes.io/os": "linux"},
		"tolerations":                   []any{map[string]any{"key": "dedicated", "operator": "Equal", "value": "gateways", "effect": "NoSchedule"}},
		"affinity":                      map[string]any{"nodeAffinity": map[string]any{"preferredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{"weight": 1, "preference": map[string]any{"matchExpressions": []any{map[string]any{"key": "example.com/pool", "operator": "In", "values": []any{"edge"}}}}}}}},
		"topologySpread":                false,
		"extraEnv":                      []any{map[string]any{"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector.monitoring:4318"}},
		"networkPolicy":                 map[string]any{"enabled": true, "monitoringNamespace": "observability", "egressPorts": []any{443, 6379}},
		"serviceMonitor":                map[string]any{"enabled": true, "interval": "15s", "labels": map[string]any{"release": "prometheus"}},
		"prometheusRule":                map[string]any{"enabled": true, "labels": map[string]any{"release": "prometheus"}},
		"grafanaDashboard":              map[string]any{"enabled": true},
	}
}

// fullConfig sets every setting of the gateway (but the secret ones and
// redis_url, which fullValues gives through the Secret and the chart's own
// Redis) to a value other than its default.
func fullConfig() map[string]any {
	return map[string]any{
		"listen":                          ":8000",
		"admin_listen":                    "0.0.0.0:9100",
		"upstream_url":                    "https://v2.example.internal",
		"redis_url":                       "",
		"rate_limit_per_minute":           120,
		"anonymous_rate_limit_per_minute": 10,
		"compat_mode":                     "lenient",
		"reset_mode":                      "restart",
		"default_gpu_types":               []any{"NVIDIA L4", "NVIDIA A40"},
		"field_policy":                    map[string]any{"minRAMPerGPU": "drop", "minVCPUPerGPU": "drop"},
		"graphql_mode":                    "translate",
		"graphql_auto_hold":               "30m",
		"graphql_max_tokens":              20000,
		"graphql_max_depth":               20,
		"graphql_max_aliases":             40,
		"graphql_max_root_fields":         25,
		"graphql_max_fields":              600,
		"graphql_max_fragment_spreads":    120,
		"limiter_fail":                    "closed",
		"limiter_timeout":                 "80ms",
		"request_timeout":                 "45s",
		"drain_timeout":                   "50s",
		"sunset":                          "2027-06-30",
		"sunset_link":                     "https://wiki.example.com/v1-retirement",
		"log_format":                      "console",
		"log_level":                       "debug",
		"demo":                            true,
		"upstream_retries":                1,
		"breaker_failures":                3,
		"breaker_open_for":                "20s",
		"upstream_max_body":               67108864,
		"usage_flush_interval":            "10s",
		"upstream_header_timeout":         "15s",
		"upstream_max_conns":              256,
		"max_in_flight":                   1024,
		"body_read_timeout":               "20s",
		"usage_retention":                 "4380h",
		"facts_ttl":                       "2190h",
		"usage_history_days":              120,
		"retire_quiet_days":               45,
		"sunset_warning":                  true,
		"key_limits":                      map[string]any{"3f2a9c0d5e6b7a8f9c0d1e2f3a4b5c6d": 600},
		"key_names":                       map[string]any{"3f2a9c0d5e6b7a8f9c0d1e2f3a4b5c6d": "ci-fleet"},
		"migrated_keys":                   map[string]any{"0123456789abcdef0123456789abcdef": "2027-01-15"},
	}
}

// TestTheChartRendersValidObjects: `helm template` of the defaults and of
// the full set renders only objects that decode strictly into their
// Kubernetes API types (or the Prometheus Operator's CRDs) and pass the
// API server's name, label, selector and port rules; each option adds
// exactly its objects.
func TestTheChartRendersValidObjects(t *testing.T) {
	for _, tc := range []struct {
		name string
		vals map[string]any
		want []string
	}{
		{"defaults", nil, []string{
			"ConfigMap v1gateway-config", "ConfigMap v1gateway-file", "Deployment v1gateway",
			"HorizontalPodAutoscaler v1gateway", "PodDisruptionBudget v1gateway", "Service v1gateway",
		}},
		{"every option", fullValues(), []string{
			"ConfigMap v1gateway-config", "ConfigMap v1gateway-dashboard", "ConfigMap v1gateway-file",
			"Deployment v1gateway", "Deployment v1gateway-redis", "NetworkPolicy v1gateway",
			"PodDisruptionBudget v1gateway", "PrometheusRule v1gateway", "Service v1gateway",
			"Service v1gateway-admin", "Service v1gateway-redis", "ServiceMonitor v1gateway",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs := mustRender(t, tc.vals)
			if got := kinds(objs); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("rendered\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestAWrongValueFailsTheInstall: values.schema.json and the templates'
// checks refuse, before anything reaches the cluster, a value the gateway
// would refuse at start-up (or a combination the chart cannot deploy),
// naming the value.
func TestAWrongValueFailsTheInstall(t *testing.T) {
	cfg := func(key string, v any) map[string]any { return map[string]any{"config": map[string]any{key: v}} }
	for _, tc := range []struct {
		name string
		vals map[string]any
		want string // in the error
	}{
		{"a misspelt setting", cfg("rate_limit", 10), "rate_limit"},
		{"a negative rate limit", cfg("rate_limit_per_minute", -1), "rate_limit_per_minute"},
		{"a rate limit that is not a number", cfg("rate_limit_per_minute", "sixty"), "rate_limit_per_minute"},
		{"an unknown compat mode", cfg("compat_mode", "loose"), "compat_mode"},
		{"an unknown GraphQL mode", cfg("graphql_mode", "proxy"), "graphql_mode"},
		{"a duration without a unit", cfg("request_timeout", "30 seconds"), "request_timeout"},
		{"upstream retries above 2", cfg("upstream_retries", 3), "upstream_retries"},
		{"an upstream URL with /v2", cfg("upstream_url", "https://api.runpod.io/v2"), "upstream_url"},
		{"a listen address without a port", cfg("listen", "0.0.0.0"), "listen"},
		{"a key limit for something that is not a key id", cfg("key_limits", map[string]any{"rpa_SECRETKEY": 10}), "key_limits"},
		{"an unknown field policy", cfg("field_policy", map[string]any{"minRAMPerGPU": "ignore"}), "field_policy"},
		{"a secret among the settings", cfg("key_hash_secret", "hunter2"), "key_hash_secret"},
		{"an admin port on loopback", cfg("admin_listen", "127.0.0.1:9090"), "admin_listen"},
		{"a digest that is not sha256", map[string]any{"image": map[string]any{"digest": "latest"}}, "digest"},
		{"an unknown top-level key", map[string]any{"replicas": 3}, "replicas"},
		{"a setting as an extra variable", map[string]any{"extraEnv": []any{map[string]any{"name": "V1GW_COMPAT_MODE", "value": "lenient"}}}, "extraEnv"},
		{"two Redis", map[string]any{"redis": map[string]any{"enabled": true}}, "Redis is set twice"},
		{"Secret keys without a Secret", map[string]any{"secrets": map[string]any{"existingSecret": ""}}, "existingSecret is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := render(t, tc.vals)
			if err == nil {
				t.Fatalf("rendered without an error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("the error does not name %q: %v", tc.want, err)
			}
		})
	}
}

// TestTheImageIsPinnedByDigestOrTag: the image is repository@digest when a
// digest is given (the tag is then ignored), else repository:tag, else
// repository:<appVersion>.
func TestTheImageIsPinnedByDigestOrTag(t *testing.T) {
	digest := "sha256:" + strings.Repeat("0f", 32)
	for _, tc := range []struct {
		image map[string]any
		want  string
	}{
		{map[string]any{}, "v1gateway:dev"},
		{map[string]any{"repository": "ghcr.io/example/v1gateway", "tag": "1.4.2"}, "ghcr.io/example/v1gateway:1.4.2"},
		{map[string]any{"repository": "ghcr.io/example/v1gateway", "tag": "1.4.2", "digest": digest}, "ghcr.io/example/v1gateway@" + digest},
	} {
		objs := mustRender(t, map[string]any{"image": tc.image})
		if got := gatewayContainer(t, one[*appsv1.Deployment](t, objs, "Deployment", release)).Image; got != tc.want {
			t.Errorf("image values %v: image %q, want %q", tc.image, got, tc.want)
		}
	}
}

// TestTheAdminPortIsNeverOnThePublicService: /usage and /metrics stay off
// the Service clients use, with every option on; the ServiceMonitor scrapes
// a headless Service of its own.
func TestTheAdminPortIsNeverOnThePublicService(t *testing.T) {
	for name, vals := range map[string]map[string]any{"defaults": nil, "every option": fullValues()} {
		objs := mustRender(t, vals)
		d := one[*appsv1.Deployment](t, objs, "Deployment", release)
		admin := int32(0)
		for _, p := range gatewayContainer(t, d).Ports {
			if p.Name == "admin" {
				admin = p.ContainerPort
			}
		}
		for _, p := range one[*corev1.Service](t, objs, "Service", release).Spec.Ports {
			if p.TargetPort.StrVal == "admin" || p.TargetPort.IntVal == admin || p.Port == admin {
				t.Errorf("%s: the public Service carries the admin port (%s %d)", name, p.Name, p.Port)
			}
		}
		if s := find(objs, "Service", release+"-admin"); len(s) == 1 && s[0].typed.(*corev1.Service).Spec.ClusterIP != corev1.ClusterIPNone {
			t.Errorf("%s: the admin Service is not headless", name)
		}
	}
}

// TestThePackagedChartRendersAsTheDirectory: the archive `make chart`
// writes (chartutil.Save, as `helm package`) holds the whole chart: it
// renders the same objects as the directory, and carries the schema and
// the monitoring files.
func TestThePackagedChartRendersAsTheDirectory(t *testing.T) {
	dir := loadChart(t)
	archive, err := chartutil.Save(dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	packed, err := loader.Load(archive)
	if err != nil {
		t.Fatalf("loading %s: %v", archive, err)
	}
	if len(packed.Schema) == 0 {
		t.Error("the archive has no values.schema.json")
	}
	for _, c := range []*chart.Chart{dir, packed} {
		n := 0
		for _, f := range c.Files {
			if strings.HasPrefix(f.Name, "files/") {
				n++
			}
		}
		if n != 2 {
			t.Errorf("%s: %d files under files/, want the rules and the dashboard", c.Name(), n)
		}
	}
	render := func(c *chart.Chart) map[string]string {
		top, err := chartutil.ToRenderValues(c, fullValues(), chartutil.ReleaseOptions{Name: release, Namespace: namespace, IsInstall: true}, capabilities(t))
		if err != nil {
			t.Fatal(err)
		}
		out, err := engine.Render(c, top)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if a, b := render(dir), render(packed); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("the archive renders other objects than the directory")
	}
}

// TestTheGuidesHelmExamplesInstall: the `helm install` command of the
// operator guide's three-command install (its --set values) and the values
// file it shows both render.
func TestTheGuidesHelmExamplesInstall(t *testing.T) {
	guide := string(mustFile(t, repoDir+"/docs/operating.md"))
	_, section, ok := strings.Cut(guide, "\n### Helm\n")
	if !ok {
		t.Fatal("docs/operating.md has no Helm section")
	}
	section, _, _ = strings.Cut(section, "\n### ")

	var install string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "helm install ") {
			install = line
			break
		}
	}
	if install == "" {
		t.Fatal("the Helm section shows no helm install command")
	}
	vals := map[string]any{}
	fields := strings.Fields(install)
	for i, f := range fields {
		if f == "--set" && i+1 < len(fields) {
			if err := strvals.ParseInto(fields[i+1], vals); err != nil {
				t.Fatalf("%s: %v", fields[i+1], err)
			}
		}
	}
	if len(vals) == 0 {
		t.Fatalf("no --set in %q", install)
	}
	mustRender(t, vals)

	_, block, ok := strings.Cut(section, "```yaml\n")
	if !ok {
		t.Fatal("the Helm section shows no values file")
	}
	block, _, _ = strings.Cut(block, "```")
	file, err := chartutil.ReadValues([]byte(block))
	if err != nil {
		t.Fatalf("the guide's values file: %v", err)
	}
	mustRender(t, file)
}
