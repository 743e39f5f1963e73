package speccheck

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// nullsEntry is one Spec derived by WithNulls, built once.
type nullsEntry struct {
	once sync.Once
	spec *Spec
	err  error
}

// WithNulls returns a Spec like s in which a null is valid at the listed
// properties of the named component schemas, and nowhere else: nulls maps
// a schema name ("Pod") to property names ("templateId", or a path through
// inline objects, "machine.secureCloud"). Every object
// validated against that schema accepts null there, wherever the schema is
// reached — as the answer's own schema, an array's items or another
// schema's property by "$ref" (v1's Endpoint.template is a Template and its
// workers are Pods) — and an object validated against another schema does
// not. An inline schema (one without a component name) gets no allowance.
//
// It exists for the v1 document, whose OpenAPI 3.0 schemas mark no answer
// field nullable while v1 answered null where it had no value (its own
// examples show Pod.templateId: null): the gateway's table of those fields
// (translate.V1Nulls) is given here, so that a null the table does not
// name for that schema is still a contract error. A schema or property the
// document does not have is an error, so that the table cannot name a
// field that does not exist. The result is cached per allowance.
func (s *Spec) WithNulls(nulls map[string][]string) (*Spec, error) {
	key := nullsKey(nulls)
	s.nullsMu.Lock()
	if s.nulls == nil {
		s.nulls = map[string]*nullsEntry{}
	}
	e := s.nulls[key]
	if e == nil {
		e = &nullsEntry{}
		s.nulls[key] = e
	}
	s.nullsMu.Unlock()
	e.once.Do(func() { e.spec, e.err = s.withNulls(nulls) })
	return e.spec, e.err
}

func (s *Spec) withNulls(nulls map[string][]string) (*Spec, error) {
	doc, _ := deepCopy(s.doc).(map[string]any)
	comps, _ := doc["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	var errs []string
	for _, name := range sortedKeys(nulls) {
		sch, ok := schemas[name].(map[string]any)
		if !ok {
			errs = append(errs, fmt.Sprintf("no schema %s", name))
			continue
		}
		for _, p := range nulls[name] {
			props, last, ok := inlineProperties(sch, p)
			ps, found := props[last].(map[string]any)
			if !ok || !found {
				errs = append(errs, fmt.Sprintf("schema %s has no property %s", name, p))
				continue
			}
			props[last] = allowNull(ps)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("speccheck: %s: WithNulls: %s", s.name, strings.Join(errs, "; "))
	}
	return compileSpec(s.name, s.version, doc)
}

// inlineProperties finds a property of sch by its path: a name, or names
// joined by dots through inline object schemas ("machine.secureCloud": v1's
// Pod.machine is an object of its own, not a component schema). It returns
// the properties holding the last name, and the last name.
func inlineProperties(sch map[string]any, path string) (map[string]any, string, bool) {
	names := strings.Split(path, ".")
	for _, n := range names[:len(names)-1] {
		props, _ := sch["properties"].(map[string]any)
		next, ok := props[n].(map[string]any)
		if !ok {
			return nil, "", false
		}
		sch = next
	}
	props, ok := sch["properties"].(map[string]any)
	return props, names[len(names)-1], ok
}

// allowNull returns the schema sch that also accepts null: "null" added to
// a plain type (and to its enum), else (a "$ref", a "const", no type) the
// schema or null.
func allowNull(sch map[string]any) map[string]any {
	_, ref := sch["$ref"]
	_, cnst := sch["const"]
	if !ref && !cnst {
		typed := true
		switch t := sch["type"].(type) {
		case string:
			if t != "null" {
				sch["type"] = []any{t, "null"}
			}
		case []any:
			if !slices.Contains(t, any("null")) {
				sch["type"] = append(t, "null")
			}
		default:
			typed = false
		}
		if typed {
			if enum, ok := sch["enum"].([]any); ok && !slices.Contains(enum, nil) {
				sch["enum"] = append(enum, nil)
			}
			return sch
		}
	}
	return map[string]any{"anyOf": []any{sch, map[string]any{"type": "null"}}}
}

// nullsKey is a canonical form of an allowance, for the cache.
func nullsKey(nulls map[string][]string) string {
	var sb strings.Builder
	for _, name := range sortedKeys(nulls) {
		ps := slices.Clone(nulls[name])
		slices.Sort(ps)
		sb.WriteString(name + ":" + strings.Join(slices.Compact(ps), ",") + ";")
	}
	return sb.String()
}

// deepCopy copies a decoded JSON document (maps, slices and immutable
// scalars).
func deepCopy(v any) any {
	switch n := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(n))
		for k, x := range n {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		a := make([]any, len(n))
		for i, x := range n {
			a[i] = deepCopy(x)
		}
		return a
	}
	return v
}
