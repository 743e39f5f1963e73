package podjson

import (
	"bytes"
	"encoding/json"
)

// The pod wire model: the v2 Pod as decoded from v2 answers, the v1 Pod
// as written to v1 clients, and R-Pod (docs/design.md §7), the mapping
// from the first to the second — FillV1Pod, the reference, which
// AppendV1PodOf (encode.go) writes in one pass. Answers are decoded once
// into structs and encoded once; no maps of interfaces on the way.

// V2Pod is the part of a v2 Pod the gateway reads.
type V2Pod struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Status       string          `json:"status"`
	Image        string          `json:"image"`
	Args         string          `json:"args"`
	Disk         int             `json:"disk"`
	Mounts       V2Mounts        `json:"mounts"`
	Ports        json.RawMessage `json:"ports"`
	Env          json.RawMessage `json:"env"`
	Registry     string          `json:"registry"` // null: ""
	Cloud        string          `json:"cloud"`
	DataCenterID string          `json:"dataCenterId"` // null: ""
	GPU          *V2PodGPU       `json:"gpu"`
	CPU          *V2PodCPU       `json:"cpu"`
	Template     string          `json:"template"` // null: ""
	Cost         float64         `json:"cost"`
	Locked       bool            `json:"locked"`
	Runtime      *V2PodRuntime   `json:"runtime"`
	CreatedAt    string          `json:"createdAt"`
	StartedAt    string          `json:"startedAt"` // null: ""
}

// V2Mounts is v2 Mounts, both as read from a Pod and as written in create and
// PATCH bodies (additionalProperties: false; both keys of each entry required).
type V2Mounts struct {
	Persistent *V2PersistentMount `json:"persistent,omitempty"`
	Network    []V2NetworkMount   `json:"network,omitempty"`
}

type V2PersistentMount struct {
	Size int    `json:"size"`
	Path string `json:"path"`
}

type V2NetworkMount struct {
	VolumeID string `json:"volumeId"`
	Path     string `json:"path"`
}

type V2PodGPU struct {
	ID    string `json:"id"`
	Count int    `json:"count"`
}

type V2PodCPU struct {
	ID        string `json:"id"`
	VcpuCount int    `json:"vcpuCount"`
	Memory    int    `json:"memory"`
}

type V2PodRuntime struct {
	Ports []V2RuntimePort `json:"ports"`
}

// V2RuntimePort is one live port mapping; a null public port reads as 0
// (not a valid port) and a null ip as "".
type V2RuntimePort struct {
	Private int    `json:"private"`
	Public  int    `json:"public"`
	IP      string `json:"ip"`
}

// V1Pod is the v1 Pod schema, restricted to what the gateway can fill
// faithfully. Fields v2 cannot provide (dockerEntrypoint, interruptible,
// machineId, lastStatusChange, consumerUserId, savingsPlans, volumeEncrypted,
// spot and savings-plan prices, the RAM of a GPU pod) are absent: omitted,
// never invented. createdAt and cloudType are not in the v1 document, but
// real v1 answered them and real clients read them (runpodctl's pod list
// --since and --created-after filter on createdAt).
type V1Pod struct {
	ID                      string              `json:"id"`
	Name                    string              `json:"name"`
	Image                   string              `json:"image"`
	ContainerDiskInGb       int                 `json:"containerDiskInGb"`
	ContainerRegistryAuthID string              `json:"containerRegistryAuthId,omitempty"`
	DockerStartCmd          []string            `json:"dockerStartCmd,omitzero"`
	Env                     json.RawMessage     `json:"env"`
	Ports                   json.RawMessage     `json:"ports"`
	DesiredStatus           string              `json:"desiredStatus,omitempty"`
	Locked                  bool                `json:"locked"`
	CostPerHr               float64             `json:"costPerHr"`
	AdjustedCostPerHr       float64             `json:"adjustedCostPerHr"`
	GPU                     *V1PodGPU           `json:"gpu,omitempty"`
	CPUFlavorID             string              `json:"cpuFlavorId,omitempty"`
	VcpuCount               int                 `json:"vcpuCount,omitempty"`  // CPU pods only
	MemoryInGb              int                 `json:"memoryInGb,omitempty"` // CPU pods only
	VolumeInGb              int                 `json:"volumeInGb"`
	VolumeMountPath         string              `json:"volumeMountPath,omitempty"`
	NetworkVolume           *V1PodNetworkVolume `json:"networkVolume,omitempty"`
	PortMappings            V1PortMappings      `json:"portMappings"`
	PublicIP                NullableString      `json:"publicIp"`
	LastStartedAt           string              `json:"lastStartedAt,omitempty"`
	CreatedAt               string              `json:"createdAt,omitempty"` // outside the v1 document; real v1 and its clients have it
	CloudType               string              `json:"cloudType,omitempty"` // outside the v1 document; v1 create's cloudType
	// imageName, gpuTypeId and gpuCount are outside the v1 document too:
	// the same values as image, gpu.id and gpu.count under the names
	// runpodctl 2.7 reads (its pod struct is shared with its GraphQL
	// calls), so that its pod list and pod get show the image and GPU.
	ImageName  string             `json:"imageName"`
	GpuTypeID  string             `json:"gpuTypeId,omitempty"`
	GpuCount   int                `json:"gpuCount,omitempty"`
	TemplateID string             `json:"templateId,omitempty"`
	Machine    *V1PodMachine      `json:"machine,omitempty"`
	Template   *V1PodTemplateView `json:"template,omitempty"`

	gpu V1PodGPU // storage behind GPU
	// args, with argsRaw, stands for DockerStartCmd: the v2 args that
	// AppendV1Pod splits as it writes them (appendPodArgs, the list's
	// writer: no string per word, no slice), as FillV1Pod leaves them.
	args    string
	argsRaw bool
}

