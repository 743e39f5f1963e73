package graphql

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/translate"
)

// The catalog: Query.gpuTypes (and GpuType.lowestPrice), Query.dataCenters
// and Query.serverlessGpuPools, read from v2's GPU and data-center catalogs
// (translate.ReadGPUTypes, ReadDataCenters). No v1 operation reads them:
// v1's REST API had no catalog, its GraphQL did. The vendor answered these
// without an API key (runpod-mcp sends none): they are public root fields.
//
// v2 calls, each a GET under /v2/catalog/ (cached by the gateway, H11):
//
//   - gpuTypes: GET /v2/catalog/gpus, or /v2/catalog/gpus/{id} for
//     gpuTypes(input: {id}). When the selection holds lowestPrice, this one
//     read asks for the availability of its (first) input, so that a
//     document with one lowestPrice input costs one call.
//   - lowestPrice: the same read with include=AVAILABILITY&product=POD and
//     the input's count, cloud and CUDA versions — once per distinct input
//     per operation (ec.memo), whatever the number of GPU types.
//   - dataCenters: GET /v2/catalog/datacenters, with
//     include=GPU_AVAILABILITY when gpuAvailability is selected.
//   - serverlessGpuPools: GET /v2/catalog/gpus, grouped by pool.

// ---------------------------------------------------------------------------
// Query.gpuTypes

// queryGPUTypes is Query.gpuTypes(input: {id}): every GPU type, or the one
// with that id — an empty list when there is none (runpod-python's get_gpu
// raises its own "No GPU found" on []).
func queryGPUTypes(ec *execCtx, f *ast.Field) (any, error) {
	filter := ec.rootInput(f)
	id, _ := filter.str("id")
	q := translate.GPUCatalogQuery{ID: id}
	// The read asks for the availability of the selection's first
	// lowestPrice input, and keeps it for that field.
	var seeded *lowestPriceInput
	if in, ok := ec.firstLowestPrice(f); ok && len(in.q.CountryCodes) == 0 {
		// (A country narrows v2's list to the types offered there: the
		// list is read without it, and lowestPrice reads its own.)
		in.q.ID = id
		q, seeded = in.q, &in
	}
	types, err := ec.readGPUTypes(q)
	if err != nil {
		return nil, err
	}
	if seeded != nil {
		memoize(ec, seeded.key(), byID(types))
	}
	if types, err = ec.filterGPUTypes(filter, types); err != nil {
		return nil, err
	}
	out := make([]object, len(types))
	for i := range types {
		out[i] = &gpuTypeObject{t: &types[i], single: id != ""}
	}
	return out, nil
}

// readGPUTypes reads the GPU catalog (translate.ReadGPUTypes); a failure is
// the read's error, as a GraphQL error.
func (ec *execCtx) readGPUTypes(q translate.GPUCatalogQuery) ([]translate.V2GPUType, error) {
	types, res := translate.ReadGPUTypes(ec.ctx, ec.readRequest(), ec.env.Caller, q)
	if res != nil {
		return nil, ec.readFailed("the v2 catalog", res)
	}
	return types, nil
}

// byID indexes GPU types by id.
func byID(types []translate.V2GPUType) map[string]*translate.V2GPUType {
	m := make(map[string]*translate.V2GPUType, len(types))
	for i := range types {
		m[types[i].ID] = &types[i]
	}
	return m
}

// gpuTypeObject is a GpuType: one v2 GPU type. single is set when
// gpuTypes asked for one id (lowestPrice then reads that type alone).
type gpuTypeObject struct {
	t      *translate.V2GPUType
	single bool
}

func (g *gpuTypeObject) typeName() string { return "GpuType" }
func (g *gpuTypeObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(gpuTypeFields, "GpuType", g, ec, f)
}

