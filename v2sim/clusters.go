package v2sim

import (
	"fmt"
	"net/http"
	"sort"
	"time"
)

// Cluster timeline (from createdAt): member pod i (rank i) is placed at
// (i+1)*clusterPlaceStep and then boots like any pod (PROVISIONING 5 s,
// STARTING 10 s, RUNNING); the overlay network is provisioned at
// clusterNetworkDelay. Until then the cluster omits dataCenterId, primary and
// network, exactly as the contract's field availability rules say.
const (
	clusterPlaceStep    = 2 * time.Second
	clusterNetworkDelay = 4 * time.Second
)

type cluster struct {
	seq       int64
	id, name  string
	typ       string
	gpuType   string
	perPod    int
	podCount  int
	container containerCfg
	mounts    mounts
	dc        string
	createdAt time.Time
	podIDs    []string // by rank
	vxlanID   int
}

func (cl *cluster) networkReady(now time.Time) bool {
	return !now.Before(cl.createdAt.Add(clusterNetworkDelay))
}

type clusterComputeJSON struct {
	GpuTypeID      string `json:"gpuTypeId"`
	GpuCountPerPod int    `json:"gpuCountPerPod"`
	PodCount       int    `json:"podCount"`
}

type clusterPodsJSON struct {
	Total    int            `json:"total"`
	ByStatus map[string]int `json:"byStatus"`
}

type clusterNetworkJSON struct {
	Cidr      string `json:"cidr"`
	VxlanID   int    `json:"vxlanId,omitempty"`
	VxlanPort int    `json:"vxlanPort,omitempty"`
}

type clusterPrimaryJSON struct {
	PodID       string `json:"podId"`
	Status      string `json:"status"`
	SSHEndpoint string `json:"sshEndpoint,omitempty"`
}

type clusterJSON struct {
	ID           string              `json:"id"`
	Name         string              `json:"name"`
	Type         string              `json:"type"`
	Compute      clusterComputeJSON  `json:"compute"`
	Template     string              `json:"template,omitempty"`
	DataCenterID string              `json:"dataCenterId,omitempty"`
	Pods         clusterPodsJSON     `json:"pods"`
	Network      *clusterNetworkJSON `json:"network,omitempty"`
	Primary      *clusterPrimaryJSON `json:"primary,omitempty"`
	CreatedAt    string              `json:"createdAt"`
}

func (s *Server) renderCluster(cl *cluster, now time.Time) clusterJSON {
	out := clusterJSON{
		ID: cl.id, Name: cl.name, Type: cl.typ,
		Compute:   clusterComputeJSON{GpuTypeID: cl.gpuType, GpuCountPerPod: cl.perPod, PodCount: cl.podCount},
		Pods:      clusterPodsJSON{ByStatus: map[string]int{}},
		CreatedAt: ts(cl.createdAt),
	}
	for _, id := range cl.podIDs {
		p := s.st.pods[id]
		if p == nil || !p.visible(now) {
			continue
		}
		out.Pods.Total++
		out.Pods.ByStatus[p.status(now)]++
	}
	if out.Pods.Total > 0 {
		out.DataCenterID = cl.dc
	}
	if cl.networkReady(now) {
		out.Network = &clusterNetworkJSON{Cidr: "10.65.0.0/16", VxlanID: cl.vxlanID, VxlanPort: 4789}
	}
	if len(cl.podIDs) > 0 {
		if p := s.st.pods[cl.podIDs[0]]; p != nil && p.visible(now) {
			pr := &clusterPrimaryJSON{PodID: p.id, Status: p.status(now)}
			if pr.Status == "RUNNING" {
				for i, port := range p.container.ports {
					if n, proto := portMapping(port); n == 22 && proto == "tcp" {
						pr.SSHEndpoint = fmt.Sprintf("%s:%d", p.publicIP, p.portBase+i)
						break
					}
				}
			}
			out.Primary = pr
		}
	}
	return out
}

