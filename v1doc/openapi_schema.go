package v1doc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/v1gateway/v1gateway/translate"
)

// This file holds the small OpenAPI 3.0 model the gateway's own v1 document
// is built from (openapi.go), and a reflection-based generator that derives
// JSON schemas from Go types: the v1 answers translate writes (the
// reflect.Types of translate.DescribeV1) and the declarations of the v1
// request bodies it reads (openapi_inputs.go). Field order is kept, so that
// the document and the docs page list fields as the types declare them.
//
// Struct tags read by the generator, besides json:
//
//	doc:"..."        description (what the gateway does with the field)
//	enum:"name"      string enum from oaEnums (arrays: enum of the items)
//	format:"..."     format (date-time, ...)
//	default:"json"   default value, as JSON
//	min:"n" max:"n"  numeric bounds
//	req:"1"          required property
//	nullable:"1"     nullable (OpenAPI 3.0)

// omap is a JSON object whose members keep their insertion order.
type omap[V any] []okv[V]

type okv[V any] struct {
	Key   string
	Value V
}

func (m *omap[V]) set(k string, v V) {
	for i := range *m {
		if (*m)[i].Key == k {
			(*m)[i].Value = v
			return
		}
	}
	*m = append(*m, okv[V]{k, v})
}

func (m omap[V]) get(k string) (V, bool) {
	for _, kv := range m {
		if kv.Key == k {
			return kv.Value, true
		}
	}
	var zero V
	return zero, false
}

func (m omap[V]) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.Key)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(kv.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// oaSchema is an OpenAPI 3.0 Schema Object (the subset the gateway uses).
type oaSchema struct {
	Ref                  string          `json:"$ref,omitempty"`
	Type                 string          `json:"type,omitempty"`
	Format               string          `json:"format,omitempty"`
	Description          string          `json:"description,omitempty"`
	Enum                 []string        `json:"enum,omitempty"`
	Default              json.RawMessage `json:"default,omitempty"`
	Nullable             bool            `json:"nullable,omitempty"`
	Minimum              *float64        `json:"minimum,omitempty"`
	Maximum              *float64        `json:"maximum,omitempty"`
	MinLength            *int            `json:"minLength,omitempty"`
	Items                *oaSchema       `json:"items,omitempty"`
	Required             []string        `json:"required,omitempty"`
	Properties           omap[*oaSchema] `json:"properties,omitempty"`
	AdditionalProperties *oaSchema       `json:"additionalProperties,omitempty"`
	Example              json.RawMessage `json:"example,omitempty"`
	// XOmitted lists v1 fields of an answer schema that the gateway never
	// returns, with the reason (v2 has no source for them).
	XOmitted omap[string] `json:"x-omitted,omitempty"`
}

func (s *oaSchema) clone() *oaSchema {
	c := *s
	return &c
}

func strSchema(doc string) *oaSchema { return &oaSchema{Type: "string", Description: doc} }
func boolSchema(doc string) *oaSchema {
	return &oaSchema{Type: "boolean", Description: doc, Default: json.RawMessage("false")}
}
func arraySchema(items *oaSchema, doc string) *oaSchema {
	return &oaSchema{Type: "array", Items: items, Description: doc}
}
func refSchema(name string) *oaSchema { return &oaSchema{Ref: "#/components/schemas/" + name} }

// v1Schema is what translate tells of the v1 answers and enumerations.
var v1Schema = translate.DescribeV1()

// oaEnums are the v1 enumerations the gateway enforces, by name (sorted, so
// that the document is stable).
var oaEnums = map[string][]string{
	"gpuTypeId":           v1Schema.GPUTypeIDs,
	"podCpuFlavorId":      v1Schema.CPUFlavorIDs,
	"endpointCpuFlavorId": {"cpu3c", "cpu3g", "cpu5c", "cpu5g"},
	"cudaVersion":         v1Schema.CudaVersions,
	"dataCenterId":        v1Schema.DataCenterIDs,
	"cloudType":           {"COMMUNITY", "SECURE"},
	"computeType":         {"CPU", "GPU"},
	"priority":            {"availability", "custom"},
	"desiredStatus":       {"EXITED", "RUNNING", "TERMINATED"},
	"scalerType":          {"QUEUE_DELAY", "REQUEST_COUNT"},
	"templateCategory":    {"AMD", "CPU", "NVIDIA"},
	"bucketSize":          {"day", "hour", "month", "week", "year"},
	"podGrouping":         {"gpuTypeId", "podId"},
	"endpointGrouping":    {"endpointId", "gpuTypeId", "podId"},
	"volumeType":          v1Schema.VolumeTypes,
}

// fieldOverride replaces the generated schema of one JSON field of one Go
// type (types v1doc cannot tag: translate's answer types, raw JSON fields).
type fieldOverride struct {
	typ   reflect.Type
	field string
}

// schemaGen derives schemas from Go types.
type schemaGen struct {
	// byType replaces the schema of a whole Go type (custom marshalers).
	byType map[reflect.Type]func() *oaSchema
	// byField replaces one field's schema; docs adds a description.
	byField map[fieldOverride]*oaSchema
	docs    map[fieldOverride]string
	errs    []string
}

func newSchemaGen() *schemaGen {
	return &schemaGen{
		byType: map[reflect.Type]func() *oaSchema{
			v1Schema.NullableString: func() *oaSchema { return &oaSchema{Type: "string", Nullable: true} },
			v1Schema.PortMappings: func() *oaSchema {
				return &oaSchema{Type: "object", AdditionalProperties: &oaSchema{Type: "integer"}, Example: json.RawMessage(`{"22":10341}`)}
			},
		},
		byField: map[fieldOverride]*oaSchema{},
		docs:    map[fieldOverride]string{},
	}
}

// envSchema and portsSchema describe the raw JSON env and ports fields of
// every v1 object (v2 and v1 share their shape).
func envSchema() *oaSchema {
	return &oaSchema{Type: "object", AdditionalProperties: &oaSchema{Type: "string"}, Example: json.RawMessage(`{"ENV_VAR":"value"}`)}
}
func portsSchema() *oaSchema {
	return &oaSchema{Type: "array", Items: &oaSchema{Type: "string"}, Example: json.RawMessage(`["8888/http","22/tcp"]`)}
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// object builds the object schema of struct type t (a pointer is followed).
func (g *schemaGen) object(t reflect.Type) *oaSchema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		g.errs = append(g.errs, fmt.Sprintf("%s is not a struct", t))
		return &oaSchema{Type: "object"}
	}
	s := &oaSchema{Type: "object"}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		key := fieldOverride{t, name}
		var fs *oaSchema
		if o, ok := g.byField[key]; ok {
			fs = o.clone()
		} else {
			fs = g.of(f.Type, t, name)
		}
		g.applyTags(fs, f.Tag, t, name)
		if d, ok := g.docs[key]; ok {
			fs.Description = d
		}
		if f.Tag.Get("req") != "" {
			s.Required = append(s.Required, name)
		}
		s.Properties.set(name, fs)
	}
	return s
}

