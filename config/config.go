// Package config loads the gateway's one Config from flags, V1GW_*
// environment variables and an optional YAML file, and validates it.
//
// Precedence, per setting: a flag passed on the command line beats its
// environment variable, which beats the YAML file, which beats the default.
// An environment variable set to the empty string counts as unset.
//
// Every error is one line that names the setting and where its value came
// from, for example
//
//	config: V1GW_RATE_LIMIT_PER_MINUTE: "-5" must be >= 0
//	config: -compat-mode: "loose" must be one of strict, lenient
//	config: /etc/v1gateway.yaml: rate_limit_per_minute: "abc" is not an integer
//
// Secrets (the key-hash secret, a Redis password) never appear in errors or
// in Redacted.
package config

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/v1gateway/v1gateway/translate"
)

// Config is every setting of the gateway.
type Config struct {
	// Listen is the address of the v1 API listener (-listen, V1GW_LISTEN, listen).
	Listen string
	// AdminListen is the address of /healthz, /readyz, /metrics and /usage
	// (-admin-listen, V1GW_ADMIN_LISTEN, admin_listen).
	AdminListen string
	// UpstreamURL is the v2 base URL, scheme://host[:port] without /v2
	// (-upstream, V1GW_UPSTREAM_URL, upstream_url). Validate trims a
	// trailing "/".
	UpstreamURL string
	// RedisURL selects the shared Redis limiter; "" means in-memory
	// (-redis, V1GW_REDIS_URL, redis_url).
	RedisURL string
	// RateLimitPerMinute is the default per-key limit; 0 disables rate
	// limiting (-rate-limit, V1GW_RATE_LIMIT_PER_MINUTE, rate_limit_per_minute).
	RateLimitPerMinute int
	// CompatMode is "strict" or "lenient" (P1, docs/design.md)
	// (-compat-mode, V1GW_COMPAT_MODE, compat_mode).
	CompatMode string
	// ResetMode is "reject" or "restart" (P6, docs/design.md)
	// (-reset-mode, V1GW_RESET_MODE, reset_mode).
	ResetMode string
	// DefaultGPUTypes are the v1 GPU type ids the gateway may choose for a
	// GPU pod created without gpuTypeIds, most preferred first; nil: any v1
	// GPU type, cheapest first among the most available (P3, docs/design.md)
	// (-default-gpu-types, V1GW_DEFAULT_GPU_TYPES, default_gpu_types; comma-separated).
	DefaultGPUTypes []string
	// ConfigFile is the YAML file the settings were read from, "" for none
	// (-config, V1GW_CONFIG).
	ConfigFile string
	// KeyHashSecret is the HMAC secret API keys are hashed with into key ids
	// (V1GW_KEY_HASH_SECRET, key_hash_secret; deliberately no flag). When
	// unset, Load generates one (hex of 32 random bytes) and sets
	// KeyHashSecretGenerated.
	KeyHashSecret          string
	KeyHashSecretGenerated bool
	// KeyLimits overrides RateLimitPerMinute per key id; 0 = unlimited
	// (YAML key_limits only).
	KeyLimits map[string]int
	// LimiterFail is what happens when the limiter store is down: "open"
	// (allow) or "closed" (reject) (-limiter-fail, V1GW_LIMITER_FAIL, limiter_fail).
	LimiterFail string
	// LimiterTimeout bounds one Redis round trip of the rate limiter,
	// measured on Redis's answer, not on time queued in the gateway
	// (-limiter-timeout, V1GW_LIMITER_TIMEOUT, limiter_timeout).
	LimiterTimeout time.Duration
	// RequestTimeout bounds one upstream request
	// (-request-timeout, V1GW_REQUEST_TIMEOUT, request_timeout).
	RequestTimeout time.Duration
	// DrainTimeout bounds the graceful shutdown
	// (-drain-timeout, V1GW_DRAIN_TIMEOUT, drain_timeout).
	DrainTimeout time.Duration
	// Sunset, when not zero, is announced in the Sunset header (RFC 8594)
	// (-sunset, V1GW_SUNSET, sunset).
	Sunset time.Time
	// SunsetLink, when set, is sent as Link: <url>; rel="sunset"
	// (-sunset-link, V1GW_SUNSET_LINK, sunset_link).
	SunsetLink string
	// LogFormat is "json" or "console" (-log-format, V1GW_LOG_FORMAT, log_format).
	LogFormat string
	// LogLevel is debug, info, warn or error (-log-level, V1GW_LOG_LEVEL, log_level).
	LogLevel string
	// Demo runs the gateway in front of an in-process v2 simulator
	// (-demo, V1GW_DEMO, demo).
	Demo bool
	// UpstreamRetries is how many times a failed idempotent GET is retried
	// (0-2) (-upstream-retries, V1GW_UPSTREAM_RETRIES, upstream_retries).
	UpstreamRetries int
	// BreakerFailures consecutive upstream failures (5xx, timeouts,
	// connection errors) open the circuit breaker
	// (-breaker-failures, V1GW_BREAKER_FAILURES, breaker_failures).
	BreakerFailures int
	// BreakerOpenFor is how long the open breaker answers 503 before it
	// lets a probe through (-breaker-open-for, V1GW_BREAKER_OPEN_FOR,
	// breaker_open_for).
	BreakerOpenFor time.Duration
	// UpstreamMaxBody bounds, in bytes, how much of one v2 answer a
	// translated request reads; a longer answer is a 502 (a streamed
	// GET /v1/pods whose status was already sent breaks off instead) and is
	// never buffered beyond it (-upstream-max-body, V1GW_UPSTREAM_MAX_BODY,
	// upstream_max_body). The /v2 pass-through streams and is not bounded.
	UpstreamMaxBody int64
	// UsageFlushInterval is how often the usage counts are written to the
	// store (-usage-flush-interval, V1GW_USAGE_FLUSH_INTERVAL,
	// usage_flush_interval).
	UsageFlushInterval time.Duration
	// KeyNames labels key ids in the /usage report (YAML key_names only).
	KeyNames map[string]string
	// UpstreamHeaderTimeout bounds the wait for v2's response headers, well
	// below RequestTimeout so that a hung upstream is noticed (and counted
	// by the breaker) long before the request deadline
	// (-upstream-header-timeout, V1GW_UPSTREAM_HEADER_TIMEOUT, upstream_header_timeout).
	UpstreamHeaderTimeout time.Duration
	// UpstreamMaxConns caps the connections to the v2 host; requests past it
	// wait for a free connection within their deadline
	// (-upstream-max-conns, V1GW_UPSTREAM_MAX_CONNS, upstream_max_conns).
	UpstreamMaxConns int
	// MaxInFlight caps the public requests being served at once; past it a
	// request is answered 503 with Retry-After at once (load shedding)
	// (-max-in-flight, V1GW_MAX_IN_FLIGHT, max_in_flight).
	MaxInFlight int
	// BodyReadTimeout bounds the time to receive a request body
	// (-body-read-timeout, V1GW_BODY_READ_TIMEOUT, body_read_timeout).
	BodyReadTimeout time.Duration
	// UsageRetention is how long a key's /usage counts live in Redis after
	// its last call (-usage-retention, V1GW_USAGE_RETENTION, usage_retention).
	UsageRetention time.Duration
	// FactsTTL is how long a fact of the fact store (P8) lives after its
	// last write (-facts-ttl, V1GW_FACTS_TTL, facts_ttl).
	FactsTTL time.Duration
	// AdminToken, when set, is the bearer token /usage requires
	// (V1GW_ADMIN_TOKEN, admin_token; deliberately no flag: a secret).
	AdminToken string
	// UsageHistoryDays is how many UTC days of daily counts /usage keeps
	// per key id and operation (-usage-history-days,
	// V1GW_USAGE_HISTORY_DAYS, usage_history_days).
	UsageHistoryDays int
	// RetireQuietDays is the "ready to retire" rule of the /usage page: no
	// v1 and no pass-through call for that many days (-retire-quiet-days,
	// V1GW_RETIRE_QUIET_DAYS, retire_quiet_days).
	RetireQuietDays int
	// SunsetWarning adds a human Warning header naming the sunset date to
	// v1 answers when Sunset is set (-sunset-warning, V1GW_SUNSET_WARNING,
	// sunset_warning).
	SunsetWarning bool
	// MigratedKeys are key ids whose team has moved to v2, with the time
	// from which their v1 calls are refused with 410 (YAML migrated_keys
	// only: {<key id>: <RFC 3339 time or YYYY-MM-DD>}).
	MigratedKeys map[string]time.Time

	// origin maps a setting's key to where its value came from ("-listen",
	// "V1GW_LISTEN", "<file>: listen"), for error messages.
	origin map[string]string
}

