package proxy

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/usage"
)

// The migration cockpit's request-path pieces (issue 18): the per-key
// "migrated" override (a 410 naming the v2 route) and the human Warning
// header naming the sunset date. The /usage page itself is usage.WritePage,
// served by the admin port (admin.go).

// withMigratedKeys answers 410 to the keys of config migrated_keys once
// their time has come, naming the v2 route that replaces op: a team that
// has moved to v2 finds its stragglers before the gateway is switched off.
// It runs after auth (the key id is known) and before the rate limit and
// any v2 call.
func (g *Gateway) withMigratedKeys(op *translate.Operation, next http.Handler) http.Handler {
	if len(g.cfg.MigratedKeys) == 0 {
		return next
	}
	msg := migratedMessage(op)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if from, ok := g.cfg.MigratedKeys[KeyIDFrom(r.Context())]; ok && !g.now().Before(from) {
			writeError(w, r, http.StatusGone, msg)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// migratedMessage is the 410 of a migrated key calling op.
func migratedMessage(op *translate.Operation) string {
	return fmt.Sprintf("this API key is marked as migrated to v2: v1 %s /v1%s is no longer served for it; call %s on the v2 API instead",
		op.Method, op.Path, PrimaryV2(op))
}

// PrimaryV2 is the v2 call that replaces op: the first of its v2 calls with
// op's own kind of method (a read for a GET, a write for anything else),
// else its first v2 call ("" for an operation the gateway serves itself).
func PrimaryV2(op *translate.Operation) string {
	read := op.Method == http.MethodGet
	for _, c := range op.V2 {
		if strings.HasPrefix(c, "GET ") == read {
			return c
		}
	}
	if len(op.V2) > 0 {
		return op.V2[0]
	}
	return ""
}

// sunsetWarning is the value of the Warning header (RFC 7234 form, code
// 299: a miscellaneous persistent warning) naming the sunset date.
func sunsetWarning(sunset time.Time, link string) string {
	msg := "the v1 API behind this gateway is switched off on " + sunset.UTC().Format(time.DateOnly) + ": move this client to v2"
	if link != "" {
		msg += " (" + link + ")"
	}
	msg = strings.NewReplacer(`"`, "'", `\`, "/").Replace(msg)
	return `299 v1gateway "` + msg + `"`
}

// DocsBase is where the /usage page links COMPATIBILITY.md (the
// repository's own copy).
const DocsBase = "https://github.com/v1gateway/v1gateway/blob/main/COMPATIBILITY.md"

// compatSections are the COMPATIBILITY.md section anchors of the v1
// resources of the operation table.
var compatSections = map[string]string{
	"pods":                  "pods",
	"endpoints":             "serverless-endpoints",
	"templates":             "templates",
	"networkvolumes":        "network-volumes",
	"containerregistryauth": "container-registry-credentials",
	"billing":               "billing",
}

// pageOps describes every v1 operation of the table for the /usage page:
// its v1 route, its v2 calls (as in the generated OpenAPI document's
// x-v2-calls) and its COMPATIBILITY.md section.
var pageOps = func() map[string]usage.PageOp {
	m := make(map[string]usage.PageOp, len(translate.Operations))
	for i := range translate.Operations {
		op := &translate.Operations[i]
		p := usage.PageOp{Route: op.Method + " /v1" + op.Path, V2: op.V2}
		if a, ok := compatSections[op.Resource]; ok {
			p.Doc = DocsBase + "#" + a
		}
		m[op.Name] = p
	}
	return m
}()

// prefersHTML reports whether the client asked for HTML (a browser):
// text/html named in Accept before any JSON or CSV.
func prefersHTML(r *http.Request) bool {
	for _, part := range strings.Split(strings.Join(r.Header.Values("Accept"), ","), ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		switch strings.ToLower(strings.TrimSpace(mt)) {
		case "text/html", "application/xhtml+xml":
			return true
		case "application/json", "text/csv":
			return false
		}
	}
	return false
}

// pageCSP forbids every external resource and every script: the page is
// inline CSS and inline SVG only.
const pageCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// usagePage serves the migration cockpit: the report as one
// self-contained HTML page.
func (a *Admin) usagePage(w http.ResponseWriter, rep *usage.Report) {
	var buf bytes.Buffer
	err := rep.WritePage(&buf, usage.PageOptions{Ops: pageOps, QuietDays: a.gw.cfg.RetireQuietDays,
		Sunset: a.gw.cfg.Sunset, Migrated: a.gw.cfg.MigratedKeys})
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"message": err.Error()})
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes())
}
