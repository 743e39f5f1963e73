package v1doc

import (
	"encoding/json"
	"reflect"
)

// Declarations of the v1 objects the gateway reads and writes, for its own
// v1 OpenAPI document (openapi.go). translate reads request bodies field by
// field (translate/podbody.go, translate/networkvolumes.go, ...), so the
// request bodies are declared here, as struct types that exist only to be
// described; each field's doc says what the gateway does with it. Answers
// are described from translate's own answer types, which
// translate.DescribeV1 hands over as reflect.Types (v1Schema); the
// descriptions of their fields that the types do not carry are here.

// ---------------------------------------------------------------------------
// Pods

type docPodCreateInput struct {
	Name                    string            `json:"name" default:"\"my pod\"" doc:"Translated (v2 name). Default sent when absent or \"\"; more than 191 characters are rejected."`
	ImageName               string            `json:"imageName" doc:"Translated (v2 image). Required unless templateId is set."`
	TemplateID              string            `json:"templateId" doc:"Translated (v2 templateId). With a template only the fields you send are sent; v1 defaults are not."`
	ComputeType             string            `json:"computeType" enum:"computeType" default:"\"GPU\"" doc:"Selects the v2 gpu or cpu block."`
	GpuTypeIDs              []string          `json:"gpuTypeIds" enum:"gpuTypeId" doc:"Emulated: ranked candidates, one v2 create per candidate until one succeeds (v2 takes exactly one gpu.id). Absent, null, [] or \"\": the gateway chooses, as v1 did: every v1 GPU type the v2 catalog shows available for this count, cloud, CUDA and data centers (narrowed by the operator's default_gpu_types), most available first, then the lower list price (or default_gpu_types order); at most 8 creates; the chosen type and its price in X-Compat-Warning. GPU types differ in price by more than ten times: send gpuTypeIds to control cost."`
	GpuTypePriority         string            `json:"gpuTypePriority" enum:"priority" default:"\"availability\"" doc:"Emulated: availability orders the candidates by the v2 catalog; custom keeps your order."`
	GpuCount                int               `json:"gpuCount" min:"1" default:"1" doc:"Translated (v2 gpu.count)."`
	AllowedCudaVersions     []string          `json:"allowedCudaVersions" enum:"cudaVersion" doc:"Translated (v2 gpu.allowedCudaVersions)."`
	CPUFlavorIDs            []string          `json:"cpuFlavorIds" enum:"podCpuFlavorId" doc:"Emulated like gpuTypeIds (v2 cpu.id). Absent, null, [] or \"\": every v1 CPU flavor the v2 CPU catalog shows available, most available first, then the lower price (v1's default cpuFlavorPriority); the choice in X-Compat-Warning."`
	CPUFlavorPriority       string            `json:"cpuFlavorPriority" enum:"priority" default:"\"availability\"" doc:"Emulated like gpuTypePriority."`
	VcpuCount               int               `json:"vcpuCount" default:"2" doc:"Translated (v2 cpu.vcpuCount); a power of two, at least 2."`
	CloudType               string            `json:"cloudType" enum:"cloudType" default:"\"SECURE\"" doc:"Translated (v2 cloud). Also ALL (the GraphQL door's): each GPU type tried on SECURE, then COMMUNITY."`
	DataCenterIDs           []string          `json:"dataCenterIds" enum:"dataCenterId" doc:"Translated (v2 dataCenterIds, which v2 calls preferred): honoured or v1's stock-out, as in v1 (a pod v2 placed elsewhere is deleted and the next candidate tried)."`
	DataCenterPriority      string            `json:"dataCenterPriority" enum:"priority" default:"\"availability\"" doc:"Dropped: v2 has no data-center ordering."`
	CountryCodes            []string          `json:"countryCodes" doc:"GPU pods: emulated through the v2 GPU catalog (data centers in those countries; none now: v1's stock-out). CPU pods: soft constraint (P1): accepted with an X-Compat-Warning naming what v2 cannot guarantee (field_policy refuse: rejected, drop: dropped)."`
	ContainerDiskInGb       *int              `json:"containerDiskInGb" nullable:"1" default:"50" doc:"Translated (v2 disk); at least 1."`
	ContainerRegistryAuthID string            `json:"containerRegistryAuthId" doc:"Translated (v2 registry)."`
	DockerEntrypoint        []string          `json:"dockerEntrypoint" default:"[]" doc:"[] dropped; non-empty rejected (lenient: dropped): v2 has no entrypoint override."`
	DockerStartCmd          []string          `json:"dockerStartCmd" default:"[]" doc:"Translated (v2 args): elements joined with spaces, shell-quoted where needed."`
	Env                     map[string]string `json:"env" default:"{}" doc:"Translated (v2 env); values must be strings."`
	Ports                   []string          `json:"ports" default:"[\"8888/http\",\"22/tcp\"]" doc:"Translated (v2 ports). The string form \"8888/http,22/tcp\" is accepted too."`
	VolumeInGb              *int              `json:"volumeInGb" nullable:"1" default:"20" doc:"Translated (v2 mounts.persistent.size); 0 or null: no volume; 1-9 rounded up to v2's minimum 10, with an X-Compat-Warning naming the storage billed beyond it. CPU pods: rejected (lenient: dropped)."`
	VolumeMountPath         string            `json:"volumeMountPath" default:"\"/workspace\"" doc:"Translated (v2 mounts.persistent.path or mounts.network[0].path)."`
	NetworkVolumeID         string            `json:"networkVolumeId" doc:"Translated (v2 mounts.network); the volume's data center must be among dataCenterIds."`
	GlobalNetworking        bool              `json:"globalNetworking" default:"false" doc:"Translated (v2 globalNetworking)."`
	Locked                  bool              `json:"locked" default:"false" doc:"Emulated: a PATCH after the create; if it fails the pod is returned with X-Compat-Warning."`
	Interruptible           bool              `json:"interruptible" default:"false" doc:"false dropped; true rejected (lenient: dropped): v2 has no interruptible pods."`
	MinRAMPerGPU            int               `json:"minRAMPerGPU" default:"8" doc:"Default or 0 dropped; other values a soft constraint (P1): accepted with an X-Compat-Warning naming what v2 cannot guarantee (field_policy refuse: rejected, drop: dropped)."`
	MinVCPUPerGPU           int               `json:"minVCPUPerGPU" default:"2" doc:"Default or 0 dropped; other values a soft constraint (P1): accepted with an X-Compat-Warning naming what v2 cannot guarantee (field_policy refuse: rejected, drop: dropped)."`
	MinDiskBandwidthMBps    float64           `json:"minDiskBandwidthMBps" doc:"0 dropped; other values a soft constraint (P1): accepted with an X-Compat-Warning naming what v2 cannot guarantee (field_policy refuse: rejected, drop: dropped)."`
	MinDownloadMbps         float64           `json:"minDownloadMbps" doc:"0 dropped; other values a soft constraint (P1): accepted with an X-Compat-Warning naming what v2 cannot guarantee (field_policy refuse: rejected, drop: dropped)."`
	MinUploadMbps           float64           `json:"minUploadMbps" doc:"0 dropped; other values a soft constraint (P1): accepted with an X-Compat-Warning naming what v2 cannot guarantee (field_policy refuse: rejected, drop: dropped)."`
	SupportPublicIP         bool              `json:"supportPublicIp" doc:"Dropped, except true on COMMUNITY cloud: a soft constraint (P1): accepted with an X-Compat-Warning naming what v2 cannot guarantee (field_policy refuse: rejected, drop: dropped)."`
	DockerArgs              string            `json:"dockerArgs" doc:"Not in v1's document; sent by runpodctl (--docker-args). Translated (v2 args, verbatim); the JSON form {\"cmd\": [...], \"entrypoint\": [...]} is parsed: cmd as dockerStartCmd, a non-empty entrypoint rejected as dockerEntrypoint. With a non-empty dockerStartCmd both must give the same command line, else 400."`
	DeployCost              float64           `json:"deployCost" doc:"Not in v1's document; the GraphQL door's price cap per hour. Checked against the v2 catalog's list prices: the candidates above it are not tried; none left: v1's stock-out."`
	MinCudaVersion          string            `json:"minCudaVersion" enum:"cudaVersion" doc:"Not in v1's document; sent by runpodctl (--min-cuda-version). GPU pods: translated (v2 gpu.minCudaVersion; with allowedCudaVersions, only the versions at or above it are sent). CPU pods: ignored, as v1 ignored GPU fields there."`
}

