package translate

import "strings"

// Notes: what the gateway did beyond a plain translation, with a stable code
// per kind (P7a, docs/design.md). Real v1 clients never show response
// headers, so every warning, lenient drop, emulation and refusal is also
// returned as a Note; the proxy counts them per key and v1 operation in
// /usage and in a metric labelled by code. The header texts stay in
// Result.Warnings, Dropped and Emulated; a Note carries the same text.

// Note is one thing the gateway did beyond a plain translation.
type Note struct {
	Code    string // stable snake_case code, one per kind (NoteCodes)
	Message string // the text the client was given (header or error)
	// Field is the v1 field the note is about, for a note about one field
	// (a refused or dropped untranslatable field, an ignored field of the
	// outside-document table); "" otherwise. It is always a name the
	// gateway knows, never one a client made up (/usage counts per field).
	Field string
}

// NoteCodes lists every note code with what it means: the one table the
// usage report, the metric and the documentation read. A code is never
// renamed once released (operators' dashboards and reports key on it).
var NoteCodes = map[string]string{
	// Warnings (X-Compat-Warning).
	CodeUnknownFields:            "fields outside the v1 schema were ignored",
	CodeReadmeDropped:            "a template readme was not stored: v2 templates have none, and the gateway had no fact store or the readme was over 16 KiB",
	CodeCandidatesUnranked:       "candidates were tried in the client's order: the v2 catalog could not be read",
	CodeLostReplyRecovered:       "the v2 reply to a create was lost; the created resource was found and returned",
	CodeLockNotApplied:           "a pod was created but locked=true could not be applied",
	CodeAnswerUnreadable:         "the change was applied but v2's answer could not be read",
	CodeLoadBalancerEndpoint:     "a v2 LOAD_BALANCER endpoint was listed; v1 cannot describe it",
	CodeGPUTypesOmitted:          "an endpoint's gpuTypeIds were answered null, or serverless workers' list prices (costPerHr, machine prices) were null: the v2 GPU catalog could not be read",
	CodeVersionOmitted:           "an endpoint's version was answered null: its v2 releases could not be read",
	CodeIdleTimeoutDropped:       "idleTimeout was not applied (v2 has none for REQUEST_COUNT queue endpoints)",
	CodeGPUPoolHazard:            "serverless GPU types became v2 pools minus exclusions; later pool additions become eligible",
	CodeGPUTypesDropped:          "serverless GPU types that v2 cannot select were dropped",
	CodeTemplateSnapshot:         "an endpoint took a template's settings once; later template edits do not reach it",
	CodeTemplateDeleted:          "v2 deleted the endpoint's bound template with the endpoint",
	CodeTemplateNoRollout:        "a template edit does not roll out to endpoints created from it",
	CodeComputeFieldsIgnored:     "fields of the other compute family were ignored on a pod or endpoint create or an endpoint update",
	CodeCatalogCapped:            "the v2 public template catalog is capped: the list may be incomplete",
	CodeBillingGPUUnknown:        "billing records of pods v2 no longer lists have no GPU type",
	CodeBillingCPUNoGPU:          "billing records of CPU pods have no GPU type",
	CodeRegistryUnset:            "deleting a registry credential removed it from templates that used it",
	CodeGPUTypeChosen:            "a GPU pod or endpoint was created without gpuTypeIds: the gateway chose the GPU type (by availability, then price or default_gpu_types)",
	CodeCPUFlavorChosen:          "a CPU pod or endpoint was created without cpuFlavorIds: the gateway chose the CPU flavor(s) by availability",
	CodePlacedOutsideDataCenters: "v2 placed a pod outside the dataCenterIds asked for (v2 calls them preferences) and the gateway could not delete it: the pod is answered (a pod it could delete is a stock-out)",
	CodePodAlreadyStarting:       "a restart, start or reset of a pod still starting was answered with the pod; no action was sent",
	CodePodAlreadyRunning:        "a start of a running pod was answered with the pod; no action was sent",
	CodePublicKeyKept:            "an env update kept the pod's PUBLIC_KEY (SSH access) that the new env did not set",
	CodeTemplateRolledOut:        "a template edit was rolled out to the endpoints made from it through the gateway (a new release each)",
	CodeTemplateRolloutFailed:    "a template edit could not be rolled out to an endpoint made from it",
	CodeTemplateIDUnknown:        "an endpoint's templateId (and its workers') was omitted: the endpoint was made outside the gateway and v2 keeps no link to its template",
	CodeSoftConstraintUnchecked:  "a placement minimum or preference v2 cannot check (minRAMPerGPU, host bandwidth, supportPublicIp on COMMUNITY, a CPU pod's countryCodes) was accepted with a warning naming what v2 could not guarantee, one note per field",
	CodeVolumeRoundedUp:          "a pod volume below v2's minimum (10 GB) was rounded up to it: more storage is billed than was asked",
	CodeTemplateInlined:          "a pod was made from a template's settings sent without its volume instead of templateId (volumeInGb 0 on a template with a volume); templateId is kept by the gateway",
	CodeTemplateVolumeRemembered: "volumeInGb 0 on a template with a volume, which v2 cannot remove: the gateway remembers it and makes pods from the template without it",
	// Lenient drops (X-Compat-Dropped), emulations (X-Compat-Emulated) and
	// refusals (a 400 the gateway raised for a request v1 accepted).
	CodeLenientDropped:        "a field that cannot be translated was dropped (compat_mode lenient, or field_policy drop), one note per field",
	CodeResetEmulated:         "reset was emulated with restart or start",
	CodeUntranslatableRefused: "a field that cannot be translated was refused (compat_mode strict, or field_policy refuse), one note per field",
	CodeResetRefused:          "reset was refused (v2 has no reset)",
	CodeStockOut:              "no candidate GPU type or CPU flavor could be placed: answered as v1 did, 500 \"There are no longer any instances available…\" (not a gateway fault)",
	CodeV2LimitRefused:        "a request v1 accepted was refused because v2 (or the gateway's bound on v2 calls) cannot do it: a volume under v2's minimum, 3 vCPUs, a volume removed, GPU types in no serverless pool, …; with the field when there is one",
	// The GraphQL door (P11).
	CodeGraphQLRefused:          "a GraphQL root field or input v2 cannot perform was refused",
	CodeGraphQLFieldsUnanswered: "GraphQL fields v2 has no source for were answered null",
	CodeGraphQLCloudNarrowed:    "no longer given (since 2026-12-04 a pod deploy's cloudType ALL tries either cloud, and lowestPrice without secureCloud is the lowest over both): a GraphQL request named no one cloud and SECURE was asked",
	CodeGraphQLDefaultTemplate:  "runpod-python's default CPU template (runpod-ubuntu), which v2 answered 404 for, was not sent",
	CodeGraphQLInputIgnored:     "GraphQL lowestPrice inputs v2 has no filter for (minMemoryInGb, minVcpuCount, totalDisk, minDisk, minDownload, minUpload, supportPublicIp) were not applied: the answer is the GPU type's price and stock",
}

