package graphql

import (
	"testing"
)

// catalogClientDocs are the rows of the programs recorded for issue 36 that
// the door now answers whole (testdata/clients/README.md): the cloud-offer
// catalogs and SDKs that read the catalog and pods. What each reads is in
// docs/clients.md; fields v2 has no source for (lowestPrice.minVcpu and
// minMemory, minimumBidPrice, availableGpuCounts, diskLimitPerVcpu,
// latestTelemetry, ...) read null, named in the answer's warning, and are
// not in reads.
func catalogClientDocs() []clientDoc {
	const (
		hunt  = "gpuhunt 0.1.30: "
		sky   = "SkyPilot (master): "
		gosdk = "runpod-go-sdk (master ee6dacf): "
		flash = "runpod-flash 1.19.0: "
		java  = "runpod-java 0.1-SNAPSHOT: "
		lara  = "laravel-runpod (master 8e5be5e): "
	)
	pod := []string{"u5wlqg2xk1ffxa", "{seedgpu}"}
	return []clientDoc{
		// gpuhunt: the offer catalog, sent without a key.
		{name: hunt + "get (GPU types)", file: "gpuhunt/get__1_gpuTypes.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.manufacturer", "gpuTypes.*.displayName"}},
		{name: hunt + "get (countries, data centers)", file: "gpuhunt/get__2_countryCodes.graphql",
			reads: []string{"countryCodes.+", "dataCenters.*.id", "dataCenters.*.listed", "gpuTypes.*.maxGpuCount", "gpuTypes.*.maxGpuCountSecureCloud"}},
		{name: hunt + "get (secure offers in a data center)", file: "gpuhunt/get__3_gpuTypes_secure.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.securePrice", "gpuTypes.+.lowestPrice.stockStatus"}},
		{name: hunt + "get (community offers in a country)", file: "gpuhunt/get__4_gpuTypes_community.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.+.lowestPrice.uninterruptablePrice"}},
		{name: hunt + "get (cluster offers)", file: "gpuhunt/get__5_gpuTypes_cluster.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.+.lowestPrice.stockStatus"},
			// It drops a cluster offer whose minVcpu or minMemory is null
			// (which v2 has no source for: all of them, driven against
			// -demo), so the answer must name them.
			check: all(everyGPUTypeOneOf("NVIDIA L40S", "NVIDIA A100 80GB PCIe", "NVIDIA H100 80GB HBM3"), warnedOnly("LowestPrice.minMemory", "LowestPrice.minVcpu"))},
		{name: hunt + "get (CPU data centers)", file: "gpuhunt/get__6_dataCenters.graphql",
			reads: []string{"dataCenters.*.id", "dataCenters.*.listed"}},
		{name: hunt + "get (CPU flavors)", file: "gpuhunt/get__7_cpuFlavors.graphql",
			reads: []string{"cpuFlavors.*.id", "cpuFlavors.*.minVcpu", "cpuFlavors.*.maxVcpu", "cpuFlavors.*.ramMultiplier", "cpuFlavors.*.specifics.securePrice", "cpuFlavors.+.specifics.stockStatus"},
			// It skips a flavor whose diskLimitPerVcpu is null (v2 has no
			// source): no CPU offer is made, and the answer names it.
			check: warnedOnly("CpuFlavor.diskLimitPerVcpu")},

		// SkyPilot: the catalog fetcher, and the spot launch (refused).
		{name: sky + "fetch_runpod (GPU type)", file: "skypilot/fetch_catalog__1_gpuTypes.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.securePrice", "gpuTypes.*.maxGpuCount"}, check: oneGPUType("NVIDIA H100 80GB HBM3")},
		{name: sky + "fetch_runpod (CPU flavor)", file: "skypilot/fetch_catalog__2_cpuFlavors.graphql",
			reads: []string{"cpuFlavors.*.id", "cpuFlavors.*.displayName", "cpuFlavors.*.minVcpu", "cpuFlavors.*.maxVcpu", "cpuFlavors.*.ramMultiplier"}},
		{name: sky + "fetch_runpod (CPU instance)", file: "skypilot/fetch_catalog__3_cpuFlavors_specifics.graphql",
			reads: []string{"cpuFlavors.*.specifics.securePrice", "cpuFlavors.*.specifics.slsPrice"}},
		{name: sky + "spot launch (GPU type)", file: "skypilot/launch_spot__1_gpuTypes.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.memoryInGb"}, check: oneGPUType("NVIDIA GeForce RTX 4090")},
		{name: sky + "spot launch", file: "skypilot/launch_spot__2_podRentInterruptable.graphql",
			want: wantRefusal, field: "podRentInterruptable", reason: "v2 has no interruptible (spot) pods"},

		// runpod-go-sdk: the account, the catalog, two pod reads.
		{name: gosdk + "account id", file: "runpod-go-sdk/get_account_id.graphql", reads: []string{"myself.id"}},
		{name: gosdk + "data centers", file: "runpod-go-sdk/list_data_centers.graphql",
			reads: []string{"dataCenters.*.id", "dataCenters.*.name", "dataCenters.*.location", "dataCenters.*.storageSupport", "dataCenters.+.gpuAvailability.+.stockStatus", "dataCenters.+.gpuAvailability.+.available"}},
		{name: gosdk + "GPU types", file: "runpod-go-sdk/list_gpu_types.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.displayName", "gpuTypes.*.memoryInGb", "gpuTypes.*.secureCloud", "gpuTypes.+.lowestPrice.stockStatus"}},
		// GetGPUType (and ListGPUTypes without a CUDA minimum) sends the
		// same document with minCudaVersion "" (recorded driving it
		// against -demo), and picks the type by id from the list.
		{name: gosdk + "GPU type", file: "runpod-go-sdk/get_gpu_type.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.displayName", "gpuTypes.*.memoryInGb", "gpuTypes.+.lowestPrice.uninterruptablePrice"},
			check: hasGPUType("NVIDIA GeForce RTX 4090")},
		{name: gosdk + "GPU offers", file: "runpod-go-sdk/list_gpu_offers.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.+.secure.uninterruptablePrice", "gpuTypes.+.community.uninterruptablePrice"}},
		{name: gosdk + "pod lifecycle", file: "runpod-go-sdk/get_pod_lifecycle_observation.graphql", subst: pod,
			reads: []string{"pod.id", "pod.desiredStatus", "pod.lastStartedAt", "pod.runtime.uptimeInSeconds"}},
		{name: gosdk + "SSH target", file: "runpod-go-sdk/discover_ssh_target.graphql", subst: pod,
			reads: []string{"pod.id", "pod.runtime.ports.+.privatePort", "pod.runtime.ports.+.publicPort", "pod.runtime.ports.+.ip"}},

		// runpod-flash: the worker-availability diagnostic.
		{name: flash + "worker availability (GPU)", file: "runpod-flash/worker_availability_gpu.graphql",
			reads: []string{"gpuTypes.*.lowestPrice.stockStatus"}, check: gpuTypeCount(1)},
		{name: flash + "worker availability (CPU)", file: "runpod-flash/worker_availability_cpu.graphql",
			reads: []string{"cpuFlavors.*.specifics"}},
		// Its RunpodGraphQLClient's templates and endpoints, recorded
		// driving it against -demo: a serverless template made, an
		// endpoint saved on it, looked up, deleted; its flash apps.
		{name: flash + "get_template", file: "runpod-flash/get_template.graphql", subst: []string{"g5q802k34y", "{seedtpl}"},
			reads: []string{"podTemplate.id", "podTemplate.imageName", "podTemplate.containerDiskInGb", "podTemplate.env.+.key"}},
		{name: flash + "update_template (a new serverless template)", file: "runpod-flash/update_template.graphql",
			reads: []string{"saveTemplate.id", "saveTemplate.name", "saveTemplate.imageName", "saveTemplate.env.+.value"}, save: map[string]string{"flTpl": "saveTemplate.id"}},
		{name: flash + "save_endpoint", file: "runpod-flash/save_endpoint.graphql", subst: []string{"cokgvyhtje", "{flTpl}"},
			reads: []string{"saveEndpoint.id", "saveEndpoint.templateId", "saveEndpoint.gpuIds", "saveEndpoint.workersMax", "saveEndpoint.scalerType"}, save: map[string]string{"flEp": "saveEndpoint.id"}},
		{name: flash + "endpoint_exists", file: "runpod-flash/endpoint_exists.graphql", subst: []string{"zqxizr87zneuq4", "{flEp}"},
			reads: []string{"myself.endpoint.id"}},
		{name: flash + "delete_endpoint", file: "runpod-flash/delete_endpoint.graphql", subst: []string{"zqxizr87zneuq4", "{flEp}"},
			check: present("deleteEndpoint")},
		// v2 has no flash apps: an empty list, which flash's `flash app
		// list` iterates (null would fail it), with a warning saying why.
		{name: flash + "list_flash_apps", file: "runpod-flash/list_flash_apps.graphql",
			check: func(t *testing.T, w *world, a *answer) {
				if apps, ok := path(a.Data, "myself.flashApps").([]any); !ok || len(apps) != 0 {
					t.Errorf("myself.flashApps is not []: %s", a.raw)
				}
				warnedOnly("User.flashApps was answered []: v2 has no flash apps")(t, w, a)
			}},

		// runpod-java: its query builder over its annotated types.
		{name: java + "getGpuTypes", file: "runpod-java/gpu_getGpuTypes.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.displayName", "gpuTypes.*.maxGpuCount"}},
		{name: java + "getPod", file: "runpod-java/pod_getPod.graphql", subst: pod,
			reads: []string{"pod.id", "pod.name", "pod.desiredStatus", "pod.imageName", "pod.machine.gpuTypeId", "pod.machine.dataCenterId", "pod.adjustedCostPerHr"}},
		{name: java + "getCpuTypes", file: "runpod-java/cpu_getCpuTypes.graphql",
			want: wantRefusal, field: "cpuTypes", reason: "use cpuFlavors"},

		// laravel-runpod: the pod's telemetry for its dashboard (v2 has
		// none: latestTelemetry reads null, which it shows as "no
		// telemetry").
		{name: lara + "pod telemetry", file: "laravel-runpod/get_pod_telemetry.graphql", subst: pod,
			reads: []string{"pod.id", "pod.name", "pod.desiredStatus", "pod.costPerHr"}},
	}
}