type docPodUpdateInput struct {
	Name                    string            `json:"name" doc:"Translated (v2 name)."`
	ImageName               string            `json:"imageName" doc:"Translated (v2 image)."`
	ContainerDiskInGb       *int              `json:"containerDiskInGb" nullable:"1" doc:"Translated (v2 disk); null ignored."`
	ContainerRegistryAuthID string            `json:"containerRegistryAuthId" nullable:"1" doc:"Translated (v2 registry); null removes the credential, \"\" leaves it unchanged."`
	DockerEntrypoint        []string          `json:"dockerEntrypoint" doc:"[] dropped; non-empty rejected (lenient: dropped)."`
	DockerStartCmd          []string          `json:"dockerStartCmd" doc:"Translated (v2 args); [] clears it."`
	DockerArgs              string            `json:"dockerArgs" doc:"Not in v1's document (runpodctl). Translated (v2 args, verbatim); its JSON form is parsed as on create."`
	Env                     map[string]string `json:"env" doc:"Translated (v2 env): replaces the whole env."`
	Ports                   []string          `json:"ports" doc:"Translated (v2 ports)."`
	GlobalNetworking        bool              `json:"globalNetworking" doc:"Translated (v2 globalNetworking)."`
	Locked                  bool              `json:"locked" doc:"Translated (v2 locked)."`
	VolumeInGb              *int              `json:"volumeInGb" nullable:"1" doc:"Translated after reading the pod (full v2 mounts.persistent entry). Shrinking, 0, 1-9 and pods with a network volume or no volume are rejected."`
	VolumeMountPath         string            `json:"volumeMountPath" doc:"Translated after reading the pod (full v2 mount entry)."`
}

