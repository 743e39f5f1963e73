package facts

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Lookups reach Redis through one dispatcher goroutine, as the rate
// limiter's decisions do (limiter/redisbatch.go): what is waiting when a
// round trip is sent goes out together, as one MGET (one pipeline of GETs
// in a cluster, whose keys live in different slots). Every GET /v1/pods/{id}
// reads its pod's fact, so under load that is one write and one read for
// many requests instead of one each, on the gateway and on Redis. Nothing
// waits to fill a batch: a lookup that finds the dispatcher idle goes out
// at once, alone, as before. The answers are the same as one round trip
// per lookup: each key's value as Redis held it when the batch was read,
// after every write the gateway had confirmed before the lookup began.

// maxBatchKeys bounds the keys of one batch (a batch takes every queued
// lookup until it passes this; a lookup is never split).
const maxBatchKeys = 1024

// batchTimeout bounds a batch's round trip when its callers' contexts
// allow longer (or have no deadline): the dispatcher serves every lookup,
// and a hung Redis must not hold it.
const batchTimeout = time.Second

var errClosed = errors.New("facts: store closed")

// pendingLookup is one Lookup waiting for its values.
type pendingLookup struct {
	keys     []string // Redis keys (owned: built for the lookup)
	deadline time.Time
	vals     []any // one per key: the value (string) or nil
	err      error
	done     chan struct{} // closed once vals and err are set
	state    atomic.Int32  // lookupQueued, then lookupTaken or lookupAbandoned
}

const (
	lookupQueued int32 = iota
	lookupTaken
	lookupAbandoned
)

// batchLookup reads keys through the dispatcher.
func (r *Redis) batchLookup(ctx context.Context, keys []string) ([]any, error) {
	pl := &pendingLookup{keys: keys, done: make(chan struct{})}
	pl.deadline, _ = ctx.Deadline()
	select {
	case r.reqs <- pl:
	case <-r.quit:
		return nil, errClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case <-pl.done:
		return pl.vals, pl.err
	case <-r.quit:
		return nil, errClosed
	case <-ctx.Done():
		// Not sent yet: never will be. Sent: its values are dropped.
		pl.state.CompareAndSwap(lookupQueued, lookupAbandoned)
		return nil, ctx.Err()
	}
}

// dispatch runs the batches until quit is closed.
func (r *Redis) dispatch() {
	defer close(r.stopped)
	var batch []*pendingLookup
	for {
		batch = batch[:0]
		n := 0
		select {
		case <-r.quit:
			return
		case pl := <-r.reqs:
			if pl.state.CompareAndSwap(lookupQueued, lookupTaken) {
				batch, n = append(batch, pl), len(pl.keys)
			}
		}
	fill:
		for n < maxBatchKeys {
			select {
			case pl := <-r.reqs:
				if pl.state.CompareAndSwap(lookupQueued, lookupTaken) {
					batch, n = append(batch, pl), n+len(pl.keys)
				}
			default:
				break fill
			}
		}
		if len(batch) > 0 {
			r.runBatch(batch, n)
		}
		clear(batch)
	}
}

// runBatch reads the keys of batch in one round trip and hands each
// lookup its values.
func (r *Redis) runBatch(batch []*pendingLookup, n int) {
	// The latest of the callers' deadlines (no caller is cut short by
	// another's), within batchTimeout.
	deadline := time.Now().Add(batchTimeout)
	latest := time.Time{}
	for _, pl := range batch {
		if pl.deadline.IsZero() {
			latest = deadline
			break
		}
		if pl.deadline.After(latest) {
			latest = pl.deadline
		}
	}
	if latest.Before(deadline) {
		deadline = latest
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()

	keys := batch[0].keys
	if len(batch) > 1 {
		keys = make([]string, 0, n)
		for _, pl := range batch {
			keys = append(keys, pl.keys...)
		}
	}
	vals, err := r.read(ctx, keys)
	off := 0
	for _, pl := range batch {
		if err == nil {
			pl.vals = vals[off : off+len(pl.keys) : off+len(pl.keys)]
		}
		pl.err = err
		off += len(pl.keys)
		close(pl.done)
	}
}

// read returns the values of keys (a string or nil each) in one round
// trip.
func (r *Redis) read(ctx context.Context, keys []string) ([]any, error) {
	if _, cluster := r.client.(*redis.ClusterClient); !cluster {
		return r.client.MGet(ctx, keys...).Result()
	}
	cmds := make([]*redis.StringCmd, len(keys))
	_, err := r.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, k := range keys {
			cmds[i] = p.Get(ctx, k)
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	vals := make([]any, len(keys))
	for i, c := range cmds {
		v, err := c.Result()
		switch {
		case errors.Is(err, redis.Nil):
		case err != nil:
			return nil, err
		default:
			vals[i] = v
		}
	}
	return vals, nil
}
