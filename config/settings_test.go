package config

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

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
