package limiter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/sony/gobreaker/v2"
	"github.com/v1gateway/v1gateway/internal/redisurl"
)

// ErrUnavailable is wrapped by the error Allow returns in fail-closed mode
// (RedisOptions.FailClosed, V1GW_LIMITER_FAIL=closed) while Redis cannot be
// used. In fail-open mode (the default) Allow never returns an error.
var ErrUnavailable = errors.New("rate limiter unavailable")

// ErrOverloaded is wrapped by the error Allow returns when this process is
// too busy to get a decision to Redis in time (it waited QueueWaitFactor
// times the Redis timeout before its call could be sent): Redis is not at
// fault, nothing was counted, and the request is to be shed (503 with
// Retry-After), in either fail mode, rather than admitted without the
// shared count.
var ErrOverloaded = errors.New("rate limiter overloaded")

// RedisKeyPrefix starts every key the limiter writes. A counter's full
// name is RedisKeyPrefix + "{" + key id + "}:" + window start (unix
// seconds, a multiple of 60), e.g. "v1gw:rl:{3f2a…}:1795323660". The braces
// are a Redis Cluster hash tag: all of a key's data lives on one slot.
const RedisKeyPrefix = "v1gw:rl:"

// Defaults of RedisOptions.
const (
	DefaultRedisTimeout    = 50 * time.Millisecond
	DefaultBreakerFailures = 3
	DefaultBreakerOpenFor  = 500 * time.Millisecond
	// QueueWaitFactor: a decision waits at most this many times the Redis
	// timeout inside the process for its turn to be sent (the dispatcher
	// sends one pipeline at a time); past it the process is overloaded and
	// the decision is shed with ErrOverloaded (500 ms by default).
	QueueWaitFactor = 10
)

// expiryMargin keeps a window's counter this long past the window's end
// (EXPIRE has whole-second resolution; the counter must never vanish
// before its window ends).
const expiryMargin = 5

// RedisOptions configures NewRedis.
type RedisOptions struct {
	// URL of the Redis shared by all replicas (V1GW_REDIS_URL). Forms:
	// redis://, rediss:// (TLS), unix://; Redis Cluster via addr=
	// parameters ("redis://h1:p1?addr=h2:p2"); Sentinel via
	// "redis-sentinel://[[user]:password@]host:port[,host:port]/mastername[?db=N]".
	// See package internal/redisurl for the details.
	URL string
	// Timeout bounds each Redis round trip (default 50ms), measured from
	// when its pipeline is sent: time a decision spends queued inside the
	// process before that is not counted, never opens the breaker and
	// never sends the decision to the in-memory fallback; a decision that
	// waits more than QueueWaitFactor × Timeout to be sent is shed
	// (ErrOverloaded) instead.
	Timeout time.Duration
	// FailClosed makes Allow return an error wrapping ErrUnavailable
	// while Redis cannot be used (V1GW_LIMITER_FAIL=closed) instead of
	// deciding from the in-memory fallback at the same per-key quota.
	FailClosed bool
	// Now is the clock of the in-memory fallback and of the local
	// over-limit cache (default time.Now). Windows on Redis follow the
	// Redis server's clock.
	Now func() time.Time
	// Logger, when set, is told when Redis is lost and when it is back.
	// It is never given a token or a key id.
	Logger func(msg string, kv ...any)

	// BreakerFailures consecutive failed Redis calls open the breaker
	// (default 3).
	BreakerFailures int
	// BreakerOpenFor is how long the open breaker sends every decision to
	// the fallback before it lets one probe call through (default 500ms,
	// so that limits are shared again within a second of Redis's return).
	// Breaker timing uses the real clock.
	BreakerOpenFor time.Duration
}

// Stats are the Redis limiter's counters since NewRedis, for metrics.
type Stats struct {
	Decisions   uint64 // calls of Allow
	RedisCalls  uint64 // commands sent to Redis: one EVALSHA per decision, plus an EVAL after NOSCRIPT and a new connection's setup (HELLO, CLIENT SETNAME, ...)
	RoundTrips  uint64 // pipelines sent to Redis: concurrent decisions share one (redisbatch.go), so at most one per decision
	LocalDenied uint64 // decisions answered 429 from the local over-limit cache, without Redis
	Overloaded  uint64 // decisions shed (ErrOverloaded): this process could not send them to Redis in time
	Fallbacks   uint64 // decisions made by the in-memory fallback (fail-open) while Redis was unusable
	RedisErrors uint64 // Redis calls that failed (timeouts, refused connections, error replies)
	Fallback    bool   // Redis is currently considered unusable (breaker not closed, or the last call failed)
}

