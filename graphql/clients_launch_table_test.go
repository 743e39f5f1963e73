package graphql

import (
	"strings"
	"testing"
	"time"
)

// launchClientDocs are the rows of the last three programs recorded for
// issue 36, whose launch paths send P1's soft constraints (placement
// minimums, a price cap, a CUDA list): dstack's RunPod backend, the
// runpod-graphql TypeScript client and the vendor's GraphQL documentation
// (testdata/clients/README.md; what each reads is in docs/clients.md).
//
// Substitutions beyond the captured ids: the simulator's catalog has no
// "NVIDIA RTX A6000", which the documentation's create and dstack's
// community launch name (the RTX A4000, offered on both clouds, stands in);
// dstack's volume launch uses the seeded EU-RO-1 volume ({euvol}: its runs
// are in EU-RO-1). runpod-graphql's CPU create names the vendor's official
// template "runpod-ubuntu" with an empty imageName, and is refused as sent
// (v2 has no such template, and nothing says what to run instead).
//
// The simulator's community cloud has no type with CUDA 12.8 in CZ:
// dstack's community launch asks for the RTX 6000 Ada (48 GB, as the A6000)
// in RO instead.
//
// dstack's every launch sends dockerArgs' JSON form with the entrypoint
// ["/bin/sh", "-c"], which v2 cannot set (P1: the image's own ENTRYPOINT
// would run instead): refused as dockerEntrypoint in the default settings,
// and answered under field_policy dockerEntrypoint: drop (policy), which
// the rows after it use.
func launchClientDocs() []clientDoc {
	const (
		ds   = "dstack 0.21.2: "
		rg   = "runpod-graphql 0.3.2: "
		docs = "the vendor's GraphQL documentation: "
	)
	const (
		capPod = "u5wlqg2xk1ffxa"
		capVol = "agv6w2qcg7"
		capCra = "clzb0r1eg0001abcd"
	)
	drop := map[string]string{"dockerEntrypoint": "drop"}
	entrypoint := "dockerEntrypoint: the entrypoint [\"/bin/sh\" \"-c\"] of dockerArgs' JSON form"
	a6000 := []string{"NVIDIA RTX A6000", "NVIDIA RTX A4000"}
	podReads := func(root string) []string {
		return []string{root + ".id", root + ".imageName"}
	}
	return []clientDoc{
		// ---------------------------------------------------------------
		// dstack 0.21.2: its RunPod backend (api_client.py), as compute.py
		// calls it over a run: the key check, volumes, a private image's
		// credential, the launches, the provisioning poll, a multi-node
		// run, the clean-ups.
		{name: ds + "validate_api_key", file: "dstack/validate_api_key.graphql", reads: []string{"myself.id"}},
		{name: ds + "register_volume", file: "dstack/register_volume.graphql",
			reads: []string{"myself.networkVolumes.*.id", "myself.networkVolumes.*.size", "myself.networkVolumes.*.dataCenter.id"}},
		{name: ds + "create_volume", file: "dstack/create_volume.graphql",
			reads: []string{"createNetworkVolume.id"}, save: map[string]string{"dsVol": "createNetworkVolume.id"}},
		{name: ds + "run_job (GPU)", file: "dstack/run_job_gpu__1_podFindAndDeployOnDemand.graphql",
			want: wantRefusal, field: "podFindAndDeployOnDemand", reason: entrypoint, policy: drop,
			reads: []string{"podFindAndDeployOnDemand.id"}, save: map[string]string{"dsPod": "podFindAndDeployOnDemand.id"},
			check: all(warned("minRAMPerGPU was accepted but not guaranteed", "minVCPUPerGPU was accepted but not guaranteed"), warnedOnly("dropped dockerEntrypoint (field_policy dockerEntrypoint: drop)"),
				v2Create(`"dataCenterIds":["EU-RO-1"]`, `"minCudaVersion":"12.8"`, `"args":"'( : \u0026\u0026 unset LD_LIBRARY_PATH`))},
		{name: ds + "run_job (GPU, COMMUNITY in a country)", file: "dstack/run_job_gpu_community.graphql",
			subst: []string{"NVIDIA RTX A6000", "NVIDIA RTX 6000 Ada Generation", `countryCode: "CZ"`, `countryCode: "RO"`},
			want:  wantRefusal, field: "podFindAndDeployOnDemand", reason: entrypoint, policy: drop,
			reads: []string{"podFindAndDeployOnDemand.id"}, save: map[string]string{"dsCommunity": "podFindAndDeployOnDemand.id"},
			check: all(warned("supportPublicIp was accepted but not guaranteed"), v2Create(`"cloud":"COMMUNITY"`, `"dataCenterIds":["EU-RO-1"]`))},
		{name: ds + "run_job (GPU, a network volume)", file: "dstack/run_job_volume.graphql", subst: []string{capVol, "{euvol}"},
			want: wantRefusal, field: "podFindAndDeployOnDemand", reason: entrypoint, policy: drop,
			reads: []string{"podFindAndDeployOnDemand.id"}, save: map[string]string{"dsVolPod": "podFindAndDeployOnDemand.id"},
			check: v2Create(`"volumeId":"{euvol}"`)},
		{name: ds + "run_job (GPU, spot)", file: "dstack/run_job_gpu_spot.graphql",
			want: wantRefusal, field: "podRentInterruptable", reason: "v2 has no interruptible (spot) pods"},
		{name: ds + "run_job (CPU)", file: "dstack/run_job_cpu.graphql",
			want: wantRefusal, field: "deployCpuPod", reason: entrypoint, policy: drop,
			reads: []string{"deployCpuPod.id"}, save: map[string]string{"dsCpu": "deployCpuPod.id"},
			check: v2Create(`"dataCenterIds":["EU-RO-1"]`)},
		{name: ds + "run_job (a private image: its credential)", file: "dstack/run_job_private_image__1_saveRegistryAuth.graphql",
			reads: []string{"saveRegistryAuth.id"}, save: map[string]string{"dsCra": "saveRegistryAuth.id"}},
		{name: ds + "run_job (a private image)", file: "dstack/run_job_private_image__2_podFindAndDeployOnDemand.graphql", subst: []string{capCra, "{dsCra}"},
			want: wantRefusal, field: "podFindAndDeployOnDemand", reason: entrypoint, policy: drop,
			reads: []string{"podFindAndDeployOnDemand.id"}, save: map[string]string{"dsPrivPod": "podFindAndDeployOnDemand.id"},
			check: v2Create(`"registry":"{dsCra}"`)},
		{name: ds + "update_provisioning_data", file: "dstack/update_provisioning_data.graphql", subst: []string{capPod, "{dsPod}"},
			reads: []string{"pod.id", "pod.desiredStatus", "pod.imageName", "pod.ports"}},
		{name: ds + "run_jobs (a cluster)", file: "dstack/run_jobs_cluster__1_createCluster.graphql",
			want: wantRefusal, field: "createCluster", reason: entrypoint, policy: drop,
			reads: []string{"createCluster.id", "createCluster.name", "createCluster.pods"},
			save:  map[string]string{"dsCluster": "createCluster.id"}, check: clusterPodsPlaced("dsCluster", "dsClusterPod")},
		{name: ds + "run_jobs (a cluster pod's credential)", file: "dstack/run_jobs_cluster__2_podEditJob.graphql",
			subst: []string{capPod, "{dsClusterPod}", capCra, "{dsCra}"},
			// v2 edits no member pod of a cluster (v2's own message).
			want: wantRefusal, field: "podEditJob", reason: "belongs to cluster"},
		{name: ds + "terminate_instance", file: "dstack/terminate_instance.graphql", subst: []string{capPod, "{dsPrivPod}"},
			check: present("podTerminate")},
		{name: ds + "terminate_compute_group", file: "dstack/terminate_compute_group.graphql", subst: []string{"cm8x3n2v10001", "{dsCluster}"},
			check: present("deleteCluster")},
		{name: ds + "delete_volume", file: "dstack/delete_volume.graphql", subst: []string{capVol, "{dsVol}"},
			check: present("deleteNetworkVolume")},
		{name: ds + "run_job (the credentials, for the clean-up)", file: "dstack/run_job_gpu__2_myself.graphql",
			reads: []string{"myself.containerRegistryCreds.+.id"}},
		{name: ds + "run_job (an old credential deleted)", file: "dstack/run_job_gpu__3_deleteRegistryAuth.graphql", subst: []string{capCra, "{dsCra}"},
			check: present("deleteRegistryAuth")},

		// ---------------------------------------------------------------
		// runpod-graphql 0.3.2: lib/info (no key) and lib/pods.
		{name: rg + "info.countryCodes.list", file: "runpod-api-helper/info_countryCodes_list.graphql", reads: []string{"countryCodes.+"}},
		{name: rg + "info.dataCenters.list", file: "runpod-api-helper/info_dataCenters_list.graphql",
			reads: []string{"dataCenters.*.id", "dataCenters.*.name", "dataCenters.*.listed"}},
		{name: rg + "info.cpu.listFlavors", file: "runpod-api-helper/info_cpu_listFlavors.graphql",
			reads: []string{"cpuFlavors.*.id", "cpuFlavors.*.displayName", "cpuFlavors.*.minVcpu", "cpuFlavors.*.maxVcpu", "cpuFlavors.*.ramMultiplier"}},
		{name: rg + "info.cpu.listNames", file: "runpod-api-helper/info_cpu_listNames.graphql",
			reads: []string{"cpuFlavors.*.id", "cpuFlavors.*.groupName", "cpuFlavors.*.displayName"}},
		{name: rg + "info.cpu.listSecure", file: "runpod-api-helper/info_cpu_listSecure.graphql",
			reads: []string{"cpuFlavors.*.specifics.stockStatus", "cpuFlavors.*.specifics.securePrice"}},
		{name: rg + "info.gpu.list", file: "runpod-api-helper/info_gpu_list.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.displayName", "gpuTypes.*.memoryInGb", "gpuTypes.*.maxGpuCount", "gpuTypes.*.secureCloud", "gpuTypes.*.communityCloud"}},
		{name: rg + "info.gpu.listSecure", file: "runpod-api-helper/info_gpu_listSecure.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.securePrice", "gpuTypes.*.lowestPrice.uninterruptablePrice", "gpuTypes.*.lowestPrice.stockStatus"},
			check: warnedOnly("lowestPrice: minMemoryInGb, minVcpuCount, minDownload, minUpload not applied")},
		{name: rg + "info.gpu.listCommunity", file: "runpod-api-helper/info_gpu_listCommunity.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.communityPrice", "gpuTypes.*.lowestPrice.uninterruptablePrice", "gpuTypes.*.lowestPrice.stockStatus"}},
		// listAvailable joins dataCenters[].gpuAvailability[] to gpuTypes[] by id.
		{name: rg + "info.gpu.listAvailable", file: "runpod-api-helper/info_gpu_listAvailable.graphql",
			reads: []string{"dataCenters.*.id", "dataCenters.+.gpuAvailability.+.id", "dataCenters.+.gpuAvailability.+.stockStatus", "gpuTypes.*.id", "gpuTypes.*.securePrice"}},
		{name: rg + "pods.list", file: "runpod-api-helper/pods_list.graphql", reads: []string{"myself.pods.*.id", "myself.pods.*.name"}},
		{name: rg + "pods.createGpu", file: "runpod-api-helper/pods_createGpu.graphql",
			reads: podReads("podFindAndDeployOnDemand"), save: map[string]string{"rgPod": "podFindAndDeployOnDemand.id"}},
		{name: rg + "pods.get", file: "runpod-api-helper/pods_get.graphql", subst: []string{capPod, "{rgPod}"},
			reads: []string{"pod.id", "pod.name"}},
		{name: rg + "pods.stop", file: "runpod-api-helper/pods_stop.graphql", subst: []string{capPod, "{rgPod}"},
			reads: []string{"podStop.id", "podStop.desiredStatus"}, check: status("podStop", "EXITED")},
		{name: rg + "pods.start", file: "runpod-api-helper/pods_start.graphql",
			want: wantInvalid, field: "key", reason: `on type "String"`,
			why: "its document selects env { key value }, and Pod.env is a list of strings in the vendor's schema too: the vendor refused it the same way"},
		{name: rg + "pods.delete", file: "runpod-api-helper/pods_delete.graphql", subst: []string{capPod, "{rgPod}"},
			check: present("podTerminate")},
		// As sent: templateId "runpod-ubuntu" with imageName "" (its run
		// against -demo; with a template of the account's it creates the
		// pod: TestACPUCreateWithOnlyTheVendorsDefaultTemplateIsRefusedNamingImageName).
		{name: rg + "pods.createCpu", file: "runpod-api-helper/pods_createCpu.graphql",
			want: wantRefusal, field: "deployCpuPod", reason: "templateId runpod-ubuntu (the vendor's default CPU template): v2 has no template of that id, and no imageName was sent to run instead; send imageName"},
		// Recorded on the wire when driven by its own code (RunpodApi's
		// templates and endpoints, which the first capture left out).
		{name: rg + "templates.list", file: "runpod-api-helper/templates_list.graphql",
			reads: []string{"myself.podTemplates.*.id", "myself.podTemplates.*.name", "myself.podTemplates.*.imageName", "myself.podTemplates.+.env.+.key"}},
		{name: rg + "templates.get", file: "runpod-api-helper/templates_get.graphql",
			reads: []string{"myself.podTemplates.*.id", "myself.podTemplates.*.name", "myself.podTemplates.*.containerDiskInGb", "myself.podTemplates.*.ports"}},
		{name: rg + "endpoints.list", file: "runpod-api-helper/endpoints_list.graphql",
			reads: []string{"myself.endpoints.*.id", "myself.endpoints.*.name", "myself.endpoints.+.gpuIds", "myself.endpoints.*.workersMax", "myself.endpoints.+.pods.+.desiredStatus"}},

		// ---------------------------------------------------------------
		// The vendor's GraphQL documentation: the examples users copy.
		{name: docs + "quick start", file: "runpod-docs/quick_start.graphql", reads: []string{"myself.id"}},
		{name: docs + "list GPU types", file: "runpod-docs/list_gpu_types.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.displayName", "gpuTypes.*.memoryInGb"}},
		{name: docs + "the GPU table's script", file: "runpod-docs/helpers_gpu_types.graphql",
			reads: []string{"gpuTypes.*.id", "gpuTypes.*.displayName", "gpuTypes.*.memoryInGb"}},
		{name: docs + "get a GPU type", file: "runpod-docs/get_gpu_type.graphql",
			reads: []string{"gpuTypes.0.id", "gpuTypes.0.memoryInGb", "gpuTypes.0.communityCloud", "gpuTypes.0.lowestPrice.uninterruptablePrice"},
			check: oneGPUType("NVIDIA GeForce RTX 3090")},
		{name: docs + "check GPU availability", file: "runpod-docs/check_gpu_availability.graphql",
			reads: []string{"gpuTypes.0.id", "gpuTypes.0.lowestPrice.stockStatus", "gpuTypes.0.lowestPrice.uninterruptablePrice"},
			check: oneGPUType("NVIDIA RTX A4000")},
		{name: docs + "create a pod", file: "runpod-docs/create_pod.graphql", subst: a6000,
			reads: []string{"podFindAndDeployOnDemand.id", "podFindAndDeployOnDemand.imageName", "podFindAndDeployOnDemand.env"},
			save:  map[string]string{"docsPod": "podFindAndDeployOnDemand.id"},
			check: all(warned("minRAMPerGPU was accepted but not guaranteed"), warnedOnly("(podFindAndDeployOnDemand's minMemoryInGb is v1's minRAMPerGPU)"))},
		{name: docs + "create a pod with CUDA versions", file: "runpod-docs/create_pod_cuda.graphql", subst: a6000,
			reads: []string{"podFindAndDeployOnDemand.id", "podFindAndDeployOnDemand.imageName"},
			save:  map[string]string{"docsCudaPod": "podFindAndDeployOnDemand.id"},
			check: v2Create(`"allowedCudaVersions":["12.0","12.1","12.2","12.3"]`)},
		{name: docs + "list pods", file: "runpod-docs/list_pods.graphql", reads: []string{"myself.pods.*.id", "myself.pods.*.name"}},
		{name: docs + "get a pod", file: "runpod-docs/get_pod.graphql", subst: []string{capPod, "{docsPod}"}, reads: []string{"pod.id", "pod.name"}},
		{name: docs + "stop a pod", file: "runpod-docs/stop_pod.graphql", subst: []string{capPod, "{docsPod}"},
			reads: []string{"podStop.id"}, check: status("podStop", "EXITED")},
		{name: docs + "start a pod", file: "runpod-docs/start_pod.graphql", subst: []string{capPod, "{docsPod}"},
			reads: []string{"podResume.id", "podResume.imageName"}, check: status("podResume", "RUNNING")},
		{name: docs + "start a pod with CUDA versions", file: "runpod-docs/start_pod_cuda.graphql", subst: []string{capPod, "{docsCudaPod}"},
			reads: []string{"podResume.id"}, check: warned("allowedCudaVersions was accepted but not guaranteed")},
	}
}

