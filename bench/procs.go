package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// proc is a server process the benchmark started.
type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
	out  *tailBuffer // stderr (and stdout when not discarded), last bytes
}

// tailBuffer keeps the last 8 KiB written to it, for error messages.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.b = append(t.b, p...)
	if len(t.b) > 8<<10 {
		t.b = append(t.b[:0], t.b[len(t.b)-8<<10:]...)
	}
	t.mu.Unlock()
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b))
}

// startProc starts bin with args and env (added to a clean copy of this
// process's environment). stdout nil discards the process's standard
// output (the gateway's access log: /dev/null, as cheap as logging gets
// without changing the gateway).
func startProc(name, bin string, args, env []string, stdout io.Writer) (*proc, error) {
	p := &proc{name: name, done: make(chan struct{}), out: &tailBuffer{}}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(cleanEnv(), env...)
	if stdout == nil {
		devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		defer devnull.Close()
		cmd.Stdout = devnull
	} else {
		cmd.Stdout = stdout
	}
	cmd.Stderr = p.out
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p.cmd = cmd
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// cleanEnv is this process's environment without the variables that would
// change what is measured (role selection, OpenTelemetry exporters, Go
// runtime tuning, proxies).
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == RoleEnv, strings.HasPrefix(k, "OTEL_"), strings.HasPrefix(k, "V1GW_"),
			k == "GOGC", k == "GOMEMLIMIT", k == "GOMAXPROCS", k == "GODEBUG",
			strings.EqualFold(k, "http_proxy"), strings.EqualFold(k, "https_proxy"):
			continue
		}
		out = append(out, kv)
	}
	return out
}

func (p *proc) pid() int { return p.cmd.Process.Pid }

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop asks the process to end (SIGTERM), and kills it after 5 s.
func (p *proc) stop() {
	if p == nil || p.exited() {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// failure describes a process that stopped or never became ready.
func (p *proc) failure(err error) error {
	msg := p.out.String()
	if p.exited() {
		return fmt.Errorf("%s exited (%v): %w\n%s", p.name, p.err, err, msg)
	}
	return fmt.Errorf("%s: %w\n%s", p.name, err, msg)
}

// waitReady polls url until it answers want, the process exits, or timeout.
func (p *proc) waitReady(url string, header http.Header, want int, timeout time.Duration) error {
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		if p.exited() {
			return p.failure(errors.New("exited before it was ready"))
		}
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		for k, v := range header {
			req.Header[k] = v
		}
		resp, err := client.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == want {
				return nil
			}
			err = fmt.Errorf("%s answered %d", url, resp.StatusCode)
		}
		last = err
		time.Sleep(20 * time.Millisecond)
	}
	return p.failure(fmt.Errorf("not ready after %s: %v", timeout, last))
}

// peakRSS is the peak resident set size (VmHWM) of the process plus, for
// servers with worker processes (nginx), its children's.
func (p *proc) peakRSS() int64 {
	total := vmHWM(p.pid())
	for _, c := range childPIDs(p.pid()) {
		total += vmHWM(c)
	}
	return total
}

// vmHWM reads VmHWM from /proc/<pid>/status, in bytes (0 when unknown).
func vmHWM(pid int) int64 {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) >= 1 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// cpuTime is the CPU time (user + system) the process has used, plus, for
// servers with worker processes (nginx), its children's.
func (p *proc) cpuTime() time.Duration {
	total := procCPU(p.pid())
	for _, c := range childPIDs(p.pid()) {
		total += procCPU(c)
	}
	return total
}

// procCPU reads utime + stime from /proc/<pid>/stat (0 when unknown). The
// kernel reports them in USER_HZ ticks, 100 per second on Linux.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// pid (comm) state ppid …: comm may hold spaces; cut after ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * (time.Second / 100)
}

// childPIDs lists the processes whose parent is pid.
func childPIDs(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces; cut after ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) >= 2 && f[1] == strconv.Itoa(pid) {
			out = append(out, n)
		}
	}
	return out
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// waitTCP waits until addr accepts connections.
func waitTCP(ctx context.Context, p *proc, addr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if p.exited() {
			return p.failure(errors.New("exited before it was ready"))
		}
		c, err := (&net.Dialer{Timeout: 200 * time.Millisecond}).DialContext(ctx, "tcp", addr)
		if err == nil {
			c.Close()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return p.failure(fmt.Errorf("%s not accepting connections after %s", addr, timeout))
}
