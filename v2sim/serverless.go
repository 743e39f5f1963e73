package v2sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
)

// Serverless timeline: a worker is INITIALIZING for workerInitDuration after
// it is allocated, then IDLE (every third one RUNNING). A release made after
// a worker was allocated reaches worker i (0-based) rollStep*(i+1) after the
// release, so a roll-out is observable through isStale, the releases' worker
// counts and the rollout summary.
const (
	workerInitDuration = 10 * time.Second
	rollStep           = 10 * time.Second
	maxWorkersQuota    = 100 // simulator's choice: the document names no quota
)

type epGPU struct {
	pools, excluded []string
	count           int
	allowed         []string
	minCuda         string
}

type epCPU struct {
	id           string
	vcpu, memory int
}

type scalingCfg struct {
	typ          string
	queueDelay   float64
	requestCount int
}

type release struct {
	id      string
	version int
	at      time.Time
	diff    []diffEntryJSON
	image   string
}

type worker struct {
	id  string
	at  time.Time
	idx int
}

type endpoint struct {
	seq        int64
	id, name   string
	typ        string
	container  containerCfg
	gpu        *epGPU
	cpu        []epCPU
	wMin, wMax int
	idle       int
	scaling    scalingCfg
	dcs, vols  []string
	timeout    int
	flashboot  string
	createdAt  time.Time
	templateID string // the bound template (see Options.EndpointTemplate)
	strictDCs  bool   // Options.DataCenters == DataCentersStrict
	releases   []*release
	workers    []*worker
}

// ---------------------------------------------------------------------------
// JSON

type diffEntryJSON struct {
	Field string `json:"field"`
	Old   any    `json:"old"`
	New   any    `json:"new"`
}

type epGPUJSON struct {
	Pools               []string `json:"pools"`
	ExcludedTypes       []string `json:"excludedTypes,omitempty"`
	Count               int      `json:"count"`
	AllowedCudaVersions []string `json:"allowedCudaVersions"`
	MinCudaVersion      *string  `json:"minCudaVersion"`
}

type epWorkersJSON struct {
	Min         int  `json:"min"`
	Max         int  `json:"max"`
	IdleTimeout *int `json:"idleTimeout,omitempty"`
}

type queueDelayJSON struct {
	Type       string  `json:"type"`
	QueueDelay float64 `json:"queueDelay"`
}

type requestCountJSON struct {
	Type         string `json:"type"`
	RequestCount int    `json:"requestCount"`
}

type queueURLsJSON struct {
	Run        string `json:"run"`
	RunSync    string `json:"runSync"`
	Status     string `json:"status"`
	Stream     string `json:"stream"`
	Cancel     string `json:"cancel"`
	Retry      string `json:"retry"`
	PurgeQueue string `json:"purgeQueue"`
	Health     string `json:"health"`
}

type lbURLsJSON struct {
	Base   string `json:"base"`
	Health string `json:"health"`
}

type endpointJSON struct {
	ID             string            `json:"id"`
	Name           string            `json:"name"`
	Type           string            `json:"type"`
	RequestUrls    any               `json:"requestUrls"`
	Image          string            `json:"image"`
	Args           string            `json:"args"`
	Disk           int               `json:"disk"`
	Ports          []string          `json:"ports"`
	Env            map[string]string `json:"env"`
	Registry       *string           `json:"registry"`
	Gpu            *epGPUJSON        `json:"gpu,omitempty"`
	CPU            []podCPUJSON      `json:"cpu,omitempty"`
	Workers        epWorkersJSON     `json:"workers"`
	Scaling        any               `json:"scaling"`
	DataCenterIDs  []string          `json:"dataCenterIds"`
	NetworkVolumes []string          `json:"networkVolumes"`
	Timeout        int               `json:"timeout"`
	Flashboot      string            `json:"flashboot"`
	CreatedAt      string            `json:"createdAt"`
}

