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

// V1Pod is the v1 Pod schema, restricted to what the gateway can fill
// faithfully. Fields v2 cannot provide (dockerEntrypoint, interruptible,
// machineId, lastStatusChange, consumerUserId, savingsPlans, volumeEncrypted,
// spot and savings-plan prices, the RAM of a GPU pod) are absent: omitted,
// never invented. createdAt and cloudType are not in the v1 document, but
// real v1 answered them and real clients read them (runpodctl's pod list
// --since and --created-after filter on createdAt). FillV1Pod (or
// V1PodFrom) fills it from a V2Pod; Machine, NetworkVolume and Template
// are the include* expansions, which the caller adds.
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

// NullableString is a string that encodes "" as null: v1 publicIp, and
// v2's "set registry to null" to clear (update bodies).
type NullableString string

func (s NullableString) MarshalJSON() ([]byte, error) {
	if s == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(s))
}
