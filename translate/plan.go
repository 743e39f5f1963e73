package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/v1gateway/v1gateway/podjson"
)

// A v1 operation is performed by its plan: a function that turns the v1
// request into v2 calls, made in order through a Caller, and folds their
// answers into the v1 answer. Plans do no I/O of their own — every call goes
// through the Caller — so each one is tested with a scripted Caller and no
// network (see plan_test.go), and multi-call operations (create + lock,
// candidate loops, GET-before-PATCH, include* expansions) stay readable in
// one place.

// V2Call is one request to v2. Path is escaped and starts with /v2/; build it
// with V2Path so that ids are always percent-encoded.
type V2Call struct {
	Method string
	Path   string
	Query  url.Values
	Body   []byte // JSON, nil for none
}

// V2Answer is one HTTP answer of v2, fully read. An answer may be shared
// between requests (the proxy's catalog cache hands the same *V2Answer to
// every request for a while): nobody writes its fields once a Caller has
// returned it, and it is not copied (it holds a mutex), so that what was
// decoded from it (decoded, answermemo.go) travels with it.
type V2Answer struct {
	Status int
	Header http.Header
	Body   []byte

	// memo keeps the forms decoded from Body (decoded).
	memo answerMemo
}

// OK reports a 2xx status.
func (a *V2Answer) OK() bool { return a.Status >= 200 && a.Status < 300 }

// Caller makes v2 calls. Call returns an error only when no HTTP answer was
// obtained (connection refused, timeout, breaker open); every HTTP status,
// including 5xx, is an answer.
type Caller interface {
	Call(ctx context.Context, c V2Call) (*V2Answer, error)
}

// Options are the gateway settings plans depend on.
type Options struct {
	Lenient      bool             // V1GW_COMPAT_MODE=lenient: drop untranslatable fields instead of rejecting
	ResetRestart bool             // V1GW_RESET_MODE=restart: emulate reset
	Now          func() time.Time // nil: time.Now
	// DefaultGPUTypes (V1GW_DEFAULT_GPU_TYPES) narrows the GPU types the
	// gateway chooses from for a GPU pod or endpoint created without
	// gpuTypeIds; the
	// list's order breaks availability ties (instead of the price). nil:
	// every v1 GPU type, ties broken by the lower price.
	DefaultGPUTypes []string
	// FieldPolicy (V1GW_FIELD_POLICY, field_policy) overrides Lenient for
	// single fields of PolicyFields: FieldPolicyRefuse or FieldPolicyDrop
	// (fieldpolicy.go). nil: Lenient decides for every field.
	FieldPolicy map[string]string
}

// Request is a v1 request as the gateway received it.
type Request struct {
	Op      *Operation
	Params  map[string]string // v1 path parameters, percent-decoded
	Query   url.Values
	Body    []byte
	Options Options
	// Facts is the gateway's fact store (facts.go, P8); nil: none, answers
	// carry only what v2 gives.
	Facts Facts
	// Models is set by a caller that reads Result.Model, not the v1 JSON
	// (the GraphQL door, models.go): GET /pods then gives its models
	// instead of a streamed list.
	Models bool
}

// Result is the v1 answer a plan produced.
type Result struct {
	Status int
	Body   []byte // JSON; nil for none (204)
	// Headers the gateway adds to say what it did beyond a plain translation.
	Warnings   []string // X-Compat-Warning: something the client asked for was not (fully) applied
	Dropped    []string // X-Compat-Dropped: fields dropped in lenient mode
	Emulated   string   // X-Compat-Emulated: an operation v2 lacks, emulated
	RetryAfter string   // Retry-After of a 429
	// Notes carry a stable code for each warning, drop, emulation and
	// refusal above (notes.go), for /usage and metrics (P7a).
	Notes []Note
	// Model is the answer as typed values (models.go), for the GraphQL
	// door; nil for answers without a body, and for errors.
	Model any
	// Calls lists the v2 calls made ("GET /v2/pods -> 200"), for the access log.
	Calls []string
	// Stream, when set (with Status 200 and no Body), writes the body to w
	// (podliststream.go): the status is committed with its first Write. It
	// returns nil when done, or the answer to give when it failed: the
	// caller gives it if nothing was written yet, and otherwise aborts the
	// connection so that the truncated body cannot pass for a whole one.
	Stream func(w io.Writer) *Result

	// release gives back the pooled storage Model lives in (Release).
	release func()
}

// Release gives back the storage of r's Model once nothing reads the model
// any more (a pod list's models live in pooled storage; podListStorage).
// It is safe on any Result, and more than once.
func (r *Result) Release() {
	if r == nil || r.release == nil {
		return
	}
	f := r.release
	r.release = nil
	f()
}

// ReleaseBody gives back the Body of a Result once it has been written and
// is no longer used, so that its buffer serves another answer: pod answers
// are built in pooled buffers (podjson.PooledBody). Bodies that were not
// built in a pooled buffer are ignored.
func ReleaseBody(b []byte) { podjson.ReleaseBody(b) }

// PlanFunc performs a v1 operation.
type PlanFunc func(ctx context.Context, req *Request, c Caller) *Result

// V2Path builds an escaped v2 path: each %s in format is replaced by the
// corresponding id, percent-encoded as one path segment (P9).
func V2Path(format string, ids ...string) string {
	var b strings.Builder
	n := len(format)
	for _, id := range ids {
		n += len(id) // escaping may add more; plain ids (the rule) fit
	}
	b.Grow(n)
	i := 0
	for j := 0; j < len(format); j++ {
		if format[j] == '%' && j+1 < len(format) && format[j+1] == 's' && i < len(ids) {
			b.WriteString(url.PathEscape(ids[i]))
			i++
			j++
			continue
		}
		b.WriteByte(format[j])
	}
	return b.String()
}

// ValidID reports whether a v1 path id (percent-decoded once) can be
// forwarded into a v2 path without addressing another route (P9): not
// empty, not a dot segment, at most 191 bytes, valid UTF-8, no control
// characters, no slash or backslash (no v2 id has one, and a server that
// decodes %2F or treats \ as / would route it elsewhere).
func ValidID(id string) bool {
	if id == "" || id == "." || id == ".." || len(id) > 191 || !utf8.ValidString(id) {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c < 0x20 || c == 0x7f || c == '/' || c == '\\' {
			return false
		}
	}
	return true
}

// Errorf-style constructors of v1 answers.

// Fail is a v1 error answer the gateway raises itself.
func Fail(status int, msg string) *Result {
	return &Result{Status: status, Body: EncodeV1Error(msg)}
}

// FromV2Error turns a v2 error answer into the v1 answer the operation
// documents (P5): status per V1Status, message from the problem body,
// Retry-After kept on 429.
func FromV2Error(op *Operation, a *V2Answer) *Result {
	resource := ""
	if op != nil {
		resource = op.Resource
	}
	r := Fail(V1Status(op, a.Status), problemMessage(resource, a.Body, a.Status))
	if a.Status == http.StatusTooManyRequests && a.Header != nil {
		r.RetryAfter = a.Header.Get("Retry-After")
	}
	return r
}

// FromCallError is the v1 answer when v2 gave no HTTP answer at all.
func FromCallError(err error) *Result {
	var ue interface{ Unavailable() bool }
	var tl interface{ AnswerTooLarge() int64 }
	var ol interface{ Overloaded() bool }
	switch {
	case errors.As(err, &ol) && ol.Overloaded():
		r := Fail(http.StatusServiceUnavailable, "the gateway is overloaded (the v2 answers of the requests in flight fill its memory budget); try again shortly")
		r.RetryAfter = "1"
		return r
	case errors.As(err, &tl):
		return Fail(http.StatusBadGateway, fmt.Sprintf("the v2 answer is larger than the gateway's limit of %d bytes", tl.AnswerTooLarge()))
	case errors.Is(err, context.DeadlineExceeded):
		return Fail(http.StatusGatewayTimeout, "upstream v2 API did not answer in time")
	case errors.As(err, &ue) && ue.Unavailable():
		return Fail(http.StatusServiceUnavailable, "upstream unavailable")
	default:
		return Fail(http.StatusBadGateway, "upstream v2 API unreachable")
	}
}

// callV2 makes one v2 call and returns its answer, or the v1 answer when
// the call failed (no answer, or a v2 error).
func callV2(ctx context.Context, req *Request, c Caller, method, path string, v any) (*V2Answer, *Result) {
	a, err := podCall(ctx, c, method, path, nil, v)
	if err != nil {
		return nil, FromCallError(err)
	}
	if !a.OK() {
		return nil, FromV2Error(req.Op, a)
	}
	return a, nil
}

// decodeV2 decodes a v2 answer body, or returns the 502 saying it could not.
func decodeV2[T any](a *V2Answer, what string) (*T, *Result) {
	v := new(T)
	if err := json.Unmarshal(a.Body, v); err != nil {
		return nil, Fail(http.StatusBadGateway, "the v2 API answered with "+what+" the gateway cannot read: "+err.Error())
	}
	return v, nil
}

// readCatalog decodes a v2 catalog answer (a, err: a Caller's result). When
// it cannot, failure says why ("" when read): for plans that go on without
// the catalog, e.g. trying candidates in the client's order. The catalog is
// decoded once per answer (decodeShared) and is read-only.
func readCatalog[T any](a *V2Answer, err error, what string) (cat *T, failure string) {
	switch {
	case err != nil:
		return nil, err.Error()
	case !a.OK():
		return nil, ProblemMessage(a.Body, a.Status)
	}
	cat, r := decodeShared[T](a, what)
	if r != nil {
		return nil, "unreadable answer"
	}
	return cat, ""
}

// getV2 reads one v2 resource at path (built with V2Path) and decodes it;
// what names it in the 502 for an answer it cannot decode ("an endpoint").
// A v2 error, 404 included, becomes the v1 answer the operation documents.
func getV2[T any](ctx context.Context, req *Request, c Caller, path, what string) (*T, *Result) {
	a, r := callV2(ctx, req, c, http.MethodGet, path, nil)
	if r != nil {
		return nil, r
	}
	return decodeV2[T](a, what)
}

// JSON is a successful v1 answer with v as its JSON body.
func JSON(status int, v any) *Result {
	b, err := json.Marshal(v)
	if err != nil {
		return Fail(http.StatusInternalServerError, "cannot encode the answer: "+err.Error())
	}
	return &Result{Status: status, Body: b, Model: v}
}
