package translate

import (
	"regexp"
	"strings"
)

// v2 wording never reaches a v1 client (issue 14, item 5). A v2 problem
// names v2 fields ("dataCenter", "gpu.id", "$.mounts.persistent.size"),
// points at v2 routes ("see GET /v2/catalog/datacenters") and joins a
// detail that ends in a period to its errors. ProblemMessage rewrites each
// of them in v1 terms with the one table below, so that a message names
// the v1 field the client sent and no route the client cannot call.

// v1FieldNames maps a v2 request field path (array indices removed, no
// leading "$.") to the v1 field a client sets for it, per v1 resource (the
// operation table's Resource); the "" entry applies to every resource. A
// value ending in "[]" carries the v2 path's last array index over
// (dataCenterIds[1] → dataCenterIds[1]; cpu[0].id → cpuFlavorIds[0]).
// A path not listed keeps its v2 name, marked "v2 field", when it comes
// as a JSON path ("$.x"), and is left alone otherwise.
var v1FieldNames = map[string]map[string]string{
	"": {
		// Container settings (pods, templates, endpoints through their template).
		"name":       "name",
		"image":      "imageName",
		"args":       "dockerStartCmd",
		"disk":       "containerDiskInGb",
		"env":        "env",
		"ports":      "ports[]",
		"registry":   "containerRegistryAuthId",
		"templateId": "templateId",
		// Pods.
		"cloud":                   "cloudType",
		"dataCenterIds":           "dataCenterIds[]",
		"gpu":                     "gpuTypeIds",
		"gpu.id":                  "gpuTypeIds",
		"gpu.count":               "gpuCount",
		"gpu.allowedCudaVersions": "allowedCudaVersions",
		"gpu.minCudaVersion":      "minCudaVersion",
		"cpu":                     "cpuFlavorIds",
		"cpu.id":                  "cpuFlavorIds[]",
		"cpu.vcpuCount":           "vcpuCount",
		"mounts":                  "volumeInGb",
		"mounts.persistent":       "volumeInGb",
		"mounts.persistent.size":  "volumeInGb",
		"mounts.persistent.path":  "volumeMountPath",
		"mounts.network":          "networkVolumeId",
		"mounts.network.volumeId": "networkVolumeId",
		"mounts.network.path":     "volumeMountPath",
		"locked":                  "locked",
		"globalNetworking":        "globalNetworking",
		// Serverless endpoints.
		"gpu.pools":            "gpuTypeIds",
		"gpu.excludedTypes":    "gpuTypeIds",
		"workers.min":          "workersMin",
		"workers.max":          "workersMax",
		"workers.idleTimeout":  "idleTimeout",
		"scaling":              "scalerType",
		"scaling.type":         "scalerType",
		"scaling.queueDelay":   "scalerValue",
		"scaling.requestCount": "scalerValue",
		"networkVolumes":       "networkVolumeIds[]",
		"timeout":              "executionTimeoutMs",
		"flashboot":            "flashboot",
		// Templates.
		"public":     "isPublic",
		"serverless": "isServerless",
		"category":   "category",
		// Network volumes and registry credentials.
		"dataCenter": "dataCenterId",
		"size":       "size",
		"username":   "username",
		"password":   "password",
	},
	"networkvolumes": {"type": "volumeType"},
}

// v1FieldFor returns the v1 field of a v2 path key for resource.
func v1FieldFor(resource, key string) (string, bool) {
	if f, ok := v1FieldNames[resource][key]; ok {
		return f, true
	}
	f, ok := v1FieldNames[""][key]
	return f, ok
}

var (
	// v2RouteHint is a parenthesised pointer to a v2 route.
	v2RouteHint = regexp.MustCompile(`\s*\((?:see )?[^()]*/v2/[^()]*\)`)
	// pathToken is a field path: a "$" JSON path, or an identifier with
	// member and index parts.
	pathToken = regexp.MustCompile(`\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*`)
	// quotedProperty is a property named by the v2 validator.
	quotedProperty = regexp.MustCompile(`(propert(?:y|ies) )'([A-Za-z_][A-Za-z0-9_]*)'`)
)

