package config

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

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

func TestDefaults(t *testing.T) {
	c := mustLoad(t, nil, env{})
	checks := []struct {
		name      string
		got, want any
	}{
		{"Listen", c.Listen, ":8080"},
		{"AdminListen", c.AdminListen, "127.0.0.1:9090"},
		{"UpstreamURL", c.UpstreamURL, "https://api.runpod.io"},
		{"RedisURL", c.RedisURL, ""},
		{"RateLimitPerMinute", c.RateLimitPerMinute, 60},
		{"CompatMode", c.CompatMode, "strict"},
		{"ResetMode", c.ResetMode, "reject"},
		{"ConfigFile", c.ConfigFile, ""},
		{"KeyHashSecretGenerated", c.KeyHashSecretGenerated, true},
		{"KeyLimits", len(c.KeyLimits), 0},
		{"LimiterFail", c.LimiterFail, "open"},
		{"RequestTimeout", c.RequestTimeout, 30 * time.Second},
		{"DrainTimeout", c.DrainTimeout, 35 * time.Second},
		{"UpstreamHeaderTimeout", c.UpstreamHeaderTimeout, 10 * time.Second},
		{"UpstreamMaxConns", c.UpstreamMaxConns, 128},
		{"MaxInFlight", c.MaxInFlight, 512},
		{"BodyReadTimeout", c.BodyReadTimeout, 10 * time.Second},
		{"UsageRetention", c.UsageRetention, 365 * 24 * time.Hour},
		{"FactsTTL", c.FactsTTL, 365 * 24 * time.Hour},
		{"AdminToken", c.AdminToken, ""},
		{"Sunset", c.Sunset.IsZero(), true},
		{"SunsetLink", c.SunsetLink, ""},
		{"LogFormat", c.LogFormat, "json"},
		{"LogLevel", c.LogLevel, "info"},
		{"Demo", c.Demo, false},
		{"UpstreamRetries", c.UpstreamRetries, 2},
		{"BreakerFailures", c.BreakerFailures, 5},
		{"BreakerOpenFor", c.BreakerOpenFor, 10 * time.Second},
		{"UpstreamMaxBody", c.UpstreamMaxBody, int64(32 << 20)},
		{"UsageFlushInterval", c.UsageFlushInterval, 5 * time.Second},
		{"KeyNames", len(c.KeyNames), 0},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	if err := Default().Validate(); err == nil {
		t.Error("Default() without a secret should not validate (Load generates one)")
	}
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

func TestEveryFlagEnvAndFileKey(t *testing.T) {
	// Each setting through each of its sources lands in the right field.
	type tc struct {
		flag, env, key, value string
		check                 func(*Config) bool
	}
	sunset := time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC)
	cases := []tc{
		{"listen", "V1GW_LISTEN", "listen", "127.0.0.1:7000", func(c *Config) bool { return c.Listen == "127.0.0.1:7000" }},
		{"admin-listen", "V1GW_ADMIN_LISTEN", "admin_listen", "[::1]:7001", func(c *Config) bool { return c.AdminListen == "[::1]:7001" }},
		{"upstream", "V1GW_UPSTREAM_URL", "upstream_url", "http://sim:8081/", func(c *Config) bool { return c.UpstreamURL == "http://sim:8081" }},
		{"redis", "V1GW_REDIS_URL", "redis_url", "redis://redis:6379/0", func(c *Config) bool { return c.RedisURL == "redis://redis:6379/0" }},
		{"rate-limit", "V1GW_RATE_LIMIT_PER_MINUTE", "rate_limit_per_minute", "120", func(c *Config) bool { return c.RateLimitPerMinute == 120 }},
		{"compat-mode", "V1GW_COMPAT_MODE", "compat_mode", "Lenient", func(c *Config) bool { return c.CompatMode == "lenient" }},
		{"reset-mode", "V1GW_RESET_MODE", "reset_mode", "restart", func(c *Config) bool { return c.ResetMode == "restart" }},
		{"default-gpu-types", "V1GW_DEFAULT_GPU_TYPES", "default_gpu_types", " NVIDIA L4,NVIDIA A40 ,, NVIDIA L4", func(c *Config) bool {
			return reflect.DeepEqual(c.DefaultGPUTypes, []string{"NVIDIA L4", "NVIDIA A40"})
		}},
		{"limiter-fail", "V1GW_LIMITER_FAIL", "limiter_fail", "closed", func(c *Config) bool { return c.LimiterFail == "closed" }},
		// A longer request_timeout carries the default drain with it (request_timeout + 3s).
		{"request-timeout", "V1GW_REQUEST_TIMEOUT", "request_timeout", "1m30s", func(c *Config) bool { return c.RequestTimeout == 90*time.Second && c.DrainTimeout == 93*time.Second }},
		{"drain-timeout", "V1GW_DRAIN_TIMEOUT", "drain_timeout", "50", func(c *Config) bool { return c.DrainTimeout == 50*time.Second }},
		{"upstream-header-timeout", "V1GW_UPSTREAM_HEADER_TIMEOUT", "upstream_header_timeout", "4s", func(c *Config) bool { return c.UpstreamHeaderTimeout == 4*time.Second }},
		{"upstream-max-conns", "V1GW_UPSTREAM_MAX_CONNS", "upstream_max_conns", "16", func(c *Config) bool { return c.UpstreamMaxConns == 16 }},
		{"max-in-flight", "V1GW_MAX_IN_FLIGHT", "max_in_flight", "64", func(c *Config) bool { return c.MaxInFlight == 64 }},
		{"body-read-timeout", "V1GW_BODY_READ_TIMEOUT", "body_read_timeout", "3s", func(c *Config) bool { return c.BodyReadTimeout == 3*time.Second }},
		{"usage-retention", "V1GW_USAGE_RETENTION", "usage_retention", "2160h", func(c *Config) bool { return c.UsageRetention == 90*24*time.Hour }},
		{"facts-ttl", "V1GW_FACTS_TTL", "facts_ttl", "720h", func(c *Config) bool { return c.FactsTTL == 30*24*time.Hour }},
		{"sunset", "V1GW_SUNSET", "sunset", "2027-01-31", func(c *Config) bool { return c.Sunset.Equal(sunset) }},
		{"sunset", "V1GW_SUNSET", "sunset", "2027-01-31T01:00:00+01:00", func(c *Config) bool { return c.Sunset.Equal(sunset) && c.Sunset.Location() == time.UTC }},
		{"sunset-link", "V1GW_SUNSET_LINK", "sunset_link", "https://example.com/v1-retirement", func(c *Config) bool { return c.SunsetLink == "https://example.com/v1-retirement" }},
		{"log-format", "V1GW_LOG_FORMAT", "log_format", "console", func(c *Config) bool { return c.LogFormat == "console" }},
		{"log-level", "V1GW_LOG_LEVEL", "log_level", "debug", func(c *Config) bool { return c.LogLevel == "debug" }},
		{"demo", "V1GW_DEMO", "demo", "true", func(c *Config) bool { return c.Demo }},
		{"upstream-retries", "V1GW_UPSTREAM_RETRIES", "upstream_retries", "0", func(c *Config) bool { return c.UpstreamRetries == 0 }},
		{"breaker-failures", "V1GW_BREAKER_FAILURES", "breaker_failures", "3", func(c *Config) bool { return c.BreakerFailures == 3 }},
		{"breaker-open-for", "V1GW_BREAKER_OPEN_FOR", "breaker_open_for", "2s", func(c *Config) bool { return c.BreakerOpenFor == 2*time.Second }},
		{"usage-flush-interval", "V1GW_USAGE_FLUSH_INTERVAL", "usage_flush_interval", "1m", func(c *Config) bool { return c.UsageFlushInterval == time.Minute }},
		{"upstream-max-body", "V1GW_UPSTREAM_MAX_BODY", "upstream_max_body", "1048576", func(c *Config) bool { return c.UpstreamMaxBody == 1<<20 }},
	}
	for _, tt := range cases {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			if c := mustLoad(t, []string{"-" + tt.flag + "=" + tt.value}, env{}); !tt.check(c) {
				t.Errorf("flag -%s=%s not applied: %+v", tt.flag, tt.value, c.Redacted())
			}
			if c := mustLoad(t, nil, env{tt.env: tt.value}); !tt.check(c) {
				t.Errorf("env %s=%s not applied: %+v", tt.env, tt.value, c.Redacted())
			}
			f := writeFile(t, fmt.Sprintf("%s: %q\n", tt.key, tt.value))
			if c := mustLoad(t, []string{"-config", f}, env{}); !tt.check(c) {
				t.Errorf("file %s: %s not applied: %+v", tt.key, tt.value, c.Redacted())
			}
		})
	}
}

