package translate

import "context"

// createEndpointPlan is not translated yet: it answers 501.
func createEndpointPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// listEndpointsPlan is not translated yet: it answers 501.
func listEndpointsPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// getEndpointPlan is not translated yet: it answers 501.
func getEndpointPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// updateEndpointPlan is not translated yet: it answers 501.
func updateEndpointPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// deleteEndpointPlan is not translated yet: it answers 501.
func deleteEndpointPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }
