// Package bench is the side-by-side load benchmark of the gateway (make
// bench): the same workloads, against the same static upstream, through
//
//   - direct: the client straight to the upstream (the floor);
//   - bare: a minimal httputil.ReverseProxy with a tuned transport;
//   - nginx: a plain nginx reverse proxy (when an nginx binary is present);
//   - gateway: the real cmd/v1gateway binary — /v2 pass-through and the
//     translated v1 routes — with the in-memory limiter, and again with the
//     Redis limiter against a real redis-server.
//
// Every server runs in its own process, started fresh for each measurement,
// so that peak RSS is per case. Each case is measured at maximum throughput
// with fixed concurrency, then at a fixed rate: half of the translated
// gateway's maximum for that workload, the same rate for every case of the
// workload. Each measurement is repeated (rounds, interleaved across cases)
// and medians are reported. Allocations per request come from the Go
// benchmarks of the handlers in proxy (go test -bench). Results are written
// as Markdown, JSON and an SVG chart of latency percentiles.
package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/v1gateway/v1gateway/bench/canned"
)

// Options configure Run. Zero values take the defaults of DefaultOptions.
type Options struct {
	Root         string        // module root; "": found upwards from the working directory
	GatewayBin   string        // cmd/v1gateway binary; "": built into a scratch directory
	Out          string        // results directory; "": nothing written
	Rounds       int           // repetitions of every measurement (medians are reported)
	Warmup       time.Duration // load before each measured window, not counted
	MaxDuration  time.Duration // measured window at maximum throughput
	RateDuration time.Duration // measured window at half load
	Concurrency  int           // workers at maximum throughput
	Pods         int           // pods in the list
	List         string        // kind of list: canned.MixedList (default) or canned.PlainList
	Only         string        // regexp: run only the cases whose id matches
	Nginx        string        // nginx binary; "": looked up on PATH; "off": skipped
	RedisURL     string        // "": a throwaway redis-server; "off": no Redis cases
	GoBench      bool          // run the Go benchmarks of proxy for allocations per request
	GoBenchTime  string        // -benchtime of those (default 2000x)
	Log          io.Writer     `json:"-"` // progress; nil: discarded
}

// DefaultOptions are make bench's settings: about ten minutes on a
// 2-core machine. Five rounds, because on a shared machine single rounds
// of one run differed by up to 30% and three could not settle a target
// within 5% of its bar.
func DefaultOptions() Options {
	return Options{
		Rounds:       5,
		Warmup:       400 * time.Millisecond,
		MaxDuration:  1500 * time.Millisecond,
		RateDuration: 2 * time.Second,
		Concurrency:  32,
		Pods:         canned.DefaultPods,
		List:         canned.MixedList,
		GoBench:      true,
		GoBenchTime:  "2000x",
	}
}

