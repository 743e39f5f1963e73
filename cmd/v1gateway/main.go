// Command v1gateway serves the v1 compatibility gateway: legacy v1 clients
// point their base URL at it and every v1 call is performed against v2.
//
//	go run ./cmd/v1gateway -demo      # in front of an in-process v2 simulator
//	go run ./cmd/v1gateway -h         # every flag and its V1GW_* variable
//	v1gateway key-id < keyfile        # the key id of an API key (for key_limits, key_names)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/facts"
	"github.com/v1gateway/v1gateway/limiter"
	"github.com/v1gateway/v1gateway/proxy"
	"github.com/v1gateway/v1gateway/usage"
	"github.com/v1gateway/v1gateway/v2sim"
)

// version is set at build time: -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if len(os.Args) > 1 && os.Args[1] == "key-id" {
		os.Exit(keyIDCommand(os.Args[2:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr, nil))
}

// run is main without the process: it returns the exit code. ready, when
// not nil, receives the public and admin addresses once both listen.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, ready chan<- [2]string) int {
	proxy.Version = version
	if rest, ok := healthcheckArgs(args); ok {
		// -healthcheck: probe a running gateway's /healthz (the container
		// HEALTHCHECK) and exit 0 or 1; Docker reserves exit code 2.
		cfg, err := config.Load(rest, getenv)
		if err != nil {
			fmt.Fprintln(stdout, "unhealthy:", err)
			return 1
		}
		return healthcheck(ctx, cfg.AdminListen, stdout)
	}
	cfg, err := config.Load(args, getenv)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, "usage: v1gateway [flags]\n       v1gateway key-id [flags] < keyfile   (prints the key id of an API key; see key-id -h)")
		fmt.Fprintln(stdout, "  -healthcheck\n    \tprobe the admin port's /healthz of a running gateway and exit 0 (healthy) or 1")
		config.Usage(stdout)
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	log := newLogger(cfg, stdout)

	if cfg.Demo {
		sim := httptest.NewUnstartedServer(v2sim.New(v2sim.Options{Seed: true}))
		sim.Start()
		defer sim.Close()
		cfg.UpstreamURL = sim.URL
		// The simulator serves no GraphQL: /graphql is answered from v2
		// (P11), the public catalog queries with the demo key.
		cfg.GraphQLMode = "translate"
		if cfg.GraphQLPublicKey == "" {
			cfg.GraphQLPublicKey = "demo-key"
		}
		log.Info().Str("upstream", sim.URL).Msg("demo mode: in-process v2 simulator")
	}
	if cfg.KeyHashSecretGenerated {
		log.Warn().Msg("V1GW_KEY_HASH_SECRET is not set: key ids are random per process, so they differ between replicas and restarts")
	}
	log.Info().Str("version", version).Interface("config", cfg.Redacted()).Msg("starting v1gateway")

	var lim limiter.Limiter
	switch {
	case cfg.RateLimitPerMinute <= 0 && len(cfg.KeyLimits) == 0:
		log.Info().Msg("rate limiting disabled")
	case cfg.RedisURL != "":
		limiter.SetDriverLogger(func(f string, a ...any) { log.Debug().Msgf(f, a...) })
		rl, err := limiter.NewRedis(limiter.RedisOptions{
			URL:        cfg.RedisURL,
			Timeout:    cfg.LimiterTimeout,
			FailClosed: cfg.LimiterFail == "closed",
			Logger:     func(msg string, kv ...any) { log.Warn().Fields(kv).Msg(msg) },
		})
		if err != nil {
			fmt.Fprintln(stderr, "config: redis_url:", err)
			return 2
		}
		// Redis down at start is reported at once (/readyz, one log
		// line) rather than at the first request.
		cctx, ccancel := context.WithTimeout(ctx, 2*time.Second)
		_ = rl.Check(cctx, time.Second)
		ccancel()
		lim = rl
	default:
		lim = limiter.NewMemory(nil)
		log.Warn().Msg("no V1GW_REDIS_URL: rate limits are enforced per process, not across replicas")
	}
	defer func() {
		if lim != nil {
			_ = lim.Close()
		}
	}()

	tel, err := proxy.NewTelemetry(ctx, proxy.TelemetryOptions{ServiceVersion: version, Getenv: getenv, Logger: &log})
	if err != nil {
		fmt.Fprintln(stderr, "telemetry:", err)
		return 1
	}
	if tel.OTLPTraces || tel.OTLPMetrics {
		log.Info().Bool("traces", tel.OTLPTraces).Bool("metrics", tel.OTLPMetrics).Msg("exporting to OTLP (OTEL_EXPORTER_OTLP_*)")
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tel.Shutdown(sctx); err != nil {
			log.Warn().Err(err).Msg("telemetry shutdown")
		}
	}()

	usageStore, closeUsage, err := newUsageStore(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "config: redis_url:", err)
		return 2
	}
	defer closeUsage()
	usageRec := usage.New(usage.Options{
		Store:         usageStore,
		FlushInterval: cfg.UsageFlushInterval,
		HistoryDays:   cfg.UsageHistoryDays,
		OnFlushError: func(err error) {
			log.Warn().Err(err).Msg("usage report: write failed; counts kept for the next write")
		},
	})
	go usageRec.Run(context.Background())
	defer func() {
		// The last counts (a no-op after a clean shutdown, which writes
		// them before closing the admin port).
		fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = usageRec.Close(fctx)
	}()

	factStore, err := newFactStore(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "config: redis_url:", err)
		return 2
	}
	defer func() { _ = factStore.Close() }()
	log.Info().Str("store", factStore.Kind()).Msg("fact store (templateId of pods and endpoints, template rollouts)")
	gw, err := proxy.New(proxy.Options{Config: cfg, Limiter: lim, Logger: &log, Usage: usageRec, Telemetry: tel, Facts: factStore})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	admin := proxy.NewAdmin(gw)

	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		fmt.Fprintf(stderr, "listen %s: %v\n", cfg.Listen, err)
		return 1
	}
	aln, err := net.Listen("tcp", cfg.AdminListen)
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "admin listen %s: %v\n", cfg.AdminListen, err)
		return 1
	}
	// Requests net/http refuses before any handler runs (malformed request
	// line or header, headers over MaxHeaderBytes) are answered as v1
	// errors, {"message": ...}, by the listener wrapper.
	srv := &http.Server{Handler: gw, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second,
		MaxHeaderBytes: proxy.MaxHeaderBytes}
	asrv := &http.Server{Handler: admin, ReadHeaderTimeout: 5 * time.Second}
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(proxy.JSONErrorListener(ln, proxy.MaxHeaderBytes)) }()
	go func() { errc <- asrv.Serve(aln) }()

	addr := dialable(ln.Addr())
	log.Info().Str("listen", ln.Addr().String()).Str("admin", aln.Addr().String()).Msg("v1gateway ready")
	if cfg.Demo {
		fmt.Fprintf(stdout, "\nv1gateway demo is ready. A v1 call, translated to v2 and back:\n\n"+
			"  curl -s -H 'Authorization: Bearer demo-key' http://%s/v1/pods\n\n"+
			"The same pods as v2 lists them (passed through):\n\n"+
			"  curl -s -H 'Authorization: Bearer demo-key' http://%s/v2/pods\n\n"+
			"And as GraphQL clients ask for them (answered from v2):\n\n"+
			"  curl -s -H 'Authorization: Bearer demo-key' -H 'Content-Type: application/json' \\\n"+
			"    -d '{\"query\":\"{ myself { pods { id name desiredStatus } } }\"}' http://%s/graphql\n\n", addr, addr, addr)
	}
	if ready != nil {
		ready <- [2]string{addr, dialable(aln.Addr())}
	}

	select {
	case <-ctx.Done():
	case err := <-errc:
		log.Error().Err(err).Msg("server stopped")
		return 1
	}
	log.Info().Dur("drain_timeout", cfg.DrainTimeout).Msg("shutting down: draining in-flight requests")
	admin.SetDraining()
	sctx, cancel := context.WithTimeout(context.Background(), cfg.DrainTimeout)
	defer cancel()
	code := 0
	if err := srv.Shutdown(sctx); err != nil {
		n := gw.LogUnfinished()
		log.Error().Err(err).Int("cut_off", n).Msg("drain did not finish in time")
		code = 1
	}
	// The last usage counts, then the admin port (it answered /readyz 503
	// throughout the drain).
	fctx, fcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer fcancel()
	if err := usageRec.Close(fctx); err != nil {
		log.Warn().Err(err).Msg("usage report: final write failed")
	}
	_ = asrv.Shutdown(sctx)
	log.Info().Msg("stopped")
	return code
}