// ---------------------------------------------------------------------------
// Serverless endpoints

type docEndpointCreateInput struct {
	TemplateID              string            `json:"templateId" req:"1" doc:"Your own template's settings are spread into the v2 create (so that deleting the endpoint never deletes the template); a public template is passed as v2 templateId. Echoed in the answer and remembered: later edits of the template through the gateway roll out to the endpoint."`
	Name                    string            `json:"name" doc:"Translated (v2 name); more than 191 characters rejected. Absent or \"\": the template's name (one GET /v2/templates/{id})."`
	ComputeType             string            `json:"computeType" enum:"computeType" default:"\"GPU\"" doc:"Selects the v2 gpu or cpu block. v2 type QUEUE is always sent."`
	GpuTypeIDs              []string          `json:"gpuTypeIds" enum:"gpuTypeId" doc:"Emulated: v2 gpu.pools (the serverless pool of each listed type) plus gpu.excludedTypes (every other type of those pools), from the v2 GPU catalog, so that exactly these types are eligible today. Hazard: a type v2 later adds to one of those pools becomes eligible too. Required for GPU endpoints; order is lost."`
	GpuCount                int               `json:"gpuCount" min:"1" default:"1" doc:"Translated (v2 gpu.count)."`
	AllowedCudaVersions     []string          `json:"allowedCudaVersions" enum:"cudaVersion" doc:"Translated (v2 gpu.allowedCudaVersions)."`
	MinCudaVersion          string            `json:"minCudaVersion" enum:"cudaVersion" doc:"Translated (v2 gpu.minCudaVersion); with allowedCudaVersions, only the versions at or above it are sent."`
	CPUFlavorIDs            []string          `json:"cpuFlavorIds" enum:"endpointCpuFlavorId" doc:"Translated (v2 cpu[].id). Absent, null, [] or \"\": every v1 endpoint CPU flavor, most available (v2 CPU catalog, SERVERLESS) first, named in X-Compat-Warning."`
	VcpuCount               int               `json:"vcpuCount" default:"2" doc:"Translated (v2 cpu[].vcpuCount, the same for every flavor); a power of two, at least 2."`
	DataCenterIDs           []string          `json:"dataCenterIds" enum:"dataCenterId" doc:"Translated (v2 dataCenterIds, which v2 calls preferred)."`
	ExecutionTimeoutMs      int               `json:"executionTimeoutMs" doc:"Translated (v2 timeout). Absent: v2's 300000 ms."`
	Flashboot               bool              `json:"flashboot" doc:"Translated: true → v2 FLASHBOOT, false → OFF. v2's modes as strings (OFF, FLASHBOOT, PRIORITY_FLASHBOOT; runpod-mcp) are passed as they are."`
	IdleTimeout             int               `json:"idleTimeout" min:"1" max:"3600" default:"5" doc:"Translated (v2 workers.idleTimeout); the v1 default 5 is sent (v2's default is 10). Not sent with REQUEST_COUNT scaling, which v2 refuses it for."`
	NetworkVolumeID         string            `json:"networkVolumeId" doc:"Translated (v2 networkVolumes)."`
	NetworkVolumeIDs        []string          `json:"networkVolumeIds" doc:"Translated (v2 networkVolumes)."`
	ScalerType              string            `json:"scalerType" enum:"scalerType" default:"\"QUEUE_DELAY\"" doc:"Translated (v2 scaling.type)."`
	ScalerValue             int               `json:"scalerValue" min:"1" default:"4" doc:"Translated (v2 scaling.queueDelay or scaling.requestCount)."`
	WorkersMin              int               `json:"workersMin" min:"0" doc:"Translated (v2 workers.min)."`
	WorkersMax              int               `json:"workersMax" min:"0" doc:"Translated (v2 workers.max)."`
	ImageName               string            `json:"imageName" doc:"Not in v1's document; sent by runpod-mcp. Rejected (lenient: dropped): a v1 endpoint runs its template's image; change the template."`
	Args                    string            `json:"args" doc:"Not in v1's document; sent by runpod-mcp. Rejected (lenient: dropped): change the template's dockerStartCmd."`
	ContainerDiskInGb       int               `json:"containerDiskInGb" doc:"Not in v1's document; sent by runpod-mcp. Rejected (lenient: dropped): change the template."`
	Ports                   []string          `json:"ports" doc:"Not in v1's document; sent by runpod-mcp. [] ignored; otherwise rejected (lenient: dropped): change the template."`
	Env                     map[string]string `json:"env" doc:"Not in v1's document; sent by runpod-mcp. {} ignored; otherwise rejected (lenient: dropped): change the template."`
	ContainerRegistryAuthID string            `json:"containerRegistryAuthId" doc:"Not in v1's document; sent by runpod-mcp. Rejected (lenient: dropped): change the template."`
	GpuPoolIDs              []string          `json:"gpuPoolIds" doc:"Not in v1's document; sent by runpod-mcp. [] ignored; otherwise rejected (lenient: dropped): use gpuTypeIds."`
}

