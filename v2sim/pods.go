package v2sim

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

type podGPU struct {
	id          string
	count       int
	allowedCuda []string
	minCuda     string
}

type podCPU struct {
	id     string
	vcpu   int
	memory int
}

type pod struct {
	seq       int64
	id, name  string
	container containerCfg
	gpu       *podGPU
	cpu       *podCPU
	cloud     string
	dc        string
	cuda      string // "" = null
	mounts    mounts
	locked    bool
	gnDesired bool // as last requested
	gnActive  bool // in effect since the last start/restart
	gnIP      string

	createdAt time.Time
	placedAt  time.Time     // visible from then on (cluster members are placed later)
	bootAt    time.Time     // last create/start/restart
	provDur   time.Duration // PROVISIONING length of the current boot
	stopped   bool
	errored   bool
	lastRun   *time.Time // when the pod last reached RUNNING before the current boot

	clusterID string
	rank      int
	role      string

	templateID string // `template`: set only under PodTemplateVisible (no hidden link)
	sshUser    string
	publicIP   string
	portBase   int
}

func (p *pod) visible(now time.Time) bool { return !now.Before(p.placedAt) }

func (p *pod) runningAt() time.Time { return p.bootAt.Add(p.provDur + startDuration) }

func (p *pod) status(now time.Time) string {
	switch {
	case p.errored:
		return "ERROR"
	case p.stopped:
		return "EXITED"
	}
	el := now.Sub(p.bootAt)
	switch {
	case el < p.provDur:
		return "PROVISIONING"
	case el < p.provDur+startDuration:
		return "STARTING"
	}
	return "RUNNING"
}

// actions lists the transitions valid in the pod's status. "Locked pods
// cannot be stopped or reset": v2 has no reset action, and the simulator's
// choice is that `restart` ("restart a RUNNING pod's container in place") and
// `terminate` are not blocked; only `stop` is.
func (p *pod) actions(now time.Time) []string {
	var out []string
	switch p.status(now) {
	case "RUNNING":
		out = []string{"stop", "restart", "terminate"}
	case "EXITED", "ERROR":
		out = []string{"start", "terminate"}
	case "PROVISIONING", "STARTING":
		out = []string{"stop", "terminate"}
	default:
		return []string{}
	}
	if p.locked {
		kept := out[:0]
		for _, a := range out {
			if a != "stop" {
				kept = append(kept, a)
			}
		}
		out = kept
	}
	return out
}

func (p *pod) startedAt(now time.Time) *time.Time {
	if !p.stopped && !p.errored && !now.Before(p.runningAt()) {
		t := p.runningAt()
		return &t
	}
	return p.lastRun
}

// hourlyRate is the compute price per hour of the pod's shape.
func (p *pod) hourlyRate() (gpu, cpu float64) {
	if p.gpu != nil {
		if g := findGPU(p.gpu.id); g != nil {
			price := g.priceSecure
			if p.cloud == "COMMUNITY" {
				price = g.priceCommunity
			}
			return round(price*float64(p.gpu.count), 4), 0
		}
	}
	if p.cpu != nil {
		if c := findCPU(p.cpu.id); c != nil {
			return 0, round(c.priceSecure*float64(p.cpu.vcpu), 4)
		}
	}
	return 0, 0
}

// cost is 0.0 when EXITED or TERMINATED (the document's words) and, the
// simulator's choice, when ERROR: an errored pod holds no compute here
// (SetPodError stops its compute billing, and `start` boots it like an
// EXITED pod).
func (p *pod) cost(now time.Time) float64 {
	switch p.status(now) {
	case "EXITED", "TERMINATED", "ERROR":
		return 0
	}
	g, c := p.hourlyRate()
	return g + c
}

func (p *pod) diskGB() int {
	n := p.container.disk
	if p.mounts.persistent != nil {
		n += p.mounts.persistent.size
	}
	return n
}

// ---------------------------------------------------------------------------
// JSON