// Defaults.
const (
	DefaultListen                = ":8080"
	DefaultAdminListen           = "127.0.0.1:9090"
	DefaultUpstreamURL           = "https://api.runpod.io"
	DefaultRateLimitPerMinute    = 60
	DefaultRequestTimeout        = 30 * time.Second
	DefaultDrainTimeout          = 35 * time.Second
	DefaultLimiterTimeout        = 50 * time.Millisecond
	DefaultUpstreamRetries       = 2
	MaxUpstreamRetries           = 2
	DefaultBreakerFailures       = 5
	DefaultBreakerOpenFor        = 10 * time.Second
	DefaultUsageFlushInterval    = 5 * time.Second
	DefaultUpstreamMaxBody       = 32 << 20
	MinUpstreamMaxBody           = 64 << 10
	MaxUpstreamMaxBody           = 1 << 30
	DefaultUpstreamHeaderTimeout = 10 * time.Second
	DefaultUpstreamMaxConns      = 128
	DefaultMaxInFlight           = 512
	DefaultBodyReadTimeout       = 10 * time.Second
	DefaultUsageRetention        = 365 * 24 * time.Hour
	DefaultFactsTTL              = 365 * 24 * time.Hour
	DefaultUsageHistoryDays      = 90
	DefaultRetireQuietDays       = 30
	MaxUsageHistoryDays          = 366
	// LookupGrace is how long a create whose v2 reply was lost may go on
	// looking for what it created after the request deadline (it equals
	// translate.LostReplyGrace; a proxy test keeps them equal). The drain
	// must cover RequestTimeout + LookupGrace, or a SIGTERM could cut off a
	// create that v2 completes.
	LookupGrace = 3 * time.Second
	// MaxKeyNameLen bounds a key_names label.
	MaxKeyNameLen = 200
)

// Allowed values of the enumerated settings.
var (
	CompatModes  = []string{"strict", "lenient"}
	ResetModes   = []string{"reject", "restart"}
	LimiterFails = []string{"open", "closed"}
	LogFormats   = []string{"json", "console"}
	LogLevels    = []string{"debug", "info", "warn", "error"}
)

// Default returns a Config holding every default. Its KeyHashSecret is
// empty: Load generates one.
func Default() *Config {
	return &Config{
		Listen:             DefaultListen,
		AdminListen:        DefaultAdminListen,
		UpstreamURL:        DefaultUpstreamURL,
		RateLimitPerMinute: DefaultRateLimitPerMinute,
		CompatMode:         "strict",
		ResetMode:          "reject",
		LimiterFail:        "open",
		LimiterTimeout:     DefaultLimiterTimeout,
		RequestTimeout:     DefaultRequestTimeout,
		DrainTimeout:       DefaultDrainTimeout,
		LogFormat:          "json",
		LogLevel:           "info",
		UpstreamRetries:    DefaultUpstreamRetries,
		BreakerFailures:    DefaultBreakerFailures,
		UpstreamMaxBody:    DefaultUpstreamMaxBody,
		BreakerOpenFor:     DefaultBreakerOpenFor,
		UsageFlushInterval: DefaultUsageFlushInterval,

		UpstreamHeaderTimeout: DefaultUpstreamHeaderTimeout,
		UpstreamMaxConns:      DefaultUpstreamMaxConns,
		MaxInFlight:           DefaultMaxInFlight,
		BodyReadTimeout:       DefaultBodyReadTimeout,
		UsageRetention:        DefaultUsageRetention,
		FactsTTL:              DefaultFactsTTL,
		UsageHistoryDays:      DefaultUsageHistoryDays,
		RetireQuietDays:       DefaultRetireQuietDays,
	}
}

// setting describes one scalar setting and its three names.
type setting struct {
	key    string // YAML key, also the name in Redacted and in messages without a source
	flag   string // flag name without "-", "" when there is none
	env    string // environment variable, "" when there is none
	arg    string // placeholder shown by Usage
	def    string // default shown by Usage
	help   string
	isBool bool
	// set parses raw into c. Its error is the part of the message after
	// the source, e.g. `"abc" is not an integer`.
	set func(c *Config, raw string) error
}

