package config

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestYAMLTypes(t *testing.T) {
	// Unquoted YAML scalars (ints, bools, dates) are read as their text.
	f := writeFile(t, `
rate_limit_per_minute: 0
request_timeout: 45
drain_timeout: 2m
sunset: 2026-11-15
demo: yes
redis_url: ""
`)
	c := mustLoad(t, []string{"-config", f}, env{"V1GW_REDIS_URL": ""})
	if c.RateLimitPerMinute != 0 || c.RequestTimeout != 45*time.Second || c.DrainTimeout != 2*time.Minute ||
		!c.Sunset.Equal(time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)) || !c.Demo || c.RedisURL != "" {
		t.Errorf("got %+v", c.Redacted())
	}
	if c.ConfigFile != f {
		t.Errorf("ConfigFile = %q, want %q", c.ConfigFile, f)
	}

	// An empty file and a file of comments are fine.
	for _, content := range []string{"", "# nothing\n", "---\n"} {
		f := writeFile(t, content)
		if _, err := Load([]string{"-config", f}, env{}.get); err != nil {
			t.Errorf("file %q: %v", content, err)
		}
	}
}

func TestKeyLimits(t *testing.T) {
	f := writeFile(t, `
key_hash_secret: s3cr3t-value
key_limits:
  `+idA+`: 600
  `+idB+`: 0
`)
	c := mustLoad(t, []string{"-config", f}, env{})
	if len(c.KeyLimits) != 2 || c.KeyLimits[idA] != 600 || c.KeyLimits[idB] != 0 {
		t.Errorf("KeyLimits = %v", c.KeyLimits)
	}
	if r := c.Redacted()["key_limits"].(map[string]int); r[idA] != 600 {
		t.Errorf("Redacted key_limits = %v", r)
	}
}

func TestKeyNames(t *testing.T) {
	f := writeFile(t, `
key_hash_secret: s3cr3t-value
key_names:
  `+idA+`: "  CI bot (team infra) "
  `+idB+`: nightly export
`)
	c := mustLoad(t, []string{"-config", f}, env{})
	if len(c.KeyNames) != 2 || c.KeyNames[idA] != "CI bot (team infra)" || c.KeyNames[idB] != "nightly export" {
		t.Errorf("KeyNames = %q", c.KeyNames)
	}
	if r := c.Redacted()["key_names"].(map[string]string); r[idB] != "nightly export" {
		t.Errorf("Redacted key_names = %v", r)
	}
}

func TestMigratedKeysAndTheCockpitSettings(t *testing.T) {
	f := writeFile(t, `
key_hash_secret: s3cr3t-value
usage_history_days: 120
retire_quiet_days: 45
sunset_warning: true
migrated_keys:
  `+idA+`: 2027-01-15
  `+idB+`: "2027-02-01T12:00:00Z"
`)
	c := mustLoad(t, []string{"-config", f}, env{})
	if c.UsageHistoryDays != 120 || c.RetireQuietDays != 45 || !c.SunsetWarning {
		t.Errorf("history %d, quiet %d, warning %v", c.UsageHistoryDays, c.RetireQuietDays, c.SunsetWarning)
	}
	if !c.MigratedKeys[idA].Equal(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)) || !c.MigratedKeys[idB].Equal(time.Date(2027, 2, 1, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("MigratedKeys = %v", c.MigratedKeys)
	}
	if r := c.Redacted()["migrated_keys"].(map[string]string); r[idA] != "2027-01-15T00:00:00Z" {
		t.Errorf("Redacted migrated_keys = %v", r)
	}
	d := mustLoad(t, nil, env{})
	if d.UsageHistoryDays != 90 || d.RetireQuietDays != 30 || d.SunsetWarning || d.MigratedKeys != nil {
		t.Errorf("defaults: history %d, quiet %d, warning %v, migrated %v", d.UsageHistoryDays, d.RetireQuietDays, d.SunsetWarning, d.MigratedKeys)
	}
}

func TestFileErrorNamesTheFile(t *testing.T) {
	f := writeFile(t, "listen: \":1\"\nbogus: 1\n")
	_, err := Load([]string{"-config", f}, env{}.get)
	want := fmt.Sprintf("config: %s: line 2: unknown setting \"bogus\" (known: listen,", f)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error = %v\nwant prefix %q", err, want)
	}
	f = writeFile(t, "key_hash_secret: x\nkey_limits: {"+idA+": }\n")
	_, err = Load([]string{"-config", f}, env{}.get)
	want = fmt.Sprintf(`config: %s: key_limits: key id "%s": "" is not an integer`, f, idA)
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant %q", err, want)
	}
}
