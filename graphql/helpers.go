package graphql

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/translate"
)

// Helpers the resource resolvers share: the reads no v1 operation makes
// (translate/catalog.go: the GPU catalog, the SSH keys), what an
// operation reads once (memo), and the names a v1 plan's error gives the
// fields a GraphQL input called otherwise.

// readRequest is the request a read of translate/catalog.go runs with:
// the request's options and fact store, and no v1 operation.
func (ec *execCtx) readRequest() *translate.Request {
	return &translate.Request{Options: ec.env.Options, Facts: ec.env.Facts, Models: true}
}

// readFailed is the GraphQL error of such a read's failed answer: its
// message and the HTTP status v1 would have given, as a plan's.
func (ec *execCtx) readFailed(what string, res *translate.Result) error {
	ec.absorb(res)
	var body struct {
		Message string `json:"message"`
	}
	msg := http.StatusText(res.Status)
	if json.Unmarshal(res.Body, &body) == nil && body.Message != "" {
		msg = body.Message
	}
	return &planError{status: res.Status, message: retryWords(res.Status, what+": "+msg)}
}

// fieldNames pairs a GraphQL input field with the v1 field the door
// sends it as, when the names differ (locations → dataCenterIds).
type fieldNames []struct{ graphql, v1 string }

// of is the pairs of names whose GraphQL input in holds: what a plan says
// of those v1 fields is said of what the client sent.
func (names fieldNames) of(in input) fieldNames {
	var out fieldNames
	for _, n := range names {
		if in.has(n.graphql) {
			out = append(out, n)
		}
	}
	return out
}

// said is what msg, a plan's message, needs after it to say which GraphQL
// input each v1 field it names was: " (root's g is v1's v; ...)", or "".
func (names fieldNames) said(root, msg string) string {
	var said []string
	for _, n := range names {
		if strings.Contains(msg, n.v1+":") || strings.Contains(msg, n.v1+" ") {
			said = append(said, root+"'s "+n.graphql+" is v1's "+n.v1)
		}
	}
	if len(said) == 0 {
		return ""
	}
	return " (" + strings.Join(said, "; ") + ")"
}

// explain adds to a plan's 400 the GraphQL name of each v1 field its
// message names: the plan speaks v1, the client sent GraphQL.
func (names fieldNames) explain(root string, err error) error {
	pe, ok := err.(*planError)
	if !ok || pe.status != http.StatusBadRequest {
		return err
	}
	pe.message += names.said(root, pe.message)
	return pe
}

// renamed is a root field and the inputs it sends its plan under v1 names.
type renamed struct {
	root  string
	names fieldNames
}

// runNamed is run for root, whose inputs names sends under their v1 names
// (names.of the input: only those the client sent): the plan's 400 and its
// warnings (a soft constraint accepted, P1) say which input each v1 field
// they name was, as the client knows it.
func (ec *execCtx) runNamed(root string, names fieldNames, name string, params map[string]string, body any) (*translate.Result, error) {
	ec.renamed = renamed{root, names}
	defer func() { ec.renamed = renamed{} }()
	res, err := ec.run(name, params, nil, body)
	return res, names.explain(root, err)
}

// inputError is an input the door cannot send on: a value GraphQL's
// schema admits but the field's meaning does not (an unknown GPU pool, an
// instance id without its vCPU count). It names the field.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

// Extensions are the error's GraphQL extensions.
func (e *inputError) Extensions() map[string]any {
	return map[string]any{"code": "BAD_USER_INPUT"}
}

func badInput(format string, a ...any) error { return &inputError{fmt.Sprintf(format, a...)} }

// envObjects is a v2 env object as GraphQL's [{key, value}], in the
// object's order.
func envObjects(raw json.RawMessage) []object {
	pairs := envPairs(raw)
	out := make([]object, len(pairs))
	for i, kv := range pairs {
		out[i] = &envVar{key: kv[0], value: kv[1]}
	}
	return out
}

// envVar is an EnvironmentVariable.
type envVar struct{ key, value string }

func (e *envVar) typeName() string { return "EnvironmentVariable" }
func (e *envVar) field(ec *execCtx, f *ast.Field) (any, error) {
	switch f.Name {
	case "key":
		return e.key, nil
	case "value":
		return e.value, nil
	}
	return nil, fmt.Errorf("EnvironmentVariable.%s is not answered by this gateway", f.Name)
}

// nonEmpty is s, or null for "".
func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// vendorNotFound is a plan's error about something that is not there, in
// the vendor's words and code where public clients compare them
// (docs/graphql.md, "Vendor error texts public clients compare"), exactly:
// dstack compares the whole message.
func vendorNotFound(pe *planError, message, code string) error {
	return &planError{status: pe.status, message: message, op: pe.op, code: code}
}

// enumIn is the values of vals that are values of the schema's enum typ,
// in order (v2 has compliance certifications the vendor's enum lacks: an
// enum field may only answer its own values).
func (ec *execCtx) enumIn(typ string, vals []string) []string {
	if ec.schema == nil {
		return vals
	}
	def := ec.schema.Types[typ]
	out := make([]string, 0, len(vals))
	for _, v := range vals {
		if def != nil && def.EnumValues.ForName(v) != nil {
			out = append(out, v)
		}
	}
	return out
}
