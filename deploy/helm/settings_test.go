package helm

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/v1gateway/v1gateway/config"
)

const (
	valuesFile = chartDir + "/values.yaml"
	schemaFile = chartDir + "/values.schema.json"
)

// isSecret says whether a setting comes from the existing Secret
// (secrets.keys) rather than from config: the settings that deliberately
// have no flag, so that they never show in a process list.
func isSecret(s config.Setting) bool { return s.Flag == "" && s.Env != "" }

// chartValues is values.yaml as plain data.
func chartValues(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	if err := yaml.Unmarshal(mustFile(t, valuesFile), &v); err != nil {
		t.Fatalf("%s: %v", "deploy/helm/"+valuesFile, err)
	}
	return v
}

// table returns m[key] as a mapping, failing when it is not one.
func table(t *testing.T, where string, m map[string]any, key string) map[string]any {
	t.Helper()
	v, ok := m[key].(map[string]any)
	if !ok {
		t.Fatalf("%s: %s is not a mapping", where, key)
	}
	return v
}

// TestEverySettingHasAValuesKey: each setting of the gateway's
// configuration table (config.Settings(), the table `v1gateway -h` prints
// and the README and the operator guide show) has exactly one values key
// named as its YAML key, with a property in values.schema.json — secret
// settings under secrets.keys, every other under config — and the chart has
// no key that is not a setting. A setting added to the config package
// without its values key fails here, saying what to add where.
func TestEverySettingHasAValuesKey(t *testing.T) {
	values := chartValues(t)
	cfg := table(t, valuesFile, values, "config")
	secretKeys := table(t, valuesFile, table(t, valuesFile, values, "secrets"), "keys")

	var schema map[string]any
	if err := json.Unmarshal(mustFile(t, schemaFile), &schema); err != nil {
		t.Fatalf("%s: %v", "deploy/helm/"+schemaFile, err)
	}
	props := table(t, schemaFile, schema, "properties")
	cfgSchema := table(t, schemaFile, table(t, schemaFile, props, "config"), "properties")
	secretSchema := table(t, schemaFile, table(t, schemaFile, table(t, schemaFile, table(t, schemaFile, props, "secrets"), "properties"), "keys"), "properties")

	known := map[string]bool{}
	for _, s := range config.Settings() {
		known[s.Key] = true
		names := fmt.Sprintf("flag %q, env %q, default %q", "-"+s.Flag, s.Env, s.Default)
		if s.Flag == "" {
			names = fmt.Sprintf("no flag, env %q, default %q", s.Env, s.Default)
		}
		if s.Env != "" && s.Env != "V1GW_"+strings.ToUpper(s.Key) {
			t.Errorf("setting %s: its variable %s is not V1GW_ + its YAML key in capitals, the name the chart's templates give it (templates/configmap.yaml, deployment.yaml): name the variable %s, or teach the templates the exception",
				s.Key, s.Env, "V1GW_"+strings.ToUpper(s.Key))
		}
		if s.Env == "" && s.Flag == "" {
			// File only: a mapping, which the chart writes into the YAML file.
			if v, ok := cfg[s.Key]; ok && v != nil {
				if _, isMap := v.(map[string]any); !isMap {
					t.Errorf("%s: config.%s is a file-only setting: its default must be a mapping ({}) or null", "deploy/helm/"+valuesFile, s.Key)
				}
			}
		}
		if isSecret(s) {
			if _, ok := secretKeys[s.Key]; !ok {
				t.Errorf("%s: the secret setting %s (%s) has no values key: add `%s: \"\"` under secrets: keys: (the key of secrets.existingSecret that holds it; templates/deployment.yaml turns every entry into a secretKeyRef)", "deploy/helm/"+valuesFile, s.Key, names, s.Key)
			}
			if _, ok := secretSchema[s.Key]; !ok {
				t.Errorf("%s: the secret setting %s has no property: add \"%s\" under properties.secrets.properties.keys.properties, as key_hash_secret's", "deploy/helm/"+schemaFile, s.Key, s.Key)
			}
			if _, ok := cfg[s.Key]; ok {
				t.Errorf("%s: the secret setting %s must not be under config (it would land in a ConfigMap): it comes from secrets.keys.%s", "deploy/helm/"+valuesFile, s.Key, s.Key)
			}
			continue
		}
		if _, ok := cfg[s.Key]; !ok {
			comment := ""
			if s.Default != "" {
				comment = " # " + s.Default
			}
			t.Errorf("%s: setting %s (%s) has no values key: add `  %s: null%s` under config: (null keeps the gateway's default; the templates need no change)", "deploy/helm/"+valuesFile, s.Key, names, s.Key, comment)
		}
		if _, ok := cfgSchema[s.Key]; !ok {
			t.Errorf("%s: setting %s has no property: add \"%s\" under properties.config.properties, with its type (and \"null\"), range or enum as the config package validates it", "deploy/helm/"+schemaFile, s.Key, s.Key)
		}
	}
	for k := range cfg {
		if !known[k] {
			t.Errorf("%s: config.%s is not a setting of the gateway (config.Settings())", "deploy/helm/"+valuesFile, k)
		}
	}
	for k := range cfgSchema {
		if !known[k] {
			t.Errorf("%s: properties.config.properties.%s is not a setting of the gateway (config.Settings())", "deploy/helm/"+schemaFile, k)
		}
	}
	for k := range secretKeys {
		if !known[k] {
			t.Errorf("%s: secrets.keys.%s is not a setting of the gateway (config.Settings())", "deploy/helm/"+valuesFile, k)
		}
	}
}

