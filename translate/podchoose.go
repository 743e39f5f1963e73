package translate

import (
	"cmp"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/v1gateway/v1gateway/podjson"
)

// A pod created without gpuTypeIds or cpuFlavorIds (P3, issue 14 item 1):
// v1 did not require them and chose itself, by availability (the default
// gpuTypePriority / cpuFlavorPriority). The gateway does the same from the
// v2 catalog it already reads to rank candidates: every v1 type the catalog
// shows available for this request (count or vCPUs, cloud, CUDA, data
// centers), most available first, ties broken by the lower list price (or,
// for GPUs, by the order of the operator's default_gpu_types, which also
// narrows the set). Types the catalog shows unavailable are never tried, and
// at most maxChosenCandidates creates are made, so that a create without
// gpuTypeIds cannot become dozens of v2 POSTs. The choice is named in
// X-Compat-Warning (gpu_type_chosen, cpu_flavor_chosen): GPU types differ in
// price by more than ten times.

// maxChosenCandidates bounds the creates of one pod created without
// gpuTypeIds or cpuFlavorIds.
const maxChosenCandidates = 8

// chosenCandidate is one type the gateway may choose, with what the warning
// says about it.
type chosenCandidate struct {
	id   string
	rank int     // availabilityRank
	tie  float64 // lower first: list price, or position in default_gpu_types
	desc string  // "availability HIGH, list price $0.39/h per GPU on SECURE"
}

// choose sets cr.cands for a create without candidates from the catalog
// just read (gpus for a GPU pod, cpus for a CPU pod).
func (cr *podCreator) choose(gpus *v2GPUCatalog, cpus *v2CPUCatalog) *Result {
	in := cr.in
	var cs []chosenCandidate
	if in.cpu {
		for _, t := range cpus.CPUs {
			if _, ok := v1CPUFlavorIDs[t.ID]; !ok {
				continue
			}
			rank := availabilityRank(t.Availability)
			if rank >= 3 || !cr.offeredIn(len(t.DataCenters), func(i int) string { return t.DataCenters[i].ID }) ||
				in.priceCap > 0 && t.Price.SecurePerVcpu*float64(in.vcpuCount) > in.priceCap {
				continue
			}
			cs = append(cs, chosenCandidate{id: t.ID, rank: rank, tie: t.Price.SecurePerVcpu,
				desc: fmt.Sprintf("availability %s, list price $%.3f/h per vCPU", t.Availability, t.Price.SecurePerVcpu)})
		}
	} else {
		cloud := cr.cloud()
		if cr.in.anyCloud {
			cloud = "the cheaper cloud"
		}
		cs = rankGPUTypes(gpus.GPUs, gpuRanking{
			defaults: cr.req.Options.DefaultGPUTypes,
			label:    "per GPU on " + cloud,
			usable: func(t *v2GPUType) (*float64, bool) {
				if !cr.offeredIn(len(t.DataCenters), func(i int) string { return t.DataCenters[i].ID }) {
					return nil, false
				}
				if cr.in.anyCloud || cr.in.priceCap > 0 {
					// cloudType ALL, a price cap: the clouds t may be tried on.
					clouds, low, _ := cr.gpuClouds(t)
					return low, len(clouds) > 0
				}
				if cloud == "COMMUNITY" {
					return t.Price.Community, t.Community
				}
				return t.Price.Secure, t.Secure
			},
		})
	}
	sortChosen(cs)
	if len(cs) == 0 {
		return StockOut(cr.noneAvailable())
	}
	cr.chosenOf = len(cs)
	if len(cs) > maxChosenCandidates {
		cs = cs[:maxChosenCandidates]
	}
	cr.cands = make([]string, len(cs))
	cr.chosenDesc = make(map[string]string, len(cs))
	for i, c := range cs {
		cr.cands[i] = c.id
		cr.chosenDesc[c.id] = c.desc
	}
	return nil
}

// gpuRanking says how a create without gpuTypeIds ranks the GPU types of
// the catalog (rankGPUTypes): pods and endpoints share the ranking and
// differ only in which types they can use and at what price.
type gpuRanking struct {
	// defaults is default_gpu_types: only these are kept, and their order
	// breaks availability ties (nil: every v1 type, ties by price).
	defaults []string
	// usable returns the list price that breaks ties (nil: unknown, last)
	// and whether the type can be used for this create at all.
	usable func(t *v2GPUType) (price *float64, ok bool)
	label  string // what the price is: "per GPU on SECURE"
	// keepUnavailable keeps the types the catalog shows without stock,
	// last (an endpoint's workers are placed over time); a pod never tries
	// them.
	keepUnavailable bool
}

// rankGPUTypes returns the v1 GPU types of gpus that rk can use, with what
// the warning says of each; sortChosen puts them in the order of P3.
func rankGPUTypes(gpus []v2GPUType, rk gpuRanking) []chosenCandidate {
	var cs []chosenCandidate
	for i := range gpus {
		t := &gpus[i]
		if _, ok := v1GPUTypeIDs[t.ID]; !ok {
			continue
		}
		pos := slices.Index(rk.defaults, t.ID)
		if len(rk.defaults) > 0 && pos < 0 {
			continue
		}
		rank := availabilityRank(t.Availability)
		price, ok := rk.usable(t)
		if !ok || rank >= 3 && !rk.keepUnavailable {
			continue
		}
		c := chosenCandidate{id: t.ID, rank: rank, tie: math.Inf(1), desc: "availability " + cmp.Or(t.Availability, "unknown")}
		if price != nil {
			c.tie = *price
			c.desc += fmt.Sprintf(", list price $%.2f/h %s", *price, rk.label)
		}
		if len(rk.defaults) > 0 {
			c.tie = float64(pos)
		}
		cs = append(cs, c)
	}
	return cs
}

