package translate

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// More reads no v1 operation makes, for the GraphQL door (P11), beside
// catalog.go's: the v2 CPU catalog (GraphQL cpuFlavors, Pod.cpuFlavor) and
// the country of a data center (countryCodes). Each is one v2 call at
// most, with errors as the v1 operations map them.

// V2CPUType is a v2 CpuType: a CPU flavor, its vCPU range, RAM per vCPU
// and prices.
type V2CPUType struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Group string `json:"group"`
	Vcpu  struct {
		Min int `json:"min"`
		Max int `json:"max"`
	} `json:"vcpu"`
	RAMGbPerVcpu float64 `json:"ramGbPerVcpu"`
	Price        struct {
		SecurePerVcpu     float64 `json:"securePerVcpu"`
		ServerlessPerVcpu float64 `json:"serverlessPerVcpu"`
	} `json:"price"`
	// Availability and DataCenters are read with CPUCatalogQuery.Vcpus
	// (a pod of that many vCPUs): HIGH, MEDIUM, LOW or NONE.
	Availability string `json:"availability"`
	DataCenters  []struct {
		ID           string `json:"id"`
		Availability string `json:"availability"`
	} `json:"dataCenters"`
}

// CPUCatalogQuery is what a CPU catalog read asks v2 for: one flavor
// (ID; "": all), and the availability of pods of Vcpus vCPUs (0: none).
type CPUCatalogQuery struct {
	ID    string
	Vcpus int
}

// values is q as the catalog's query parameters.
func (q CPUCatalogQuery) values() url.Values {
	if q.Vcpus <= 0 {
		return nil
	}
	return url.Values{"include": {"AVAILABILITY"}, "product": {"POD"}, "vcpuCount": {strconv.Itoa(q.Vcpus)}}
}

// ReadCPUTypes reads the v2 CPU catalog (GET /v2/catalog/cpus, or
// /v2/catalog/cpus/{id} for one flavor). An unknown flavor is an empty
// list, as GraphQL's cpuFlavors(input: {id}) answered. The types are
// read-only: decoded once per catalog answer, which the proxy shares
// between requests.
func ReadCPUTypes(ctx context.Context, req *Request, c Caller, q CPUCatalogQuery) ([]V2CPUType, *Result) {
	if id := q.ID; id != "" {
		if !ValidID(id) {
			return []V2CPUType{}, nil
		}
		a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: V2Path("/v2/catalog/cpus/%s", id), Query: q.values()})
		if err != nil {
			return nil, FromCallError(err)
		}
		if a.Status == http.StatusNotFound {
			return []V2CPUType{}, nil
		}
		if !a.OK() {
			return nil, FromV2Error(req.Op, a)
		}
		t, r := decodeShared[V2CPUType](a, "a CPU type")
		if r != nil {
			return nil, r
		}
		return []V2CPUType{*t}, nil
	}
	a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/catalog/cpus", Query: q.values()})
	if err != nil {
		return nil, FromCallError(err)
	}
	if !a.OK() {
		return nil, FromV2Error(req.Op, a)
	}
	list, r := decodeShared[v2CPUCatalog](a, "a CPU catalog")
	if r != nil {
		return nil, r
	}
	return list.CPUs, nil
}

// TemplateReadable reports whether v2 serves a template of this id to the
// caller: GET /v2/templates/{id} serves the account's templates and the
// public catalog's, and answers 404 for any other id.
func TemplateReadable(ctx context.Context, req *Request, c Caller, id string) (bool, *Result) {
	if !ValidID(id) {
		return false, nil
	}
	a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: V2Path("/v2/templates/%s", id)})
	if err != nil {
		return false, FromCallError(err)
	}
	if a.Status == http.StatusNotFound {
		return false, nil
	}
	if !a.OK() {
		return false, FromV2Error(req.Op, a)
	}
	return true, nil
}

// DataCenterCountry is the ISO 3166-1 country of a v2 data center, read
// from its id as the vendor names them: the country first for the United
// States and Canada (US-KS-2, CA-MTL-1: the second part is a state or a
// city), second otherwise (EU-RO-1, AP-JP-1: the first is a region). ""
// when the id says none. It is the gateway's only country mapping, for
// the one answer v2 has no source for (GraphQL's countryCodes: v2's
// DataCenter carries a region, no country); placing a pod by country asks
// v2's catalog instead (its countryCodes filter, rankCandidates), and a
// test checks the two agree (TestCountryCodesAgreeWithV2sCountryFilter).
func DataCenterCountry(id string) string {
	parts := strings.Split(id, "-")
	if len(parts) < 2 {
		return ""
	}
	if parts[0] == "US" || parts[0] == "CA" {
		return parts[0]
	}
	if c := parts[1]; len(c) == 2 && strings.ToUpper(c) == c {
		return c
	}
	return ""
}
