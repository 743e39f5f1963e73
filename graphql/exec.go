package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/v1gateway/v1gateway/podjson"
	"github.com/v1gateway/v1gateway/translate"
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
// json.RawMessage (a JSON scalar, written as is), object, []object (or a
// pointer to one: no allocation to box it), []string,
// []int, []any, *string / *int / *float64 / *bool (nil: null), or a
// jsonWriter.

// A jsonWriter is a leaf value (a scalar or a list of scalars) that writes
// its JSON itself: a value read from v2's JSON (a pod's env and ports) is
// written straight from it, without a Go value per element.
type jsonWriter interface {
	appendJSON(b []byte) []byte
}

// fieldTable maps a GraphQL type's field names to their resolvers: one table
// per object type, the place a reader looks for what a field answers.
type fieldTable[T any] map[string]func(o T, ec *execCtx, f *ast.Field) (any, error)

// resolveIn looks f up in t and resolves it for o. A field of the schema
// that t does not bind has no v2 source: it reads null, and the answer
// names it as typ.field (unanswered) — the default path, so that a field
// is answered by adding its one line to t and by nothing else.
func resolveIn[T any](t fieldTable[T], typ string, o T, ec *execCtx, f *ast.Field) (any, error) {
	fn, ok := t[f.Name]
	if !ok {
		return ec.unanswered(typ, f.Name)
	}
	return fn(o, ec, f)
}

// A tabledObject is an object whose fields are a fieldTable's: the
// executor looks each selected field's resolver up once per selection set
// (collectedField.resolve) rather than once per object, which is what a
// list of many objects of one type costs.
type tabledObject interface {
	object
	resolverFor(name string) fieldResolver
}

// fieldResolver resolves one field for an object of the table's type (any
// other object resolves it with its own field method).
type fieldResolver func(o object, ec *execCtx, f *ast.Field) (any, error)

// resolverFor is t's resolver of the field name, nil when t has none.
func (t fieldTable[T]) resolverFor(name string) fieldResolver {
	fn, ok := t[name]
	if !ok {
		return nil
	}
	return func(o object, ec *execCtx, f *ast.Field) (any, error) {
		if x, ok := o.(T); ok {
			return fn(x, ec, f)
		}
		return o.field(ec, f)
	}
}

// A leafTable maps some of a GraphQL type's leaf fields (scalars, lists of
// scalars) to writers that write them straight from the model into the
// answer: no value in an interface, no type switch, which is what a field
// costs a list of many objects. A type's other fields (objects, lists of
// objects, leaves with arguments) are in its fieldTable; a field is in one
// table or the other (TestTablesAnswerEverySchemaField).
type leafTable[T any] map[string]func(ec *execCtx, cf *collectedField, o T)

// leafWriter writes the leaf field cf for o: false (nothing written) when
// o is not of the table's type.
type leafWriter func(ec *execCtx, cf *collectedField, o object) bool

// A leafObject is an object some of whose leaves are in a leafTable.
type leafObject interface {
	writerFor(name string) leafWriter
}

// writerFor is t's writer of the field name, nil when t has none.
func (t leafTable[T]) writerFor(name string) leafWriter {
	fn, ok := t[name]
	if !ok {
		return nil
	}
	return func(ec *execCtx, cf *collectedField, o object) bool {
		x, ok := o.(T)
		if ok {
			fn(ec, cf, x)
		}
		return ok
	}
}

// The writers of a leafTable's usual fields: a value read from the model.
// Numbers go through writeInt and writeFloat, which write them as the
// field's schema type (Int or Float) says.

func leafString[T any](get func(T) string) func(*execCtx, *collectedField, T) {
	return func(ec *execCtx, _ *collectedField, o T) { ec.buf = appendString(ec.buf, get(o)) }
}

// leafOptString writes a string that reads null when "" (v2's null).
func leafOptString[T any](get func(T) string) func(*execCtx, *collectedField, T) {
	return func(ec *execCtx, _ *collectedField, o T) {
		if v := get(o); v != "" {
			ec.buf = appendString(ec.buf, v)
			return
		}
		ec.buf = append(ec.buf, "null"...)
	}
}

func leafInt[T any](get func(T) int) func(*execCtx, *collectedField, T) {
	return func(ec *execCtx, cf *collectedField, o T) { ec.writeLeafInt(cf, get(o)) }
}

