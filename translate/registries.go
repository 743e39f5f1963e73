package translate

import "context"

// createRegistryPlan is not translated yet: it answers 501.
func createRegistryPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// listRegistriesPlan is not translated yet: it answers 501.
func listRegistriesPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// getRegistryPlan is not translated yet: it answers 501.
func getRegistryPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// deleteRegistryPlan is not translated yet: it answers 501.
func deleteRegistryPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }
