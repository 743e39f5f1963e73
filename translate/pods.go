package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/v1gateway/v1gateway/podjson"
)

// The ten v1 pod operations (docs/design.md §8, #3–#12). Request bodies are read
// in podbody.go, answers mapped in podmodel.go (R-Pod); include* expansions
// and serverless workers are in podlist.go.

// Sleep waits for d or until ctx is done. Plans wait through it (429
// back-off) so that tests can replace it; it is not changed at run time.
var Sleep = func(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Tunables of the create plan (variables so that tests can shorten them).
var (
	// LostReplyGrace is how long the gateway may keep looking for a pod
	// whose create got no usable reply when the request's own deadline has
	// run out: the answer must say whether the pod exists.
	LostReplyGrace = 3 * time.Second
	// createClockSkew is how much older than the request a pod may look
	// (v2's clock vs the gateway's) and still count as created by it, when
	// v2's answer to the lost-reply lookup carries no readable Date header
	// (then v2's clock is unknown).
	createClockSkew = 2 * time.Minute
	// max429Retries bounds the 429 back-offs of one create request.
	max429Retries = 3
	// defaultRetryAfter is the back-off when a 429 carries no Retry-After.
	defaultRetryAfter = time.Second
)

func podNow(req *Request) time.Time {
	if req.Options.Now != nil {
		return req.Options.Now()
	}
	return time.Now()
}

// podID returns the v1 podId path parameter, or the 404 for an id that
// cannot be forwarded (P9).
func podID(req *Request) (string, *Result) {
	id := req.Params["podId"]
	if !ValidID(id) {
		return "", Fail(http.StatusNotFound, fmt.Sprintf("invalid podId %q", id))
	}
	return id, nil
}

// podCall makes one v2 call with a JSON body built from v (nil: none).
func podCall(ctx context.Context, c Caller, method, path string, query url.Values, v any) (*V2Answer, error) {
	call := V2Call{Method: method, Path: path, Query: query}
	if v != nil {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		call.Body = b
	}
	return c.Call(ctx, call)
}

// withNotes copies warnings and dropped fields gathered before r was built.
func withNotes(r *Result, notes *Result) *Result {
	if notes == nil {
		return r
	}
	r.Warnings = append(notes.Warnings[:len(notes.Warnings):len(notes.Warnings)], r.Warnings...)
	if len(notes.Notes) > 0 {
		r.Notes = append(notes.Notes[:len(notes.Notes):len(notes.Notes)], r.Notes...)
	}
	if len(notes.Dropped) > 0 {
		r.Dropped = append(notes.Dropped[:len(notes.Dropped):len(notes.Dropped)], r.Dropped...)
	}
	if r.Emulated == "" {
		r.Emulated = notes.Emulated
	}
	return r
}

func unknownFieldsWarning(schema string, keys []string) string {
	return "ignored field(s) that are not part of v1 " + schema + ": " + strings.Join(keys, ", ")
}

// ---------------------------------------------------------------------------
// #3 POST /pods

// createPodPlan is CreatePod: validate, pre-read (network volume, template,
// catalog), one create per candidate, then lock (P1–P4). Nothing before the
// create depends on how many pods the account has: a pod created by a create
// whose reply was lost is recognised afterwards by its name and creation time
// (afterLostReply).
func createPodPlan(ctx context.Context, req *Request, c Caller) *Result {
	in, msg := parsePodCreate(req.Body)
	if in == nil {
		return Fail(http.StatusBadRequest, msg)
	}
	notes := &Result{}
	if len(in.untrans) > 0 {
		if !req.Options.Lenient {
			return refuse(CodeUntranslatableRefused, untranslatableMessage(in.untrans))
		}
		notes.drop(untranslatableFields(in.untrans))
	}
	if len(in.unknownKeys) > 0 {
		notes.warn(CodeUnknownFields, unknownFieldsWarning("PodCreateInput", in.unknownKeys))
	}
	cr := &podCreator{ctx: ctx, req: req, c: c, in: in, notes: notes, start: podNow(req)}
	return withNotes(cr.run(), notes)
}

type podCreator struct {
	ctx   context.Context
	req   *Request
	c     Caller
	in    *podCreate
	notes *Result
	start time.Time

	body    v2CreatePodBody
	dcs     []string            // data centers every candidate is restricted to (nil: any)
	candDCs map[string][]string // per-candidate data centers (countryCodes)
	cands   []string

	sentDCs    []string          // the dataCenterIds of the last create sent
	chosenOf   int               // in.chosen: how many types were eligible (podchoose.go)
	chosenDesc map[string]string // in.chosen: availability and price of each candidate
}

func (cr *podCreator) run() *Result {
	in := cr.in
	cr.body = in.baseBody()
	if in.dcSent {
		cr.dcs = in.dataCenterIDs
	}
	if r := cr.resolveMounts(); r != nil {
		return r
	}
	if r := cr.rankCandidates(); r != nil {
		return r
	}
	created, r := cr.createLoop()
	if r != nil {
		return r
	}
	if in.chosen {
		cr.warnChosen(created)
	}
	if dc := created.DataCenterID; dc != "" && len(cr.sentDCs) > 0 && !slices.Contains(cr.sentDCs, dc) {
		// The v2 document calls dataCenterIds "preferred"; v1 placed
		// only there (P7: the hazard is not hidden).
		cr.notes.warn(CodePlacedOutsideDataCenters, fmt.Sprintf("dataCenterIds: v2 placed the pod in %s, outside the data centers asked for (%s): v2 treats them as preferences, v1 as the only places allowed",
			dc, strings.Join(cr.sentDCs, ", ")))
	}
	if in.locked {
		cr.lock(created)
	}
	out := podjson.V1PodFrom(created)
	if in.templateID != "" {
		// v2 may keep no link to the template (template stays null): echo
		// it, and remember it (P8).
		out.TemplateID = in.templateID
		recordFact(cr.ctx, cr.req, FactPod, created.ID, Fact{TemplateID: in.templateID, Created: true})
	}
	return podAnswer(http.StatusCreated, &out)
}

// resolveMounts applies H-mount-create, reading the network volume (its data
// center) or the template (the half of a persistent mount the client left
// out) when needed.
func (cr *podCreator) resolveMounts() *Result {
	in := cr.in
	path := in.mountPath
	if in.networkVol != "" {
		a, err := podCall(cr.ctx, cr.c, http.MethodGet, V2Path("/v2/network-volumes/%s", in.networkVol), nil, nil)
		if err != nil {
			return FromCallError(err)
		}
		if a.Status == http.StatusNotFound {
			return Fail(http.StatusBadRequest, fmt.Sprintf("networkVolumeId: network volume %q not found", in.networkVol))
		}
		if !a.OK() {
			return FromV2Error(cr.req.Op, a)
		}
		vol, r := decodeV2[v2NetworkVolume](a, "a network volume")
		if r != nil {
			return r
		}
		if in.dcSent && !slices.Contains(in.dataCenterIDs, vol.DataCenter) {
			return Fail(http.StatusBadRequest, fmt.Sprintf("networkVolumeId: network volume %q is in data center %s, which is not among dataCenterIds (%s); v2 places the pod in the volume's data center",
				in.networkVol, vol.DataCenter, strings.Join(in.dataCenterIDs, ", ")))
		}
		cr.dcs = []string{vol.DataCenter}
		if path == "" {
			path = v1DefaultMountPath
		}
		// A network volume replaces the pod volume (v1); v2 rejects both.
		cr.body.Mounts = &podjson.V2Mounts{Network: []podjson.V2NetworkMount{{VolumeID: in.networkVol, Path: path}}}
		return nil
	}
	if in.cpu {
		// v2 CPU pods have no pod volume: the v1 default (20 GB) is dropped;
		// an explicit size was refused (or dropped) by parsePodCreate.
		return nil
	}
	size := in.volumeInGb
	if in.templateID == "" {
		s := v1DefaultVolumeInGb
		if size != nil {
			s = *size
		}
		if s > 0 {
			if path == "" {
				path = v1DefaultMountPath
			}
			cr.body.Mounts = &podjson.V2Mounts{Persistent: &podjson.V2PersistentMount{Size: s, Path: path}}
		}
		return nil
	}
	// With a template only what the client sent is sent; the template
	// supplies the half of a persistent mount the client left out.
	if size == nil && path == "" {
		return nil
	}
	if size != nil && *size > 0 && path != "" {
		cr.body.Mounts = &podjson.V2Mounts{Persistent: &podjson.V2PersistentMount{Size: *size, Path: path}}
		return nil
	}
	a, err := podCall(cr.ctx, cr.c, http.MethodGet, V2Path("/v2/templates/%s", in.templateID), nil, nil)
	if err != nil {
		return FromCallError(err)
	}
	if a.Status == http.StatusNotFound {
		return Fail(http.StatusBadRequest, fmt.Sprintf("templateId: template %q not found", in.templateID))
	}
	if !a.OK() {
		return FromV2Error(cr.req.Op, a)
	}
	tpl, r := decodeV2[v2TemplateForPod](a, "a template")
	if r != nil {
		return r
	}
	tm := tpl.Mounts.Persistent
	if size != nil && *size == 0 {
		if tm != nil {
			return Fail(http.StatusBadRequest, fmt.Sprintf("volumeInGb: template %q has a %d GB pod volume, and v2 cannot create a pod from it without one", in.templateID, tm.Size))
		}
		return nil
	}
	pm := &podjson.V2PersistentMount{Size: v1DefaultVolumeInGb, Path: v1DefaultMountPath}
	if tm != nil {
		*pm = *tm
	}
	if size != nil {
		pm.Size = *size
	}
	if path != "" {
		pm.Path = path
	}
	cr.body.Mounts = &podjson.V2Mounts{Persistent: pm}
	return nil
}

// v2GPUCatalog and v2CPUCatalog are the parts of the catalogs plans read.
type v2GPUCatalog struct {
	GPUs []v2GPUType `json:"gpus"`
}

type v2GPUType struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Secure    bool   `json:"secure"`
	Community bool   `json:"community"`
	Price     struct {
		Secure    *float64 `json:"secure"`
		Community *float64 `json:"community"`
	} `json:"price"`
	Availability string `json:"availability"`
	DataCenters  []struct {
		ID string `json:"id"`
	} `json:"dataCenters"`
}

