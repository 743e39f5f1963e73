package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The six v1 serverless endpoint operations (docs/design.md §8, #13–#18) against
// /v2/serverless. Bodies are read in endpointbody.go, answers are built in
// endpointanswers.go, and the model and R-Endpoint are in endpointmodel.go.

// Warnings the endpoint plans give (P7: hazards are not hidden).
const (
	warnPools = "gpuTypeIds: v2 selects serverless GPUs by pool (%s) minus excluded types; exactly the listed types are eligible today, " +
		"but a GPU type added to these pools later becomes eligible (and billable) without notice: v2 has no allow-list"
	warnTemplateSnapshot = "templateId: v2 applied the template's container settings to the endpoint once, and the gateway has no fact store to remember the link; " +
		"later edits of the template will not roll out to this endpoint (update the endpoint with templateId again)"
	warnDeleteTemplate = "v2 also permanently deleted the endpoint's bound template; the v2 document does not say whether that is the template " +
		"the endpoint was created from (if it is, that template is gone and creating an endpoint from the same templateId will fail); " +
		"queued and in-progress jobs were cancelled"
)

// endpointID returns the v1 endpointId path parameter, or the 404 for an id
// that cannot be forwarded (P9).
func endpointID(req *Request) (string, *Result) {
	id := req.Params["endpointId"]
	if !ValidID(id) {
		return "", Fail(http.StatusNotFound, fmt.Sprintf("invalid endpointId %q", id))
	}
	return id, nil
}

// endpointQuery is the v1 query of GET /endpoints and GET /endpoints/{id}.
type endpointQuery struct {
	includeTemplate, includeWorkers bool
}

func parseEndpointQuery(v url.Values) (*endpointQuery, string) {
	var errs []string
	q := &endpointQuery{}
	q.includeTemplate = queryBool(v, "includeTemplate", &errs)
	q.includeWorkers = queryBool(v, "includeWorkers", &errs)
	if len(errs) > 0 {
		return nil, strings.Join(errs, "; ")
	}
	return q, ""
}

// queryBool reads an optional boolean query parameter given at most once
// ("" is false).
func queryBool(v url.Values, name string, errs *[]string) bool {
	vals := v[name]
	switch {
	case len(vals) == 0 || (len(vals) == 1 && vals[0] == ""):
		return false
	case len(vals) > 1:
		*errs = append(*errs, "query parameter "+name+": must be given at most once")
		return false
	}
	b, err := strconv.ParseBool(vals[0])
	if err != nil {
		*errs = append(*errs, fmt.Sprintf("query parameter %s: %q is not a boolean (true or false)", name, vals[0]))
		return false
	}
	return b
}

// readGPUPools reads the GPU catalog (the proxy caches it, and it is
// decoded once per answer: read-only). On failure it returns the v1
// answer, prefixed with what the catalog was needed for.
func readGPUPools(ctx context.Context, req *Request, c Caller, why string) (*v2GPUPoolCatalog, *Result) {
	a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/catalog/gpus"})
	if err != nil {
		r := FromCallError(err)
		r.Body = EncodeV1Error(why + ": the v2 GPU catalog could not be read: " + message1(r))
		return nil, r
	}
	if !a.OK() {
		r := FromV2Error(req.Op, a)
		if a.Status == http.StatusNotFound {
			r.Status = http.StatusBadGateway
		}
		r.Body = EncodeV1Error(why + ": the v2 GPU catalog could not be read: " + ProblemMessage(a.Body, a.Status))
		return nil, r
	}
	return decodeShared[v2GPUPoolCatalog](a, "a GPU catalog")
}

// message1 extracts the message of a v1 error answer.
func message1(r *Result) string {
	var e V1Error
	if json.Unmarshal(r.Body, &e) != nil {
		return http.StatusText(r.Status)
	}
	return e.Message
}

func poolWarning(pools []string) string { return fmt.Sprintf(warnPools, strings.Join(pools, ", ")) }

func droppedTypesWarning(dropped []string) string {
	return "gpuTypeIds: " + strings.Join(dropped, ", ") + " left out: the v2 GPU catalog lists no serverless pool for them"
}

// ---------------------------------------------------------------------------
// #13 POST /endpoints

func createEndpointPlan(ctx context.Context, req *Request, c Caller) *Result {
	in, r := parseEndpointCreate(req.Body)
	if in == nil {
		return r
	}
	notes := &Result{}
	warnOutside(notes, "EndpointCreateInput", in.unknownKeys)
	if len(in.otherFamily) > 0 {
		notes.warn(CodeComputeFieldsIgnored, otherFamilyWarning(in.otherFamily, in.cpu, "endpoint"))
	}
	body, warns := in.body()
	for _, w := range warns {
		notes.warn(CodeIdleTimeoutDropped, w)
	}

	if in.name != nil {
		body.Name = *in.name
	}
	// The template is read for the name when none was sent (the
	// template's, as the v1 console did), and, with the fact store that
	// remembers which endpoints were made this way (P8), to spread a
	// template of the client's own into the body (spreadTemplate, H4).
	spread := req.Facts != nil
	var tplRead *v2TemplateForPod // the template, when read here: the answer's includes it
	if in.name == nil || spread {
		a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: V2Path("/v2/templates/%s", in.templateID)})
		if err != nil {
			return withNotes(FromCallError(err), notes)
		}
		if a.Status == http.StatusNotFound {
			return withNotes(Fail(http.StatusBadRequest, fmt.Sprintf("templateId: template %q not found", in.templateID)), notes)
		}
		if !a.OK() {
			return withNotes(FromV2Error(req.Op, a), notes)
		}
		tpl, r := decodeV2[v2TemplateForPod](a, "a template")
		if r != nil {
			return withNotes(r, notes)
		}
		tplRead = tpl
		if !tpl.Serverless {
			return withNotes(Fail(http.StatusBadRequest, fmt.Sprintf("templateId: template %q is a pod template (isServerless false); an endpoint needs a serverless template", in.templateID)), notes)
		}
		if in.name == nil {
			body.Name = tpl.Name
			if body.Name == "" {
				body.Name = in.templateID
			}
		}
		if spread {
			spreadTemplate(&body, tpl)
		}
	}

	if in.chooseCPU {
		body.CPU = chooseEndpointCPUs(ctx, c, body.CPU, in.vcpuOrDefault(), notes)
	}
	var cat *v2GPUPoolCatalog
	if !in.cpu {
		var r *Result
		if in.chooseGPU {
			cat, r = chooseEndpointGPU(ctx, req, c, in, notes)
		} else {
			cat, r = readGPUPools(ctx, req, c, "gpuTypeIds")
		}
		if r != nil {
			return withNotes(r, notes)
		}
		pools, excluded, dropped := cat.poolSelection(in.gpuTypeIDs)
		if len(pools) == 0 {
			return withNotes(refuseV2(noPoolMessage(in.gpuTypeIDs, cat)), notes)
		}
		if len(dropped) > 0 {
			notes.warn(CodeGPUTypesDropped, droppedTypesWarning(dropped))
		}
		body.GPU.Pools, body.GPU.ExcludedTypes = pools, &excluded
		notes.warn(CodeGPUPoolHazard, poolWarning(pools))
	}

	now := func() time.Time { return podNow(req) }
	start := now()
	a, err := podCall(ctx, c, http.MethodPost, "/v2/serverless", nil, body)
	var ep *v2Endpoint
	switch {
	case err != nil:
		var ue interface{ Unavailable() bool }
		if errors.As(err, &ue) && ue.Unavailable() {
			return withNotes(FromCallError(err), notes) // never sent
		}
		ep, err = findLostEndpoint(ctx, c, body.Name, start, now, notes, err, nil)
	case a.Status >= 500:
		ep, err = findLostEndpoint(ctx, c, body.Name, start, now, notes, nil, a)
	case !a.OK():
		return withNotes(FromV2Error(req.Op, a), notes)
	default:
		var r *Result
		if ep, r = decodeV2[v2Endpoint](a, "an endpoint"); r != nil {
			// Created, but unreadable: find it rather than report a failure.
			ep, err = findLostEndpoint(ctx, c, body.Name, start, now, notes, nil, a)
		}
	}
	if err != nil {
		var le *lostEndpointError
		if errors.As(err, &le) {
			return withNotes(Fail(le.status, le.msg), notes)
		}
		return withNotes(FromCallError(err), notes)
	}
	// v2 keeps no link to the template: the gateway remembers it (P8) and
	// echoes the request's templateId.
	recordFact(ctx, req, FactEndpoint, ep.ID, Fact{TemplateID: in.templateID, Created: true})
	ea := &endpointAnswers{ctx: ctx, req: req, c: c, cat: cat, notes: notes, created: true}
	if tplRead != nil {
		ea.read = map[string]*v2TemplateForPod{in.templateID: tplRead}
	}
	// v1 answered a create with its Endpoint schema, template and workers
	// included: v1's POST /endpoints has no include parameters (they are
	// GET's), and v1 answered every key of its schema (issue 37). The
	// template is the one the endpoint was made from; the workers are those
	// v2 has started so far (workersMin), [] when none. The workers call
	// also gives version, in place of the releases call.
	return ea.one(ep, &endpointQuery{includeTemplate: true, includeWorkers: true}, in.templateID)
}

