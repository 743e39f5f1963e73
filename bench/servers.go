package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server kinds, one per way of reaching the upstream.
const (
	srvDirect       = "direct"        // client → upstream
	srvBare         = "bare"          // httputil.ReverseProxy with a tuned transport
	srvNginx        = "nginx"         // nginx as a plain reverse proxy
	srvGateway      = "gateway"       // cmd/v1gateway, in-memory limiter
	srvGatewayRedis = "gateway-redis" // cmd/v1gateway, Redis limiter
)

// env is what every case needs: the upstream, and optionally Redis.
type env struct {
	o          *Options
	self       string // this program, re-executed for roles
	gatewayBin string
	gatewayEnv []string // extra environment of the gateway processes (scaling.go)
	nginxBin   string   // "" when absent
	dir        string   // scratch directory

	upstream    *proc
	upstreamURL string

	redisProc  *proc
	redisURL   string // "" when there is no Redis
	redisOwned bool   // a throwaway server: command counts are ours alone
	redis      *redis.Client
}

// server is one running proxy (or, for direct, nothing).
type server struct {
	kind  string
	p     *proc  // nil for direct
	base  string // URL the client sends to
	admin string // the gateway's admin URL
}

func (e *env) startUpstream() error {
	p, u, err := e.newUpstream(e.o.Pods)
	e.upstream, e.upstreamURL = p, u
	return err
}

// newUpstream starts a canned upstream whose list holds pods pods.
func (e *env) newUpstream(pods int) (*proc, string, error) {
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	p, err := startProc("upstream", e.self, []string{"-listen", addr, "-pods", strconv.Itoa(pods), "-list", e.o.List}, []string{RoleEnv + "=" + roleUpstream}, nil)
	if err != nil {
		return nil, "", err
	}
	u := "http://" + addr
	return p, u, p.waitReady(u+"/v2/pods", nil, http.StatusOK, 10*time.Second)
}

// startRedis starts a throwaway redis-server (so that its command counter
// counts the gateway's commands only), or uses o.RedisURL.
func (e *env) startRedis(ctx context.Context) error {
	switch e.o.RedisURL {
	case "off":
		return nil
	case "":
	default:
		e.redisURL = e.o.RedisURL
		opt, err := redis.ParseURL(e.redisURL)
		if err != nil {
			return fmt.Errorf("redis URL: %w", err)
		}
		e.redis = redis.NewClient(opt)
		return e.redis.Ping(ctx).Err()
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil // reported as a note: no Redis cases
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	dir := filepath.Join(e.dir, "redis")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	p, err := startProc("redis-server", bin, []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "no", "--dir", dir, "--protected-mode", "no"}, nil, io.Discard)
	if err != nil {
		return err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	if err := waitTCP(ctx, p, addr, 10*time.Second); err != nil {
		p.stop()
		return err
	}
	e.redisProc, e.redisURL, e.redisOwned = p, "redis://"+addr, true
	e.redis = redis.NewClient(&redis.Options{Addr: addr})
	return e.redis.Ping(ctx).Err()
}

// redisCommands is the Redis server's count of commands processed.
func (e *env) redisCommands(ctx context.Context) (int64, error) {
	n, found, err := e.redisInfoInt(ctx, "stats", "total_commands_processed:")
	if err == nil && !found {
		err = fmt.Errorf("no total_commands_processed in INFO stats")
	}
	return n, err
}

// redisScripts is the Redis server's count of EVALSHA calls (INFO
// commandstats; no line before the first): the rate-limit scripts it ran,
// whatever else the gateway's connections sent (a new pooled connection's
// HELLO, SELECT and CLIENT SETNAME; the usage report's writes, which are
// EVALs). A limiter EVAL after NOSCRIPT is not counted: the benchmark's
// Redis never loses its scripts.
func (e *env) redisScripts(ctx context.Context) (int64, error) {
	n, _, err := e.redisInfoInt(ctx, "commandstats", "cmdstat_evalsha:calls=")
	return n, err
}

// redisInfoInt reads the integer after prefix (up to a comma, if any) in
// one section of the Redis server's INFO, and whether the line was there.
func (e *env) redisInfoInt(ctx context.Context, section, prefix string) (n int64, found bool, err error) {
	s, err := e.redis.Info(ctx, section).Result()
	if err != nil {
		return 0, false, err
	}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			v, _, _ := strings.Cut(rest, ",")
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return 0, true, fmt.Errorf("INFO %s: %q: %v", section, line, err)
			}
			return n, true, nil
		}
	}
	return 0, false, sc.Err()
}

func (e *env) close() {
	if e.redis != nil {
		_ = e.redis.Close()
	}
	e.redisProc.stop()
	e.upstream.stop()
}

