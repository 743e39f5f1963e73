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
		offered, err := ec.clusterGPUTypes()
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

// complianceWhere is LowestPrice.compliance: the certifications of the data
// centers where the type has stock for the input (v2's availability read),
// from the data-center catalog, each once, in the vendor's enum order.
func (ec *execCtx) complianceWhere(t *translate.V2GPUType) (any, error) {
	dcs, err := memo(ec, "dcs", func() ([]translate.V2DataCenter, error) { return ec.dataCenterList(false) })
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, a := range t.DataCenters {
		if stockStatus(a.Availability) == nil {
			continue
		}
		for i := range dcs {
			if dcs[i].ID == a.ID {
				for _, c := range dcs[i].Compliance {
					have[c] = true
				}
			}
		}
	}
	var out []string
	if ec.schema == nil {
		return nonNilList(out), nil
	}
	if def := ec.schema.Types["Compliance"]; def != nil {
		for _, v := range def.EnumValues {
			if have[v.Name] {
				out = append(out, v.Name)
			}
		}
	}
	return nonNilList(out), nil
}

// clusterDataCenters is GpuType.nodeGroupDatacenters: the data centers
// where v2 has stock of the type for clusters (the cluster availability
// read, once per operation).
func (ec *execCtx) clusterDataCenters(id string) (any, error) {
	offered, err := ec.clusterGPUTypes()
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(offered, func(o translate.V2GPUType) bool { return o.ID == id })
	if i < 0 {
		return []object{}, nil
	}
	dcs, err := memo(ec, "dcs", func() ([]translate.V2DataCenter, error) { return ec.dataCenterList(false) })
	if err != nil {
		return nil, err
	}
	out := []object{}
	for _, a := range offered[i].DataCenters {
		for j := range dcs {
			if dcs[j].ID == a.ID && stockStatus(a.Availability) != nil {
				out = append(out, &dataCenterObject{dc: &dcs[j]})
			}
		}
	}
	return out, nil
}

// clusterGPUTypes is the GPU catalog with availability for clusters, read
// once per operation.
func (ec *execCtx) clusterGPUTypes() ([]translate.V2GPUType, error) {
	return memo(ec, "gpus:cluster", func() ([]translate.V2GPUType, error) {
		return ec.readGPUTypes(translate.GPUCatalogQuery{Count: 1, Product: "CLUSTER"})
	})
}
