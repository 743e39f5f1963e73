package graphql

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/v1gateway/v1gateway/podjson"
	"github.com/v1gateway/v1gateway/translate"
)

// The door's schema: the vendor's whole schema (schema.graphql) and the
// door's additions to it (schema_door.graphql), the fields released
// clients send that the record of the vendor's schema lacks.
var (
	//go:embed schema.graphql
	schemaSDL string
	//go:embed schema_door.graphql
	schemaDoorSDL string
)

// Request is one GraphQL request as the HTTP layer read it. Execute may
// change its Variables (an integer ID becomes a string: vars.go).
type Request struct {
	Query         string
	OperationName string
	Variables     map[string]any
	// QueryOnly is set for GET requests: a mutation is refused (a GET must
	// not change anything, GraphQL over HTTP §6.2.1).
	QueryOnly bool
}

// Env is what the door needs of the gateway for one request: the same
// Caller, options and fact store the v1 routes hand their plans.
type Env struct {
	Caller  translate.Caller
	Options translate.Options
	Facts   translate.Facts
	// Anonymous is set when the request carries no API key: only the
	// public root fields (rootFields) are answered.
	Anonymous bool
	// NoPublicKey is set for an anonymous request when the gateway has
	// no key for public queries (graphql_public_key): they are refused.
	NoPublicKey bool
	// KeyID is the gateway's id of the request's API key (User.id: v2
	// has no account id).
	KeyID string
}

// Response is the door's answer to one request: a GraphQL response body,
// always served with status 200 (clients read errors from the body), and
// what the gateway did, for the operator (P7a).
type Response struct {
	// Body may be a pooled buffer: give it back with ReleaseBody once
	// written (and never use it after).
	Body []byte
	// Fields are the root fields executed (myself, podStop): /usage
	// counts each.
	Fields []string
	// Notes are the notes of every plan the door ran, and its own.
	Notes    []translate.Note
	Warnings []string
	// Refused is set when a root field was refused as the gateway cannot
	// translate it (for the access log).
	Refused bool
	// RetryAfter is the Retry-After of a plan that met v2's rate limit.
	RetryAfter string
	// Unauthorized is set when v2 refused the key (401): the vendor
	// answered such a request HTTP 401, which clients read as invalid
	// credentials (runpod-python, dstack), so the proxy answers it so.
	Unauthorized bool
}

// Door answers GraphQL requests from v2, through translate's plans.
type Door struct {
	schema *ast.Schema
	roots  map[string]rootField
	docs   docCache
	limits Limits
}

// rootField is one root field the door answers: Query or Mutation, its
// resolver, and whether a request without an API key may ask for it.
type rootField struct {
	resolve func(ec *execCtx, f *ast.Field) (any, error)
	public  bool
}

// New is NewWithLimits(DefaultLimits()).
func New() (*Door, error) { return NewWithLimits(DefaultLimits()) }

// NewWithLimits loads the door's schema and its table of root fields, and
// bounds each document by l (limits.go). It fails only when the schema and
// the table disagree (a bug, caught by the tests).
func NewWithLimits(l Limits) (*Door, error) {
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: schemaSDL},
		&ast.Source{Name: "schema_door.graphql", Input: schemaDoorSDL})
	if err != nil {
		return nil, fmt.Errorf("graphql: schema: %w", err)
	}
	d := &Door{schema: s, roots: rootFields(), limits: l}
	for key := range d.roots {
		typ, name, _ := strings.Cut(key, ".")
		def := s.Types[typ]
		if def == nil || def.Fields.ForName(name) == nil {
			return nil, fmt.Errorf("graphql: root field %s is not in the schema", key)
		}
	}
	return d, nil
}

// Schema is the door's schema (tests and documentation read it).
func (d *Door) Schema() *ast.Schema { return d.schema }

// Execute answers one request.
func (d *Door) Execute(ctx context.Context, env *Env, req Request) *Response {
	out := &Response{}
	if !utf8.ValidString(req.Query) {
		out.Body = errorsBody(gqlerror.List{limitError(codeParseFailed, "the document is not valid UTF-8")})
		return out
	}
	doc, errs := d.docs.load(ctx, d.schema, d.limits, req.Query)
	if errs != nil {
		out.Body = errorsBody(errs)
		return out
	}
	op, err := pickOperation(doc, req.OperationName)
	if err != nil {
		out.Body = errorsBody(gqlerror.List{limitError("OPERATION_RESOLUTION_FAILURE", "%s", err.Error())})
		return out
	}
	if req.QueryOnly && op.Operation != ast.Query {
		out.Body = errorsBody(gqlerror.List{limitError("BAD_REQUEST", "a %s cannot be sent with GET: use POST", op.Operation)})
		return out
	}
	if e := strictVariables(d.schema, op, req.Variables); e != nil {
		out.Body = errorsBody(gqlerror.List{e})
		return out
	}
	vars, err := validator.VariableValues(d.schema, op, req.Variables)
	if err != nil {
		var ge *gqlerror.Error
		if !errors.As(err, &ge) {
			ge = gqlerror.Errorf("%s", err.Error())
		}
		ge.Extensions = map[string]any{"code": "BAD_USER_INPUT"}
		out.Body = errorsBody(gqlerror.List{ge})
		return out
	}
	root := d.schema.Query
	if op.Operation == ast.Mutation {
		root = d.schema.Mutation
	}
	ec := &execCtx{ctx: ctx, env: env, vars: vars, doc: doc, out: out, schema: d.schema}
	// The answer is built in a pooled buffer (podjson's, the v1 answers'):
	// a list's answer is tens of kilobytes, grown anew for every request
	// otherwise.
	ec.buf = append(podjson.GetAnswerBuf(answerBufHint), `{"data":`...)
	ec.writeObject(&rootObject{door: d, typ: root.Name, op: string(op.Operation)}, op.SelectionSet, nil)
	ec.finish()
	if len(out.Warnings) > 0 {
		ec.buf = append(ec.buf, `,"extensions":{"warnings":`...)
		w, _ := json.Marshal(out.Warnings)
		ec.buf = append(ec.buf, w...)
		ec.buf = append(ec.buf, '}')
	}
	ec.buf = append(ec.buf, '}')
	if len(ec.errs) > 0 {
		// {"errors": [...], "data": ...}: the errors first, as the vendor did.
		e, _ := json.Marshal(ec.errs)
		body := make([]byte, 0, len(ec.buf)+len(e)+12)
		body = append(body, `{"errors":`...)
		body = append(body, e...)
		body = append(body, ',')
		body = append(body, ec.buf[1:]...)
		podjson.PutAnswerBuf(ec.buf)
		ec.buf = body
	}
	out.Body = podjson.PooledBody(ec.buf)
	// Last, once nothing of the answer (its data, errors and warnings) is
	// still to be written from the models.
	ec.releaseResults()
	return out
}

