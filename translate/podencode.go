package translate

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// v1 pod encoding: appends to one buffer, no reflection (the counterpart
// of podjson.go's decoder).

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD (as
// encoding/json does, minus its HTML escaping, which JSON does not need).
func appendJSONString(b []byte, s string) []byte {
	if len(s) < 8 && plainShortASCII(s) {
		// Short plain strings (words of args, ids, counts' names): one
		// check of all their bytes at once.
		n := len(b)
		if cap(b)-n >= len(s)+2 {
			b = b[:n+len(s)+2]
			b[n] = '"'
			copy(b[n+1:], s)
			b[n+1+len(s)] = '"'
			return b
		}
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	b = append(b, '"')
	// Fast path: plain ASCII (no quote, backslash or control character),
	// which most strings are, copied at once. Eight bytes at a time
	// (SWAR), the last eight overlapping the ones already checked.
	w := unsafe.Slice(unsafe.StringData(s), len(s))
	i := 0
	for ; i+8 <= len(w); i += 8 {
		if !plainASCII8(load64(w, i)) {
			break
		}
	}
	if i == len(w) || i+8 > len(w) && len(w) >= 8 && plainASCII8(load64(w, len(w)-8)) {
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0
	for i < len(s) {
		// Eight plain ASCII bytes at a time (SWAR).
		if i+8 <= len(s) {
			if plainASCII8(load64(w, i)) {
				i += 8
				continue
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigit[c>>4], hexDigit[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigit[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainShortASCII reports whether s, shorter than eight bytes, is ASCII
// that stands for itself in a JSON string: its bytes gathered into one
// word (overlapping when there are four or more, padded with 'a' when
// fewer) and checked at once.
func plainShortASCII(s string) bool {
	var x uint64
	switch n := len(s); {
	case n >= 4:
		x = uint64(binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s), 4))) |
			uint64(binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s[n-4:]), 4)))<<32
	case n > 0:
		x = uint64(s[0]) | uint64(s[n>>1])<<8 | uint64(s[n-1])<<16 | 0x6161616161000000
	default:
		return true
	}
	return plainASCII8(x)
}

// plainASCII8 reports whether the eight bytes of x are ASCII that stands
// for itself in a JSON string.
// (specialStringBytes without its &^x: with x or-ed in instead, a byte
// is marked if it is not ASCII or is special.)
func plainASCII8(x uint64) bool {
	q := x ^ (swarOnes * '"')
	bs := x ^ (swarOnes * '\\')
	return ((x-swarOnes*0x20)|(q-swarOnes)|(bs-swarOnes)|x)&swarHighs == 0
}

const hexDigit = "0123456789abcdef"

// appendJSONFloat formats f as encoding/json does.
func appendJSONFloat(b []byte, f float64) []byte {
	if f == 0 && !math.Signbit(f) {
		return append(b, '0')
	}
	if f >= 1e-6 && f < 1e15 {
		// Prices: a few decimals. The decimal m/10^d with the fewest
		// decimals d that reads back as f (m/10^d correctly rounded: m
		// and 10^d are exact) is strconv's shortest form when m has at
		// most 15 digits: two decimals of at most 15 significant digits
		// never read as the same float64, so no shorter one does.
		for d := 0; d <= 8; d++ {
			m := math.Round(f * float64pow10[d])
			if m >= 1e15 {
				break
			}
			if m/float64pow10[d] == f {
				if u := uint64(m); d == 0 || u%10 != 0 {
					return appendDecimal(b, u, d)
				}
				break
			}
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, '0') // cannot come from JSON input
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// float64pow10 are the powers of ten that a float64 holds exactly.
var float64pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// appendDecimal appends m/10^d in decimal notation (d decimals, at least
// one digit before the point).
func appendDecimal(b []byte, m uint64, d int) []byte {
	var buf [24]byte // m < 1e15, d <= 8
	i := len(buf)
	for range d {
		i--
		buf[i] = byte('0' + m%10)
		m /= 10
	}
	if d > 0 {
		i--
		buf[i] = '.'
	}
	for {
		i--
		buf[i] = byte('0' + m%10)
		if m /= 10; m == 0 {
			break
		}
	}
	return append(b, buf[i:]...)
}

// jw appends the members of one JSON object.
type jw struct {
	b     []byte
	first bool
}

func (w *jw) key(k string) {
	if w.first {
		w.first = false
	} else {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
}

func (w *jw) str(k, v string) { w.key(k); w.b = appendJSONString(w.b, v) }

func (w *jw) strOmit(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

func (w *jw) int(k string, v int) { w.key(k); w.b = strconv.AppendInt(w.b, int64(v), 10) }

func (w *jw) float(k string, v float64) {
	w.key(k)
	w.b = appendJSONFloat(w.b, v)
}

func (w *jw) floatPtr(k string, v *float64) {
	if v != nil {
		w.float(k, *v)
	}
}

func (w *jw) boolean(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *jw) raw(k string, v []byte) { w.key(k); w.b = append(w.b, v...) }

func (w *jw) strs(k string, v []string) {
	w.key(k)
	w.b = append(w.b, '[')
	for i, s := range v {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = appendJSONString(w.b, s)
	}
	w.b = append(w.b, ']')
}

// appendV1Pod appends p as JSON; the result equals json.Marshal(p) up to
// HTML escaping and the whitespace inside env and ports.
func appendV1Pod(b []byte, p *v1Pod) []byte {
	b = append(b, '{')
	w := jw{b: b, first: true}
	w.str("id", p.ID)
	w.str("name", p.Name)
	w.str("image", p.Image)
	w.int("containerDiskInGb", p.ContainerDiskInGb)
	w.strOmit("containerRegistryAuthId", p.ContainerRegistryAuthID)
	if p.DockerStartCmd != nil {
		w.strs("dockerStartCmd", p.DockerStartCmd)
	}
	w.raw("env", rawOr(p.Env, jsonNull))
	w.raw("ports", rawOr(p.Ports, jsonNull))
	w.strOmit("desiredStatus", p.DesiredStatus)
	w.boolean("locked", p.Locked)
	w.float("costPerHr", p.CostPerHr)
	w.float("adjustedCostPerHr", p.AdjustedCostPerHr)
	if g := p.GPU; g != nil {
		w.key("gpu")
		w.b = appendV1PodGPU(w.b, g)
	}
	w.strOmit("cpuFlavorId", p.CPUFlavorID)
	if p.VcpuCount != 0 {
		w.int("vcpuCount", p.VcpuCount)
	}
	if p.MemoryInGb != 0 {
		w.int("memoryInGb", p.MemoryInGb)
	}
	w.int("volumeInGb", p.VolumeInGb)
	w.strOmit("volumeMountPath", p.VolumeMountPath)
	if v := p.NetworkVolume; v != nil {
		w.key("networkVolume")
		w.b = append(w.b, '{')
		vw := jw{b: w.b, first: true}
		vw.str("id", v.ID)
		vw.str("name", v.Name)
		vw.int("size", v.Size)
		vw.str("dataCenterId", v.DataCenterID)
		w.b = append(vw.b, '}')
	}
	w.key("portMappings")
	w.b = p.PortMappings.appendJSON(w.b)
	w.key("publicIp")
	if p.PublicIP != "" {
		w.b = appendJSONString(w.b, string(p.PublicIP))
	} else {
		w.b = append(w.b, "null"...)
	}
	w.strOmit("lastStartedAt", p.LastStartedAt)
	w.strOmit("createdAt", p.CreatedAt)
	w.strOmit("cloudType", p.CloudType)
	w.str("imageName", p.ImageName)
	w.strOmit("gpuTypeId", p.GpuTypeID)
	if p.GpuCount != 0 {
		w.int("gpuCount", p.GpuCount)
	}
	w.strOmit("templateId", p.TemplateID)
	if m := p.Machine; m != nil {
		w.key("machine")
		w.b = append(w.b, '{')
		mw := jw{b: w.b, first: true}
		mw.strOmit("gpuTypeId", m.GpuTypeID)
		if t := m.GpuType; t != nil {
			mw.key("gpuType")
			mw.b = append(mw.b, '{')
			tw := jw{b: mw.b, first: true}
			tw.str("id", t.ID)
			tw.strOmit("displayName", t.DisplayName)
			tw.floatPtr("securePrice", t.SecurePrice)
			tw.floatPtr("communityPrice", t.CommunityPrice)
			mw.b = append(tw.b, '}')
		}
		mw.strOmit("dataCenterId", m.DataCenterID)
		if m.SecureCloud != nil {
			mw.boolean("secureCloud", *m.SecureCloud)
		}
		mw.strOmit("gpuDisplayName", m.GpuDisplayName)
		w.b = append(mw.b, '}')
	}
	if t := p.Template; t != nil {
		w.key("template")
		w.b = append(w.b, '{')
		tw := jw{b: w.b, first: true}
		tw.str("id", t.ID)
		tw.str("name", t.Name)
		tw.str("imageName", t.ImageName)
		tw.int("containerDiskInGb", t.ContainerDiskInGb)
		tw.strOmit("containerRegistryAuthId", t.ContainerRegistryAuthID)
		if t.DockerStartCmd != nil {
			tw.strs("dockerStartCmd", t.DockerStartCmd)
		}
		tw.raw("env", rawOr(t.Env, jsonNull))
		tw.raw("ports", rawOr(t.Ports, jsonNull))
		tw.strOmit("category", t.Category)
		tw.boolean("isPublic", t.IsPublic)
		tw.boolean("isServerless", t.IsServerless)
		tw.int("volumeInGb", t.VolumeInGb)
		tw.strOmit("volumeMountPath", t.VolumeMountPath)
		w.b = append(tw.b, '}')
	}
	return append(w.b, '}')
}

// appendV1PodOf appends the v1 Pod of p — R-Pod without include*
// expansions — as JSON: the same bytes as fillV1Pod then appendV1Pod
// (podstream_test.go checks it byte for byte), without the intermediate
// v1Pod. That one points into itself (GPU → gpu), so it lives on the heap,
// and filling it pod after pod costs a GC write barrier per string while
// a collection runs: the list path encodes straight from the v2 pod.
func appendV1PodOf(b []byte, p *v2Pod) []byte {
	// The keys come in a fixed order and "id" is always first, so each
	// key is appended with its comma as one literal.
	b = append(b, `{"id":`...)
	b = appendJSONString(b, p.ID)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, p.Name)
	b = append(b, `,"image":`...)
	img := len(b) // imageName is the same string: encoded once
	b = appendJSONString(b, p.Image)
	imgLen := len(b) - img
	b = append(b, `,"containerDiskInGb":`...)
	b = strconv.AppendInt(b, int64(p.Disk), 10)
	if p.Registry != "" {
		b = append(b, `,"containerRegistryAuthId":`...)
		b = appendJSONString(b, p.Registry)
	}
	w := jw{b: b}
	b = appendPodArgs(&w, p.Args)
	b = append(b, `,"env":`...)
	b = append(b, rawOr(p.Env, jsonEmptyObject)...)
	b = append(b, `,"ports":`...)
	b = append(b, rawOr(p.Ports, jsonEmptyArray)...)
	if ds := desiredStatus(p.Status); ds != "" {
		b = append(b, `,"desiredStatus":"`...)
		b = append(b, ds...) // a constant without characters to escape
		b = append(b, '"')
	}
	if p.Locked {
		b = append(b, `,"locked":true`...)
	} else {
		b = append(b, `,"locked":false`...)
	}
	// costPerHr and adjustedCostPerHr are the same number: formatted once.
	b = append(b, `,"costPerHr":`...)
	n := len(b)
	b = appendJSONFloat(b, p.Cost)
	cost := len(b) - n
	b = append(b, `,"adjustedCostPerHr":`...)
	b = append(b, b[n:n+cost]...)
	gpuID, gpuIDLen := 0, 0 // gpuTypeId is the same string: encoded once
	if g := p.GPU; g != nil {
		b = append(b, `,"gpu":{"id":`...)
		gpuID = len(b)
		b = appendJSONString(b, g.ID)
		gpuIDLen = len(b) - gpuID
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(g.Count), 10)
		b = append(b, '}')
	}
	if c := p.CPU; c != nil {
		if c.ID != "" {
			b = append(b, `,"cpuFlavorId":`...)
			b = appendJSONString(b, c.ID)
		}
		if c.VcpuCount != 0 {
			b = append(b, `,"vcpuCount":`...)
			b = strconv.AppendInt(b, int64(c.VcpuCount), 10)
		}
		if c.Memory != 0 {
			b = append(b, `,"memoryInGb":`...)
			b = strconv.AppendInt(b, int64(c.Memory), 10)
		}
	}
	size, path := 0, ""
	if pm := p.Mounts.Persistent; pm != nil {
		size, path = pm.Size, pm.Path
	} else if len(p.Mounts.Network) > 0 {
		path = p.Mounts.Network[0].Path
	}
	b = append(b, `,"volumeInGb":`...)
	b = strconv.AppendInt(b, int64(size), 10)
	if path != "" {
		b = append(b, `,"volumeMountPath":`...)
		b = appendJSONString(b, path)
	}
	var ports []v2RuntimePort
	if p.Runtime != nil {
		ports = p.Runtime.Ports
	}
	b = append(b, `,"portMappings":`...)
	b = v1PortMappings(ports).appendJSON(b)
	if ip := publicIP(ports); ip != "" {
		b = append(b, `,"publicIp":`...)
		b = appendJSONString(b, string(ip))
	} else {
		b = append(b, `,"publicIp":null`...)
	}
	if p.StartedAt != "" {
		b = append(b, `,"lastStartedAt":`...)
		b = appendJSONString(b, p.StartedAt)
	}
	if p.CreatedAt != "" {
		b = append(b, `,"createdAt":`...)
		b = appendJSONString(b, p.CreatedAt)
	}
	switch p.Cloud { // interned: the two values are literals
	case "":
	case "SECURE":
		b = append(b, `,"cloudType":"SECURE"`...)
	case "COMMUNITY":
		b = append(b, `,"cloudType":"COMMUNITY"`...)
	default:
		b = append(b, `,"cloudType":`...)
		b = appendJSONString(b, p.Cloud)
	}
	// The names runpodctl reads (v1Pod.ImageName): the values above again.
	b = append(b, `,"imageName":`...)
	b = append(b, b[img:img+imgLen]...)
	if g := p.GPU; g != nil {
		if g.ID != "" {
			b = append(b, `,"gpuTypeId":`...)
			b = append(b, b[gpuID:gpuID+gpuIDLen]...)
		}
		if g.Count != 0 {
			b = append(b, `,"gpuCount":`...)
			b = strconv.AppendInt(b, int64(g.Count), 10)
		}
	}
	if p.Template != "" {
		b = append(b, `,"templateId":`...)
		b = appendJSONString(b, p.Template)
	}
	return append(b, '}')
}

// appendPodArgs appends dockerStartCmd as fillV1Pod sets it (H-args: args
// split into words, omitted when they cannot be split), without a slice of
// words: ASCII args (the common case) in one pass (appendASCIIPodArgs),
// others word by word (appendQuotedPodArgs).
func appendPodArgs(w *jw, args string) []byte {
	if !isASCII(args) {
		return appendQuotedPodArgs(w, args)
	}
	return appendASCIIPodArgs(w, args)
}

// isASCII reports whether s is all ASCII (eight bytes at a time).
func isASCII(s string) bool {
	w := unsafe.Slice(unsafe.StringData(s), len(s))
	var or uint64
	i := 0
	for ; i+8 <= len(w); i += 8 {
		or |= load64(w, i)
	}
	for ; i < len(w); i++ {
		or |= uint64(w[i])
	}
	return or&swarHighs == 0
}

// jsonPlainASCII marks the ASCII bytes that stand for themselves in a JSON
// string (appendJSONString copies them as they are).
var jsonPlainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// argJSONPlain marks the bytes that stand for themselves both outside
// quotes in args (argPlainByte) and in a JSON string (jsonPlainASCII).
var argJSONPlain = func() (t [256]bool) {
	for c := range 256 {
		t[c] = argPlainByte[c] && jsonPlainASCII[c]
	}
	return t
}()

// appendEscASCII appends the ASCII byte c, which does not stand for itself
// in a JSON string, escaped as appendJSONString escapes it.
func appendEscASCII(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigit[c>>4], hexDigit[c&0xf])
}

// appendJSONASCII appends the content of a JSON string for the ASCII s
// (what appendJSONString writes between the quotes).
func appendJSONASCII(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && jsonPlainASCII[s[j]] {
			j++
		}
		b = append(b, s[i:j]...)
		if j == len(s) {
			break
		}
		b = appendEscASCII(b, s[j])
		i = j + 1
	}
	return b
}

// appendASCIIPodArgs is appendQuotedPodArgs for ASCII args, in one pass:
// the words are split as SplitArgs splits them and written as
// appendJSONString writes them, straight into the answer. (ASCII only:
// appendJSONString's handling of UTF-8 depends on a whole word, which
// quotes may cut into pieces.)
func appendASCIIPodArgs(w *jw, s string) []byte {
	mark, first := len(w.b), w.first
	w.key("dockerStartCmd")
	b := append(w.b, '[')
	n, i := 0, 0
	for {
		// Between words: whitespace, and backslash-newlines, which
		// disappear without starting a word.
		for i < len(s) {
			if isArgSpace(s[i]) {
				i++
			} else if s[i] == '\\' && i+1 < len(s) && s[i+1] == '\n' {
				i += 2
			} else {
				break
			}
		}
		if i == len(s) {
			w.b = append(b, ']')
			return w.b
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, '"')
	word:
		for i < len(s) {
			switch c := s[i]; {
			case argJSONPlain[c]:
				j := i + 1
				for j < len(s) && argJSONPlain[s[j]] {
					j++
				}
				b = append(b, s[i:j]...)
				i = j
			case isArgSpace(c):
				i++
				break word
			case c == '\'':
				end := strings.IndexByte(s[i+1:], '\'')
				if end < 0 {
					w.b, w.first = b[:mark], first
					return w.b
				}
				b = appendJSONASCII(b, s[i+1:i+1+end])
				i += end + 2
			case c == '"':
				// '\\' keeps $ ` " \\ and drops a newline; anything else
				// is kept as it is.
				for i++; ; {
					j := i
					for j < len(s) && jsonPlainASCII[s[j]] {
						j++
					}
					b = append(b, s[i:j]...)
					if i = j; i == len(s) {
						w.b, w.first = b[:mark], first
						return w.b
					}
					d := s[i]
					if d == '"' {
						i++
						break
					}
					if d == '\\' && i+1 < len(s) {
						switch e := s[i+1]; e {
						case '$', '`', '"', '\\':
							b = appendJSONByte(b, e)
							i += 2
							continue
						case '\n':
							i += 2
							continue
						}
					}
					b = appendEscASCII(b, d)
					i++
				}
			case c == '\\':
				if i+1 == len(s) { // a final lone backslash is literal
					b = append(b, '\\', '\\')
					i++
					continue
				}
				if s[i+1] != '\n' { // backslash-newline disappears
					b = appendJSONByte(b, s[i+1])
				}
				i += 2
			default: // a control character that is not whitespace
				b = appendEscASCII(b, c)
				i++
			}
		}
		b = append(b, '"')
	}
}

// appendJSONByte appends the ASCII byte c as appendJSONString writes it.
func appendJSONByte(b []byte, c byte) []byte {
	if jsonPlainASCII[c] {
		return append(b, c)
	}
	return appendEscASCII(b, c)
}

// appendQuotedPodArgs is appendPodArgs for any args (it serves those with
// non-ASCII bytes, which are rare): the words are split (SplitArgs)
// straight into the answer, without a string per word; on an unterminated
// quote dockerStartCmd is left out, as fillV1Pod leaves it.
func appendQuotedPodArgs(w *jw, args string) []byte {
	mark, first := len(w.b), w.first
	w.key("dockerStartCmd")
	w.b = append(w.b, '[')
	var buf [256]byte
	word := buf[:0]
	it := argWords{s: args}
	for n := 0; ; n++ {
		var ok bool
		var err error
		word, ok, err = it.next(word[:0])
		if err != nil {
			w.b, w.first = w.b[:mark], first
			return w.b
		}
		if !ok {
			return append(w.b, ']')
		}
		if n > 0 {
			w.b = append(w.b, ',')
		}
		if len(word) == 0 {
			w.b = append(w.b, '"', '"')
			continue
		}
		w.b = appendJSONString(w.b, unsafe.String(&word[0], len(word)))
	}
}

func appendV1PodGPU(b []byte, g *v1PodGPU) []byte {
	b = append(b, '{')
	w := jw{b: b, first: true}
	w.str("id", g.ID)
	w.int("count", g.Count)
	w.strOmit("displayName", g.DisplayName)
	w.floatPtr("securePrice", g.SecurePrice)
	w.floatPtr("communityPrice", g.CommunityPrice)
	return append(w.b, '}')
}

var jsonNull = []byte("null")

// appendV1Pods appends a JSON array of pods.
func appendV1Pods(b []byte, pods []v1Pod) []byte {
	b = append(b, '[')
	for i := range pods {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendV1Pod(b, &pods[i])
	}
	return append(b, ']')
}

// podAnswer is a v1 answer with one pod.
func podAnswer(status int, p *v1Pod) *Result {
	return &Result{Status: status, Body: pooledBody(appendV1Pod(getAnswerBuf(1024), p))}
}
