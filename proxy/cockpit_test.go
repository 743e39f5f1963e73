package proxy

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/translate"
)

func TestAMigratedKeyIsRefusedWith410NamingTheV2RouteFromItsTimeOn(t *testing.T) {
	now := time.Date(2027, 1, 10, 12, 0, 0, 0, time.UTC)
	srv, rec := newTestGateway(t, func(c *config.Config, o *Options) {
		id := func(tok string) string { return limiter.KeyID([]byte(c.KeyHashSecret), tok) }
		c.MigratedKeys = map[string]time.Time{
			id("done"):  now.Add(-time.Hour),
			id("later"): now.Add(24 * time.Hour),
		}
		o.Now = func() time.Time { return now }
	})
	for _, tc := range []struct {
		name, method, path, token string
		status                    int
		message                   string
	}{
		{"a migrated key's list", "GET", "/v1/pods", "done", http.StatusGone,
			"this API key is marked as migrated to v2: v1 GET /v1/pods is no longer served for it; call GET /v2/pods on the v2 API instead"},
		{"a migrated key's action", "POST", "/v1/pods/abc/stop", "done", http.StatusGone, "call POST /v2/pods/{id}/action on the v2 API"},
		{"a migrated key's update via POST", "POST", "/v1/templates/t1/update", "done", http.StatusGone, "v1 POST /v1/templates/{templateId}/update is no longer served for it; call PATCH /v2/templates/{id}"},
		{"a key migrated from tomorrow", "GET", "/v1/pods", "later", http.StatusOK, ""},
		{"another key", "GET", "/v1/pods", "k", http.StatusOK, ""},
		{"a migrated key through the /v2 pass-through", "GET", "/v2/pods", "done", http.StatusOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := rec.count()
			var body *strings.Reader
			if tc.method == "POST" {
				body = strings.NewReader(`{"name":"x"}`)
			}
			var resp *http.Response
			if body != nil {
				resp = do(t, tc.method, srv.URL+tc.path, tc.token, body, map[string]string{"Content-Type": "application/json"})
			} else {
				resp = do(t, tc.method, srv.URL+tc.path, tc.token, nil, nil)
			}
			if tc.status != http.StatusGone {
				resp.Body.Close()
				if resp.StatusCode == http.StatusGone {
					t.Fatalf("status 410 for a key that is not migrated (yet)")
				}
				return
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if msg := readMessage(t, resp); !strings.Contains(msg, tc.message) {
				t.Fatalf("message %q\ndoes not contain %q", msg, tc.message)
			}
			if rec.count() != before {
				t.Fatal("a refused migrated key reached v2")
			}
		})
	}
}

func TestPrimaryV2NamesOneOfTheOperationsOwnV2CallsOfTheSameKind(t *testing.T) {
	want := map[string]string{
		"CreatePod":        "POST /v2/pods",
		"ListPods":         "GET /v2/pods",
		"UpdatePod":        "PATCH /v2/pods/{id}",
		"ResetPod":         "POST /v2/pods/{id}/action",
		"DeleteEndpoint":   "DELETE /v2/serverless/{id}",
		"CreateEndpoint":   "POST /v2/serverless",
		"PodBilling":       "GET /v2/billing/pods",
		"GetOpenAPI":       "",
		"ListTemplates":    "GET /v2/templates",
		"GetNetworkVolume": "GET /v2/network-volumes/{id}",
	}
	for i := range translate.Operations {
		op := &translate.Operations[i]
		got := PrimaryV2(op)
		if w, ok := want[op.Name]; ok && got != w {
			t.Errorf("%s: %q, want %q", op.Name, got, w)
		}
		if op.Kind != translate.KindStatic && !slices.Contains(op.V2, got) {
			t.Errorf("%s: %q is not one of its v2 calls %v", op.Name, got, op.V2)
		}
	}
}

func TestTheSunsetWarningHeaderNamesTheDateOnlyWhenAskedAndOnlyOnV1(t *testing.T) {
	sunset := time.Date(2027, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, path string
		warn       bool
		want       string
	}{
		{"v1 with sunset_warning", "/v1/pods", true, `299 v1gateway "the v1 API behind this gateway is switched off on 2027-06-30: move this client to v2 (https://example.com/migrate)"`},
		{"v1 without sunset_warning", "/v1/pods", false, ""},
		{"the /v2 pass-through", "/v2/pods", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := newTestGateway(t, func(c *config.Config, _ *Options) {
				c.Sunset, c.SunsetLink, c.SunsetWarning = sunset, "https://example.com/migrate", tc.warn
			})
			resp := do(t, "GET", srv.URL+tc.path, "k", nil, nil)
			resp.Body.Close()
			if got := resp.Header.Get("Warning"); got != tc.want {
				t.Errorf("Warning %q, want %q", got, tc.want)
			}
		})
	}
}