func (s *Server) sortedClusters() []*cluster {
	out := make([]*cluster, 0, len(s.st.clusters))
	for _, cl := range s.st.clusters {
		out = append(out, cl)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// defaultClusterImage is used when a create does not name an image
// (simulator's choice: the document makes image optional and names none).
func defaultClusterImage(typ string) string {
	switch typ {
	case "SLURM":
		return "runpod/slurm:24.05-cuda12.8-ubuntu2404"
	case "RAY":
		return "rayproject/ray:2.40.0-gpu"
	}
	return "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404"
}

func clusterRole(typ string, rank int) string {
	switch typ {
	case "SLURM":
		if rank == 0 {
			return "SLURM_CONTROLLER"
		}
		return "SLURM_COMPUTE"
	case "RAY":
		if rank == 0 {
			return "RAY_HEAD"
		}
		return "RAY_WORKER"
	}
	return ""
}

// ---------------------------------------------------------------------------
// handlers

func (s *Server) listClusters(c *call) *reply {
	out := []clusterJSON{}
	for _, cl := range s.sortedClusters() {
		out = append(out, s.renderCluster(cl, c.now))
	}
	return jsonReply(http.StatusOK, map[string]any{"clusters": out})
}

func (s *Server) getCluster(c *call) *reply {
	cl := s.st.clusters[c.param("id")]
	if cl == nil {
		return notFound("cluster", c.param("id"))
	}
	return jsonReply(http.StatusOK, s.renderCluster(cl, c.now))
}

func (s *Server) createCluster(c *call) *reply {
	body, rep := decodeBody(c.body, createClusterSchema)
	if rep != nil {
		return rep
	}
	comp, _ := getObj(body, "compute")
	gpuID, _ := getStr(comp, "gpuTypeId")
	perPod, _ := getInt(comp, "gpuCountPerPod")
	count, _ := getInt(comp, "podCount")
	typ, _ := getStr(body, "type")
	name, _ := getStr(body, "name")

	g := findGPU(gpuID)
	if g == nil {
		return badRequest("compute.gpuTypeId: unknown GPU type %q (see GET /v2/catalog/gpus)", gpuID)
	}
	if !g.secure || perPod > g.maxSecure {
		return badRequest("compute.gpuCountPerPod: at most %d GPUs of type %q fit on one pod", g.maxSecure, gpuID)
	}
	// Simulator's choice: disk 50 (the document's example; it gives no default).
	cc := containerCfg{disk: 50, ports: []string{}, env: map[string]string{}}
	cc.applyBody(body)
	if cc.image == "" {
		cc.image = defaultClusterImage(typ)
	}
	if rep := s.checkContainer(cc); rep != nil {
		return rep
	}
	mt, vol, rep := s.parseCreateMounts(body, false)
	if rep != nil {
		return rep
	}
	prefs, _ := getStrings(body, "dataCenterIds")
	volDC := ""
	if vol != nil {
		volDC = vol.dc
	}
	first, rest, rep := s.placementDCs(prefs, volDC, false)
	if rep != nil {
		return rep
	}
	q := gpuQuery{products: []string{"CLUSTER"}, count: perPod, cloud: "SECURE"}
	dc := pickDC(first, rest, func(dc *dataCenter) string { l, _ := g.dcLevel(dc, q); return l })
	if dc == nil {
		return noCapacity(fmt.Sprintf("a cluster of %d pods x %d %s", count, perPod, gpuID), first, rest)
	}
	jupyter, _ := getBool(body, "startJupyter")
	ssh, _ := getBool(body, "startSsh")

	cl := &cluster{
		seq: s.st.nextSeq(), id: s.newID(14), name: name, typ: typ,
		gpuType: gpuID, perPod: perPod, podCount: count,
		container: cc, mounts: mt, dc: dc.id, createdAt: c.now,
		vxlanID: 100 + int(s.nextRand()%3900),
	}
	cuda := ""
	if av := g.availableCuda(q); len(av) > 0 {
		cuda = av[len(av)-1]
	}
	for i := 0; i < count; i++ {
		p := s.newPodShell(fmt.Sprintf("%s-node-%d", name, i), c.now)
		p.placedAt = c.now.Add(time.Duration(i+1) * clusterPlaceStep)
		p.bootAt = p.placedAt
		p.container = cc.clone()
		p.container.env = s.injectEnv(p.container.env, jupyter, ssh)
		p.gpu = &podGPU{id: gpuID, count: perPod}
		p.cloud, p.dc, p.cuda = "SECURE", dc.id, cuda
		if mt.persistent != nil {
			pm := *mt.persistent
			p.mounts.persistent = &pm
		}
		if mt.network != nil {
			nm := *mt.network
			p.mounts.network = &nm
		}
		p.clusterID, p.rank, p.role = cl.id, i, clusterRole(typ, i)
		s.st.pods[p.id] = p
		cl.podIDs = append(cl.podIDs, p.id)
	}
	s.st.clusters[cl.id] = cl
	gpuRate := round(g.priceSecure*float64(perPod*count), 4)
	s.openUsage("cluster", cl.id, "gpu", gpuRate, c.now)
	s.openUsage("cluster", cl.id, "disk", diskRate(count*(cc.disk+persistentSize(mt))), c.now)
	s.openUsage("cluster", cl.id, "networking", round(gpuRate*0.02, 4), c.now)
	return jsonReply(http.StatusCreated, s.renderCluster(cl, c.now))
}

func persistentSize(mt mounts) int {
	if mt.persistent != nil {
		return mt.persistent.size
	}
	return 0
}

func (s *Server) updateCluster(c *call) *reply {
	body, rep := decodeBody(c.body, updateClusterSchema)
	if rep != nil {
		return rep
	}
	cl := s.st.clusters[c.param("id")]
	if cl == nil {
		return notFound("cluster", c.param("id"))
	}
	if v, ok := getStr(body, "name"); ok {
		cl.name = v
	}
	return jsonReply(http.StatusOK, s.renderCluster(cl, c.now))
}

func (s *Server) deleteCluster(c *call) *reply {
	cl := s.st.clusters[c.param("id")]
	if cl == nil {
		return notFound("cluster", c.param("id"))
	}
	for _, id := range cl.podIDs {
		if p := s.st.pods[id]; p != nil {
			s.removePod(p, c.now)
		}
	}
	s.closeAllUsage("cluster", cl.id, c.now)
	delete(s.st.clusters, cl.id)
	return noContent()
}

func (s *Server) listClusterPods(c *call) *reply {
	cl := s.st.clusters[c.param("id")]
	if cl == nil {
		return notFound("cluster", c.param("id"))
	}
	out := []podJSON{}
	for _, id := range cl.podIDs {
		if p := s.st.pods[id]; p != nil && p.visible(c.now) {
			out = append(out, s.renderPod(p, c.now))
		}
	}
	return jsonReply(http.StatusOK, map[string]any{"pods": out})
}
