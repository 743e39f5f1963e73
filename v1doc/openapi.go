package v1doc

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/v1gateway/v1gateway/translate"
)

// The gateway's own v1 OpenAPI 3.0 document (P10, docs/design.md), served at
// GET /v1/openapi.json and rendered at GET /v1/docs. It is generated once,
// at the first request, from translate's operation table (method, path,
// operationId, success status, public or not, the v2 calls made) and from
// the schemas derived from translate's answer types (translate.DescribeV1)
// and from the request declarations of openapi_inputs.go, with every
// deviation from v1 noted in the operation's description. It is not a copy
// of the vendor's file: it describes what this gateway does.

// oaDocument is an OpenAPI 3.0 document.
type oaDocument struct {
	OpenAPI    string                                `json:"openapi"`
	Info       oaInfo                                `json:"info"`
	Servers    []oaServer                            `json:"servers"`
	Security   []map[string][]string                 `json:"security"`
	Tags       []oaTag                               `json:"tags"`
	Paths      omap[omap[*oaOperation]]              `json:"paths"`
	Components oaComponents                          `json:"components"`
	byName     map[string]*oaOperation               // op.Name → operation
	opOf       map[*oaOperation]*translate.Operation // back to the table
	schemaErrs []string                              // generator problems (tests fail on them)
}

type oaInfo struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description"`
}

type oaServer struct {
	URL         string `json:"url"`
	Description string `json:"description"`
}

type oaTag struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type oaComponents struct {
	SecuritySchemes map[string]oaSecurityScheme `json:"securitySchemes"`
	Schemas         omap[*oaSchema]             `json:"schemas"`
	Responses       omap[*oaResponse]           `json:"responses"`
	Headers         omap[*oaHeader]             `json:"headers"`
}

type oaSecurityScheme struct {
	Type        string `json:"type"`
	Scheme      string `json:"scheme"`
	Description string `json:"description"`
}

type oaOperation struct {
	Tags        []string           `json:"tags"`
	Summary     string             `json:"summary"`
	Description string             `json:"description"`
	OperationID string             `json:"operationId"`
	Parameters  []*oaParameter     `json:"parameters,omitempty"`
	RequestBody *oaRequestBody     `json:"requestBody,omitempty"`
	Responses   omap[*oaResponse]  `json:"responses"`
	Security    *[]json.RawMessage `json:"security,omitempty"`
	// Extensions: the v2 calls the operation makes (x-v2-calls), the
	// gateway's own name for it (unique, unlike v1's operationId) and its
	// deviations from v1, one per entry.
	XV2Calls          []string `json:"x-v2-calls"`
	XGatewayOperation string   `json:"x-gateway-operation"`
	XDeviations       []string `json:"x-deviations,omitempty"`

	method, path string
}

type oaParameter struct {
	Name        string    `json:"name"`
	In          string    `json:"in"`
	Required    bool      `json:"required,omitempty"`
	Description string    `json:"description,omitempty"`
	Style       string    `json:"style,omitempty"`
	Explode     *bool     `json:"explode,omitempty"`
	Schema      *oaSchema `json:"schema"`
}

type oaRequestBody struct {
	Description string            `json:"description,omitempty"`
	Required    bool              `json:"required"`
	Content     omap[oaMediaType] `json:"content"`
	schemaName  string            // for the docs page
}

type oaMediaType struct {
	Schema *oaSchema `json:"schema"`
}

type oaResponse struct {
	Ref         string            `json:"$ref,omitempty"`
	Description string            `json:"description,omitempty"`
	Headers     omap[*oaHeader]   `json:"headers,omitempty"`
	Content     omap[oaMediaType] `json:"content,omitempty"`
}

type oaHeader struct {
	Ref         string    `json:"$ref,omitempty"`
	Description string    `json:"description,omitempty"`
	Schema      *oaSchema `json:"schema,omitempty"`
}

// ---------------------------------------------------------------------------
// What the operation table does not say: summaries, query parameters, body
// and answer schemas, deviations.

// opDoc documents one operation of the table (by Name).
type opDoc struct {
	summary  string
	request  string // component schema of the body ("" none)
	response string // component schema of the answer; "[]X" an array of X; "" none
	query    []*oaParameter
	notes    []string // deviations from v1
}