// spreadTemplate puts the container settings of a template of the client's
// own into an endpoint create instead of its templateId, as the v2 document
// allows ("resolved at create time into the same container settings you
// could otherwise spread into this body (image, args, disk, ports, env,
// registry)"; its allowedCudaVersions seed a GPU create that sets neither
// gpu.allowedCudaVersions nor gpu.minCudaVersion). Why (H4): v2 deletes an
// endpoint "and its bound template", and a reading of the document binds
// the template named by templateId; an endpoint created without one is
// bound to a template of its own under every reading, so deleting it never
// takes the client's template, and the client's template is never refused a
// delete because of it. A public catalog template cannot be the client's to
// lose: its templateId is sent as it is.
func spreadTemplate(body *v2CreateEndpointBody, tpl *v2TemplateForPod) {
	if tpl.Public {
		return
	}
	body.TemplateID = ""
	body.Image = tpl.Image
	body.Args = ptrTo(tpl.Args)
	if tpl.Disk > 0 {
		body.Disk = ptrTo(tpl.Disk)
	}
	if len(tpl.Ports) > 0 && string(tpl.Ports) != "null" {
		body.Ports = tpl.Ports
	}
	if len(tpl.Env) > 0 && string(tpl.Env) != "null" {
		body.Env = tpl.Env
	}
	if tpl.Registry != nil && *tpl.Registry != "" {
		body.Registry = tpl.Registry
	}
	if g := body.GPU; g != nil && g.AllowedCudaVersions == nil && g.MinCudaVersion == nil && len(tpl.AllowedCudaVersions) > 0 {
		g.AllowedCudaVersions = ptrTo(slices.Clone(tpl.AllowedCudaVersions))
	}
}

