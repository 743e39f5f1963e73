package translate

import "context"

// podBillingPlan is not translated yet: it answers 501.
func podBillingPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// endpointBillingPlan is not translated yet: it answers 501.
func endpointBillingPlan(_ context.Context, req *Request, _ Caller) *Result {
	return notTranslated(req)
}

// networkVolumeBillingPlan is not translated yet: it answers 501.
func networkVolumeBillingPlan(_ context.Context, req *Request, _ Caller) *Result {
	return notTranslated(req)
}
