package translate

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/v1gateway/v1gateway/podjson"
)

// This file reads v1 pod request bodies (PodCreateInput, PodUpdateInput)
// field by field, so that every problem names its field: malformed JSON,
// wrong JSON types, values v2 would certainly reject, values outside v1's
// enums, and the fields that have no v2 home (P1).

// v1 defaults (PodCreateInput) the gateway sends explicitly on a create
// without templateId (P2).
const (
	v1DefaultName        = "my pod"
	v1DefaultDisk        = 50
	v1DefaultVolumeInGb  = 20
	v1DefaultMountPath   = "/workspace"
	v1DefaultGPUCount    = 1
	v1DefaultVCPUCount   = 2
	v1DefaultCloud       = "SECURE"
	v1DefaultMinRAMPer   = 8
	v1DefaultMinVCPUPer  = 2
	v1NameMaxLength      = 191
	v2PersistentMinimum  = 10
	maxCandidatesPerPod  = 64
	maxCountryCodesOnPod = 64
)

// v1DefaultPorts is H-ports: v1 writes its default as the string
// "8888/http,22/tcp".
var v1DefaultPorts = []string{"8888/http", "22/tcp"}

// Enumerations of the v1 contract (PodCreateInput), enforced as v1 did.
var (
	v1GPUTypeIDs = setOf(
		"NVIDIA GeForce RTX 4090", "NVIDIA A40", "NVIDIA RTX A5000", "NVIDIA GeForce RTX 5090",
		"NVIDIA H100 80GB HBM3", "NVIDIA GeForce RTX 3090", "NVIDIA RTX A4500", "NVIDIA L40S",
		"NVIDIA H200", "NVIDIA L4", "NVIDIA RTX 6000 Ada Generation", "NVIDIA A100-SXM4-80GB",
		"NVIDIA RTX 4000 Ada Generation", "NVIDIA RTX A6000", "NVIDIA A100 80GB PCIe",
		"NVIDIA RTX 2000 Ada Generation", "NVIDIA RTX A4000", "NVIDIA RTX PRO 6000 Blackwell Server Edition",
		"NVIDIA H100 PCIe", "NVIDIA H100 NVL", "NVIDIA L40", "NVIDIA B200", "NVIDIA GeForce RTX 3080 Ti",
		"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "NVIDIA GeForce RTX 3080",
		"NVIDIA GeForce RTX 3070", "AMD Instinct MI300X OAM", "NVIDIA GeForce RTX 4080 SUPER",
		"Tesla V100-PCIE-16GB", "Tesla V100-SXM2-32GB", "NVIDIA RTX 5000 Ada Generation",
		"NVIDIA GeForce RTX 4070 Ti", "NVIDIA RTX 4000 SFF Ada Generation", "NVIDIA GeForce RTX 3090 Ti",
		"NVIDIA RTX A2000", "NVIDIA GeForce RTX 4080", "NVIDIA A30", "NVIDIA GeForce RTX 5080",
		"Tesla V100-FHHL-16GB", "NVIDIA H200 NVL", "Tesla V100-SXM2-16GB",
		"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "NVIDIA A5000 Ada",
		"Tesla V100-PCIE-32GB", "NVIDIA  RTX A4500", "NVIDIA  A30", "NVIDIA GeForce RTX 3080TI",
		"Tesla T4", "NVIDIA RTX A30")
	v1CPUFlavorIDs   = setOf("cpu3c", "cpu3g", "cpu3m", "cpu5c", "cpu5g", "cpu5m")
	v1CudaVersions   = setOf("13.0", "12.9", "12.8", "12.7", "12.6", "12.5", "12.4", "12.3", "12.2", "12.1", "12.0", "11.8")
	v1DataCenterIDs  = setOf("EU-RO-1", "CA-MTL-1", "EU-SE-1", "US-IL-1", "EUR-IS-1", "EU-CZ-1", "US-TX-3", "EUR-IS-2", "US-KS-2", "US-GA-2", "US-WA-1", "US-TX-1", "CA-MTL-3", "EU-NL-1", "US-TX-4", "US-CA-2", "US-NC-1", "OC-AU-1", "US-DE-1", "EUR-IS-3", "CA-MTL-2", "AP-JP-1", "EUR-NO-1", "EU-FR-1", "US-KS-3", "US-GA-1")
	v1CloudTypes     = setOf("SECURE", "COMMUNITY")
	v1ComputeTypes   = setOf("GPU", "CPU")
	v1PriorityValues = setOf("availability", "custom")
)

