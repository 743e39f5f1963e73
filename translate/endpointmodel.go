package translate

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/v1gateway/v1gateway/podjson"
)

// This file holds the serverless endpoint data model: the v2 Endpoint as
// decoded from v2 answers, the v1 Endpoint as written to v1 clients, R-Endpoint
// (docs/design.md §7), and the GPU pool arithmetic that turns v1 gpuTypeIds into
// v2 pools + excludedTypes and back.

// v2Endpoint is the part of a v2 Endpoint the gateway reads.
type v2Endpoint struct {
	ID       string             `json:"id"`
	Name     string             `json:"name"`
	Type     string             `json:"type"` // QUEUE, LOAD_BALANCER
	Image    string             `json:"image"`
	Args     string             `json:"args"`
	Disk     int                `json:"disk"`
	Ports    json.RawMessage    `json:"ports"`
	Env      json.RawMessage    `json:"env"`
	Registry *string            `json:"registry"`
	GPU      *v2EndpointGPU     `json:"gpu"`
	CPU      []podjson.V2PodCPU `json:"cpu"`
	Workers  struct {
		Min         int  `json:"min"`
		Max         int  `json:"max"`
		IdleTimeout *int `json:"idleTimeout"` // absent for QUEUE + REQUEST_COUNT
	} `json:"workers"`
	Scaling struct {
		Type         string   `json:"type"`
		QueueDelay   *float64 `json:"queueDelay"`
		RequestCount *int     `json:"requestCount"`
	} `json:"scaling"`
	DataCenterIDs  []string `json:"dataCenterIds"`
	NetworkVolumes []string `json:"networkVolumes"`
	Timeout        int      `json:"timeout"`
	Flashboot      string   `json:"flashboot"`
	CreatedAt      string   `json:"createdAt"`
	// TemplateID is not part of the v2 Endpoint schema (v2 keeps no link to
	// the template). It is read in case v2 ever returns it; otherwise the v1
	// templateId comes from the gateway's fact store (facts.go), never
	// invented.
	TemplateID string `json:"templateId"`
}

type v2EndpointGPU struct {
	Pools               []string `json:"pools"`
	ExcludedTypes       []string `json:"excludedTypes"`
	Count               int      `json:"count"`
	AllowedCudaVersions []string `json:"allowedCudaVersions" nullable:"1"`
	MinCudaVersion      *string  `json:"minCudaVersion"`
}

type v2EndpointList struct {
	Endpoints []v2Endpoint `json:"endpoints"`
}

// v2VersionAnswer is the part of the releases and workers answers that
// carries the endpoint's current configuration version.
type v2VersionAnswer struct {
	EndpointVersion *int `json:"endpointVersion"`
}

// v2EndpointWorkersAnswer is GET /v2/serverless/{id}/workers.
type v2EndpointWorkersAnswer struct {
	Workers         []v2Worker `json:"workers"`
	EndpointVersion *int       `json:"endpointVersion"`
}

// v1Endpoint is the v1 Endpoint schema. Every key of it is answered, as v1
// answered them (issue 37: clients tell an absent key from a null one), but
// template and workers, which v1 answered only when asked (includeTemplate,
// includeWorkers) and on create. A key v2 gives no v1 value for is null
// (V1Nulls["Endpoint"]): userId always (v2 has no user id), idleTimeout of a
// REQUEST_COUNT queue endpoint (v2 has none), a fractional scalerValue,
// version where it is not read (lists without includeWorkers) or cannot
// be. templateId is echoed on the create and update answers, and otherwise
// comes from the fact store (or v2, if it ever returns it).
type v1Endpoint struct {
	ID                  string                 `json:"id"`
	Name                string                 `json:"name"`
	AllowedCudaVersions []string               `json:"allowedCudaVersions" nullable:"1"` // []: none (a CPU endpoint: none applies); null: a version outside v1's enum
	ComputeType         string                 `json:"computeType"`
	CreatedAt           podjson.NullableString `json:"createdAt"` // null: v2 gave none
	DataCenterIDs       []string               `json:"dataCenterIds"`
	Env                 json.RawMessage        `json:"env"`
	ExecutionTimeoutMs  int                    `json:"executionTimeoutMs"`
	Flashboot           *bool                  `json:"flashboot,omitempty"`      // outside v1's Endpoint schema; v1 create's flashboot
	GpuCount            *int                   `json:"gpuCount" nullable:"1"`    // null: a CPU endpoint (no GPUs)
	GpuTypeIDs          []string               `json:"gpuTypeIds" nullable:"1"`  // []: a CPU endpoint; null: the catalog was unreadable
	IdleTimeout         *int                   `json:"idleTimeout" nullable:"1"` // null: none (a REQUEST_COUNT queue endpoint)
	InstanceIDs         []string               `json:"instanceIds"`              // []: a GPU endpoint
	MinCudaVersion      podjson.NullableString `json:"minCudaVersion"`           // null: none (or not a v1 value)
	NetworkVolumeID     podjson.NullableString `json:"networkVolumeId"`          // null: none
	NetworkVolumeIDs    []string               `json:"networkVolumeIds"`
	ScalerType          podjson.NullableString `json:"scalerType"`               // null: not a v1 value
	ScalerValue         *int                   `json:"scalerValue" nullable:"1"` // null: fractional, or none
	Template            *v1Template            `json:"template,omitempty"`
	TemplateID          podjson.NullableString `json:"templateId"`           // null: unknown (an endpoint made outside the gateway)
	UserID              podjson.NullableString `json:"userId"`               // always null: v2 has no user id
	Version             *int                   `json:"version" nullable:"1"` // null: not read (lists without includeWorkers) or unreadable
	Workers             []v1Worker             `json:"workers,omitzero"`
	WorkersMax          int                    `json:"workersMax"`
	WorkersMin          int                    `json:"workersMin"`
}