var settings = []setting{
	{key: "listen", flag: "listen", env: "V1GW_LISTEN", arg: "ADDR", def: DefaultListen,
		help: "address of the v1 API listener",
		set:  func(c *Config, v string) error { c.Listen = strings.TrimSpace(v); return nil }},
	{key: "admin_listen", flag: "admin-listen", env: "V1GW_ADMIN_LISTEN", arg: "ADDR", def: DefaultAdminListen,
		help: "address of /healthz, /readyz, /metrics and /usage",
		set:  func(c *Config, v string) error { c.AdminListen = strings.TrimSpace(v); return nil }},
	{key: "upstream_url", flag: "upstream", env: "V1GW_UPSTREAM_URL", arg: "URL", def: DefaultUpstreamURL,
		help: "v2 base URL, scheme://host[:port] without the /v2 suffix",
		set:  func(c *Config, v string) error { c.UpstreamURL = strings.TrimSpace(v); return nil }},
	{key: "redis_url", flag: "redis", env: "V1GW_REDIS_URL", arg: "URL", def: "",
		help: "Redis shared by all replicas for rate limits: redis://host:6379/0, rediss:// (TLS), unix://, cluster redis://h1:6379?addr=h2:6379, sentinel redis-sentinel://s1:26379,s2:26379/master; empty = in-memory, per process",
		set:  func(c *Config, v string) error { c.RedisURL = strings.TrimSpace(v); return nil }},
	{key: "rate_limit_per_minute", flag: "rate-limit", env: "V1GW_RATE_LIMIT_PER_MINUTE", arg: "N", def: strconv.Itoa(DefaultRateLimitPerMinute),
		help: "requests per minute per API key; 0 disables rate limiting",
		set: func(c *Config, v string) error {
			n, err := parseInt(v)
			c.RateLimitPerMinute = n
			return err
		}},
	{key: "compat_mode", flag: "compat-mode", env: "V1GW_COMPAT_MODE", arg: "MODE", def: "strict",
		help: "v1 fields without a v2 home: strict rejects them with 400, lenient drops them (X-Compat-Dropped)",
		set:  func(c *Config, v string) error { c.CompatMode = enumValue(v); return nil }},
	{key: "reset_mode", flag: "reset-mode", env: "V1GW_RESET_MODE", arg: "MODE", def: "reject",
		help: "POST /pods/{id}/reset: reject answers 400, restart emulates it (X-Compat-Emulated: reset)",
		set:  func(c *Config, v string) error { c.ResetMode = enumValue(v); return nil }},
	{key: "default_gpu_types", flag: "default-gpu-types", env: "V1GW_DEFAULT_GPU_TYPES", arg: "IDS", def: "",
		help: "comma-separated v1 GPU type ids the gateway may choose, in order of preference, for a GPU pod created without gpuTypeIds (empty: any v1 GPU type, the most available, then the cheapest); GPU types differ in price by more than ten times",
		set:  func(c *Config, v string) error { c.DefaultGPUTypes = splitList(v); return nil }},
	{key: "key_hash_secret", env: "V1GW_KEY_HASH_SECRET", arg: "SECRET", def: "random per process",
		help: "HMAC secret API keys are hashed with into key ids; set it (same on every replica) to keep key ids stable",
		set:  func(c *Config, v string) error { c.KeyHashSecret = v; return nil }},
	{key: "limiter_fail", flag: "limiter-fail", env: "V1GW_LIMITER_FAIL", arg: "MODE", def: "open",
		help: "when Redis is down: open allows requests, closed rejects them",
		set:  func(c *Config, v string) error { c.LimiterFail = enumValue(v); return nil }},
	{key: "limiter_timeout", flag: "limiter-timeout", env: "V1GW_LIMITER_TIMEOUT", arg: "DURATION", def: DefaultLimiterTimeout.String(),
		help: "how long Redis may take to answer a rate-limit decision before it counts as down (the breaker, then limiter_fail); time a decision waits for a CPU in a saturated gateway does not count, and one that cannot be sent within 10 times this is answered 503",
		set: func(c *Config, v string) error {
			d, err := parseDuration(v)
			c.LimiterTimeout = d
			return err
		}},
	{key: "request_timeout", flag: "request-timeout", env: "V1GW_REQUEST_TIMEOUT", arg: "DURATION", def: DefaultRequestTimeout.String(),
		help: "deadline of one upstream request (Go duration such as 30s, or whole seconds)",
		set: func(c *Config, v string) error {
			d, err := parseDuration(v)
			c.RequestTimeout = d
			return err
		}},
	{key: "drain_timeout", flag: "drain-timeout", env: "V1GW_DRAIN_TIMEOUT", arg: "DURATION", def: DefaultDrainTimeout.String(),
		help: "how long shutdown waits for in-flight requests (Go duration or whole seconds); at least request_timeout + 3s, so that a create whose reply was lost can finish its lookup",
		set: func(c *Config, v string) error {
			d, err := parseDuration(v)
			c.DrainTimeout = d
			return err
		}},
	{key: "sunset", flag: "sunset", env: "V1GW_SUNSET", arg: "TIME", def: "",
		help: "announce the gateway's retirement in a Sunset header: RFC 3339 timestamp or YYYY-MM-DD (UTC midnight)",
		set: func(c *Config, v string) error {
			t, err := parseSunset(v)
			c.Sunset = t
			return err
		}},
	{key: "sunset_link", flag: "sunset-link", env: "V1GW_SUNSET_LINK", arg: "URL", def: "",
		help: `page about the retirement, sent as Link: <URL>; rel="sunset"`,
		set:  func(c *Config, v string) error { c.SunsetLink = strings.TrimSpace(v); return nil }},
	{key: "log_format", flag: "log-format", env: "V1GW_LOG_FORMAT", arg: "FORMAT", def: "json",
		help: "json or console",
		set:  func(c *Config, v string) error { c.LogFormat = enumValue(v); return nil }},
	{key: "log_level", flag: "log-level", env: "V1GW_LOG_LEVEL", arg: "LEVEL", def: "info",
		help: "debug, info, warn or error",
		set:  func(c *Config, v string) error { c.LogLevel = enumValue(v); return nil }},
	{key: "demo", flag: "demo", env: "V1GW_DEMO", isBool: true, def: "false",
		help: "serve in front of an in-process v2 simulator (for trying the gateway out)",
		set: func(c *Config, v string) error {
			b, err := parseBool(v)
			c.Demo = b
			return err
		}},
	{key: "upstream_retries", flag: "upstream-retries", env: "V1GW_UPSTREAM_RETRIES", arg: "N", def: strconv.Itoa(DefaultUpstreamRetries),
		help: "retries of a failed idempotent GET to v2 (0-2; jittered, honouring Retry-After and the request's deadline); POST, PATCH and DELETE are never retried after a failure that may have reached v2 (the two exceptions are in \"Retries\" of docs/operating.md)",
		set: func(c *Config, v string) error {
			n, err := parseInt(v)
			c.UpstreamRetries = n
			return err
		}},
	{key: "breaker_failures", flag: "breaker-failures", env: "V1GW_BREAKER_FAILURES", arg: "N", def: strconv.Itoa(DefaultBreakerFailures),
		help: "consecutive upstream failures (5xx, timeouts, connection errors; never 4xx) that open the circuit breaker",
		set: func(c *Config, v string) error {
			n, err := parseInt(v)
			c.BreakerFailures = n
			return err
		}},
	{key: "breaker_open_for", flag: "breaker-open-for", env: "V1GW_BREAKER_OPEN_FOR", arg: "DURATION", def: DefaultBreakerOpenFor.String(),
		help: "how long the open breaker answers 503 at once before one probe request goes to v2",
		set: func(c *Config, v string) error {
			d, err := parseDuration(v)
			c.BreakerOpenFor = d
			return err
		}},
	{key: "upstream_max_body", flag: "upstream-max-body", env: "V1GW_UPSTREAM_MAX_BODY", arg: "BYTES", def: strconv.Itoa(DefaultUpstreamMaxBody),
		help: "most bytes of one v2 answer a translated request reads (64 KiB to 1 GiB); a longer answer is a 502, never buffered beyond it",
		set: func(c *Config, v string) error {
			n, err := parseInt(v)
			c.UpstreamMaxBody = int64(n)
			return err
		}},
	{key: "usage_flush_interval", flag: "usage-flush-interval", env: "V1GW_USAGE_FLUSH_INTERVAL", arg: "DURATION", def: DefaultUsageFlushInterval.String(),
		help: "how often the /usage counts are written to Redis (or memory); they are also written on shutdown",
		set: func(c *Config, v string) error {
			d, err := parseDuration(v)
			c.UsageFlushInterval = d
			return err
		}},
	{key: "upstream_header_timeout", flag: "upstream-header-timeout", env: "V1GW_UPSTREAM_HEADER_TIMEOUT", arg: "DURATION", def: DefaultUpstreamHeaderTimeout.String(),
		help: "how long to wait for v2's response headers (below request_timeout); a timeout counts as a breaker failure",
		set: func(c *Config, v string) error {
			d, err := parseDuration(v)
			c.UpstreamHeaderTimeout = d
			return err
		}},
	{key: "upstream_max_conns", flag: "upstream-max-conns", env: "V1GW_UPSTREAM_MAX_CONNS", arg: "N", def: strconv.Itoa(DefaultUpstreamMaxConns),
		help: "most connections to the v2 host at once; more requests wait for a free one within their deadline",
		set: func(c *Config, v string) error {
			n, err := parseInt(v)
			c.UpstreamMaxConns = n
			return err
		}},
	{key: "max_in_flight", flag: "max-in-flight", env: "V1GW_MAX_IN_FLIGHT", arg: "N", def: strconv.Itoa(DefaultMaxInFlight),
		help: "most public requests served at once; past it requests are answered 503 with Retry-After (load shedding)",
		set: func(c *Config, v string) error {
			n, err := parseInt(v)
			c.MaxInFlight = n
			return err
		}},
	{key: "body_read_timeout", flag: "body-read-timeout", env: "V1GW_BODY_READ_TIMEOUT", arg: "DURATION", def: DefaultBodyReadTimeout.String(),
		help: "how long a client may take to send a request body; slower is answered 408",
		set: func(c *Config, v string) error {
			d, err := parseDuration(v)
			c.BodyReadTimeout = d
			return err
		}},
	{key: "usage_retention", flag: "usage-retention", env: "V1GW_USAGE_RETENTION", arg: "DURATION", def: "8760h0m0s",
		help: "how long a key's /usage counts are kept in Redis after its last call (default a year: far beyond a migration)",
		set: func(c *Config, v string) error {
			d, err := parseDuration(v)
			c.UsageRetention = d
			return err
		}},
	{key: "facts_ttl", flag: "facts-ttl", env: "V1GW_FACTS_TTL", arg: "DURATION", def: "8760h0m0s",
		help: "how long a fact store entry (the template a pod or endpoint was made from) lives after its last write (default a year; at least 24h)",
		set: func(c *Config, v string) error {
			d, err := parseDuration(v)
			c.FactsTTL = d
			return err
		}},
	{key: "admin_token", env: "V1GW_ADMIN_TOKEN", arg: "TOKEN", def: "",
		help: "bearer token the admin port's /usage requires (empty: none; keep the admin port private either way)",
		set:  func(c *Config, v string) error { c.AdminToken = strings.TrimSpace(v); return nil }},
	{key: "usage_history_days", flag: "usage-history-days", env: "V1GW_USAGE_HISTORY_DAYS", arg: "N", def: strconv.Itoa(DefaultUsageHistoryDays),
		help: "how many UTC days of daily call counts /usage keeps per key id and operation (1-366; the totals keep everything)",
		set: func(c *Config, v string) error {
			n, err := parseInt(v)
			c.UsageHistoryDays = n
			return err
		}},
	{key: "retire_quiet_days", flag: "retire-quiet-days", env: "V1GW_RETIRE_QUIET_DAYS", arg: "N", def: strconv.Itoa(DefaultRetireQuietDays),
		help: "the /usage page says \"ready to retire\" after this many days without a v1, /v2 or /graphql call (at least your slowest client's cycle; at most usage_history_days)",
		set: func(c *Config, v string) error {
			n, err := parseInt(v)
			c.RetireQuietDays = n
			return err
		}},
	{key: "sunset_warning", flag: "sunset-warning", env: "V1GW_SUNSET_WARNING", isBool: true, def: "false",
		help: "with sunset set, v1 answers also carry a human Warning header naming the sunset date",
		set: func(c *Config, v string) error {
			b, err := parseBool(v)
			c.SunsetWarning = b
			return err
		}},
}

