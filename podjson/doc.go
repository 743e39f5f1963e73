// Package podjson is the gateway's hand-tuned JSON engine and the pod wire
// model it serves: v2 pods in, v1 pods out. The pod list is the gateway's
// hot path (GET /v1/pods, docs/design.md §10); this engine decodes and
// encodes it 2.8–3× faster than encoding/json/jsontext, validating every
// byte as encoding/json would.
//
// What lives here, layered as encoding/json's scanner, decoder and encoder:
//
//   - scanner.go: jreader, a validating reader over one JSON document
//     (whitespace, literals, objects, arrays, errors with their byte),
//     with strings.go, numbers.go, skip.go (values the decoder does not
//     keep, validated all the same) and keys.go (members recognised by
//     the order of the previous object of their kind, behind the key
//     tables of the decoder);
//   - decode.go: DecodePod and DecodePodList fill V2Pod; stream.go:
//     PodStream decodes a list pod by pod, from the whole answer or
//     through a window on a reader (InitReader), into reused PodStorage;
//   - model.go: the wire structs (V2Pod and its parts, V1Pod and its
//     parts) and R-Pod, the mapping of a v2 pod to a v1 pod (rpod.go);
//     args.go: H-args, the quoting of v1 dockerStartCmd into v2 args and
//     back (JoinArgs, SplitArgs);
//   - encode.go: AppendString and AppendFloat (JSON as encoding/json
//     writes it), AppendV1Pod and AppendV1PodOf (encodepod.go), the
//     dockerStartCmd writer (encodeargs.go) and ArgsMemo (argsmemo.go:
//     a list's dockerStartCmd written once per distinct args);
//   - bufpool.go: the pooled answer buffers (GetAnswerBuf, PooledBody,
//     ReleaseBody);
//   - check.go: CheckJSON, the checks of v1 request bodies that
//     encoding/json does not make (depth, duplicate keys, surrogates,
//     UTF-8), built on the scanner.
//
// Where R-Pod lives, and why here. How a v2 pod field maps to a v1 one
// is written twice, on purpose: FillV1Pod (rpod.go) is the reference, a
// plain struct-to-struct mapping that AppendV1Pod writes field by field;
// AppendV1PodOf (encodepod.go) writes the same v1 JSON straight from a
// V2Pod, in one pass, for the list. The fused encoder cannot live apart
// from its reference: it is the reference spelled for speed, built on
// the same helpers (H-args' word writer, publicIP, the port mappings),
// and the fuzz targets that hold it to the reference must reach both.
// So both are here, and this package is the one place to change how a
// pod field maps: change FillV1Pod and AppendV1PodOf together, and
// FuzzPodJSONEquivalence (the reference against encoding/json, and the
// fused encoder against the reference, byte for byte), FuzzPodKeyOrder
// and FuzzStreamPodList say whether they still agree. What is the plans'
// business stays in package translate: which pods a list keeps
// (filters), the include* expansions that fill V1Pod's Machine,
// NetworkVolume and Template, and the templateId the fact store adds.
//
// What must not live here: anything of HTTP (status codes, requests,
// results, headers: failures are plain Go errors, which translate turns
// into answers), translation policy beyond the pod wire model, and any
// import beyond the standard library. Package translate imports this one,
// never the reverse.
//
// unsafe: this is the only package of the gateway that imports it. Each
// use has a one-line comment beside it ("unsafe: ...") saying what it
// relies on and which fuzz target guards it; a new use needs the same.
package podjson