// start starts a fresh server of kind; a gateway gets extra arguments
// after the benchmark's own (a flag given twice takes the last value).
func (e *env) start(kind string, extra ...string) (*server, error) {
	if kind == srvDirect {
		return &server{kind: kind, base: e.upstreamURL}, nil
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	s := &server{kind: kind, base: "http://" + addr}
	auth := http.Header{"Authorization": {"Bearer bench-ready"}}
	switch kind {
	case srvBare:
		s.p, err = startProc("bare proxy", e.self, []string{"-listen", addr, "-upstream", e.upstreamURL}, []string{RoleEnv + "=" + roleBareProxy}, nil)
		if err == nil {
			err = s.p.waitReady(s.base+"/v2/pods", auth, http.StatusOK, 10*time.Second)
		}
	case srvNginx:
		var conf string
		conf, err = e.nginxConf(port)
		if err == nil {
			s.p, err = startProc("nginx", e.nginxBin, []string{"-p", e.dir, "-c", conf, "-e", filepath.Join(e.dir, "nginx-error.log")}, nil, nil)
		}
		if err == nil {
			err = s.p.waitReady(s.base+"/v2/pods", auth, http.StatusOK, 10*time.Second)
		}
	case srvGateway, srvGatewayRedis:
		var aport int
		if aport, err = freePort(); err != nil {
			return nil, err
		}
		s.admin = "http://127.0.0.1:" + strconv.Itoa(aport)
		args := []string{
			"-listen", addr,
			"-admin-listen", "127.0.0.1:" + strconv.Itoa(aport),
			"-upstream", e.upstreamURL,
			"-rate-limit", "1000000000", // never reached: the round trip is what is measured
			"-log-level", "info", // one access-log line per request, as in production
			"-log-format", "json",
		}
		if kind == srvGatewayRedis {
			args = append(args, "-redis", e.redisURL)
		}
		args = append(args, extra...)
		s.p, err = startProc(kind, e.gatewayBin, args, append([]string{"V1GW_KEY_HASH_SECRET=v1gwbench-secret"}, e.gatewayEnv...), nil)
		if err == nil {
			err = s.p.waitReady(s.admin+"/readyz", nil, http.StatusOK, 15*time.Second)
		}
	default:
		return nil, fmt.Errorf("unknown server kind %q", kind)
	}
	if err != nil {
		if s.p != nil {
			s.p.stop()
		}
		return nil, err
	}
	return s, nil
}

func (s *server) stop() {
	if s != nil && s.p != nil {
		s.p.stop()
	}
}

// limiterCalls reads the gateway's count of limiter commands sent to Redis
// (v1gw_limiter_redis_calls_total on /metrics), of the round trips they
// took (v1gw_limiter_redis_round_trips_total) and of rate-limit decisions
// (v1gw_limiter_decisions_total).
func (s *server) limiterCalls() (calls, trips, decisions float64, err error) {
	if calls, err = s.metricSum("v1gw_limiter_redis_calls_total"); err != nil {
		return 0, 0, 0, err
	}
	if trips, err = s.metricSum("v1gw_limiter_redis_round_trips_total"); err != nil {
		return 0, 0, 0, err
	}
	decisions, err = s.metricSum("v1gw_limiter_decisions_total")
	return calls, trips, decisions, err
}

// errNoSample: a metric has no sample yet (a counter before its first
// count).
var errNoSample = errors.New("no sample")

// metricSum sums the samples of one metric on the gateway's /metrics.
func (s *server) metricSum(name string) (float64, error) {
	resp, err := http.Get(s.admin + "/metrics")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	total, found := 0.0, false
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, name)
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '{') {
			continue
		}
		f := strings.Fields(rest[strings.LastIndexByte(rest, '}')+1:])
		if len(f) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err == nil {
			total += v
			found = true
		}
	}
	if !found {
		return 0, fmt.Errorf("%w: %s on %s/metrics", errNoSample, name, s.admin)
	}
	return total, sc.Err()
}

// nginxConf writes the configuration of an nginx reverse proxy on port:
// keep-alive to the upstream, answers buffered in memory (a 100 KB list
// fits), no access log (a plain proxy, like the bare one).
func (e *env) nginxConf(port int) (string, error) {
	up := strings.TrimPrefix(e.upstreamURL, "http://")
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;\n" // workers must reach the scratch directory
	}
	conf := user + `worker_processes auto;
daemon off;
pid ` + filepath.Join(e.dir, "nginx-"+strconv.Itoa(port)+".pid") + `;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path ` + filepath.Join(e.dir, "nginx-body") + `;
    proxy_temp_path ` + filepath.Join(e.dir, "nginx-proxy") + `;
    fastcgi_temp_path ` + filepath.Join(e.dir, "nginx-fastcgi") + `;
    uwsgi_temp_path ` + filepath.Join(e.dir, "nginx-uwsgi") + `;
    scgi_temp_path ` + filepath.Join(e.dir, "nginx-scgi") + `;
    upstream v2 {
        server ` + up + `;
        keepalive 256;
    }
    server {
        listen 127.0.0.1:` + strconv.Itoa(port) + `;
        location / {
            proxy_pass http://v2;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $proxy_host;
            proxy_buffer_size 16k;
            proxy_buffers 16 16k;
        }
    }
}
`
	path := filepath.Join(e.dir, "nginx-"+strconv.Itoa(port)+".conf")
	return path, os.WriteFile(path, []byte(conf), 0o644)
}

// version runs bin with args and returns the first line it prints.
func version(bin string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	if err != nil && len(out) == 0 {
		return ""
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}