type v2CPUCatalog struct {
	CPUs []v2CPUType `json:"cpus"`
}

type v2CPUType struct {
	ID    string `json:"id"`
	Price struct {
		SecurePerVcpu     float64 `json:"securePerVcpu"`
		ServerlessPerVcpu float64 `json:"serverlessPerVcpu"`
	} `json:"price"`
	Availability string `json:"availability"`
	DataCenters  []struct {
		ID string `json:"id"`
	} `json:"dataCenters"`
}

// availabilityRank orders catalog availability: HIGH first, NONE and
// unknown last.
func availabilityRank(s string) int {
	switch s {
	case "HIGH":
		return 0
	case "MEDIUM":
		return 1
	case "LOW":
		return 2
	}
	return 3
}

// rankCandidates orders the candidates (P3) and, for countryCodes, restricts
// each GPU type to the data centers the catalog lists in those countries.
func (cr *podCreator) rankCandidates() *Result {
	in := cr.in
	cr.cands = in.candidates
	needOrder := !in.customPriority && len(in.candidates) > 1
	if !needOrder && len(in.countryCodes) == 0 && !in.chosen {
		return nil
	}
	q := url.Values{"include": {"AVAILABILITY"}, "product": {"POD"}}
	path := "/v2/catalog/gpus"
	if in.cpu {
		path = "/v2/catalog/cpus"
		q.Set("vcpuCount", strconv.Itoa(in.vcpuCount))
	} else {
		q.Set("count", strconv.Itoa(in.gpuCount))
		cloud := in.cloud
		if cloud == "" {
			cloud = v1DefaultCloud
		}
		q.Set("cloud", cloud)
		if len(in.countryCodes) > 0 {
			q.Set("countryCodes", strings.Join(in.countryCodes, ","))
		}
		if len(in.cudaVersions) > 0 {
			q.Set("cudaVersions", strings.Join(in.cudaVersions, ","))
		} else if in.minCuda != "" {
			q.Set("minCudaVersion", in.minCuda)
		}
	}
	a, err := podCall(cr.ctx, cr.c, http.MethodGet, path, q, nil)
	var rank map[string]int
	var gpus *v2GPUCatalog
	var cpus *v2CPUCatalog
	var failure string
	if in.cpu {
		if cpus, failure = readCatalog[v2CPUCatalog](a, err, "a CPU catalog"); cpus != nil {
			rank = make(map[string]int, len(cpus.CPUs))
			for _, t := range cpus.CPUs {
				rank[t.ID] = availabilityRank(t.Availability)
			}
		}
	} else {
		if gpus, failure = readCatalog[v2GPUCatalog](a, err, "a GPU catalog"); gpus != nil {
			rank = make(map[string]int, len(gpus.GPUs))
			for _, t := range gpus.GPUs {
				rank[t.ID] = availabilityRank(t.Availability)
			}
		}
	}
	if failure != "" {
		if len(in.countryCodes) > 0 {
			// Placement by country needs the catalog: no silent fallback.
			if err != nil {
				return FromCallError(err)
			}
			if a != nil && !a.OK() {
				r := FromV2Error(cr.req.Op, a)
				r.Body = EncodeV1Error("countryCodes: the v2 GPU catalog could not be read to resolve them: " + ProblemMessage(a.Body, a.Status))
				return r
			}
			return Fail(http.StatusBadGateway, "countryCodes: the v2 GPU catalog could not be read to resolve them")
		}
		if in.chosen {
			if r := cr.chooseUnranked(err, a, failure); r != nil {
				return r
			}
			return nil
		}
		cr.notes.warn(CodeCandidatesUnranked, "candidates were tried in the order given: the v2 catalog could not be read to rank them by availability ("+failure+")")
		return nil
	}
	if in.chosen {
		if r := cr.choose(gpus, cpus); r != nil {
			return r
		}
	} else if needOrder {
		cands := append([]string(nil), in.candidates...)
		sort.SliceStable(cands, func(i, j int) bool {
			ri, ok := rank[cands[i]]
			if !ok {
				ri = 4
			}
			rj, ok := rank[cands[j]]
			if !ok {
				rj = 4
			}
			return ri < rj
		})
		cr.cands = cands
	}
	if len(in.countryCodes) > 0 && gpus != nil {
		byID := make(map[string][]string, len(gpus.GPUs))
		for _, t := range gpus.GPUs {
			ids := make([]string, 0, len(t.DataCenters))
			for _, dc := range t.DataCenters {
				if cr.dcs == nil || slices.Contains(cr.dcs, dc.ID) {
					ids = append(ids, dc.ID)
				}
			}
			byID[t.ID] = ids
		}
		cr.candDCs = make(map[string][]string, len(cr.cands))
		kept := cr.cands[:0:0]
		for _, id := range cr.cands {
			if dcs := byID[id]; len(dcs) > 0 {
				cr.candDCs[id] = dcs
				kept = append(kept, id)
			}
		}
		if len(kept) == 0 {
			where := ""
			if cr.dcs != nil {
				where = " within " + strings.Join(cr.dcs, ", ")
			}
			return Fail(http.StatusBadRequest, fmt.Sprintf("countryCodes: the v2 catalog lists no data center in %s%s offering any of gpuTypeIds (%s)",
				strings.Join(in.countryCodes, ", "), where, strings.Join(cr.cands, ", ")))
		}
		cr.cands = kept
	}
	return nil
}