// answerBufHint is the room of a new answer buffer.
const answerBufHint = 16 << 10

// ReleaseBody gives back a Response's Body once it has been written.
func ReleaseBody(b []byte) { podjson.ReleaseBody(b) }

// rootObject is Query or Mutation: each field is a root field of the table.
type rootObject struct {
	door *Door
	typ  string
	op   string
}

func (r *rootObject) typeName() string { return r.typ }

func (r *rootObject) field(ec *execCtx, f *ast.Field) (any, error) {
	ec.out.Fields = append(ec.out.Fields, f.Name)
	rf, ok := r.door.roots[r.typ+"."+f.Name]
	if !ok {
		return refuseRoot(ec, f)
	}
	if ec.limited != nil {
		key := f.Alias
		if key == "" {
			key = f.Name
		}
		return nil, &planError{status: ec.limited.status, message: ec.limited.message + " (" + key + " was not run)", op: ec.limited.op}
	}
	if ec.ctx.Err() != nil {
		// The deadline passed (or the client went): the fields left
		// make no v2 call.
		return nil, &codedError{f.Name + " was not run: the request's deadline passed", codeTimeout}
	}
	if ec.env.Anonymous && !rf.public {
		return nil, errNeedsKey(f.Name)
	}
	if ec.env.Anonymous && ec.env.NoPublicKey {
		return nil, errNoPublicKey(f.Name)
	}
	mark := len(ec.inputs)
	v, err := rf.resolve(ec, f)
	if err == nil {
		ec.warnUnread(f.Name, ec.inputs[mark:])
	}
	ec.inputs = ec.inputs[:mark]
	return v, err
}

// warnUnread names the input fields a root field was given and did not
// read: the vendor's schema admits them, and v2 has no home for them in
// what the field does, so they were ignored (P1: a field outside what the
// gateway translates is ignored with a warning and a /usage note, never
// refused).
func (ec *execCtx) warnUnread(root string, inputs []input) {
	for _, in := range inputs {
		if keys := in.unread(); len(keys) > 0 {
			ec.warn(translate.CodeUnknownFields, root+": "+strings.Join(keys, ", ")+" not applied: the gateway has no v2 setting for "+pronoun(len(keys))+" in "+root+" (ignored)")
		}
	}
}

// pronoun is "it" or "them".
func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// pickOperation is the operation to run: the one named, or the only one.
func pickOperation(doc *ast.QueryDocument, name string) (*ast.OperationDefinition, error) {
	if name != "" {
		op := doc.Operations.ForName(name)
		if op == nil {
			return nil, fmt.Errorf("no operation named %q in the document", name)
		}
		return op, nil
	}
	if len(doc.Operations) != 1 {
		return nil, errors.New("the document has several operations: name the one to run in operationName")
	}
	return doc.Operations[0], nil
}

// errorsBody is a response with errors and no data (a request that could
// not be executed at all: GraphQL over HTTP says data is then absent).
func errorsBody(errs gqlerror.List) []byte {
	b, _ := json.Marshal(struct {
		Errors gqlerror.List `json:"errors"`
	}{errs})
	return b
}

// docCache keeps parsed and validated documents by their text: clients
// send the same few documents again and again (runpod-python inlines ids,
// so a bounded number is kept). Only valid documents of at most
// maxCachedDocLen bytes are kept, never error lists: a refused document
// costs its sender the (bounded) parse again, and nobody else anything.
// Documents are read-only once validated.
type docCache struct {
	mu   sync.Mutex
	docs map[string]*ast.QueryDocument
}

// maxCachedDocs bounds the cache; when full it is emptied (cheap, and
// documents are re-parsed in microseconds).
const maxCachedDocs = 512

func (c *docCache) load(ctx context.Context, s *ast.Schema, l Limits, text string) (*ast.QueryDocument, gqlerror.List) {
	if len(text) > maxCachedDocLen {
		return l.parseAndValidate(ctx, s, text)
	}
	c.mu.Lock()
	d, ok := c.docs[text]
	c.mu.Unlock()
	if ok {
		return d, nil
	}
	doc, errs := l.parseAndValidate(ctx, s, text)
	if len(errs) > 0 {
		return nil, errs
	}
	c.mu.Lock()
	if c.docs == nil || len(c.docs) >= maxCachedDocs {
		c.docs = make(map[string]*ast.QueryDocument)
	}
	c.docs[text] = doc
	c.mu.Unlock()
	return doc, nil
}