// Note codes.
const (
	CodeUnknownFields            = "unknown_fields_ignored"
	CodeReadmeDropped            = "readme_dropped"
	CodeCandidatesUnranked       = "candidates_unranked"
	CodeLostReplyRecovered       = "lost_reply_recovered"
	CodeLockNotApplied           = "lock_not_applied"
	CodeAnswerUnreadable         = "answer_unreadable"
	CodeLoadBalancerEndpoint     = "load_balancer_endpoint"
	CodeGPUTypesOmitted          = "gpu_types_omitted"
	CodeVersionOmitted           = "version_omitted"
	CodeIdleTimeoutDropped       = "idle_timeout_dropped"
	CodeGPUPoolHazard            = "gpu_pool_hazard"
	CodeGPUTypesDropped          = "gpu_types_dropped"
	CodeTemplateSnapshot         = "template_snapshot"
	CodeTemplateDeleted          = "template_deleted_with_endpoint"
	CodeTemplateNoRollout        = "template_no_rollout"
	CodeComputeFieldsIgnored     = "compute_fields_ignored"
	CodeCatalogCapped            = "catalog_capped"
	CodeBillingGPUUnknown        = "billing_gpu_type_unknown"
	CodeBillingCPUNoGPU          = "billing_cpu_no_gpu_type"
	CodeRegistryUnset            = "registry_unset_on_templates"
	CodeGPUTypeChosen            = "gpu_type_chosen"
	CodeCPUFlavorChosen          = "cpu_flavor_chosen"
	CodePlacedOutsideDataCenters = "placed_outside_data_centers"
	CodePodAlreadyStarting       = "pod_already_starting"
	CodePodAlreadyRunning        = "pod_already_running"
	CodePublicKeyKept            = "public_key_kept"
	CodeTemplateRolledOut        = "template_rolled_out"
	CodeTemplateRolloutFailed    = "template_rollout_failed"
	CodeLenientDropped           = "lenient_dropped"
	CodeResetEmulated            = "reset_emulated"
	CodeUntranslatableRefused    = "untranslatable_refused"
	CodeResetRefused             = "reset_refused"
	CodeV2LimitRefused           = "v2_limit_refused"
	CodeStockOut                 = "stock_out"
	CodeTemplateInlined          = "template_inlined"
	CodeSoftConstraintUnchecked  = "soft_constraint_unchecked"
	CodeVolumeRoundedUp          = "volume_rounded_up"
	CodeTemplateIDUnknown        = "template_id_unknown"
	CodeTemplateVolumeRemembered = "template_volume_remembered"
	CodeGraphQLRefused           = "graphql_refused"
	CodeGraphQLFieldsUnanswered  = "graphql_fields_unanswered"
	CodeGraphQLCloudNarrowed     = "graphql_cloud_narrowed"
	CodeGraphQLDefaultTemplate   = "graphql_default_template_dropped"
	CodeGraphQLInputIgnored      = "graphql_input_ignored"
)

