package translate

import (
	"reflect"
	"sort"

	"github.com/v1gateway/v1gateway/podjson"
)

// V1Schema is what the generator of the gateway's own v1 OpenAPI document
// and docs page (package v1doc, P10) needs from translate beyond the
// operation table: the Go types of the v1 answers translate writes, which
// v1doc describes by reflection (JSON names and field order, types, and the
// doc tags some of them carry), and the values translate accepts where v1
// has an enumeration. v1doc only reflects over the types: they are
// translate's own, unexported, but for the pod's, which are podjson's wire
// types (podjson.V1Pod, NullableString, V1PortMappings); building and
// encoding answers stays translate's and podjson's.
type V1Schema struct {
	// The answers, named after the v1 schema they are answered as: a pod,
	// a serverless worker (listed as a Pod), an endpoint, a template, a
	// network volume, a registry credential, a billing record (pods and
	// endpoints) and a network volume billing record.
	Pod, Worker, Endpoint, Template, NetworkVolume, ContainerRegistryAuth,
	BillingRecord, NetworkVolumeBillingRecord reflect.Type
	// Field types of those answers that encode themselves, whose JSON
	// shape reflection cannot see: a string written as null when empty
	// (Pod.publicIp) and the object of public port numbers
	// (Pod.portMappings).
	NullableString, PortMappings reflect.Type
	// The values translate accepts, sorted: GPU type ids, pod CPU flavor
	// ids, CUDA versions, data center ids (PodCreateInput's enumerations,
	// enforced as v1 did) and network volume types (volumeType, v2's
	// storage tiers).
	GPUTypeIDs, CPUFlavorIDs, CudaVersions, DataCenterIDs, VolumeTypes []string
}

// DescribeV1 returns the V1Schema of translate. The slices are new on each
// call.
func DescribeV1() V1Schema {
	return V1Schema{
		Pod:                        reflect.TypeFor[podjson.V1Pod](),
		Worker:                     reflect.TypeFor[v1Worker](),
		Endpoint:                   reflect.TypeFor[v1Endpoint](),
		Template:                   reflect.TypeFor[v1Template](),
		NetworkVolume:              reflect.TypeFor[v1NetworkVolume](),
		ContainerRegistryAuth:      reflect.TypeFor[v1Registry](),
		BillingRecord:              reflect.TypeFor[v1BillingRecord](),
		NetworkVolumeBillingRecord: reflect.TypeFor[v1VolumeBillingRecord](),
		NullableString:             reflect.TypeFor[podjson.NullableString](),
		PortMappings:               reflect.TypeFor[podjson.V1PortMappings](),
		GPUTypeIDs:                 sortedSet(v1GPUTypeIDs),
		CPUFlavorIDs:               sortedSet(v1CPUFlavorIDs),
		CudaVersions:               sortedSet(v1CudaVersions),
		DataCenterIDs:              sortedSet(v1DataCenterIDs),
		VolumeTypes:                sortedSet(v2VolumeTypes),
	}
}

func sortedSet(m map[string]struct{}) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// V1Nulls lists, per v1 answer schema, the fields the gateway answers null
// rather than leave out: v1 sent every field of its schema, null where it
// had no value (its own examples show Pod.templateId: null), and clients
// tell an absent key from a null one (issue 37). A field is null where v2
// has no source and the gateway was not told (a template's readme, earned,
// runtimeInMin; isRunpod and isPublic of a template view it cannot name),
// or where there is none (no registry credential, no CUDA minimum, no
// network volume). COMPATIBILITY.md's answer tables list the same.
var V1Nulls = map[string][]string{
	"Template": {"containerRegistryAuthId", "earned", "isPublic", "isRunpod", "readme", "runtimeInMin", "volumeInGb"},
	// An endpoint: no CUDA minimum, no network volume, a templateId the
	// gateway does not know (made outside it), the GPU count of a CPU
	// endpoint (it has none), the idle timeout of a REQUEST_COUNT queue
	// endpoint (v2 has none), userId (v2 has no user id), version where it
	// is not read (a list without includeWorkers: no v2 call per endpoint)
	// or cannot be, and what cannot be shown: a CUDA constraint outside
	// v1's enum, the GPU types when the catalog is unreadable, a
	// fractional scalerValue (v1 types it integer), a createdAt or
	// scalerType v2 does not give as a v1 value.
	"Endpoint": {"allowedCudaVersions", "createdAt", "gpuCount", "gpuTypeIds", "idleTimeout", "minCudaVersion", "networkVolumeId",
		"scalerType", "scalerValue", "templateId", "userId", "version"},
	// A pod (podjson.V1Pod): what v2 does not expose (the host machine,
	// the last status change, the renter, savings plans, a GPU pod's RAM
	// and vCPUs, whether a volume is encrypted), what it has none of (no
	// registry credential, no volume, never started, args it cannot
	// split, a status it does not know, gpu of a CPU pod, cpuFlavorId of
	// a GPU pod, the templateId of a pod made outside the gateway), and
	// a serverless worker's keys (endpointId, aiApiId, slsVersion) on a
	// pod that is none. A serverless worker (v1Worker), answered as a Pod:
	// its name, public address, network volume and mount path are
	// unknown in v2; its cost (and machine.costPerHr, currentPricePerGpu)
	// when the GPU catalog has no serverless price for its type;
	// machine.secureCloud unless its GPU type runs in one cloud only; its
	// container fields when it runs an older configuration than its
	// endpoint's.
	"Pod": {"adjustedCostPerHr", "aiApiId", "consumerUserId", "containerDiskInGb", "containerRegistryAuthId", "costPerHr",
		"cpuFlavorId", "desiredStatus", "dockerStartCmd", "endpointId", "env", "gpu", "image", "lastStartedAt",
		"lastStatusChange", "machine.costPerHr", "machine.currentPricePerGpu", "machine.secureCloud", "machineId", "memoryInGb", "name",
		"networkVolume", "ports", "savingsPlans", "slsVersion",
		"templateId", "vcpuCount", "volumeEncrypted", "volumeMountPath"},
}
