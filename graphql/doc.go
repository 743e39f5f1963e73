// Package graphql is the gateway's second front door (design P11): it
// answers the vendor's retired GraphQL API from v2 for the clients that
// still speak it (runpod-python, runpodctl, runpod-mcp).
//
// What lives here: the vendor's whole schema (schema.graphql) and the
// door's additions released clients send (schema_door.graphql), parsing
// and validation against them (gqlparser), the
// executor that writes exactly the fields a document selects (exec.go),
// and one table of resolvers per GraphQL object, file by resource (pods,
// templates, endpoints, registries, user, catalog, cpus, volumes,
// clusters), each beside the code that turns its GraphQL inputs into the
// v1 body of a translate plan. Two default paths carry the rest of the
// schema: a field no table binds reads null and is named in the warnings
// (resolveIn, unansweredWriter), a root field without a resolver is
// refused with the reason (roots.go). Where no v1 operation exists (the
// catalogs, clusters), a root field runs a read of translate's
// (translate/catalog.go, doorreads.go, clusters.go) through the same
// Caller.
//
// What must not: HTTP (the proxy package serves /graphql and hands the
// door an Env: the request's Caller, options and fact store), and any
// translation rule of its own. A root field runs the plan of a v1
// operation (translate) and reads its model, so GPU choice,
// never-create-twice, refusals and notes are the v1 route's; a resolver
// that re-implements a v1 translation is a bug of the layout.
package graphql