// all runs every check.
func all(checks ...func(t *testing.T, w *world, a *answer)) func(t *testing.T, w *world, a *answer) {
	return func(t *testing.T, w *world, a *answer) {
		for _, c := range checks {
			c(t, w, a)
		}
	}
}

// warnedOnly checks that extensions.warnings says each of says (a warning
// whose note says it otherwise, or that is the door's alone).
func warnedOnly(says ...string) func(t *testing.T, w *world, a *answer) {
	return func(t *testing.T, _ *world, a *answer) {
		for _, s := range says {
			if got := warnings(a); !strings.Contains(got, s) {
				t.Errorf("warnings %s do not say %q", got, s)
			}
		}
	}
}

// v2Create checks the last v2 create the answer's plan sent (POST
// /v2/pods) for each piece of JSON, {key} filled with saved ids.
func v2Create(holds ...string) func(t *testing.T, w *world, a *answer) {
	return func(t *testing.T, w *world, _ *answer) {
		got := lastCreate(t, w)
		for _, h := range holds {
			if h = fillIDs(t, h, w.ids); !strings.Contains(got, h) {
				t.Errorf("the v2 create %s does not hold %s", got, h)
			}
		}
	}
}

// clusterPodsPlaced checks what v2 does after a createCluster: it answers
// the cluster at once and places its member pods afterwards (the
// simulator: one every 2 s), so createCluster's pods is [] where the
// vendor listed them (docs/clients.md: dstack's multi-node run). Ten
// seconds on, the cluster's pods are read with their clusterIp, and the
// first is saved under key for the rows after.
func clusterPodsPlaced(cluster, key string) func(t *testing.T, w *world, a *answer) {
	return func(t *testing.T, w *world, a *answer) {
		w.now = w.now.Add(10 * time.Second)
		m := w.ok(`query { myself { clusters { id pods { id clusterId clusterIp } } } }`, "")
		l, _ := path(m.Data, "myself.clusters").([]any)
		for _, c := range l {
			if path(c, "id") != w.ids[cluster] {
				continue
			}
			if err := readPath(c, "pods.*.clusterIp"); err != nil {
				t.Fatalf("the cluster's pods, placed: %v\n%s", err, m.raw)
			}
			w.ids[key], _ = path(c, "pods.0.id").(string)
			return
		}
		t.Fatalf("myself.clusters has no %s: %s", w.ids[cluster], m.raw)
	}
}
