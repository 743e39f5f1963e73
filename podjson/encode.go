package podjson

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// v1 pod encoding: appends to one buffer, no reflection (the counterpart
// of decode.go's decoder).

// AppendString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD (as
// encoding/json does, minus its HTML escaping, which JSON does not need).
func AppendString(b []byte, s string) []byte {
	// Room for s and its quotes is made first (escapes, which are rare,
	// grow b further as they come), so that plain strings, which most
	// are, are written by stores into it without a check per store.
	if cap(b)-len(b) < len(s)+2 {
		b = slices.Grow(b, len(s)+2)
	}
	n := len(b)
	d := b[:n+len(s)+2]
	// Both quotes first: the copies below end before the closing one.
	d[n] = '"'
	d[len(d)-1] = '"'
	if len(s) < 8 {
		// Short plain strings (words of args, ids, counts' names): one
		// check of all their bytes at once.
		if plainShortASCII(s) {
			copy(d[n+1:], s)
			return d
		}
		return appendJSONStringFrom(d[:n+1], s, 0)
	}
	// Plain ASCII (no quote, backslash or control character) is checked
	// and copied eight bytes at a time (SWAR): whole words, then the last
	// eight bytes, overlapping the ones already written.
	w := unsafe.Slice(unsafe.StringData(s), len(s))
	last := len(w) - 8
	i := 0
	for ; i < last; i += 8 {
		x := load64(w, i)
		if !plainASCII8(x) {
			return appendJSONStringFrom(d[:n+1+i], s, i)
		}
		store64(d, n+1+i, x)
	}
	x := load64(w, last)
	if !plainASCII8(x) {
		return appendJSONStringFrom(d[:n+1+i], s, i)
	}
	store64(d, n+1+last, x)
	return d
}

// appendJSONStringFrom is AppendString from s[i:] on, b ending with
// the opening quote and s[:i], which is plain ASCII.
func appendJSONStringFrom(b []byte, s string, i int) []byte {
	w := unsafe.Slice(unsafe.StringData(s), len(s))
	start := i
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

// store64 is binary.LittleEndian.PutUint64(b[i:], x) for an i that the
// caller knows to leave eight bytes in b's capacity (i+8 <= cap(b); the
// bytes past len(b) are for the caller to keep or not), without checking
// it again (load64's counterpart).
func store64(b []byte, i int, x uint64) {
	binary.LittleEndian.PutUint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))[:], x)
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
// is marked if it is not ASCII or is special; x^2's bytes below 0x21 are
// the control characters and the quote, as there.)
func plainASCII8(x uint64) bool {
	q := x ^ (swarOnes * 2)
	bs := x ^ (swarOnes * '\\')
	return ((q-swarOnes*0x21)|(bs-swarOnes)|x)&swarHighs == 0
}

const hexDigit = "0123456789abcdef"