func qBool(name, doc string) *oaParameter {
	return &oaParameter{Name: name, In: "query", Description: doc, Schema: boolSchema("")}
}

func qString(name, doc string) *oaParameter {
	return &oaParameter{Name: name, In: "query", Description: doc, Schema: &oaSchema{Type: "string"}}
}

func qEnum(name, enum, def, doc string) *oaParameter {
	s := &oaSchema{Type: "string", Enum: oaEnums[enum]}
	if def != "" {
		s.Default = json.RawMessage(strconv.Quote(def))
	}
	return &oaParameter{Name: name, In: "query", Description: doc, Schema: s}
}

func qArray(name, enum, doc string) *oaParameter {
	items := &oaSchema{Type: "string"}
	if enum != "" {
		items.Enum = oaEnums[enum]
	}
	explode := true
	return &oaParameter{Name: name, In: "query", Description: doc + " Repeat the parameter or separate values with commas.",
		Style: "form", Explode: &explode, Schema: &oaSchema{Type: "array", Items: items}}
}

func qDateTime(name, doc string) *oaParameter {
	return &oaParameter{Name: name, In: "query", Description: doc, Schema: &oaSchema{Type: "string", Format: "date-time"}}
}

var (
	podIncludes = func(single bool) []*oaParameter {
		ps := []*oaParameter{
			qBool("includeMachine", "Adds machine (data center, cloud, GPU type) and GPU catalog names and prices: one GET /v2/catalog/gpus (cached)."),
			qBool("includeNetworkVolume", "Adds networkVolume: one GET /v2/network-volumes (a list call, or one volume for a single pod)."),
			qBool("includeSavingsPlans", "Accepted; nothing is added (v2 has no savings plans)."),
			qBool("includeTemplate", "Adds template: one GET /v2/templates/{id} per distinct template."),
		}
		if single {
			return append(ps, qBool("includeWorkers", "Accepted and ignored for a single pod."))
		}
		return append(ps, qBool("includeWorkers", "Appends the workers of every serverless endpoint: GET /v2/serverless plus one call per endpoint (refused above 50 endpoints)."))
	}
	billingWindow = []*oaParameter{
		qEnum("bucketSize", "bucketSize", "day", "Translated (v2 bucketSize)."),
		qDateTime("startTime", "Translated (v2 startTime). v2 snaps it down to the start of its bucket and defaults to 30 days ago."),
		qDateTime("endTime", "Translated (v2 endTime, exclusive). v2 snaps it up to the end of its bucket and defaults to now."),
	}
)

func withWindow(ps ...*oaParameter) []*oaParameter {
	return append(append([]*oaParameter{}, billingWindow...), ps...)
}

const (
	noteSynonym       = "Synonym of the PATCH operation on the same path; it has the same operationId, as in v1."
	noteUpdate404     = "An unknown id answers 400, as v1 documented for this operation."
	noteCreate200     = "Answers 200, as v1 documented (v2 answers 201)."
	noteUnknownFields = "Fields outside v1's document are translated where v2 has the same meaning, otherwise ignored, as v1 ignored them, and named in X-Compat-Warning; never refused."
	noteStrict        = "Fields v1 documented with no v2 equivalent that would change what runs, what it costs or where it runs are rejected with 400 naming each field and the setting that would allow it (V1GW_COMPAT_MODE=lenient, or field_policy per field, drops them instead and lists them in X-Compat-Dropped)."
)

