package bench

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/v1gateway/v1gateway/bench/canned"
)

// The benchmark runs every server in a process of its own, so that each
// proxy's CPU and memory are its own and its peak RSS can be read. The
// static upstream and the bare proxy are this program started again with
// RoleEnv set (see RunRole); the gateway is the real cmd/v1gateway binary.

// RoleEnv names the role a re-executed benchmark process plays.
const RoleEnv = "V1GWBENCH_ROLE"

// Roles.
const (
	roleUpstream  = "upstream"
	roleBareProxy = "bare-proxy"
)

// RunRole runs the role named by RoleEnv, if any, and exits; it returns
// at once when the variable is unset. Call it first in main and TestMain.
func RunRole() {
	role := os.Getenv(RoleEnv)
	if role == "" {
		return
	}
	err := runRole(role, os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "v1gwbench %s: %v\n", role, err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runRole(role string, args []string) error {
	fs := flag.NewFlagSet(role, flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on")
	upstream := fs.String("upstream", "", "upstream base URL (bare proxy)")
	pods := fs.Int("pods", canned.DefaultPods, "pods in the canned list (upstream)")
	list := fs.String("list", canned.MixedList, "kind of canned list (upstream): mixed or plain")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var h http.Handler
	switch role {
	case roleUpstream:
		b, err := canned.NewList(*pods, *list)
		if err != nil {
			return err
		}
		h = b.Handler()
	case roleBareProxy:
		u, err := url.Parse(*upstream)
		if err != nil || u.Host == "" {
			return fmt.Errorf("bad -upstream %q", *upstream)
		}
		h = BareProxy(u)
	default:
		return fmt.Errorf("unknown role %q", role)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: nil}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-sig:
		_ = srv.Close()
		return nil
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// BareProxy is the baseline: what a user writes in an afternoon — a plain
// httputil.ReverseProxy to the upstream, with a transport whose idle pool
// is sized for the load (the default keeps only 2 idle connections per
// host, which would make it open a connection per request under load).
func BareProxy(upstream *url.URL) http.Handler {
	tr := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        512,
		MaxIdleConnsPerHost: 256,
		IdleConnTimeout:     90 * time.Second,
	}
	return &httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(upstream) },
		Transport: tr,
		ErrorLog:  nil,
	}
}