const (
	configFlag = "config"
	configEnv  = "V1GW_CONFIG"
)

// rawFlag records a flag's text; every setting is parsed by its own set
// function so that flags, environment and file share one set of rules and
// messages.
type rawFlag struct {
	val    string
	isBool bool
}

func (f *rawFlag) String() string     { return f.val }
func (f *rawFlag) Set(s string) error { f.val = s; return nil }
func (f *rawFlag) IsBoolFlag() bool   { return f.isBool }

// Load builds the Config from args (without the program name), the
// environment read through getenv (os.Getenv when nil) and the YAML file
// named by -config or V1GW_CONFIG, then validates it. -h or -help returns
// flag.ErrHelp, so that the caller can print Usage.
func Load(args []string, getenv func(string) string) (*Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	fs := flag.NewFlagSet("v1gateway", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, s := range settings {
		if s.flag != "" {
			fs.Var(&rawFlag{isBool: s.isBool}, s.flag, s.help)
		}
	}
	fs.Var(&rawFlag{}, configFlag, "YAML configuration file")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, flag.ErrHelp
		}
		return nil, fmt.Errorf("config: %v (see -h)", err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("config: unexpected argument %q: every setting is a flag such as -listen :8080 (see -h)", fs.Arg(0))
	}
	passed := map[string]string{}
	fs.Visit(func(f *flag.Flag) { passed[f.Name] = f.Value.String() })

	c := Default()
	c.origin = map[string]string{}

	// The file: -config beats V1GW_CONFIG. An explicit -config "" means none.
	if v, ok := passed[configFlag]; ok {
		c.ConfigFile, c.origin["config_file"] = strings.TrimSpace(v), "-"+configFlag
	} else if v := getenv(configEnv); v != "" {
		c.ConfigFile, c.origin["config_file"] = strings.TrimSpace(v), configEnv
	}
	var file *fileValues
	if c.ConfigFile != "" {
		var err error
		data, err := os.ReadFile(c.ConfigFile)
		if err != nil {
			return nil, fmt.Errorf("config: %s: %v", c.origin["config_file"], err)
		}
		if file, err = parseFile(c.ConfigFile, data); err != nil {
			return nil, fmt.Errorf("config: %v", err)
		}
	}

	for _, s := range settings {
		raw, where, ok := "", "", false
		if v, set := passed[s.flag]; s.flag != "" && set {
			raw, where, ok = v, "-"+s.flag, true
		} else if v := getenv(s.env); s.env != "" && v != "" {
			raw, where, ok = v, s.env, true
		} else if file != nil {
			if v, set := file.scalars[s.key]; set {
				raw, where, ok = v, c.ConfigFile+": "+s.key, true
			}
		}
		if !ok {
			continue
		}
		c.origin[s.key] = where
		if err := s.set(c, raw); err != nil {
			return nil, fmt.Errorf("config: %s: %v", where, err)
		}
	}
	if file != nil && file.keyLimits != nil {
		where := c.ConfigFile + ": key_limits"
		c.origin["key_limits"] = where
		c.KeyLimits = make(map[string]int, len(file.keyLimits))
		for _, id := range sortedKeys(file.keyLimits) {
			n, err := parseInt(file.keyLimits[id])
			if err != nil {
				return nil, fmt.Errorf("config: %s: key id %q: %v", where, id, err)
			}
			c.KeyLimits[id] = n
		}
	}
	if file != nil && file.migratedKeys != nil {
		where := c.ConfigFile + ": migrated_keys"
		c.origin["migrated_keys"] = where
		c.MigratedKeys = make(map[string]time.Time, len(file.migratedKeys))
		for _, id := range sortedKeys(file.migratedKeys) {
			t, err := parseSunset(file.migratedKeys[id])
			if err == nil && t.IsZero() {
				err = fmt.Errorf("must be the time from which the key is refused (RFC 3339 or YYYY-MM-DD), not empty")
			}
			if err != nil {
				return nil, fmt.Errorf("config: %s: key id %q: %v", where, id, err)
			}
			c.MigratedKeys[id] = t
		}
	}
	if file != nil && file.keyNames != nil {
		c.origin["key_names"] = c.ConfigFile + ": key_names"
		c.KeyNames = make(map[string]string, len(file.keyNames))
		for id, name := range file.keyNames {
			c.KeyNames[id] = strings.TrimSpace(name)
		}
	}

	if c.KeyHashSecret == "" {
		secret, err := generateSecret()
		if err != nil {
			return nil, fmt.Errorf("config: generating a key hash secret: %v", err)
		}
		c.KeyHashSecret, c.KeyHashSecretGenerated = secret, true
		delete(c.origin, "key_hash_secret")
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

func generateSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// fileValues is what the YAML file set: scalars by key, key_limits and
// key_names (nil when absent).
type fileValues struct {
	scalars      map[string]string
	keyLimits    map[string]string
	keyNames     map[string]string
	migratedKeys map[string]string
}

// fileConfig mirrors the YAML document. Every scalar is read as text and
// parsed by the setting's own rules; a nil pointer means "not in the file".
type fileConfig struct {
	Listen                *string           `yaml:"listen"`
	AdminListen           *string           `yaml:"admin_listen"`
	UpstreamURL           *string           `yaml:"upstream_url"`
	RedisURL              *string           `yaml:"redis_url"`
	RateLimitPerMinute    *string           `yaml:"rate_limit_per_minute"`
	CompatMode            *string           `yaml:"compat_mode"`
	ResetMode             *string           `yaml:"reset_mode"`
	DefaultGPUTypes       *string           `yaml:"default_gpu_types"`
	KeyHashSecret         *string           `yaml:"key_hash_secret"`
	KeyLimits             map[string]string `yaml:"key_limits"`
	LimiterFail           *string           `yaml:"limiter_fail"`
	LimiterTimeout        *string           `yaml:"limiter_timeout"`
	RequestTimeout        *string           `yaml:"request_timeout"`
	DrainTimeout          *string           `yaml:"drain_timeout"`
	Sunset                *string           `yaml:"sunset"`
	SunsetLink            *string           `yaml:"sunset_link"`
	LogFormat             *string           `yaml:"log_format"`
	LogLevel              *string           `yaml:"log_level"`
	Demo                  *string           `yaml:"demo"`
	UpstreamRetries       *string           `yaml:"upstream_retries"`
	BreakerFailures       *string           `yaml:"breaker_failures"`
	BreakerOpenFor        *string           `yaml:"breaker_open_for"`
	UpstreamMaxBody       *string           `yaml:"upstream_max_body"`
	UsageFlushInterval    *string           `yaml:"usage_flush_interval"`
	UpstreamHeaderTimeout *string           `yaml:"upstream_header_timeout"`
	UpstreamMaxConns      *string           `yaml:"upstream_max_conns"`
	MaxInFlight           *string           `yaml:"max_in_flight"`
	BodyReadTimeout       *string           `yaml:"body_read_timeout"`
	UsageRetention        *string           `yaml:"usage_retention"`
	FactsTTL              *string           `yaml:"facts_ttl"`
	AdminToken            *string           `yaml:"admin_token"`
	KeyNames              map[string]string `yaml:"key_names"`
	UsageHistoryDays      *string           `yaml:"usage_history_days"`
	RetireQuietDays       *string           `yaml:"retire_quiet_days"`
	SunsetWarning         *string           `yaml:"sunset_warning"`
	MigratedKeys          map[string]string `yaml:"migrated_keys"`
}

func (f *fileConfig) scalars() map[string]*string {
	return map[string]*string{
		"listen": f.Listen, "admin_listen": f.AdminListen, "upstream_url": f.UpstreamURL,
		"redis_url": f.RedisURL, "rate_limit_per_minute": f.RateLimitPerMinute,
		"compat_mode": f.CompatMode, "reset_mode": f.ResetMode, "key_hash_secret": f.KeyHashSecret,
		"default_gpu_types": f.DefaultGPUTypes,
		"limiter_fail":      f.LimiterFail, "limiter_timeout": f.LimiterTimeout, "request_timeout": f.RequestTimeout, "drain_timeout": f.DrainTimeout,
		"sunset": f.Sunset, "sunset_link": f.SunsetLink, "log_format": f.LogFormat,
		"log_level": f.LogLevel, "demo": f.Demo, "upstream_retries": f.UpstreamRetries,
		"breaker_failures": f.BreakerFailures, "breaker_open_for": f.BreakerOpenFor,
		"upstream_max_body":       f.UpstreamMaxBody,
		"usage_flush_interval":    f.UsageFlushInterval,
		"upstream_header_timeout": f.UpstreamHeaderTimeout, "upstream_max_conns": f.UpstreamMaxConns,
		"max_in_flight": f.MaxInFlight, "body_read_timeout": f.BodyReadTimeout, "usage_retention": f.UsageRetention, "facts_ttl": f.FactsTTL, "admin_token": f.AdminToken,
		"usage_history_days": f.UsageHistoryDays, "retire_quiet_days": f.RetireQuietDays, "sunset_warning": f.SunsetWarning,
	}
}

// fileKeys lists every key the YAML file may hold, in Usage order.
func fileKeys() []string {
	keys := make([]string, 0, len(settings)+1)
	for _, s := range settings {
		keys = append(keys, s.key)
	}
	return append(keys, "key_limits", "key_names", "migrated_keys")
}

// parseFile reads the YAML document of the file at path; its errors start
// with the path.
func parseFile(path string, data []byte) (*fileValues, error) {
	// First pass: a friendlier message than yaml.v3's for unknown keys.
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %s", path, oneLine(err.Error()))
	}
	if len(doc.Content) > 0 {
		root := doc.Content[0]
		if root.Kind != yaml.MappingNode {
			if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
				return &fileValues{scalars: map[string]string{}}, nil
			}
			return nil, fmt.Errorf("%s: line %d: the file must be a mapping of settings (key: value)", path, root.Line)
		}
		known := map[string]bool{}
		for _, k := range fileKeys() {
			known[k] = true
		}
		for i := 0; i+1 < len(root.Content); i += 2 {
			k := root.Content[i]
			if !known[k.Value] {
				return nil, fmt.Errorf("%s: line %d: unknown setting %q (known: %s)", path, k.Line, k.Value, strings.Join(fileKeys(), ", "))
			}
			if err := checkNode(k.Value, root.Content[i+1]); err != nil {
				return nil, fmt.Errorf("%s: %v", path, err)
			}
		}
	}

	var fc fileConfig
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&fc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %s", path, oneLine(err.Error()))
	}
	fv := &fileValues{scalars: map[string]string{}, keyLimits: fc.KeyLimits, keyNames: fc.KeyNames, migratedKeys: fc.MigratedKeys}
	for k, p := range fc.scalars() {
		if p != nil {
			fv.scalars[k] = *p
		}
	}
	return fv, nil
}