// v1Flashboot is v1 flashboot (a boolean) from v2 flashboot: OFF is false,
// FLASHBOOT and PRIORITY_FLASHBOOT true; absent or unknown: omitted.
func v1Flashboot(f string) *bool {
	switch f {
	case "OFF":
		return ptrTo(false)
	case "FLASHBOOT", "PRIORITY_FLASHBOOT":
		return ptrTo(true)
	}
	return nil
}

// v1EndpointFrom is R-Endpoint without the parts that need other calls
// (gpuTypeIds: the catalog; version: releases; workers; template).
func v1EndpointFrom(e *v2Endpoint) v1Endpoint {
	out := v1Endpoint{
		ID:                 e.ID,
		Name:               e.Name,
		CreatedAt:          podjson.NullableString(e.CreatedAt),
		DataCenterIDs:      nonNil(e.DataCenterIDs),
		Env:                rawOr(e.Env, jsonEmptyObject),
		ExecutionTimeoutMs: e.Timeout,
		Flashboot:          v1Flashboot(e.Flashboot),
		IdleTimeout:        e.Workers.IdleTimeout,
		NetworkVolumeIDs:   nonNil(e.NetworkVolumes),
		ScalerType:         podjson.NullableString(e.Scaling.Type),
		TemplateID:         podjson.NullableString(e.TemplateID),
		WorkersMax:         e.Workers.Max,
		WorkersMin:         e.Workers.Min,
	}
	if len(e.NetworkVolumes) > 0 {
		out.NetworkVolumeID = podjson.NullableString(e.NetworkVolumes[0])
	}
	switch e.Scaling.Type {
	case "QUEUE_DELAY":
		// v1 scalerValue is an integer; a fractional queueDelay (set through
		// v2) cannot be written without lying about it: null.
		if q := e.Scaling.QueueDelay; q != nil && *q >= 1 && *q <= math.MaxInt32 && *q == math.Trunc(*q) {
			out.ScalerValue = ptrTo(int(*q))
		}
	case "REQUEST_COUNT":
		out.ScalerValue = e.Scaling.RequestCount
	default:
		out.ScalerType = "" // not a v1 value
	}
	if e.GPU != nil {
		out.ComputeType = "GPU"
		out.GpuCount = ptrTo(e.GPU.Count)
		// Values outside v1's CUDA enum cannot be shown faithfully: the
		// constraint is null rather than narrowed or widened.
		if allV1Cuda(e.GPU.AllowedCudaVersions) {
			out.AllowedCudaVersions = nonNil(e.GPU.AllowedCudaVersions)
		}
		if m := e.GPU.MinCudaVersion; m != nil {
			if _, ok := v1CudaVersions[*m]; ok {
				out.MinCudaVersion = podjson.NullableString(*m)
			}
		}
		out.InstanceIDs = []string{} // no CPU instances
	} else {
		// The other family's fields say that there is none, as v1's
		// document reads: no GPU type can be attached, no CUDA constraint
		// applies ([]: "any CUDA version is acceptable"), no CUDA minimum
		// and no GPU count (null, like a CPU pod's gpu).
		out.ComputeType = "CPU"
		out.GpuTypeIDs, out.AllowedCudaVersions = []string{}, []string{}
		out.InstanceIDs = make([]string, len(e.CPU))
		for i, c := range e.CPU {
			out.InstanceIDs[i] = c.ID + "-" + strconv.Itoa(c.VcpuCount) + "-" + strconv.Itoa(c.Memory)
		}
	}
	return out
}

