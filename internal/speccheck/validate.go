package speccheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Limits that keep error messages short enough for a test failure.
const (
	maxSchemaErrors = 8   // leaf schema errors listed per problem
	maxLineLen      = 300 // characters per listed schema error
	maxSnippetLen   = 120 // characters of an offending body quoted
)

// ContractError is returned by the Validate methods. It lists every problem
// found; Err holds the first underlying *jsonschema.ValidationError, if any.
type ContractError struct {
	Spec        string // spec file name
	Method      string // upper case; empty for ValidateSchema
	Path        string // as given; for ValidateSchema the schema ref
	Status      int    // response status; 0 for requests and ValidateSchema
	OperationID string // when the operation was found
	Template    string // path template, when the operation was found
	Problems    []string
	Err         error
}

func (e *ContractError) Error() string {
	var sb strings.Builder
	sb.WriteString("speccheck ")
	sb.WriteString(e.Spec)
	sb.WriteString(": ")
	switch {
	case e.Method == "":
		sb.WriteString("schema " + e.Path)
	default:
		sb.WriteString(e.Method + " " + e.Path)
		if e.OperationID != "" || e.Template != "" {
			sb.WriteString(" (" + e.OperationID)
			if e.Template != "" {
				if e.OperationID != "" {
					sb.WriteString(" ")
				}
				sb.WriteString(e.Template)
			}
			sb.WriteString(")")
		}
		if e.Status != 0 {
			fmt.Fprintf(&sb, " status %d", e.Status)
		} else {
			sb.WriteString(" request")
		}
	}
	sb.WriteString(": ")
	if len(e.Problems) == 1 {
		sb.WriteString(e.Problems[0])
	} else {
		for _, p := range e.Problems {
			sb.WriteString("\n  - ")
			sb.WriteString(strings.ReplaceAll(p, "\n", "\n    "))
		}
	}
	return sb.String()
}

// Unwrap returns the first underlying schema validation error, if any.
func (e *ContractError) Unwrap() error { return e.Err }

func (e *ContractError) add(format string, args ...any) {
	e.Problems = append(e.Problems, fmt.Sprintf(format, args...))
}

func (e *ContractError) result() error {
	if len(e.Problems) == 0 {
		return nil
	}
	return e
}

// ValidateResponse checks a response to method+path against the spec: the
// status must be documented (exactly, as a range like 2XX, or as default);
// when the documented response has content the Content-Type media type must
// be one of the documented ones and the body must match its schema; when it
// has none the body must be empty. Documented response headers that are
// present are checked against their schemas (required ones must be present).
func (s *Spec) ValidateResponse(method, path string, status int, header http.Header, body []byte) error {
	ce := &ContractError{Spec: s.name, Method: strings.ToUpper(method), Path: path, Status: status}
	op, _, err := s.findOp(method, path)
	if err != nil {
		ce.add("%v", err)
		return ce
	}
	ce.OperationID, ce.Template = op.id, op.path.template
	responses, _ := op.obj["responses"].(map[string]any)
	key, documented := responseKey(responses, status)
	if key == "" {
		ce.add("status %d not documented (documented: %s)", status, strings.Join(documented, ", "))
		return ce
	}
	rptr := op.ptr + "/responses/" + escapeToken(key)
	robj, _ := responses[key].(map[string]any)
	resp, rptr, ok := s.resolveRef(robj, rptr)
	if !ok {
		ce.add("response %s: unresolvable $ref", key)
		return ce
	}
	if headers, ok := resp["headers"].(map[string]any); ok {
		for _, name := range sortedKeys(headers) {
			if strings.EqualFold(name, "Content-Type") {
				continue // ignored by OpenAPI
			}
			h, _ := headers[name].(map[string]any)
			h, hptr, ok := s.resolveRef(h, rptr+"/headers/"+escapeToken(name))
			if !ok {
				ce.add("response header %s: unresolvable $ref", name)
				continue
			}
			values := header.Values(name)
			if len(values) == 0 {
				if req, _ := h["required"].(bool); req {
					ce.add("missing required response header %s", name)
				}
				continue
			}
			if _, ok := h["schema"].(map[string]any); ok {
				s.checkParam(ce, "response header "+name, hptr+"/schema", values, "simple", false)
			}
		}
	}
	content, _ := resp["content"].(map[string]any)
	s.checkContent(ce, "response", content, rptr+"/content", header.Get("Content-Type"), body, false)
	return ce.result()
}

