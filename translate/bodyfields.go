package translate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/v1gateway/v1gateway/podjson"
)

// This file reads the top-level fields of a v1 JSON object body (pods,
// endpoints, templates), one typed reader per kind of value, collecting one
// message per faulty field so that every problem names its field.

// bodyFields reads the top-level fields of a v1 JSON object body, collecting
// one message per faulty field.
type bodyFields struct {
	obj  map[string]json.RawMessage
	errs []string // "field: problem"
	// limits are the fields of errs whose value v1 accepted and v2 cannot
	// take (v2Limit): their 400 is counted (v2_limit_refused, P7a).
	limits []string
}

// parseBodyObject decodes body as one JSON object. schema names the v1
// schema in messages.
func parseBodyObject(body []byte, schema string) (*bodyFields, string) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return nil, "request body is required: a JSON object (" + schema + ")"
	}
	if trimmed[0] != '{' {
		if !json.Valid(trimmed) {
			return nil, "request body is not valid JSON"
		}
		return nil, "request body must be a JSON object (" + schema + ")"
	}
	if err := podjson.CheckJSON(trimmed); err != nil {
		return nil, err.Error()
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &obj); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Sprintf("request body is not valid JSON: %s (at byte %d)", se.Error(), se.Offset)
		}
		return nil, "request body is not valid JSON: " + err.Error()
	}
	return &bodyFields{obj: obj}, ""
}