type workerJSON struct {
	ID            string  `json:"id"`
	Status        string  `json:"status"`
	IsStale       bool    `json:"isStale"`
	Version       *int    `json:"version"`
	GpuCount      int     `json:"gpuCount"`
	Image         *string `json:"image"`
	UptimeSeconds *int    `json:"uptimeSeconds"`
	GpuTypeID     *string `json:"gpuTypeId"`
	DataCenterID  *string `json:"dataCenterId"`
	StartedAt     *string `json:"startedAt"`
}

type workerSummaryJSON struct {
	Running      int `json:"running"`
	Idle         int `json:"idle"`
	Initializing int `json:"initializing"`
	Throttled    int `json:"throttled"`
	Unhealthy    int `json:"unhealthy"`
	Total        int `json:"total"`
}

type releaseJSON struct {
	ID              string          `json:"id"`
	Version         *int            `json:"version"`
	Source          string          `json:"source"`
	BuildID         *string         `json:"buildId"`
	CreatedByUserID *string         `json:"createdByUserId"`
	WorkerCount     int             `json:"workerCount"`
	CreatedAt       string          `json:"createdAt"`
	Diff            []diffEntryJSON `json:"diff"`
}

type rolloutJSON struct {
	InProgress      bool `json:"inProgress"`
	WorkersOnLatest int  `json:"workersOnLatest"`
	WorkersTotal    int  `json:"workersTotal"`
	PercentOnLatest int  `json:"percentOnLatest"`
}

func (e *endpoint) idleApplies() bool {
	return !(e.typ == "QUEUE" && e.scaling.typ == "REQUEST_COUNT")
}

func (e *endpoint) scalingJSON() any {
	if e.scaling.typ == "REQUEST_COUNT" {
		return requestCountJSON{Type: "REQUEST_COUNT", RequestCount: e.scaling.requestCount}
	}
	return queueDelayJSON{Type: "QUEUE_DELAY", QueueDelay: e.scaling.queueDelay}
}

func (e *endpoint) render() endpointJSON {
	out := endpointJSON{
		ID: e.id, Name: e.name, Type: e.typ,
		Image: e.container.image, Args: e.container.args, Disk: e.container.disk,
		Ports: nonNilStrings(e.container.ports), Env: nonNilMap(e.container.env), Registry: e.container.registryJSON(),
		Workers:       epWorkersJSON{Min: e.wMin, Max: e.wMax},
		Scaling:       e.scalingJSON(),
		DataCenterIDs: nonNilStrings(e.dcs), NetworkVolumes: nonNilStrings(e.vols),
		Timeout: e.timeout, Flashboot: e.flashboot, CreatedAt: ts(e.createdAt),
	}
	if e.idleApplies() {
		v := e.idle
		out.Workers.IdleTimeout = &v
	}
	if e.typ == "LOAD_BALANCER" {
		base := "https://" + e.id + ".api.runpod.ai"
		path := e.container.env["HEALTH_CHECK_PATH"]
		if path == "" {
			path = "/ping"
		}
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		out.RequestUrls = lbURLsJSON{Base: base, Health: base + path}
	} else {
		base := "https://api.runpod.ai/v2/" + e.id
		out.RequestUrls = queueURLsJSON{
			Run: base + "/run", RunSync: base + "/runsync", Status: base + "/status/{job_id}",
			Stream: base + "/stream/{job_id}", Cancel: base + "/cancel/{job_id}", Retry: base + "/retry/{job_id}",
			PurgeQueue: base + "/purge-queue", Health: base + "/health",
		}
	}
	if e.gpu != nil {
		g := &epGPUJSON{Pools: nonNilStrings(e.gpu.pools), ExcludedTypes: e.gpu.excluded, Count: e.gpu.count, AllowedCudaVersions: nonNilStrings(e.gpu.allowed)}
		if e.gpu.minCuda != "" {
			g.MinCudaVersion = strPtr(e.gpu.minCuda)
		}
		out.Gpu = g
	}
	for _, c := range e.cpu {
		out.CPU = append(out.CPU, podCPUJSON{ID: c.id, VcpuCount: c.vcpu, Memory: c.memory})
	}
	return out
}