// ValidateRequest checks a request against the spec: path, query and header
// parameters that are documented (values that are present, required ones
// must be present; undocumented ones are ignored), and the body against the
// operation's requestBody. A body for an operation without requestBody is an
// error. A Content-Type header, when given, must be a documented one; when
// absent the body is taken to be JSON.
func (s *Spec) ValidateRequest(method, path string, header http.Header, body []byte) error {
	ce := &ContractError{Spec: s.name, Method: strings.ToUpper(method), Path: path}
	op, pathVals, err := s.findOp(method, path)
	if err != nil {
		ce.add("%v", err)
		return ce
	}
	ce.OperationID, ce.Template = op.id, op.path.template
	var query url.Values
	if i := strings.IndexByte(path, '?'); i >= 0 {
		raw := path[i+1:]
		if j := strings.IndexByte(raw, '#'); j >= 0 {
			raw = raw[:j]
		}
		query, err = url.ParseQuery(raw)
		if err != nil {
			ce.add("invalid query string: %v", err)
		}
	}
	for _, p := range op.params {
		var values []string
		switch p.in {
		case "path":
			if v, ok := pathVals[p.name]; ok {
				values = []string{v}
			}
		case "query":
			values = query[p.name]
		case "header":
			switch strings.ToLower(p.name) {
			case "accept", "content-type", "authorization":
				continue // ignored by OpenAPI
			}
			values = header.Values(p.name)
		default:
			continue
		}
		what := p.in + " parameter " + p.name
		if len(values) == 0 {
			if p.required {
				ce.add("missing required %s", what)
			}
			continue
		}
		if p.schema != "" {
			s.checkParam(ce, what, p.schema, values, p.style, p.explode)
		}
	}
	rbPtr := op.ptr + "/requestBody"
	rbObj, _ := op.obj["requestBody"].(map[string]any)
	if rbObj == nil {
		if len(bytes.TrimSpace(body)) > 0 {
			ce.add("operation has no requestBody but a %d-byte body was given: %s", len(body), snippet(body))
		}
		return ce.result()
	}
	rb, rbPtr, ok := s.resolveRef(rbObj, rbPtr)
	if !ok {
		ce.add("requestBody: unresolvable $ref")
		return ce
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if req, _ := rb["required"].(bool); req {
			ce.add("request body is required but empty")
		}
		return ce.result()
	}
	content, _ := rb["content"].(map[string]any)
	s.checkContent(ce, "request", content, rbPtr+"/content", header.Get("Content-Type"), body, true)
	return ce.result()
}

// ValidateSchema validates a JSON body against the schema at ref, a local
// reference such as "#/components/schemas/Pod" (a bare component name like
// "Pod" is accepted too).
func (s *Spec) ValidateSchema(ref string, body []byte) error {
	ce := &ContractError{Spec: s.name, Path: ref}
	ptr, err := refPointer(ref)
	if err != nil {
		ce.add("%v", err)
		return ce
	}
	if _, ok := lookup(s.doc, ptr); !ok {
		ce.add("no such schema in the spec")
		return ce
	}
	sch, err := s.schema(ptr)
	if err != nil {
		ce.add("%v", err)
		return ce
	}
	v, err := parseJSON(body)
	if err != nil {
		ce.add("%v", err)
		return ce
	}
	s.validateValue(ce, "body", "", sch, v)
	return ce.result()
}