// createLoop tries one create per candidate (P3).
func (cr *podCreator) createLoop() (*podjson.V2Pod, *Result) {
	in := cr.in
	field := candidateField(in.cpu)
	var tried []string
	var last *V2Answer
	retries := 0
	for i := 0; i < len(cr.cands); i++ {
		cand := cr.cands[i]
		body := cr.body
		if in.cpu {
			cpu := *body.CPU
			cpu.ID = cand
			body.CPU = &cpu
		} else {
			gpu := *body.GPU
			gpu.ID = cand
			body.GPU = &gpu
		}
		body.DataCenterIDs = cr.dcs
		if dcs, ok := cr.candDCs[cand]; ok {
			body.DataCenterIDs = dcs
		}
		cr.sentDCs = body.DataCenterIDs
		if dl, ok := cr.ctx.Deadline(); cr.ctx.Err() != nil || ok && !time.Now().Before(dl) {
			// The reads before the create used up the deadline: no create
			// was sent (and none earlier is in doubt: each got an answer),
			// so say plainly that nothing was created. The clock is read
			// too: a read's transport timeout can end it a moment before
			// the context's own timer has fired.
			return nil, Fail(http.StatusGatewayTimeout, "the request deadline passed before the create was sent (the v2 reads it needs were slow): nothing was created; try again")
		}
		a, err := podCall(cr.ctx, cr.c, http.MethodPost, "/v2/pods", nil, body)
		if err != nil {
			var ue interface{ Unavailable() bool }
			if errors.As(err, &ue) && ue.Unavailable() {
				// Not sent at all (breaker open): nothing can have been created.
				return nil, FromCallError(err)
			}
			return cr.afterLostReply(cand, err, nil)
		}
		switch {
		case a.OK():
			p, r := decodePodAnswer(a)
			if r != nil {
				// Created, but the answer is unreadable: find it rather than
				// report a failure (P4) or create it again (P3).
				return cr.afterLostReply(cand, nil, a)
			}
			return p, nil
		case a.Status == http.StatusBadRequest || a.Status == http.StatusForbidden:
			tried = append(tried, cand+": "+ProblemMessage(a.Body, a.Status))
			last = a
			continue
		case a.Status == http.StatusTooManyRequests:
			wait, ok := cr.retryWait(a, retries)
			if !ok {
				return nil, FromV2Error(cr.req.Op, a)
			}
			if err := Sleep(cr.ctx, wait); err != nil {
				return nil, FromV2Error(cr.req.Op, a)
			}
			retries++
			i-- // the same candidate again
			continue
		case a.Status >= 500:
			return cr.afterLostReply(cand, nil, a)
		default:
			// 401, 402, 404 (template), 409, 422 …: the same for every
			// candidate; stop.
			return nil, FromV2Error(cr.req.Op, a)
		}
	}
	if last == nil {
		return nil, Fail(http.StatusBadRequest, field+": no candidate to try")
	}
	r := FromV2Error(cr.req.Op, last)
	if len(tried) > 1 {
		r.Body = EncodeV1Error(fmt.Sprintf("%s: none of the %d candidates could be created: %s", field, len(tried), strings.Join(tried, "; ")))
	}
	return nil, r
}

