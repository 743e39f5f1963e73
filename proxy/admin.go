package proxy

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/v1gateway/v1gateway/usage"
)

// Admin serves the admin port:
//
//	/healthz  the process is alive (always 200)
//	/readyz   the gateway should get traffic: 503 once shutdown has begun,
//	          while the upstream circuit breaker is open, and while the
//	          limiter's Redis is down with V1GW_LIMITER_FAIL=closed
//	/metrics  Prometheus text format
//	/usage    the migration report (JSON; ?format=csv: calls per key id and
//	          operation; ?format=csv&view=notes: compatibility notes per key
//	          id, operation and code; &view=daily: calls per UTC day;
//	          ?format=html or Accept: text/html: the migration cockpit page)
type Admin struct {
	draining atomic.Bool
	gw       *Gateway
	mux      *http.ServeMux
}

// NewAdmin returns the admin handler of gw (nil: /healthz and /readyz
// only, ready until draining).
func NewAdmin(gw *Gateway) *Admin {
	a := &Admin{mux: http.NewServeMux(), gw: gw}
	a.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	a.mux.HandleFunc("GET /readyz", a.readyz)
	if gw != nil {
		a.mux.Handle("GET /metrics", gw.tel.MetricsHandler())
		a.mux.Handle("GET /usage", a.withAdminToken(http.HandlerFunc(a.usage)))
	}
	return a
}

// healthyLimiter is a limiter that knows whether its store is usable
// (limiter.Redis).
type healthyLimiter interface{ Healthy() bool }

type readiness struct {
	Status string            `json:"status"` // ready, draining, not ready
	Reason string            `json:"reason,omitempty"`
	Checks map[string]string `json:"checks,omitempty"`
}

func (a *Admin) readyz(w http.ResponseWriter, _ *http.Request) {
	if a.draining.Load() {
		writeJSON(w, http.StatusServiceUnavailable, readiness{Status: "draining", Reason: "shutting down: finishing in-flight requests"})
		return
	}
	if a.gw == nil {
		writeJSON(w, http.StatusOK, readiness{Status: "ready"})
		return
	}
	rd := readiness{Status: "ready", Checks: map[string]string{}}
	status := http.StatusOK
	bs := a.gw.breaker.state()
	rd.Checks["upstream_breaker"] = bs.String()
	if bs == breakerOpen {
		status, rd.Status, rd.Reason = http.StatusServiceUnavailable, "not ready", "upstream circuit breaker open: v2 is failing"
	}
	switch l := a.gw.limiter.(type) {
	case nil:
		rd.Checks["limiter"] = "disabled"
	case healthyLimiter:
		switch {
		case l.Healthy():
			rd.Checks["limiter"] = "redis"
		case a.gw.cfg.LimiterFail == "closed":
			rd.Checks["limiter"] = "redis unavailable (fail-closed: requests rejected)"
			if status == http.StatusOK {
				status, rd.Status, rd.Reason = http.StatusServiceUnavailable, "not ready", "rate limiter Redis unavailable and limiter_fail=closed"
			}
		default:
			rd.Checks["limiter"] = "redis unavailable (fail-open: per-process limits)"
		}
	default:
		rd.Checks["limiter"] = "memory"
	}
	writeJSON(w, status, rd)
}

// UsageReadTimeout bounds how long /usage waits for the shared store
// before it answers with this replica's own knowledge, marked partial.
const UsageReadTimeout = 2 * time.Second

func (a *Admin) usage(w http.ResponseWriter, r *http.Request) {
	b := a.gw.usage
	es, partial, reason := b.Snapshot(r.Context(), UsageReadTimeout)
	rep := usage.BuildReport(es, a.gw.cfg.KeyNames, b.Store().Kind(), a.gw.now())
	labelAnonymous(rep)
	rep.HistoryDays = b.HistoryDays()
	if partial {
		rep.Partial = true
		rep.PartialReason = "the usage store could not be read within " + UsageReadTimeout.String() + " (" + reason.Error() + "): only this replica's own calls are shown"
		w.Header().Set("X-Usage-Partial", "true")
	}
	q := r.URL.Query()
	f := q.Get("format")
	if f == "" && prefersHTML(r) {
		f = "html"
	}
	switch f {
	case "html":
		a.usagePage(w, rep)
	case "", "json":
		writeJSON(w, http.StatusOK, rep)
	case "csv":
		// The calls CSV keeps its columns (scripts read it); the notes
		// have a CSV of their own.
		write, name := rep.WriteCSV, "v1gateway-usage.csv"
		switch q.Get("view") {
		case "", "calls":
		case "notes":
			write, name = rep.WriteNotesCSV, "v1gateway-compat-notes.csv"
		case "daily":
			write, name = rep.WriteDailyCSV, "v1gateway-usage-daily.csv"
		default:
			writeJSON(w, http.StatusBadRequest, map[string]string{"message": "view must be calls, notes or daily"})
			return
		}
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"message": err.Error()})
			return
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		_, _ = w.Write(buf.Bytes())
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "format must be json, csv or html"})
	}
}

// withAdminToken requires "Authorization: Bearer <admin_token>" when an
// admin token is configured (the usage report names key ids and teams).
func (a *Admin) withAdminToken(next http.Handler) http.Handler {
	want := a.gw.cfg.AdminToken
	if want == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := bearerToken(r)
		if subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="v1gateway-admin"`)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "the usage report needs Authorization: Bearer <admin token> (V1GW_ADMIN_TOKEN)"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// SetDraining makes /readyz answer 503 from now on.
func (a *Admin) SetDraining() { a.draining.Store(true) }

// Handle adds a handler to the admin port.
func (a *Admin) Handle(pattern string, h http.Handler) { a.mux.Handle(pattern, h) }

// ServeHTTP implements http.Handler.
func (a *Admin) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.mux.ServeHTTP(w, r) }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// labelAnonymous names the keyless /graphql calls (usage.Anonymous) in
// the report, unless the operator named them.
func labelAnonymous(rep *usage.Report) {
	for i := range rep.Keys {
		if k := &rep.Keys[i]; k.KeyID == usage.Anonymous && k.Name == "" {
			k.Name = "keyless /graphql calls (limited per client address)"
		}
	}
}
