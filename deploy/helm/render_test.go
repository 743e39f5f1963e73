package helm

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"k8s.io/apimachinery/pkg/runtime"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/client-go/kubernetes/scheme"
	sigsyaml "sigs.k8s.io/yaml"
)

// Where the tests find things, relative to this directory.
const (
	chartDir  = "v1gateway"
	repoDir   = "../.."
	release   = "v1gateway" // the release name the guide uses: objects are named as in the kustomize base
	namespace = "gateway"
	// kubeVersion is the cluster version the tests render for: the oldest
	// the chart supports (Chart.yaml's kubeVersion).
	kubeVersion = "v1.30.0"
)

// loadChart loads the chart directory as `helm install ./v1gateway` does.
func loadChart(t *testing.T) *chart.Chart {
	t.Helper()
	c, err := loader.Load(chartDir)
	if err != nil {
		t.Fatalf("loading the chart: %v", err)
	}
	return c
}

// capabilities is a cluster of kubeVersion.
func capabilities(t *testing.T) *chartutil.Capabilities {
	t.Helper()
	kv, err := chartutil.ParseKubeVersion(kubeVersion)
	if err != nil {
		t.Fatal(err)
	}
	caps := chartutil.DefaultCapabilities.Copy()
	caps.KubeVersion = *kv
	return caps
}

// render renders the chart with the user values vals (nil: the defaults),
// as `helm install` does: coalescing with values.yaml, validating against
// values.schema.json, then the templates. NOTES.txt is left out.
func render(t *testing.T, vals map[string]any) (map[string]string, error) {
	t.Helper()
	c := loadChart(t)
	caps := capabilities(t)
	if ok := chartutil.IsCompatibleRange(c.Metadata.KubeVersion, caps.KubeVersion.String()); !ok {
		t.Fatalf("Chart.yaml's kubeVersion %q excludes %s, the version the tests render for", c.Metadata.KubeVersion, caps.KubeVersion)
	}
	if vals == nil {
		vals = map[string]any{}
	}
	top, err := chartutil.ToRenderValues(c, vals, chartutil.ReleaseOptions{Name: release, Namespace: namespace, IsInstall: true}, caps)
	if err != nil {
		return nil, err
	}
	out, err := engine.Render(c, top)
	if err != nil {
		return nil, err
	}
	for name := range out {
		if strings.HasSuffix(name, "NOTES.txt") {
			delete(out, name)
		}
	}
	return out, nil
}

// object is one rendered Kubernetes object.
type object struct {
	Kind, APIVersion, Name string
	file                   string
	raw                    []byte         // the document as rendered
	typed                  runtime.Object // the API type, nil for custom resources
	tree                   map[string]any // the document as plain data
}

// mustRender renders vals and returns every object, each decoded strictly
// (validate): a field the API type lacks, a value of the wrong type, a
// duplicate field or an invalid name fails the test.
func mustRender(t *testing.T, vals map[string]any) []object {
	t.Helper()
	files, err := render(t, vals)
	if err != nil {
		t.Fatalf("rendering the chart: %v", err)
	}
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var objs []object
	for _, name := range names {
		dec := yaml.NewDecoder(strings.NewReader(files[name]))
		for {
			var n yaml.Node
			err := dec.Decode(&n)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: not YAML: %v\n%s", name, err, files[name])
			}
			if len(n.Content) == 0 || (n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null") {
				continue
			}
			var buf bytes.Buffer
			enc := yaml.NewEncoder(&buf)
			if err := enc.Encode(&n); err != nil {
				t.Fatal(err)
			}
			objs = append(objs, decodeObject(t, name, buf.Bytes()))
		}
	}
	if len(objs) == 0 {
		t.Fatal("the chart rendered no object")
	}
	return objs
}

// strictDecoder decodes the Kubernetes API types the client library knows,
// refusing unknown and duplicate fields.
var strictDecoder = kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme.Scheme, scheme.Scheme,
	kjson.SerializerOptions{Yaml: true, Strict: true})

