package proxy

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/internal/testredis"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/usage"
)

// secretBodies are valid v1 bodies, so that every operation gets as far as
// its v2 calls.
var secretBodies = map[string]string{
	"CreatePod":                   `{"name":"x","imageName":"img:1","gpuTypeIds":["NVIDIA RTX A4000"],"locked":true}`,
	"UpdatePod":                   `{"name":"n"}`,
	"UpdatePodViaPost":            `{"name":"n"}`,
	"CreateEndpoint":              `{"templateId":"t1","name":"gen","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`,
	"UpdateEndpoint":              `{"name":"n"}`,
	"UpdateEndpointViaPost":       `{"name":"n"}`,
	"CreateTemplate":              `{"name":"t","imageName":"img:1"}`,
	"UpdateTemplate":              `{"name":"t2"}`,
	"UpdateTemplateViaPost":       `{"name":"t2"}`,
	"CreateNetworkVolume":         `{"name":"d","size":100,"dataCenterId":"EU-RO-1"}`,
	"UpdateNetworkVolume":         `{"name":"n"}`,
	"UpdateNetworkVolumeViaPost":  `{"name":"n"}`,
	"CreateContainerRegistryAuth": `{"name":"a","username":"b","password":"c"}`,
}

// The bearer token is a secret: driven through every route — the 37 v1
// operations, the /v2 pass-through, and the error paths (401, 400, 404,
// 405, 413, upstream down, open breaker) — it appears in no log line, no
// answer (body or header), no metric, no /usage report and no Redis key
// name or value.
func TestE2ETokenNeverLeaks(t *testing.T) {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	token := "sk-SECRET-" + hex.EncodeToString(rnd[:]) + "-t0ken"
	redisURL := testredis.URL(t)
	lim, err := limiter.NewRedis(limiter.RedisOptions{URL: redisURL})
	if err != nil {
		t.Fatal(err)
	}
	client, err := usage.NewRedisClient(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	prefix := "v1gwtest:" + hex.EncodeToString(rnd[:]) + ":usage:"
	t.Cleanup(func() {
		// Test keys get a TTL: a shared Redis keeps nothing of them for long.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		iter := client.Scan(ctx, 0, prefix+"*", 100).Iterator()
		for iter.Next(ctx) {
			client.Expire(ctx, iter.Val(), 10*time.Minute)
		}
		client.Close()
	})
	batch := usage.New(usage.Options{Store: usage.NewRedisStore(client, prefix)})
	secret := "secret-" + hex.EncodeToString(rnd[:])
	var logs logBuffer
	e := newSimEnv(t, func(c *config.Config, o *Options) {
		withLogger(&logs)(c, o)
		c.KeyHashSecret = secret
		c.RateLimitPerMinute = 1000
		o.Limiter = lim
		o.Usage = batch
		o.Resilience.Retries = 0
	})
	var answers strings.Builder
	send := func(method, path, body string, hdr http.Header) int {
		t.Helper()
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, e.srv.URL+path, r)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		for k, v := range hdr {
			req.Header[k] = v
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		answers.WriteString(method + " " + path + "\n")
		for k, vs := range resp.Header {
			answers.WriteString(k + ": " + strings.Join(vs, ",") + "\n")
		}
		answers.Write(b)
		answers.WriteString("\n")
		return resp.StatusCode
	}
	for i := range translate.Operations {
		op := &translate.Operations[i]
		st := send(op.Method, concretePath(op.Path), secretBodies[op.Name], nil)
		if st == http.StatusNotImplemented || st == http.StatusMethodNotAllowed || st >= 500 {
			t.Errorf("%s: status %d", op.Name, st)
		}
	}
	// Error paths and the pass-through.
	send("GET", "/v2/pods", "", nil)
	send("POST", "/v2/pods", `{"name":"x"}`, nil)
	send("GET", "/v2/nope/x", "", nil)
	send("GET", "/v1/nope", "", nil)
	send("PUT", "/v1/pods", "{}", nil)
	send("GET", "/v1/pods/..", "", nil)
	send("POST", "/v1/pods", `{"name":"a","name":"b"}`, nil)
	send("POST", "/v1/templates", strings.Repeat("x", MaxBodyBytes+1), nil)
	send("GET", "/v1/pods", "", http.Header{"Authorization": {"Basic " + token}})
	send("GET", "/v1/pods", "", http.Header{"Authorization": {"Bearer " + token, "Bearer " + token + "2"}})
	send("GET", "/v1/pods", "", http.Header{"Authorization": {"bearer  " + token + "  "}})
	e.down.Store(true)
	for range 5 {
		send("GET", "/v1/pods", "", nil) // failures, then the open breaker
		send("GET", "/v2/pods", "", nil)
	}
	e.down.Store(false)

	check := func(what, s string) {
		t.Helper()
		if strings.Contains(s, token) || strings.Contains(s, "SECRET") {
			i := strings.Index(s, "SECRET")
			t.Errorf("the token appears in %s: …%s…", what, s[max(0, i-200):min(len(s), i+100)])
		}
	}
	check("the answers", answers.String())
	check("the logs", logs.String())
	if len(logs.lines(t, "request")) < 37 {
		t.Errorf("only %d access lines: the logs were not captured", len(logs.lines(t, "request")))
	}
	metrics := scrape(t, e.admin.URL)
	check("/metrics", metrics)
	if !strings.Contains(metrics, `operation="CreatePod"`) {
		t.Errorf("/metrics has no per-operation series: the scrape is not the gateway's")
	}
	for _, p := range []string{"/usage", "/usage?format=csv", "/readyz"} {
		resp, err := http.Get(e.admin.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		check(p, string(b))
		if p == "/usage" && !strings.Contains(string(b), "CreatePod") {
			t.Errorf("/usage recorded nothing: %s", b)
		}
	}
	checkRedis(t, client, token, limiter.KeyID([]byte(secret), token), prefix)
}

// checkRedis scans every key of the Redis: no name and no value contains
// the token; the limiter's and the usage store's keys of this key id exist
// (so that the scan looked where the gateway writes).
func checkRedis(t *testing.T, c redis.UniversalClient, token, keyID, usagePrefix string) {
	t.Helper()
	ctx := context.Background()
	sawLimiter, sawUsage := false, false
	var cursor uint64
	for {
		keys, next, err := c.Scan(ctx, cursor, "*", 500).Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if strings.Contains(k, token) {
				t.Errorf("Redis key %q contains the token", k)
			}
			if strings.HasPrefix(k, limiter.RedisKeyPrefix+"{"+keyID+"}") {
				sawLimiter = true
			}
			if strings.HasPrefix(k, usagePrefix) {
				sawUsage = true
			}
			var vals []string
			switch typ, _ := c.Type(ctx, k).Result(); typ {
			case "string":
				v, _ := c.Get(ctx, k).Result()
				vals = []string{v}
			case "hash":
				m, _ := c.HGetAll(ctx, k).Result()
				for f, v := range m {
					vals = append(vals, f, v)
				}
			case "set":
				vals, _ = c.SMembers(ctx, k).Result()
			case "zset":
				vals, _ = c.ZRange(ctx, k, 0, -1).Result()
			case "list":
				vals, _ = c.LRange(ctx, k, 0, -1).Result()
			}
			for _, v := range vals {
				if strings.Contains(v, token) {
					t.Errorf("Redis key %q holds the token", k)
				}
			}
		}
		cursor = next
		if cursor == 0 {
			break
		}
	}
	if !sawLimiter || !sawUsage {
		t.Errorf("no Redis keys of this key id (limiter %v, usage %v): the scan proves nothing", sawLimiter, sawUsage)
	}
}
