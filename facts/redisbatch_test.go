package facts

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/v1gateway/v1gateway/internal/testredis"
	"github.com/v1gateway/v1gateway/translate"
)

// gate holds the first command (or pipeline) a client sends until it is
// opened, and counts round trips.
type gate struct {
	n       atomic.Int64
	held    chan struct{} // closed when the first round trip is being held
	open    chan struct{}
	started atomic.Bool
}

func newGate() *gate { return &gate{held: make(chan struct{}), open: make(chan struct{})} }

func (g *gate) wait() {
	g.n.Add(1)
	if g.started.CompareAndSwap(false, true) {
		close(g.held)
		<-g.open
	}
}

func (*gate) DialHook(next redis.DialHook) redis.DialHook { return next }
func (g *gate) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { g.wait(); return next(ctx, cmd) }
}
func (g *gate) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { g.wait(); return next(ctx, cmds) }
}

// Lookups that arrive while a round trip is in flight share the next one,
// and each still gets its own facts (and only its own), on a single Redis
// (MGET) and in a cluster (pipelined GETs).
func TestRedisConcurrentLookupsShareOneRoundTrip(t *testing.T) {
	for _, cluster := range []bool{false, true} {
		t.Run(fmt.Sprintf("cluster=%v", cluster), func(t *testing.T) {
			var c redis.UniversalClient
			if cluster {
				srv := testredis.StartCluster(t)
				cc, err := NewRedisClient(srv.URL() + "?addr=" + srv.Addr())
				if err != nil {
					t.Fatal(err)
				}
				c = cc
			} else {
				cc, err := NewRedisClient(testredis.URL(t))
				if err != nil {
					t.Fatal(err)
				}
				c = cc
			}
			s := NewRedis(c, RedisOptions{Prefix: testPrefix(t), TTL: time.Hour})
			t.Cleanup(func() { _ = s.Close() })
			ctx := context.Background()
			const n = 20
			for i := range n {
				if i%2 == 0 {
					if err := s.Record(ctx, translate.FactPod, fmt.Sprintf("p%d", i), translate.Fact{TemplateID: fmt.Sprintf("t%d", i), Created: true}); err != nil {
						t.Fatal(err)
					}
				}
			}
			_, _ = s.Lookup(ctx, translate.FactPod, []string{"warm"}) // connections made ready

			g := newGate()
			c.AddHook(g)
			first := make(chan error, 1)
			go func() {
				_, err := s.Lookup(ctx, translate.FactPod, []string{"p0"})
				first <- err
			}()
			<-g.held // the first lookup's round trip is in flight
			var wg sync.WaitGroup
			got := make([]map[string]translate.Fact, n)
			errs := make([]error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[i], errs[i] = s.Lookup(ctx, translate.FactPod, []string{fmt.Sprintf("p%d", i), "absent"})
				}()
			}
			// Every lookup queues behind the held one (they cannot be
			// seen waiting; give them time to get there: one that is
			// late makes one more round trip, which the check allows).
			time.Sleep(200 * time.Millisecond)
			close(g.open)
			wg.Wait()
			if err := <-first; err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if errs[i] != nil {
					t.Fatalf("lookup %d: %v", i, errs[i])
				}
				want := map[string]translate.Fact{}
				if i%2 == 0 {
					want[fmt.Sprintf("p%d", i)] = translate.Fact{TemplateID: fmt.Sprintf("t%d", i), Created: true}
				}
				if fmt.Sprint(got[i]) != fmt.Sprint(want) && !(len(got[i]) == 0 && len(want) == 0) {
					t.Errorf("lookup %d: %v, want %v", i, got[i], want)
				}
			}
			if rt := g.n.Load(); rt < 2 || rt > 3 {
				t.Errorf("%d concurrent lookups behind one in flight took %d round trips in all, want 2 (3 if one came late)", n, rt)
			}
		})
	}
}

// A lookup whose context ends while it waits returns at once with the
// context's error; the lookups around it are unaffected; and after Close
// a lookup fails at once.
func TestRedisLookupWaitingEndsWithItsContext(t *testing.T) {
	s, c := newTestRedis(t, time.Hour)
	ctx := context.Background()
	if err := s.Record(ctx, translate.FactPod, "p1", translate.Fact{TemplateID: "t1", Created: true}); err != nil {
		t.Fatal(err)
	}
	_, _ = s.Lookup(ctx, translate.FactPod, []string{"warm"})
	g := newGate()
	c.AddHook(g)
	first := make(chan error, 1)
	go func() {
		_, err := s.Lookup(ctx, translate.FactPod, []string{"p1"})
		first <- err
	}()
	<-g.held
	cctx, cancel := context.WithCancel(ctx)
	gone := make(chan error, 1)
	go func() {
		_, err := s.Lookup(cctx, translate.FactPod, []string{"p1"})
		gone <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-gone:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled lookup: %v, want context.Canceled", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("a cancelled lookup kept waiting for the round trip ahead of it")
	}
	close(g.open)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	// A cancelled lookup does not mark Redis down.
	m, err := s.Lookup(ctx, translate.FactPod, []string{"p1"})
	if err != nil || m["p1"].TemplateID != "t1" {
		t.Fatalf("lookup after a cancelled one: %v, %v", m, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lookup(ctx, translate.FactPod, []string{"p1"}); err == nil {
		t.Fatal("a lookup after Close succeeded")
	}
}
