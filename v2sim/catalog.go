package v2sim

import (
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The vendor catalogs: GPU types, CPU flavors, data centers and the public
// template catalog. They are static and exist whether or not Options.Seed is
// set (they are the vendor's, not the account's).

type dataCenter struct {
	id, name, region, country string
	globalNetwork             bool
	volumeTypes               []string // first is the default (primary) tier
	compliance                []string
}

var dataCenters = []*dataCenter{
	{"US-KS-2", "US Kansas 2", "NORTH_AMERICA", "US", true, []string{"HIGH_PERFORMANCE", "STANDARD"}, []string{"SOC_2_TYPE_2", "ISO_IEC_27001"}},
	{"US-TX-3", "US Texas 3", "NORTH_AMERICA", "US", true, []string{"STANDARD"}, []string{"SOC_2_TYPE_2"}},
	{"CA-MTL-1", "CA Montreal 1", "NORTH_AMERICA", "CA", false, []string{"STANDARD"}, []string{"SOC_2_TYPE_2", "RENEWABLE"}},
	{"EU-RO-1", "EU Romania 1", "EUROPE", "RO", false, []string{"STANDARD", "HIGH_PERFORMANCE"}, []string{"GDPR", "ISO_IEC_27001"}},
	{"EU-CZ-1", "EU Czechia 1", "EUROPE", "CZ", true, []string{"HIGH_PERFORMANCE"}, []string{"GDPR", "ISO_IEC_27001", "SOC_2_TYPE_2", "RENEWABLE"}},
	{"AP-JP-1", "AP Japan 1", "ASIA", "JP", false, nil, []string{"ISO_IEC_27001"}},
}

func findDC(id string) *dataCenter {
	for _, dc := range dataCenters {
		if dc.id == id {
			return dc
		}
	}
	return nil
}

type gpuType struct {
	id, name, pool, manufacturer string
	memory                       int
	secure, community            bool
	priceSecure, priceCommunity  float64
	priceServerless              float64 // 0 when not in a serverless pool
	maxSecure, maxCommunity      int
	cluster                      bool              // offered for clusters
	avail                        map[string]string // data center → stock level (the data centers offering it)
	cuda                         []string          // CUDA versions its machines report
	cudaFull                     []string          // offered but currently without free capacity
}

var gpuTypes = []*gpuType{
	{id: "NVIDIA GeForce RTX 4090", name: "RTX 4090", pool: "ADA_24", manufacturer: "NVIDIA", memory: 24, secure: true, community: true,
		priceSecure: 0.69, priceCommunity: 0.34, priceServerless: 1.1, maxSecure: 8, maxCommunity: 4,
		avail: map[string]string{"US-KS-2": "HIGH", "US-TX-3": "HIGH", "EU-RO-1": "MEDIUM", "CA-MTL-1": "LOW"},
		cuda:  []string{"12.4", "12.6", "12.8", "13.0"}, cudaFull: []string{"12.4"}},
	{id: "NVIDIA RTX A4000", name: "RTX A4000", pool: "AMPERE_16", manufacturer: "NVIDIA", memory: 16, secure: true, community: true,
		priceSecure: 0.25, priceCommunity: 0.17, priceServerless: 0.58, maxSecure: 8, maxCommunity: 6,
		avail: map[string]string{"US-TX-3": "MEDIUM", "EU-RO-1": "HIGH", "EU-CZ-1": "LOW"},
		cuda:  []string{"12.2", "12.4", "12.6"}},
	{id: "NVIDIA L40S", name: "L40S", pool: "ADA_48_PRO", manufacturer: "NVIDIA", memory: 48, secure: true,
		priceSecure: 0.86, priceServerless: 1.9, maxSecure: 8, cluster: true,
		avail: map[string]string{"US-KS-2": "MEDIUM", "EU-CZ-1": "HIGH"},
		cuda:  []string{"12.6", "12.8"}},
	{id: "NVIDIA L40", name: "L40", pool: "ADA_48_PRO", manufacturer: "NVIDIA", memory: 48, secure: true,
		priceSecure: 0.99, priceServerless: 1.9, maxSecure: 8,
		avail: map[string]string{"US-TX-3": "LOW"},
		cuda:  []string{"12.4", "12.6"}},
	{id: "NVIDIA RTX 6000 Ada Generation", name: "RTX 6000 Ada", pool: "ADA_48_PRO", manufacturer: "NVIDIA", memory: 48, secure: true, community: true,
		priceSecure: 0.77, priceCommunity: 0.74, priceServerless: 1.9, maxSecure: 8, maxCommunity: 4,
		avail: map[string]string{"EU-RO-1": "MEDIUM", "US-KS-2": "LOW"},
		cuda:  []string{"12.4", "12.8"}},
	{id: "NVIDIA A100 80GB PCIe", name: "A100 PCIe", pool: "AMPERE_80", manufacturer: "NVIDIA", memory: 80, secure: true, community: true,
		priceSecure: 1.64, priceCommunity: 1.19, priceServerless: 2.72, maxSecure: 8, maxCommunity: 8, cluster: true,
		avail: map[string]string{"US-KS-2": "LOW", "EU-RO-1": "LOW", "CA-MTL-1": "MEDIUM"},
		cuda:  []string{"12.2", "12.4", "12.6", "12.8"}},
	{id: "NVIDIA H100 80GB HBM3", name: "H100 SXM", pool: "ADA_80_PRO", manufacturer: "NVIDIA", memory: 80, secure: true,
		priceSecure: 2.69, priceServerless: 4.18, maxSecure: 8, cluster: true,
		avail: map[string]string{"US-KS-2": "HIGH", "US-TX-3": "MEDIUM", "EU-CZ-1": "MEDIUM"},
		cuda:  []string{"12.6", "12.8", "13.0"}},
	{id: "NVIDIA H200", name: "H200 SXM", pool: "HOPPER_141", manufacturer: "NVIDIA", memory: 141, secure: true,
		priceSecure: 3.59, priceServerless: 5.58, maxSecure: 8, cluster: true,
		avail: map[string]string{"US-KS-2": "NONE", "EU-CZ-1": "NONE"},
		cuda:  []string{"12.8", "13.0"}, cudaFull: []string{"12.8", "13.0"}},
	{id: "NVIDIA GeForce RTX 3090", name: "RTX 3090", pool: "AMPERE_24", manufacturer: "NVIDIA", memory: 24, community: true,
		priceSecure: 0.43, priceCommunity: 0.22, priceServerless: 0.86, maxSecure: 0, maxCommunity: 8,
		avail: map[string]string{"CA-MTL-1": "HIGH", "AP-JP-1": "MEDIUM"},
		cuda:  []string{"12.2", "12.4"}},
	{id: "AMD Instinct MI300X OAM", name: "MI300X", manufacturer: "AMD", memory: 192, secure: true,
		priceSecure: 2.49, maxSecure: 8,
		avail: map[string]string{"US-TX-3": "LOW"}},
}

func findGPU(id string) *gpuType {
	for _, g := range gpuTypes {
		if g.id == id {
			return g
		}
	}
	return nil
}

func poolExists(pool string) bool {
	for _, g := range gpuTypes {
		if g.pool != "" && g.pool == pool {
			return true
		}
	}
	return false
}

type cpuType struct {
	id, name, group      string
	vcpuMin, vcpuMax     int
	ramPerVcpu           float64
	priceSecure, priceSl float64
	avail                map[string]string
}

var cpuTypes = []*cpuType{
	{"cpu3c", "Compute-Optimized", "Gen 3", 2, 32, 2, 0.03, 0.02, map[string]string{"US-TX-3": "HIGH", "EU-RO-1": "MEDIUM"}},
	{"cpu3g", "General Purpose", "Gen 3", 2, 32, 4, 0.04, 0.03, map[string]string{"US-TX-3": "MEDIUM", "CA-MTL-1": "LOW"}},
	{"cpu5c", "Compute-Optimized", "Gen 5", 2, 32, 2, 0.05, 0.04, map[string]string{"US-KS-2": "HIGH", "EU-CZ-1": "MEDIUM", "EU-RO-1": "LOW"}},
	{"cpu5g", "General Purpose", "Gen 5", 2, 64, 4, 0.06, 0.05, map[string]string{"US-KS-2": "MEDIUM", "EU-CZ-1": "LOW"}},
	{"cpu5m", "Memory-Optimized", "Gen 5", 2, 16, 8, 0.08, 0.07, map[string]string{"US-KS-2": "LOW"}},
}

func findCPU(id string) *cpuType {
	for _, c := range cpuTypes {
		if c.id == id {
			return c
		}
	}
	return nil
}

func (c *cpuType) memoryFor(vcpu int) int {
	m := int(float64(vcpu)*c.ramPerVcpu + 0.5)
	if m < 1 {
		m = 1
	}
	return m
}

// ---------------------------------------------------------------------------
// availability

var levels = map[string]int{"NONE": 0, "LOW": 1, "MEDIUM": 2, "HIGH": 3}
var levelNames = []string{"NONE", "LOW", "MEDIUM", "HIGH"}

func maxLevel(a, b string) string {
	if levels[b] > levels[a] {
		return b
	}
	return a
}

// gpuQuery is the availability context of a catalog read or of a placement.
type gpuQuery struct {
	products  []string // POD, CLUSTER, SERVERLESS
	count     int
	cloud     string // SECURE, COMMUNITY
	countries map[string]bool
	cudaExact []string // exact versions (major.minor)
	cudaMin   string   // floor: "12" or "12.1"
}

// dcLevel is the stock level of g in dc for the query, and whether dc offers g
// at all under the query's country scope.
func (g *gpuType) dcLevel(dc *dataCenter, q gpuQuery) (string, bool) {
	base, offered := g.avail[dc.id]
	if !offered || (len(q.countries) > 0 && !q.countries[dc.country]) {
		return "NONE", false
	}
	best := "NONE"
	for _, p := range q.products {
		lvl := base
		switch p {
		case "SERVERLESS":
			if g.pool == "" {
				lvl = "NONE"
			}
		case "CLUSTER":
			if !g.cluster {
				lvl = "NONE"
			}
		}
		best = maxLevel(best, lvl)
	}
	max := g.maxSecure
	ok := g.secure
	if q.cloud == "COMMUNITY" {
		max, ok = g.maxCommunity, g.community
	}
	count := q.count
	if count < 1 {
		count = 1
	}
	if !ok || count > max {
		return "NONE", true
	}
	if count > 1 && count*2 > max && levels[best] > 0 {
		best = levelNames[levels[best]-1]
	}
	if (len(q.cudaExact) > 0 || q.cudaMin != "") && len(g.availableCuda(q)) == 0 {
		return "NONE", true
	}
	return best, true
}

// cudaVersions lists the versions matching the query's CUDA filter, each
// tagged with free capacity.
func (g *gpuType) cudaVersions(q gpuQuery) []cudaAvailJSON {
	var out []cudaAvailJSON
	for _, v := range g.cuda {
		if !cudaMatches(v, q) {
			continue
		}
		out = append(out, cudaAvailJSON{Version: v, Available: !contains(g.cudaFull, v)})
	}
	return out
}

func (g *gpuType) availableCuda(q gpuQuery) []string {
	var out []string
	for _, c := range g.cudaVersions(q) {
		if c.Available {
			out = append(out, c.Version)
		}
	}
	return out
}

func cudaMatches(v string, q gpuQuery) bool {
	if len(q.cudaExact) > 0 && !contains(q.cudaExact, v) {
		return false
	}
	if q.cudaMin != "" && compareVersions(v, q.cudaMin) < 0 {
		return false
	}
	return true
}

// compareVersions compares major[.minor] numerically (12.11 > 12.2).
func compareVersions(a, b string) int {
	pa, pb := strings.SplitN(a, ".", 2), strings.SplitN(b, ".", 2)
	for i := 0; i < 2; i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func (c *cpuType) dcLevel(dc *dataCenter, vcpu int) (string, bool) {
	base, offered := c.avail[dc.id]
	if !offered {
		return "NONE", false
	}
	if vcpu > 0 && (vcpu < c.vcpuMin || vcpu > c.vcpuMax) {
		return "NONE", true
	}
	return base, true
}

// ---------------------------------------------------------------------------
// JSON shapes

type gpuPriceJSON struct {
	Secure     float64  `json:"secure"`
	Community  float64  `json:"community"`
	Serverless *float64 `json:"serverless,omitempty"`
}

type gpuMaxJSON struct {
	Secure    int `json:"secure"`
	Community int `json:"community"`
}

type dcAvailJSON struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Availability string `json:"availability"`
}

type cudaAvailJSON struct {
	Version   string `json:"version"`
	Available bool   `json:"available"`
}

type gpuTypeJSON struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Pool         *string         `json:"pool"`
	Manufacturer string          `json:"manufacturer"`
	Memory       int             `json:"memory"`
	Secure       bool            `json:"secure"`
	Community    bool            `json:"community"`
	Price        gpuPriceJSON    `json:"price"`
	MaxCount     gpuMaxJSON      `json:"maxCount"`
	Availability string          `json:"availability,omitempty"`
	DataCenters  []dcAvailJSON   `json:"dataCenters,omitempty"`
	CudaVersions []cudaAvailJSON `json:"cudaVersions,omitempty"`
}

