package translate

import "github.com/v1gateway/v1gateway/podjson"

// Models (P11): the typed answers the GraphQL door reads. A plan gives its
// v1 answer as JSON in Result.Body; the plans also give it as typed values
// in Result.Model, so that the GraphQL front door, which runs the same
// plans, shapes its answers from the same models without reading the v1
// JSON back. JSON sets Model to the value it encodes; plans whose v1 form
// leaves out what v2 said (a pod's uptime, an endpoint's pools) give a
// model with both. With Request.Models set, GET /pods takes its decoded
// path and gives its models only (no v1 JSON is written).

// PodModel is one pod as a plan read it: the v2 pod and its v1 form
// (R-Pod, with the include* expansions the request asked for).
type PodModel struct {
	V2 *podjson.V2Pod
	V1 *podjson.V1Pod
}

// EndpointModel is one serverless endpoint as a plan read it: the v2
// endpoint and its v1 form (R-Endpoint: gpuTypeIds, templateId, version
// and workers as the request asked).
type EndpointModel struct {
	V2 *V2Endpoint
	V1 *V1Endpoint
}

// TemplateModel is one template as a plan read it: the v2 template and
// its v1 form (R-Template).
type TemplateModel struct {
	V2 *V2Template
	V1 *V1Template
	// Catalog is, in ListTemplates' answer, the public catalog the
	// template was listed from (the v2 catalog source: "official",
	// "verified", "community"); "" for the account's own templates, and
	// in the other plans' answers.
	Catalog string
}

// The model types the door reads, under exported names: translate's own
// types, declared with their rules (endpointmodel.go, templatemodel.go,
// podmodel.go, networkvolumes.go, registries.go).
type (
	V2Endpoint      = v2Endpoint
	V2EndpointGPU   = v2EndpointGPU
	V1Endpoint      = v1Endpoint
	V1Worker        = v1Worker
	V2Template      = v2TemplateForPod
	V1Template      = v1Template
	V1NetworkVolume = v1NetworkVolume
	V1Registry      = v1Registry
)