// checkNode checks the shape of one setting's YAML value, so that a type
// error names the setting (yaml.v3 names only the types): a single value
// for a scalar setting; for key_limits and key_names, a mapping from key ids
// to single values.
func checkNode(key string, v *yaml.Node) error {
	kind := func(n *yaml.Node) string {
		switch n.Kind {
		case yaml.SequenceNode:
			return "a list"
		case yaml.MappingNode:
			return "a mapping"
		case yaml.AliasNode:
			return "an alias"
		}
		return "a single value"
	}
	if key != "key_limits" && key != "key_names" && key != "migrated_keys" {
		if v.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: %s: must be a single value, not %s", v.Line, key, kind(v))
		}
		return nil
	}
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		what := "<requests per minute>"
		switch key {
		case "key_names":
			what = "<name>"
		case "migrated_keys":
			what = "<refused from: YYYY-MM-DD>"
		}
		return fmt.Errorf("line %d: %s: must be a mapping {<key id>: %s}, not %s", v.Line, key, what, kind(v))
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		id, val := v.Content[i], v.Content[i+1]
		if id.Kind != yaml.ScalarNode || !IsKeyID(id.Value) {
			if id.Kind == yaml.ScalarNode && id.Value == "" {
				return fmt.Errorf("line %d: %s: \"\" is not a key id (32 lowercase hex digits)", id.Line, key)
			}
			return fmt.Errorf("line %d: %s: %s", id.Line, key, notAKeyID(id.Value))
		}
		if val.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: %s: key id %q: must be a single value, not %s", val.Line, key, id.Value, kind(val))
		}
	}
	return nil
}