type cpuTypeJSON struct {
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
	Availability string        `json:"availability,omitempty"`
	DataCenters  []dcAvailJSON `json:"dataCenters,omitempty"`
}

type dataCenterJSON struct {
	ID                 string        `json:"id"`
	Name               string        `json:"name"`
	Region             string        `json:"region"`
	GlobalNetwork      bool          `json:"globalNetwork"`
	NetworkVolumeTypes []string      `json:"networkVolumeTypes"`
	Compliance         []string      `json:"compliance"`
	GpuAvailability    []dcAvailJSON `json:"gpuAvailability,omitempty"`
	CPUAvailability    []dcAvailJSON `json:"cpuAvailability,omitempty"`
}

func renderGPU(g *gpuType, q *gpuQuery) gpuTypeJSON {
	out := gpuTypeJSON{
		ID: g.id, Name: g.name, Manufacturer: g.manufacturer, Memory: g.memory,
		Secure: g.secure, Community: g.community,
		Price:    gpuPriceJSON{Secure: g.priceSecure, Community: g.priceCommunity},
		MaxCount: gpuMaxJSON{Secure: g.maxSecure, Community: g.maxCommunity},
	}
	if g.pool != "" {
		out.Pool = strPtr(g.pool)
		p := g.priceServerless
		out.Price.Serverless = &p
	}
	if q == nil {
		return out
	}
	overall := "NONE"
	for _, dc := range dataCenters {
		lvl, offered := g.dcLevel(dc, *q)
		if !offered || lvl == "NONE" {
			continue
		}
		overall = maxLevel(overall, lvl)
		out.DataCenters = append(out.DataCenters, dcAvailJSON{ID: dc.id, Name: dc.name, Availability: lvl})
	}
	out.Availability = overall
	out.CudaVersions = g.cudaVersions(*q)
	if overall == "NONE" {
		for i := range out.CudaVersions {
			out.CudaVersions[i].Available = false
		}
	}
	return out
}

