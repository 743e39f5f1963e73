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

// #3 POST /pods: the create plan, its candidates (ranked here, chosen in
// podchoose.go when the request names none), the lost reply and the lock.

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

// createPodPlan is CreatePod: validate, pre-read (network volume, template,
// catalog), one create per candidate, then lock (P1–P4). Nothing before the
// create depends on how many pods the account has: a pod created by a create
// whose reply was lost is recognised afterwards by its name and creation time
// (afterLostReply).
func createPodPlan(ctx context.Context, req *Request, c Caller) *Result {
	in, r := parsePodCreate(req.Body)
	if in == nil {
		return r
	}
	notes := &Result{}
	if r := decideUntranslatable(req, in.untrans, untranslatablePod, notes); r != nil {
		return r
	}
	if r := in.roundVolume(&req.Options, notes); r != nil {
		return r
	}
	switch req.Options.FieldPolicy["supportPublicIp"] {
	case FieldPolicyRefuse:
		// cloudType ALL with a public IP required: only SECURE promises one.
		in.anyCloud = in.anyCloud && !in.publicIP
	case FieldPolicyDrop:
		in.publicIP = false
	}
	warnOutside(notes, "PodCreateInput", in.unknownKeys, in.ignored...)
	if len(in.otherFamily) > 0 {
		notes.warn(CodeComputeFieldsIgnored, otherFamilyWarning(in.otherFamily, in.cpu, "pod"))
	}
	cr := &podCreator{ctx: ctx, req: req, c: c, in: in, notes: notes, start: podNow(req)}
	return withNotes(cr.run(), notes)
}

