package graphql

import (
	"context"
	"errors"
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// This file is the door's entrance (P12): what one document may cost is
// bounded before anything of it is validated or run, as Apollo Router's
// request limits are. The parser stops at a number of tokens; the parsed
// document is then measured in one pass, linear in its size (fragments
// are measured once each, however often they are spread), and refused when
// it selects too many fields, aliases or root fields or goes too deep.
// Only then does gqlparser validate it: its OverlappingFieldsCanBeMerged
// rule compares the fields of one response key in a selection set
// pairwise, and spread fragments pairwise (quadratic; no gqlparser release
// up to v2.5.64 changes that), so maxSameKey and the spread limit are what
// bound it. Validation stops at maxValidationErrors errors and at
// the request's deadline.

// Limits bound one document. A zero field means no limit.
type Limits struct {
	// MaxTokens is the most lexical tokens a document may have (Apollo
	// Router's parser_max_tokens, graphql-java's 15,000).
	MaxTokens int
	// MaxDepth is the deepest nesting of selection sets, fragments
	// expanded ({ myself { pods { id } } } is 3 deep).
	MaxDepth int
	// MaxAliases is the most aliased fields an operation may select,
	// fragments expanded.
	MaxAliases int
	// MaxRootFields is the most root fields an operation may select,
	// fragments expanded: each may make v2 calls.
	MaxRootFields int
	// MaxFields is the most fields a document may select: its
	// operations', fragments expanded each time they are spread, and its
	// fragment definitions' (Apollo Router's max_height, over the whole
	// document: validation walks all of it).
	MaxFields int
	// MaxSpreads is the most fragment spreads a document may make,
	// counted as MaxFields counts fields: gqlparser compares spread
	// fragments pairwise.
	MaxSpreads int
}

// The default limits: well above the largest documents of the clients the
// gateway knows (the 173 documents of twelve clients in testdata/clients:
// TestClientDocumentsAreWellInsideTheDefaultLimits measures them: at most
// 449 tokens, depth 5, 2 aliases, 3 root fields, 379 fields, no fragment
// spread), and low enough that the worst document within them is
// validated in milliseconds (BenchmarkWorstDocumentsWithinTheLimits).
const (
	DefaultMaxTokens     = 15000
	DefaultMaxDepth      = 15
	DefaultMaxAliases    = 30
	DefaultMaxRootFields = 20
	DefaultMaxFields     = 2000
	DefaultMaxSpreads    = 100
)

// DefaultLimits are the limits of New.
func DefaultLimits() Limits {
	return Limits{MaxTokens: DefaultMaxTokens, MaxDepth: DefaultMaxDepth, MaxAliases: DefaultMaxAliases,
		MaxRootFields: DefaultMaxRootFields, MaxFields: DefaultMaxFields, MaxSpreads: DefaultMaxSpreads}
}

// maxSameKey is the most fields one selection set may select under one
// response key, its inline fragments' included: gqlparser compares them
// pairwise, so 2,000 "id" in one set took 270 ms to validate, where 20
// take microseconds. No client repeats a field more than a few times (as
// fragments on several types may); a repeat adds nothing to the answer.
const maxSameKey = 20

// maxValidationErrors is where validation stops (graphql-js stops at 100):
// the errors of a hostile document would otherwise be the answer's bulk.
const maxValidationErrors = 100

// maxCachedDocLen is the longest document the document cache keeps: the
// clients' documents are at most a few kilobytes; a longer one is parsed
// and validated again each time (it is bounded by the limits).
const maxCachedDocLen = 32 << 10

// Error codes of the door's entrance (extensions.code), named as Apollo
// Router names its limits' errors.
const (
	codeParseFailed      = "GRAPHQL_PARSE_FAILED"
	codeValidationFailed = "GRAPHQL_VALIDATION_FAILED"
	codeMaxTokens        = "MAX_TOKENS_LIMIT"
	codeMaxDepth         = "MAX_DEPTH_LIMIT"
	codeMaxAliases       = "MAX_ALIASES_LIMIT"
	codeMaxRootFields    = "MAX_ROOT_FIELDS_LIMIT"
	codeMaxFields        = "MAX_HEIGHT_LIMIT"
	codeMaxSpreads       = "MAX_FRAGMENT_SPREADS_LIMIT"
	codeMaxSameKey       = "MAX_REPEATED_FIELDS_LIMIT"
	codeTimeout          = "TIMEOUT"
)

// docCost is what a selection set costs, fragments expanded.
type docCost struct {
	fields, aliases, depth, roots, spreads int
	sameKey                                int // most fields of one response key in one selection set
}

// saturating addition: an expanded count can grow exponentially
// (a fragment spreading another twice, ...), and only needs to be known
// up to the limit.
func addCapped(a, b int) int {
	if s := a + b; s >= a && s < 1<<40 {
		return s
	}
	return 1 << 40
}

// measurer measures a parsed, not yet validated, document: fragments by
// name (the first definition of a name; validation refuses duplicates),
// each measured once (memo); a fragment being measured counts nothing
// when spread again (a cycle, which validation refuses).
type measurer struct {
	frags map[string]*ast.FragmentDefinition
	memo  map[string]docCost
	busy  map[string]bool
}

// selectionSet measures set: a field's, an operation's or a fragment's.
// The fields of its inline fragments are counted with its own by response
// key (as validation merges them), and the most fields of one key is
// sameKey: what gqlparser compares pairwise.
func (m *measurer) selectionSet(set ast.SelectionSet) docCost {
	var c docCost
	var keys map[string]int
	m.walk(set, &c, &keys)
	return c
}

// walk adds set's selections to c, counting its fields (and its inline
// fragments' fields, walked into the same keys) by response key.
func (m *measurer) walk(set ast.SelectionSet, c *docCost, keys *map[string]int) {
	for _, sel := range set {
		var sub docCost
		switch s := sel.(type) {
		case *ast.Field:
			sub = m.selectionSet(s.SelectionSet)
			sub.fields = addCapped(sub.fields, 1)
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			if key != s.Name {
				sub.aliases = addCapped(sub.aliases, 1)
			}
			if *keys == nil {
				*keys = make(map[string]int, len(set))
			}
			(*keys)[key]++
			c.sameKey = max(c.sameKey, (*keys)[key])
			sub.depth++
			c.roots = addCapped(c.roots, 1)
		case *ast.InlineFragment:
			// its selections are set's own, as validation merges them
			m.walk(s.SelectionSet, c, keys)
			continue
		case *ast.FragmentSpread:
			sub = m.fragment(s.Name)
			sub.spreads = addCapped(sub.spreads, 1)
			c.roots = addCapped(c.roots, sub.roots)
		}
		c.fields = addCapped(c.fields, sub.fields)
		c.spreads = addCapped(c.spreads, sub.spreads)
		c.aliases = addCapped(c.aliases, sub.aliases)
		c.depth = max(c.depth, sub.depth)
		c.sameKey = max(c.sameKey, sub.sameKey)
	}
}

func (m *measurer) fragment(name string) docCost {
	if c, ok := m.memo[name]; ok {
		return c
	}
	def := m.frags[name]
	if def == nil || m.busy[name] {
		return docCost{}
	}
	m.busy[name] = true
	c := m.selectionSet(def.SelectionSet)
	delete(m.busy, name)
	m.memo[name] = c
	return c
}

// limitError is a document refused at the door's entrance.
func limitError(code, format string, a ...any) *gqlerror.Error {
	return &gqlerror.Error{Message: fmt.Sprintf(format, a...), Extensions: map[string]any{"code": code}}
}

// check refuses a parsed document that exceeds l. The fields and the
// fragment spreads are counted over the whole document — each operation's,
// fragments expanded, and each fragment definition's once more — as
// validation walks every operation and every fragment (a document of 30
// operations of 450 fields each took 360 ms to validate); the root fields,
// aliases and depth per operation.
func (l Limits) check(doc *ast.QueryDocument) *gqlerror.Error {
	m := &measurer{frags: make(map[string]*ast.FragmentDefinition, len(doc.Fragments)),
		memo: map[string]docCost{}, busy: map[string]bool{}}
	for _, f := range doc.Fragments {
		if _, dup := m.frags[f.Name]; !dup {
			m.frags[f.Name] = f
		}
	}
	var total docCost
	over := func(what string) *gqlerror.Error {
		switch {
		case l.MaxFields > 0 && total.fields > l.MaxFields:
			return limitError(codeMaxFields, "%s more than %d fields (fragments expanded): ask for fewer, or send several requests (graphql_max_fields)", what, l.MaxFields)
		case l.MaxSpreads > 0 && total.spreads > l.MaxSpreads:
			return limitError(codeMaxSpreads, "%s spread fragments more than %d times (fragments expanded) (graphql_max_fragment_spreads)", what, l.MaxSpreads)
		}
		return nil
	}
	for _, f := range doc.Fragments {
		c := m.selectionSet(f.SelectionSet)
		total.fields, total.spreads = addCapped(total.fields, c.fields), addCapped(total.spreads, c.spreads)
		if e := over("the document's fragments select"); e != nil {
			return e
		}
		if c.sameKey > maxSameKey {
			return sameKeyError("fragment "+f.Name, c.sameKey)
		}
	}
	for _, op := range doc.Operations {
		c := m.selectionSet(op.SelectionSet)
		total.fields, total.spreads = addCapped(total.fields, c.fields), addCapped(total.spreads, c.spreads)
		name := "the operation"
		if op.Name != "" {
			name = "operation " + op.Name
		}
		if e := over("the document selects"); e != nil {
			return e
		}
		switch {
		case c.sameKey > maxSameKey:
			return sameKeyError(name, c.sameKey)
		case l.MaxRootFields > 0 && c.roots > l.MaxRootFields:
			return limitError(codeMaxRootFields, "%s selects %d root fields, more than %d: send several requests (graphql_max_root_fields)", name, c.roots, l.MaxRootFields)
		case l.MaxAliases > 0 && c.aliases > l.MaxAliases:
			return limitError(codeMaxAliases, "%s uses %d aliases, more than %d (graphql_max_aliases)", name, c.aliases, l.MaxAliases)
		case l.MaxDepth > 0 && c.depth > l.MaxDepth:
			return limitError(codeMaxDepth, "%s nests selections %d deep, more than %d (graphql_max_depth)", name, c.depth, l.MaxDepth)
		}
	}
	return nil
}

func sameKeyError(what string, n int) *gqlerror.Error {
	return limitError(codeMaxSameKey, "%s selects one field %d times in one selection set (inline fragments included), more than %d: ask for it once", what, n, maxSameKey)
}

// parseAndValidate is the door's entrance: parse (at most l.MaxTokens
// tokens), measure, validate. Errors carry extensions.code.
func (l Limits) parseAndValidate(ctx context.Context, s *ast.Schema, text string) (*ast.QueryDocument, gqlerror.List) {
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: text}, l.MaxTokens)
	if err != nil {
		var ge *gqlerror.Error
		if !errors.As(err, &ge) {
			ge = gqlerror.Wrap(err)
		}
		code := codeParseFailed
		if l.MaxTokens > 0 && ge.Message == fmt.Sprintf("exceeded token limit of %d", l.MaxTokens) {
			code = codeMaxTokens
			ge.Message += " (graphql_max_tokens)"
		}
		ge.Extensions = map[string]any{"code": code}
		return nil, gqlerror.List{ge}
	}
	if e := l.check(doc); e != nil {
		return nil, gqlerror.List{e}
	}
	if errs := validate(ctx, s, doc); len(errs) > 0 {
		return nil, errs
	}
	return doc, nil
}

