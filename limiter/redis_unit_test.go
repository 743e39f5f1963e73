package limiter

// Hermetic unit tests on miniredis: the script's arithmetic, key names,
// the local over-limit cache, the breaker and fallback, URL parsing. The
// behaviour on a real Redis is tested in redis_test.go.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// logRecorder collects Logger calls.
type logRecorder struct {
	mu    sync.Mutex
	lines []string
}

func (l *logRecorder) Log(msg string, kv ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprint(append([]any{msg}, kv...)...))
}

func (l *logRecorder) all() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func (l *logRecorder) count(substr string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.lines {
		if strings.Contains(s, substr) {
			n++
		}
	}
	return n
}

func newMini(t *testing.T, o RedisOptions) (*Redis, *miniredis.Miniredis) {
	t.Helper()
	m := miniredis.RunT(t)
	o.URL = "redis://" + m.Addr()
	r, err := NewRedis(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, m
}

// windowKey is the counter's name for a key id and a window start.
func windowKey(keyID string, win int64) string {
	return RedisKeyPrefix + "{" + keyID + "}:" + strconv.FormatInt(win, 10)
}

func TestScriptArithmeticAndKeyNames(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	r, m := newMini(t, RedisOptions{Now: clk.Now})
	ctx := context.Background()
	// Redis's clock, not the replica's, places the window.
	redisNow := time.Date(2026, 11, 22, 10, 0, 15, 250_000_000, time.UTC)
	m.SetTime(redisNow)
	win := redisNow.Unix() - redisNow.Unix()%60
	key := KeyID([]byte("secret"), "token-a")

	for i := 1; i <= 3; i++ {
		d, err := r.Allow(ctx, key, 5)
		if err != nil {
			t.Fatal(err)
		}
		want := Decision{Allowed: true, Limit: 5, Remaining: 5 - i, Reset: 44750 * time.Millisecond}
		if d != want {
			t.Fatalf("call %d: %+v, want %+v", i, d, want)
		}
	}
	if got, err := m.Get(windowKey(key, win)); err != nil || got != "3" {
		t.Fatalf("counter %s = %q, %v; keys: %v", windowKey(key, win), got, err, m.Keys())
	}
	// The counter outlives its window by the margin, and no longer.
	if ttl := m.TTL(windowKey(key, win)); ttl != (45+expiryMargin)*time.Second {
		t.Errorf("TTL %v, want %v", ttl, (45+expiryMargin)*time.Second)
	}
	if keys := m.Keys(); len(keys) != 1 {
		t.Errorf("keys %v, want exactly one counter", keys)
	}

	// The last second of the window: reset rounds up to 1s.
	m.SetTime(time.Unix(win+59, 999_000_000))
	d, _ := r.Allow(ctx, key, 5)
	if d.Remaining != 1 || d.Reset != time.Millisecond || d.ResetSeconds() != 1 {
		t.Errorf("end of window: %+v", d)
	}

	// A new window on Redis's clock starts a new counter.
	m.SetTime(time.Unix(win+60, 0))
	d, _ = r.Allow(ctx, key, 5)
	if want := (Decision{Allowed: true, Limit: 5, Remaining: 4, Reset: time.Minute}); d != want {
		t.Errorf("next window: %+v, want %+v", d, want)
	}
	if got, _ := m.Get(windowKey(key, win+60)); got != "1" {
		t.Errorf("new counter = %q; keys %v", got, m.Keys())
	}
	if ttl := m.TTL(windowKey(key, win+60)); ttl != (60+expiryMargin)*time.Second {
		t.Errorf("new counter TTL %v", ttl)
	}
}

func TestScriptCountsBeyondLimit(t *testing.T) {
	// The script itself: with no local cache in the way (a fresh limiter
	// per call, as separate replicas), counts go past the limit and every
	// call beyond it is denied.
	m := miniredis.RunT(t)
	m.SetTime(time.Date(2026, 11, 22, 10, 0, 30, 0, time.UTC))
	key := "k1"
	tests := []struct {
		allowed   bool
		remaining int
	}{{true, 1}, {true, 0}, {false, 0}, {false, 0}}
	for i, tc := range tests {
		r, err := NewRedis(RedisOptions{URL: "redis://" + m.Addr()})
		if err != nil {
			t.Fatal(err)
		}
		d, err := r.Allow(context.Background(), key, 2)
		r.Close()
		if err != nil || d.Allowed != tc.allowed || d.Remaining != tc.remaining || d.Limit != 2 {
			t.Errorf("call %d: %+v %v, want allowed=%v remaining=%d", i+1, d, err, tc.allowed, tc.remaining)
		}
	}
	if got, _ := m.Get(windowKey(key, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC).Unix())); got != "4" {
		t.Errorf("counter %q, want 4", got)
	}
}