type docEndpointUpdateInput struct {
	TemplateID              string            `json:"templateId" doc:"Translated: v2 applies the template's container settings (X-Compat-Warning); remembered, so later edits of the template roll out to the endpoint."`
	Name                    string            `json:"name" doc:"Translated (v2 name)."`
	GpuTypeIDs              []string          `json:"gpuTypeIds" enum:"gpuTypeId" doc:"Emulated as on create; v2 pools and excludedTypes are always sent together, so that no exclusion is lost."`
	GpuCount                int               `json:"gpuCount" min:"1" doc:"Translated (v2 gpu.count)."`
	AllowedCudaVersions     []string          `json:"allowedCudaVersions" enum:"cudaVersion" doc:"Translated; setting it clears minCudaVersion."`
	MinCudaVersion          string            `json:"minCudaVersion" enum:"cudaVersion" doc:"Translated; setting it clears allowedCudaVersions."`
	CPUFlavorIDs            []string          `json:"cpuFlavorIds" enum:"endpointCpuFlavorId" doc:"Translated into a complete v2 cpu list."`
	VcpuCount               int               `json:"vcpuCount" doc:"Translated (v2 cpu[].vcpuCount)."`
	DataCenterIDs           []string          `json:"dataCenterIds" enum:"dataCenterId" doc:"Translated (v2 dataCenterIds)."`
	ExecutionTimeoutMs      int               `json:"executionTimeoutMs" doc:"Translated (v2 timeout)."`
	Flashboot               bool              `json:"flashboot" doc:"Translated; true never downgrades an existing PRIORITY_FLASHBOOT. v2's modes as strings (runpod-mcp) are passed as they are."`
	IdleTimeout             int               `json:"idleTimeout" min:"1" max:"3600" doc:"Translated (v2 workers.idleTimeout), except with REQUEST_COUNT scaling (X-Compat-Warning)."`
	NetworkVolumeID         string            `json:"networkVolumeId" doc:"Translated into a full v2 networkVolumes list."`
	NetworkVolumeIDs        []string          `json:"networkVolumeIds" doc:"Translated into a full v2 networkVolumes list ([] detaches all)."`
	ScalerType              string            `json:"scalerType" enum:"scalerType" doc:"Translated (v2 scaling.type); the missing half comes from the current endpoint."`
	ScalerValue             int               `json:"scalerValue" min:"1" doc:"Translated (v2 scaling)."`
	WorkersMin              int               `json:"workersMin" min:"0" doc:"Translated (v2 workers.min)."`
	WorkersMax              int               `json:"workersMax" min:"0" doc:"Translated (v2 workers.max)."`
	ImageName               string            `json:"imageName" doc:"Not in v1's document; sent by runpod-mcp. Rejected (lenient: dropped): a v1 endpoint runs its template's image; change the template."`
	Args                    string            `json:"args" doc:"Not in v1's document; sent by runpod-mcp. Rejected (lenient: dropped): change the template's dockerStartCmd."`
	ContainerDiskInGb       int               `json:"containerDiskInGb" doc:"Not in v1's document; sent by runpod-mcp. Rejected (lenient: dropped): change the template."`
	Ports                   []string          `json:"ports" doc:"Not in v1's document; sent by runpod-mcp. [] ignored; otherwise rejected (lenient: dropped): change the template."`
	Env                     map[string]string `json:"env" doc:"Not in v1's document; sent by runpod-mcp. {} ignored; otherwise rejected (lenient: dropped): change the template."`
	ContainerRegistryAuthID string            `json:"containerRegistryAuthId" doc:"Not in v1's document; sent by runpod-mcp. Rejected (lenient: dropped): change the template."`
	GpuPoolIDs              []string          `json:"gpuPoolIds" doc:"Not in v1's document; sent by runpod-mcp. [] ignored; otherwise rejected (lenient: dropped): use gpuTypeIds."`
}

// ---------------------------------------------------------------------------
// Templates

