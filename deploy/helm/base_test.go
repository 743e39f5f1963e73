package helm

import (
	"bufio"
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	sigsyaml "sigs.k8s.io/yaml"
)

// The kustomize manifests the chart's default install must equal.
const (
	baseDir      = repoDir + "/deploy/kubernetes/base"
	netpolFile   = repoDir + "/deploy/kubernetes/components/networkpolicy/networkpolicy.yaml"
	redisFile    = repoDir + "/deploy/kubernetes/overlays/redis/redis.yaml"
	monitoring   = repoDir + "/deploy/monitoring"
	baseImageTag = "dev" // the base kustomization's images: newTag
)

// baseObjects decodes, strictly, every document of a kustomize manifest.
func baseObjects(t *testing.T, file string) []object {
	t.Helper()
	var objs []object
	for _, doc := range bytes.Split(mustFile(t, file), []byte("\n---\n")) {
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		o := object{file: file, raw: doc}
		typed, _, err := strictDecoder.Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		o.typed = typed
		if err := sigsyaml.Unmarshal(doc, &o.tree); err != nil {
			t.Fatal(err)
		}
		o.Kind = typed.GetObjectKind().GroupVersionKind().Kind
		o.Name = o.tree["metadata"].(map[string]any)["name"].(string)
		objs = append(objs, o)
	}
	return objs
}

// envFile reads a kustomize env file (KEY=VALUE lines, # comments).
func envFile(t *testing.T, file string) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(mustFile(t, file)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		out[k] = v
	}
	return out
}

func gatewayContainer(t *testing.T, d *appsv1.Deployment) corev1.Container {
	t.Helper()
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name == "v1gateway" {
			return c
		}
	}
	t.Fatalf("Deployment %s has no container v1gateway", d.Name)
	return corev1.Container{}
}

// containerEnv is a container's environment: the ConfigMaps it loads with
// envFrom (from configMaps), then its env, a secretKeyRef as "secret
// <name>/<key>".
func containerEnv(t *testing.T, c corev1.Container, configMaps map[string]map[string]string) map[string]string {
	t.Helper()
	env := map[string]string{}
	for _, ef := range c.EnvFrom {
		data, ok := configMaps[ef.ConfigMapRef.Name]
		if !ok {
			t.Fatalf("envFrom ConfigMap %s: unknown", ef.ConfigMapRef.Name)
		}
		for k, v := range data {
			env[k] = v
		}
	}
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			env[e.Name] = "secret " + e.ValueFrom.SecretKeyRef.Name + "/" + e.ValueFrom.SecretKeyRef.Key
			continue
		}
		env[e.Name] = e.Value
	}
	return env
}

// same reports a difference between the base's and the chart's value of a
// field, semantically (quantities by value).
func same(t *testing.T, field string, base, chart any) {
	t.Helper()
	if !equality.Semantic.DeepEqual(base, chart) {
		b, _ := sigsyaml.Marshal(base)
		c, _ := sigsyaml.Marshal(chart)
		t.Errorf("%s differs from the kustomize base:\nbase:\n%s\nchart:\n%s", field, b, c)
	}
}

