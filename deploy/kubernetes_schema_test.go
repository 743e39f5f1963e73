package deploy

import (
	"fmt"
	"net"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The Kubernetes manifests as the tests read them: the subset of the
// Kubernetes and kustomize schemas they check, and loading them.

const (
	k8sDir     = "deploy/kubernetes"
	baseDir    = k8sDir + "/base"
	overlayDir = k8sDir + "/overlays/redis"
	gatewayApp = "v1gateway" // the gateway Deployment's name
)

// ---- the subset of the Kubernetes and kustomize schemas the tests read ----

type objectMeta struct {
	Name        string            `yaml:"name"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

type k8sObject struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   objectMeta `yaml:"metadata"`
	file       string
	node       *yaml.Node
}

type labelSelector struct {
	MatchLabels map[string]string `yaml:"matchLabels"`
}

type deployment struct {
	Spec struct {
		Replicas *int `yaml:"replicas"`
		Strategy struct {
			Type          string `yaml:"type"`
			RollingUpdate *struct {
				MaxSurge       any `yaml:"maxSurge"`
				MaxUnavailable any `yaml:"maxUnavailable"`
			} `yaml:"rollingUpdate"`
		} `yaml:"strategy"`
		Selector labelSelector `yaml:"selector"`
		Template struct {
			Metadata objectMeta `yaml:"metadata"`
			Spec     podSpec    `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type seccomp struct {
	Type string `yaml:"type"`
}

type podSpec struct {
	TerminationGracePeriodSeconds *int  `yaml:"terminationGracePeriodSeconds"`
	AutomountServiceAccountToken  *bool `yaml:"automountServiceAccountToken"`
	SecurityContext               struct {
		RunAsNonRoot   *bool    `yaml:"runAsNonRoot"`
		RunAsUser      *int     `yaml:"runAsUser"`
		SeccompProfile *seccomp `yaml:"seccompProfile"`
	} `yaml:"securityContext"`
	Containers     []container `yaml:"containers"`
	InitContainers []container `yaml:"initContainers"`
	Volumes        []struct {
		Name      string `yaml:"name"`
		ConfigMap *struct {
			Name string `yaml:"name"`
		} `yaml:"configMap"`
		Secret *struct {
			SecretName string `yaml:"secretName"`
		} `yaml:"secret"`
	} `yaml:"volumes"`
}

type probe struct {
	HTTPGet *struct {
		Path string `yaml:"path"`
		Port any    `yaml:"port"`
	} `yaml:"httpGet"`
	Exec *struct {
		Command []string `yaml:"command"`
	} `yaml:"exec"`
	PeriodSeconds    int `yaml:"periodSeconds"`
	TimeoutSeconds   int `yaml:"timeoutSeconds"`
	FailureThreshold int `yaml:"failureThreshold"`
}

type container struct {
	Name  string   `yaml:"name"`
	Image string   `yaml:"image"`
	Args  []string `yaml:"args"`
	Ports []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	Env []struct {
		Name      string  `yaml:"name"`
		Value     *string `yaml:"value"`
		ValueFrom *struct {
			SecretKeyRef *struct {
				Name string `yaml:"name"`
				Key  string `yaml:"key"`
			} `yaml:"secretKeyRef"`
			ConfigMapKeyRef *struct {
				Name string `yaml:"name"`
				Key  string `yaml:"key"`
			} `yaml:"configMapKeyRef"`
			ResourceFieldRef *struct {
				Resource string `yaml:"resource"`
			} `yaml:"resourceFieldRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	EnvFrom []struct {
		ConfigMapRef *struct {
			Name string `yaml:"name"`
		} `yaml:"configMapRef"`
		SecretRef *struct {
			Name string `yaml:"name"`
		} `yaml:"secretRef"`
	} `yaml:"envFrom"`
	Resources struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	StartupProbe   *probe `yaml:"startupProbe"`
	LivenessProbe  *probe `yaml:"livenessProbe"`
	ReadinessProbe *probe `yaml:"readinessProbe"`
	Lifecycle      struct {
		PreStop *struct {
			Sleep *struct {
				Seconds int `yaml:"seconds"`
			} `yaml:"sleep"`
			Exec *struct {
				Command []string `yaml:"command"`
			} `yaml:"exec"`
		} `yaml:"preStop"`
	} `yaml:"lifecycle"`
	SecurityContext struct {
		AllowPrivilegeEscalation *bool    `yaml:"allowPrivilegeEscalation"`
		Privileged               *bool    `yaml:"privileged"`
		ReadOnlyRootFilesystem   *bool    `yaml:"readOnlyRootFilesystem"`
		RunAsNonRoot             *bool    `yaml:"runAsNonRoot"`
		RunAsUser                *int     `yaml:"runAsUser"`
		SeccompProfile           *seccomp `yaml:"seccompProfile"`
		Capabilities             struct {
			Add  []string `yaml:"add"`
			Drop []string `yaml:"drop"`
		} `yaml:"capabilities"`
	} `yaml:"securityContext"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
		ReadOnly  bool   `yaml:"readOnly"`
	} `yaml:"volumeMounts"`
}

type service struct {
	Spec struct {
		Selector map[string]string `yaml:"selector"`
		Ports    []struct {
			Name       string `yaml:"name"`
			Port       int    `yaml:"port"`
			TargetPort any    `yaml:"targetPort"`
		} `yaml:"ports"`
	} `yaml:"spec"`
}

type hpa struct {
	Spec struct {
		ScaleTargetRef struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string `yaml:"kind"`
			Name       string `yaml:"name"`
		} `yaml:"scaleTargetRef"`
		MinReplicas *int `yaml:"minReplicas"`
		MaxReplicas int  `yaml:"maxReplicas"`
		Metrics     []struct {
			Type     string `yaml:"type"`
			Resource *struct {
				Name   string `yaml:"name"`
				Target struct {
					Type               string `yaml:"type"`
					AverageUtilization int    `yaml:"averageUtilization"`
				} `yaml:"target"`
			} `yaml:"resource"`
		} `yaml:"metrics"`
	} `yaml:"spec"`
}

type pdb struct {
	Spec struct {
		MinAvailable   any           `yaml:"minAvailable"`
		MaxUnavailable any           `yaml:"maxUnavailable"`
		Selector       labelSelector `yaml:"selector"`
	} `yaml:"spec"`
}

type networkPolicy struct {
	Spec struct {
		PodSelector labelSelector `yaml:"podSelector"`
		PolicyTypes []string      `yaml:"policyTypes"`
		Ingress     []struct {
			Ports []struct {
				Port any `yaml:"port"`
			} `yaml:"ports"`
		} `yaml:"ingress"`
	} `yaml:"spec"`
}

type generator struct {
	Name     string   `yaml:"name"`
	Behavior string   `yaml:"behavior"`
	Envs     []string `yaml:"envs"`
	Files    []string `yaml:"files"`
	Literals []string `yaml:"literals"`
}

type kustomization struct {
	APIVersion         string      `yaml:"apiVersion"`
	Kind               string      `yaml:"kind"`
	Resources          []string    `yaml:"resources"`
	Components         []string    `yaml:"components"`
	ConfigMapGenerator []generator `yaml:"configMapGenerator"`
	SecretGenerator    []generator `yaml:"secretGenerator"`
	Patches            []struct {
		Path string `yaml:"path"`
	} `yaml:"patches"`
	PatchesStrategicMerge []string `yaml:"patchesStrategicMerge"`
	Images                []struct {
		Name    string `yaml:"name"`
		NewName string `yaml:"newName"`
		NewTag  string `yaml:"newTag"`
	} `yaml:"images"`
}

// ---- loading ----

// loadKustomization reads dir/kustomization.yaml (root-relative dir).
func loadKustomization(t *testing.T, dir string) kustomization {
	t.Helper()
	docs, err := yamlDocs(filepath.Join(repoRoot(t), filepath.FromSlash(dir), "kustomization.yaml"))
	if err != nil || len(docs) != 1 {
		t.Fatalf("%s/kustomization.yaml: %v (%d documents)", dir, err, len(docs))
	}
	var k kustomization
	mustDecode(t, dir+"/kustomization.yaml", docs[0], &k)
	return k
}

// objects loads the Kubernetes objects of every resource file a
// kustomization lists, following directories (bases, components).
func objects(t *testing.T, dir string) []k8sObject {
	t.Helper()
	k := loadKustomization(t, dir)
	var out []k8sObject
	for _, r := range append(append([]string{}, k.Resources...), k.Components...) {
		p := path.Join(dir, r)
		if st, err := os.Stat(filepath.Join(repoRoot(t), filepath.FromSlash(p))); err == nil && st.IsDir() {
			out = append(out, objects(t, path.Clean(p))...)
			continue
		}
		docs, err := yamlDocs(filepath.Join(repoRoot(t), filepath.FromSlash(p)))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, d := range docs {
			var o k8sObject
			mustDecode(t, p, d, &o)
			if o.APIVersion == "" || o.Kind == "" || o.Metadata.Name == "" {
				t.Errorf("%s: a document without apiVersion, kind or metadata.name", p)
			}
			o.file, o.node = p, d
			out = append(out, o)
		}
	}
	return out
}

// find returns the objects of kind (and name, when not empty).
func find(objs []k8sObject, kind, name string) []k8sObject {
	var out []k8sObject
	for _, o := range objs {
		if o.Kind == kind && (name == "" || o.Metadata.Name == name) {
			out = append(out, o)
		}
	}
	return out
}

func one(t *testing.T, objs []k8sObject, kind, name string) k8sObject {
	t.Helper()
	found := find(objs, kind, name)
	if len(found) != 1 {
		t.Fatalf("want exactly one %s %q, found %d", kind, name, len(found))
	}
	return found[0]
}

func gatewayDeployment(t *testing.T, objs []k8sObject) (deployment, container) {
	t.Helper()
	o := one(t, objs, "Deployment", gatewayApp)
	var d deployment
	mustDecode(t, o.file, o.node, &d)
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name == gatewayApp {
			return d, c
		}
	}
	t.Fatalf("%s: no container named %s", o.file, gatewayApp)
	return d, container{}
}

// containerPort resolves a probe's or Service's port (number or name)
// against the container's ports.
func containerPort(c container, port any) (int, error) {
	switch p := port.(type) {
	case int:
		return p, nil
	case string:
		if n, err := strconv.Atoi(p); err == nil {
			return n, nil
		}
		for _, cp := range c.Ports {
			if cp.Name == p {
				return cp.ContainerPort, nil
			}
		}
		return 0, fmt.Errorf("container %s has no port named %q", c.Name, p)
	}
	return 0, fmt.Errorf("port %v (%T) is neither a number nor a name", port, port)
}

func portOf(t *testing.T, addr string) int {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("address %q: %v", addr, err)
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatalf("address %q: %v", addr, err)
	}
	return n
}