// retryWait is the back-off a 429 asks for, if it fits in the request's
// deadline and the retry budget.
func (cr *podCreator) retryWait(a *V2Answer, retries int) (time.Duration, bool) {
	if retries >= max429Retries {
		return 0, false
	}
	wait := defaultRetryAfter
	if a.Header != nil {
		if v := strings.TrimSpace(a.Header.Get("Retry-After")); v != "" {
			if secs, err := strconv.Atoi(v); err == nil && secs >= 0 {
				wait = time.Duration(secs) * time.Second
			} else if t, err := http.ParseTime(v); err == nil {
				wait = t.Sub(podNow(cr.req))
				if wait < 0 {
					wait = 0
				}
			}
		}
	}
	if dl, ok := cr.ctx.Deadline(); ok {
		if wait >= time.Until(dl) {
			return 0, false
		}
	} else if wait > 10*time.Second {
		return 0, false
	}
	return wait, true
}

// afterLostReply handles a create that got no usable answer (timeout,
// connection lost, 5xx, unreadable 2xx): the pod may exist. It looks for it
// and never creates again (P3).
func (cr *podCreator) afterLostReply(cand string, callErr error, a *V2Answer) (*podjson.V2Pod, *Result) {
	reason := ""
	status := http.StatusBadGateway
	switch {
	case callErr != nil && errors.Is(callErr, context.DeadlineExceeded):
		reason = "the create timed out"
		status = http.StatusGatewayTimeout
	case callErr != nil:
		reason = "the create got no answer (" + callErr.Error() + ")"
	case a.OK():
		reason = "the create answered " + strconv.Itoa(a.Status) + " with an unreadable pod"
	default:
		reason = "the create answered " + strconv.Itoa(a.Status) + " (" + ProblemMessage(a.Body, a.Status) + ")"
	}
	ctx := cr.ctx
	if dl, ok := ctx.Deadline(); ctx.Err() != nil || (ok && time.Until(dl) < LostReplyGrace) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(cr.ctx), LostReplyGrace)
		defer cancel()
	}
	name := cr.body.Name
	what := fmt.Sprintf("pod %q (%s %s)", name, candidateField(cr.in.cpu), cand)
	advice := fmt.Sprintf("; the gateway did not retry, to avoid a duplicate billable pod: check GET /v1/pods?name=%s before creating it again", url.QueryEscape(name))
	la, err := podCall(ctx, cr.c, http.MethodGet, "/v2/pods", nil, nil)
	if err != nil || !la.OK() {
		why := ""
		if err != nil {
			why = err.Error()
		} else {
			why = ProblemMessage(la.Body, la.Status)
		}
		return nil, Fail(status, fmt.Sprintf("%s: %s may or may not have been created, and looking for it failed (%s)%s", reason, what, why, advice))
	}
	since := createdSince(cr.start, la, podNow(cr.req))
	pods, r := decodePodListAnswer(la)
	if r != nil {
		return nil, Fail(status, fmt.Sprintf("%s: %s may or may not have been created, and the pod list could not be read%s", reason, what, advice))
	}
	var found []*podjson.V2Pod
	for i := range pods {
		p := &pods[i]
		if p.Name != name || !cr.sameCompute(p, cand) {
			continue
		}
		if t, err := time.Parse(time.RFC3339, p.CreatedAt); err != nil || t.Before(since) {
			continue
		}
		found = append(found, p)
	}
	switch len(found) {
	case 0:
		return nil, Fail(status, fmt.Sprintf("%s: %s may or may not have been created; it is not listed yet%s", reason, what, advice))
	case 1:
		cr.notes.warn(CodeLostReplyRecovered, fmt.Sprintf("the v2 reply to the create was lost (%s); pod %s was found and is returned", reason, found[0].ID))
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, p := range found {
		ids[i] = p.ID
	}
	return nil, Fail(status, fmt.Sprintf("%s: %d pods named %q appeared during this request (%s) and the gateway cannot tell which one is this request's%s",
		reason, len(found), name, strings.Join(ids, ", "), advice))
}