// TestTheDefaultInstallIsTheKustomizeBase: `helm install` with the default
// values deploys what `kubectl apply -k deploy/kubernetes/base` deploys, in
// every field that matters: image, ports, probes, environment (the same
// variables with the same values, the same Secret keys), configuration
// file, resources, security contexts, shutdown, rollout, spreading, the
// public Service (without the admin port), the HorizontalPodAutoscaler and
// the PodDisruptionBudget. Names equal the base's for the release name the
// guide uses; labels differ (the chart adds app.kubernetes.io/instance to
// every selector, so that two releases never select each other's pods).
func TestTheDefaultInstallIsTheKustomizeBase(t *testing.T) {
	chart := mustRender(t, nil)
	var base []object
	for _, f := range []string{"deployment.yaml", "service.yaml", "hpa.yaml", "pdb.yaml"} {
		base = append(base, baseObjects(t, baseDir+"/"+f)...)
	}

	bd := one[*appsv1.Deployment](t, base, "Deployment", "v1gateway")
	cd := one[*appsv1.Deployment](t, chart, "Deployment", "v1gateway")
	bc, cc := gatewayContainer(t, bd), gatewayContainer(t, cd)

	if want := bc.Image + ":" + baseImageTag; cc.Image != want {
		t.Errorf("image %q, want the base's %q", cc.Image, want)
	}
	same(t, "imagePullPolicy", bc.ImagePullPolicy, cc.ImagePullPolicy)
	same(t, "args", bc.Args, cc.Args)
	same(t, "ports", bc.Ports, cc.Ports)
	same(t, "startupProbe", bc.StartupProbe, cc.StartupProbe)
	same(t, "livenessProbe", bc.LivenessProbe, cc.LivenessProbe)
	same(t, "readinessProbe", bc.ReadinessProbe, cc.ReadinessProbe)
	same(t, "lifecycle", bc.Lifecycle, cc.Lifecycle)
	same(t, "resources", bc.Resources, cc.Resources)
	same(t, "container securityContext", bc.SecurityContext, cc.SecurityContext)
	same(t, "volumeMounts", bc.VolumeMounts, cc.VolumeMounts)

	bs, cs := bd.Spec.Template.Spec, cd.Spec.Template.Spec
	same(t, "pod securityContext", bs.SecurityContext, cs.SecurityContext)
	same(t, "terminationGracePeriodSeconds", bs.TerminationGracePeriodSeconds, cs.TerminationGracePeriodSeconds)
	same(t, "automountServiceAccountToken", bs.AutomountServiceAccountToken, cs.AutomountServiceAccountToken)
	same(t, "enableServiceLinks", bs.EnableServiceLinks, cs.EnableServiceLinks)
	same(t, "volumes", bs.Volumes, cs.Volumes)
	same(t, "strategy", bd.Spec.Strategy, cd.Spec.Strategy)
	same(t, "minReadySeconds", bd.Spec.MinReadySeconds, cd.Spec.MinReadySeconds)
	same(t, "revisionHistoryLimit", bd.Spec.RevisionHistoryLimit, cd.Spec.RevisionHistoryLimit)
	spread := func(ps corev1.PodSpec) []string {
		var out []string
		for _, c := range ps.TopologySpreadConstraints {
			out = append(out, fmt.Sprintf("%s maxSkew=%d %s", c.TopologyKey, c.MaxSkew, c.WhenUnsatisfiable))
		}
		return out
	}
	same(t, "topologySpreadConstraints", spread(bs), spread(cs))
	for k, v := range bd.Spec.Template.Annotations {
		if cd.Spec.Template.Annotations[k] != v {
			t.Errorf("pod annotation %s: %q, want the base's %q", k, cd.Spec.Template.Annotations[k], v)
		}
	}
	// The chart leaves the count to the HorizontalPodAutoscaler, whose
	// minimum is the base's replicas, so that an upgrade never resets it.
	if cd.Spec.Replicas != nil {
		t.Errorf("replicas %d set although the HorizontalPodAutoscaler owns the count", *cd.Spec.Replicas)
	}
	chartHPA := one[*autoscalingv2.HorizontalPodAutoscaler](t, chart, "HorizontalPodAutoscaler", "v1gateway")
	same(t, "replicas (the HorizontalPodAutoscaler's minimum)", bd.Spec.Replicas, chartHPA.Spec.MinReplicas)

	// The environment: the base's config.env and Secret references, the
	// chart's ConfigMap and the same references.
	baseEnv := containerEnv(t, bc, map[string]map[string]string{"v1gateway-config": envFile(t, baseDir+"/config.env")})
	chartMaps := map[string]map[string]string{}
	for _, o := range find(chart, "ConfigMap", "") {
		chartMaps[o.Name] = o.typed.(*corev1.ConfigMap).Data
	}
	same(t, "environment", baseEnv, containerEnv(t, cc, chartMaps))

	// The configuration file: the same settings (the chart also lists the
	// empty migrated_keys, which the base leaves out).
	var baseFile, chartFile map[string]any
	if err := yaml.Unmarshal(mustFile(t, baseDir+"/config.yaml"), &baseFile); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(chartMaps["v1gateway-file"]["config.yaml"]), &chartFile); err != nil {
		t.Fatal(err)
	}
	same(t, "configuration file", withoutEmpty(baseFile), withoutEmpty(chartFile))

	bsvc := one[*corev1.Service](t, base, "Service", "v1gateway")
	csvc := one[*corev1.Service](t, chart, "Service", "v1gateway")
	same(t, "Service type", bsvc.Spec.Type, csvc.Spec.Type)
	same(t, "Service ports", bsvc.Spec.Ports, csvc.Spec.Ports)

	same(t, "HorizontalPodAutoscaler", one[*autoscalingv2.HorizontalPodAutoscaler](t, base, "HorizontalPodAutoscaler", "v1gateway").Spec, chartHPA.Spec)

	bp := one[*policyv1.PodDisruptionBudget](t, base, "PodDisruptionBudget", "v1gateway").Spec
	cp := one[*policyv1.PodDisruptionBudget](t, chart, "PodDisruptionBudget", "v1gateway").Spec
	same(t, "PodDisruptionBudget maxUnavailable", bp.MaxUnavailable, cp.MaxUnavailable)
	same(t, "PodDisruptionBudget minAvailable", bp.MinAvailable, cp.MinAvailable)
	same(t, "PodDisruptionBudget unhealthyPodEvictionPolicy", bp.UnhealthyPodEvictionPolicy, cp.UnhealthyPodEvictionPolicy)
}