// stopValidation is the panic that stops gqlparser's walk: at
// maxValidationErrors errors, or at the request's deadline. gqlparser
// holds no lock or state of its own across a validation, so unwinding
// through it is safe; validate recovers it and nothing else.
type stopValidation struct{ err *gqlerror.Error }

// defaultRules are gqlparser's validation rules.
var defaultRules = rules.NewDefaultRules().GetInner()

// validate runs gqlparser's rules on doc, stopping at maxValidationErrors
// and when ctx is done (checked every 64 fields walked, which the field
// limit keeps each few microseconds apart). The errors are the rules'
// own, with extensions.code.
func validate(ctx context.Context, s *ast.Schema, doc *ast.QueryDocument) (errs gqlerror.List) {
	add := func(name string) core.AddErrFunc {
		return func(options ...core.ErrorOption) {
			if len(errs) >= maxValidationErrors {
				panic(stopValidation{limitError(codeValidationFailed, "validation stopped after %d errors", maxValidationErrors)})
			}
			e := &gqlerror.Error{Rule: name}
			for _, o := range options {
				o(e)
			}
			e.Extensions = map[string]any{"code": codeValidationFailed}
			errs = append(errs, e)
		}
	}
	rs := make([]core.Rule, 0, len(defaultRules)+1)
	for name, fn := range defaultRules {
		if name == "ValuesOfCorrectType" {
			rs = append(rs, core.Rule{Name: name, RuleFunc: func(o *core.Events, _ core.AddErrFunc) {
				o.OnValue(enumLiteralAsString) // first: the rule then sees a string
				fn(o, add(name))
			}})
			continue
		}
		rs = append(rs, core.Rule{Name: name, RuleFunc: func(o *core.Events, _ core.AddErrFunc) { fn(o, add(name)) }})
	}
	walked := 0
	rs = append(rs, core.Rule{Name: "Deadline", RuleFunc: func(o *core.Events, _ core.AddErrFunc) {
		o.OnField(func(*core.Walker, *ast.Field) {
			if walked++; walked&63 == 0 && ctx.Err() != nil {
				panic(stopValidation{limitError(codeTimeout, "validation stopped at the request's deadline")})
			}
		})
	}})
	defer func() {
		if r := recover(); r != nil {
			stop, ok := r.(stopValidation)
			if !ok {
				panic(r)
			}
			errs = append(errs, stop.err)
		}
	}()
	if ctx.Err() != nil {
		return gqlerror.List{limitError(codeTimeout, "the request's deadline passed before validation")}
	}
	if out := validator.ValidateWithRules(s, doc, rules.NewRules(rs...)); len(out) > 0 {
		return append(errs, out...)
	}
	return errs
}

// enumLiteralAsString reads an enum literal where the schema wants a
// String as that string (flashBootType: FLASHBOOT is "FLASHBOOT"). The
// record of the vendor's schema types some inputs String that its server
// took as enums: runpod-python sends EndpointInput.flashBootType unquoted,
// other clients quoted, and both worked.
func enumLiteralAsString(_ *core.Walker, v *ast.Value) {
	if v.Kind == ast.EnumValue && v.Definition != nil && v.Definition.Name == "String" {
		v.Kind = ast.StringValue
	}
}
