package deploy

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/v1gateway/v1gateway/limiter"
)

// ---- tests ----

// TestKustomizationsListTheirFiles: in every kustomize directory, each
// listed file exists, each listed directory is itself a kustomization, and
// every manifest or generator input beside kustomization.yaml is listed
// (a file nobody lists is a file that is silently not deployed).
func TestKustomizationsListTheirFiles(t *testing.T) {
	root := repoRoot(t)
	dirs := deployFiles(t, func(rel string) bool { return path.Base(rel) == "kustomization.yaml" })
	if len(dirs) < 3 {
		t.Fatalf("found %d kustomizations under deploy/, want base, overlays/redis and components/networkpolicy: %v", len(dirs), dirs)
	}
	for _, kf := range dirs {
		dir := path.Dir(kf)
		k := loadKustomization(t, dir)
		switch {
		case k.Kind == "Kustomization" && k.APIVersion == "kustomize.config.k8s.io/v1beta1":
		case k.Kind == "Component" && k.APIVersion == "kustomize.config.k8s.io/v1alpha1":
		default:
			t.Errorf("%s: apiVersion %q kind %q is not a kustomization or component", kf, k.APIVersion, k.Kind)
		}
		listed := map[string]bool{}
		var refs []string
		refs = append(refs, k.Resources...)
		refs = append(refs, k.Components...)
		refs = append(refs, k.PatchesStrategicMerge...)
		for _, p := range k.Patches {
			if p.Path != "" {
				refs = append(refs, p.Path)
			}
		}
		for _, g := range append(append([]generator{}, k.ConfigMapGenerator...), k.SecretGenerator...) {
			refs = append(refs, g.Envs...)
			for _, f := range g.Files {
				// files: [key=]path
				if _, p, ok := strings.Cut(f, "="); ok {
					f = p
				}
				refs = append(refs, f)
			}
		}
		for _, r := range refs {
			p := filepath.Join(root, filepath.FromSlash(dir), filepath.FromSlash(r))
			st, err := os.Stat(p)
			if err != nil {
				t.Errorf("%s lists %s, which does not exist", kf, r)
				continue
			}
			if st.IsDir() {
				if _, err := os.Stat(filepath.Join(p, "kustomization.yaml")); err != nil {
					t.Errorf("%s lists directory %s, which has no kustomization.yaml", kf, r)
				}
				continue
			}
			listed[path.Clean(r)] = true
		}
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || name == "kustomization.yaml" {
				continue
			}
			if (isYAML(name) || strings.HasSuffix(name, ".env") || strings.HasSuffix(name, ".json")) && !listed[name] {
				t.Errorf("%s/%s is not listed in %s: it would never be deployed", dir, name, kf)
			}
		}
	}
}