// gpuTypeFields: the GpuType object, field ← v2 GpuType.
var gpuTypeFields = fieldTable[*gpuTypeObject]{
	"id":             func(g *gpuTypeObject, _ *execCtx, _ *ast.Field) (any, error) { return g.t.ID, nil },
	"displayName":    func(g *gpuTypeObject, _ *execCtx, _ *ast.Field) (any, error) { return g.t.Name, nil },
	"memoryInGb":     func(g *gpuTypeObject, _ *execCtx, _ *ast.Field) (any, error) { return g.t.Memory, nil },
	"secureCloud":    func(g *gpuTypeObject, _ *execCtx, _ *ast.Field) (any, error) { return g.t.Secure, nil },
	"communityCloud": func(g *gpuTypeObject, _ *execCtx, _ *ast.Field) (any, error) { return g.t.Community, nil },
	"manufacturer":   func(g *gpuTypeObject, _ *execCtx, _ *ast.Field) (any, error) { return g.t.Manufacturer, nil },
	"securePrice":    func(g *gpuTypeObject, _ *execCtx, _ *ast.Field) (any, error) { return g.t.Price.Secure, nil },
	"communityPrice": func(g *gpuTypeObject, _ *execCtx, _ *ast.Field) (any, error) { return g.t.Price.Community, nil },
	"maxGpuCount":    func(g *gpuTypeObject, _ *execCtx, _ *ast.Field) (any, error) { return maxGPUCount(g.t), nil },
	"maxGpuCountSecureCloud": func(g *gpuTypeObject, _ *execCtx, _ *ast.Field) (any, error) {
		return cloudMax(g.t.Secure, g.t.MaxCount.Secure), nil
	},
	"maxGpuCountCommunityCloud": func(g *gpuTypeObject, _ *execCtx, _ *ast.Field) (any, error) {
		return cloudMax(g.t.Community, g.t.MaxCount.Community), nil
	},
	"nodeGroupDatacenters": func(g *gpuTypeObject, ec *execCtx, _ *ast.Field) (any, error) { return ec.clusterDataCenters(g.t.ID) },
	"lowestPrice":          gpuLowestPrice,

	"cudaCores":          unansweredField[*gpuTypeObject]("GpuType", "cudaCores"),
	"oneMonthPrice":      unansweredField[*gpuTypeObject]("GpuType", "oneMonthPrice"),
	"threeMonthPrice":    unansweredField[*gpuTypeObject]("GpuType", "threeMonthPrice"),
	"oneWeekPrice":       unansweredField[*gpuTypeObject]("GpuType", "oneWeekPrice"),
	"communitySpotPrice": unansweredField[*gpuTypeObject]("GpuType", "communitySpotPrice"),
	"secureSpotPrice":    unansweredField[*gpuTypeObject]("GpuType", "secureSpotPrice"),
}

// maxGPUCount is GraphQL's one maxGpuCount from v2's per-cloud maxCount:
// the larger of the clouds that offer the type (of both when v2 says
// neither does). v2's figure is a ceiling (the largest machine), not
// stock, as the vendor's was.
func maxGPUCount(t *translate.V2GPUType) int {
	n := 0
	if t.Secure {
		n = t.MaxCount.Secure
	}
	if t.Community {
		n = max(n, t.MaxCount.Community)
	}
	if !t.Secure && !t.Community {
		n = max(t.MaxCount.Secure, t.MaxCount.Community)
	}
	return n
}

// cloudMax is a cloud's maxGpuCount: v2's maxCount there, 0 where the
// type is not offered.
func cloudMax(offered bool, n int) int {
	if !offered {
		return 0
	}
	return n
}

// ---------------------------------------------------------------------------
// GpuType.lowestPrice

// lowestPriceInput is a lowestPrice input as a v2 catalog read.
type lowestPriceInput struct {
	q translate.GPUCatalogQuery
	// defaultCloud: secureCloud was not given, and v2's default (SECURE)
	// was asked.
	defaultCloud bool
	// dataCenter is dataCenterId: the stock is the type's there.
	dataCenter string
	// ignored are the inputs v2 cannot filter by that were set.
	ignored []string
}

// key is the memo key of the read (one per distinct input and id).
func (in *lowestPriceInput) key() string {
	return "lowestPrice\x00" + in.q.ID + "\x00" + strconv.Itoa(in.q.Count) + "\x00" + in.q.Cloud + "\x00" + strings.Join(in.q.CudaVersions, ",") +
		"\x00" + in.q.MinCudaVersion + "\x00" + strings.Join(in.q.CountryCodes, ",")
}

// cudaVersion is a CUDA version as v2's cudaVersions filter takes it.
var cudaVersion = regexp.MustCompile(`^\d+\.\d+$`)

