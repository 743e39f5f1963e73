package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunServesAndShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var logs syncBuffer
	done := make(chan error, 1)
	urls := make(chan string, 1)
	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0", "-keys", "k1, k2", "-rate-limit", "5"}, &logs, func(u string) { urls <- u })
	}()
	var base string
	select {
	case base = <-urls:
	case err := <-done:
		cancel()
		t.Fatalf("run returned early: %v", err)
	case <-time.After(5 * time.Second):
		cancel()
		t.Fatal("listener not ready")
	}
	if !strings.Contains(logs.String(), "listening on "+base) {
		t.Errorf("no start log line with the URL: %q", logs.String())
	}

	req, _ := http.NewRequest("GET", base+"/v2/pods", nil)
	req.Header.Set("Authorization", "Bearer k2")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("RateLimit-Policy") != `"minute";q=5;w=60` {
		t.Errorf("status %d, policy %q", resp.StatusCode, resp.Header.Get("RateLimit-Policy"))
	}
	req.Header.Set("Authorization", "Bearer other")
	resp, err = http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != 401 {
			t.Errorf("unknown key: status %d, want 401", resp.StatusCode)
		}
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not return after cancel")
	}
	if !strings.Contains(logs.String(), "v2sim stopped") {
		t.Errorf("no stop log line: %q", logs.String())
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	var logs syncBuffer
	if err := run(context.Background(), []string{"-rate-limit", "-1"}, &logs, nil); err == nil {
		t.Error("negative rate limit accepted")
	}
	if err := run(context.Background(), []string{"-bogus"}, &logs, nil); err == nil {
		t.Error("unknown flag accepted")
	}
}

func TestHelpExitsZeroAndBadFlagsExitTwo(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		wantCode int
		wantOut  string
	}{
		{[]string{"-h"}, 0, "-listen"},
		{[]string{"-help"}, 0, "-rate-limit"},
		{[]string{"-no-such-flag"}, 2, "flag provided but not defined"},
		{[]string{"-rate-limit", "-1"}, 2, ""},
	} {
		var out bytes.Buffer
		err := run(context.Background(), tc.args, &out, nil)
		if got := exitCode(err); got != tc.wantCode {
			t.Errorf("v2sim %v: exit code %d (err %v), want %d", tc.args, got, err, tc.wantCode)
		}
		if !strings.Contains(out.String(), tc.wantOut) {
			t.Errorf("v2sim %v printed %q, want it to contain %q", tc.args, out.String(), tc.wantOut)
		}
	}
}