// TestGatewayDeployment checks the gateway's Deployment in the base.
func TestGatewayDeployment(t *testing.T) {
	objs := objects(t, baseDir)
	d, c := gatewayDeployment(t, objs)
	spec := d.Spec
	pod := spec.Template.Spec

	if spec.Replicas == nil || *spec.Replicas != 3 {
		t.Errorf("replicas %s, want 3", intOrUnset(spec.Replicas))
	}
	if ru := spec.Strategy.RollingUpdate; spec.Strategy.Type != "RollingUpdate" || ru == nil || !isZero(ru.MaxUnavailable) {
		var mu any = "unset"
		if ru != nil {
			mu = ru.MaxUnavailable
		}
		t.Errorf("strategy %q with maxUnavailable %v: want RollingUpdate with maxUnavailable 0", spec.Strategy.Type, mu)
	} else if isZero(spec.Strategy.RollingUpdate.MaxSurge) {
		t.Error("maxSurge 0 with maxUnavailable 0: a rollout could never start")
	}
	if !subset(spec.Selector.MatchLabels, spec.Template.Metadata.Labels) {
		t.Errorf("selector %v does not select the template's labels %v", spec.Selector.MatchLabels, spec.Template.Metadata.Labels)
	}

	// The settings the container runs with, through the real config loader.
	env := gatewayEnv(t, baseDir, c, nil)
	var args []string
	for _, a := range c.Args {
		// -config points into the mounted ConfigMap: read the file it is
		// generated from instead.
		if v, ok := strings.CutPrefix(a, "-config="); ok {
			a = "-config=" + configFileSource(t, c, pod, v)
		} else if a == "-config" || a == "--config" {
			t.Fatal("write -config=PATH as one argument")
		}
		args = append(args, a)
	}
	cfg, err := loadConfigValue(args, env)
	if err != nil {
		t.Fatalf("the gateway container's settings do not load: %v", err)
	}

	// Ports: the ones the gateway listens on are the ones declared.
	ports := map[string]int{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	if ports["http"] != portOf(t, cfg.Listen) {
		t.Errorf("container port http %d, but the gateway listens on %s", ports["http"], cfg.Listen)
	}
	admin := portOf(t, cfg.AdminListen)
	if ports["admin"] != admin {
		t.Errorf("container port admin %d, but the admin listener is %s", ports["admin"], cfg.AdminListen)
	}

	// Probes: /healthz and /readyz on the admin port.
	for _, p := range []struct {
		name, path string
		probe      *probe
		required   bool
	}{
		{"livenessProbe", "/healthz", c.LivenessProbe, true},
		{"readinessProbe", "/readyz", c.ReadinessProbe, true},
		{"startupProbe", "/healthz", c.StartupProbe, false},
	} {
		if p.probe == nil {
			if p.required {
				t.Errorf("no %s", p.name)
			}
			continue
		}
		if p.probe.HTTPGet == nil || p.probe.HTTPGet.Path != p.path {
			t.Errorf("%s: want httpGet %s", p.name, p.path)
			continue
		}
		if n, err := containerPort(c, p.probe.HTTPGet.Port); err != nil || n != admin {
			t.Errorf("%s on port %v (%d, %v), want the admin port %d", p.name, p.probe.HTTPGet.Port, n, err, admin)
		}
		if p.probe.PeriodSeconds <= 0 || p.probe.FailureThreshold <= 0 || p.probe.TimeoutSeconds <= 0 {
			t.Errorf("%s: set periodSeconds, timeoutSeconds and failureThreshold explicitly", p.name)
		}
	}

	// Shutdown: preStop outlasts the readiness period; the grace period
	// outlasts preStop plus the drain timeout.
	preStop := time.Duration(0)
	if ps := c.Lifecycle.PreStop; ps == nil || ps.Sleep == nil {
		t.Error("no preStop sleep action (the image has no shell: use lifecycle.preStop.sleep)")
	} else {
		preStop = time.Duration(ps.Sleep.Seconds) * time.Second
	}
	if rp := c.ReadinessProbe; rp != nil {
		readiness := time.Duration(rp.PeriodSeconds*rp.FailureThreshold) * time.Second
		if preStop <= readiness {
			t.Errorf("preStop sleep %s does not outlast the readiness period %s (periodSeconds x failureThreshold)", preStop, readiness)
		}
	}
	if pod.TerminationGracePeriodSeconds == nil {
		t.Fatal("no terminationGracePeriodSeconds (the default 30 s is shorter than preStop + drain)")
	}
	grace := time.Duration(*pod.TerminationGracePeriodSeconds) * time.Second
	if grace <= preStop+cfg.DrainTimeout {
		t.Errorf("terminationGracePeriodSeconds %s must exceed preStop %s + drain timeout %s", grace, preStop, cfg.DrainTimeout)
	}

	// Secrets come from a Secret, key by key, never as literals.
	secretName := ""
	for _, name := range []string{"V1GW_KEY_HASH_SECRET", "V1GW_REDIS_URL"} {
		found := false
		for _, e := range c.Env {
			if e.Name != name {
				continue
			}
			found = true
			if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
				t.Errorf("%s must come from a secretKeyRef", name)
				continue
			}
			if secretName == "" {
				secretName = e.ValueFrom.SecretKeyRef.Name
			} else if secretName != e.ValueFrom.SecretKeyRef.Name {
				t.Errorf("%s comes from Secret %s, the other secret from %s: keep them in one", name, e.ValueFrom.SecretKeyRef.Name, secretName)
			}
		}
		if !found {
			t.Errorf("%s is not set from a Secret", name)
		}
	}
	for k := range parseConfigEnvFiles(t, baseDir) {
		if k == "V1GW_KEY_HASH_SECRET" || k == "V1GW_REDIS_URL" {
			t.Errorf("%s is in a ConfigMap: it is a secret", k)
		}
	}
	if len(find(objs, "Secret", "")) > 0 {
		t.Error("the base holds a Secret: secrets must not live in git (the overlays generate demo ones)")
	}

	// Resources.
	checkResources(t, "gateway", c)

	// Prometheus annotations on the pods point at the admin port.
	ann := spec.Template.Metadata.Annotations
	if ann["prometheus.io/scrape"] != "true" || ann["prometheus.io/port"] != strconv.Itoa(admin) || ann["prometheus.io/path"] != "/metrics" {
		t.Errorf("pod annotations %v: want prometheus.io/scrape \"true\", prometheus.io/port %q, prometheus.io/path /metrics", ann, strconv.Itoa(admin))
	}
}