// unknown lists the keys outside known, sorted. A key sent as "", null,
// [] or {} is not listed: nothing was asked for, so nothing is being
// ignored.
func (b *bodyFields) unknown(known map[string]struct{}) []string {
	var out []string
	for k, r := range b.obj {
		if _, ok := known[k]; !ok && !isUnset(r) && string(r) != "[]" && string(r) != "{}" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func (b *bodyFields) fail(field, format string, args ...any) {
	b.errs = append(b.errs, field+": "+fmt.Sprintf(format, args...))
}

// v2Limit is fail for a value v1 accepted that v2 cannot take (a 5 GB
// volume, 3 vCPUs): the same 400, and a refusal note about field.
func (b *bodyFields) v2Limit(field, format string, args ...any) {
	b.fail(field, format, args...)
	b.limits = append(b.limits, field)
}

// limitMsg adds msg, a v2 limit's message starting with "<field>: ".
func (b *bodyFields) limitMsg(field, msg string) {
	b.errs = append(b.errs, msg)
	b.limits = append(b.limits, field)
}

// failure is the 400 of a body of schema with faults, naming each; every
// fault that is a v2 limit is also a v2_limit_refused note about its field,
// so that /usage counts the refusals of what v1 accepted (P7a).
func (b *bodyFields) failure(schema string) *Result {
	msg := "invalid " + schema + ": " + strings.Join(b.errs, "; ")
	r := Fail(400, msg)
	for _, f := range b.limits {
		r.Notes = append(r.Notes, Note{Code: CodeV2LimitRefused, Field: f, Message: msg})
	}
	return r
}

// raw returns a field's JSON; absent, null and the empty string are all
// "not sent" (P3, issue 14 item 1a: clients that send every field they know
// send "" for the ones the user did not give), so v1's default applies on a
// create and the value is left unchanged on an update. A field where null
// has a meaning of its own reads b.obj itself (isNull).
func (b *bodyFields) raw(field string) (json.RawMessage, bool) {
	r, ok := b.obj[field]
	if !ok || isUnset(r) {
		return nil, false
	}
	return r, true
}

// isUnset reports whether a field's JSON means "not sent": null or "".
func isUnset(r json.RawMessage) bool { return isJSONNull(r) || string(r) == `""` }

// isNull reports whether the field was sent as an explicit null.
func (b *bodyFields) isNull(field string) bool {
	r, ok := b.obj[field]
	return ok && isJSONNull(r)
}

func isJSONNull(r json.RawMessage) bool { return string(r) == "null" }

func jsonKind(r json.RawMessage) string {
	if len(r) == 0 {
		return "nothing"
	}
	switch r[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func (b *bodyFields) str(field string) (string, bool) {
	r, ok := b.raw(field)
	if !ok {
		return "", false
	}
	var s string
	if r[0] != '"' || json.Unmarshal(r, &s) != nil {
		b.fail(field, "must be a string, got %s", jsonKind(r))
		return "", false
	}
	return s, true
}

func (b *bodyFields) boolean(field string) (bool, bool) {
	r, ok := b.raw(field)
	if !ok {
		return false, false
	}
	switch string(r) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	b.fail(field, "must be a boolean, got %s", jsonKind(r))
	return false, false
}

// integer reads an integer (a JSON number without a fractional part).
func (b *bodyFields) integer(field string) (int, bool) {
	r, ok := b.raw(field)
	if !ok {
		return 0, false
	}
	if c := r[0]; c != '-' && (c < '0' || c > '9') {
		b.fail(field, "must be an integer, got %s", jsonKind(r))
		return 0, false
	}
	if n, err := strconv.ParseInt(string(r), 10, 32); err == nil {
		return int(n), true
	}
	f, err := strconv.ParseFloat(string(r), 64)
	if err != nil || f != math.Trunc(f) {
		b.fail(field, "must be an integer, got %s", string(r))
		return 0, false
	}
	if f > math.MaxInt32 || f < math.MinInt32 {
		b.fail(field, "%s is out of range", string(r))
		return 0, false
	}
	return int(f), true
}

func (b *bodyFields) number(field string) (float64, bool) {
	r, ok := b.raw(field)
	if !ok {
		return 0, false
	}
	if c := r[0]; c != '-' && (c < '0' || c > '9') {
		b.fail(field, "must be a number, got %s", jsonKind(r))
		return 0, false
	}
	f, err := strconv.ParseFloat(string(r), 64)
	if err != nil {
		b.fail(field, "must be a number, got %s", string(r))
		return 0, false
	}
	return f, true
}

func (b *bodyFields) strings(field string) ([]string, bool) {
	r, ok := b.raw(field)
	if !ok {
		return nil, false
	}
	if r[0] != '[' {
		b.fail(field, "must be an array of strings, got %s", jsonKind(r))
		return nil, false
	}
	var items []json.RawMessage
	if err := json.Unmarshal(r, &items); err != nil {
		b.fail(field, "must be an array of strings")
		return nil, false
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		var s string
		if len(it) == 0 || it[0] != '"' || json.Unmarshal(it, &s) != nil {
			b.fail(field, "element %d must be a string, got %s", i, jsonKind(it))
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// enum reads a string restricted to allowed.
func (b *bodyFields) enum(field string, allowed map[string]struct{}) (string, bool) {
	s, ok := b.str(field)
	if !ok {
		return "", false
	}
	if _, in := allowed[s]; !in {
		b.fail(field, "%q is not one of %s", s, listOf(allowed))
		return "", false
	}
	return s, true
}

// enumList reads an array of strings restricted to allowed, without
// duplicates (first occurrence kept).
func (b *bodyFields) enumList(field string, allowed map[string]struct{}) ([]string, bool) {
	vals, ok := b.strings(field)
	if !ok {
		return nil, false
	}
	out := vals[:0]
	for _, v := range vals {
		if _, in := allowed[v]; !in {
			b.fail(field, "%q is not a valid value", v)
			return nil, false
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, true
}

// env reads a v1 env object; every value must be a string (v2 env is
// {string: string}).
func (b *bodyFields) env(field string) (map[string]string, bool) {
	r, ok := b.raw(field)
	if !ok {
		return nil, false
	}
	if r[0] != '{' {
		b.fail(field, "must be an object of strings, got %s", jsonKind(r))
		return nil, false
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(r, &obj); err != nil {
		b.fail(field, "must be an object of strings")
		return nil, false
	}
	out := make(map[string]string, len(obj))
	var bad []string
	for k, v := range obj {
		var s string
		if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
			bad = append(bad, k)
			continue
		}
		out[k] = s
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		for _, k := range bad {
			b.fail(field+"."+k, "must be a string, got %s", jsonKind(obj[k]))
		}
		return nil, false
	}
	return out, true
}

// ports reads v1 ports: an array of "port/protocol" strings, or (H-ports,
// the form of v1's own documented default) one comma-separated string.
func (b *bodyFields) ports(field string) ([]string, bool) {
	r, ok := b.raw(field)
	if !ok {
		return nil, false
	}
	if r[0] == '"' {
		s, _ := b.str(field)
		return splitPorts(nil, s), true
	}
	vals, ok := b.strings(field)
	if !ok {
		return nil, false
	}
	out := []string{}
	for i, v := range vals {
		if strings.TrimSpace(v) == "" {
			b.fail(field, "element %d is empty", i)
			return nil, false
		}
		out = splitPorts(out, v)
	}
	return out, true
}

// splitPorts appends the ports of one v1 ports value to out: real clients
// send comma-joined elements ("8888/http,22/tcp"), with spaces ("8888/http,
// 22/tcp"), which v2 rejects; each becomes its own v2 port, trimmed, and a
// port already listed is not listed twice.
func splitPorts(out []string, s string) []string {
	if out == nil {
		out = []string{}
	}
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func listOf(m map[string]struct{}) string { return strings.Join(sortedKeys(m), ", ") }

// name checks v1 name rules (maxLength 191); "" is "not sent" (raw), which
// also keeps v2's minLength 1.
func (b *bodyFields) name(field string) (string, bool) {
	s, ok := b.str(field)
	if !ok {
		return "", false
	}
	if n := utf8.RuneCountInString(s); n > v1NameMaxLength {
		b.fail(field, "must be at most %d characters, got %d", v1NameMaxLength, n)
		return "", false
	}
	return s, true
}

// familyField is a create field of one compute family and the values that
// say nothing: v1's default and, for a few, 0 (besides null, "" and []),
// as encoding/json decodes them (float64, string).
type familyField struct {
	name  string
	quiet []any
}

// The create fields of each compute family (v1's document: "If set to CPU,
// ... properties related to GPUs such as gpuTypeIds will be ignored. If set
// to GPU, ... properties related to CPUs such as cpuFlavorIds will be
// ignored"). Of the fields outside the document, gpuTypeId has a warning
// of its own on a CPU pod, and a pod's minCudaVersion none: runpodctl sends
// its own default 12.4 on every create, CPU pods included.
var (
	podGPUFields = []familyField{{"gpuTypeIds", nil}, {"gpuCount", []any{1.0}}, {"allowedCudaVersions", nil},
		{"gpuTypePriority", []any{"availability"}}, {"minRAMPerGPU", []any{8.0, 0.0}},
		{"minVCPUPerGPU", []any{2.0, 0.0}}}
	podCPUFields = []familyField{{"cpuFlavorIds", nil}, {"cpuFlavorPriority", []any{"availability"}},
		{"vcpuCount", []any{2.0}}}
	endpointGPUFields = []familyField{{"gpuTypeIds", nil}, {"gpuCount", []any{1.0}}, {"allowedCudaVersions", nil},
		{"minCudaVersion", nil}}
	endpointCPUFields = []familyField{{"cpuFlavorIds", nil}, {"vcpuCount", []any{2.0}}}
)

// saying names the fields of fields the body sends with a value that says
// something: not null, "", [], v1's default or another quiet value. A
// create ignores them on the other compute family, as v1 did, and says so
// (otherFamilyWarning); the quiet ones are ignored without a word (P1),
// since clients send v1's defaults of both families.
func (b *bodyFields) saying(fields []familyField) []string {
	var out []string
	for _, f := range fields {
		r, ok := b.raw(f.name)
		if !ok {
			continue
		}
		var got any
		if json.Unmarshal(r, &got) != nil {
			continue
		}
		switch v := got.(type) {
		case []any:
			if len(v) == 0 {
				continue
			}
		case float64, string:
			if slices.Contains(f.quiet, got) {
				continue
			}
		}
		out = append(out, f.name)
	}
	return out
}

// otherFamilyWarning is the warning of a create that sent fields of the
// compute family it did not select (what, "pod" or "endpoint").
func otherFamilyWarning(fields []string, cpu bool, what string) string {
	if cpu {
		return "ignored " + strings.Join(fields, ", ") + ": the " + what + " is a CPU " + what + " (computeType CPU), and v1 ignored GPU fields on CPU " + what + "s"
	}
	return "ignored " + strings.Join(fields, ", ") + ": the " + what + " is a GPU " + what + " (computeType GPU, v1's default), and v1 ignored CPU fields on GPU " + what + "s"
}
