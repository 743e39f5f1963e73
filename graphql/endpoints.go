package graphql

import (
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/translate"
)

// Serverless endpoints: User.endpoints (v1 ListEndpoints), saveEndpoint
// (v1 CreateEndpoint, or UpdateEndpoint after GetEndpoint),
// updateEndpointTemplate (v1 UpdateEndpoint) and deleteEndpoint (v1
// DeleteEndpoint). The GraphQL Endpoint is read from the plan's
// EndpointModel: v2's endpoint where GraphQL speaks v2's language (pools
// and excluded types, data centers, flashboot modes), v1's where the plan
// added what v2 does not say (the templateId the fact store remembers, the
// version, the workers, scalerValue as an integer).

// ---------------------------------------------------------------------------
// Reads

// userEndpoints is User.endpoints: ListEndpoints, with includeWorkers only
// when the selection reads the endpoints' pods (one more v2 call per
// endpoint, H11).
func userEndpoints(ec *execCtx, f *ast.Field) (any, error) {
	var q url.Values
	if ec.selects(f, "pods") {
		q = url.Values{"includeWorkers": {"true"}}
	}
	res, err := ec.run("ListEndpoints", nil, q, nil)
	if err != nil {
		return nil, err
	}
	models, _ := res.Model.([]translate.EndpointModel)
	out := make([]object, len(models))
	for i := range models {
		out[i] = &endpointObject{m: &models[i]}
	}
	return out, nil
}

// endpointObjectOf is the Endpoint of a plan's model (nil when it gave
// none: an update v2 applied but whose answer could not be read).
func endpointObjectOf(model any) *endpointObject {
	m, ok := model.(*translate.EndpointModel)
	if !ok || m == nil || m.V2 == nil || m.V1 == nil {
		return nil
	}
	return &endpointObject{m: m}
}

// readEndpoint is v1 GetEndpoint.
func (ec *execCtx) readEndpoint(id string) (*endpointObject, error) {
	res, err := ec.run("GetEndpoint", map[string]string{"endpointId": id}, nil, nil)
	if err != nil {
		return nil, err
	}
	return endpointObjectOf(res.Model), nil
}

// ---------------------------------------------------------------------------
// The Endpoint object: one table, GraphQL field ← the endpoint's v2 and v1
// forms.

type endpointObject struct{ m *translate.EndpointModel }

func (e *endpointObject) typeName() string { return "Endpoint" }
func (e *endpointObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(endpointFields, "Endpoint", e, ec, f)
}

type endpointField = func(e *endpointObject, ec *execCtx, f *ast.Field) (any, error)

