package bench

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Files written by Report.Write.
const (
	ResultsMarkdown = "results.md"
	ResultsJSON     = "results.json"
	LatencySVG      = "latency.svg"
)

// Write writes results.md, results.json and latency.svg into dir.
func (r *Report) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	files := map[string][]byte{
		ResultsMarkdown: []byte(r.Markdown()),
		ResultsJSON:     append(js, '\n'),
		LatencySVG:      []byte(r.SVG()),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// find returns the case with id, or nil.
func (r *Report) find(id string) *CaseResult {
	for _, c := range r.Cases {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// pairedRatio is the median over the rounds of a's sample divided by b's
// sample of the same round. A round runs its cases back to back, so its
// ratio compares like with like, and the machine's drift from round to
// round cancels; dividing the medians would set samples from different
// rounds against each other (on a shared machine, single rounds of one
// run differed by up to 30%). Samples that do not pair (a different
// number on each side) fall back to the ratio of the medians; false when
// there is nothing to divide by.
func pairedRatio(a, b []float64) (float64, bool) {
	if len(a) == 0 || len(a) != len(b) {
		if mb := median(b); len(a) > 0 && mb > 0 {
			return median(a) / mb, true
		}
		return 0, false
	}
	rs := make([]float64, 0, len(a))
	for i := range a {
		if b[i] > 0 {
			rs = append(rs, a[i]/b[i])
		}
	}
	if len(rs) == 0 {
		return 0, false
	}
	return median(rs), true
}

// workloadTitle is the title of a workload's table.
func (r *Report) workloadTitle(w string) string {
	switch w {
	case wlList:
		return fmt.Sprintf(workloadTitles[w], r.Options.Pods, (r.ListSize+512)/1024)
	case wlGraphQL:
		return fmt.Sprintf(workloadTitles[w], r.Options.Pods)
	}
	return workloadTitles[w]
}

// rpsRatio is c's maximum throughput relative to b's (pairedRatio).
func rpsRatio(c, b *CaseResult) (float64, bool) {
	rps := func(s Sample) float64 { return s.RPS }
	return pairedRatio(mapSlice(c.Max, rps), mapSlice(b.Max, rps))
}

// Target is one quality bar of docs/design.md §10 as measured.
type TargetResult struct {
	Name     string
	Measured string
	Met      bool
	Known    bool // false: a case it needs was not run
}

// Targets evaluates the speed bars of docs/design.md §10.
func (r *Report) Targets() []TargetResult {
	var out []TargetResult
	ratio := func(id, base string) (float64, bool) {
		c, b := r.find(id), r.find(base)
		if c == nil || b == nil {
			return 0, false
		}
		return rpsRatio(c, b)
	}
	speed := func(name, id, base string, bar float64) {
		if v, ok := ratio(id, base); ok {
			out = append(out, TargetResult{name, fmt.Sprintf("%.2f×", v), v >= bar, true})
		} else {
			out = append(out, TargetResult{Name: name})
		}
	}
	list := fmt.Sprintf("translated GET /v1/pods (%d %s pods)", r.Options.Pods, r.Options.List)
	speed(list+" ≥ 0.70× bare proxy throughput", "list/gateway-v1", "list/bare", 0.70)
	if c, b := r.find("list/gateway-v1"), r.find("list/bare"); c != nil && b != nil && len(c.CPUPerReq) > 0 && len(b.CPUPerReq) > 0 {
		g, bb := median(c.CPUPerReq), median(b.CPUPerReq)
		v, _ := pairedRatio(c.CPUPerReq, b.CPUPerReq)
		out = append(out, TargetResult{list + ": gateway CPU per request ≤ 2.0× the bare proxy's",
			fmt.Sprintf("%.2f× (medians %.0f vs %.0f µs)", v, g, bb), v <= 2.0, true})
	} else {
		out = append(out, TargetResult{Name: list + ": gateway CPU per request ≤ 2.0× the bare proxy's"})
	}
	gql := fmt.Sprintf("GraphQL myself { pods } (runpod-python's get_pods, %d %s pods): gateway CPU per request ≤ 2.0× the translated GET /v1/pods'", r.Options.Pods, r.Options.List)
	if c, v := r.find("graphql/gateway"), r.find("list/gateway-v1"); c != nil && v != nil && len(c.CPUPerReq) > 0 && len(v.CPUPerReq) > 0 {
		ratio, _ := pairedRatio(c.CPUPerReq, v.CPUPerReq)
		out = append(out, TargetResult{gql, fmt.Sprintf("%.2f× (medians %.0f vs %.0f µs)", ratio, median(c.CPUPerReq), median(v.CPUPerReq)), ratio <= 2.0, true})
	} else {
		out = append(out, TargetResult{Name: gql})
	}
	speed("translated GET /v1/pods/{id} ≥ 0.85× bare proxy throughput", "get/gateway-v1", "get/bare", 0.85)
	speed("translated POST /v1/pods ≥ 0.60× bare proxy throughput", "create/gateway-v1", "create/bare", 0.60)
	speed("/v2 pass-through ≥ 0.95× bare proxy throughput", "list/gateway-v2", "list/bare", 0.95)
	// The account-size and saturation cases.
	if sc := r.Scaling; sc != nil && len(sc.Creates) > 0 {
		var parts []string
		met := true
		lo, hi := math.Inf(1), 0.0
		for _, row := range sc.Creates {
			v := 0.0
			if row.Bare.RPS > 0 {
				v = row.Gateway.RPS / row.Bare.RPS
			}
			met = met && v >= 0.60
			lo, hi = min(lo, row.Gateway.CPUPerReq), max(hi, row.Gateway.CPUPerReq)
			parts = append(parts, fmt.Sprintf("%d pods %.2f× (%.0f µs)", row.Pods, v, row.Gateway.CPUPerReq))
		}
		// "Independent of the account": CPU per create within 20% across sizes.
		met = met && hi <= 1.2*lo
		out = append(out, TargetResult{"POST /v1/pods ≥ 0.60× bare, the same CPU whatever the account's pod count", strings.Join(parts, "; "), met, true})
	} else {
		out = append(out, TargetResult{Name: "POST /v1/pods ≥ 0.60× bare, the same CPU whatever the account's pod count"})
	}
	if sc := r.Scaling; sc != nil {
		known := false
		for _, row := range sc.Lists {
			if row.Pods != 1000 || row.Bare.PeakRSS == 0 {
				continue
			}
			v := float64(row.Gateway.PeakRSS) / float64(row.Bare.PeakRSS)
			out = append(out, TargetResult{"128 concurrent 1000-pod lists: peak RSS ≤ 3× the bare proxy's", fmt.Sprintf("%.1f× (%s vs %s)", v, fmtMiB(row.Gateway.PeakRSS), fmtMiB(row.Bare.PeakRSS)), v <= 3, true})
			known = true
		}
		if !known {
			out = append(out, TargetResult{Name: "128 concurrent 1000-pod lists: peak RSS ≤ 3× the bare proxy's"})
		}
	} else {
		out = append(out, TargetResult{Name: "128 concurrent 1000-pod lists: peak RSS ≤ 3× the bare proxy's"})
	}
	if l := r.Limit; l != nil {
		out = append(out, TargetResult{"rate limit under saturation: admitted = limit, exactly", fmt.Sprintf("%d of %d", l.Admitted, l.Limit), l.Admitted == l.Limit, true})
	} else {
		out = append(out, TargetResult{Name: "rate limit under saturation: admitted = limit, exactly"})
	}
	// Redis: one round trip per request, and the throughput cost.
	var rt []string
	oneTrip, anyRedis := true, false
	var costs []string
	worstCost := 0.0
	for _, c := range r.Cases {
		if c.Server != srvGatewayRedis {
			continue
		}
		anyRedis = true
		// Scripts Redis ran per decision, counted idle to idle: exactly
		// one each. Runs before they were counted give the gateway's own
		// count of commands, which includes each new pooled connection's
		// set-up, from a count taken under load.
		lim, what, tol := median(c.LimiterCalls), " commands", 0.01
		if len(c.Scripts) > 0 {
			lim, what, tol = median(c.Scripts), " scripts", 0.001
		}
		trips := ""
		if len(c.RoundTrips) > 0 {
			trips = fmt.Sprintf(" in %.2f round trips", median(c.RoundTrips))
		}
		rt = append(rt, fmt.Sprintf("%s %.3f%s%s", c.ID, lim, what, trips))
		if math.Abs(lim-1) > tol || (len(c.RoundTrips) > 0 && median(c.RoundTrips) > 1.01) {
			oneTrip = false
		}
		if m := r.find(strings.TrimSuffix(c.ID, "-redis")); m != nil {
			v, ok := rpsRatio(c, m)
			if !ok {
				continue
			}
			cost := 1 - v
			worstCost = max(worstCost, cost)
			costs = append(costs, fmt.Sprintf("%s %+.0f%%", strings.TrimSuffix(c.ID, "-redis"), -cost*100))
		}
	}
	if anyRedis {
		out = append(out, TargetResult{"Redis limiter: one Redis command and at most one round trip per request (rate-limit scripts Redis ran / decision, in round trips / decision: concurrent decisions share one)", strings.Join(rt, "; "), oneTrip, true})
		out = append(out, TargetResult{"Redis limiter costs ≤ 15% throughput (vs the in-memory limiter)", strings.Join(costs, "; "), worstCost <= 0.15, len(costs) > 0})
	} else {
		out = append(out, TargetResult{Name: "Redis limiter: one round trip, ≤ 15% throughput"})
	}
	// Added p99 at half load, every gateway case vs direct.
	worst, worstID := time.Duration(math.MinInt64), ""
	for _, c := range r.Cases {
		if c.Server != srvGateway && c.Server != srvGatewayRedis {
			continue
		}
		d := r.find(c.Workload + "/direct")
		if d == nil || len(c.Half) == 0 {
			continue
		}
		if added := c.HalfP99 - d.HalfP99; added > worst {
			worst, worstID = added, c.ID
		}
	}
	if worstID != "" {
		out = append(out, TargetResult{"added p99 ≤ 1 ms at half load (every gateway case vs direct)", "worst: " + fmtDur(worst) + " (" + worstID + ")", worst <= time.Millisecond, true})
	} else {
		out = append(out, TargetResult{Name: "added p99 ≤ 1 ms at half load"})
	}
	return out
}

// CPUFindings compares the CPU per request of cases measured in the same
// run: the translated list against the bare proxy, and the Redis limiter
// in the gateway's own CPU and in the Redis server's.
func (r *Report) CPUFindings() []string {
	cpu := func(id string) (float64, bool) {
		c := r.find(id)
		if c == nil || len(c.CPUPerReq) == 0 {
			return 0, false
		}
		return median(c.CPUPerReq), true
	}
	var out []string
	if g, ok := cpu("list/gateway-v1"); ok {
		if b, ok := cpu("list/bare"); ok && b > 0 {
			v, _ := pairedRatio(r.find("list/gateway-v1").CPUPerReq, r.find("list/bare").CPUPerReq)
			out = append(out, fmt.Sprintf("translated `GET /v1/pods` (%d %s pods): %.0f µs of gateway CPU per request, %.2f× the bare proxy's %.0f µs (which only copies bytes; the ratio is the median of the rounds' ratios)", r.Options.Pods, r.Options.List, g, v, b))
		}
	}
	if g, ok := cpu("graphql/gateway"); ok {
		if v, ok := cpu("list/gateway-v1"); ok && v > 0 {
			ratio, _ := pairedRatio(r.find("graphql/gateway").CPUPerReq, r.find("list/gateway-v1").CPUPerReq)
			out = append(out, fmt.Sprintf("GraphQL `myself { pods }` (runpod-python's get_pods, the same %d pods, through the GraphQL door): %.0f µs of gateway CPU per request, %.2f× the translated `GET /v1/pods`' %.0f µs", r.Options.Pods, g, ratio, v))
		}
	}
	for _, c := range r.Cases {
		if c.Server != srvGatewayRedis || len(c.CPUPerReq) == 0 {
			continue
		}
		base := strings.TrimSuffix(c.ID, "-redis")
		m, ok := cpu(base)
		if !ok || m == 0 {
			continue
		}
		g := median(c.CPUPerReq)
		v, _ := pairedRatio(c.CPUPerReq, r.find(base).CPUPerReq)
		line := fmt.Sprintf("Redis limiter, %s: gateway CPU %+.0f%% (%.0f → %.0f µs per request)", base, (v-1)*100, m, g)
		if len(c.RedisCPU) > 0 {
			line += fmt.Sprintf("; the redis-server on the same cores spends %.0f µs per decision", median(c.RedisCPU))
		}
		out = append(out, line)
	}
	return out
}

// Markdown is the report as a Markdown document.
func (r *Report) Markdown() string {
	var b strings.Builder
	m := r.Machine
	fmt.Fprintf(&b, "# v1gateway side-by-side benchmark\n\n")
	fmt.Fprintf(&b, "Run %s on %d × %s, %s RAM, Linux %s, %s (%s); commit %s.", m.Date, m.CPUs, orDash(m.CPUModel), orDash(m.MemTotal), orDash(m.Kernel), m.Go, m.OS, orDash(m.Commit))
	if m.Nginx != "" {
		fmt.Fprintf(&b, " %s.", m.Nginx)
	}
	if m.Redis != "" {
		fmt.Fprintf(&b, " %s.", firstWords(m.Redis, 3))
	}
	fmt.Fprintf(&b, " Took %s.\n\n", r.Elapsed.Round(time.Second))
	o := r.Options
	fmt.Fprintf(&b, "Every server runs in its own process, started fresh for each run, in front of one static upstream serving canned, schema-valid v2 JSON (the pod list: %s, %s); "+
		"load from vegeta's library in the benchmark's process, all on the same machine. "+
		"**req/s**: maximum throughput with %d concurrent keep-alive connections (%s measured after %s of warm-up). "+
		"**Latencies**: at a fixed rate, half of the translated gateway's maximum for the workload, the same rate for every row of a workload (%s measured); exact percentiles; "+
		"**+p50/+p99**: minus direct's at that rate. Every figure is the median of %d rounds, interleaved across cases; "+
		"a ratio of two of these cases (× bare, the targets drawn from them, the Redis cost) is the median of their per-round ratios, each round running its cases back to back. "+
		"**allocs/req, B/req**: `go test -bench` of the handler in `proxy` with an in-process upstream. "+
		"**peak RSS**: VmHWM of the proxy process (nginx: master + workers). "+
		"**Redis cmds/req**: commands the Redis server processed per rate-limit decision after the warm-up, at maximum throughput (the limiter's one EVALSHA counts with the commands its Lua script runs inside Redis; usage-report writes are included); the targets table gives the limiter's own round trips per decision.\n\n",
		o.List, listKindWords[o.List], o.Concurrency, o.MaxDuration, o.Warmup, o.RateDuration, o.Rounds)

	b.WriteString("## Targets (docs/design.md §10)\n\n| target | measured | met |\n|---|---|---|\n")
	for _, t := range r.Targets() {
		met := "n/a (case not run)"
		if t.Known {
			met = "no"
			if t.Met {
				met = "**yes**"
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", t.Name, orDash(t.Measured), met)
	}
	b.WriteString("\n")
	if r.Limit != nil {
		b.WriteString(r.Limit.markdown())
	}
	if r.Scaling != nil {
		b.WriteString(r.Scaling.markdown(r.Options))
	}
	if cpu := r.CPUFindings(); len(cpu) > 0 {
		b.WriteString("### Where the CPU goes (same runs)\n\n" +
			"On this machine the load generator, the upstream, the proxy and Redis share the cores, so each case's throughput also pays for the others' CPU. " +
			"CPU time per request of each process (from /proc, at maximum throughput, medians) separates them:\n\n")
		for _, f := range cpu {
			fmt.Fprintf(&b, "- %s\n", f)
		}
		b.WriteString("\n")
	}

	for _, w := range workloads {
		var rows []*CaseResult
		for _, c := range r.Cases {
			if c.Workload == w {
				rows = append(rows, c)
			}
		}
		if len(rows) == 0 {
			continue
		}
		title := r.workloadTitle(w)
		fmt.Fprintf(&b, "## %s — latencies at %d req/s\n\n", title, rows[0].Rate)
		if w == wlGraphQL {
			b.WriteString("POST /graphql with runpod-python's document (graphql_mode translate): the door runs `GET /v1/pods`' plan, with its machines, and shapes the answer by the selection set. × bare is against the list's bare proxy; latencies at half of the door's own maximum.\n\n")
		}
		if w == wlCreate {
			b.WriteString("The translated create makes one upstream call, as the others do: it no longer lists the account's pods first (a pod whose create reply was lost is looked for only then, P3).\n\n")
		}
		b.WriteString("| case | req/s (max) | × bare | p50 | p99 | p99.9 | +p50 | +p99 | CPU µs/req | allocs/req | B/req | peak RSS | Redis cmds/req | errors |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		bare := r.find(bareOf(w))
		direct := r.find(w + "/direct")
		for _, c := range rows {
			ratio := "—"
			if bare != nil {
				if v, ok := rpsRatio(c, bare); ok {
					ratio = fmt.Sprintf("%.2f", v)
				}
			}
			addP50, addP99 := "—", "—"
			if direct != nil && c != direct {
				addP50 = fmtSigned(c.HalfP50 - direct.HalfP50)
				addP99 = fmtSigned(c.HalfP99 - direct.HalfP99)
			}
			allocs, bytesPer := "—", "—"
			if c.GoBench != nil {
				allocs = fmt.Sprintf("%.0f", c.GoBench.AllocsPerOp)
				bytesPer = fmtBytes(c.GoBench.BytesPerOp)
			}
			rss := "—"
			if c.PeakRSS > 0 {
				rss = fmt.Sprintf("%.1f MiB", float64(c.PeakRSS)/(1<<20))
			}
			cmds := "—"
			if len(c.RedisCmds) > 0 {
				cmds = fmt.Sprintf("%.3f", median(c.RedisCmds))
			}
			cpu := "—"
			if len(c.CPUPerReq) > 0 {
				cpu = fmt.Sprintf("%.0f", median(c.CPUPerReq))
				if len(c.RedisCPU) > 0 {
					cpu += fmt.Sprintf(" + %.0f Redis", median(c.RedisCPU))
				}
			}
			fmt.Fprintf(&b, "| %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d%s |\n",
				c.Label, c.MaxRPS, ratio, fmtDur(c.HalfP50), fmtDur(c.HalfP99), fmtDur(c.HalfP9), addP50, addP99, cpu, allocs, bytesPer, rss, cmds, c.Errors, errorsSuffix(c.ErrorKinds))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "![Latency percentiles at half load per case](%s)\n\n", LatencySVG)
	if len(r.Notes) > 0 {
		b.WriteString("Notes:\n\n")
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Raw samples of every run: %s. Reproduce with `make bench`.\n", ResultsJSON)
	return b.String()
}

// SVG is a horizontal bar chart of p50, p99 and p99.9 at half load per
// case, on a logarithmic time axis.
func (r *Report) SVG() string {
	const (
		labelW = 330
		plotW  = 520
		rightW = 110
		rowH   = 30
		barH   = 7
		top    = 64
	)
	type row struct {
		head  string
		c     *CaseResult
		y     int
		label string
	}
	var rows []row
	y := top
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, w := range workloads {
		first := true
		for _, c := range r.Cases {
			if c.Workload != w || len(c.Half) == 0 {
				continue
			}
			if first {
				title := r.workloadTitle(w)
				rows = append(rows, row{head: fmt.Sprintf("%s at %d req/s", title, c.Rate), y: y})
				y += 22
				first = false
			}
			rows = append(rows, row{c: c, y: y, label: c.Label})
			y += rowH
			for _, d := range []time.Duration{c.HalfP50, c.HalfP99, c.HalfP9} {
				if d > 0 {
					ms := float64(d) / 1e6
					lo, hi = math.Min(lo, ms), math.Max(hi, ms)
				}
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0.1, 1
	}
	lo = math.Pow(10, math.Floor(math.Log10(lo)))
	hi = math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = lo * 10
	}
	x := func(ms float64) float64 {
		if ms <= lo {
			return labelW
		}
		return labelW + plotW*(math.Log10(ms)-math.Log10(lo))/(math.Log10(hi)-math.Log10(lo))
	}
	height := y + 40
	width := labelW + plotW + rightW
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="15" font-weight="bold">v1gateway benchmark: latency at half load (median of %d runs), log scale</text>`+"\n", r.Options.Rounds)
	fmt.Fprintf(&b, `<text x="10" y="38" fill="#555">%s · %d × %s · %s</text>`+"\n", html.EscapeString(r.Machine.Date), r.Machine.CPUs, html.EscapeString(orDash(r.Machine.CPUModel)), html.EscapeString(r.Machine.Go))
	colors := []string{"#4e79a7", "#f28e2b", "#e15759"}
	names := []string{"p50", "p99", "p99.9"}
	for i, n := range names {
		lx := labelW + plotW - 190 + i*65
		fmt.Fprintf(&b, `<rect x="%d" y="46" width="12" height="10" fill="%s"/><text x="%d" y="55">%s</text>`+"\n", lx, colors[i], lx+16, n)
	}
	// Grid: decades and 2, 5 in between.
	for d := lo; d <= hi*1.0001; d *= 10 {
		for _, k := range []float64{1, 2, 5} {
			v := d * k
			if v > hi*1.0001 {
				break
			}
			gx := x(v)
			stroke := "#eee"
			if k == 1 {
				stroke = "#ccc"
			}
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>`+"\n", gx, top-4, gx, y, stroke)
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%s</text>`+"\n", gx, y+16, fmtMs(v))
		}
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill="#555">milliseconds</text>`+"\n", labelW+plotW/2, y+32)
	for _, rw := range rows {
		if rw.c == nil {
			fmt.Fprintf(&b, `<text x="10" y="%d" font-weight="bold">%s</text>`+"\n", rw.y+14, html.EscapeString(rw.head))
			continue
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", labelW-8, rw.y+15, html.EscapeString(rw.label))
		for i, d := range []time.Duration{rw.c.HalfP50, rw.c.HalfP99, rw.c.HalfP9} {
			ms := float64(d) / 1e6
			w := math.Max(x(ms)-labelW, 1)
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s %s</title></rect>`+"\n",
				labelW, rw.y+3+i*(barH+1), w, barH, colors[i], names[i], fmtDur(d))
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#333">p99 %s</text>`+"\n", labelW+plotW+8, rw.y+15, fmtDur(rw.c.HalfP99))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// errorsSuffix is " (55 × status 503)" after an error count, or "".
func errorsSuffix(kinds map[string]int) string {
	if len(kinds) == 0 {
		return ""
	}
	return " (" + fmtErrorKinds(kinds) + ")"
}

// fmtDur formats a latency in ms or µs with 3 significant digits.
func fmtDur(d time.Duration) string {
	switch {
	case d == 0:
		return "—"
	case d < time.Millisecond && d > -time.Millisecond:
		return fmt.Sprintf("%.0f µs", float64(d)/1e3)
	default:
		return fmt.Sprintf("%.2f ms", float64(d)/1e6)
	}
}

func fmtSigned(d time.Duration) string {
	switch {
	case d == 0:
		return "±0"
	case d > 0:
		return "+" + fmtDur(d)
	}
	return "−" + fmtDur(-d)
}

func fmtMs(v float64) string {
	if v < 1 {
		return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", v), "0"), ".")
	}
	return fmt.Sprintf("%.0f", v)
}

func fmtBytes(v float64) string {
	switch {
	case v >= 1<<20:
		return fmt.Sprintf("%.1f MiB", v/(1<<20))
	case v >= 1<<10:
		return fmt.Sprintf("%.1f KiB", v/(1<<10))
	}
	return fmt.Sprintf("%.0f B", v)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}
