package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/translate"
)

// This file is the door into translate's rooms: a root field runs a v1
// operation's plan, the very one the v1 route runs, through the request's
// Caller, options and fact store, and reads the plan's typed answer
// (Result.Model). The plan's warnings and notes join the GraphQL answer;
// its error becomes a GraphQL error with the plan's message.

// run performs the v1 operation name (translate's operation table) with
// the given path parameters, query and body (a value encoded as the v1
// JSON body; nil: none). A plan's error is returned as a *planError.
func (ec *execCtx) run(name string, params map[string]string, query url.Values, body any) (*translate.Result, error) {
	return ec.runWith(ec.env.Caller, name, params, query, body)
}

// runNoting is run, also telling the status of v2's answer to the plan's
// last v2 call (0: none was answered): a root field whose vendor message
// depends on what v2 said (a delete of what is gone) reads it. Only for
// plans that do not stream (the Caller is wrapped).
func (ec *execCtx) runNoting(name string, params map[string]string, query url.Values, body any) (*translate.Result, int, error) {
	c := &notingCaller{c: ec.env.Caller}
	res, err := ec.runWith(c, name, params, query, body)
	return res, c.last, err
}

// notingCaller is a Caller that keeps the status of its last answer.
type notingCaller struct {
	c    translate.Caller
	last int
}

func (n *notingCaller) Call(ctx context.Context, call translate.V2Call) (*translate.V2Answer, error) {
	a, err := n.c.Call(ctx, call)
	if a != nil {
		n.last = a.Status
	}
	return a, err
}

func (ec *execCtx) runWith(caller translate.Caller, name string, params map[string]string, query url.Values, body any) (*translate.Result, error) {
	op, ok := translate.Lookup(name)
	if !ok || op.Plan == nil {
		return nil, fmt.Errorf("the gateway has no plan for %s", name)
	}
	b := []byte{}
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			return nil, fmt.Errorf("cannot encode the v1 body of %s: %v", name, err)
		}
	}
	req := &translate.Request{Op: op, Params: params, Query: query, Body: b,
		Options: ec.env.Options, Facts: ec.env.Facts, Models: true}
	res := op.Plan(ec.ctx, req, caller)
	if res == nil {
		return nil, fmt.Errorf("%s: the gateway produced no answer", name)
	}
	ec.absorb(res)
	if res.Status >= 300 {
		pe := planErrorOf(op, res)
		if res.Status == http.StatusTooManyRequests && ec.limited == nil {
			// Rate-limited (by v2, or by the key's limit counted in v2
			// calls): the document's other root fields make no call.
			ec.limited = pe
		}
		return nil, pe
	}
	ec.results = append(ec.results, res)
	return res, nil
}

// releaseResults gives back the storage of the plans' models (a pod
// list's: translate.Result.Release) once the answer is written: nothing
// reads them after.
func (ec *execCtx) releaseResults() {
	for _, r := range ec.results {
		r.Release()
	}
	ec.results = nil
}

// absorb takes a plan's warnings, drops, emulation and notes into the
// GraphQL answer: warnings reach the client in extensions.warnings and
// X-Compat-Warning, notes the operator's /usage (P7a).
func (ec *execCtx) absorb(res *translate.Result) {
	for _, w := range res.Warnings {
		ec.addWarning(w + ec.renamed.names.said(ec.renamed.root, w))
	}
	if len(res.Dropped) > 0 {
		// Each drop's note says what was dropped, by which setting
		// (compat_mode lenient or the field's field_policy), and why.
		said := false
		for _, n := range res.Notes {
			if n.Code == translate.CodeLenientDropped {
				ec.addWarning(n.Message + ec.renamed.names.said(ec.renamed.root, n.Message))
				said = true
			}
		}
		if !said {
			ec.addWarning("dropped: " + strings.Join(res.Dropped, ", "))
		}
	}
	if res.Emulated != "" {
		ec.addWarning(res.Emulated + " was emulated")
	}
	ec.out.Notes = append(ec.out.Notes, res.Notes...)
	if res.Status == http.StatusUnauthorized {
		ec.out.Unauthorized = true
	}
	if res.RetryAfter != "" && ec.out.RetryAfter == "" {
		ec.out.RetryAfter = res.RetryAfter
	}
}

// note records a note of the door's own (a refusal, a warning).
func (ec *execCtx) note(code, msg string) {
	ec.out.Notes = append(ec.out.Notes, translate.Note{Code: code, Message: msg})
}

// warn adds a warning to the answer (extensions.warnings, X-Compat-Warning)
// and its note.
func (ec *execCtx) warn(code, msg string) {
	ec.addWarning(msg)
	ec.note(code, msg)
}

// maxWarnings bounds an answer's warnings (P12): past it they are counted.
const maxWarnings = 50

// addWarning adds a warning to the answer, or counts it past maxWarnings.
func (ec *execCtx) addWarning(msg string) {
	if len(ec.out.Warnings) >= maxWarnings {
		ec.moreWarnings++
		return
	}
	ec.out.Warnings = append(ec.out.Warnings, msg)
}

// planError is a plan's error answer, as a GraphQL error: the v1 message,
// and in extensions the HTTP status v1 would have answered and the v1
// operation that ran (none for a read no v1 operation makes: the catalog).
type planError struct {
	status  int
	message string
	op      string
	// code, when set, is extensions.code (else errorCode of status): the
	// vendor's own code where clients compare it.
	code string
}

func (e *planError) Error() string { return e.message }

// Extensions are the error's GraphQL extensions.
func (e *planError) Extensions() map[string]any {
	code := e.code
	if code == "" {
		code = ErrorCode(e.status)
	}
	ext := map[string]any{"code": code, "status": e.status}
	if e.op != "" {
		ext["v1Operation"] = e.op // "": a read no v1 operation makes (helpers.go)
	}
	return ext
}