// chooseEndpointCPUs is the v2 cpu array of a CPU endpoint created without
// cpuFlavorIds: every v1 endpoint CPU flavor at vcpu vCPUs, most available
// first (then the lower serverless price), as v1's default
// cpuFlavorPriority (availability) did. Unlike a pod, an endpoint keeps every
// flavor, available now or not: its workers are placed over time. When the
// catalog cannot be read, the flavors are listed in v1's order.
func chooseEndpointCPUs(ctx context.Context, c Caller, cpus []v2CreateCPU, vcpu int, notes *Result) []v2CreateCPU {
	ids := sortedKeys(v1EndpointCPUFlavorIDs)
	q := url.Values{"include": {"AVAILABILITY"}, "product": {"SERVERLESS"}, "vcpuCount": {strconv.Itoa(vcpu)}}
	a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/catalog/cpus", Query: q})
	cat, failure := readCatalog[v2CPUCatalog](a, err, "a CPU catalog")
	if cat != nil {
		byID := make(map[string]V2CPUType, len(cat.CPUs))
		for _, t := range cat.CPUs {
			byID[t.ID] = t
		}
		rank := func(id string) (int, float64) {
			t, ok := byID[id]
			if !ok {
				return 4, 0
			}
			return availabilityRank(t.Availability), t.Price.ServerlessPerVcpu
		}
		sort.SliceStable(ids, func(i, j int) bool {
			ri, pi := rank(ids[i])
			rj, pj := rank(ids[j])
			if ri != rj {
				return ri < rj
			}
			return pi < pj
		})
	}
	for _, id := range ids {
		cpus = append(cpus, v2CreateCPU{ID: id, VcpuCount: vcpu})
	}
	if failure != "" {
		notes.warn(CodeCandidatesUnranked, "cpuFlavorIds was not sent and the v2 CPU catalog could not be read to order the v1 CPU flavors by availability ("+failure+"): they were listed in v1's order")
	}
	notes.warn(CodeCPUFlavorChosen, fmt.Sprintf("cpuFlavorIds was not sent: the endpoint's workers may use any of %s at %d vCPUs (every v1 endpoint CPU flavor, most available first); send cpuFlavorIds to choose",
		strings.Join(ids, ", "), vcpu))
	return cpus
}