type podGPUJSON struct {
	ID    string `json:"id"`
	Count int    `json:"count"`
}

type podCPUJSON struct {
	ID        string `json:"id"`
	VcpuCount int    `json:"vcpuCount"`
	Memory    int    `json:"memory"`
}

type sshEndpointJSON struct {
	Host     string `json:"host"`
	Port     int    `json:"port"`
	Username string `json:"username"`
	Command  string `json:"command"`
}

type podSSHJSON struct {
	Proxy  *sshEndpointJSON `json:"proxy"`
	Direct *sshEndpointJSON `json:"direct"`
}

type podClusterJSON struct {
	ID   string `json:"id"`
	Rank *int   `json:"rank"`
	Role string `json:"role,omitempty"`
	IP   string `json:"ip,omitempty"`
}

type globalNetJSON struct {
	Enabled     bool   `json:"enabled"`
	IP          string `json:"ip,omitempty"`
	InternalDNS string `json:"internalDns,omitempty"`
}

type utilJSON struct {
	Util int `json:"util"`
}

type gpuUtilJSON struct {
	Util       int `json:"util"`
	MemoryUtil int `json:"memoryUtil"`
}

type runtimePortJSON struct {
	Private int     `json:"private"`
	Public  *int    `json:"public"`
	Type    string  `json:"type"`
	IP      *string `json:"ip"`
}

type runtimeJSON struct {
	Uptime int               `json:"uptime"`
	Gpus   []gpuUtilJSON     `json:"gpus,omitempty"`
	CPU    utilJSON          `json:"cpu"`
	Memory utilJSON          `json:"memory"`
	Ports  []runtimePortJSON `json:"ports"`
}

type podJSON struct {
	ID               string            `json:"id"`
	Name             string            `json:"name"`
	Status           string            `json:"status"`
	Actions          []string          `json:"actions"`
	Image            string            `json:"image"`
	Args             string            `json:"args"`
	Disk             int               `json:"disk"`
	Mounts           mountsJSON        `json:"mounts"`
	Ports            []string          `json:"ports"`
	Env              map[string]string `json:"env"`
	Registry         *string           `json:"registry"`
	Gpu              *podGPUJSON       `json:"gpu,omitempty"`
	CPU              *podCPUJSON       `json:"cpu,omitempty"`
	Cloud            string            `json:"cloud"`
	DataCenterID     *string           `json:"dataCenterId"`
	CudaVersion      *string           `json:"cudaVersion"`
	SSH              podSSHJSON        `json:"ssh"`
	Cluster          *podClusterJSON   `json:"cluster,omitempty"`
	Template         *string           `json:"template"`
	Cost             float64           `json:"cost"`
	Locked           bool              `json:"locked"`
	GlobalNetworking globalNetJSON     `json:"globalNetworking"`
	Runtime          *runtimeJSON      `json:"runtime"`
	CreatedAt        string            `json:"createdAt"`
	StartedAt        *string           `json:"startedAt"`
}

// portMapping parses "8888/http" into its number and protocol.
func portMapping(p string) (int, string) {
	num, proto, _ := strings.Cut(p, "/")
	n, _ := strconv.Atoi(num)
	return n, proto
}

