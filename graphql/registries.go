package graphql

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/translate"
)

// Registry credentials: saveRegistryAuth (v1 CreateContainerRegistryAuth)
// and deleteRegistryAuth (v1 DeleteContainerRegistryAuth). The username
// and password go to the plan and on to v2 once; the door never names
// them in an error, a warning or a note (nor does the plan, R-Registry).
// updateRegistryAuth is refused (roots.go): v2 cannot change a credential.

// saveRegistryAuth is saveRegistryAuth(input: {name, username,
// password}), answering the credential {id, name}.
func saveRegistryAuth(ec *execCtx, f *ast.Field) (any, error) {
	in := ec.rootInput(f)
	body := map[string]any{}
	for _, k := range []string{"name", "username", "password"} {
		if s, ok := in.str(k); ok {
			body[k] = s
		}
	}
	res, err := ec.run("CreateContainerRegistryAuth", nil, nil, body)
	if err != nil {
		return nil, err
	}
	reg, ok := res.Model.(translate.V1Registry)
	if !ok {
		return nil, nil
	}
	return &registryObject{r: reg}, nil
}

// deleteRegistryAuth is deleteRegistryAuth(registryAuthId). v2 also
// unsets the credential on the templates that used it (H12: the plan
// warns). The vendor answered null.
func deleteRegistryAuth(ec *execCtx, f *ast.Field) (any, error) {
	id, _ := ec.args(f)["registryAuthId"].(string)
	if _, err := ec.run("DeleteContainerRegistryAuth", map[string]string{"containerRegistryAuthId": id}, nil, nil); err != nil {
		return nil, err
	}
	return nil, nil
}

// registryObject is a ContainerRegistryAuth (R-Registry: id and name).
type registryObject struct{ r translate.V1Registry }

func (o *registryObject) typeName() string { return "ContainerRegistryAuth" }
func (o *registryObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(registryFields, "ContainerRegistryAuth", o, ec, f)
}

var registryFields = fieldTable[*registryObject]{
	"id":   func(o *registryObject, _ *execCtx, _ *ast.Field) (any, error) { return o.r.ID, nil },
	"name": func(o *registryObject, _ *execCtx, _ *ast.Field) (any, error) { return o.r.Name, nil },
}

// registryObjects is User.containerRegistryCreds: v1
// ListContainerRegistryAuths (v2 GET /v2/registries): id and name, as v2
// tells no more (userId and registryAuth read null).
func (ec *execCtx) registryObjects() (any, error) {
	res, err := ec.run("ListContainerRegistryAuths", nil, nil, nil)
	if err != nil {
		return nil, err
	}
	list, _ := res.Model.([]translate.V1Registry)
	out := make([]object, len(list))
	for i := range list {
		out[i] = &registryObject{r: list[i]}
	}
	return out, nil
}
