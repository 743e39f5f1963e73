package graphql

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/translate"
)

// podEditJob is podEditJob(input: {podId, ...}): v1 UpdatePod (v2 PATCH
// /v2/pods/{id}, which may reset the pod, as the vendor's edit did),
// answering the pod: GraphQL PodEditJobInput's fields are v1
// PodUpdateInput's, dockerArgs included (read as PATCH /v1/pods reads it,
// the JSON form's entrypoint refused as dockerEntrypoint by P1); the plan
// refuses what v2 cannot do.
func podEditJob(ec *execCtx, f *ast.Field) (any, error) {
	in := ec.rootInput(f)
	id, _ := in.str("podId")
	b := map[string]any{}
	for _, k := range []string{"imageName", "volumeMountPath", "containerRegistryAuthId"} {
		if s, ok := in.str(k); ok {
			b[k] = s
		}
	}
	for _, k := range []string{"containerDiskInGb", "volumeInGb"} {
		if n, ok := in.int(k); ok {
			b[k] = n
		}
	}
	if s, ok := in.str("ports"); ok {
		b["ports"] = nonNilList(portList(s))
	}
	if in.has("env") {
		b["env"] = envMap(in.list("env"))
	}
	if s, ok := in.str("dockerArgs"); ok {
		b["dockerArgs"] = s // read as v1 PATCH /pods reads it: a shell line, or the JSON form
	}
	if n, ok := in.int("port"); ok {
		ec.warn(translate.CodeUnknownFields, fmt.Sprintf("podEditJob: port %d was not applied: send the pod's ports as ports (\"8888/http,22/tcp\")", n))
	}
	res, err := ec.run("UpdatePod", map[string]string{"podId": id}, nil, b)
	if err != nil {
		return nil, err
	}
	return podObjectOf(res.Model), nil
}