func (s *Server) renderPod(p *pod, now time.Time) podJSON {
	st := p.status(now)
	out := podJSON{
		ID: p.id, Name: p.name, Status: st, Actions: p.actions(now),
		Image: p.container.image, Args: p.container.args, Disk: p.container.disk,
		Mounts: p.mounts.render(), Ports: nonNilStrings(p.container.ports), Env: nonNilMap(p.container.env),
		Registry: p.container.registryJSON(), Cloud: p.cloud,
		Cost: p.cost(now), Locked: p.locked, CreatedAt: ts(p.createdAt), StartedAt: tsPtr(p.startedAt(now)),
	}
	if p.gpu != nil {
		out.Gpu = &podGPUJSON{ID: p.gpu.id, Count: p.gpu.count}
	}
	if p.cpu != nil {
		out.CPU = &podCPUJSON{ID: p.cpu.id, VcpuCount: p.cpu.vcpu, Memory: p.cpu.memory}
	}
	if p.templateID != "" {
		out.Template = strPtr(p.templateID)
	}
	if p.dc != "" {
		out.DataCenterID = strPtr(p.dc)
	}
	if p.cuda != "" {
		out.CudaVersion = strPtr(p.cuda)
	}
	if p.gnActive {
		out.GlobalNetworking = globalNetJSON{Enabled: true, IP: p.gnIP, InternalDNS: p.id + ".runpod.internal"}
	}
	if p.dc != "" {
		out.SSH.Proxy = &sshEndpointJSON{Host: "ssh.runpod.io", Port: 22, Username: p.sshUser, Command: "ssh " + p.sshUser + "@ssh.runpod.io"}
	}
	if st == "RUNNING" {
		rt := &runtimeJSON{Uptime: int(now.Sub(p.runningAt()) / time.Second), Ports: []runtimePortJSON{}}
		if p.gpu != nil {
			for i := 0; i < p.gpu.count; i++ {
				rt.Gpus = append(rt.Gpus, gpuUtilJSON{Util: 60 + (i*7+len(p.id))%35, MemoryUtil: 40 + (i*11+len(p.name))%50})
			}
		}
		rt.CPU.Util = 10 + len(p.id)%40
		rt.Memory.Util = 20 + len(p.name)%50
		for i, port := range p.container.ports {
			n, proto := portMapping(port)
			rp := runtimePortJSON{Private: n, Type: proto}
			if proto != "http" {
				pub := p.portBase + i
				ip := p.publicIP
				rp.Public, rp.IP = &pub, &ip
				if n == 22 && proto == "tcp" {
					out.SSH.Direct = &sshEndpointJSON{Host: ip, Port: pub, Username: "root", Command: fmt.Sprintf("ssh root@%s -p %d", ip, pub)}
				}
			}
			rt.Ports = append(rt.Ports, rp)
		}
		out.Runtime = rt
	}
	if p.clusterID != "" {
		pc := &podClusterJSON{ID: p.clusterID, Role: p.role}
		if st != "PROVISIONING" {
			r := p.rank
			pc.Rank = &r
		}
		if cl := s.st.clusters[p.clusterID]; cl != nil && cl.networkReady(now) {
			pc.IP = fmt.Sprintf("10.65.0.%d", p.rank+2)
		}
		out.Cluster = pc
	}
	return out
}

// ---------------------------------------------------------------------------
// life cycle helpers

// newPodShell fills the identity and networking fields of a new pod.
func (s *Server) newPodShell(name string, now time.Time) *pod {
	id := s.newID(14)
	r := s.nextRand()
	return &pod{
		seq: s.st.nextSeq(), id: id, name: name,
		createdAt: now, placedAt: now, bootAt: now, provDur: provisionDuration,
		sshUser:  fmt.Sprintf("%s-%08x", id, uint32(r)),
		publicIP: fmt.Sprintf("194.26.%d.%d", 1+(r>>32)%250, 1+(r>>40)%250),
		portBase: 10000 + int((r>>48)%40000),
		gnIP:     fmt.Sprintf("10.66.%d.%d", 1+(r>>8)%250, 2+(r>>16)%250),
	}
}

// podBoot starts (or restarts) a pod's compute.
func (s *Server) podBoot(p *pod, now time.Time, prov time.Duration) {
	if !p.stopped && !p.errored && !now.Before(p.runningAt()) {
		t := p.runningAt()
		p.lastRun = &t
	}
	p.stopped, p.errored = false, false
	p.bootAt, p.provDur = now, prov
	p.gnActive = p.gnDesired
	if p.clusterID == "" {
		s.openPodCompute(p, now)
	}
}