var endpointFields = fieldTable[*endpointObject]{
	"id":   func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) { return e.m.V2.ID, nil },
	"name": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) { return e.m.V2.Name, nil },
	"gpuIds": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		if e.m.V2.GPU == nil {
			return nil, nil // a CPU endpoint
		}
		return gpuIDsOf(e.m.V2.GPU), nil
	},
	"gpuCount": gpuField(func(g *translate.V2EndpointGPU) any { return g.Count }),
	"allowedCudaVersions": gpuField(func(g *translate.V2EndpointGPU) any {
		return nonEmpty(strings.Join(g.AllowedCudaVersions, ","))
	}),
	"minCudaVersion": gpuField(func(g *translate.V2EndpointGPU) any {
		if g.MinCudaVersion == nil {
			return nil
		}
		return nonEmpty(*g.MinCudaVersion)
	}),
	"instanceIds": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		if e.m.V2.GPU != nil {
			return nil, nil // a GPU endpoint
		}
		return e.m.V1.InstanceIDs, nil
	},
	"computeType": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		return nonEmpty(e.m.V1.ComputeType), nil
	},
	"type": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		return nonEmpty(endpointType(e.m.V2.Type)), nil
	},
	"idleTimeout": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) { return e.m.V2.Workers.IdleTimeout, nil },
	"workersMin":  func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) { return e.m.V2.Workers.Min, nil },
	"workersMax":  func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) { return e.m.V2.Workers.Max, nil },
	"scalerType": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		return nonEmpty(e.m.V2.Scaling.Type), nil
	},
	"scalerValue":        func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) { return e.m.V1.ScalerValue, nil },
	"executionTimeoutMs": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) { return e.m.V2.Timeout, nil },
	"flashBootType": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		if slices.Contains(flashBootTypes, e.m.V2.Flashboot) {
			return e.m.V2.Flashboot, nil
		}
		return nil, nil
	},
	"locations": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		return strings.Join(e.m.V2.DataCenterIDs, ","), nil
	},
	"templateId": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		return nonEmpty(string(e.m.V1.TemplateID)), nil
	},
	"env":       func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) { return envObjects(e.m.V2.Env), nil },
	"createdAt": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) { return nonEmpty(e.m.V2.CreatedAt), nil },
	"version": func(e *endpointObject, ec *execCtx, _ *ast.Field) (any, error) {
		if e.m.V1.Version == nil {
			ec.versionNotRead()
			return nil, nil
		}
		return *e.m.V1.Version, nil
	},
	"networkVolumeId": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		return nonEmpty(string(e.m.V1.NetworkVolumeID)), nil
	},
	"networkVolume": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		if len(e.m.V2.NetworkVolumes) == 0 {
			return nil, nil
		}
		return &volumeObject{id: e.m.V2.NetworkVolumes[0]}, nil
	},
	"networkVolumeIds": func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		out := make([]object, len(e.m.V2.NetworkVolumes))
		for i, id := range e.m.V2.NetworkVolumes {
			out[i] = &endpointVolume{id: id}
		}
		return out, nil
	},
	"pods": func(e *endpointObject, ec *execCtx, _ *ast.Field) (any, error) {
		out := make([]object, len(e.m.V1.Workers))
		for i := range e.m.V1.Workers {
			out[i] = &workerObject{w: &e.m.V1.Workers[i]}
		}
		return out, nil
	},
	"aiKey":           unansweredField[*endpointObject]("Endpoint", "aiKey"),
	"userId":          unansweredField[*endpointObject]("Endpoint", "userId"),
	"workersStandby":  unansweredField[*endpointObject]("Endpoint", "workersStandby"),
	"modelReferences": unansweredField[*endpointObject]("Endpoint", "modelReferences"),
	"compliance":      unansweredField[*endpointObject]("Endpoint", "compliance"),
}

// flashBootTypes are the values of GraphQL's FlashBootType, which are v2's
// flashboot modes.
var flashBootTypes = []string{"OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"}

// gpuField is a field of a GPU endpoint's GPU selection (null on a CPU
// endpoint).
func gpuField(read func(g *translate.V2EndpointGPU) any) endpointField {
	return func(e *endpointObject, _ *execCtx, _ *ast.Field) (any, error) {
		if e.m.V2.GPU == nil {
			return nil, nil
		}
		return read(e.m.V2.GPU), nil
	}
}

// gpuIDsOf is GraphQL's gpuIds: the pools, then each excluded GPU type
// after a minus ("AMPERE_16,-NVIDIA A40").
func gpuIDsOf(g *translate.V2EndpointGPU) string {
	parts := slices.Clone(g.Pools)
	for _, x := range g.ExcludedTypes {
		parts = append(parts, "-"+strings.TrimSpace(x))
	}
	return strings.Join(parts, ",")
}

// endpointType is GraphQL's endpoint type of v2's: QB (queue) or LB
// (load balancer).
func endpointType(v2 string) string {
	switch v2 {
	case "QUEUE":
		return "QB"
	case "LOAD_BALANCER":
		return "LB"
	}
	return ""
}

// versionNotRead warns, once per answer, that a list's versions were not
// read: v1's list has them only with its workers (one v2 call per
// endpoint, H11); the endpoint answers of saveEndpoint and
// updateEndpointTemplate have it.
func (ec *execCtx) versionNotRead() {
	ec.warnOnce(translate.CodeVersionOmitted, "Endpoint.version was answered null: a list of endpoints reads no versions (one more v2 call per endpoint); "+
		"select Endpoint.pods too, or read the endpoint's version from saveEndpoint's answer")
}