// minCudaVersion is a CUDA version as v2's minCudaVersion takes it, and a
// country code as its countryCodes does.
var (
	minCudaVersion = regexp.MustCompile(`^\d+(\.\d+)?$`)
	countryCode    = regexp.MustCompile(`^[A-Z]{2}$`)
)

// lowestPriceOf reads lowestPrice's input (with the operation's
// variables): gpuCount (default 1, as in v2 and the vendor's API),
// secureCloud (true: SECURE; false: COMMUNITY; absent or null: the cloud
// of the type's lowest price, gpuLowestPrice), allowedCudaVersions (v2
// cudaVersions, exact major.minor) or else minCudaVersion (v2
// minCudaVersion), countryCode (v2 countryCodes) and dataCenterId (the
// stock in that data center, from the type's dataCenters). The machine
// minimums (minMemoryInGb, minVcpuCount, totalDisk, minDisk, minDownload,
// minUpload, supportPublicIp) have no v2 filter: they are listed in
// ignored.
func (ec *execCtx) lowestPriceOf(f *ast.Field) (lowestPriceInput, error) {
	in := inputArg(ec.args(f), "input")
	out := lowestPriceInput{q: translate.GPUCatalogQuery{Count: 1}}
	if n, ok := in.int("gpuCount"); ok {
		if n < 1 {
			return out, fmt.Errorf("lowestPrice: gpuCount %d: a pod has at least 1 GPU", n)
		}
		out.q.Count = n
	}
	switch s, ok := in.boolean("secureCloud"); {
	case !ok:
		out.defaultCloud = true
	case s:
		out.q.Cloud = "SECURE"
	default:
		out.q.Cloud = "COMMUNITY"
	}
	if l, ok := in.strs("allowedCudaVersions"); ok {
		for _, v := range l {
			if v == "" {
				continue
			}
			if !cudaVersion.MatchString(v) {
				return out, fmt.Errorf("lowestPrice: allowedCudaVersions: %q is not a CUDA version as major.minor (e.g. 12.8)", v)
			}
			out.q.CudaVersions = append(out.q.CudaVersions, v)
		}
	}
	if s, ok := in.str("minCudaVersion"); ok && s != "" && len(out.q.CudaVersions) == 0 {
		if !minCudaVersion.MatchString(s) {
			return out, fmt.Errorf("lowestPrice: minCudaVersion: %q is not a CUDA version as major or major.minor (e.g. 12.8)", s)
		}
		out.q.MinCudaVersion = s
	}
	if s, ok := in.str("countryCode"); ok && s != "" {
		if !countryCode.MatchString(s) {
			return out, fmt.Errorf("lowestPrice: countryCode: %q is not an ISO 3166-1 alpha-2 country code (e.g. CZ)", s)
		}
		out.q.CountryCodes = []string{s}
	}
	out.dataCenter, _ = in.str("dataCenterId")
	for _, k := range []string{"minMemoryInGb", "minVcpuCount", "totalDisk", "minDisk", "minDownload", "minUpload"} {
		if n, ok := in.int(k); ok && n > 0 {
			out.ignored = append(out.ignored, k)
		}
	}
	if b, ok := in.boolean("supportPublicIp"); ok && b {
		out.ignored = append(out.ignored, "supportPublicIp")
	}
	return out, nil
}

// firstLowestPrice is the input of the first lowestPrice that f's
// selection (a gpuTypes field) selects, if any, and if it reads.
func (ec *execCtx) firstLowestPrice(f *ast.Field) (lowestPriceInput, bool) {
	for _, cf := range ec.collect(f.SelectionSet, "GpuType", nil, nil) {
		if cf.fields[0].Name != "lowestPrice" {
			continue
		}
		in, err := ec.lowestPriceOf(cf.fields[0])
		return in, err == nil
	}
	return lowestPriceInput{}, false
}