func TestHashTagIsKeyID(t *testing.T) {
	for _, id := range []string{KeyID([]byte("s"), "tok"), "abc", "with{brace}", "}{"} {
		p := keyPrefix(safeKeyID(id))
		full := p + ":1795323660"
		tag := hashTag(full)
		if tag != hashTag(p) || tag == "" {
			t.Errorf("%q: tags %q and %q differ", id, hashTag(p), tag)
		}
		if !strings.ContainsAny(id, "{}") && tag != id {
			t.Errorf("hash tag of %q is %q, want the key id %q", full, tag, id)
		}
		if keySlot(full) != keySlot(p) {
			t.Errorf("%q: slots %d and %d differ", id, keySlot(full), keySlot(p))
		}
	}
}

func TestNoScriptFallsBackToEval(t *testing.T) {
	r, m := newMini(t, RedisOptions{})
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	defer c.Close()
	// The first call also opens the connection (HELLO, ...): warm up.
	if _, err := r.Allow(ctx, "k", 10); err != nil {
		t.Fatal(err)
	}
	calls := r.Stats().RedisCalls
	if _, err := r.Allow(ctx, "k", 10); err != nil {
		t.Fatal(err)
	}
	if s := r.Stats(); s.RedisCalls != calls+1 {
		t.Fatalf("cached script: %+v, want one command (EVALSHA) after %d", s, calls)
	}
	// A server that lost its scripts (restart, SCRIPT FLUSH): EVALSHA
	// answers NOSCRIPT, EVAL runs and caches the script.
	if err := c.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	d, err := r.Allow(ctx, "k", 10)
	if err != nil || !d.Allowed || d.Remaining != 7 {
		t.Fatalf("after SCRIPT FLUSH: %+v %v", d, err)
	}
	if s := r.Stats(); s.RedisCalls != calls+3 || s.Fallback || s.RedisErrors != 0 {
		t.Fatalf("after SCRIPT FLUSH: %+v, want EVALSHA and EVAL", s)
	}
	if _, err := r.Allow(ctx, "k", 10); err != nil || r.Stats().RedisCalls != calls+4 {
		t.Fatalf("after reload: %+v %v", r.Stats(), err)
	}
}

func TestLocalOverLimitCache(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	r, m := newMini(t, RedisOptions{Now: clk.Now})
	m.SetTime(time.Date(2026, 11, 22, 10, 0, 40, 0, time.UTC)) // 20s to the window's end
	ctx := context.Background()
	for range 3 {
		if d, _ := r.Allow(ctx, "k", 3); !d.Allowed {
			t.Fatal("denied within quota")
		}
	}
	calls := r.Stats().RedisCalls
	// The quota is used up: 429 from memory, no Redis call.
	for i := range 5 {
		clk.Add(time.Second)
		d, err := r.Allow(ctx, "k", 3)
		want := Decision{Allowed: false, Limit: 3, Remaining: 0, Reset: time.Duration(19-i) * time.Second}
		if err != nil || d != want {
			t.Fatalf("cached denial %d: %+v %v, want %+v", i, d, err, want)
		}
	}
	if s := r.Stats(); s.RedisCalls != calls || s.LocalDenied != 5 {
		t.Fatalf("stats %+v: want no Redis call and 5 local denials", s)
	}
	// A lower quota is denied from memory too; a raised one asks Redis.
	if d, _ := r.Allow(ctx, "k", 2); d.Allowed || r.Stats().RedisCalls != calls {
		t.Fatalf("lower quota: %+v", d)
	}
	if d, _ := r.Allow(ctx, "k", 10); !d.Allowed || d.Remaining != 6 || r.Stats().RedisCalls != calls+1 {
		t.Fatalf("raised quota: %+v, %+v", d, r.Stats())
	}
	// Other keys are not affected.
	if d, _ := r.Allow(ctx, "other", 3); !d.Allowed || d.Remaining != 2 {
		t.Fatalf("other key: %+v", d)
	}
	// When the window ends (by the local clock), the entry is gone.
	clk.Add(15 * time.Second)
	m.SetTime(time.Date(2026, 11, 22, 10, 1, 0, 0, time.UTC))
	if d, _ := r.Allow(ctx, "k", 3); !d.Allowed || d.Remaining != 2 {
		t.Fatalf("next window: %+v", d)
	}
}

