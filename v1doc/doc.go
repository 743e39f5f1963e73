// Package v1doc generates the gateway's own v1 OpenAPI 3.0 document and the
// HTML page that renders it (P10, docs/design.md), which the gateway serves
// without a key at GET /v1/openapi.json and GET /v1/docs. Both are generated
// once, at their first use, from translate's operation table (method, path,
// operationId, success status, public or not, the v2 calls made) and from
// translate.DescribeV1: the Go types of the v1 answers, described here by
// reflection, and the values translate accepts for v1's enumerations.
// Everything else the document says — summaries, query parameters, the
// declarations of the v1 request bodies, what the gateway does with each
// field, every deviation from v1 — is written here.
//
// What lives here: the OpenAPI model, its ordered JSON and the schema
// generator (openapi_schema.go), the request body declarations and the
// descriptions of answer fields (openapi_inputs.go), the document
// (openapi.go) and the page (docs.go). They are made once, so they use the
// standard library's encoders, not translate's fast JSON ones; the output is
// pinned byte for byte by testdata/openapi.golden.json and
// testdata/docs.golden.html (go test ./v1doc -run TestDocumentsMatchGolden
// -update-golden rewrites them after an intended change).
//
// What must not live here: HTTP — v1doc serves nothing; package proxy
// answers the two routes with the bytes For gives, with the content type
// and caching of translate.Operation — and translation rules: how a v1
// request or answer is translated is translate's alone, which v1doc only
// describes. v1doc imports translate; translate must not import v1doc.
//
// Why translate exports one function, DescribeV1, rather than its answer
// types or its internals: v1doc needs the shape of the answers
// (reflect.Type) and the enumeration values, not the means to build or
// encode answers. The types stay unexported and declared once, in
// translate; v1doc must not copy them, so that the document cannot drift
// from the answers the gateway writes.
package v1doc