// gpuOfferedIn reports whether g is offered in at least one data center of
// the query's countries.
func gpuOfferedIn(g *gpuType, countries map[string]bool) bool {
	for _, dc := range dataCenters {
		if _, ok := g.avail[dc.id]; ok && countries[dc.country] {
			return true
		}
	}
	return false
}

func renderCPU(c *cpuType, avail bool, vcpu int) cpuTypeJSON {
	var out cpuTypeJSON
	out.ID, out.Name, out.Group = c.id, c.name, c.group
	out.Vcpu.Min, out.Vcpu.Max = c.vcpuMin, c.vcpuMax
	out.RAMGbPerVcpu = c.ramPerVcpu
	out.Price.SecurePerVcpu, out.Price.ServerlessPerVcpu = c.priceSecure, c.priceSl
	if !avail {
		return out
	}
	overall := "NONE"
	for _, dc := range dataCenters {
		lvl, offered := c.dcLevel(dc, vcpu)
		if !offered || lvl == "NONE" {
			continue
		}
		overall = maxLevel(overall, lvl)
		out.DataCenters = append(out.DataCenters, dcAvailJSON{ID: dc.id, Name: dc.name, Availability: lvl})
	}
	out.Availability = overall
	return out
}

func renderDC(dc *dataCenter, gpuAvail, cpuAvail bool) dataCenterJSON {
	out := dataCenterJSON{
		ID: dc.id, Name: dc.name, Region: dc.region, GlobalNetwork: dc.globalNetwork,
		NetworkVolumeTypes: append([]string{}, dc.volumeTypes...),
		Compliance:         append([]string{}, dc.compliance...),
	}
	if gpuAvail {
		for _, g := range gpuTypes {
			if lvl, ok := g.dcLevel(dc, gpuQuery{products: []string{"POD"}, count: 1, cloud: cloudOf(g)}); ok {
				out.GpuAvailability = append(out.GpuAvailability, dcAvailJSON{ID: g.id, Name: g.name, Availability: lvl})
			}
		}
	}
	if cpuAvail {
		for _, c := range cpuTypes {
			if lvl, ok := c.dcLevel(dc, 0); ok {
				out.CPUAvailability = append(out.CPUAvailability, dcAvailJSON{ID: c.id, Name: c.name, Availability: lvl})
			}
		}
	}
	return out
}

