package graphql

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/podjson"
	"github.com/v1gateway/v1gateway/translate"
)

// Pods: Query.pod, User.pods, and the pod mutations, each on the v1 pod
// operation's plan (GetPod, ListPods, CreatePod, StartPod, StopPod,
// DeletePod); the GraphQL Pod is read from the plan's PodModel.

// ---------------------------------------------------------------------------
// Reads

// podQuery is the v1 query of a pod read: includeMachine when the
// selection reads the pod's machine (its GPU's display name).
func (ec *execCtx) podQuery(f *ast.Field) url.Values {
	if ec.selects(f, "machine") {
		return url.Values{"includeMachine": {"true"}}
	}
	return nil
}

// queryPod is Query.pod(input: {podId}): null when v2 has no such pod.
func queryPod(ec *execCtx, f *ast.Field) (any, error) {
	in := ec.rootInput(f)
	id, _ := in.str("podId")
	if !translate.ValidID(id) {
		return nil, nil
	}
	res, err := ec.run("GetPod", map[string]string{"podId": id}, ec.podQuery(f), nil)
	if pe, ok := err.(*planError); ok && pe.status == 404 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return podObjectOf(res.Model), nil
}

// userPods is User.pods: ListPods.
func userPods(ec *execCtx, f *ast.Field) (any, error) {
	res, err := ec.run("ListPods", nil, ec.podQuery(f), nil)
	if err != nil {
		return nil, err
	}
	models, _ := res.Model.([]translate.PodModel)
	out := make([]object, len(models))
	pods := make([]podObject, len(models))
	for i := range models {
		pods[i].set(&models[i])
		out[i] = &pods[i]
	}
	return out, nil
}

// podObjectOf is the Pod of a plan's model (nil when it gave none).
func podObjectOf(model any) object {
	m, ok := model.(*translate.PodModel)
	if !ok || m == nil {
		return nil
	}
	p := &podObject{}
	p.set(m)
	return p
}

// ---------------------------------------------------------------------------
// The Pod object: one table, GraphQL field ← the pod's v2 and v1 forms.

// podObject is a Pod; its machine and runtime objects live in it (no
// allocation of their own for each pod of a list).
type podObject struct {
	m       *translate.PodModel
	machine podMachine
	runtime podRuntime
	// up is the pod's uptime once read (uptimeSeconds and
	// runtime.uptimeInSeconds are the same), -1 before.
	up int
	// cluster is the pod's place in a cluster, for a pod read as a
	// cluster's member (clusterPods); nil otherwise (a pointer: a list's
	// pods do not carry two strings each for it).
	cluster *podCluster
}

// podCluster is a pod's cluster id and address on its network.
type podCluster struct{ id, ip string }

