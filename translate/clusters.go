package translate

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/v1gateway/v1gateway/podjson"
)

// Clusters, for the GraphQL door (P11: createCluster, deleteCluster,
// User.clusters): v1's REST API had none, its GraphQL did, and v2 has
// /v2/clusters. Each function is one v2 call, with errors as the v1
// operations map them (req.Op is nil: FromV2Error names no resource).

// V2Cluster is a v2 Cluster: identity, homogeneous shape, and where and how
// far it is placed.
type V2Cluster struct {
	ID           string         `json:"id"`
	Name         string         `json:"name"`
	Type         string         `json:"type"`
	Compute      ClusterCompute `json:"compute"`
	Template     string         `json:"template"`
	DataCenterID string         `json:"dataCenterId"`
	CreatedAt    string         `json:"createdAt"`
	Network      *struct {
		CIDR string `json:"cidr"`
	} `json:"network"`
}

// ClusterCompute is a cluster's homogeneous shape: one GPU type, so many
// GPUs per pod, so many pods.
type ClusterCompute struct {
	GPUTypeID      string `json:"gpuTypeId"`
	GPUCountPerPod int    `json:"gpuCountPerPod"`
	PodCount       int    `json:"podCount"`
}

// ClusterCreate is v2 CreateClusterRequest: a cluster's shape, and the
// container configuration every member pod runs.
type ClusterCreate struct {
	Name          string            `json:"name"`
	Type          string            `json:"type"`
	Compute       ClusterCompute    `json:"compute"`
	Image         string            `json:"image,omitempty"`
	Args          string            `json:"args,omitempty"`
	Disk          int               `json:"disk,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
	Ports         []string          `json:"ports,omitempty"`
	DataCenterIDs []string          `json:"dataCenterIds,omitempty"`
	Mounts        *podjson.V2Mounts `json:"mounts,omitempty"`
	StartSSH      bool              `json:"startSsh,omitempty"`
}

// ClusterPod is a member pod of a cluster, as a pod model, with its place
// in the cluster (v2 Pod.cluster).
type ClusterPod struct {
	PodModel
	ClusterID, ClusterIP string
}

// CreateCluster creates a cluster (POST /v2/clusters). v2 makes every
// member pod at once; on an answer lost in transit nothing is retried
// (P3: a second create could make a second cluster).
func CreateCluster(ctx context.Context, req *Request, c Caller, in *ClusterCreate) (*V2Cluster, *Result) {
	a, r := callV2(ctx, req, c, http.MethodPost, "/v2/clusters", in)
	if r != nil {
		return nil, r
	}
	return decodeV2[V2Cluster](a, "a cluster")
}

// ReadClusters lists the account's clusters (GET /v2/clusters).
func ReadClusters(ctx context.Context, req *Request, c Caller) ([]V2Cluster, *Result) {
	list, r := getV2[struct {
		Clusters []V2Cluster `json:"clusters"`
	}](ctx, req, c, "/v2/clusters", "a cluster list")
	if r != nil {
		return nil, r
	}
	return list.Clusters, nil
}

// ReadClusterPods reads a cluster's member pods (GET
// /v2/clusters/{id}/pods), each with its v1 form and its place in the
// cluster.
func ReadClusterPods(ctx context.Context, req *Request, c Caller, id string) ([]ClusterPod, *Result) {
	if !ValidID(id) {
		return nil, Fail(http.StatusNotFound, "cluster not found")
	}
	a, r := callV2(ctx, req, c, http.MethodGet, V2Path("/v2/clusters/%s/pods", id), nil)
	if r != nil {
		return nil, r
	}
	pods, r := decodePodListAnswer(a)
	if r != nil {
		return nil, r
	}
	// The pods' cluster membership, which the pod decoder does not read.
	var members struct {
		Pods []struct {
			Cluster *struct {
				ID string `json:"id"`
				IP string `json:"ip"`
			} `json:"cluster"`
		} `json:"pods"`
	}
	_ = json.Unmarshal(a.Body, &members)
	out := make([]ClusterPod, len(pods))
	for i := range pods {
		v1 := podjson.V1PodFrom(&pods[i])
		out[i] = ClusterPod{PodModel: PodModel{V2: &pods[i], V1: &v1}}
		if i < len(members.Pods) && members.Pods[i].Cluster != nil {
			out[i].ClusterID, out[i].ClusterIP = members.Pods[i].Cluster.ID, members.Pods[i].Cluster.IP
		}
	}
	return out, nil
}

// DeleteCluster deletes a cluster and terminates its pods (DELETE
// /v2/clusters/{id}). A cluster v2 does not have is a 404.
func DeleteCluster(ctx context.Context, req *Request, c Caller, id string) *Result {
	if !ValidID(id) {
		return Fail(http.StatusNotFound, "cluster not found")
	}
	_, r := callV2(ctx, req, c, http.MethodDelete, V2Path("/v2/clusters/%s", id), nil)
	return r
}