// KeyIDLen is the length of a key id: 32 lowercase hex digits (128 bits of
// HMAC-SHA256(V1GW_KEY_HASH_SECRET, API key)).
const KeyIDLen = 32

// IsKeyID reports whether s has the form of a key id.
func IsKeyID(s string) bool {
	if len(s) != KeyIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// notAKeyID explains why s is refused without showing it: a mistyped entry
// is often the API key itself, which must never reach a log.
func notAKeyID(s string) string {
	return fmt.Sprintf("a key of %d characters is not a key id (%d lowercase hex digits; `v1gateway key-id` prints a key's id); it is not shown, in case it is an API key",
		utf8.RuneCountInString(s), KeyIDLen)
}

// oneLine folds yaml.v3's multi-line error messages into one line.
func oneLine(s string) string {
	s = strings.TrimPrefix(s, "yaml: ")
	s = strings.TrimPrefix(s, "unmarshal errors:")
	return strings.Join(strings.Fields(s), " ")
}

func parseInt(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("%q is not an integer", v)
	}
	return n, nil
}

// parseDuration accepts a Go duration ("30s", "1m30s") or whole seconds ("30").
func parseDuration(v string) (time.Duration, error) {
	s := strings.TrimSpace(v)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n > int64(1<<63-1)/int64(time.Second) || n < -int64(1<<63-1)/int64(time.Second) {
			return 0, fmt.Errorf("%q is too large", v)
		}
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration such as 30s or 1m (or whole seconds)", v)
	}
	return d, nil
}

func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "t", "true", "yes", "y", "on":
		return true, nil
	case "0", "f", "false", "no", "n", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean (true or false)", v)
}

// parseSunset accepts an RFC 3339 timestamp or a YYYY-MM-DD date (UTC
// midnight); "" is no sunset.
func parseSunset(v string) (time.Time, error) {
	s := strings.TrimSpace(v)
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q must be an RFC 3339 timestamp (2026-11-15T00:00:00Z) or a date (2026-11-15)", v)
}

func enumValue(v string) string { return strings.ToLower(strings.TrimSpace(v)) }

// splitList reads a comma-separated list: items trimmed, empty items and
// repeats left out; nil when nothing is left.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" && !contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// where names the source of a setting's value for messages: the flag, the
// variable or "<file>: key"; the bare key when unknown (defaults, or a
// Config built in code).
func (c *Config) where(key string) string {
	if w, ok := c.origin[key]; ok {
		return w
	}
	return key
}

func (c *Config) errorf(key, format string, a ...any) error {
	return fmt.Errorf("config: %s: %s", c.where(key), fmt.Sprintf(format, a...))
}

// Validate checks every setting and returns the first problem as one line
// naming the setting and its source. It never includes a secret. On
// success, UpstreamURL is normalised to scheme://host[:port].
func (c *Config) Validate() error {
	if err := c.checkAddr("listen", c.Listen); err != nil {
		return err
	}
	if err := c.checkAddr("admin_listen", c.AdminListen); err != nil {
		return err
	}
	if c.Listen == c.AdminListen && !strings.HasSuffix(c.Listen, ":0") {
		return c.errorf("admin_listen", "%q must differ from listen", c.AdminListen)
	}
	upstream, err := c.checkUpstream()
	if err != nil {
		return err
	}
	if err := c.checkRedis(); err != nil {
		return err
	}
	if c.RateLimitPerMinute < 0 {
		return c.errorf("rate_limit_per_minute", "%q must be >= 0 (0 disables rate limiting)", strconv.Itoa(c.RateLimitPerMinute))
	}
	for _, e := range []struct {
		key, val string
		allowed  []string
	}{
		{"compat_mode", c.CompatMode, CompatModes},
		{"reset_mode", c.ResetMode, ResetModes},
		{"limiter_fail", c.LimiterFail, LimiterFails},
	} {
		if !contains(e.allowed, e.val) {
			return c.errorf(e.key, "%q must be one of %s", e.val, strings.Join(e.allowed, ", "))
		}
	}
	for _, id := range c.DefaultGPUTypes {
		if !translate.IsV1GPUTypeID(id) {
			return c.errorf("default_gpu_types", "%q is not a v1 GPU type id (the gpuTypeIds enum of v1, e.g. %q)", id, "NVIDIA GeForce RTX 4090")
		}
	}
	if c.KeyHashSecret == "" {
		return c.errorf("key_hash_secret", "must not be empty (leave V1GW_KEY_HASH_SECRET unset to generate one)")
	}
	for _, id := range sortedKeys(c.KeyLimits) {
		if id == "" {
			return c.errorf("key_limits", "a key id must not be empty")
		}
		if !IsKeyID(id) {
			return c.errorf("key_limits", "%s", notAKeyID(id))
		}
		if n := c.KeyLimits[id]; n < 0 {
			return c.errorf("key_limits", "key id %q: %q must be >= 0 (0 = unlimited)", id, strconv.Itoa(n))
		}
	}
	if len(c.KeyLimits) > 0 && c.KeyHashSecretGenerated {
		return c.errorf("key_limits", "needs V1GW_KEY_HASH_SECRET (or key_hash_secret): key ids are derived from it, and a generated secret changes on every start")
	}
	if c.LimiterTimeout <= 0 {
		return c.errorf("limiter_timeout", "%q must be > 0", c.LimiterTimeout.String())
	}
	if c.RequestTimeout <= 0 {
		return c.errorf("request_timeout", "%q must be > 0", c.RequestTimeout.String())
	}
	if c.DrainTimeout <= 0 {
		return c.errorf("drain_timeout", "%q must be > 0", c.DrainTimeout.String())
	}
	if _, set := c.origin["drain_timeout"]; !set && c.DrainTimeout < c.RequestTimeout+LookupGrace {
		// The default follows a longer request_timeout; a value the
		// operator set is checked below.
		c.DrainTimeout = c.RequestTimeout + LookupGrace
	}
	if min := c.RequestTimeout + LookupGrace; c.DrainTimeout < min {
		return c.errorf("drain_timeout", "%q must be at least request_timeout + %s = %s: a shorter drain could cut off a create that v2 still completes, with no log line, metric or usage count for it",
			c.DrainTimeout.String(), LookupGrace, min)
	}
	if c.UpstreamHeaderTimeout <= 0 || c.UpstreamHeaderTimeout > c.RequestTimeout {
		return c.errorf("upstream_header_timeout", "%q must be > 0 and at most request_timeout (%s)", c.UpstreamHeaderTimeout.String(), c.RequestTimeout)
	}
	if c.UpstreamMaxConns < 1 {
		return c.errorf("upstream_max_conns", "%q must be >= 1", strconv.Itoa(c.UpstreamMaxConns))
	}
	if c.MaxInFlight < 1 {
		return c.errorf("max_in_flight", "%q must be >= 1", strconv.Itoa(c.MaxInFlight))
	}
	if c.BodyReadTimeout <= 0 {
		return c.errorf("body_read_timeout", "%q must be > 0", c.BodyReadTimeout.String())
	}
	if c.UsageRetention < 24*time.Hour {
		return c.errorf("usage_retention", "%q must be at least 24h", c.UsageRetention.String())
	}
	if c.FactsTTL < 24*time.Hour {
		return c.errorf("facts_ttl", "%q must be at least 24h", c.FactsTTL.String())
	}
	if c.UpstreamRetries < 0 || c.UpstreamRetries > MaxUpstreamRetries {
		return c.errorf("upstream_retries", "%q must be between 0 and %d", strconv.Itoa(c.UpstreamRetries), MaxUpstreamRetries)
	}
	if c.BreakerFailures < 1 {
		return c.errorf("breaker_failures", "%q must be >= 1", strconv.Itoa(c.BreakerFailures))
	}
	if c.BreakerOpenFor <= 0 {
		return c.errorf("breaker_open_for", "%q must be > 0", c.BreakerOpenFor.String())
	}
	if c.UpstreamMaxBody < MinUpstreamMaxBody || c.UpstreamMaxBody > MaxUpstreamMaxBody {
		return c.errorf("upstream_max_body", "%q must be between %d and %d bytes", strconv.FormatInt(c.UpstreamMaxBody, 10), MinUpstreamMaxBody, MaxUpstreamMaxBody)
	}
	if c.UsageFlushInterval <= 0 {
		return c.errorf("usage_flush_interval", "%q must be > 0", c.UsageFlushInterval.String())
	}
	for _, id := range sortedKeys(c.KeyNames) {
		name := c.KeyNames[id]
		switch {
		case id == "":
			return c.errorf("key_names", "a key id must not be empty")
		case !IsKeyID(id):
			return c.errorf("key_names", "%s", notAKeyID(id))
		case name == "":
			return c.errorf("key_names", "key id %q: the name must not be empty", id)
		case len(name) > MaxKeyNameLen:
			return c.errorf("key_names", "key id %q: the name is longer than %d bytes", id, MaxKeyNameLen)
		case strings.IndexFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0:
			return c.errorf("key_names", "key id %q: the name must not contain control characters", id)
		}
	}
	if len(c.KeyNames) > 0 && c.KeyHashSecretGenerated {
		return c.errorf("key_names", "needs V1GW_KEY_HASH_SECRET (or key_hash_secret): key ids are derived from it, and a generated secret changes on every start")
	}
	if c.UsageHistoryDays < 1 || c.UsageHistoryDays > MaxUsageHistoryDays {
		return c.errorf("usage_history_days", "%q must be between 1 and %d", strconv.Itoa(c.UsageHistoryDays), MaxUsageHistoryDays)
	}
	if c.RetireQuietDays < 1 || c.RetireQuietDays > c.UsageHistoryDays {
		return c.errorf("retire_quiet_days", "%q must be between 1 and usage_history_days (%d)", strconv.Itoa(c.RetireQuietDays), c.UsageHistoryDays)
	}
	for _, id := range sortedKeys(c.MigratedKeys) {
		if !IsKeyID(id) {
			return c.errorf("migrated_keys", "%s", notAKeyID(id))
		}
	}
	if len(c.MigratedKeys) > 0 && c.KeyHashSecretGenerated {
		return c.errorf("migrated_keys", "needs V1GW_KEY_HASH_SECRET (or key_hash_secret): key ids are derived from it, and a generated secret changes on every start")
	}
	if c.SunsetLink != "" {
		if err := checkLink(c.SunsetLink); err != nil {
			return c.errorf("sunset_link", "%q %v", c.SunsetLink, err)
		}
	}
	if !contains(LogFormats, c.LogFormat) {
		return c.errorf("log_format", "%q must be one of %s", c.LogFormat, strings.Join(LogFormats, ", "))
	}
	if !contains(LogLevels, c.LogLevel) {
		return c.errorf("log_level", "%q must be one of %s", c.LogLevel, strings.Join(LogLevels, ", "))
	}
	c.UpstreamURL = upstream
	return nil
}