// leafCluster writes a pod's cluster id or its address on the cluster's
// network (ip). A pod read as a cluster's member (clusterPods) has them
// (null when v2 has not given the address yet); a pod read any other way
// does not carry v2's Pod.cluster, so the gateway does not know whether it
// is in a cluster: null, named in the warnings by the default path
// (unanswered).
func leafCluster(name string, ip bool) func(*execCtx, *collectedField, *podObject) {
	return func(ec *execCtx, cf *collectedField, p *podObject) {
		if p.cluster == nil {
			ec.writeUnanswered(cf, "Pod", name)
			return
		}
		v := p.cluster.id
		if ip {
			v = p.cluster.ip
		}
		if v == "" {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.buf = appendString(ec.buf, v)
	}
}

func (p *podObject) set(m *translate.PodModel) {
	p.m, p.machine.m, p.runtime.m, p.runtime.pod, p.up = m, m, m, p, -1
}

// uptime is the pod's uptime in seconds (execCtx.uptime), read once.
func (p *podObject) uptime(ec *execCtx) int {
	if p.up < 0 {
		p.up = ec.uptime(p.m.V2)
	}
	return p.up
}

func (p *podObject) typeName() string { return "Pod" }
func (p *podObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(podFields, "Pod", p, ec, f)
}
func (p *podObject) resolverFor(name string) fieldResolver { return podFields.resolverFor(name) }

// Its leaves are written straight from the model (podLeaves); machine and
// runtime are objects of their own, inside the pod's (podFields).
func (p *podObject) writerFor(name string) leafWriter { return podLeaves.writerFor(name) }

var podLeaves = leafTable[*podObject]{
	"id":                leafString(func(p *podObject) string { return p.m.V1.ID }),
	"name":              leafString(func(p *podObject) string { return p.m.V1.Name }),
	"imageName":         leafString(func(p *podObject) string { return p.m.V1.Image }),
	"desiredStatus":     leafString(func(p *podObject) string { return string(p.m.V1.DesiredStatus) }),
	"containerDiskInGb": leafInt(func(p *podObject) int { return p.m.V1.ContainerDiskInGb }),
	"costPerHr":         leafFloat(func(p *podObject) float64 { return p.m.V1.CostPerHr }),
	"volumeInGb":        leafInt(func(p *podObject) int { return p.m.V1.VolumeInGb }),
	"volumeMountPath":   leafString(func(p *podObject) string { return string(p.m.V1.VolumeMountPath) }),
	"dockerArgs":        leafString(func(p *podObject) string { return p.m.V2.Args }),
	"env":               func(ec *execCtx, _ *collectedField, p *podObject) { ec.buf = (*podEnv)(&p.m.V2.Env).appendJSON(ec.buf) },
	"ports": func(ec *execCtx, _ *collectedField, p *podObject) {
		ec.buf = (*podPorts)(&p.m.V2.Ports).appendJSON(ec.buf)
	},
	"gpuCount": leafInt(func(p *podObject) int {
		if p.m.V2.GPU == nil {
			return 0
		}
		return p.m.V2.GPU.Count
	}),
	"vcpuCount": func(ec *execCtx, cf *collectedField, p *podObject) {
		if p.m.V2.CPU == nil {
			ec.writeUnanswered(cf, "Pod", "vcpuCount")
			return
		}
		ec.writeLeafInt(cf, p.m.V2.CPU.VcpuCount)
	},
	"memoryInGb": func(ec *execCtx, cf *collectedField, p *podObject) {
		if p.m.V2.CPU == nil {
			ec.writeUnanswered(cf, "Pod", "memoryInGb")
			return
		}
		ec.writeLeafInt(cf, p.m.V2.CPU.Memory)
	},
	"uptimeSeconds":           func(ec *execCtx, cf *collectedField, p *podObject) { ec.writeLeafInt(cf, p.uptime(ec)) },
	"adjustedCostPerHr":       leafFloat(func(p *podObject) float64 { return p.m.V1.AdjustedCostPerHr }),
	"locked":                  leafBool(func(p *podObject) bool { return p.m.V1.Locked }),
	"containerRegistryAuthId": leafOptString(func(p *podObject) string { return string(p.m.V1.ContainerRegistryAuthID) }),
	"templateId":              leafOptString(func(p *podObject) string { return string(p.m.V1.TemplateID) }),
	"cpuFlavorId":             leafOptString(func(p *podObject) string { return string(p.m.V1.CPUFlavorID) }),
	"createdAt":               leafOptString(func(p *podObject) string { return p.m.V1.CreatedAt }),
	"lastStartedAt":           leafOptString(func(p *podObject) string { return string(p.m.V1.LastStartedAt) }),
	"networkVolumeId":         leafOptString(func(p *podObject) string { return p.networkVolumeID() }),
	"clusterId":               leafCluster("clusterId", false),
	"clusterIp":               leafCluster("clusterIp", true),
	"machineId":               leafUnanswered[*podObject]("Pod", "machineId"),
	"dockerId":                leafUnanswered[*podObject]("Pod", "dockerId"),
	"lastStatusChange":        leafUnanswered[*podObject]("Pod", "lastStatusChange"),
	"podType":                 leafUnanswered[*podObject]("Pod", "podType"),
	"port":                    leafUnanswered[*podObject]("Pod", "port"),
}

var podFields = fieldTable[*podObject]{
	"machine": func(p *podObject, _ *execCtx, _ *ast.Field) (any, error) { return &p.machine, nil },
	"networkVolume": func(p *podObject, _ *execCtx, _ *ast.Field) (any, error) {
		if id := p.networkVolumeID(); id != "" {
			return &volumeObject{id: id}, nil
		}
		return nil, nil
	},
	"cpuFlavor": func(p *podObject, ec *execCtx, _ *ast.Field) (any, error) {
		return ec.cpuFlavor(string(p.m.V1.CPUFlavorID))
	},
	"runtime": func(p *podObject, _ *execCtx, _ *ast.Field) (any, error) {
		if p.m.V2.Runtime == nil {
			return nil, nil
		}
		return &p.runtime, nil
	},
}

// networkVolumeID is the network volume the pod mounts ("" for none).
func (p *podObject) networkVolumeID() string {
	if len(p.m.V2.Mounts.Network) == 0 {
		return ""
	}
	return p.m.V2.Mounts.Network[0].VolumeID
}

// unansweredField is the resolver of a field v2 has no source for.
func unansweredField[T any](typ, name string) func(T, *execCtx, *ast.Field) (any, error) {
	return func(_ T, ec *execCtx, _ *ast.Field) (any, error) { return ec.unanswered(typ, name) }
}

// uptime is the seconds since a running pod last started (v2 startedAt),
// 0 for a pod that is not running.
func (ec *execCtx) uptime(p *podjson.V2Pod) int {
	if p.Status != "RUNNING" {
		return 0
	}
	return ec.secondsSince(p.StartedAt)
}

// secondsSince is the seconds from an RFC 3339 instant to now (0 for none).
func (ec *execCtx) secondsSince(at string) int {
	t, err := time.Parse(time.RFC3339Nano, at)
	if at == "" || err != nil {
		return 0
	}
	now := time.Now
	if ec.env.Options.Now != nil {
		now = ec.env.Options.Now
	}
	if d := now().Sub(t); d > 0 {
		return int(d / time.Second)
	}
	return 0
}

type podMachine struct{ m *translate.PodModel }

func (p *podMachine) typeName() string { return "PodMachineInfo" }
func (p *podMachine) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(fieldTable[*podMachine]{}, "PodMachineInfo", p, ec, f)
}