// gpuLowestPrice is GpuType.lowestPrice(input): this GPU type's price and
// stock for pods of gpuCount GPUs in the cloud asked for, from one catalog
// read per distinct input per operation. It is a price and stock probe,
// not a placement: inputs v2 cannot filter by are ignored with a warning.
func gpuLowestPrice(g *gpuTypeObject, ec *execCtx, f *ast.Field) (any, error) {
	in, err := ec.lowestPriceOf(f)
	if err != nil {
		return nil, err
	}
	if g.single {
		in.q.ID = g.t.ID
	}
	if in.defaultCloud && cheaperOnCommunity(g.t) {
		// No cloud named: the lowest price over both clouds, as the
		// vendor answered — the community cloud's when the type is offered
		// there for less than on the secure cloud (or only there), else
		// the secure cloud's (v2's default, not sent).
		in.q.Cloud = "COMMUNITY"
	}
	if len(in.ignored) > 0 {
		ec.warnOnce(translate.CodeGraphQLInputIgnored, "lowestPrice: "+strings.Join(in.ignored, ", ")+" not applied: v2 prices and stocks a GPU type by GPU count, cloud, CUDA version, country and data center only, so the answer is the type's price and stock, not a machine with that much memory, vCPU, disk or bandwidth, or a public IP")
	}
	types, err := memo(ec, in.key(), func() (map[string]*translate.V2GPUType, error) {
		types, err := ec.readGPUTypes(in.q)
		if err != nil {
			return nil, err
		}
		return byID(types), nil
	})
	if err != nil {
		return nil, err
	}
	cloud := in.q.Cloud
	if cloud == "" {
		cloud = "SECURE"
	}
	t := types[g.t.ID]
	switch {
	case t == nil && len(in.q.CountryCodes) > 0:
		// v2 lists no data center of the type in that country: its price,
		// without stock.
		return &lowestPrice{t: g.t, cloud: cloud, none: true}, nil
	case t == nil:
		return nil, nil // not in the catalog's answer for this input
	}
	return &lowestPrice{t: t, cloud: cloud, dataCenter: in.dataCenter}, nil
}

// cheaperOnCommunity reports whether t's lowest list price is on the
// community cloud: offered there, and not offered on the secure cloud or
// priced lower there.
func cheaperOnCommunity(t *translate.V2GPUType) bool {
	if !t.Community || t.Price.Community == nil {
		return false
	}
	return !t.Secure || t.Price.Secure == nil || *t.Price.Community < *t.Price.Secure
}

// lowestPrice is a LowestPrice: a GPU type as the catalog answered it
// with availability for one input, in one cloud.
type lowestPrice struct {
	t     *translate.V2GPUType
	cloud string // SECURE or COMMUNITY
	// dataCenter, when asked, is where the stock is read; none: the type
	// has no data center in the country asked for.
	dataCenter string
	none       bool
}

// availability is v2's stock level for the input: the type's, or in the
// data center asked for (NONE where v2 lists none of it there).
func (l *lowestPrice) availability() string {
	switch {
	case l.none:
		return "NONE"
	case l.dataCenter == "":
		return l.t.Availability
	}
	for _, dc := range l.t.DataCenters {
		if dc.ID == l.dataCenter {
			return dc.Availability
		}
	}
	return "NONE"
}

func (l *lowestPrice) typeName() string { return "LowestPrice" }
func (l *lowestPrice) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(lowestPriceFields, "LowestPrice", l, ec, f)
}

// lowestPriceFields: the LowestPrice object, field ← the v2 GpuType read
// with availability.
var lowestPriceFields = fieldTable[*lowestPrice]{
	"gpuTypeId":            func(l *lowestPrice, _ *execCtx, _ *ast.Field) (any, error) { return l.t.ID, nil },
	"gpuName":              func(l *lowestPrice, _ *execCtx, _ *ast.Field) (any, error) { return l.t.Name, nil },
	"uninterruptablePrice": func(l *lowestPrice, _ *execCtx, _ *ast.Field) (any, error) { return l.price(), nil },
	"stockStatus":          func(l *lowestPrice, _ *execCtx, _ *ast.Field) (any, error) { return stockStatus(l.availability()), nil },
	"compliance": func(l *lowestPrice, ec *execCtx, _ *ast.Field) (any, error) {
		if l.none {
			return []string{}, nil
		}
		return ec.complianceWhere(l.t)
	},
	"gpuTypeCudaVersions": func(l *lowestPrice, _ *execCtx, _ *ast.Field) (any, error) {
		out := make([]object, len(l.t.CudaVersions))
		for i, c := range l.t.CudaVersions {
			availability := "UNAVAILABLE"
			if c.Available {
				availability = "AVAILABLE"
			}
			out[i] = &cudaAvailability{version: c.Version, availability: availability}
		}
		return out, nil
	},
	"availableGpuCounts": unansweredField[*lowestPrice]("LowestPrice", "availableGpuCounts"),
	"minimumBidPrice":    unansweredField[*lowestPrice]("LowestPrice", "minimumBidPrice"),
	"minMemory":          unansweredField[*lowestPrice]("LowestPrice", "minMemory"),
	"minVcpu":            unansweredField[*lowestPrice]("LowestPrice", "minVcpu"),
}