// IsV1GPUTypeID reports whether id is one of v1's GPU type ids (the
// gpuTypeIds enum of PodCreateInput), as the configuration checks them.
func IsV1GPUTypeID(id string) bool {
	_, ok := v1GPUTypeIDs[id]
	return ok
}

func inSet(m map[string]struct{}, k string) bool {
	_, ok := m[k]
	return ok
}

func setOf(vals ...string) map[string]struct{} {
	m := make(map[string]struct{}, len(vals))
	for _, v := range vals {
		m[v] = struct{}{}
	}
	return m
}

// Field sets of the two v1 bodies; a key outside them is unknown.
var (
	podCreateFields = setOf("allowedCudaVersions", "cloudType", "computeType", "containerDiskInGb",
		"containerRegistryAuthId", "countryCodes", "cpuFlavorIds", "cpuFlavorPriority", "dataCenterIds",
		"dataCenterPriority", "dockerEntrypoint", "dockerStartCmd", "env", "globalNetworking", "gpuCount",
		"gpuTypeIds", "gpuTypePriority", "imageName", "interruptible", "locked", "minDiskBandwidthMBps",
		"minDownloadMbps", "minRAMPerGPU", "minUploadMbps", "minVCPUPerGPU", "name", "networkVolumeId",
		"ports", "supportPublicIp", "templateId", "vcpuCount", "volumeInGb", "volumeMountPath",
		// Outside the v1 document, sent by real clients and translated like
		// v1 fields (P1, OutsideFields).
		"dockerArgs", "minCudaVersion", "gpuTypeId", "deployCost")
	podUpdateFields = setOf("containerDiskInGb", "containerRegistryAuthId", "dockerEntrypoint",
		"dockerStartCmd", "env", "globalNetworking", "imageName", "locked", "name", "ports",
		"volumeInGb", "volumeMountPath", "dockerArgs")
)

func sortedKeys(m map[string]struct{}) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// isPowerOfTwo reports whether n is a power of two.
func isPowerOfTwo(n int) bool { return n > 0 && n&(n-1) == 0 }

// ---------------------------------------------------------------------------
// PodCreateInput

// podCreate is a validated v1 PodCreateInput.
type podCreate struct {
	name       string
	image      string
	templateID string
	cpu        bool // computeType CPU

	candidates     []string // gpuTypeIds or cpuFlavorIds, deduplicated, in the client's order
	customPriority bool     // gpuTypePriority / cpuFlavorPriority = custom
	chosen         bool     // no gpuTypeIds / cpuFlavorIds: the gateway chooses (P3)
	gpuCount       int
	cudaVersions   []string
	minCuda        string // minCudaVersion (runpodctl), when allowedCudaVersions is empty
	vcpuCount      int

	cloud         string  // "" when not sent and templateId is set
	anyCloud      bool    // cloudType ALL (the GraphQL door's): either cloud, SECURE first
	publicIP      bool    // supportPublicIp true
	priceCap      float64 // deployCost: the highest list price per hour (0: none)
	dataCenterIDs []string
	dcSent        bool
	countryCodes  []string

	disk        *int
	registry    string
	args        *string
	env         map[string]string
	ports       []string
	portsSent   bool
	volumeInGb  *int // nil: not sent; 0: explicitly no volume
	volAsked    int  // a volume below v2's minimum, rounded up in volumeInGb (0: none)
	volNull     bool
	mountPath   string
	networkVol  string
	globalNet   *bool
	locked      bool
	lockedSent  bool
	unknownKeys []string
	ignored     []ignoredField // outside-document fields sent where they mean nothing
	otherFamily []string       // fields of the other compute family, ignored (bodyFields.saying)
	untrans     []untranslatable
}

// parsePodCreate validates a v1 PodCreateInput. It returns the parsed input,
// or the v1 answer (a 400).
func parsePodCreate(body []byte) (*podCreate, *Result) {
	b, msg := parseBodyObject(body, "PodCreateInput")
	if b == nil {
		return nil, Fail(http.StatusBadRequest, msg)
	}
	in := &podCreate{unknownKeys: b.unknown(podCreateFields)}

	in.name = v1DefaultName
	if b.isNull("name") {
		// null: as if not sent.
	} else if s, ok := b.name("name"); ok {
		in.name = s
	}
	in.templateID, _ = b.str("templateId")
	in.image, _ = b.str("imageName")
	if ct, ok := b.enum("computeType", v1ComputeTypes); ok {
		in.cpu = ct == "CPU"
	}

	// Both families are type-checked (v1 validated the whole body), but only
	// the selected one is used: v1 ignored the other.
	gpuIDs, gpuSent := b.enumList("gpuTypeIds", v1GPUTypeIDs)
	gpuPrio, _ := b.enum("gpuTypePriority", v1PriorityValues)
	gpuCount, gpuCountSent := b.integer("gpuCount")
	cudas, _ := b.enumList("allowedCudaVersions", v1CudaVersions)
	minRAM, minRAMSent := b.integer("minRAMPerGPU")
	minVCPU, minVCPUSent := b.integer("minVCPUPerGPU")
	cpuIDs, cpuSent := b.enumList("cpuFlavorIds", v1CPUFlavorIDs)
	cpuPrio, _ := b.enum("cpuFlavorPriority", v1PriorityValues)
	vcpu, vcpuSent := b.integer("vcpuCount")

	if in.cpu {
		in.otherFamily = b.saying(podGPUFields)
	} else {
		in.otherFamily = b.saying(podCPUFields)
	}
	if in.cpu {
		in.candidates, in.customPriority = cpuIDs, cpuPrio == "custom"
		if _, ok := b.raw("gpuTypeId"); ok {
			in.ignored = append(in.ignored, ignoredField{"gpuTypeId", "a CPU pod has no GPU type (v1 ignored GPU fields on CPU pods)"})
		}
		in.vcpuCount = v1DefaultVCPUCount
		if vcpuSent {
			if vcpu < 2 || !isPowerOfTwo(vcpu) {
				b.v2Limit("vcpuCount", "must be a power of two and at least 2 (v2 rule), got %d", vcpu)
			}
			in.vcpuCount = vcpu
		}
		if (!cpuSent || len(cpuIDs) == 0) && !hasFieldError(b.errs, "cpuFlavorIds") {
			// v1 did not require cpuFlavorIds (P3): every v1 CPU flavor,
			// ranked by availability in the v2 CPU catalog.
			in.chosen = true
			in.candidates = sortedKeys(v1CPUFlavorIDs)
			in.customPriority = false
		}
	} else {
		in.candidates, in.customPriority = gpuIDs, gpuPrio == "custom"
		in.gpuCount = v1DefaultGPUCount
		if gpuCountSent {
			if gpuCount < 1 {
				b.fail("gpuCount", "must be at least 1, got %d", gpuCount)
			}
			in.gpuCount = gpuCount
		}
		in.cudaVersions = cudas
		if minCuda, ok := b.enum("minCudaVersion", v1CudaVersions); ok && !hasFieldError(b.errs, "allowedCudaVersions") {
			// runpodctl's --min-cuda-version: v2's gpu.minCudaVersion, or
			// the allowed set narrowed to it (v2 refuses both together).
			allowed, floor, m := cudaConstraint(&in.cudaVersions, minCuda)
			if m != "" {
				b.limitMsg("allowedCudaVersions", m)
			} else {
				in.cudaVersions, in.minCuda = *allowed, floor
			}
		}
		if one, ok := b.str("gpuTypeId"); ok {
			// Outside the document (OutsideFields): the one candidate, unless
			// gpuTypeIds names the candidates.
			switch _, valid := v1GPUTypeIDs[one]; {
			case gpuSent && len(gpuIDs) > 0 || hasFieldError(b.errs, "gpuTypeIds"):
				in.ignored = append(in.ignored, ignoredField{"gpuTypeId", "gpuTypeIds names the GPU types to try; gpuTypeId is not a v1 field"})
			case !valid:
				b.fail("gpuTypeId", "%q is not a valid value (one of v1's gpuTypeIds)", one)
			default:
				gpuIDs, gpuSent = []string{one}, true
				in.candidates = gpuIDs
			}
		}
		if (!gpuSent || len(gpuIDs) == 0) && !hasFieldError(b.errs, "gpuTypeIds") && !hasFieldError(b.errs, "gpuTypeId") {
			// v1 chose the GPU type itself (P3): the candidates come from the
			// v2 catalog (rankCandidates), narrowed by default_gpu_types.
			in.chosen = true
			in.candidates, in.customPriority = nil, false
		}
		if minRAMSent && minRAM != v1DefaultMinRAMPer && minRAM != 0 {
			in.untrans = append(in.untrans, untranslatable{field: "minRAMPerGPU", why: fmt.Sprintf("v2 has no per-GPU RAM constraint, and its catalog gives only the GPU's own memory, so %d GB of RAM per GPU cannot be checked: the pod could land on a host with less RAM", minRAM)})
		}
		if minVCPUSent && minVCPU != v1DefaultMinVCPUPer && minVCPU != 0 {
			in.untrans = append(in.untrans, untranslatable{field: "minVCPUPerGPU", why: fmt.Sprintf("v2 has no per-GPU vCPU constraint, and its catalog gives no vCPU count for a GPU type, so %d vCPUs per GPU cannot be checked: the pod could land on a host with fewer vCPUs", minVCPU)})
		}
	}
	if len(in.candidates) > maxCandidatesPerPod {
		b.fail(candidateField(in.cpu), "at most %d candidates are accepted", maxCandidatesPerPod)
	}

	cloudSent := false
	if r, ok := b.raw("cloudType"); ok && string(r) == `"ALL"` {
		// Outside v1's enum, the GraphQL door's ALL: either cloud, SECURE
		// tried first (createLoop).
		in.cloud, in.anyCloud, cloudSent = "SECURE", true, true
	} else if c, ok := b.enum("cloudType", v1CloudTypes); ok {
		in.cloud, cloudSent = c, true
	}
	b.enum("dataCenterPriority", v1PriorityValues)
	if dcs, ok := b.enumList("dataCenterIds", v1DataCenterIDs); ok && len(dcs) > 0 {
		in.dataCenterIDs, in.dcSent = dcs, true
	}
	if ccs, ok := b.strings("countryCodes"); ok && len(ccs) > 0 {
		seen := map[string]bool{}
		for _, cc := range ccs {
			u := strings.ToUpper(strings.TrimSpace(cc))
			if len(u) != 2 || u[0] < 'A' || u[0] > 'Z' || u[1] < 'A' || u[1] > 'Z' {
				b.fail("countryCodes", "%q is not an ISO 3166-1 alpha-2 country code", cc)
				continue
			}
			if !seen[u] {
				seen[u] = true
				in.countryCodes = append(in.countryCodes, u)
			}
		}
		if len(in.countryCodes) > maxCountryCodesOnPod {
			b.fail("countryCodes", "at most %d country codes are accepted", maxCountryCodesOnPod)
		}
		switch {
		case in.cpu && len(in.countryCodes) > 0:
			in.untrans = append(in.untrans, untranslatable{field: "countryCodes", why: "v2 cannot place a CPU pod by country (the CPU catalog has no country filter and data centers carry no country), so " + strings.Join(in.countryCodes, ", ") + " cannot be checked: the pod could land in another country"})
			in.countryCodes = nil
		case len(in.countryCodes) > 0:
			// Checked: the GPU catalog resolves them to data centers.
			in.untrans = append(in.untrans, untranslatable{field: "countryCodes", why: "v2 places a pod by data center, not by country", undo: func() { in.countryCodes = nil }})
		}
	}

	if b.isNull("containerDiskInGb") {
		// v1: nullable; null means the default.
	} else if d, ok := b.integer("containerDiskInGb"); ok {
		if d < 1 {
			b.v2Limit("containerDiskInGb", "must be at least 1 GB (v2 rule), got %d", d)
		}
		in.disk = &d
	}
	if s, ok := b.str("containerRegistryAuthId"); ok && s != "" {
		in.registry = s
	}
	if ep, ok := b.strings("dockerEntrypoint"); ok && len(ep) > 0 {
		in.untrans = append(in.untrans, untranslatable{field: "dockerEntrypoint", why: "v2 has no entrypoint override; the image's own ENTRYPOINT would run instead"})
	}
	if cmd, ok := b.strings("dockerStartCmd"); ok && len(cmd) > 0 {
		a := podjson.JoinArgs(cmd)
		in.args = &a
	}
	if _, ep := b.dockerArgs(&in.args); len(ep) > 0 {
		in.untrans = append(in.untrans, dockerArgsEntrypoint(ep))
	}
	if e, ok := b.env("env"); ok && len(e) > 0 {
		in.env = e
	}
	if p, ok := b.ports("ports"); ok {
		in.ports, in.portsSent = p, true
	}
	if b.isNull("volumeInGb") {
		in.volNull = true
		zero := 0
		in.volumeInGb = &zero
	} else if v, ok := b.integer("volumeInGb"); ok {
		switch {
		case v < 0:
			b.fail("volumeInGb", "must not be negative, got %d", v)
		case v > 0 && v < v2PersistentMinimum:
			// Rounded up, with a warning naming the cost (createPodPlan).
			in.volAsked, v = v, v2PersistentMinimum
		}
		in.volumeInGb = &v
	}
	if s, ok := b.str("volumeMountPath"); ok && s != "" {
		in.mountPath = s
	}
	if s, ok := b.str("networkVolumeId"); ok && s != "" {
		in.networkVol = s
	}
	if g, ok := b.boolean("globalNetworking"); ok {
		in.globalNet = &g
	}
	if l, ok := b.boolean("locked"); ok {
		in.locked, in.lockedSent = l, true
	}
	if it, ok := b.boolean("interruptible"); ok && it {
		in.untrans = append(in.untrans, untranslatable{field: "interruptible", why: "v2 has no interruptible (spot) pods; the pod would be on-demand at a higher price"})
	}
	for _, f := range []string{"minDiskBandwidthMBps", "minDownloadMbps", "minUploadMbps"} {
		if v, ok := b.number(f); ok && v != 0 {
			in.untrans = append(in.untrans, untranslatable{field: f, why: "v2 has no host bandwidth constraint, and its catalog no bandwidth figure, so " + strconv.FormatFloat(v, 'g', -1, 64) + " cannot be checked: the pod could land on a slower host"})
		}
	}
	if sp, ok := b.boolean("supportPublicIp"); ok && sp {
		in.publicIP = true
		if in.cloud == "COMMUNITY" {
			in.untrans = append(in.untrans, untranslatable{field: "supportPublicIp", why: "v2 cannot guarantee a public IP on COMMUNITY cloud (SECURE pods always have one); the pod may have none"})
		}
	}
	if c, ok := b.number("deployCost"); ok && c != 0 {
		// Outside the v1 document: the GraphQL door's price cap.
		if c < 0 {
			b.fail("deployCost", "must not be negative, got %v", c)
		}
		in.priceCap = c
		in.untrans = append(in.untrans, untranslatable{field: "deployCost", why: "v2 has no price cap on a pod", undo: func() { in.priceCap = 0 }})
	}

	// Cross-field rules.
	if in.image == "" && in.templateID == "" && !hasFieldError(b.errs, "imageName") {
		b.fail("imageName", "is required unless templateId is set")
	}
	if in.cpu && in.networkVol == "" && in.volumeInGb != nil && *in.volumeInGb > 0 {
		// H-mount-create: v2 has no persistent mount on CPU pods.
		in.untrans = append(in.untrans, untranslatable{field: "volumeInGb", why: "v2 CPU pods cannot have a pod volume (only the container disk and network volumes); use networkVolumeId"})
		in.volumeInGb, in.volAsked = nil, 0
	}
	if !cloudSent && in.templateID == "" {
		in.cloud = v1DefaultCloud
	}

	if len(b.errs) > 0 {
		return nil, b.failure("PodCreateInput")
	}
	return in, nil
}