type docTemplateCreateInput struct {
	Name                    string            `json:"name" req:"1" doc:"Translated (v2 name)."`
	ImageName               string            `json:"imageName" req:"1" doc:"Translated (v2 image)."`
	Category                string            `json:"category" enum:"templateCategory" default:"\"NVIDIA\"" doc:"Translated (v2 category)."`
	ContainerDiskInGb       int               `json:"containerDiskInGb" default:"50" doc:"Translated (v2 disk); at least 1."`
	ContainerRegistryAuthID string            `json:"containerRegistryAuthId" doc:"Translated (v2 registry)."`
	DockerEntrypoint        []string          `json:"dockerEntrypoint" default:"[]" doc:"[] dropped; non-empty rejected (lenient: dropped): v2 has no entrypoint override."`
	DockerStartCmd          []string          `json:"dockerStartCmd" default:"[]" doc:"Translated (v2 args): joined, shell-quoted."`
	Env                     map[string]string `json:"env" default:"{}" doc:"Translated (v2 env)."`
	IsPublic                bool              `json:"isPublic" default:"false" doc:"Translated (v2 public)."`
	IsServerless            bool              `json:"isServerless" default:"false" doc:"Translated (v2 serverless)."`
	Ports                   []string          `json:"ports" default:"[\"8888/http\",\"22/tcp\"]" doc:"Translated (v2 ports); the string form is accepted."`
	Readme                  string            `json:"readme" default:"\"\"" doc:"Dropped; a non-empty readme with X-Compat-Warning (v2 templates have no readme: the text is lost)."`
	VolumeInGb              int               `json:"volumeInGb" default:"20" doc:"Translated (v2 mounts.persistent.size); pod templates get the default, serverless ones only what is sent; 0 no volume; 1-9 rejected."`
	VolumeMountPath         string            `json:"volumeMountPath" default:"\"/workspace\"" doc:"Translated (v2 mounts.persistent.path)."`
}

type docTemplateUpdateInput struct {
	Name                    string            `json:"name" doc:"Translated (v2 name)."`
	ImageName               string            `json:"imageName" doc:"Translated (v2 image)."`
	ContainerDiskInGb       int               `json:"containerDiskInGb" doc:"Translated (v2 disk)."`
	ContainerRegistryAuthID string            `json:"containerRegistryAuthId" nullable:"1" doc:"Translated (v2 registry); null removes the credential, \"\" leaves it unchanged."`
	DockerEntrypoint        []string          `json:"dockerEntrypoint" doc:"[] dropped; non-empty rejected (lenient: dropped)."`
	DockerStartCmd          []string          `json:"dockerStartCmd" doc:"Translated (v2 args); [] clears it."`
	Env                     map[string]string `json:"env" doc:"Translated (v2 env): replaces the whole env."`
	IsPublic                bool              `json:"isPublic" doc:"Translated (v2 public)."`
	Ports                   []string          `json:"ports" doc:"Translated (v2 ports)."`
	Readme                  string            `json:"readme" doc:"Dropped with X-Compat-Warning when non-empty."`
	VolumeInGb              int               `json:"volumeInGb" doc:"Translated after reading the template (full v2 mounts.persistent entry); 0 and 1-9 rejected."`
	VolumeMountPath         string            `json:"volumeMountPath" doc:"Translated after reading the template (full v2 mounts.persistent entry)."`
}

// ---------------------------------------------------------------------------
// Network volumes and registry credentials

type docNetworkVolumeCreateInput struct {
	Name         string `json:"name" req:"1" doc:"Translated (v2 name); \"\" counts as not sent."`
	Size         int    `json:"size" req:"1" min:"10" max:"4096" doc:"Translated (v2 size, GB). Checked before any v2 call against v2's bounds 10-4096 (v1 documented 0-4000): 0-9 is rejected, never rounded up (storage is billed by size)."`
	DataCenterID string `json:"dataCenterId" req:"1" doc:"Translated (v2 dataCenter)."`
	VolumeType   string `json:"volumeType" enum:"volumeType" doc:"Not in v1's document; sent by runpod-mcp. Translated (v2 type, the storage tier); other values rejected. Absent or \"\": not sent, v2 uses the data center's default tier."`
}

type docNetworkVolumeUpdateInput struct {
	Name string `json:"name" doc:"Translated (v2 name); \"\" leaves it unchanged (a size-only update)."`
	Size int    `json:"size" min:"10" max:"4096" doc:"Translated (v2 size) after reading the volume: a decrease is rejected naming the current size; the current size itself changes nothing (v1 required a larger one). An empty body answers the volume unchanged, without a v2 PATCH."`
}

type docRegistryCreateInput struct {
	Name     string `json:"name" req:"1" doc:"Translated (v2 name); \"\" counts as not sent."`
	Username string `json:"username" req:"1" doc:"Translated (v2 username); write-only, never returned."`
	Password string `json:"password" req:"1" doc:"Translated (v2 password); write-only, never returned, never echoed in messages."`
}

