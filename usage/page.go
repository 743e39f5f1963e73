package usage

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
)

// PageOp is what the page says about one v1 operation: its v1 route, the
// v2 calls that replace it and where COMPATIBILITY.md describes it. The
// gateway fills it from its operation table (the source of the generated
// v1 OpenAPI document).
type PageOp struct {
	Route string   // "GET /v1/pods"
	V2    []string // "GET /v2/pods", …
	Doc   string   // link to the operation's COMPATIBILITY.md section
}

// PageOptions configure WritePage.
type PageOptions struct {
	// Ops describes the v1 operations by name; operations it lacks are
	// shown by name only.
	Ops map[string]PageOp
	// QuietDays is the "ready to retire" rule: no v1, /v2 or /graphql call
	// for that many days (default 30).
	QuietDays int
	// Sunset is the announced switch-off (zero: none).
	Sunset time.Time
	// Migrated are the key ids refused as migrated, from when (config
	// migrated_keys).
	Migrated map[string]time.Time
}

// SparklineDays is the length of each key's sparkline.
const SparklineDays = 30

// Readiness is the "ready to retire" verdict of a report.
type Readiness struct {
	Ready     bool
	QuietDays int
	// Blockers say what keeps the gateway, e.g. "a v1 call 2 days ago".
	Blockers []string
	// Caveats say why the verdict may not be trusted (memory store,
	// partial report).
	Caveats []string
}

// Retirement applies the operator guide's rule to r: the gateway can go
// when no v1 call and no /v2 or /graphql pass-through call has been made
// for quietDays days.
func (r *Report) Retirement(quietDays int) Readiness {
	if quietDays <= 0 {
		quietDays = 30
	}
	rd := Readiness{QuietDays: quietDays}
	since := r.GeneratedAt.Add(-time.Duration(quietDays) * 24 * time.Hour)
	var lastPass, lastGQL time.Time
	passKeys, gqlKeys, v1Keys := 0, 0, 0
	for _, k := range r.Keys {
		if k.LastSeen != nil && k.LastSeen.After(since) {
			v1Keys++
		}
		if u := k.V2PassThrough; u != nil {
			if u.LastSeen.After(lastPass) {
				lastPass = u.LastSeen
			}
			if u.LastSeen.After(since) {
				passKeys++
			}
		}
		if u := k.GraphQL; u != nil {
			if u.LastSeen.After(lastGQL) {
				lastGQL = u.LastSeen
			}
			if u.LastSeen.After(since) {
				gqlKeys++
			}
		}
	}
	if v1Keys > 0 {
		rd.Blockers = append(rd.Blockers, fmt.Sprintf("%s still called v1 in the last %d days (last call %s)", plural(v1Keys, "key"), quietDays, ago(r.GeneratedAt, *r.Summary.LastV1Call)))
	}
	if passKeys > 0 {
		rd.Blockers = append(rd.Blockers, fmt.Sprintf("%s used the /v2 pass-through in the last %d days (last call %s)", plural(passKeys, "key"), quietDays, ago(r.GeneratedAt, lastPass)))
	}
	if gqlKeys > 0 {
		rd.Blockers = append(rd.Blockers, fmt.Sprintf("%s used the /graphql pass-through in the last %d days (last call %s)", plural(gqlKeys, "key"), quietDays, ago(r.GeneratedAt, lastGQL)))
	}
	rd.Ready = len(rd.Blockers) == 0
	if r.Store == "memory" {
		rd.Caveats = append(rd.Caveats, "the counts are this replica's only, since it started (store: memory): configure Redis before trusting this")
	}
	if r.Partial {
		rd.Caveats = append(rd.Caveats, "the report is partial: "+r.PartialReason)
	}
	return rd
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// ago says how long before now t was, roughly.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + " min ago"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + " h ago"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + " days ago"
}

// Chart geometry (SVG user units).
const (
	chartW, chartH      = 720, 180
	chartLeft, chartTop = 44, 10
	chartBottom         = 24
	sparkBar, sparkGap  = 4, 1
	sparkH              = 22
)