// V1PodGPU is v1 Pod.gpu. displayName and the two list prices come from the
// v2 GPU catalog and are filled only when the catalog was read for the
// answer (includeMachine=true).
type V1PodGPU struct {
	ID             string   `json:"id"`
	Count          int      `json:"count"`
	DisplayName    string   `json:"displayName,omitempty"`
	SecurePrice    *float64 `json:"securePrice,omitempty"`
	CommunityPrice *float64 `json:"communityPrice,omitempty"`
}

// V1PodNetworkVolume is v1 Pod.networkVolume.
type V1PodNetworkVolume struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Size         int    `json:"size"`
	DataCenterID string `json:"dataCenterId"`
}

// V1PodMachine is the part of v1 Pod.machine that v2 can fill
// (includeMachine=true): v2 does not expose the host machine itself.
type V1PodMachine struct {
	GpuTypeID      string        `json:"gpuTypeId,omitempty"`
	GpuType        *V1MachineGPU `json:"gpuType,omitempty"`
	DataCenterID   string        `json:"dataCenterId,omitempty"`
	SecureCloud    *bool         `json:"secureCloud,omitempty"`
	GpuDisplayName string        `json:"gpuDisplayName,omitempty"`
}

// V1MachineGPU is v1 Pod.machine.gpuType.
type V1MachineGPU struct {
	ID             string   `json:"id"`
	DisplayName    string   `json:"displayName,omitempty"`
	SecurePrice    *float64 `json:"securePrice,omitempty"`
	CommunityPrice *float64 `json:"communityPrice,omitempty"`
}

// V1PodTemplateView is the template attached with includeTemplate=true. The
// v1 Pod schema has no template property although includeTemplate exists (a
// v1 spec defect, docs/design.md §11); the gateway mirrors v1 Endpoint.template
// with the R-Template fields v2 can fill.
type V1PodTemplateView struct {
	ID                      string          `json:"id"`
	Name                    string          `json:"name"`
	ImageName               string          `json:"imageName"`
	ContainerDiskInGb       int             `json:"containerDiskInGb"`
	ContainerRegistryAuthID string          `json:"containerRegistryAuthId,omitempty"`
	DockerStartCmd          []string        `json:"dockerStartCmd,omitzero"`
	Env                     json.RawMessage `json:"env"`
	Ports                   json.RawMessage `json:"ports"`
	Category                string          `json:"category,omitempty"`
	IsPublic                bool            `json:"isPublic"`
	IsServerless            bool            `json:"isServerless"`
	VolumeInGb              int             `json:"volumeInGb"`
	VolumeMountPath         string          `json:"volumeMountPath,omitempty"`
}

// DesiredStatus is H-status: v2 observed status → v1 desired status. An
// unknown status gives "" (the field is then omitted).
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
		ContainerRegistryAuthID: p.Registry,
		Env:                     rawOr(p.Env, jsonEmptyObject),
		Ports:                   rawOr(p.Ports, jsonEmptyArray),
		DesiredStatus:           DesiredStatus(p.Status),
		Locked:                  p.Locked,
		CostPerHr:               p.Cost,
		AdjustedCostPerHr:       p.Cost,
		LastStartedAt:           p.StartedAt,
		CreatedAt:               p.CreatedAt,
		CloudType:               p.Cloud,
		ImageName:               p.Image,
		TemplateID:              p.Template,
		// H-args: a string the gateway cannot split (an unbalanced quote
		// written by another v2 client) is omitted rather than guessed at
		// (appendPodArgs).
		args:    p.Args,
		argsRaw: true,
	}
	if p.GPU != nil {
		out.gpu = V1PodGPU{ID: p.GPU.ID, Count: p.GPU.Count}
		out.GPU = &out.gpu
		out.GpuTypeID, out.GpuCount = p.GPU.ID, p.GPU.Count
	}
	if p.CPU != nil {
		out.CPUFlavorID = p.CPU.ID
		out.VcpuCount, out.MemoryInGb = p.CPU.VcpuCount, p.CPU.Memory
	}
	if pm := p.Mounts.Persistent; pm != nil {
		out.VolumeInGb = pm.Size
		out.VolumeMountPath = pm.Path
	} else if len(p.Mounts.Network) > 0 {
		out.VolumeMountPath = p.Mounts.Network[0].Path
	}
	if p.Runtime != nil {
		out.PortMappings = V1PortMappings(p.Runtime.Ports)
		out.PublicIP = publicIP(p.Runtime.Ports)
	}
}

// SplitPodArgs is H-args v2 → v1: "" gives [], an unsplittable string nil
// (omitted). Arguments without quotes or backslashes (the common case) are
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

// NullableString is a string that encodes "" as null: v1 publicIp, and
// v2's "set registry to null" to clear (update bodies).
type NullableString string

func (s NullableString) MarshalJSON() ([]byte, error) {
	if s == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(s))
}