// ---------------------------------------------------------------------------
// Descriptions of the pod answer fields (the pod types are not tagged) and
// of the v1 fields the gateway never returns.

var (
	v1PodType      = v1Schema.Pod
	v1WorkerType   = v1Schema.Worker
	v1EndpointType = v1Schema.Endpoint
	v1TemplateType = v1Schema.Template
)

var podFieldDocs = map[string]string{
	"name":                    "v2 name. Serverless workers: null (v2 workers have no name).",
	"dockerEntrypoint":        "Always [] (v2 has no entrypoint override: the image's own runs).",
	"interruptible":           "Always false (v2 has no spot pods).",
	"savingsPlans":            "Always null: v2 does not show savings plans ([] would say that none applies).",
	"volumeEncrypted":         "false without a volume (serverless workers: always); null with one (v2 does not say whether it is encrypted).",
	"image":                   "v2 image. Serverless workers: v2's, else the endpoint's when the worker runs its current configuration; null otherwise.",
	"containerDiskInGb":       "v2 disk.",
	"containerRegistryAuthId": "v2 registry; null when none.",
	"dockerStartCmd":          "v2 args, split with shell rules; null when it cannot be split.",
	"desiredStatus":           "From v2 status: PROVISIONING, STARTING, RUNNING → RUNNING; EXITED, ERROR → EXITED; TERMINATED → TERMINATED; null for a status v2 adds later. Serverless workers: RUNNING.",
	"costPerHr":               "v2 cost (0 while stopped). Serverless workers: the v2 GPU catalog's serverless list price × gpuCount (no account discount); null when the catalog has none.",
	"adjustedCostPerHr":       "v2 cost as well: v2 does not say whether savings plans are included. Serverless workers: the list price, as costPerHr.",
	"gpu":                     "v2 gpu; null for CPU pods. displayName and prices come from the v2 GPU catalog with includeMachine=true.",
	"cpuFlavorId":             "v2 cpu.id (CPU pods); null for GPU pods.",
	"vcpuCount":               "v2 cpu.vcpuCount (CPU pods); null for GPU pods.",
	"memoryInGb":              "v2 cpu.memory (CPU pods); null for GPU pods, whose RAM v2 does not report (the GPU catalog's memory is VRAM).",
	"volumeInGb":              "v2 mounts.persistent.size; 0 without a pod volume.",
	"volumeMountPath":         "v2 mounts.persistent.path, or the network volume's mount path; null without a volume.",
	"networkVolume":           "With includeNetworkVolume=true.",
	"portMappings":            "Live public ports of a running pod ({} otherwise).",
	"publicIp":                "IPv4 address of the live public ports; null while not running.",
	"lastStartedAt":           "v2 startedAt; null before the first start.",
	"createdAt":               "v2 createdAt (not in v1's Pod schema; real v1 answered it and clients such as runpodctl filter on it).",
	"cloudType":               "v2 cloud: SECURE or COMMUNITY (not in v1's Pod schema; the value of v1 create's cloudType, as real v1 answered it).",
	"templateId":              "v2 template when v2 gives one, else the template the pod was created from through the gateway (the gateway's fact store); null when unknown.",
	"machine":                 "With includeMachine=true (and on an endpoint's workers): only what v2 exposes (data center, cloud, GPU type); for a serverless worker also the GPU catalog's list prices, and secureCloud only where its GPU type runs in one cloud (null otherwise).",
	"template":                "With includeTemplate=true (not in v1's Pod schema; added as in Endpoint.template).",
	"machineId":               "Always null: v2 does not expose the host machine.",
	"lastStatusChange":        "Always null: v2 has no status history.",
	"consumerUserId":          "Always null: v2 does not name the renter.",
	"endpointId":              "Serverless workers only; null for pods.",
	"aiApiId":                 "Serverless workers only (the endpoint id); null for pods.",
	"slsVersion":              "Serverless workers only (v2 worker version); null for pods.",
}

