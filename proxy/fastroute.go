package proxy

import (
	"net/http"
	"strings"
)

// v1Routes finds the v1 route of a request without gorilla/mux's regular
// expressions, and without the two request copies (route and vars in the
// context) mux makes for every match. It decides exactly as the router
// does, and only where that is easy to be sure of: every v1 route is a
// path template of literal segments and whole-segment variables with
// mux's default pattern ([^/]+) and one method, matched (UseEncodedPath,
// SkipClean) against the escaped path; mux takes the first route, in
// registration order, that matches both. A request that no route matches
// is left to mux, which answers it (404, 405 with Allow) as before.
type v1Routes struct {
	routes []v1Route
}

type v1Route struct {
	method string
	// segs are the segments after "/v1/"; a variable's is "" and its
	// name is in names at the same index.
	segs  []string
	names []string
	nvars int
	h     http.Handler
}

// maxPathVars bounds the variables of a route the fast matcher handles
// (reqInfo holds them without allocating).
const maxPathVars = 2

// add registers a route, in the router's order. It returns false (and
// the caller gives up on the fast matcher) for a template it does not
// handle.
func (v *v1Routes) add(method, template string, h http.Handler) bool {
	rest, ok := strings.CutPrefix(template, "/v1/")
	if !ok || method == "" || strings.ToUpper(method) != method {
		return false
	}
	r := v1Route{method: method, h: h}
	for seg := range strings.SplitSeq(rest, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			name, ok = strings.CutSuffix(name, "}")
			if !ok || !plainName(name) {
				return false // a pattern ({id:[0-9]+}) or a partial variable
			}
			r.segs = append(r.segs, "")
			r.names = append(r.names, name)
			r.nvars++
			continue
		}
		if seg == "" || strings.ContainsAny(seg, "{}") {
			return false
		}
		r.segs = append(r.segs, seg)
		r.names = append(r.names, "")
	}
	if r.nvars > maxPathVars {
		return false
	}
	v.routes = append(v.routes, r)
	return true
}

func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// match returns the handler of the route mux would choose for method and
// the escaped path, with its variables (name, value pairs, values as they
// appear in the path) appended to vars; nil when no route matches both.
func (v *v1Routes) match(method, path string, vars []string) (http.Handler, []string) {
	i, vars := v.matchIndex(method, path, vars)
	if i < 0 {
		return nil, vars
	}
	return v.routes[i].h, vars
}

// matchIndex is match giving the index of the route (-1: none).
func (v *v1Routes) matchIndex(method, path string, vars []string) (int, []string) {
	rest, ok := strings.CutPrefix(path, "/v1/")
	if !ok {
		return -1, vars
	}
	n := strings.Count(rest, "/") + 1
	for i := range v.routes {
		r := &v.routes[i]
		if r.method != method || len(r.segs) != n {
			continue
		}
		if matchSegs(r, rest) {
			for j, seg := 0, rest; j < len(r.segs); j++ {
				var s string
				s, seg, _ = strings.Cut(seg, "/")
				if r.segs[j] == "" {
					vars = append(vars, r.names[j], s)
				}
			}
			return i, vars
		}
	}
	return -1, vars
}

// matchSegs reports whether the segments of rest (as many as r has) are
// r's: its literals as they are, a non-empty segment for each variable.
func matchSegs(r *v1Route, rest string) bool {
	for _, lit := range r.segs {
		seg, after, _ := strings.Cut(rest, "/")
		rest = after
		if lit == "" {
			if seg == "" {
				return false
			}
		} else if seg != lit {
			return false
		}
	}
	return true
}
