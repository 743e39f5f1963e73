// Package translate holds the pure v1 → v2 translation: the rules and the
// plans. The table of the 37 v1 operations (this file), each operation's
// plan (the v2 calls it makes and how their answers fold into the v1
// answer), the request and answer field mappings (what a v1 field means in
// v2), the v2 problem → v1 error mapping and the status-code policy. It
// performs no I/O and imports none of the gateway's other packages but
// podjson.
//
// It must not hold byte scanning. Reading and writing JSON by hand — the
// scanner, the pod decoder and encoder, the pod wire model with R-Pod, the
// pooled answer buffers, the checks of request bodies — is package
// podjson's, and so is every use of unsafe; translate works on decoded
// values (encoding/json for everything but pods, podjson for pods) and
// turns podjson's errors into answers. The gateway's own v1 OpenAPI
// document and docs page (P10) are not here either: package v1doc
// generates them from this table and from DescribeV1 (v1schema.go).
package translate

import "net/http"

// Kind classifies a v1 operation for the status-code policy (P5, docs/design.md).
type Kind int

// Operation kinds.
const (
	KindStatic Kind = iota // the gateway's own v1 document and page (package v1doc), no v2 call
	KindList               // GET collection
	KindGet                // GET by id
	KindCreate             // POST collection
	KindUpdate             // PATCH or POST .../update
	KindDelete             // DELETE by id
	KindAction             // POST .../{start,stop,reset,restart}
)

func (k Kind) String() string {
	switch k {
	case KindStatic:
		return "static"
	case KindList:
		return "list"
	case KindGet:
		return "get"
	case KindCreate:
		return "create"
	case KindUpdate:
		return "update"
	case KindDelete:
		return "delete"
	case KindAction:
		return "action"
	}
	return "unknown"
}

// Operation is one v1 operation as the gateway knows it. It is declared once,
// here, and everything else (router, metrics, usage report, generated v1
// OpenAPI document) is derived from this table.
type Operation struct {
	// Name is unique across the table. It equals the v1 operationId except for
	// the POST .../update synonyms, which v1 gave the same operationId as the
	// PATCH they mirror; those get a "ViaPost" suffix.
	Name string
	// OperationID is v1's operationId, exactly as in the v1 contract.
	OperationID string
	// Method and Path are the v1 method and path template (without the /v1
	// prefix), with v1's own path parameter names.
	Method string
	Path   string
	// Resource is the v1 resource the operation belongs to.
	Resource string
	Kind     Kind
	// V2 lists the v2 calls the operation maps to, for documentation, logs and
	// the generated OpenAPI document ("" when none).
	V2 []string
	// Success is the status v1 documents for success.
	Success int
	// Public operations need no bearer token (v1 security: []).
	Public bool
	// Plan performs the operation. It is nil for the two KindStatic
	// operations, whose answer is no translation: the gateway's own v1
	// document and docs page (P10), which package v1doc generates from this
	// table and package proxy serves. (The proxy answers 501 for any other
	// operation without a plan.)
	Plan PlanFunc
}

// NotFoundStatus is the status a v2 404 becomes for this operation: 404 where
// v1 documented "not found" (GET by id), 400 where it documented only 400.
func (o *Operation) NotFoundStatus() int {
	if o.Kind == KindGet || o.Kind == KindList {
		return http.StatusNotFound
	}
	return http.StatusBadRequest
}

// Content types of the successful answers: the generated v1 OpenAPI
// document and every JSON answer, and the docs page (GetDocs).
const (
	jsonContentType = "application/json"
	docsContentType = "text/html; charset=utf-8"
)

// Cache-Control of the two generated documents: they change only with the
// gateway's version, but a gateway upgrade must show within the hour.
const docsCacheControl = "public, max-age=3600"

// ContentType is the media type of the body of op's successful answers:
// text/html for GetDocs, application/json for every other operation. (Error
// answers are always application/json.)
func (o *Operation) ContentType() string {
	if o.Name == "GetDocs" {
		return docsContentType
	}
	return jsonContentType
}

// CacheControl is the Cache-Control header of op's successful answers: the
// two generated documents may be cached for an hour; "" for every other
// operation (the proxy sets none).
func (o *Operation) CacheControl() string {
	if o.Kind == KindStatic {
		return docsCacheControl
	}
	return ""
}