var endpointFieldDocs = map[string]string{
	"computeType":         "GPU when v2 has a gpu block, else CPU.",
	"gpuTypeIds":          "Every GPU type of the v2 catalog in the endpoint's pools minus its exclusions (includes types v2 added to a pool later; order is not kept); [] for CPU endpoints; null when the catalog cannot be read.",
	"gpuCount":            "v2 gpu.count (GPU endpoints); null for CPU endpoints.",
	"minCudaVersion":      "v2 gpu.minCudaVersion; null when none (always for CPU endpoints).",
	"allowedCudaVersions": "v2 gpu.allowedCudaVersions; [] when none (always for CPU endpoints); null when it names a version outside v1's list.",
	"instanceIds":         "CPU endpoints: {flavor}-{vcpuCount}-{memory} from v2 cpu[]; [] for GPU endpoints.",
	"executionTimeoutMs":  "v2 timeout.",
	"flashboot":           "v2 flashboot: OFF → false, FLASHBOOT or PRIORITY_FLASHBOOT → true (not in v1's Endpoint schema; the value of v1 create's and update's flashboot).",
	"idleTimeout":         "v2 workers.idleTimeout; null when v2 has none (REQUEST_COUNT queue endpoints).",
	"workersMin":          "v2 workers.min.",
	"workersMax":          "v2 workers.max.",
	"scalerType":          "v2 scaling.type; null when it is neither QUEUE_DELAY nor REQUEST_COUNT.",
	"scalerValue":         "v2 scaling.queueDelay or requestCount; null when fractional (v1 types it as an integer) or when v2 gives none.",
	"networkVolumeId":     "The first of v2 networkVolumes; null when none.",
	"networkVolumeIds":    "v2 networkVolumes.",
	"version":             "v2 endpointVersion (GET /v2/serverless/{id}/releases, or the workers answer), on create, get and update, and in lists with includeWorkers=true; null in lists without it (v2 gives it only per endpoint: no v2 call per listed endpoint) and when it cannot be read.",
	"workers":             "With includeWorkers=true, and on create: the active workers of GET /v2/serverless/{id}/workers.",
	"template":            "With includeTemplate=true, and on create: the template itself when the gateway knows the endpoint's templateId, else synthesised from the endpoint's own container settings (v2 keeps no link to the template); id is the endpoint's templateId when the gateway knows it.",
	"templateId":          "The template the endpoint was created from (or last updated with) through the gateway, from its fact store; null for endpoints made elsewhere (v2 keeps no link).",
	"createdAt":           "v2 createdAt; null when v2 gives none.",
	"userId":              "Always null: v2 has no user id.",
}

var templateFieldDocs = map[string]string{
	"imageName":               "v2 image.",
	"containerDiskInGb":       "v2 disk.",
	"containerRegistryAuthId": "v2 registry; null when none (always for templates you do not own).",
	"dockerEntrypoint":        "Always []: v2 has no entrypoint override, so the image's own ENTRYPOINT runs (the gateway refuses a non-empty one).",
	"dockerStartCmd":          "v2 args, split with shell rules; [] when none.",
	"earned":                  "Always null: v2 does not count credits earned by a template.",
	"isPublic":                "v2 public.",
	"isServerless":            "v2 serverless.",
	"isRunpod":                "true for the official templates of the v2 catalog (GET /templates), false for your own; null for a public template read by id.",
	"readme":                  "Remembered by the gateway (v2 templates have none): the readme last sent through it, \"\" for a template created through it without one; null when unknown.",
	"runtimeInMin":            "Always null: v2 does not count a template's runtime.",
	"volumeInGb":              "v2 mounts.persistent.size; 0 without a volume, or when volumeInGb 0 was asked of it (v2 cannot remove a volume; the gateway remembers it and creates pods without it).",
	"volumeMountPath":         "v2 mounts.persistent.path; \"\" without a volume.",
}

// answerExtras lists, per answer schema, the fields the gateway answers
// although v1's document does not declare them: real v1 answered them and
// real clients read them (or, for Pod.template, v1 documents the include
// without a property).
var answerExtras = map[string][]string{
	"Pod":           {"template", "createdAt", "cloudType", "imageName", "gpuTypeId", "gpuCount"},
	"Endpoint":      {"flashboot"},
	"NetworkVolume": {"volumeType"},
}

var podOmitted = omap[string]{}

var endpointOmitted = omap[string]{}

var templateOmitted = omap[string]{}

var billingOmitted = omap[string]{
	{"diskSpaceBilledGb", "v2 billing records carry no disk space"},
	{"timeBilledMs", "v2 billing records carry no billed time"},
}

var volumeBillingOmitted = omap[string]{
	{"diskSpaceBilledGb", "v2 billing records carry no disk space"},
	{"highPerformanceStorageDiskSpaceBilledGb", "v2 billing records carry no disk space"},
}