// podHalt stops a pod's compute (stop, error, terminate).
func (s *Server) podHalt(p *pod, now time.Time) {
	if !p.stopped && !p.errored && !now.Before(p.runningAt()) {
		t := p.runningAt()
		p.lastRun = &t
	}
	p.stopped = true
	s.closeUsage("pod", p.id, "gpu", now)
	s.closeUsage("pod", p.id, "cpu", now)
}

func (s *Server) openPodCompute(p *pod, now time.Time) {
	g, c := p.hourlyRate()
	if g > 0 {
		s.openUsage("pod", p.id, "gpu", g, now)
	}
	if c > 0 {
		s.openUsage("pod", p.id, "cpu", c, now)
	}
}

func (s *Server) removePod(p *pod, now time.Time) {
	s.podHalt(p, now)
	s.closeAllUsage("pod", p.id, now)
	delete(s.st.pods, p.id)
}

// injectEnv applies the startJupyter / startSsh conventions.
func (s *Server) injectEnv(env map[string]string, jupyter, ssh bool) map[string]string {
	if env == nil {
		env = map[string]string{}
	}
	if jupyter {
		if _, ok := env["JUPYTER_PASSWORD"]; !ok {
			env["JUPYTER_PASSWORD"] = fmt.Sprintf("%016x", s.nextRand())
		}
	}
	if ssh && len(s.st.sshKeys) > 0 {
		if _, ok := env["PUBLIC_KEY"]; !ok {
			env["PUBLIC_KEY"] = strings.Join(s.st.sshKeys, "\n")
		}
	}
	return env
}

func (s *Server) findPod(id string, now time.Time) *pod {
	p := s.st.pods[id]
	if p == nil || !p.visible(now) {
		return nil
	}
	return p
}

func (s *Server) sortedPods(now time.Time, keep func(*pod) bool) []*pod {
	var out []*pod
	for _, p := range s.st.pods {
		if p.visible(now) && keep(p) {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].clusterID == out[j].clusterID && out[i].clusterID != "" {
			return out[i].rank < out[j].rank
		}
		return out[i].seq < out[j].seq
	})
	return out
}

// ---------------------------------------------------------------------------
// handlers

func (s *Server) listPods(c *call) *reply {
	include := false
	if _, ok := c.query["includeClusterPods"]; ok {
		b, err := parseBoolParam(c.query.Get("includeClusterPods"))
		if err != nil {
			return invalid("query.includeClusterPods: expected boolean")
		}
		include = b
	}
	out := []podJSON{}
	for _, p := range s.sortedPods(c.now, func(p *pod) bool { return include || p.clusterID == "" }) {
		out = append(out, s.renderPod(p, c.now))
	}
	return jsonReply(http.StatusOK, map[string]any{"pods": out})
}

func (s *Server) getPod(c *call) *reply {
	p := s.findPod(c.param("id"), c.now)
	if p == nil {
		return notFound("pod", c.param("id"))
	}
	return jsonReply(http.StatusOK, s.renderPod(p, c.now))
}

// findTemplateFor resolves a templateId of a create/update body: unknown → 404,
// wrong kind → 422.
func (s *Server) findTemplateFor(id string, wantServerless bool) (*template, *reply) {
	t := s.st.templates[id]
	if t == nil || (!t.owned && !t.public) {
		return nil, notFound("template", id)
	}
	if t.serverless != wantServerless {
		if wantServerless {
			return nil, invalid(fmt.Sprintf("$.templateId: template %q is a pod template; a serverless template is required", id))
		}
		return nil, invalid(fmt.Sprintf("$.templateId: template %q is a serverless template; a pod template is required", id))
	}
	return t, nil
}