func leafFloat[T any](get func(T) float64) func(*execCtx, *collectedField, T) {
	return func(ec *execCtx, cf *collectedField, o T) {
		ec.writeFloatAs(cf.leafType, cf.fields[0], get(o))
	}
}

func leafBool[T any](get func(T) bool) func(*execCtx, *collectedField, T) {
	return func(ec *execCtx, _ *collectedField, o T) { ec.buf = strconv.AppendBool(ec.buf, get(o)) }
}

// leafUnanswered is the writer of a field v2 has no source for: null,
// and the field named in the operation's warning (unanswered).
func leafUnanswered[T any](typ, name string) func(*execCtx, *collectedField, T) {
	return func(ec *execCtx, cf *collectedField, _ T) { ec.writeUnanswered(cf, typ, name) }
}

// writeLeafInt writes n as cf's schema type says (writeInt).
func (ec *execCtx) writeLeafInt(cf *collectedField, n int) {
	ec.writeIntAs(cf.leafType, int64(n))
}

// writeUnanswered writes null for a field v2 has no source for, named in
// the operation's warning the first time (noted).
func (ec *execCtx) writeUnanswered(cf *collectedField, typ, name string) {
	if !cf.noted {
		cf.noted = true
		ec.unanswered(typ, name)
	}
	ec.buf = append(ec.buf, "null"...)
}

// execCtx is one operation's execution: what its resolvers share.
type execCtx struct {
	ctx  context.Context
	env  *Env
	vars map[string]any
	doc  *ast.QueryDocument
	out  *Response
	// schema is the door's (enumIn reads its enums).
	schema *ast.Schema

	errs gqlerror.List
	// Where the executor is in the answer (errorPath): the steps of the
	// objects and lists it is in, and the step of the value it writes
	// (a leaf's costs no push and pop).
	path  []pathStep
	leaf  pathStep
	buf   []byte
	nulls []typeField // selected fields v2 has no source for (unanswered)

	// limited is the rate-limit error of the first plan that met one
	// (run): the root fields after it answer it without running.
	limited *planError
	// moreWarnings counts the warnings past maxWarnings (addWarning).
	moreWarnings int

	// renamed are the inputs of the root field running that its plan
	// knows by their v1 names (runNamed): a warning about one says which
	// input it was.
	renamed renamed

	// inputs are the input arguments of the root field running
	// (rootInput), whose unread fields it names once it ran.
	inputs []input

	// memo holds what resolvers read once per operation (the GPU
	// catalog for each lowestPrice input, ...), by a key of their own.
	memo map[string]any

	// results are the answers of the plans run (run), whose models the
	// answer is written from: released once it is (releaseResults).
	results []*translate.Result

	// ports is the storage of the runtime ports of the pod being written
	// (podRuntimeFields' ports): a pod's ports are written before the
	// next pod's are resolved, so one storage serves a whole list.
	ports struct {
		exposed []runtimePort
		objects []object
	}
}

// args is f's arguments with the operation's variables applied.
func (ec *execCtx) args(f *ast.Field) map[string]any { return f.ArgumentMap(ec.vars) }

// fail records a field error at the current path; the field reads null.
func (ec *execCtx) fail(f *ast.Field, err error) {
	e := &gqlerror.Error{Message: err.Error(), Path: ec.errorPath()}
	if f != nil && f.Position != nil {
		e.Locations = []gqlerror.Location{{Line: f.Position.Line, Column: f.Position.Column}}
	}
	if x, ok := err.(interface{ Extensions() map[string]any }); ok {
		e.Extensions = x.Extensions()
	} else {
		// An error of the gateway's own making (a schema field without
		// a binding, a value of a type the executor cannot write).
		e.Extensions = map[string]any{"code": "INTERNAL_SERVER_ERROR"}
	}
	ec.errs = append(ec.errs, e)
}

// pathStep is one step of the path to the value being written: a
// response key, or an index in a list (key ""). The path is kept as plain
// values and made an ast.Path only for an error.
type pathStep struct {
	key   string
	index int
}

// errorPath is the current path, as a GraphQL error's path.
func (ec *execCtx) errorPath() ast.Path {
	p := make(ast.Path, 0, len(ec.path)+1)
	for _, s := range append(ec.path[:len(ec.path):len(ec.path)], ec.leaf) {
		if s.key != "" {
			p = append(p, ast.PathName(s.key))
		} else {
			p = append(p, ast.PathIndex(s.index))
		}
	}
	return p
}