func TestYAMLTypes(t *testing.T) {
	// Unquoted YAML scalars (ints, bools, dates) are read as their text.
	f := writeFile(t, `
rate_limit_per_minute: 0
request_timeout: 45
drain_timeout: 2m
sunset: 2026-11-15
demo: yes
redis_url: ""
`)
	c := mustLoad(t, []string{"-config", f}, env{"V1GW_REDIS_URL": ""})
	if c.RateLimitPerMinute != 0 || c.RequestTimeout != 45*time.Second || c.DrainTimeout != 2*time.Minute ||
		!c.Sunset.Equal(time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)) || !c.Demo || c.RedisURL != "" {
		t.Errorf("got %+v", c.Redacted())
	}
	if c.ConfigFile != f {
		t.Errorf("ConfigFile = %q, want %q", c.ConfigFile, f)
	}

	// An empty file and a file of comments are fine.
	for _, content := range []string{"", "# nothing\n", "---\n"} {
		f := writeFile(t, content)
		if _, err := Load([]string{"-config", f}, env{}.get); err != nil {
			t.Errorf("file %q: %v", content, err)
		}
	}
}

func TestKeyLimits(t *testing.T) {
	f := writeFile(t, `
key_hash_secret: s3cr3t-value
key_limits:
  `+idA+`: 600
  `+idB+`: 0
`)
	c := mustLoad(t, []string{"-config", f}, env{})
	if len(c.KeyLimits) != 2 || c.KeyLimits[idA] != 600 || c.KeyLimits[idB] != 0 {
		t.Errorf("KeyLimits = %v", c.KeyLimits)
	}
	if r := c.Redacted()["key_limits"].(map[string]int); r[idA] != 600 {
		t.Errorf("Redacted key_limits = %v", r)
	}
}

