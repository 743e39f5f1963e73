// Command v2sim serves the in-memory simulator of the Runpod REST API v2
// (package v2sim) on its own port, for demos, end-to-end tests and CI.
//
//	go run ./cmd/v2sim -listen :8081 -seed=true -rate-limit 0 -keys key1,key2
//
// Where the v2 document is ambiguous, -endpoint-template, -pod-template and
// -datacenters select the reading (see the v2sim package documentation), so
// that a client can be tested under each.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/v1gateway/v1gateway/v2sim"
)

func main() {
	err := run(context.Background(), os.Args[1:], os.Stderr, nil)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "v2sim:", err)
	}
	os.Exit(exitCode(err))
}

// exitCode is 0 after a clean stop or -h (the usage is already printed),
// 2 otherwise.
func exitCode(err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// run parses flags, serves until ctx is cancelled or SIGINT/SIGTERM arrives,
// then drains in-flight requests. ready, when not nil, receives the base URL
// once the listener is up.
func run(ctx context.Context, args []string, logOut io.Writer, ready func(baseURL string)) error {
	fs := flag.NewFlagSet("v2sim", flag.ContinueOnError)
	fs.SetOutput(logOut)
	listen := fs.String("listen", ":8081", "address to listen on")
	seed := fs.Bool("seed", true, "populate demo data (pods, template, endpoint, volume, registry)")
	rateLimit := fs.Int("rate-limit", 0, "requests per key per minute (0 disables rate limiting)")
	keys := fs.String("keys", "", "comma-separated accepted API keys (empty: any bearer token)")
	epTpl := fs.String("endpoint-template", string(v2sim.EndpointTemplateCopy),
		"reading of an endpoint's bound template: copy (each endpoint gets its own; the templateId template is only read) or caller (your own templateId template is bound: not deletable while the endpoint exists, deleted with it)")
	podTpl := fs.String("pod-template", string(v2sim.PodTemplateNull),
		"reading of a pod's template: null (pods created from a template show template null and never block its delete) or visible (they show it, and it cannot be deleted while they exist)")
	dcs := fs.String("datacenters", string(v2sim.DataCentersPreferred),
		"reading of dataCenterIds: preferred (listed data centers first, then others) or strict (only the listed ones)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rateLimit < 0 {
		return errors.New("-rate-limit must be >= 0")
	}
	opts := v2sim.Options{
		EndpointTemplate: v2sim.EndpointTemplate(*epTpl), PodTemplate: v2sim.PodTemplate(*podTpl), DataCenters: v2sim.DataCenters(*dcs),
		RateLimitPerMinute: *rateLimit, Seed: *seed,
	}
	switch {
	case *epTpl == "" || !opts.EndpointTemplate.Valid():
		return fmt.Errorf("-endpoint-template %q: must be copy or caller", *epTpl)
	case *podTpl == "" || !opts.PodTemplate.Valid():
		return fmt.Errorf("-pod-template %q: must be null or visible", *podTpl)
	case *dcs == "" || !opts.DataCenters.Valid():
		return fmt.Errorf("-datacenters %q: must be preferred or strict", *dcs)
	}
	for _, k := range strings.Split(*keys, ",") {
		if k = strings.TrimSpace(k); k != "" {
			opts.Keys = append(opts.Keys, k)
		}
	}
	logger := log.New(logOut, "", log.LstdFlags)

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           v2sim.New(opts),
		ReadHeaderTimeout: 10 * time.Second,
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	logger.Printf("v2sim listening on %s (seed=%t, rate-limit=%d/min, keys=%d, endpoint-template=%s, pod-template=%s, datacenters=%s)",
		baseURL(ln.Addr()), *seed, *rateLimit, len(opts.Keys), *epTpl, *podTpl, *dcs)
	if ready != nil {
		ready(baseURL(ln.Addr()))
	}

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Printf("v2sim stopped")
	return nil
}

func baseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