func hasFieldError(errs []string, field string) bool {
	for _, e := range errs {
		if strings.HasPrefix(e, field+":") || strings.HasPrefix(e, field+".") {
			return true
		}
	}
	return false
}

func candidateField(cpu bool) string {
	if cpu {
		return "cpuFlavorIds"
	}
	return "gpuTypeIds"
}

// untranslatablePod is what an untranslatable pod field would change
// (decideUntranslatable's intro).
const untranslatablePod = "cannot be translated to the v2 API without changing what the pod does, costs or where it runs"

// v2CreatePodBody is v2 CreatePodRequest (unevaluatedProperties: false).
type v2CreatePodBody struct {
	Name             string            `json:"name"`
	Image            string            `json:"image,omitempty"`
	Args             *string           `json:"args,omitempty"`
	Disk             *int              `json:"disk,omitempty"`
	Env              map[string]string `json:"env,omitempty"`
	Ports            []string          `json:"ports,omitzero"`
	Registry         string            `json:"registry,omitempty"`
	Cloud            string            `json:"cloud,omitempty"`
	DataCenterIDs    []string          `json:"dataCenterIds,omitempty"`
	GPU              *v2CreateGPU      `json:"gpu,omitempty"`
	CPU              *v2CreateCPU      `json:"cpu,omitempty"`
	Mounts           *podjson.V2Mounts `json:"mounts,omitempty"`
	GlobalNetworking *bool             `json:"globalNetworking,omitempty"`
	StartSSH         bool              `json:"startSsh"`
	StartJupyter     *bool             `json:"startJupyter,omitempty"` // only the template's, sent inline
	TemplateID       string            `json:"templateId,omitempty"`
}

