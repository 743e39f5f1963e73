// Package testredis gives tests a real Redis, as the project's testing rule
// requires (miniredis is for hermetic unit tests only, never instead of a
// real server).
//
// URL returns the Redis named by V1GW_TEST_REDIS_URL when it is set (CI sets
// redis://127.0.0.1:6379/15). Otherwise it starts a throwaway redis-server
// (when the binary is on PATH) on a free loopback port, with no persistence,
// in a temporary directory, killed when the test ends. Without either, the
// test is skipped — or fails, when V1GW_REQUIRE_REDIS=1.
//
// Start always starts a throwaway server, for tests that stop and restart
// Redis (they cannot do that to a shared one); StartCluster starts a
// single-node Redis Cluster that serves all 16384 slots.
//
// Tests sharing a Redis must not interfere: use unique key names per test
// (e.g. a fresh random key id) rather than flushing anything.
package testredis

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Environment variables read by this package.
const (
	EnvURL     = "V1GW_TEST_REDIS_URL" // a Redis to use instead of a throwaway server
	EnvRequire = "V1GW_REQUIRE_REDIS"  // "1": fail instead of skipping when no Redis can be had
)

// readyTimeout bounds how long a started server may take to answer PING;
// sharedTimeout how long the Redis of V1GW_TEST_REDIS_URL may take.
const readyTimeout = 10 * time.Second

var sharedTimeout = 3 * time.Second

// lookPath and getenv are replaced in this package's tests.
var (
	lookPath = exec.LookPath
	getenv   = os.Getenv
)

// URL returns the URL of a real Redis for tb: V1GW_TEST_REDIS_URL when set
// (checked with a PING), else a throwaway redis-server stopped at cleanup.
func URL(tb testing.TB) string {
	tb.Helper()
	if u := getenv(EnvURL); u != "" {
		addr, network, err := dialTarget(u)
		if err != nil {
			tb.Fatalf("testredis: %s: %v", EnvURL, err)
		}
		if err := waitPing(network, addr, sharedTimeout, nil); err != nil {
			tb.Fatalf("testredis: the Redis named by %s does not answer PING: %v", EnvURL, err)
		}
		return u
	}
	return start(tb, false, false).URL()
}

// Server is a throwaway redis-server owned by one test.
type Server struct {
	tb      testing.TB
	bin     string
	dir     string
	port    int
	cluster bool

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
	out  *syncBuffer
}

// Start starts a throwaway redis-server for tb alone, stopped at cleanup.
// It skips tb when redis-server is not on PATH (fails with
// V1GW_REQUIRE_REDIS=1): it never falls back to V1GW_TEST_REDIS_URL,
// because its callers stop and restart the server.
func Start(tb testing.TB) *Server {
	tb.Helper()
	return start(tb, false, true)
}

// StartCluster starts a throwaway single-node Redis Cluster (cluster mode,
// all slots assigned to the one node) and waits until the cluster state is
// ok. Skips or fails as Start does.
func StartCluster(tb testing.TB) *Server {
	tb.Helper()
	s := start(tb, true, true)
	if err := s.assignAllSlots(); err != nil {
		tb.Fatalf("testredis: cluster setup: %v\n%s", err, s.out.String())
	}
	return s
}

// missing decides what to do when no redis-server binary is available:
// skip, or fail when V1GW_REQUIRE_REDIS=1. own tells that the test needs a
// server of its own (Start), which V1GW_TEST_REDIS_URL cannot provide.
func missing(tb testing.TB, why string, own bool) {
	tb.Helper()
	if getenv(EnvRequire) == "1" {
		tb.Fatalf("testredis: %s, and %s=1 requires a real Redis", why, EnvRequire)
	}
	if own {
		tb.Skipf("testredis: %s: no Redis: this test stops and restarts Redis, so it needs its own redis-server (install it)", why)
	}
	tb.Skipf("testredis: %s: no Redis: set %s or install redis-server", why, EnvURL)
}

func start(tb testing.TB, cluster, own bool) *Server {
	tb.Helper()
	bin, err := lookPath("redis-server")
	if err != nil {
		missing(tb, "redis-server is not on PATH", own)
		return nil // not reached: Skip and Fatal stop the test
	}
	s := &Server{tb: tb, bin: bin, dir: tb.TempDir(), cluster: cluster}
	var lastErr error
	// A free port can be taken by someone else between probing and
	// binding: try a few.
	for range 5 {
		port, err := freePort()
		if err != nil {
			tb.Fatalf("testredis: no free port: %v", err)
		}
		s.port = port
		if lastErr = s.launch(); lastErr == nil {
			tb.Cleanup(s.Stop)
			return s
		}
	}
	tb.Fatalf("testredis: redis-server did not start: %v", lastErr)
	return nil
}