func (s *Server) createPod(c *call) *reply {
	body, rep := decodeBody(c.body, createPodSchema)
	if rep != nil {
		return rep
	}
	gpuBody, isGPU := getObj(body, "gpu")
	cpuBody, isCPU := getObj(body, "cpu")
	if isGPU == isCPU {
		return badRequest("exactly one of gpu or cpu must be set")
	}
	if isGPU {
		if allowed, _ := getStrings(gpuBody, "allowedCudaVersions"); len(allowed) > 0 && has(gpuBody, "minCudaVersion") {
			return badRequest("gpu.allowedCudaVersions (non-empty) and gpu.minCudaVersion are mutually exclusive")
		}
	}

	// Container settings: defaults, then the template, then the body.
	// Simulator's choice: disk 50 (the document's example; it gives no default).
	cc := containerCfg{disk: 50, ports: []string{}, env: map[string]string{}}
	startJupyter, startSSH := false, false
	var tpl *template
	var tplCuda []string
	if tid, ok := getStr(body, "templateId"); ok {
		tpl, rep = s.findTemplateFor(tid, false)
		if rep != nil {
			return rep
		}
		cc.applyTemplate(tpl, body)
		startJupyter, startSSH = tpl.startJupyter, tpl.startSSH
		tplCuda = tpl.allowedCuda
	} else {
		cc.applyBody(body)
	}
	if v, ok := getBool(body, "startJupyter"); ok {
		startJupyter = v
	}
	if v, ok := getBool(body, "startSsh"); ok {
		startSSH = v
	}
	if rep := s.checkContainer(cc); rep != nil {
		return rep
	}

	mt, vol, rep := s.parseCreateMounts(body, isCPU)
	if rep != nil {
		return rep
	}
	if tpl != nil && !has(body, "mounts") && isGPU && tpl.persistent != nil {
		pm := *tpl.persistent
		mt.persistent = &pm
	}

	cloud := "SECURE"
	if v, ok := getStr(body, "cloud"); ok {
		cloud = v
	}
	gn, _ := getBool(body, "globalNetworking")
	prefs, _ := getStrings(body, "dataCenterIds")
	volDC := ""
	if vol != nil {
		volDC = vol.dc
	}

	name, _ := getStr(body, "name")
	p := &pod{cloud: cloud, mounts: mt, gnDesired: gn, container: cc}
	if isGPU {
		g := &podGPU{count: 1}
		g.id, _ = getStr(gpuBody, "id")
		if n, ok := getInt(gpuBody, "count"); ok {
			g.count = n
		}
		if v, ok := getStrings(gpuBody, "allowedCudaVersions"); ok {
			g.allowedCuda = v
		}
		g.minCuda, _ = getStr(gpuBody, "minCudaVersion")
		if !has(gpuBody, "allowedCudaVersions") && !has(gpuBody, "minCudaVersion") {
			g.allowedCuda = append([]string(nil), tplCuda...)
		}
		gt := findGPU(g.id)
		if gt == nil {
			return badRequest("gpu.id: unknown GPU type %q (see GET /v2/catalog/gpus)", g.id)
		}
		if cloud == "SECURE" && !gt.secure || cloud == "COMMUNITY" && !gt.community {
			return badRequest("gpu.id: GPU type %q is not offered on %s cloud", g.id, cloud)
		}
		max := gt.maxSecure
		if cloud == "COMMUNITY" {
			max = gt.maxCommunity
		}
		if g.count > max {
			return badRequest("gpu.count: at most %d GPUs of type %q fit on one %s pod", max, g.id, cloud)
		}
		if gn && gt.manufacturer != "NVIDIA" {
			return badRequest("globalNetworking requires an NVIDIA GPU")
		}
		first, rest, rep := s.placementDCs(prefs, volDC, gn)
		if rep != nil {
			return rep
		}
		q := gpuQuery{products: []string{"POD"}, count: g.count, cloud: cloud, cudaExact: g.allowedCuda, cudaMin: g.minCuda}
		dc := pickDC(first, rest, func(dc *dataCenter) string { l, _ := gt.dcLevel(dc, q); return l })
		if dc == nil {
			return noCapacity(fmt.Sprintf("%d x %s (%s)", g.count, g.id, cloud), first, rest)
		}
		if av := gt.availableCuda(q); len(av) > 0 {
			p.cuda = av[len(av)-1]
		}
		p.dc = dc.id
		p.gpu = g
	} else {
		cp := &podCPU{}
		cp.id, _ = getStr(cpuBody, "id")
		cp.vcpu, _ = getInt(cpuBody, "vcpuCount")
		ct := findCPU(cp.id)
		if ct == nil {
			return badRequest("cpu.id: unknown CPU flavor %q (see GET /v2/catalog/cpus)", cp.id)
		}
		if cp.vcpu < ct.vcpuMin || cp.vcpu > ct.vcpuMax {
			return badRequest("cpu.vcpuCount: %d is not valid for CPU flavor %q (%d..%d)", cp.vcpu, cp.id, ct.vcpuMin, ct.vcpuMax)
		}
		if gn {
			return badRequest("globalNetworking requires an NVIDIA GPU")
		}
		if cloud != "SECURE" {
			// Simulator's choice: the document does not say; CpuType.price
			// has only securePerVcpu, so a COMMUNITY CPU pod has no price.
			return badRequest("cloud: CPU pods run on SECURE cloud only")
		}
		first, rest, rep := s.placementDCs(prefs, volDC, false)
		if rep != nil {
			return rep
		}
		dc := pickDC(first, rest, func(dc *dataCenter) string { l, _ := ct.dcLevel(dc, cp.vcpu); return l })
		if dc == nil {
			return noCapacity(fmt.Sprintf("%s with %d vCPUs", cp.id, cp.vcpu), first, rest)
		}
		cp.memory = ct.memoryFor(cp.vcpu)
		p.dc = dc.id
		p.cpu = cp
	}

	shell := s.newPodShell(name, c.now)
	shell.cloud, shell.mounts, shell.gnDesired, shell.gnActive = p.cloud, p.mounts, gn, gn
	shell.container, shell.gpu, shell.cpu, shell.dc, shell.cuda = p.container, p.gpu, p.cpu, p.dc, p.cuda
	shell.container.env = s.injectEnv(shell.container.env, startJupyter, startSSH)
	if tpl != nil && s.podTplShown {
		// Reading PodTemplateVisible; under PodTemplateNull nothing links
		// the pod to its template, visibly or not.
		shell.templateID = tpl.id
	}
	s.st.pods[shell.id] = shell
	s.openPodCompute(shell, c.now)
	s.openUsage("pod", shell.id, "disk", diskRate(shell.diskGB()), c.now)
	return jsonReply(http.StatusCreated, s.renderPod(shell, c.now))
}

