package translate

import "context"

// createTemplatePlan is not translated yet: it answers 501.
func createTemplatePlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// listTemplatesPlan is not translated yet: it answers 501.
func listTemplatesPlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// getTemplatePlan is not translated yet: it answers 501.
func getTemplatePlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// updateTemplatePlan is not translated yet: it answers 501.
func updateTemplatePlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }

// deleteTemplatePlan is not translated yet: it answers 501.
func deleteTemplatePlan(_ context.Context, req *Request, _ Caller) *Result { return notTranslated(req) }