func TestKeyNames(t *testing.T) {
	f := writeFile(t, `
key_hash_secret: s3cr3t-value
key_names:
  `+idA+`: "  CI bot (team infra) "
  `+idB+`: nightly export
`)
	c := mustLoad(t, []string{"-config", f}, env{})
	if len(c.KeyNames) != 2 || c.KeyNames[idA] != "CI bot (team infra)" || c.KeyNames[idB] != "nightly export" {
		t.Errorf("KeyNames = %q", c.KeyNames)
	}
	if r := c.Redacted()["key_names"].(map[string]string); r[idB] != "nightly export" {
		t.Errorf("Redacted key_names = %v", r)
	}
}

func TestMigratedKeysAndTheCockpitSettings(t *testing.T) {
	f := writeFile(t, `
key_hash_secret: s3cr3t-value
usage_history_days: 120
retire_quiet_days: 45
sunset_warning: true
migrated_keys:
  `+idA+`: 2027-01-15
  `+idB+`: "2027-02-01T12:00:00Z"
`)
	c := mustLoad(t, []string{"-config", f}, env{})
	if c.UsageHistoryDays != 120 || c.RetireQuietDays != 45 || !c.SunsetWarning {
		t.Errorf("history %d, quiet %d, warning %v", c.UsageHistoryDays, c.RetireQuietDays, c.SunsetWarning)
	}
	if !c.MigratedKeys[idA].Equal(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)) || !c.MigratedKeys[idB].Equal(time.Date(2027, 2, 1, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("MigratedKeys = %v", c.MigratedKeys)
	}
	if r := c.Redacted()["migrated_keys"].(map[string]string); r[idA] != "2027-01-15T00:00:00Z" {
		t.Errorf("Redacted migrated_keys = %v", r)
	}
	d := mustLoad(t, nil, env{})
	if d.UsageHistoryDays != 90 || d.RetireQuietDays != 30 || d.SunsetWarning || d.MigratedKeys != nil {
		t.Errorf("defaults: history %d, quiet %d, warning %v, migrated %v", d.UsageHistoryDays, d.RetireQuietDays, d.SunsetWarning, d.MigratedKeys)
	}
}

