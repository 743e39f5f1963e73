package proxy

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gorilla/mux"
)

// allowMethods are the methods the v1 surface and the pass-through use.
var allowMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// allowedMethods lists the methods m routes for r's path, for the Allow
// header of a 405 (RFC 9110 §15.5.6).
func allowedMethods(m *mux.Router, r *http.Request) string {
	var out []string
	for _, method := range allowMethods {
		r2 := r.Clone(r.Context())
		r2.Method = method
		var match mux.RouteMatch
		if m.Match(r2, &match) && match.MatchErr == nil {
			out = append(out, method)
		}
	}
	return strings.Join(out, ", ")
}

// AnswerTooLargeError is an upstream answer over Upstream.MaxBody: the
// gateway stops reading at the limit, so it never buffers more, and the
// client gets a 502 saying why (translate.FromCallError).
type AnswerTooLargeError struct{ Limit int64 }

func (e *AnswerTooLargeError) Error() string {
	return fmt.Sprintf("upstream answer larger than %d bytes", e.Limit)
}

// AnswerTooLarge returns the limit that was exceeded.
func (e *AnswerTooLargeError) AnswerTooLarge() int64 { return e.Limit }