// sortChosen orders candidates as P3 does: most available first, then
// the tie-break (price, or default_gpu_types' order), then the id.
func sortChosen(cs []chosenCandidate) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].rank != cs[j].rank {
			return cs[i].rank < cs[j].rank
		}
		if cs[i].tie != cs[j].tie {
			return cs[i].tie < cs[j].tie
		}
		return cs[i].id < cs[j].id
	})
}

// chooseUnranked handles a create without candidates when the catalog could
// not be read (err, or answer a, summarised in failure). CPU flavors are few
// and priced alike: all six are tried in turn. GPU types are not: without
// the catalog the gateway does not pick among prices that differ more than
// ten times, unless the operator named the types (default_gpu_types).
func (cr *podCreator) chooseUnranked(err error, a *V2Answer, failure string) *Result {
	in := cr.in
	if in.cpu {
		cr.notes.warn(CodeCandidatesUnranked, "cpuFlavorIds was not sent and the v2 CPU catalog could not be read to rank the v1 CPU flavors by availability ("+failure+"): they were tried in turn")
		return nil
	}
	if defaults := cr.req.Options.DefaultGPUTypes; len(defaults) > 0 {
		cr.cands = defaults
		if len(cr.cands) > maxChosenCandidates {
			cr.cands = cr.cands[:maxChosenCandidates]
		}
		cr.chosenOf = len(defaults)
		cr.notes.warn(CodeCandidatesUnranked, "gpuTypeIds was not sent and the v2 GPU catalog could not be read to rank the gateway's default GPU types by availability ("+failure+"): they were tried in the configured order")
		return nil
	}
	msg := "gpuTypeIds: not sent, and the v2 GPU catalog could not be read to choose a GPU type by availability and price (" + failure + "); send gpuTypeIds"
	var r *Result
	switch {
	case err != nil:
		r = FromCallError(err)
	case a != nil && !a.OK():
		r = FromV2Error(cr.req.Op, a)
	default:
		r = Fail(http.StatusBadGateway, msg)
	}
	r.Body = EncodeV1Error(msg)
	return r
}

// offeredIn reports whether a type whose catalog entry lists n data centers
// (id(i) each) can be placed where the pod must go (cr.dcs: dataCenterIds or
// the network volume's). A type listed without data centers is kept: the
// catalog omits them in some answers, and v2 decides.
func (cr *podCreator) offeredIn(n int, id func(int) string) bool {
	if cr.dcs == nil || n == 0 {
		return true
	}
	for i := 0; i < n; i++ {
		if slices.Contains(cr.dcs, id(i)) {
			return true
		}
	}
	return false
}

// cloud is the cloud the catalog was asked about.
func (cr *podCreator) cloud() string {
	if cr.in.cloud == "" {
		return v1DefaultCloud
	}
	return cr.in.cloud
}

// noneAvailable is the detail of the stock-out of a create without
// candidates when the catalog shows none of them available.
func (cr *podCreator) noneAvailable() string {
	in := cr.in
	where := ""
	if cr.dcs != nil {
		where = " in " + strings.Join(cr.dcs, ", ")
	}
	if in.cpu {
		if in.priceCap > 0 {
			where += fmt.Sprintf(" at or under $%g/h (deployCost)", in.priceCap)
		}
		return fmt.Sprintf("cpuFlavorIds: not sent, and the v2 CPU catalog shows none of the v1 CPU flavors (%s) available with vcpuCount %d%s; try again later, or send cpuFlavorIds",
			listOf(v1CPUFlavorIDs), in.vcpuCount, where)
	}
	set := "v1's GPU types"
	if d := cr.req.Options.DefaultGPUTypes; len(d) > 0 {
		set = "the gateway's default GPU types (" + strings.Join(d, ", ") + ")"
	}
	cloud := cr.cloud()
	if in.anyCloud {
		cloud = "SECURE or COMMUNITY"
	}
	if in.priceCap > 0 {
		where += fmt.Sprintf(" at or under $%g/h (deployCost)", in.priceCap)
	}
	return fmt.Sprintf("gpuTypeIds: not sent, and the v2 GPU catalog shows none of %s available for gpuCount %d on %s cloud%s; try again later, or send gpuTypeIds",
		set, in.gpuCount, cloud, where)
}

// warnChosen names the type the gateway chose for p (gpu_type_chosen,
// cpu_flavor_chosen).
func (cr *podCreator) warnChosen(p *podjson.V2Pod) {
	in := cr.in
	id := ""
	switch {
	case in.cpu && p.CPU != nil:
		id = p.CPU.ID
	case !in.cpu && p.GPU != nil:
		id = p.GPU.ID
	}
	desc := ""
	if d := cr.chosenDesc[id]; d != "" {
		desc = " (" + d + ")"
	}
	if in.cpu {
		cr.notes.warn(CodeCPUFlavorChosen, fmt.Sprintf("cpuFlavorIds was not sent: the gateway chose %s%s, the first that v2 could create of %d v1 CPU flavors ranked by availability, then price; send cpuFlavorIds to choose",
			id, desc, cr.chosenOf))
		return
	}
	set := "v1 GPU types ranked by availability, then price"
	if len(cr.req.Options.DefaultGPUTypes) > 0 {
		set = "of the gateway's default GPU types (default_gpu_types) ranked by availability, then their configured order"
	}
	cr.notes.warn(CodeGPUTypeChosen, fmt.Sprintf("gpuTypeIds was not sent: the gateway chose %s%s, the first that v2 could create of %d %s; GPU types differ in price by more than ten times: send gpuTypeIds to choose",
		id, desc, cr.chosenOf, set))
}
