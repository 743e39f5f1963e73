package limiter

import (
	"context"
	"errors"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/internal/testredis"
)

// Two gateways on one CPU-saturated machine, one key, 600 a minute: every
// decision is Redis's (no fallback to per-process memory, the breaker never
// opens because of time spent queued inside the process), so exactly 600
// requests are admitted; what cannot be decided in time is shed
// (ErrOverloaded), never admitted past the limit.
func TestRedisExactQuotaUnderCPUSaturation(t *testing.T) {
	if testing.Short() {
		t.Skip("saturates the CPU for a few seconds")
	}
	// A Redis of its own: the shared one of V1GW_TEST_REDIS_URL (CI's)
	// also serves the other packages' tests, run in parallel, and one of
	// their bursts delaying a round trip past the limiter's timeout is an
	// error this test would blame on the limiter (CI saw 128 decisions of
	// one round trip fail over to memory).
	url := testredis.Start(t).URL()
	admin := adminClient(t, url)
	const limit = 600
	inOneWindow(t, admin, func() func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// Spinners keep every P busy: goroutines wait for a CPU as they
		// would in a gateway serving 256 connections on 2 cores.
		var spin sync.WaitGroup
		for range 4 * runtime.GOMAXPROCS(0) {
			spin.Go(func() {
				x := 0
				for ctx.Err() == nil {
					for i := range 1_000_000 {
						x += i
					}
				}
				_ = x
			})
		}
		defer spin.Wait()
		defer cancel()
		var gws [2]*Redis
		var logged atomic.Int64
		for i := range gws {
			gws[i] = newReal(t, RedisOptions{URL: url, Logger: func(string, ...any) { logged.Add(1) }})
		}
		key := freshKey(t)
		var admitted, denied, shed, other atomic.Int64
		var wg sync.WaitGroup
		for _, g := range gws {
			for range 128 {
				wg.Go(func() {
					for range 10 {
						d, err := g.Allow(ctx, key, limit)
						switch {
						case errors.Is(err, ErrOverloaded):
							shed.Add(1)
						case err != nil:
							other.Add(1)
						case d.Allowed:
							admitted.Add(1)
						default:
							denied.Add(1)
						}
					}
				})
			}
		}
		wg.Wait()
		cancel()
		s0, s1 := gws[0].Stats(), gws[1].Stats()
		return func() {
			t.Logf("admitted %d, denied %d, shed %d; gateway stats %+v / %+v", admitted.Load(), denied.Load(), shed.Load(), s0, s1)
			if admitted.Load() != limit {
				t.Errorf("admitted %d requests against a limit of %d", admitted.Load(), limit)
			}
			if other.Load() != 0 {
				t.Errorf("%d decisions failed with another error", other.Load())
			}
			if s0.Fallbacks+s1.Fallbacks != 0 || s0.RedisErrors+s1.RedisErrors != 0 || logged.Load() != 0 {
				t.Errorf("local queueing counted against Redis: %d fallbacks, %d Redis errors, %d log lines", s0.Fallbacks+s1.Fallbacks, s0.RedisErrors+s1.RedisErrors, logged.Load())
			}
		}
	})
}

// hungRedis is a server that accepts connections and never answers.
func hungRedis(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "redis://" + l.Addr().String()
}

func TestRedisTimeoutJudgedOnRedisNotOnTheProcess(t *testing.T) {
	const timeout = 20 * time.Millisecond
	t.Run("a saturated process sheds what it could not send and blames Redis for nothing", func(t *testing.T) {
		var starts atomic.Uint64
		old := slowSchedulings
		slowSchedulings = func(time.Duration) uint64 { return starts.Add(1) } // goroutines always waiting for a CPU
		t.Cleanup(func() { slowSchedulings = old })
		var logged atomic.Int64
		r := newReal(t, RedisOptions{URL: hungRedis(t), Timeout: timeout, Logger: func(string, ...any) { logged.Add(1) }})
		// The first decision occupies the dispatcher with a round trip
		// that never ends; the others wait unsent behind it.
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for i := range errs {
			wg.Go(func() { _, errs[i] = r.Allow(context.Background(), "k", 5) })
			time.Sleep(time.Millisecond)
		}
		wg.Wait()
		shed := 0
		for _, err := range errs {
			if errors.Is(err, ErrOverloaded) {
				shed++
			}
		}
		s := r.Stats()
		// The one sent (or several, sent together) failed on the
		// dispatcher's own deadline (2 × QueueWaitFactor × timeout): a Redis
		// error, decided by the fallback.
		if shed == 0 || s.Overloaded != uint64(shed) || uint64(shed)+s.Fallbacks != uint64(len(errs)) {
			t.Errorf("%d shed, stats %+v: want the unsent decisions shed, the sent ones to the fallback", shed, s)
		}
	})
	t.Run("a responsive process blames a silent Redis after the timeout", func(t *testing.T) {
		r := newReal(t, RedisOptions{URL: hungRedis(t), Timeout: timeout})
		for i := range DefaultBreakerFailures + 2 {
			start := time.Now()
			d, err := r.Allow(context.Background(), "k", 5)
			if el := time.Since(start); el > QueueWaitFactor*timeout {
				t.Errorf("call %d took %v with a %v timeout", i, el, timeout)
			}
			if err != nil || !d.Allowed {
				t.Fatalf("call %d: %+v %v (fail-open: the fallback decides)", i, d, err)
			}
		}
		if s := r.Stats(); s.Overloaded != 0 || !s.Fallback {
			t.Errorf("stats %+v", s)
		}
	})
}
