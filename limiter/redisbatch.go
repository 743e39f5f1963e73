package limiter

import (
	"context"
	"errors"
	"fmt"
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
	key  string // KEYS[1] of the script
	vals []int64
	err  error
	done chan struct{} // closed once vals and err are set
}

// dispatch runs the batches until quit is closed.
func (r *Redis) dispatch() {
	batch := make([]*pendingCall, 0, maxBatch)
	cmds := make([]*redis.Cmd, 0, maxBatch)
	for {
		select {
		case <-r.quit:
			return
		case pc := <-r.reqs:
			batch = append(batch[:0], pc)
		}
	fill:
		for len(batch) < maxBatch {
			select {
			case pc := <-r.reqs:
				batch = append(batch, pc)
			default:
				break fill
			}
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
	c := r.client.Load().c
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
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

// roundTrip asks the dispatcher for one decision's script reply, waiting
// at most the per-call timeout (and never past ctx).
func (r *Redis) roundTrip(ctx context.Context, keyID string) ([]int64, error) {
	cctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	pc := &pendingCall{key: keyPrefix(keyID), done: make(chan struct{})}
	select {
	case r.reqs <- pc:
	case <-r.quit:
		return nil, errClosed
	case <-cctx.Done():
		return nil, fmt.Errorf("waiting to send to Redis: %w", cctx.Err())
	}
	select {
	case <-pc.done:
		return pc.vals, pc.err
	case <-r.quit:
		return nil, errClosed
	case <-cctx.Done():
		return nil, fmt.Errorf("waiting for Redis: %w", cctx.Err())
	}
}
