package translate

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// The six v1 template operations (docs/design.md §8, #19–#24) against
// /v2/templates. Bodies are read in templatebody.go; R-Template is in
// templatemodel.go.

const (
	// catalogTemplateCap is the most templates one GET /v2/catalog/templates
	// returns ("Pagination is not yet supported").
	catalogTemplateCap = 100

	warnTemplateRollout = "template edits no longer roll out to serverless endpoints in v2, and the gateway knows no endpoint created or updated from this template through it, so the edit reached none: v2 endpoints keep the settings the template had when they were created " +
		"(update an endpoint made elsewhere with PATCH /v1/endpoints/{endpointId} {\"templateId\": ...} to apply them)"
)

// templateID returns the v1 templateId path parameter, or the 404 for an id
// that cannot be forwarded (P9).
func templateID(req *Request) (string, *Result) {
	id := req.Params["templateId"]
	if !ValidID(id) {
		return "", Fail(http.StatusNotFound, fmt.Sprintf("invalid templateId %q", id))
	}
	return id, nil
}

// templateQuery is the v1 query of GET /templates and GET /templates/{id}.
type templateQuery struct {
	endpointBound, public, runpod bool
}

func parseTemplateQuery(v url.Values) (*templateQuery, string) {
	var errs []string
	q := &templateQuery{
		endpointBound: queryBool(v, "includeEndpointBoundTemplates", &errs),
		public:        queryBool(v, "includePublicTemplates", &errs),
		runpod:        queryBool(v, "includeRunpodTemplates", &errs),
	}
	if len(errs) > 0 {
		return nil, strings.Join(errs, "; ")
	}
	return q, ""
}

func templateAnswer(status int, t *v2TemplateForPod, fact *TemplateFact) *Result {
	out := v1TemplateFrom(t, fact)
	res := JSON(status, &out)
	res.Model = &TemplateModel{V2: t, V1: &out}
	return res
}

// templateNotes gathers the warnings and the P1 decision shared by create
// and update: nil Result when the request may go on.
func templateNotes(req *Request, in *templateInput, schema string) (*Result, *Result) {
	notes := &Result{}
	if r := decideUntranslatable(req, in.untrans, untranslatableTemplate, notes); r != nil {
		return nil, r
	}
	warnOutside(notes, schema, in.unknownKeys)
	if in.readme != nil && *in.readme != "" {
		switch {
		case req.Facts == nil:
			notes.warn(CodeReadmeDropped, warnReadme)
		case len(*in.readme) > maxReadmeBytes:
			notes.warn(CodeReadmeDropped, warnReadmeLong)
		}
	}
	return notes, nil
}

// readmeFact is the readme the fact store keeps of one sent (nil: none
// sent, or too long to keep).
func readmeFact(sent *string) *string {
	if sent == nil || len(*sent) > maxReadmeBytes {
		return nil
	}
	return ptrTo(*sent)
}

// ---------------------------------------------------------------------------
// #19 POST /templates

func createTemplatePlan(ctx context.Context, req *Request, c Caller) *Result {
	in, r := parseTemplateCreate(req.Body)
	if in == nil {
		return r
	}
	notes, r := templateNotes(req, &in.templateInput, "TemplateCreateInput")
	if r != nil {
		return r
	}
	a, err := podCall(ctx, c, http.MethodPost, "/v2/templates", nil, in.body)
	if err != nil {
		r := FromCallError(err)
		r.Body = EncodeV1Error(message1(r) + fmt.Sprintf("; the template may or may not have been created: check GET /v1/templates for %q before creating it again", in.body.Name))
		return withNotes(r, notes)
	}
	if !a.OK() {
		return withNotes(FromV2Error(req.Op, a), notes)
	}
	t, r := decodeV2[v2TemplateForPod](a, "a template")
	if r != nil {
		return withNotes(r, notes)
	}
	// v2 keeps no readme: the gateway remembers it ("" when none was
	// sent, as v1 answered such a template), P8.
	var fact *TemplateFact
	if req.Facts != nil {
		readme := ptrTo("")
		if in.readme != nil {
			readme = readmeFact(in.readme)
		}
		fact = &TemplateFact{Readme: readme}
		recordTemplateFact(ctx, req, t.ID, *fact)
	}
	return withNotes(templateAnswer(http.StatusOK, t, fact), notes)
}

