// Command v1gwbench is the side-by-side load benchmark behind make bench:
// direct, a bare httputil.ReverseProxy, nginx and the gateway (pass-through
// and translated v1 routes, in-memory and Redis limiter), same upstream,
// same load. See package bench.
//
//	go run ./bench/cmd/v1gwbench -out bench/results
//	v1gwbench -only 'list/' -rounds 1          # a quick look at one workload
//
// With -target it only sends load to a running server and prints what it
// measured (for profiling a gateway started by hand):
//
//	v1gwbench -target http://127.0.0.1:8080/v1/pods -max-duration 10s
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/v1gateway/v1gateway/bench"
	"github.com/v1gateway/v1gateway/bench/canned"
)

func main() {
	bench.RunRole() // re-executed as the upstream or the bare proxy
	o := bench.DefaultOptions()
	flag.StringVar(&o.GatewayBin, "gateway", "", "cmd/v1gateway binary to measure (default: built with go build)")
	flag.StringVar(&o.Out, "out", "", "directory for results.md, results.json and latency.svg (default: print only)")
	flag.IntVar(&o.Rounds, "rounds", o.Rounds, "repetitions of every measurement; medians are reported")
	flag.DurationVar(&o.Warmup, "warmup", o.Warmup, "load before each measured window")
	flag.DurationVar(&o.MaxDuration, "max-duration", o.MaxDuration, "measured window at maximum throughput")
	flag.DurationVar(&o.RateDuration, "rate-duration", o.RateDuration, "measured window at half load")
	flag.IntVar(&o.Concurrency, "concurrency", o.Concurrency, "connections at maximum throughput")
	flag.IntVar(&o.Pods, "pods", o.Pods, "pods in the canned list")
	flag.StringVar(&o.List, "list", o.List, `kind of canned list: "mixed" (five kinds, quoted args) or "plain" (four kinds, plain args; the list before 2026-11-25)`)
	flag.StringVar(&o.Only, "only", "", "run only the cases whose id (e.g. list/gateway-v1) matches this regexp")
	flag.StringVar(&o.Nginx, "nginx", "", `nginx binary (default: from PATH; "off" to skip)`)
	flag.StringVar(&o.RedisURL, "redis", "", `Redis for the Redis-limiter cases (default: a throwaway redis-server; "off" to skip)`)
	flag.BoolVar(&o.GoBench, "gobench", o.GoBench, "run the proxy Go benchmarks for allocations per request")
	flag.StringVar(&o.GoBenchTime, "gobench-time", o.GoBenchTime, "-benchtime of the Go benchmarks")
	target := flag.String("target", "", "only load this URL (a running server) and print the measurement")
	method := flag.String("method", "GET", "with -target: the method")
	body := flag.String("body", "", "with -target: the request body")
	rate := flag.Int("rate", 0, "with -target: requests per second (0: maximum throughput)")
	flag.Parse()
	o.Log = os.Stderr
	if *target != "" {
		os.Exit(attackOnly(*target, *method, *body, *rate, o))
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := bench.Run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "v1gwbench:", err)
		os.Exit(1)
	}
	fmt.Println(rep.Markdown())
	if o.Out != "" {
		fmt.Fprintf(os.Stderr, "results written to %s\n", o.Out)
	}
}

// attackOnly loads one URL with the benchmark's client and token.
func attackOnly(url, method, body string, rate int, o bench.Options) int {
	h := http.Header{"Authorization": {"Bearer " + canned.Token}, "Accept": {"application/json"}}
	want := http.StatusOK
	if body != "" {
		h.Set("Content-Type", "application/json")
		want = http.StatusCreated
	}
	s := bench.Attack(bench.Target{Method: method, URL: url, Body: []byte(body), Header: h}, want,
		bench.Load{Rate: rate, Concurrency: o.Concurrency, Warmup: o.Warmup, Duration: o.MaxDuration})
	fmt.Printf("%.0f req/s  p50 %v  p99 %v  p99.9 %v  max %v  errors %d %s\n", s.RPS, s.P50, s.P99, s.P999, s.Max, s.Errors, s.FirstErr)
	if s.Errors > 0 {
		return 1
	}
	return 0
}