// gatewayView is what the gateway container of a rendered chart reads: its
// environment (the ConfigMap it loads with envFrom, then its env, secrets
// replaced by stand-ins naming their Secret key) and its arguments, with
// -config pointing at a copy of the rendered configuration file.
func gatewayView(t *testing.T, objs []object) (args []string, env map[string]string) {
	t.Helper()
	d := one[*appsv1.Deployment](t, objs, "Deployment", release)
	var c *corev1.Container
	for i := range d.Spec.Template.Spec.Containers {
		if d.Spec.Template.Spec.Containers[i].Name == "v1gateway" {
			c = &d.Spec.Template.Spec.Containers[i]
		}
	}
	if c == nil {
		t.Fatal("the Deployment has no container v1gateway")
	}
	env = map[string]string{}
	for _, ef := range c.EnvFrom {
		if ef.ConfigMapRef == nil {
			t.Fatalf("envFrom %+v: only ConfigMaps, so that the manifest names each secret it uses", ef)
		}
		for k, v := range one[*corev1.ConfigMap](t, objs, "ConfigMap", ef.ConfigMapRef.Name).Data {
			env[k] = v
		}
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil:
			env[e.Name] = secretStandIn(e.Name)
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		default:
			t.Errorf("env %s: a valueFrom the test does not know", e.Name)
		}
	}
	files := map[string]string{} // mount path of each file → content
	for _, m := range c.VolumeMounts {
		for _, v := range d.Spec.Template.Spec.Volumes {
			if v.Name == m.Name && v.ConfigMap != nil {
				for k, content := range one[*corev1.ConfigMap](t, objs, "ConfigMap", v.ConfigMap.Name).Data {
					files[m.MountPath+"/"+k] = content
				}
			}
		}
	}
	dir := t.TempDir()
	for _, a := range c.Args {
		if p, ok := strings.CutPrefix(a, "-config="); ok {
			content, found := files[p]
			if !found {
				t.Fatalf("-config=%s: no mounted ConfigMap holds that file", p)
			}
			local := filepath.Join(dir, "config.yaml")
			if err := os.WriteFile(local, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			a = "-config=" + local
		}
		args = append(args, a)
	}
	return args, env
}

// secretStandIn is a value the gateway accepts for a setting read from the
// Secret.
func secretStandIn(env string) string {
	if env == "V1GW_REDIS_URL" {
		return "rediss://:password@redis.example.internal:6380/0"
	}
	return "stand-in-" + strings.ToLower(env)
}

// loadAsGateway runs the config package's Load on what the container reads.
func loadAsGateway(t *testing.T, objs []object) *config.Config {
	t.Helper()
	args, env := gatewayView(t, objs)
	c, err := config.Load(args, func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("the gateway would not start with this configuration: %v\nargs %q\nenv %v", err, args, env)
	}
	return c
}

// redactedWithoutFile is c.Redacted() without the configuration file's path
// (a temporary directory).
func redactedWithoutFile(c *config.Config) map[string]any {
	r := c.Redacted()
	delete(r, "config_file")
	return r
}

// TestTheRenderedConfigurationIsWhatTheGatewayReads: the gateway starts
// with the configuration the chart renders — the defaults and the full set
// — and, for the full set, reads exactly the settings that the values name,
// as it would read them from its own YAML file; every setting differs from
// its default there, so none is lost on the way (ConfigMap, Secret,
// configuration file).
func TestTheRenderedConfigurationIsWhatTheGatewayReads(t *testing.T) {
	loadAsGateway(t, mustRender(t, nil))

	vals := fullValues()
	got := redactedWithoutFile(loadAsGateway(t, mustRender(t, vals)))

	// The same settings written as the gateway's own YAML file (lists as
	// the comma-separated text the file takes), the secrets as variables.
	file := map[string]any{}
	for k, v := range vals["config"].(map[string]any) {
		if l, ok := v.([]any); ok {
			parts := make([]string, len(l))
			for i := range l {
				parts[i] = fmt.Sprint(l[i])
			}
			v = strings.Join(parts, ",")
		}
		if v != "" {
			file[k] = v
		}
	}
	file["redis_url"] = "redis://v1gateway-redis:6379/0" // redis.enabled
	b, err := yaml.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for k, secretKey := range vals["secrets"].(map[string]any)["keys"].(map[string]any) {
		if secretKey != "" {
			env["V1GW_"+strings.ToUpper(k)] = secretStandIn("V1GW_" + strings.ToUpper(k))
		}
	}
	ref, err := config.Load([]string{"-config=" + path}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("the full values as the gateway's own file: %v\n%s", err, b)
	}
	want := redactedWithoutFile(ref)
	if !reflect.DeepEqual(got, want) {
		for k := range want {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%s: the chart gives the gateway %v, the values mean %v", k, got[k], want[k])
			}
		}
	}

	def, err := config.Load(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	defaults := redactedWithoutFile(def)
	for _, s := range config.Settings() {
		key := s.Key
		if key == "key_hash_secret" {
			key = "key_hash_secret_generated" // the redacted secret reads the same either way
		}
		if reflect.DeepEqual(got[key], defaults[key]) {
			t.Errorf("setting %s: the full values leave it at its default %v; give it another value in fullValues, so that the test sees it reach the gateway", s.Key, got[key])
		}
	}
}
