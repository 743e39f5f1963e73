package limiter

import (
	"context"
	"sync"
	"testing"
	"time"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestMemoryWindow(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 22, 10, 0, 15, 0, time.UTC)}
	l := NewMemory(clk.Now)
	ctx := context.Background()
	tests := []struct {
		advance   time.Duration
		key       string
		limit     int
		allowed   bool
		remaining int
		resetSec  int
	}{
		{0, "a", 3, true, 2, 45},
		{0, "a", 3, true, 1, 45},
		{10 * time.Second, "a", 3, true, 0, 35},
		{0, "a", 3, false, 0, 35},
		{0, "b", 3, true, 2, 35},                // keys are independent
		{0, "c", 0, true, 0, 35},                // 0 = unlimited
		{35 * time.Second, "a", 3, true, 2, 60}, // next window
	}
	for i, tc := range tests {
		clk.Add(tc.advance)
		d, err := l.Allow(ctx, tc.key, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed != tc.allowed || d.Remaining != tc.remaining || d.ResetSeconds() != tc.resetSec {
			t.Errorf("step %d: got %+v (reset %ds), want allowed=%v remaining=%d reset=%ds", i, d, d.ResetSeconds(), tc.allowed, tc.remaining, tc.resetSec)
		}
	}
}

func TestMemoryConcurrent(t *testing.T) {
	l := NewMemory(func() time.Time { return time.Date(2026, 11, 22, 10, 0, 1, 0, time.UTC) })
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, _ := l.Allow(context.Background(), "k", 20)
			if d.Allowed {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if allowed != 20 {
		t.Fatalf("allowed %d of 50 with limit 20", allowed)
	}
}

func TestKeyID(t *testing.T) {
	a := KeyID([]byte("s1"), "token")
	if a != KeyID([]byte("s1"), "token") {
		t.Fatal("KeyID not stable")
	}
	if a == KeyID([]byte("s2"), "token") || a == KeyID([]byte("s1"), "token2") {
		t.Fatal("KeyID collides across secrets or tokens")
	}
	if len(a) != 32 || a == "token" {
		t.Fatalf("KeyID %q: want 32 hex chars", a)
	}
}
