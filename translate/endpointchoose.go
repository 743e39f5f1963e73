package translate

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// A GPU endpoint created without gpuTypeIds (P3, issue 29 item 1): v1's
// EndpointCreateInput requires only templateId, and real clients (the
// official Terraform provider's minimal runpod_endpoint, the bash CLI,
// laravel-runpod) send nothing else. The gateway chooses as it does for a
// pod (rankGPUTypes, podchoose.go): the v1 GPU types the v2 catalog shows
// with a serverless pool, most available for serverless first, ties broken
// by the lower serverless price, or by the order of default_gpu_types,
// which also narrows the set. Unlike a pod, whose create fails on a type
// without stock, an endpoint's workers are placed over time: a type without
// stock stays eligible, ranked last. The endpoint gets one type — the first
// — so that a choice the client never made cannot spread its workers over
// types whose prices differ more than ten times; the choice is named in
// X-Compat-Warning (gpu_type_chosen) and answered as gpuTypeIds.

// chooseEndpointGPU sets in.gpuTypeIDs to the chosen type, from one read
// of the GPU catalog with serverless availability, and returns that
// catalog for the pool arithmetic; or the v1 answer when it cannot choose.
func chooseEndpointGPU(ctx context.Context, req *Request, c Caller, in *endpointCreate, notes *Result) (*v2GPUPoolCatalog, *Result) {
	count := v1DefaultGPUCount
	if in.gpuCount != nil {
		count = *in.gpuCount
	}
	q := url.Values{"include": {"AVAILABILITY"}, "product": {"SERVERLESS"}, "count": {strconv.Itoa(count)}}
	if in.cudaAllowed != nil && len(*in.cudaAllowed) > 0 {
		q.Set("cudaVersions", strings.Join(*in.cudaAllowed, ","))
	} else if in.minCuda != "" {
		q.Set("minCudaVersion", in.minCuda)
	}
	a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/catalog/gpus", Query: q})
	gpus, failure := readCatalog[v2GPUCatalog](a, err, "a GPU catalog")
	if failure != "" {
		msg := "gpuTypeIds: not sent, and the v2 GPU catalog could not be read to choose a GPU type by availability and price (" + failure + "); send gpuTypeIds"
		var r *Result
		switch {
		case err != nil:
			r = FromCallError(err)
		case !a.OK():
			r = FromV2Error(req.Op, a)
			if a.Status == http.StatusNotFound {
				r.Status = http.StatusBadGateway
			}
		default:
			r = Fail(http.StatusBadGateway, msg)
		}
		r.Body = EncodeV1Error(msg)
		return nil, r
	}
	pools, r := decodeShared[v2GPUPoolCatalog](a, "a GPU catalog")
	if r != nil {
		return nil, r
	}
	defaults := req.Options.DefaultGPUTypes
	cs := rankGPUTypes(gpus.GPUs, gpuRanking{
		defaults:        defaults,
		label:           "per GPU on serverless",
		keepUnavailable: true,
		usable: func(t *v2GPUType) (*float64, bool) {
			return t.Price.Serverless, t.Pool != nil && *t.Pool != ""
		},
	})
	sortChosen(cs)
	set := "v1's GPU types"
	if len(defaults) > 0 {
		set = "the gateway's default GPU types (default_gpu_types: " + strings.Join(defaults, ", ") + ")"
	}
	if len(cs) == 0 {
		msg := "gpuTypeIds: not sent, and the v2 GPU catalog lists a serverless pool for none of " + set + "; send gpuTypeIds"
		if len(defaults) > 0 {
			msg += ", or add a type with a serverless pool to default_gpu_types"
		}
		return nil, refuseField(CodeV2LimitRefused, "gpuTypeIds", msg)
	}
	chosen := cs[0]
	in.gpuTypeIDs = []string{chosen.id}
	how := "most available for serverless, then cheapest,"
	if len(defaults) > 0 {
		how = "most available for serverless, then first in default_gpu_types,"
	}
	notes.warn(CodeGPUTypeChosen, fmt.Sprintf("gpuTypeIds was not sent: the gateway chose %s (%s), the %s of %d of %s with a serverless pool; the endpoint's workers run on that type only. GPU types differ in price by more than ten times: send gpuTypeIds to choose",
		chosen.id, chosen.desc, how, len(cs), set))
	return pools, nil
}