// AppendFloat formats f as encoding/json does.
func AppendFloat(b []byte, f float64) []byte {
	if f == 0 && !math.Signbit(f) {
		return append(b, '0')
	}
	if f >= 1e-6 && f < 1e15 {
		// Prices: a few decimals. The decimal m/10^d with the fewest
		// decimals d that reads back as f (m/10^d correctly rounded: m
		// and 10^d are exact) is strconv's shortest form when m has at
		// most 15 digits: two decimals of at most 15 significant digits
		// never read as the same float64, so no shorter one does.
		// RoundToEven (one instruction) rather than Round: they differ
		// only when f*10^d is a half-integer k+1/2, and then neither k
		// nor k+1 over 10^d reads back as f (both lie ~1/2 of 10^-d from
		// it, farther than half a float64 step below 1e15/10^d), so the
		// loop takes the same turns either way.
		for d := 0; d <= 8; d++ {
			m := math.RoundToEven(f * float64pow10[d])
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

// appendInt is strconv.AppendInt(b, int64(v), 10) with 0..99 (sizes,
// counts: most of a pod's numbers) written inline, and up to nine digits
// (public ports: 10000 and up) written straight into b, last digit first:
// strconv formats into a buffer of its own and copies it (memmove), about
// 170 instructions a port instead of about 50.
//
// Inlined: most numbers are one digit (counts), for which the call cost
// as much as the rest; appendIntSlow writes the others.
func appendInt(b []byte, v int) []byte {
	if uint(v) < 10 {
		return append(b, byte('0'+v))
	}
	return appendIntSlow(b, v)
}

// appendIntSlow is appendInt for v outside 0..9.
func appendIntSlow(b []byte, v int) []byte {
	if uint(v) < 100 {
		return append(b, byte('0'+v/10), byte('0'+v%10))
	}
	if uint(v) >= 1e9 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	u := uint32(v)
	n := 3
	for p := uint32(1000); u >= p; p *= 10 {
		n++ // p stays below 1e9 < 1<<32: u < 1e9 stops the loop first
	}
	l := len(b)
	b = slices.Grow(b, n)[:l+n]
	d := b[l : l+n]
	for i := n - 1; i > 0; i-- {
		d[i] = byte('0' + u%10)
		u /= 10
	}
	d[0] = byte('0' + u)
	return b
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

func (w *jw) str(k, v string) { w.key(k); w.b = AppendString(w.b, v) }

func (w *jw) strOmit(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

func (w *jw) int(k string, v int) { w.key(k); w.b = appendInt(w.b, v) }

func (w *jw) float(k string, v float64) {
	w.key(k)
	w.b = AppendFloat(w.b, v)
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
		w.b = AppendString(w.b, s)
	}
	w.b = append(w.b, ']')
}

// AppendV1Pod appends p as JSON; the result equals json.Marshal(p) up to
// HTML escaping and the whitespace inside env and ports, for p with its
// DockerStartCmd split (V1PodFrom; FillV1Pod leaves the args raw, and this
// writes them as V1PodFrom splits them).
func AppendV1Pod(b []byte, p *V1Pod) []byte {
	b = append(b, '{')
	w := jw{b: b, first: true}
	w.str("id", p.ID)
	w.str("name", p.Name)
	w.str("image", p.Image)
	w.int("containerDiskInGb", p.ContainerDiskInGb)
	w.strOmit("containerRegistryAuthId", p.ContainerRegistryAuthID)
	if p.argsRaw {
		w.b = appendPodArgs(&w, p.args)
	} else if p.DockerStartCmd != nil {
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
		w.b = AppendString(w.b, string(p.PublicIP))
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

// appendLit appends the constant s. The compiler copies a constant of up
// to 16 bytes with a load and a store or two, but calls memmove for a
// longer one: those are appended in two pieces (the condition and the
// pieces are constants once this is inlined).
func appendLit(b []byte, s string) []byte {
	if len(s) > 16 {
		b = append(b, s[:16]...)
		s = s[16:]
	}
	return append(b, s...)
}

// AppendV1PodOf appends the v1 Pod of p — R-Pod without include*
// expansions — as JSON: the same bytes as FillV1Pod then AppendV1Pod
// (podstream_test.go checks it byte for byte), without the intermediate
// V1Pod. That one points into itself (GPU → gpu), so it lives on the heap,
// and filling it pod after pod costs a GC write barrier per string while
// a collection runs: the list path encodes straight from the v2 pod.
func AppendV1PodOf(b []byte, p *V2Pod) []byte {
	// The keys come in a fixed order and "id" is always first, so each
	// key is appended with its comma as one literal.
	b = append(b, `{"id":`...)
	b = AppendString(b, p.ID)
	b = append(b, `,"name":`...)
	b = AppendString(b, p.Name)
	b = append(b, `,"image":`...)
	img := len(b) // imageName is the same string: encoded once
	b = AppendString(b, p.Image)
	imgLen := len(b) - img
	b = appendLit(b, `,"containerDiskInGb":`)
	b = appendInt(b, p.Disk)
	if p.Registry != "" {
		b = appendLit(b, `,"containerRegistryAuthId":`)
		b = AppendString(b, p.Registry)
	}
	w := jw{b: b}
	b = appendPodArgs(&w, p.Args)
	b = append(b, `,"env":`...)
	b = append(b, rawOr(p.Env, jsonEmptyObject)...)
	b = append(b, `,"ports":`...)
	b = append(b, rawOr(p.Ports, jsonEmptyArray)...)
	// One literal a value: a variable ds would be copied by memmove.
	switch ds := DesiredStatus(p.Status); ds {
	case "":
	case "RUNNING":
		b = appendLit(b, `,"desiredStatus":"RUNNING"`)
	case "EXITED":
		b = appendLit(b, `,"desiredStatus":"EXITED"`)
	case "TERMINATED":
		b = appendLit(b, `,"desiredStatus":"TERMINATED"`)
	default: // a value desiredStatus may add later, never dropped here
		b = append(b, `,"desiredStatus":`...)
		b = AppendString(b, ds)
	}
	if p.Locked {
		b = append(b, `,"locked":true`...)
	} else {
		b = append(b, `,"locked":false`...)
	}
	// costPerHr and adjustedCostPerHr are the same number: formatted once.
	b = append(b, `,"costPerHr":`...)
	n := len(b)
	b = AppendFloat(b, p.Cost)
	cost := len(b) - n
	b = appendLit(b, `,"adjustedCostPerHr":`)
	b = append(b, b[n:n+cost]...)
	gpuID, gpuIDLen := 0, 0 // gpuTypeId is the same string: encoded once
	if g := p.GPU; g != nil {
		b = append(b, `,"gpu":{"id":`...)
		gpuID = len(b)
		b = AppendString(b, g.ID)
		gpuIDLen = len(b) - gpuID
		b = append(b, `,"count":`...)
		b = appendInt(b, g.Count)
		b = append(b, '}')
	}
	if c := p.CPU; c != nil {
		if c.ID != "" {
			b = append(b, `,"cpuFlavorId":`...)
			b = AppendString(b, c.ID)
		}
		if c.VcpuCount != 0 {
			b = append(b, `,"vcpuCount":`...)
			b = appendInt(b, c.VcpuCount)
		}
		if c.Memory != 0 {
			b = append(b, `,"memoryInGb":`...)
			b = appendInt(b, c.Memory)
		}
	}
	size, path := 0, ""
	if pm := p.Mounts.Persistent; pm != nil {
		size, path = pm.Size, pm.Path
	} else if len(p.Mounts.Network) > 0 {
		path = p.Mounts.Network[0].Path
	}
	b = append(b, `,"volumeInGb":`...)
	b = appendInt(b, size)
	if path != "" {
		b = appendLit(b, `,"volumeMountPath":`)
		b = AppendString(b, path)
	}
	var ports []V2RuntimePort
	if p.Runtime != nil {
		ports = p.Runtime.Ports
	}
	b = append(b, `,"portMappings":`...)
	b = V1PortMappings(ports).appendJSON(b)
	if ip := publicIP(ports); ip != "" {
		b = append(b, `,"publicIp":`...)
		b = AppendString(b, string(ip))
	} else {
		b = append(b, `,"publicIp":null`...)
	}
	if p.StartedAt != "" {
		b = appendLit(b, `,"lastStartedAt":`)
		b = AppendString(b, p.StartedAt)
	}
	if p.CreatedAt != "" {
		b = append(b, `,"createdAt":`...)
		b = AppendString(b, p.CreatedAt)
	}
	switch p.Cloud { // interned: the two values are literals
	case "":
	case "SECURE":
		b = appendLit(b, `,"cloudType":"SECURE"`)
	case "COMMUNITY":
		b = appendLit(b, `,"cloudType":"COMMUNITY"`)
	default:
		b = append(b, `,"cloudType":`...)
		b = AppendString(b, p.Cloud)
	}
	// The names runpodctl reads (V1Pod.ImageName): the values above again.
	b = append(b, `,"imageName":`...)
	b = append(b, b[img:img+imgLen]...)
	if g := p.GPU; g != nil {
		if g.ID != "" {
			b = append(b, `,"gpuTypeId":`...)
			b = append(b, b[gpuID:gpuID+gpuIDLen]...)
		}
		if g.Count != 0 {
			b = append(b, `,"gpuCount":`...)
			b = appendInt(b, g.Count)
		}
	}
	if p.Template != "" {
		b = append(b, `,"templateId":`...)
		b = AppendString(b, p.Template)
	}
	return append(b, '}')
}

// appendPodArgs appends dockerStartCmd as FillV1Pod sets it (H-args: args
// split into words, omitted when they cannot be split), without a slice of
// words: in one pass (appendPodArgsOnePass), or, for the rare args that
// one pass cannot write (invalid UTF-8, a backslash before a non-ASCII
// byte), word by word (appendQuotedPodArgs).
func appendPodArgs(w *jw, args string) []byte {
	mark, first := len(w.b), w.first
	if b, ok := appendPodArgsOnePass(w, args); ok {
		return b
	}
	w.b, w.first = w.b[:mark], first
	return appendQuotedPodArgs(w, args)
}

// jsonPlainASCII marks the ASCII bytes that stand for themselves in a JSON
// string (AppendString copies them as they are).
var jsonPlainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendEscASCII appends the ASCII byte c, which does not stand for itself
// in a JSON string, escaped as AppendString escapes it.
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

// The runs that appendPodArgsOnePass copies at once end at the bytes that
// do not stand for themselves in a JSON string (control characters, '"',
// '\\', non-ASCII) and at: outside quotes, whitespace and quotes
// (lo argWordLo, q the single quote); in single quotes, the quote
// (argQuoteLo, the single quote); in double quotes, nothing more
// (argQuoteLo, q '"').
const (
	argWordLo  = 0x21 // bytes below end a run: controls and ' '
	argQuoteLo = 0x20 // controls
)

// argStops marks (in the high bit of each byte; exactly for the lowest
// one) the bytes of x that end a run of argRunEnd(lo, q): those below lo,
// non-ASCII ones, '"', '\\' and q. (The classic (y-k) tests, x or-ed in
// for the non-ASCII bytes: a borrow only marks a byte above a marked one.)
func argStops(x, lo, q uint64) uint64 {
	dq := x ^ (swarOnes * '"')
	bs := x ^ (swarOnes * '\\')
	qq := x ^ (swarOnes * q)
	return ((x - swarOnes*lo) | (dq - swarOnes) | (bs - swarOnes) | (qq - swarOnes) | x) & swarHighs
}

// argRunEnd returns the index of the first byte at or after i that ends a
// run (argStops(lo, q)), or len(s): eight bytes at a time, the last eight
// overlapping the ones already read (those shifted out, and 'a's, which
// end nothing, shifted in).
func argRunEnd(s string, i int, lo, q uint64) int {
	w := unsafe.Slice(unsafe.StringData(s), len(s))
	for ; i+8 <= len(w); i += 8 {
		if m := argStops(load64(w, i), lo, q); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if i == len(w) {
		return i
	}
	if k := len(w) - 8; k >= 0 {
		sh := uint(i-k) * 8 // 8..56
		x := load64(w, k)>>sh | (swarOnes*'a')<<(64-sh)
		if m := argStops(x, lo, q); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		return len(w)
	}
	for ; i < len(w); i++ {
		if c := uint64(w[i]); c < lo || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == q {
			break
		}
	}
	return i
}

// appendArgRun appends the run of bytes at s[i:] that argStops(lo, q)
// does not end, and returns the index after it: eight bytes at a time,
// each eight stored at once into the spare capacity of b, of which only
// the run is kept (the last eight of s overlapping the ones already read,
// as in argRunEnd).
func appendArgRun(b []byte, s string, i int, lo, q uint64) ([]byte, int) {
	w := unsafe.Slice(unsafe.StringData(s), len(s))
	n := len(b)
	for len(w) >= 8 && i < len(w) && cap(b)-n >= 8 {
		var x uint64
		if i+8 <= len(w) {
			x = load64(w, i)
		} else {
			sh := uint(i-(len(w)-8)) * 8 // 8..56
			x = load64(w, len(w)-8)>>sh | (swarOnes*'a')<<(64-sh)
		}
		store64(b, n, x) // within cap(b), checked by the loop
		if m := argStops(x, lo, q); m != 0 {
			k := bits.TrailingZeros64(m) >> 3
			return b[:n+k], i + k
		}
		if i+8 >= len(w) {
			return b[:n+len(w)-i], len(w)
		}
		n += 8
		i += 8
	}
	j := argRunEnd(s, i, lo, q)
	return append(b[:n], s[i:j]...), j
}

// appendArgRune appends the non-ASCII UTF-8 sequence at s[i:] as
// AppendString writes it, and returns the index after it; ok is false
// when it is not valid UTF-8. (Valid and every byte non-ASCII, it lies in
// one run of args, and everything before it in its word was written whole
// runes: it is the rune AppendString decodes in the word.)
func appendArgRune(b []byte, s string, i int) (_ []byte, next int, ok bool) {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		return b, i, false
	}
	if r == '\u2028' || r == '\u2029' {
		return append(b, '\\', 'u', '2', '0', '2', hexDigit[r&0xf]), i + size, true
	}
	return append(b, s[i:i+size]...), i + size, true
}

// skipArgSpace returns the index of the first byte at or after i that is
// neither whitespace nor in a backslash-newline (which disappears without
// starting a word), or len(s).
func skipArgSpace(s string, i int) int {
	for i < len(s) {
		if isArgSpace(s[i]) {
			i++
		} else if s[i] == '\\' && i+1 < len(s) && s[i+1] == '\n' {
			i += 2
		} else {
			break
		}
	}
	return i
}

// appendPodArgsOnePass is appendQuotedPodArgs in one pass: the words are
// split as SplitArgs splits them and written as AppendString writes
// them, straight into the answer, runs of bytes that stand for themselves
// at once. ok is false, and w is to be restored, for args with invalid
// UTF-8 or a backslash before a non-ASCII byte outside quotes
// (AppendString's handling of those depends on a whole word, which
// quotes may cut into pieces).
func appendPodArgsOnePass(w *jw, s string) (_ []byte, ok bool) {
	mark, first := len(w.b), w.first
	w.key("dockerStartCmd")
	i := skipArgSpace(s, 0)
	if i == len(s) {
		w.b = append(w.b, '[', ']')
		return w.b, true
	}
	b := append(w.b, '[', '"')
	for {
		// In a word, at s[i]. A run of plain bytes first: up to eight
		// (most words are shorter) stored at once into the spare
		// capacity of b, only the run kept.
		if i+8 <= len(s) && cap(b)-len(b) >= 8 {
			x := load64(unsafe.Slice(unsafe.StringData(s), len(s)), i)
			n := len(b)
			store64(b, n, x) // within cap(b), checked above
			m := argStops(x, argWordLo, '\'')
			if m == 0 {
				b = b[:n+8]
				i += 8
				continue
			}
			k := bits.TrailingZeros64(m) >> 3
			b = b[:n+k]
			i += k
		} else if b, i = appendArgRun(b, s, i, argWordLo, '\''); i == len(s) {
			w.b = append(b, '"', ']')
			return w.b, true
		}
		switch c := s[i]; {
		case isArgSpace(c):
			if i = skipArgSpace(s, i+1); i == len(s) {
				w.b = append(b, '"', ']')
				return w.b, true
			}
			b = append(b, '"', ',', '"')
		case c == '\'':
			for i++; ; {
				if b, i = appendArgRun(b, s, i, argQuoteLo, '\''); i == len(s) {
					w.b, w.first = b[:mark], first
					return w.b, true
				}
				d := s[i]
				if d == '\'' {
					i++
					break
				}
				if d >= utf8.RuneSelf {
					if b, i, ok = appendArgRune(b, s, i); !ok {
						return nil, false
					}
					continue
				}
				b = appendEscASCII(b, d)
				i++
			}
		case c == '"':
			// '\\' keeps $ ` " \\ and drops a newline; anything else is
			// kept as it is.
			for i++; ; {
				if b, i = appendArgRun(b, s, i, argQuoteLo, '"'); i == len(s) {
					w.b, w.first = b[:mark], first
					return w.b, true
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
				if d >= utf8.RuneSelf {
					if b, i, ok = appendArgRune(b, s, i); !ok {
						return nil, false
					}
					continue
				}
				b = appendEscASCII(b, d)
				i++
			}
		case c == '\\':
			if i+1 == len(s) { // a final lone backslash is literal
				w.b = append(b, '\\', '\\', '"', ']')
				return w.b, true
			}
			e := s[i+1]
			if e >= utf8.RuneSelf {
				return nil, false
			}
			if e != '\n' { // backslash-newline disappears
				b = appendJSONByte(b, e)
			}
			i += 2
		case c >= utf8.RuneSelf:
			if b, i, ok = appendArgRune(b, s, i); !ok {
				return nil, false
			}
		default: // a control character that is not whitespace
			b = appendEscASCII(b, c)
			i++
		}
		if i == len(s) {
			w.b = append(b, '"', ']')
			return w.b, true
		}
	}
}

// appendJSONByte appends the ASCII byte c as AppendString writes it.
func appendJSONByte(b []byte, c byte) []byte {
	if jsonPlainASCII[c] {
		return append(b, c)
	}
	return appendEscASCII(b, c)
}

// appendQuotedPodArgs is appendPodArgs for any args (it serves those with
// non-ASCII bytes, which are rare): the words are split (SplitArgs)
// straight into the answer, without a string per word; on an unterminated
// quote dockerStartCmd is left out, as FillV1Pod leaves it.
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
		w.b = AppendString(w.b, unsafe.String(&word[0], len(word)))
	}
}

func appendV1PodGPU(b []byte, g *V1PodGPU) []byte {
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

// AppendV1Pods appends a JSON array of pods.
func AppendV1Pods(b []byte, pods []V1Pod) []byte {
	b = append(b, '[')
	for i := range pods {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendV1Pod(b, &pods[i])
	}
	return append(b, ']')
}