// cloudOf picks the cloud a GPU is sold in, SECURE first.
func cloudOf(g *gpuType) string {
	if g.secure {
		return "SECURE"
	}
	return "COMMUNITY"
}

// ---------------------------------------------------------------------------
// query parameters

var (
	countryRe     = regexp.MustCompile(`^[A-Z]{2}$`)
	cudaExactRe   = regexp.MustCompile(`^\d+\.\d+$`)
	cudaMinRe     = regexp.MustCompile(`^\d+(\.\d+)?$`)
	gpuProducts   = []string{"POD", "CLUSTER", "SERVERLESS"}
	cpuProducts   = []string{"POD", "SERVERLESS"}
	catalogIncl   = []string{"AVAILABILITY"}
	dcIncludes    = []string{"GPU_AVAILABILITY", "CPU_AVAILABILITY"}
	regionsEnum   = []string{"NORTH_AMERICA", "SOUTH_AMERICA", "EUROPE", "ASIA", "MIDDLE_EAST", "AFRICA", "OCEANIA", "ANTARCTICA", "UNKNOWN"}
	volTypesEnum  = []string{"STANDARD", "HIGH_PERFORMANCE"}
	complianceEnu = []string{"GDPR", "ISO_IEC_27001", "ISO_14001", "PCI_DSS", "HITRUST", "SOC_1_TYPE_2", "SOC_2_TYPE_2", "SOC_3_TYPE_2", "ITAR", "FISMA_HIGH", "HIPAA", "RENEWABLE"}
)

