package limiter

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Decisions reach Redis through one dispatcher goroutine that sends what
// is waiting as one pipeline: each decision is still exactly one EVALSHA
// (one command, one round trip for its caller), but decisions that arrive
// while a round trip is in flight share the next one — one write and one
// read for the lot, on the gateway and on the Redis server alike, instead
// of one each. Nothing waits to fill a batch: a decision that finds the
// dispatcher idle goes out at once, alone, as before. Under load the
// batches grow by themselves, and so does the saving (the system calls and
// event-loop wake-ups per command are most of a Redis server's work for a
// script this small; see BENCHMARKS.md).

// maxBatch bounds the decisions sent in one pipeline.
const maxBatch = 128

// errClosed is returned by decisions asked of a closed limiter.
var errClosed = errors.New("rate limiter closed")

// pendingCall is one decision waiting for its script reply.
type pendingCall struct {
	key   string // KEYS[1] of the script
	vals  []int64
	err   error
	done  chan struct{} // closed once vals and err are set
	state atomic.Int32  // callQueued, then callTaken (by the dispatcher) or callAbandoned (by the caller)
}

const (
	callQueued int32 = iota
	callTaken
	callAbandoned
)

// dispatch runs the batches until quit is closed.
func (r *Redis) dispatch() {
	batch := make([]*pendingCall, 0, maxBatch)
	cmds := make([]*redis.Cmd, 0, maxBatch)
	for {
		select {
		case <-r.quit:
			return
		case pc := <-r.reqs:
			batch = batch[:0]
			if pc.state.CompareAndSwap(callQueued, callTaken) {
				batch = append(batch, pc)
			}
		}
	fill:
		for len(batch) < maxBatch {
			select {
			case pc := <-r.reqs:
				// A caller that gave up waiting (ErrOverloaded, or its
				// request ended) is never sent: nothing is counted for it.
				if pc.state.CompareAndSwap(callQueued, callTaken) {
					batch = append(batch, pc)
				}
			default:
				break fill
			}
		}
		if len(batch) == 0 {
			continue
		}
		cmds = r.runBatch(batch, cmds[:0])
		clear(batch)
		clear(cmds)
	}
}

// runBatch sends the batch's scripts (EVALSHA; EVAL for those Redis
// answers NOSCRIPT, after a restart or SCRIPT FLUSH) and hands each caller
// its reply.
func (r *Redis) runBatch(batch []*pendingCall, cmds []*redis.Cmd) []*redis.Cmd {
	box := r.client.Load()
	c := box.c
	r.inflightSlow.Store(slowSchedulings(r.starved))
	r.inflightSince.Store(time.Now().UnixNano())
	defer r.inflightSince.Store(0)
	if !box.ready {
		// A new client: dial and load the script first, within the
		// dispatcher's deadline, so that the round trip below is one write
		// and one read (a dial, a handshake and a NOSCRIPT answer are
		// several steps, each waiting for a CPU on a saturated process).
		pctx, pcancel := context.WithTimeout(context.Background(), 2*r.queueWait)
		err := rateScript.Load(pctx, c).Err()
		pcancel()
		if err != nil {
			for _, pc := range batch {
				pc.err = fmt.Errorf("loading the script: %w", err)
				close(pc.done)
			}
			return cmds
		}
		box.ready = true
	}
	// The deadline is twice the queue wait, not the Redis timeout: callers
	// judge the timeout (roundTrip), and a reply that comes late only
	// because this process had no CPU for it is still read and honoured.
	ctx, cancel := context.WithTimeout(context.Background(), 2*r.queueWait)
	defer cancel()
	args := []any{int64(Window / time.Second), expiryMargin}
	r.roundTrips.Add(1)
	if len(batch) == 1 {
		pc := batch[0]
		pc.vals, pc.err = rateScript.Run(ctx, c, []string{pc.key}, args...).Int64Slice()
		close(pc.done)
		return cmds
	}
	_, _ = c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, pc := range batch {
			cmds = append(cmds, rateScript.EvalSha(ctx, p, []string{pc.key}, args...))
		}
		return nil
	})
	var retry []int
	for i, cmd := range cmds {
		if err := cmd.Err(); err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
			retry = append(retry, i)
		}
	}
	if len(retry) > 0 {
		r.roundTrips.Add(1)
		_, _ = c.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, i := range retry {
				cmds[i] = rateScript.Eval(ctx, p, []string{batch[i].key}, args...)
			}
			return nil
		})
	}
	for i, pc := range batch {
		pc.vals, pc.err = cmds[i].Int64Slice()
		close(pc.done)
	}
	return cmds
}

// roundTrip asks the dispatcher for one decision's script reply.
//
// The Redis timeout is judged on Redis, not on this process: every
// r.timeout/2 (first after r.timeout) the caller wakes and looks at the
// round trip in flight. If it has run longer than the timeout while this
// process was responsive, Redis is
// slow: the decision fails as a Redis error (breaker, fallback). If the
// timer fired late, or any goroutine waited r.starved or more for a CPU
// since the round trip was sent (sched.go), this process is short of CPU:
// the round trip is not blamed on Redis, and the decision keeps waiting — but a decision
// still queued unsent after queueWait is withdrawn (nothing counted) and
// shed with ErrOverloaded. A decision already sent is waited for: its
// round trip is bounded by the dispatcher's deadline (2 × queueWait), and a
// request Redis counted is never also decided by the fallback.
func (r *Redis) roundTrip(ctx context.Context, keyID string) ([]int64, error) {
	pc := &pendingCall{key: keyPrefix(keyID), done: make(chan struct{})}
	start := time.Now()
	due := start.Add(r.timeout)
	check := time.NewTimer(r.timeout)
	defer check.Stop()
	send := r.reqs
	for {
		select {
		case send <- pc:
			send = nil
		case <-pc.done:
			return pc.vals, pc.err
		case <-r.quit:
			return nil, errClosed
		case <-ctx.Done():
			pc.state.CompareAndSwap(callQueued, callAbandoned)
			return nil, fmt.Errorf("waiting for Redis: %w", ctx.Err())
		case <-check.C:
			now := time.Now()
			since := r.inflightSince.Load()
			responsive := now.Sub(due) < r.starved && slowSchedulings(r.starved) == r.inflightSlow.Load()
			if responsive && since != 0 && now.Sub(time.Unix(0, since)) >= r.timeout {
				pc.state.CompareAndSwap(callQueued, callAbandoned)
				return nil, fmt.Errorf("waiting for Redis: no answer within %v: %w", r.timeout, context.DeadlineExceeded)
			}
			if now.Sub(start) >= r.queueWait && (send != nil || pc.state.CompareAndSwap(callQueued, callAbandoned)) {
				return nil, fmt.Errorf("%w: no turn to send to Redis within %v", ErrOverloaded, r.queueWait)
			}
			due = now.Add(r.timeout / 2)
			check.Reset(r.timeout / 2)
		}
	}
}
