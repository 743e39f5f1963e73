package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/v1gateway/v1gateway/podjson"
)

// #4 GET /pods: v2 has no filters, so every v1 filter is applied here, on one
// decoded v2 list; include* expansions cost one call per distinct resource
// (a list call where one exists), never one per pod.

// maxWorkerEndpoints bounds includeWorkers=true: one v2 call per serverless
// endpoint (H11).
const maxWorkerEndpoints = 50

// podQuery holds the v1 query parameters of GET /pods and GET /pods/{podId}.
type podQuery struct {
	computeType   string
	cpuFlavorIDs  []string
	dataCenterIDs []string
	gpuTypeIDs    []string
	desiredStatus string
	endpointID    string
	id            *string
	imageName     *string
	name          *string
	networkVolume *string
	templateID    *string

	includeMachine, includeNetworkVolume, includeSavingsPlans, includeTemplate, includeWorkers bool
}

func (q *podQuery) filters() bool {
	return q.computeType != "" || q.cpuFlavorIDs != nil || q.dataCenterIDs != nil || q.gpuTypeIDs != nil ||
		q.desiredStatus != "" || q.id != nil || q.imageName != nil || q.name != nil || q.networkVolume != nil || q.templateID != nil
}

// parsePodQuery validates the query; list selects GET /pods (filters allowed)
// over GET /pods/{podId} (include* only; other parameters are ignored, as
// v1 documented none).
func parsePodQuery(v url.Values, list bool) (*podQuery, string) {
	q := new(podQuery)
	if msg := parsePodQueryInto(v, list, q); msg != "" {
		return nil, msg
	}
	return q, ""
}

// parsePodQueryInto is parsePodQuery into *q (the caller's, which need
// not be allocated): "" or the message of a 400.
func parsePodQueryInto(v url.Values, list bool, q *podQuery) string {
	*q = podQuery{}
	var errs []string
	bad := func(name, format string, args ...any) {
		errs = append(errs, "query parameter "+name+": "+fmt.Sprintf(format, args...))
	}
	boolean := func(name string) bool {
		vals := v[name]
		if len(vals) == 0 {
			return false
		}
		if len(vals) > 1 {
			bad(name, "must be given at most once")
			return false
		}
		if vals[0] == "" {
			return false
		}
		b, err := strconv.ParseBool(vals[0])
		if err != nil {
			bad(name, "%q is not a boolean (true or false)", vals[0])
			return false
		}
		return b
	}
	q.includeMachine = boolean("includeMachine")
	q.includeNetworkVolume = boolean("includeNetworkVolume")
	q.includeSavingsPlans = boolean("includeSavingsPlans")
	q.includeTemplate = boolean("includeTemplate")
	q.includeWorkers = boolean("includeWorkers")
	if !list {
		if len(errs) > 0 {
			return strings.Join(errs, "; ")
		}
		return ""
	}
	scalar := func(name string, maxLen int) *string {
		vals := v[name]
		if len(vals) == 0 {
			return nil
		}
		if len(vals) > 1 {
			bad(name, "must be given at most once")
			return nil
		}
		if maxLen > 0 && utf8.RuneCountInString(vals[0]) > maxLen {
			bad(name, "must be at most %d characters", maxLen)
			return nil
		}
		s := vals[0]
		return &s
	}
	enum := func(name string, allowed ...string) string {
		s := scalar(name, 0)
		if s == nil || *s == "" {
			return ""
		}
		for _, a := range allowed {
			if *s == a {
				return a
			}
		}
		bad(name, "%q is not one of %s", *s, strings.Join(allowed, ", "))
		return ""
	}
	array := func(name string) []string {
		vals, ok := v[name]
		if !ok {
			return nil
		}
		out := make([]string, 0, len(vals))
		for _, val := range vals {
			for _, part := range strings.Split(val, ",") {
				if part = strings.TrimSpace(part); part != "" {
					out = append(out, part)
				}
			}
		}
		return out // possibly empty: an empty filter matches nothing
	}
	q.computeType = enum("computeType", "GPU", "CPU")
	q.desiredStatus = enum("desiredStatus", "RUNNING", "EXITED", "TERMINATED")
	q.cpuFlavorIDs = array("cpuFlavorId")
	q.dataCenterIDs = array("dataCenterId")
	q.gpuTypeIDs = array("gpuTypeId")
	if e := scalar("endpointId", v1NameMaxLength); e != nil {
		q.endpointID = *e
	}
	q.id = scalar("id", 0)
	q.imageName = scalar("imageName", 0)
	q.name = scalar("name", v1NameMaxLength)
	q.networkVolume = scalar("networkVolumeId", 0)
	q.templateID = scalar("templateId", 0)
	if len(errs) > 0 {
		return strings.Join(errs, "; ")
	}
	return ""
}