// price is the on-demand list price of one GPU of the type per hour in
// the cloud asked for (v2 price.secure or price.community: v2 quotes the
// price of a single GPU, as the vendor's uninterruptablePrice did); null
// when the type is not offered in that cloud.
func (l *lowestPrice) price() *float64 {
	if l.cloud == "COMMUNITY" {
		if !l.t.Community {
			return nil
		}
		return l.t.Price.Community
	}
	if !l.t.Secure {
		return nil
	}
	return l.t.Price.Secure
}

// stockStatus is GraphQL's stockStatus of a v2 availability level: High,
// Medium or Low, and null for NONE (or none given). Never a word for no
// stock: runpod-mcp counts any stockStatus but "Out" as available.
func stockStatus(level string) any {
	switch level {
	case "HIGH":
		return "High"
	case "MEDIUM":
		return "Medium"
	case "LOW":
		return "Low"
	}
	return nil
}

// cudaAvailability is a GpuTypeCudaVersion: one v2 cudaVersions entry.
type cudaAvailability struct{ version, availability string }

func (c *cudaAvailability) typeName() string { return "GpuTypeCudaVersion" }
func (c *cudaAvailability) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(cudaAvailabilityFields, "GpuTypeCudaVersion", c, ec, f)
}

var cudaAvailabilityFields = fieldTable[*cudaAvailability]{
	"cudaVersion":  func(c *cudaAvailability, _ *execCtx, _ *ast.Field) (any, error) { return c.version, nil },
	"availability": func(c *cudaAvailability, _ *execCtx, _ *ast.Field) (any, error) { return c.availability, nil },
}

// ---------------------------------------------------------------------------
// Query.dataCenters

// queryDataCenters is Query.dataCenters: v2's data centers, with their GPU
// availability when gpuAvailability is selected.
func queryDataCenters(ec *execCtx, f *ast.Field) (any, error) {
	dcs, err := ec.dataCenterList(ec.selects(f, "gpuAvailability"))
	if err != nil {
		return nil, err
	}
	out := make([]object, len(dcs))
	for i := range dcs {
		out[i] = &dataCenterObject{dc: &dcs[i]}
	}
	return out, nil
}

// dataCenterList is v2's data-center catalog, with each one's GPU
// availability when gpus is set (translate.ReadDataCenters, cached by the
// gateway).
func (ec *execCtx) dataCenterList(gpus bool) ([]translate.V2DataCenter, error) {
	dcs, res := translate.ReadDataCenters(ec.ctx, ec.readRequest(), ec.env.Caller, gpus)
	if res != nil {
		return nil, ec.readFailed("the v2 catalog", res)
	}
	return dcs, nil
}

type dataCenterObject struct{ dc *translate.V2DataCenter }

func (d *dataCenterObject) typeName() string { return "DataCenter" }
func (d *dataCenterObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(dataCenterFields, "DataCenter", d, ec, f)
}