func decodeObject(t *testing.T, file string, raw []byte) object {
	t.Helper()
	o := object{file: file, raw: raw}
	if err := sigsyaml.Unmarshal(raw, &o.tree); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	o.APIVersion, _ = o.tree["apiVersion"].(string)
	o.Kind, _ = o.tree["kind"].(string)
	if md, ok := o.tree["metadata"].(map[string]any); ok {
		o.Name, _ = md["name"].(string)
	}
	where := fmt.Sprintf("%s: %s %q", file, o.Kind, o.Name)
	if o.APIVersion == "" || o.Kind == "" || o.Name == "" {
		t.Fatalf("%s: a document without apiVersion, kind or metadata.name:\n%s", file, raw)
	}
	typed, _, err := strictDecoder.Decode(raw, nil, nil)
	switch {
	case runtime.IsNotRegisteredError(err):
		checkCustomResource(t, where, o)
	case err != nil:
		t.Errorf("%s does not match the Kubernetes API type of %s: %v\n%s", where, o.APIVersion, err, raw)
	default:
		o.typed = typed
		validateObject(t, where, typed)
	}
	return o
}

// customResources are the Prometheus Operator's kinds the chart renders,
// with the fields of their CRDs the chart uses (monitoring.coreos.com/v1):
// strict decoding refuses any other field.
type (
	crMeta struct {
		Name        string            `json:"name"`
		Namespace   string            `json:"namespace"`
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations,omitempty"`
	}
	serviceMonitor struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   crMeta `json:"metadata"`
		Spec       struct {
			Selector struct {
				MatchLabels map[string]string `json:"matchLabels"`
			} `json:"selector"`
			Endpoints []struct {
				Port     string `json:"port"`
				Path     string `json:"path"`
				Interval string `json:"interval"`
			} `json:"endpoints"`
		} `json:"spec"`
	}
	prometheusRule struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   crMeta `json:"metadata"`
		Spec       struct {
			Groups []ruleGroup `json:"groups"`
		} `json:"spec"`
	}
	ruleGroup struct {
		Name     string `json:"name"`
		Interval string `json:"interval,omitempty"`
		Rules    []struct {
			Alert       string            `json:"alert,omitempty"`
			Record      string            `json:"record,omitempty"`
			Expr        string            `json:"expr"`
			For         string            `json:"for,omitempty"`
			Labels      map[string]string `json:"labels,omitempty"`
			Annotations map[string]string `json:"annotations,omitempty"`
		} `json:"rules"`
	}
)

func checkCustomResource(t *testing.T, where string, o object) {
	t.Helper()
	var meta crMeta
	switch o.APIVersion + " " + o.Kind {
	case "monitoring.coreos.com/v1 ServiceMonitor":
		var sm serviceMonitor
		if err := sigsyaml.UnmarshalStrict(o.raw, &sm); err != nil {
			t.Errorf("%s does not match the ServiceMonitor CRD: %v", where, err)
		}
		if len(sm.Spec.Endpoints) == 0 || len(sm.Spec.Selector.MatchLabels) == 0 {
			t.Errorf("%s: no endpoint or no selector", where)
		}
		meta = sm.Metadata
	case "monitoring.coreos.com/v1 PrometheusRule":
		var pr prometheusRule
		if err := sigsyaml.UnmarshalStrict(o.raw, &pr); err != nil {
			t.Errorf("%s does not match the PrometheusRule CRD: %v", where, err)
		}
		for _, g := range pr.Spec.Groups {
			for _, r := range g.Rules {
				if (r.Alert == "") == (r.Record == "") || r.Expr == "" {
					t.Errorf("%s: group %s: a rule needs expr and exactly one of alert and record", where, g.Name)
				}
			}
		}
		meta = pr.Metadata
	default:
		t.Errorf("%s: %s is neither a Kubernetes API type nor a custom resource the tests know", where, o.APIVersion)
		return
	}
	checkMeta(t, where, meta.Name, meta.Labels)
}

// mustFile reads a file relative to this directory.
func mustFile(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// find returns the objects of kind (and name, when not empty).
func find(objs []object, kind, name string) []object {
	var out []object
	for _, o := range objs {
		if o.Kind == kind && (name == "" || o.Name == name) {
			out = append(out, o)
		}
	}
	return out
}

// one returns the only object of kind and name, typed as T.
func one[T runtime.Object](t *testing.T, objs []object, kind, name string) T {
	t.Helper()
	found := find(objs, kind, name)
	if len(found) != 1 {
		t.Fatalf("want exactly one %s %q, found %d", kind, name, len(found))
	}
	v, ok := found[0].typed.(T)
	if !ok {
		t.Fatalf("%s %q decoded as %T", kind, name, found[0].typed)
	}
	return v
}
