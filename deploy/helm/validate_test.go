package helm

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
)

// validateObject checks what the API server would refuse beyond the shape
// that strict decoding checks: names, labels, selectors that select the
// pod template, ports, environment variable names, quantities.
func validateObject(t *testing.T, where string, obj runtime.Object) {
	t.Helper()
	m, ok := obj.(metav1.Object)
	if !ok {
		t.Errorf("%s: %T has no metadata", where, obj)
		return
	}
	checkMeta(t, where, m.GetName(), m.GetLabels())
	if m.GetNamespace() != namespace {
		t.Errorf("%s: namespace %q, want the release's %q", where, m.GetNamespace(), namespace)
	}
	switch o := obj.(type) {
	case *appsv1.Deployment:
		sel, err := metav1.LabelSelectorAsSelector(o.Spec.Selector)
		if err != nil || sel.Empty() {
			t.Errorf("%s: selector %v: %v", where, o.Spec.Selector, err)
		} else if !sel.Matches(labels.Set(o.Spec.Template.Labels)) {
			t.Errorf("%s: the selector %s does not select the pod template's labels %v", where, sel, o.Spec.Template.Labels)
		}
		checkPodSpec(t, where, &o.Spec.Template.Spec)
	case *corev1.Service:
		if validation.IsDNS1035Label(o.Name) != nil {
			t.Errorf("%s: a Service name must be a DNS-1035 label", where)
		}
		if len(o.Spec.Selector) == 0 || len(o.Spec.Ports) == 0 {
			t.Errorf("%s: no selector or no port", where)
		}
		for _, p := range o.Spec.Ports {
			if p.Port < 1 || p.Port > 65535 || validation.IsValidPortName(p.Name) != nil {
				t.Errorf("%s: port %q %d is not valid", where, p.Name, p.Port)
			}
		}
	case *corev1.ConfigMap:
		for k := range o.Data {
			if errs := validation.IsConfigMapKey(k); len(errs) > 0 {
				t.Errorf("%s: data key %q: %s", where, k, strings.Join(errs, "; "))
			}
		}
		if size := configMapSize(o); size > 1<<20 {
			t.Errorf("%s: %d bytes, over the 1 MiB a ConfigMap may hold", where, size)
		}
	case *autoscalingv2.HorizontalPodAutoscaler:
		if o.Spec.MinReplicas == nil || *o.Spec.MinReplicas < 1 || o.Spec.MaxReplicas < *o.Spec.MinReplicas {
			t.Errorf("%s: replicas %v..%d", where, o.Spec.MinReplicas, o.Spec.MaxReplicas)
		}
	case *policyv1.PodDisruptionBudget:
		if o.Spec.Selector == nil || len(o.Spec.Selector.MatchLabels) == 0 {
			t.Errorf("%s: no selector", where)
		}
		if (o.Spec.MinAvailable == nil) == (o.Spec.MaxUnavailable == nil) {
			t.Errorf("%s: exactly one of minAvailable and maxUnavailable must be set", where)
		}
	case *networkingv1.NetworkPolicy:
		if len(o.Spec.PodSelector.MatchLabels) == 0 {
			t.Errorf("%s: an empty podSelector selects every pod of the namespace", where)
		}
	}
}

func configMapSize(c *corev1.ConfigMap) int {
	n := 0
	for k, v := range c.Data {
		n += len(k) + len(v)
	}
	return n
}

func checkMeta(t *testing.T, where, name string, lbls map[string]string) {
	t.Helper()
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		t.Errorf("%s: name: %s", where, strings.Join(errs, "; "))
	}
	for k, v := range lbls {
		if errs := append(validation.IsQualifiedName(k), validation.IsValidLabelValue(v)...); len(errs) > 0 {
			t.Errorf("%s: label %s=%q: %s", where, k, v, strings.Join(errs, "; "))
		}
	}
}

func checkPodSpec(t *testing.T, where string, ps *corev1.PodSpec) {
	t.Helper()
	if len(ps.Containers) == 0 {
		t.Errorf("%s: no container", where)
	}
	volumes := map[string]bool{}
	for _, v := range ps.Volumes {
		volumes[v.Name] = true
	}
	for _, c := range ps.Containers {
		cw := where + " container " + c.Name
		if c.Image == "" {
			t.Errorf("%s: no image", cw)
		}
		ports := map[string]bool{}
		for _, p := range c.Ports {
			if p.ContainerPort < 1 || p.ContainerPort > 65535 || validation.IsValidPortName(p.Name) != nil {
				t.Errorf("%s: port %q %d is not valid", cw, p.Name, p.ContainerPort)
			}
			ports[p.Name] = true
		}
		for _, pr := range []*corev1.Probe{c.StartupProbe, c.LivenessProbe, c.ReadinessProbe} {
			if pr != nil && pr.HTTPGet != nil && pr.HTTPGet.Port.StrVal != "" && !ports[pr.HTTPGet.Port.StrVal] {
				t.Errorf("%s: a probe names port %q, which the container does not have", cw, pr.HTTPGet.Port.StrVal)
			}
		}
		for _, e := range c.Env {
			if errs := validation.IsEnvVarName(e.Name); len(errs) > 0 {
				t.Errorf("%s: env %q: %s", cw, e.Name, strings.Join(errs, "; "))
			}
		}
		for _, list := range []corev1.ResourceList{c.Resources.Requests, c.Resources.Limits} {
			for name, q := range list {
				if q.Cmp(resource.MustParse("0")) <= 0 {
					t.Errorf("%s: resource %s %s is not positive", cw, name, q.String())
				}
			}
		}
		for _, m := range c.VolumeMounts {
			if !volumes[m.Name] {
				t.Errorf("%s: mounts volume %q, which the pod does not have", cw, m.Name)
			}
		}
	}
}
