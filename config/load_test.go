package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The helpers up to mustLoad serve every test file of the package.

// Two well-formed key ids (32 lowercase hex digits).
const (
	idA = "3f2a9c0d5e6b7a8f9c0d1e2f3a4b5c6d"
	idB = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
)

// env is a fake environment.
type env map[string]string

func (e env) get(k string) string { return e[k] }

// writeFile writes a YAML file into a fresh temp dir and returns its path.
func writeFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "v1gateway.yaml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustLoad(t *testing.T, args []string, e env) *Config {
	t.Helper()
	c, err := Load(args, e.get)
	if err != nil {
		t.Fatalf("Load(%q): %v", args, err)
	}
	return c
}

func TestKeyHashSecretGeneration(t *testing.T) {
	a := mustLoad(t, nil, env{})
	b := mustLoad(t, nil, env{})
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(a.KeyHashSecret) {
		t.Errorf("generated secret %q is not 32 hex-encoded bytes", a.KeyHashSecret)
	}
	if a.KeyHashSecret == b.KeyHashSecret {
		t.Error("two loads generated the same secret")
	}
	if !a.KeyHashSecretGenerated {
		t.Error("KeyHashSecretGenerated = false for a generated secret")
	}

	c := mustLoad(t, nil, env{"V1GW_KEY_HASH_SECRET": "from-env"})
	if c.KeyHashSecret != "from-env" || c.KeyHashSecretGenerated {
		t.Errorf("env secret: got %q generated=%v", c.KeyHashSecret, c.KeyHashSecretGenerated)
	}
	f := writeFile(t, "key_hash_secret: from-file\n")
	c = mustLoad(t, []string{"-config", f}, env{})
	if c.KeyHashSecret != "from-file" || c.KeyHashSecretGenerated {
		t.Errorf("file secret: got %q generated=%v", c.KeyHashSecret, c.KeyHashSecretGenerated)
	}
	c = mustLoad(t, []string{"-config", f}, env{"V1GW_KEY_HASH_SECRET": "from-env"})
	if c.KeyHashSecret != "from-env" {
		t.Errorf("env should beat file: got %q", c.KeyHashSecret)
	}
	f = writeFile(t, "key_hash_secret: \"\"\n")
	c = mustLoad(t, []string{"-config", f}, env{})
	if !c.KeyHashSecretGenerated || c.KeyHashSecret == "" {
		t.Error("an empty secret in the file should be replaced by a generated one")
	}

	// There is no flag for the secret.
	if _, err := Load([]string{"-key-hash-secret", "x"}, env{}.get); err == nil {
		t.Error("-key-hash-secret was accepted; secrets must not be flags")
	}
}

func TestPrecedence(t *testing.T) {
	file := writeFile(t, `
listen: "127.0.0.1:1001"
rate_limit_per_minute: 10
compat_mode: lenient
request_timeout: 11
upstream_url: http://file.example
log_level: warn
demo: true
`)
	type want struct {
		listen   string
		rate     int
		compat   string
		timeout  time.Duration
		upstream string
		level    string
		demo     bool
	}
	fileWant := want{"127.0.0.1:1001", 10, "lenient", 11 * time.Second, "http://file.example", "warn", true}
	envAll := env{
		"V1GW_LISTEN":                "127.0.0.1:2002",
		"V1GW_RATE_LIMIT_PER_MINUTE": "20",
		"V1GW_COMPAT_MODE":           "strict",
		"V1GW_REQUEST_TIMEOUT":       "22s",
		"V1GW_UPSTREAM_URL":          "http://env.example/",
		"V1GW_LOG_LEVEL":             "error",
		"V1GW_DEMO":                  "false",
	}
	envWant := want{"127.0.0.1:2002", 20, "strict", 22 * time.Second, "http://env.example", "error", false}
	flagsAll := []string{"-listen", "127.0.0.1:3003", "-rate-limit", "0", "-compat-mode", "lenient",
		"-request-timeout", "33s", "-upstream", "https://flag.example:8443", "-log-level", "debug", "-demo"}
	flagWant := want{"127.0.0.1:3003", 0, "lenient", 33 * time.Second, "https://flag.example:8443", "debug", true}
	defWant := want{":8080", 60, "strict", 30 * time.Second, "https://api.runpod.io", "info", false}

	tests := []struct {
		name string
		args []string
		env  env
		want want
	}{
		{"default", nil, env{}, defWant},
		{"file beats default", []string{"-config", file}, env{}, fileWant},
		{"file via V1GW_CONFIG", nil, env{"V1GW_CONFIG": file}, fileWant},
		{"env beats default", nil, envAll, envWant},
		{"env beats file", []string{"-config", file}, envAll, envWant},
		{"flag beats default", flagsAll, env{}, flagWant},
		{"flag beats env and file", append([]string{"-config", file}, flagsAll...), envAll, flagWant},
		{"empty env counts as unset", []string{"-config", file}, env{"V1GW_LISTEN": "", "V1GW_DEMO": ""}, fileWant},
		{"explicit -demo=false beats env", []string{"-demo=false"}, env{"V1GW_DEMO": "1"}, defWant},
		{"explicit -config= beats V1GW_CONFIG", []string{"-config="}, env{"V1GW_CONFIG": file}, defWant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustLoad(t, tt.args, tt.env)
			got := want{c.Listen, c.RateLimitPerMinute, c.CompatMode, c.RequestTimeout, c.UpstreamURL, c.LogLevel, c.Demo}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}

	// Mixed sources: each setting independently takes its highest source.
	c := mustLoad(t, []string{"-config", file, "-rate-limit", "5"}, env{"V1GW_COMPAT_MODE": "strict"})
	if c.RateLimitPerMinute != 5 || c.CompatMode != "strict" || c.Listen != "127.0.0.1:1001" || c.AdminListen != "127.0.0.1:9090" {
		t.Errorf("mixed: got rate=%d compat=%s listen=%s admin=%s", c.RateLimitPerMinute, c.CompatMode, c.Listen, c.AdminListen)
	}
	// A bad value in a lower source does not matter when a higher one wins.
	c = mustLoad(t, []string{"-rate-limit", "7"}, env{"V1GW_RATE_LIMIT_PER_MINUTE": "junk"})
	if c.RateLimitPerMinute != 7 {
		t.Errorf("rate = %d, want 7", c.RateLimitPerMinute)
	}
}

func FuzzLoadEnv(f *testing.F) {
	f.Add("V1GW_RATE_LIMIT_PER_MINUTE", "-5")
	f.Add("V1GW_REDIS_URL", "redis://u:p@h:1")
	f.Add("V1GW_SUNSET", "2026-11-15")
	f.Fuzz(func(t *testing.T, k, v string) {
		e := env{k: v, "V1GW_KEY_HASH_SECRET": "fuzz-secret"}
		_, err := Load(nil, e.get)
		if err != nil && (strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "fuzz-secret")) {
			t.Fatalf("bad error %q", err)
		}
	})
}
