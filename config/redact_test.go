package config

import (
	"fmt"
	"strings"
	"testing"
)

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