func refPointer(ref string) (string, error) {
	switch {
	case ref == "":
		return "", errors.New("empty schema ref")
	case strings.HasPrefix(ref, "#"):
		ptr, err := url.PathUnescape(ref[1:])
		if err != nil {
			return "", fmt.Errorf("invalid ref %q: %v", ref, err)
		}
		if ptr != "" && !strings.HasPrefix(ptr, "/") {
			return "", fmt.Errorf("invalid ref %q: want a JSON pointer like #/components/schemas/Pod", ref)
		}
		return ptr, nil
	case strings.ContainsAny(ref, "/#"):
		return "", fmt.Errorf("invalid ref %q: want a local ref like #/components/schemas/Pod", ref)
	default:
		return "/components/schemas/" + escapeToken(ref), nil
	}
}

// responseKey picks the responses entry for status: exact code, then range
// (e.g. "2XX"), then "default". It returns "" and the sorted documented keys
// when none applies.
func responseKey(responses map[string]any, status int) (string, []string) {
	code := strconv.Itoa(status)
	if _, ok := responses[code]; ok && status >= 100 && status <= 599 {
		return code, nil
	}
	if status >= 100 && status <= 599 {
		for k := range responses {
			if len(k) == 3 && k[0] == code[0] && strings.EqualFold(k[1:], "XX") {
				return k, nil
			}
		}
	}
	if _, ok := responses["default"]; ok {
		return "default", nil
	}
	return "", sortedKeys(responses)
}

// checkContent validates a body against a Content map (media type →
// Media Type Object). isRequest allows a missing Content-Type (JSON
// assumed).
func (s *Spec) checkContent(ce *ContractError, what string, content map[string]any, cptr, contentType string, body []byte, isRequest bool) {
	if len(content) == 0 {
		if len(bytes.TrimSpace(body)) > 0 {
			ce.add("documented %s has no content but the body has %d bytes: %s", what, len(body), snippet(body))
		}
		return
	}
	documented := sortedKeys(content)
	var mt string
	if contentType == "" {
		if !isRequest {
			ce.add("missing Content-Type header (documented: %s)", strings.Join(documented, ", "))
			return
		}
		mt = "application/json"
	} else {
		parsed, _, err := mime.ParseMediaType(contentType)
		if err != nil {
			ce.add("invalid Content-Type %q: %v", contentType, err)
			return
		}
		mt = parsed
	}
	key := matchMediaType(documented, mt)
	if key == "" {
		ce.add("Content-Type %s not documented (documented: %s)", mt, strings.Join(documented, ", "))
		return
	}
	media, _ := content[key].(map[string]any)
	if _, ok := media["schema"].(map[string]any); !ok {
		return
	}
	sptr := cptr + "/" + escapeToken(key) + "/schema"
	sch, err := s.schema(sptr)
	if err != nil {
		ce.add("%v", err)
		return
	}
	var v any
	if isJSONMediaType(mt) {
		if len(bytes.TrimSpace(body)) == 0 {
			ce.add("%s body is empty, want %s", what, mt)
			return
		}
		v, err = parseJSON(body)
		if err != nil {
			ce.add("%s body: %v", what, err)
			return
		}
	} else {
		if !utf8.Valid(body) {
			ce.add("%s body (%s) is not valid UTF-8", what, mt)
			return
		}
		v = string(body)
	}
	s.validateValue(ce, what+" body", s.schemaName(sptr), sch, v)
}

func matchMediaType(documented []string, mt string) string {
	norm := func(k string) string {
		if p, _, err := mime.ParseMediaType(k); err == nil {
			return p
		}
		return strings.ToLower(strings.TrimSpace(k))
	}
	for _, k := range documented {
		if norm(k) == mt {
			return k
		}
	}
	typ, _, _ := strings.Cut(mt, "/")
	for _, k := range documented {
		if n := norm(k); n == typ+"/*" {
			return k
		}
	}
	for _, k := range documented {
		if norm(k) == "*/*" {
			return k
		}
	}
	return ""
}

func isJSONMediaType(mt string) bool {
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

func parseJSON(body []byte) (any, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("not valid JSON (%v): %s", err, snippet(body))
	}
	return v, nil
}