type pageBar struct {
	X, Y, W, H float64
	Title      string
}

type pageChart struct {
	W, H, PlotW, PlotH, Left, Top float64
	Bars                          []pageBar
	Max                           int64
	MaxY, MidY, BaseY             float64
	MidLabel                      string
	FirstDay, LastDay             string
	// Quiet shades the retire rule's window.
	QuietX, QuietW, QuietEnd float64
	QuietLabel               string
	Total                    int64
	Days                     int
}

type pageSpark struct {
	W, H  float64
	Bars  []pageBar
	Total int64
}

type pageOpRow struct {
	Name, Route, Doc string
	V2               []string
	Count            int64
	Last             string
	LastTitle        string
}

type pageNote struct {
	Op, Code, Field, Message, Last string
	Count                          int64
	Lossy                          bool
}

type pageKey struct {
	ID, Name, Last, LastTitle string
	Calls                     int64
	Spark                     pageSpark
	Ops                       []pageOpRow
	Notes                     []pageNote
	Other                     []string // pass-through and GraphQL use
	Migrated                  string
	Quiet                     bool // no v1 call in the quiet window
}

type pageData struct {
	R         *Report
	Generated string
	Ready     Readiness
	Sunset    string
	Chart     pageChart
	Keys      []pageKey
	Notes     []NoteTotal
	Ops       []pageOpRow
	Window    int
	V1Window  int64
}

// WritePage writes r as one self-contained HTML page (no script, no
// external resource: inline CSS and server-rendered inline SVG): the
// "ready to retire" banner, a burn-down chart of v1 calls per day, the
// keys by last v1 call with a sparkline of their last 30 days, their
// operations with the v2 calls that replace them, and the compatibility
// notes they were given. The markup is well-formed XML, so that tests can
// read it with encoding/xml.
func (r *Report) WritePage(w io.Writer, o PageOptions) error {
	if o.QuietDays <= 0 {
		o.QuietDays = 30
	}
	window := r.HistoryDays
	if window <= 0 {
		window = DefaultHistoryDays
	}
	now := r.GeneratedAt
	today := DayOf(now)
	d := pageData{R: r, Generated: now.Format("2006-01-02 15:04 UTC"), Ready: r.Retirement(o.QuietDays), Window: window, Notes: r.Summary.Notes}
	if !o.Sunset.IsZero() {
		s := o.Sunset.UTC()
		d.Sunset = s.Format(time.DateOnly)
		if s.After(now) {
			d.Sunset += " (in " + strconv.Itoa(int(s.Sub(now).Hours()/24)) + " days)"
		} else {
			d.Sunset += " (passed: v1 calls since then are stragglers)"
		}
	}
	d.Chart = burnDown(r.Summary.DailyV1Calls, today, window, o.QuietDays)
	for _, dc := range r.Summary.DailyV1Calls {
		if dc.Day >= firstKeptDay(today, window) {
			d.V1Window += dc.Count
		}
	}
	opRow := func(u OpUsage) pageOpRow {
		p := o.Ops[u.Operation]
		return pageOpRow{Name: u.Operation, Route: p.Route, V2: p.V2, Doc: p.Doc, Count: u.Count,
			Last: ago(now, u.LastSeen), LastTitle: u.LastSeen.Format(time.RFC3339)}
	}
	quietSince := now.Add(-time.Duration(o.QuietDays) * 24 * time.Hour)
	for _, k := range r.Keys {
		pk := pageKey{ID: k.KeyID, Name: k.Name, Calls: k.V1Calls, Spark: sparkline(k.DailyV1Calls, today)}
		if k.LastSeen != nil {
			pk.Last, pk.LastTitle = ago(now, *k.LastSeen), k.LastSeen.Format(time.RFC3339)
			pk.Quiet = k.LastSeen.Before(quietSince)
		} else {
			pk.Last, pk.Quiet = "never", true
		}
		if t, ok := o.Migrated[k.KeyID]; ok {
			pk.Migrated = "migrated: v1 refused (410) from " + t.UTC().Format(time.DateOnly)
		}
		for _, u := range k.Operations {
			pk.Ops = append(pk.Ops, opRow(u))
		}
		if u := k.V2PassThrough; u != nil {
			pk.Other = append(pk.Other, fmt.Sprintf("/v2 pass-through: %d calls, last %s: point it at v2 directly", u.Count, ago(now, u.LastSeen)))
		}
		if u := k.GraphQL; u != nil {
			if len(k.GraphQLFields) == 0 {
				pk.Other = append(pk.Other, fmt.Sprintf("/graphql pass-through: %d calls, last %s: point it at the vendor's GraphQL URL", u.Count, ago(now, u.LastSeen)))
			} else {
				fields := make([]string, len(k.GraphQLFields))
				for i, f := range k.GraphQLFields {
					fields[i] = fmt.Sprintf("%s %d", f.Operation, f.Count)
				}
				pk.Other = append(pk.Other, fmt.Sprintf("/graphql: %d calls, last %s, answered from v2 (%s): the client needs v2 calls instead", u.Count, ago(now, u.LastSeen), strings.Join(fields, ", ")))
			}
		}
		for _, n := range k.Notes {
			pk.Notes = append(pk.Notes, pageNote{Op: n.Operation, Code: n.Code, Field: n.Field, Message: n.LastMessage, Count: n.Count, Last: ago(now, n.LastSeen)})
		}
		d.Keys = append(d.Keys, pk)
	}
	for _, t := range r.Summary.Operations {
		d.Ops = append(d.Ops, opRow(OpUsage{Operation: t.Operation, Count: t.Count, LastSeen: t.LastSeen}))
	}
	sort.SliceStable(d.Ops, func(i, j int) bool { return d.Ops[i].Count > d.Ops[j].Count })
	return pageTemplate.Execute(w, d)
}