// Redis is the replica-shared limiter: a fixed one-minute window per key
// id, aligned to the Redis server's clock, decided by one Lua call per
// request. It is safe for concurrent use.
//
// Decisions, in order:
//  1. limit <= 0: unlimited, allowed without any call.
//  2. The local over-limit cache: once Redis has said a key used its whole
//     quota in a window, this replica answers 429 from memory until that
//     window ends (unless the key's limit has since been raised).
//  3. One script call through a circuit breaker, with a per-call timeout;
//     calls made at the same time share a pipeline (redisbatch.go).
//  4. When the call fails or the breaker is open: the in-memory limiter at
//     the same per-key quota (fail-open; each replica then counts on its
//     own), or ErrUnavailable (fail-closed). Once the breaker has been open
//     for BreakerOpenFor, one probe call goes to Redis; if it succeeds,
//     decisions return to Redis.
type Redis struct {
	target     *redisurl.Target
	timeout    time.Duration
	queueWait  time.Duration
	failClosed bool
	now        func() time.Time
	logger     func(msg string, kv ...any)

	mu      sync.Mutex // serialises client replacement and Close
	closed  bool
	client  atomic.Pointer[clientBox]
	rebuild atomic.Bool // replace the client before the next call

	breaker  *gobreaker.CircuitBreaker[scriptReply]
	fallback *Memory

	denied    sync.Map     // key id → denial: the local over-limit cache
	nextSweep atomic.Int64 // unix nanoseconds (of now) of the next sweep of denied

	lastOK    atomic.Bool
	lastErr   atomic.Pointer[string]
	downSince atomic.Int64 // unix nanoseconds (real clock) when the breaker opened

	events eventQueue

	// The dispatcher (redisbatch.go): decisions wait in reqs and go to
	// Redis in pipelines; quit stops it (Close).
	reqs          chan *pendingCall
	quit          chan struct{}
	inflightSince atomic.Int64  // unix nanoseconds when the round trip in flight was sent; 0: none
	inflightSlow  atomic.Uint64 // slowSchedulings(starved) when it was sent
	starved       time.Duration // a wait for a CPU this long means the process is saturated (timeout/5)

	decisions, redisCalls, roundTrips, localDenied, fallbacks, redisErrors, overloaded atomic.Uint64
}

var _ Limiter = (*Redis)(nil)

type clientBox struct {
	c     redis.UniversalClient
	ready bool // connected and the script loaded (set and read by the dispatcher only)
}

type scriptReply struct{ count, msToReset int64 }

type denial struct {
	until time.Time // end of the window, by this replica's clock
	limit int       // the quota the key exhausted
}

// errCallerGone marks a call abandoned because the caller's context ended:
// not Redis's fault, so the breaker ignores it.
var errCallerGone = errors.New("caller's context ended")

// NewRedis returns a limiter using the Redis at o.URL. It does not connect:
// Redis being down at start is handled like Redis going down later. It
// fails only for an unusable URL, with a message that never contains the
// URL's password.
func NewRedis(o RedisOptions) (*Redis, error) {
	t, err := parseRedisURL(o.URL)
	if err != nil {
		return nil, err
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultRedisTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.BreakerFailures <= 0 {
		o.BreakerFailures = DefaultBreakerFailures
	}
	if o.BreakerOpenFor <= 0 {
		o.BreakerOpenFor = DefaultBreakerOpenFor
	}
	r := &Redis{
		target:     t,
		timeout:    o.Timeout,
		queueWait:  QueueWaitFactor * o.Timeout,
		starved:    o.Timeout / 5,
		failClosed: o.FailClosed,
		now:        o.Now,
		logger:     o.Logger,
		fallback:   NewMemory(o.Now),
	}
	r.lastOK.Store(true)
	r.client.Store(r.newClientBox())
	r.reqs = make(chan *pendingCall, 4*maxBatch)
	r.quit = make(chan struct{})
	go r.dispatch()
	failures := uint32(o.BreakerFailures)
	r.breaker = gobreaker.NewCircuitBreaker[scriptReply](gobreaker.Settings{
		Name:          "redis-limiter",
		MaxRequests:   1, // one probe in half-open state
		Timeout:       o.BreakerOpenFor,
		ReadyToTrip:   func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= failures },
		IsExcluded:    func(err error) bool { return errors.Is(err, errCallerGone) || errors.Is(err, ErrOverloaded) },
		OnStateChange: r.onStateChange,
	})
	return r, nil
}

