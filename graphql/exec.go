package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// This file is the executor: it walks a validated operation's selection
// sets (aliases, fragments, @skip/@include, __typename) over the values the
// resolvers give, and writes the answer as JSON holding exactly the fields
// selected. It knows nothing of v2 or of the gateway's rules.

// An object is a GraphQL object value: its type's name and its fields. The
// resolvers' objects (objects.go) wrap the gateway's models.
type object interface {
	typeName() string
	// field resolves one field of the object. A field the object does not
	// know is a bug of the schema or the table, reported as an error.
	field(ec *execCtx, f *ast.Field) (any, error)
}

// A value a resolver gives: nil, string, bool, int, int64, float64,
// json.RawMessage (a JSON scalar, written as is), object, []object, []string,
// []int, []any, or *string / *int / *float64 / *bool (nil: null).

// fieldTable maps a GraphQL type's field names to their resolvers: one table
// per object type, the place a reader looks for what a field answers.
type fieldTable[T any] map[string]func(o T, ec *execCtx, f *ast.Field) (any, error)

// resolveIn looks f up in t and resolves it for o.
func resolveIn[T any](t fieldTable[T], typ string, o T, ec *execCtx, f *ast.Field) (any, error) {
	fn, ok := t[f.Name]
	if !ok {
		return nil, fmt.Errorf("%s.%s is not answered by this gateway", typ, f.Name)
	}
	return fn(o, ec, f)
}

// execCtx is one operation's execution: what its resolvers share.
type execCtx struct {
	ctx  context.Context
	env  *Env
	vars map[string]any
	doc  *ast.QueryDocument
	out  *Response

	errs  gqlerror.List
	path  ast.Path
	buf   []byte
	nulls []string // selected fields v2 has no source for (unanswered)

	// memo holds what resolvers read once per operation (the GPU
	// catalog for each lowestPrice input, ...), by a key of their own.
	memo map[string]any
}

// args is f's arguments with the operation's variables applied.
func (ec *execCtx) args(f *ast.Field) map[string]any { return f.ArgumentMap(ec.vars) }

// fail records a field error at the current path; the field reads null.
func (ec *execCtx) fail(f *ast.Field, err error) {
	e := &gqlerror.Error{Message: err.Error(), Path: append(ast.Path(nil), ec.path...)}
	if f != nil && f.Position != nil {
		e.Locations = []gqlerror.Location{{Line: f.Position.Line, Column: f.Position.Column}}
	}
	var ext interface{ Extensions() map[string]any }
	if x, ok := err.(interface{ Extensions() map[string]any }); ok {
		ext = x
		e.Extensions = ext.Extensions()
	}
	ec.errs = append(ec.errs, e)
}

// collectedField is one response key of a selection set: the fields
// selected under it (several when a key is selected twice, by fragments).
type collectedField struct {
	key    string
	fields []*ast.Field
}

// collect gathers the fields of set that apply to an object of type typ,
// in order, merging those with the same response key (CollectFields).
func (ec *execCtx) collect(set ast.SelectionSet, typ string, into []collectedField, seen map[string]bool) []collectedField {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if !ec.included(s.Directives) {
				continue
			}
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			found := false
			for i := range into {
				if into[i].key == key {
					into[i].fields = append(into[i].fields, s)
					found = true
					break
				}
			}
			if !found {
				into = append(into, collectedField{key: key, fields: []*ast.Field{s}})
			}
		case *ast.InlineFragment:
			if !ec.included(s.Directives) || (s.TypeCondition != "" && s.TypeCondition != typ) {
				continue
			}
			into = ec.collect(s.SelectionSet, typ, into, seen)
		case *ast.FragmentSpread:
			if !ec.included(s.Directives) || seen[s.Name] {
				continue
			}
			def := s.Definition
			if def == nil {
				def = ec.doc.Fragments.ForName(s.Name)
			}
			if def == nil || (def.TypeCondition != "" && def.TypeCondition != typ) {
				continue
			}
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[s.Name] = true
			into = ec.collect(def.SelectionSet, typ, into, seen)
		}
	}
	return into
}

// included applies @skip and @include.
func (ec *execCtx) included(ds ast.DirectiveList) bool {
	for _, d := range ds {
		switch d.Name {
		case "skip":
			if v, _ := d.ArgumentMap(ec.vars)["if"].(bool); v {
				return false
			}
		case "include":
			if v, _ := d.ArgumentMap(ec.vars)["if"].(bool); !v {
				return false
			}
		}
	}
	return true
}

// writeObject writes o as the JSON object of the fields set selects.
func (ec *execCtx) writeObject(o object, set ast.SelectionSet) {
	fields := ec.collect(set, o.typeName(), nil, nil)
	ec.buf = append(ec.buf, '{')
	for i, cf := range fields {
		if i > 0 {
			ec.buf = append(ec.buf, ',')
		}
		ec.buf = appendString(ec.buf, cf.key)
		ec.buf = append(ec.buf, ':')
		f := cf.fields[0]
		ec.path = append(ec.path, ast.PathName(cf.key))
		if f.Name == "__typename" {
			ec.buf = appendString(ec.buf, o.typeName())
		} else {
			v, err := o.field(ec, f)
			if err != nil {
				ec.fail(f, err)
				ec.buf = append(ec.buf, "null"...)
			} else {
				ec.writeValue(f, mergedSelection(cf.fields), v)
			}
		}
		ec.path = ec.path[:len(ec.path)-1]
	}
	ec.buf = append(ec.buf, '}')
}

