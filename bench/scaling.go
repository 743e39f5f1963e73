package bench

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/v1gateway/v1gateway/bench/canned"
)

// The scaling case (issue 16): how the gateway's cost and memory follow
// the size of the account, beside the bare proxy's. For 1, 10, 100 and
// 1000 pods in the canned list, GET /v1/pods through the gateway (memory
// limiter) and GET /v2/pods through the bare proxy, each at maximum
// throughput with ScalingConcurrency connections; then POST /v1/pods (and
// the bare POST /v2/pods) in front of accounts of 10 and 1000 pods. Fresh
// processes for every run, peak RSS at that many requests in flight; each
// figure is the median of Options.Rounds runs, gateway and bare proxy in
// turn (the peak RSS of one run moves with the garbage collector's timing
// by up to 2×).

// ScalingCaseID selects the case with -only.
const ScalingCaseID = "scaling/account-size"

// ScalingConcurrency is the requests in flight of the scaling runs.
const ScalingConcurrency = 128

// ScalingGoMemLimit is the gateway's GOMEMLIMIT in the scaling runs (the
// Kubernetes and Compose manifests' value).
const ScalingGoMemLimit = "230MiB"

// ScalingPoint is one run.
type ScalingPoint struct {
	RPS       float64 `json:"rps"`
	CPUPerReq float64 `json:"cpuUsPerReq"`
	PeakRSS   int64   `json:"peakRssBytes"`
	Errors    int     `json:"errors"`
}

// ScalingRow is one account size: the gateway's v1 route and the bare
// proxy's v2 one.
type ScalingRow struct {
	Pods      int          `json:"pods"`
	ListBytes int          `json:"listBytes"`
	Gateway   ScalingPoint `json:"gateway"`
	Bare      ScalingPoint `json:"bare"`
}

// ScalingResult is the case.
type ScalingResult struct {
	Lists   []ScalingRow `json:"lists"`
	Creates []ScalingRow `json:"creates"`
}

func (e *env) scaling(ctx context.Context) (*ScalingResult, error) {
	res := &ScalingResult{}
	// The gateway runs as the manifests deploy it: GOMEMLIMIT at ~90% of
	// a 256 MiB container, which also sizes its answer budget.
	e.gatewayEnv = []string{"GOMEMLIMIT=" + ScalingGoMemLimit}
	defer func() { e.gatewayEnv = nil }()
	run := func(kind, upstream string, t Target, want int) (ScalingPoint, error) {
		saved := e.upstreamURL
		e.upstreamURL = upstream
		s, err := e.start(kind)
		e.upstreamURL = saved
		if err != nil {
			return ScalingPoint{}, err
		}
		defer s.stop()
		t.URL = s.base + t.URL
		cpu0 := s.p.cpuTime()
		smp := Attack(t, want, Load{Concurrency: ScalingConcurrency, Warmup: e.o.Warmup, Duration: e.o.MaxDuration})
		pt := ScalingPoint{RPS: smp.RPS, Errors: smp.Errors, PeakRSS: s.p.peakRSS()}
		if smp.Total > 0 {
			pt.CPUPerReq = float64(s.p.cpuTime()-cpu0) / float64(time.Microsecond) / float64(smp.Total)
		}
		if s.p.exited() {
			return pt, s.p.failure(fmt.Errorf("died during the load"))
		}
		return pt, nil
	}
	h := http.Header{"Authorization": {"Bearer " + canned.Token}, "Accept": {"application/json"}}
	jh := http.Header{"Authorization": {"Bearer " + canned.Token}, "Accept": {"application/json"}, "Content-Type": {"application/json"}}
	for _, n := range []int{1, 10, 100, 1000, -10, -1000} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		create := n < 0
		pods := max(n, -n)
		up, upURL, err := e.newUpstream(pods)
		if err != nil {
			return nil, err
		}
		list, err := canned.NewList(pods, e.o.List)
		if err != nil {
			return nil, err
		}
		row := ScalingRow{Pods: pods, ListBytes: len(list.List)}
		var gt, bt Target
		want := http.StatusOK
		if create {
			gt = Target{Method: "POST", URL: "/v1/pods", Body: []byte(canned.CreateBody), Header: jh}
			bt = Target{Method: "POST", URL: "/v2/pods", Body: []byte(canned.V2CreateBody), Header: jh}
			want = http.StatusCreated
		} else {
			gt = Target{Method: "GET", URL: "/v1/pods", Header: h}
			bt = Target{Method: "GET", URL: "/v2/pods", Header: h}
		}
		var gs, bs []ScalingPoint
		for range max(e.o.Rounds, 1) {
			var g, b ScalingPoint
			if g, err = run(srvGateway, upURL, gt, want); err == nil {
				b, err = run(srvBare, upURL, bt, want)
			}
			if err != nil {
				break
			}
			gs, bs = append(gs, g), append(bs, b)
		}
		row.Gateway, row.Bare = medianPoint(gs), medianPoint(bs)
		up.stop()
		if err != nil {
			return nil, err
		}
		if create {
			res.Creates = append(res.Creates, row)
		} else {
			res.Lists = append(res.Lists, row)
		}
		fmt.Fprintf(e.o.Log, "[scaling] %d pods create=%v: gateway %.0f req/s %.0f µs/req %s, bare %.0f req/s %.0f µs/req %s\n", pods, create,
			row.Gateway.RPS, row.Gateway.CPUPerReq, fmtMiB(row.Gateway.PeakRSS), row.Bare.RPS, row.Bare.CPUPerReq, fmtMiB(row.Bare.PeakRSS))
	}
	return res, nil
}