type lostEndpointError struct {
	status int
	msg    string
}

func (e *lostEndpointError) Error() string { return e.msg }

// findLostEndpoint handles a create that got no usable answer: the endpoint
// may exist. It looks for one endpoint with the name created since the
// request started (on v2's clock: createdSince), and never creates again
// (P3). now is the gateway's clock.
func findLostEndpoint(ctx context.Context, c Caller, name string, start time.Time, now func() time.Time, notes *Result, callErr error, a *V2Answer) (*v2Endpoint, error) {
	status := http.StatusBadGateway
	reason := ""
	switch {
	case callErr != nil && errors.Is(callErr, context.DeadlineExceeded):
		status, reason = http.StatusGatewayTimeout, "the create timed out"
	case callErr != nil:
		reason = "the create got no answer (" + callErr.Error() + ")"
	case a.OK():
		reason = "the create answered " + strconv.Itoa(a.Status) + " with an unreadable endpoint"
	default:
		reason = "the create answered " + strconv.Itoa(a.Status) + " (" + ProblemMessage(a.Body, a.Status) + ")"
	}
	if dl, ok := ctx.Deadline(); ctx.Err() != nil || (ok && time.Until(dl) < LostReplyGrace) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), LostReplyGrace)
		defer cancel()
	}
	advice := fmt.Sprintf("; the gateway did not retry, to avoid a duplicate endpoint: check GET /v1/endpoints for %q before creating it again", name)
	la, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/serverless"})
	if err != nil || !la.OK() {
		return nil, &lostEndpointError{status, reason + ": endpoint " + strconv.Quote(name) + " may or may not have been created, and looking for it failed" + advice}
	}
	since := createdSince(start, la, now())
	list, r := decodeV2[v2EndpointList](la, "an endpoint list")
	if r != nil {
		return nil, &lostEndpointError{status, reason + ": endpoint " + strconv.Quote(name) + " may or may not have been created, and the endpoint list could not be read" + advice}
	}
	var found []*v2Endpoint
	for i := range list.Endpoints {
		e := &list.Endpoints[i]
		if e.Name != name {
			continue
		}
		if t, err := time.Parse(time.RFC3339, e.CreatedAt); err != nil || t.Before(since) {
			continue
		}
		found = append(found, e)
	}
	if len(found) != 1 {
		what := "it is not listed yet"
		if len(found) > 1 {
			what = fmt.Sprintf("%d endpoints with that name appeared meanwhile and the gateway cannot tell which one is this request's", len(found))
		}
		return nil, &lostEndpointError{status, reason + ": endpoint " + strconv.Quote(name) + " may or may not have been created; " + what + advice}
	}
	notes.warn(CodeLostReplyRecovered, fmt.Sprintf("the v2 reply to the create was lost (%s); endpoint %s was found and is returned", reason, found[0].ID))
	return found[0], nil
}