func (p *podMachine) writerFor(name string) leafWriter { return podMachineLeaves.writerFor(name) }

var podMachineLeaves = leafTable[*podMachine]{
	"gpuDisplayName": func(ec *execCtx, _ *collectedField, p *podMachine) {
		if p.m.V1.Machine == nil || p.m.V1.Machine.GpuDisplayName == "" {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.buf = appendString(ec.buf, p.m.V1.Machine.GpuDisplayName)
	},
	"location": func(ec *execCtx, _ *collectedField, p *podMachine) {
		if p.m.V2.DataCenterID == "" {
			ec.buf = append(ec.buf, "null"...)
			return
		}
		ec.buf = appendString(ec.buf, p.m.V2.DataCenterID)
	},
	"podHostId":    leafUnanswered[*podMachine]("PodMachineInfo", "podHostId"),
	"dataCenterId": leafOptString(func(p *podMachine) string { return p.m.V2.DataCenterID }),
	"gpuTypeId": leafOptString(func(p *podMachine) string {
		if p.m.V2.GPU == nil {
			return ""
		}
		return p.m.V2.GPU.ID
	}),
	"secureCloud": func(ec *execCtx, _ *collectedField, p *podMachine) {
		switch p.m.V2.Cloud {
		case "SECURE":
			ec.buf = append(ec.buf, "true"...)
		case "COMMUNITY":
			ec.buf = append(ec.buf, "false"...)
		default:
			ec.buf = append(ec.buf, "null"...)
		}
	},
}

type podRuntime struct {
	m   *translate.PodModel
	pod *podObject
}

func (p *podRuntime) typeName() string { return "PodRuntime" }
func (p *podRuntime) resolverFor(name string) fieldResolver {
	return podRuntimeFields.resolverFor(name)
}
func (p *podRuntime) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(podRuntimeFields, "PodRuntime", p, ec, f)
}