func (s *Server) updatePod(c *call) *reply {
	body, rep := decodeBody(c.body, updatePodSchema)
	if rep != nil {
		return rep
	}
	p := s.findPod(c.param("id"), c.now)
	if p == nil {
		return notFound("pod", c.param("id"))
	}
	if p.clusterID != "" {
		return conflict("pod %q belongs to cluster %q and cannot be modified via the pod endpoints; manage it through /v2/clusters/%s", p.id, p.clusterID, p.clusterID)
	}
	cc := p.container.clone()
	if tid, ok := getStr(body, "templateId"); ok {
		tpl, rep := s.findTemplateFor(tid, false)
		if rep != nil {
			return rep
		}
		cc.applyTemplate(tpl, body)
	} else {
		cc.applyBody(body)
	}
	if rep := s.checkContainerPatch(p.container, cc); rep != nil {
		return rep
	}
	mt, rep := patchMounts(p.mounts, body)
	if rep != nil {
		return rep
	}
	if gn, ok := getBool(body, "globalNetworking"); ok && gn {
		if p.gpu == nil || findGPU(p.gpu.id).manufacturer != "NVIDIA" {
			return badRequest("globalNetworking requires an NVIDIA GPU")
		}
		if dc := findDC(p.dc); dc == nil || !dc.globalNetwork {
			return badRequest("globalNetworking requires a data center with global networking; %s has none", p.dc)
		}
	}
	p.container, p.mounts = cc, mt
	if v, ok := getStr(body, "name"); ok {
		p.name = v
	}
	if v, ok := getBool(body, "locked"); ok {
		p.locked = v
	}
	if v, ok := getBool(body, "globalNetworking"); ok {
		p.gnDesired = v
	}
	s.reopenUsage("pod", p.id, "disk", diskRate(p.diskGB()), c.now)
	return jsonReply(http.StatusOK, s.renderPod(p, c.now))
}