func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

func (c *Config) checkAddr(key, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" || strings.ContainsAny(host, " /") {
		return c.errorf(key, "%q must be host:port or :port (e.g. :8080)", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return c.errorf(key, "%q has an invalid port", addr)
	}
	return nil
}

// checkUpstream validates UpstreamURL and returns its normal form.
func (c *Config) checkUpstream() (string, error) {
	const key = "upstream_url"
	raw := c.UpstreamURL
	u, err := url.Parse(raw)
	if err != nil {
		return "", c.errorf(key, "%s is not a valid URL", showURL(raw))
	}
	shown := showURL(raw)
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", c.errorf(key, "%s must be an absolute http(s) URL such as %s", shown, DefaultUpstreamURL)
	}
	if u.User != nil {
		return "", c.errorf(key, "%s must not contain user information", shown)
	}
	if p := strings.TrimRight(u.EscapedPath(), "/"); p != "" {
		if strings.HasSuffix(strings.ToLower(p), "/v2") {
			return "", c.errorf(key, "%s must be given without the /v2 suffix (e.g. %s): the gateway adds /v2 itself", shown, DefaultUpstreamURL)
		}
		return "", c.errorf(key, "%s must be scheme://host[:port] only, without a path", shown)
	}
	if u.RawQuery != "" || u.ForceQuery {
		return "", c.errorf(key, "%s must not have a query", shown)
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return "", c.errorf(key, "%s must not have a fragment", shown)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", c.errorf(key, "%s has an invalid port", shown)
		}
	}
	return u.Scheme + "://" + u.Host, nil
}

func (c *Config) checkRedis() error {
	const key = "redis_url"
	raw := c.RedisURL
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return c.errorf(key, "%s is not a valid URL", showURL(raw))
	}
	shown := showURL(raw)
	switch u.Scheme {
	case "redis", "rediss":
		if u.Host == "" {
			return c.errorf(key, "%s needs a host, e.g. redis://redis:6379/0", shown)
		}
	case "redis-sentinel", "rediss-sentinel":
		if u.Host == "" || strings.Trim(u.Path, "/") == "" {
			return c.errorf(key, "%s needs sentinel hosts and a master name, e.g. redis-sentinel://s1:26379,s2:26379/mymaster", shown)
		}
	case "unix":
		if u.Path == "" {
			return c.errorf(key, "%s needs a socket path, e.g. unix:///run/redis.sock", shown)
		}
	default:
		return c.errorf(key, "%s must use scheme redis, rediss, unix, redis-sentinel or rediss-sentinel (e.g. redis://redis:6379/0)", shown)
	}
	return nil
}

func checkLink(s string) error {
	for _, r := range s {
		if r <= ' ' || r >= 0x7f || r == '<' || r == '>' || r == '"' {
			return errors.New(`must not contain spaces, control characters, '<', '>', '"' or non-ASCII characters (percent-encode them)`)
		}
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("must be an absolute http(s) URL")
	}
	return nil
}

// showURL quotes a URL for a message with its secrets masked; when the URL
// cannot be parsed with certainty, it is not shown at all.
func showURL(raw string) string {
	r, ok := redactURL(raw)
	if !ok {
		return "(value not shown: it cannot be parsed and may hold a password)"
	}
	return strconv.Quote(r)
}

// redactURL masks the password in a URL's user information and every
// query parameter whose name suggests a secret; a URL with nothing to mask
// is returned exactly as given. ok is false when the URL cannot be parsed,
// or when it holds an '@' that was not parsed as user information (a
// password with a '/' or '#' in it): then nothing of it can be shown
// safely. A URL that does not parse but holds neither '@' nor a query
// cannot carry a secret either, and is shown as given.
func redactURL(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		if !strings.ContainsAny(raw, "@?") {
			return raw, true
		}
		return "", false
	}
	if u.User == nil && !strings.Contains(raw, "@") && !hasSecretParam(u.RawQuery) {
		return raw, true
	}
	ats := strings.Count(raw, "@")
	if (u.User == nil && ats > 0) || (u.User != nil && ats != 1) {
		// A password that contains '/' or '#', or a stray '@': the split
		// between userinfo, host and path is not certain.
		return "", false
	}
	if u.RawQuery != "" {
		q, err := url.ParseQuery(u.RawQuery)
		if err != nil {
			return "", false
		}
		for k := range q {
			lk := strings.ToLower(k)
			if strings.Contains(lk, "pass") || strings.Contains(lk, "secret") || strings.Contains(lk, "token") {
				for i := range q[k] {
					q[k][i] = "xxxxx"
				}
			}
		}
		u.RawQuery = q.Encode()
	}
	if u.User != nil {
		if _, has := u.User.Password(); !has && u.User.Username() != "" {
			// redis://secret@host: go-redis reads it as a user name, but
			// people put passwords there.
			u.User = url.User("xxxxx")
		}
	}
	return u.Redacted(), true
}

