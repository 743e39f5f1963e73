package proxy

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/v1gateway/v1gateway/config"
)

func TestBufferBudget(t *testing.T) {
	ctx := context.Background()
	t.Run("takes what fits, refuses past the wait what does not", func(t *testing.T) {
		b := newBufferBudgetOf(100)
		if !b.acquire(ctx, 60, 0) || !b.acquire(ctx, 40, 0) {
			t.Fatal("100 bytes of 100 refused")
		}
		start := time.Now()
		if b.acquire(ctx, 1, 30*time.Millisecond) {
			t.Fatal("byte 101 granted")
		}
		if el := time.Since(start); el < 30*time.Millisecond {
			t.Errorf("refused after %v, want after the wait", el)
		}
		if b.inUse() != 100 {
			t.Errorf("in use %d", b.inUse())
		}
	})
	t.Run("a waiting request gets the bytes another gives back", func(t *testing.T) {
		b := newBufferBudgetOf(100)
		b.acquire(ctx, 100, 0)
		go func() {
			time.Sleep(20 * time.Millisecond)
			b.release(50)
		}()
		if !b.acquire(ctx, 50, 5*time.Second) {
			t.Fatal("not granted after the release")
		}
	})
	t.Run("an answer larger than the whole budget waits for it to be empty", func(t *testing.T) {
		b := newBufferBudgetOf(100)
		if !b.acquire(ctx, 150, 0) {
			t.Fatal("refused with the budget empty")
		}
		if b.acquire(ctx, 1, 0) {
			t.Fatal("granted past an oversized answer")
		}
	})
	t.Run("the request's end stops the wait", func(t *testing.T) {
		b := newBufferBudgetOf(1)
		b.acquire(ctx, 1, 0)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if b.acquire(cctx, 1, time.Minute) {
			t.Fatal("granted")
		}
	})
}

func TestReadBodyAsksTheBudgetBeforeReading(t *testing.T) {
	body := strings.Repeat("x", 200<<10)
	var asked []int64
	granted := int64(0)
	charge := func(n int64) bool {
		asked = append(asked, n)
		if granted+n > 128<<10 {
			return false
		}
		granted += n
		return true
	}
	cr := &countingReader{r: iotest.HalfReader(strings.NewReader(body))}
	_, err := readBody(make([]byte, 0, 1<<20), cr, -1, 1<<20, charge)
	var be *BudgetExceededError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want BudgetExceededError", err)
	}
	if cr.n > granted {
		t.Errorf("read %d bytes with %d granted", cr.n, granted)
	}
	if len(asked) < 2 || asked[0] != 64<<10 {
		t.Errorf("asked %v, want steps of 64 KiB for a chunked answer", asked)
	}
	// A declared length is asked for at once.
	asked, granted = nil, 0
	if _, err := readBody(nil, strings.NewReader("abc"), 3, 1<<20, charge); err != nil || len(asked) != 1 || asked[0] != 4 {
		t.Errorf("declared length: err %v, asked %v", err, asked)
	}
}

// With the budget full (other requests' answers in memory), a translated
// GET waits briefly, then answers 503 with Retry-After; it succeeds when
// room is made within the wait; writes are never refused; and every byte
// a request took is given back when it ends.
func TestBufferBudgetFullAnswers503(t *testing.T) {
	e := newSimEnv(t, func(_ *config.Config, o *Options) { o.BufferBudget = 256 << 10 })
	b := e.gw.budget
	b.acquire(context.Background(), 256<<10, 0) // the budget is full
	start := time.Now()
	resp := do(t, "GET", e.srv.URL+"/v1/pods", "k1", nil, nil)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" {
		t.Fatalf("status %d, Retry-After %q; want 503 and 1", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if msg := readMessage(t, resp); !strings.Contains(msg, "overloaded") {
		t.Errorf("message %q", msg)
	}
	if el := time.Since(start); el < BufferBudgetWait {
		t.Errorf("answered after %v, want a wait of %v first", el, BufferBudgetWait)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		b.release(256 << 10)
	}()
	resp = do(t, "GET", e.srv.URL+"/v1/pods", "k1", nil, nil)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d after room was made, want 200", resp.StatusCode)
	}
	b.acquire(context.Background(), 256<<10, 0)
	resp = do(t, "POST", e.srv.URL+"/v1/pods", "k1", strings.NewReader(createBody), nil)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("create with the budget full: %d, want 201 (only GET answers count)", resp.StatusCode)
	}
	b.release(256 << 10)
	if n := b.inUse(); n != 0 {
		t.Errorf("%d bytes still held after every request ended", n)
	}
}