func (e *endpoint) currentVersion() int { return e.releases[len(e.releases)-1].version }

func (e *endpoint) workerVersion(w *worker, now time.Time) int {
	v := e.releases[0].version
	for _, r := range e.releases {
		if !r.at.After(w.at) || !now.Before(r.at.Add(rollStep*time.Duration(w.idx+1))) {
			v = r.version
		}
	}
	return v
}

func (e *endpoint) releaseImage(version int) string {
	for _, r := range e.releases {
		if r.version == version {
			return r.image
		}
	}
	return e.container.image
}

// placement of workers: the first eligible GPU type with serverless stock in
// a listed data center; then (reading DataCentersPreferred, or no list) in
// any other data center.
func (e *endpoint) placement() (gpuType, dc string) {
	var groups [][]string
	if len(e.dcs) > 0 {
		groups = append(groups, e.dcs)
	}
	if len(e.dcs) == 0 || !e.strictDCs {
		var rest []string
		for _, d := range dataCenters {
			if !contains(e.dcs, d.id) {
				rest = append(rest, d.id)
			}
		}
		groups = append(groups, rest)
	}
	for _, dcs := range groups {
		if e.gpu != nil {
			q := gpuQuery{products: []string{"SERVERLESS"}, count: e.gpu.count, cloud: "SECURE"}
			for _, id := range eligibleTypes(e.gpu.pools, e.gpu.excluded) {
				g := findGPU(id)
				for _, d := range dcs {
					if dcObj := findDC(d); dcObj != nil {
						if l, _ := g.dcLevel(dcObj, q); l != "NONE" {
							return g.id, d
						}
					}
				}
			}
			continue
		}
		for _, c := range e.cpu {
			ct := findCPU(c.id)
			for _, d := range dcs {
				if dcObj := findDC(d); dcObj != nil && ct != nil {
					if l, _ := ct.dcLevel(dcObj, c.vcpu); l != "NONE" {
						return "", d
					}
				}
			}
		}
	}
	return "", ""
}

func (e *endpoint) workerStatus(w *worker, now time.Time) string {
	if now.Before(w.at.Add(workerInitDuration)) {
		return "INITIALIZING"
	}
	gpuType, dc := e.placement()
	if dc == "" || (e.gpu != nil && gpuType == "") {
		return "THROTTLED"
	}
	if w.idx%3 == 1 {
		return "RUNNING"
	}
	return "IDLE"
}

func (e *endpoint) renderWorker(w *worker, now time.Time) workerJSON {
	st := e.workerStatus(w, now)
	v := e.workerVersion(w, now)
	out := workerJSON{ID: w.id, Status: st, IsStale: v != e.currentVersion(), Version: &v}
	if e.gpu != nil {
		out.GpuCount = e.gpu.count
	}
	img := e.releaseImage(v)
	out.Image = &img
	gpuType, dc := e.placement()
	if gpuType != "" {
		out.GpuTypeID = strPtr(gpuType)
	}
	if dc != "" {
		out.DataCenterID = strPtr(dc)
	}
	if st != "INITIALIZING" && st != "THROTTLED" {
		started := w.at.Add(workerInitDuration)
		up := int(now.Sub(started) / time.Second)
		out.UptimeSeconds = &up
		out.StartedAt = strPtr(ts(started))
	}
	return out
}

// ---------------------------------------------------------------------------
// rules shared by create and update

func eligibleTypes(pools, excluded []string) []string {
	var out []string
	for _, g := range gpuTypes {
		if g.pool != "" && contains(pools, g.pool) && !contains(excluded, g.id) {
			out = append(out, g.id)
		}
	}
	return out
}

