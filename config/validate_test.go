package config

import (
	"strings"
	"testing"
	"time"
)

// TestErrors goes through Load, from each source, and covers flag parsing,
// the YAML file and the value parsers as well as Validate's checks: each
// error is one line that starts with "config: ", names where the value came
// from and holds no secret.
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
