package config

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

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
