package graphql

import (
	"slices"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/translate"
)

// The CPU catalog and the countries: Query.cpuFlavors (and
// CpuFlavor.specifics, Pod.cpuFlavor) from v2's CPU catalog
// (translate.ReadCPUTypes: GET /v2/catalog/cpus), Query.countryCodes from
// its data-center catalog. Public, as the GPU catalog is: the vendor
// answered them without an API key.

// queryCPUFlavors is Query.cpuFlavors(input: {id}): every CPU flavor, or
// the one with that id (an empty list when there is none).
func queryCPUFlavors(ec *execCtx, f *ast.Field) (any, error) {
	id, _ := ec.rootInput(f).str("id")
	types, err := ec.cpuTypes(translate.CPUCatalogQuery{ID: id})
	if err != nil {
		return nil, err
	}
	out := make([]object, len(types))
	for i := range types {
		out[i] = &cpuFlavorObject{t: &types[i]}
	}
	return out, nil
}

// cpuTypes reads the CPU catalog once per query in an operation.
func (ec *execCtx) cpuTypes(q translate.CPUCatalogQuery) ([]translate.V2CPUType, error) {
	return memo(ec, "cpus\x00"+q.ID+"\x00"+strconv.Itoa(q.Vcpus), func() ([]translate.V2CPUType, error) {
		types, res := translate.ReadCPUTypes(ec.ctx, ec.readRequest(), ec.env.Caller, q)
		if res != nil {
			return nil, ec.readFailed("the v2 CPU catalog", res)
		}
		return types, nil
	})
}

// cpuFlavor is Pod.cpuFlavor: the pod's flavor in the CPU catalog (nil for
// a GPU pod, or a flavor the catalog does not list).
func (ec *execCtx) cpuFlavor(id string) (any, error) {
	if id == "" {
		return nil, nil
	}
	types, err := ec.cpuTypes(translate.CPUCatalogQuery{})
	if err != nil {
		return nil, err
	}
	for i := range types {
		if types[i].ID == id {
			return &cpuFlavorObject{t: &types[i]}, nil
		}
	}
	return nil, nil
}

type cpuFlavorObject struct{ t *translate.V2CPUType }

func (c *cpuFlavorObject) typeName() string { return "CpuFlavor" }
func (c *cpuFlavorObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(cpuFlavorFields, "CpuFlavor", c, ec, f)
}

// cpuFlavorFields: the CpuFlavor object, field ← v2 CpuType.
var cpuFlavorFields = fieldTable[*cpuFlavorObject]{
	"id":            func(c *cpuFlavorObject, _ *execCtx, _ *ast.Field) (any, error) { return c.t.ID, nil },
	"displayName":   func(c *cpuFlavorObject, _ *execCtx, _ *ast.Field) (any, error) { return c.t.Name, nil },
	"groupName":     func(c *cpuFlavorObject, _ *execCtx, _ *ast.Field) (any, error) { return c.t.Group, nil },
	"minVcpu":       func(c *cpuFlavorObject, _ *execCtx, _ *ast.Field) (any, error) { return c.t.Vcpu.Min, nil },
	"maxVcpu":       func(c *cpuFlavorObject, _ *execCtx, _ *ast.Field) (any, error) { return c.t.Vcpu.Max, nil },
	"ramMultiplier": func(c *cpuFlavorObject, _ *execCtx, _ *ast.Field) (any, error) { return c.t.RAMGbPerVcpu, nil },
	"specifics":     cpuSpecifics,
}

// cpuSpecifics is CpuFlavor.specifics(input: {instanceId, dataCenterId}):
// the price and stock of an instance of the flavor (flavor-vCPUs-memory;
// without one, the flavor's fewest vCPUs), in one data center or any.
// The stock is read once per vCPU count in an operation (CPU catalog with
// availability).
func cpuSpecifics(c *cpuFlavorObject, ec *execCtx, f *ast.Field) (any, error) {
	in := inputArg(ec.args(f), "input")
	vcpus := c.t.Vcpu.Min
	if id, ok := in.str("instanceId"); ok && id != "" {
		flavor, n, err := parseInstanceID(id)
		if err != nil {
			return nil, badInput("specifics: instanceId: %v", err)
		}
		if flavor != c.t.ID {
			return nil, nil // an instance of another flavor: none of this one
		}
		vcpus = n
	}
	if vcpus <= 0 {
		vcpus = 1
	}
	s := &cpuSpecificsObject{secure: c.t.Price.SecurePerVcpu * float64(vcpus), sls: c.t.Price.ServerlessPerVcpu * float64(vcpus)}
	if ec.selects(f, "stockStatus") {
		types, err := ec.cpuTypes(translate.CPUCatalogQuery{Vcpus: vcpus})
		if err != nil {
			return nil, err
		}
		dc, _ := in.str("dataCenterId")
		i := slices.IndexFunc(types, func(t translate.V2CPUType) bool { return t.ID == c.t.ID })
		if i >= 0 {
			s.level = types[i].Availability
			if dc != "" {
				s.level = ""
				for _, d := range types[i].DataCenters {
					if d.ID == dc {
						s.level = d.Availability
					}
				}
			}
		}
	}
	return s, nil
}

// cpuSpecificsObject is a Specifics: a CPU instance's prices per hour and
// its stock (a v2 availability level).
type cpuSpecificsObject struct {
	secure, sls float64
	level       string
}

func (s *cpuSpecificsObject) typeName() string { return "Specifics" }
func (s *cpuSpecificsObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(cpuSpecificsFields, "Specifics", s, ec, f)
}

var cpuSpecificsFields = fieldTable[*cpuSpecificsObject]{
	"securePrice": func(s *cpuSpecificsObject, _ *execCtx, _ *ast.Field) (any, error) { return s.secure, nil },
	"slsPrice":    func(s *cpuSpecificsObject, _ *execCtx, _ *ast.Field) (any, error) { return s.sls, nil },
	"stockStatus": func(s *cpuSpecificsObject, _ *execCtx, _ *ast.Field) (any, error) { return stockStatus(s.level), nil },
}

// queryCountryCodes is Query.countryCodes: the countries of v2's data
// centers (translate.DataCenterCountry), each once, in catalog order.
func queryCountryCodes(ec *execCtx, f *ast.Field) (any, error) {
	dcs, err := ec.dataCenterList(false)
	if err != nil {
		return nil, err
	}
	out := []string{}
	for i := range dcs {
		if c := translate.DataCenterCountry(dcs[i].ID); c != "" && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}
