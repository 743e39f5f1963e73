package translate

import (
	"context"
	"math"
)

// A serverless worker's cost and cloud (R-Worker, issue 37). v2's Worker
// has no cost and no cloud: it has gpuTypeId, gpuCount and dataCenterId.
// What the gateway answers comes from the v2 GPU catalog the answer
// already reads (GET /v2/catalog/gpus, cached by the proxy): no v2 call per
// worker.

// v1WorkerMachine is machine of a serverless worker: the GPU type and data
// center v2 placed it on, and what the catalog tells of them. Every key is
// there once the worker is placed; null where the catalog does not say.
type v1WorkerMachine struct {
	GpuTypeID    string `json:"gpuTypeId,omitempty"`
	DataCenterID string `json:"dataCenterId,omitempty"`
	// SecureCloud is certain only for a GPU type v2 operates in one cloud
	// (workerCloud); null otherwise.
	SecureCloud *bool `json:"secureCloud" nullable:"1"`
	// CostPerHr and CurrentPricePerGpu are list prices: the catalog's
	// serverless price per GPU (× gpuCount for CostPerHr); null when the
	// catalog has none for the type.
	CostPerHr          *float64 `json:"costPerHr" nullable:"1"`
	CurrentPricePerGpu *float64 `json:"currentPricePerGpu" nullable:"1"`
}

// gpu returns the catalog's entry for the GPU type id, or nil.
func (cat *v2GPUPoolCatalog) gpu(id string) *v2PoolGPU {
	if cat == nil || id == "" {
		return nil
	}
	for i := range cat.GPUs {
		if cat.GPUs[i].ID == id {
			return &cat.GPUs[i]
		}
	}
	return nil
}

// workerCloud is machine.secureCloud of a worker on GPU type g. v2 says
// which cloud a pod runs in (its cloud), but not a serverless worker, nor
// does its data center list (no cloud per data center). v1's document says
// nothing of a serverless worker's cloud either (v1's endpoints take no
// cloudType); v1 answered the host machine's flag, which v2 does not
// expose. What is certain: the catalog's maxCount is "the GPU count of the
// largest machine of this type Runpod operates in that cloud", so a type
// with no machine (maxCount 0, and not offered) in one cloud runs, as any
// worker of it, in the other. A type offered in both clouds: unknown, null.
func workerCloud(g *v2PoolGPU) *bool {
	switch {
	case g == nil:
		return nil
	case g.Secure && !g.Community && g.MaxCount.Community == 0:
		return ptrTo(true)
	case g.Community && !g.Secure && g.MaxCount.Secure == 0:
		return ptrTo(false)
	}
	return nil
}

// priceWorkers fills the workers' costPerHr and adjustedCostPerHr, and
// their machine's secureCloud, costPerHr and currentPricePerGpu, from the
// GPU catalog cat (nil: not read; everything stays null). The costs are
// list prices: the catalog's serverless price for the worker's GPU type
// times its gpuCount. The catalog's price reflects no negotiated account
// discount, and v2 shows no savings plans, so adjustedCostPerHr is the same
// figure; a worker kept running by workersMin may be billed less (v1's
// active-worker discount), which v2 does not tell either.
func priceWorkers(ws []v1Worker, cat *v2GPUPoolCatalog) {
	if cat == nil {
		return
	}
	for i := range ws {
		w := &ws[i]
		if w.GPU == nil {
			continue
		}
		g := cat.gpu(w.GPU.ID)
		if g == nil {
			continue
		}
		if m := w.Machine; m != nil {
			m.SecureCloud = workerCloud(g)
		}
		p := g.Price.Serverless
		if p == nil || *p < 0 || math.IsNaN(*p) || math.IsInf(*p, 0) {
			continue
		}
		cost := roundPrice(*p * float64(w.GPU.Count))
		w.CostPerHr, w.AdjustedCostPerHr = ptrTo(cost), ptrTo(cost)
		if m := w.Machine; m != nil {
			m.CostPerHr, m.CurrentPricePerGpu = ptrTo(cost), ptrTo(*p)
		}
	}
}

// roundPrice rounds a price per hour to a thousandth of a credit, so that
// 3 × 1.1 answers 3.3, not 3.3000000000000003.
func roundPrice(v float64) float64 { return math.Round(v*1000) / 1000 }

// workerPrices reads the GPU catalog (cached by the proxy) once for a list
// of workers answered outside an endpoint (GET /pods with endpointId or
// includeWorkers), when one of them has a GPU type, and prices them. A
// catalog that cannot be read leaves the prices null, with a warning.
func workerPrices(ctx context.Context, req *Request, c Caller, ws []v1Worker, notes *Result) {
	placed := false
	for i := range ws {
		placed = placed || ws[i].GPU != nil
	}
	if !placed {
		return // no GPU type to price: the catalog is not read
	}
	cat, r := readGPUPools(ctx, req, c, "the workers' list prices")
	if r != nil {
		notes.warn(CodeGPUTypesOmitted, "the serverless workers' costPerHr, adjustedCostPerHr and machine prices are null: "+message1(r))
		return
	}
	priceWorkers(ws, cat)
}