// checkParam validates the string values of a parameter or header against
// the schema at sptr, coercing them according to the schema's type.
func (s *Spec) checkParam(ce *ContractError, what, sptr string, values []string, style string, explode bool) {
	sch, err := s.schema(sptr)
	if err != nil {
		ce.add("%s: %v", what, err)
		return
	}
	node := s.schemaNode(sptr)
	var v any
	if schemaType(node) == "array" {
		sep := ","
		switch style {
		case "spaceDelimited":
			sep = " "
		case "pipeDelimited":
			sep = "|"
		}
		itemType := schemaType(s.resolveSchema(node["items"]))
		arr := []any{}
		for _, raw := range values {
			parts := []string{raw}
			if !explode || style != "form" {
				parts = strings.Split(raw, sep)
			}
			for _, p := range parts {
				arr = append(arr, coerce(p, itemType))
			}
		}
		v = arr
	} else {
		if len(values) > 1 {
			ce.add("%s given %d times, want once", what, len(values))
			return
		}
		v = coerce(values[0], schemaType(node))
	}
	s.validateValue(ce, what, fmt.Sprintf("%q", values), sch, v)
}

// coerce converts a parameter's string value to the JSON type typ; values
// that do not convert stay strings so that validation reports them.
func coerce(v, typ string) any {
	switch typ {
	case "integer", "number":
		if strings.TrimSpace(v) != v {
			return v
		}
		if n, err := jsonschema.UnmarshalJSON(strings.NewReader(v)); err == nil {
			if num, ok := n.(json.Number); ok {
				return num
			}
		}
	case "boolean":
		switch v {
		case "true":
			return true
		case "false":
			return false
		}
	}
	return v
}

// schemaNode returns the schema object at ptr with local $refs followed.
func (s *Spec) schemaNode(ptr string) map[string]any {
	v, _ := lookup(s.doc, ptr)
	return s.resolveSchema(v)
}

func (s *Spec) resolveSchema(v any) map[string]any {
	m, _ := v.(map[string]any)
	if m == nil {
		return nil
	}
	r, _, ok := s.resolveRef(m, "")
	if !ok {
		return m
	}
	return r
}

// schemaType returns the first non-null "type" of a schema, or the type of
// its first enum/const value, or "".
func schemaType(node map[string]any) string {
	switch t := node["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if xs, ok := x.(string); ok && xs != "null" {
				return xs
			}
		}
	}
	var sample any
	if enum, ok := node["enum"].([]any); ok && len(enum) > 0 {
		sample = enum[0]
	} else if c, ok := node["const"]; ok {
		sample = c
	}
	switch sample.(type) {
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case string:
		return "string"
	}
	return ""
}

// schemaName describes the schema at ptr for messages: the target of a
// lone "$ref", else the pointer itself.
func (s *Spec) schemaName(ptr string) string {
	v, _ := lookup(s.doc, ptr)
	if m, ok := v.(map[string]any); ok {
		if ref, ok := m["$ref"].(string); ok {
			return ref
		}
	}
	return "#" + ptr
}

func (s *Spec) validateValue(ce *ContractError, what, against string, sch *jsonschema.Schema, v any) {
	err := sch.Validate(v)
	if err == nil {
		return
	}
	if ce.Err == nil {
		ce.Err = err
	}
	if against == "" {
		ce.add("%s does not match the schema:\n%s", what, describe(err))
		return
	}
	ce.add("%s does not match %s:\n%s", what, against, describe(err))
}

