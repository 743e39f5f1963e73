package speccheck

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
)

var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// pathItem is one entry of the spec's "paths".
type pathItem struct {
	template string
	segs     []segment
	ops      []*operation
}

// segment is one '/'-separated piece of a path template.
type segment struct {
	literal string         // when re == nil
	re      *regexp.Regexp // templated segment, e.g. "{id}" or "{name}.json"
	names   []string       // parameter names captured by re, in order
}

// operation is one method of a path item.
type operation struct {
	path   *pathItem
	method string // upper case
	id     string
	ptr    string // JSON pointer of the Operation Object
	obj    map[string]any
	params []param // path-level and operation-level, operation-level winning
}

// param is a resolved Parameter Object.
type param struct {
	name     string
	in       string
	required bool
	style    string
	explode  bool
	schema   string // JSON pointer of its schema ("" if none)
}

func serverBasePath(doc map[string]any) string {
	servers, _ := doc["servers"].([]any)
	if len(servers) == 0 {
		return ""
	}
	srv, _ := servers[0].(map[string]any)
	raw, _ := srv["url"].(string)
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimRight(u.Path, "/")
}

func (s *Spec) buildOperations() error {
	paths, ok := s.doc["paths"].(map[string]any)
	if !ok {
		return fmt.Errorf("speccheck: %s: no paths", s.name)
	}
	for _, tmpl := range sortedKeys(paths) {
		item, ok := paths[tmpl].(map[string]any)
		if !ok {
			continue
		}
		itemPtr := "/paths/" + escapeToken(tmpl)
		item, itemPtr, ok = s.resolveRef(item, itemPtr)
		if !ok {
			return fmt.Errorf("speccheck: %s: path %s: unresolvable $ref", s.name, tmpl)
		}
		segs, err := parseTemplate(tmpl)
		if err != nil {
			return fmt.Errorf("speccheck: %s: %v", s.name, err)
		}
		pi := &pathItem{template: tmpl, segs: segs}
		common, err := s.params(item["parameters"], itemPtr+"/parameters")
		if err != nil {
			return err
		}
		for _, m := range httpMethods {
			opObj, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			op := &operation{path: pi, method: strings.ToUpper(m), obj: opObj, ptr: itemPtr + "/" + m}
			op.id, _ = opObj["operationId"].(string)
			own, err := s.params(opObj["parameters"], op.ptr+"/parameters")
			if err != nil {
				return err
			}
			op.params = mergeParams(common, own)
			pi.ops = append(pi.ops, op)
		}
		s.paths = append(s.paths, pi)
	}
	return nil
}

func (s *Spec) params(v any, ptr string) ([]param, error) {
	arr, _ := v.([]any)
	var out []param
	for i, p := range arr {
		m, ok := p.(map[string]any)
		if !ok {
			continue
		}
		m, mptr, ok := s.resolveRef(m, fmt.Sprintf("%s/%d", ptr, i))
		if !ok {
			return nil, fmt.Errorf("speccheck: %s: #%s/%d: unresolvable parameter $ref", s.name, ptr, i)
		}
		pr := param{}
		pr.name, _ = m["name"].(string)
		pr.in, _ = m["in"].(string)
		pr.required, _ = m["required"].(bool)
		pr.style, _ = m["style"].(string)
		if pr.style == "" {
			switch pr.in {
			case "query", "cookie":
				pr.style = "form"
			default:
				pr.style = "simple"
			}
		}
		if e, ok := m["explode"].(bool); ok {
			pr.explode = e
		} else {
			pr.explode = pr.style == "form"
		}
		if _, ok := m["schema"].(map[string]any); ok {
			pr.schema = mptr + "/schema"
		}
		out = append(out, pr)
	}
	return out, nil
}

