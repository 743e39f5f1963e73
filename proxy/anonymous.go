package proxy

import (
	"context"
	"fmt"
	"net"
	"net/http"

	"github.com/v1gateway/v1gateway/usage"
)

// Keyless GraphQL (issue 29 item 7). runpod-mcp sends its catalog queries
// (GPU types, data centers, hub listings, public endpoint configs) to the
// vendor's GraphQL endpoint without any key, and the vendor answers them.
// On /graphql — and only there: /v1 and /v2 always need a key — a request
// without an Authorization header is anonymous: it is passed through as it
// came (with no Authorization upstream), limited per client address by
// anonymous_rate_limit_per_minute in a bucket of its own, never a key's,
// and counted in /usage under the key id usage.Anonymous.
//
// The client address is the TCP peer of the connection (r.RemoteAddr),
// never X-Forwarded-For, which any client can write: behind a reverse
// proxy or load balancer every client is that proxy's address, and shares
// one anonymous bucket.
//
// The mark is the request's: Anonymous(ctx) reports it, and
// KeyIDFrom(ctx) is usage.Anonymous. A GraphQL front door mounted
// behind withKeyOrAnonymous reads the same mark to answer keyless public
// queries and to refuse what needs a key.

// ctxAnonymous marks an anonymous request when the context carries no
// reqInfo (its value is the rate-limit key).
const ctxAnonymous ctxKey = iota + 100

// Anonymous reports whether the request of ctx is a keyless /graphql call
// (withKeyOrAnonymous).
func Anonymous(ctx context.Context) bool { return anonymousKey(ctx) != "" }

// anonymousKey is the rate-limit key of an anonymous request, "" for any
// other: "anon:" and the hashed client address, so that it can never be a
// key id (32 hex digits) and never share a key's bucket.
func anonymousKey(ctx context.Context) string {
	if i := infoFrom(ctx); i != nil && i.anonKey != "" {
		return i.anonKey
	}
	s, _ := ctx.Value(ctxAnonymous).(string)
	return s
}

// clientAddr is the host of the request's TCP peer.
func clientAddr(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// withKeyOrAnonymous is withAuth for /graphql: a request with an
// Authorization header is checked by withAuth (a header that is not a
// bearer token is a 401, not anonymous); one without is anonymous — or,
// with anonymous_rate_limit_per_minute 0, a 401 naming that setting.
func (g *Gateway) withKeyOrAnonymous(next http.Handler) http.Handler {
	auth := g.withAuth(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header["Authorization"]) > 0 {
			auth.ServeHTTP(w, r)
			return
		}
		if g.cfg.AnonymousRateLimitPerMinute <= 0 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="v1gateway"`)
			writeError(w, r, http.StatusUnauthorized, "missing API key: send it as Authorization: Bearer <key> (keyless /graphql calls are refused here: anonymous_rate_limit_per_minute is 0)")
			return
		}
		// The address is hashed like a key (never stored or logged as it
		// is), in a namespace of its own.
		key := "anon:" + g.keyIDs.get(fmt.Sprintf("graphql-anonymous:%s", clientAddr(r)))
		if i := infoFrom(r.Context()); i != nil {
			i.keyID, i.anonKey = usage.Anonymous, key
			next.ServeHTTP(w, r)
			return
		}
		ctx := context.WithValue(context.WithValue(r.Context(), ctxKeyID, usage.Anonymous), ctxAnonymous, key)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
