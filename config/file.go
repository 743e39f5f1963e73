package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

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
	AnonymousRateLimit    *string           `yaml:"anonymous_rate_limit_per_minute"`
	CompatMode            *string           `yaml:"compat_mode"`
	ResetMode             *string           `yaml:"reset_mode"`
	DefaultGPUTypes       *string           `yaml:"default_gpu_types"`
	FieldPolicy           *fieldPolicyNode  `yaml:"field_policy"`
	GraphQLMode           *string           `yaml:"graphql_mode"`
	GraphQLAutoHold       *string           `yaml:"graphql_auto_hold"`
	GraphQLPublicKey      *string           `yaml:"graphql_public_key"`
	GraphQLMaxTokens      *string           `yaml:"graphql_max_tokens"`
	GraphQLMaxDepth       *string           `yaml:"graphql_max_depth"`
	GraphQLMaxAliases     *string           `yaml:"graphql_max_aliases"`
	GraphQLMaxRootFields  *string           `yaml:"graphql_max_root_fields"`
	GraphQLMaxFields      *string           `yaml:"graphql_max_fields"`
	GraphQLMaxSpreads     *string           `yaml:"graphql_max_fragment_spreads"`
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
		"redis_url": f.RedisURL, "rate_limit_per_minute": f.RateLimitPerMinute, "anonymous_rate_limit_per_minute": f.AnonymousRateLimit,
		"compat_mode": f.CompatMode, "reset_mode": f.ResetMode, "key_hash_secret": f.KeyHashSecret,
		"default_gpu_types": f.DefaultGPUTypes, "field_policy": f.FieldPolicy.text(),
		"graphql_mode": f.GraphQLMode, "graphql_auto_hold": f.GraphQLAutoHold, "graphql_public_key": f.GraphQLPublicKey,
		"graphql_max_tokens": f.GraphQLMaxTokens, "graphql_max_depth": f.GraphQLMaxDepth, "graphql_max_aliases": f.GraphQLMaxAliases,
		"graphql_max_root_fields": f.GraphQLMaxRootFields, "graphql_max_fields": f.GraphQLMaxFields, "graphql_max_fragment_spreads": f.GraphQLMaxSpreads,
		"limiter_fail": f.LimiterFail, "limiter_timeout": f.LimiterTimeout, "request_timeout": f.RequestTimeout, "drain_timeout": f.DrainTimeout,
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
	if key == "field_policy" {
		return checkFieldPolicyNode(v, kind)
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

// fieldPolicyNode is field_policy in the file: a mapping {FIELD: POLICY}
// or the text of the flag, read as that text ("FIELD=POLICY,…") so that
// every source is parsed by the same rules.
type fieldPolicyNode struct{ s string }

func (f *fieldPolicyNode) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		f.s = n.Value
		return nil
	}
	var parts []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		parts = append(parts, n.Content[i].Value+"="+n.Content[i+1].Value)
	}
	f.s = strings.Join(parts, ",")
	return nil
}

// text is the setting's text, nil when the file has none.
func (f *fieldPolicyNode) text() *string {
	if f == nil {
		return nil
	}
	return &f.s
}

// checkFieldPolicyNode checks field_policy's shape in the file.
func checkFieldPolicyNode(v *yaml.Node, kind func(*yaml.Node) string) error {
	switch {
	case v.Kind == yaml.ScalarNode:
		return nil
	case v.Kind != yaml.MappingNode:
		return fmt.Errorf("line %d: field_policy: must be a mapping {<field>: refuse | drop}, not %s", v.Line, kind(v))
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode || strings.ContainsAny(k.Value, ",=") {
			return fmt.Errorf("line %d: field_policy: %q is not a v1 field name", k.Line, k.Value)
		}
		if val.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: field_policy: %s: must be refuse or drop, not %s", val.Line, k.Value, kind(val))
		}
	}
	return nil
}

// oneLine folds yaml.v3's multi-line error messages into one line.
func oneLine(s string) string {
	s = strings.TrimPrefix(s, "yaml: ")
	s = strings.TrimPrefix(s, "unmarshal errors:")
	return strings.Join(strings.Fields(s), " ")
}
