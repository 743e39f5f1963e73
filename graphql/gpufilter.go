package graphql

import (
	"slices"

	"github.com/v1gateway/v1gateway/translate"
)

// filterGPUTypes applies GpuTypeFilter's ids and cluster to the GPU types
// gpuTypes read: ids keeps the types named (runpod-flash asks for one type
// so), cluster: true the types v2 offers for clusters today (a catalog read
// with cluster availability: those with stock in some data center; gpuhunt
// lists cluster offers so).
func (ec *execCtx) filterGPUTypes(filter input, types []translate.V2GPUType) ([]translate.V2GPUType, error) {
	if ids, ok := filter.strs("ids"); ok {
		types = slices.DeleteFunc(slices.Clone(types), func(t translate.V2GPUType) bool { return !slices.Contains(ids, t.ID) })
	}
	if cluster, _ := filter.boolean("cluster"); cluster {
		offered, err := memo(ec, "gpus:cluster", func() ([]translate.V2GPUType, error) {
			return ec.readGPUTypes(translate.GPUCatalogQuery{Count: 1, Product: "CLUSTER"})
		})
		if err != nil {
			return nil, err
		}
		types = slices.DeleteFunc(slices.Clone(types), func(t translate.V2GPUType) bool {
			i := slices.IndexFunc(offered, func(o translate.V2GPUType) bool { return o.ID == t.ID })
			return i < 0 || len(offered[i].DataCenters) == 0
		})
	}
	return types, nil
}
