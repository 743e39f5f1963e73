package translate

import "context"

// getOpenAPIPlan is not translated yet: it answers 501.
func getOpenAPIPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// getDocsPlan is not translated yet: it answers 501.
func getDocsPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }
