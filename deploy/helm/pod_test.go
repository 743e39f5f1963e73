package helm

import (
	"net"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/v1gateway/v1gateway/config"
)

// TestThePodsHoldTheBasesRules: what the kustomize base's own tests demand
// of its pods (deploy/kubernetes_test.go) holds for the chart with the
// default values and with every option and setting changed: the container
// ports are the ports the gateway listens on, the probes and Prometheus
// annotations use the admin port, the grace period outlasts preStop and
// the drain, secrets come only from the Secret, and every container is
// hardened and has its requests within its limits.
func TestThePodsHoldTheBasesRules(t *testing.T) {
	for name, vals := range map[string]map[string]any{"defaults": nil, "every option": fullValues()} {
		t.Run(name, func(t *testing.T) {
			objs := mustRender(t, vals)
			cfg := loadAsGateway(t, objs)
			d := one[*appsv1.Deployment](t, objs, "Deployment", release)
			c := gatewayContainer(t, d)
			ports := map[string]int32{}
			for _, p := range c.Ports {
				ports[p.Name] = p.ContainerPort
			}
			if want := portOf(t, cfg.Listen); ports["http"] != want {
				t.Errorf("container port http %d, but the gateway listens on %s", ports["http"], cfg.Listen)
			}
			admin := portOf(t, cfg.AdminListen)
			if ports["admin"] != admin {
				t.Errorf("container port admin %d, but the admin listener is %s", ports["admin"], cfg.AdminListen)
			}
			for what, p := range map[string]*corev1.Probe{"startupProbe": c.StartupProbe, "livenessProbe": c.LivenessProbe, "readinessProbe": c.ReadinessProbe} {
				if p == nil || p.HTTPGet == nil || p.HTTPGet.Port != intstr.FromString("admin") {
					t.Errorf("%s is not an httpGet on the admin port", what)
				}
			}
			if got := d.Spec.Template.Annotations["prometheus.io/port"]; got != strconv.Itoa(int(admin)) {
				t.Errorf("prometheus.io/port %q, want the admin port %d", got, admin)
			}

			if c.Lifecycle == nil || c.Lifecycle.PreStop == nil || c.Lifecycle.PreStop.Sleep == nil {
				t.Fatal("no preStop sleep action (the image has no shell)")
			}
			preStop := time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
			rp := c.ReadinessProbe
			if readiness := time.Duration(rp.PeriodSeconds*rp.FailureThreshold) * time.Second; preStop <= readiness {
				t.Errorf("preStop sleep %s does not outlast the readiness period %s", preStop, readiness)
			}
			grace := time.Duration(*d.Spec.Template.Spec.TerminationGracePeriodSeconds) * time.Second
			if grace <= preStop+cfg.DrainTimeout {
				t.Errorf("terminationGracePeriodSeconds %s must exceed preStop %s + drain_timeout %s", grace, preStop, cfg.DrainTimeout)
			}

			secret := map[string]bool{}
			for _, s := range config.Settings() {
				if isSecret(s) {
					secret[s.Env] = true
				}
			}
			for _, e := range c.Env {
				if secret[e.Name] && (e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil) {
					t.Errorf("%s is not set from a Secret", e.Name)
				}
			}
			for _, o := range find(objs, "ConfigMap", "") {
				for k := range o.typed.(*corev1.ConfigMap).Data {
					if secret[k] {
						t.Errorf("ConfigMap %s holds %s, a secret", o.Name, k)
					}
				}
			}
			if len(find(objs, "Secret", "")) > 0 {
				t.Error("the chart renders a Secret: secrets come from secrets.existingSecret")
			}

			for _, dep := range find(objs, "Deployment", "") {
				ps := dep.typed.(*appsv1.Deployment).Spec.Template.Spec
				if ps.AutomountServiceAccountToken == nil || *ps.AutomountServiceAccountToken {
					t.Errorf("Deployment %s mounts a service-account token", dep.Name)
				}
				for _, ct := range ps.Containers {
					checkHardened(t, dep.Name+"/"+ct.Name, ct)
				}
			}
		})
	}
}

func checkHardened(t *testing.T, where string, c corev1.Container) {
	t.Helper()
	sc := c.SecurityContext
	if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
		sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation || sc.Privileged == nil || *sc.Privileged ||
		sc.Capabilities == nil || len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL" || len(sc.Capabilities.Add) > 0 ||
		sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("%s: not hardened as the base's containers are (non-root, read-only root, no escalation, not privileged, drop ALL, seccomp RuntimeDefault): %+v", where, sc)
	}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, okReq := c.Resources.Requests[r]
		lim, okLim := c.Resources.Limits[r]
		if !okReq || !okLim {
			t.Errorf("%s: %s request and limit must both be set", where, r)
		} else if req.Cmp(lim) > 0 {
			t.Errorf("%s: %s request %s above its limit %s", where, r, req.String(), lim.String())
		}
	}
}

func portOf(t *testing.T, addr string) int32 {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("address %q: %v", addr, err)
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatalf("address %q: %v", addr, err)
	}
	return int32(n)
}