func intOrUnset(p *int) string {
	if p == nil {
		return "unset"
	}
	return strconv.Itoa(*p)
}

func isZero(v any) bool {
	switch x := v.(type) {
	case int:
		return x == 0
	case string:
		return x == "0" || x == "0%"
	}
	return false
}

func subset(sel, labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// secretLiterals returns the literals of the named secretGenerator of k.
func secretLiterals(k kustomization, name string) map[string]string {
	for _, g := range k.SecretGenerator {
		if g.Name != name {
			continue
		}
		out := map[string]string{}
		for _, l := range g.Literals {
			key, v, _ := strings.Cut(l, "=")
			out[key] = v
		}
		return out
	}
	return nil
}

// gatewayEnv is the environment the gateway container would see: the
// generated ConfigMaps it loads with envFrom, its literal env values, and
// for each secretKeyRef the value from secrets (or a stand-in when the
// secret is not generated here).
func gatewayEnv(t *testing.T, dir string, c container, secrets map[string]string) map[string]string {
	t.Helper()
	gens := configMapGenerators(t, dir)
	env := map[string]string{}
	for _, ef := range c.EnvFrom {
		if ef.SecretRef != nil {
			t.Errorf("%s: envFrom a whole Secret (%s): reference each key instead, so that the manifest says which settings are secret", dir, ef.SecretRef.Name)
		}
		if ef.ConfigMapRef == nil {
			continue
		}
		found := false
		for _, g := range gens {
			if g.Name != ef.ConfigMapRef.Name {
				continue
			}
			found = true
			if len(g.Envs) == 0 {
				t.Errorf("%s: configMapGenerator %s loaded with envFrom has no envs file", g.dir, g.Name)
			}
			for _, f := range g.Envs {
				for key, v := range parseEnvFile(t, path.Join(g.dir, f)) {
					env[key] = v
				}
			}
		}
		if !found {
			t.Errorf("%s: envFrom ConfigMap %q is not generated by the kustomization", dir, ef.ConfigMapRef.Name)
		}
	}
	standIn := map[string]string{
		"V1GW_KEY_HASH_SECRET": "0123456789abcdef0123456789abcdef",
		"V1GW_REDIS_URL":       "rediss://:password@redis.example.internal:6380/0",
	}
	for _, e := range c.Env {
		switch {
		case e.Value != nil:
			env[e.Name] = *e.Value
		case e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil:
			if v, ok := secrets[e.ValueFrom.SecretKeyRef.Key]; ok {
				env[e.Name] = v
			} else {
				env[e.Name] = standIn[e.Name]
			}
		}
	}
	return env
}

// dirGenerator is a configMapGenerator and the directory of its
// kustomization.
type dirGenerator struct {
	generator
	dir string
}

// configMapGenerators lists the configMapGenerators of the kustomization
// in dir and of every directory it builds on.
func configMapGenerators(t *testing.T, dir string) []dirGenerator {
	t.Helper()
	k := loadKustomization(t, dir)
	var out []dirGenerator
	for _, g := range k.ConfigMapGenerator {
		out = append(out, dirGenerator{g, dir})
	}
	for _, r := range append(append([]string{}, k.Resources...), k.Components...) {
		p := path.Clean(path.Join(dir, r))
		if st, err := os.Stat(filepath.Join(repoRoot(t), filepath.FromSlash(p))); err == nil && st.IsDir() {
			out = append(out, configMapGenerators(t, p)...)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