// roundVolume rounds a pod volume below v2's minimum up to it (P1: a soft
// constraint), with a warning naming the storage billed beyond what was
// asked; field_policy volumeInGb: refuse refuses it instead.
func (in *podCreate) roundVolume(o *Options, notes *Result) *Result {
	if in.volAsked == 0 || in.networkVol != "" {
		return nil
	}
	if o.FieldPolicy["volumeInGb"] == FieldPolicyRefuse {
		return refuseV2(fmt.Sprintf("volumeInGb: v2 volumes are at least %d GB; %d would have to be rounded up, which field_policy volumeInGb: refuse forbids (send 0 for no volume, or %d or more)",
			v2PersistentMinimum, in.volAsked, v2PersistentMinimum))
	}
	notes.warnField(CodeVolumeRoundedUp, "volumeInGb", fmt.Sprintf("volumeInGb: %d GB was rounded up to %d GB, v2's smallest pod volume: the pod is billed for %d GB of volume storage more than asked (%g times the volume cost asked for)",
		in.volAsked, v2PersistentMinimum, v2PersistentMinimum-in.volAsked, float64(v2PersistentMinimum)/float64(in.volAsked)))
	return nil
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
	// candClouds are the clouds each candidate is tried on, from the
	// catalog (cloudType ALL, a price cap); a candidate not in it is tried
	// on defaultClouds.
	candClouds map[string][]string

	sentDCs    []string          // the dataCenterIds of the last create sent
	chosenOf   int               // in.chosen: how many types were eligible (podchoose.go)
	chosenDesc map[string]string // in.chosen: availability and price of each candidate
	// tplNoVolume: the template's volume was removed through the gateway
	// (TemplateFact.NoVolume), so the pod is made without it.
	tplNoVolume bool
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
		// Placed elsewhere and not undone (createLoop): a pod whose lost
		// reply was recovered, or whose delete failed. The pod exists and
		// is billed, so it is answered (P4), and the hazard is not hidden
		// (P7).
		cr.notes.warn(CodePlacedOutsideDataCenters, fmt.Sprintf("dataCenterIds: v2 placed the pod in %s, outside the data centers asked for (%s), and it could not be undone: v2 treats them as preferences, v1 as the only places allowed",
			dc, strings.Join(cr.sentDCs, ", ")))
	}
	if in.publicIP && in.anyCloud && created.Cloud == "COMMUNITY" {
		cr.notes.warnUnchecked("supportPublicIp", "the pod was placed on COMMUNITY cloud (cloudType ALL), where v2 cannot guarantee a public IP; the pod may have none")
	}
	if in.locked {
		cr.lock(created)
	}
	out := podjson.V1PodFrom(created)
	if in.templateID != "" {
		// v2 may keep no link to the template (template stays null): echo
		// it, and remember it (P8).
		out.TemplateID = podjson.NullableString(in.templateID)
		recordFact(cr.ctx, cr.req, FactPod, created.ID, Fact{TemplateID: in.templateID, Created: true})
	}
	return podAnswer(http.StatusCreated, created, &out)
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
	// A template whose volume was removed through the gateway (v2 keeps
	// it, the fact store remembers, issue 37 item 4) has volumeInGb 0, as
	// in v1: the pod is made without the volume unless the client asks
	// for one.
	if size == nil && cr.req.Facts != nil {
		if f := templateFact(cr.ctx, cr.req, in.templateID); f != nil && f.NoVolume {
			size, cr.tplNoVolume = ptrTo(0), true
		}
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
			cr.inlineTemplate(tpl)
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

// inlineTemplate makes the pod from tpl's settings sent in the create
// instead of its id: volumeInGb 0 (no volume) on a template with a volume,
// which v1 made without a volume — the virtual kubelet sends exactly this
// for every templated pod — and v2 cannot (a pod created from templateId
// gets the template's mount, and the create body has no way to leave it
// out). What is sent is the pod v2 would have made from the template, less
// the volume (CreatePodRequest.templateId): image, args, disk, ports and
// registry are the template's unless the client sent its own, env is
// merged per key with the client's values winning, startJupyter and the
// CUDA versions are the template's (the latter unless the client sent a
// CUDA constraint); startSsh is the gateway's on every pod. The answer
// still names templateId, and the fact store remembers it (P8).
func (cr *podCreator) inlineTemplate(tpl *v2TemplateForPod) {
	in, b := cr.in, &cr.body
	b.TemplateID = ""
	if b.Image == "" {
		b.Image = tpl.Image
	}
	if b.Args == nil && tpl.Args != "" {
		b.Args = ptrTo(tpl.Args)
	}
	if b.Disk == nil && tpl.Disk > 0 {
		b.Disk = ptrTo(tpl.Disk)
	}
	if len(tpl.Env) > 0 {
		// v2 merges env per key, the body's values winning (v1 did the
		// same): the template's keys the client did not set are kept.
		var env map[string]string
		if json.Unmarshal(tpl.Env, &env) == nil && len(env) > 0 {
			maps.Copy(env, b.Env)
			b.Env = env
		}
	}
	if !in.portsSent && len(tpl.Ports) > 0 {
		var ports []string
		if json.Unmarshal(tpl.Ports, &ports) == nil && ports != nil {
			b.Ports = ports
		}
	}
	if b.Registry == "" && tpl.Registry != nil {
		b.Registry = *tpl.Registry
	}
	if g := b.GPU; g != nil && len(g.AllowedCudaVersions) == 0 && g.MinCudaVersion == "" && len(tpl.AllowedCudaVersions) > 0 {
		g.AllowedCudaVersions = slices.Clone(tpl.AllowedCudaVersions)
		in.cudaVersions = g.AllowedCudaVersions // the catalog is read for them too
	}
	b.StartJupyter = ptrTo(tpl.StartJupyter)
	why := "volumeInGb 0: template %s has a %d GB pod volume"
	if cr.tplNoVolume {
		why = "template %s's volume was removed (volumeInGb 0) through the gateway, but v2 keeps its %d GB pod volume"
	}
	cr.notes.warn(CodeTemplateInlined, fmt.Sprintf(why+", which v2 cannot leave out of a pod created from it; its settings were sent without the volume instead of templateId, so the pod has no volume, as in v1, and the gateway keeps its templateId",
		in.templateID, tpl.Mounts.Persistent.Size))
}

// v2GPUCatalog and v2CPUCatalog are the parts of the catalogs plans read.
type v2GPUCatalog struct {
	GPUs []v2GPUType `json:"gpus"`
}

// v2GPUType is a v2 GpuType; the GraphQL door reads it too (catalog.go).
type v2GPUType struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Pool         *string `json:"pool"` // null: in no serverless pool
	Manufacturer string  `json:"manufacturer"`
	Memory       int     `json:"memory"`
	Secure       bool    `json:"secure"`
	Community    bool    `json:"community"`
	Price        struct {
		Secure     *float64 `json:"secure"`
		Community  *float64 `json:"community"`
		Serverless *float64 `json:"serverless"`
	} `json:"price"`
	MaxCount struct {
		Secure    int `json:"secure"`
		Community int `json:"community"`
	} `json:"maxCount"`
	Availability string `json:"availability"`
	DataCenters  []struct {
		ID           string `json:"id"`
		Availability string `json:"availability"`
	} `json:"dataCenters"`
	CudaVersions []struct {
		Version   string `json:"version"`
		Available bool   `json:"available"`
	} `json:"cudaVersions"`
}