func (p *podRuntime) writerFor(name string) leafWriter { return podRuntimeLeaves.writerFor(name) }

var podRuntimeLeaves = leafTable[*podRuntime]{
	"uptimeInSeconds": func(ec *execCtx, cf *collectedField, p *podRuntime) { ec.writeLeafInt(cf, p.pod.uptime(ec)) },
}

var podRuntimeFields = fieldTable[*podRuntime]{
	"ports": func(p *podRuntime, ec *execCtx, _ *ast.Field) (any, error) {
		ports := p.m.V2.Runtime.Ports
		exposed := ec.ports.exposed[:0]
		for i := range ports {
			rp := &ports[i]
			if rp.Public <= 0 {
				continue // not exposed (a null public port)
			}
			exposed = append(exposed, runtimePort{p: rp, public: rp.IP != "" && rp.IP == string(p.m.V1.PublicIP)})
		}
		setPortTypes(exposed, p.m.V2.Ports)
		out := ec.ports.objects[:0]
		for i := range exposed {
			out = append(out, &exposed[i])
		}
		ec.ports.exposed, ec.ports.objects = exposed, out
		return &ec.ports.objects, nil
	},
	"gpus":      unansweredField[*podRuntime]("PodRuntime", "gpus"),
	"container": unansweredField[*podRuntime]("PodRuntime", "container"),
}

type runtimePort struct {
	p      *podjson.V2RuntimePort
	public bool
	typ    string // http or tcp, as the pod's ports list exposes it (tcp when it does not say)
}

func (r *runtimePort) typeName() string { return "PodRuntimePorts" }
func (r *runtimePort) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(fieldTable[*runtimePort]{}, "PodRuntimePorts", r, ec, f)
}

func (r *runtimePort) writerFor(name string) leafWriter { return runtimePortLeaves.writerFor(name) }

var runtimePortLeaves = leafTable[*runtimePort]{
	"ip":          leafString(func(r *runtimePort) string { return r.p.IP }),
	"isIpPublic":  leafBool(func(r *runtimePort) bool { return r.public }),
	"privatePort": leafInt(func(r *runtimePort) int { return r.p.Private }),
	"publicPort":  leafInt(func(r *runtimePort) int { return r.p.Public }),
	"type":        leafString(func(r *runtimePort) string { return r.typ }),
}

// portTypes maps each exposed private port to its protocol (8888/http →
// 8888: "http") from the pod's v2 ports.
func portTypes(raw json.RawMessage) map[int]string {
	var ports []string
	_ = json.Unmarshal(raw, &ports)
	out := make(map[int]string, len(ports))
	for _, s := range ports {
		n, proto, _ := strings.Cut(s, "/")
		if p, err := strconv.Atoi(n); err == nil {
			out[p] = proto
		}
	}
	return out
}

// portString is v2's ports list as GraphQL's "8888/http,22/tcp".
func portString(raw json.RawMessage) string {
	var ports []string
	_ = json.Unmarshal(raw, &ports)
	return strings.Join(ports, ",")
}

// envStrings is a v2 env object as GraphQL's ["KEY=value", ...], in the
// object's order.
func envStrings(raw json.RawMessage) []string {
	pairs := envPairs(raw)
	out := make([]string, len(pairs))
	for i, kv := range pairs {
		out[i] = kv[0] + "=" + kv[1]
	}
	return out
}

// envPairs reads a JSON object of strings in order ([key, value] pairs);
// values that are not strings are written as their JSON text.
func envPairs(raw json.RawMessage) [][2]string {
	if len(raw) == 0 {
		return [][2]string{}
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return [][2]string{}
	}
	out := [][2]string{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		k, _ := t.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = string(v)
		}
		out = append(out, [2]string{k, s})
	}
	return out
}