// createdSince is the earliest createdAt, in v2's clock, that a resource
// made by a request started at start can carry: the request's start moved
// onto v2's clock, read from the Date header of v2's answer to the lost-reply
// lookup (la, received at recv). Pod and endpoint creates both use it.
//
// The bound errs on the side of missing this request's resource, never of
// taking an older one for it: v2 stamped Date at some instant ts <= recv on
// its clock, and Date is that clock truncated to the second, so v2's clock
// minus the gateway's is at least Date-recv; the resource was created after
// the request started, and its createdAt may be truncated to the second
// too, hence the one second. A same-named resource created more than a
// round trip and about two seconds before the request is therefore never
// taken for this request's (and two inside the window are never guessed
// between). Without a readable Date, v2's clock is unknown and
// createClockSkew is allowed.
func createdSince(start time.Time, la *V2Answer, recv time.Time) time.Time {
	if la != nil && la.Header != nil {
		if d, err := http.ParseTime(la.Header.Get("Date")); err == nil {
			return start.Add(d.Sub(recv)).Add(-time.Second)
		}
	}
	return start.Add(-createClockSkew)
}

func (cr *podCreator) sameCompute(p *podjson.V2Pod, cand string) bool {
	if cr.in.cpu {
		return p.CPU != nil && p.CPU.ID == cand
	}
	return p.GPU != nil && p.GPU.ID == cand
}

