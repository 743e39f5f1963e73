package translate

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// This file reads the v1 endpoint bodies (EndpointCreateInput,
// EndpointUpdateInput) field by field, so that every problem names its
// field, and holds the v2 request bodies they become.

// v1 defaults of EndpointCreateInput sent explicitly on create (P2).
const (
	v1DefaultScalerType  = "QUEUE_DELAY"
	v1DefaultScalerValue = 4
	v1DefaultIdleTimeout = 5
	maxEndpointGPUTypes  = 64
	maxEndpointVolumes   = 64
)

var (
	v2FlashbootModes       = []string{"OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"}
	v1EndpointCPUFlavorIDs = setOf("cpu3c", "cpu3g", "cpu5c", "cpu5g")
	v1ScalerTypes          = setOf("QUEUE_DELAY", "REQUEST_COUNT")

	endpointCreateFields = setOf("allowedCudaVersions", "computeType", "cpuFlavorIds", "dataCenterIds",
		"executionTimeoutMs", "flashboot", "gpuCount", "gpuTypeIds", "idleTimeout", "minCudaVersion", "name",
		"networkVolumeId", "networkVolumeIds", "scalerType", "scalerValue", "templateId", "vcpuCount",
		"workersMax", "workersMin")
	endpointUpdateFields = setOf("allowedCudaVersions", "cpuFlavorIds", "dataCenterIds",
		"executionTimeoutMs", "flashboot", "gpuCount", "gpuTypeIds", "idleTimeout", "minCudaVersion", "name",
		"networkVolumeId", "networkVolumeIds", "scalerType", "scalerValue", "templateId", "vcpuCount",
		"workersMax", "workersMin")
)

// ---------------------------------------------------------------------------
// v2 request bodies

// v2Scaling is v2 EndpointScaling (QueueDelayScaling | RequestCountScaling,
// additionalProperties: false).
type v2Scaling struct {
	Type         string   `json:"type"`
	QueueDelay   *float64 `json:"queueDelay,omitempty"`
	RequestCount *int     `json:"requestCount,omitempty"`
}

func scalingOf(typ string, value int) *v2Scaling {
	if typ == "REQUEST_COUNT" {
		return &v2Scaling{Type: typ, RequestCount: ptrTo(value)}
	}
	f := float64(value)
	return &v2Scaling{Type: "QUEUE_DELAY", QueueDelay: &f}
}

// v2EndpointGPUBody is CreateEndpointGpuConfig / UpdateEndpointGpuConfig
// (unevaluatedProperties: false).
type v2EndpointGPUBody struct {
	Pools               []string  `json:"pools,omitempty"`
	ExcludedTypes       *[]string `json:"excludedTypes,omitempty"`
	Count               *int      `json:"count,omitempty"`
	AllowedCudaVersions *[]string `json:"allowedCudaVersions,omitempty"`
	MinCudaVersion      *string   `json:"minCudaVersion,omitempty"`
}

// v2EndpointWorkersBody is EndpointWorkers (additionalProperties: false).
type v2EndpointWorkersBody struct {
	Min         *int `json:"min,omitempty"`
	Max         *int `json:"max,omitempty"`
	IdleTimeout *int `json:"idleTimeout,omitempty"`
}

func (w *v2EndpointWorkersBody) empty() bool {
	return w.Min == nil && w.Max == nil && w.IdleTimeout == nil
}

// v2CreateEndpointBody is CreateEndpointRequest (unevaluatedProperties:
// false). Container settings are not sent: they come from the template.
type v2CreateEndpointBody struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	TemplateID string `json:"templateId,omitempty"`
	// The container settings of a template of the client's own, spread
	// into the body instead of templateId (spreadTemplate, H4).
	Image          string                 `json:"image,omitempty"`
	Args           *string                `json:"args,omitempty"`
	Disk           *int                   `json:"disk,omitempty"`
	Ports          json.RawMessage        `json:"ports,omitempty"`
	Env            json.RawMessage        `json:"env,omitempty"`
	Registry       *string                `json:"registry,omitempty"`
	Scaling        *v2Scaling             `json:"scaling"`
	GPU            *v2EndpointGPUBody     `json:"gpu,omitempty"`
	CPU            []v2CreateCPU          `json:"cpu,omitempty"`
	Workers        *v2EndpointWorkersBody `json:"workers,omitempty"`
	DataCenterIDs  []string               `json:"dataCenterIds,omitempty"`
	NetworkVolumes []string               `json:"networkVolumes,omitempty"`
	Timeout        *int                   `json:"timeout,omitempty"`
	Flashboot      string                 `json:"flashboot,omitempty"`
}

