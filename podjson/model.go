package podjson

import "encoding/json"

// The pod wire model: the v2 Pod as decoded from v2 answers, the v1 Pod
// as written to v1 clients. R-Pod (docs/design.md §7), the mapping from
// the first to the second, is rpod.go's FillV1Pod, the reference, which
// AppendV1PodOf (encodepod.go) writes in one pass. Answers are decoded
// once into structs and encoded once; no maps of interfaces on the way.

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

// V2PersistentMount is v2 Mounts.persistent: the pod's volume, its size
// in GB and where it is mounted.
type V2PersistentMount struct {
	Size int    `json:"size"`
	Path string `json:"path"`
}

// V2NetworkMount is one entry of v2 Mounts.network: a network volume and
// where it is mounted.
type V2NetworkMount struct {
	VolumeID string `json:"volumeId"`
	Path     string `json:"path"`
}

// V2PodGPU is v2 Pod.gpu: the GPU type and how many (GPU pods).
type V2PodGPU struct {
	ID    string `json:"id"`
	Count int    `json:"count"`
}

// V2PodCPU is v2 Pod.cpu: the CPU flavor, vCPUs and memory in GB (CPU
// pods).
type V2PodCPU struct {
	ID        string `json:"id"`
	VcpuCount int    `json:"vcpuCount"`
	Memory    int    `json:"memory"`
}

// V2PodRuntime is the part of v2 Pod.runtime the gateway reads: the live
// port mappings (absent while the pod is not running).
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

// V1Pod is the v1 Pod schema. Every key of v1's Pod is there (issue 37:
// v1 answered each one, null where it had no value, and clients tell an
// absent key from a null one), but for the include* expansions (machine,
// networkVolume), which v1 too sent only when asked: from v2 where it has
// the value, v1's value where it is certain for a pod in v2 (no entrypoint
// override, no spot, nothing encrypted without a volume), null where it is
// unknown (v2 has no host machine, status history, renter, savings plans;
// a GPU pod's RAM and vCPUs) or there is none (no registry credential, no
// volume, not a serverless worker). translate.V1Nulls lists the nulls.
// createdAt and cloudType are not in the v1 document, but real v1
// answered them and real clients read them (runpodctl's pod list --since
// and --created-after filter on createdAt). FillV1Pod (or V1PodFrom) fills
// it from a V2Pod; Machine, NetworkVolume and Template are the include*
// expansions, which the caller adds.
type V1Pod struct {
	ID                      string          `json:"id"`
	Name                    string          `json:"name"`
	Image                   string          `json:"image"`
	ContainerDiskInGb       int             `json:"containerDiskInGb"`
	ContainerRegistryAuthID NullableString  `json:"containerRegistryAuthId"`     // null: none
	DockerStartCmd          []string        `json:"dockerStartCmd" nullable:"1"` // null: args the gateway cannot split
	Env                     json.RawMessage `json:"env"`
	Ports                   json.RawMessage `json:"ports"`
	DesiredStatus           NullableString  `json:"desiredStatus"` // null: a v2 status the gateway does not know
	Locked                  bool            `json:"locked"`
	CostPerHr               float64         `json:"costPerHr"`
	AdjustedCostPerHr       float64         `json:"adjustedCostPerHr"`
	GPU                     *V1PodGPU       `json:"gpu" nullable:"1"` // null: a CPU pod
	VolumeInGb              int             `json:"volumeInGb"`
	VolumeMountPath         NullableString  `json:"volumeMountPath"` // null: no volume
	// NetworkVolume is the include* expansion (includeNetworkVolume):
	// absent without it, as in v1; with it (NetworkVolumeAsked), null for
	// a pod without one.
	NetworkVolume      *V1PodNetworkVolume `json:"networkVolume,omitempty"`
	NetworkVolumeAsked bool                `json:"-"`
	PortMappings       V1PortMappings      `json:"portMappings"`
	PublicIP           NullableString      `json:"publicIp"`
	LastStartedAt      NullableString      `json:"lastStartedAt"`       // null: never started
	CreatedAt          string              `json:"createdAt,omitempty"` // outside the v1 document; real v1 and its clients have it
	CloudType          string              `json:"cloudType,omitempty"` // outside the v1 document; v1 create's cloudType
	// imageName, gpuTypeId and gpuCount are outside the v1 document too:
	// the same values as image, gpu.id and gpu.count under the names
	// runpodctl 2.7 reads (its pod struct is shared with its GraphQL
	// calls), so that its pod list and pod get show the image and GPU.
	ImageName string `json:"imageName"`
	GpuTypeID string `json:"gpuTypeId,omitempty"`
	GpuCount  int    `json:"gpuCount,omitempty"`

	// The keys from here to templateId are the end of a pod's object,
	// which the list's encoder writes with as few copies as it can (one
	// for a GPU pod): mostly constants.

	// cpuFlavorId, vcpuCount and memoryInGb: a CPU pod's; null for a GPU
	// pod (v2 gives no RAM or vCPU figure for it).
	CPUFlavorID NullableString `json:"cpuFlavorId"`
	VcpuCount   *int           `json:"vcpuCount" nullable:"1"`
	MemoryInGb  *int           `json:"memoryInGb" nullable:"1"`
	// DockerEntrypoint is always [] (emptyStrings): v2 has no entrypoint
	// override, so the image's own runs, which is what v1's [] says.
	DockerEntrypoint []string `json:"dockerEntrypoint"`
	// Interruptible is always false: v2 has no spot pods.
	Interruptible bool `json:"interruptible"`
	// VolumeEncrypted is false without a volume (nothing to encrypt), null
	// with one (v2 does not say whether it is encrypted).
	VolumeEncrypted *bool `json:"volumeEncrypted" nullable:"1"`
	// Null for every pod in v2: the host machine, the last status change
	// and the renter are not exposed; savings plans are not either ([]
	// would say that none applies); a pod is not a serverless worker
	// (endpointId, aiApiId, slsVersion are a worker's).
	MachineID        NullableString `json:"machineId"`
	LastStatusChange NullableString `json:"lastStatusChange"`
	ConsumerUserID   NullableString `json:"consumerUserId"`
	SavingsPlans     *[]struct{}    `json:"savingsPlans" nullable:"1"`
	EndpointID       NullableString `json:"endpointId"`
	AiAPIID          NullableString `json:"aiApiId"`
	SlsVersion       *int           `json:"slsVersion" nullable:"1"`
	// TemplateID is v2's template, or the fact store's (the plans fill
	// it); null when unknown. It is the last key the list's encoder
	// writes: the streamed list fills it from the store afterwards.
	TemplateID NullableString     `json:"templateId"`
	Machine    *V1PodMachine      `json:"machine,omitempty"`
	Template   *V1PodTemplateView `json:"template,omitempty"`

	gpu V1PodGPU // storage behind GPU
	// unencrypted stays false: VolumeEncrypted of a pod without a volume
	// points to it.
	unencrypted bool
	// args, with argsRaw, stands for DockerStartCmd: the v2 args that
	// AppendV1Pod splits as it writes them (appendPodArgs, the list's
	// writer: no string per word, no slice), as FillV1Pod leaves them.
	args    string
	argsRaw bool
}

// emptyStrings is the [] of V1Pod.DockerEntrypoint, shared by every pod:
// never appended to in place (its capacity is 0, so append copies).
var emptyStrings = []string{}

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

// NullableString is a string that encodes "" as null: v1 publicIp, and
// v2's "set registry to null" to clear (update bodies).
type NullableString string

func (s NullableString) MarshalJSON() ([]byte, error) {
	if s == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(s))
}