var opDocs = map[string]opDoc{
	"GetOpenAPI": {summary: "OpenAPI 3.0 document of this gateway", response: "*json",
		notes: []string{"Generated by the gateway from its own operation table and types: what it supports, with every deviation from v1 noted. Not the vendor's file.", "No authentication."}},
	"GetDocs": {summary: "Documentation page", response: "*html",
		notes: []string{"A self-contained HTML page rendering this document (no external scripts or styles).", "No authentication."}},

	"CreatePod": {summary: "Create a Pod", request: "PodCreateInput", response: "Pod", notes: []string{
		"Answers 201, as v1 documented.",
		"gpuTypeIds / cpuFlavorIds are ranked candidates: one v2 create per candidate until one succeeds (v2 takes exactly one type and never falls back). Without them the gateway chooses by availability, then price, and names its choice in X-Compat-Warning.",
		"When no candidate can be placed for lack of capacity the answer is v1's: 500 with \"There are no longer any instances available with the requested specifications\" and the gateway's detail, under message and error.",
		"locked is applied by a PATCH after the create; if it fails the pod is returned with X-Compat-Warning.",
		"v2 has no idempotency key: after a lost reply the gateway looks for the pod and never creates twice; if in doubt it answers 502/504 saying that the pod may or may not exist.",
		"Without templateId, v1's defaults are sent explicitly; with templateId, only the fields you send.",
		noteStrict, noteUnknownFields}},
	"ListPods": {summary: "List Pods", response: "[]Pod", query: append([]*oaParameter{
		qEnum("computeType", "computeType", "", "Applied by the gateway."),
		qArray("cpuFlavorId", "", "Applied by the gateway."),
		qArray("dataCenterId", "", "Applied by the gateway."),
		qEnum("desiredStatus", "desiredStatus", "", "Applied by the gateway after the status mapping (TERMINATED matches nothing: v2 forgets deleted pods)."),
		qString("endpointId", "The endpoint's serverless workers (GET /v2/serverless/{id}/workers)."),
		qArray("gpuTypeId", "", "Applied by the gateway."),
		qString("id", "Applied by the gateway."),
		qString("imageName", "Applied by the gateway."),
		qString("name", "Applied by the gateway."),
		qString("networkVolumeId", "Applied by the gateway."),
		qString("templateId", "Applied by the gateway on the pod's template: v2's, else the one the gateway recorded at the create."),
	}, podIncludes(false)...), notes: []string{"v2 has no filters: every v1 filter is applied by the gateway to the full v2 list.", "Each include costs extra v2 calls against your v2 rate limit."}},
	"GetPod": {summary: "Find a Pod by ID", response: "Pod", query: podIncludes(true)},
	"UpdatePod": {summary: "Update a Pod", request: "PodUpdateInput", response: "Pod", notes: []string{
		"Only the fields sent are changed. volumeInGb / volumeMountPath read the pod first (v2 needs full mount entries).",
		"A body with nothing v2 can change answers the pod without a PATCH.",
		"v1 said an update triggers a reset; v2 applies most changes without one and the gateway adds none.",
		noteUpdate404, noteStrict, noteUnknownFields}},
	"DeletePod":  {summary: "Delete a Pod", notes: []string{noteUpdate404}},
	"StartPod":   {summary: "Start or resume a Pod", response: "Pod", notes: []string{"Answers 200 with the pod (v1 documented no body).", "A pod already starting or running (v1 desiredStatus RUNNING; v2 refuses the start) answers 200 with the pod and an X-Compat-Warning: no action was sent.", "Any other pod v2 will not start answers 400 naming its desiredStatus."}},
	"StopPod":    {summary: "Stop a Pod", response: "Pod", notes: []string{"Answers 200 with the pod (v1 documented no body).", "A pod that cannot be stopped (already stopped, or locked) answers 400 saying why."}},
	"ResetPod":   {summary: "Reset a Pod", response: "Pod", notes: []string{"v2 has no reset: by default this answers 400 naming restart.", "With V1GW_RESET_MODE=restart it is emulated (GET /v2/pods/{id}, then POST /v2/pods/{id}/action restart for a RUNNING pod or start for an EXITED one; a pod still starting from scratch is answered as it is, with an X-Compat-Warning) and the answer carries X-Compat-Emulated: reset; a refused reset does not."}},
	"RestartPod": {summary: "Restart a Pod", response: "Pod", notes: []string{"v1 documented no success status: the gateway answers 200 with the pod.", "A pod still starting (v1 desiredStatus RUNNING; v2 refuses the restart) is already starting from scratch: 200 with the pod and an X-Compat-Warning, no action sent.", "A stopped pod answers 400 naming start; a restart wipes the container disk."}},

	"CreateEndpoint": {summary: "Create a Serverless endpoint", request: "EndpointCreateInput", response: "Endpoint", notes: []string{
		noteCreate200,
		"gpuTypeIds become v2 GPU pools minus excluded types: a card v2 later adds to one of those pools becomes eligible (and billable) too.",
		"Without gpuTypeIds (v1 required only templateId) the gateway chooses one GPU type with a serverless pool by availability, then price (or default_gpu_types), names it in X-Compat-Warning and answers it as gpuTypeIds.",
		"The v1 default idleTimeout 5 is sent (v2's default is 10); v2 type QUEUE is always sent; name defaults to the template's.",
		noteStrict, noteUnknownFields}},
	"ListEndpoints": {summary: "List Serverless endpoints", response: "[]Endpoint", query: []*oaParameter{
		qBool("includeTemplate", "Adds template, synthesised from each endpoint's container settings (no extra call)."),
		qBool("includeWorkers", "Adds workers and version: one GET /v2/serverless/{id}/workers per endpoint (refused above 50 endpoints)."),
	}, notes: []string{"version is only filled with includeWorkers=true (it costs one v2 call per endpoint).", "A v2 LOAD_BALANCER endpoint is listed with an X-Compat-Warning."}},
	"GetEndpoint": {summary: "Find a Serverless endpoint by ID", response: "Endpoint", query: []*oaParameter{
		qBool("includeTemplate", "Adds template, synthesised from the endpoint's container settings."),
		qBool("includeWorkers", "Adds workers: GET /v2/serverless/{id}/workers."),
	}},
	"UpdateEndpoint": {summary: "Update a Serverless endpoint", request: "EndpointUpdateInput", response: "Endpoint", notes: []string{
		"Only the fields sent are changed; gpuTypeIds sends both v2 pools and excludedTypes so that no exclusion is lost.",
		"flashboot true keeps an existing PRIORITY_FLASHBOOT.",
		noteUpdate404, noteStrict, noteUnknownFields}},
	"DeleteEndpoint": {summary: "Delete a Serverless endpoint", notes: []string{
		"Hazard: v2 also deletes the template bound to the endpoint and cancels its queued and in-progress jobs; the answer carries X-Compat-Warning.",
		noteUpdate404}},

	"CreateTemplate": {summary: "Create a template", request: "TemplateCreateInput", response: "Template", notes: []string{
		noteCreate200, "readme is dropped with X-Compat-Warning (v2 templates have no readme).",
		"startJupyter false and startSsh true are sent explicitly (v2 defaults both to true).",
		noteStrict, noteUnknownFields}},
	"ListTemplates": {summary: "List templates", response: "[]Template", query: []*oaParameter{
		qBool("includeEndpointBoundTemplates", "Accepted, not applied: v2 cannot tell which templates are bound to an endpoint; every template you own is listed."),
		qBool("includePublicTemplates", "Emulated: merges GET /v2/catalog/templates?source=verified and ?source=community."),
		qBool("includeRunpodTemplates", "Emulated: merges GET /v2/catalog/templates?source=official (isRunpod true)."),
	}, notes: []string{"Your templates first, then catalog templates, without duplicates; a full catalog slice (100, no pagination in v2) adds an X-Compat-Warning."}},
	"GetTemplate": {summary: "Find a template by ID", response: "Template", query: []*oaParameter{
		qBool("includeEndpointBoundTemplates", "Accepted and ignored (v2 serves your templates and public ones alike)."),
		qBool("includePublicTemplates", "Accepted and ignored."),
		qBool("includeRunpodTemplates", "Accepted and ignored."),
	}},
	"UpdateTemplate": {summary: "Update a template", request: "TemplateUpdateInput", response: "Template", notes: []string{
		"Rolled out to the endpoints created or updated from the template through the gateway (one v2 endpoint update each, named in X-Compat-Warning); v2 itself no longer rolls template edits out, so endpoints made elsewhere keep their settings.",
		"volumeInGb / volumeMountPath read the template first (v2 needs full mount entries).",
		noteUpdate404, noteStrict, noteUnknownFields}},
	"DeleteTemplate": {summary: "Delete a template", notes: []string{"A template in use answers 400 with v2's reason.", noteUpdate404}},

	"CreateNetworkVolume": {summary: "Create a network volume", request: "NetworkVolumeCreateInput", response: "NetworkVolume", notes: []string{
		noteCreate200,
		"size is checked against v2's bounds (10-4096 GB) before any v2 call: v1 allowed 0-9, which v2 refuses and the gateway never rounds up (storage is billed by size); 4001-4096 GB, which v1 refused, is passed on.",
		"The v2 storage tier is chosen only by volumeType or storageTier (outside v1's document); without them v2 uses the data center's default tier.",
		"Creates a billable resource that keeps incurring storage charges until it is deleted.",
		noteUnknownFields}},
	"ListNetworkVolumes": {summary: "List network volumes", response: "[]NetworkVolume"},
	"GetNetworkVolume":   {summary: "Find a network volume by ID", response: "NetworkVolume"},
	"UpdateNetworkVolume": {summary: "Update a network volume", request: "NetworkVolumeUpdateInput", response: "NetworkVolume", notes: []string{
		"With size, the volume is read first (GET /v2/network-volumes/{id}): a decrease is rejected naming the current size; the current size is accepted and changes nothing (v1 required a larger size).",
		"A body with nothing to change (v1 accepted {}; v2 rejects an empty PATCH) answers the volume without a PATCH.",
		noteUpdate404, noteUnknownFields}},
	"DeleteNetworkVolume": {summary: "Delete a network volume", notes: []string{
		"Hazard: permanent; v2 documents no protection for a volume still attached to pods or endpoints (v1 documented none either).",
		noteUpdate404}},

	"CreateContainerRegistryAuth": {summary: "Create a container registry credential", request: "ContainerRegistryAuthCreateInput", response: "ContainerRegistryAuth", notes: []string{
		noteCreate200, "username and password are write-only: never returned, logged or echoed in messages.", noteUnknownFields}},
	"ListContainerRegistryAuths": {summary: "List container registry credentials", response: "[]ContainerRegistryAuth"},
	"GetContainerRegistryAuth": {summary: "Find a container registry credential by ID", response: "ContainerRegistryAuth", notes: []string{
		"The id delegations (any case) answers 404 without a v2 call: in v2 it names the ECR delegations route."}},
	"DeleteContainerRegistryAuth": {summary: "Delete a container registry credential", notes: []string{
		"A credential used by a pod answers 400 with v2's reason.",
		"Hazard: v2 silently removes the credential from every template that references it; the answer carries X-Compat-Warning.",
		"The id delegations (any case) answers 404 without a v2 call.",
		noteUpdate404}},

	"PodBilling": {summary: "Pod billing history", response: "[]BillingRecord", query: withWindow(
		qEnum("grouping", "podGrouping", "gpuTypeId", "podId: one record per pod per bucket (v2's shape). gpuTypeId (v1's default): the gateway reads GET /v2/pods to map pods to GPU types and sums per bucket and type."),
		qEnum("gpuTypeId", "gpuTypeId", "", "Applied by the gateway through the same pod → GPU type mapping."),
		qString("podId", "Translated (v2 podId)."),
	), notes: []string{
		"Terminated pods are no longer listed by v2, so their GPU type is unknown: with grouping=gpuTypeId their amounts are in records without gpuTypeId (never dropped), CPU pods too; with a gpuTypeId filter they are left out. Both are said in X-Compat-Warning.",
		"diskSpaceBilledGb and timeBilledMs are omitted (v2 has no source); endpointId is never set."}},
	"EndpointBilling": {summary: "Serverless billing history", response: "[]BillingRecord", query: withWindow(
		qString("endpointId", "Translated (v2 serverlessId)."),
		qEnum("grouping", "endpointGrouping", "endpointId", "endpointId (v1's default) is v2's shape. podId and gpuTypeId are rejected (lenient: dropped): v2 serverless records are per endpoint."),
		qArray("dataCenterId", "dataCenterId", "All data centers (v1's default) changes nothing; a narrower list is rejected (lenient: dropped): v2 records carry no location."),
		qArray("gpuTypeId", "gpuTypeId", "Rejected (lenient: dropped): v2 records carry no GPU type."),
		qString("imageName", "Rejected (lenient: dropped): v2 records carry no image."),
		qString("templateId", "Rejected (lenient: dropped): v2 endpoints keep no template link."),
	), notes: []string{
		"Reads GET /v2/billing/serverless — never GET /v2/billing/endpoints, which is Public Endpoint billing in v2.",
		"podId, gpuTypeId, diskSpaceBilledGb and timeBilledMs are never set (v2 has no source)."}},
	"NetworkVolumeBilling": {summary: "Network volume billing history", response: "[]NetworkVolumeBillingRecord", query: withWindow(),
		notes: []string{
			"v2 reports one record per volume per bucket; the gateway sums them per bucket (v1 records carry no volume id).",
			"amount includes standard and high-performance storage; highPerformanceStorageAmount is the high-performance part.",
			"diskSpaceBilledGb and highPerformanceStorageDiskSpaceBilledGb are omitted (v2 has no source)."}},
}