type v2CreateGPU struct {
	ID                  string   `json:"id"`
	Count               int      `json:"count"`
	AllowedCudaVersions []string `json:"allowedCudaVersions,omitempty"`
	MinCudaVersion      string   `json:"minCudaVersion,omitempty"`
}

type v2CreateCPU struct {
	ID        string `json:"id"`
	VcpuCount int    `json:"vcpuCount"`
}

// baseBody builds the v2 create body without the candidate id, the data
// centers and the mounts (which depend on pre-reads). v1 defaults are sent
// explicitly without templateId and never with it (P2).
func (in *podCreate) baseBody() v2CreatePodBody {
	body := v2CreatePodBody{
		Name:             in.name,
		Image:            in.image,
		Args:             in.args,
		Env:              in.env,
		Registry:         in.registry,
		Cloud:            in.cloud,
		GlobalNetworking: in.globalNet,
		StartSSH:         true,
		TemplateID:       in.templateID,
		Disk:             in.disk,
	}
	if in.portsSent {
		body.Ports = in.ports
	}
	if in.templateID == "" {
		if body.Disk == nil {
			d := v1DefaultDisk
			body.Disk = &d
		}
		if !in.portsSent {
			body.Ports = v1DefaultPorts
		}
	}
	if in.cpu {
		body.CPU = &v2CreateCPU{VcpuCount: in.vcpuCount}
	} else {
		body.GPU = &v2CreateGPU{Count: in.gpuCount, AllowedCudaVersions: in.cudaVersions, MinCudaVersion: in.minCuda}
	}
	return body
}