func TestErrors(t *testing.T) {
	const secret = "V3ry-S3cret-Hmac"
	tests := []struct {
		name string
		args []string
		env  env
		file string // YAML content; "-config <file>" is added when set
		want string // substring of the error
	}{
		// Flag parsing.
		{"unknown flag", []string{"-nope"}, nil, "", "config: flag provided but not defined: -nope"},
		{"positional argument", []string{"serve"}, nil, "", `config: unexpected argument "serve"`},
		{"flag without value", []string{"-listen"}, nil, "", "flag needs an argument: -listen"},

		// Addresses.
		{"listen no port", []string{"-listen", "localhost"}, nil, "", `config: -listen: "localhost" must be host:port`},
		{"listen bad port", nil, env{"V1GW_LISTEN": ":99999"}, "", `config: V1GW_LISTEN: ":99999" has an invalid port`},
		{"admin empty", []string{"-admin-listen="}, nil, "", `config: -admin-listen: "" must be host:port`},
		{"same listeners", []string{"-listen", ":7000", "-admin-listen", ":7000"}, nil, "", `config: -admin-listen: ":7000" must differ from listen`},

		// Upstream.
		{"upstream with /v2", []string{"-upstream", "https://api.runpod.io/v2"}, nil, "", `config: -upstream: "https://api.runpod.io/v2" must be given without the /v2 suffix`},
		{"upstream with spaces, echoed as given", []string{"-upstream", "not a url"}, nil, "", `config: -upstream: "not a url" must be an absolute http(s) URL`},
		{"upstream without a host, echoed as given", []string{"-upstream", "http://"}, nil, "", `config: -upstream: "http://" must be an absolute http(s) URL`},
		{"upstream with a space in the host", nil, env{"V1GW_UPSTREAM_URL": "http://api runpod.io"}, "", `config: V1GW_UPSTREAM_URL: "http://api runpod.io" is not a valid URL`},
		{"redis with spaces, echoed as given", []string{"-redis", "redis://redis host:6379"}, nil, "", `config: -redis: "redis://redis host:6379" is not a valid URL`},
		{"upstream with /v2/", nil, env{"V1GW_UPSTREAM_URL": "https://api.runpod.io/v2/"}, "", "V1GW_UPSTREAM_URL: \"https://api.runpod.io/v2/\" must be given without the /v2 suffix"},
		{"upstream path", nil, env{"V1GW_UPSTREAM_URL": "https://api.runpod.io/api"}, "", "without a path"},
		{"upstream query", []string{"-upstream", "https://api.runpod.io?x=1"}, nil, "", "must not have a query"},
		{"upstream fragment", []string{"-upstream", "https://api.runpod.io#x"}, nil, "", "must not have a fragment"},
		{"upstream relative", []string{"-upstream", "api.runpod.io"}, nil, "", `config: -upstream: "api.runpod.io" must be an absolute http(s) URL`},
		{"upstream ftp", []string{"-upstream", "ftp://api.runpod.io"}, nil, "", "must be an absolute http(s) URL"},
		{"upstream empty", []string{"-upstream="}, nil, "", "config: -upstream: \"\" must be an absolute http(s) URL"},
		{"upstream userinfo", []string{"-upstream", "https://u:" + secret + "@api.runpod.io"}, nil, "", "must not contain user information"},
		{"upstream bad port", []string{"-upstream", "https://api.runpod.io:0"}, nil, "", "has an invalid port"},

		// Redis.
		{"redis scheme", []string{"-redis", "http://redis:6379"}, nil, "", `config: -redis: "http://redis:6379" must use scheme redis, rediss, unix, redis-sentinel or rediss-sentinel`},
		{"redis no host", nil, env{"V1GW_REDIS_URL": "redis:///0"}, "", "V1GW_REDIS_URL: \"redis:///0\" needs a host"},
		{"redis unix no path", nil, env{"V1GW_REDIS_URL": "unix://"}, "", "needs a socket path"},
		{"redis bad scheme with password", nil, env{"V1GW_REDIS_URL": "tcp://user:" + secret + "@redis:6379"}, "", `"tcp://user:xxxxx@redis:6379" must use scheme`},
		{"redis unparsable with password", nil, env{"V1GW_REDIS_URL": "redis://user:" + secret + "@red is:bad"}, "", "value not shown"},
		{"redis password with slash", nil, env{"V1GW_REDIS_URL": "tcp://u:1234/" + secret + "@redis"}, "", "value not shown"},

		// Numbers.
		{"rate negative env", nil, env{"V1GW_RATE_LIMIT_PER_MINUTE": "-5"}, "", `config: V1GW_RATE_LIMIT_PER_MINUTE: "-5" must be >= 0`},
		{"rate negative flag", []string{"-rate-limit", "-1"}, nil, "", `config: -rate-limit: "-1" must be >= 0`},
		{"rate not int", []string{"-rate-limit", "ten"}, nil, "", `config: -rate-limit: "ten" is not an integer`},
		{"rate negative file", nil, nil, "rate_limit_per_minute: -3\n", `v1gateway.yaml: rate_limit_per_minute: "-3" must be >= 0`},

		// Enums.
		{"compat", []string{"-compat-mode", "loose"}, nil, "", `config: -compat-mode: "loose" must be one of strict, lenient`},
		{"reset", nil, env{"V1GW_RESET_MODE": "emulate"}, "", `config: V1GW_RESET_MODE: "emulate" must be one of reject, restart`},
		{"limiter fail", nil, nil, "limiter_fail: maybe\n", `v1gateway.yaml: limiter_fail: "maybe" must be one of open, closed`},
		{"log format", []string{"-log-format", "xml"}, nil, "", `config: -log-format: "xml" must be one of json, console`},
		{"log level", nil, env{"V1GW_LOG_LEVEL": "trace"}, "", `config: V1GW_LOG_LEVEL: "trace" must be one of debug, info, warn, error`},

		// Durations.
		{"request timeout zero", []string{"-request-timeout", "0s"}, nil, "", `config: -request-timeout: "0s" must be > 0`},
		{"request timeout junk", nil, env{"V1GW_REQUEST_TIMEOUT": "soon"}, "", `config: V1GW_REQUEST_TIMEOUT: "soon" is not a duration`},
		{"drain negative", nil, env{"V1GW_DRAIN_TIMEOUT": "-5"}, "", `config: V1GW_DRAIN_TIMEOUT: "-5s" must be > 0`},
		{"drain zero file", nil, nil, "drain_timeout: 0\n", `v1gateway.yaml: drain_timeout: "0s" must be > 0`},
		{"duration overflow", nil, env{"V1GW_DRAIN_TIMEOUT": "99999999999999"}, "", "too large"},

		// Sunset.
		{"sunset junk", []string{"-sunset", "tomorrow"}, nil, "", `config: -sunset: "tomorrow" must be an RFC 3339 timestamp`},
		{"sunset bad date", nil, env{"V1GW_SUNSET": "2026-13-01"}, "", "V1GW_SUNSET"},
		{"sunset link relative", []string{"-sunset-link", "/retirement"}, nil, "", `config: -sunset-link: "/retirement" must be an absolute http(s) URL`},
		{"sunset link header injection", nil, env{"V1GW_SUNSET_LINK": `https://x.example/a>; rel="evil"`}, "", "V1GW_SUNSET_LINK"},

		// Bool.
		{"demo junk", nil, env{"V1GW_DEMO": "sometimes"}, "", `config: V1GW_DEMO: "sometimes" is not a boolean`},
		{"demo flag junk", []string{"-demo=sometimes"}, nil, "", `config: -demo: "sometimes" is not a boolean`},

		// Key limits.
		{"key limit negative", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "key_limits:\n  " + idA + ": -1\n", `key_limits: key id "` + idA + `": "-1" must be >= 0`},
		{"key limit not int", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "key_limits:\n  " + idA + ": lots\n", `key_limits: key id "` + idA + `": "lots" is not an integer`},
		{"key limit empty id", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "key_limits:\n  \"\": 5\n", `v1gateway.yaml: line 2: key_limits: "" is not a key id`},
		{"key limit id that is not a key id", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "key_limits:\n  k_abc: 5\n", "v1gateway.yaml: line 2: key_limits: a key of 5 characters is not a key id (32 lowercase hex digits"},
		{"key limit id in upper case", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "key_limits:\n  " + strings.ToUpper(idA) + ": 5\n", "line 2: key_limits: a key of 32 characters is not a key id"},
		{"key limit id one digit short", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "key_limits:\n  " + idA[1:] + ": 5\n", "a key of 31 characters is not a key id"},
		{"key limits need a secret", nil, nil, "key_limits:\n  " + idA + ": 5\n", "key_limits: needs V1GW_KEY_HASH_SECRET"},
		{"key limits not a map", nil, nil, "key_limits: 5\n", "v1gateway.yaml: line 1: key_limits: must be a mapping {<key id>: <requests per minute>}, not a single value"},
		{"key limit a list", nil, nil, "key_limits:\n  " + idA + ": [5]\n", `v1gateway.yaml: line 2: key_limits: key id "` + idA + `": must be a single value, not a list`},

		// Resilience and usage.
		{"retries too many", []string{"-upstream-retries", "3"}, nil, "", `config: -upstream-retries: "3" must be between 0 and 2`},
		{"retries negative", nil, env{"V1GW_UPSTREAM_RETRIES": "-1"}, "", `config: V1GW_UPSTREAM_RETRIES: "-1" must be between 0 and 2`},
		{"breaker failures zero", nil, env{"V1GW_BREAKER_FAILURES": "0"}, "", `config: V1GW_BREAKER_FAILURES: "0" must be >= 1`},
		{"breaker open for zero", []string{"-breaker-open-for", "0"}, nil, "", `config: -breaker-open-for: "0s" must be > 0`},
		{"usage flush junk", nil, env{"V1GW_USAGE_FLUSH_INTERVAL": "often"}, "", `config: V1GW_USAGE_FLUSH_INTERVAL: "often" is not a duration`},
		{"usage flush zero", nil, nil, "usage_flush_interval: 0\n", `v1gateway.yaml: usage_flush_interval: "0s" must be > 0`},
		{"drain shorter than a request and its lookup", []string{"-drain-timeout", "25s"}, nil, "", `config: -drain-timeout: "25s" must be at least request_timeout + 3s = 33s`},
		{"header timeout beyond the request", nil, env{"V1GW_UPSTREAM_HEADER_TIMEOUT": "31s"}, "", `config: V1GW_UPSTREAM_HEADER_TIMEOUT: "31s" must be > 0 and at most request_timeout (30s)`},
		{"max conns zero", []string{"-upstream-max-conns", "0"}, nil, "", `config: -upstream-max-conns: "0" must be >= 1`},
		{"max in flight zero", nil, nil, "max_in_flight: 0\n", `v1gateway.yaml: max_in_flight: "0" must be >= 1`},
		{"body read timeout zero", []string{"-body-read-timeout", "0"}, nil, "", `config: -body-read-timeout: "0s" must be > 0`},
		{"facts ttl an hour", []string{"-facts-ttl", "1h"}, nil, "", `config: -facts-ttl: "1h0m0s" must be at least 24h`},
		{"upstream max body junk", nil, env{"V1GW_UPSTREAM_MAX_BODY": "32MiB"}, "", `config: V1GW_UPSTREAM_MAX_BODY: "32MiB" is not an integer`},
		{"upstream max body too small", []string{"-upstream-max-body", "1000"}, nil, "", `config: -upstream-max-body: "1000" must be between 65536 and 1073741824 bytes`},
		{"upstream max body too large", nil, nil, "upstream_max_body: 2147483648\n", `v1gateway.yaml: upstream_max_body: "2147483648" must be between 65536 and 1073741824 bytes`},
		{"key names need a secret", nil, nil, "key_names:\n  " + idA + ": CI\n", "key_names: needs V1GW_KEY_HASH_SECRET"},
		{"key name empty", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "key_names:\n  " + idA + ": \"\"\n", `key_names: key id "` + idA + `": the name must not be empty`},
		{"key name control", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "key_names:\n  " + idA + ": \"a\\x01b\"\n", `key id "` + idA + `": the name must not contain control characters`},
		{"key name too long", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "key_names:\n  " + idA + ": " + strings.Repeat("x", 201) + "\n", "longer than 200 bytes"},
		{"key names empty id", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "key_names:\n  \"\": CI\n", `v1gateway.yaml: line 2: key_names: "" is not a key id`},
		{"key names id that is an API key", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "key_names:\n  rpa_" + secret + ": CI\n", "v1gateway.yaml: line 2: key_names: a key of 20 characters is not a key id (32 lowercase hex digits; `v1gateway key-id` prints a key's id); it is not shown, in case it is an API key"},
		{"key names not a map", nil, nil, "key_names: [a]\n", "v1gateway.yaml: line 1: key_names: must be a mapping {<key id>: <name>}, not a list"},
		{"history days zero", []string{"-usage-history-days", "0"}, nil, "", `config: -usage-history-days: "0" must be between 1 and 366`},
		{"history days over a year", nil, env{"V1GW_USAGE_HISTORY_DAYS": "400"}, "", `config: V1GW_USAGE_HISTORY_DAYS: "400" must be between 1 and 366`},
		{"quiet days beyond the history", []string{"-retire-quiet-days", "100"}, nil, "", `config: -retire-quiet-days: "100" must be between 1 and usage_history_days (90)`},
		{"sunset warning not a bool", nil, nil, "sunset_warning: maybe\n", "v1gateway.yaml: sunset_warning: "},
		{"migrated keys need a secret", nil, nil, "migrated_keys:\n  " + idA + ": 2027-01-01\n", "migrated_keys: needs V1GW_KEY_HASH_SECRET"},
		{"migrated key id that is an API key", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "migrated_keys:\n  rpa_" + secret + ": 2027-01-01\n", "v1gateway.yaml: line 2: migrated_keys: a key of 20 characters is not a key id (32 lowercase hex digits; `v1gateway key-id` prints a key's id); it is not shown, in case it is an API key"},
		{"migrated key without a date", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "migrated_keys:\n  " + idA + ": \"\"\n", `migrated_keys: key id "` + idA + `": must be the time from which the key is refused`},
		{"migrated key bad date", nil, env{"V1GW_KEY_HASH_SECRET": secret}, "migrated_keys:\n  " + idA + ": next week\n", `migrated_keys: key id "` + idA + `": `},
		{"migrated keys not a map", nil, nil, "migrated_keys: [a]\n", "v1gateway.yaml: line 1: migrated_keys: must be a mapping {<key id>: <refused from: YYYY-MM-DD>}, not a list"},

		// The file itself.
		{"unknown yaml key", nil, nil, "listen: \":1\"\nbogus: 1\n", `v1gateway.yaml: line 2: unknown setting "bogus"`},
		{"yaml flag name instead of key", nil, nil, "rate-limit: 5\n", `unknown setting "rate-limit"`},
		{"yaml syntax", nil, nil, "listen: [\n", "v1gateway.yaml: "},
		{"yaml not a mapping", nil, nil, "- a\n- b\n", "must be a mapping of settings"},
		{"yaml duplicate key", nil, nil, "listen: \":1\"\nlisten: \":2\"\n", `already defined`},
		{"yaml list value", nil, nil, "listen: [1, 2]\n", "v1gateway.yaml: line 1: listen: must be a single value, not a list"},
		{"yaml mapping value", nil, nil, "rate_limit_per_minute:\n  a: 1\n", "v1gateway.yaml: line 2: rate_limit_per_minute: must be a single value, not a mapping"},
		{"missing file flag", []string{"-config", "/nonexistent/dir/gw.yaml"}, nil, "", "config: -config: open /nonexistent/dir/gw.yaml"},
		{"missing file env", nil, env{"V1GW_CONFIG": "/nonexistent/gw.yaml"}, "", "config: V1GW_CONFIG: open /nonexistent/gw.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if tt.file != "" {
				args = append([]string{"-config", writeFile(t, tt.file)}, args...)
			}
			e := tt.env
			if e == nil {
				e = env{}
			}
			c, err := Load(args, e.get)
			if err == nil {
				t.Fatalf("Load succeeded: %+v", c.Redacted())
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error %q\ndoes not contain %q", msg, tt.want)
			}
			if !strings.HasPrefix(msg, "config: ") {
				t.Errorf("error %q does not start with \"config: \"", msg)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q is not one line", msg)
			}
			if strings.Contains(msg, secret) {
				t.Errorf("error %q leaks the secret", msg)
			}
		})
	}
}