// burnDown is the chart of v1 calls per day over the window ending today.
func burnDown(daily []DayCount, today Day, window, quiet int) pageChart {
	c := pageChart{W: chartW, H: chartH, Left: chartLeft, Top: chartTop, Days: window}
	c.PlotW, c.PlotH = chartW-chartLeft-8, chartH-chartTop-chartBottom
	first := firstKeptDay(today, window)
	counts := make([]int64, window)
	for _, dc := range daily {
		if i := int(dc.Day - first); i >= 0 && i < window {
			counts[i] += dc.Count
			c.Total += dc.Count
		}
	}
	for _, n := range counts {
		if n > c.Max {
			c.Max = n
		}
	}
	scale := 1.0
	if c.Max > 0 {
		scale = c.PlotH / float64(c.Max)
	}
	step := c.PlotW / float64(window)
	bw := step * 0.8
	if bw < 1 {
		bw = step
	}
	c.BaseY = c.Top + c.PlotH
	c.MaxY, c.MidY = c.Top, c.Top+c.PlotH/2
	c.MidLabel = strconv.FormatInt((c.Max+1)/2, 10)
	for i, n := range counts {
		if n == 0 {
			continue
		}
		h := float64(n) * scale
		if h < 1 {
			h = 1
		}
		day := first + Day(i)
		c.Bars = append(c.Bars, pageBar{X: c.Left + float64(i)*step, Y: c.BaseY - h, W: bw, H: h, Title: day.String() + ": " + strconv.FormatInt(n, 10) + " v1 calls"})
	}
	if quiet > window {
		quiet = window
	}
	c.QuietW = float64(quiet) * step
	c.QuietX = c.Left + c.PlotW - c.QuietW
	c.QuietEnd = c.Left + c.PlotW
	c.QuietLabel = "last " + strconv.Itoa(quiet) + " days (retire rule)"
	c.FirstDay, c.LastDay = first.String(), today.String()
	return c
}