// ---------------------------------------------------------------------------
// Mutations

// podCreateRoot is podFindAndDeployOnDemand (GPU) or deployCpuPod (CPU):
// the v1 CreatePod of the input, then the created pod.
func podCreateRoot(cpu bool) func(ec *execCtx, f *ast.Field) (any, error) {
	return func(ec *execCtx, f *ast.Field) (any, error) {
		in := ec.rootInput(f)
		body, err := ec.podCreateBody(f.Name, in, cpu)
		if err != nil {
			return nil, err
		}
		res, err := ec.runNamed(f.Name, podNames.of(in), "CreatePod", nil, body)
		if err != nil {
			return nil, err
		}
		return podObjectOf(res.Model), nil
	}
}

// podNames are the GraphQL inputs a pod create sends under another v1
// name (podCreateBody): a refusal or warning of the v1 plan (P1) names the
// v1 field, and the answer says which input that was (runNamed).
var podNames = fieldNames{
	{"minDownload", "minDownloadMbps"}, {"minUpload", "minUploadMbps"},
	{"countryCode", "countryCodes"}, {"dataCenterId", "dataCenterIds"},
	{"gpuTypeId", "gpuTypeIds"}, {"instanceId", "cpuFlavorIds"},
	{"minMemoryInGb", "minRAMPerGPU"}, {"minVcpuCount", "minVCPUPerGPU"},
}

// v1's minimum vCPUs and RAM per GPU (PodCreateInput defaults): a GraphQL
// minimum no higher than these for the pod's GPUs asks nothing v1 did not
// already accept by default, and is sent as nothing.
const (
	v1MinVCPUPerGPU = 2
	v1MinRAMPerGPU  = 8
)

