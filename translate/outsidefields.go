package translate

import "strings"

// Fields outside the v1 document (P1, issue 29 item 2). v1 was documented
// by its OpenAPI file, but real clients send more: some because v1's
// backend took a field it never documented (runpodctl's dockerArgs), some
// because their model is a union with v2 or GraphQL (runpod-mcp 3.x), some
// by mistake. The rule: a field outside the document is translated where
// real clients relied on its effect and v2 has the same meaning; otherwise
// it is ignored, as v1 ignored it, with a warning (X-Compat-Warning) saying
// what v1 did, and a note about the field (unknown_fields_ignored, counted
// per field in /usage) — never refused, whatever compat_mode says. Only
// fields v1 documented whose meaning v2 cannot express are refused
// (PolicyFields). A key in no table at all is ignored the same way, in one
// warning that names it (its name is the client's, so /usage does not count
// it per field).
//
// OutsideFields is the one table: the parsers know the translated fields
// (their field sets), warnOutside gives the warning of an ignored one, and
// COMPATIBILITY.md lists every row (a test holds the two together).

// OutsideField is a field outside the v1 document that the gateway knows.
type OutsideField struct {
	Schema string // the v1 body it is sent in ("PodCreateInput")
	Field  string
	// TranslatedAs is what the field becomes in v2 ("" when ignored).
	TranslatedAs string
	// Why: for a translated field, what it means; for an ignored one, the
	// warning's text after "<field> was ignored: ".
	Why string
	// Clients names the public clients that send it (clients.md).
	Clients string
}

const (
	tfOfficial     = "official Terraform provider 23c31e3"
	tfOfficialJune = "official Terraform provider (e8940dd…2272e78, June–July 2026)"
	rpCLI          = "bash CLI rp 0.2.0"
	mcp3           = "runpod-mcp 3.x (update-endpoint sends its v1+v2 union)"
	tplSetting     = "a v1 endpoint runs its template's settings and v1 ignored this field on an endpoint; set it on the template (PATCH /v1/templates/{templateId}), whose edits the gateway rolls out to the endpoints it made from it"
)