func allV1Cuda(vs []string) bool {
	for _, v := range vs {
		if _, ok := v1CudaVersions[v]; !ok {
			return false
		}
	}
	return true
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// endpointTemplateView is includeTemplate=true: v2 Endpoint has no link to
// its bound template, so the template is synthesised from the endpoint's own
// container settings (what the template supplied at create time, plus later
// edits); name, category, isPublic, isRunpod, readme and the volume are null.
// When the gateway knows the endpoint's template (the fact store), the
// template itself is answered instead (endpointAnswers.templateViews).
func endpointTemplateView(e *v2Endpoint) *v1Template {
	t := &v1Template{
		ImageName:         e.Image,
		ContainerDiskInGb: e.Disk,
		DockerEntrypoint:  []string{},
		DockerStartCmd:    nonNil(podjson.SplitPodArgs(e.Args)),
		Env:               rawOr(e.Env, jsonEmptyObject),
		Ports:             rawOr(e.Ports, jsonEmptyArray),
		IsServerless:      true,
	}
	if e.Registry != nil && *e.Registry != "" {
		t.ContainerRegistryAuthID = ptrTo(*e.Registry)
	}
	return t
}

// ---------------------------------------------------------------------------
// GPU pools (H2)

// v2GPUPoolCatalog is the part of GET /v2/catalog/gpus the pool arithmetic
// reads, and the serverless workers' list prices and cloud (workerprice.go).
type v2GPUPoolCatalog struct {
	GPUs []v2PoolGPU `json:"gpus"`
}

// v2PoolGPU is one GPU type of v2GPUPoolCatalog.
type v2PoolGPU struct {
	ID        string  `json:"id"`
	Pool      *string `json:"pool"` // null: not in a serverless pool
	Secure    bool    `json:"secure"`
	Community bool    `json:"community"`
	Price     struct {
		Serverless *float64 `json:"serverless"` // per GPU per hour; absent: no serverless pool for the caller
	} `json:"price"`
	MaxCount struct {
		Secure    int `json:"secure"`
		Community int `json:"community"`
	} `json:"maxCount"`
}

// poolSelection turns a v1 allow-list of GPU types into v2 pools and
// excludedTypes such that exactly the listed types (that serverless can use
// today) are eligible. Listed types the catalog does not know or that are in
// no serverless pool are returned in dropped.
func (cat *v2GPUPoolCatalog) poolSelection(listed []string) (pools, excluded, dropped []string) {
	poolOf := make(map[string]string, len(cat.GPUs))
	for _, g := range cat.GPUs {
		if g.Pool != nil && *g.Pool != "" {
			poolOf[strings.TrimSpace(g.ID)] = *g.Pool
		}
	}
	want := make(map[string]bool, len(listed))
	for _, id := range listed {
		p, ok := poolOf[strings.TrimSpace(id)]
		if !ok {
			dropped = append(dropped, id)
			continue
		}
		want[strings.TrimSpace(id)] = true
		if !slices.Contains(pools, p) {
			pools = append(pools, p)
		}
	}
	excluded = []string{}
	for _, g := range cat.GPUs {
		id := strings.TrimSpace(g.ID)
		if g.Pool == nil || !slices.Contains(pools, *g.Pool) || want[id] || slices.Contains(excluded, id) {
			continue
		}
		excluded = append(excluded, id)
	}
	return pools, excluded, dropped
}

// eligible is the inverse: every catalog type in one of pools that is not
// excluded, in catalog order. It includes cards added to a pool after the
// endpoint was created (H2).
func (cat *v2GPUPoolCatalog) eligible(pools, excluded []string) []string {
	out := []string{}
	for _, g := range cat.GPUs {
		id := strings.TrimSpace(g.ID)
		if g.Pool == nil || !slices.Contains(pools, *g.Pool) || slices.Contains(out, id) {
			continue
		}
		skip := false
		for _, x := range excluded {
			if strings.TrimSpace(x) == id {
				skip = true
				break
			}
		}
		if !skip {
			out = append(out, id)
		}
	}
	return out
}

// cudaLess compares two "major.minor" versions numerically (12.11 > 12.2).
// Malformed versions compare as strings.
func cudaLess(a, b string) bool {
	am, an, aok := splitCuda(a)
	bm, bn, bok := splitCuda(b)
	if !aok || !bok {
		return a < b
	}
	if am != bm {
		return am < bm
	}
	return an < bn
}

func splitCuda(v string) (int, int, bool) {
	maj, min, ok := strings.Cut(v, ".")
	if !ok {
		return 0, 0, false
	}
	a, err1 := strconv.Atoi(maj)
	b, err2 := strconv.Atoi(min)
	return a, b, err1 == nil && err2 == nil
}

// cudaAtLeast keeps the versions of allowed that are >= floor.
func cudaAtLeast(allowed []string, floor string) []string {
	out := []string{}
	for _, v := range allowed {
		if !cudaLess(v, floor) {
			out = append(out, v)
		}
	}
	return out
}

// noPoolMessage is the 400 of gpuTypeIds none of which v2 serverless can
// select: it names, in v1's words, the v1 GPU types that it can (never a v2
// route, which a v1 client cannot call).
func noPoolMessage(listed []string, cat *v2GPUPoolCatalog) string {
	var can []string
	for _, g := range cat.GPUs {
		if _, v1 := v1GPUTypeIDs[g.ID]; v1 && g.Pool != nil && *g.Pool != "" {
			can = append(can, g.ID)
		}
	}
	slices.Sort(can)
	msg := "gpuTypeIds: none of " + strings.Join(listed, ", ") + " can run serverless workers in v2 (v2 places workers only on the GPU types of its serverless pools)"
	if len(can) > 0 {
		msg += "; send one or more of: " + strings.Join(can, ", ")
	}
	return msg
}
