package graphql

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Variables are coerced as the GraphQL specification says (§3.5, input
// coercion), more strictly than gqlparser's VariableValues, which takes
// the string "20" for an Int and the number 12345 for a String: the
// door's input readers would then not find the value they expect and the
// field would be dropped without a word (a pod made with the default disk).
// Here a value of the wrong type is an error naming the variable and the
// field, before anything runs. An ID given as an integer is made the
// string the specification says it is. Strings (in variables and in the
// document) must be valid UTF-8: an id of invalid UTF-8 never reaches v2.

// strictVariables checks (and coerces, for ID) the request's variables
// against op's variable definitions; vars are the request's, changed in
// place.
func strictVariables(s *ast.Schema, op *ast.OperationDefinition, vars map[string]any) *gqlerror.Error {
	for _, def := range op.VariableDefinitions {
		v, ok := vars[def.Variable]
		if !ok {
			continue
		}
		c := coercer{schema: s, variable: def.Variable}
		out, err := c.coerce(def.Type, v, "")
		if err != nil {
			return err
		}
		vars[def.Variable] = out
	}
	return nil
}

type coercer struct {
	schema   *ast.Schema
	variable string
	depth    int
}

// fail is the error of a value v of the wrong type at path (in the
// variable's value; "" for the variable itself).
func (c *coercer) fail(path string, v any, want string) *gqlerror.Error {
	where := "$" + c.variable
	if path != "" {
		where += "." + path
	}
	return &gqlerror.Error{
		Message:    fmt.Sprintf("variable %s: %s is not a valid %s", where, describe(v), want),
		Path:       ast.Path{ast.PathName("variable"), ast.PathName(c.variable)},
		Extensions: map[string]any{"code": "BAD_USER_INPUT"},
	}
}

// describe names a JSON value for a message, shortened.
func describe(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = strconv.Quote(x)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	default:
		s = fmt.Sprint(x)
	}
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

// maxVariableDepth bounds the nesting of a variable's value (lists in
// lists): the schema's input types nest a few levels at most.
const maxVariableDepth = 32

func (c *coercer) coerce(t *ast.Type, v any, path string) (any, *gqlerror.Error) {
	if v == nil {
		return nil, nil // null: gqlparser checks non-null types
	}
	if c.depth++; c.depth > maxVariableDepth {
		return nil, c.fail(path, v, "value: nested too deep")
	}
	defer func() { c.depth-- }()
	if t.Elem != nil {
		l, ok := v.([]any)
		if !ok {
			// A single value stands for a list of one (input coercion).
			return c.coerce(t.Elem, v, path)
		}
		for i, e := range l {
			out, err := c.coerce(t.Elem, e, path+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return nil, err
			}
			l[i] = out
		}
		return l, nil
	}
	def := c.schema.Types[t.NamedType]
	if def == nil {
		return v, nil // gqlparser names unknown types
	}
	switch def.Kind {
	case ast.Enum:
		s, ok := v.(string)
		if !ok {
			return nil, c.fail(path, v, def.Name+" (an enum value is a string)")
		}
		if !utf8.ValidString(s) {
			return nil, c.fail(path, "(invalid UTF-8)", def.Name)
		}
		return v, nil
	case ast.InputObject:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, c.fail(path, v, def.Name+" (an object)")
		}
		for k, fv := range m {
			f := def.Fields.ForName(k)
			if f == nil {
				continue // gqlparser refuses unknown fields
			}
			p := k
			if path != "" {
				p = path + "." + k
			}
			out, err := c.coerce(f.Type, fv, p)
			if err != nil {
				return nil, err
			}
			m[k] = out
		}
		return m, nil
	case ast.Scalar:
		return c.scalar(def.Name, v, path)
	}
	return v, nil
}

// scalar coerces a built-in scalar's value; a custom scalar's (JSON) is
// taken as it is, its strings checked for UTF-8 by the walk of stringsValid.
func (c *coercer) scalar(name string, v any, path string) (any, *gqlerror.Error) {
	switch name {
	case "Int":
		if n, ok := integer(v); ok && n >= math.MinInt32 && n <= math.MaxInt32 {
			return v, nil
		}
		return nil, c.fail(path, v, "Int (a whole number of 32 bits)")
	case "Float":
		switch x := v.(type) {
		case float64, int, int64:
			return v, nil
		case json.Number:
			if _, err := x.Float64(); err == nil {
				return v, nil
			}
		}
		return nil, c.fail(path, v, "Float")
	case "String":
		if s, ok := v.(string); ok {
			if !utf8.ValidString(s) {
				return nil, c.fail(path, "(invalid UTF-8)", "String")
			}
			return v, nil
		}
		return nil, c.fail(path, v, "String")
	case "Boolean":
		if _, ok := v.(bool); ok {
			return v, nil
		}
		return nil, c.fail(path, v, "Boolean")
	case "ID":
		if s, ok := v.(string); ok {
			if !utf8.ValidString(s) {
				return nil, c.fail(path, "(invalid UTF-8)", "ID")
			}
			return v, nil
		}
		if n, ok := integer(v); ok {
			return strconv.FormatInt(n, 10), nil
		}
		return nil, c.fail(path, v, "ID (a string or an integer)")
	}
	if !stringsValid(v, 0) {
		return nil, c.fail(path, "(invalid UTF-8)", name)
	}
	return v, nil
}

// integer is v as an integer, when it is one (a JSON number without a
// fraction).
func integer(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x), true
		}
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n, true
		}
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f), true // 20.0, 1e3
		}
	}
	return 0, false
}

// stringsValid reports whether every string in v (and every key) is valid
// UTF-8.
func stringsValid(v any, depth int) bool {
	if depth > maxVariableDepth {
		return false
	}
	switch x := v.(type) {
	case string:
		return utf8.ValidString(x)
	case []any:
		for _, e := range x {
			if !stringsValid(e, depth+1) {
				return false
			}
		}
	case map[string]any:
		for k, e := range x {
			if !utf8.ValidString(k) || !stringsValid(e, depth+1) {
				return false
			}
		}
	}
	return true
}