// enter makes the value being written (a list, an object) part of the
// path of what is written in it; leave undoes it.
func (ec *execCtx) enter() { ec.path = append(ec.path, ec.leaf) }
func (ec *execCtx) leave() { ec.path = ec.path[:len(ec.path)-1] }

// collectedField is one response key of a selection set: the fields
// selected under it (several when a key is selected twice, by fragments),
// and the key as written in the answer ("key": for the first member,
// ,"key": for the others).
type collectedField struct {
	key    string
	fields []*ast.Field
	member []byte
	// write is the field's leaf writer when the objects' type has one,
	// else resolve its resolver for a tabledObject (nil: the object's
	// field method), both found for the first object (found).
	write   leafWriter
	resolve fieldResolver
	found   bool
	// leafType is the name of the field's schema type (Int, Float, ...):
	// how a leaf writer writes a number.
	leafType string
	// noted is set once the field is named in the operation's warning of
	// fields v2 has no source for (unanswered).
	noted bool
	// sub is the field's own selection set as collected for the type of
	// its objects (subType): once per operation, not once per object.
	sub     []collectedField
	subType string
}

// fields is collect of set for typ, done once per operation when set is
// the own selection set of owner, the collected field whose objects are
// written (nil: set is the operation's or a merged one, collected anew). A
// field's objects are all of one type (the schema has no interface or
// union); another type is collected anew.
func (ec *execCtx) fields(set ast.SelectionSet, typ string, owner *collectedField) []collectedField {
	if owner == nil {
		return ec.collectMembers(set, typ)
	}
	if owner.sub != nil && owner.subType == typ {
		return owner.sub
	}
	owner.sub, owner.subType = ec.collectMembers(set, typ), typ
	return owner.sub
}

// collectMembers is collect, with each key written as an object member.
// The members are written into one buffer, each a piece of it.
func (ec *execCtx) collectMembers(set ast.SelectionSet, typ string) []collectedField {
	fs := ec.collect(set, typ, make([]collectedField, 0, len(set)), nil)
	n := 0
	for i := range fs {
		n += len(fs[i].key) + 4
	}
	members := make([]byte, 0, n)
	for i := range fs {
		start := len(members)
		if i > 0 {
			members = append(members, ',')
		}
		members = append(appendString(members, fs[i].key), ':')
		fs[i].member = members[start:len(members):len(members)]
	}
	return fs
}

// collecting is one collect's state: the fields gathered, the fragments
// spread already, and, once there are more than a few keys, an index of
// them (a linear search per field would make a selection set of many
// aliases quadratic).
type collecting struct {
	into  []collectedField
	seen  map[string]bool
	index map[string]int
}

// collectIndexFrom is the number of keys from which collect indexes them:
// above the largest selection set of the known clients (36 fields), so
// that their documents never pay for the map.
const collectIndexFrom = 64

// keyAt is the position of key in cs.into, -1 when absent.
func (cs *collecting) keyAt(key string) int {
	if cs.index != nil {
		if i, ok := cs.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range cs.into {
		if cs.into[i].key == key {
			return i
		}
	}
	return -1
}

// add appends a new key.
func (cs *collecting) add(key string, f *ast.Field) {
	cs.into = append(cs.into, collectedField{key: key, fields: []*ast.Field{f}})
	switch {
	case cs.index != nil:
		cs.index[key] = len(cs.into) - 1
	case len(cs.into) > collectIndexFrom:
		cs.index = make(map[string]int, 2*len(cs.into))
		for i := range cs.into {
			cs.index[cs.into[i].key] = i
		}
	}
}

// collect gathers the fields of set that apply to an object of type typ,
// in order, merging those with the same response key (CollectFields),
// after into; seen are the fragments spread already (nil: none).
func (ec *execCtx) collect(set ast.SelectionSet, typ string, into []collectedField, seen map[string]bool) []collectedField {
	return ec.gather(set, typ, collecting{into: into, seen: seen}).into
}

// gather is collect, into cs (a value, not a pointer: it stays on the
// stack).
func (ec *execCtx) gather(set ast.SelectionSet, typ string, cs collecting) collecting {
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
			if i := cs.keyAt(key); i >= 0 {
				cs.into[i].fields = append(cs.into[i].fields, s)
			} else {
				cs.add(key, s)
			}
		case *ast.InlineFragment:
			if !ec.included(s.Directives) || (s.TypeCondition != "" && s.TypeCondition != typ) {
				continue
			}
			cs = ec.gather(s.SelectionSet, typ, cs)
		case *ast.FragmentSpread:
			if !ec.included(s.Directives) || cs.seen[s.Name] {
				continue
			}
			def := s.Definition
			if def == nil {
				def = ec.doc.Fragments.ForName(s.Name)
			}
			if def == nil || (def.TypeCondition != "" && def.TypeCondition != typ) {
				continue
			}
			if cs.seen == nil {
				cs.seen = map[string]bool{}
			}
			cs.seen[s.Name] = true
			cs = ec.gather(def.SelectionSet, typ, cs)
		}
	}
	return cs
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