func (r *Redis) newClientBox() *clientBox {
	c := r.target.NewClient()
	c.AddHook(countHook{&r.redisCalls})
	return &clientBox{c: c}
}

// Allow implements Limiter. In fail-open mode it never returns an error.
func (r *Redis) Allow(ctx context.Context, keyID string, limit int) (Decision, error) {
	r.decisions.Add(1)
	now := r.now()
	if limit <= 0 {
		return Decision{Allowed: true, Reset: localReset(now)}, nil
	}
	keyID = safeKeyID(keyID)
	if d, ok := r.cachedDenial(keyID, limit, now); ok {
		r.localDenied.Add(1)
		return d, nil
	}
	rep, err := r.breaker.Execute(func() (scriptReply, error) { return r.call(ctx, keyID) })
	r.events.flush(r.logger)
	if err == nil {
		reset := time.Duration(rep.msToReset) * time.Millisecond
		d := Decision{
			Allowed:   rep.count <= int64(limit),
			Limit:     limit,
			Remaining: int(max(int64(limit)-rep.count, 0)),
			Reset:     reset,
		}
		if rep.count >= int64(limit) {
			// The quota is used up: every later request of this window
			// would be denied, so deny it here without asking Redis. The
			// window's end is measured from before the call, so the entry
			// never outlives the window.
			r.cacheDenial(keyID, denial{until: now.Add(reset), limit: limit}, now)
		}
		return d, nil
	}
	if errors.Is(err, ErrOverloaded) {
		// Nothing was sent: shed, whatever the fail mode (admitting
		// without the shared count is how a saturated fleet passes its
		// limits).
		r.overloaded.Add(1)
		return Decision{}, err
	}
	if r.failClosed {
		return Decision{}, fmt.Errorf("%w: Redis: %v", ErrUnavailable, err)
	}
	r.fallbacks.Add(1)
	return r.fallback.Allow(ctx, keyID, limit)
}

// call runs the script once (EVALSHA, then EVAL if Redis answers
// NOSCRIPT) within the per-call timeout, through the dispatcher.
func (r *Redis) call(ctx context.Context, keyID string) (scriptReply, error) {
	if r.rebuild.Load() {
		r.replaceClient()
	}
	vals, err := r.roundTrip(ctx, keyID)
	if err == nil && len(vals) != 2 {
		err = fmt.Errorf("unexpected script reply %v", vals)
	}
	if err != nil {
		if errors.Is(err, ErrOverloaded) {
			return scriptReply{}, err
		}
		if ctx.Err() != nil {
			return scriptReply{}, fmt.Errorf("%w: %w", errCallerGone, ctx.Err())
		}
		r.redisErrors.Add(1)
		r.lastOK.Store(false)
		msg := err.Error()
		r.lastErr.Store(&msg)
		return scriptReply{}, err
	}
	r.lastOK.Store(true)
	return scriptReply{count: vals[0], msToReset: vals[1]}, nil
}

// replaceClient swaps in a fresh client after a failed probe. go-redis
// stops dialling for a second at a time once a pool has seen as many
// failed dials as its size, which would delay the return to Redis; a new
// pool has no such history. Only the single half-open probe uses the
// client at that point.
func (r *Redis) replaceClient() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || !r.rebuild.CompareAndSwap(true, false) {
		return
	}
	old := r.client.Swap(r.newClientBox())
	_ = old.c.Close()
}

