package graphql

import (
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// input reads a GraphQL input object (an argument, with variables
// applied): gqlparser gives literals as int64 and float64, JSON variables
// as float64 or json.Number. A key present with null reads as absent.
// read, when set (a root field's input: rootInput), records each key read,
// so that what the door did not read is said (unread).
type input struct {
	m    map[string]any
	read map[string]bool
}

// inputArg is the input object argument name of f's arguments (empty when
// absent or null), its reads not recorded (a field's input: lowestPrice).
func inputArg(args map[string]any, name string) input {
	m, _ := args[name].(map[string]any)
	return input{m: m}
}

// rootInput is the input argument of the root field f, its reads recorded:
// once the root field ran, an input field it did not read is named in a
// warning (root fields' default path: the schema admits every input field
// of the vendor's, and the door says which it has no v2 home for, P1).
func (ec *execCtx) rootInput(f *ast.Field) input {
	in := inputArg(ec.args(f), "input")
	in.read = map[string]bool{}
	ec.inputs = append(ec.inputs, in)
	return in
}

// get is the value of k, noted as read.
func (in input) get(k string) any {
	if in.read != nil {
		in.read[k] = true
	}
	return in.m[k]
}

// unread are the keys of in given a value (not null, "", [] or {}) that
// nothing read, in order.
func (in input) unread() []string {
	var out []string
	for k, v := range in.m {
		if in.read[k] || empty(v) {
			continue
		}
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// empty reports whether an input value says nothing: null, "", [] or {}.
func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

func (in input) has(k string) bool { return in.get(k) != nil }

func (in input) str(k string) (string, bool) {
	s, ok := in.get(k).(string)
	return s, ok
}

func (in input) int(k string) (int, bool) {
	switch v := in.get(k).(type) {
	case int64:
		return int(v), true
	case int:
		return v, true
	case float64:
		if v == math.Trunc(v) {
			return int(v), true
		}
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return int(n), true
		}
	}
	return 0, false
}

func (in input) float(k string) (float64, bool) {
	switch v := in.get(k).(type) {
	case int64:
		return float64(v), true
	case int:
		return float64(v), true
	case float64:
		return v, true
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return f, true
		}
	}
	return 0, false
}

func (in input) boolean(k string) (bool, bool) {
	b, ok := in.get(k).(bool)
	return b, ok
}

func (in input) strs(k string) ([]string, bool) {
	l, ok := in.get(k).([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out, true
}

func (in input) list(k string) []input {
	l, _ := in.get(k).([]any)
	out := make([]input, 0, len(l))
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			out = append(out, input{m: m})
		}
	}
	return out
}

// envMap turns a GraphQL env list ([{key, value}]) into a v1 env object.
// Entries without a key are skipped; a later key wins.
func envMap(l []input) map[string]string {
	env := make(map[string]string, len(l))
	for _, e := range l {
		k, _ := e.str("key")
		if k == "" {
			continue
		}
		v, _ := e.str("value")
		env[k] = v
	}
	return env
}

// portList turns GraphQL's "8888/http,22/tcp" into v1's ["8888/http", "22/tcp"].
func portList(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// splitComma is a comma-separated list, trimmed, without empty entries.
func splitComma(s string) []string { return portList(s) }
