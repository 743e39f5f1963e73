package speccheck

import (
	"net/url"
	"strings"
)

// convert30 rewrites, in place, the Schema Objects of an OpenAPI 3.0
// document into JSON Schema draft 2020-12 form so the whole document can be
// compiled with the 2020-12 dialect:
//
//   - "nullable": true adds "null" to "type" (and null to "enum");
//   - boolean "exclusiveMinimum"/"exclusiveMaximum" become the numeric
//     draft-2020 form (taking the value of "minimum"/"maximum");
//   - siblings of "$ref" are dropped (OpenAPI 3.0 ignores them);
//   - "example" is dropped (annotation only).
//
// Only Schema Objects are touched: component schemas and the "schema" of
// parameters, headers and media types, and their subschemas. Example
// values are never descended into.
func convert30(doc map[string]any) {
	walkNonSchema(doc, false)
}

// walkNonSchema descends through non-schema OpenAPI objects looking for
// Schema Objects. components says whether node is the "components" object.
func walkNonSchema(node any, components bool) {
	switch n := node.(type) {
	case map[string]any:
		for k, v := range n {
			switch {
			case k == "example" || k == "examples" || strings.HasPrefix(k, "x-"):
				// values, not OpenAPI objects
			case k == "schema":
				convertSchema(v)
			case components && k == "schemas":
				if m, ok := v.(map[string]any); ok {
					for _, sch := range m {
						convertSchema(sch)
					}
				}
			default:
				walkNonSchema(v, k == "components")
			}
		}
	case []any:
		for _, v := range n {
			walkNonSchema(v, false)
		}
	}
}

// convertSchema converts one OpenAPI 3.0 Schema Object and its subschemas.
func convertSchema(node any) {
	s, ok := node.(map[string]any)
	if !ok {
		return
	}
	if _, ok := s["$ref"]; ok {
		for k := range s {
			if k != "$ref" {
				delete(s, k)
			}
		}
		return
	}
	delete(s, "example")
	if nullable, _ := s["nullable"].(bool); nullable {
		switch t := s["type"].(type) {
		case string:
			if t != "null" {
				s["type"] = []any{t, "null"}
			}
		case []any:
			if !containsValue(t, "null") {
				s["type"] = append(t, "null")
			}
		}
		if enum, ok := s["enum"].([]any); ok && !containsValue(enum, nil) {
			s["enum"] = append(enum, nil)
		}
	}
	delete(s, "nullable")
	for _, pair := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
		excl, bound := pair[0], pair[1]
		b, isBool := s[excl].(bool)
		if !isBool {
			continue
		}
		delete(s, excl)
		if v, ok := s[bound]; ok && b {
			s[excl] = v
			delete(s, bound)
		}
	}
	for _, k := range []string{"items", "additionalProperties", "not"} {
		convertSchema(s[k])
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if arr, ok := s[k].([]any); ok {
			for _, sub := range arr {
				convertSchema(sub)
			}
		}
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for _, sub := range props {
			convertSchema(sub)
		}
	}
}

func containsValue(arr []any, v any) bool {
	for _, x := range arr {
		if x == v {
			return true
		}
	}
	return false
}

// escapeToken escapes a JSON pointer reference token (RFC 6901).
func escapeToken(tok string) string {
	tok = strings.ReplaceAll(tok, "~", "~0")
	return strings.ReplaceAll(tok, "/", "~1")
}

// unescapeToken reverses escapeToken.
func unescapeToken(tok string) string {
	tok = strings.ReplaceAll(tok, "~1", "/")
	return strings.ReplaceAll(tok, "~0", "~")
}

// encodeFragment percent-encodes each token of a JSON pointer for use as a
// URI fragment, keeping the '/' separators.
func encodeFragment(ptr string) string {
	toks := strings.Split(ptr, "/")
	for i, t := range toks {
		toks[i] = url.PathEscape(t)
	}
	return strings.Join(toks, "/")
}

// lookup resolves a JSON pointer (without '#') in doc.
func lookup(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescapeToken(tok)
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i := 0
			if tok == "" {
				return nil, false
			}
			for _, r := range tok {
				if r < '0' || r > '9' {
					return nil, false
				}
				i = i*10 + int(r-'0')
				if i > len(c) {
					return nil, false
				}
			}
			if i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// resolveRef follows local "$ref"s (of OpenAPI objects such as responses,
// parameters, headers, request bodies) starting at the object at ptr. It
// returns the final object and its pointer.
func (s *Spec) resolveRef(obj map[string]any, ptr string) (map[string]any, string, bool) {
	for range 32 {
		ref, ok := obj["$ref"].(string)
		if !ok {
			return obj, ptr, true
		}
		if !strings.HasPrefix(ref, "#") {
			return nil, "", false // external refs are not supported
		}
		target := ref[1:]
		if dec, err := url.PathUnescape(target); err == nil {
			target = dec
		}
		v, ok := lookup(s.doc, target)
		if !ok {
			return nil, "", false
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, "", false
		}
		obj, ptr = m, target
	}
	return nil, "", false
}