// sparkline is a key's v1 calls over the last SparklineDays days.
func sparkline(daily []DayCount, today Day) pageSpark {
	s := pageSpark{W: SparklineDays * (sparkBar + sparkGap), H: sparkH}
	first := firstKeptDay(today, SparklineDays)
	counts := make([]int64, SparklineDays)
	var max int64
	for _, dc := range daily {
		if i := int(dc.Day - first); i >= 0 && i < SparklineDays {
			counts[i] += dc.Count
			s.Total += dc.Count
			if counts[i] > max {
				max = counts[i]
			}
		}
	}
	for i, n := range counts {
		h := 1.0 // a baseline tick for a day without calls
		if n > 0 {
			h = 2 + float64(n)*(sparkH-2)/float64(max)
		}
		s.Bars = append(s.Bars, pageBar{X: float64(i * (sparkBar + sparkGap)), Y: sparkH - h, W: sparkBar, H: h,
			Title: (first + Day(i)).String() + ": " + strconv.FormatInt(n, 10)})
	}
	return s
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"f":     f1,
	"short": func(id string) string { return strings.TrimSpace(id[:min(len(id), 8)]) },
}).Parse(pageHTML))

const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>v1gateway: migration cockpit</title>
<style>
:root { --fg: #1d2430; --muted: #5b6678; --line: #d9dee7; --bg: #f6f7f9; --bar: #3b6fd8; --ok: #17703a; --okbg: #e3f5e9; --no: #8a4b00; --nobg: #fff1dc; --lossy: #b3261e; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 1180px; margin: 0 auto; padding: 16px; }
h1 { font-size: 22px; margin: 0 0 2px; }
h2 { font-size: 17px; margin: 22px 0 8px; }
.meta, .muted { color: var(--muted); font-size: 13px; }
.banner { border-radius: 8px; padding: 12px 16px; margin: 14px 0; border: 1px solid; }
.banner.ready { background: var(--okbg); border-color: #9bd3ad; color: var(--ok); }
.banner.notready { background: var(--nobg); border-color: #f0c98a; color: var(--no); }
.banner strong { font-size: 17px; display: block; }
.banner ul { margin: 6px 0 0; padding-left: 20px; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 10px; }
.tile { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.tile b { display: block; font-size: 22px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px; overflow-x: auto; }
svg.chart { width: 100%; height: auto; display: block; }
svg text { font: 10px system-ui, sans-serif; fill: var(--muted); }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; vertical-align: top; padding: 8px; border-bottom: 1px solid var(--line); }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
.ops { margin: 0; padding: 0; list-style: none; }
.ops li { margin-bottom: 4px; }
.v2 { color: var(--muted); }
.notes li { color: var(--lossy); }
.tag { display: inline-block; font-size: 11px; padding: 1px 6px; border-radius: 9px; background: #eef1f6; color: var(--muted); margin-left: 4px; }
.tag.lossy { background: #fde7e5; color: var(--lossy); }
.tag.quiet { background: var(--okbg); color: var(--ok); }
.tag.migrated { background: #e9e3f8; color: #4b2d91; }
tr.haslossy td:first-child { border-left: 4px solid var(--lossy); }
@media (max-width: 700px) {
  main { padding: 10px; }
  svg.chart text { font-size: 20px; }
  table.keys thead { display: none; }
  table.keys, table.keys tbody, table.keys tr, table.keys td { display: block; width: 100%; }
  table.keys tr { border: 1px solid var(--line); border-radius: 8px; margin-bottom: 10px; background: #fff; }
  table.keys td { border: 0; padding: 4px 10px; }
  table.keys td.num { text-align: left; }
  table.keys td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); font-size: 12px; }
}
</style>
</head>
<body>
<main>
<h1>v1gateway: migration cockpit</h1>
<div class="meta">Generated {{.Generated}} · store: {{.R.Store}}{{if .R.Partial}} · <b>partial</b>{{end}}{{if .Sunset}} · announced sunset: {{.Sunset}}{{end}}</div>

<section id="retire" class="banner {{if .Ready.Ready}}ready{{else}}notready{{end}}">
<strong>{{if .Ready.Ready}}Ready to retire{{else}}Not ready to retire{{end}}</strong>
Rule (operator guide, "Retiring the gateway"): no v1 call and no /v2 or /graphql pass-through call for {{.Ready.QuietDays}} days (retire_quiet_days).
{{if .Ready.Blockers}}<ul>{{range .Ready.Blockers}}<li>{{.}}</li>{{end}}</ul>{{else}}<ul><li>It holds now: nothing called through the gateway in the last {{.Ready.QuietDays}} days.</li></ul>{{end}}
{{if .Ready.Caveats}}<ul class="caveats">{{range .Ready.Caveats}}<li>Caveat: {{.}}</li>{{end}}</ul>{{end}}
</section>

<div class="tiles">
<div class="tile"><b>{{.V1Window}}</b><span class="muted">v1 calls, last {{.Window}} days</span></div>
<div class="tile"><b>{{.R.Summary.KeysCallingV1Last7d}}</b><span class="muted">keys calling v1, last 7 days</span></div>
<div class="tile"><b>{{.R.Summary.KeysCallingV1}}</b><span class="muted">keys that ever called v1</span></div>
<div class="tile"><b>{{.R.Summary.KeysWithNotes7d}}</b><span class="muted">keys given compatibility notes, last 7 days</span></div>
<div class="tile"><b>{{.R.Summary.V1OperationsLast7d}}</b><span class="muted">v1 operations called, last 7 days</span></div>
</div>

<h2>v1 calls per day, all keys</h2>
<div class="card">
{{with .Chart}}<svg id="burndown" class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {{f .W}} {{f .H}}" role="img" aria-label="v1 calls per UTC day over the last {{.Days}} days: {{.Total}} in all">
<rect class="quiet" x="{{f .QuietX}}" y="{{f .Top}}" width="{{f .QuietW}}" height="{{f .PlotH}}" fill="#e3f5e9"/>
<text x="{{f .QuietEnd}}" y="{{f .Top}}" dy="1em" dx="-3" text-anchor="end">{{.QuietLabel}}</text>
<line x1="{{f .Left}}" x2="{{f .W}}" y1="{{f .MaxY}}" y2="{{f .MaxY}}" stroke="#d9dee7"/>
<line x1="{{f .Left}}" x2="{{f .W}}" y1="{{f .MidY}}" y2="{{f .MidY}}" stroke="#d9dee7"/>
<line x1="{{f .Left}}" x2="{{f .W}}" y1="{{f .BaseY}}" y2="{{f .BaseY}}" stroke="#8c96a8"/>
<text x="{{f .Left}}" y="{{f .MaxY}}" dx="-4" dy="4" text-anchor="end">{{.Max}}</text>
<text x="{{f .Left}}" y="{{f .MidY}}" dx="-4" dy="4" text-anchor="end">{{.MidLabel}}</text>
<text x="{{f .Left}}" y="{{f .BaseY}}" dx="-4" dy="4" text-anchor="end">0</text>
<g class="bars" fill="#3b6fd8">{{range .Bars}}<rect x="{{f .X}}" y="{{f .Y}}" width="{{f .W}}" height="{{f .H}}"><title>{{.Title}}</title></rect>{{end}}</g>
<text x="{{f .Left}}" y="{{f .H}}" dy="-6">{{.FirstDay}}</text>
<text x="{{f .W}}" y="{{f .H}}" dy="-6" text-anchor="end">{{.LastDay}}</text>
</svg>{{end}}
</div>

<h2>Keys, by last v1 call</h2>
<div class="card">
<table class="keys">
<thead><tr><th>Key</th><th>Last v1 call</th><th>v1 calls</th><th>Last {{30}} days</th><th>v1 operations → v2 calls</th><th>Compatibility notes</th></tr></thead>
<tbody>
{{range .Keys}}<tr class="key{{if .Notes}} haslossy{{end}}" id="key-{{.ID}}">
<td data-label="Key"><b>{{if .Name}}{{.Name}}{{else}}{{short .ID}}…{{end}}</b>{{if .Quiet}}<span class="tag quiet">quiet</span>{{end}}{{if .Notes}}<span class="tag lossy">lossy</span>{{end}}{{if .Migrated}}<span class="tag migrated">{{.Migrated}}</span>{{end}}<br/><code class="muted">{{.ID}}</code></td>
<td data-label="Last v1 call" title="{{.LastTitle}}">{{.Last}}</td>
<td data-label="v1 calls" class="num">{{.Calls}}</td>
<td data-label="Last 30 days">{{with .Spark}}<svg class="spark" xmlns="http://www.w3.org/2000/svg" width="{{f .W}}" height="{{f .H}}" viewBox="0 0 {{f .W}} {{f .H}}" role="img" aria-label="{{.Total}} v1 calls in the last 30 days"><g fill="#3b6fd8">{{range .Bars}}<rect x="{{f .X}}" y="{{f .Y}}" width="{{f .W}}" height="{{f .H}}"><title>{{.Title}}</title></rect>{{end}}</g></svg>{{end}}</td>
<td data-label="Operations"><ul class="ops">{{range .Ops}}<li class="op"><b>{{.Name}}</b> <span class="muted">×{{.Count}}, {{.Last}}</span>{{if .Route}}<br/><code>{{.Route}}</code>{{end}}{{if .V2}} → <span class="v2">{{range $i, $c := .V2}}{{if $i}}, {{end}}<code>{{$c}}</code>{{end}}</span>{{end}}{{if .Doc}} · <a href="{{.Doc}}">COMPATIBILITY.md</a>{{end}}</li>{{end}}{{range .Other}}<li class="other">{{.}}</li>{{end}}</ul></td>
<td data-label="Notes">{{if .Notes}}<ul class="ops notes">{{range .Notes}}<li class="note"><code>{{.Code}}</code>{{if .Field}} ({{.Field}}){{end}} in {{.Op}} ×{{.Count}}, {{.Last}}{{if .Message}}<br/><span class="muted">“{{.Message}}”</span>{{end}}</li>{{end}}</ul>{{else}}<span class="muted">none</span>{{end}}</td>
</tr>
{{else}}<tr><td colspan="6" class="muted">No key has called the gateway (in the store's retention).</td></tr>
{{end}}</tbody>
</table>
</div>

{{if .Notes}}<h2>Compatibility notes, all keys</h2>
<div class="card">
<table class="notes">
<thead><tr><th>Code</th><th>Fields</th><th>Count</th><th>Keys</th><th>Last seen</th></tr></thead>
<tbody>{{range .Notes}}<tr><td><code>{{.Code}}</code></td><td>{{range $i, $f := .Fields}}{{if $i}}, {{end}}{{$f.Field}} ×{{$f.Count}}{{end}}</td><td class="num">{{.Count}}</td><td class="num">{{.Keys}}</td><td>{{.LastSeen.Format "2006-01-02 15:04"}}</td></tr>{{end}}</tbody>
</table>
</div>{{end}}

{{if .Ops}}<h2>v1 operations in use and what replaces them</h2>
<div class="card">
<table class="opmap">
<thead><tr><th>Operation</th><th>v1 route</th><th>v2 calls</th><th>Calls</th><th>Last</th></tr></thead>
<tbody>{{range .Ops}}<tr><td>{{.Name}}{{if .Doc}} · <a href="{{.Doc}}">COMPATIBILITY.md</a>{{end}}</td><td><code>{{.Route}}</code></td><td>{{range $i, $c := .V2}}{{if $i}}<br/>{{end}}<code>{{$c}}</code>{{end}}</td><td class="num">{{.Count}}</td><td title="{{.LastTitle}}">{{.Last}}</td></tr>{{end}}</tbody>
</table>
</div>{{end}}

<p class="muted">JSON: <code>/usage</code> · CSV: <code>/usage?format=csv</code>, <code>&amp;view=notes</code>, <code>&amp;view=daily</code> · daily counts cover {{.Window}} UTC days (usage_history_days).</p>
</main>
</body>
</html>
`