// podCreateBody is the v1 CreatePod body of a GraphQL pod deploy: one
// table, GraphQL input field → v1 field. Inputs v2 cannot honour are
// refused here, named as the client sent them; the rest go to the same
// plan as v1's, which checks, warns of, refuses or drops what P1 says
// (soft constraints such as minMemoryInGb, countryCode and deployCost are
// the plan's, never the door's).
func (ec *execCtx) podCreateBody(root string, in input, cpu bool) (map[string]any, error) {
	b := map[string]any{}
	copyStr := func(from, to string) {
		if s, ok := in.str(from); ok && s != "" {
			b[to] = s
		}
	}
	copyInt := func(from, to string) {
		if n, ok := in.int(from); ok {
			b[to] = n
		}
	}
	copyStr("name", "name")
	copyStr("imageName", "imageName")
	copyStr("templateId", "templateId")
	copyStr("dockerArgs", "dockerArgs")
	copyStr("volumeMountPath", "volumeMountPath")
	copyStr("networkVolumeId", "networkVolumeId")
	copyStr("containerRegistryAuthId", "containerRegistryAuthId")
	copyStr("minCudaVersion", "minCudaVersion")
	copyInt("containerDiskInGb", "containerDiskInGb")
	copyInt("minDownload", "minDownloadMbps")
	copyInt("minUpload", "minUploadMbps")
	if s, ok := in.str("ports"); ok && s != "" {
		b["ports"] = portList(s)
	}
	if in.has("env") {
		b["env"] = envMap(in.list("env"))
	}
	if s, ok := in.str("dataCenterId"); ok && s != "" {
		b["dataCenterIds"] = []string{s}
	}
	if s, ok := in.str("countryCode"); ok && s != "" {
		b["countryCodes"] = []string{s}
	}
	switch c, _ := in.str("cloudType"); c {
	case "SECURE", "COMMUNITY", "ALL":
		// ALL: either cloud, SECURE tried first (the plan's own reading).
		b["cloudType"] = c
	}
	if on, ok := in.boolean("startSsh"); ok && !on {
		ec.warn(translate.CodeUnknownFields, root+": startSsh false was not applied: the gateway's pods get SSH access, as v1's did")
	}
	if on, ok := in.boolean("startJupyter"); ok && on {
		ec.warn(translate.CodeUnknownFields, root+": startJupyter true was not applied: v1's pods had no such setting (start JupyterLab from the image or template)")
	}
	if cost, ok := in.float("deployCost"); ok && cost > 0 {
		// A price cap: the plan checks it against the catalog (P1).
		b["deployCost"] = cost
	}
	for _, k := range []string{"stopAfter", "terminateAfter"} {
		if s, ok := in.str(k); ok && s != "" {
			return nil, ec.refuse("%s: %s: v2 cannot stop or terminate a pod at a set time; send it without %s", root, k, k)
		}
	}
	if l, ok := in.strs("compliance"); ok && len(l) > 0 {
		return nil, ec.refuse("%s: compliance: v2 places pods by data center, not by certification; send dataCenterId instead", root)
	}
	if cpu {
		b["computeType"] = "CPU"
		if b["templateId"] == runpodPythonCPUTemplate {
			// v2 may still serve the vendor's template of that id (its
			// public catalog, GET /v2/templates/{id}): then it is sent as
			// v1 sent it. Only a 404 makes it v2's missing template.
			readable, res := translate.TemplateReadable(ec.ctx, ec.readRequest(), ec.env.Caller, runpodPythonCPUTemplate)
			if res != nil {
				return nil, ec.readFailed("the v2 template "+runpodPythonCPUTemplate, res)
			}
			if readable {
				return cpuInstance(root, in, b)
			}
			if b["imageName"] == nil {
				// runpod-graphql sends it with imageName "": nothing says
				// what the pod should run (P1), so v2 is not asked.
				return nil, ec.refuse("%s: templateId runpod-ubuntu (the vendor's default CPU template): v2 has no template of that id, and no imageName was sent to run instead; send imageName with the image the pod should run", root)
			}
			delete(b, "templateId")
			ec.warn(translate.CodeGraphQLDefaultTemplate, root+": templateId runpod-ubuntu (runpod-python's default for CPU pods) was not sent: v2 has no template of that id, and the pod runs the imageName asked for")
		}
		return cpuInstance(root, in, b)
	}
	copyInt("gpuCount", "gpuCount")
	copyInt("volumeInGb", "volumeInGb")
	copyStr("gpuTypeId", "gpuTypeIds")
	if id, ok := b["gpuTypeIds"].(string); ok {
		b["gpuTypeIds"] = []string{id}
	}
	if l, ok := in.strs("allowedCudaVersions"); ok && len(l) > 0 {
		b["allowedCudaVersions"] = l
	}
	if v, ok := in.boolean("supportPublicIp"); ok {
		b["supportPublicIp"] = v
	}
	gpus := 1
	if n, ok := in.int("gpuCount"); ok && n > 0 {
		gpus = n
	}
	if n, ok := in.int("minVcpuCount"); ok && n > v1MinVCPUPerGPU*gpus {
		b["minVCPUPerGPU"] = (n + gpus - 1) / gpus
	}
	if n, ok := in.int("minMemoryInGb"); ok && n > v1MinRAMPerGPU*gpus {
		b["minRAMPerGPU"] = (n + gpus - 1) / gpus
	}
	return b, nil
}

// cpuInstance completes a CPU pod's create body b with its instanceId
// (flavor and vCPUs).
func cpuInstance(root string, in input, b map[string]any) (map[string]any, error) {
	if id, ok := in.str("instanceId"); ok && id != "" {
		flavor, vcpus, err := parseInstanceID(id)
		if err != nil {
			return nil, &codedError{fmt.Sprintf("%s: instanceId: %v", root, err), "BAD_USER_INPUT"}
		}
		b["cpuFlavorIds"] = []string{flavor}
		b["vcpuCount"] = vcpus
	}
	return b, nil
}

