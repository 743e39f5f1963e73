package graphql

import (
	"strings"
	"testing"
)

// clientDocs is the table of TestClientDocuments: every document under
// testdata/clients, in the order of a user's session of each client
// (clients_test.go says how a row is read). Substitutions replace the ids
// and names a document was captured with by ones the seeded simulator has:
// its catalog has no RTX 3070 (RTX 4090 instead) and no EU-RO-1 network
// volume (the seeded one is in US-KS-2).
func clientDocs() []clientDoc {
	const (
		py  = "runpod-python 1.12.0: "
		ctl = "runpodctl 2.7.2: "
		mcp = "runpod-mcp 3.4.0: "
	)
	gpu := []string{"NVIDIA GeForce RTX 3070", "NVIDIA GeForce RTX 4090"}
	with := func(pairs ...[]string) []string {
		var out []string
		for _, p := range pairs {
			out = append(out, p...)
		}
		return out
	}
	// What runpod-python's get_pods and get_pod return to their callers:
	// runpod pod list prints these, rp_info waits on desiredStatus.
	podReads := func(root string) []string {
		return []string{root + ".id", root + ".name", root + ".desiredStatus", root + ".imageName"}
	}
	gpuTypeReads := []string{"gpuTypes.*.id", "gpuTypes.*.displayName", "gpuTypes.*.memoryInGb"}
	// runpodctl's templates list and search print these (its Template struct).
	templateReads := []string{"podTemplates.*.id", "podTemplates.*.name", "podTemplates.*.imageName"}
	hub := func(name, file, field string) clientDoc {
		return clientDoc{name: name, file: file, want: wantRefusal, field: field, reason: "v2 has no hub"}
	}
	model := func(name, file, field string) clientDoc {
		return clientDoc{name: name, file: file, want: wantRefusal, field: field, reason: "v2 has no model repository"}
	}
	return append([]clientDoc{
		// ---------------------------------------------------------------
		// runpod-python 1.12.0: runpod.<function>, as proxy/testdata/runpod-python/driver.py
		// calls them (the standard sequence, then the all-options steps).
		{name: py + "get_user", file: "runpod-python/get_user.graphql",
			reads: []string{"myself.id", "myself.pubKey", "myself.networkVolumes.*.id", "myself.networkVolumes.*.dataCenterId"}},
		{name: py + "update_user_settings", file: "runpod-python/update_user_settings.graphql",
			reads: []string{"updateUserSettings.id", "updateUserSettings.pubKey"},
			check: func(t *testing.T, w *world, a *answer) {
				if k, _ := path(a.Data, "updateUserSettings.pubKey").(string); !strings.Contains(k, "capture") {
					t.Errorf("pubKey %q is not the key just set", k)
				}
			}},
		{name: py + "get_gpus", file: "runpod-python/get_gpus.graphql", reads: gpuTypeReads},
		{name: py + "get_gpu", file: "runpod-python/get_gpu.graphql", subst: gpu,
			reads: []string{"gpuTypes.0.id", "gpuTypes.0.displayName", "gpuTypes.0.memoryInGb", "gpuTypes.0.lowestPrice.uninterruptablePrice"},
			check: oneGPUType("NVIDIA GeForce RTX 4090")},
		{name: py + "get_pods", file: "runpod-python/get_pods.graphql", reads: podReads("myself.pods.*")},
		{name: py + "create_pod (GPU), its get_gpu", file: "runpod-python/create_pod__1_get_gpu.graphql", subst: gpu,
			reads: []string{"gpuTypes.0.id"}, check: oneGPUType("NVIDIA GeForce RTX 4090")},
		{name: py + "create_pod (GPU)", file: "runpod-python/create_pod__2_podFindAndDeployOnDemand.graphql", subst: gpu,
			reads: []string{"podFindAndDeployOnDemand.id", "podFindAndDeployOnDemand.imageName"},
			save:  map[string]string{"pyPod": "podFindAndDeployOnDemand.id"}},
		{name: py + "get_pod", file: "runpod-python/get_pod.graphql", subst: []string{"pod-capture-1", "{pyPod}"},
			reads: podReads("pod")},
		{name: py + "stop_pod", file: "runpod-python/stop_pod.graphql", subst: []string{"pod-capture-1", "{pyPod}"},
			reads: []string{"podStop.id", "podStop.desiredStatus"}, check: status("podStop", "EXITED")},
		{name: py + "resume_pod", file: "runpod-python/resume_pod.graphql", subst: []string{"pod-capture-1", "{pyPod}"},
			reads: []string{"podResume.id", "podResume.desiredStatus"}, check: status("podResume", "RUNNING")},
		{name: py + "terminate_pod", file: "runpod-python/terminate_pod.graphql", subst: []string{"pod-capture-1", "{pyPod}"},
			check: present("podTerminate")},
		{name: py + "create_pod (CPU)", file: "runpod-python/create_pod_cpu.graphql",
			reads: []string{"deployCpuPod.id"}, save: map[string]string{"pyCpu": "deployCpuPod.id"}},
		{name: py + "terminate_pod (CPU)", file: "runpod-python/terminate_pod_cpu.graphql", subst: []string{"pod-capture-cpu", "{pyCpu}"},
			check: present("podTerminate")},
		{name: py + "create_template", file: "runpod-python/create_template.graphql",
			reads: []string{"saveTemplate.id", "saveTemplate.name", "saveTemplate.imageName"},
			save:  map[string]string{"pyTpl": "saveTemplate.id"}},
		{name: py + "create_endpoint", file: "runpod-python/create_endpoint.graphql", subst: []string{"tpl-capture-1", "{pyTpl}"},
			reads: []string{"saveEndpoint.id", "saveEndpoint.name"}, save: map[string]string{"pyEp": "saveEndpoint.id"}},
		{name: py + "update_endpoint_template", file: "runpod-python/update_endpoint_template.graphql",
			subst: []string{"tpl-capture-1", "{pyTpl}", "ep-capture-1", "{pyEp}"},
			reads: []string{"updateEndpointTemplate.id", "updateEndpointTemplate.templateId"}},
		{name: py + "get_endpoints", file: "runpod-python/get_endpoints.graphql",
			reads: []string{"myself.endpoints.*.id", "myself.endpoints.*.name"}},
		{name: py + "create_container_registry_auth", file: "runpod-python/create_container_registry_auth.graphql",
			reads: []string{"saveRegistryAuth.id", "saveRegistryAuth.name"}, save: map[string]string{"pyCra": "saveRegistryAuth.id"}},
		{name: py + "update_container_registry_auth", file: "runpod-python/update_container_registry_auth.graphql",
			subst: []string{"cra-capture-1", "{pyCra}"},
			want:  wantRefusal, field: "updateRegistryAuth", reason: "v2 cannot change a registry credential"},
		{name: py + "delete_container_registry_auth", file: "runpod-python/delete_container_registry_auth.graphql",
			subst: []string{"cra-capture-1", "{pyCra}"}, check: present("deleteRegistryAuth")},
		// The driver asked for a 5 GB volume, which v2 cannot make (its
		// least is 10, and the gateway does not round sizes up).
		{name: py + "create_template (all options)", file: "runpod-python/create_template_all_options.graphql",
			subst: []string{"cra-driver", "{seedcra}", "volumeInGb: 5", "volumeInGb: 10"},
			reads: []string{"saveTemplate.id"}, save: map[string]string{"pyTplAll": "saveTemplate.id"}},
		{name: py + "create_pod (GPU, all options), its get_gpu", file: "runpod-python/create_pod_all_options__1_get_gpu.graphql", subst: gpu,
			reads: []string{"gpuTypes.0.id"}, check: oneGPUType("NVIDIA GeForce RTX 4090")},
		{name: py + "create_pod (GPU, all options), its get_user (the network volume's data center)", file: "runpod-python/create_pod_all_options__2_get_user.graphql",
			reads: []string{"myself.networkVolumes.+.id", "myself.networkVolumes.+.dataCenterId"}},
		{name: py + "create_pod (GPU, all options)", file: "runpod-python/create_pod_all_options__3_podFindAndDeployOnDemand.graphql",
			// The simulator's RTX 4090 has no free 12.4 machine: 12.6 asks for one that has.
			subst: with(gpu, []string{"tpl-driver", "{pyTplAll}", "nv-capture", "{seedvol}", "EU-RO-1", "US-KS-2", `"12.5"`, `"12.6"`}),
			// P1: the bandwidth minimums are accepted with a warning each,
			// countryCode US is US-KS-2 among the catalog's data centers.
			reads: []string{"podFindAndDeployOnDemand.id"}, check: warned("minDownloadMbps was accepted but not guaranteed", "minUploadMbps was accepted but not guaranteed")},
		{name: py + "create_pod (CPU, all options)", file: "runpod-python/create_pod_cpu_all_options.graphql",
			// The simulator's cpu3c is not offered in US-KS-2, the network volume's data center: cpu5c is.
			subst: []string{"tpl-driver", "{pyTplAll}", "nv-driver", "{seedvol}", "EU-RO-1", "US-KS-2", `countryCode: "RO"`, `countryCode: "US"`, "cpu3c-2-4", "cpu5c-2-4"},
			// P1: v2 places CPU pods by neither country nor bandwidth:
			// accepted with a warning each.
			reads: []string{"deployCpuPod.id"}, check: warned("countryCodes was accepted but not guaranteed", "minDownloadMbps was accepted", "minUploadMbps was accepted")},
		{name: py + "create_endpoint (all options)", file: "runpod-python/create_endpoint_all_options.graphql",
			subst: []string{"tpl-capture-1", "{pyTpl}", "nv-driver", "{seedvol}", `locations: "US,CZ"`, `locations: "US-KS-2"`},
			reads: []string{"saveEndpoint.id"}},

		// ---------------------------------------------------------------
		// runpodctl 2.7.2: the commands, then the hidden legacy verbs and
		// project, then what is refused.
		{name: ctl + "user", file: "runpodctl/user.graphql", reads: []string{"myself.id"}},
		{name: ctl + "doctor (user)", file: "runpodctl/doctor_user__1_myself.graphql", reads: []string{"myself.id"}},
		{name: ctl + "doctor (GetPublicSSHKeys)", file: "runpodctl/doctor_user__2_myself.graphql", reads: []string{"myself.id", "myself.pubKey"}},
		{name: ctl + "doctor (GetPublicSSHKeys again)", file: "runpodctl/doctor_user__3_myself.graphql", reads: []string{"myself.id", "myself.pubKey"}},
		{name: ctl + "doctor (AddPublicSSHKey)", file: "runpodctl/doctor_user__4_updateUserSettings.graphql", reads: []string{"updateUserSettings.id"}},
		{name: ctl + "ssh list-keys", file: "runpodctl/ssh_list_keys.graphql", reads: []string{"myself.pubKey"}},
		{name: ctl + "ssh add-key (its keys)", file: "runpodctl/ssh_add_key__1_myself.graphql", reads: []string{"myself.pubKey"}},
		{name: ctl + "ssh add-key", file: "runpodctl/ssh_add_key__2_updateUserSettings.graphql", reads: []string{"updateUserSettings.id"}},
		{name: ctl + "ssh remove-key (its keys)", file: "runpodctl/ssh_remove_key__1_myself.graphql", reads: []string{"myself.pubKey"}},
		{name: ctl + "ssh remove-key", file: "runpodctl/ssh_remove_key__2_updateUserSettings.graphql", reads: []string{"updateUserSettings.id"}},
		{name: ctl + "gpu list (types)", file: "runpodctl/gpu_list__1_gpuTypes.graphql",
			reads: append(gpuTypeReads, "gpuTypes.*.secureCloud", "gpuTypes.*.communityCloud")},
		{name: ctl + "gpu list (availability)", file: "runpodctl/gpu_list__2_dataCenters.graphql",
			reads: []string{"dataCenters.*.id", "dataCenters.+.gpuAvailability.+.gpuTypeId", "dataCenters.+.gpuAvailability.+.stockStatus"}},
		{name: ctl + "gpu list --include-unavailable (types)", file: "runpodctl/gpu_list_all__1_gpuTypes.graphql", reads: gpuTypeReads},
		{name: ctl + "gpu list --include-unavailable (availability)", file: "runpodctl/gpu_list_all__2_dataCenters.graphql",
			reads: []string{"dataCenters.*.id", "dataCenters.+.gpuAvailability.+.gpuTypeId"}},
		{name: ctl + "datacenter list", file: "runpodctl/datacenter_list.graphql",
			reads: []string{"dataCenters.*.id", "dataCenters.*.name", "dataCenters.*.location"}},
		// runpodctl prints a row only for a GPU type whose minMemory is not
		// null, and v2 has no source for it: the command prints no rows.
		{name: ctl + "get cloud (legacy)", file: "runpodctl/get_cloud.graphql",
			reads: []string{"gpuTypes.+.lowestPrice.gpuName", "gpuTypes.+.lowestPrice.uninterruptablePrice"}},
		{name: ctl + "get cloud --mem --vcpu --disk --secure (legacy)", file: "runpodctl/get_cloud_opts.graphql",
			reads: []string{"gpuTypes.*.lowestPrice"}},
		{name: ctl + "template list (official)", file: "runpodctl/template_list__1_podTemplates.graphql", reads: templateReads},
		{name: ctl + "template list (community)", file: "runpodctl/template_list__2_podTemplates.graphql", reads: templateReads},
		{name: ctl + "template list --type official", file: "runpodctl/template_list_official.graphql", reads: templateReads},
		{name: ctl + "template search (official)", file: "runpodctl/template_search__1_podTemplates.graphql", reads: templateReads},
		{name: ctl + "template search (community)", file: "runpodctl/template_search__2_podTemplates.graphql", reads: templateReads},
		{name: ctl + "template get (port labels)", file: "runpodctl/template_get.graphql", subst: []string{"tpl-capture-1", "{seedtpl}"},
			reads: []string{"podTemplate.id", "podTemplate.name", "podTemplate.imageName"}},
		{name: ctl + "template update --port-labels (its templates)", file: "runpodctl/template_port_labels__1_myself.graphql",
			reads: []string{"myself.podTemplates.*.id", "myself.podTemplates.*.name"}},
		// runpodctl sends back the template it read (the seeded one has a
		// 20 GB volume), with the port labels, which v2 cannot store.
		{name: ctl + "template update --port-labels", file: "runpodctl/template_port_labels__2_saveTemplate.graphql",
			subst: []string{`"tpl-1"`, `"{seedtpl}"`, `"volumeInGb": 0`, `"volumeInGb": 20`}, reads: []string{"saveTemplate.id"}},
		{name: ctl + "pod create (GPU)", file: "runpodctl/pod_create_gpu.graphql", subst: gpu,
			reads: []string{"podFindAndDeployOnDemand.id", "podFindAndDeployOnDemand.name", "podFindAndDeployOnDemand.imageName",
				"podFindAndDeployOnDemand.desiredStatus", "podFindAndDeployOnDemand.costPerHr", "podFindAndDeployOnDemand.containerDiskInGb",
				"podFindAndDeployOnDemand.gpuCount", "podFindAndDeployOnDemand.volumeMountPath", "podFindAndDeployOnDemand.env"},
			save: map[string]string{"ctlPod": "podFindAndDeployOnDemand.id"}},
		{name: ctl + "pod create (GPU, every flag)", file: "runpodctl/pod_create_gpu_all.graphql",
			subst: with(gpu, []string{`"tpl-1"`, `"{seedtpl}"`, `"nv-1"`, `"{seedvol}"`, `"cra-1"`, `"{seedcra}"`, "EU-RO-1", "US-KS-2"}),
			want:  wantRefusal, field: "podFindAndDeployOnDemand", reason: "stopAfter"},
		{name: ctl + "pod get / ssh info", file: "runpodctl/ssh_info.graphql", reads: podReads("myself.pods.*")},
		{name: ctl + "get pod (legacy)", file: "runpodctl/legacy_get_pod.graphql", reads: podReads("myself.pods.*")},
		{name: ctl + "stop pod (legacy)", file: "runpodctl/legacy_stop_pod.graphql", subst: []string{"pod-capture-1", "{ctlPod}"},
			reads: []string{"podStop.id", "podStop.desiredStatus"}, check: status("podStop", "EXITED")},
		{name: ctl + "start pod (legacy)", file: "runpodctl/legacy_start_pod.graphql", subst: []string{"pod-capture-1", "{ctlPod}"},
			reads: []string{"podResume.id", "podResume.desiredStatus", "podResume.costPerHr"}, check: status("podResume", "RUNNING")},
		{name: ctl + "start pod --bid (legacy)", file: "runpodctl/legacy_start_pod_bid.graphql", subst: []string{"pod-capture-1", "{ctlPod}"},
			want: wantRefusal, field: "podBidResume", reason: "v2 has no spot bids"},
		{name: ctl + "remove pod (legacy)", file: "runpodctl/legacy_remove_pod.graphql", subst: []string{"pod-capture-1", "{ctlPod}"},
			check: present("podTerminate")},
		// Its defaults (--volumeSize 1, --mem 20) ask what v2 cannot do as
		// such: a 1 GB volume, rounded up to v2's least (10 GB) naming the
		// cost, and 20 GB of RAM per GPU, accepted with a warning (P1).
		{name: ctl + "create pod (legacy)", file: "runpodctl/legacy_create_pod.graphql", subst: gpu,
			reads: []string{"podFindAndDeployOnDemand.id", "podFindAndDeployOnDemand.costPerHr"},
			check: warned("minRAMPerGPU was accepted but not guaranteed", "volumeInGb: 1 GB was rounded up to 10 GB")},
		{name: ctl + "project deploy (template)", file: "runpodctl/project_create_template.graphql",
			reads: []string{"saveTemplate.id"}, save: map[string]string{"ctlTpl": "saveTemplate.id"}},
		{name: ctl + "serverless create --gpu-id (pools)", file: "runpodctl/serverless_create__1_serverlessGpuPools.graphql",
			reads: []string{"serverlessGpuPools.*.id", "serverlessGpuPools.*.gpuTypeIds"}},
		{name: ctl + "serverless create", file: "runpodctl/serverless_create__2_saveEndpoint.graphql", subst: []string{"tpl-capture-1", "{ctlTpl}"},
			reads: []string{"saveEndpoint.id", "saveEndpoint.name", "saveEndpoint.gpuIds"}, save: map[string]string{"ctlEp": "saveEndpoint.id"}},
		{name: ctl + "serverless create (every flag, pools)", file: "runpodctl/serverless_create_all__1_serverlessGpuPools.graphql",
			reads: []string{"serverlessGpuPools.*.id"}},
		{name: ctl + "serverless create (every flag)", file: "runpodctl/serverless_create_all__2_saveEndpoint.graphql",
			subst: []string{"tpl-capture-1", "{ctlTpl}", `"nv-1"`, `"{seedvol}"`, `"nv-2"`, `"{euvol}"`, `"locations": "EU-RO-1"`, `"locations": "US-KS-2,EU-RO-1"`},
			// --model-reference: v2 endpoints cache no models.
			want: wantRefusal, field: "saveEndpoint", reason: "modelReferences"},
		{name: ctl + "serverless create --compute-type CPU", file: "runpodctl/serverless_create_cpu.graphql", subst: []string{"tpl-capture-1", "{ctlTpl}"},
			reads: []string{"saveEndpoint.id", "saveEndpoint.instanceIds"}},
		{name: ctl + "serverless update --template-id", file: "runpodctl/serverless_update_template.graphql",
			subst: []string{"ep-capture-1", "{ctlEp}", "tpl-capture-2", "{ctlTpl}"},
			reads: []string{"updateEndpointTemplate.id", "updateEndpointTemplate.templateId"}},
		{name: ctl + "serverless update --model-reference", file: "runpodctl/serverless_update_models.graphql",
			subst: []string{`"ep-1"`, `"{ctlEp}"`, `"tpl-1"`, `"{ctlTpl}"`, `"nv-1"`, `"{seedvol}"`},
			want:  wantRefusal, field: "saveEndpoint", reason: "modelReferences"},
		{name: ctl + "project (network volumes)", file: "runpodctl/project_get_network_volumes.graphql",
			reads: []string{"myself.networkVolumes.*.id", "myself.networkVolumes.*.dataCenterId"}},
		{name: ctl + "project (endpoints)", file: "runpodctl/project_get_endpoints.graphql",
			reads: []string{"myself.endpoints.*.id", "myself.endpoints.*.name"}},
		{name: ctl + "project deploy (endpoint)", file: "runpodctl/project_create_endpoint.graphql",
			subst: []string{`"tpl-1"`, `"{ctlTpl}"`, `"nv-1"`, `"{seedvol}"`},
			reads: []string{"saveEndpoint.id"}, save: map[string]string{"projEp": "saveEndpoint.id"}},
		{name: ctl + "project deploy (new template)", file: "runpodctl/project_update_endpoint_template.graphql",
			subst: []string{`"tpl-2"`, `"{pyTpl}"`, `"ep-1"`, `"{projEp}"`},
			reads: []string{"updateEndpointTemplate.id", "updateEndpointTemplate.templateId"}},
		hub(ctl+"hub list", "runpodctl/hub_list.graphql", "listings"),
		hub(ctl+"hub search", "runpodctl/hub_search.graphql", "listings"),
		hub(ctl+"hub get <id>", "runpodctl/hub_get.graphql", "listing"),
		hub(ctl+"hub get <owner>/<name>", "runpodctl/hub_get_repo.graphql", "listingFromRepo"),
		hub(ctl+"serverless create --hub-id (listing)", "runpodctl/serverless_create_hub__1_listing.graphql", "listing"),
		{name: ctl + "serverless create --hub-id (pools)", file: "runpodctl/serverless_create_hub__2_serverlessGpuPools.graphql",
			reads: []string{"serverlessGpuPools.*.id"}},
		{name: ctl + "serverless create --hub-id", file: "runpodctl/serverless_create_hub__3_saveEndpoint.graphql",
			want: wantRefusal, field: "saveEndpoint", reason: "hub"},
		model(ctl+"model list", "runpodctl/model_list.graphql", "myModels"),
		model(ctl+"model add", "runpodctl/model_add.graphql", "addModelToRepo"),
		model(ctl+"model add --create-upload", "runpodctl/model_add_upload__1_addModelToRepo.graphql", "addModelToRepo"),
		model(ctl+"model add --create-upload (upload)", "runpodctl/model_add_upload__2_createModelRepoUpload.graphql", "createModelRepoUpload"),
		model(ctl+"model add --model-path (complete)", "runpodctl/model_complete_upload.graphql", "completeModelRepoUpload"),
		model(ctl+"model remove", "runpodctl/model_remove.graphql", "removeModelFromRepo"),
		model(ctl+"model remove --hash (model)", "runpodctl/model_remove_hash__1_myModel.graphql", "myModel"),
		model(ctl+"model remove --hash", "runpodctl/model_remove_hash__2_updateModelVersionStatus.graphql", "updateModelVersionStatus"),
		model(ctl+"model remove --version (model)", "runpodctl/model_remove_version__1_myModel.graphql", "myModel"),
		model(ctl+"model remove --version", "runpodctl/model_remove_version__2_updateModelVersionStatus.graphql", "updateModelVersionStatus"),

		// ---------------------------------------------------------------
		// runpod-mcp 3.4.0: the tools that send GraphQL.
		{name: mcp + "HTTP transport credential check", file: "runpod-mcp/http_credential_check.graphql", reads: []string{"myself.id"}},
		{name: mcp + "list-gpu-types (v1)", file: "runpod-mcp/list_gpu_types_v1.graphql",
			reads: append(gpuTypeReads, "gpuTypes.*.secureCloud", "gpuTypes.*.communityCloud", "gpuTypes.*.lowestPrice", "gpuTypes.+.lowestPrice.stockStatus")},
		{name: mcp + "list-data-centers (v1)", file: "runpod-mcp/list_data_centers_v1.graphql",
			reads: []string{"dataCenters.*.id", "dataCenters.*.name", "dataCenters.*.location"}},
		{name: mcp + "get-capacity", file: "runpod-mcp/get_capacity_matrix.graphql",
			reads: append(gpuTypeReads, "gpuTypes.+.lowestPrice.stockStatus", "gpuTypes.+.lowestPrice.uninterruptablePrice")},
		{name: mcp + "get-capacity gpuCount 2, secure", file: "runpod-mcp/get_capacity_matrix_secure_gpucount2.graphql", reads: gpuTypeReads},
		{name: mcp + "get-capacity cudaVersions 12.8", file: "runpod-mcp/get_capacity_probe_12_8.graphql", reads: gpuTypeReads},
		{name: mcp + "get-capacity cudaVersions 13.0, gpuCount 4, secure", file: "runpod-mcp/get_capacity_probe_13_0_secure.graphql", reads: gpuTypeReads},
		{name: mcp + "set-endpoint-gpus (endpoints)", file: "runpod-mcp/set_endpoint_gpus__1_myself_endpoints.graphql",
			reads: []string{"myself.endpoints.*.id", "myself.endpoints.*.name", "myself.endpoints.+.gpuIds", "myself.endpoints.*.workersMax"}},
		// The seeded endpoint was made outside the gateway: its templateId
		// reads null, and runpod-mcp then sends none.
		{name: mcp + "set-endpoint-gpus", file: "runpod-mcp/set_endpoint_gpus__2_saveEndpoint.graphql",
			subst: []string{`"ep-1"`, `"{seedep}"`, `"templateId": "tpl-1",`, ``, `"nv-1"`, `"{seedvol}"`, "AMPERE_16,-NVIDIA RTX A4500", "ADA_48_PRO,-NVIDIA L40"},
			reads: []string{"saveEndpoint.id", "saveEndpoint.gpuIds"}},
		hub(mcp+"list-hub-repos", "runpod-mcp/list_hub_repos.graphql", "listings"),
		hub(mcp+"list-hub-repos includeConfig", "runpod-mcp/list_hub_repos_include_config.graphql", "listings"),
		hub(mcp+"deploy-hub-repo (listing)", "runpod-mcp/deploy_hub_repo__1_listings.graphql", "listings"),
		{name: mcp + "deploy-hub-repo", file: "runpod-mcp/deploy_hub_repo__2_saveEndpoint.graphql",
			want: wantRefusal, field: "saveEndpoint", reason: "hub"},
		{name: mcp + "list-public-endpoints", file: "runpod-mcp/list_public_endpoints.graphql",
			want: wantRefusal, field: "allAiApiPublicConfigs", reason: "public endpoints"},
	}, append(catalogClientDocs(), launchClientDocs()...)...)
}

