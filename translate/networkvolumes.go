package translate

import "context"

// createNetworkVolumePlan is not translated yet: it answers 501.
func createNetworkVolumePlan(_ context.Context, req *Request, _ Caller) *Result {
	return notTranslated(req)
}

// listNetworkVolumesPlan is not translated yet: it answers 501.
func listNetworkVolumesPlan(_ context.Context, req *Request, _ Caller) *Result {
	return notTranslated(req)
}

// getNetworkVolumePlan is not translated yet: it answers 501.
func getNetworkVolumePlan(_ context.Context, req *Request, _ Caller) *Result {
	return notTranslated(req)
}

// updateNetworkVolumePlan is not translated yet: it answers 501.
func updateNetworkVolumePlan(_ context.Context, req *Request, _ Caller) *Result {
	return notTranslated(req)
}

// deleteNetworkVolumePlan is not translated yet: it answers 501.
func deleteNetworkVolumePlan(_ context.Context, req *Request, _ Caller) *Result {
	return notTranslated(req)
}
