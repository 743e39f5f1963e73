package config

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

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
		"listen":                          c.Listen,
		"admin_listen":                    c.AdminListen,
		"upstream_url":                    upstream,
		"redis_url":                       redis,
		"rate_limit_per_minute":           c.RateLimitPerMinute,
		"anonymous_rate_limit_per_minute": c.AnonymousRateLimitPerMinute,
		"compat_mode":                     c.CompatMode,
		"reset_mode":                      c.ResetMode,
		"default_gpu_types":               strings.Join(c.DefaultGPUTypes, ","),
		"field_policy":                    fieldPolicyText(c.FieldPolicy),
		"graphql_mode":                    c.GraphQLMode,
		"graphql_auto_hold":               c.GraphQLAutoHold.String(),
		"graphql_public_key":              redactedIfSet(c.GraphQLPublicKey),
		"graphql_max_tokens":              c.GraphQLMaxTokens,
		"graphql_max_depth":               c.GraphQLMaxDepth,
		"graphql_max_aliases":             c.GraphQLMaxAliases,
		"graphql_max_root_fields":         c.GraphQLMaxRootFields,
		"graphql_max_fields":              c.GraphQLMaxFields,
		"graphql_max_fragment_spreads":    c.GraphQLMaxFragmentSpreads,
		"config_file":                     c.ConfigFile,
		"key_hash_secret":                 secret,
		"key_hash_secret_generated":       c.KeyHashSecretGenerated,
		"key_limits":                      limits,
		"limiter_fail":                    c.LimiterFail,
		"limiter_timeout":                 c.LimiterTimeout.String(),
		"request_timeout":                 c.RequestTimeout.String(),
		"drain_timeout":                   c.DrainTimeout.String(),
		"sunset":                          sunset,
		"sunset_link":                     c.SunsetLink,
		"log_format":                      c.LogFormat,
		"log_level":                       c.LogLevel,
		"demo":                            c.Demo,
		"upstream_retries":                c.UpstreamRetries,
		"breaker_failures":                c.BreakerFailures,
		"breaker_open_for":                c.BreakerOpenFor.String(),
		"upstream_max_body":               c.UpstreamMaxBody,
		"usage_flush_interval":            c.UsageFlushInterval.String(),
		"upstream_header_timeout":         c.UpstreamHeaderTimeout.String(),
		"upstream_max_conns":              c.UpstreamMaxConns,
		"max_in_flight":                   c.MaxInFlight,
		"body_read_timeout":               c.BodyReadTimeout.String(),
		"usage_retention":                 c.UsageRetention.String(),
		"facts_ttl":                       c.FactsTTL.String(),
		"admin_token":                     redactedIfSet(c.AdminToken),
		"key_names":                       names,
		"usage_history_days":              c.UsageHistoryDays,
		"retire_quiet_days":               c.RetireQuietDays,
		"sunset_warning":                  c.SunsetWarning,
		"migrated_keys":                   migrated,
	}
}

// fieldPolicyText is field_policy as FIELD=POLICY,…, sorted by field.
func fieldPolicyText(m map[string]string) string {
	parts := make([]string, 0, len(m))
	for _, f := range sortedKeys(m) {
		parts = append(parts, f+"="+m[f])
	}
	return strings.Join(parts, ",")
}

// redactedIfSet hides a secret's value while saying whether it is set.
func redactedIfSet(v string) string {
	if v == "" {
		return ""
	}
	return "[redacted]"
}