// configFileSource maps the -config path inside the container to the file
// the mounted ConfigMap is generated from.
func configFileSource(t *testing.T, c container, pod podSpec, inContainer string) string {
	t.Helper()
	gens := configMapGenerators(t, baseDir)
	for _, m := range c.VolumeMounts {
		rel, ok := strings.CutPrefix(inContainer, strings.TrimSuffix(m.MountPath, "/")+"/")
		if !ok {
			continue
		}
		if !m.ReadOnly {
			t.Errorf("volume %s at %s should be mounted readOnly", m.Name, m.MountPath)
		}
		for _, v := range pod.Volumes {
			if v.Name != m.Name || v.ConfigMap == nil {
				continue
			}
			for _, g := range gens {
				if g.Name != v.ConfigMap.Name {
					continue
				}
				for _, f := range g.Files {
					key, p, ok := strings.Cut(f, "=")
					if !ok {
						key, p = path.Base(f), f
					}
					if key == rel {
						return filepath.Join(repoRoot(t), filepath.FromSlash(g.dir), filepath.FromSlash(p))
					}
				}
			}
		}
	}
	t.Fatalf("-config=%s is not a file of a mounted, generated ConfigMap", inContainer)
	return ""
}

func parseConfigEnvFiles(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	for _, g := range configMapGenerators(t, dir) {
		for _, f := range g.Envs {
			for k, v := range parseEnvFile(t, path.Join(g.dir, f)) {
				out[k] = v
			}
		}
	}
	return out
}

func checkResources(t *testing.T, what string, c container) {
	t.Helper()
	for _, r := range []string{"cpu", "memory"} {
		req, lim := c.Resources.Requests[r], c.Resources.Limits[r]
		if req == "" || lim == "" {
			t.Errorf("%s container %s: %s request %q and limit %q must both be set", what, c.Name, r, req, lim)
			continue
		}
		rq, err1 := quantity(req)
		lq, err2 := quantity(lim)
		if err1 != nil || err2 != nil {
			t.Errorf("%s container %s: %s: %v %v", what, c.Name, r, err1, err2)
			continue
		}
		if rq > lq {
			t.Errorf("%s container %s: %s request %s above its limit %s", what, c.Name, r, req, lim)
		}
	}
}