// writeObject writes o as the JSON object of the fields set selects;
// owner is the collected field whose selection set set is (nil: the
// operation's, or a merged one), by which its fields are collected once
// (fields).
func (ec *execCtx) writeObject(o object, set ast.SelectionSet, owner *collectedField) {
	fields := ec.fields(set, o.typeName(), owner)
	ec.buf = append(ec.buf, '{')
	for i := range fields {
		cf := &fields[i]
		ec.buf = append(ec.buf, cf.member...)
		f := cf.fields[0]
		ec.leaf = pathStep{key: cf.key}
		if !cf.found {
			cf.find(o, f)
		}
		if cf.write != nil && cf.write(ec, cf, o) {
			continue
		}
		if f.Name == "__typename" {
			ec.buf = appendString(ec.buf, o.typeName())
		} else {
			v, err := ec.resolve(cf, o, f)
			if err != nil {
				ec.fail(f, err)
				ec.buf = append(ec.buf, "null"...)
			} else if len(cf.fields) == 1 {
				ec.writeValue(f, f.SelectionSet, cf, v)
			} else {
				ec.writeValue(f, mergedSelection(cf.fields), nil, v)
			}
		}
	}
	ec.buf = append(ec.buf, '}')
}

// find looks the writer or resolver of cf's field up for objects of o's
// type, once per selection set.
func (cf *collectedField) find(o object, f *ast.Field) {
	cf.found = true
	cf.leafType = leafType(f)
	if l, ok := o.(leafObject); ok {
		if cf.write = l.writerFor(f.Name); cf.write != nil {
			return
		}
	}
	if t, ok := o.(tabledObject); ok {
		if cf.resolve = t.resolverFor(f.Name); cf.resolve == nil && f.Name != "__typename" {
			// In neither of the type's tables: no v2 source (resolveIn's
			// default), written as null without a call per object.
			cf.write = unansweredWriter(o)
		}
	}
}

// unansweredWriter is the writer of a field that the tables of first's
// type do not bind, for the objects of first's Go type: null, and the field
// named in the operation's warning once (writeUnanswered).
func unansweredWriter(first object) leafWriter {
	typ := reflect.TypeOf(first)
	return func(ec *execCtx, cf *collectedField, o object) bool {
		if reflect.TypeOf(o) != typ {
			return false
		}
		ec.writeUnanswered(cf, o.typeName(), cf.fields[0].Name)
		return true
	}
}

// resolve resolves the field f of cf for o: through cf's resolver when o's
// type has one (find), else o.field.
func (ec *execCtx) resolve(cf *collectedField, o object, f *ast.Field) (any, error) {
	if cf.resolve == nil {
		return o.field(ec, f) // not in a table: field resolves it or says so
	}
	return cf.resolve(o, ec, f)
}

// mergedSelection is the selection set of a response key selected by
// several fields (fragments that select the same object field).
func mergedSelection(fs []*ast.Field) ast.SelectionSet {
	var set ast.SelectionSet
	for _, f := range fs {
		set = append(set, f.SelectionSet...)
	}
	return set
}

