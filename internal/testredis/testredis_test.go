package testredis

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// fakeTB records whether a helper skipped or failed, without stopping the
// real test. Skip and Fatal end the calling goroutine, as testing.T does.
type fakeTB struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Skipf(format string, args ...any) {
	f.skipped = true
	f.msg = sprintf(format, args...)
	panic(errStop)
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = true
	f.msg = sprintf(format, args...)
	panic(errStop)
}

var errStop = errors.New("stop")

func runHelper(f *fakeTB, fn func(testing.TB)) {
	defer func() {
		if r := recover(); r != nil && r != errStop {
			panic(r)
		}
	}()
	fn(f)
}

func TestMissingRedis(t *testing.T) {
	defer func(l func(string) (string, error), g func(string) string) { lookPath, getenv = l, g }(lookPath, getenv)
	defer func(d time.Duration) { sharedTimeout = d }(sharedTimeout)
	lookPath = func(string) (string, error) { return "", errors.New("not found") }
	sharedTimeout = 50 * time.Millisecond
	tests := []struct {
		name    string
		env     map[string]string
		helper  func(testing.TB)
		skipped bool
		failed  bool
	}{
		{"URL skips without Redis", nil, func(tb testing.TB) { URL(tb) }, true, false},
		{"URL fails when Redis is required", map[string]string{EnvRequire: "1"}, func(tb testing.TB) { URL(tb) }, false, true},
		{"Start skips without binary", nil, func(tb testing.TB) { Start(tb) }, true, false},
		{"Start fails when required", map[string]string{EnvRequire: "1"}, func(tb testing.TB) { Start(tb) }, false, true},
		// Start never uses the shared Redis: it must stop and restart its own.
		{"Start ignores the shared URL", map[string]string{EnvURL: "redis://127.0.0.1:1"}, func(tb testing.TB) { Start(tb) }, true, false},
		{"StartCluster fails when required", map[string]string{EnvRequire: "1"}, func(tb testing.TB) { StartCluster(tb) }, false, true},
		{"URL fails on an unreachable shared Redis", map[string]string{EnvURL: "redis://127.0.0.1:1/15"}, func(tb testing.TB) { URL(tb) }, false, true},
		{"URL fails on a bad scheme", map[string]string{EnvURL: "http://127.0.0.1:6379"}, func(tb testing.TB) { URL(tb) }, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getenv = func(k string) string { return tc.env[k] }
			f := &fakeTB{}
			runHelper(f, tc.helper)
			if f.skipped != tc.skipped || f.failed != tc.failed {
				t.Fatalf("skipped=%v failed=%v (%s), want skipped=%v failed=%v", f.skipped, f.failed, f.msg, tc.skipped, tc.failed)
			}
			if f.skipped && !strings.Contains(f.msg, "redis-server") {
				t.Errorf("skip message %q does not say how to get a Redis", f.msg)
			}
		})
	}
}

func TestURLAnswersPing(t *testing.T) {
	u := URL(t)
	addr, network, err := dialTarget(u)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := command(network, addr, "PING"); err != nil || got != "PONG" {
		t.Fatalf("PING %s: %q, %v", u, got, err)
	}
}

func TestStartStopRestart(t *testing.T) {
	s := Start(t)
	if _, err := command("tcp", s.Addr(), "SET", "k", "v"); err != nil {
		t.Fatal(err)
	}
	s.Stop()
	if _, err := command("tcp", s.Addr(), "PING"); err == nil {
		t.Fatal("PING answered after Stop")
	}
	s.Stop() // idempotent
	s.Restart()
	if got, err := command("tcp", s.Addr(), "PING"); err != nil || got != "PONG" {
		t.Fatalf("PING after Restart: %q, %v", got, err)
	}
	// Nothing is persisted: the restarted server is empty.
	if got, err := command("tcp", s.Addr(), "EXISTS", "k"); err != nil || got != "0" {
		t.Fatalf("EXISTS k after restart: %q, %v", got, err)
	}
	if files, _ := os.ReadDir(s.dir); len(files) != 0 {
		t.Errorf("server wrote files: %v", files)
	}
}

func TestStartCluster(t *testing.T) {
	s := StartCluster(t)
	info, err := command("tcp", s.Addr(), "CLUSTER", "INFO")
	if err != nil || !strings.Contains(info, "cluster_slots_assigned:16384") {
		t.Fatalf("CLUSTER INFO: %q, %v", info, err)
	}
	// The hash tag decides the slot.
	slot, err := command("tcp", s.Addr(), "CLUSTER", "KEYSLOT", "a{user1000}b")
	if err != nil || slot != "3443" {
		t.Fatalf("KEYSLOT: %q, %v", slot, err)
	}
}

func TestDialTarget(t *testing.T) {
	tests := []struct{ in, addr, network string }{
		{"redis://127.0.0.1:6379/15", "127.0.0.1:6379", "tcp"},
		{"redis://:pw@localhost/0", "localhost:6379", "tcp"},
		{"rediss://r.example:6380", "r.example:6380", "tcp"},
		{"unix:///run/redis.sock", "/run/redis.sock", "unix"},
	}
	for _, tc := range tests {
		addr, network, err := dialTarget(tc.in)
		if err != nil || addr != tc.addr || network != tc.network {
			t.Errorf("dialTarget(%q) = %q, %q, %v; want %q, %q", tc.in, addr, network, err, tc.addr, tc.network)
		}
	}
}

func sprintf(format string, args ...any) string {
	return strings.TrimSpace(fmt.Sprintf(format, args...))
}