// TestPodSecurity: every container of every Deployment under
// deploy/kubernetes runs non-root, read-only, without capabilities or
// privilege escalation, under seccomp RuntimeDefault, with resources.
func TestPodSecurity(t *testing.T) {
	for _, dir := range []string{baseDir, overlayDir} {
		for _, o := range find(objects(t, dir), "Deployment", "") {
			var d deployment
			mustDecode(t, o.file, o.node, &d)
			pod := d.Spec.Template.Spec
			if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
				t.Errorf("%s %s: automountServiceAccountToken should be false (the gateway never calls the Kubernetes API)", o.file, o.Metadata.Name)
			}
			for _, c := range append(append([]container{}, pod.Containers...), pod.InitContainers...) {
				where := fmt.Sprintf("%s: %s/%s", o.file, o.Metadata.Name, c.Name)
				sc := c.SecurityContext
				nonRoot := (sc.RunAsNonRoot != nil && *sc.RunAsNonRoot) || (sc.RunAsNonRoot == nil && pod.SecurityContext.RunAsNonRoot != nil && *pod.SecurityContext.RunAsNonRoot)
				if !nonRoot {
					t.Errorf("%s: runAsNonRoot is not true", where)
				}
				if u := sc.RunAsUser; u != nil && *u == 0 {
					t.Errorf("%s: runAsUser 0", where)
				}
				if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
					t.Errorf("%s: readOnlyRootFilesystem is not true", where)
				}
				if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
					t.Errorf("%s: allowPrivilegeEscalation is not false", where)
				}
				if sc.Privileged != nil && *sc.Privileged {
					t.Errorf("%s: privileged", where)
				}
				dropsAll := false
				for _, cap := range sc.Capabilities.Drop {
					dropsAll = dropsAll || cap == "ALL"
				}
				if !dropsAll || len(sc.Capabilities.Add) > 0 {
					t.Errorf("%s: capabilities %+v, want drop [ALL] and nothing added", where, sc.Capabilities)
				}
				prof := sc.SeccompProfile
				if prof == nil {
					prof = pod.SecurityContext.SeccompProfile
				}
				if prof == nil || prof.Type != "RuntimeDefault" {
					t.Errorf("%s: seccompProfile is not RuntimeDefault", where)
				}
				checkResources(t, o.Metadata.Name, c)
				if c.LivenessProbe == nil || c.ReadinessProbe == nil {
					t.Errorf("%s: liveness and readiness probes are required", where)
				}
			}
		}
	}
}

// TestServiceHPAPDB: the Service, autoscaler and disruption budget point at
// the gateway's pods and agree with the Deployment.
func TestServiceHPAPDB(t *testing.T) {
	objs := objects(t, baseDir)
	d, c := gatewayDeployment(t, objs)
	podLabels := d.Spec.Template.Metadata.Labels
	replicas := 0
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas
	}

	so := one(t, objs, "Service", gatewayApp)
	var svc service
	mustDecode(t, so.file, so.node, &svc)
	if !subset(svc.Spec.Selector, podLabels) {
		t.Errorf("Service selector %v does not select the gateway's pods %v", svc.Spec.Selector, podLabels)
	}
	var http int
	for _, p := range svc.Spec.Ports {
		n, err := containerPort(c, p.TargetPort)
		if err != nil {
			t.Errorf("Service port %s: %v", p.Name, err)
		}
		if p.Name == "http" {
			http = n
		}
	}
	for _, p := range c.Ports {
		if p.Name == "http" && http != p.ContainerPort {
			t.Errorf("Service port http targets %d, want the container's http port %d", http, p.ContainerPort)
		}
	}

	ho := one(t, objs, "HorizontalPodAutoscaler", gatewayApp)
	if ho.APIVersion != "autoscaling/v2" {
		t.Errorf("HorizontalPodAutoscaler apiVersion %s, want autoscaling/v2", ho.APIVersion)
	}
	var h hpa
	mustDecode(t, ho.file, ho.node, &h)
	if ref := h.Spec.ScaleTargetRef; ref.Kind != "Deployment" || ref.Name != gatewayApp || ref.APIVersion != "apps/v1" {
		t.Errorf("HPA scales %+v, want apps/v1 Deployment %s", ref, gatewayApp)
	}
	if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas < replicas || *h.Spec.MinReplicas < 2 {
		t.Errorf("HPA minReplicas %s, want at least the Deployment's %d and at least 2", intOrUnset(h.Spec.MinReplicas), replicas)
	} else if h.Spec.MaxReplicas <= *h.Spec.MinReplicas {
		t.Errorf("HPA maxReplicas %d is not above minReplicas %d", h.Spec.MaxReplicas, *h.Spec.MinReplicas)
	}
	cpu := false
	for _, m := range h.Spec.Metrics {
		if m.Type == "Resource" && m.Resource != nil && m.Resource.Name == "cpu" && m.Resource.Target.Type == "Utilization" {
			u := m.Resource.Target.AverageUtilization
			cpu = u > 0 && u <= 100
		}
	}
	if !cpu {
		t.Error("HPA has no CPU utilization target between 1 and 100 %")
	}
	if c.Resources.Requests["cpu"] == "" {
		t.Error("HPA on CPU utilization needs a CPU request")
	}

	po := one(t, objs, "PodDisruptionBudget", gatewayApp)
	if po.APIVersion != "policy/v1" {
		t.Errorf("PodDisruptionBudget apiVersion %s, want policy/v1", po.APIVersion)
	}
	var p pdb
	mustDecode(t, po.file, po.node, &p)
	if !subset(p.Spec.Selector.MatchLabels, podLabels) {
		t.Errorf("PDB selector %v does not select the gateway's pods %v", p.Spec.Selector.MatchLabels, podLabels)
	}
	switch {
	case p.Spec.MaxUnavailable != nil && p.Spec.MinAvailable == nil:
		if isZero(p.Spec.MaxUnavailable) {
			t.Error("PDB maxUnavailable 0 blocks every node drain")
		}
	case p.Spec.MinAvailable != nil && p.Spec.MaxUnavailable == nil:
		if n, ok := p.Spec.MinAvailable.(int); ok && n >= replicas {
			t.Errorf("PDB minAvailable %d with %d replicas blocks every node drain", n, replicas)
		}
	default:
		t.Error("PDB needs exactly one of minAvailable and maxUnavailable")
	}
}