// newUsageStore returns the store of the /usage counts: Redis when
// V1GW_REDIS_URL is set (one report for every replica), memory otherwise.
func newUsageStore(cfg *config.Config) (usage.Store, func(), error) {
	if cfg.RedisURL == "" {
		return usage.NewMemoryStore(), func() {}, nil
	}
	client, err := usage.NewRedisClient(cfg.RedisURL)
	if err != nil {
		return nil, nil, err
	}
	store := usage.NewRedisStore(client, "")
	store.Retention = cfg.UsageRetention
	return store, func() { _ = client.Close() }, nil
}

// newFactStore returns the fact store (P8): Redis when V1GW_REDIS_URL is
// set (shared by every replica, surviving restarts), memory otherwise.
func newFactStore(cfg *config.Config) (facts.Store, error) {
	mo, ro := factStoreOptions(cfg)
	if cfg.RedisURL == "" {
		return facts.NewMemory(mo), nil
	}
	client, err := facts.NewRedisClient(cfg.RedisURL)
	if err != nil {
		return nil, err
	}
	return facts.NewRedis(client, ro), nil
}

// factStoreOptions are the fact store's settings from the configuration.
func factStoreOptions(cfg *config.Config) (facts.MemoryOptions, facts.RedisOptions) {
	return facts.MemoryOptions{TTL: cfg.FactsTTL}, facts.RedisOptions{TTL: cfg.FactsTTL}
}

// dialable turns a listener address into host:port a local curl can use.
func dialable(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if host == "" || host == "::" || host == "0.0.0.0" {
		host = "localhost"
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return host + ":" + port
}

func newLogger(cfg *config.Config, w io.Writer) zerolog.Logger {
	var out io.Writer = w
	if cfg.LogFormat == "console" {
		out = zerolog.ConsoleWriter{Out: w, TimeFormat: time.RFC3339}
	}
	lvl, err := zerolog.ParseLevel(cfg.LogLevel)
	if err != nil || cfg.LogLevel == "" {
		lvl = zerolog.InfoLevel
	}
	return zerolog.New(out).Level(lvl).With().Timestamp().Logger()
}

// healthcheckArgs reports whether args ask for -healthcheck, and returns the
// other arguments (so that -admin-listen and -config still apply).
func healthcheckArgs(args []string) ([]string, bool) {
	for i, a := range args {
		switch a {
		case "-healthcheck", "--healthcheck", "-healthcheck=true", "--healthcheck=true":
			return append(append([]string{}, args[:i]...), args[i+1:]...), true
		}
	}
	return nil, false
}