func checkGPUSelection(pools, excluded []string) *reply {
	for i, p := range pools {
		if !poolExists(p) {
			return badRequest("gpu.pools[%d]: unknown serverless GPU pool %q (see the pool field of GET /v2/catalog/gpus)", i, p)
		}
	}
	for i, x := range excluded {
		g := findGPU(x)
		if g == nil || !contains(pools, g.pool) {
			return badRequest("gpu.excludedTypes[%d]: %q is not a GPU type in one of the selected pools", i, x)
		}
	}
	if len(eligibleTypes(pools, excluded)) == 0 {
		return badRequest("gpu.excludedTypes: the selection leaves no GPU type in the selected pools")
	}
	return nil
}

func parseCPUList(body map[string]any) ([]epCPU, *reply) {
	arr, _ := body["cpu"].([]any)
	var out []epCPU
	for i, x := range arr {
		m, _ := x.(map[string]any)
		id, _ := getStr(m, "id")
		vcpu, _ := getInt(m, "vcpuCount")
		ct := findCPU(id)
		if ct == nil {
			return nil, badRequest("cpu[%d].id: unknown CPU flavor %q (see GET /v2/catalog/cpus)", i, id)
		}
		if vcpu < ct.vcpuMin || vcpu > ct.vcpuMax {
			return nil, badRequest("cpu[%d].vcpuCount: %d is not valid for CPU flavor %q (%d..%d)", i, vcpu, id, ct.vcpuMin, ct.vcpuMax)
		}
		out = append(out, epCPU{id: id, vcpu: vcpu, memory: ct.memoryFor(vcpu)})
	}
	return out, nil
}

func parseScaling(body map[string]any) (scalingCfg, bool) {
	m, ok := getObj(body, "scaling")
	if !ok {
		return scalingCfg{}, false
	}
	var sc scalingCfg
	sc.typ, _ = getStr(m, "type")
	sc.queueDelay, _ = getFloat(m, "queueDelay")
	sc.requestCount, _ = getInt(m, "requestCount")
	return sc, true
}

func (s *Server) checkEndpointRefs(dcs, vols []string) *reply {
	if rep := checkDataCenterIDs(dcs); rep != nil {
		return rep
	}
	for i, v := range vols {
		if s.st.volumes[v] == nil {
			return badRequest("networkVolumes[%d]: network volume %q not found", i, v)
		}
	}
	return nil
}

// checkWorkers: simulator's choices (the document states neither rule).
func checkWorkers(e *endpoint) *reply {
	if e.wMin > e.wMax {
		return badRequest("workers.min (%d) must be <= workers.max (%d)", e.wMin, e.wMax)
	}
	if e.wMax > maxWorkersQuota {
		return badRequest("workers.max %d exceeds the account's worker quota (%d)", e.wMax, maxWorkersQuota)
	}
	return nil
}

// syncWorkers allocates or releases workers to match workers.min.
func (s *Server) syncWorkers(e *endpoint, now time.Time) {
	for len(e.workers) < e.wMin {
		e.workers = append(e.workers, &worker{id: s.newID(14), at: now, idx: len(e.workers)})
	}
	e.workers = e.workers[:e.wMin]
}

func (s *Server) endpointRates(e *endpoint, now time.Time) {
	var gpu, cpu float64
	if e.gpu != nil {
		if types := eligibleTypes(e.gpu.pools, e.gpu.excluded); len(types) > 0 {
			gpu = findGPU(types[0]).priceServerless * float64(e.gpu.count*e.wMin)
		}
	}
	if len(e.cpu) > 0 {
		if ct := findCPU(e.cpu[0].id); ct != nil {
			cpu = ct.priceSl * float64(e.cpu[0].vcpu*e.wMin)
		}
	}
	s.reopenUsage("serverless", e.id, "gpu", round(gpu, 4), now)
	s.reopenUsage("serverless", e.id, "cpu", round(cpu, 4), now)
	s.reopenUsage("serverless", e.id, "fee", round((gpu+cpu)*0.05, 4), now)
	s.reopenUsage("serverless", e.id, "disk", diskRate(e.container.disk*e.wMin), now)
}