// ---------------------------------------------------------------------------
// #14 GET /endpoints

func listEndpointsPlan(ctx context.Context, req *Request, c Caller) *Result {
	q, msg := parseEndpointQuery(req.Query)
	if msg != "" {
		return Fail(http.StatusBadRequest, msg)
	}
	a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/serverless"})
	if err != nil {
		return FromCallError(err)
	}
	if !a.OK() {
		return FromV2Error(req.Op, a)
	}
	list, r := decodeV2[v2EndpointList](a, "an endpoint list")
	if r != nil {
		return r
	}
	n := len(list.Endpoints)
	if q.includeWorkers && n > maxWorkerEndpoints {
		return refuseV2(fmt.Sprintf("includeWorkers: the account has %d serverless endpoints; listing all their workers would take %d v2 calls (the gateway's limit is %d endpoints): use GET /v1/endpoints/{endpointId}?includeWorkers=true",
			n, n+1, maxWorkerEndpoints))
	}
	// Bounds on the extra v2 calls (H11), which use the caller's v2
	// rate limit: version would cost one GET .../releases per endpoint on
	// every list, so a list has it only with includeWorkers (the workers
	// answer carries it); GET /endpoints/{endpointId} always has it.
	ea := &endpointAnswers{ctx: ctx, req: req, c: c, notes: &Result{}}
	out, r := ea.build(list.Endpoints, q, false)
	if r != nil {
		return withNotes(r, ea.notes)
	}
	fillEndpointTemplates(ctx, req, out)
	ea.templates(out, q.includeWorkers)
	res := JSON(http.StatusOK, out)
	models := make([]EndpointModel, len(out))
	for i := range out {
		models[i] = EndpointModel{V2: &list.Endpoints[i], V1: &out[i]}
	}
	res.Model = models
	return withNotes(res, ea.notes)
}

// ---------------------------------------------------------------------------
// #15 GET /endpoints/{endpointId}

func getEndpointPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := endpointID(req)
	if r != nil {
		return r
	}
	q, msg := parseEndpointQuery(req.Query)
	if msg != "" {
		return Fail(http.StatusBadRequest, msg)
	}
	ep, r := getV2[v2Endpoint](ctx, req, c, V2Path("/v2/serverless/%s", id), "an endpoint")
	if r != nil {
		// A 404 forgets nothing: it may only mean that this key cannot see
		// the endpoint (another account's), and a fact is never applied to
		// an endpoint v2 does not return (facts.go).
		return r
	}
	ea := &endpointAnswers{ctx: ctx, req: req, c: c, notes: &Result{}}
	return ea.one(ep, q, "")
}

// ---------------------------------------------------------------------------
// #16 / #18 PATCH /endpoints/{endpointId}, POST /endpoints/{endpointId}/update

func updateEndpointPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := endpointID(req)
	if r != nil {
		return r
	}
	u, r := parseEndpointUpdate(req.Body)
	if u == nil {
		return r
	}
	notes := &Result{}
	warnOutside(notes, "EndpointUpdateInput", u.unknownKeys)
	path := V2Path("/v2/serverless/%s", id)
	var cur *v2Endpoint
	if u.needsCurrent() {
		if cur, r = getV2[v2Endpoint](ctx, req, c, path, "an endpoint"); r != nil {
			return withNotes(r, notes)
		}
	}
	var cat *v2GPUPoolCatalog
	if u.gpuTypeSent && cur != nil && cur.GPU != nil && len(u.gpuTypeIDs) > 0 {
		if cat, r = readGPUPools(ctx, req, c, "gpuTypeIds"); r != nil {
			return withNotes(r, notes)
		}
	}
	body, r := u.build(cur, cat, notes, req.Facts != nil)
	if r != nil {
		return withNotes(r, notes)
	}
	ea := &endpointAnswers{ctx: ctx, req: req, c: c, cat: cat, notes: notes}
	if body.empty() {
		// Nothing v2 can change: the endpoint as it is, without a PATCH
		// (a PATCH would still make a release).
		if cur == nil {
			if cur, r = getV2[v2Endpoint](ctx, req, c, path, "an endpoint"); r != nil {
				return withNotes(r, notes)
			}
		}
		return ea.one(cur, nil, "")
	}
	a, r := callV2(ctx, req, c, http.MethodPatch, path, body)
	if r != nil {
		return withNotes(r, notes)
	}
	// The template applied is remembered (P8): a later edit of it rolls
	// out to this endpoint.
	recordFact(ctx, req, FactEndpoint, id, Fact{TemplateID: u.templateID})
	ep, r := decodeV2[v2Endpoint](a, "an endpoint")
	if r != nil {
		// Applied (P4): say so rather than report a failure, and answer
		// the endpoint as v2 now has it, every v1 key (issue 37), when it
		// can be read again; only its id otherwise.
		if ep, r = getV2[v2Endpoint](ctx, req, c, path, "an endpoint"); r == nil {
			notes.warn(CodeAnswerUnreadable, "the update was applied but v2's answer could not be read; the endpoint was read again")
			return ea.one(ep, nil, u.templateID)
		}
		res := JSON(http.StatusOK, struct {
			ID string `json:"id"`
		}{id})
		res.warn(CodeAnswerUnreadable, "the update was applied but v2's answer could not be read, nor the endpoint read again ("+message1(r)+"): only its id is answered")
		return withNotes(res, notes)
	}
	return ea.one(ep, nil, u.templateID)
}

func (b *v2UpdateEndpointBody) empty() bool {
	return b.Name == nil && b.TemplateID == "" && b.Scaling == nil && b.GPU == nil && b.CPU == nil &&
		b.Workers == nil && b.DataCenterIDs == nil && b.NetworkVolumes == nil && b.Timeout == nil && b.Flashboot == ""
}

// build turns the update into a v2 PATCH body, using the current endpoint
// (when needsCurrent) and the GPU catalog (when gpuTypeIds is sent to a GPU
// endpoint). It returns the v1 answer of a 400 instead when v2 cannot do
// what was asked. rollsOut says whether the gateway records the endpoint's
// template (a fact store), so that the template's later edits reach it.
func (u *endpointUpdate) build(cur *v2Endpoint, cat *v2GPUPoolCatalog, notes *Result, rollsOut bool) (v2UpdateEndpointBody, *Result) {
	var body v2UpdateEndpointBody
	warn := notes.warn
	body.Name = u.name
	if u.templateID != "" {
		body.TemplateID = u.templateID
		if !rollsOut {
			// With a fact store the endpoint is recorded as made from the
			// template and its edits roll out to it (rollOutTemplate), as
			// in v1: nothing to warn of.
			warn(CodeTemplateSnapshot, warnTemplateSnapshot)
		}
	}

	// Scaling: whichever half is missing comes from the current endpoint.
	scalerType := u.scalerType
	switch {
	case u.scalerType != "" && u.scalerValue != nil:
		body.Scaling = scalingOf(u.scalerType, *u.scalerValue)
	case u.scalerType != "":
		if cur.Scaling.Type == u.scalerType {
			// Unchanged type: keep the current value as it is.
			body.Scaling = &v2Scaling{Type: cur.Scaling.Type, QueueDelay: cur.Scaling.QueueDelay, RequestCount: cur.Scaling.RequestCount}
			if (body.Scaling.Type == "QUEUE_DELAY" && body.Scaling.QueueDelay == nil) || (body.Scaling.Type == "REQUEST_COUNT" && body.Scaling.RequestCount == nil) {
				body.Scaling = scalingOf(u.scalerType, v1DefaultScalerValue)
			}
			body.Scaling.RequestCount = nilUnless(body.Scaling.Type == "REQUEST_COUNT", body.Scaling.RequestCount)
			body.Scaling.QueueDelay = nilUnless(body.Scaling.Type == "QUEUE_DELAY", body.Scaling.QueueDelay)
		} else {
			// A new type's value has other units: v1's default.
			body.Scaling = scalingOf(u.scalerType, v1DefaultScalerValue)
		}
	case u.scalerValue != nil:
		scalerType = cur.Scaling.Type
		if scalerType != "REQUEST_COUNT" {
			scalerType = "QUEUE_DELAY"
		}
		body.Scaling = scalingOf(scalerType, *u.scalerValue)
	}
	if scalerType == "" && cur != nil {
		scalerType = cur.Scaling.Type
	}

	w := &v2EndpointWorkersBody{Min: u.workersMin, Max: u.workersMax}
	if u.idleTimeout != nil {
		if cur.Type != "LOAD_BALANCER" && scalerType == "REQUEST_COUNT" {
			warn(CodeIdleTimeoutDropped, "idleTimeout was not applied: v2 has no idle timeout for queue endpoints that scale on REQUEST_COUNT")
		} else {
			w.IdleTimeout = u.idleTimeout
		}
	}
	if !w.empty() {
		body.Workers = w
	}
	body.Timeout = u.timeout
	if u.flashboot != nil {
		switch {
		case !*u.flashboot:
			body.Flashboot = "OFF"
		case cur.Flashboot == "PRIORITY_FLASHBOOT":
			// Already on, with priority capacity: FLASHBOOT would downgrade it.
		default:
			body.Flashboot = "FLASHBOOT"
		}
	}
	if u.flashMode != "" {
		body.Flashboot = u.flashMode
	}
	body.DataCenterIDs = u.dcs
	body.NetworkVolumes = u.volumes

	if u.gpuFields() {
		if cur.GPU == nil {
			warn(CodeComputeFieldsIgnored, "ignored "+strings.Join(u.sentGPUFields(), ", ")+": the endpoint is a CPU endpoint (v1 ignored GPU fields on CPU endpoints; v2 cannot change the compute family)")
		} else if r := u.buildGPU(&body, cur, cat, warn); r != nil {
			return body, r
		}
	}
	if u.cpuFields() {
		if cur.GPU != nil {
			warn(CodeComputeFieldsIgnored, "ignored "+strings.Join(u.sentCPUFields(), ", ")+": the endpoint is a GPU endpoint (v1 ignored CPU fields on GPU endpoints; v2 cannot change the compute family)")
		} else if msg := u.buildCPU(&body, cur); msg != "" {
			return body, Fail(http.StatusBadRequest, msg)
		}
	}
	return body, nil
}

func nilUnless[T any](cond bool, p *T) *T {
	if cond {
		return p
	}
	return nil
}

func (u *endpointUpdate) sentGPUFields() []string {
	var f []string
	if u.allowedSent() {
		f = append(f, "allowedCudaVersions")
	}
	if u.gpuCount != nil {
		f = append(f, "gpuCount")
	}
	if u.gpuTypeSent {
		f = append(f, "gpuTypeIds")
	}
	if u.minCuda != "" {
		f = append(f, "minCudaVersion")
	}
	return f
}

func (u *endpointUpdate) allowedSent() bool { return u.cudaAllowed != nil }

func (u *endpointUpdate) sentCPUFields() []string {
	var f []string
	if u.cpuSent {
		f = append(f, "cpuFlavorIds")
	}
	if u.vcpu != nil {
		f = append(f, "vcpuCount")
	}
	return f
}

