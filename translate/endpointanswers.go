package translate

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/v1gateway/v1gateway/podjson"
)

// The v1 Endpoint answers of the endpoint operations (endpoints.go): an
// answer is built from the v2 endpoints (R-Endpoint, endpointmodel.go) plus
// what needs other calls — gpuTypeIds (the GPU catalog), version, workers
// and the template — and what the fact store remembers (templateId).

// endpointAnswers maps v2 endpoints to v1 ones and adds what needs other
// calls: gpuTypeIds (the catalog, cat when already read), version, workers
// and template. Failures of the optional parts answer the field null (or,
// for a template, the view synthesised from the endpoint) with a warning;
// a failure of requested workers fails the request, but on a create.
type endpointAnswers struct {
	ctx   context.Context
	req   *Request
	c     Caller
	cat   *v2GPUPoolCatalog
	notes *Result
	// read holds templates already read by the plan (a create reads the
	// one it is made from), by id: templateViews does not read them again.
	read map[string]*v2TemplateForPod
	// created: the answer is of an endpoint v2 has just created. Its
	// workers are best effort: a failing read leaves them out with a
	// warning (and version from the releases) rather than report a
	// failure that would invite a second create (P3, P4).
	created bool
}

func (ea *endpointAnswers) warn(code, s string) { ea.notes.warn(code, s) }

func (ea *endpointAnswers) build(eps []v2Endpoint, q *endpointQuery, versions bool) ([]v1Endpoint, *Result) {
	out := make([]v1Endpoint, len(eps))
	needCat := false
	var lb []string
	for i := range eps {
		out[i] = v1EndpointFrom(&eps[i])
		if eps[i].GPU != nil {
			needCat = true
		}
		if eps[i].Type == "LOAD_BALANCER" {
			lb = append(lb, eps[i].ID)
		}
	}
	if len(lb) > 0 {
		ea.warn(CodeLoadBalancerEndpoint, "endpoint(s) "+strings.Join(lb, ", ")+" are v2 LOAD_BALANCER endpoints: they serve HTTP on their own URL and accept no queue jobs (/run); v1 cannot describe them")
	}
	if needCat && ea.cat == nil {
		cat, r := readGPUPools(ea.ctx, ea.req, ea.c, "gpuTypeIds")
		if r != nil {
			ea.warn(CodeGPUTypesOmitted, "gpuTypeIds answered null (unknown): "+message1(r))
		}
		ea.cat = cat
	}
	for i := range eps {
		e := &eps[i]
		if e.GPU != nil && ea.cat != nil {
			out[i].GpuTypeIDs = ea.cat.eligible(e.GPU.Pools, e.GPU.ExcludedTypes)
		}
		if q != nil && q.includeTemplate {
			out[i].Template = endpointTemplateView(e)
		}
	}
	switch {
	case q != nil && q.includeWorkers:
		for i := range eps {
			if r := ea.workers(&out[i]); r != nil {
				if !ea.created {
					return nil, r
				}
				ea.warn(CodeAnswerUnreadable, "workers omitted: the endpoint was created, but its v2 worker list could not be read: "+message1(r))
				ea.versions(out[i : i+1])
				continue
			}
			workerContainer(out[i].Workers, &eps[i])
			priceWorkers(out[i].Workers, ea.cat)
		}
	case versions:
		ea.versions(out)
	}
	return out, nil
}

// workers fills workers and version from GET /v2/serverless/{id}/workers.
func (ea *endpointAnswers) workers(out *v1Endpoint) *Result {
	if !ValidID(out.ID) {
		return nil // v2 answered an endpoint without a usable id: nothing to ask about
	}
	a, err := ea.c.Call(ea.ctx, V2Call{Method: http.MethodGet, Path: V2Path("/v2/serverless/%s/workers", out.ID)})
	if err != nil {
		return FromCallError(err)
	}
	if a.Status == http.StatusNotFound {
		return nil // deleted meanwhile: nothing to add
	}
	if !a.OK() {
		return FromV2Error(ea.req.Op, a)
	}
	list, r := decodeV2[v2EndpointWorkersAnswer](a, "a worker list")
	if r != nil {
		return r
	}
	ws := make([]podWorker, len(list.Workers))
	for i := range list.Workers {
		ws[i] = podWorker{list.Workers[i], out.ID}
	}
	out.Workers = filterWorkers(&podQuery{}, ws, true)
	if out.Workers == nil {
		out.Workers = []v1Worker{} // asked for: none is [], not an absent key
	}
	out.Version = list.EndpointVersion
	return nil
}