// URL is the server's redis:// URL (database 0).
func (s *Server) URL() string { return "redis://" + s.Addr() }

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// Stop kills the server (SIGKILL, as a crash would) and waits for it to
// exit. Stopping a stopped server does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

// Restart stops the server if it runs and starts it again on the same port,
// with no data (nothing is persisted), and waits until it answers PING.
func (s *Server) Restart() {
	s.tb.Helper()
	s.Stop()
	var err error
	// The port was just freed; redis-server binds with SO_REUSEADDR, but
	// allow a few attempts in case another process grabbed it meanwhile.
	for range 3 {
		if err = s.launch(); err == nil {
			if s.cluster {
				if err = s.assignAllSlots(); err != nil {
					s.tb.Fatalf("testredis: cluster setup after restart: %v", err)
				}
			}
			return
		}
	}
	s.tb.Fatalf("testredis: restart on port %d: %v", s.port, err)
}

func (s *Server) launch() error {
	args := []string{
		"--port", strconv.Itoa(s.port),
		"--bind", "127.0.0.1",
		"--save", "",
		"--appendonly", "no",
		"--dir", s.dir,
		"--daemonize", "no",
		"--logfile", "",
	}
	if s.cluster {
		// A fresh config file per launch: a restarted node starts empty.
		conf := filepath.Join(s.dir, fmt.Sprintf("nodes-%d.conf", time.Now().UnixNano()))
		args = append(args, "--cluster-enabled", "yes", "--cluster-config-file", conf)
	}
	cmd := exec.Command(s.bin, args...)
	cmd.Dir = s.dir
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	setProcAttr(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	if err := waitPing("tcp", s.Addr(), readyTimeout, done); err != nil {
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("%w\n%s", err, out.String())
	}
	s.mu.Lock()
	s.cmd, s.done, s.out = cmd, done, out
	s.mu.Unlock()
	return nil
}

// assignAllSlots gives every slot to the single node and waits until the
// node reports cluster_state:ok (a new cluster takes a second or two).
func (s *Server) assignAllSlots() error {
	if _, err := command("tcp", s.Addr(), "CLUSTER", "ADDSLOTSRANGE", "0", "16383"); err != nil {
		return err
	}
	deadline := time.Now().Add(readyTimeout)
	for {
		info, err := command("tcp", s.Addr(), "CLUSTER", "INFO")
		if err == nil && strings.Contains(info, "cluster_state:ok") {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cluster state not ok after %v: %v %q", readyTimeout, err, info)
		}
		time.Sleep(20 * time.Millisecond) // polling an external process, bounded by deadline
	}
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// dialTarget extracts the network and address of a redis://, rediss:// or
// unix:// URL for the readiness check.
func dialTarget(raw string) (addr, network string, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", fmt.Errorf("not a valid URL")
	}
	switch u.Scheme {
	case "redis", "rediss":
		host := u.Host
		if u.Port() == "" {
			host = net.JoinHostPort(u.Hostname(), "6379")
		}
		return host, "tcp", nil
	case "unix":
		return u.Path, "unix", nil
	default:
		return "", "", fmt.Errorf("unsupported scheme %q (want redis, rediss or unix)", u.Scheme)
	}
}

// waitPing polls PING until the server answers, the deadline passes or
// exited is closed (the process died). Polling an external process with a
// bounded deadline is the one way to know it is ready.
func waitPing(network, addr string, timeout time.Duration, exited <-chan struct{}) error {
	deadline := time.Now().Add(timeout)
	var err error
	for {
		if _, err = command(network, addr, "PING"); err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("redis-server exited before answering PING (last error: %v)", err)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no PING answer from %s within %v: %v", addr, timeout, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// command sends one command over a fresh connection and returns the reply
// as text (status, error, integer or bulk; arrays are not needed here). A
// password-protected server answers PING with NOAUTH, which counts as
// alive.
func command(network, addr string, args ...string) (string, error) {
	c, err := net.DialTimeout(network, addr, time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	var b bytes.Buffer
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := c.Write(b.Bytes()); err != nil {
		return "", err
	}
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", fmt.Errorf("empty reply")
	}
	switch line[0] {
	case '+', ':':
		return line[1:], nil
	case '-':
		if strings.HasPrefix(line, "-NOAUTH") && len(args) == 1 && args[0] == "PING" {
			return "PONG", nil
		}
		if strings.HasPrefix(line, "-LOADING") {
			return "", fmt.Errorf("%s", line[1:])
		}
		return "", fmt.Errorf("redis: %s", line[1:])
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return "", err
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return "", err
		}
		return string(buf[:n]), nil
	}
	return "", fmt.Errorf("unexpected reply %q", line)
}

// syncBuffer collects the server's output for error messages.
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