// resourceTags maps an operation's Resource to the v1 tag.
var resourceTags = []struct{ resource, tag, desc string }{
	{"docs", "docs", "This document and its documentation page (no authentication)."},
	{"pods", "pods", "Manage Pods (v2 /v2/pods)."},
	{"endpoints", "endpoints", "Manage Serverless endpoints (v2 /v2/serverless)."},
	{"templates", "templates", "Manage Pod and Serverless templates (v2 /v2/templates)."},
	{"networkvolumes", "network volumes", "Manage network volumes (v2 /v2/network-volumes)."},
	{"containerregistryauth", "container registry auths", "Manage container registry credentials (v2 /v2/registries)."},
	{"billing", "billing", "Billing history (v2 /v2/billing/*)."},
}

func tagOf(resource string) string {
	for _, t := range resourceTags {
		if t.resource == resource {
			return t.tag
		}
	}
	return resource
}

var pathParamRE = regexp.MustCompile(`\{([^}]+)\}`)

// pathParamDocs describes the v1 path parameters.
var pathParamDocs = map[string]string{
	"podId":                   "Pod id, passed through to v2 unchanged (percent-encoded).",
	"endpointId":              "Endpoint id, passed through to v2 unchanged (percent-encoded).",
	"templateId":              "Template id, passed through to v2 unchanged (percent-encoded).",
	"networkVolumeId":         "Network volume id, passed through to v2 unchanged (percent-encoded).",
	"containerRegistryAuthId": "Registry credential id, passed through to v2 unchanged (percent-encoded); delegations is never forwarded.",
}