func (r *Redis) onStateChange(_ string, from, to gobreaker.State) {
	// Called with the breaker's lock held: only record, log later.
	switch {
	case to == gobreaker.StateOpen && from == gobreaker.StateHalfOpen:
		r.rebuild.Store(true)
	case to == gobreaker.StateOpen:
		r.downSince.Store(time.Now().UnixNano())
		errMsg := ""
		if p := r.lastErr.Load(); p != nil {
			errMsg = *p
		}
		if r.failClosed {
			r.events.add("rate limiter: Redis is unreachable; rate-limited requests are rejected with 503 until it is back (V1GW_LIMITER_FAIL=closed)",
				"error", errMsg, "limiter_fail", "closed")
		} else {
			r.events.add("rate limiter: Redis is unreachable; limits are enforced by this replica's in-memory limiter at the same per-key quota until it is back (fail-open)",
				"error", errMsg, "limiter_fail", "open")
		}
	case to == gobreaker.StateClosed:
		down := time.Duration(time.Now().UnixNano() - r.downSince.Load())
		r.events.add("rate limiter: Redis is back; limits are shared by all replicas again", "down_for", down)
	}
}

// cachedDenial answers from the local over-limit cache.
func (r *Redis) cachedDenial(keyID string, limit int, now time.Time) (Decision, bool) {
	v, ok := r.denied.Load(keyID)
	if !ok {
		return Decision{}, false
	}
	d := v.(*denial)
	if !now.Before(d.until) {
		r.denied.CompareAndDelete(keyID, v)
		return Decision{}, false
	}
	if limit > d.limit {
		return Decision{}, false // the quota was raised: ask Redis
	}
	return Decision{Allowed: false, Limit: limit, Remaining: 0, Reset: d.until.Sub(now)}, true
}

func (r *Redis) cacheDenial(keyID string, d denial, now time.Time) {
	r.denied.Store(keyID, &d)
	// Drop expired entries about once a window, so the cache holds only
	// keys that exhausted their quota recently.
	next := r.nextSweep.Load()
	if now.UnixNano() < next || !r.nextSweep.CompareAndSwap(next, now.Add(Window).UnixNano()) {
		return
	}
	r.denied.Range(func(k, v any) bool {
		if !now.Before(v.(*denial).until) {
			r.denied.CompareAndDelete(k, v)
		}
		return true
	})
}

// Check pings Redis once, at start, so that /readyz tells the truth before
// the first request: when Redis cannot be reached the limiter is marked
// unhealthy (fail-closed replicas then report not ready; fail-open ones say
// they limit per process), the outage is logged once, and a background
// probe pings every retry interval until Redis answers and marks it
// healthy again — without waiting for traffic. It returns the ping's error.
func (r *Redis) Check(ctx context.Context, retry time.Duration) error {
	err := r.ping(ctx)
	if err == nil {
		return nil
	}
	r.lastOK.Store(false)
	msg := err.Error()
	r.lastErr.Store(&msg)
	mode := "open: limits are enforced per replica until it is back"
	if r.failClosed {
		mode = "closed: rate-limited requests are rejected with 503 until it is back"
	}
	if r.logger != nil {
		r.logger("rate limiter: Redis is unreachable at start (limiter_fail="+mode+")", "error", msg)
	}
	if retry <= 0 {
		retry = time.Second
	}
	go func() {
		t := time.NewTicker(retry)
		defer t.Stop()
		for {
			select {
			case <-r.quit:
				return
			case <-t.C:
			}
			if r.lastOK.Load() {
				return // a decision reached Redis meanwhile
			}
			pctx, cancel := context.WithTimeout(context.Background(), r.timeout*4)
			err := r.ping(pctx)
			cancel()
			if err == nil {
				r.lastOK.Store(true)
				if r.logger != nil {
					r.logger("rate limiter: Redis is reachable; limits are shared by all replicas")
				}
				return
			}
		}
	}()
	return err
}

func (r *Redis) ping(ctx context.Context) error {
	return r.client.Load().c.Ping(ctx).Err()
}

// Healthy reports whether decisions are currently made by Redis: the
// breaker is closed and the last Redis call succeeded.
func (r *Redis) Healthy() bool {
	ok := r.breaker.State() == gobreaker.StateClosed && r.lastOK.Load()
	r.events.flush(r.logger)
	return ok
}

// Stats returns the limiter's counters.
func (r *Redis) Stats() Stats {
	return Stats{
		Decisions:   r.decisions.Load(),
		RedisCalls:  r.redisCalls.Load(),
		RoundTrips:  r.roundTrips.Load(),
		LocalDenied: r.localDenied.Load(),
		Overloaded:  r.overloaded.Load(),
		Fallbacks:   r.fallbacks.Load(),
		RedisErrors: r.redisErrors.Load(),
		Fallback:    !r.Healthy(),
	}
}