// ---------------------------------------------------------------------------
// PodUpdateInput

// podUpdate is a validated v1 PodUpdateInput: only what the client sent.
type podUpdate struct {
	body        v2UpdatePodBody
	fields      int  // translatable fields present in body
	volumeInGb  *int // mounts need the current pod first (H-mount-patch)
	mountPath   string
	unknownKeys []string
	untrans     []untranslatable
}

// v2UpdatePodBody is v2 UpdatePodRequest (unevaluatedProperties: false).
type v2UpdatePodBody struct {
	Name             *string                 `json:"name,omitempty"`
	Image            *string                 `json:"image,omitempty"`
	Args             *string                 `json:"args,omitempty"`
	Disk             *int                    `json:"disk,omitempty"`
	Env              *map[string]string      `json:"env,omitempty"`
	Ports            *[]string               `json:"ports,omitempty"`
	Registry         *podjson.NullableString `json:"registry,omitempty"`
	Mounts           *podjson.V2Mounts       `json:"mounts,omitempty"`
	Locked           *bool                   `json:"locked,omitempty"`
	GlobalNetworking *bool                   `json:"globalNetworking,omitempty"`
}

// parsePodUpdate validates a v1 PodUpdateInput. No v1 default is ever
// applied (docs/design.md §8, #6): only the fields the client sent are translated.
func parsePodUpdate(body []byte) (*podUpdate, *Result) {
	b, msg := parseBodyObject(body, "PodUpdateInput")
	if b == nil {
		return nil, Fail(http.StatusBadRequest, msg)
	}
	u := &podUpdate{unknownKeys: b.unknown(podUpdateFields)}
	if s, ok := b.name("name"); ok {
		u.body.Name = &s
		u.fields++
	}
	if s, ok := b.str("imageName"); ok {
		u.body.Image = &s
		u.fields++
	}
	if d, ok := b.integer("containerDiskInGb"); ok {
		if d < 1 {
			b.v2Limit("containerDiskInGb", "must be at least 1 GB (v2 rule), got %d", d)
		}
		u.body.Disk = &d
		u.fields++
	}
	if s, ok := b.str("containerRegistryAuthId"); ok || b.isNull("containerRegistryAuthId") {
		// "" is "not set" (unchanged); null removes the credential.
		ns := podjson.NullableString(s)
		u.body.Registry = &ns
		u.fields++
	}
	if ep, ok := b.strings("dockerEntrypoint"); ok && len(ep) > 0 {
		u.untrans = append(u.untrans, untranslatable{field: "dockerEntrypoint", why: "v2 has no entrypoint override; the image's own ENTRYPOINT would run instead"})
	}
	if cmd, ok := b.strings("dockerStartCmd"); ok {
		a := podjson.JoinArgs(cmd) // [] → "" clears (H-args)
		u.body.Args = &a
		u.fields++
	}
	had := u.body.Args != nil
	sent, ep := b.dockerArgs(&u.body.Args)
	if sent && !had {
		u.fields++
	}
	if len(ep) > 0 {
		u.untrans = append(u.untrans, dockerArgsEntrypoint(ep))
	}
	if e, ok := b.env("env"); ok {
		u.body.Env = &e
		u.fields++
	}
	if p, ok := b.ports("ports"); ok {
		u.body.Ports = &p
		u.fields++
	}
	if g, ok := b.boolean("globalNetworking"); ok {
		u.body.GlobalNetworking = &g
		u.fields++
	}
	if l, ok := b.boolean("locked"); ok {
		u.body.Locked = &l
		u.fields++
	}
	if v, ok := b.integer("volumeInGb"); ok {
		switch {
		case v < 0:
			b.fail("volumeInGb", "must not be negative, got %d", v)
		case v > 0 && v < v2PersistentMinimum:
			b.v2Limit("volumeInGb", "v2 volumes are at least %d GB, got %d", v2PersistentMinimum, v)
		}
		u.volumeInGb = &v
	}
	if s, ok := b.str("volumeMountPath"); ok {
		u.mountPath = s
	}
	if len(b.errs) > 0 {
		return nil, b.failure("PodUpdateInput")
	}
	return u, nil
}