// endpointVolume is an EndpointNetworkVolume: an id, and its data center
// from the account's network volumes.
type endpointVolume struct{ id string }

func (v *endpointVolume) typeName() string { return "EndpointNetworkVolume" }
func (v *endpointVolume) field(ec *execCtx, f *ast.Field) (any, error) {
	switch f.Name {
	case "networkVolumeId":
		return v.id, nil
	case "dataCenterId":
		nv, err := ec.networkVolume(v.id)
		if err != nil || nv == nil {
			return nil, err
		}
		return nv.DataCenterID, nil
	}
	return resolveIn(fieldTable[*endpointVolume]{}, "EndpointNetworkVolume", v, ec, f)
}

// workerObject is one of an endpoint's workers as a Pod (R-Worker): what
// v2 tells of a worker is far less than of a pod; the rest reads null.
type workerObject struct{ w *translate.V1Worker }

func (p *workerObject) typeName() string { return "Pod" }
func (p *workerObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(workerFields, "Pod", p, ec, f)
}

var workerFields = func() fieldTable[*workerObject] {
	t := fieldTable[*workerObject]{
		"id":            func(p *workerObject, _ *execCtx, _ *ast.Field) (any, error) { return p.w.ID, nil },
		"imageName":     func(p *workerObject, _ *execCtx, _ *ast.Field) (any, error) { return nonEmpty(string(p.w.Image)), nil },
		"desiredStatus": func(p *workerObject, _ *execCtx, _ *ast.Field) (any, error) { return p.w.DesiredStatus, nil },
		"gpuCount": func(p *workerObject, _ *execCtx, _ *ast.Field) (any, error) {
			if p.w.GPU == nil {
				return 0, nil
			}
			return p.w.GPU.Count, nil
		},
		"uptimeSeconds": func(p *workerObject, ec *execCtx, _ *ast.Field) (any, error) {
			return ec.secondsSince(string(p.w.LastStartedAt)), nil
		},
		"machine": func(p *workerObject, _ *execCtx, _ *ast.Field) (any, error) { return &workerMachine{p.w}, nil },
	}
	// Every other Pod field: v2 says nothing of it for a worker.
	for _, name := range slices.Concat(slices.Collect(maps.Keys(podFields)), slices.Collect(maps.Keys(podLeaves))) {
		if _, ok := t[name]; !ok {
			t[name] = unansweredField[*workerObject]("Endpoint.pods", name)
		}
	}
	return t
}()

type workerMachine struct{ w *translate.V1Worker }

func (m *workerMachine) typeName() string { return "PodMachineInfo" }
func (m *workerMachine) field(ec *execCtx, f *ast.Field) (any, error) {
	switch f.Name {
	case "location":
		if m.w.Machine == nil {
			return nil, nil
		}
		return nonEmpty(m.w.Machine.DataCenterID), nil
	case "gpuDisplayName":
		if m.w.GPU == nil {
			return nil, nil
		}
		return ec.gpuDisplayName(m.w.GPU.ID)
	case "podHostId":
		return ec.unanswered("Endpoint.pods.machine", "podHostId")
	}
	return resolveIn(fieldTable[*workerMachine]{}, "PodMachineInfo", m, ec, f)
}

// ---------------------------------------------------------------------------
// Mutations

// endpointNames are the EndpointInput fields the door sends under another
// v1 name.
var endpointNames = fieldNames{
	{"gpuIds", "gpuTypeIds"}, {"locations", "dataCenterIds"}, {"instanceIds", "cpuFlavorIds"},
	{"instanceIds", "vcpuCount"}, {"flashBootType", "flashboot"},
}

