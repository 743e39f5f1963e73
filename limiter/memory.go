package limiter

import (
	"context"
	"sync"
	"time"
)

// Memory is an in-process fixed-window limiter: the embedded default when no
// Redis is configured. Limits are per process, so with several replicas each
// one enforces the quota on its own.
type Memory struct {
	now func() time.Time

	mu     sync.Mutex
	window int64 // start of the current window, unix seconds
	counts map[string]int
}

// NewMemory returns an in-memory limiter using the given clock (nil: time.Now).
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{now: now, counts: make(map[string]int)}
}

// Allow implements Limiter.
func (m *Memory) Allow(_ context.Context, keyID string, limit int) (Decision, error) {
	now := m.now()
	win := now.Unix() - now.Unix()%int64(Window/time.Second)
	reset := time.Unix(win, 0).Add(Window).Sub(now)
	if limit <= 0 {
		return Decision{Allowed: true, Limit: 0, Remaining: 0, Reset: reset}, nil
	}
	m.mu.Lock()
	if win != m.window {
		// A new window: every key starts again. Dropping the map also
		// bounds memory to the keys seen in one window.
		m.window = win
		clear(m.counts)
	}
	n := m.counts[keyID]
	allowed := n < limit
	if allowed {
		n++
		m.counts[keyID] = n
	}
	m.mu.Unlock()
	return Decision{Allowed: allowed, Limit: limit, Remaining: max(limit-n, 0), Reset: reset}, nil
}

// Close implements Limiter.
func (m *Memory) Close() error { return nil }