func TestValidateWithoutSources(t *testing.T) {
	// A Config built in code names settings by their YAML key.
	base := func() *Config {
		c := Default()
		c.KeyHashSecret = "x"
		return c
	}
	tests := []struct {
		name   string
		mutate func(*Config)
		want   string
	}{
		{"ok", func(*Config) {}, ""},
		{"both listeners on :0", func(c *Config) { c.Listen, c.AdminListen = "127.0.0.1:0", "127.0.0.1:0" }, ""},
		{"rate", func(c *Config) { c.RateLimitPerMinute = -2 }, `config: rate_limit_per_minute: "-2" must be >= 0`},
		{"compat", func(c *Config) { c.CompatMode = "" }, `config: compat_mode: "" must be one of strict, lenient`},
		{"default GPU types", func(c *Config) { c.DefaultGPUTypes = []string{"NVIDIA L4", "RTX 4090"} }, `config: default_gpu_types: "RTX 4090" is not a v1 GPU type id`},
		{"secret", func(c *Config) { c.KeyHashSecret = "" }, "config: key_hash_secret: must not be empty"},
		{"key limits", func(c *Config) { c.KeyLimits = map[string]int{idA: 1, idB: -1} }, `config: key_limits: key id "` + idB + `": "-1" must be >= 0`},
		{"key limits id", func(c *Config) { c.KeyLimits = map[string]int{"rpa_SECRET": 1} }, `config: key_limits: a key of 10 characters is not a key id`},
		{"key names id", func(c *Config) { c.KeyNames = map[string]string{idA + "0": "x"} }, `config: key_names: a key of 33 characters is not a key id`},
		{"request timeout", func(c *Config) { c.RequestTimeout = 0 }, `config: request_timeout: "0s" must be > 0`},
		{"drain timeout", func(c *Config) { c.DrainTimeout = -time.Second }, `config: drain_timeout: "-1s" must be > 0`},
		{"redis", func(c *Config) { c.RedisURL = "memcached://x" }, "config: redis_url:"},
		{"upstream", func(c *Config) { c.UpstreamURL = "https://api.runpod.io/v2" }, "config: upstream_url:"},
		{"log level", func(c *Config) { c.LogLevel = "INFO" }, `config: log_level: "INFO" must be one of`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base()
			tt.mutate(c)
			err := c.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tt.want != "" && err == nil:
				t.Fatalf("Validate succeeded, want %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Fatalf("error %q does not contain %q", err, tt.want)
			}
		})
	}

	c := base()
	c.UpstreamURL = "HTTP://Sim.Example:8081///"
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.UpstreamURL != "http://Sim.Example:8081" {
		t.Errorf("normalised upstream = %q", c.UpstreamURL)
	}
}