// saveEndpoint is saveEndpoint(input): without an id v1 CreateEndpoint,
// with one v1 UpdateEndpoint of what the input sets (GraphQL saves the
// whole endpoint; what is null or "" is left as it is), after a
// GetEndpoint that tells what would change.
func saveEndpoint(ec *execCtx, f *ast.Field) (any, error) {
	in := ec.rootInput(f)
	if err := ec.refuseEndpointInput(in); err != nil {
		return nil, err
	}
	typ, _ := in.str("type")
	if typ != "" && typ != "QB" && typ != "LB" {
		return nil, badInput("saveEndpoint: type: %q is neither QB (queue) nor LB (load balancer)", typ)
	}
	id, _ := in.str("id")
	if id == "" {
		if typ == "LB" {
			return nil, ec.refuse("saveEndpoint: type LB: the gateway creates endpoints through v1's CreateEndpoint, which makes queue-based (QB) endpoints only; " +
				"create a load-balancer endpoint with the v2 API (POST /v2/serverless with type LOAD_BALANCER)")
		}
		body, err := ec.endpointBody(in, nil)
		if err != nil {
			return nil, err
		}
		res, err := ec.runNamed("saveEndpoint", endpointNames.of(in), "CreateEndpoint", nil, body)
		if err != nil {
			return nil, err
		}
		return endpointObjectOf(res.Model), nil
	}
	cur, err := ec.readEndpoint(id)
	if err != nil {
		return nil, err
	}
	if cur == nil {
		return nil, badInput("saveEndpoint: endpoint %q could not be read before the update", id)
	}
	if now := endpointType(cur.m.V2.Type); typ != "" && now != "" && typ != now {
		return nil, ec.refuse("saveEndpoint: type %s: endpoint %s is %s, and v2 cannot change an endpoint's type; create another endpoint", typ, id, now)
	}
	body, err := ec.endpointBody(in, cur)
	if err != nil {
		return nil, err
	}
	return ec.updateEndpoint(id, body)
}

// updateEndpoint runs v1 UpdateEndpoint and answers the endpoint.
func (ec *execCtx) updateEndpoint(id string, body map[string]any) (any, error) {
	res, err := ec.run("UpdateEndpoint", map[string]string{"endpointId": id}, nil, body)
	if err != nil {
		return nil, endpointNames.explain("saveEndpoint", err)
	}
	if o := endpointObjectOf(res.Model); o != nil {
		return o, nil
	}
	// v2 applied the update but its answer could not be read (the plan
	// warned, P4): the endpoint as it is now.
	return ec.readEndpoint(id)
}

// refuseEndpointInput refuses what an EndpointInput asks that v2 cannot
// do, naming each field: hub deploys, cached models, compliance.
func (ec *execCtx) refuseEndpointInput(in input) error {
	why := map[string]string{} // field → reason
	if s, _ := in.str("hubReleaseId"); s != "" {
		why["hubReleaseId"] = "v2 has no hub"
	}
	if in.has("template") {
		why["template"] = "an endpoint is made from a template of the account's; create it first (saveTemplate with isServerless: true) and send its id as templateId"
	}
	if l, _ := in.strs("modelReferences"); len(l) > 0 {
		why["modelReferences"] = "v2 endpoints have no cached models"
	}
	if l, _ := in.strs("compliance"); len(l) > 0 {
		why["compliance"] = "v2 places endpoints by data center, not by certification; send locations (data center ids) instead"
	}
	if len(why) == 0 {
		return nil
	}
	parts := make([]string, 0, len(why))
	for _, k := range sortedKeys(why) {
		parts = append(parts, k+": "+why[k])
	}
	return ec.refuse("saveEndpoint: %s", strings.Join(parts, "; "))
}