// oneGPUType checks that gpuTypes(input: {id}) answered that type alone
// (runpod-python's get_gpu returns element 0 and raises on an empty list).
func oneGPUType(id string) func(t *testing.T, w *world, a *answer) {
	return func(t *testing.T, _ *world, a *answer) {
		l, _ := path(a.Data, "gpuTypes").([]any)
		if len(l) != 1 || path(l[0], "id") != id {
			t.Errorf("gpuTypes(input: {id: %q}) answered %s", id, a.raw)
		}
	}
}

// status checks a pod mutation's desiredStatus.
func status(root, want string) func(t *testing.T, w *world, a *answer) {
	return func(t *testing.T, _ *world, a *answer) {
		if got := path(a.Data, root+".desiredStatus"); got != want {
			t.Errorf("%s.desiredStatus = %v, want %s", root, got, want)
		}
	}
}

// present checks that a leaf root field (podTerminate, deleteRegistryAuth:
// no selection set) is in the answer; runpodctl's legacy remove pod checks
// that the key exists.
func present(root string) func(t *testing.T, w *world, a *answer) {
	return func(t *testing.T, _ *world, a *answer) {
		if _, ok := a.Data[root]; !ok {
			t.Errorf("data has no %s: %s", root, a.raw)
		}
	}
}

// warned checks that extensions.warnings says each of says (a soft
// constraint accepted, P1), and that each is a note the operator's /usage
// counts.
func warned(says ...string) func(t *testing.T, w *world, a *answer) {
	return func(t *testing.T, _ *world, a *answer) {
		got := warnings(a)
		for _, s := range says {
			if !strings.Contains(got, s) {
				t.Errorf("warnings %s do not say %q", got, s)
			}
			counted := false
			for _, n := range a.resp.Notes {
				counted = counted || strings.Contains(n.Message, s)
			}
			if !counted {
				t.Errorf("%q is not a note (/usage): %+v", s, a.resp.Notes)
			}
		}
	}
}