// queryList reads a comma-separated (explode=false) list parameter.
func queryList(c *call, name string) ([]string, bool) {
	vals, ok := c.query[name]
	if !ok {
		return nil, false
	}
	var out []string
	for _, v := range vals {
		for _, part := range strings.Split(v, ",") {
			if p := strings.TrimSpace(part); p != "" {
				out = append(out, p)
			}
		}
	}
	return out, true
}

// enumList checks a list parameter's items against an enum.
func enumList(name string, vals, enum []string) []string {
	var errs []string
	for i, v := range vals {
		if !contains(enum, v) {
			errs = append(errs, "query."+name+"["+strconv.Itoa(i)+"]: must be one of "+quoteList(enum))
		}
	}
	return errs
}

// parseGPUQuery validates the GPU catalog parameters. It returns nil query
// when availability was not requested.
func parseGPUQuery(c *call) (*gpuQuery, *reply) {
	var errs []string
	include, hasInclude := queryList(c, "include")
	errs = append(errs, enumList("include", include, catalogIncl)...)
	if len(include) > 1 {
		errs = append(errs, "query.include: must have at most 1 items")
	}
	products, hasProduct := queryList(c, "product")
	errs = append(errs, enumList("product", products, gpuProducts)...)
	q := gpuQuery{products: products, count: 1, cloud: "SECURE"}
	_, hasCount := c.query["count"]
	if hasCount {
		n, err := strconv.Atoi(c.query.Get("count"))
		if err != nil {
			errs = append(errs, "query.count: expected integer")
		} else if n < 1 {
			errs = append(errs, "query.count: must be >= 1")
		} else {
			q.count = n
		}
	}
	_, hasCloud := c.query["cloud"]
	if hasCloud {
		q.cloud = c.query.Get("cloud")
		if q.cloud != "SECURE" && q.cloud != "COMMUNITY" {
			errs = append(errs, "query.cloud: must be one of 'SECURE', 'COMMUNITY'")
		}
	}
	countries, hasCountries := queryList(c, "countryCodes")
	if hasCountries {
		q.countries = map[string]bool{}
		for i, cc := range countries {
			if !countryRe.MatchString(cc) {
				errs = append(errs, "query.countryCodes["+strconv.Itoa(i)+"]: must match pattern '^[A-Z]{2}$'")
			}
			q.countries[cc] = true
		}
	}
	cudas, hasCudas := queryList(c, "cudaVersions")
	for i, v := range cudas {
		if !cudaExactRe.MatchString(v) {
			errs = append(errs, "query.cudaVersions["+strconv.Itoa(i)+"]: must match pattern '^\\d+\\.\\d+$'")
		}
	}
	q.cudaExact = cudas
	_, hasMin := c.query["minCudaVersion"]
	if hasMin {
		q.cudaMin = c.query.Get("minCudaVersion")
		if !cudaMinRe.MatchString(q.cudaMin) {
			errs = append(errs, "query.minCudaVersion: must match pattern '^\\d+(\\.\\d+)?$'")
		}
	}
	if len(errs) > 0 {
		return nil, invalid(errs...)
	}
	avail := hasInclude && len(include) == 1
	if avail && (!hasProduct || len(products) == 0) {
		return nil, badRequest("product is required with include=AVAILABILITY (POD, CLUSTER or SERVERLESS): availability differs by product")
	}
	if !avail {
		var bad []string
		for name, set := range map[string]bool{"product": hasProduct, "count": hasCount, "cloud": hasCloud, "countryCodes": hasCountries, "cudaVersions": hasCudas, "minCudaVersion": hasMin} {
			if set {
				bad = append(bad, name)
			}
		}
		if len(bad) > 0 {
			sort.Strings(bad)
			return nil, badRequest("%s: valid only with include=AVAILABILITY", strings.Join(bad, ", "))
		}
		return nil, nil
	}
	if hasCudas && hasMin {
		return nil, badRequest("cudaVersions and minCudaVersion are mutually exclusive")
	}
	return &q, nil
}

