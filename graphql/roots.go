package graphql

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// rootFields is the table of the root fields the door answers from v2: the
// resolver, and whether a request without an API key may ask for it
// (public: the vendor answered the catalog without one). Every other root
// field of the schema is refused by the default path (refusal), with the
// reason v2 cannot do it: nothing to write for it here.
func rootFields() map[string]rootField {
	return map[string]rootField{
		// Queries.
		"Query.myself":             {resolve: queryMyself},
		"Query.pod":                {resolve: queryPod},
		"Query.gpuTypes":           {resolve: queryGPUTypes, public: true},
		"Query.dataCenters":        {resolve: queryDataCenters, public: true},
		"Query.serverlessGpuPools": {resolve: queryServerlessGPUPools, public: true},
		"Query.cpuFlavors":         {resolve: queryCPUFlavors, public: true},
		"Query.countryCodes":       {resolve: queryCountryCodes, public: true},
		"Query.podTemplates":       {resolve: queryPodTemplates},
		"Query.podTemplate":        {resolve: queryPodTemplate},

		// Mutations.
		"Mutation.podFindAndDeployOnDemand": {resolve: podCreateRoot(false)},
		"Mutation.deployCpuPod":             {resolve: podCreateRoot(true)},
		"Mutation.podResume":                {resolve: podResume},
		"Mutation.podStop":                  {resolve: podAction("StopPod")},
		"Mutation.podTerminate":             {resolve: podTerminate},
		"Mutation.saveTemplate":             {resolve: saveTemplate},
		"Mutation.deleteTemplate":           {resolve: deleteTemplate},
		"Mutation.saveEndpoint":             {resolve: saveEndpoint},
		"Mutation.deleteEndpoint":           {resolve: deleteEndpoint},
		"Mutation.updateEndpointTemplate":   {resolve: updateEndpointTemplate},
		"Mutation.updateUserSettings":       {resolve: updateUserSettings},
		"Mutation.saveRegistryAuth":         {resolve: saveRegistryAuth},
		"Mutation.deleteRegistryAuth":       {resolve: deleteRegistryAuth},
		"Mutation.podEditJob":               {resolve: podEditJob},
		"Mutation.createNetworkVolume":      {resolve: createNetworkVolume},
		"Mutation.deleteNetworkVolume":      {resolve: deleteNetworkVolume},
		"Mutation.createCluster":            {resolve: createCluster},
		"Mutation.deleteCluster":            {resolve: deleteCluster},
	}
}

// refusals are the reasons a root field without a resolver is refused,
// by the start of its name (the longest that matches); a root field
// matching none is refused with noV2Operation.
var refusals = []struct{ prefix, why string }{
	{"podRentInterruptable", "v2 has no interruptible (spot) pods, as v1's interruptible: true is refused; use podFindAndDeployOnDemand for an on-demand pod"},
	{"podBidResume", "v2 has no spot bids: use podResume to resume the pod on demand"},
	{"listing", "v2 has no hub: deploy the hub repository's image as a template (saveTemplate) and an endpoint (saveEndpoint)"},
	{"updateRegistryAuth", "v2 cannot change a registry credential: delete it (deleteRegistryAuth) and create another (saveRegistryAuth), then point the templates that use it at the new one"},
	{"myModel", noModelRepo},
	{"addModelToRepo", noModelRepo},
	{"removeModelFromRepo", noModelRepo},
	{"createModelRepoUpload", noModelRepo},
	{"completeModelRepoUpload", noModelRepo},
	{"updateModelVersionStatus", noModelRepo},
	{"allAiApiPublicConfigs", "v2 does not list the vendor's public endpoints"},
	{"machine", "v2 has no host API: machines are listed and managed by their hosts on the vendor's console"},
	{"flash", "v2 has no Flash apps, environments or builds (the vendor's serverless SDK manages them over its own API)"},
	{"createFlash", "v2 has no Flash apps, environments or builds (the vendor's serverless SDK manages them over its own API)"},
	{"deleteFlash", "v2 has no Flash apps, environments or builds (the vendor's serverless SDK manages them over its own API)"},
	{"prepareFlash", "v2 has no Flash apps, environments or builds (the vendor's serverless SDK manages them over its own API)"},
	{"finalizeFlash", "v2 has no Flash apps, environments or builds (the vendor's serverless SDK manages them over its own API)"},
	{"updateFlash", "v2 has no Flash apps, environments or builds (the vendor's serverless SDK manages them over its own API)"},
	{"deployBuild", "v2 has no Flash apps, environments or builds (the vendor's serverless SDK manages them over its own API)"},
	{"cpuTypes", "v2 lists CPU flavors, not CPU models: use cpuFlavors"},
}

const (
	noModelRepo   = "v2 has no model repository"
	noV2Operation = "v2 has no operation for it"
)

// refusal is the reason the root field name is not answered.
func refusal(name string) string {
	why, best := noV2Operation, 0
	for _, r := range refusals {
		if strings.HasPrefix(name, r.prefix) && len(r.prefix) > best {
			why, best = r.why, len(r.prefix)
		}
	}
	return why
}

// refuseRoot is the answer to a root field without a resolver: a GraphQL
// error with extensions.code NOT_SUPPORTED_BY_V2, counted in /usage
// (graphql_refused) as every refusal is.
func refuseRoot(ec *execCtx, f *ast.Field) (any, error) {
	return nil, ec.refuse("%s is not available through the gateway: %s", f.Name, refusal(f.Name))
}