// lock applies locked:true after the create (the v2 create body has no
// locked), retrying once; a failure is a warning, never an error (P4).
func (cr *podCreator) lock(p *podjson.V2Pod) {
	if !ValidID(p.ID) {
		// Never PATCH /v2/pods/ (or another route) with an id v2 did not give.
		cr.notes.warn(CodeLockNotApplied, fmt.Sprintf("the pod was created but locked=true could not be applied: the v2 answer carried no usable pod id (%q)", p.ID))
		return
	}
	why := ""
	for attempt := 0; attempt < 2; attempt++ {
		a, err := podCall(cr.ctx, cr.c, http.MethodPatch, V2Path("/v2/pods/%s", p.ID), nil, v2UpdatePodBody{Locked: ptrTo(true)})
		switch {
		case err != nil:
			why = err.Error()
		case a.OK():
			if np, r := decodePodAnswer(a); r == nil {
				*p = *np
			} else {
				p.Locked = true
			}
			return
		default:
			why = ProblemMessage(a.Body, a.Status)
		}
	}
	cr.notes.warn(CodeLockNotApplied, fmt.Sprintf("the pod was created but locked=true could not be applied (%s); lock it with PATCH /v1/pods/%s {\"locked\":true}", why, p.ID))
}

// podAnswerOf is the v1 answer with the R-Pod of p.
func podAnswerOf(status int, p *podjson.V2Pod) *Result {
	out := podjson.V1PodFrom(p)
	return podAnswer(status, &out)
}

func ptrTo[T any](v T) *T { return &v }

// getV2Pod reads pod id from v2 (getV2, with the pod decoder).
func getV2Pod(ctx context.Context, req *Request, c Caller, id string) (*podjson.V2Pod, *Result) {
	a, r := callV2(ctx, req, c, http.MethodGet, V2Path("/v2/pods/%s", id), nil)
	if r != nil {
		return nil, r
	}
	return decodePodAnswer(a)
}

// ---------------------------------------------------------------------------
// #5 GET /pods/{podId}

func getPodPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := podID(req)
	if r != nil {
		return r
	}
	var qv podQuery
	q := &qv
	if msg := parsePodQueryInto(req.Query, false, q); msg != "" {
		return Fail(http.StatusBadRequest, msg)
	}
	p, r := getV2Pod(ctx, req, c, id)
	if r != nil {
		// A 404 forgets nothing: it may only mean that this key cannot see
		// the pod (another account's); see facts.go.
		return r
	}
	podFacts(ctx, req, p)
	pods := []podjson.V2Pod{*p}
	out := make([]podjson.V1Pod, 1)
	podjson.FillV1Pod(&out[0], p)
	if r := expandPods(ctx, req, c, q, pods, out); r != nil {
		return r
	}
	return podAnswer(http.StatusOK, &out[0])
}

// ---------------------------------------------------------------------------
// #6 / #8 PATCH /pods/{podId}, POST /pods/{podId}/update

func updatePodPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := podID(req)
	if r != nil {
		return r
	}
	u, msg := parsePodUpdate(req.Body)
	if u == nil {
		return Fail(http.StatusBadRequest, msg)
	}
	notes := &Result{}
	if len(u.untrans) > 0 {
		if !req.Options.Lenient {
			return refuse(CodeUntranslatableRefused, untranslatableMessage(u.untrans))
		}
		notes.drop(untranslatableFields(u.untrans))
	}
	if len(u.unknownKeys) > 0 {
		notes.warn(CodeUnknownFields, unknownFieldsWarning("PodUpdateInput", u.unknownKeys))
	}
	var cur *podjson.V2Pod
	keepKey := u.body.Env != nil && !hasKey(*u.body.Env, publicKeyEnv)
	if u.needsPod() || u.fields == 0 || keepKey {
		if cur, r = getV2Pod(ctx, req, c, id); r != nil {
			return withNotes(r, notes)
		}
		if msg := u.applyMounts(cur); msg != "" {
			return withNotes(Fail(http.StatusBadRequest, msg), notes)
		}
	}
	if keepKey {
		keepPublicKey(u, cur, notes)
	}
	if u.fields == 0 {
		// Nothing v2 can change: the pod as it is, without a PATCH.
		return withNotes(podAnswerOf(http.StatusOK, podFacts(ctx, req, cur)), notes)
	}
	a, err := podCall(ctx, c, http.MethodPatch, V2Path("/v2/pods/%s", id), nil, u.body)
	if err != nil {
		return withNotes(FromCallError(err), notes)
	}
	if !a.OK() {
		return withNotes(FromV2Error(req.Op, a), notes)
	}
	p, r := decodePodAnswer(a)
	if r != nil {
		return withNotes(r, notes)
	}
	return withNotes(podAnswerOf(http.StatusOK, podFacts(ctx, req, p)), notes)
}

