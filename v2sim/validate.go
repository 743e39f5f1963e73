package v2sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// schema is a hand-written mirror of one JSON Schema of the v2 contract; the
// keywords it knows are exactly those the contract's request schemas use.
type schema struct {
	kind     string // object, array, string, integer, number, boolean; "" = any
	nullable bool

	// object
	props    map[string]*schema
	required []string
	closed   bool // additionalProperties / unevaluatedProperties false
	addl     *schema
	minProps int
	depReq   map[string][]string
	// discriminated union (oneOf + discriminator): property name → variants
	discProp string
	variants map[string]*schema
	// post runs cross-field rules of the schema itself (if/then) on a valid object.
	post func(path string, m map[string]any) []string

	// numbers
	min, max *float64

	// strings
	minLen  int
	pattern *regexp.Regexp
	enum    []string

	// arrays
	items    *schema
	minItems int
	maxItems int // -1: no limit
	unique   bool

	// extra value rules written in the contract's prose (e.g. power of two)
	check func(path string, v any) []string
}

func fptr(v float64) *float64 { return &v }

func sObj(required []string, props map[string]*schema) *schema {
	return &schema{kind: "object", props: props, required: required, closed: true, maxItems: -1}
}
func sStr() *schema                { return &schema{kind: "string", maxItems: -1} }
func sStrMin(n int) *schema        { return &schema{kind: "string", minLen: n, maxItems: -1} }
func sBool() *schema               { return &schema{kind: "boolean", maxItems: -1} }
func sEnum(vals ...string) *schema { return &schema{kind: "string", enum: vals, maxItems: -1} }
func sPattern(re string) *schema {
	return &schema{kind: "string", pattern: regexp.MustCompile(re), maxItems: -1}
}
func sInt(min, max *float64) *schema {
	return &schema{kind: "integer", min: min, max: max, maxItems: -1}
}
func sNum(min *float64) *schema   { return &schema{kind: "number", min: min, maxItems: -1} }
func sArr(items *schema) *schema  { return &schema{kind: "array", items: items, maxItems: -1} }
func sNullable(s *schema) *schema { s.nullable = true; return s }

// ---------------------------------------------------------------------------
// validation

type validator struct {
	errs []string
}

func (v *validator) add(path, format string, args ...any) {
	v.errs = append(v.errs, path+": "+fmt.Sprintf(format, args...))
}

func jsonType(x any) string {
	switch t := x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if isIntegral(t) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func isIntegral(n json.Number) bool {
	if _, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return true
	}
	f, _, err := big.ParseFloat(string(n), 10, 256, big.ToNearestEven)
	return err == nil && f.IsInt()
}

func numCmp(n json.Number, bound float64) int {
	f, _, err := big.ParseFloat(string(n), 10, 256, big.ToNearestEven)
	if err != nil {
		return 0
	}
	return f.Cmp(big.NewFloat(bound))
}

func childPath(path, key string) string {
	ident := key != ""
	for i, r := range key {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			ident = false
			break
		}
	}
	if ident {
		return path + "." + key
	}
	q, _ := json.Marshal(key)
	return path + "[" + string(q) + "]"
}

func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "'" + v + "'"
	}
	return strings.Join(q, ", ")
}