// planErrorOf is the GraphQL error of a failed answer of op (nil: a read
// of the door's own, translate/catalog.go).
func planErrorOf(op *translate.Operation, res *translate.Result) *planError {
	var body struct {
		Message string `json:"message"`
	}
	msg := http.StatusText(res.Status)
	if json.Unmarshal(res.Body, &body) == nil && body.Message != "" {
		msg = body.Message
	}
	translate.ReleaseBody(res.Body)
	msg = retryWords(res.Status, msg)
	name := ""
	if op != nil {
		name = op.Name
	}
	return &planError{status: res.Status, message: msg, op: name}
}

// retryWords puts the vendor's words for a failure worth retrying before
// msg when it has none of them: runpod-flash retries a query whose error
// says "too many requests", "service unavailable" (among others), in any
// case, and gives up on any other (docs/graphql.md).
func retryWords(status int, msg string) string {
	var words string
	switch status {
	case http.StatusTooManyRequests:
		words = "too many requests"
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		words = "service unavailable"
	default:
		return msg
	}
	low := strings.ToLower(msg)
	for _, w := range []string{"too many requests", "service unavailable", "temporarily unavailable", "try again later", "internal server error"} {
		if strings.Contains(low, w) {
			return msg
		}
	}
	return words + ": " + msg
}

// ErrorCode names an HTTP status the way GraphQL servers' extensions.code
// usually do: the door's codes for a plan's answer, which the proxy's own
// GraphQL-shaped errors share.
func ErrorCode(status int) string {
	switch {
	case status == http.StatusBadRequest:
		return "BAD_USER_INPUT"
	case status == http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case status == http.StatusForbidden:
		return "FORBIDDEN"
	case status == http.StatusNotFound:
		return "NOT_FOUND"
	case status == http.StatusTooManyRequests:
		return "RATE_LIMITED"
	case status >= 500:
		return "UPSTREAM_ERROR"
	}
	return "ERROR"
}

// codedError is an error of the door's own with its GraphQL
// extensions.code: NOT_SUPPORTED_BY_V2 for a root field or input v2
// cannot do (P1, P11; counted in /usage as graphql_refused, by refuse),
// UNAUTHENTICATED for one asked without the API key it needs (what is
// missing is the key, not something v2 cannot do; not counted).
type codedError struct{ msg, code string }

func (e *codedError) Error() string { return e.msg }

// Extensions are the error's GraphQL extensions.
func (e *codedError) Extensions() map[string]any {
	return map[string]any{"code": e.code}
}

// refuse records and returns a refusal.
func (ec *execCtx) refuse(format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	ec.note(CodeRefused, msg)
	ec.out.Refused = true
	return &codedError{msg, "NOT_SUPPORTED_BY_V2"}
}

// errNeedsKey is the answer to a root field that needs an API key, asked
// without one.
func errNeedsKey(field string) error {
	return &codedError{field + " needs an API key: send it as Authorization: Bearer <key>", "UNAUTHENTICATED"}
}

// errNoPublicKey is the answer to a public catalog field asked without a
// key when no graphql_public_key is set to answer it with.
func errNoPublicKey(field string) error {
	return &codedError{field + " was sent without an API key: the gateway answers keyless catalog queries only with graphql_public_key set (V1GW_GRAPHQL_PUBLIC_KEY); or send your key as Authorization: Bearer <key>", "UNAUTHENTICATED"}
}

// unanswered records that a selected field has no v2 source and was
// answered null; the answer names all of them once (finish).
func (ec *execCtx) unanswered(typ, field string) (any, error) {
	if name := (typeField{typ, field}); !slices.Contains(ec.nulls, name) {
		ec.nulls = append(ec.nulls, name)
	}
	return nil, nil
}

// typeField names a field of a type (Pod.machineId) without building the
// string for every pod.
type typeField struct{ typ, field string }

// finish adds the door's summary warnings once the operation ran.
func (ec *execCtx) finish() {
	defer func() {
		if ec.moreWarnings > 0 {
			ec.out.Warnings = append(ec.out.Warnings, fmt.Sprintf("and %d more warnings", ec.moreWarnings))
		}
	}()
	if len(ec.nulls) > 0 {
		names := make([]string, len(ec.nulls))
		for i, n := range ec.nulls {
			names[i] = n.typ + "." + n.field
		}
		sort.Strings(names)
		ec.warn(CodeFieldsUnanswered, "fields v2 has no source for were answered null: "+strings.Join(names, ", "))
	}
}

// Note codes of the door's own notes (translate.NoteCodes lists them with
// the others).
const (
	CodeRefused          = translate.CodeGraphQLRefused
	CodeFieldsUnanswered = translate.CodeGraphQLFieldsUnanswered
)

// selects reports whether f's selection set selects a field named name,
// directly or through fragments, at any depth below f.
func (ec *execCtx) selects(f *ast.Field, name string) bool {
	return ec.selectsIn(f.SelectionSet, name, 0)
}

func (ec *execCtx) selectsIn(set ast.SelectionSet, name string, depth int) bool {
	if depth > 16 {
		return false
	}
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == name || ec.selectsIn(s.SelectionSet, name, depth+1) {
				return true
			}
		case *ast.InlineFragment:
			if ec.selectsIn(s.SelectionSet, name, depth+1) {
				return true
			}
		case *ast.FragmentSpread:
			def := s.Definition
			if def == nil {
				def = ec.doc.Fragments.ForName(s.Name)
			}
			if def != nil && ec.selectsIn(def.SelectionSet, name, depth+1) {
				return true
			}
		}
	}
	return false
}