// publicKeyEnv is the env variable that carries a pod's SSH public keys:
// v2 injects it at create (startSsh), and the pod's images start sshd
// from it.
const publicKeyEnv = "PUBLIC_KEY"

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// keepPublicKey keeps the pod's current PUBLIC_KEY in an env update that
// does not set one. A v1 env update replaces the whole env, but v1 never
// kept the SSH key in the pod's env (v1 installed the account's keys
// itself); v2 injected it there at create, so replacing the env would
// silently take the pod's SSH access away at its next start. An explicit
// "PUBLIC_KEY": "" is the client's own choice and is sent as is (the key
// is removed).
func keepPublicKey(u *podUpdate, cur *podjson.V2Pod, notes *Result) {
	if cur == nil || len(cur.Env) == 0 {
		return
	}
	var env map[string]string
	if json.Unmarshal(cur.Env, &env) != nil || env[publicKeyEnv] == "" {
		return
	}
	next := make(map[string]string, len(*u.body.Env)+1)
	maps.Copy(next, *u.body.Env)
	next[publicKeyEnv] = env[publicKeyEnv]
	u.body.Env = &next
	notes.warn(CodePublicKeyKept, "env: the pod's PUBLIC_KEY (its SSH access) was kept, since the new env does not set it; send \"PUBLIC_KEY\": \"\" to remove it")
}

// ---------------------------------------------------------------------------
// #7 DELETE /pods/{podId}

func deletePodPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := podID(req)
	if r != nil {
		return r
	}
	a, err := podCall(ctx, c, http.MethodDelete, V2Path("/v2/pods/%s", id), nil, nil)
	if err != nil {
		return FromCallError(err)
	}
	if !a.OK() {
		return FromV2Error(req.Op, a)
	}
	forgetFact(ctx, req, FactPod, id)
	return &Result{Status: http.StatusNoContent}
}

// ---------------------------------------------------------------------------
// #9, #10, #12 POST /pods/{podId}/{start,stop,restart}

type v2PodAction struct {
	Action string `json:"action"`
}

// podActionPlan returns the plan of one v2 pod action.
func podActionPlan(action string) PlanFunc {
	return func(ctx context.Context, req *Request, c Caller) *Result {
		id, r := podID(req)
		if r != nil {
			return r
		}
		return doPodAction(ctx, req, c, id, action)
	}
}

func doPodAction(ctx context.Context, req *Request, c Caller, id, action string) *Result {
	return podAction(ctx, req, c, id, action, true)
}

// podAction sends one v2 pod action. v2 refuses (409) an action that is not
// valid in the pod's current status, a status the v1 client cannot see: v1
// shows desiredStatus RUNNING for a pod v2 still reports PROVISIONING or
// STARTING. On a 409 the pod is read, and the answer is decided by what
// the v1 client asked for (podActionRefused); retry allows one more try
// when the pod has meanwhile reached a status where the action is valid.
func podAction(ctx context.Context, req *Request, c Caller, id, action string, retry bool) *Result {
	a, err := podCall(ctx, c, http.MethodPost, V2Path("/v2/pods/%s/action", id), nil, v2PodAction{Action: action})
	if err != nil {
		return FromCallError(err)
	}
	if !a.OK() {
		if a.Status == http.StatusConflict {
			if res := podActionRefused(ctx, req, c, id, action, retry); res != nil {
				return res
			}
		}
		return FromV2Error(req.Op, a)
	}
	p, r := decodePodAnswer(a)
	if r != nil || p.ID == "" {
		// v2 documents 200 + Pod; without a readable pod, read it.
		g, err := podCall(ctx, c, http.MethodGet, V2Path("/v2/pods/%s", id), nil, nil)
		if err == nil && g.OK() {
			p, r = decodePodAnswer(g)
		}
		if err != nil || !g.OK() || r != nil {
			// The action was applied (P4): say so, with what is known.
			res := JSON(http.StatusOK, struct {
				ID string `json:"id"`
			}{id})
			res.warn(CodeAnswerUnreadable, "the "+action+" was applied but the pod could not be read afterwards")
			return res
		}
	}
	return podAnswerOf(http.StatusOK, podFacts(ctx, req, p))
}

