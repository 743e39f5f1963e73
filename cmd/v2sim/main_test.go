package main

import (
	"bytes"
	"context"
	"encoding/json"
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
	if err := run(context.Background(), []string{"-bogus"}, &logs, nil); err == nil || exitCode(err) != 2 {
		t.Errorf("unknown flag: %v", err)
	}
	for _, args := range [][]string{
		{"-endpoint-template", "mine"}, {"-endpoint-template", ""},
		{"-pod-template", "hidden"}, {"-datacenters", "sometimes"},
	} {
		if err := run(context.Background(), args, &logs, nil); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%q: %v", args, err)
		}
	}
}

func TestHelpListsTheReadingsAndExitsZero(t *testing.T) {
	var logs syncBuffer
	err := run(context.Background(), []string{"-h"}, &logs, nil)
	if exitCode(err) != 0 {
		t.Errorf("-h: %v gives exit code %d", err, exitCode(err))
	}
	for _, want := range []string{"-endpoint-template", "copy", "caller", "-pod-template", "visible", "-datacenters", "preferred", "strict"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("usage lacks %q: %s", want, logs.String())
		}
	}
}

func TestTheReadingFlagsReachTheSimulator(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	done := make(chan error, 1)
	urls := make(chan string, 1)
	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0", "-seed=false", "-pod-template", "visible", "-datacenters", "strict"}, &logs, func(u string) { urls <- u })
	}()
	var base string
	select {
	case base = <-urls:
	case err := <-done:
		t.Fatalf("run returned early: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("listener not ready")
	}
	post := func(path, body string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer k")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		m["status code"] = resp.StatusCode
		return m
	}
	tpl := post("/v2/templates", `{"name":"t","image":"i"}`)
	pod := post("/v2/pods", `{"name":"p","templateId":"`+tpl["id"].(string)+`","gpu":{"id":"NVIDIA GeForce RTX 4090"}}`)
	if pod["template"] != tpl["id"] {
		t.Errorf("-pod-template visible: pod %v", pod)
	}
	if p := post("/v2/pods", `{"name":"q","image":"i","gpu":{"id":"NVIDIA GeForce RTX 4090"},"dataCenterIds":["EU-CZ-1"]}`); p["status code"] != 400 {
		t.Errorf("-datacenters strict: %v", p)
	}
	if !strings.Contains(logs.String(), "pod-template=visible, datacenters=strict") {
		t.Errorf("start line %q", logs.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
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