func mergeParams(common, own []param) []param {
	out := append([]param(nil), own...)
	for _, c := range common {
		dup := false
		for _, o := range own {
			if o.name == c.name && o.in == c.in {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

var paramRE = regexp.MustCompile(`\{([^{}]+)\}`)

func parseTemplate(tmpl string) ([]segment, error) {
	if !strings.HasPrefix(tmpl, "/") {
		return nil, fmt.Errorf("path template %q does not start with '/'", tmpl)
	}
	var segs []segment
	for _, raw := range strings.Split(tmpl[1:], "/") {
		locs := paramRE.FindAllStringSubmatchIndex(raw, -1)
		if len(locs) == 0 {
			segs = append(segs, segment{literal: raw})
			continue
		}
		var sb strings.Builder
		var names []string
		sb.WriteString("^")
		last := 0
		for _, l := range locs {
			sb.WriteString(regexp.QuoteMeta(raw[last:l[0]]))
			sb.WriteString("(.+?)")
			names = append(names, raw[l[2]:l[3]])
			last = l[1]
		}
		sb.WriteString(regexp.QuoteMeta(raw[last:]))
		sb.WriteString("$")
		re, err := regexp.Compile(sb.String())
		if err != nil {
			return nil, fmt.Errorf("path template %q: %v", tmpl, err)
		}
		segs = append(segs, segment{re: re, names: names})
	}
	return segs, nil
}

// match matches the (unescaped) segments of a request path against the
// template, returning the captured path parameters.
func (pi *pathItem) match(segs []string) (map[string]string, bool) {
	if len(segs) != len(pi.segs) {
		return nil, false
	}
	var vals map[string]string
	for i, ts := range pi.segs {
		if ts.re == nil {
			if segs[i] != ts.literal {
				return nil, false
			}
			continue
		}
		m := ts.re.FindStringSubmatch(segs[i])
		if m == nil {
			return nil, false
		}
		if vals == nil {
			vals = map[string]string{}
		}
		for j, n := range ts.names {
			vals[n] = m[j+1]
		}
	}
	return vals, true
}

// moreSpecific reports whether a beats b: at the first segment where one is
// literal and the other templated, the literal one wins.
func (pi *pathItem) moreSpecific(b *pathItem) bool {
	for i := range pi.segs {
		al, bl := pi.segs[i].re == nil, b.segs[i].re == nil
		if al != bl {
			return al
		}
	}
	return false
}

// splitPath strips scheme/host, query and fragment from a request path and
// returns its percent-decoded segments.
func splitPath(p string) ([]string, string, error) {
	if strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") {
		u, err := url.Parse(p)
		if err != nil {
			return nil, "", err
		}
		p = u.EscapedPath()
		if p == "" {
			p = "/"
		}
	}
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if !strings.HasPrefix(p, "/") {
		return nil, "", fmt.Errorf("path %q does not start with '/'", p)
	}
	raw := strings.Split(p[1:], "/")
	segs := make([]string, len(raw))
	for i, r := range raw {
		d, err := url.PathUnescape(r)
		if err != nil {
			return nil, "", fmt.Errorf("path %q: %v", p, err)
		}
		segs[i] = d
	}
	return segs, p, nil
}

// findPath returns the best matching path item and captured parameters.
func (s *Spec) findPath(segs []string) (*pathItem, map[string]string) {
	try := func(segs []string) (*pathItem, map[string]string) {
		var best *pathItem
		var bestVals map[string]string
		for _, pi := range s.paths {
			vals, ok := pi.match(segs)
			if !ok {
				continue
			}
			if best == nil || pi.moreSpecific(best) {
				best, bestVals = pi, vals
			}
		}
		return best, bestVals
	}
	if s.basePath != "" {
		base := strings.Split(s.basePath[1:], "/")
		if len(segs) > len(base) && equalStrings(segs[:len(base)], base) {
			if pi, vals := try(segs[len(base):]); pi != nil {
				return pi, vals
			}
		}
	}
	return try(segs)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// findOp resolves method and path to an operation; the error explains a
// miss. It also returns the captured path parameter values.
func (s *Spec) findOp(method, path string) (*operation, map[string]string, error) {
	segs, _, err := splitPath(path)
	if err != nil {
		return nil, nil, err
	}
	pi, vals := s.findPath(segs)
	if pi == nil {
		return nil, nil, fmt.Errorf("no path template matches")
	}
	m := strings.ToUpper(method)
	var methods []string
	for _, op := range pi.ops {
		if op.method == m {
			return op, vals, nil
		}
		methods = append(methods, op.method)
	}
	sort.Slice(methods, func(i, j int) bool { return methodRank(methods[i]) < methodRank(methods[j]) })
	return nil, nil, fmt.Errorf("method %s not documented for %s (documented: %s)", m, pi.template, strings.Join(methods, ", "))
}
