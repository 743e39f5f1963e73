package redisurl

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		url   string
		check func(t *testing.T, rt *Target)
	}{
		{"redis://:pw@localhost:6379/3", func(t *testing.T, rt *Target) {
			o := rt.Single
			if rt.Kind != "single" || o.Addr != "localhost:6379" || o.DB != 3 || o.Password != "pw" || o.TLSConfig != nil {
				t.Errorf("%+v", o)
			}
			// Defaults are the callers' business: go-redis's are kept.
			if o.MaxRetries != 0 || o.DialerRetries != 0 || o.ContextTimeoutEnabled || o.DisableIdentity || o.ClientName != "" {
				t.Errorf("go-redis defaults changed: %+v", o)
			}
			if rt.Sets("max_retries") {
				t.Error("Sets(max_retries) on a URL without it")
			}
		}},
		{"redis://localhost/0?max_retries=2", func(t *testing.T, rt *Target) {
			if o := rt.Single; o.MaxRetries != 2 || o.Addr != "localhost:6379" || !rt.Sets("max_retries") {
				t.Errorf("URL options lost: %+v", o)
			}
		}},
		{"rediss://u:p@cache.example:6380", func(t *testing.T, rt *Target) {
			if o := rt.Single; o.TLSConfig == nil || o.Username != "u" || o.Addr != "cache.example:6380" {
				t.Errorf("%+v", o)
			}
		}},
		{"unix:///run/redis.sock?db=2", func(t *testing.T, rt *Target) {
			if o := rt.Single; o.Network != "unix" || o.Addr != "/run/redis.sock" || o.DB != 2 {
				t.Errorf("%+v", o)
			}
		}},
		{"redis://:pw@h1:7000?addr=h2:7001&addr=h3:7002", func(t *testing.T, rt *Target) {
			o := rt.Cluster
			if rt.Kind != "cluster" || strings.Join(o.Addrs, ",") != "h1:7000,h2:7001,h3:7002" || o.Password != "pw" {
				t.Errorf("%+v", o)
			}
		}},
		{"rediss://h1:7000?addr=h1:7000", func(t *testing.T, rt *Target) {
			if rt.Kind != "cluster" || rt.Cluster.TLSConfig == nil {
				t.Errorf("%+v", rt.Cluster)
			}
		}},
		{"redis-sentinel://:p%40ss@s1:26379,s2:26380,s3/mymaster?db=4", func(t *testing.T, rt *Target) {
			o := rt.Failover
			if rt.Kind != "sentinel" || o.MasterName != "mymaster" || o.Password != "p@ss" || o.DB != 4 ||
				strings.Join(o.SentinelAddrs, ",") != "s1:26379,s2:26380,s3:26379" || o.TLSConfig != nil {
				t.Errorf("%+v", o)
			}
		}},
		{"rediss-sentinel://user:pw@[::1]:26379,[fe80::1]/m?sentinel_password=sp&sentinel_username=su", func(t *testing.T, rt *Target) {
			o := rt.Failover
			if strings.Join(o.SentinelAddrs, ",") != "[::1]:26379,[fe80::1]:26379" || o.TLSConfig == nil ||
				o.Username != "user" || o.Password != "pw" || o.SentinelPassword != "sp" || o.SentinelUsername != "su" || o.DB != 0 {
				t.Errorf("%+v", o)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			rt, err := Parse(tc.url)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, rt)
			// Common points into the options the target holds.
			*rt.Common().ClientName = "probe"
			if got := *rt.Common().ClientName; got != "probe" {
				t.Errorf("Common().ClientName = %q after setting it", got)
			}
			c := rt.NewClient()
			if err := c.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			if err := Check(tc.url); err != nil {
				t.Errorf("Check: %v", err)
			}
		})
	}
}

func TestParseErrorsHideSecrets(t *testing.T) {
	const pw = "hunter2secret"
	tests := []struct{ url, want string }{
		{"", "empty"},
		{"localhost:6379", "scheme"},
		{"http://:" + pw + "@h/0", "unsupported scheme"},
		{"redis://:" + pw + "@host:port/0", "port"},
		{"redis://:" + pw + "@host/x", "database"},
		{"redis://:" + pw + "@host/0?bogus=1", "bogus"},
		{"redis://:" + pw + "@host/%zz", ""},
		{"redis://:" + pw + "@ho st/", ""},
		{"redis://u:" + pw + "@h:1/3?addr=h:2", "database 0"},
		{"redis://u:" + pw + "@h:1?addr=nonsense", "addr"},
		{"redis://:" + pw + "@h/0?password=" + pw + "%zz", ""},
		{"redis-sentinel://:" + pw + "@s1:26379", "master name"},
		{"redis-sentinel://:" + pw + "@s1:26379/", "master name"},
		{"redis-sentinel://:" + pw + "@s1:99999/m", "port"},
		{"redis-sentinel://:" + pw + "@s1,,s2/m", "empty sentinel"},
		{"redis-sentinel://:" + pw + "@/m", "empty sentinel"},
		{"redis-sentinel://:" + pw + "@:26379/m", "no host"},
		{"redis-sentinel://:" + pw + "@s1/m?foo=1", "foo"},
		{"redis-sentinel://:" + pw + "@s1/m?db=-1", "database"},
		{"redis-sentinel://:" + pw + "%zz@s1/m", "password"},
		{"redis-sentinel://::1/m", "IPv6"},
		{"unix://:" + pw + "@/run/r.sock?db=x", ""},
	}
	for _, tc := range tests {
		_, err := Parse(tc.url)
		if err == nil {
			t.Errorf("%q: no error", tc.url)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, pw) || strings.Contains(msg, "hunter2") {
			t.Errorf("%q: error leaks the password: %s", tc.url, msg)
		}
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%q: error %q does not mention %q", tc.url, msg, tc.want)
		}
		if !strings.HasPrefix(msg, "invalid Redis URL: ") {
			t.Errorf("%q: error %q", tc.url, msg)
		}
		if err := Check(tc.url); err == nil || err.Error() != msg {
			t.Errorf("Check(%q) = %v, want %q", tc.url, err, msg)
		}
	}
}