func TestLocalCacheSweep(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	r, m := newMini(t, RedisOptions{Now: clk.Now})
	m.SetTime(time.Date(2026, 11, 22, 10, 0, 30, 0, time.UTC))
	ctx := context.Background()
	for i := range 50 {
		r.Allow(ctx, fmt.Sprint("k", i), 1)
	}
	clk.Add(2 * Window)
	m.SetTime(time.Date(2026, 11, 22, 10, 2, 30, 0, time.UTC))
	r.Allow(ctx, "last", 1) // caches one, sweeps the expired
	n := 0
	r.denied.Range(func(any, any) bool { n++; return true })
	if n != 1 {
		t.Fatalf("%d cache entries after the sweep, want 1", n)
	}
}

func TestUnlimitedAsksNothing(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 22, 10, 0, 20, 0, time.UTC)}
	r, _ := newMini(t, RedisOptions{Now: clk.Now})
	for _, limit := range []int{0, -1} {
		d, err := r.Allow(context.Background(), "k", limit)
		if err != nil || !d.Allowed || d.Limit != 0 || d.Reset != 40*time.Second {
			t.Fatalf("limit %d: %+v %v", limit, d, err)
		}
	}
	if s := r.Stats(); s.RedisCalls != 0 || s.Decisions != 2 {
		t.Fatalf("stats %+v", s)
	}
}

// waitFor polls cond until it holds or the deadline passes; it is used
// only for the breaker's real-time half-open interval.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > within {
			t.Fatalf("%s: not within %v", what, within)
		}
		time.Sleep(time.Millisecond)
	}
	return time.Since(start)
}

func TestFailOpenAndRecovery(t *testing.T) {
	log := &logRecorder{}
	r, m := newMini(t, RedisOptions{Logger: log.Log, BreakerOpenFor: 30 * time.Millisecond})
	ctx := context.Background()
	if d, err := r.Allow(ctx, "k", 100); err != nil || !d.Allowed || !r.Healthy() {
		t.Fatalf("healthy: %+v %v", d, err)
	}
	m.Close()
	// Every decision still answers, from the fallback at the same quota.
	for i := range 10 {
		d, err := r.Allow(ctx, "q", 4)
		if err != nil {
			t.Fatalf("call %d failed with Redis down: %v", i, err)
		}
		if d.Allowed != (i < 4) || d.Limit != 4 {
			t.Fatalf("fallback call %d: %+v", i, d)
		}
	}
	s := r.Stats()
	// A slow run may already have made a failed half-open probe.
	if !s.Fallback || s.Fallbacks != 10 || s.RedisErrors < DefaultBreakerFailures {
		t.Fatalf("stats with Redis down: %+v (want %d errors before the breaker opened)", s, DefaultBreakerFailures)
	}
	if r.Healthy() {
		t.Fatal("Healthy with Redis down")
	}
	if n := log.count("Redis is unreachable"); n != 1 {
		t.Fatalf("%d 'unreachable' log lines, want 1:\n%s", n, log.all())
	}
	if err := m.Restart(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Second, "back to Redis", func() bool {
		before := r.Stats().RedisCalls
		r.Allow(ctx, "k", 100)
		return r.Stats().RedisCalls > before && r.Healthy()
	})
	if n := log.count("Redis is back"); n != 1 {
		t.Fatalf("%d 'back' log lines, want 1:\n%s", n, log.all())
	}
}

