package translate

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Reads that no v1 operation makes, for the GraphQL door (P11): the v2
// GPU and data-center catalogs (GraphQL gpuTypes, lowestPrice,
// dataCenters, serverlessGpuPools) and the account's SSH keys (GraphQL
// myself.pubKey, updateUserSettings). v1's REST API had neither; its
// GraphQL did. Each is one v2 call, with errors as the v1 operations map
// them (req.Op may be nil: FromV2Error then names no resource).

// V2GPUType is a v2 GpuType, as the catalog answers it.
type V2GPUType = v2GPUType

// GPUCatalogQuery is what a GPU catalog read asks v2 for: availability for
// pods of Count GPUs (0: no availability) on Cloud ("" or SECURE,
// COMMUNITY), scoped to CudaVersions (or, without them, MinCudaVersion)
// and to CountryCodes (on a list, v2 then leaves out the types with no
// data center there).
type GPUCatalogQuery struct {
	ID             string // one type; "": all
	Count          int
	Cloud          string
	CudaVersions   []string
	MinCudaVersion string
	CountryCodes   []string
	// Product is the availability's product context: POD ("") or
	// CLUSTER.
	Product string
}

// values is q as the catalog's query parameters.
func (q GPUCatalogQuery) values() url.Values {
	if q.Count <= 0 {
		return nil
	}
	product := q.Product
	if product == "" {
		product = "POD"
	}
	v := url.Values{"include": {"AVAILABILITY"}, "product": {product}, "count": {strconv.Itoa(q.Count)}}
	if q.Cloud != "" {
		v.Set("cloud", q.Cloud)
	}
	if len(q.CudaVersions) > 0 {
		v.Set("cudaVersions", strings.Join(q.CudaVersions, ","))
	} else if q.MinCudaVersion != "" {
		v.Set("minCudaVersion", q.MinCudaVersion)
	}
	if len(q.CountryCodes) > 0 {
		v.Set("countryCodes", strings.Join(q.CountryCodes, ","))
	}
	return v
}

// ReadGPUTypes reads the v2 GPU catalog (GET /v2/catalog/gpus, or
// /v2/catalog/gpus/{id} for one type). An unknown type is an empty list,
// not an error: GraphQL's gpuTypes(input: {id}) answered [] for it. The
// types are read-only: they are decoded once per catalog answer, which
// the proxy shares between requests (decoded, answermemo.go).
func ReadGPUTypes(ctx context.Context, req *Request, c Caller, q GPUCatalogQuery) ([]V2GPUType, *Result) {
	if q.ID != "" {
		if !ValidID(q.ID) {
			return []V2GPUType{}, nil
		}
		a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: V2Path("/v2/catalog/gpus/%s", q.ID), Query: q.values()})
		if err != nil {
			return nil, FromCallError(err)
		}
		if a.Status == http.StatusNotFound {
			return []V2GPUType{}, nil
		}
		if !a.OK() {
			return nil, FromV2Error(req.Op, a)
		}
		t, r := decodeShared[V2GPUType](a, "a GPU type")
		if r != nil {
			return nil, r
		}
		return []V2GPUType{*t}, nil
	}
	a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/catalog/gpus", Query: q.values()})
	if err != nil {
		return nil, FromCallError(err)
	}
	if !a.OK() {
		return nil, FromV2Error(req.Op, a)
	}
	cat, r := decodeShared[v2GPUCatalog](a, "a GPU catalog")
	if r != nil {
		return nil, r
	}
	return cat.GPUs, nil
}

// V2DataCenter is a v2 DataCenter with its GPU availability.
type V2DataCenter struct {
	ID                 string   `json:"id"`
	Name               string   `json:"name"`
	Region             string   `json:"region"`
	GlobalNetwork      bool     `json:"globalNetwork"`
	NetworkVolumeTypes []string `json:"networkVolumeTypes"`
	Compliance         []string `json:"compliance"`
	GPUAvailability    []struct {
		ID           string `json:"id"`
		Name         string `json:"name"`
		Availability string `json:"availability"`
	} `json:"gpuAvailability"`
}

// v2DataCenterList is GET /v2/catalog/datacenters.
type v2DataCenterList struct {
	DataCenters []V2DataCenter `json:"dataCenters"`
}

// ReadDataCenters reads the v2 data-center catalog, with each one's GPU
// availability when gpus is set. The data centers are read-only: they are
// decoded once per catalog answer, which the proxy shares between
// requests.
func ReadDataCenters(ctx context.Context, req *Request, c Caller, gpus bool) ([]V2DataCenter, *Result) {
	call := V2Call{Method: http.MethodGet, Path: "/v2/catalog/datacenters"}
	if gpus {
		call.Query = url.Values{"include": {"GPU_AVAILABILITY"}}
	}
	a, err := c.Call(ctx, call)
	if err != nil {
		return nil, FromCallError(err)
	}
	if !a.OK() {
		return nil, FromV2Error(req.Op, a)
	}
	list, r := decodeShared[v2DataCenterList](a, "a data-center catalog")
	if r != nil {
		return nil, r
	}
	return list.DataCenters, nil
}

// sshKeys is v2 SshKeys, and UpdateSshKeysRequest.
type sshKeys struct {
	Keys []string `json:"keys"`
}

// ReadSSHKeys reads the account's SSH public keys (GET /v2/account/ssh-keys).
func ReadSSHKeys(ctx context.Context, req *Request, c Caller) ([]string, *Result) {
	k, r := getV2[sshKeys](ctx, req, c, "/v2/account/ssh-keys", "the account's SSH keys")
	if r != nil {
		return nil, r
	}
	return k.Keys, nil
}

// WriteSSHKeys replaces the account's SSH public keys (PUT
// /v2/account/ssh-keys: the whole set) and returns the set v2 kept.
func WriteSSHKeys(ctx context.Context, req *Request, c Caller, keys []string) ([]string, *Result) {
	if keys == nil {
		keys = []string{}
	}
	a, r := callV2(ctx, req, c, http.MethodPut, "/v2/account/ssh-keys", sshKeys{Keys: keys})
	if r != nil {
		return nil, r
	}
	k, r := decodeV2[sshKeys](a, "the account's SSH keys")
	if r != nil {
		return nil, r
	}
	return k.Keys, nil
}

// GPUTypesOfPools is the serverless GPU pool arithmetic (H2) for the
// GraphQL door, whose endpoints name pools and excluded types (gpuIds
// "AMPERE_16,-NVIDIA A40") where v1 named GPU types: the ids of the
// catalog's types that are in one of pools and not excluded, in catalog
// order (the types an endpoint with that selection may run on today).
func GPUTypesOfPools(types []V2GPUType, pools, excluded []string) []string {
	var cat v2GPUPoolCatalog
	cat.GPUs = slices.Grow(cat.GPUs, len(types))[:len(types)]
	for i := range types {
		cat.GPUs[i].ID, cat.GPUs[i].Pool = types[i].ID, types[i].Pool
	}
	return cat.eligible(pools, excluded)
}

// IsV1GPUType reports whether id is one of the GPU type ids v1 accepted
// (the enumeration v1 gpuTypeIds are checked against).
func IsV1GPUType(id string) bool {
	_, ok := v1GPUTypeIDs[id]
	return ok
}