func (o *Options) defaults() {
	d := DefaultOptions()
	if o.Rounds <= 0 {
		o.Rounds = d.Rounds
	}
	if o.Warmup <= 0 {
		o.Warmup = d.Warmup
	}
	if o.MaxDuration <= 0 {
		o.MaxDuration = d.MaxDuration
	}
	if o.RateDuration <= 0 {
		o.RateDuration = d.RateDuration
	}
	if o.Concurrency <= 0 {
		o.Concurrency = d.Concurrency
	}
	if o.Pods <= 0 {
		o.Pods = d.Pods
	}
	if o.List == "" {
		o.List = d.List
	}
	if o.GoBenchTime == "" {
		o.GoBenchTime = d.GoBenchTime
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// Workloads.
const (
	wlList    = "list"
	wlGraphQL = "graphql" // the list's pods through the GraphQL door
	wlGet     = "get"
	wlCreate  = "create"
)

// workloads is the order of the report's tables.
var workloads = []string{wlList, wlGraphQL, wlGet, wlCreate}

// bareOf is the case a workload's throughput is compared with (× bare):
// its own bare proxy, or for the GraphQL door the list's, which serves
// the same pods.
func bareOf(w string) string {
	if w == wlGraphQL {
		return wlList + "/bare"
	}
	return w + "/bare"
}

// listKindWords describe each kind of canned list in the report.
var listKindWords = map[string]string{
	canned.MixedList: "five kinds of pods — running GPU, stopped on a network volume, multi-GPU from a template with registry auth, CPU, starting — with quotes, backslashes and JSON escapes in args and some names",
	canned.PlainList: "four kinds of pods with plain args, the list of runs before 2026-11-25",
}

var workloadTitles = map[string]string{
	wlList:    "List pods (%d pods, ~%d KB)",
	wlGraphQL: "GraphQL myself { pods } (runpod-python's get_pods, the same %d pods)",
	wlGet:     "Get one pod",
	wlCreate:  "Create a pod",
}

// caseDef is one measured combination of workload and server.
type caseDef struct {
	ID       string // workload/server[-v1|-graphql]
	Workload string
	Server   string
	V1       bool   // the translated v1 route (else the v2 request as it is)
	Label    string // for tables and charts
	GoBench  string // name of the proxy Go benchmark for allocations, "" if none
	// GraphQL: the workload's GraphQL document (runpod-python's) through
	// the GraphQL door, the gateway started with -graphql-mode translate.
	GraphQL bool
}

// args are the extra arguments of the case's gateway.
func (c caseDef) args() []string {
	if c.GraphQL {
		return []string{"-graphql-mode", "translate"}
	}
	return nil
}

func allCases() []caseDef {
	return []caseDef{
		{"list/direct", wlList, srvDirect, false, "direct GET /v2/pods", "", false},
		{"list/bare", wlList, srvBare, false, "bare ReverseProxy GET /v2/pods", "BareReverseProxy/list", false},
		{"list/nginx", wlList, srvNginx, false, "nginx GET /v2/pods", "", false},
		{"list/gateway-v2", wlList, srvGateway, false, "gateway GET /v2/pods (pass-through)", "GatewayPassThrough/memory", false},
		{"list/gateway-v2-redis", wlList, srvGatewayRedis, false, "gateway+Redis GET /v2/pods (pass-through)", "GatewayPassThrough/redis", false},
		{"list/gateway-v1", wlList, srvGateway, true, "gateway GET /v1/pods", "GatewayListPods100/memory", false},
		{"list/gateway-v1-redis", wlList, srvGatewayRedis, true, "gateway+Redis GET /v1/pods", "GatewayListPods100/redis", false},
		{"graphql/gateway", wlGraphQL, srvGateway, false, "gateway POST /graphql myself { pods }", "GatewayGraphQLGetPods/memory", true},
		{"get/direct", wlGet, srvDirect, false, "direct GET /v2/pods/{id}", "", false},
		{"get/bare", wlGet, srvBare, false, "bare ReverseProxy GET /v2/pods/{id}", "BareReverseProxy/get", false},
		{"get/gateway-v1", wlGet, srvGateway, true, "gateway GET /v1/pods/{id}", "GatewayGetPod/memory", false},
		{"get/gateway-v1-redis", wlGet, srvGatewayRedis, true, "gateway+Redis GET /v1/pods/{id}", "GatewayGetPod/redis", false},
		{"create/direct", wlCreate, srvDirect, false, "direct POST /v2/pods", "", false},
		{"create/bare", wlCreate, srvBare, false, "bare ReverseProxy POST /v2/pods", "BareReverseProxy/create", false},
		{"create/gateway-v1", wlCreate, srvGateway, true, "gateway POST /v1/pods", "GatewayCreatePod/memory", false},
		{"create/gateway-v1-redis", wlCreate, srvGatewayRedis, true, "gateway+Redis POST /v1/pods", "GatewayCreatePod/redis", false},
	}
}

// request is the request of a case against base, with the status it must
// answer and a check of its body.
func request(c caseDef, base string, b *canned.Bodies, pods int) (Target, int, func([]byte) error) {
	h := http.Header{"Authorization": {"Bearer " + canned.Token}, "Accept": {"application/json"}}
	jh := http.Header{"Authorization": {"Bearer " + canned.Token}, "Accept": {"application/json"}, "Content-Type": {"application/json"}}
	same := func(want []byte) func([]byte) error {
		return func(got []byte) error {
			if string(got) != string(want) {
				return fmt.Errorf("answer differs from the upstream's (%d bytes, want %d)", len(got), len(want))
			}
			return nil
		}
	}
	switch {
	case c.GraphQL:
		return Target{Method: "POST", URL: base + "/graphql", Body: []byte(canned.GraphQLGetPodsBody), Header: jh}, 200, checkGraphQLPods(pods)
	case c.Workload == wlList && !c.V1:
		return Target{Method: "GET", URL: base + "/v2/pods", Header: h}, 200, same(b.List)
	case c.Workload == wlList:
		return Target{Method: "GET", URL: base + "/v1/pods", Header: h}, 200, checkV1List(pods)
	case c.Workload == wlGet && !c.V1:
		return Target{Method: "GET", URL: base + "/v2/pods/" + canned.PodID, Header: h}, 200, same(b.Pod)
	case c.Workload == wlGet:
		return Target{Method: "GET", URL: base + "/v1/pods/" + canned.PodID, Header: h}, 200, checkV1Pod(canned.PodID)
	case !c.V1:
		return Target{Method: "POST", URL: base + "/v2/pods", Body: []byte(canned.V2CreateBody), Header: jh}, 201, same(b.Created)
	default:
		return Target{Method: "POST", URL: base + "/v1/pods", Body: []byte(canned.CreateBody), Header: jh}, 201, checkV1Pod("podnewbench001")
	}
}

// CaseResult is everything measured for one case.
type CaseResult struct {
	ID       string `json:"id"`
	Workload string `json:"workload"`
	Server   string `json:"server"`
	Label    string `json:"label"`

	Max  []Sample `json:"max"`  // per round, maximum throughput
	Half []Sample `json:"half"` // per round, at Rate
	Rate int      `json:"rate"` // requests/s of the half-load runs

	PeakRSS      int64     `json:"peakRssBytes"`               // largest VmHWM of the proxy process over all runs
	CPUPerReq    []float64 `json:"cpuUsPerReq,omitempty"`      // per max-throughput run: CPU µs of the proxy process per request
	RedisCPU     []float64 `json:"redisCpuUsPerReq,omitempty"` // per max-throughput run: CPU µs of the redis-server per request (throwaway server only)
	RedisCmds    []float64 `json:"redisCmdsPerReq,omitempty"`  // per max-throughput run: Redis server commands / requests
	LimiterCalls []float64 `json:"limiterCallsPerReq,omitempty"`
	RoundTrips   []float64 `json:"limiterRoundTripsPerReq,omitempty"`
	// Per max-throughput run: scripts Redis ran (EVALSHA) per
	// rate-limit decision, counted from before the load to after it, both
	// idle, so that no decision is in flight at either count.
	Scripts []float64 `json:"limiterScriptsPerDecision,omitempty"`

	GoBench *GoBench `json:"goBench,omitempty"`

	// Medians over the rounds.
	MaxRPS                   float64        `json:"medianMaxRps"`
	HalfP50, HalfP99, HalfP9 time.Duration  `json:"-"`
	Errors                   int            `json:"errors"`
	ErrorKinds               map[string]int `json:"errorKinds,omitempty"` // Errors by kind, over every run

	def caseDef
}

// Report is a whole run.
type Report struct {
	Started  time.Time      `json:"started"`
	Elapsed  time.Duration  `json:"elapsed"`
	Machine  Machine        `json:"machine"`
	Options  Options        `json:"options"`
	ListSize int            `json:"listBytes"`
	Cases    []*CaseResult  `json:"cases"`
	Limit    *LimitResult   `json:"limit,omitempty"`   // the rate-limit case (limitexact.go)
	Scaling  *ScalingResult `json:"scaling,omitempty"` // the account-size case (scaling.go)
	Notes    []string       `json:"notes"`
}

// Run runs the benchmark.
func Run(ctx context.Context, o Options) (*Report, error) {
	o.defaults()
	started := time.Now()
	if o.Root == "" {
		root, err := moduleRoot()
		if err != nil {
			return nil, err
		}
		o.Root = root
	}
	dir, err := os.MkdirTemp("", "v1gwbench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	_ = os.Chmod(dir, 0o755) // nginx workers read their configuration here
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	rep := &Report{Started: started.UTC(), Options: o}
	bodies, err := canned.NewList(o.Pods, o.List)
	if err != nil {
		return nil, err
	}
	rep.ListSize = len(bodies.List)
	e := &env{o: &o, self: self, dir: dir}
	defer e.close()

	if e.gatewayBin = o.GatewayBin; e.gatewayBin == "" {
		fmt.Fprintln(o.Log, "building cmd/v1gateway ...")
		e.gatewayBin = filepath.Join(dir, "v1gateway")
		if err := buildGateway(ctx, o.Root, e.gatewayBin); err != nil {
			return nil, err
		}
	}
	switch o.Nginx {
	case "off":
		rep.Notes = append(rep.Notes, "nginx: skipped (-nginx off).")
	case "":
		if p, err := exec.LookPath("nginx"); err == nil {
			e.nginxBin = p
		} else if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
			e.nginxBin = "/usr/sbin/nginx"
		} else {
			rep.Notes = append(rep.Notes, "nginx: skipped, no nginx binary (Debian package nginx-light or nginx; make bench installs it when run as root with apt-get).")
		}
	default:
		e.nginxBin = o.Nginx
	}
	if err := e.startUpstream(); err != nil {
		return nil, err
	}
	if err := e.startRedis(ctx); err != nil {
		return nil, fmt.Errorf("redis: %w", err)
	}
	switch {
	case e.redisURL == "" && o.RedisURL == "off":
		rep.Notes = append(rep.Notes, "Redis limiter: skipped (-redis off).")
	case e.redisURL == "":
		rep.Notes = append(rep.Notes, "Redis limiter: skipped, no redis-server on PATH (Debian package redis-server) and no -redis URL.")
	case !e.redisOwned:
		rep.Notes = append(rep.Notes, "Redis: a shared server ("+o.RedisURL+"): its command counts include other clients'.")
	}
	rep.Machine = describeMachine(o.Root, e.nginxBin)

	var only *regexp.Regexp
	if o.Only != "" {
		if only, err = regexp.Compile(o.Only); err != nil {
			return nil, fmt.Errorf("-only: %w", err)
		}
	}
	for _, c := range allCases() {
		switch {
		case only != nil && !only.MatchString(c.ID):
			continue
		case c.Server == srvNginx && e.nginxBin == "":
			continue
		case c.Server == srvGatewayRedis && e.redisURL == "":
			continue
		}
		rep.Cases = append(rep.Cases, &CaseResult{ID: c.ID, Workload: c.Workload, Server: c.Server, Label: c.Label, def: c})
	}
	runLimit := e.redisURL != "" && (only == nil || only.MatchString(LimitCaseID))
	runScaling := only == nil || only.MatchString(ScalingCaseID)
	if len(rep.Cases) == 0 && !runLimit && !runScaling {
		return nil, errors.New("no case to run")
	}
	runs := len(rep.Cases) * o.Rounds
	est := time.Duration(runs) * (2*o.Warmup + o.MaxDuration + o.RateDuration + 300*time.Millisecond)
	fmt.Fprintf(o.Log, "%d cases × %d rounds, at concurrency %d: about %s of load\n", len(rep.Cases), o.Rounds, o.Concurrency, est.Round(time.Second))

	// Each case's answer is checked once before it is measured.
	for _, cr := range rep.Cases {
		if err := e.check(cr, bodies); err != nil {
			return nil, fmt.Errorf("%s: %w", cr.ID, err)
		}
	}

	// Phase 1: maximum throughput.
	for round := 1; round <= o.Rounds; round++ {
		for _, cr := range rep.Cases {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := e.measure(ctx, cr, bodies, 0); err != nil {
				return nil, fmt.Errorf("%s: %w", cr.ID, err)
			}
			s := cr.Max[len(cr.Max)-1]
			fmt.Fprintf(o.Log, "[max %d/%d] %-24s %8.0f req/s  p50 %-8s p99 %-8s errors %d%s\n", round, o.Rounds, cr.ID, s.RPS, fmtDur(s.P50), fmtDur(s.P99), s.Errors, errorsSuffix(s.ErrorKinds))
		}
	}
	for _, cr := range rep.Cases {
		cr.MaxRPS = median(mapSlice(cr.Max, func(s Sample) float64 { return s.RPS }))
	}
	if runLimit {
		fmt.Fprintln(o.Log, "rate limit under saturation: two gateways, one key ...")
		l, err := e.limitExact(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", LimitCaseID, err)
		}
		rep.Limit = l
		fmt.Fprintf(o.Log, "[limit] admitted %d of %d (%d requests: %d over the limit, %d shed, %d other; %.0f fallbacks, %.0f Redis errors)\n",
			l.Admitted, l.Limit, l.Requests, l.Limited, l.Shed, l.Other, l.Fallbacks, l.RedisErrors)
	}
	if runScaling {
		fmt.Fprintln(o.Log, "scaling with the account: 1 to 1000 pods ...")
		sc, err := e.scaling(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ScalingCaseID, err)
		}
		rep.Scaling = sc
	}
	rates := halfRates(rep.Cases)

	// Phase 2: the same fixed rate for every case of a workload.
	for round := 1; round <= o.Rounds; round++ {
		for _, cr := range rep.Cases {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			cr.Rate = rates[cr.Workload]
			if err := e.measure(ctx, cr, bodies, cr.Rate); err != nil {
				return nil, fmt.Errorf("%s: %w", cr.ID, err)
			}
			s := cr.Half[len(cr.Half)-1]
			fmt.Fprintf(o.Log, "[rate %d/%d] %-24s %6d req/s  p50 %-8s p99 %-8s p99.9 %-8s errors %d%s\n", round, o.Rounds, cr.ID, cr.Rate, fmtDur(s.P50), fmtDur(s.P99), fmtDur(s.P999), s.Errors, errorsSuffix(s.ErrorKinds))
		}
	}
	for _, cr := range rep.Cases {
		cr.HalfP50 = medianDur(mapSlice(cr.Half, func(s Sample) time.Duration { return s.P50 }))
		cr.HalfP99 = medianDur(mapSlice(cr.Half, func(s Sample) time.Duration { return s.P99 }))
		cr.HalfP9 = medianDur(mapSlice(cr.Half, func(s Sample) time.Duration { return s.P999 }))
		for _, s := range append(slices.Clone(cr.Max), cr.Half...) {
			cr.Errors += s.Errors
			for k, n := range s.ErrorKinds {
				if cr.ErrorKinds == nil {
					cr.ErrorKinds = make(map[string]int)
				}
				cr.ErrorKinds[k] += n
			}
		}
	}

	if o.GoBench {
		fmt.Fprintln(o.Log, "go test -bench (allocations per request) ...")
		benches, err := runGoBench(ctx, o.Root, o.GoBenchTime, e.redisURL)
		if err != nil {
			rep.Notes = append(rep.Notes, "Go benchmarks failed: "+err.Error())
		}
		for _, cr := range rep.Cases {
			if g, ok := benches[cr.def.GoBench]; ok {
				g := g
				cr.GoBench = &g
			}
		}
	}
	rep.Elapsed = time.Since(started)
	if o.Out != "" {
		if err := rep.Write(o.Out); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// halfRates is, per workload, half of the median maximum throughput of
// the translated gateway (memory limiter) — or of the first gateway case,
// or of the bare proxy, when that case was not run.
func halfRates(cases []*CaseResult) map[string]int {
	rates := map[string]int{}
	pick := func(w string) float64 {
		for _, pref := range []func(c *CaseResult) bool{
			func(c *CaseResult) bool { return c.Server == srvGateway && c.def.V1 },
			func(c *CaseResult) bool { return c.Server == srvGateway || c.Server == srvGatewayRedis },
			func(c *CaseResult) bool { return c.Server == srvBare },
			func(c *CaseResult) bool { return true },
		} {
			for _, c := range cases {
				if c.Workload == w && pref(c) {
					return c.MaxRPS
				}
			}
		}
		return 0
	}
	for _, c := range cases {
		if _, done := rates[c.Workload]; !done {
			rates[c.Workload] = max(int(pick(c.Workload)/2), 1)
		}
	}
	return rates
}

// check sends one request through a fresh server and checks the answer.
func (e *env) check(cr *CaseResult, b *canned.Bodies) error {
	s, err := e.start(cr.Server, cr.def.args()...)
	if err != nil {
		return err
	}
	defer s.stop()
	t, want, ok := request(cr.def, s.base, b, e.o.Pods)
	req, err := http.NewRequest(t.Method, t.URL, strings.NewReader(string(t.Body)))
	if err != nil {
		return err
	}
	req.Header = t.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s answered %d, want %d: %.300s", t.Method, t.URL, resp.StatusCode, want, body)
	}
	return ok(body)
}

// measure runs one attack on a fresh server: rate 0 at maximum throughput
// (also reads the peak RSS and the Redis counters), else at rate.
func (e *env) measure(ctx context.Context, cr *CaseResult, b *canned.Bodies, rate int) error {
	s, err := e.start(cr.Server, cr.def.args()...)
	if err != nil {
		return err
	}
	defer s.stop()
	t, want, _ := request(cr.def, s.base, b, e.o.Pods)
	l := Load{Rate: rate, Concurrency: e.o.Concurrency, Warmup: e.o.Warmup, Duration: e.o.MaxDuration}
	if rate > 0 {
		l.Concurrency = min(e.o.Concurrency, 16)
		l.Duration = e.o.RateDuration
	}
	// Redis counters are read once the warm-up is over (connections and
	// the script are set up by then) and after the load; per request means
	// per rate-limit decision in between.
	redisCounts := rate == 0 && cr.Server == srvGatewayRedis
	type snap struct {
		cmds                  int64
		calls, trips, decided float64
		err                   error
	}
	take := func() (sn snap) {
		if sn.cmds, sn.err = e.redisCommands(ctx); sn.err == nil {
			sn.calls, sn.trips, sn.decided, sn.err = s.limiterCalls()
		}
		return sn
	}
	// Before the load, idle: the scripts Redis has run (for earlier
	// servers) and this gateway's decisions (none yet: its counter may have
	// no sample).
	var idleScripts int64
	var idleDecided float64
	var first chan snap
	if redisCounts {
		if idleScripts, err = e.redisScripts(ctx); err != nil {
			return err
		}
		if idleDecided, err = s.metricSum("v1gw_limiter_decisions_total"); err != nil && !errors.Is(err, errNoSample) {
			return err
		}
		first = make(chan snap, 1)
		go func() {
			time.Sleep(l.Warmup)
			first <- take()
		}()
	}
	var cpu0, rcpu0 time.Duration
	if s.p != nil {
		cpu0 = s.p.cpuTime()
	}
	redisCPU := rate == 0 && cr.Server == srvGatewayRedis && e.redisOwned
	if redisCPU {
		rcpu0 = e.redisProc.cpuTime()
	}
	sample := Attack(t, want, l)
	if rate == 0 && s.p != nil && sample.Total > 0 {
		// Over the whole attack, warm-up included: CPU per request sent.
		cr.CPUPerReq = append(cr.CPUPerReq, float64(s.p.cpuTime()-cpu0)/float64(time.Microsecond)/float64(sample.Total))
		if redisCPU {
			cr.RedisCPU = append(cr.RedisCPU, float64(e.redisProc.cpuTime()-rcpu0)/float64(time.Microsecond)/float64(sample.Total))
		}
	}
	if redisCounts {
		a, b := <-first, take()
		if a.err != nil {
			return a.err
		}
		if b.err != nil {
			return b.err
		}
		if n := b.decided - a.decided; n > 0 {
			// The first INFO is counted once it has answered.
			cr.RedisCmds = append(cr.RedisCmds, float64(b.cmds-a.cmds-1)/n)
			cr.LimiterCalls = append(cr.LimiterCalls, (b.calls-a.calls)/n)
			cr.RoundTrips = append(cr.RoundTrips, (b.trips-a.trips)/n)
		}
		scripts, err := e.redisScripts(ctx)
		if err != nil {
			return err
		}
		if n := b.decided - idleDecided; n > 0 {
			cr.Scripts = append(cr.Scripts, float64(scripts-idleScripts)/n)
		}
	}
	if s.p != nil {
		if s.p.exited() {
			return s.p.failure(errors.New("died during the load"))
		}
		cr.PeakRSS = max(cr.PeakRSS, s.p.peakRSS())
	}
	if rate == 0 {
		cr.Max = append(cr.Max, sample)
	} else {
		cr.Half = append(cr.Half, sample)
	}
	return nil
}

// buildGateway builds cmd/v1gateway as make build does.
func buildGateway(ctx context.Context, root, out string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, "./cmd/v1gateway")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/v1gateway: %w\n%s", err, b)
	}
	return nil
}