// match applies the v1 filters to a v2 pod.
func (q *podQuery) match(p *podjson.V2Pod) bool {
	switch q.computeType {
	case "GPU":
		if p.GPU == nil {
			return false
		}
	case "CPU":
		if p.CPU == nil {
			return false
		}
	}
	if q.cpuFlavorIDs != nil && (p.CPU == nil || !slices.Contains(q.cpuFlavorIDs, p.CPU.ID)) {
		return false
	}
	if q.gpuTypeIDs != nil && (p.GPU == nil || !slices.Contains(q.gpuTypeIDs, p.GPU.ID)) {
		return false
	}
	if q.dataCenterIDs != nil && !slices.Contains(q.dataCenterIDs, p.DataCenterID) {
		return false
	}
	if q.desiredStatus != "" && podjson.DesiredStatus(p.Status) != q.desiredStatus {
		return false
	}
	if q.id != nil && p.ID != *q.id {
		return false
	}
	if q.imageName != nil && p.Image != *q.imageName {
		return false
	}
	if q.name != nil && p.Name != *q.name {
		return false
	}
	if q.networkVolume != nil {
		found := false
		for _, m := range p.Mounts.Network {
			if m.VolumeID == *q.networkVolume {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if q.templateID != nil && p.Template != *q.templateID {
		return false
	}
	return true
}

func listPodsPlan(ctx context.Context, req *Request, c Caller) *Result {
	var qv podQuery
	q := &qv
	if msg := parsePodQueryInto(req.Query, true, q); msg != "" {
		return Fail(http.StatusBadRequest, msg)
	}
	if q.endpointID != "" {
		// Only serverless workers have an endpointId: the answer is that
		// endpoint's workers (R-Worker).
		workers, r := endpointWorkers(ctx, req, c, q.endpointID)
		if r != nil {
			return r
		}
		ws := workerTemplates(ctx, req, q, filterWorkers(q, workers, q.includeMachine))
		notes := &Result{}
		workerPrices(ctx, req, c, ws, notes)
		return withNotes(podListAnswer(nil, ws, 0), notes)
	}
	streamable := !q.includeMachine && !q.includeNetworkVolume && !q.includeTemplate && !q.includeWorkers && (q.templateID == nil || req.Facts == nil) && !req.Models
	if sc, ok := c.(StreamCaller); ok && streamable {
		return listPodsStreamed(ctx, req, sc, q)
	}
	a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/pods"})
	if err != nil {
		return FromCallError(err)
	}
	if !a.OK() {
		return FromV2Error(req.Op, a)
	}
	if streamable {
		return streamPodList(ctx, req, a, q)
	}
	// The models of a list (the GraphQL door's) are read once and let go:
	// they live in a pooled storage their Result gives back (Release).
	var st *podListStorage
	if req.Models {
		st = podListStorages.Get().(*podListStorage)
	}
	res := listPods(ctx, req, c, q, a, st)
	if st != nil && res.release == nil {
		st.release()
	}
	return res
}

// listPods is listPodsPlan's decoded path: the answer a, whole, decoded
// into st (nil: new storage), the pods' templateId from the store,
// filtered, mapped and expanded.
func listPods(ctx context.Context, req *Request, c Caller, q *podQuery, a *V2Answer, st *podListStorage) *Result {
	all, r := st.decode(a)
	if r != nil {
		return r
	}
	ptrs := st.ptrsTo(all)
	if req.Facts != nil {
		fillPodTemplates(ctx, req, ptrs) // templateId from the store before filtering (P8)
	}
	pods := ptrs[:0]
	filter := q.filters()
	for _, p := range ptrs {
		if !filter || q.match(p) {
			pods = append(pods, p)
		}
	}
	out := st.v1Pods(len(pods))
	for i, p := range pods {
		podjson.FillV1Pod(&out[i], p)
	}
	if r := expandPodList(ctx, req, c, q, pods, out, false); r != nil {
		return r
	}
	var workers []v1Worker
	notes := &Result{}
	if q.includeWorkers {
		all, r := allWorkers(ctx, req, c)
		if r != nil {
			return r
		}
		workers = workerTemplates(ctx, req, q, filterWorkers(q, all, q.includeMachine))
		workerPrices(ctx, req, c, workers, notes)
	}
	if req.Models {
		models := st.podModels(pods, out)
		res := &Result{Status: http.StatusOK, Model: models}
		if st != nil {
			res.release = st.release
		}
		return res
	}
	return withNotes(podListAnswer(out, workers, len(a.Body)), notes)
}

// streamPodList is GET /v1/pods without include* (the common case): each
// pod is decoded, filtered, mapped and encoded straight into the answer, one
// at a time (podjson.PodStream), in a pooled buffer (ReleaseBody). The answer and
// its errors are those of decodePodListAnswer followed by the same mapping.
//
// The pods v2 gave no template are noted (ends), and their templateId is
// added from the fact store afterwards (insertPodTemplates); a templateId
// filter with a store takes the decoded path instead.
func streamPodList(ctx context.Context, req *Request, a *V2Answer, q *podQuery) *Result {
	return streamPodListWith(ctx, req, a, q, nil)
}

// streamPodListWith is streamPodList, the pods' dockerStartCmd written
// through args when it is not nil (podjson.ArgsMemo: the same bytes).
func streamPodListWith(ctx context.Context, req *Request, a *V2Answer, q *podQuery, args *podjson.ArgsMemo) *Result {
	var s podjson.PodStream
	s.Init(a.Body)
	b := append(podjson.GetAnswerBuf(len(a.Body)), '[')
	var p podjson.V2Pod
	var ends []podListEnd
	n, resets := 0, 0
	for s.Next(&p) {
		if s.Resets() != resets {
			// A repeated "pods" member replaces what came before.
			resets, b, n, ends = s.Resets(), b[:1], 0, ends[:0]
		}
		if !q.match(&p) {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		if args != nil {
			b = args.AppendV1PodOf(b, &p)
		} else {
			b = podjson.AppendV1PodOf(b, &p)
		}
		if p.Template == "" && req.Facts != nil {
			ends = append(ends, podListEnd{id: p.ID, end: len(b) - 1})
		}
		n++
	}
	if err := s.Finish(); err != nil {
		return Fail(http.StatusBadGateway, "the v2 API answered with a pod list the gateway cannot read: "+err.Error())
	}
	if s.Resets() != resets {
		b, ends = b[:1], nil // a last "pods" member that is null or empty
	}
	b = insertPodTemplates(ctx, req, append(b, ']'), ends, nil, nil)
	return &Result{Status: http.StatusOK, Body: podjson.PooledBody(b)}
}

// podListAnswer encodes pods then workers as one v1 array; size hints the
// length of the answer.
func podListAnswer(pods []podjson.V1Pod, workers []v1Worker, size int) *Result {
	b := podjson.AppendV1Pods(make([]byte, 0, size+64), pods)
	if len(workers) > 0 {
		wb, err := json.Marshal(workers)
		if err != nil {
			return Fail(http.StatusInternalServerError, "cannot encode the answer: "+err.Error())
		}
		if len(pods) > 0 {
			b = append(b[:len(b)-1], ',')
			b = append(b, wb[1:]...)
		} else {
			b = wb
		}
	}
	return &Result{Status: http.StatusOK, Body: b}
}

// expandPods adds the include* expansions to the answers of one GET.
func expandPods(ctx context.Context, req *Request, c Caller, q *podQuery, pods []podjson.V2Pod, out []podjson.V1Pod) *Result {
	ptrs := make([]*podjson.V2Pod, len(pods))
	for i := range pods {
		ptrs[i] = &pods[i]
	}
	return expandPodList(ctx, req, c, q, ptrs, out, len(pods) == 1)
}

// expandPodList fills networkVolume, template, machine and the catalog parts
// of gpu. A lookup that fails makes the request fail with its error, except
// a 404 of a referenced resource (deleted meanwhile), which leaves the field
// null (networkVolume, as for a pod without one) or out (template).
// includeSavingsPlans has no v2 source: savingsPlans stays null.
func expandPodList(ctx context.Context, req *Request, c Caller, q *podQuery, pods []*podjson.V2Pod, out []podjson.V1Pod, single bool) *Result {
	if len(pods) == 0 {
		return nil
	}
	if q.includeNetworkVolume {
		for i := range out {
			out[i].NetworkVolumeAsked = true // null unless filled below
		}
		if r := expandNetworkVolumes(ctx, req, c, pods, out, single); r != nil {
			return r
		}
	}
	if q.includeTemplate {
		if r := expandTemplates(ctx, req, c, pods, out); r != nil {
			return r
		}
	}
	if q.includeMachine {
		if r := expandMachines(ctx, req, c, pods, out); r != nil {
			return r
		}
	}
	return nil
}

func expandNetworkVolumes(ctx context.Context, req *Request, c Caller, pods []*podjson.V2Pod, out []podjson.V1Pod, single bool) *Result {
	var ids []string
	for _, p := range pods {
		if len(p.Mounts.Network) > 0 && !slices.Contains(ids, p.Mounts.Network[0].VolumeID) {
			ids = append(ids, p.Mounts.Network[0].VolumeID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	vols := map[string]*v2NetworkVolume{}
	if single && len(ids) == 1 {
		a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: V2Path("/v2/network-volumes/%s", ids[0])})
		if err != nil {
			return FromCallError(err)
		}
		if a.Status == http.StatusNotFound {
			return nil
		}
		if !a.OK() {
			return FromV2Error(req.Op, a)
		}
		v, r := decodeV2[v2NetworkVolume](a, "a network volume")
		if r != nil {
			return r
		}
		vols[v.ID] = v
	} else {
		a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/network-volumes"})
		if err != nil {
			return FromCallError(err)
		}
		if !a.OK() {
			return FromV2Error(req.Op, a)
		}
		list, r := decodeV2[v2NetworkVolumeList](a, "a network volume list")
		if r != nil {
			return r
		}
		for i := range list.NetworkVolumes {
			vols[list.NetworkVolumes[i].ID] = &list.NetworkVolumes[i]
		}
	}
	for i, p := range pods {
		if len(p.Mounts.Network) == 0 {
			continue
		}
		if v, ok := vols[p.Mounts.Network[0].VolumeID]; ok {
			out[i].NetworkVolume = &podjson.V1PodNetworkVolume{ID: v.ID, Name: v.Name, Size: v.Size, DataCenterID: v.DataCenter}
		}
	}
	return nil
}

func expandTemplates(ctx context.Context, req *Request, c Caller, pods []*podjson.V2Pod, out []podjson.V1Pod) *Result {
	tpls := map[string]*podjson.V1PodTemplateView{}
	for _, p := range pods {
		if p.Template == "" {
			continue
		}
		id := p.Template
		if _, done := tpls[id]; done {
			continue
		}
		tpls[id] = nil
		a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: V2Path("/v2/templates/%s", id)})
		if err != nil {
			return FromCallError(err)
		}
		if a.Status == http.StatusNotFound {
			continue
		}
		if !a.OK() {
			return FromV2Error(req.Op, a)
		}
		t, r := decodeV2[v2TemplateForPod](a, "a template")
		if r != nil {
			return r
		}
		tpls[id] = podTemplateView(t)
	}
	for i, p := range pods {
		if p.Template != "" {
			out[i].Template = tpls[p.Template]
		}
	}
	return nil
}

// podTemplateView is R-Template for includeTemplate.
func podTemplateView(t *v2TemplateForPod) *podjson.V1PodTemplateView {
	v := &podjson.V1PodTemplateView{
		ID:                t.ID,
		Name:              t.Name,
		ImageName:         t.Image,
		ContainerDiskInGb: t.Disk,
		Env:               rawOr(t.Env, jsonEmptyObject),
		Ports:             rawOr(t.Ports, jsonEmptyArray),
		Category:          t.Category,
		IsPublic:          t.Public,
		IsServerless:      t.Serverless,
	}
	if t.Registry != nil {
		v.ContainerRegistryAuthID = *t.Registry
	}
	if t.Args == "" {
		v.DockerStartCmd = []string{}
	} else if args, err := podjson.SplitArgs(t.Args); err == nil {
		v.DockerStartCmd = args
	}
	if pm := t.Mounts.Persistent; pm != nil {
		v.VolumeInGb, v.VolumeMountPath = pm.Size, pm.Path
	}
	return v
}

// expandMachines fills the part of machine v2 can tell (data center, cloud,
// GPU type) and the catalog parts of gpu (display name, list prices).
func expandMachines(ctx context.Context, req *Request, c Caller, pods []*podjson.V2Pod, out []podjson.V1Pod) *Result {
	var gpus map[string]*v2GPUType
	for _, p := range pods {
		if p.GPU == nil {
			continue
		}
		a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/catalog/gpus"})
		if err != nil {
			return FromCallError(err)
		}
		if !a.OK() {
			return FromV2Error(req.Op, a)
		}
		var r *Result
		if gpus, r = gpuTypesByID(a); r != nil {
			return r
		}
		break
	}
	// The list's machines, each with its GPU type and cloud flag, in one
	// allocation rather than up to three per pod.
	type machineParts struct {
		machine podjson.V1PodMachine
		gpuType podjson.V1MachineGPU
		secure  bool
	}
	parts := make([]machineParts, len(pods))
	for i, p := range pods {
		mp := &parts[i]
		m := &mp.machine
		if p.Cloud != "" {
			mp.secure = p.Cloud == "SECURE"
			m.SecureCloud = &mp.secure
		}
		m.DataCenterID = p.DataCenterID
		if p.GPU != nil {
			m.GpuTypeID = p.GPU.ID
			if t, ok := gpus[p.GPU.ID]; ok {
				m.GpuDisplayName = t.Name
				mp.gpuType = podjson.V1MachineGPU{ID: t.ID, DisplayName: t.Name, SecurePrice: t.Price.Secure, CommunityPrice: t.Price.Community}
				m.GpuType = &mp.gpuType
				if g := out[i].GPU; g != nil {
					g.DisplayName, g.SecurePrice, g.CommunityPrice = t.Name, t.Price.Secure, t.Price.Community
				}
			}
		}
		out[i].Machine = m
	}
	return nil
}

// gpuTypesByID is the GPU catalog answer a by type id, made once per
// answer (decoded): the proxy shares a cached catalog answer between
// requests. The map and the types it points to are read-only.
func gpuTypesByID(a *V2Answer) (map[string]*v2GPUType, *Result) {
	return decoded(a, "GPU types by id", func(a *V2Answer) (map[string]*v2GPUType, *Result) {
		cat, r := decodeShared[v2GPUCatalog](a, "a GPU catalog")
		if r != nil {
			return nil, r
		}
		byID := make(map[string]*v2GPUType, len(cat.GPUs))
		for i := range cat.GPUs {
			byID[cat.GPUs[i].ID] = &cat.GPUs[i]
		}
		return byID, nil
	})
}

// ---------------------------------------------------------------------------
// Serverless workers (R-Worker)

type v2Worker struct {
	ID           string  `json:"id"`
	IsStale      bool    `json:"isStale"`
	Image        *string `json:"image"`
	GPUTypeID    *string `json:"gpuTypeId"`
	GPUCount     int     `json:"gpuCount"`
	DataCenterID *string `json:"dataCenterId"`
	StartedAt    *string `json:"startedAt"`
	Version      *int    `json:"version"`
}

type v2WorkerList struct {
	Workers []v2Worker `json:"workers"`
}

// podWorker is a worker with the endpoint it belongs to.
type podWorker struct {
	v2Worker
	endpointID string
}

// v1Worker is a v1 Pod built from a v2 Worker: what v2 tells about workers
// is far less than about pods. Every key of v1's Pod is there (issue 37),
// as in a pod's answer (podjson.V1Pod): what v2 tells, v1's value where it
// is certain (no entrypoint override, no spot, no lock, no pod volume), the
// list prices of its GPU type (workerprice.go), and null where it is
// unknown (a worker's name, savings plans, public address, host machine;
// its image and GPU until v2 places it). machine is there with
// includeMachine, as v1's, and in an endpoint's workers (v1's GET
// /endpoints has no includeMachine).
type v1Worker struct {
	ID   string                 `json:"id"`
	Name podjson.NullableString `json:"name"` // always null: v2 workers have no name
	// Image is the worker's, from v2 once placed, else its endpoint's
	// when it runs the endpoint's current configuration (workerContainer).
	Image podjson.NullableString `json:"image"`
	// TemplateID is the endpoint's (a v1 worker is a pod made from its
	// endpoint's template), when known (workerTemplates).
	TemplateID    podjson.NullableString `json:"templateId"`
	DesiredStatus string                 `json:"desiredStatus"`
	GPU           *podjson.V1PodGPU      `json:"gpu" nullable:"1"` // null until v2 places the worker
	LastStartedAt podjson.NullableString `json:"lastStartedAt"`
	EndpointID    string                 `json:"endpointId"`
	AiAPIID       string                 `json:"aiApiId"`
	SlsVersion    *int                   `json:"slsVersion" nullable:"1"`
	Machine       *v1WorkerMachine       `json:"machine,omitempty"` // with includeMachine, and in an endpoint's workers
	// A worker's CPU flavor, vCPUs and RAM, its host machine, last status
	// change and renter: v2 tells none of them.
	CPUFlavorID      podjson.NullableString `json:"cpuFlavorId"`
	VcpuCount        *int                   `json:"vcpuCount" nullable:"1"`
	MemoryInGb       *int                   `json:"memoryInGb" nullable:"1"`
	MachineID        podjson.NullableString `json:"machineId"`
	LastStatusChange podjson.NullableString `json:"lastStatusChange"`
	ConsumerUserID   podjson.NullableString `json:"consumerUserId"`

	// The container a worker runs is its endpoint's (container fields),
	// set by workerContainer when the worker runs the endpoint's current
	// settings; null otherwise.
	ContainerDiskInGb       *int            `json:"containerDiskInGb" nullable:"1"`
	ContainerRegistryAuthID *string         `json:"containerRegistryAuthId" nullable:"1"`
	DockerEntrypoint        []string        `json:"dockerEntrypoint"` // always []: v2 has no entrypoint override
	DockerStartCmd          []string        `json:"dockerStartCmd" nullable:"1"`
	Env                     json.RawMessage `json:"env" nullable:"1"`
	Ports                   json.RawMessage `json:"ports" nullable:"1"`
	// v1's certain values for a serverless worker in v2: no spot, no lock,
	// no pod volume (so nothing encrypted).
	Interruptible   bool `json:"interruptible"`
	Locked          bool `json:"locked"`
	VolumeInGb      int  `json:"volumeInGb"`
	VolumeEncrypted bool `json:"volumeEncrypted"`
	// List prices from the GPU catalog (priceWorkers), null when it has
	// none for the worker's GPU type (or was not read).
	CostPerHr         *float64 `json:"costPerHr" nullable:"1"`
	AdjustedCostPerHr *float64 `json:"adjustedCostPerHr" nullable:"1"`
	// Unknown for a worker in v2: null.
	NetworkVolume   *podjson.V1PodNetworkVolume `json:"networkVolume" nullable:"1"`
	PortMappings    *map[string]int             `json:"portMappings" nullable:"1"`
	PublicIP        *string                     `json:"publicIp" nullable:"1"`
	SavingsPlans    *[]struct{}                 `json:"savingsPlans" nullable:"1"`
	VolumeMountPath *string                     `json:"volumeMountPath" nullable:"1"`
	stale           bool                        // runs an older configuration than its endpoint's
}

// workerContainer fills the container fields of the workers of endpoint e
// that run its current configuration (v2 isStale false): a v1 worker was a
// pod made from its endpoint's template.
func workerContainer(ws []v1Worker, e *v2Endpoint) {
	for i := range ws {
		w := &ws[i]
		if w.stale {
			continue
		}
		if w.Image == "" {
			w.Image = podjson.NullableString(e.Image)
		}
		w.ContainerDiskInGb = ptrTo(e.Disk)
		if e.Registry != nil && *e.Registry != "" {
			w.ContainerRegistryAuthID = ptrTo(*e.Registry)
		}
		w.DockerStartCmd = nonNil(podjson.SplitPodArgs(e.Args))
		w.Env = rawOr(e.Env, jsonEmptyObject)
		w.Ports = rawOr(e.Ports, jsonEmptyArray)
	}
}

func endpointWorkers(ctx context.Context, req *Request, c Caller, endpointID string) ([]podWorker, *Result) {
	if !ValidID(endpointID) {
		return nil, nil
	}
	a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: V2Path("/v2/serverless/%s/workers", endpointID)})
	if err != nil {
		return nil, FromCallError(err)
	}
	if a.Status == http.StatusNotFound {
		return nil, nil // a filter that matches nothing
	}
	if !a.OK() {
		return nil, FromV2Error(req.Op, a)
	}
	list, r := decodeV2[v2WorkerList](a, "a worker list")
	if r != nil {
		return nil, r
	}
	out := make([]podWorker, len(list.Workers))
	for i := range list.Workers {
		out[i] = podWorker{list.Workers[i], endpointID}
	}
	return out, nil
}

type v2EndpointIDList struct {
	Endpoints []struct {
		ID string `json:"id"`
	} `json:"endpoints"`
}

func allWorkers(ctx context.Context, req *Request, c Caller) ([]podWorker, *Result) {
	a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/serverless"})
	if err != nil {
		return nil, FromCallError(err)
	}
	if !a.OK() {
		return nil, FromV2Error(req.Op, a)
	}
	eps, r := decodeV2[v2EndpointIDList](a, "an endpoint list")
	if r != nil {
		return nil, r
	}
	if len(eps.Endpoints) > maxWorkerEndpoints {
		return nil, refuseV2(fmt.Sprintf("includeWorkers: the account has %d serverless endpoints; listing all their workers would take %d v2 calls (the gateway's limit is %d endpoints): filter with endpointId instead",
			len(eps.Endpoints), len(eps.Endpoints)+1, maxWorkerEndpoints))
	}
	var all []podWorker
	for _, e := range eps.Endpoints {
		ws, r := endpointWorkers(ctx, req, c, e.ID)
		if r != nil {
			return nil, r
		}
		all = append(all, ws...)
	}
	return all, nil
}

// workerTemplates gives workers their endpoint's templateId from the fact
// store (a v1 worker is a pod made from its endpoint's template), then
// applies the templateId filter, which only a worker with a known
// templateId can match.
func workerTemplates(ctx context.Context, req *Request, q *podQuery, ws []v1Worker) []v1Worker {
	var ids []string
	for i := range ws {
		if id := ws[i].EndpointID; id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	known := lookupFacts(ctx, req, FactEndpoint, ids)
	out := ws[:0]
	for _, w := range ws {
		w.TemplateID = podjson.NullableString(known[w.EndpointID].TemplateID)
		if q.templateID != nil && *q.templateID != string(w.TemplateID) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// filterWorkers applies the v1 filters to workers (a filter on something a
// worker does not have excludes it) and maps them (R-Worker).
func filterWorkers(q *podQuery, ws []podWorker, machine bool) []v1Worker {
	out := make([]v1Worker, 0, len(ws))
	for i := range ws {
		w := &ws[i]
		gpuType := ""
		if w.GPUTypeID != nil {
			gpuType = *w.GPUTypeID
		}
		dc := ""
		if w.DataCenterID != nil {
			dc = *w.DataCenterID
		}
		image := ""
		if w.Image != nil {
			image = *w.Image
		}
		switch {
		case q.computeType == "GPU" && w.GPUCount == 0,
			q.computeType == "CPU" && w.GPUCount > 0,
			q.cpuFlavorIDs != nil, q.name != nil, q.networkVolume != nil,
			q.gpuTypeIDs != nil && !slices.Contains(q.gpuTypeIDs, gpuType),
			q.dataCenterIDs != nil && !slices.Contains(q.dataCenterIDs, dc),
			q.desiredStatus != "" && q.desiredStatus != "RUNNING",
			q.id != nil && *q.id != w.ID,
			q.imageName != nil && *q.imageName != image:
			continue
		}
		v := v1Worker{
			ID:               w.ID,
			Image:            podjson.NullableString(image),
			DesiredStatus:    "RUNNING", // v2 lists only active workers
			EndpointID:       w.endpointID,
			AiAPIID:          w.endpointID,
			SlsVersion:       w.Version,
			DockerEntrypoint: []string{},
			stale:            w.IsStale,
		}
		if gpuType != "" {
			v.GPU = &podjson.V1PodGPU{ID: gpuType, Count: w.GPUCount}
		}
		if w.StartedAt != nil {
			v.LastStartedAt = podjson.NullableString(*w.StartedAt)
		}
		if machine && (gpuType != "" || dc != "") {
			v.Machine = &v1WorkerMachine{GpuTypeID: gpuType, DataCenterID: dc}
		}
		out = append(out, v)
	}
	return out
}