// v1Wording rewrites one v2 problem text (a detail or one of its errors)
// in v1 terms for resource.
func v1Wording(resource, s string) string {
	// Route pointers: "(see GET /v2/catalog/gpus)" goes; a clause that
	// sends the client to a v2 route ("; manage it through /v2/clusters/x")
	// goes too. What remains says what was wrong.
	s = v2RouteHint.ReplaceAllString(s, "")
	if strings.Contains(s, "/v2/") {
		parts := strings.Split(s, "; ")
		kept := parts[:0]
		for i, p := range parts {
			if i == 0 || !strings.Contains(p, "/v2/") {
				kept = append(kept, p)
			}
		}
		s = strings.Join(kept, "; ")
	}
	// v2's placement advice names the compute the client asked for.
	if i := strings.Index(s, "try another GPU type or data center"); i >= 0 {
		advice := "try another GPU type (gpuTypeIds) or data center (dataCenterIds)"
		if strings.Contains(s[:i], "vCPU") {
			advice = "try another CPU flavor (cpuFlavorIds) or data center (dataCenterIds)"
		}
		s = s[:i] + advice + s[i+len("try another GPU type or data center"):]
	}
	// "$: missing property 'name'" is v1's "name: is required".
	if strings.HasPrefix(s, "$") {
		if i := strings.Index(s, ": missing property '"); i >= 0 && strings.HasSuffix(s, "'") {
			path := s[:i]
			prop := s[i+len(": missing property '") : len(s)-1]
			if f, ok := v1Path(resource, joinPath(path, prop)); ok {
				return f + ": is required"
			}
		}
	}
	// Field paths: every "$" path; other paths when known, at the start of
	// the text (where v2 names the field at fault) or when dotted.
	var b strings.Builder
	last := 0
	for _, m := range pathToken.FindAllStringIndex(s, -1) {
		tok := s[m[0]:m[1]]
		if m[0] > 0 && isPathByte(s[m[0]-1]) {
			continue // inside a word or a number
		}
		var out string
		switch {
		case tok[0] == '$':
			out = dollarPath(resource, tok)
		case m[0] == 0 && fieldAtStart(s[m[1]:]), strings.ContainsAny(tok, ".["):
			f, ok := v1Path(resource, tok)
			if !ok {
				continue
			}
			out = f
		default:
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(out)
		last = m[1]
	}
	b.WriteString(s[last:])
	s = b.String()
	// Property names the validator quotes ("additional properties 'x'").
	return quotedProperty.ReplaceAllStringFunc(s, func(q string) string {
		sub := quotedProperty.FindStringSubmatch(q)
		if f, ok := v1Path(resource, sub[2]); ok {
			return sub[1] + "'" + f + "'"
		}
		return q
	})
}

func isPathByte(c byte) bool {
	return c == '_' || c == '.' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// fieldAtStart reports whether the text after a leading word shows the
// word naming a field ("disk: ...", "timeout must be ...").
func fieldAtStart(rest string) bool {
	for _, p := range []string{":", "[", " must ", " exceeds ", " (", " is "} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return len(rest) > 1 && rest[0] == ' ' && rest[1] >= '0' && rest[1] <= '9' // "disk 100001 GB exceeds"
}

func joinPath(path, prop string) string {
	if path == "$" || path == "" {
		return prop
	}
	return strings.TrimPrefix(path, "$.") + "." + prop
}

// dollarPath rewrites a "$" JSON path: "$" is the request body, a known
// path its v1 field, an unknown one "v2 field x".
func dollarPath(resource, tok string) string {
	if tok == "$" {
		return "request body"
	}
	p := strings.TrimPrefix(strings.TrimPrefix(tok, "$"), ".")
	if f, ok := v1Path(resource, p); ok {
		return f
	}
	return "v2 field " + p
}

// v1Path maps a v2 path (with indices) to its v1 field: the longest known
// prefix, its mapped name, then the rest of the path as written
// (env.HF_TOKEN → env.HF_TOKEN, cpu[1].id → cpuFlavorIds[1]).
func v1Path(resource, p string) (string, bool) {
	// Split into segments, remembering where each ends in p.
	type seg struct {
		name  string
		index string // "[n]" following the name, if any
		end   int
	}
	var segs []seg
	for i := 0; i < len(p); {
		if p[i] == '.' {
			i++
		}
		j := i
		for j < len(p) && p[j] != '.' && p[j] != '[' {
			j++
		}
		s := seg{name: p[i:j]}
		for j < len(p) && p[j] == '[' {
			k := strings.IndexByte(p[j:], ']')
			if k < 0 {
				return "", false
			}
			s.index = p[j : j+k+1]
			j += k + 1
		}
		s.end = j
		segs = append(segs, s)
		i = j
	}
	for n := len(segs); n > 0; n-- {
		names := make([]string, n)
		for i := range names {
			names[i] = segs[i].name
		}
		f, ok := v1FieldFor(resource, strings.Join(names, "."))
		if !ok {
			continue
		}
		if base, ok := strings.CutSuffix(f, "[]"); ok {
			f = base
			for i := n - 1; i >= 0; i-- {
				if segs[i].index != "" {
					f += segs[i].index
					break
				}
			}
		}
		return f + p[segs[n-1].end:], true
	}
	return "", false
}