// TestNetworkPolicyComponent: the optional NetworkPolicy selects the
// gateway's pods and names ports the container has.
func TestNetworkPolicyComponent(t *testing.T) {
	objs := objects(t, k8sDir+"/components/networkpolicy")
	_, c := gatewayDeployment(t, objects(t, baseDir))
	d, _ := gatewayDeployment(t, objects(t, baseDir))
	o := one(t, objs, "NetworkPolicy", gatewayApp)
	var np networkPolicy
	mustDecode(t, o.file, o.node, &np)
	if !subset(np.Spec.PodSelector.MatchLabels, d.Spec.Template.Metadata.Labels) {
		t.Errorf("NetworkPolicy podSelector %v does not select the gateway's pods", np.Spec.PodSelector.MatchLabels)
	}
	ports := 0
	for _, in := range np.Spec.Ingress {
		for _, p := range in.Ports {
			ports++
			if _, err := containerPort(c, p.Port); err != nil {
				t.Errorf("NetworkPolicy ingress port: %v", err)
			}
		}
	}
	if ports < 2 {
		t.Errorf("NetworkPolicy admits %d ports, want the public and the admin port", ports)
	}
}

// TestRedisOverlay: the overlay generates the Secret the base references,
// with a Redis URL addressing its own Redis Service, and the gateway's
// settings load with it.
func TestRedisOverlay(t *testing.T) {
	k := loadKustomization(t, overlayDir)
	objs := objects(t, overlayDir)
	_, c := gatewayDeployment(t, objs)

	refs := map[string]string{} // secret key -> env name
	secretName := ""
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			refs[e.ValueFrom.SecretKeyRef.Key] = e.Name
			secretName = e.ValueFrom.SecretKeyRef.Name
		}
	}
	lits := secretLiterals(k, secretName)
	if lits == nil {
		t.Fatalf("the overlay does not generate the Secret %q the Deployment references", secretName)
	}
	for key, env := range refs {
		if lits[key] == "" {
			t.Errorf("generated Secret %s has no key %s (for %s)", secretName, key, env)
		}
	}
	env := gatewayEnv(t, overlayDir, c, lits)
	redisURL := env["V1GW_REDIS_URL"]
	if err := limiter.CheckRedisURL(redisURL); err != nil {
		t.Errorf("overlay Redis URL: %v", err)
	}
	if err := loadConfig(nil, env); err != nil {
		t.Errorf("the overlay's settings do not load: %v", err)
	}
	host := ""
	if i := strings.Index(redisURL, "://"); i >= 0 {
		host, _, _ = strings.Cut(redisURL[i+3:], "/")
		host, _, _ = net.SplitHostPort(host)
	}
	so := one(t, objs, "Service", host)
	var svc service
	mustDecode(t, so.file, so.node, &svc)
	ro := find(objs, "Deployment", host)
	if len(ro) != 1 {
		t.Fatalf("no Redis Deployment %q behind the Service", host)
	}
	var rd deployment
	mustDecode(t, ro[0].file, ro[0].node, &rd)
	if !subset(svc.Spec.Selector, rd.Spec.Template.Metadata.Labels) {
		t.Errorf("Service %s does not select the Redis pods", host)
	}
	// The gateway's Service must not also select Redis.
	gs := one(t, objs, "Service", gatewayApp)
	var g service
	mustDecode(t, gs.file, gs.node, &g)
	if subset(g.Spec.Selector, rd.Spec.Template.Metadata.Labels) {
		t.Error("the gateway Service selects the Redis pods too")
	}
}