func (u *endpointUpdate) buildGPU(body *v2UpdateEndpointBody, cur *v2Endpoint, cat *v2GPUPoolCatalog, warn func(code, msg string)) *Result {
	g := &v2EndpointGPUBody{Count: u.gpuCount}
	if u.gpuTypeSent {
		if len(u.gpuTypeIDs) == 0 {
			return Fail(http.StatusBadRequest, "gpuTypeIds: must not be empty: a v2 GPU endpoint needs at least one pool")
		}
		pools, excluded, dropped := cat.poolSelection(u.gpuTypeIDs)
		if len(pools) == 0 {
			return refuseV2(noPoolMessage(u.gpuTypeIDs, cat))
		}
		if len(dropped) > 0 {
			warn(CodeGPUTypesDropped, droppedTypesWarning(dropped))
		}
		// Both, always: pools without excludedTypes would clear them.
		g.Pools, g.ExcludedTypes = pools, &excluded
		warn(CodeGPUPoolHazard, poolWarning(pools))
	}
	allowed, floor, msg := cudaConstraint(u.cudaAllowed, u.minCuda)
	if msg != "" {
		return refuseField(CodeV2LimitRefused, "allowedCudaVersions", msg)
	}
	curFloor := cur.GPU.MinCudaVersion != nil && *cur.GPU.MinCudaVersion != ""
	if allowed != nil {
		g.AllowedCudaVersions = allowed
		if len(*allowed) > 0 && floor == "" && (curFloor || u.minCuda != "") {
			// v2: "setting one does not clear the other": the last write wins.
			g.MinCudaVersion = ptrTo("")
		}
	}
	if floor != "" {
		g.MinCudaVersion = ptrTo(floor)
		if allowed == nil && len(cur.GPU.AllowedCudaVersions) > 0 {
			g.AllowedCudaVersions = &[]string{}
		}
	}
	if g.Count == nil {
		// UpdateEndpointGpuConfig.count carries a schema default of 1:
		// restate the current count so that it cannot be reset.
		g.Count = ptrTo(cur.GPU.Count)
	}
	body.GPU = g
	return nil
}

func (u *endpointUpdate) buildCPU(body *v2UpdateEndpointBody, cur *v2Endpoint) string {
	flavors := u.cpuFlavors
	if !u.cpuSent {
		for _, c := range cur.CPU {
			if !slices.Contains(flavors, c.ID) {
				flavors = append(flavors, c.ID)
			}
		}
	}
	if len(flavors) == 0 {
		return "cpuFlavorIds: must not be empty: a v2 CPU endpoint needs at least one CPU configuration"
	}
	// cpu replaces the whole selection: the half the client left out comes
	// from the current one.
	var cfg []v2CreateCPU
	for _, id := range flavors {
		vcpu := v1DefaultVCPUCount
		switch {
		case u.vcpu != nil:
			vcpu = *u.vcpu
		default:
			found := false
			for _, c := range cur.CPU {
				if c.ID == id {
					vcpu, found = c.VcpuCount, true
					break
				}
			}
			if !found && len(cur.CPU) > 0 {
				vcpu = cur.CPU[0].VcpuCount
			}
		}
		item := v2CreateCPU{ID: id, VcpuCount: vcpu}
		if !slices.Contains(cfg, item) {
			cfg = append(cfg, item)
		}
	}
	body.CPU = cfg
	return ""
}

// ---------------------------------------------------------------------------
// #17 DELETE /endpoints/{endpointId}

func deleteEndpointPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := endpointID(req)
	if r != nil {
		return r
	}
	a, err := c.Call(ctx, V2Call{Method: http.MethodDelete, Path: V2Path("/v2/serverless/%s", id)})
	if err != nil {
		return FromCallError(err)
	}
	if !a.OK() {
		return FromV2Error(req.Op, a)
	}
	// H4: v2 deletes the bound template too, and does not say which one.
	// An endpoint the gateway created was created without the client's
	// templateId (spreadTemplate): its bound template is its own. Of any
	// other endpoint the gateway cannot tell, and says so.
	known := lookupFacts(ctx, req, FactEndpoint, []string{id})
	forgetFact(ctx, req, FactEndpoint, id)
	res := &Result{Status: http.StatusNoContent}
	if !known[id].Created {
		res.warn(CodeTemplateDeleted, warnDeleteTemplate)
	}
	return res
}