func TestFailClosed(t *testing.T) {
	r, m := newMini(t, RedisOptions{FailClosed: true, BreakerOpenFor: 30 * time.Millisecond})
	ctx := context.Background()
	if _, err := r.Allow(ctx, "k", 5); err != nil {
		t.Fatal(err)
	}
	m.Close()
	for i := range 5 { // call failures, then an open breaker
		_, err := r.Allow(ctx, "k", 5)
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("call %d: %v, want ErrUnavailable", i, err)
		}
	}
	if s := r.Stats(); s.Fallbacks != 0 {
		t.Fatalf("fail-closed used the fallback: %+v", s)
	}
	// Unlimited keys never need Redis.
	if _, err := r.Allow(ctx, "k", 0); err != nil {
		t.Fatal(err)
	}
	if err := m.Restart(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Second, "back to Redis", func() bool {
		_, err := r.Allow(ctx, "k", 5)
		return err == nil
	})
}

func TestDownAtStart(t *testing.T) {
	// Nothing listens there: NewRedis succeeds, decisions fail open.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	for _, u := range []string{"redis://" + addr + "/0", "redis://" + addr + "?addr=" + addr, "redis-sentinel://" + addr + "/mymaster"} {
		r, err := NewRedis(RedisOptions{URL: u})
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		for i := range 5 {
			d, err := r.Allow(context.Background(), "k", 3)
			if err != nil || d.Allowed != (i < 3) {
				t.Fatalf("%s call %d: %+v %v", u, i, d, err)
			}
		}
		if s := r.Stats(); !s.Fallback || s.Fallbacks != 5 {
			t.Errorf("%s: %+v", u, s)
		}
		r.Close()
	}
}

