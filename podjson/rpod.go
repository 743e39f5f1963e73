package podjson

import (
	"bytes"
	"encoding/json"
)

// R-Pod (docs/design.md §7): one v2 Pod → one v1 Pod. FillV1Pod is the
// reference mapping, field by field; AppendV1PodOf (encodepod.go) writes
// the same v1 JSON in one pass and must change with it (the tests hold
// them equal: FuzzPodJSONEquivalence, FuzzStreamPodList). The include*
// expansions (machine, networkVolume, template) and the templateId of the
// fact store are the plans' business (package translate).

// DesiredStatus is H-status: v2 observed status → v1 desired status. An
// unknown status gives "" (the field is then null).
func DesiredStatus(s string) string {
	switch s {
	case "PROVISIONING", "STARTING", "RUNNING":
		return "RUNNING"
	case "EXITED", "ERROR":
		return "EXITED"
	case "TERMINATED":
		return "TERMINATED"
	}
	return ""
}

var (
	jsonEmptyObject = json.RawMessage(`{}`)
	jsonEmptyArray  = json.RawMessage(`[]`)
)

// rawOr returns raw unless it is absent or null, in which case def.
func rawOr(raw, def json.RawMessage) json.RawMessage {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return def
	}
	return raw
}

// V1PodFrom is R-Pod: one v2 Pod → one v1 Pod (without the include*
// expansions, which the caller adds), with DockerStartCmd split (as
// encoding/json needs it).
func V1PodFrom(p *V2Pod) V1Pod {
	var out V1Pod
	FillV1Pod(&out, p)
	out.DockerStartCmd, out.args, out.argsRaw = SplitPodArgs(p.Args), "", false
	return out
}

// FillV1Pod is R-Pod into *out (in place, so that a slice of answers is
// filled without a copy or an allocation per pod). DockerStartCmd is left
// nil and the args kept as they are (args, argsRaw): AppendV1Pod writes
// them as SplitPodArgs would split them.
func FillV1Pod(out *V1Pod, p *V2Pod) {
	*out = V1Pod{
		ID:                      p.ID,
		Name:                    p.Name,
		Image:                   p.Image,
		ContainerDiskInGb:       p.Disk,
		ContainerRegistryAuthID: NullableString(p.Registry),
		DockerEntrypoint:        emptyStrings,
		Env:                     rawOr(p.Env, jsonEmptyObject),
		Ports:                   rawOr(p.Ports, jsonEmptyArray),
		DesiredStatus:           NullableString(DesiredStatus(p.Status)),
		Locked:                  p.Locked,
		CostPerHr:               p.Cost,
		AdjustedCostPerHr:       p.Cost,
		LastStartedAt:           NullableString(p.StartedAt),
		CreatedAt:               p.CreatedAt,
		CloudType:               p.Cloud,
		ImageName:               p.Image,
		TemplateID:              NullableString(p.Template),
		// H-args: a string the gateway cannot split (an unbalanced quote
		// written by another v2 client) is null rather than guessed at
		// (appendPodArgs).
		args:    p.Args,
		argsRaw: true,
	}
	if p.GPU != nil {
		out.gpu = V1PodGPU{ID: p.GPU.ID, Count: p.GPU.Count}
		out.GPU = &out.gpu
		out.GpuTypeID, out.GpuCount = p.GPU.ID, p.GPU.Count
	}
	if c := p.CPU; c != nil {
		out.CPUFlavorID = NullableString(c.ID)
		if c.VcpuCount != 0 {
			out.VcpuCount = &c.VcpuCount
		}
		if c.Memory != 0 {
			out.MemoryInGb = &c.Memory
		}
	}
	if pm := p.Mounts.Persistent; pm != nil {
		out.VolumeInGb = pm.Size
		out.VolumeMountPath = NullableString(pm.Path)
	} else if len(p.Mounts.Network) > 0 {
		out.VolumeMountPath = NullableString(p.Mounts.Network[0].Path)
	} else {
		out.VolumeEncrypted = &out.unencrypted // no volume: nothing encrypted
	}
	if p.Runtime != nil {
		out.PortMappings = V1PortMappings(p.Runtime.Ports)
		out.PublicIP = publicIP(p.Runtime.Ports)
	}
}

// SplitPodArgs is H-args v2 → v1: "" gives [], an unsplittable string nil
// (null). Arguments without quotes or backslashes (the common case) are
// split without copying.
func SplitPodArgs(args string) []string {
	simple, n, inWord := true, 0, false
	for i := 0; i < len(args); i++ {
		switch c := args[i]; {
		case c == '\\' || c == '\'' || c == '"':
			simple = false
		case isArgSpace(c):
			inWord = false
		case !inWord:
			inWord = true
			n++
		}
	}
	if !simple {
		words, err := SplitArgs(args)
		if err != nil {
			return nil
		}
		return words
	}
	words := make([]string, 0, n)
	start := -1
	for i := 0; i <= len(args); i++ {
		if i == len(args) || isArgSpace(args[i]) {
			if start >= 0 {
				words = append(words, args[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return words
}

// V1PortMappings is v1 portMappings ({"22": 10341}) built from the live v2
// port list: entries with a public port only, the first one per private
// port, in v2's order; no live ports give {} (v1: "will be empty").
type V1PortMappings []V2RuntimePort

func (m V1PortMappings) MarshalJSON() ([]byte, error) { return m.appendJSON(nil), nil }

func (m V1PortMappings) appendJSON(b []byte) []byte {
	b = append(b, '{')
	n := 0
	for i := range m {
		p := &m[i]
		if p.Public <= 0 {
			continue
		}
		dup := false
		for j := 0; j < i; j++ {
			if q := &m[j]; q.Public > 0 && q.Private == p.Private {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = appendInt(b, p.Private)
		b = append(b, '"', ':')
		b = appendInt(b, p.Public)
		n++
	}
	return append(b, '}')
}

// publicIP is v1 publicIp: the first IPv4 address of a port with a public
// mapping ("" → null).
func publicIP(ports []V2RuntimePort) NullableString {
	for i := range ports {
		p := &ports[i]
		if p.Public <= 0 || p.IP == "" {
			continue
		}
		if isIPv4(p.IP) {
			return NullableString(p.IP)
		}
	}
	return ""
}

// isIPv4 reports whether netip.ParseAddr(s) is an IPv4 address (Is4):
// four decimal fields of at most 255 without leading zeros, separated by
// dots, and nothing else. It reads netip's grammar field by field,
// without building an address or an error (callgrind: ~180 instructions
// an address instead of ~400, for each port with a public mapping of a
// list; FuzzIsIPv4 checks it against netip).
func isIPv4(s string) bool {
	i := uint(0)
	for f := range 4 {
		if f > 0 {
			if i >= uint(len(s)) || s[i] != '.' {
				return false
			}
			i++
		}
		if i >= uint(len(s)) || s[i]-'0' >= 10 {
			return false
		}
		v := uint(s[i] - '0')
		i++
		if v == 0 {
			continue // "0", and no digit may follow: the next byte must be a dot or the end
		}
		// At most two more digits.
		if i < uint(len(s)) && s[i]-'0' < 10 {
			v = v*10 + uint(s[i]-'0')
			i++
			if i < uint(len(s)) && s[i]-'0' < 10 {
				v = v*10 + uint(s[i]-'0')
				i++
				if v > 255 {
					return false
				}
			}
		}
	}
	return i == uint(len(s))
}