// snapshot flattens the endpoint's configuration for release diffs.
func (e *endpoint) snapshot() map[string]any {
	m := map[string]any{
		"name": e.name, "image": e.container.image, "args": e.container.args, "disk": e.container.disk,
		"ports": nonNilStrings(e.container.ports), "env": nonNilMap(e.container.env),
		"registry":    e.container.registryJSON(),
		"workers.min": e.wMin, "workers.max": e.wMax, "workers.idleTimeout": e.idle,
		"scaling": e.scalingJSON(), "dataCenterIds": nonNilStrings(e.dcs), "networkVolumes": nonNilStrings(e.vols),
		"timeout": e.timeout, "flashboot": e.flashboot,
	}
	if e.gpu != nil {
		m["gpu.pools"] = nonNilStrings(e.gpu.pools)
		m["gpu.excludedTypes"] = nonNilStrings(e.gpu.excluded)
		m["gpu.count"] = e.gpu.count
		m["gpu.allowedCudaVersions"] = nonNilStrings(e.gpu.allowed)
		if e.gpu.minCuda != "" {
			m["gpu.minCudaVersion"] = e.gpu.minCuda
		} else {
			m["gpu.minCudaVersion"] = nil
		}
	}
	if e.cpu != nil {
		m["cpu"] = e.render().CPU
	}
	return m
}