// Close closes the Redis client. Allow must not be called after Close.
func (r *Redis) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	close(r.quit)
	return r.client.Load().c.Close()
}

// SetDriverLogger routes the Redis driver's own log lines (go-redis logs,
// e.g., every failed dial while Redis is down) to printf instead of
// standard error; nil discards them. The setting is process-wide: it
// applies to every go-redis client. The lines hold addresses, never
// passwords or key ids.
func SetDriverLogger(printf func(format string, args ...any)) {
	redis.SetLogger(driverLogger{printf})
}

type driverLogger struct{ printf func(string, ...any) }

func (l driverLogger) Printf(_ context.Context, format string, args ...any) {
	if l.printf != nil {
		l.printf(format, args...)
	}
}

// keyPrefix is KEYS[1] of the script: the counter's name without its
// window, whose hash tag is the key id.
func keyPrefix(keyID string) string { return RedisKeyPrefix + "{" + keyID + "}" }

// safeKeyID keeps the hash tag intact: KeyID gives hex, but a key id with
// braces would end the tag early, so it is hashed.
func safeKeyID(keyID string) string {
	if strings.ContainsAny(keyID, "{}") {
		return KeyID([]byte(RedisKeyPrefix), keyID)
	}
	return keyID
}

// localReset is the time to the end of the current window by the local
// clock, for decisions that ask no store.
func localReset(now time.Time) time.Duration {
	w := int64(Window / time.Second)
	win := now.Unix() - now.Unix()%w
	return time.Unix(win+w, 0).Sub(now)
}

// rateScript is the whole decision, atomically, in one call.
//
// The window is read from the Redis server's clock (TIME), so replicas'
// clocks do not matter; but then the counter's name, which contains the
// window, is only known inside the script. So KEYS[1] is the prefix
// "v1gw:rl:{<key id>}" and the script appends ":<window start>". Redis
// Cluster routes the call by KEYS[1]'s slot, which is the slot of its hash
// tag, the key id; the counter has the same hash tag and so the same slot,
// which is what Redis Cluster requires of keys a script touches (the tests
// check this on a real cluster node with cross-slot checking on).
// TIME before a write is allowed since Redis 5 (effects replication, the
// only mode in Redis 7); replicate_commands enables it on 3.2 and 4.
//
// ARGV[1] is the window length in seconds, ARGV[2] the expiry margin. The
// reply is {requests counted in this window including this one,
// milliseconds until the window ends (1..60000)}.
var rateScript = redis.NewScript(rateScriptSrc)

const rateScriptSrc = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local len = tonumber(ARGV[1])
local sec = tonumber(t[1])
local start = sec - (sec % len)
local key = KEYS[1] .. ':' .. string.format('%d', start)
local n = redis.call('INCR', key)
if n == 1 then
  redis.call('EXPIRE', key, start + len - sec + tonumber(ARGV[2]))
end
return {n, (start + len - sec) * 1000 - math.floor(tonumber(t[2]) / 1000)}
`

// countHook counts the commands a client sends (RedisCalls).
type countHook struct{ n *atomic.Uint64 }

func (h countHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}

func (h countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(uint64(len(cmds)))
		return next(ctx, cmds)
	}
}

// eventQueue holds log lines produced under the breaker's lock until they
// can be logged outside it (a logger may call Stats or Healthy).
type eventQueue struct {
	pending atomic.Bool
	mu      sync.Mutex
	events  []event
}

type event struct {
	msg string
	kv  []any
}

func (q *eventQueue) add(msg string, kv ...any) {
	q.mu.Lock()
	q.events = append(q.events, event{msg, kv})
	q.mu.Unlock()
	q.pending.Store(true)
}

func (q *eventQueue) flush(logger func(string, ...any)) {
	if !q.pending.Load() {
		return
	}
	q.mu.Lock()
	evs := q.events
	q.events = nil
	q.pending.Store(false)
	q.mu.Unlock()
	if logger == nil {
		return
	}
	for _, e := range evs {
		logger(e.msg, e.kv...)
	}
}