// templates gives the workers of each endpoint its templateId (a v1 worker
// is a pod made from its endpoint's template; clients that decode lists
// strictly reject a worker without it), and says which endpoints have none
// known (template_id_unknown): v2 keeps no link from an endpoint to its
// template, and the gateway knows it only for the endpoints created or
// updated through it (P8). Nothing is invented.
func (ea *endpointAnswers) templates(out []v1Endpoint, workers bool) {
	ea.templateViews(out)
	var unknown []string
	for i := range out {
		e := &out[i]
		for j := range e.Workers {
			e.Workers[j].TemplateID = e.TemplateID
		}
		if e.TemplateID == "" && e.ID != "" {
			unknown = append(unknown, e.ID)
		}
	}
	if len(unknown) == 0 {
		return
	}
	what := "endpoint " + unknown[0]
	if len(unknown) > 1 {
		shown := unknown
		if len(shown) > 10 {
			shown = append(shown[:10:10], fmt.Sprintf("… (%d more)", len(unknown)-10))
		}
		what = "endpoints " + strings.Join(shown, ", ")
	}
	if workers {
		what += map[bool]string{true: " and its workers", false: " and their workers"}[len(unknown) == 1]
	}
	ea.warn(CodeTemplateIDUnknown, "templateId omitted for "+what+": v2 keeps no link from an endpoint to its template, and the gateway knows it only for endpoints created or updated through it (an update with templateId records it)")
}

// maxTemplateViews bounds the templates one endpoint answer reads for
// includeTemplate (P12): beyond it, the view synthesised from the endpoint
// stays.
const maxTemplateViews = 10

// templateViews answers includeTemplate with the endpoint's template itself
// when the gateway knows which it is (the fact store, P8), as v1 did: one
// GET /v2/templates/{id} per distinct template, with what the gateway
// remembers of it (readme, a volume removed). A template v2 cannot give
// keeps the view synthesised from the endpoint's own settings, which the
// template's rollouts keep equal to it.
func (ea *endpointAnswers) templateViews(out []v1Endpoint) {
	var ids []string
	for i := range out {
		id := string(out[i].TemplateID)
		if out[i].Template != nil && ValidID(id) && !slices.Contains(ids, id) && len(ids) < maxTemplateViews {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return
	}
	known := lookupFacts(ea.ctx, ea.req, FactTemplate, ids)
	views := make(map[string]v1Template, len(ids))
	for _, id := range ids {
		if t, ok := ea.read[id]; ok && t.ID == id {
			views[id] = v1TemplateFrom(t, known[id].Template)
			continue
		}
		a, err := ea.c.Call(ea.ctx, V2Call{Method: http.MethodGet, Path: V2Path("/v2/templates/%s", id)})
		if err != nil || !a.OK() {
			continue
		}
		t, r := decodeV2[v2TemplateForPod](a, "a template")
		if r != nil || t.ID != id {
			continue
		}
		views[id] = v1TemplateFrom(t, known[id].Template)
	}
	for i := range out {
		if v, ok := views[string(out[i].TemplateID)]; ok && out[i].Template != nil {
			out[i].Template = &v
		}
	}
}

// versions fills version from one GET /v2/serverless/{id}/releases per
// endpoint, best effort: it stops at the first 429 and never fails.
func (ea *endpointAnswers) versions(out []v1Endpoint) {
	var failed []string
	for i := range out {
		if !ValidID(out[i].ID) {
			continue // v2 answered an endpoint without a usable id: nothing to ask about
		}
		a, err := ea.c.Call(ea.ctx, V2Call{Method: http.MethodGet, Path: V2Path("/v2/serverless/%s/releases", out[i].ID)})
		switch {
		case err != nil:
			failed = append(failed, out[i].ID+" ("+err.Error()+")")
			continue
		case a.Status == http.StatusTooManyRequests:
			ea.warn(CodeVersionOmitted, "version answered null (unknown): the v2 rate limit was reached while reading the releases")
			return
		case a.Status == http.StatusNotFound:
			continue
		case !a.OK():
			failed = append(failed, out[i].ID+" ("+ProblemMessage(a.Body, a.Status)+")")
			continue
		}
		v, r := decodeV2[v2VersionAnswer](a, "a release list")
		if r != nil {
			failed = append(failed, out[i].ID+" (unreadable answer)")
			continue
		}
		out[i].Version = v.EndpointVersion
	}
	if len(failed) > 0 {
		ea.warn(CodeVersionOmitted, "version answered null (unknown): the releases of "+strings.Join(failed, ", ")+" could not be read")
	}
}

// oneEndpointAnswer is the v1 answer for one v2 endpoint (create, get,
// update), with version.
func (ea *endpointAnswers) one(e *v2Endpoint, q *endpointQuery, templateID string) *Result {
	out, r := ea.build([]v2Endpoint{*e}, q, true)
	if r != nil {
		return withNotes(r, ea.notes)
	}
	if templateID != "" {
		out[0].TemplateID = podjson.NullableString(templateID)
		if out[0].Template != nil {
			out[0].Template.ID = templateID
		}
	} else {
		fillEndpointTemplates(ea.ctx, ea.req, out)
	}
	ea.templates(out, q != nil && q.includeWorkers)
	res := JSON(http.StatusOK, &out[0])
	res.Model = &EndpointModel{V2: e, V1: &out[0]}
	return withNotes(res, ea.notes)
}