// podActionRefused decides the v1 answer to an action v2 refused with a
// 409, from the pod's status read afterwards; nil keeps v2's refusal (the
// pod could not be read). v1's desiredStatus is what the client sees:
//   - restart or start of a pod still PROVISIONING or STARTING (v1: RUNNING):
//     the pod is already starting from scratch, which is the effect asked
//     for: 200 with the pod, and a warning that no action was sent;
//   - start of a RUNNING pod: it runs, as asked: 200 with a warning;
//   - the pod reached a status where the action is valid meanwhile (restart
//     of a pod now RUNNING, start of one now EXITED): sent once more;
//   - restart or stop of a stopped pod, stop of a locked pod: 400 naming
//     the pod's v1 desiredStatus and the v1 route to use;
//   - anything else (a cluster member pod, a second refusal): v2's reason.
//
// Nothing is reported as done that was not: the warning says no action was
// sent, and a stop is never answered 200 unless v2 stopped the pod.
func podActionRefused(ctx context.Context, req *Request, c Caller, id, action string, retry bool) *Result {
	g, err := podCall(ctx, c, http.MethodGet, V2Path("/v2/pods/%s", id), nil, nil)
	if err != nil || !g.OK() {
		return nil
	}
	p, r := decodePodAnswer(g)
	if r != nil {
		return nil
	}
	ds := podjson.DesiredStatus(p.Status)
	switch {
	case (action == "restart" || action == "start") && (p.Status == "PROVISIONING" || p.Status == "STARTING"):
		res := podAnswerOf(http.StatusOK, p)
		res.warn(CodePodAlreadyStarting, "the pod is still starting (v2 status "+p.Status+", v1 desiredStatus RUNNING): no "+action+" was sent, since the pod is already starting from scratch")
		return res
	case action == "start" && p.Status == "RUNNING":
		res := podAnswerOf(http.StatusOK, p)
		res.warn(CodePodAlreadyRunning, "the pod is already running: no start was sent")
		return res
	case retry && ((action == "restart" && p.Status == "RUNNING") || (action == "start" && (p.Status == "EXITED" || p.Status == "ERROR"))):
		return podAction(ctx, req, c, id, action, false)
	case action == "stop" && p.Locked && ds == "RUNNING":
		return Fail(http.StatusBadRequest, "the pod is locked: locking disables stopping (unlock it with PATCH /v1/pods/{podId} {\"locked\":false})")
	case action == "stop" && ds == "EXITED":
		return Fail(http.StatusBadRequest, "the pod is already stopped (desiredStatus EXITED)")
	case action == "restart" && ds == "EXITED":
		return Fail(http.StatusBadRequest, "the pod is stopped (desiredStatus EXITED): restart needs a running pod; start it with POST /v1/pods/{podId}/start")
	}
	return nil // v2's own reason, in v1 words (a cluster member pod, ...)
}

var (
	startPodPlan   = podActionPlan("start")
	stopPodPlan    = podActionPlan("stop")
	restartPodPlan = podActionPlan("restart")
)

// ---------------------------------------------------------------------------
// #11 POST /pods/{podId}/reset (P6)

const resetUnsupported = "reset is not supported by the v2 API: use restart for a running pod (POST /v1/pods/{podId}/restart), or stop then start"

func resetPodPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := podID(req)
	if r != nil {
		return r
	}
	if !req.Options.ResetRestart {
		return refuse(CodeResetRefused, resetUnsupported)
	}
	res := resetEmulated(ctx, req, c, id)
	if res.Status < 300 {
		// Only a reset that happened was emulated: a refusal carries no
		// X-Compat-Emulated.
		res.emulate("reset", CodeResetEmulated)
	}
	return res
}

// resetEmulated is reset as V1GW_RESET_MODE=restart emulates it: RUNNING →
// restart, EXITED/ERROR → start, PROVISIONING/STARTING → nothing to send
// (200 with a warning); anything else is refused.
func resetEmulated(ctx context.Context, req *Request, c Caller, id string) *Result {
	p, r := getV2Pod(ctx, req, c, id)
	if r != nil {
		return r
	}
	if p.Locked {
		return Fail(http.StatusBadRequest, "the pod is locked: locking disables resetting (unlock it with PATCH /v1/pods/{podId} {\"locked\":false})")
	}
	switch p.Status {
	case "RUNNING":
		return doPodAction(ctx, req, c, id, "restart")
	case "EXITED", "ERROR":
		return doPodAction(ctx, req, c, id, "start")
	case "PROVISIONING", "STARTING":
		// Already starting from scratch: what a reset (emulated by a
		// restart) asks for is under way.
		res := podAnswerOf(http.StatusOK, p)
		res.warn(CodePodAlreadyStarting, "the pod is still starting (v2 status "+p.Status+", v1 desiredStatus RUNNING): no restart was sent, since the pod is already starting from scratch")
		return res
	}
	return Fail(http.StatusBadRequest, "the pod is "+p.Status+" and cannot be reset")
}
