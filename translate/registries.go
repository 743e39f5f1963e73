package translate

import (
	"context"
	"net/http"
	"strings"
)

// The four v1 container registry auth operations (docs/design.md §8, #31–#34) →
// /v2/registries. Credentials are write-only on both sides: username and
// password are sent to v2 once and never appear in an answer, a message or a
// header (R-Registry is {id, name}).

// registryReserved are ids that address another v2 route under
// /v2/registries/ (the ECR delegations, beta): never forwarded (P9).
var registryReserved = []string{"delegations"}

var registryCreateFields = setOf("name", "username", "password")

// v1Registry is the v1 ContainerRegistryAuth (R-Registry).
type v1Registry struct {
	ID   string `json:"id" doc:"Passed through unchanged from v2."`
	Name string `json:"name"`
}

// v2Registry is a v2 Registry.
type v2Registry struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type v2RegistryList struct {
	Registries []v2Registry `json:"registries"`
}

// v2CreateRegistryBody is v2 CreateRegistryRequest (additionalProperties:
// false, all three required, minLength 1).
type v2CreateRegistryBody struct {
	Name     string `json:"name"`
	Username string `json:"username"`
	Password string `json:"password"`
}

// registryDeleteWarning is P7/H12: what v2 does on delete beyond v1's
// documentation.
const registryDeleteWarning = "v2 also removes this credential from every template that referenced it (their registry becomes null): pods created later from those templates cannot pull private images until a credential is set again"

// parseRegistryCreate validates a v1 ContainerRegistryAuthCreateInput
// (required: name, username, password). Messages name fields, never values.
func parseRegistryCreate(body []byte) (*v2CreateRegistryBody, []string, string) {
	b, msg := parseBodyObject(body, "ContainerRegistryAuthCreateInput")
	if b == nil {
		return nil, nil, msg
	}
	out := &v2CreateRegistryBody{}
	out.Name, _ = b.str("name")
	out.Username, _ = b.str("username")
	out.Password, _ = b.str("password")
	b.require("name", "username", "password")
	if len(b.errs) > 0 {
		return nil, nil, "invalid ContainerRegistryAuthCreateInput: " + strings.Join(b.errs, "; ")
	}
	return out, b.unknown(registryCreateFields), ""
}

func registryAnswer(a *V2Answer) *Result {
	reg, r := decodeV2[v2Registry](a, "a registry credential")
	if r != nil {
		return r
	}
	return JSON(http.StatusOK, v1Registry(*reg))
}

// ---------------------------------------------------------------------------
// #31 POST /containerregistryauth

func createRegistryPlan(ctx context.Context, req *Request, c Caller) *Result {
	body, unknown, msg := parseRegistryCreate(req.Body)
	if body == nil {
		return Fail(http.StatusBadRequest, msg)
	}
	notes := &Result{}
	warnOutside(notes, "ContainerRegistryAuthCreateInput", unknown)
	a, r := callV2(ctx, req, c, http.MethodPost, "/v2/registries", body)
	if r != nil {
		return withNotes(r, notes)
	}
	return withNotes(registryAnswer(a), notes)
}

// ---------------------------------------------------------------------------
// #32 GET /containerregistryauth

func listRegistriesPlan(ctx context.Context, req *Request, c Caller) *Result {
	a, r := callV2(ctx, req, c, http.MethodGet, "/v2/registries", nil)
	if r != nil {
		return r
	}
	list, r := decodeV2[v2RegistryList](a, "a registry credential list")
	if r != nil {
		return r
	}
	out := make([]v1Registry, len(list.Registries))
	for i, reg := range list.Registries {
		out[i] = v1Registry(reg)
	}
	return JSON(http.StatusOK, out)
}

// ---------------------------------------------------------------------------
// #33 GET /containerregistryauth/{containerRegistryAuthId}

func getRegistryPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := resourceID(req, "containerRegistryAuthId", registryReserved...)
	if r != nil {
		return r
	}
	a, r := callV2(ctx, req, c, http.MethodGet, V2Path("/v2/registries/%s", id), nil)
	if r != nil {
		return r
	}
	return registryAnswer(a)
}

// ---------------------------------------------------------------------------
// #34 DELETE /containerregistryauth/{containerRegistryAuthId}

func deleteRegistryPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := resourceID(req, "containerRegistryAuthId", registryReserved...)
	if r != nil {
		return r
	}
	if _, r := callV2(ctx, req, c, http.MethodDelete, V2Path("/v2/registries/%s", id), nil); r != nil {
		return r
	}
	res := &Result{Status: http.StatusNoContent}
	res.warn(CodeRegistryUnset, registryDeleteWarning)
	return res
}