func diffSnapshots(old, cur map[string]any) []diffEntryJSON {
	keys := map[string]bool{}
	for k := range old {
		keys[k] = true
	}
	for k := range cur {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var out []diffEntryJSON
	for _, k := range sorted {
		a, _ := json.Marshal(old[k])
		b, _ := json.Marshal(cur[k])
		if !bytes.Equal(a, b) {
			out = append(out, diffEntryJSON{Field: k, Old: old[k], New: cur[k]})
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// handlers

func (s *Server) sortedEndpoints() []*endpoint {
	out := make([]*endpoint, 0, len(s.st.endpoints))
	for _, e := range s.st.endpoints {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

func (s *Server) listEndpoints(c *call) *reply {
	out := []endpointJSON{}
	for _, e := range s.sortedEndpoints() {
		out = append(out, e.render())
	}
	return jsonReply(http.StatusOK, map[string]any{"endpoints": out})
}

func (s *Server) getEndpoint(c *call) *reply {
	e := s.st.endpoints[c.param("id")]
	if e == nil {
		return notFound("serverless endpoint", c.param("id"))
	}
	return jsonReply(http.StatusOK, e.render())
}

func (s *Server) createEndpoint(c *call) *reply {
	body, rep := decodeBody(c.body, createEndpointSchema)
	if rep != nil {
		return rep
	}
	gpuBody, isGPU := getObj(body, "gpu")
	_, isCPU := body["cpu"].([]any)
	if isGPU == isCPU {
		return badRequest("exactly one of gpu or cpu must be set")
	}
	e := &endpoint{wMin: 0, wMax: 3, idle: 10, timeout: 300000, flashboot: "OFF", createdAt: c.now, strictDCs: s.strictDCs}
	e.name, _ = getStr(body, "name")
	e.typ, _ = getStr(body, "type")
	e.scaling, _ = parseScaling(body)

	// Simulator's choice: disk 50 when neither body nor template sets it
	// (the document gives only a minimum of 1 and the example 50).
	cc := containerCfg{disk: 50, ports: []string{}, env: map[string]string{}}
	var tpl *template
	if tid, ok := getStr(body, "templateId"); ok {
		tpl, rep = s.findTemplateFor(tid, true)
		if rep != nil {
			return rep
		}
		cc.applyTemplate(tpl, body)
	} else {
		cc.applyBody(body)
	}
	if rep := s.checkContainer(cc); rep != nil {
		return rep
	}
	e.container = cc

	if isGPU {
		g := &epGPU{count: 1}
		g.pools, _ = getStrings(gpuBody, "pools")
		if ex, ok := getStrings(gpuBody, "excludedTypes"); ok {
			for _, x := range ex {
				g.excluded = append(g.excluded, strings.TrimSpace(x))
			}
		}
		if n, ok := getInt(gpuBody, "count"); ok {
			g.count = n
		}
		g.allowed, _ = getStrings(gpuBody, "allowedCudaVersions")
		g.minCuda, _ = getStr(gpuBody, "minCudaVersion")
		if len(g.allowed) > 0 && g.minCuda != "" {
			return badRequest("gpu.allowedCudaVersions (non-empty) and gpu.minCudaVersion are mutually exclusive")
		}
		if tpl != nil && !has(gpuBody, "allowedCudaVersions") && !has(gpuBody, "minCudaVersion") {
			g.allowed = append([]string(nil), tpl.allowedCuda...)
		}
		if rep := checkGPUSelection(g.pools, g.excluded); rep != nil {
			return rep
		}
		e.gpu = g
	} else {
		e.cpu, rep = parseCPUList(body)
		if rep != nil {
			return rep
		}
	}
	if w, ok := getObj(body, "workers"); ok {
		if v, ok := getInt(w, "min"); ok {
			e.wMin = v
		}
		if v, ok := getInt(w, "max"); ok {
			e.wMax = v
		}
		if v, ok := getInt(w, "idleTimeout"); ok {
			if !e.idleApplies() {
				return badRequest("workers.idleTimeout is not applicable to queue-based endpoints scaling on REQUEST_COUNT")
			}
			e.idle = v
		}
	}
	if rep := checkWorkers(e); rep != nil {
		return rep
	}
	e.dcs, _ = getStrings(body, "dataCenterIds")
	e.vols, _ = getStrings(body, "networkVolumes")
	if rep := s.checkEndpointRefs(e.dcs, e.vols); rep != nil {
		return rep
	}
	if v, ok := getInt(body, "timeout"); ok {
		if v < 1 { // simulator's choice: the schema sets no minimum
			return badRequest("timeout must be a positive number of milliseconds")
		}
		e.timeout = v
	}
	if v, ok := getStr(body, "flashboot"); ok {
		e.flashboot = v
	}

	e.seq, e.id = s.st.nextSeq(), s.newID(14)
	if s.callerBound && tpl != nil && tpl.owned {
		// Reading EndpointTemplateCaller: the caller's own template is bound.
		e.templateID = tpl.id
	} else {
		// Reading EndpointTemplateCopy (and, under EndpointTemplateCaller, an
		// endpoint without an owned template): the endpoint gets a bound
		// template of its own. Simulator's choice: it is an owned template,
		// so GET /v2/templates lists it ("all templates owned by the
		// authenticated user"), and its name "<endpoint>__template__<id>" is
		// invented (the document names none).
		bound := &template{
			seq: s.st.nextSeq(), id: s.newID(10), owned: true,
			name:       fmt.Sprintf("%s__template__%s", e.name, e.id[:7]),
			container:  e.container.clone(),
			serverless: true, category: "NVIDIA", allowedCuda: []string{},
		}
		if e.cpu != nil {
			bound.category = "CPU"
		}
		s.st.templates[bound.id] = bound
		e.templateID = bound.id
	}
	e.releases = []*release{{id: s.newID(10), version: 1, at: c.now, diff: []diffEntryJSON{}, image: e.container.image}}
	s.syncWorkers(e, c.now)
	s.st.endpoints[e.id] = e
	s.endpointRates(e, c.now)
	return jsonReply(http.StatusCreated, e.render())
}

func (s *Server) updateEndpoint(c *call) *reply {
	body, rep := decodeBody(c.body, updateEndpointSchema)
	if rep != nil {
		return rep
	}
	cur := s.st.endpoints[c.param("id")]
	if cur == nil {
		return notFound("serverless endpoint", c.param("id"))
	}
	gpuBody, hasGPU := getObj(body, "gpu")
	_, hasCPU := body["cpu"].([]any)
	switch {
	case hasGPU && hasCPU:
		return badRequest("gpu and cpu cannot both be set")
	case hasGPU && cur.gpu == nil:
		return badRequest("gpu cannot be set on a CPU endpoint: the compute family of an endpoint is immutable")
	case hasCPU && cur.gpu != nil:
		return badRequest("cpu cannot be set on a GPU endpoint: the compute family of an endpoint is immutable")
	}
	e := *cur // work on a copy; commit at the end
	e.container = cur.container.clone()
	if tid, ok := getStr(body, "templateId"); ok {
		tpl, rep := s.findTemplateFor(tid, true)
		if rep != nil {
			return rep
		}
		e.container.applyTemplate(tpl, body)
	} else {
		e.container.applyBody(body)
	}
	if rep := s.checkContainerPatch(cur.container, e.container); rep != nil {
		return rep
	}
	if v, ok := getStr(body, "name"); ok {
		e.name = v
	}
	if hasGPU {
		g := *cur.gpu
		if pools, ok := getStrings(gpuBody, "pools"); ok {
			g.pools, g.excluded = pools, nil
			if ex, ok := getStrings(gpuBody, "excludedTypes"); ok {
				for _, x := range ex {
					g.excluded = append(g.excluded, strings.TrimSpace(x))
				}
			}
			if rep := checkGPUSelection(g.pools, g.excluded); rep != nil {
				return rep
			}
		}
		if n, ok := getInt(gpuBody, "count"); ok {
			g.count = n
		}
		allowed, hasAllowed := getStrings(gpuBody, "allowedCudaVersions")
		minCuda, hasMin := getStr(gpuBody, "minCudaVersion")
		if len(allowed) > 0 && minCuda != "" {
			return badRequest("gpu.allowedCudaVersions (non-empty) and gpu.minCudaVersion are mutually exclusive")
		}
		if hasAllowed {
			g.allowed = allowed
		}
		if hasMin {
			g.minCuda = minCuda
		}
		if len(g.allowed) > 0 && g.minCuda != "" {
			return badRequest("the endpoint would carry both gpu.allowedCudaVersions and gpu.minCudaVersion; clear the other one explicitly in the same patch")
		}
		e.gpu = &g
	}
	if hasCPU {
		e.cpu, rep = parseCPUList(body)
		if rep != nil {
			return rep
		}
	}
	if sc, ok := parseScaling(body); ok {
		if e.typ == "LOAD_BALANCER" && sc.typ != "REQUEST_COUNT" {
			return badRequest("scaling: load-balancing endpoints require REQUEST_COUNT scaling")
		}
		e.scaling = sc
	}
	if w, ok := getObj(body, "workers"); ok {
		if v, ok := getInt(w, "min"); ok {
			e.wMin = v
		}
		if v, ok := getInt(w, "max"); ok {
			e.wMax = v
		}
		if v, ok := getInt(w, "idleTimeout"); ok {
			if !e.idleApplies() {
				return badRequest("workers.idleTimeout is not applicable to queue-based endpoints scaling on REQUEST_COUNT")
			}
			e.idle = v
		}
	}
	if rep := checkWorkers(&e); rep != nil {
		return rep
	}
	// PATCH changes only the fields present: only those are checked.
	var dcs, vols []string
	if v, ok := getStrings(body, "dataCenterIds"); ok {
		e.dcs, dcs = v, v
	}
	if v, ok := getStrings(body, "networkVolumes"); ok {
		e.vols, vols = v, v
	}
	if rep := s.checkEndpointRefs(dcs, vols); rep != nil {
		return rep
	}
	if v, ok := getInt(body, "timeout"); ok {
		if v < 1 { // simulator's choice: the schema sets no minimum
			return badRequest("timeout must be a positive number of milliseconds")
		}
		e.timeout = v
	}
	if v, ok := getStr(body, "flashboot"); ok {
		e.flashboot = v
	}

	if diff := diffSnapshots(cur.snapshot(), e.snapshot()); len(diff) > 0 {
		e.releases = append(append([]*release{}, cur.releases...), &release{
			id: s.newID(10), version: cur.currentVersion() + 1, at: c.now, diff: diff, image: e.container.image,
		})
	}
	*cur = e
	s.syncWorkers(cur, c.now)
	s.endpointRates(cur, c.now)
	return jsonReply(http.StatusOK, cur.render())
}

func (s *Server) deleteEndpoint(c *call) *reply {
	e := s.st.endpoints[c.param("id")]
	if e == nil {
		return notFound("serverless endpoint", c.param("id"))
	}
	if t := s.st.templates[e.templateID]; t != nil && t.owned {
		delete(s.st.templates, t.id)
	}
	e.workers = nil
	s.closeAllUsage("serverless", e.id, c.now)
	delete(s.st.endpoints, e.id)
	return noContent()
}

func (s *Server) listWorkers(c *call) *reply {
	e := s.st.endpoints[c.param("id")]
	if e == nil {
		return notFound("serverless endpoint", c.param("id"))
	}
	workers := []workerJSON{}
	var sum workerSummaryJSON
	for _, w := range e.workers {
		wj := e.renderWorker(w, c.now)
		workers = append(workers, wj)
		sum.Total++
		switch wj.Status {
		case "RUNNING":
			sum.Running++
		case "IDLE":
			sum.Idle++
		case "INITIALIZING":
			sum.Initializing++
		case "THROTTLED":
			sum.Throttled++
		case "UNHEALTHY":
			sum.Unhealthy++
		}
	}
	v := e.currentVersion()
	return jsonReply(http.StatusOK, map[string]any{"workers": workers, "summary": sum, "endpointVersion": v})
}

func (s *Server) listReleases(c *call) *reply {
	e := s.st.endpoints[c.param("id")]
	if e == nil {
		return notFound("serverless endpoint", c.param("id"))
	}
	counts := map[int]int{}
	for _, w := range e.workers {
		counts[e.workerVersion(w, c.now)]++
	}
	cur := e.currentVersion()
	out := []releaseJSON{}
	for i := len(e.releases) - 1; i >= 0; i-- {
		r := e.releases[i]
		v := r.version
		out = append(out, releaseJSON{
			ID: r.id, Version: &v, Source: "MANUAL", WorkerCount: counts[v],
			CreatedAt: ts(r.at), Diff: r.diff,
		})
	}
	ro := rolloutJSON{WorkersOnLatest: counts[cur], WorkersTotal: len(e.workers)}
	ro.InProgress = ro.WorkersOnLatest < ro.WorkersTotal
	if ro.WorkersTotal > 0 {
		ro.PercentOnLatest = ro.WorkersOnLatest * 100 / ro.WorkersTotal
	}
	return jsonReply(http.StatusOK, map[string]any{"endpointVersion": cur, "rollout": ro, "releases": out})
}

func (s *Server) workerLogs(c *call) *reply {
	e := s.st.endpoints[c.param("id")]
	if e == nil {
		return notFound("serverless endpoint", c.param("id"))
	}
	var w *worker
	for _, x := range e.workers {
		if x.id == c.param("workerId") {
			w = x
		}
	}
	if w == nil {
		return notFound("worker", c.param("workerId"))
	}
	var ev []logEvent
	add := func(at time.Time, source, line string) {
		if !at.After(c.now) {
			ev = append(ev, logEvent{at: at, source: source, line: line})
		}
	}
	_, dc := e.placement()
	add(w.at, "system", "worker "+w.id+" allocated in "+dc)
	add(w.at.Add(time.Second), "system", "pulling image "+e.releaseImage(e.workerVersion(w, c.now)))
	ready := w.at.Add(workerInitDuration)
	add(ready, "container", "Worker ready.")
	if !c.now.Before(ready) {
		n := int(c.now.Sub(ready) / time.Minute)
		first := 1
		if n > 5000 {
			first = n - 4999
		}
		for i := first; i <= n; i++ {
			add(ready.Add(time.Duration(i)*time.Minute), "container", fmt.Sprintf("polling for jobs (%d)", i))
		}
	}
	return sseReply(c, ev)
}
