package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/graphql"
	"github.com/v1gateway/v1gateway/translate"
)

// The GraphQL front door (P11): /graphql answered by graphql_mode.
// passthrough forwards to the vendor's GraphQL (graphql.go); translate
// answers from v2 through package graphql, which runs translate's plans;
// auto forwards until the vendor answers 410 Gone, then translates, and
// keeps translating for graphql_auto_hold before it forwards again. The
// layers before it are the pass-through's: body limit, a bearer token or
// none (an anonymous call, anonymous.go), rate limit per key or per client
// address.

// graphqlOp stands for the door in the upstream caller (its v2 calls are
// made by the plans of v1 operations, each under its own name in logs).
var graphqlOp = &translate.Operation{Name: opGraphQL, Resource: "graphql"}

// graphqlFront answers /graphql by the configured mode; forward is the
// pass-through.
func (g *Gateway) graphqlFront(forward http.Handler) http.Handler {
	if g.door == nil || g.cfg.GraphQLMode == "passthrough" {
		return forward
	}
	if g.cfg.GraphQLMode == "translate" {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { g.serveDoor(w, r, nil) })
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.gqlGone.holding(g.now()) {
			g.serveDoor(w, r, nil)
			return
		}
		// The body is kept, so that a request the vendor answers 410 is
		// answered by the door (it is at most MaxBodyBytes).
		body, ok := readRequestBody(w, r)
		if !ok {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		gw := &goneCatcher{w: w, h: http.Header{}}
		forward.ServeHTTP(gw, r)
		if !gw.gone {
			return
		}
		g.gqlGone.mark(g.now().Add(g.cfg.GraphQLAutoHold))
		g.log.Warn().Str("request_id", RequestID(r.Context())).Dur("hold", g.cfg.GraphQLAutoHold).
			Msg("the vendor's GraphQL answered 410 Gone: /graphql is answered from v2 (graphql_mode auto)")
		g.serveDoor(w, r, body)
	})
}

// goneHold is when auto mode may forward again (unix nanoseconds; 0:
// never held), shared by the requests of one gateway.
type goneHold struct{ until atomic.Int64 }

func (h *goneHold) holding(now time.Time) bool { return now.UnixNano() < h.until.Load() }
func (h *goneHold) mark(until time.Time)       { h.until.Store(until.UnixNano()) }

// goneCatcher passes an answer through, unless its status is 410 Gone: then
// nothing of it reaches the client, and gone is set. Headers are kept apart
// until the status is known.
type goneCatcher struct {
	w           http.ResponseWriter
	h           http.Header
	wroteHeader bool
	gone        bool
}

func (c *goneCatcher) Header() http.Header { return c.h }

func (c *goneCatcher) WriteHeader(code int) {
	if c.wroteHeader {
		return
	}
	c.wroteHeader = true
	if code == http.StatusGone {
		c.gone = true
		return
	}
	dst := c.w.Header()
	for k, v := range c.h {
		dst[k] = v
	}
	c.w.WriteHeader(code)
}

func (c *goneCatcher) Write(p []byte) (int, error) {
	if !c.wroteHeader {
		c.WriteHeader(http.StatusOK)
	}
	if c.gone {
		return len(p), nil
	}
	return c.w.Write(p)
}

// Flush passes a streamed answer on (httputil.ReverseProxy flushes).
func (c *goneCatcher) Flush() {
	if c.wroteHeader && !c.gone {
		_ = http.NewResponseController(c.w).Flush()
	}
}

// readRequestBody reads the request body whole; a failure is answered (false).
func readRequestBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if r.Body == nil || r.Body == http.NoBody {
		return []byte{}, true
	}
	b, err := io.ReadAll(r.Body)
	if err == nil {
		return b, true
	}
	var mbe *http.MaxBytesError
	var cbe *ClientBodyError
	switch {
	case errors.As(err, &mbe):
		writeError(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds the limit of %d bytes", MaxBodyBytes))
	case errors.As(err, &cbe) && cbe.Timeout:
		w.Header().Set("Connection", "close")
		writeError(w, r, http.StatusRequestTimeout, cbe.Error())
	default:
		writeError(w, r, http.StatusBadRequest, "cannot read the request body: "+err.Error())
	}
	return nil, false
}

