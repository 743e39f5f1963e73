package proxy

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/v1gateway/v1gateway/translate"
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