// moduleRoot is the nearest directory upwards holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory: run from the repository")
		}
		dir = parent
	}
}

func mapSlice[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func medianDur(v []time.Duration) time.Duration {
	return time.Duration(median(mapSlice(v, func(d time.Duration) float64 { return float64(d) })))
}

// Machine describes where the benchmark ran.
type Machine struct {
	Date     string `json:"date"`
	CPUs     int    `json:"cpus"`
	CPUModel string `json:"cpuModel"`
	MemTotal string `json:"memTotal"`
	Kernel   string `json:"kernel"`
	Go       string `json:"go"`
	OS       string `json:"os"`
	Commit   string `json:"commit"`
	Nginx    string `json:"nginx,omitempty"`
	Redis    string `json:"redis,omitempty"`
}

func describeMachine(root, nginx string) Machine {
	m := Machine{
		Date: time.Now().UTC().Format("2006-01-02 15:04 MST"),
		CPUs: runtime.NumCPU(),
		Go:   runtime.Version(),
		OS:   runtime.GOOS + "/" + runtime.GOARCH,
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			m.MemTotal = strings.TrimSpace(v)
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	cmd := exec.Command("git", "describe", "--always", "--dirty")
	cmd.Dir = root
	if b, err := cmd.Output(); err == nil {
		m.Commit = strings.TrimSpace(string(b))
	}
	if nginx != "" {
		m.Nginx = version(nginx, "-v")
	}
	if p, err := exec.LookPath("redis-server"); err == nil {
		m.Redis = version(p, "--version")
	}
	return m
}