// medianPoint is the median of each figure of pts (errors: their sum).
func medianPoint(pts []ScalingPoint) ScalingPoint {
	var rps, cpu, rss []float64
	var out ScalingPoint
	for _, p := range pts {
		rps, cpu, rss = append(rps, p.RPS), append(cpu, p.CPUPerReq), append(rss, float64(p.PeakRSS))
		out.Errors += p.Errors
	}
	if len(pts) == 0 {
		return out
	}
	out.RPS, out.CPUPerReq, out.PeakRSS = median(rps), median(cpu), int64(median(rss))
	return out
}

func fmtMiB(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

// markdown is the case's section of results.md.
func (r *ScalingResult) markdown(o Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Scaling with the account\n\n"+
		"Maximum throughput with %d connections (%s measured after %s of warm-up, fresh processes for every run); CPU µs per request of the proxy process; peak RSS with %d requests in flight; medians of %d rounds, gateway and bare proxy in turn. Gateway: in-memory limiter, GOMEMLIMIT=%s as the manifests set it.\n\n", ScalingConcurrency, o.MaxDuration, o.Warmup, ScalingConcurrency, max(o.Rounds, 1), ScalingGoMemLimit)
	b.WriteString("| pods in the list | v2 list | gateway `GET /v1/pods` req/s | CPU µs/req | peak RSS | bare `GET /v2/pods` req/s | CPU µs/req | peak RSS | RSS gateway/bare |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, row := range r.Lists {
		b.WriteString(row.line())
	}
	b.WriteString("\n| pods in the account | v2 list | gateway `POST /v1/pods` req/s | CPU µs/req | peak RSS | bare `POST /v2/pods` req/s | CPU µs/req | peak RSS | RSS gateway/bare |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, row := range r.Creates {
		b.WriteString(row.line())
	}
	b.WriteString("\n")
	return b.String()
}

func (row ScalingRow) line() string {
	ratio := "—"
	if row.Bare.PeakRSS > 0 {
		ratio = fmt.Sprintf("%.1f×", float64(row.Gateway.PeakRSS)/float64(row.Bare.PeakRSS))
	}
	errs := func(p ScalingPoint) string {
		if p.Errors > 0 {
			return fmt.Sprintf(" (%d errors)", p.Errors)
		}
		return ""
	}
	return fmt.Sprintf("| %d | %.1f KB | %.0f%s | %.0f | %s | %.0f%s | %.0f | %s | %s |\n", row.Pods, float64(row.ListBytes)/1000,
		row.Gateway.RPS, errs(row.Gateway), row.Gateway.CPUPerReq, fmtMiB(row.Gateway.PeakRSS),
		row.Bare.RPS, errs(row.Bare), row.Bare.CPUPerReq, fmtMiB(row.Bare.PeakRSS), ratio)
}