// endpointBody is the v1 body of a saveEndpoint: one table, GraphQL
// EndpointInput field → v1 EndpointCreateInput / EndpointUpdateInput
// field. cur is the endpoint an update changes (nil: a create); an update
// leaves out the templateId and gpuIds the endpoint already has (applying
// a template again, or choosing the same GPUs again, would make v2
// release the endpoint anew). null and "" mean "not set" (runpodctl and
// runpod-mcp send both for what they do not set).
func (ec *execCtx) endpointBody(in input, cur *endpointObject) (map[string]any, error) {
	b := map[string]any{}
	str := func(k string) string { s, _ := in.str(k); return s }
	copyInt := func(from, to string) {
		if n, ok := in.int(from); ok {
			b[to] = n
		}
	}
	if s := str("name"); s != "" {
		b["name"] = s
	}
	if s := str("templateId"); s != "" && (cur == nil || s != string(cur.m.V1.TemplateID)) {
		b["templateId"] = s
	}
	copyInt("gpuCount", "gpuCount")
	copyInt("workersMin", "workersMin")
	copyInt("workersMax", "workersMax")
	copyInt("idleTimeout", "idleTimeout")
	copyInt("scalerValue", "scalerValue")
	copyInt("executionTimeoutMs", "executionTimeoutMs")
	if s := str("scalerType"); s != "" {
		b["scalerType"] = s
	}
	if s := str("flashBootType"); s != "" {
		if !slices.Contains(flashBootTypes, s) {
			return nil, badInput("saveEndpoint: flashBootType: %q is not one of %s", s, strings.Join(flashBootTypes, ", "))
		}
		b["flashboot"] = s // v2's mode, which v1's plan takes as it is
	}
	if s := str("locations"); s != "" {
		b["dataCenterIds"] = splitComma(s)
	}
	if s := str("allowedCudaVersions"); s != "" {
		b["allowedCudaVersions"] = splitComma(s)
	}
	if s := str("minCudaVersion"); s != "" {
		b["minCudaVersion"] = s
	}
	if s := str("networkVolumeId"); s != "" {
		b["networkVolumeId"] = s
	}
	if in.has("networkVolumeIds") {
		ids := []string{}
		for _, v := range in.list("networkVolumeIds") {
			if s, _ := v.str("networkVolumeId"); s != "" && !slices.Contains(ids, s) {
				ids = append(ids, s)
			}
		}
		b["networkVolumeIds"] = ids // on an update, [] detaches them all
	}
	gpuIDs := str("gpuIds")
	instances, _ := in.strs("instanceIds")
	if gpuIDs != "" && len(instances) > 0 && cur == nil {
		return nil, badInput("saveEndpoint: gpuIds and instanceIds: an endpoint runs on GPUs or on CPUs; send one of them")
	}
	if gpuIDs != "" && (cur == nil || cur.m.V2.GPU == nil || gpuIDs != gpuIDsOf(cur.m.V2.GPU)) {
		types, err := ec.gpuTypesOf(gpuIDs)
		if err != nil {
			return nil, err
		}
		b["gpuTypeIds"] = types
	}
	if len(instances) > 0 {
		flavors, vcpus, err := cpuFlavorsOf(instances)
		if err != nil {
			return nil, err
		}
		b["cpuFlavorIds"], b["vcpuCount"] = flavors, vcpus
		if cur == nil {
			b["computeType"] = "CPU"
		}
	}
	return b, nil
}

// gpuTypesOf is v1's gpuTypeIds for GraphQL's gpuIds: the GPU types of
// the pools it names, less the types it excludes ("-NVIDIA A40"), from
// the v2 GPU catalog (H2). v1's plan turns them back into the same pools
// and excludes the rest. Types v1 did not know are left out, with a
// warning: the plan would refuse them.
func (ec *execCtx) gpuTypesOf(gpuIDs string) ([]string, error) {
	var pools, excluded []string
	for _, tok := range strings.Split(gpuIDs, ",") {
		switch tok = strings.TrimSpace(tok); {
		case tok == "":
		case strings.HasPrefix(tok, "-"):
			excluded = append(excluded, strings.TrimSpace(tok[1:]))
		default:
			pools = append(pools, tok)
		}
	}
	if len(pools) == 0 {
		return nil, badInput("saveEndpoint: gpuIds %q names no serverless GPU pool (such as AMPERE_16; a GPU type after a minus is excluded from them)", gpuIDs)
	}
	types, err := ec.gpuCatalog()
	if err != nil {
		return nil, err
	}
	var known []string
	for _, t := range types {
		if t.Pool != nil && *t.Pool != "" && !slices.Contains(known, *t.Pool) {
			known = append(known, *t.Pool)
		}
	}
	for _, p := range pools {
		if !slices.Contains(known, p) {
			return nil, badInput("saveEndpoint: gpuIds: %q is not a serverless GPU pool of the v2 catalog (its pools: %s; serverlessGpuPools lists their GPU types)", p, strings.Join(known, ", "))
		}
	}
	// Pool by pool, so that v1's plan, which makes pools of the types in
	// their order, keeps the client's order of pools.
	var ids, unknown []string
	for _, p := range pools {
		for _, id := range translate.GPUTypesOfPools(types, []string{p}, excluded) {
			switch {
			case slices.Contains(ids, id) || slices.Contains(unknown, id):
			case translate.IsV1GPUType(id):
				ids = append(ids, id)
			default:
				unknown = append(unknown, id)
			}
		}
	}
	if len(ids) == 0 {
		return nil, badInput("saveEndpoint: gpuIds %q leaves no GPU type the gateway can choose: exclude fewer types, or name another pool", gpuIDs)
	}
	if len(unknown) > 0 {
		ec.warn(translate.CodeGPUTypesDropped, "saveEndpoint: gpuIds: "+strings.Join(unknown, ", ")+
			" excluded: the gateway creates and updates endpoints through v1, which did not know these GPU types")
	}
	return ids, nil
}