// v2UpdateEndpointBody is UpdateEndpointRequest (unevaluatedProperties:
// false): only what changes.
type v2UpdateEndpointBody struct {
	Name           *string                `json:"name,omitempty"`
	TemplateID     string                 `json:"templateId,omitempty"`
	Scaling        *v2Scaling             `json:"scaling,omitempty"`
	GPU            *v2EndpointGPUBody     `json:"gpu,omitempty"`
	CPU            []v2CreateCPU          `json:"cpu,omitempty"`
	Workers        *v2EndpointWorkersBody `json:"workers,omitempty"`
	DataCenterIDs  *[]string              `json:"dataCenterIds,omitempty"`
	NetworkVolumes *[]string              `json:"networkVolumes,omitempty"`
	Timeout        *int                   `json:"timeout,omitempty"`
	Flashboot      string                 `json:"flashboot,omitempty"`
}

// ---------------------------------------------------------------------------
// fields shared by both bodies

// endpointFields are the fields EndpointCreateInput and EndpointUpdateInput
// share, as sent (nil / "" / false: not sent).
type endpointFields struct {
	name       *string
	templateID string

	gpuTypeIDs  []string
	gpuTypeSent bool
	gpuCount    *int
	cudaAllowed *[]string
	minCuda     string

	cpuFlavors  []string
	cpuSent     bool
	vcpu        *int
	scalerType  string
	scalerValue *int
	workersMin  *int
	workersMax  *int
	idleTimeout *int
	timeout     *int
	flashboot   *bool
	flashMode   string // flashboot sent as one of v2's modes (runpod-mcp 3.x)
	dcs         *[]string
	volumes     *[]string // dedupe([networkVolumeId] + networkVolumeIds)
	unknownKeys []string
}

func (b *bodyFields) endpointCommon(f *endpointFields) {
	if b.isNull("name") {
		// null: as if not sent.
	} else if s, ok := b.name("name"); ok {
		f.name = &s
	}
	if s, ok := b.str("templateId"); ok && s != "" {
		f.templateID = s
	}

	if ids, ok := b.enumList("gpuTypeIds", v1GPUTypeIDs); ok {
		f.gpuTypeIDs, f.gpuTypeSent = ids, true
		if len(ids) > maxEndpointGPUTypes {
			b.fail("gpuTypeIds", "at most %d GPU types are accepted", maxEndpointGPUTypes)
		}
	}
	if n, ok := b.integer("gpuCount"); ok {
		if n < 1 {
			b.fail("gpuCount", "must be at least 1, got %d", n)
		}
		f.gpuCount = &n
	}
	if vs, ok := b.enumList("allowedCudaVersions", v1CudaVersions); ok {
		f.cudaAllowed = &vs
	}
	if m, ok := b.enum("minCudaVersion", v1CudaVersions); ok {
		f.minCuda = m
	}

	if ids, ok := b.enumList("cpuFlavorIds", v1EndpointCPUFlavorIDs); ok {
		f.cpuFlavors, f.cpuSent = ids, true
	}
	if n, ok := b.integer("vcpuCount"); ok {
		if n < 2 || !isPowerOfTwo(n) {
			b.v2Limit("vcpuCount", "must be a power of two and at least 2 (v2 rule), got %d", n)
		}
		f.vcpu = &n
	}

	if s, ok := b.enum("scalerType", v1ScalerTypes); ok {
		f.scalerType = s
	}
	if n, ok := b.integer("scalerValue"); ok {
		if n < 1 {
			b.fail("scalerValue", "must be at least 1, got %d", n)
		}
		f.scalerValue = &n
	}
	if n, ok := b.integer("workersMin"); ok {
		if n < 0 {
			b.fail("workersMin", "must not be negative, got %d", n)
		}
		f.workersMin = &n
	}
	if n, ok := b.integer("workersMax"); ok {
		if n < 0 {
			b.fail("workersMax", "must not be negative, got %d", n)
		}
		f.workersMax = &n
	}
	if f.workersMin != nil && f.workersMax != nil && *f.workersMin > *f.workersMax && *f.workersMin >= 0 && *f.workersMax >= 0 {
		b.fail("workersMin", "%d is more than workersMax %d", *f.workersMin, *f.workersMax)
	}
	if n, ok := b.integer("idleTimeout"); ok {
		if n < 1 || n > 3600 {
			b.fail("idleTimeout", "must be between 1 and 3600 seconds, got %d", n)
		}
		f.idleTimeout = &n
	}
	if n, ok := b.integer("executionTimeoutMs"); ok {
		if n < 1 {
			b.fail("executionTimeoutMs", "must be a positive number of milliseconds, got %d", n)
		}
		f.timeout = &n
	}
	if r, ok := b.raw("flashboot"); ok && r[0] == '"' {
		// runpod-mcp 3.x sends v2's FlashBoot modes to v1 as given: the
		// same setting, in v2's words, so it is translated as such.
		if s, _ := b.str("flashboot"); slices.Contains(v2FlashbootModes, s) {
			f.flashMode = s
		} else {
			b.fail("flashboot", "must be a boolean (or one of %s), got %q", strings.Join(v2FlashbootModes, ", "), s)
		}
	} else if v, ok := b.boolean("flashboot"); ok {
		f.flashboot = &v
	}
	if dcs, ok := b.enumList("dataCenterIds", v1DataCenterIDs); ok {
		f.dcs = &dcs
	}

	var vols []string
	sent := false
	if s, ok := b.str("networkVolumeId"); ok && s != "" {
		vols, sent = append(vols, s), true
	}
	if ids, ok := b.strings("networkVolumeIds"); ok {
		sent = true
		for i, id := range ids {
			if strings.TrimSpace(id) == "" {
				b.fail("networkVolumeIds", "element %d is empty", i)
				continue
			}
			if !slices.Contains(vols, id) {
				vols = append(vols, id)
			}
		}
	}
	if len(vols) > maxEndpointVolumes {
		b.fail("networkVolumeIds", "at most %d network volumes are accepted", maxEndpointVolumes)
	}
	if sent {
		if vols == nil {
			vols = []string{}
		}
		f.volumes = &vols
	}
}