// mergedSelection is the selection set of a response key selected by
// several fields (fragments that select the same object field).
func mergedSelection(fs []*ast.Field) ast.SelectionSet {
	if len(fs) == 1 {
		return fs[0].SelectionSet
	}
	var set ast.SelectionSet
	for _, f := range fs {
		set = append(set, f.SelectionSet...)
	}
	return set
}

// writeValue writes a resolved value: leaves by their Go type (checked
// against the schema's leaf type), objects and lists by set.
func (ec *execCtx) writeValue(f *ast.Field, set ast.SelectionSet, v any) {
	switch x := v.(type) {
	case nil:
		ec.buf = append(ec.buf, "null"...)
	case object:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.writeObject(x, set)
	case []object:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.buf = append(ec.buf, '[')
		for i, o := range x {
			if i > 0 {
				ec.buf = append(ec.buf, ',')
			}
			ec.path = append(ec.path, ast.PathIndex(i))
			if o == nil {
				ec.buf = append(ec.buf, "null"...)
			} else {
				ec.writeObject(o, set)
			}
			ec.path = ec.path[:len(ec.path)-1]
		}
		ec.buf = append(ec.buf, ']')
	case []any:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.buf = append(ec.buf, '[')
		for i, e := range x {
			if i > 0 {
				ec.buf = append(ec.buf, ',')
			}
			ec.path = append(ec.path, ast.PathIndex(i))
			ec.writeValue(f, set, e)
			ec.path = ec.path[:len(ec.path)-1]
		}
		ec.buf = append(ec.buf, ']')
	case []string:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.buf = append(ec.buf, '[')
		for i, s := range x {
			if i > 0 {
				ec.buf = append(ec.buf, ',')
			}
			ec.buf = appendString(ec.buf, s)
		}
		ec.buf = append(ec.buf, ']')
	case []int:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.buf = append(ec.buf, '[')
		for i, n := range x {
			if i > 0 {
				ec.buf = append(ec.buf, ',')
			}
			ec.buf = strconv.AppendInt(ec.buf, int64(n), 10)
		}
		ec.buf = append(ec.buf, ']')
	case *string:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.writeValue(f, set, *x)
	case *int:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.writeValue(f, set, *x)
	case *float64:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.writeValue(f, set, *x)
	case *bool:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.writeValue(f, set, *x)
	default:
		ec.writeLeaf(f, v)
	}
}

// writeLeaf writes a scalar. Int fields are written as integers whatever
// the Go type (clients decode counts into integers); a float that is not a
// whole number in an Int field is an error, as GraphQL's Int coercion says.
func (ec *execCtx) writeLeaf(f *ast.Field, v any) {
	leaf := ""
	if f.Definition != nil && f.Definition.Type != nil {
		leaf = namedType(f.Definition.Type)
	}
	switch x := v.(type) {
	case string:
		ec.buf = appendString(ec.buf, x)
	case bool:
		ec.buf = strconv.AppendBool(ec.buf, x)
	case int:
		if leaf == "Float" {
			ec.buf = appendFloat(ec.buf, float64(x))
		} else {
			ec.buf = strconv.AppendInt(ec.buf, int64(x), 10)
		}
	case int64:
		ec.buf = strconv.AppendInt(ec.buf, x, 10)
	case float64:
		if leaf == "Int" {
			if x != math.Trunc(x) || math.IsInf(x, 0) || math.Abs(x) > 1<<31-1 {
				ec.fail(f, fmt.Errorf("%s.%s: %v is not an Int", f.ObjectDefinition.Name, f.Name, x))
				ec.buf = append(ec.buf, "null"...)
				return
			}
			ec.buf = strconv.AppendInt(ec.buf, int64(x), 10)
			return
		}
		ec.buf = appendFloat(ec.buf, x)
	case json.RawMessage:
		if len(x) == 0 {
			ec.buf = append(ec.buf, "null"...)
		} else {
			ec.buf = append(ec.buf, x...)
		}
	default:
		ec.fail(f, fmt.Errorf("%s: the gateway produced a value of type %T", f.Name, v))
		ec.buf = append(ec.buf, "null"...)
	}
}

// namedType is the name of a type without its list and non-null wrappers.
func namedType(t *ast.Type) string {
	for t.Elem != nil {
		t = t.Elem
	}
	return t.NamedType
}

// appendFloat writes f as a JSON number (encoding/json's format).
func appendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	return strconv.AppendFloat(b, f, format, -1, 64)
}

// appendString writes s as a JSON string: quote, backslash and control
// characters escaped, invalid UTF-8 replaced by U+FFFD (as encoding/json).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// sortedKeys is m's keys in order (for stable messages).
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