// dataCenterFields: the DataCenter object, field ← v2 DataCenter.
var dataCenterFields = fieldTable[*dataCenterObject]{
	"id":       func(d *dataCenterObject, _ *execCtx, _ *ast.Field) (any, error) { return d.dc.ID, nil },
	"name":     func(d *dataCenterObject, _ *execCtx, _ *ast.Field) (any, error) { return d.dc.Name, nil },
	"location": func(d *dataCenterObject, _ *execCtx, _ *ast.Field) (any, error) { return regionName(d.dc.Region), nil },
	// v2 lists only the data centers it offers.
	"listed": func(d *dataCenterObject, _ *execCtx, _ *ast.Field) (any, error) { return true, nil },
	"storageSupport": func(d *dataCenterObject, _ *execCtx, _ *ast.Field) (any, error) {
		return len(d.dc.NetworkVolumeTypes) > 0, nil
	},
	"globalNetwork": func(d *dataCenterObject, _ *execCtx, _ *ast.Field) (any, error) { return d.dc.GlobalNetwork, nil },
	"compliance": func(d *dataCenterObject, ec *execCtx, _ *ast.Field) (any, error) {
		return ec.enumIn("Compliance", d.dc.Compliance), nil
	},
	"gpuAvailability": func(d *dataCenterObject, _ *execCtx, _ *ast.Field) (any, error) {
		out := make([]object, 0, len(d.dc.GPUAvailability))
		for i := range d.dc.GPUAvailability {
			a := &d.dc.GPUAvailability[i]
			// No entry for none: runpodctl's gpu list takes a GPU without
			// one as unavailable, and any stockStatus as some stock.
			if stockStatus(a.Availability) == nil {
				continue
			}
			out = append(out, &gpuAvailabilityObject{id: a.ID, name: a.Name, level: a.Availability})
		}
		return out, nil
	},
}

// regionName is a v2 region as words: NORTH_AMERICA → North America
// (runpod-mcp lower-cases location to filter by region).
func regionName(region string) string {
	words := strings.Split(strings.ToLower(region), "_")
	for i, w := range words {
		if w != "" {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
}

type gpuAvailabilityObject struct{ id, name, level string }

func (a *gpuAvailabilityObject) typeName() string { return "GpuAvailability" }
func (a *gpuAvailabilityObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(gpuAvailabilityFields, "GpuAvailability", a, ec, f)
}

var gpuAvailabilityFields = fieldTable[*gpuAvailabilityObject]{
	"gpuTypeId":          func(a *gpuAvailabilityObject, _ *execCtx, _ *ast.Field) (any, error) { return a.id, nil },
	"id":                 func(a *gpuAvailabilityObject, _ *execCtx, _ *ast.Field) (any, error) { return a.id, nil },
	"displayName":        func(a *gpuAvailabilityObject, _ *execCtx, _ *ast.Field) (any, error) { return a.name, nil },
	"gpuTypeDisplayName": func(a *gpuAvailabilityObject, _ *execCtx, _ *ast.Field) (any, error) { return a.name, nil },
	// Only GPUs with some stock are listed (gpuAvailability).
	"available": func(a *gpuAvailabilityObject, _ *execCtx, _ *ast.Field) (any, error) { return true, nil },
	"stockStatus": func(a *gpuAvailabilityObject, _ *execCtx, _ *ast.Field) (any, error) {
		return stockStatus(a.level), nil
	},
}

// ---------------------------------------------------------------------------
// Query.serverlessGpuPools

// queryServerlessGPUPools is Query.serverlessGpuPools: v2's GPU catalog
// grouped by pool (GpuType.pool), pools in the order they first appear,
// types in catalog order; types in no pool are left out. runpodctl's
// serverless create maps a GPU type id to its pool with it.
func queryServerlessGPUPools(ec *execCtx, f *ast.Field) (any, error) {
	types, err := ec.readGPUTypes(translate.GPUCatalogQuery{})
	if err != nil {
		return nil, err
	}
	var out []object
	pools := map[string]*serverlessPool{}
	for i := range types {
		t := &types[i]
		if t.Pool == nil || *t.Pool == "" {
			continue
		}
		p := pools[*t.Pool]
		if p == nil {
			p = &serverlessPool{id: *t.Pool}
			pools[p.id] = p
			out = append(out, p)
		}
		p.types = append(p.types, t.ID)
	}
	if out == nil {
		out = []object{}
	}
	return out, nil
}

type serverlessPool struct {
	id    string
	types []string
}

func (p *serverlessPool) typeName() string { return "ServerlessGpuPool" }
func (p *serverlessPool) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(serverlessPoolFields, "ServerlessGpuPool", p, ec, f)
}

var serverlessPoolFields = fieldTable[*serverlessPool]{
	"id":         func(p *serverlessPool, _ *execCtx, _ *ast.Field) (any, error) { return p.id, nil },
	"gpuTypeIds": func(p *serverlessPool, _ *execCtx, _ *ast.Field) (any, error) { return p.types, nil },
}