// describe flattens a jsonschema validation error into its leaf errors,
// one per line ("at '/json/pointer': message"), capped for readability.
func describe(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return "  " + trim(err.Error(), maxLineLen)
	}
	// Errors from "false" schemas (unknown properties) are listed after the
	// others: with unevaluatedProperties they can be a mere consequence of
	// another failure, since a failing allOf branch evaluates nothing.
	var leaves, falseLeaves []string
	seen := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			msg := trim(strings.ReplaceAll(leafMessage(e), "\n", " "), maxLineLen)
			if !seen[msg] {
				seen[msg] = true
				if _, ok := e.ErrorKind.(*kind.FalseSchema); ok {
					falseLeaves = append(falseLeaves, msg)
				} else {
					leaves = append(leaves, msg)
				}
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(leaves) > 0 && len(falseLeaves) > 0 {
		falseLeaves[0] += " [unknown-property errors may follow from the errors above]"
	}
	leaves = append(leaves, falseLeaves...)
	extra := 0
	if len(leaves) > maxSchemaErrors {
		extra = len(leaves) - maxSchemaErrors
		leaves = leaves[:maxSchemaErrors]
	}
	out := "  " + strings.Join(leaves, "\n  ")
	if extra > 0 {
		out += fmt.Sprintf("\n  ... and %d more", extra)
	}
	return out
}

// leafMessage renders a leaf validation error as "at '<pointer>': msg",
// with friendlier wording for the root location and for "false" schemas
// (unevaluatedProperties/additionalProperties: false).
func leafMessage(e *jsonschema.ValidationError) string {
	msg := e.Error()
	if _, ok := e.ErrorKind.(*kind.FalseSchema); ok {
		loc := e.SchemaURL
		if i := strings.IndexByte(loc, '#'); i >= 0 {
			loc = loc[i:]
		}
		name := ""
		if n := len(e.InstanceLocation); n > 0 {
			name = e.InstanceLocation[n-1]
		}
		switch {
		case strings.HasSuffix(loc, "/unevaluatedProperties") || strings.HasSuffix(loc, "/additionalProperties"):
			msg = fmt.Sprintf("at '%s': property '%s' is not allowed (%s)", pointerOf(e.InstanceLocation), name, loc)
		default:
			msg = fmt.Sprintf("at '%s': value not allowed (false schema %s)", pointerOf(e.InstanceLocation), loc)
		}
	}
	if rest, ok := strings.CutPrefix(msg, "at '':"); ok {
		msg = "at (root):" + rest
	}
	return msg
}

func pointerOf(toks []string) string {
	var sb strings.Builder
	for _, t := range toks {
		sb.WriteByte('/')
		sb.WriteString(escapeToken(t))
	}
	return sb.String()
}

func trim(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func snippet(body []byte) string {
	return strconv.Quote(trim(string(bytes.TrimSpace(body)), maxSnippetLen))
}

// operationSchemas lists the JSON pointers of every schema op uses.
func (s *Spec) operationSchemas(op *operation) []string {
	var out []string
	for _, p := range op.params {
		if p.schema != "" {
			out = append(out, p.schema)
		}
	}
	addContent := func(obj map[string]any, ptr string) {
		content, _ := obj["content"].(map[string]any)
		for _, k := range sortedKeys(content) {
			if m, ok := content[k].(map[string]any); ok {
				if _, ok := m["schema"].(map[string]any); ok {
					out = append(out, ptr+"/content/"+escapeToken(k)+"/schema")
				}
			}
		}
	}
	if rb, ok := op.obj["requestBody"].(map[string]any); ok {
		if rb, ptr, ok := s.resolveRef(rb, op.ptr+"/requestBody"); ok {
			addContent(rb, ptr)
		}
	}
	responses, _ := op.obj["responses"].(map[string]any)
	for _, code := range sortedKeys(responses) {
		r, _ := responses[code].(map[string]any)
		r, rptr, ok := s.resolveRef(r, op.ptr+"/responses/"+escapeToken(code))
		if !ok {
			continue
		}
		addContent(r, rptr)
		headers, _ := r["headers"].(map[string]any)
		for _, name := range sortedKeys(headers) {
			h, _ := headers[name].(map[string]any)
			if h, hptr, ok := s.resolveRef(h, rptr+"/headers/"+escapeToken(name)); ok {
				if _, ok := h["schema"].(map[string]any); ok {
					out = append(out, hptr+"/schema")
				}
			}
		}
	}
	return out
}