// cudaConstraint reconciles allowedCudaVersions and minCudaVersion, which
// v2 refuses together (a non-empty set beside a floor → 400): the set is
// narrowed to the versions at or above the floor, and the floor is then not
// sent. It returns the v1 error message when nothing is left.
func cudaConstraint(allowed *[]string, floor string) (outAllowed *[]string, outFloor string, msg string) {
	if allowed == nil || len(*allowed) == 0 || floor == "" {
		return allowed, floor, ""
	}
	kept := cudaAtLeast(*allowed, floor)
	if len(kept) == 0 {
		return nil, "", "allowedCudaVersions: none of " + strings.Join(*allowed, ", ") + " is at or above minCudaVersion " + floor
	}
	return &kept, "", ""
}

// ---------------------------------------------------------------------------
// EndpointCreateInput

// endpointCreate is a validated v1 EndpointCreateInput.
type endpointCreate struct {
	endpointFields
	cpu         bool     // computeType CPU
	otherFamily []string // fields of the other compute family, ignored (bodyFields.saying)
	chooseCPU   bool     // CPU without cpuFlavorIds: the gateway lists every v1 flavor
	chooseGPU   bool     // GPU without gpuTypeIds: the gateway chooses (endpointchoose.go)
}

// parseEndpointCreate validates a v1 EndpointCreateInput. It returns the
// parsed input, or the v1 error message of a 400.
func parseEndpointCreate(body []byte) (*endpointCreate, *Result) {
	b, msg := parseBodyObject(body, "EndpointCreateInput")
	if b == nil {
		return nil, Fail(http.StatusBadRequest, msg)
	}
	in := &endpointCreate{}
	in.unknownKeys = b.unknown(endpointCreateFields)
	if ct, ok := b.enum("computeType", v1ComputeTypes); ok {
		in.cpu = ct == "CPU"
	}
	b.endpointCommon(&in.endpointFields)
	if in.templateID == "" && !hasFieldError(b.errs, "templateId") {
		b.fail("templateId", "is required: v1 endpoints are created from a serverless template")
	}
	if in.cpu {
		in.otherFamily = b.saying(endpointGPUFields)
	} else {
		in.otherFamily = b.saying(endpointCPUFields)
	}
	if in.cpu {
		// Without cpuFlavorIds (v1 did not require them, P3), every v1
		// endpoint CPU flavor, ordered by availability (createEndpointPlan).
		in.chooseCPU = len(in.cpuFlavors) == 0
	} else {
		// Without gpuTypeIds (v1 required only templateId, P3): the gateway
		// chooses, as for a pod (createEndpointPlan, endpointchoose.go).
		in.chooseGPU = len(in.gpuTypeIDs) == 0 && !hasFieldError(b.errs, "gpuTypeIds")
		if !hasFieldError(b.errs, "allowedCudaVersions") && !hasFieldError(b.errs, "minCudaVersion") {
			var m string
			in.cudaAllowed, in.minCuda, m = cudaConstraint(in.cudaAllowed, in.minCuda)
			if m != "" {
				b.limitMsg("allowedCudaVersions", m)
			}
		}
	}
	if len(b.errs) > 0 {
		return nil, b.failure("EndpointCreateInput")
	}
	return in, nil
}

