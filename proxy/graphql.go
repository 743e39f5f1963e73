package proxy

import (
	"net/http"
	"net/url"
	"strings"
)

// GraphQL pass-through (issue 14, item 8): real v1 clients (runpodctl,
// runpod-mcp) send part of their work to the vendor's GraphQL endpoint,
// <upstream>/graphql, beside v1. The gateway serves POST and GET /graphql
// as a verbatim streaming pass-through to the same upstream host as /v2,
// behind the same layers (body limit, bearer presence, rate limit, circuit
// breaker, request deadline), counted in /usage as operation "graphql", so
// that an operator can point every URL of such a client at the gateway and
// see everything it still does.

// graphQLPath is the GraphQL route, on the gateway and upstream alike.
const graphQLPath = "/graphql"

// queryKeyParam is the query parameter older GraphQL clients send their API
// key in (https://api.runpod.io/graphql?api_key=...).
const queryKeyParam = "api_key"

// withQueryKey moves an API key sent as ?api_key= into the Authorization
// header, and out of the URL: from here on (authentication, key id, rate
// limit, the upstream request, its URL in client spans and error messages)
// the key travels only as a bearer token, as v2 documents it. The access
// log records paths, never queries. The parameter is recognised in any
// spelling a server might accept (isQueryKeyName: percent-encoded, in any
// case, with brackets), so that none is taken for a keyless call and
// forwarded with the key in its URL. A key given twice with different
// values (two api_key parameters, or one that differs from the bearer
// header) is a 400: which one should be charged?
func withQueryKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !mayHoldQueryKey(r.URL.RawQuery) {
			next.ServeHTTP(w, r)
			return
		}
		rest, keys := splitQueryKey(r.URL.RawQuery)
		if keys == nil {
			next.ServeHTTP(w, r)
			return
		}
		key := ""
		for _, k := range keys {
			switch {
			case k == "":
			case key == "":
				key = k
			case k != key:
				writeError(w, r, http.StatusBadRequest, "more than one api_key query parameter: send the key once")
				return
			}
		}
		u := *r.URL
		u.RawQuery = rest
		r2 := r.WithContext(r.Context())
		r2.URL = &u
		r2.RequestURI = u.RequestURI()
		if key != "" && len(r.Header.Values("Authorization")) <= 1 {
			// (Several Authorization headers: withAuth refuses them.)
			if bt := bearerToken(r); bt != "" && bt != key {
				writeError(w, r, http.StatusBadRequest, "the api_key query parameter and the Authorization header name different keys: send one")
				return
			}
			r2.Header = r.Header.Clone()
			r2.Header.Set("Authorization", "Bearer "+key)
		}
		next.ServeHTTP(w, r2)
	})
}

// splitQueryKey removes every api_key parameter from a raw query, keeping
// the other parameters byte for byte and in order. keys are the values
// removed (nil when there was none).
func splitQueryKey(raw string) (rest string, keys []string) {
	found := false
	for part := range strings.SplitSeq(raw, "&") {
		name, _, _ := strings.Cut(part, "=")
		if found = isQueryKeyName(name); found {
			break
		}
	}
	if !found {
		return raw, nil // nothing allocated: most queries hold no key
	}
	var kept []string
	for part := range strings.SplitSeq(raw, "&") {
		name, val, _ := strings.Cut(part, "=")
		if isQueryKeyName(name) {
			v, err := url.QueryUnescape(val)
			if err != nil {
				v = val
			}
			keys = append(keys, v)
			continue
		}
		kept = append(kept, part)
	}
	if keys == nil {
		return raw, nil
	}
	return strings.Join(kept, "&"), keys
}

// mayHoldQueryKey is a cheap first look at a raw query: false when no
// parameter of it can be api_key in any spelling (none is
// percent-encoded, and "api_key" is nowhere in it, in any case).
func mayHoldQueryKey(raw string) bool {
	if raw == "" {
		return false
	}
	if strings.IndexByte(raw, '%') >= 0 {
		return true
	}
	for i := 0; i+len(queryKeyParam) <= len(raw); i++ {
		if strings.EqualFold(raw[i:i+len(queryKeyParam)], queryKeyParam) {
			return true
		}
	}
	return false
}

// isQueryKeyName reports whether a raw query parameter name is api_key in
// any spelling: percent-encoded (api%5Fkey), in any case (API_KEY), with
// brackets (api_key[], api_key[0]), padded with spaces.
func isQueryKeyName(raw string) bool {
	n, err := url.QueryUnescape(raw)
	if err != nil {
		n = raw
	}
	n = strings.TrimSpace(n)
	if i := strings.IndexByte(n, '['); i >= 0 && strings.HasSuffix(n, "]") {
		n = strings.TrimSpace(n[:i])
	}
	return strings.EqualFold(n, queryKeyParam)
}
