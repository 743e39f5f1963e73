package translate

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/v1gateway/v1gateway/podjson"
)

// Where a pod may go (P1, issue 36 items 3 and 4): the clouds each
// candidate is tried on (cloudType ALL is either cloud, SECURE first), the
// price cap (deployCost) checked against the v2 catalog's list prices, and
// the data centers asked for, which v1 honoured or failed with its
// stock-out: v2 calls dataCenterIds preferences, so a pod v2 placed
// elsewhere is deleted and the next candidate tried.

// attempt is one create of the loop: a candidate on one cloud.
type attempt struct {
	id, cloud string
}

// attempts lists the creates to try, in order: each candidate on each of
// its clouds.
func (cr *podCreator) attempts() []attempt {
	out := make([]attempt, 0, len(cr.cands))
	for _, id := range cr.cands {
		clouds, ok := cr.candClouds[id]
		if !ok {
			clouds = cr.defaultClouds()
		}
		for _, c := range clouds {
			out = append(out, attempt{id, c})
		}
	}
	return out
}

// defaultClouds are the clouds a candidate the catalog said nothing of is
// tried on: the one asked ("" with a templateId and no cloudType: v2's
// default), or both for a GPU pod with cloudType ALL (v2 CPU pods run on
// SECURE only).
func (cr *podCreator) defaultClouds() []string {
	if cr.in.anyCloud && !cr.in.cpu {
		return []string{"SECURE", "COMMUNITY"}
	}
	return []string{cr.body.Cloud}
}

// gpuClouds returns the clouds GPU type t may be tried on for this pod —
// the cloud asked, or with cloudType ALL each cloud t is offered on — within
// the price cap, with the lowest list price for one GPU among them (nil:
// unknown); over says what the price cap left out.
func (cr *podCreator) gpuClouds(t *v2GPUType) (clouds []string, low *float64, over []string) {
	in := cr.in
	for _, c := range cr.defaultClouds() {
		offered, price := t.Secure, t.Price.Secure
		if c == "COMMUNITY" {
			offered, price = t.Community, t.Price.Community
		}
		if in.anyCloud && !offered {
			continue
		}
		if in.priceCap > 0 {
			if price == nil {
				over = append(over, fmt.Sprintf("%s on %s: no list price", t.ID, cloudName(c)))
				continue
			}
			if total := *price * float64(in.gpuCount); total > in.priceCap {
				over = append(over, fmt.Sprintf("%s on %s $%.2f/h", t.ID, cloudName(c), total))
				continue
			}
		}
		clouds = append(clouds, c)
		if price != nil && (low == nil || *price < *low) {
			low = price
		}
	}
	return clouds, low, over
}

func cloudName(c string) string {
	if c == "" {
		return v1DefaultCloud
	}
	return c
}

// applyCatalogClouds narrows the candidates by the catalog just read (gpus
// for a GPU pod, cpus for a CPU pod): each GPU type to the clouds it is
// offered on (cloudType ALL), and every candidate to the price cap. None
// within the price cap is v1's stock-out.
func (cr *podCreator) applyCatalogClouds(gpus *v2GPUCatalog, cpus *v2CPUCatalog) *Result {
	in := cr.in
	if !in.anyCloud && in.priceCap == 0 {
		return nil
	}
	var kept, over []string
	if in.cpu {
		if in.priceCap == 0 || cpus == nil {
			return nil
		}
		for _, id := range cr.cands {
			i := indexOfType(len(cpus.CPUs), func(i int) string { return cpus.CPUs[i].ID }, id)
			if i < 0 {
				over = append(over, id+": not in the v2 CPU catalog, so its price is unknown")
				continue
			}
			if p := cpus.CPUs[i].Price.SecurePerVcpu * float64(in.vcpuCount); p > in.priceCap {
				over = append(over, fmt.Sprintf("%s $%.3f/h", id, p))
				continue
			}
			kept = append(kept, id)
		}
	} else {
		if gpus == nil {
			return nil
		}
		cr.candClouds = make(map[string][]string, len(cr.cands))
		for _, id := range cr.cands {
			i := indexOfType(len(gpus.GPUs), func(i int) string { return gpus.GPUs[i].ID }, id)
			if i < 0 {
				if in.priceCap > 0 {
					over = append(over, id+": not in the v2 GPU catalog, so its price is unknown")
					continue
				}
				kept = append(kept, id) // tried on defaultClouds: v2 decides
				continue
			}
			clouds, _, o := cr.gpuClouds(&gpus.GPUs[i])
			over = append(over, o...)
			if len(clouds) > 0 {
				cr.candClouds[id] = clouds
				kept = append(kept, id)
			}
		}
	}
	if len(kept) == 0 {
		if in.priceCap == 0 {
			// Offered on neither cloud by the catalog: v2 answers for each.
			cr.candClouds = nil
			return nil
		}
		spec := fmt.Sprintf("gpuCount %d", in.gpuCount)
		if in.cpu {
			spec = fmt.Sprintf("vcpuCount %d", in.vcpuCount)
		}
		return StockOut(fmt.Sprintf("deployCost: no %s asked for has a v2 list price at or under $%g/h for %s: %s",
			candidateField(in.cpu), in.priceCap, spec, strings.Join(over, "; ")))
	}
	cr.cands = kept
	return nil
}

