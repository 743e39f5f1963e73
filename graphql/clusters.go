package graphql

import (
	"net/http"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/podjson"
	"github.com/v1gateway/v1gateway/translate"
)

// Clusters: createCluster, deleteCluster and User.clusters on v2's clusters
// (translate/clusters.go: /v2/clusters). A cluster is podCount identical
// pods in one data center; its pods are read when selected (one more v2
// call per cluster).

// createCluster is createCluster(input: CreateClusterInput): one table,
// GraphQL input field → v2 CreateClusterRequest field. What v2 cannot do
// for a cluster is refused (a private registry, a template); dockerArgs is
// read as on a pod create (translate.DockerArgs: its JSON form's entrypoint
// is dockerEntrypoint, which P1 refuses unless field_policy drops it);
// what it cannot guarantee is accepted with a warning (a price cap, a CUDA
// minimum: P1's soft constraints).
func createCluster(ec *execCtx, f *ast.Field) (any, error) {
	in := ec.rootInput(f)
	b := &translate.ClusterCreate{Type: "TRAINING"}
	b.Name, _ = in.str("clusterName")
	b.Compute.GPUTypeID, _ = in.str("gpuTypeId")
	b.Compute.PodCount, _ = in.int("podCount")
	b.Compute.GPUCountPerPod, _ = in.int("gpuCountPerPod")
	var missing []string
	for k, v := range map[string]bool{"clusterName": b.Name == "", "gpuTypeId": b.Compute.GPUTypeID == "", "podCount": b.Compute.PodCount == 0, "gpuCountPerPod": b.Compute.GPUCountPerPod == 0} {
		if v {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, badInput("createCluster: %s: required for a cluster (its name and the shape of its pods)", strings.Join(sortedKeys(setOf(missing)), ", "))
	}
	if t, ok := in.str("type"); ok && t != "" {
		b.Type = t
	}
	b.Image, _ = in.str("imageName")
	b.Disk, _ = in.int("containerDiskInGb")
	if s, ok := in.str("ports"); ok {
		b.Ports = portList(s)
	}
	if in.has("env") {
		b.Env = envMap(in.list("env"))
	}
	if s, ok := in.str("dataCenterId"); ok && s != "" {
		b.DataCenterIDs = []string{s}
	}
	b.StartSSH, _ = in.boolean("startSsh")
	if s, ok := in.str("dockerArgs"); ok && s != "" {
		notes := &translate.Result{}
		args, res := translate.DockerArgs(ec.readRequest(), s, notes)
		if res != nil {
			return nil, ec.readFailed("createCluster", res)
		}
		ec.absorb(notes)
		b.Args = args
	}
	path, _ := in.str("volumeMountPath")
	if path == "" {
		path = "/workspace"
	}
	if id, ok := in.str("networkVolumeId"); ok && id != "" {
		b.Mounts = &podjson.V2Mounts{Network: []podjson.V2NetworkMount{{VolumeID: id, Path: path}}}
	} else if n, ok := in.int("volumeInGb"); ok && n > 0 {
		b.Mounts = &podjson.V2Mounts{Persistent: &podjson.V2PersistentMount{Size: n, Path: path}}
	}
	if s, _ := in.str("containerRegistryAuthId"); s != "" {
		return nil, ec.refuse("createCluster: containerRegistryAuthId: v2 clusters cannot pull from a private registry; use a public image, or create the pods one by one (podFindAndDeployOnDemand)")
	}
	if s, _ := in.str("templateId"); s != "" {
		return nil, ec.refuse("createCluster: templateId: v2 creates a cluster from its container settings, not a template; send the template's imageName, dockerArgs, env and ports")
	}
	if cost, ok := in.float("deployCost"); ok && cost > 0 {
		ec.warn(translate.CodeUnknownFields, "createCluster: deployCost was not applied: v2 has no price cap on a cluster (the price per GPU is the GPU type's, gpuTypes.securePrice)")
	}
	if s, _ := in.str("minCudaVersion"); s != "" {
		ec.warn(translate.CodeUnknownFields, "createCluster: minCudaVersion "+s+" was not applied: v2 places a cluster without a CUDA constraint")
	}
	c, res := translate.CreateCluster(ec.ctx, ec.readRequest(), ec.env.Caller, b)
	if res != nil {
		return nil, ec.readFailed("createCluster", res)
	}
	return &clusterObject{c: c}, nil
}

// setOf is a set of strings.
func setOf(l []string) map[string]bool {
	m := make(map[string]bool, len(l))
	for _, s := range l {
		m[s] = true
	}
	return m
}

// deleteCluster is deleteCluster(input: {id}): the cluster and its pods
// go. The vendor answered null, and for a cluster that is not there the
// code "Cluster not found", which dstack compares to take it as gone.
func deleteCluster(ec *execCtx, f *ast.Field) (any, error) {
	id, _ := ec.rootInput(f).str("id")
	if res := translate.DeleteCluster(ec.ctx, ec.readRequest(), ec.env.Caller, id); res != nil {
		err := ec.readFailed("deleteCluster", res)
		if pe, ok := err.(*planError); ok && pe.status == http.StatusNotFound {
			return nil, vendorNotFound(pe, "Cluster not found", "Cluster not found")
		}
		return nil, err
	}
	return nil, nil
}

// userClusters is User.clusters: GET /v2/clusters.
func userClusters(ec *execCtx) (any, error) {
	list, res := translate.ReadClusters(ec.ctx, ec.readRequest(), ec.env.Caller)
	if res != nil {
		return nil, ec.readFailed("the account's clusters", res)
	}
	out := make([]object, len(list))
	for i := range list {
		out[i] = &clusterObject{c: &list[i]}
	}
	return out, nil
}

// clusterObject is a Cluster.
type clusterObject struct{ c *translate.V2Cluster }

func (o *clusterObject) typeName() string { return "Cluster" }
func (o *clusterObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(clusterFields, "Cluster", o, ec, f)
}

// clusterFields: the Cluster object, field ← v2 Cluster.
var clusterFields = fieldTable[*clusterObject]{
	"id":   func(o *clusterObject, _ *execCtx, _ *ast.Field) (any, error) { return o.c.ID, nil },
	"name": func(o *clusterObject, _ *execCtx, _ *ast.Field) (any, error) { return o.c.Name, nil },
	"type": func(o *clusterObject, ec *execCtx, _ *ast.Field) (any, error) {
		return enumValue(ec, "ClusterType", o.c.Type), nil
	},
	"gpuTypeId":      func(o *clusterObject, _ *execCtx, _ *ast.Field) (any, error) { return o.c.Compute.GPUTypeID, nil },
	"podCount":       func(o *clusterObject, _ *execCtx, _ *ast.Field) (any, error) { return o.c.Compute.PodCount, nil },
	"gpuCountPerPod": func(o *clusterObject, _ *execCtx, _ *ast.Field) (any, error) { return o.c.Compute.GPUCountPerPod, nil },
	"pods":           func(o *clusterObject, ec *execCtx, _ *ast.Field) (any, error) { return ec.clusterPods(o.c.ID) },
}

// enumValue is v, or null when it is not a value of the schema's enum typ
// (v2 has cluster types the vendor's enum lacks).
func enumValue(ec *execCtx, typ, v string) any {
	if l := ec.enumIn(typ, []string{v}); len(l) == 1 {
		return v
	}
	return nil
}

// clusterPods is Cluster.pods: the member pods, each a Pod with its
// cluster id and address.
func (ec *execCtx) clusterPods(id string) (any, error) {
	pods, res := translate.ReadClusterPods(ec.ctx, ec.readRequest(), ec.env.Caller, id)
	if res != nil {
		return nil, ec.readFailed("the cluster's pods", res)
	}
	out := make([]object, len(pods))
	for i := range pods {
		p := &podObject{cluster: &podCluster{id: pods[i].ClusterID, ip: pods[i].ClusterIP}}
		p.set(&pods[i].PodModel)
		out[i] = p
	}
	return out, nil
}
