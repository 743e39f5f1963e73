package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

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

// parseFieldPolicy reads field_policy's text, "FIELD=POLICY,…": items
// trimmed, empty ones left out, policies lower-cased; nil when empty. The
// fields and policies are checked by Validate.
func parseFieldPolicy(v string) (map[string]string, error) {
	var m map[string]string
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		field, policy, ok := strings.Cut(item, "=")
		field, policy = strings.TrimSpace(field), enumValue(policy)
		if !ok || field == "" {
			return nil, fmt.Errorf("%q must be FIELD=POLICY (e.g. minRAMPerGPU=drop)", item)
		}
		if _, dup := m[field]; dup {
			return nil, fmt.Errorf("%s is given twice", field)
		}
		if m == nil {
			m = map[string]string{}
		}
		m[field] = policy
	}
	return m, nil
}

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