// OutsideFields lists every field outside the v1 document the gateway
// knows, by schema.
var OutsideFields = []OutsideField{
	{Schema: "PodCreateInput", Field: "dockerArgs", TranslatedAs: "v2 `args`, verbatim",
		Why:     "the container's start command as one string, which v1's backend took as the command line; beside a non-empty dockerStartCmd both must say the same",
		Clients: "runpodctl 2.7 (`--docker-args`), Go SDK cozy-creator/runpod-go-sdk"},
	{Schema: "PodCreateInput", Field: "minCudaVersion", TranslatedAs: "v2 `gpu.minCudaVersion`, or `allowedCudaVersions` narrowed to it (v2 refuses both together)",
		Why: "the lowest CUDA version the host may have", Clients: "runpodctl 2.7 (`--min-cuda-version`), Go SDK"},
	{Schema: "PodCreateInput", Field: "deployCost", TranslatedAs: "a price cap: only the GPU types (CPU flavors) whose v2 list price for the pod is at most it are tried; none left is v1's stock-out",
		Why: "the highest price per hour the pod may cost (the vendor's GraphQL deployCost, which the GraphQL door sends here)", Clients: "GraphQL clients of podFindAndDeployOnDemand"},
	{Schema: "PodCreateInput", Field: "gpuTypeId", TranslatedAs: "the one GPU type candidate (v2 `gpu.id`) when `gpuTypeIds` is not sent; ignored with a warning beside `gpuTypeIds` or on a CPU pod",
		Why:     "one GPU type: the pod is created on exactly that type rather than on one the gateway would choose (v1's field is the list gpuTypeIds)",
		Clients: tfOfficialJune},
	{Schema: "PodCreateInput", Field: "bidPerGpu",
		Why:     "a spot bid, which v1 never documented; v2 has no spot (interruptible) pods, so the pod is on-demand at the list price",
		Clients: "Go SDK (CreateSpotPod)"},
	{Schema: "PodCreateInput", Field: "region",
		Why:     "v1 has no region (its placement fields are dataCenterIds and countryCodes): the pod is placed as if none was sent; use dataCenterIds",
		Clients: "Transformer Lab (RunPod compute provider)"},
	{Schema: "PodCreateInput", Field: "terminateAfter",
		Why:     "neither v1's document nor v2 terminates a pod after a time: the pod runs, and is billed, until it is deleted (DELETE /v1/pods/{podId})",
		Clients: "ComfyUI nodes ssube/comfyui-runpod-agentic-nodes, " + tfOfficialJune},
	{Schema: "PodCreateInput", Field: "stopAfter",
		Why:     "neither v1's document nor v2 stops a pod after a time: the pod runs, and is billed, until it is stopped (POST /v1/pods/{podId}/stop)",
		Clients: tfOfficialJune},
	{Schema: "PodCreateInput", Field: "minVcpuCount",
		Why:     "not a v1 field (v1's per-GPU minimum is minVCPUPerGPU) and v2 has no vCPU minimum for a GPU pod (a CPU pod's size is vcpuCount)",
		Clients: "laravel-runpod (PodSpec)"},
	{Schema: "PodCreateInput", Field: "machineId",
		Why:     "v2 cannot place a pod on a chosen machine: the pod goes wherever its GPU type and data centers allow",
		Clients: tfOfficialJune},
	{Schema: "PodCreateInput", Field: "startSsh",
		Why:     "the gateway starts SSH on every pod (v2 startSsh: true), as v1 pods served SSH on port 22",
		Clients: tfOfficialJune},
	{Schema: "PodCreateInput", Field: "startJupyter",
		Why:     "a v1 pod runs what its image or template starts; the gateway does not ask v2 to start Jupyter",
		Clients: tfOfficialJune},
	{Schema: "PodCreateInput", Field: "port",
		Why:     "v1's field is ports, a list of \"port/protocol\": the pod gets those, or v1's default 8888/http and 22/tcp",
		Clients: tfOfficialJune},
	{Schema: "PodCreateInput", Field: "volumeKey",
		Why:     "v2 has no volume encryption, so no key: the volume is created as v2 creates every volume",
		Clients: tfOfficialJune},
	{Schema: "PodCreateInput", Field: "volumeEncrypted",
		Why:     "not in v1's create input (only its Pod answer names it) and v2 has no volume encryption setting: the volume is created as v2 creates every volume",
		Clients: tfOfficialJune},

	{Schema: "PodUpdateInput", Field: "dockerArgs", TranslatedAs: "v2 `args`, verbatim",
		Why: "the container's start command as one string", Clients: "runpodctl 2.7 (`pod update --docker-args`)"},

	{Schema: "EndpointCreateInput", Field: "env", Why: "its environment: " + tplSetting,
		Clients: tfOfficial + ", " + rpCLI + " (`endpoint create --env`, which itself warns that v1 ignores it)"},
	{Schema: "EndpointCreateInput", Field: "imageName", Why: "its image: " + tplSetting, Clients: mcp3},
	{Schema: "EndpointCreateInput", Field: "args", Why: "its start command: " + tplSetting, Clients: mcp3},
	{Schema: "EndpointCreateInput", Field: "containerDiskInGb", Why: "its container disk: " + tplSetting, Clients: mcp3},
	{Schema: "EndpointCreateInput", Field: "ports", Why: "its ports: " + tplSetting, Clients: mcp3},
	{Schema: "EndpointCreateInput", Field: "containerRegistryAuthId", Why: "its registry credential: " + tplSetting, Clients: mcp3},
	{Schema: "EndpointCreateInput", Field: "gpuPoolIds",
		Why:     "v1 endpoints choose GPUs with gpuTypeIds, and v1 ignored v2 pool ids (runpod-mcp 3.2: \"v1 ignores unknowns\")",
		Clients: mcp3},
	{Schema: "EndpointCreateInput", Field: "gpuTypePriority",
		Why:     "v2 serverless has no order among GPU types: workers are placed on any listed type with capacity",
		Clients: tfOfficial},
	{Schema: "EndpointCreateInput", Field: "cpuFlavorPriority",
		Why:     "v2 serverless has no order among CPU flavors: workers are placed on any listed flavor with capacity",
		Clients: tfOfficial},

	{Schema: "EndpointUpdateInput", Field: "env", Why: "its environment: " + tplSetting, Clients: tfOfficial + " (every set attribute again), " + mcp3},
	{Schema: "EndpointUpdateInput", Field: "imageName", Why: "its image: " + tplSetting, Clients: mcp3},
	{Schema: "EndpointUpdateInput", Field: "args", Why: "its start command: " + tplSetting, Clients: mcp3},
	{Schema: "EndpointUpdateInput", Field: "containerDiskInGb", Why: "its container disk: " + tplSetting, Clients: mcp3},
	{Schema: "EndpointUpdateInput", Field: "ports", Why: "its ports: " + tplSetting, Clients: mcp3},
	{Schema: "EndpointUpdateInput", Field: "containerRegistryAuthId", Why: "its registry credential: " + tplSetting, Clients: mcp3},
	{Schema: "EndpointUpdateInput", Field: "gpuPoolIds",
		Why:     "v1 endpoints choose GPUs with gpuTypeIds, and v1 ignored v2 pool ids (runpod-mcp 3.2: \"v1 ignores unknowns\")",
		Clients: mcp3},
	{Schema: "EndpointUpdateInput", Field: "gpuTypePriority",
		Why:     "v2 serverless has no order among GPU types: workers are placed on any listed type with capacity",
		Clients: tfOfficial},
	{Schema: "EndpointUpdateInput", Field: "cpuFlavorPriority",
		Why:     "v2 serverless has no order among CPU flavors: workers are placed on any listed flavor with capacity",
		Clients: tfOfficial},
	{Schema: "EndpointUpdateInput", Field: "computeType",
		Why:     "an endpoint's compute type is fixed at creation: v1's update input has none and v2 cannot change it",
		Clients: tfOfficial + " (every set attribute again)"},

	{Schema: "TemplateUpdateInput", Field: "category", TranslatedAs: "v2 `category`",
		Why: "the template's category (NVIDIA, AMD or CPU), which v1 documented on create", Clients: tfOfficial},
	{Schema: "TemplateUpdateInput", Field: "isServerless", TranslatedAs: "v2 `serverless`",
		Why: "whether the template is for serverless endpoints, which v1 documented on create", Clients: tfOfficial + ", ComfyUI nodes (save_template_rest)"},

	{Schema: "NetworkVolumeCreateInput", Field: "volumeType", TranslatedAs: "v2 `type` (`STANDARD` or `HIGH_PERFORMANCE`)",
		Why: "the volume's storage tier", Clients: "runpod-mcp 3.x (create-network-volume)"},
	{Schema: "NetworkVolumeCreateInput", Field: "storageTier", TranslatedAs: "v2 `type` (`STANDARD` or `HIGH_PERFORMANCE`, any case)",
		Why: "the volume's storage tier", Clients: tfOfficial},

	{Schema: "ContainerRegistryAuthCreateInput", Field: "server",
		Why:     "v1 credentials have no server, nor have v2's: a credential is used for the registry named in the image name of the pods and templates that use it",
		Clients: rpCLI + " (`registry create --server`)"},
}