// TestKustomizeBuild renders the base and the overlay with kustomize
// (kubectl kustomize) when it is installed; nothing else depends on it.
func TestKustomizeBuild(t *testing.T) {
	var cmdFor func(dir string) *exec.Cmd
	if p, err := exec.LookPath("kustomize"); err == nil {
		cmdFor = func(dir string) *exec.Cmd { return exec.Command(p, "build", dir) }
	} else if p, err := exec.LookPath("kubectl"); err == nil {
		cmdFor = func(dir string) *exec.Cmd { return exec.Command(p, "kustomize", dir) }
	} else {
		t.Skip("neither kustomize nor kubectl is installed: the manifests were checked as files only")
	}
	root := repoRoot(t)
	for _, dir := range []string{baseDir, overlayDir} {
		cmd := cmdFor(filepath.Join(root, filepath.FromSlash(dir)))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("kustomize %s: %v\n%s", dir, err, stderr.String())
			continue
		}
		dec := yaml.NewDecoder(bytes.NewReader(out))
		names := map[string][]string{}
		var dep deployment
		for {
			var n yaml.Node
			if err := dec.Decode(&n); err != nil {
				break
			}
			var o k8sObject
			mustDecode(t, dir, &n, &o)
			names[o.Kind] = append(names[o.Kind], o.Metadata.Name)
			if o.Kind == "Deployment" && o.Metadata.Name == gatewayApp {
				mustDecode(t, dir, &n, &dep)
			}
		}
		for _, kind := range []string{"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "ConfigMap"} {
			if len(names[kind]) == 0 {
				t.Errorf("kustomize %s: no %s in the output", dir, kind)
			}
		}
		// Generated names (with their hash) are what the Deployment uses.
		for _, ef := range dep.Spec.Template.Spec.Containers[0].EnvFrom {
			if ef.ConfigMapRef != nil && !contains(names["ConfigMap"], ef.ConfigMapRef.Name) {
				t.Errorf("kustomize %s: envFrom ConfigMap %s is not in the output %v", dir, ef.ConfigMapRef.Name, names["ConfigMap"])
			}
		}
		if dir == overlayDir {
			for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
				if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && !contains(names["Secret"], e.ValueFrom.SecretKeyRef.Name) {
					t.Errorf("kustomize %s: %s references Secret %s, not in the output %v", dir, e.Name, e.ValueFrom.SecretKeyRef.Name, names["Secret"])
				}
			}
		}
		var kinds []string
		for k := range names {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		t.Logf("kustomize %s: %v", dir, kinds)
	}
}