func parseCPUQuery(c *call) (bool, int, *reply) {
	var errs []string
	include, hasInclude := queryList(c, "include")
	errs = append(errs, enumList("include", include, catalogIncl)...)
	if len(include) > 1 {
		errs = append(errs, "query.include: must have at most 1 items")
	}
	products, hasProduct := queryList(c, "product")
	errs = append(errs, enumList("product", products, cpuProducts)...)
	vcpu := 0
	_, hasVcpu := c.query["vcpuCount"]
	if hasVcpu {
		n, err := strconv.Atoi(c.query.Get("vcpuCount"))
		switch {
		case err != nil:
			errs = append(errs, "query.vcpuCount: expected integer")
		case n < 2:
			errs = append(errs, "query.vcpuCount: must be >= 2")
		case n&(n-1) != 0:
			errs = append(errs, "query.vcpuCount: must be a power of two")
		default:
			vcpu = n
		}
	}
	if len(errs) > 0 {
		return false, 0, invalid(errs...)
	}
	avail := hasInclude && len(include) == 1
	if avail && (!hasProduct || len(products) == 0) {
		return false, 0, badRequest("product is required with include=AVAILABILITY (POD or SERVERLESS): availability differs by product")
	}
	if !avail && (hasProduct || hasVcpu) {
		return false, 0, badRequest("product and vcpuCount are valid only with include=AVAILABILITY")
	}
	return avail, vcpu, nil
}

func parseDCInclude(c *call) (bool, bool, *reply) {
	include, _ := queryList(c, "include")
	if errs := enumList("include", include, dcIncludes); len(errs) > 0 {
		return false, false, invalid(errs...)
	}
	return contains(include, "GPU_AVAILABILITY"), contains(include, "CPU_AVAILABILITY"), nil
}