// v2CPUCatalog is GET /v2/catalog/cpus, as plans and the GraphQL door
// read it (V2CPUType: doorreads.go), so a shared answer is decoded once.
type v2CPUCatalog struct {
	CPUs []V2CPUType `json:"cpus"`
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
	if !needOrder && len(in.countryCodes) == 0 && !in.chosen && in.priceCap == 0 {
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
			if in.chosen && in.anyCloud {
				gpus = cr.withCommunity(gpus, q)
			}
			rank = make(map[string]int, len(gpus.GPUs))
			for _, t := range gpus.GPUs {
				rank[t.ID] = availabilityRank(t.Availability)
			}
		}
	}
	if failure != "" {
		if len(in.countryCodes) > 0 || in.priceCap > 0 {
			// Placement by country, and a price cap, need the catalog: no
			// silent fallback.
			what := "countryCodes: the v2 GPU catalog could not be read to resolve them"
			if len(in.countryCodes) == 0 {
				what = "deployCost: the v2 catalog could not be read to check the price cap"
			}
			if err != nil {
				r := FromCallError(err)
				if len(in.countryCodes) == 0 {
					r.Body = EncodeV1Error(what + ": " + err.Error())
				}
				return r
			}
			if a != nil && !a.OK() {
				r := FromV2Error(cr.req.Op, a)
				r.Body = EncodeV1Error(what + ": " + ProblemMessage(a.Body, a.Status))
				return r
			}
			return Fail(http.StatusBadGateway, what)
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
	if r := cr.applyCatalogClouds(gpus, cpus); r != nil {
		return r
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
			// A country is its data centers: none offering the types now
			// is v1's stock-out, as for a data center asked for.
			return StockOut(fmt.Sprintf("countryCodes: the v2 catalog lists no data center in %s%s offering any of gpuTypeIds (%s) now",
				strings.Join(in.countryCodes, ", "), where, strings.Join(cr.cands, ", ")))
		}
		cr.cands = kept
	} else if cr.dcs != nil && !in.chosen {
		return cr.keepOfferedIn(gpus, cpus)
	}
	return nil
}

// createLoop tries one create per candidate (P3).
func (cr *podCreator) createLoop() (*podjson.V2Pod, *Result) {
	in := cr.in
	field := candidateField(in.cpu)
	var tried, triedWhere []string // each refused candidate: why; where it was tried and why
	capacity := false              // a refusal said there was no capacity
	var last *V2Answer
	retries := 0
	attempts := cr.attempts()
	for i := 0; i < len(attempts); i++ {
		cand := attempts[i].id
		body := cr.body
		body.Cloud = attempts[i].cloud
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
			if why, undone := cr.undoMisplaced(p, body.DataCenterIDs); undone {
				triedWhere = append(triedWhere, cand+" in "+strings.Join(body.DataCenterIDs, ", ")+": "+why)
				tried = append(tried, cand+": "+why)
				capacity = true
				continue
			}
			return p, nil
		case a.Status == http.StatusBadRequest || a.Status == http.StatusForbidden:
			why := ProblemMessage(a.Body, a.Status)
			tried = append(tried, cand+": "+why)
			where := "any data center"
			if len(body.DataCenterIDs) > 0 {
				where = strings.Join(body.DataCenterIDs, ", ")
			}
			triedWhere = append(triedWhere, cand+" in "+where+": "+why)
			capacity = capacity || a.Status == http.StatusBadRequest && isCapacityFailure(why)
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
	if last == nil && !capacity {
		return nil, Fail(http.StatusBadRequest, field+": no candidate to try")
	}
	if capacity {
		// v1's stock-out (V1StockOut): clients move to their next type on it.
		cloud := cr.cloud()
		if in.anyCloud {
			cloud = "SECURE or COMMUNITY"
		}
		spec := fmt.Sprintf("gpuCount %d, %s cloud", in.gpuCount, cloud)
		if in.cpu {
			spec = fmt.Sprintf("vcpuCount %d", in.vcpuCount)
		}
		return nil, StockOut(fmt.Sprintf("no %s could be placed (%s): %s", field, spec, strings.Join(triedWhere, "; ")))
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
