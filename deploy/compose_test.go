package deploy

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/limiter"
)

const composeFile = "deploy/compose/compose.yaml"

type composeService struct {
	Image      string `yaml:"image"`
	PullPolicy string `yaml:"pull_policy"`
	MemLimit   string `yaml:"mem_limit"`
	Build      *struct {
		Context    string `yaml:"context"`
		Dockerfile string `yaml:"dockerfile"`
		Target     string `yaml:"target"`
	} `yaml:"build"`
	Command     any            `yaml:"command"`
	Environment any            `yaml:"environment"` // a map or a list of KEY=VALUE
	Ports       []string       `yaml:"ports"`
	Volumes     []string       `yaml:"volumes"`
	DependsOn   map[string]any `yaml:"depends_on"`
	Healthcheck *struct {
		Test    []string `yaml:"test"`
		Disable bool     `yaml:"disable"`
	} `yaml:"healthcheck"`
	StopGracePeriod string   `yaml:"stop_grace_period"`
	ReadOnly        bool     `yaml:"read_only"`
	CapDrop         []string `yaml:"cap_drop"`
}

type composeProject struct {
	Name     string                    `yaml:"name"`
	Services map[string]composeService `yaml:"services"`
}

func loadCompose(t *testing.T) composeProject {
	t.Helper()
	docs, err := yamlDocs(filepath.Join(repoRoot(t), filepath.FromSlash(composeFile)))
	if err != nil || len(docs) != 1 {
		t.Fatalf("%s: %v (%d documents)", composeFile, err, len(docs))
	}
	var p composeProject
	mustDecode(t, composeFile, docs[0], &p)
	return p
}

// environment returns a service's environment in either Compose form.
func (s composeService) environment(t *testing.T, name string) map[string]string {
	t.Helper()
	out := map[string]string{}
	switch env := s.Environment.(type) {
	case nil:
	case map[string]any:
		for k, v := range env {
			if v == nil {
				t.Errorf("%s: %s has no value (it would be taken from the host)", name, k)
				continue
			}
			out[k] = fmt.Sprint(v)
		}
	case []any:
		for _, e := range env {
			k, v, ok := strings.Cut(fmt.Sprint(e), "=")
			if !ok {
				t.Errorf("%s: environment entry %q has no value (it would be taken from the host)", name, e)
			}
			out[k] = v
		}
	default:
		t.Fatalf("%s: environment is a %T", name, env)
	}
	return out
}

func (s composeService) isGateway() bool {
	return (s.Build != nil && s.Build.Target == "v1gateway") || strings.HasPrefix(s.Image, "v1gateway")
}

// hostPort splits a URL's host into host and port (default by scheme).
func hostPort(t *testing.T, raw string) (string, string) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443", "redis": "6379", "rediss": "6379"}[u.Scheme]
	}
	return u.Hostname(), port
}