// of builds the schema of a field of Go type t (owner.field, for messages).
func (g *schemaGen) of(t reflect.Type, owner reflect.Type, field string) *oaSchema {
	if f, ok := g.byType[t]; ok {
		return f()
	}
	if t == rawMessageType {
		switch field {
		case "env":
			return envSchema()
		case "ports":
			return portsSchema()
		}
		g.errs = append(g.errs, fmt.Sprintf("%s.%s: raw JSON field needs an override", owner, field))
		return &oaSchema{}
	}
	if t.Implements(reflect.TypeFor[json.Marshaler]()) || reflect.PointerTo(t).Implements(reflect.TypeFor[json.Marshaler]()) {
		g.errs = append(g.errs, fmt.Sprintf("%s.%s: type %s marshals itself and needs an override", owner, field, t))
		return &oaSchema{}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.of(t.Elem(), owner, field)
	case reflect.String:
		return &oaSchema{Type: "string"}
	case reflect.Bool:
		return &oaSchema{Type: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &oaSchema{Type: "integer"}
	case reflect.Float32, reflect.Float64:
		return &oaSchema{Type: "number"}
	case reflect.Slice, reflect.Array:
		return &oaSchema{Type: "array", Items: g.of(t.Elem(), owner, field)}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			break
		}
		return &oaSchema{Type: "object", AdditionalProperties: g.of(t.Elem(), owner, field)}
	case reflect.Struct:
		return g.object(t)
	}
	g.errs = append(g.errs, fmt.Sprintf("%s.%s: unsupported type %s", owner, field, t))
	return &oaSchema{}
}

// applyTags applies the generator's struct tags to a field schema.
func (g *schemaGen) applyTags(s *oaSchema, tag reflect.StructTag, owner reflect.Type, field string) {
	where := owner.String() + "." + field
	if d := tag.Get("doc"); d != "" {
		s.Description = d
	}
	target := s
	if s.Type == "array" && s.Items != nil && tag.Get("enum") != "" {
		target = s.Items
	}
	if e := tag.Get("enum"); e != "" {
		vals, ok := oaEnums[e]
		if !ok {
			g.errs = append(g.errs, where+": unknown enum "+e)
		}
		target.Enum = vals
	}
	if f := tag.Get("format"); f != "" {
		s.Format = f
	}
	if d := tag.Get("default"); d != "" {
		if !json.Valid([]byte(d)) {
			g.errs = append(g.errs, where+": default is not JSON")
		}
		s.Default = json.RawMessage(d)
	}
	for _, b := range []struct {
		name string
		dst  **float64
	}{{"min", &s.Minimum}, {"max", &s.Maximum}} {
		if v := tag.Get(b.name); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				g.errs = append(g.errs, where+": bad "+b.name)
			}
			*b.dst = &f
		}
	}
	if tag.Get("nullable") != "" {
		s.Nullable = true
	}
}

// merge appends to a the properties of b that a lacks.
func mergeProperties(a, b *oaSchema) {
	for _, kv := range b.Properties {
		have, ok := a.Properties.get(kv.Key)
		if !ok {
			a.Properties.set(kv.Key, kv.Value)
			continue
		}
		c := *have
		changed := false
		if kv.Value.Nullable && !have.Nullable {
			// null in one of the merged answers (a serverless worker's
			// cost, say) is null in the schema of both.
			c.Nullable, changed = true, true
		}
		if len(have.Properties) > 0 && len(kv.Value.Properties) > 0 {
			// Two objects (a pod's machine and a serverless worker's):
			// the fields of both, merged likewise, in a copy.
			c.Properties = append(omap[*oaSchema](nil), have.Properties...)
			mergeProperties(&c, kv.Value)
			changed = true
		}
		if changed {
			a.Properties.set(kv.Key, &c)
		}
	}
}