// ---------------------------------------------------------------------------
// handlers

func (s *Server) listGPUTypes(c *call) *reply {
	q, rep := parseGPUQuery(c)
	if rep != nil {
		return rep
	}
	out := []gpuTypeJSON{}
	for _, g := range gpuTypes {
		if q != nil && len(q.countries) > 0 && !gpuOfferedIn(g, q.countries) {
			continue
		}
		out = append(out, renderGPU(g, q))
	}
	return jsonReply(http.StatusOK, map[string]any{"gpus": out})
}

func (s *Server) getGPUType(c *call) *reply {
	q, rep := parseGPUQuery(c)
	if rep != nil {
		return rep
	}
	g := findGPU(c.param("id"))
	if g == nil {
		return notFound("GPU type", c.param("id"))
	}
	return jsonReply(http.StatusOK, renderGPU(g, q))
}

func (s *Server) listCPUTypes(c *call) *reply {
	avail, vcpu, rep := parseCPUQuery(c)
	if rep != nil {
		return rep
	}
	out := []cpuTypeJSON{}
	for _, ct := range cpuTypes {
		out = append(out, renderCPU(ct, avail, vcpu))
	}
	return jsonReply(http.StatusOK, map[string]any{"cpus": out})
}

func (s *Server) getCPUType(c *call) *reply {
	avail, vcpu, rep := parseCPUQuery(c)
	if rep != nil {
		return rep
	}
	ct := findCPU(c.param("id"))
	if ct == nil {
		return notFound("CPU type", c.param("id"))
	}
	return jsonReply(http.StatusOK, renderCPU(ct, avail, vcpu))
}

func (s *Server) listDataCenters(c *call) *reply {
	gpuAvail, cpuAvail, rep := parseDCInclude(c)
	if rep != nil {
		return rep
	}
	regions, _ := queryList(c, "regions")
	vols, _ := queryList(c, "networkVolumeTypes")
	comp, _ := queryList(c, "compliance")
	var errs []string
	errs = append(errs, enumList("regions", regions, regionsEnum)...)
	errs = append(errs, enumList("networkVolumeTypes", vols, volTypesEnum)...)
	errs = append(errs, enumList("compliance", comp, complianceEnu)...)
	var gn *bool
	if _, ok := c.query["globalNetwork"]; ok {
		b, err := parseBoolParam(c.query.Get("globalNetwork"))
		if err != nil {
			errs = append(errs, "query.globalNetwork: expected boolean")
		}
		gn = &b
	}
	if len(errs) > 0 {
		return invalid(errs...)
	}
	out := []dataCenterJSON{}
	for _, dc := range dataCenters {
		if len(regions) > 0 && !contains(regions, dc.region) {
			continue
		}
		if !containsAll(dc.volumeTypes, vols) || !containsAll(dc.compliance, comp) {
			continue
		}
		if gn != nil && dc.globalNetwork != *gn {
			continue
		}
		out = append(out, renderDC(dc, gpuAvail, cpuAvail))
	}
	return jsonReply(http.StatusOK, map[string]any{"dataCenters": out})
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !contains(have, w) {
			return false
		}
	}
	return true
}

func (s *Server) getDataCenter(c *call) *reply {
	gpuAvail, cpuAvail, rep := parseDCInclude(c)
	if rep != nil {
		return rep
	}
	dc := findDC(c.param("id"))
	if dc == nil {
		return notFound("data center", c.param("id"))
	}
	return jsonReply(http.StatusOK, renderDC(dc, gpuAvail, cpuAvail))
}

func (s *Server) listPublicTemplates(c *call) *reply {
	source := "official"
	if _, ok := c.query["source"]; ok {
		source = c.query.Get("source")
		if source != "official" && source != "verified" && source != "community" {
			return invalid("query.source: must be one of 'official', 'verified', 'community'")
		}
	}
	out := []templateJSON{}
	for _, t := range s.st.sortedTemplates() {
		if t.owned || t.source != source {
			continue
		}
		out = append(out, t.render())
		if len(out) == 100 {
			break
		}
	}
	return jsonReply(http.StatusOK, map[string]any{"templates": out})
}