func withoutEmpty(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if mv, ok := v.(map[string]any); ok && len(mv) == 0 {
			continue
		}
		out[k] = v
	}
	return out
}

// TestTheOptionsAreTheKustomizeOptions: networkPolicy.enabled renders the
// NetworkPolicy of the kustomize component networkpolicy, redis.enabled the
// single Redis of the overlay overlays/redis, prometheusRule.enabled the
// rules of deploy/monitoring/prometheusrule.yaml.
func TestTheOptionsAreTheKustomizeOptions(t *testing.T) {
	chart := mustRender(t, map[string]any{
		"networkPolicy":  map[string]any{"enabled": true},
		"redis":          map[string]any{"enabled": true},
		"secrets":        map[string]any{"keys": map[string]any{"redis_url": ""}},
		"prometheusRule": map[string]any{"enabled": true},
	})

	bn := one[*networkingv1.NetworkPolicy](t, baseObjects(t, netpolFile), "NetworkPolicy", "v1gateway").Spec
	cn := one[*networkingv1.NetworkPolicy](t, chart, "NetworkPolicy", "v1gateway").Spec
	same(t, "NetworkPolicy policyTypes", bn.PolicyTypes, cn.PolicyTypes)
	same(t, "NetworkPolicy ingress", bn.Ingress, cn.Ingress)
	egress := func(rules []networkingv1.NetworkPolicyEgressRule) []string {
		var out []string
		for _, r := range rules {
			if len(r.To) > 0 {
				out = append(out, fmt.Sprintf("to %v", r.To))
			}
			for _, p := range r.Ports {
				out = append(out, fmt.Sprintf("%s/%s", p.Port.String(), *p.Protocol))
			}
		}
		sort.Strings(out)
		return out
	}
	same(t, "NetworkPolicy egress", egress(bn.Egress), egress(cn.Egress))

	overlay := baseObjects(t, redisFile)
	br := one[*appsv1.Deployment](t, overlay, "Deployment", "v1gateway-redis")
	cr := one[*appsv1.Deployment](t, chart, "Deployment", "v1gateway-redis")
	same(t, "Redis strategy", br.Spec.Strategy, cr.Spec.Strategy)
	same(t, "Redis pod securityContext", br.Spec.Template.Spec.SecurityContext, cr.Spec.Template.Spec.SecurityContext)
	same(t, "Redis volumes", br.Spec.Template.Spec.Volumes, cr.Spec.Template.Spec.Volumes)
	same(t, "Redis containers", br.Spec.Template.Spec.Containers, cr.Spec.Template.Spec.Containers)
	same(t, "Redis Service ports", one[*corev1.Service](t, overlay, "Service", "v1gateway-redis").Spec.Ports,
		one[*corev1.Service](t, chart, "Service", "v1gateway-redis").Spec.Ports)
	_, env := gatewayView(t, chart)
	if got, want := env["V1GW_REDIS_URL"], "redis://v1gateway-redis:6379/0"; got != want {
		t.Errorf("with redis.enabled, V1GW_REDIS_URL is %q, want %q (the overlay's)", got, want)
	}

	var want, got prometheusRule
	if err := sigsyaml.UnmarshalStrict(mustFile(t, monitoring+"/prometheusrule.yaml"), &want); err != nil {
		t.Fatal(err)
	}
	rule := find(chart, "PrometheusRule", "v1gateway")
	if len(rule) != 1 {
		t.Fatalf("prometheusRule.enabled rendered %d PrometheusRules", len(rule))
	}
	if err := sigsyaml.UnmarshalStrict(rule[0].raw, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want.Spec.Groups, got.Spec.Groups) {
		t.Errorf("the chart's PrometheusRule groups differ from deploy/monitoring/prometheusrule.yaml's")
	}
}

// TestTheChartCarriesTheMonitoringFiles: the chart's copies of the alerting
// rules and the Grafana dashboard (a chart cannot read files outside its
// directory) equal deploy/monitoring's, which the monitoring tests check.
func TestTheChartCarriesTheMonitoringFiles(t *testing.T) {
	for _, f := range []string{"prometheus-rules.yaml", "grafana-dashboard.json"} {
		if !bytes.Equal(mustFile(t, monitoring+"/"+f), mustFile(t, chartDir+"/files/"+f)) {
			t.Errorf("deploy/helm/v1gateway/files/%s differs from deploy/monitoring/%s: cp deploy/monitoring/%s deploy/helm/v1gateway/files/", f, f, f)
		}
	}
}