// TestCompose: two gateway replicas that share one Redis and one key-hash
// secret, in front of the v2 simulator, behind one entry point.
func TestCompose(t *testing.T) {
	p := loadCompose(t)
	var gateways []string
	for name, s := range p.Services {
		if s.isGateway() {
			gateways = append(gateways, name)
		}
	}
	sort.Strings(gateways)
	if len(gateways) < 2 {
		t.Fatalf("%s: gateway services %v, want at least two replicas", composeFile, gateways)
	}
	for _, want := range []string{"redis", "v2sim", "lb"} {
		if _, ok := p.Services[want]; !ok {
			t.Errorf("%s: no %s service", composeFile, want)
		}
	}

	var redisURL, secret string
	for i, name := range gateways {
		s := p.Services[name]
		env := s.environment(t, name)
		cfg, err := loadConfigValue(nil, env)
		if err != nil {
			t.Errorf("%s: the settings of %s do not load: %v", composeFile, name, err)
			continue
		}
		// Shared: the same Redis and the same key-hash secret, set
		// explicitly (a generated secret differs per replica).
		if cfg.RedisURL == "" || cfg.KeyHashSecretGenerated {
			t.Errorf("%s: set V1GW_REDIS_URL and V1GW_KEY_HASH_SECRET (got redis %q, generated secret %t)", name, cfg.RedisURL, cfg.KeyHashSecretGenerated)
		}
		if i == 0 {
			redisURL, secret = cfg.RedisURL, cfg.KeyHashSecret
		} else {
			if cfg.RedisURL != redisURL {
				t.Errorf("%s uses Redis %q, %s uses %q: replicas must share one Redis", name, cfg.RedisURL, gateways[0], redisURL)
			}
			if cfg.KeyHashSecret != secret {
				t.Errorf("%s and %s have different V1GW_KEY_HASH_SECRET: their key ids, limits and usage would not match", name, gateways[0])
			}
		}
		if err := limiter.CheckRedisURL(cfg.RedisURL); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		rh, _ := hostPort(t, cfg.RedisURL)
		if _, ok := p.Services[rh]; !ok {
			t.Errorf("%s: Redis host %q is not a service of the project", name, rh)
		}
		uh, up := hostPort(t, cfg.UpstreamURL)
		if uh != "v2sim" {
			t.Errorf("%s: upstream %s, want the v2sim service", name, cfg.UpstreamURL)
		} else if listen := commandFlag(p.Services["v2sim"], "-listen", ":8081"); portOf(t, listen) != portOf(t, net.JoinHostPort("", up)) {
			t.Errorf("%s: upstream port %s, but v2sim listens on %s", name, up, listen)
		}

		// Health: the binary's own probe, which works without a shell.
		if s.Healthcheck == nil || !strings.Contains(strings.Join(s.Healthcheck.Test, " "), "-healthcheck") {
			t.Errorf("%s: healthcheck must run the binary's -healthcheck", name)
		}
		for _, dep := range []string{rh, uh} {
			if _, ok := s.DependsOn[dep]; !ok {
				t.Errorf("%s: does not depend_on %s", name, dep)
			}
		}
		if c := condition(s.DependsOn[rh]); c != "service_healthy" {
			t.Errorf("%s: depends_on %s with condition %q, want service_healthy", name, rh, c)
		}
		// Drain: Compose's SIGKILL comes after stop_grace_period (default
		// 10 s).
		grace := 10 * time.Second
		if s.StopGracePeriod != "" {
			if grace, err = time.ParseDuration(s.StopGracePeriod); err != nil {
				t.Errorf("%s: stop_grace_period: %v", name, err)
			}
		}
		if grace <= cfg.DrainTimeout {
			t.Errorf("%s: stop_grace_period %s must exceed the drain timeout %s", name, grace, cfg.DrainTimeout)
		}
		if !s.ReadOnly || !contains(s.CapDrop, "ALL") {
			t.Errorf("%s: want read_only: true and cap_drop: [ALL], as in Kubernetes", name)
		}
		checkBuild(t, name, s, "v1gateway")
	}
	if s, ok := p.Services["v2sim"]; ok {
		checkBuild(t, "v2sim", s, "v2sim")
	}
	if s, ok := p.Services["redis"]; ok && (s.Healthcheck == nil || len(s.Healthcheck.Test) == 0) {
		t.Error("redis: no healthcheck (the gateways wait for service_healthy)")
	}

	// The entry point: depends on every replica being healthy and sends
	// traffic to every one of them.
	lb := p.Services["lb"]
	if lb.Healthcheck == nil || len(lb.Healthcheck.Test) == 0 {
		t.Error("lb: no healthcheck")
	}
	if len(lb.Ports) == 0 {
		t.Error("lb: publishes no port")
	}
	for _, g := range gateways {
		if condition(lb.DependsOn[g]) != "service_healthy" {
			t.Errorf("lb: does not depend on %s being healthy", g)
		}
	}
	conf := ""
	for _, v := range lb.Volumes {
		src, _, _ := strings.Cut(v, ":")
		if strings.HasSuffix(src, ".conf") {
			conf = readFile(t, filepath.ToSlash(filepath.Join("deploy/compose", src)))
		}
	}
	if conf == "" {
		t.Fatal("lb: no nginx configuration file mounted")
	}
	listen := ":8080"
	if cfg, err := loadConfigValue(nil, p.Services[gateways[0]].environment(t, gateways[0])); err == nil {
		listen = cfg.Listen
	}
	servers := regexp.MustCompile(`(?m)^\s*server\s+([^\s;{]+)[^;{]*;`).FindAllStringSubmatch(conf, -1)
	got := map[string]bool{}
	for _, m := range servers {
		got[m[1]] = true
	}
	for _, g := range gateways {
		want := net.JoinHostPort(g, fmt.Sprint(portOf(t, listen)))
		if !got[want] {
			t.Errorf("nginx.conf: no upstream server %s (found %v)", want, got)
		}
	}
	if !strings.Contains(conf, "proxy_pass http://") {
		t.Error("nginx.conf: no proxy_pass")
	}
}

// condition returns the condition of a long-form depends_on entry.
func condition(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	c, _ := m["condition"].(string)
	return c
}

// commandFlag returns the value of -name in a service's command (list form
// or a string), or def.
func commandFlag(s composeService, name, def string) string {
	var args []string
	switch c := s.Command.(type) {
	case string:
		args = strings.Fields(c)
	case []any:
		for _, a := range c {
			args = append(args, fmt.Sprint(a))
		}
	}
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return def
}

// checkBuild: a service built from the repository's Dockerfile names a
// stage that exists.
func checkBuild(t *testing.T, name string, s composeService, target string) {
	t.Helper()
	if s.Build == nil {
		t.Errorf("%s: no build section (Compose must build the image from this repository)", name)
		return
	}
	ctx := filepath.Join(repoRoot(t), "deploy", "compose", filepath.FromSlash(s.Build.Context))
	if filepath.Clean(ctx) != repoRoot(t) {
		t.Errorf("%s: build context %s is not the repository root", name, s.Build.Context)
	}
	df := s.Build.Dockerfile
	if df == "" {
		df = "Dockerfile"
	}
	stages := parseDockerfile(t, readFile(t, df)).stages
	found := false
	for _, st := range stages {
		found = found || st.name == s.Build.Target
	}
	if s.Build.Target != target || !found {
		t.Errorf("%s: build target %q, want the Dockerfile's stage %q", name, s.Build.Target, target)
	}
}