// warn adds a warning: its text to X-Compat-Warning and a Note with code.
func (r *Result) warn(code, msg string) {
	r.Warnings = append(r.Warnings, msg)
	r.Notes = append(r.Notes, Note{Code: code, Message: msg})
}

// warnField adds a warning about one field (counted per field in /usage).
func (r *Result) warnField(code, field, msg string) {
	r.Warnings = append(r.Warnings, msg)
	r.Notes = append(r.Notes, Note{Code: code, Field: field, Message: msg})
}

// warnUnchecked records a soft constraint accepted without v2 checking it
// (P1): why says what v2 could not guarantee.
func (r *Result) warnUnchecked(field, why string) {
	r.warnField(CodeSoftConstraintUnchecked, field, field+" was accepted but not guaranteed: "+why+" (field_policy "+field+": refuse refuses it)")
}

// dropField records an untranslatable field dropped (X-Compat-Dropped),
// with a note about it.
func (r *Result) dropField(field, msg string) {
	r.Dropped = append(r.Dropped, field)
	r.Notes = append(r.Notes, Note{Code: CodeLenientDropped, Field: field, Message: msg})
}

// emulate records an operation v2 lacks that was emulated (X-Compat-Emulated).
func (r *Result) emulate(what, code string) {
	r.Emulated = what
	r.Notes = append(r.Notes, Note{Code: code, Message: what + " was emulated"})
}

// refuse is a 400 the gateway raises for a request v1 would have accepted,
// recorded as a Note so that operators see which keys depend on it.
func refuse(code, msg string) *Result {
	return refuseField(code, "", msg)
}

// refuseV2 is the 400 of a request v1 accepted that v2 cannot do
// (v2_limit_refused), about the v1 field msg starts with ("volumeInGb:
// …"), if any.
func refuseV2(msg string) *Result {
	field, _, _ := strings.Cut(msg, ":")
	if field == msg || strings.ContainsAny(field, " \"'") {
		field = ""
	}
	return refuseField(CodeV2LimitRefused, field, msg)
}

// refuseField is refuse about one v1 field (counted per field in /usage).
func refuseField(code, field, msg string) *Result {
	r := Fail(400, msg)
	r.Notes = []Note{{Code: code, Field: field, Message: msg}}
	return r
}