// Operations is the table of every v1 operation, in the order of the v1
// contract.
var Operations = []Operation{
	{Name: "GetOpenAPI", OperationID: "GetOpenAPI", Method: "GET", Path: "/openapi.json", Resource: "docs", Kind: KindStatic, Success: 200, Public: true},
	{Name: "GetDocs", OperationID: "GetDocs", Method: "GET", Path: "/docs", Resource: "docs", Kind: KindStatic, Success: 200, Public: true},

	{Name: "CreatePod", OperationID: "CreatePod", Method: "POST", Path: "/pods", Resource: "pods", Kind: KindCreate, Success: 201,
		V2: []string{"GET /v2/network-volumes/{id}", "GET /v2/templates/{id}", "GET /v2/catalog/gpus", "GET /v2/catalog/cpus", "GET /v2/pods", "POST /v2/pods", "PATCH /v2/pods/{id}", "DELETE /v2/pods/{id}"}, Plan: createPodPlan},
	{Name: "ListPods", OperationID: "ListPods", Method: "GET", Path: "/pods", Resource: "pods", Kind: KindList, Success: 200,
		V2: []string{"GET /v2/pods", "GET /v2/network-volumes", "GET /v2/templates/{id}", "GET /v2/catalog/gpus", "GET /v2/serverless", "GET /v2/serverless/{id}/workers"}, Plan: listPodsPlan},
	{Name: "GetPod", OperationID: "GetPod", Method: "GET", Path: "/pods/{podId}", Resource: "pods", Kind: KindGet, Success: 200,
		V2: []string{"GET /v2/pods/{id}", "GET /v2/network-volumes/{id}", "GET /v2/templates/{id}", "GET /v2/catalog/gpus"}, Plan: getPodPlan},
	{Name: "UpdatePod", OperationID: "UpdatePod", Method: "PATCH", Path: "/pods/{podId}", Resource: "pods", Kind: KindUpdate, Success: 200,
		V2: []string{"GET /v2/pods/{id}", "PATCH /v2/pods/{id}"}, Plan: updatePodPlan},
	{Name: "DeletePod", OperationID: "DeletePod", Method: "DELETE", Path: "/pods/{podId}", Resource: "pods", Kind: KindDelete, Success: 204,
		V2: []string{"DELETE /v2/pods/{id}"}, Plan: deletePodPlan},
	{Name: "UpdatePodViaPost", OperationID: "UpdatePod", Method: "POST", Path: "/pods/{podId}/update", Resource: "pods", Kind: KindUpdate, Success: 200,
		V2: []string{"GET /v2/pods/{id}", "PATCH /v2/pods/{id}"}, Plan: updatePodPlan},
	{Name: "StartPod", OperationID: "StartPod", Method: "POST", Path: "/pods/{podId}/start", Resource: "pods", Kind: KindAction, Success: 200,
		V2: []string{"POST /v2/pods/{id}/action", "GET /v2/pods/{id}"}, Plan: startPodPlan},
	{Name: "StopPod", OperationID: "StopPod", Method: "POST", Path: "/pods/{podId}/stop", Resource: "pods", Kind: KindAction, Success: 200,
		V2: []string{"POST /v2/pods/{id}/action", "GET /v2/pods/{id}"}, Plan: stopPodPlan},
	{Name: "ResetPod", OperationID: "ResetPod", Method: "POST", Path: "/pods/{podId}/reset", Resource: "pods", Kind: KindAction, Success: 200,
		V2: []string{"GET /v2/pods/{id}", "POST /v2/pods/{id}/action"}, Plan: resetPodPlan},
	{Name: "RestartPod", OperationID: "RestartPod", Method: "POST", Path: "/pods/{podId}/restart", Resource: "pods", Kind: KindAction, Success: 200,
		V2: []string{"POST /v2/pods/{id}/action", "GET /v2/pods/{id}"}, Plan: restartPodPlan},

	{Name: "CreateEndpoint", OperationID: "CreateEndpoint", Method: "POST", Path: "/endpoints", Resource: "endpoints", Kind: KindCreate, Success: 200,
		V2: []string{"GET /v2/templates/{id}", "GET /v2/catalog/gpus", "GET /v2/catalog/cpus", "POST /v2/serverless", "GET /v2/serverless", "GET /v2/serverless/{id}/workers"}, Plan: createEndpointPlan},
	{Name: "ListEndpoints", OperationID: "ListEndpoints", Method: "GET", Path: "/endpoints", Resource: "endpoints", Kind: KindList, Success: 200,
		V2: []string{"GET /v2/serverless", "GET /v2/catalog/gpus", "GET /v2/serverless/{id}/workers", "GET /v2/templates/{id}"}, Plan: listEndpointsPlan},
	{Name: "GetEndpoint", OperationID: "GetEndpoint", Method: "GET", Path: "/endpoints/{endpointId}", Resource: "endpoints", Kind: KindGet, Success: 200,
		V2: []string{"GET /v2/serverless/{id}", "GET /v2/serverless/{id}/releases", "GET /v2/serverless/{id}/workers", "GET /v2/catalog/gpus", "GET /v2/templates/{id}"}, Plan: getEndpointPlan},
	{Name: "UpdateEndpoint", OperationID: "UpdateEndpoint", Method: "PATCH", Path: "/endpoints/{endpointId}", Resource: "endpoints", Kind: KindUpdate, Success: 200,
		V2: []string{"GET /v2/serverless/{id}", "GET /v2/catalog/gpus", "PATCH /v2/serverless/{id}", "GET /v2/serverless/{id}/releases"}, Plan: updateEndpointPlan},
	{Name: "DeleteEndpoint", OperationID: "DeleteEndpoint", Method: "DELETE", Path: "/endpoints/{endpointId}", Resource: "endpoints", Kind: KindDelete, Success: 204,
		V2: []string{"DELETE /v2/serverless/{id}"}, Plan: deleteEndpointPlan},
	{Name: "UpdateEndpointViaPost", OperationID: "UpdateEndpoint", Method: "POST", Path: "/endpoints/{endpointId}/update", Resource: "endpoints", Kind: KindUpdate, Success: 200,
		V2: []string{"GET /v2/serverless/{id}", "GET /v2/catalog/gpus", "PATCH /v2/serverless/{id}", "GET /v2/serverless/{id}/releases"}, Plan: updateEndpointPlan},

	{Name: "CreateTemplate", OperationID: "CreateTemplate", Method: "POST", Path: "/templates", Resource: "templates", Kind: KindCreate, Success: 200,
		V2: []string{"POST /v2/templates"}, Plan: createTemplatePlan},
	{Name: "ListTemplates", OperationID: "ListTemplates", Method: "GET", Path: "/templates", Resource: "templates", Kind: KindList, Success: 200,
		V2: []string{"GET /v2/templates", "GET /v2/catalog/templates"}, Plan: listTemplatesPlan},
	{Name: "GetTemplate", OperationID: "GetTemplate", Method: "GET", Path: "/templates/{templateId}", Resource: "templates", Kind: KindGet, Success: 200,
		V2: []string{"GET /v2/templates/{id}"}, Plan: getTemplatePlan},
	{Name: "UpdateTemplate", OperationID: "UpdateTemplate", Method: "PATCH", Path: "/templates/{templateId}", Resource: "templates", Kind: KindUpdate, Success: 200,
		V2: []string{"GET /v2/templates/{id}", "PATCH /v2/templates/{id}", "PATCH /v2/serverless/{id}"}, Plan: updateTemplatePlan},
	{Name: "DeleteTemplate", OperationID: "DeleteTemplate", Method: "DELETE", Path: "/templates/{templateId}", Resource: "templates", Kind: KindDelete, Success: 204,
		V2: []string{"DELETE /v2/templates/{id}"}, Plan: deleteTemplatePlan},
	{Name: "UpdateTemplateViaPost", OperationID: "UpdateTemplate", Method: "POST", Path: "/templates/{templateId}/update", Resource: "templates", Kind: KindUpdate, Success: 200,
		V2: []string{"GET /v2/templates/{id}", "PATCH /v2/templates/{id}", "PATCH /v2/serverless/{id}"}, Plan: updateTemplatePlan},

	{Name: "CreateNetworkVolume", OperationID: "CreateNetworkVolume", Method: "POST", Path: "/networkvolumes", Resource: "networkvolumes", Kind: KindCreate, Success: 200,
		V2: []string{"POST /v2/network-volumes"}, Plan: createNetworkVolumePlan},
	{Name: "ListNetworkVolumes", OperationID: "ListNetworkVolumes", Method: "GET", Path: "/networkvolumes", Resource: "networkvolumes", Kind: KindList, Success: 200,
		V2: []string{"GET /v2/network-volumes"}, Plan: listNetworkVolumesPlan},
	{Name: "GetNetworkVolume", OperationID: "GetNetworkVolume", Method: "GET", Path: "/networkvolumes/{networkVolumeId}", Resource: "networkvolumes", Kind: KindGet, Success: 200,
		V2: []string{"GET /v2/network-volumes/{id}"}, Plan: getNetworkVolumePlan},
	{Name: "UpdateNetworkVolume", OperationID: "UpdateNetworkVolume", Method: "PATCH", Path: "/networkvolumes/{networkVolumeId}", Resource: "networkvolumes", Kind: KindUpdate, Success: 200,
		V2: []string{"GET /v2/network-volumes/{id}", "PATCH /v2/network-volumes/{id}"}, Plan: updateNetworkVolumePlan},
	{Name: "DeleteNetworkVolume", OperationID: "DeleteNetworkVolume", Method: "DELETE", Path: "/networkvolumes/{networkVolumeId}", Resource: "networkvolumes", Kind: KindDelete, Success: 204,
		V2: []string{"DELETE /v2/network-volumes/{id}"}, Plan: deleteNetworkVolumePlan},
	{Name: "UpdateNetworkVolumeViaPost", OperationID: "UpdateNetworkVolume", Method: "POST", Path: "/networkvolumes/{networkVolumeId}/update", Resource: "networkvolumes", Kind: KindUpdate, Success: 200,
		V2: []string{"GET /v2/network-volumes/{id}", "PATCH /v2/network-volumes/{id}"}, Plan: updateNetworkVolumePlan},

	{Name: "CreateContainerRegistryAuth", OperationID: "CreateContainerRegistryAuth", Method: "POST", Path: "/containerregistryauth", Resource: "containerregistryauth", Kind: KindCreate, Success: 200,
		V2: []string{"POST /v2/registries"}, Plan: createRegistryPlan},
	{Name: "ListContainerRegistryAuths", OperationID: "ListContainerRegistryAuths", Method: "GET", Path: "/containerregistryauth", Resource: "containerregistryauth", Kind: KindList, Success: 200,
		V2: []string{"GET /v2/registries"}, Plan: listRegistriesPlan},
	{Name: "GetContainerRegistryAuth", OperationID: "GetContainerRegistryAuth", Method: "GET", Path: "/containerregistryauth/{containerRegistryAuthId}", Resource: "containerregistryauth", Kind: KindGet, Success: 200,
		V2: []string{"GET /v2/registries/{id}"}, Plan: getRegistryPlan},
	{Name: "DeleteContainerRegistryAuth", OperationID: "DeleteContainerRegistryAuth", Method: "DELETE", Path: "/containerregistryauth/{containerRegistryAuthId}", Resource: "containerregistryauth", Kind: KindDelete, Success: 204,
		V2: []string{"DELETE /v2/registries/{id}"}, Plan: deleteRegistryPlan},

	{Name: "PodBilling", OperationID: "PodBilling", Method: "GET", Path: "/billing/pods", Resource: "billing", Kind: KindList, Success: 200,
		V2: []string{"GET /v2/billing/pods", "GET /v2/pods"}, Plan: podBillingPlan},
	{Name: "EndpointBilling", OperationID: "EndpointBilling", Method: "GET", Path: "/billing/endpoints", Resource: "billing", Kind: KindList, Success: 200,
		V2: []string{"GET /v2/billing/serverless"}, Plan: endpointBillingPlan},
	{Name: "NetworkVolumeBilling", OperationID: "NetworkVolumeBilling", Method: "GET", Path: "/billing/networkvolumes", Resource: "billing", Kind: KindList, Success: 200,
		V2: []string{"GET /v2/billing/network-volumes"}, Plan: networkVolumeBillingPlan},
}

// Lookup returns the operation with the given unique name.
func Lookup(name string) (*Operation, bool) {
	for i := range Operations {
		if Operations[i].Name == name {
			return &Operations[i], true
		}
	}
	return nil, false
}