// serveDoor answers a GraphQL request from v2. body is the request body
// when it was read already (auto mode), nil to read it.
func (g *Gateway) serveDoor(w http.ResponseWriter, r *http.Request, body []byte) {
	if body == nil && r.Method == http.MethodPost {
		var ok bool
		if body, ok = readRequestBody(w, r); !ok {
			return
		}
	}
	req, err := graphQLRequest(r, body)
	if err != nil {
		writeError(w, r, http.StatusBadRequest, err.Error())
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), g.cfg.RequestTimeout)
	defer cancel()
	info := infoFrom(r.Context())
	auth := headerValue(r.Header, "Authorization")
	env := &graphql.Env{
		Options: translate.Options{
			Lenient:         g.cfg.CompatMode == "lenient",
			ResetRestart:    g.cfg.ResetMode == "restart",
			Now:             g.now,
			DefaultGPUTypes: g.cfg.DefaultGPUTypes,
			FieldPolicy:     g.cfg.FieldPolicy,
		},
		Facts: g.factsForPlans(),
		KeyID: KeyIDFrom(r.Context()),
	}
	if Anonymous(r.Context()) {
		// A keyless call (withKeyOrAnonymous): the public key, if any.
		env.Anonymous = true
		env.KeyID = ""
		if g.cfg.GraphQLPublicKey != "" {
			auth = "Bearer " + g.cfg.GraphQLPublicKey
		} else {
			env.NoPublicKey = true
		}
	}
	caller := &upstreamCaller{op: graphqlOp, up: g.upstream, cache: g.catalog, authorization: auth, requestID: RequestID(r.Context()), budget: g.budget}
	if m := g.newCallMeter(r.Context()); m != nil {
		caller.admit = m.admit
	}
	defer caller.releaseBudget()
	env.Caller = caller
	resp := g.door.Execute(ctx, env, req)
	if info != nil {
		info.setNotes(resp.Notes)
		info.graphqlFields = resp.Fields
	}
	h := w.Header()
	if len(resp.Warnings) > 0 {
		h.Set("X-Compat-Warning", compatWarningHeader(resp.Warnings))
	}
	if resp.RetryAfter != "" {
		h.Set("Retry-After", resp.RetryAfter)
	}
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	status := http.StatusOK
	if resp.Unauthorized {
		// v2 refused the key: the vendor's 401, which clients read as
		// invalid credentials (the body keeps the GraphQL errors).
		status = http.StatusUnauthorized
	}
	w.WriteHeader(status)
	_, _ = w.Write(resp.Body)
	graphql.ReleaseBody(resp.Body)
	caller.release()
}

// graphQLRequest reads a GraphQL-over-HTTP request: POST with a JSON body
// {"query", "variables", "operationName"}, or GET with those as query
// parameters (queries only).
func graphQLRequest(r *http.Request, body []byte) (graphql.Request, error) {
	var raw struct {
		Query         string          `json:"query"`
		OperationName string          `json:"operationName"`
		Variables     json.RawMessage `json:"variables"`
	}
	out := graphql.Request{}
	if r.Method == http.MethodGet {
		q := r.URL.Query()
		raw.Query, raw.OperationName = q.Get("query"), q.Get("operationName")
		if v := q.Get("variables"); v != "" {
			if _, err := duplicateKey([]byte(v)); err != nil {
				return out, err
			}
			raw.Variables = json.RawMessage(v)
		}
		out.QueryOnly = true
	} else {
		if _, err := duplicateKey(body); err != nil {
			return out, err
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		if err := dec.Decode(&raw); err != nil {
			return out, fmt.Errorf("the request body is not a GraphQL request ({\"query\": ...}): %v", err)
		}
	}
	if raw.Query == "" {
		return out, errors.New("no query: send {\"query\": \"...\"} (POST) or ?query= (GET)")
	}
	out.Query, out.OperationName = raw.Query, raw.OperationName
	if len(raw.Variables) > 0 && string(raw.Variables) != "null" {
		dec := json.NewDecoder(bytes.NewReader(raw.Variables))
		dec.UseNumber()
		if err := dec.Decode(&out.Variables); err != nil {
			return out, fmt.Errorf("variables: not a JSON object: %v", err)
		}
	}
	return out, nil
}

// graphQLLimits are the door's document limits, from the settings
// graphql_max_* (P12).
func graphQLLimits(c *config.Config) graphql.Limits {
	return graphql.Limits{MaxTokens: c.GraphQLMaxTokens, MaxDepth: c.GraphQLMaxDepth, MaxAliases: c.GraphQLMaxAliases,
		MaxRootFields: c.GraphQLMaxRootFields, MaxFields: c.GraphQLMaxFields, MaxSpreads: c.GraphQLMaxFragmentSpreads}
}

// maxCompatWarningBytes bounds the X-Compat-Warning of a GraphQL answer.
const maxCompatWarningBytes = 2048

// compatWarningHeader is the one X-Compat-Warning of a GraphQL answer
// (P12): its warnings joined by "; ", at most maxCompatWarningBytes of
// them, then how many there are (all are in extensions.warnings). One
// header per warning made 1,000 aliases 1,000 headers (231 KB), past
// Python's http.client limit of 100.
func compatWarningHeader(ws []string) string {
	var b strings.Builder
	shown := 0
	for _, w := range ws {
		w = asciiHeaderValue(w)
		if b.Len()+len(w)+2 > maxCompatWarningBytes {
			break
		}
		if shown > 0 {
			b.WriteString("; ")
		}
		b.WriteString(w)
		shown++
	}
	if shown < len(ws) {
		if shown > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "(%d warnings, %d shown: all are in the answer's extensions.warnings)", len(ws), shown)
	}
	return b.String()
}