func (s *Server) deletePod(c *call) *reply {
	p := s.findPod(c.param("id"), c.now)
	if p == nil {
		return notFound("pod", c.param("id"))
	}
	if p.clusterID != "" {
		return conflict("pod %q belongs to cluster %q and cannot be terminated via the pod endpoints; delete the cluster via DELETE /v2/clusters/%s", p.id, p.clusterID, p.clusterID)
	}
	s.removePod(p, c.now)
	return noContent()
}

func (s *Server) podAction(c *call) *reply {
	body, rep := decodeBody(c.body, podActionSchema)
	if rep != nil {
		return rep
	}
	p := s.findPod(c.param("id"), c.now)
	if p == nil {
		return notFound("pod", c.param("id"))
	}
	action, _ := getStr(body, "action")
	if p.clusterID != "" {
		return conflict("pod %q belongs to cluster %q; member pods are managed through /v2/clusters/%s", p.id, p.clusterID, p.clusterID)
	}
	st := p.status(c.now)
	if action == "stop" && p.locked && st != "EXITED" && st != "ERROR" {
		return conflict("pod %q is locked and cannot be stopped; unlock it first (PATCH {\"locked\": false})", p.id)
	}
	if !contains(p.actions(c.now), action) {
		return conflict("action %q is not valid for a pod in status %s; valid actions: %s", action, st, strings.Join(p.actions(c.now), ", "))
	}
	switch action {
	case "start":
		s.podBoot(p, c.now, provisionDuration)
	case "stop":
		s.podHalt(p, c.now)
	case "restart":
		s.closeUsage("pod", p.id, "gpu", c.now)
		s.closeUsage("pod", p.id, "cpu", c.now)
		s.podBoot(p, c.now, 0)
	case "terminate":
		s.removePod(p, c.now)
		return noContent()
	}
	return jsonReply(http.StatusOK, s.renderPod(p, c.now))
}

func (s *Server) podLogs(c *call) *reply {
	p := s.findPod(c.param("id"), c.now)
	if p == nil {
		return notFound("pod", c.param("id"))
	}
	return sseReply(c, podLogEvents(p, c.now))
}

// podLogEvents synthesises the log lines of the pod's current boot.
func podLogEvents(p *pod, now time.Time) []logEvent {
	var ev []logEvent
	add := func(at time.Time, source, line string) {
		if !at.After(now) {
			ev = append(ev, logEvent{at: at, source: source, line: line})
		}
	}
	add(p.createdAt, "system", "pod "+p.id+" created")
	add(p.bootAt, "system", "allocating machine in "+p.dc)
	add(p.bootAt.Add(time.Second), "system", "pulling image "+p.container.image)
	add(p.bootAt.Add(p.provDur), "system", "starting container")
	run := p.runningAt()
	add(run, "container", "container started")
	if !p.stopped && !p.errored && !now.Before(run) {
		// One heartbeat a minute, at most the last 5000 of them.
		n := int(now.Sub(run) / time.Minute)
		first := 1
		if n > 5000 {
			first = n - 4999
		}
		for i := first; i <= n; i++ {
			add(run.Add(time.Duration(i)*time.Minute), "container", fmt.Sprintf("heartbeat %d: healthy", i))
		}
	}
	if p.stopped {
		add(now, "system", "container exited")
	}
	return ev
}