func TestTimeoutBoundsEachCall(t *testing.T) {
	url := hungRedis(t) // accepts connections, never answers
	r, err := NewRedis(RedisOptions{URL: url, Timeout: 20 * time.Millisecond, BreakerOpenFor: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := range DefaultBreakerFailures {
		start := time.Now()
		d, err := r.Allow(context.Background(), "k", 5)
		if el := time.Since(start); el > 500*time.Millisecond {
			t.Fatalf("call %d took %v with a 20ms timeout", i, el)
		}
		if err != nil || !d.Allowed {
			t.Fatalf("call %d: %+v %v", i, d, err)
		}
	}
	// The breaker is open now: no more calls to the hung server.
	calls := r.Stats().RedisCalls
	for range 100 {
		r.Allow(context.Background(), "k", 1000)
	}
	if s := r.Stats(); s.RedisCalls != calls || s.Fallbacks != 100+DefaultBreakerFailures {
		t.Fatalf("open breaker still calls Redis: %+v", s)
	}
}

func TestCallerCancelIsNotARedisFailure(t *testing.T) {
	r, _ := newMini(t, RedisOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 10 {
		if _, err := r.Allow(ctx, "k", 5); err != nil {
			t.Fatalf("fail-open returned %v", err)
		}
	}
	if !r.Healthy() {
		t.Fatal("cancelled callers opened the breaker")
	}
	if s := r.Stats(); s.RedisErrors != 0 {
		t.Fatalf("%+v", s)
	}
}

func TestLoggerMayCallBack(t *testing.T) {
	// The logger runs outside the breaker's lock: it may ask for Stats.
	var r *Redis
	var got []Stats
	r, m := newMini(t, RedisOptions{Logger: func(string, ...any) { got = append(got, r.Stats()) }, BreakerOpenFor: time.Hour})
	m.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 5 {
			r.Allow(context.Background(), "k", 5)
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("deadlock: a logger calling Stats blocks Allow")
	}
	if len(got) != 1 || !got[0].Fallback {
		t.Fatalf("logger calls: %+v", got)
	}
}

func TestParseRedisURLLimiterDefaults(t *testing.T) {
	for _, u := range []string{
		"redis://:pw@localhost:6379/3",
		"unix:///run/redis.sock?db=2",
		"redis://:pw@h1:7000?addr=h2:7001&addr=h3:7002",
		"redis-sentinel://:p%40ss@s1:26379,s2:26380,s3/mymaster?db=4",
	} {
		rt, err := parseRedisURL(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		c := rt.Common()
		if *c.MaxRetries != -1 || *c.DialerRetries != 1 || !*c.ContextTimeoutEnabled || !*c.DisableIdentity || *c.ClientName != clientName {
			t.Errorf("%s: limiter defaults not applied: %+v %+v %+v", u, rt.Single, rt.Cluster, rt.Failover)
		}
		if err := CheckRedisURL(u); err != nil {
			t.Errorf("CheckRedisURL(%s): %v", u, err)
		}
	}
	// What the URL sets stays (go-redis reads dialer_retries from cluster
	// URLs only).
	for u, dialerRetries := range map[string]int{
		"redis://localhost/0?max_retries=2&client_name=mine":                           1,
		"redis://h1:7000?addr=h2:7001&max_retries=2&dialer_retries=3&client_name=mine": 3,
	} {
		rt, err := parseRedisURL(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		c := rt.Common()
		if *c.MaxRetries != 2 || *c.DialerRetries != dialerRetries || *c.ClientName != "mine" || !*c.ContextTimeoutEnabled {
			t.Errorf("%s: URL options overridden: %+v %+v", u, rt.Single, rt.Cluster)
		}
	}
}

// The URL forms and their errors are tested in internal/redisurl; here,
// that the limiter's errors say where they come from and hide secrets.
func TestParseRedisURLErrorsHideSecrets(t *testing.T) {
	const pw = "hunter2secret"
	for _, u := range []string{
		"http://:" + pw + "@h/0",
		"redis://:" + pw + "@host/x",
		"redis-sentinel://:" + pw + "@s1:99999/m",
	} {
		_, err := NewRedis(RedisOptions{URL: u})
		if err == nil {
			t.Errorf("%q: no error", u)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "hunter2") {
			t.Errorf("%q: error leaks the password: %s", u, msg)
		}
		if !strings.HasPrefix(msg, "limiter: invalid Redis URL: ") {
			t.Errorf("%q: error %q", u, msg)
		}
		if err := CheckRedisURL(u); err == nil || err.Error() != msg {
			t.Errorf("CheckRedisURL(%q) = %v, want %q", u, err, msg)
		}
	}
}

// hashTag is the part of a key Redis Cluster hashes: the content of the
// first {...} when non-empty, else the whole key.
func hashTag(key string) string {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			return key[i+1 : i+1+j]
		}
	}
	return key
}

// keySlot is Redis Cluster's CRC16 (XMODEM) of the hash tag mod 16384.
func keySlot(key string) uint16 {
	var crc uint16
	for _, b := range []byte(hashTag(key)) {
		crc ^= uint16(b) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc % 16384
}

func TestKeySlotMatchesRedis(t *testing.T) {
	// Known values from Redis (CLUSTER KEYSLOT).
	for key, want := range map[string]uint16{"a{user1000}b": 3443, "user1000": 3443, "foo": 12182, "123456789": 12739} {
		if got := keySlot(key); got != want {
			t.Errorf("keySlot(%q) = %d, want %d", key, got, want)
		}
	}
}

func TestSetDriverLogger(t *testing.T) {
	defer SetDriverLogger(nil)
	var mu sync.Mutex
	var lines []string
	SetDriverLogger(func(format string, args ...any) {
		mu.Lock()
		lines = append(lines, fmt.Sprintf(format, args...))
		mu.Unlock()
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r, err := NewRedis(RedisOptions{URL: "redis://:sekrit-pass@" + addr})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Allow(context.Background(), "k", 1)
	mu.Lock()
	defer mu.Unlock()
	if len(lines) == 0 || !strings.Contains(strings.Join(lines, "\n"), "dial") {
		t.Fatalf("driver log lines %q", lines)
	}
	if strings.Contains(strings.Join(lines, "\n"), "sekrit") {
		t.Fatalf("driver log holds the password: %q", lines)
	}
}