// everyGPUTypeOneOf checks that gpuTypes answered only types among ids.
func everyGPUTypeOneOf(ids ...string) func(t *testing.T, w *world, a *answer) {
	return func(t *testing.T, _ *world, a *answer) {
		l, _ := path(a.Data, "gpuTypes").([]any)
		for _, g := range l {
			id, _ := path(g, "id").(string)
			found := false
			for _, want := range ids {
				found = found || id == want
			}
			if !found {
				t.Errorf("gpuTypes answered %s, not one of %v", id, ids)
			}
		}
	}
}

// hasGPUType checks that gpuTypes answered the type id among others.
func hasGPUType(id string) func(t *testing.T, w *world, a *answer) {
	return func(t *testing.T, _ *world, a *answer) {
		l, _ := path(a.Data, "gpuTypes").([]any)
		for _, g := range l {
			if path(g, "id") == id {
				return
			}
		}
		t.Errorf("gpuTypes has no %s: %s", id, a.raw)
	}
}

// gpuTypeCount checks the number of GPU types answered.
func gpuTypeCount(n int) func(t *testing.T, w *world, a *answer) {
	return func(t *testing.T, _ *world, a *answer) {
		if l, _ := path(a.Data, "gpuTypes").([]any); len(l) != n {
			t.Errorf("gpuTypes answered %d types, want %d: %s", len(l), n, a.raw)
		}
	}
}