// writeValue writes a resolved value: leaves by their Go type (checked
// against the schema's leaf type), objects and lists by set (owner: as in
// writeObject). The concrete types come first, as resolvers give them
// most; the two interfaces (object, jsonWriter) last.
func (ec *execCtx) writeValue(f *ast.Field, set ast.SelectionSet, owner *collectedField, v any) {
	switch x := v.(type) {
	case nil:
		ec.buf = append(ec.buf, "null"...)
	case *string:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.buf = appendString(ec.buf, *x)
	case string:
		ec.buf = appendString(ec.buf, x)
	case *int:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.writeInt(f, int64(*x))
	case int:
		ec.writeInt(f, int64(x))
	case int64:
		ec.writeInt(f, x)
	case *float64:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.writeFloat(f, *x)
	case float64:
		ec.writeFloat(f, x)
	case *bool:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.buf = strconv.AppendBool(ec.buf, *x)
	case bool:
		ec.buf = strconv.AppendBool(ec.buf, x)
	case json.RawMessage:
		if len(x) == 0 {
			ec.buf = append(ec.buf, "null"...)
		} else {
			ec.buf = append(ec.buf, x...)
		}
	case []object:
		ec.writeObjects(x, set, owner)
	case *[]object:
		ec.writeObjects(*x, set, owner)
	case []any:
		if x == nil {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.buf = append(ec.buf, '[')
		ec.enter()
		for i, e := range x {
			if i > 0 {
				ec.buf = append(ec.buf, ',')
			}
			ec.leaf = pathStep{index: i}
			ec.writeValue(f, set, owner, e)
		}
		ec.leave()
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
	default:
		switch x := v.(type) {
		case object:
			ec.enter()
			ec.writeObject(x, set, owner)
			ec.leave()
		case jsonWriter:
			ec.buf = x.appendJSON(ec.buf)
		default:
			ec.fail(f, fmt.Errorf("%s: the gateway produced a value of type %T", f.Name, v))
			ec.buf = append(ec.buf, "null"...)
		}
	}
}

// writeObjects writes a list of objects (nil: null), each by set.
func (ec *execCtx) writeObjects(x []object, set ast.SelectionSet, owner *collectedField) {
	if x == nil {
		ec.buf = append(ec.buf, "null"...)
		return
	}
	ec.buf = append(ec.buf, '[')
	ec.enter()
	for i, o := range x {
		if i > 0 {
			ec.buf = append(ec.buf, ',')
		}
		if o == nil {
			ec.buf = append(ec.buf, "null"...)
			continue
		}
		ec.leaf = pathStep{index: i}
		ec.enter()
		ec.writeObject(o, set, owner)
		ec.leave()
	}
	ec.leave()
	ec.buf = append(ec.buf, ']')
}

// leafType is the name of f's type (Int, Float, ...).
func leafType(f *ast.Field) string {
	if f.Definition == nil || f.Definition.Type == nil {
		return ""
	}
	return namedType(f.Definition.Type)
}

// writeInt writes an integer: as a number in a Float field.
func (ec *execCtx) writeInt(f *ast.Field, n int64) { ec.writeIntAs(leafType(f), n) }

// writeIntAs is writeInt for a field of the schema type typ: an integer
// is the same JSON number in a Float field (16, as encoding/json writes
// 16.0), so it is written as one either way (the vendor's schema types
// Pod.memoryInGb, vcpuCount and volumeInGb Float).
func (ec *execCtx) writeIntAs(_ string, n int64) {
	ec.buf = strconv.AppendInt(ec.buf, n, 10)
}

// writeFloat writes a float. Int fields are written as integers whatever
// the Go type (clients decode counts into integers); a float that is not a
// whole number in an Int field is an error, as GraphQL's Int coercion says.
func (ec *execCtx) writeFloat(f *ast.Field, x float64) { ec.writeFloatAs(leafType(f), f, x) }

// writeFloatAs is writeFloat for f, a field of the schema type typ.
func (ec *execCtx) writeFloatAs(typ string, f *ast.Field, x float64) {
	if typ == "Int" {
		if x != math.Trunc(x) || math.IsInf(x, 0) || math.Abs(x) > 1<<31-1 {
			ec.fail(f, fmt.Errorf("%s.%s: %v is not an Int", f.ObjectDefinition.Name, f.Name, x))
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.buf = strconv.AppendInt(ec.buf, int64(x), 10)
		return
	}
	ec.buf = appendFloat(ec.buf, x)
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
// characters escaped, invalid UTF-8 replaced by U+FFFD (as encoding/json
// writes it, but for HTML escapes): podjson's writer, the v1 answers'.
func appendString(b []byte, s string) []byte { return podjson.AppendString(b, s) }

// sortedKeys is m's keys in order (for stable messages).
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