// outsideField returns the row of field in schema, or nil.
func outsideField(schema, field string) *OutsideField {
	for i := range OutsideFields {
		if f := &OutsideFields[i]; f.Schema == schema && f.Field == field {
			return f
		}
	}
	return nil
}

// ignoredField is a field a parser ignores with a reason of its own (a
// translated outside field sent where it means nothing: gpuTypeId beside
// gpuTypeIds).
type ignoredField struct {
	field, why string
}

// warnOutside gives the warning of every field of keys (unknown to the
// parser of schema) and of ignored: a known outside field one warning
// each, "<field> was ignored: <why>", with a note about the field; the
// rest one warning naming them all, with a note about no single field.
func warnOutside(notes *Result, schema string, keys []string, ignored ...ignoredField) {
	var unknown []string
	for _, k := range keys {
		if f := outsideField(schema, k); f != nil && f.TranslatedAs == "" {
			ignored = append(ignored, ignoredField{k, f.Why})
			continue
		}
		unknown = append(unknown, k)
	}
	for _, i := range ignored {
		msg := i.field + " was ignored: " + i.why
		notes.Warnings = append(notes.Warnings, msg)
		notes.Notes = append(notes.Notes, Note{Code: CodeUnknownFields, Field: i.field, Message: msg})
	}
	if len(unknown) > 0 {
		notes.warn(CodeUnknownFields, "ignored field(s) that are not part of v1 "+schema+": "+strings.Join(unknown, ", "))
	}
}