// runpodPythonCPUTemplate is the template runpod-python (1.x) puts in every
// deployCpuPod it sends without one: the vendor's GraphQL default, which
// v2 does not have (the vendor's own v2 client stopped sending it).
const runpodPythonCPUTemplate = "runpod-ubuntu"

// parseInstanceID reads a CPU instance id, flavor-vCPUs-memory (cpu3c-2-4).
// The memory follows from the flavor and the vCPUs in v2 (and did in v1).
func parseInstanceID(id string) (flavor string, vcpus int, err error) {
	parts := strings.Split(id, "-")
	if len(parts) != 3 {
		return "", 0, fmt.Errorf("%q is not flavor-vCPUs-memory (e.g. cpu3c-2-4)", id)
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("%q: the vCPU count %q is not a positive integer", id, parts[1])
	}
	return parts[0], n, nil
}

// podResume is podResume(input: {podId, gpuCount}): v1 StartPod. v2 starts
// a pod with the GPUs it has; a different gpuCount is refused;
// allowedCudaVersions is accepted with a warning.
func podResume(ec *execCtx, f *ast.Field) (any, error) {
	in := ec.rootInput(f)
	id, _ := in.str("podId")
	params := map[string]string{"podId": id}
	if l, ok := in.strs("allowedCudaVersions"); ok && len(l) > 0 {
		// A CUDA constraint is soft (P1), as on a create; the vendor's
		// documentation resumes with one. v2 tells no machine's CUDA
		// version, so it is accepted with a warning, counted per field.
		msg := fmt.Sprintf("podResume: allowedCudaVersions was accepted but not guaranteed: the pod resumes on its own machine, whose CUDA version v2 does not tell, so %s cannot be checked", strings.Join(l, ", "))
		ec.addWarning(msg)
		ec.out.Notes = append(ec.out.Notes, translate.Note{Code: translate.CodeSoftConstraintUnchecked, Field: "allowedCudaVersions", Message: msg})
	}
	if n, ok := in.int("gpuCount"); ok && n > 0 {
		res, err := ec.run("GetPod", params, nil, nil)
		if err != nil {
			return nil, err
		}
		if m, _ := res.Model.(*translate.PodModel); m != nil && m.V2.GPU != nil && m.V2.GPU.Count != n {
			return nil, ec.refuse("podResume: gpuCount %d: pod %s has %d GPU(s), and v2 resumes a pod with the GPUs it has; send gpuCount %d or none", n, id, m.V2.GPU.Count, m.V2.GPU.Count)
		}
	}
	res, err := ec.run("StartPod", params, nil, nil)
	if err != nil {
		return nil, err
	}
	return podObjectOf(res.Model), nil
}

// podAction is a mutation that runs a v1 pod action (StopPod).
func podAction(op string) func(ec *execCtx, f *ast.Field) (any, error) {
	return func(ec *execCtx, f *ast.Field) (any, error) {
		id, _ := ec.rootInput(f).str("podId")
		res, err := ec.run(op, map[string]string{"podId": id}, nil, nil)
		if err != nil {
			return nil, err
		}
		return podObjectOf(res.Model), nil
	}
}

// podTerminate is podTerminate(input: {podId}): v1 DeletePod. The vendor
// answered null, and for a pod that is not there (v2's 404, or an id v2
// could never have given) its own message, which clients compare exactly
// (dstack takes it as "already gone": vendorNotFound).
func podTerminate(ec *execCtx, f *ast.Field) (any, error) {
	id, _ := ec.rootInput(f).str("podId")
	_, v2Status, err := ec.runNoting("DeletePod", map[string]string{"podId": id}, nil, nil)
	if pe, ok := err.(*planError); ok && (v2Status == http.StatusNotFound || (v2Status == 0 && pe.status == http.StatusNotFound)) {
		return nil, vendorNotFound(pe, "pod not found to terminate", "NOT_FOUND")
	}
	if err != nil {
		return nil, err
	}
	return nil, nil
}