// buildOpenAPI builds the document from the operation table.
func buildOpenAPI() *oaDocument {
	schemas, errs := componentSchemas()
	d := &oaDocument{
		OpenAPI: "3.0.3",
		Info: oaInfo{
			Title:   "Runpod REST API v1, served by v1gateway",
			Version: "1.0.0",
			Description: "The retired Runpod REST API v1, performed against its replacement v2 by v1gateway. " +
				"Every operation answers as v1 documented (bare arrays, v1 field names and status codes, {\"message\"} errors); " +
				"where the gateway cannot, the operation's description and x-deviations say so, and x-v2-calls lists the v2 calls it makes.\n\n" +
				"Headers the gateway adds: X-Compat-Warning (something was not fully applied; read it), X-Compat-Dropped (fields dropped in lenient mode), " +
				"X-Compat-Emulated (an operation v2 lacks was emulated), Deprecation (v1 is retired), when configured Sunset and a Warning naming the switch-off date, and the IETF RateLimit / RateLimit-Policy headers.\n\n" +
				"An operator may mark a key as migrated: from that date its v1 calls are answered 410 with a message naming the v2 call that replaces the operation.\n\n" +
				"Note: as in v1, the POST .../update synonyms share the operationId of the PATCH they mirror; x-gateway-operation is unique.",
		},
		Servers:    []oaServer{{URL: "/v1", Description: "This gateway"}},
		Security:   []map[string][]string{{"ApiKey": {}}},
		byName:     map[string]*oaOperation{},
		opOf:       map[*oaOperation]*translate.Operation{},
		schemaErrs: errs,
	}
	for _, t := range resourceTags {
		d.Tags = append(d.Tags, oaTag{Name: t.tag, Description: t.desc})
	}
	d.Components = oaComponents{
		SecuritySchemes: map[string]oaSecurityScheme{"ApiKey": {Type: "http", Scheme: "bearer", Description: "Your Runpod API key; the gateway forwards it to v2 unchanged."}},
		Schemas:         schemas,
		Headers: omap[*oaHeader]{
			{"Deprecation", &oaHeader{Description: "RFC 9745: v1 is deprecated since this date (@<unix seconds>).", Schema: strSchema("")}},
			{"Sunset", &oaHeader{Description: "RFC 8594, when configured: the date the gateway is retired.", Schema: strSchema("")}},
			{"Warning", &oaHeader{Description: "When the operator turns it on (sunset_warning): a human message naming the date the gateway is switched off.", Schema: strSchema("")}},
			{"RateLimit", &oaHeader{Description: "IETF RateLimit: remaining requests of the gateway's per-key minute window.", Schema: strSchema("")}},
			{"RateLimit-Policy", &oaHeader{Description: "IETF RateLimit-Policy of the gateway's per-key minute window.", Schema: strSchema("")}},
			{"X-Compat-Warning", &oaHeader{Description: "Something the client asked for was not (fully) applied, or a hazard of v2 the client must know; one header per warning.", Schema: strSchema("")}},
			{"X-Compat-Dropped", &oaHeader{Description: "Lenient mode: the request fields or parameters dropped, comma-separated.", Schema: strSchema("")}},
			{"X-Compat-Emulated", &oaHeader{Description: "The operation v2 lacks that was emulated (reset).", Schema: strSchema("")}},
			{"Retry-After", &oaHeader{Description: "Seconds to wait before retrying.", Schema: strSchema("")}},
		},
	}
	errResp := func(desc string, headers ...string) *oaResponse {
		r := &oaResponse{Description: desc, Content: omap[oaMediaType]{{"application/json", oaMediaType{Schema: refSchema("Error")}}}}
		for _, h := range headers {
			r.Headers.set(h, &oaHeader{Ref: "#/components/headers/" + h})
		}
		return r
	}
	d.Components.Responses = omap[*oaResponse]{
		{"BadRequest", errResp("Invalid or untranslatable input (named in the message), or a v2 rejection (v2 400, 402, 409, 422).")},
		{"Unauthorized", errResp("No bearer token, or v2 refused it.")},
		{"Forbidden", errResp("The key has no access (v2 403).")},
		{"NotFound", errResp("Not found, or an id the gateway never forwards (empty, a dot segment, a slash, control characters, more than 191 bytes, or a reserved v2 route name).")},
		{"PayloadTooLarge", errResp("The request body exceeds 1 MiB.")},
		{"TooManyRequests", errResp("Rate limited by the gateway or by v2.", "Retry-After")},
		{"BadGateway", errResp("v2 answered with a server error or an answer the gateway cannot read, or could not be reached.")},
		{"ServiceUnavailable", errResp("The gateway's circuit breaker is open: v2 is failing.", "Retry-After")},
		{"GatewayTimeout", errResp("v2 did not answer in time.")},
	}

	d.Paths = omap[omap[*oaOperation]]{}
	for i := range translate.Operations {
		op := &translate.Operations[i]
		o := buildOperation(op)
		item, _ := d.Paths.get(op.Path)
		item.set(strings.ToLower(op.Method), o)
		d.Paths.set(op.Path, item)
		d.byName[op.Name] = o
		d.opOf[o] = op
	}
	return d
}

