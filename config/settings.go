package config

import (
	"strconv"
	"strings"
	"time"
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
	// AnonymousRateLimitPerMinute is the limit per client address of
	// /graphql requests sent without any key, which are passed through
	// without Authorization; 0 refuses them (401)
	// (-anonymous-rate-limit, V1GW_ANONYMOUS_RATE_LIMIT_PER_MINUTE,
	// anonymous_rate_limit_per_minute).
	AnonymousRateLimitPerMinute int
	// CompatMode is "strict" or "lenient" (P1, docs/design.md)
	// (-compat-mode, V1GW_COMPAT_MODE, compat_mode).
	CompatMode string
	// ResetMode is "reject" or "restart" (P6, docs/design.md)
	// (-reset-mode, V1GW_RESET_MODE, reset_mode).
	ResetMode string
	// DefaultGPUTypes are the v1 GPU type ids the gateway may choose for a
	// GPU pod or endpoint created without gpuTypeIds, most preferred first; nil: any v1
	// GPU type, cheapest first among the most available (P3, docs/design.md)
	// (-default-gpu-types, V1GW_DEFAULT_GPU_TYPES, default_gpu_types; comma-separated).
	DefaultGPUTypes []string
	// FieldPolicy decides single v1 fields v2 cannot take as such
	// (translate.PolicyFields), overriding CompatMode or a soft
	// constraint's warning: field → "refuse" or "drop"; nil: each field's
	// kind decides (P1, docs/design.md)
	// (-field-policy, V1GW_FIELD_POLICY, field_policy; FIELD=POLICY,…, or a
	// YAML mapping).
	FieldPolicy map[string]string
	// GraphQLMode is how /graphql is answered (P11): "passthrough"
	// forwards to the vendor's GraphQL, "translate" answers from v2,
	// "auto" forwards until the vendor answers 410 Gone, then translates
	// for GraphQLAutoHold before it asks the vendor again
	// (-graphql-mode, V1GW_GRAPHQL_MODE, graphql_mode).
	GraphQLMode string
	// GraphQLAutoHold is how long auto mode translates after a 410 Gone
	// before it forwards again (-graphql-auto-hold, V1GW_GRAPHQL_AUTO_HOLD,
	// graphql_auto_hold).
	GraphQLAutoHold time.Duration
	// GraphQLPublicKey is the API key the translating door uses for the
	// public GraphQL queries (the GPU and data-center catalogs) that a
	// client sends without a key, as the vendor answered them; empty:
	// such queries are answered with an error naming this setting
	// (V1GW_GRAPHQL_PUBLIC_KEY, graphql_public_key; a secret).
	GraphQLPublicKey string
	// GraphQLMaxTokens, GraphQLMaxDepth, GraphQLMaxAliases,
	// GraphQLMaxRootFields, GraphQLMaxFields and GraphQLMaxFragmentSpreads
	// bound one document the translating GraphQL door accepts (P12), before
	// it is validated; 0: no limit (-graphql-max-tokens,
	// V1GW_GRAPHQL_MAX_TOKENS, graphql_max_tokens; and so on).
	GraphQLMaxTokens          int
	GraphQLMaxDepth           int
	GraphQLMaxAliases         int
	GraphQLMaxRootFields      int
	GraphQLMaxFields          int
	GraphQLMaxFragmentSpreads int
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
	DefaultAnonymousRateLimit    = 200
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
	DefaultGraphQLMode           = "auto"
	DefaultGraphQLAutoHold       = time.Hour
	// The GraphQL door's document limits: graphql.DefaultLimits (a proxy
	// test keeps them equal), measured in docs/operating.md.
	DefaultGraphQLMaxTokens          = 15000
	DefaultGraphQLMaxDepth           = 15
	DefaultGraphQLMaxAliases         = 30
	DefaultGraphQLMaxRootFields      = 20
	DefaultGraphQLMaxFields          = 2000
	DefaultGraphQLMaxFragmentSpreads = 100
	DefaultFactsTTL                  = 365 * 24 * time.Hour
	DefaultUsageHistoryDays          = 90
	DefaultRetireQuietDays           = 30
	MaxUsageHistoryDays              = 366
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
	GraphQLModes = []string{"auto", "passthrough", "translate"}
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

		AnonymousRateLimitPerMinute: DefaultAnonymousRateLimit,
		ResetMode:                   "reject",
		GraphQLMode:                 DefaultGraphQLMode,
		GraphQLAutoHold:             DefaultGraphQLAutoHold,
		GraphQLMaxTokens:            DefaultGraphQLMaxTokens,
		GraphQLMaxDepth:             DefaultGraphQLMaxDepth,
		GraphQLMaxAliases:           DefaultGraphQLMaxAliases,
		GraphQLMaxRootFields:        DefaultGraphQLMaxRootFields,
		GraphQLMaxFields:            DefaultGraphQLMaxFields,
		GraphQLMaxFragmentSpreads:   DefaultGraphQLMaxFragmentSpreads,
		LimiterFail:                 "open",
		LimiterTimeout:              DefaultLimiterTimeout,
		RequestTimeout:              DefaultRequestTimeout,
		DrainTimeout:                DefaultDrainTimeout,
		LogFormat:                   "json",
		LogLevel:                    "info",
		UpstreamRetries:             DefaultUpstreamRetries,
		BreakerFailures:             DefaultBreakerFailures,
		UpstreamMaxBody:             DefaultUpstreamMaxBody,
		BreakerOpenFor:              DefaultBreakerOpenFor,
		UsageFlushInterval:          DefaultUsageFlushInterval,

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
	{key: "anonymous_rate_limit_per_minute", flag: "anonymous-rate-limit", env: "V1GW_ANONYMOUS_RATE_LIMIT_PER_MINUTE", arg: "N", def: strconv.Itoa(DefaultAnonymousRateLimit),
		help: "requests per minute per client address (the TCP peer: behind a reverse proxy every client is that proxy's address) of /graphql calls sent without any key, which are passed through without Authorization (the vendor answers its public queries); never mixed with the per-key limits; 0 refuses keyless calls (401). /v1 and /v2 always need a key",
		set: func(c *Config, v string) error {
			n, err := parseInt(v)
			c.AnonymousRateLimitPerMinute = n
			return err
		}},
	{key: "compat_mode", flag: "compat-mode", env: "V1GW_COMPAT_MODE", arg: "MODE", def: "strict",
		help: "v1 fields without a v2 home that change what runs or who pays: strict rejects them with 400, lenient drops them (X-Compat-Dropped); soft constraints (placement minimums, countries, a price cap) are checked or accepted with a warning under both",
		set:  func(c *Config, v string) error { c.CompatMode = enumValue(v); return nil }},
	{key: "reset_mode", flag: "reset-mode", env: "V1GW_RESET_MODE", arg: "MODE", def: "reject",
		help: "POST /pods/{id}/reset: reject answers 400, restart emulates it (X-Compat-Emulated: reset)",
		set:  func(c *Config, v string) error { c.ResetMode = enumValue(v); return nil }},
	{key: "default_gpu_types", flag: "default-gpu-types", env: "V1GW_DEFAULT_GPU_TYPES", arg: "IDS", def: "",
		help: "comma-separated v1 GPU type ids the gateway may choose, in order of preference, for a GPU pod or endpoint created without gpuTypeIds (empty: any v1 GPU type, the most available, then the cheapest); GPU types differ in price by more than ten times",
		set:  func(c *Config, v string) error { c.DefaultGPUTypes = splitList(v); return nil }},
	{key: "field_policy", flag: "field-policy", env: "V1GW_FIELD_POLICY", arg: "FIELD=POLICY,...", def: "",
		help: "per-field override for a v1 field v2 cannot take as such (of compat_mode, or of a soft constraint's warning): FIELD=refuse or FIELD=drop, comma-separated, e.g. minRAMPerGPU=refuse,minVCPUPerGPU=refuse refuses the placement minimums v2 cannot check, interruptible=drop makes spot pods on-demand; in the file also a mapping {FIELD: refuse | drop}; the fields are listed in docs/operating.md",
		set: func(c *Config, v string) error {
			m, err := parseFieldPolicy(v)
			c.FieldPolicy = m
			return err
		}},
	{key: "graphql_mode", flag: "graphql-mode", env: "V1GW_GRAPHQL_MODE", arg: "MODE", def: DefaultGraphQLMode,
		help: "/graphql: passthrough forwards to the vendor's GraphQL, translate answers from v2 (the same plans as v1), auto forwards until the vendor answers 410 Gone, then translates",
		set:  func(c *Config, v string) error { c.GraphQLMode = enumValue(v); return nil }},
	{key: "graphql_auto_hold", flag: "graphql-auto-hold", env: "V1GW_GRAPHQL_AUTO_HOLD", arg: "DURATION", def: DefaultGraphQLAutoHold.String(),
		help: "graphql_mode auto: how long to translate after the vendor's GraphQL answered 410 Gone before forwarding again",
		set: func(c *Config, v string) error {
			d, err := parseDuration(v)
			c.GraphQLAutoHold = d
			return err
		}},
	{key: "graphql_public_key", env: "V1GW_GRAPHQL_PUBLIC_KEY", arg: "KEY", def: "",
		help: "API key the translating GraphQL door uses for public catalog queries (gpuTypes, dataCenters) sent without a key, as the vendor answered them; empty: they are refused, naming this setting",
		set:  func(c *Config, v string) error { c.GraphQLPublicKey = strings.TrimSpace(v); return nil }},
	intSetting("graphql_max_tokens", DefaultGraphQLMaxTokens, func(c *Config) *int { return &c.GraphQLMaxTokens },
		"most lexical tokens of one GraphQL document the translating door parses (the known clients send at most 449); past it the parser stops, answering MAX_TOKENS_LIMIT; 0: no limit"),
	intSetting("graphql_max_depth", DefaultGraphQLMaxDepth, func(c *Config) *int { return &c.GraphQLMaxDepth },
		"deepest nesting of selections in one GraphQL document, fragments expanded (clients: at most 5); deeper is MAX_DEPTH_LIMIT; 0: no limit"),
	intSetting("graphql_max_aliases", DefaultGraphQLMaxAliases, func(c *Config) *int { return &c.GraphQLMaxAliases },
		"most aliased fields in one GraphQL operation, fragments expanded (clients: at most 2); more is MAX_ALIASES_LIMIT; 0: no limit"),
	intSetting("graphql_max_root_fields", DefaultGraphQLMaxRootFields, func(c *Config) *int { return &c.GraphQLMaxRootFields },
		"most root fields in one GraphQL operation, each of which may call v2 (clients: at most 3); more is MAX_ROOT_FIELDS_LIMIT; 0: no limit"),
	intSetting("graphql_max_fields", DefaultGraphQLMaxFields, func(c *Config) *int { return &c.GraphQLMaxFields },
		"most fields one GraphQL document selects, in its operations (fragments expanded each time they are spread) and its fragments (clients: at most 379); more is MAX_HEIGHT_LIMIT; 0: no limit"),
	intSetting("graphql_max_fragment_spreads", DefaultGraphQLMaxFragmentSpreads, func(c *Config) *int { return &c.GraphQLMaxFragmentSpreads },
		"most fragment spreads in one GraphQL document, counted as graphql_max_fields counts fields (clients: none); more is MAX_FRAGMENT_SPREADS_LIMIT; 0: no limit"),
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

// intSetting is a setting holding a count >= 0 whose flag and environment
// variable are its key's (graphql_max_depth: -graphql-max-depth,
// V1GW_GRAPHQL_MAX_DEPTH).
func intSetting(key string, def int, field func(*Config) *int, help string) setting {
	return setting{key: key, flag: strings.ReplaceAll(key, "_", "-"), env: "V1GW_" + strings.ToUpper(key), arg: "N",
		def: strconv.Itoa(def), help: help,
		set: func(c *Config, v string) error {
			n, err := parseInt(v)
			*field(c) = n
			return err
		}}
}