func (v *validator) validate(s *schema, path string, x any) {
	if s == nil {
		return
	}
	if x == nil {
		if s.nullable || s.kind == "" {
			return
		}
		v.add(path, "expected %s, but got null", s.kind)
		return
	}
	got := jsonType(x)
	switch s.kind {
	case "":
	case "number":
		if got != "number" && got != "integer" {
			v.add(path, "expected number, but got %s", got)
			return
		}
	default:
		if got != s.kind {
			v.add(path, "expected %s, but got %s", s.kind, got)
			return
		}
	}
	switch t := x.(type) {
	case json.Number:
		if s.kind == "number" {
			if f, err := strconv.ParseFloat(string(t), 64); err != nil || math.IsInf(f, 0) {
				v.add(path, "number out of range")
				return
			}
		}
		if s.kind == "integer" {
			if _, err := strconv.ParseInt(string(t), 10, 64); err != nil {
				if f, _, err := big.ParseFloat(string(t), 10, 256, big.ToNearestEven); err != nil || !f.IsInt() || f.Cmp(big.NewFloat(math.MaxInt64)) >= 0 || f.Cmp(big.NewFloat(math.MinInt64)) <= 0 {
					v.add(path, "integer out of range")
					return
				}
			}
		}
		if s.min != nil && numCmp(t, *s.min) < 0 {
			v.add(path, "must be >= %s", strconv.FormatFloat(*s.min, 'f', -1, 64))
		}
		if s.max != nil && numCmp(t, *s.max) > 0 {
			v.add(path, "must be <= %s", strconv.FormatFloat(*s.max, 'f', -1, 64))
		}
	case string:
		if s.minLen > 0 && len([]rune(t)) < s.minLen {
			v.add(path, "length must be >= %d", s.minLen)
		}
		if len(s.enum) > 0 {
			found := false
			for _, e := range s.enum {
				if e == t {
					found = true
				}
			}
			if !found {
				v.add(path, "must be one of %s", quoteList(s.enum))
			}
		}
		if s.pattern != nil && !s.pattern.MatchString(t) {
			v.add(path, "must match pattern '%s'", s.pattern.String())
		}
	case []any:
		if len(t) < s.minItems {
			v.add(path, "must have at least %d items", s.minItems)
		}
		if s.maxItems >= 0 && len(t) > s.maxItems {
			v.add(path, "must have at most %d items", s.maxItems)
		}
		if s.unique {
			seen := map[string]int{}
			for i, item := range t {
				b, _ := json.Marshal(canonical(item))
				if j, ok := seen[string(b)]; ok {
					v.add(path, "items must be unique (items %d and %d are equal)", j, i)
					break
				}
				seen[string(b)] = i
			}
		}
		for i, item := range t {
			v.validate(s.items, fmt.Sprintf("%s[%d]", path, i), item)
		}
	case map[string]any:
		v.validateObject(s, path, t)
	}
	if s.check != nil {
		v.errs = append(v.errs, s.check(path, x)...)
	}
}