// keepOfferedIn leaves out, when the catalog was read anyway, the
// candidates it shows in none of the data centers the pod must go to
// (dataCenterIds, the network volume's): v2 would place them elsewhere,
// and the gateway would delete them (undoMisplaced). A type the catalog
// lists without data centers, or not at all, is kept: v2 decides. None
// left is v1's stock-out.
func (cr *podCreator) keepOfferedIn(gpus *v2GPUCatalog, cpus *v2CPUCatalog) *Result {
	kept := make([]string, 0, len(cr.cands))
	for _, id := range cr.cands {
		ok := true
		if gpus != nil {
			if i := indexOfType(len(gpus.GPUs), func(i int) string { return gpus.GPUs[i].ID }, id); i >= 0 {
				t := &gpus.GPUs[i]
				ok = cr.offeredIn(len(t.DataCenters), func(i int) string { return t.DataCenters[i].ID })
			}
		} else if cpus != nil {
			if i := indexOfType(len(cpus.CPUs), func(i int) string { return cpus.CPUs[i].ID }, id); i >= 0 {
				t := &cpus.CPUs[i]
				ok = cr.offeredIn(len(t.DataCenters), func(i int) string { return t.DataCenters[i].ID })
			}
		}
		if ok {
			kept = append(kept, id)
		}
	}
	if len(kept) == 0 {
		return StockOut(fmt.Sprintf("dataCenterIds: the v2 catalog shows none of %s (%s) available in %s",
			candidateField(cr.in.cpu), strings.Join(cr.cands, ", "), strings.Join(cr.dcs, ", ")))
	}
	cr.cands = kept
	return nil
}

// withCommunity is gpus, the secure cloud's catalog, merged with the
// community cloud's (read with the same query q but the cloud), for a pod
// of cloudType ALL whose GPU type the gateway chooses: each type with the
// better availability of the two and its data centers in either, a type
// listed only there added. Without the community catalog it is gpus. The
// catalogs are shared read-only (decodeShared): the merge is a new one.
func (cr *podCreator) withCommunity(gpus *v2GPUCatalog, q url.Values) *v2GPUCatalog {
	cq := url.Values{}
	for k, v := range q {
		cq[k] = v
	}
	cq.Set("cloud", "COMMUNITY")
	a, err := podCall(cr.ctx, cr.c, http.MethodGet, "/v2/catalog/gpus", cq, nil)
	com, failure := readCatalog[v2GPUCatalog](a, err, "a GPU catalog")
	if failure != "" {
		return gpus
	}
	out := &v2GPUCatalog{GPUs: slices.Clone(gpus.GPUs)}
	for _, ct := range com.GPUs {
		i := indexOfType(len(out.GPUs), func(i int) string { return out.GPUs[i].ID }, ct.ID)
		if i < 0 {
			out.GPUs = append(out.GPUs, ct)
			continue
		}
		t := &out.GPUs[i]
		if availabilityRank(ct.Availability) < availabilityRank(t.Availability) {
			t.Availability = ct.Availability
		}
		for _, dc := range ct.DataCenters {
			if indexOfType(len(t.DataCenters), func(i int) string { return t.DataCenters[i].ID }, dc.ID) < 0 {
				t.DataCenters = append(slices.Clip(t.DataCenters), dc)
			}
		}
	}
	return out
}

// indexOfType is the index of id among n catalog entries (id(i) each), or -1.
func indexOfType(n int, id func(int) string, want string) int {
	for i := 0; i < n; i++ {
		if id(i) == want {
			return i
		}
	}
	return -1
}

// undoMisplaced deletes pod p, just created, when v2 placed it outside the
// data centers the create asked for (dcs: dataCenterIds, the network
// volume's, or a country's): v1 placed a pod only there, v2 calls them
// preferences. It reports why, and whether the pod is gone; a pod that
// could not be deleted is answered, with a warning (run).
func (cr *podCreator) undoMisplaced(p *podjson.V2Pod, dcs []string) (string, bool) {
	if len(dcs) == 0 || p.DataCenterID == "" || indexOfType(len(dcs), func(i int) string { return dcs[i] }, p.DataCenterID) >= 0 || !ValidID(p.ID) {
		return "", false
	}
	a, err := podCall(cr.ctx, cr.c, http.MethodDelete, V2Path("/v2/pods/%s", p.ID), nil, nil)
	if err != nil || !a.OK() {
		return "", false
	}
	return fmt.Sprintf("v2 placed it in %s, outside them, and the gateway deleted it (v1 placed a pod only in the data centers asked for)", p.DataCenterID), true
}