func TestRedisURLForms(t *testing.T) {
	for _, u := range []string{
		"redis://localhost:6379",
		"redis://:pass@localhost:6379/2",
		"rediss://user:pass@redis.example:6380/0?dial_timeout=3s",
		"redis://user:pass@node1:6379?addr=node2:6379&addr=node3:6379",
		"redis://sentinel1:26379?master_name=mymaster&addr=sentinel2:26379",
		"unix:///var/run/redis.sock?db=1",
		"unix://user:pass@/var/run/redis.sock",
	} {
		if _, err := Load([]string{"-redis", u}, env{}.get); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}

func TestRedacted(t *testing.T) {
	const secret = "Hmac-Secret-Value"
	const pw = "Redis-Pa55word"
	f := writeFile(t, "key_limits: {"+idA+": 5}\nsunset: 2026-12-01\nsunset_link: https://example.com/sunset\n")
	c := mustLoad(t, []string{"-config", f, "-redis", "rediss://app:" + pw + "@redis:6380/0?sentinel_password=" + pw + "&db=0"},
		env{"V1GW_KEY_HASH_SECRET": secret})
	r := c.Redacted()
	for _, s := range settings {
		if _, ok := r[s.key]; !ok {
			t.Errorf("Redacted lacks %q", s.key)
		}
	}
	for _, k := range []string{"config_file", "key_limits", "key_names", "key_hash_secret_generated"} {
		if _, ok := r[k]; !ok {
			t.Errorf("Redacted lacks %q", k)
		}
	}
	dump := fmt.Sprint(r)
	if strings.Contains(dump, secret) || strings.Contains(dump, pw) {
		t.Fatalf("Redacted leaks a secret: %s", dump)
	}
	if r["key_hash_secret"] != "[redacted]" {
		t.Errorf("key_hash_secret = %v", r["key_hash_secret"])
	}
	if got := r["redis_url"].(string); !strings.HasPrefix(got, "rediss://app:xxxxx@redis:6380/0?") {
		t.Errorf("redis_url = %q", got)
	}
	if r["sunset"] != "2026-12-01T00:00:00Z" || r["request_timeout"] != "30s" || r["rate_limit_per_minute"] != 60 {
		t.Errorf("Redacted = %v", r)
	}

	// A user-only Redis URL may hold a password in the user slot.
	c.RedisURL = "redis://" + pw + "@redis:6379"
	if got := c.Redacted()["redis_url"]; got != "redis://xxxxx@redis:6379" {
		t.Errorf("redis_url = %v", got)
	}
	c.RedisURL = "redis://u:" + pw + "@bad host"
	if got := fmt.Sprint(c.Redacted()["redis_url"]); strings.Contains(got, pw) {
		t.Errorf("redis_url = %v", got)
	}
	// The generated secret is redacted too.
	g := mustLoad(t, nil, env{})
	if strings.Contains(fmt.Sprint(g.Redacted()), g.KeyHashSecret) {
		t.Error("generated secret leaked")
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		if _, err := Load([]string{arg}, env{}.get); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("Load(%s) = %v, want flag.ErrHelp", arg, err)
		}
	}
	var b bytes.Buffer
	Usage(&b)
	out := b.String()
	for _, s := range settings {
		if s.flag != "" && !strings.Contains(out, "-"+s.flag) {
			t.Errorf("Usage lacks -%s", s.flag)
		}
		if !strings.Contains(out, s.env) || !strings.Contains(out, s.key) {
			t.Errorf("Usage lacks %s / %s", s.env, s.key)
		}
	}
	for _, want := range []string{"-config", "V1GW_CONFIG", "key_limits", `default ":8080"`, `default "https://api.runpod.io"`, `default "60"`} {
		if !strings.Contains(out, want) {
			t.Errorf("Usage lacks %q", want)
		}
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

func TestFileErrorNamesTheFile(t *testing.T) {
	f := writeFile(t, "listen: \":1\"\nbogus: 1\n")
	_, err := Load([]string{"-config", f}, env{}.get)
	want := fmt.Sprintf("config: %s: line 2: unknown setting \"bogus\" (known: listen,", f)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error = %v\nwant prefix %q", err, want)
	}
	f = writeFile(t, "key_hash_secret: x\nkey_limits: {"+idA+": }\n")
	_, err = Load([]string{"-config", f}, env{}.get)
	want = fmt.Sprintf(`config: %s: key_limits: key id "%s": "" is not an integer`, f, idA)
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant %q", err, want)
	}
}

