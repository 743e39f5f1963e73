package graphql

import (
	"github.com/vektah/gqlparser/v2/ast"
)

// The account: Query.myself and its fields. v2 has no account profile
// (id, email, balance, notification settings): those read null with a
// warning, but for id, which is the gateway's key id.

// queryMyself is Query.myself: an object whose fields each read what they
// need when selected.
func queryMyself(ec *execCtx, f *ast.Field) (any, error) {
	return &userObject{}, nil
}

type userObject struct{}

func (u *userObject) typeName() string { return "User" }
func (u *userObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(userFields, "User", u, ec, f)
}

var userFields = fieldTable[*userObject]{
	"id": func(_ *userObject, ec *execCtx, _ *ast.Field) (any, error) {
		if ec.env.KeyID == "" {
			return nil, nil
		}
		return ec.env.KeyID, nil
	},
	"pods":              func(_ *userObject, ec *execCtx, f *ast.Field) (any, error) { return userPods(ec, f) },
	"email":             unansweredField[*userObject]("User", "email"),
	"clientBalance":     unansweredField[*userObject]("User", "clientBalance"),
	"spendLimit":        unansweredField[*userObject]("User", "spendLimit"),
	"notifyPodsStale":   unansweredField[*userObject]("User", "notifyPodsStale"),
	"notifyPodsGeneral": unansweredField[*userObject]("User", "notifyPodsGeneral"),
	"notifyLowBalance":  unansweredField[*userObject]("User", "notifyLowBalance"),
}