// gpuCatalog is the v2 GPU catalog, read once per operation (the proxy
// caches it across requests).
func (ec *execCtx) gpuCatalog() ([]translate.V2GPUType, error) {
	return memo(ec, "res:gpuCatalog", func() ([]translate.V2GPUType, error) {
		types, res := translate.ReadGPUTypes(ec.ctx, ec.readRequest(), ec.env.Caller, translate.GPUCatalogQuery{})
		if res != nil {
			return nil, ec.readFailed("the v2 GPU catalog", res)
		}
		return types, nil
	})
}

// gpuDisplayName is a GPU type's name in the catalog ("RTX 4090"); null
// when the catalog does not list it.
func (ec *execCtx) gpuDisplayName(id string) (any, error) {
	types, err := ec.gpuCatalog()
	if err != nil {
		return nil, err
	}
	for _, t := range types {
		if t.ID == id {
			return nonEmpty(t.Name), nil
		}
	}
	return nil, nil
}

// cpuFlavorsOf is v1's cpuFlavorIds and vcpuCount of GraphQL's
// instanceIds (flavor-vCPUs-memory: cpu3c-2-4; the memory follows from
// the flavor and the vCPUs). v1 gives every flavor one vcpuCount.
func cpuFlavorsOf(ids []string) ([]string, int, error) {
	var flavors []string
	vcpus := 0
	for _, id := range ids {
		flavor, n, err := parseInstanceID(id)
		if err != nil {
			return nil, 0, badInput("saveEndpoint: instanceIds: %v", err)
		}
		if vcpus != 0 && n != vcpus {
			return nil, 0, badInput("saveEndpoint: instanceIds: %s asks %d vCPUs where another asks %d; the gateway's endpoints give every CPU flavor the same vCPU count", id, n, vcpus)
		}
		vcpus = n
		if !slices.Contains(flavors, flavor) {
			flavors = append(flavors, flavor)
		}
	}
	return flavors, vcpus, nil
}

// updateEndpointTemplate is updateEndpointTemplate(input: {endpointId,
// templateId}): v1 UpdateEndpoint {templateId} (v2 applies the template's
// settings to the endpoint once, H3), answering the endpoint.
func updateEndpointTemplate(ec *execCtx, f *ast.Field) (any, error) {
	in := ec.rootInput(f)
	id, _ := in.str("endpointId")
	tpl, _ := in.str("templateId")
	if tpl == "" {
		return nil, badInput("updateEndpointTemplate: templateId is empty")
	}
	return ec.updateEndpoint(id, map[string]any{"templateId": tpl})
}

// deleteEndpoint is deleteEndpoint(id): v1 DeleteEndpoint (H4: v2 deletes
// its bound template too; the plan warns when it cannot tell which). The
// vendor answered null.
func deleteEndpoint(ec *execCtx, f *ast.Field) (any, error) {
	id, _ := ec.args(f)["id"].(string)
	if _, err := ec.run("DeleteEndpoint", map[string]string{"endpointId": id}, nil, nil); err != nil {
		return nil, err
	}
	return nil, nil
}