// vcpuOrDefault is vcpuCount, or v1's default (2).
func (in *endpointCreate) vcpuOrDefault() int {
	if in.vcpu != nil {
		return *in.vcpu
	}
	return v1DefaultVCPUCount
}

// scaler returns the v1 scaler with v1's defaults applied.
func (in *endpointCreate) scaler() (string, int) {
	typ, val := in.scalerType, v1DefaultScalerValue
	if typ == "" {
		typ = v1DefaultScalerType
	}
	if in.scalerValue != nil {
		val = *in.scalerValue
	}
	return typ, val
}

// body builds the v2 create body without name (may come from the template)
// and gpu pools (from the catalog). It also returns warnings for what was
// not sent.
func (in *endpointCreate) body() (v2CreateEndpointBody, []string) {
	var warns []string
	typ, val := in.scaler()
	body := v2CreateEndpointBody{
		Type:       "QUEUE", // v1 endpoints are queue-based
		TemplateID: in.templateID,
		Scaling:    scalingOf(typ, val),
		Timeout:    in.timeout,
	}
	w := &v2EndpointWorkersBody{Min: in.workersMin, Max: in.workersMax}
	if typ == "REQUEST_COUNT" {
		// v2 rejects idleTimeout for queue endpoints scaling on requestCount.
		if in.idleTimeout != nil {
			warns = append(warns, "idleTimeout was not applied: v2 has no idle timeout for queue endpoints that scale on REQUEST_COUNT")
		}
	} else {
		idle := v1DefaultIdleTimeout // v2's default is 10: more idle cost
		if in.idleTimeout != nil {
			idle = *in.idleTimeout
		}
		w.IdleTimeout = &idle
	}
	if !w.empty() {
		body.Workers = w
	}
	if in.flashboot != nil {
		body.Flashboot = "OFF"
		if *in.flashboot {
			body.Flashboot = "FLASHBOOT"
		}
	}
	if in.flashMode != "" {
		body.Flashboot = in.flashMode
	}
	if in.dcs != nil && len(*in.dcs) > 0 {
		body.DataCenterIDs = *in.dcs
	}
	if in.volumes != nil && len(*in.volumes) > 0 {
		body.NetworkVolumes = *in.volumes
	}
	if in.cpu {
		vcpu := in.vcpuOrDefault()
		for _, id := range in.cpuFlavors {
			body.CPU = append(body.CPU, v2CreateCPU{ID: id, VcpuCount: vcpu})
		}
	} else {
		count := v1DefaultGPUCount
		if in.gpuCount != nil {
			count = *in.gpuCount
		}
		body.GPU = &v2EndpointGPUBody{Count: &count, AllowedCudaVersions: in.cudaAllowed}
		if in.minCuda != "" {
			body.GPU.MinCudaVersion = ptrTo(in.minCuda)
		}
	}
	return body, warns
}

// ---------------------------------------------------------------------------
// EndpointUpdateInput

// endpointUpdate is a validated v1 EndpointUpdateInput: only what the client
// sent; no v1 default is ever applied (docs/design.md §8, #16).
type endpointUpdate struct {
	endpointFields
	sent int // fields present (translatable or not)
}

// parseEndpointUpdate validates a v1 EndpointUpdateInput.
func parseEndpointUpdate(body []byte) (*endpointUpdate, *Result) {
	b, msg := parseBodyObject(body, "EndpointUpdateInput")
	if b == nil {
		return nil, Fail(http.StatusBadRequest, msg)
	}
	u := &endpointUpdate{}
	u.unknownKeys = b.unknown(endpointUpdateFields)
	b.endpointCommon(&u.endpointFields)
	if len(b.errs) > 0 {
		return nil, b.failure("EndpointUpdateInput")
	}
	for k, raw := range b.obj {
		if _, ok := endpointUpdateFields[k]; ok && !isUnset(raw) {
			u.sent++
		}
	}
	return u, nil
}

func (u *endpointUpdate) gpuFields() bool {
	return u.gpuTypeSent || u.gpuCount != nil || u.cudaAllowed != nil || u.minCuda != ""
}

func (u *endpointUpdate) cpuFields() bool { return u.cpuSent || u.vcpu != nil }

// needsCurrent reports whether the update needs the current endpoint (its
// compute family, scaling, flashboot, CUDA constraints or CPU selection), or
// sends nothing v2 can change (the answer is then the current endpoint).
func (u *endpointUpdate) needsCurrent() bool {
	return u.sent == 0 || u.gpuFields() || u.cpuFields() || u.idleTimeout != nil ||
		(u.scalerType == "") != (u.scalerValue == nil) || (u.flashboot != nil && *u.flashboot)
}