// needsPod reports whether the update needs the current pod (H-mount-patch).
func (u *podUpdate) needsPod() bool { return u.volumeInGb != nil || u.mountPath != "" }

// applyMounts fills body.mounts from the current pod (H-mount-patch), or
// returns the 400 message when v2 cannot do what was asked.
func (u *podUpdate) applyMounts(cur *podjson.V2Pod) string {
	if !u.needsPod() {
		return ""
	}
	if u.volumeInGb != nil && *u.volumeInGb == 0 {
		// 0 is "no volume" (v1): nothing to change on a pod without a pod
		// volume; v2 cannot remove one.
		if p := cur.Mounts.Persistent; p != nil {
			return fmt.Sprintf("volumeInGb: 0 would remove the pod's %d GB volume, which v2 cannot do (a pod volume can grow, not be removed)", p.Size)
		}
		u.volumeInGb = nil
		if u.mountPath == "" {
			return ""
		}
	}
	switch {
	case cur.Mounts.Persistent != nil:
		pm := *cur.Mounts.Persistent
		if u.volumeInGb != nil {
			if *u.volumeInGb < pm.Size {
				return fmt.Sprintf("volumeInGb: the pod volume is %d GB; shrinking it to %d GB could lose data and is not supported", pm.Size, *u.volumeInGb)
			}
			pm.Size = *u.volumeInGb
		}
		if u.mountPath != "" {
			pm.Path = u.mountPath
		}
		u.body.Mounts = &podjson.V2Mounts{Persistent: &pm}
	case len(cur.Mounts.Network) > 0:
		if u.volumeInGb != nil {
			return "volumeInGb: the pod has a network volume, not a pod volume; v2 fixes a pod's mount kind at create time (resize the network volume with PATCH /networkvolumes/{id})"
		}
		nm := cur.Mounts.Network[0]
		nm.Path = u.mountPath
		u.body.Mounts = &podjson.V2Mounts{Network: []podjson.V2NetworkMount{nm}}
	default:
		f := "volumeMountPath"
		if u.volumeInGb != nil {
			f = "volumeInGb"
		}
		return f + ": the pod was created without a volume; v2 cannot add one after create"
	}
	u.fields++
	return ""
}
