package limiter

// Integration tests on a real Redis (internal/testredis): V1GW_TEST_REDIS_URL
// when set, else a throwaway redis-server; skipped without either unless
// V1GW_REQUIRE_REDIS=1. Tests sharing a Redis use fresh random key ids and
// flush nothing.

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/v1gateway/v1gateway/internal/testredis"
)

// Silence go-redis's own log lines (dial failures while a test has stopped
// Redis on purpose).
func init() { SetDriverLogger(nil) }

// testSecret makes key ids unique to this test process, so tests sharing a
// Redis (and earlier runs) never see each other's counters.
var testSecret = func() []byte {
	b := make([]byte, 16)
	rand.Read(b)
	return b
}()

var keySeq atomic.Int64

func freshKey(t testing.TB) string {
	return KeyID(testSecret, fmt.Sprintf("%s#%d", t.Name(), keySeq.Add(1)))
}

func newReal(t testing.TB, o RedisOptions) *Redis {
	t.Helper()
	r, err := NewRedis(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// adminClient is a plain client for inspecting a (non-cluster) Redis.
func adminClient(t testing.TB, url string) *redis.Client {
	t.Helper()
	o, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(o)
	t.Cleanup(func() { c.Close() })
	return c
}

// serverWindow is the start of the current window by the Redis clock.
func serverWindow(t testing.TB, c redis.Cmdable) int64 {
	t.Helper()
	now, err := c.Time(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	return now.Unix() - now.Unix()%60
}

// inOneWindow runs body, which returns its assertions, and runs them only
// if Redis's window did not change meanwhile; a body that straddled a
// minute boundary is run again (with fresh keys). The tests' bodies take
// well under a second, so a second attempt always fits in one window.
func inOneWindow(t *testing.T, c redis.Cmdable, body func() (check func())) {
	t.Helper()
	for attempt := 0; ; attempt++ {
		before := serverWindow(t, c)
		check := body()
		if serverWindow(t, c) == before {
			check()
			return
		}
		if attempt == 2 {
			t.Fatal("three attempts straddled a window boundary")
		}
		t.Logf("attempt %d straddled a window boundary; again", attempt+1)
	}
}

// counterKeys lists the limiter's counters of keyID.
func counterKeys(t testing.TB, c redis.Cmdable, keyID string) []string {
	t.Helper()
	keys, err := scanAll(c, RedisKeyPrefix+"{"+keyID+"}:*")
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

func scanAll(c redis.Cmdable, match string) ([]string, error) {
	var keys []string
	var cursor uint64
	for {
		ks, next, err := c.Scan(context.Background(), cursor, match, 1000).Result()
		if err != nil {
			return nil, err
		}
		keys = append(keys, ks...)
		if cursor = next; cursor == 0 {
			return keys, nil
		}
	}
}

func TestRedisExactQuota(t *testing.T) {
	url := testredis.URL(t)
	admin := adminClient(t, url)
	ctx := context.Background()
	const q = 25
	inOneWindow(t, admin, func() func() {
		r := newReal(t, RedisOptions{URL: url})
		key := freshKey(t)
		var ds []Decision
		var errs []error
		for range 40 {
			d, err := r.Allow(ctx, key, q)
			ds, errs = append(ds, d), append(errs, err)
		}
		s := r.Stats()
		// A second replica has no local cache: Redis itself denies.
		r2 := newReal(t, RedisOptions{URL: url})
		d2, err2 := r2.Allow(ctx, key, q)
		s2 := r2.Stats()
		win := serverWindow(t, admin)
		return func() {
			for i, d := range ds {
				if errs[i] != nil {
					t.Fatalf("call %d: %v", i+1, errs[i])
				}
				if d.Allowed != (i < q) || d.Remaining != max(q-1-i, 0) || d.Limit != q || d.Reset <= 0 || d.Reset > Window {
					t.Errorf("call %d: %+v", i+1, d)
				}
			}
			if s.LocalDenied != 40-q || s.Fallbacks != 0 || s.RedisErrors != 0 || s.Fallback {
				t.Errorf("stats %+v: want %d local denials and no fallback", s, 40-q)
			}
			if err2 != nil || d2.Allowed || d2.Remaining != 0 || s2.LocalDenied != 0 {
				t.Errorf("second replica: %+v %v %+v", d2, err2, s2)
			}
			keys := counterKeys(t, admin, key)
			if len(keys) != 1 || keys[0] != windowKey(key, win) {
				t.Fatalf("counters %v, want [%s]", keys, windowKey(key, win))
			}
			if v, err := admin.Get(ctx, keys[0]).Result(); err != nil || v != strconv.Itoa(q+1) {
				t.Errorf("counter = %q, %v; want %d", v, err, q+1)
			}
			if ttl := admin.TTL(ctx, keys[0]).Val(); ttl <= 0 || ttl > (60+expiryMargin)*time.Second {
				t.Errorf("counter TTL %v", ttl)
			}
		}
	})
}

func TestRedisReplicasShareQuota(t *testing.T) {
	url := testredis.URL(t)
	admin := adminClient(t, url)
	ctx := context.Background()
	const qa, qb = 40, 15
	inOneWindow(t, admin, func() func() {
		// Three limiters, as three gateway replicas would have.
		var rs [3]*Redis
		for i := range rs {
			rs[i] = newReal(t, RedisOptions{URL: url})
		}
		keyA, keyB, keyC := freshKey(t), freshKey(t), freshKey(t)
		var allowedA, allowedB, calls, errs atomic.Int64
		var wg sync.WaitGroup
		for _, r := range rs {
			for range 3 {
				wg.Go(func() {
					for range 30 {
						d, err := r.Allow(ctx, keyA, qa)
						calls.Add(1)
						if err != nil {
							errs.Add(1)
						}
						if d.Allowed {
							allowedA.Add(1)
						}
					}
				})
			}
			wg.Go(func() {
				for range 25 {
					d, err := r.Allow(ctx, keyB, qb)
					if err != nil {
						errs.Add(1)
					}
					if d.Allowed {
						allowedB.Add(1)
					}
				}
			})
		}
		wg.Wait()
		// Another key is unaffected by A's and B's exhaustion.
		var dc [3]Decision
		for i, r := range rs {
			dc[i], _ = r.Allow(ctx, keyC, qa)
		}
		var local, fallbacks uint64
		for _, r := range rs {
			s := r.Stats()
			local += s.LocalDenied
			fallbacks += s.Fallbacks + s.RedisErrors
		}
		return func() {
			if errs.Load() != 0 || fallbacks != 0 {
				t.Fatalf("%d errors, %d fallbacks/Redis errors", errs.Load(), fallbacks)
			}
			if allowedA.Load() != qa {
				t.Errorf("key A: %d of %d requests allowed across 3 replicas, want exactly %d", allowedA.Load(), calls.Load(), qa)
			}
			if allowedB.Load() != qb {
				t.Errorf("key B: %d allowed, want exactly %d", allowedB.Load(), qb)
			}
			for i, d := range dc {
				if !d.Allowed || d.Remaining != qa-1-i {
					t.Errorf("key C on replica %d: %+v", i, d)
				}
			}
			if local == 0 {
				t.Error("no replica used its local over-limit cache")
			}
		}
	})
}

// loadGen calls Allow from a few goroutines until stopped, counting
// errors: with fail-open, not one may fail.
type loadGen struct {
	once   sync.Once
	stop   chan struct{}
	wg     sync.WaitGroup
	calls  atomic.Int64
	errors atomic.Int64
}

func startLoad(r *Redis, key string, goroutines int) *loadGen {
	g := &loadGen{stop: make(chan struct{})}
	for range goroutines {
		g.wg.Go(func() {
			for {
				select {
				case <-g.stop:
					return
				default:
				}
				if _, err := r.Allow(context.Background(), key, 1<<30); err != nil {
					g.errors.Add(1)
				}
				g.calls.Add(1)
			}
		})
	}
	return g
}

func (g *loadGen) halt() { g.once.Do(func() { close(g.stop) }); g.wg.Wait() }

func TestRedisKilledAndRestartedFailOpen(t *testing.T) {
	srv := testredis.Start(t)
	admin := adminClient(t, srv.URL())
	ctx := context.Background()
	log := &logRecorder{}
	// Two replicas; defaults: 50ms timeout, breaker opens after 3 failures
	// and probes every 500ms.
	r := newReal(t, RedisOptions{URL: srv.URL(), Logger: log.Log})
	r2 := newReal(t, RedisOptions{URL: srv.URL()})
	load := startLoad(r, freshKey(t), 2)
	load2 := startLoad(r2, freshKey(t), 1)
	defer load.halt()
	defer load2.halt()

	waitFor(t, 2*time.Second, "decisions on Redis", func() bool { return r.Stats().RedisCalls > 50 && r.Healthy() })
	srv.Stop()
	waitFor(t, 2*time.Second, "fallback", func() bool { return r.Stats().Fallback && r.Stats().Fallbacks > 100 })
	// While Redis is down, the same per-key quota holds on each replica.
	key := freshKey(t)
	for i := range 8 {
		d, err := r.Allow(ctx, key, 5)
		if err != nil || d.Allowed != (i < 5) || d.Limit != 5 {
			t.Fatalf("fallback call %d: %+v %v", i, d, err)
		}
	}
	if n := log.count("Redis is unreachable"); n != 1 {
		t.Errorf("%d 'unreachable' log lines, want 1:\n%s", n, log.all())
	}

	srv.Restart()
	back := time.Now()
	waitFor(t, 3*time.Second, "back on Redis", func() bool { return r.Healthy() && r2.Healthy() })
	if el := time.Since(back); el > time.Second {
		t.Errorf("limits resumed %v after Redis returned, want within 1s", el)
	}
	t.Logf("limits resumed %v after Redis returned", time.Since(back).Round(time.Millisecond))
	load.halt()
	load2.halt()

	if n := load.errors.Load() + load2.errors.Load(); n != 0 {
		t.Fatalf("%d of %d requests failed while Redis was down", n, load.calls.Load()+load2.calls.Load())
	}
	if n := log.count("Redis is back"); n != 1 {
		t.Errorf("%d 'back' log lines, want 1:\n%s", n, log.all())
	}
	// Limits are shared through Redis again.
	inOneWindow(t, admin, func() func() {
		key := freshKey(t)
		var allowed int
		for i := range 8 {
			rr := r
			if i%2 == 1 {
				rr = r2
			}
			if d, err := rr.Allow(ctx, key, 5); err != nil {
				t.Fatal(err)
			} else if d.Allowed {
				allowed++
			}
		}
		v, _ := admin.Get(ctx, windowKey(key, serverWindow(t, admin))).Result()
		return func() {
			if allowed != 5 || v == "" {
				t.Errorf("after recovery: %d of 8 allowed across two replicas, counter %q; want 5 on Redis", allowed, v)
			}
		}
	})
}

func TestRedisKilledAndRestartedFailClosed(t *testing.T) {
	srv := testredis.Start(t)
	ctx := context.Background()
	r := newReal(t, RedisOptions{URL: srv.URL(), FailClosed: true})
	key := freshKey(t)
	if _, err := r.Allow(ctx, key, 100); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	for i := range 10 {
		_, err := r.Allow(ctx, key, 100)
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("call %d with Redis down: %v, want ErrUnavailable", i, err)
		}
	}
	srv.Restart()
	el := waitFor(t, 3*time.Second, "back on Redis", func() bool {
		_, err := r.Allow(ctx, key, 100)
		return err == nil
	})
	if el > time.Second {
		t.Errorf("decisions resumed %v after Redis returned, want within 1s", el)
	}
}

func TestRedisClusterKeyNaming(t *testing.T) {
	srv := testredis.StartCluster(t)
	ctx := context.Background()
	// A cluster URL: the addr= parameter selects Redis Cluster.
	r := newReal(t, RedisOptions{URL: srv.URL() + "?addr=" + srv.Addr()})
	if r.target.Kind != "cluster" {
		t.Fatalf("kind %q", r.target.Kind)
	}
	key := freshKey(t)
	for i := range 3 {
		d, err := r.Allow(ctx, key, 2)
		if err != nil || d.Allowed != (i < 2) {
			t.Fatalf("call %d through the cluster client: %+v %v", i, d, err)
		}
	}
	if s := r.Stats(); s.Fallbacks != 0 || s.RedisErrors != 0 {
		t.Fatalf("stats %+v", s)
	}
	node := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer node.Close()
	keys := counterKeys(t, node, key)
	if len(keys) != 1 {
		t.Fatalf("counters %v", keys)
	}
	full := keys[0]
	if hashTag(full) != key {
		t.Errorf("hash tag of %q is %q, want the key id", full, hashTag(full))
	}
	slot := func(k string) int64 {
		n, err := node.ClusterKeySlot(ctx, k).Result()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if a, b, c := slot(full), slot(keyPrefix(key)), slot(key); a != b || b != c || a != int64(keySlot(full)) {
		t.Errorf("slots: counter %d, KEYS[1] %d, key id %d, computed %d", a, b, c, keySlot(full))
	}
	// With a shebang, Redis checks that a script touches only keys of
	// its declared keys' slot: the script passes that check...
	res, err := node.Eval(ctx, "#!lua\n"+rateScriptSrc, []string{keyPrefix(key)}, 60, expiryMargin).Int64Slice()
	if err != nil || len(res) != 2 || res[0] != 3 {
		t.Fatalf("script with cross-slot checking: %v %v", res, err)
	}
	// ...which is really enforced (control: a key of another slot).
	other := "v1gw:rl:{x}:1"
	for i := 0; keySlot(other) == keySlot(full); i++ {
		other = fmt.Sprintf("v1gw:rl:{x%d}:1", i)
	}
	err = node.Eval(ctx, "#!lua\nreturn redis.call('INCR', ARGV[1])", []string{keyPrefix(key)}, other).Err()
	if err == nil || !strings.Contains(err.Error(), "same slot") {
		t.Fatalf("control: cross-slot access not rejected: %v", err)
	}
	// A shared round trip through the cluster client: keys of different
	// slots in one pipeline, after a script flush (EVALSHA, NOSCRIPT, EVAL).
	if err := node.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	var batch []*pendingCall
	for range 6 {
		batch = append(batch, &pendingCall{key: keyPrefix(freshKey(t)), done: make(chan struct{})})
	}
	r.runBatch(batch, nil)
	for i, pc := range batch {
		<-pc.done
		if pc.err != nil || len(pc.vals) != 2 || pc.vals[0] != 1 {
			t.Errorf("batched call %d through the cluster client: %v %v", i, pc.vals, pc.err)
		}
	}
}

func TestRedisStoresNoToken(t *testing.T) {
	url := testredis.URL(t)
	admin := adminClient(t, url)
	ctx := context.Background()
	b := make([]byte, 8)
	rand.Read(b)
	token := "v1gw-canary-token-" + hex.EncodeToString(b)
	secret := []byte("test-secret-" + t.Name())
	keyID := KeyID(secret, token)
	log := &logRecorder{}
	r := newReal(t, RedisOptions{URL: url, Logger: log.Log})
	for range 6 {
		if _, err := r.Allow(ctx, KeyID(secret, token), 3); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := scanAll(admin, "*")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, k := range keys {
		if strings.Contains(k, token) {
			t.Errorf("key name %q holds the token", k)
		}
		if strings.Contains(k, keyID) {
			found = true
		}
		dump, err := admin.Dump(ctx, k).Result()
		if err != nil && !errors.Is(err, redis.Nil) { // expired meanwhile
			t.Fatalf("DUMP %s: %v", k, err)
		}
		if strings.Contains(dump, token) {
			t.Errorf("value of %q holds the token", k)
		}
	}
	if !found {
		t.Errorf("no counter of key id %s among %d keys", keyID, len(keys))
	}
	if strings.Contains(log.all(), token) {
		t.Errorf("log holds the token:\n%s", log.all())
	}
}

func TestRedisOneRoundTripPerDecision(t *testing.T) {
	// Counted by the client (a go-redis hook), on whichever Redis.
	url := testredis.URL(t)
	ctx := context.Background()
	r := newReal(t, RedisOptions{URL: url})
	keys := []string{freshKey(t), freshKey(t), freshKey(t)}
	if _, err := r.Allow(ctx, keys[0], 1<<30); err != nil { // connects, loads the script
		t.Fatal(err)
	}
	s0 := r.Stats()
	const n = 300
	for i := range n {
		if _, err := r.Allow(ctx, keys[i%len(keys)], 1<<30); err != nil {
			t.Fatal(err)
		}
	}
	s1 := r.Stats()
	if d, c := s1.Decisions-s0.Decisions, s1.RedisCalls-s0.RedisCalls; d != n || c != n {
		t.Fatalf("%d decisions made %d Redis commands, want %d each", d, c, n)
	}
}

func TestRedisOneRoundTripPerDecisionServerSide(t *testing.T) {
	// Counted by the server (INFO commandstats) on a private Redis.
	srv := testredis.Start(t)
	ctx := context.Background()
	admin := adminClient(t, srv.URL())
	r := newReal(t, RedisOptions{URL: srv.URL()})
	key := freshKey(t)
	if _, err := r.Allow(ctx, key, 1<<30); err != nil { // connects, loads the script
		t.Fatal(err)
	}
	before := commandStats(t, admin)
	const n = 200
	for range n {
		if _, err := r.Allow(ctx, key, 1<<30); err != nil {
			t.Fatal(err)
		}
	}
	after := commandStats(t, admin)
	delta := func(cmd string) int64 { return after[cmd] - before[cmd] }
	// Commands a script runs count in commandstats too: each decision's
	// script runs TIME and INCR (and EXPIRE when it opens a window).
	inScript := map[string]bool{"time": true, "incr": true, "expire": true, "info": true}
	var others []string
	for cmd := range after {
		if !inScript[cmd] && cmd != "evalsha" && delta(cmd) != 0 {
			others = append(others, fmt.Sprintf("%s=%d", cmd, delta(cmd)))
		}
	}
	if delta("evalsha") != n || len(others) != 0 || delta("time") != n || delta("incr") != n || delta("expire") > 1 {
		t.Fatalf("%d sequential decisions: server saw EVALSHA %d (want %d), TIME %d, INCR %d, EXPIRE %d, other commands %v (want none)",
			n, delta("evalsha"), n, delta("time"), delta("incr"), delta("expire"), others)
	}
	// Concurrent decisions open more connections (their setup commands
	// are per connection), but still one script call per decision.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range n / 8 {
				r.Allow(ctx, key, 1<<30)
			}
		})
	}
	wg.Wait()
	final := commandStats(t, admin)
	if got := final["evalsha"] + final["eval"] - after["evalsha"] - after["eval"]; got != n {
		t.Fatalf("%d concurrent decisions: %d script calls", n, got)
	}
}

// commandStats parses INFO commandstats into command → calls.
func commandStats(t testing.TB, c *redis.Client) map[string]int64 {
	t.Helper()
	info, err := c.Info(context.Background(), "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]int64)
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		line := sc.Text()
		name, rest, ok := strings.Cut(strings.TrimPrefix(line, "cmdstat_"), ":calls=")
		if !ok || !strings.HasPrefix(line, "cmdstat_") {
			continue
		}
		calls, _, _ := strings.Cut(rest, ",")
		n, err := strconv.ParseInt(calls, 10, 64)
		if err != nil {
			t.Fatalf("commandstats line %q", line)
		}
		m[name] = n
	}
	return m
}

// TestRedisConcurrentDecisionsShareRoundTrips: decisions made at the same
// time go to Redis in shared pipelines — still one script call each, and
// the quota exact — so that under load the limiter costs fewer round trips
// than decisions (each caller still waits for at most one of its own).
func TestRedisConcurrentDecisionsShareRoundTrips(t *testing.T) {
	srv := testredis.Start(t)
	ctx := context.Background()
	admin := adminClient(t, srv.URL())
	inOneWindow(t, admin, func() func() {
		r := newReal(t, RedisOptions{URL: srv.URL(), Timeout: 2 * time.Second})
		key := freshKey(t)
		if _, err := r.Allow(ctx, freshKey(t), 1<<30); err != nil { // connects, loads the script
			t.Fatal(err)
		}
		before := commandStats(t, admin)
		s0 := r.Stats()
		const goroutines, each = 64, 8
		const quota = goroutines*each - 50
		var allowed, denied atomic.Int64
		var failed atomic.Value
		start := make(chan struct{})
		var wg sync.WaitGroup
		for range goroutines {
			wg.Go(func() {
				<-start
				for range each {
					d, err := r.Allow(ctx, key, quota)
					switch {
					case err != nil:
						failed.Store(err)
					case d.Allowed:
						allowed.Add(1)
					default:
						denied.Add(1)
					}
				}
			})
		}
		close(start)
		wg.Wait()
		s1 := r.Stats()
		after := commandStats(t, admin)
		return func() {
			if err := failed.Load(); err != nil {
				t.Fatalf("a decision failed: %v", err)
			}
			if s1.Fallbacks != s0.Fallbacks || s1.RedisErrors != s0.RedisErrors {
				t.Fatalf("fallbacks or errors during the run: %+v → %+v", s0, s1)
			}
			if allowed.Load() != quota || denied.Load() != goroutines*each-quota {
				t.Errorf("%d allowed, %d denied; want exactly %d and %d", allowed.Load(), denied.Load(), quota, goroutines*each-quota)
			}
			asked := int64(s1.Decisions-s0.Decisions) - int64(s1.LocalDenied-s0.LocalDenied)
			scripts := after["evalsha"] + after["eval"] - before["evalsha"] - before["eval"]
			if scripts != asked {
				t.Errorf("%d decisions asked Redis, the server ran %d scripts: want one each", asked, scripts)
			}
			trips := int64(s1.RoundTrips - s0.RoundTrips)
			if trips > asked || trips < 1 {
				t.Errorf("%d round trips for %d decisions", trips, asked)
			}
			t.Logf("%d decisions asked Redis in %d round trips", asked, trips)
			if trips == asked {
				t.Errorf("no two of %d concurrent decisions shared a round trip", asked)
			}
		}
	})
}

// TestRedisBatchAfterScriptFlush: decisions batched together after Redis
// lost its scripts (restart, SCRIPT FLUSH) are sent again with the script's
// source, and none is lost.
func TestRedisBatchAfterScriptFlush(t *testing.T) {
	srv := testredis.Start(t)
	ctx := context.Background()
	admin := adminClient(t, srv.URL())
	r := newReal(t, RedisOptions{URL: srv.URL(), Timeout: 2 * time.Second})
	if _, err := r.Allow(ctx, freshKey(t), 1<<30); err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		if err := admin.ScriptFlush(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var failed atomic.Int64
		for range 32 {
			wg.Go(func() {
				if _, err := r.Allow(ctx, freshKey(t), 1<<30); err != nil {
					failed.Add(1)
				}
			})
		}
		wg.Wait()
		if n := failed.Load(); n > 0 || r.Stats().Fallbacks > 0 {
			t.Fatalf("round %d: %d decisions failed, stats %+v", round, n, r.Stats())
		}
	}
	// The pipeline path itself, made to meet NOSCRIPT: a batch of three
	// right after a flush.
	if err := admin.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	evals := commandStats(t, admin)["eval"]
	batch := []*pendingCall{
		{key: keyPrefix(freshKey(t)), done: make(chan struct{})},
		{key: keyPrefix(freshKey(t)), done: make(chan struct{})},
		{key: keyPrefix(freshKey(t)), done: make(chan struct{})},
	}
	r.runBatch(batch, nil)
	for i, pc := range batch {
		<-pc.done
		if pc.err != nil || len(pc.vals) != 2 || pc.vals[0] != 1 {
			t.Errorf("call %d after a script flush: %v %v", i, pc.vals, pc.err)
		}
	}
	if got := commandStats(t, admin)["eval"] - evals; got != 3 {
		t.Errorf("%d EVALs after NOSCRIPT, want 3", got)
	}
}

// Redis down at start: Check reports it at once (so /readyz is true to it
// before any request), logs it once, and the background probe marks the
// limiter healthy again when Redis comes up — without any traffic.
func TestRedisCheckAtStartAndRecoveryWithoutTraffic(t *testing.T) {
	srv := testredis.Start(t)
	srv.Stop()
	var mu sync.Mutex
	var logged []string
	r := newReal(t, RedisOptions{URL: srv.URL(), FailClosed: true, Logger: func(msg string, _ ...any) {
		mu.Lock()
		logged = append(logged, msg)
		mu.Unlock()
	}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := r.Check(ctx, 20*time.Millisecond); err == nil {
		t.Fatal("Check with Redis down: nil error")
	}
	if r.Healthy() {
		t.Fatal("Healthy with Redis down at start")
	}
	srv.Restart()
	waitFor(t, 5*time.Second, "healthy after Redis came up", r.Healthy)
	mu.Lock()
	defer mu.Unlock()
	if len(logged) != 2 || !strings.Contains(logged[0], "unreachable at start") || !strings.Contains(logged[1], "reachable") {
		t.Fatalf("log lines %q, want one outage line and one recovery line", logged)
	}
}