// componentSchemas builds the named schemas of the document, in order.
func componentSchemas() (omap[*oaSchema], []string) {
	g := newSchemaGen()
	for f, d := range podFieldDocs {
		g.docs[fieldOverride{v1PodType, f}] = d
		g.docs[fieldOverride{v1WorkerType, f}] = d
	}
	for f, d := range endpointFieldDocs {
		g.docs[fieldOverride{v1EndpointType, f}] = d
	}
	for f, d := range templateFieldDocs {
		g.docs[fieldOverride{v1TemplateType, f}] = d
	}
	g.byField[fieldOverride{v1EndpointType, "computeType"}] = &oaSchema{Type: "string", Enum: oaEnums["computeType"]}
	g.byField[fieldOverride{v1EndpointType, "scalerType"}] = &oaSchema{Type: "string", Enum: oaEnums["scalerType"], Nullable: true}
	g.byField[fieldOverride{v1TemplateType, "category"}] = &oaSchema{Type: "string", Enum: oaEnums["templateCategory"]}
	g.byField[fieldOverride{v1PodType, "desiredStatus"}] = &oaSchema{Type: "string", Enum: oaEnums["desiredStatus"], Nullable: true}
	g.byField[fieldOverride{v1WorkerType, "desiredStatus"}] = &oaSchema{Type: "string", Enum: oaEnums["desiredStatus"]}
	var out omap[*oaSchema]
	add := func(name, desc string, s *oaSchema) {
		s.Description = desc
		out.set(name, s)
	}

	pod := g.object(v1PodType)
	mergeProperties(pod, g.object(v1WorkerType))
	pod.XOmitted = podOmitted
	add("Pod", "A v1 Pod built from a v2 Pod (or, for serverless workers, from a v2 Worker: id, image, gpu, lastStartedAt, endpointId, aiApiId, slsVersion, desiredStatus). Fields v2 cannot provide are null (nullable here), never invented.", pod)
	add("PodCreateInput", "v1 PodCreateInput. Unknown fields are ignored and named in X-Compat-Warning. An empty string is the same as not sending the field.", g.object(reflect.TypeFor[docPodCreateInput]()))
	add("PodUpdateInput", "v1 PodUpdateInput. Only the fields sent are changed; v1 defaults are never applied on update. An empty string is the same as not sending the field.", g.object(reflect.TypeFor[docPodUpdateInput]()))

	ep := g.object(v1EndpointType)
	if w, ok := ep.Properties.get("workers"); ok {
		w.Items = refSchema("Pod")
	}
	if _, ok := ep.Properties.get("template"); ok {
		ep.Properties.set("template", refSchema("Template"))
	}
	ep.XOmitted = endpointOmitted
	add("Endpoint", "A v1 Endpoint built from a v2 serverless endpoint.", ep)
	add("EndpointCreateInput", "v1 EndpointCreateInput. v2 type QUEUE is always sent. An empty string is the same as not sending the field.", g.object(reflect.TypeFor[docEndpointCreateInput]()))
	add("EndpointUpdateInput", "v1 EndpointUpdateInput. Only the fields sent are changed. An empty string is the same as not sending the field.", g.object(reflect.TypeFor[docEndpointUpdateInput]()))

	tpl := g.object(v1TemplateType)
	tpl.XOmitted = templateOmitted
	add("Template", "A v1 Template built from a v2 template.", tpl)
	add("TemplateCreateInput", "v1 TemplateCreateInput. startJupyter false and startSsh true are sent explicitly (v2 defaults both to true). An empty string is the same as not sending the field.", g.object(reflect.TypeFor[docTemplateCreateInput]()))
	add("TemplateUpdateInput", "v1 TemplateUpdateInput. Only the fields sent are changed. An empty string is the same as not sending the field.", g.object(reflect.TypeFor[docTemplateUpdateInput]()))

	add("NetworkVolume", "A v1 NetworkVolume built from a v2 network volume (dataCenter → dataCenterId; the v2 storage tier is not shown).", g.object(v1Schema.NetworkVolume))
	add("NetworkVolumeCreateInput", "v1 NetworkVolumeCreateInput. Unknown fields are ignored and named in X-Compat-Warning. An empty string is the same as not sending the field.", g.object(reflect.TypeFor[docNetworkVolumeCreateInput]()))
	add("NetworkVolumeUpdateInput", "v1 NetworkVolumeUpdateInput. An empty string is the same as not sending the field.", g.object(reflect.TypeFor[docNetworkVolumeUpdateInput]()))

	add("ContainerRegistryAuth", "A v1 container registry credential: id and name only (credentials are write-only).", g.object(v1Schema.ContainerRegistryAuth))
	add("ContainerRegistryAuthCreateInput", "v1 ContainerRegistryAuthCreateInput. An empty string is the same as not sending the field.", g.object(reflect.TypeFor[docRegistryCreateInput]()))

	br := g.object(v1Schema.BillingRecord)
	br.XOmitted = billingOmitted
	add("BillingRecord", "A v1 billing record: one per bucket and group.", br)
	vbr := g.object(v1Schema.NetworkVolumeBillingRecord)
	vbr.XOmitted = volumeBillingOmitted
	add("NetworkVolumeBillingRecord", "A v1 network volume billing record: one per bucket, summed over every volume.", vbr)

	add("Error", "Every error of the gateway: v2 problem details become \"<detail>: <error>; <error>\".", &oaSchema{
		Type:       "object",
		Required:   []string{"message"},
		Properties: omap[*oaSchema]{{"message", &oaSchema{Type: "string", Example: json.RawMessage(`"Pod not found"`)}}},
	})
	return out, g.errs
}
