package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/v1gateway/v1gateway/translate"
)

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
	for _, l := range []struct {
		key string
		n   int
	}{
		{"graphql_max_tokens", c.GraphQLMaxTokens}, {"graphql_max_depth", c.GraphQLMaxDepth},
		{"graphql_max_aliases", c.GraphQLMaxAliases}, {"graphql_max_root_fields", c.GraphQLMaxRootFields},
		{"graphql_max_fields", c.GraphQLMaxFields}, {"graphql_max_fragment_spreads", c.GraphQLMaxFragmentSpreads},
	} {
		if l.n < 0 {
			return c.errorf(l.key, "%q must be >= 0 (0: no limit)", strconv.Itoa(l.n))
		}
	}
	if c.AnonymousRateLimitPerMinute < 0 {
		return c.errorf("anonymous_rate_limit_per_minute", "%q must be >= 0 (0 refuses keyless /graphql calls)", strconv.Itoa(c.AnonymousRateLimitPerMinute))
	}
	for _, e := range []struct {
		key, val string
		allowed  []string
	}{
		{"compat_mode", c.CompatMode, CompatModes},
		{"reset_mode", c.ResetMode, ResetModes},
		{"graphql_mode", c.GraphQLMode, GraphQLModes},
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
	if err := c.checkFieldPolicy(); err != nil {
		return err
	}
	if c.GraphQLAutoHold < time.Second {
		return c.errorf("graphql_auto_hold", "%q must be at least 1s", c.GraphQLAutoHold.String())
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

// checkFieldPolicy checks field_policy against the fields v2 cannot take
// as such (translate.PolicyFields) and the two policies.
func (c *Config) checkFieldPolicy() error {
	for _, field := range sortedKeys(c.FieldPolicy) {
		if !translate.IsPolicyField(field) {
			hint := ""
			for _, known := range translate.PolicyFieldNames() {
				if strings.EqualFold(known, field) {
					hint = " (did you mean " + known + "?)"
				}
			}
			return c.errorf("field_policy", "%q is not a field v2 cannot take as such%s; field_policy names one of %s",
				field, hint, strings.Join(translate.PolicyFieldNames(), ", "))
		}
		if p := c.FieldPolicy[field]; !contains(translate.FieldPolicyValues, p) {
			return c.errorf("field_policy", "%s: %q must be one of %s", field, p, strings.Join(translate.FieldPolicyValues, ", "))
		}
	}
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
