package proxy

import (
	"context"
	"math"
	"runtime/debug"
	"sync"
	"time"
)

// The v2 answers of translated GETs are read whole into memory (a pod
// list is translated from the complete answer), so memory grows with
// answer size × requests in flight: eight answers near upstream_max_body
// would pass the container's limit. A process-wide budget bounds the bytes
// of those answers held at once: a request that would pass it waits up to
// BufferBudgetWait for others to finish, then is answered 503 with
// Retry-After instead of being read. It is sized from the memory limit Go
// was given (GOMEMLIMIT, which the manifests set to ~90% of the
// container's): BufferBudgetShare of it, and never less than two answers
// of upstream_max_body. Without GOMEMLIMIT there is no budget (as before).
// Only GET answers count: a create's or an update's answer is one resource,
// and its reading must never be refused (the change is made).

// BufferBudgetShare is the share of GOMEMLIMIT the budget takes; the v1
// answer a request builds (about half its v2 answer) and the rest of the
// process live in the remainder.
const BufferBudgetShare = 0.4

// BufferBudgetWait is how long a request waits for room in the budget.
const BufferBudgetWait = time.Second

// bufferBudget is a counting semaphore of bytes.
type bufferBudget struct {
	max  int64
	mu   sync.Mutex
	used int64
	wake chan struct{} // closed (and replaced) when bytes are released
}

// newBufferBudget returns the budget for a process whose largest single
// answer is maxBody, or nil (no budget) when Go has no memory limit.
func newBufferBudget(maxBody int64) *bufferBudget {
	limit := debug.SetMemoryLimit(-1)
	if limit <= 0 || limit == math.MaxInt64 {
		return nil
	}
	return newBufferBudgetOf(max(int64(float64(limit)*BufferBudgetShare), 2*maxBody))
}

func newBufferBudgetOf(n int64) *bufferBudget {
	return &bufferBudget{max: n, wake: make(chan struct{})}
}

// acquire takes n bytes, waiting at most wait (and never past ctx) for
// them; false when they could not be had. A request asking for more than
// the whole budget waits for it to be empty and then takes it.
func (b *bufferBudget) acquire(ctx context.Context, n int64, wait time.Duration) bool {
	var timer *time.Timer
	for {
		b.mu.Lock()
		if b.used+n <= b.max || (b.used == 0 && n > b.max) {
			b.used += n
			b.mu.Unlock()
			if timer != nil {
				timer.Stop()
			}
			return true
		}
		wake := b.wake
		b.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(wait)
		}
		select {
		case <-wake:
		case <-timer.C:
			return false
		case <-ctx.Done():
			timer.Stop()
			return false
		}
	}
}

// release gives n bytes back.
func (b *bufferBudget) release(n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	close(b.wake)
	b.wake = make(chan struct{})
	b.mu.Unlock()
}

// inUse is the bytes currently taken.
func (b *bufferBudget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// BudgetExceededError is a v2 answer the gateway would not read because
// the answers of the requests in flight already fill its memory budget:
// the request is answered 503 with Retry-After.
type BudgetExceededError struct{ Budget int64 }

func (e *BudgetExceededError) Error() string {
	return "the gateway is overloaded: the v2 answers of the requests in flight fill its memory budget"
}

// Overloaded marks the error for translate.FromCallError (503, Retry-After).
func (e *BudgetExceededError) Overloaded() bool { return true }