func (v *validator) validateObject(s *schema, path string, m map[string]any) {
	if s.discProp != "" {
		d, ok := m[s.discProp]
		if !ok {
			v.add(path, "missing property '%s'", s.discProp)
			return
		}
		ds, _ := d.(string)
		variant := s.variants[ds]
		if variant == nil {
			keys := make([]string, 0, len(s.variants))
			for k := range s.variants {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			v.add(childPath(path, s.discProp), "must be one of %s", quoteList(keys))
			return
		}
		v.validate(variant, path, m)
		return
	}
	for _, r := range s.required {
		if _, ok := m[r]; !ok {
			v.add(path, "missing property '%s'", r)
		}
	}
	if len(m) < s.minProps {
		v.add(path, "must have at least %d properties", s.minProps)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var extra []string
	for _, k := range keys {
		if ps, ok := s.props[k]; ok {
			v.validate(ps, childPath(path, k), m[k])
			continue
		}
		if s.addl != nil {
			v.validate(s.addl, childPath(path, k), m[k])
			continue
		}
		if s.closed {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		v.add(path, "additional properties %s not allowed", quoteList(extra))
	}
	depKeys := make([]string, 0, len(s.depReq))
	for k := range s.depReq {
		depKeys = append(depKeys, k)
	}
	sort.Strings(depKeys)
	for _, k := range depKeys {
		if _, ok := m[k]; !ok {
			continue
		}
		for _, need := range s.depReq[k] {
			if _, ok := m[need]; !ok {
				v.add(path, "property '%s' requires property '%s'", k, need)
			}
		}
	}
	if s.post != nil {
		v.errs = append(v.errs, s.post(path, m)...)
	}
}

// canonical makes numbers compare by value for uniqueItems.
func canonical(x any) any {
	switch t := x.(type) {
	case json.Number:
		f, _, err := big.ParseFloat(string(t), 10, 256, big.ToNearestEven)
		if err != nil {
			return string(t)
		}
		return f.Text('g', 40)
	case []any:
		out := make([]any, len(t))
		for i, v := range t {
			out[i] = canonical(v)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, v := range t {
			out[k] = canonical(v)
		}
		return out
	}
	return x
}

// decodeJSON parses a request body: 400 when it is not JSON.
func decodeJSON(body []byte) (any, *reply) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, badRequest("request body is required: send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, badRequest("request body is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, badRequest("request body is not valid JSON: unexpected data after the top-level value")
	}
	return x, nil
}

// decodeBody parses and validates a request body against s; on success it
// returns the object.
func decodeBody(body []byte, s *schema) (map[string]any, *reply) {
	x, rep := decodeJSON(body)
	if rep != nil {
		return nil, rep
	}
	v := &validator{}
	v.validate(s, "$", x)
	if len(v.errs) > 0 {
		return nil, invalid(v.errs...)
	}
	m, _ := x.(map[string]any)
	return m, nil
}

// ---------------------------------------------------------------------------
// typed accessors (only used on validated objects)

func has(m map[string]any, k string) bool { _, ok := m[k]; return ok }

func getStr(m map[string]any, k string) (string, bool) {
	s, ok := m[k].(string)
	return s, ok
}

func getInt(m map[string]any, k string) (int, bool) {
	n, ok := m[k].(json.Number)
	if !ok {
		return 0, false
	}
	return numToInt(n), true
}

func numToInt(n json.Number) int {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return clampInt(i)
	}
	f, _, err := big.ParseFloat(string(n), 10, 256, big.ToNearestEven)
	if err != nil {
		return 0
	}
	i, _ := f.Int64()
	return clampInt(i)
}

func clampInt(i int64) int {
	if i > math.MaxInt32*1024 {
		return math.MaxInt32 * 1024
	}
	if i < -math.MaxInt32*1024 {
		return -math.MaxInt32 * 1024
	}
	return int(i)
}

func getFloat(m map[string]any, k string) (float64, bool) {
	n, ok := m[k].(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

func getBool(m map[string]any, k string) (bool, bool) {
	b, ok := m[k].(bool)
	return b, ok
}

func getObj(m map[string]any, k string) (map[string]any, bool) {
	o, ok := m[k].(map[string]any)
	return o, ok
}

func getStrings(m map[string]any, k string) ([]string, bool) {
	a, ok := m[k].([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(a))
	for _, x := range a {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out, true
}

func getStrMap(m map[string]any, k string) (map[string]string, bool) {
	o, ok := m[k].(map[string]any)
	if !ok {
		return nil, false
	}
	out := make(map[string]string, len(o))
	for key, x := range o {
		s, _ := x.(string)
		out[key] = s
	}
	return out, true
}

// ---------------------------------------------------------------------------
// the contract's request schemas

var (
	cudaVersionRe = `^\d+\.\d+$`

	powerOfTwo = func(path string, x any) []string {
		n, ok := x.(json.Number)
		if !ok {
			return nil
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || i <= 0 || i&(i-1) != 0 {
			return []string{path + ": must be a power of two"}
		}
		return nil
	}
)

// containerProps are BaseContainerConfig (+ registry when withRegistry).
func containerProps(withRegistry bool, extra map[string]*schema) map[string]*schema {
	p := map[string]*schema{
		"args":  sStr(),
		"disk":  sInt(fptr(1), nil),
		"env":   {kind: "object", addl: sStr(), maxItems: -1},
		"image": sStr(),
		"ports": sArr(sStr()),
	}
	if withRegistry {
		p["registry"] = sNullable(sStr())
	}
	for k, v := range extra {
		p[k] = v
	}
	return p
}

func persistentMountSchema() *schema {
	return sObj([]string{"size", "path"}, map[string]*schema{
		"size": sInt(fptr(10), nil),
		"path": sStr(),
	})
}

func mountsSchema() *schema {
	network := sArr(sObj([]string{"volumeId", "path"}, map[string]*schema{
		"volumeId": sStr(),
		"path":     sStr(),
	}))
	network.maxItems = 1
	return sObj(nil, map[string]*schema{
		"persistent": persistentMountSchema(),
		"network":    network,
	})
}

func templateMountsSchema() *schema {
	return sObj(nil, map[string]*schema{"persistent": persistentMountSchema()})
}

func createCPUSchema() *schema {
	vc := sInt(fptr(2), nil)
	vc.check = powerOfTwo
	return sObj([]string{"id", "vcpuCount"}, map[string]*schema{
		"id":        sStrMin(1),
		"vcpuCount": vc,
	})
}

func cudaList() *schema { return sArr(sPattern(cudaVersionRe)) }

func scalingSchema() *schema {
	return &schema{kind: "object", maxItems: -1, discProp: "type", variants: map[string]*schema{
		"QUEUE_DELAY": sObj([]string{"type", "queueDelay"}, map[string]*schema{
			"type":       sEnum("QUEUE_DELAY"),
			"queueDelay": sNum(fptr(0.5)),
		}),
		"REQUEST_COUNT": sObj([]string{"type", "requestCount"}, map[string]*schema{
			"type":         sEnum("REQUEST_COUNT"),
			"requestCount": sInt(fptr(1), nil),
		}),
	}}
}

func workersSchema() *schema {
	return sObj(nil, map[string]*schema{
		"min":         sInt(fptr(0), nil),
		"max":         sInt(fptr(0), nil),
		"idleTimeout": sInt(fptr(1), fptr(3600)),
	})
}

func cpuListSchema() *schema {
	a := sArr(createCPUSchema())
	a.minItems = 1
	a.unique = true
	return a
}

func endpointGPUProps(minCudaPattern string) map[string]*schema {
	pools := sArr(sStr())
	pools.minItems = 1
	excluded := sArr(sPattern(`^\s*[^-\s]`))
	excluded.unique = true
	return map[string]*schema{
		"pools":               pools,
		"excludedTypes":       excluded,
		"count":               sInt(fptr(1), nil),
		"allowedCudaVersions": cudaList(),
		"minCudaVersion":      sPattern(minCudaPattern),
	}
}

func withPost(s *schema, post func(string, map[string]any) []string) *schema {
	s.post = post
	return s
}

func requireImageWithoutTemplate(path string, m map[string]any) []string {
	if !has(m, "templateId") && !has(m, "image") {
		return []string{path + ": missing property 'image' (required when templateId is not set)"}
	}
	return nil
}

var (
	createPodSchema = withPost(sObj([]string{"name"}, containerProps(true, map[string]*schema{
		"name":             sStrMin(1),
		"cloud":            sEnum("SECURE", "COMMUNITY"),
		"cpu":              createCPUSchema(),
		"dataCenterIds":    sArr(sStr()),
		"globalNetworking": sBool(),
		"gpu": sObj([]string{"id"}, map[string]*schema{
			"id":                  sStr(),
			"count":               sInt(fptr(1), nil),
			"allowedCudaVersions": cudaList(),
			"minCudaVersion":      sPattern(cudaVersionRe),
		}),
		"mounts":       mountsSchema(),
		"startJupyter": sBool(),
		"startSsh":     sBool(),
		"templateId":   sStrMin(1),
	})), requireImageWithoutTemplate)

	updatePodSchema = sObj(nil, containerProps(true, map[string]*schema{
		"globalNetworking": sBool(),
		"locked":           sBool(),
		"mounts":           mountsSchema(),
		"name":             sStrMin(1),
		"templateId":       sStr(),
	}))

	podActionSchema = sObj([]string{"action"}, map[string]*schema{
		"action": sEnum("start", "stop", "restart", "terminate"),
	})

	createClusterSchema = sObj([]string{"name", "type", "compute"}, containerProps(false, map[string]*schema{
		"compute": sObj([]string{"gpuTypeId", "gpuCountPerPod", "podCount"}, map[string]*schema{
			"gpuTypeId":      sStrMin(1),
			"gpuCountPerPod": sInt(fptr(1), nil),
			"podCount":       sInt(fptr(2), fptr(250)),
		}),
		"name":          sStrMin(1),
		"type":          sEnum("APPLICATION", "TRAINING", "SLURM", "RAY"),
		"dataCenterIds": sArr(sStr()),
		"mounts":        mountsSchema(),
		"startJupyter":  sBool(),
		"startSsh":      sBool(),
	}))

	updateClusterSchema = func() *schema {
		s := sObj(nil, map[string]*schema{"name": sStrMin(1)})
		s.minProps = 1
		return s
	}()

	createEndpointSchema = func() *schema {
		gpu := sObj([]string{"pools"}, endpointGPUProps(cudaVersionRe))
		s := sObj([]string{"name", "type", "scaling"}, containerProps(true, map[string]*schema{
			"gpu":            gpu,
			"name":           sStrMin(1),
			"scaling":        scalingSchema(),
			"type":           sEnum("QUEUE", "LOAD_BALANCER"),
			"cpu":            cpuListSchema(),
			"dataCenterIds":  sArr(sStr()),
			"flashboot":      sEnum("OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"),
			"networkVolumes": sArr(sStr()),
			"templateId":     sStrMin(1),
			"timeout":        sInt(nil, nil),
			"workers":        workersSchema(),
		}))
		s.post = func(path string, m map[string]any) []string {
			errs := requireImageWithoutTemplate(path, m)
			if t, _ := getStr(m, "type"); t == "LOAD_BALANCER" {
				if sc, ok := getObj(m, "scaling"); ok {
					if st, _ := getStr(sc, "type"); st != "REQUEST_COUNT" {
						errs = append(errs, path+".scaling.type: must be 'REQUEST_COUNT' when type is 'LOAD_BALANCER'")
					}
				}
			}
			return errs
		}
		return s
	}()

	updateEndpointSchema = func() *schema {
		gpu := sObj(nil, endpointGPUProps(`^$|^\d+\.\d+$`))
		gpu.depReq = map[string][]string{"excludedTypes": {"pools"}}
		return sObj(nil, containerProps(true, map[string]*schema{
			"cpu":            cpuListSchema(),
			"dataCenterIds":  sArr(sStr()),
			"flashboot":      sEnum("OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"),
			"gpu":            gpu,
			"name":           sStrMin(1),
			"networkVolumes": sArr(sStr()),
			"scaling":        scalingSchema(),
			"templateId":     sStr(),
			"timeout":        sInt(nil, nil),
			"workers":        workersSchema(),
		}))
	}()

	createTemplateSchema = sObj([]string{"name", "image"}, containerProps(true, map[string]*schema{
		"name":                sStrMin(1),
		"allowedCudaVersions": cudaList(),
		"category":            sEnum("CPU", "NVIDIA", "AMD"),
		"mounts":              templateMountsSchema(),
		"public":              sBool(),
		"serverless":          sBool(),
		"startJupyter":        sBool(),
		"startSsh":            sBool(),
	}))

	updateTemplateSchema = sObj(nil, containerProps(true, map[string]*schema{
		"name":                sStrMin(1),
		"allowedCudaVersions": cudaList(),
		"category":            sEnum("CPU", "NVIDIA", "AMD"),
		"mounts":              templateMountsSchema(),
		"public":              sBool(),
		"serverless":          sBool(),
		"startJupyter":        sBool(),
		"startSsh":            sBool(),
	}))

	createVolumeSchema = sObj([]string{"name", "size", "dataCenter"}, map[string]*schema{
		"dataCenter": sStrMin(1),
		"name":       sStrMin(1),
		"size":       sInt(fptr(10), fptr(4096)),
		"type":       sEnum("STANDARD", "HIGH_PERFORMANCE"),
	})

	updateVolumeSchema = func() *schema {
		s := sObj(nil, map[string]*schema{
			"name": sStrMin(1),
			"size": sInt(fptr(10), fptr(4096)),
		})
		s.minProps = 1
		return s
	}()

	createRegistrySchema = sObj([]string{"name", "username", "password"}, map[string]*schema{
		"name":     sStrMin(1),
		"password": sStrMin(1),
		"username": sStrMin(1),
	})

	createDelegationSchema = sObj([]string{"resource"}, map[string]*schema{
		"resource": sStr(),
		"name":     sNullable(sStr()),
	})

	updateSSHKeysSchema = sObj([]string{"keys"}, map[string]*schema{
		"keys": sArr(sPattern(`^(ssh|ecdsa|sk)-[^\s]+ [^\s]+([ \t][^\n\r]*)?$`)),
	})
)