func TestSentinelURLAccepted(t *testing.T) {
	for _, u := range []string{"redis-sentinel://s1:26379,s2:26379/mymaster", "rediss-sentinel://:pw@s1:26379/m?db=2"} {
		if _, err := Load([]string{"-redis", u}, func(string) string { return "" }); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	_, err := Load([]string{"-redis", "redis-sentinel://s1:26379"}, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "master name") {
		t.Errorf("sentinel URL without master name: %v", err)
	}
}

func TestSettingsListsEveryName(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Settings() {
		if s.Key == "" || seen[s.Key] {
			t.Errorf("setting %+v: empty or duplicate key", s)
		}
		seen[s.Key] = true
	}
	for _, k := range []string{"listen", "upstream_url", "redis_url", "rate_limit_per_minute", "compat_mode", "reset_mode", "key_hash_secret", "key_limits",
		"key_names", "default_gpu_types", "upstream_retries", "breaker_failures", "breaker_open_for", "upstream_max_body", "usage_flush_interval"} {
		if !seen[k] {
			t.Errorf("Settings() lacks %s", k)
		}
	}
}

func TestDefaultGPUTypesAreCheckedAgainstV1AtStartUp(t *testing.T) {
	_, err := Load(nil, env{"V1GW_DEFAULT_GPU_TYPES": "NVIDIA L4, RTX 9999"}.get)
	if err == nil || !strings.Contains(err.Error(), `config: V1GW_DEFAULT_GPU_TYPES: "RTX 9999" is not a v1 GPU type id`) {
		t.Fatalf("error %v", err)
	}
	c := mustLoad(t, []string{"-default-gpu-types", ""}, env{})
	if c.DefaultGPUTypes != nil {
		t.Errorf("empty setting gave %q, want nil (any v1 GPU type)", c.DefaultGPUTypes)
	}
}