func buildOperation(op *translate.Operation) *oaOperation {
	doc := opDocs[op.Name]
	notes := append([]string(nil), doc.notes...)
	if strings.HasSuffix(op.Name, "ViaPost") {
		base := opDocs[op.OperationID]
		if doc.summary == "" {
			doc = base
		}
		notes = append([]string{noteSynonym}, base.notes...)
	}
	o := &oaOperation{
		Tags:              []string{tagOf(op.Resource)},
		Summary:           doc.summary,
		OperationID:       op.OperationID,
		XV2Calls:          append([]string{}, op.V2...),
		XGatewayOperation: op.Name,
		XDeviations:       notes,
		method:            op.Method,
		path:              op.Path,
	}
	if o.Summary == "" {
		o.Summary = op.Name
	}
	var desc strings.Builder
	if len(op.V2) > 0 {
		desc.WriteString("v2 calls it may make: " + strings.Join(op.V2, ", ") + ".")
	} else {
		desc.WriteString("No v2 call.")
	}
	for _, n := range notes {
		desc.WriteString("\n\n- " + n)
	}
	o.Description = desc.String()
	if op.Public {
		empty := []json.RawMessage{}
		o.Security = &empty
	}
	for _, m := range pathParamRE.FindAllStringSubmatch(op.Path, -1) {
		o.Parameters = append(o.Parameters, &oaParameter{Name: m[1], In: "path", Required: true, Description: pathParamDocs[m[1]], Schema: &oaSchema{Type: "string"}})
	}
	o.Parameters = append(o.Parameters, doc.query...)
	if doc.request != "" {
		o.RequestBody = &oaRequestBody{Required: true, Content: omap[oaMediaType]{{"application/json", oaMediaType{Schema: refSchema(doc.request)}}}, schemaName: doc.request}
	}
	success := &oaResponse{Description: "Successful operation."}
	switch {
	case doc.response == "*json":
		success.Content = omap[oaMediaType]{{op.ContentType(), oaMediaType{Schema: &oaSchema{Type: "object"}}}}
	case doc.response == "*html":
		success.Content = omap[oaMediaType]{{"text/html", oaMediaType{Schema: &oaSchema{Type: "string"}}}}
	case strings.HasPrefix(doc.response, "[]"):
		success.Content = omap[oaMediaType]{{"application/json", oaMediaType{Schema: arraySchema(refSchema(doc.response[2:]), "")}}}
	case doc.response != "":
		success.Content = omap[oaMediaType]{{"application/json", oaMediaType{Schema: refSchema(doc.response)}}}
	}
	if op.Success == http.StatusNoContent {
		success.Description = "Deleted. No body."
		success.Content = nil
	}
	if !op.Public {
		for _, h := range []string{"Deprecation", "Sunset", "Warning", "RateLimit", "RateLimit-Policy", "X-Compat-Warning", "X-Compat-Dropped"} {
			success.Headers.set(h, &oaHeader{Ref: "#/components/headers/" + h})
		}
		if op.Name == "ResetPod" {
			success.Headers.set("X-Compat-Emulated", &oaHeader{Ref: "#/components/headers/X-Compat-Emulated"})
		}
	}
	o.Responses.set(strconv.Itoa(op.Success), success)
	if op.Public {
		return o
	}
	ref := func(name string) *oaResponse { return &oaResponse{Ref: "#/components/responses/" + name} }
	o.Responses.set("400", ref("BadRequest"))
	o.Responses.set("401", ref("Unauthorized"))
	o.Responses.set("403", ref("Forbidden"))
	if len(o.Parameters) > 0 && strings.Contains(op.Path, "{") {
		o.Responses.set("404", ref("NotFound"))
	}
	if o.RequestBody != nil {
		o.Responses.set("413", ref("PayloadTooLarge"))
	}
	o.Responses.set("429", ref("TooManyRequests"))
	o.Responses.set("502", ref("BadGateway"))
	o.Responses.set("503", ref("ServiceUnavailable"))
	o.Responses.set("504", ref("GatewayTimeout"))
	return o
}

// The document, generated once.
var (
	openAPIOnce  sync.Once
	openAPIModel *oaDocument
	openAPIJSON  []byte
)

func openAPI() (*oaDocument, []byte) {
	openAPIOnce.Do(func() {
		openAPIModel = buildOpenAPI()
		b, err := json.MarshalIndent(openAPIModel, "", "  ")
		if err != nil {
			// Cannot happen for this model; say so rather than serve nothing.
			b = translate.EncodeV1Error("cannot encode the OpenAPI document: " + err.Error())
		}
		openAPIJSON = append(b, '\n')
	})
	return openAPIModel, openAPIJSON
}

// OpenAPIDocument returns the gateway's v1 OpenAPI 3.0 document (JSON). The
// slice is shared: do not modify it.
func OpenAPIDocument() []byte {
	_, b := openAPI()
	return b
}

// For returns the generator of op's successful answer when v1doc makes it:
// OpenAPIDocument for GetOpenAPI, DocsPage for GetDocs (the KindStatic
// operations of the table); nil for every other operation.
func For(op *translate.Operation) func() []byte {
	switch op.Name {
	case "GetOpenAPI":
		return OpenAPIDocument
	case "GetDocs":
		return DocsPage
	}
	return nil
}