// hasSecretParam reports whether a query holds a parameter whose name
// suggests a secret (or cannot be parsed, so that it might).
func hasSecretParam(rawQuery string) bool {
	if rawQuery == "" {
		return false
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return true
	}
	for k := range q {
		lk := strings.ToLower(k)
		if strings.Contains(lk, "pass") || strings.Contains(lk, "secret") || strings.Contains(lk, "token") {
			return true
		}
	}
	return false
}

// Redacted returns every setting for the start-up log, keyed by its YAML
// name, with secrets masked.
func (c *Config) Redacted() map[string]any {
	redis := c.RedisURL
	if redis != "" {
		if r, ok := redactURL(redis); ok {
			redis = r
		} else {
			redis = "[redacted: unparsable URL]"
		}
	}
	secret := ""
	if c.KeyHashSecret != "" {
		secret = "[redacted]"
	}
	limits := make(map[string]int, len(c.KeyLimits))
	for k, v := range c.KeyLimits {
		limits[k] = v
	}
	names := make(map[string]string, len(c.KeyNames))
	for k, v := range c.KeyNames {
		names[k] = v
	}
	sunset := ""
	if !c.Sunset.IsZero() {
		sunset = c.Sunset.UTC().Format(time.RFC3339)
	}
	migrated := make(map[string]string, len(c.MigratedKeys))
	for k, v := range c.MigratedKeys {
		migrated[k] = v.UTC().Format(time.RFC3339)
	}
	upstream := c.UpstreamURL
	if r, ok := redactURL(upstream); ok {
		upstream = r
	} else if upstream != "" {
		upstream = "[redacted: unparsable URL]"
	}
	return map[string]any{
		"listen":                    c.Listen,
		"admin_listen":              c.AdminListen,
		"upstream_url":              upstream,
		"redis_url":                 redis,
		"rate_limit_per_minute":     c.RateLimitPerMinute,
		"compat_mode":               c.CompatMode,
		"reset_mode":                c.ResetMode,
		"default_gpu_types":         strings.Join(c.DefaultGPUTypes, ","),
		"config_file":               c.ConfigFile,
		"key_hash_secret":           secret,
		"key_hash_secret_generated": c.KeyHashSecretGenerated,
		"key_limits":                limits,
		"limiter_fail":              c.LimiterFail,
		"limiter_timeout":           c.LimiterTimeout.String(),
		"request_timeout":           c.RequestTimeout.String(),
		"drain_timeout":             c.DrainTimeout.String(),
		"sunset":                    sunset,
		"sunset_link":               c.SunsetLink,
		"log_format":                c.LogFormat,
		"log_level":                 c.LogLevel,
		"demo":                      c.Demo,
		"upstream_retries":          c.UpstreamRetries,
		"breaker_failures":          c.BreakerFailures,
		"breaker_open_for":          c.BreakerOpenFor.String(),
		"upstream_max_body":         c.UpstreamMaxBody,
		"usage_flush_interval":      c.UsageFlushInterval.String(),
		"upstream_header_timeout":   c.UpstreamHeaderTimeout.String(),
		"upstream_max_conns":        c.UpstreamMaxConns,
		"max_in_flight":             c.MaxInFlight,
		"body_read_timeout":         c.BodyReadTimeout.String(),
		"usage_retention":           c.UsageRetention.String(),
		"facts_ttl":                 c.FactsTTL.String(),
		"admin_token":               redactedIfSet(c.AdminToken),
		"key_names":                 names,
		"usage_history_days":        c.UsageHistoryDays,
		"retire_quiet_days":         c.RetireQuietDays,
		"sunset_warning":            c.SunsetWarning,
		"migrated_keys":             migrated,
	}
}

// Usage prints every setting: its flag, environment variable, YAML key and
// default.
func Usage(w io.Writer) {
	var b strings.Builder
	b.WriteString(`Every setting comes from a flag, a V1GW_* environment variable or the YAML file
named by -config: a flag beats the environment, which beats the file, which
beats the default. An empty environment variable counts as unset.

Flags:
`)
	line := func(name, env, key, def, help string) {
		fmt.Fprintf(&b, "  %s\n", name)
		var src []string
		if env != "" {
			src = append(src, "env "+env)
		}
		if key != "" {
			src = append(src, "file "+key)
		}
		if def != "" {
			src = append(src, "default "+strconv.Quote(def))
		}
		fmt.Fprintf(&b, "        %s\n", help)
		if len(src) > 0 {
			fmt.Fprintf(&b, "        (%s)\n", strings.Join(src, ", "))
		}
	}
	line("-config FILE", configEnv, "", "", "YAML file with any of the settings below (file keys) and key_limits")
	for _, s := range settings {
		if s.flag == "" {
			continue
		}
		name := "-" + s.flag
		if s.arg != "" {
			name += " " + s.arg
		}
		line(name, s.env, s.key, s.def, s.help)
	}
	b.WriteString("\nEnvironment or file only (secrets do not belong on a command line):\n")
	for _, s := range settings {
		if s.flag != "" {
			continue
		}
		fmt.Fprintf(&b, "  %s / %s\n        %s\n        (default: %s)\n", s.env, s.key, s.help, s.def)
	}
	b.WriteString(`
File only:
  key_limits: {<key id>: <requests per minute>}
        per-key-id overrides of -rate-limit, 0 = unlimited; key ids are derived
        from V1GW_KEY_HASH_SECRET, which must then be set
  key_names: {<key id>: <label>}
        names shown next to key ids in the /usage report (who owns the key);
        needs V1GW_KEY_HASH_SECRET too
  -h, -help
        print this help
`)
	io.WriteString(w, b.String())
}

// Setting describes one setting and its names, for documentation and for
// the tests that check deployments and docs against this package.
type Setting struct {
	Key     string // YAML key
	Flag    string // flag name without "-" ("" when there is none)
	Env     string // environment variable ("" when there is none)
	Default string
	Help    string
}

// Settings lists every scalar setting, in the order of Usage, followed by
// the YAML-only map settings.
func Settings() []Setting {
	out := make([]Setting, 0, len(settings)+1)
	for _, s := range settings {
		out = append(out, Setting{Key: s.key, Flag: s.flag, Env: s.env, Default: s.def, Help: s.help})
	}
	out = append(out, Setting{Key: "key_limits", Help: "per-key-id rate-limit overrides (YAML only)"})
	out = append(out, Setting{Key: "key_names", Help: "per-key-id labels for the /usage report (YAML only)"})
	out = append(out, Setting{Key: "migrated_keys", Help: "key ids whose v1 calls are answered 410 from a given time (YAML only)"})
	return out
}

// redactedIfSet hides a secret's value while saying whether it is set.
func redactedIfSet(v string) string {
	if v == "" {
		return ""
	}
	return "[redacted]"
}
