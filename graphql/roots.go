package graphql

import (
	"github.com/vektah/gqlparser/v2/ast"
)

// rootFields is the table of every root field the schema declares: the
// resolver that answers it from v2, and whether a request without an API
// key may ask for it (public: the vendor answered the catalog without
// one). A root field v2 cannot perform is refused with the reason.
func rootFields() map[string]rootField {
	return map[string]rootField{
		// Queries.
		"Query.myself":                {resolve: queryMyself},
		"Query.pod":                   {resolve: queryPod},
		"Query.gpuTypes":              {resolve: notYet, public: true},
		"Query.dataCenters":           {resolve: notYet, public: true},
		"Query.serverlessGpuPools":    {resolve: notYet, public: true},
		"Query.podTemplates":          {resolve: queryPodTemplates},
		"Query.podTemplate":           {resolve: queryPodTemplate},
		"Query.listings":              {resolve: refused("v2 has no hub: deploy the hub repository's image as a template (saveTemplate) and an endpoint (saveEndpoint)"), public: true},
		"Query.listing":               {resolve: refused("v2 has no hub: deploy the hub repository's image as a template (saveTemplate) and an endpoint (saveEndpoint)"), public: true},
		"Query.listingFromRepo":       {resolve: refused("v2 has no hub: deploy the hub repository's image as a template (saveTemplate) and an endpoint (saveEndpoint)"), public: true},
		"Query.myModels":              {resolve: refused(noModelRepo)},
		"Query.myModel":               {resolve: refused(noModelRepo)},
		"Query.allAiApiPublicConfigs": {resolve: refused("v2 does not list the vendor's public endpoints"), public: true},

		// Mutations.
		"Mutation.podFindAndDeployOnDemand": {resolve: podCreateRoot(false)},
		"Mutation.deployCpuPod":             {resolve: podCreateRoot(true)},
		"Mutation.podRentInterruptable":     {resolve: refused("v2 has no interruptible (spot) pods, as v1's interruptible: true is refused; use podFindAndDeployOnDemand for an on-demand pod")},
		"Mutation.podResume":                {resolve: podResume},
		"Mutation.podBidResume":             {resolve: refused("v2 has no spot bids: use podResume to resume the pod on demand")},
		"Mutation.podStop":                  {resolve: podAction("StopPod")},
		"Mutation.podTerminate":             {resolve: podTerminate},
		"Mutation.saveTemplate":             {resolve: saveTemplate},
		"Mutation.deleteTemplate":           {resolve: deleteTemplate},
		"Mutation.saveEndpoint":             {resolve: saveEndpoint},
		"Mutation.deleteEndpoint":           {resolve: deleteEndpoint},
		"Mutation.updateEndpointTemplate":   {resolve: updateEndpointTemplate},
		"Mutation.updateUserSettings":       {resolve: updateUserSettings},
		"Mutation.saveRegistryAuth":         {resolve: saveRegistryAuth},
		"Mutation.updateRegistryAuth":       {resolve: refused("v2 cannot change a registry credential: delete it (deleteRegistryAuth) and create another (saveRegistryAuth), then point the templates that use it at the new one")},
		"Mutation.deleteRegistryAuth":       {resolve: deleteRegistryAuth},
		"Mutation.addModelToRepo":           {resolve: refused(noModelRepo)},
		"Mutation.removeModelFromRepo":      {resolve: refused(noModelRepo)},
		"Mutation.createModelRepoUpload":    {resolve: refused(noModelRepo)},
		"Mutation.completeModelRepoUpload":  {resolve: refused(noModelRepo)},
		"Mutation.updateModelVersionStatus": {resolve: refused(noModelRepo)},
	}
}

const noModelRepo = "v2 has no model repository"

// refused is the resolver of a root field v2 cannot perform.
func refused(why string) func(ec *execCtx, f *ast.Field) (any, error) {
	return func(ec *execCtx, f *ast.Field) (any, error) {
		return nil, ec.refuse("%s is not available through the gateway: %s", f.Name, why)
	}
}

// notYet is a root field whose translation is not built yet.
func notYet(ec *execCtx, f *ast.Field) (any, error) {
	return nil, ec.refuse("%s is not translated by this gateway yet", f.Name)
}