// ---------------------------------------------------------------------------
// #20 GET /templates

func listTemplatesPlan(ctx context.Context, req *Request, c Caller) *Result {
	q, msg := parseTemplateQuery(req.Query)
	if msg != "" {
		return Fail(http.StatusBadRequest, msg)
	}
	notes := &Result{}
	// includeEndpointBoundTemplates cannot be applied: v2 has no "bound"
	// flag and no endpoint → template link. Every owned template is listed.
	type slice struct {
		source string // "" for the owned templates
		runpod bool
	}
	slices := []slice{{}}
	if q.runpod {
		slices = append(slices, slice{"official", true})
	}
	if q.public {
		slices = append(slices, slice{"verified", false}, slice{"community", false})
	}
	var out []v1Template
	var v2s []*v2TemplateForPod
	var sources []string
	var known map[string]Fact // of the owned templates
	seen := map[string]bool{}
	for _, s := range slices {
		call := V2Call{Method: http.MethodGet, Path: "/v2/templates"}
		if s.source != "" {
			call = V2Call{Method: http.MethodGet, Path: "/v2/catalog/templates", Query: url.Values{"source": {s.source}}}
		}
		a, err := c.Call(ctx, call)
		if err != nil {
			return withNotes(FromCallError(err), notes)
		}
		if !a.OK() {
			r := FromV2Error(req.Op, a)
			if a.Status == http.StatusNotFound {
				r.Status = http.StatusBadGateway
			}
			return withNotes(r, notes)
		}
		list, r := decodeV2[v2TemplateList](a, "a template list")
		if r != nil {
			return withNotes(r, notes)
		}
		if s.source != "" && len(list.Templates) >= catalogTemplateCap {
			notes.warn(CodeCatalogCapped, fmt.Sprintf("the v2 public template catalog (source %s) returns at most %d templates: the list may be incomplete", s.source, catalogTemplateCap))
		}
		if s.source == "" && req.Facts != nil {
			ids := make([]string, len(list.Templates))
			for i := range list.Templates {
				ids[i] = list.Templates[i].ID
			}
			known = lookupFacts(ctx, req, FactTemplate, ids)
		}
		for i := range list.Templates {
			t := &list.Templates[i]
			if seen[t.ID] {
				continue // owned entries win, then the first catalog slice
			}
			seen[t.ID] = true
			var fact *TemplateFact
			if s.source == "" {
				fact = known[t.ID].Template
			}
			v := v1TemplateFrom(t, fact)
			v.IsRunpod = ptrTo(s.runpod)
			out = append(out, v)
			v2s = append(v2s, t)
			sources = append(sources, s.source)
		}
	}
	if out == nil {
		out = []v1Template{}
	}
	res := JSON(http.StatusOK, out)
	models := make([]TemplateModel, len(out))
	for i := range out {
		models[i] = TemplateModel{V2: v2s[i], V1: &out[i], Catalog: sources[i]}
	}
	res.Model = models
	return withNotes(res, notes)
}

// ---------------------------------------------------------------------------
// #21 GET /templates/{templateId}

func getTemplatePlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := templateID(req)
	if r != nil {
		return r
	}
	// v1's include* flags have no documented effect on a GET by id: they
	// are validated and ignored (v2 serves owned and public templates).
	if _, msg := parseTemplateQuery(req.Query); msg != "" {
		return Fail(http.StatusBadRequest, msg)
	}
	t, r := getV2[v2TemplateForPod](ctx, req, c, V2Path("/v2/templates/%s", id), "a template")
	if r != nil {
		return r
	}
	return templateAnswer(http.StatusOK, t, templateFact(ctx, req, id))
}

// ---------------------------------------------------------------------------
// #22 / #24 PATCH /templates/{templateId}, POST /templates/{templateId}/update

func updateTemplatePlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := templateID(req)
	if r != nil {
		return r
	}
	u, r := parseTemplateUpdate(req.Body)
	if u == nil {
		return r
	}
	notes, r := templateNotes(req, &u.templateInput, "TemplateUpdateInput")
	if r != nil {
		return r
	}
	path := V2Path("/v2/templates/%s", id)
	// What the gateway remembers of the template (P8), and what this
	// update changes of it: the readme, a volume removed or restored.
	var fact *TemplateFact
	if req.Facts != nil {
		fact = templateFact(ctx, req, id)
	}
	remember := func() *TemplateFact {
		if req.Facts == nil || (u.readme == nil && !u.removeVolume && !u.restoreVolume) {
			return fact
		}
		nf := TemplateFact{}
		if fact != nil {
			nf = *fact
		}
		if u.readme != nil {
			nf.Readme = readmeFact(u.readme)
		}
		if u.removeVolume {
			nf.NoVolume = true
			// P7: what v2 still has is said, not hidden.
			notes.warn(CodeTemplateVolumeRemembered, fmt.Sprintf("volumeInGb 0: v2 cannot remove template %s's %d GB volume; the gateway remembers it removed, answers volumeInGb 0 and makes pods from the template without it, but a pod made from it outside the gateway still gets the volume",
				id, u.removedSize))
		}
		if u.restoreVolume {
			nf.NoVolume = false
		}
		recordTemplateFact(ctx, req, id, nf)
		return &nf
	}
	if u.needsTemplate() || u.body.empty() {
		cur, r := getV2[v2TemplateForPod](ctx, req, c, path, "a template")
		if r != nil {
			return withNotes(r, notes)
		}
		if msg := u.applyMounts(cur, req.Facts != nil); msg != "" {
			return withNotes(refuseV2(msg), notes)
		}
		if u.body.empty() {
			// Nothing v2 can change: the template as it is, without a PATCH.
			return withNotes(templateAnswer(http.StatusOK, cur, remember()), notes)
		}
	}
	a, r := callV2(ctx, req, c, http.MethodPatch, path, u.body)
	if r != nil {
		return withNotes(r, notes)
	}
	t, r := decodeV2[v2TemplateForPod](a, "a template")
	if r != nil {
		// Applied (P4): say so rather than report a failure, and answer
		// the template as v2 now has it, every v1 key (issue 37), when it
		// can be read again; only its id otherwise. What the update told
		// the gateway is remembered either way.
		if t, r = getV2[v2TemplateForPod](ctx, req, c, path, "a template"); r != nil {
			remember()
			res := JSON(http.StatusOK, struct {
				ID string `json:"id"`
			}{id})
			res.warn(CodeAnswerUnreadable, "the update was applied but v2's answer could not be read, nor the template read again ("+message1(r)+"): only its id is answered, and a serverless template's edits were not rolled out to its endpoints")
			return withNotes(res, notes)
		}
		notes.warn(CodeAnswerUnreadable, "the update was applied but v2's answer could not be read; the template was read again")
	}
	if t.Serverless && !rollOutTemplate(ctx, req, c, id, t.Public, notes) {
		// H3: v2 has no endpoint → template link; the gateway remembers the
		// endpoints made or updated from a template through it (P8), and
		// knows of none here.
		notes.warn(CodeTemplateNoRollout, warnTemplateRollout)
	}
	return withNotes(templateAnswer(http.StatusOK, t, remember()), notes)
}

// ---------------------------------------------------------------------------
// #23 DELETE /templates/{templateId}

func deleteTemplatePlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := templateID(req)
	if r != nil {
		return r
	}
	a, err := c.Call(ctx, V2Call{Method: http.MethodDelete, Path: V2Path("/v2/templates/%s", id)})
	if err != nil {
		return FromCallError(err)
	}
	if !a.OK() {
		// 400 in use ("bound to a serverless endpoint" / "referenced by a
		// pod") keeps v2's detail; 404 (unknown, or a public template) → 400.
		return FromV2Error(req.Op, a)
	}
	forgetFact(ctx, req, FactTemplate, id) // its readme, its volume removed
	return &Result{Status: http.StatusNoContent}
}
