package v2sim

import (
	"net/http"
	"strconv"
	"time"
)

// Billing is derived from a ledger of usage segments: every billable
// resource opens segments (a rate in USD/hour for one cost component) when it
// is created or changes shape and closes them when it stops or disappears.
// A bucket's amount is the sum of rate × overlap, up to the current instant;
// records therefore stay deterministic for a given clock.

type usage struct {
	family string // pod, serverless, volume, cluster, publicEndpoint
	resID  string
	comp   string // life (presence, rate 0), gpu, cpu, disk, fee, standard, hp, networking, total
	rate   float64
	from   time.Time
	to     *time.Time
}

// diskRate is the container/persistent disk price per hour ($0.10/GB-month).
func diskRate(gb int) float64 { return round(float64(gb)*0.10/730, 6) }

func (s *Server) openUsage(family, id, comp string, rate float64, now time.Time) {
	if !s.hasOpen(family, id, "life") {
		s.st.ledger = append(s.st.ledger, &usage{family: family, resID: id, comp: "life", from: now})
	}
	if comp == "life" || rate <= 0 {
		return
	}
	s.st.ledger = append(s.st.ledger, &usage{family: family, resID: id, comp: comp, rate: rate, from: now})
}

func (s *Server) hasOpen(family, id, comp string) bool {
	for _, u := range s.st.ledger {
		if u.to == nil && u.family == family && u.resID == id && u.comp == comp {
			return true
		}
	}
	return false
}

func (s *Server) closeUsage(family, id, comp string, now time.Time) {
	for _, u := range s.st.ledger {
		if u.to == nil && u.family == family && u.resID == id && u.comp == comp {
			t := now
			u.to = &t
		}
	}
}

func (s *Server) reopenUsage(family, id, comp string, rate float64, now time.Time) {
	s.closeUsage(family, id, comp, now)
	s.openUsage(family, id, comp, rate, now)
}

func (s *Server) closeAllUsage(family, id string, now time.Time) {
	for _, u := range s.st.ledger {
		if u.to == nil && u.family == family && u.resID == id {
			t := now
			u.to = &t
		}
	}
}

// ---------------------------------------------------------------------------
// windows and buckets

const maxBillingBuckets = 10000 // simulator's choice: the document sets no maximum

type billingWindow struct {
	start, end time.Time
	bucket     string
}

func floorBucket(t time.Time, b string) time.Time {
	t = t.UTC()
	y, m, d := t.Date()
	switch b {
	case "hour":
		return t.Truncate(time.Hour)
	case "week":
		day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		off := (int(day.Weekday()) + 6) % 7 // ISO weeks start on Monday
		return day.AddDate(0, 0, -off)
	case "month":
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	case "year":
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func addBucket(t time.Time, b string, n int) time.Time {
	switch b {
	case "hour":
		return t.Add(time.Duration(n) * time.Hour)
	case "week":
		return t.AddDate(0, 0, 7*n)
	case "month":
		return t.AddDate(0, n, 0)
	case "year":
		return t.AddDate(n, 0, 0)
	}
	return t.AddDate(0, 0, n)
}

func ceilBucket(t time.Time, b string) time.Time {
	f := floorBucket(t, b)
	if f.Equal(t) {
		return f
	}
	return addBucket(f, b, 1)
}

func parseBillingWindow(c *call) (billingWindow, *reply) {
	w := billingWindow{bucket: "day"}
	var errs []string
	if _, ok := c.query["bucketSize"]; ok {
		w.bucket = c.query.Get("bucketSize")
		if !contains([]string{"hour", "day", "week", "month", "year"}, w.bucket) {
			errs = append(errs, "query.bucketSize: must be one of 'hour', 'day', 'week', 'month', 'year'")
			w.bucket = "day"
		}
	}
	var start, end *time.Time
	for _, p := range []struct {
		name string
		dst  **time.Time
	}{{"startTime", &start}, {"endTime", &end}} {
		if _, ok := c.query[p.name]; !ok {
			continue
		}
		t, err := time.Parse(time.RFC3339, c.query.Get(p.name))
		if err != nil {
			errs = append(errs, "query."+p.name+": must be an RFC 3339 date-time")
			continue
		}
		*p.dst = &t
	}
	lastN := 0
	_, hasLastN := c.query["lastN"]
	if hasLastN {
		n, err := strconv.Atoi(c.query.Get("lastN"))
		switch {
		case err != nil:
			errs = append(errs, "query.lastN: expected integer")
		case n < 1:
			errs = append(errs, "query.lastN: must be >= 1")
		default:
			lastN = n
		}
	}
	if len(errs) > 0 {
		return w, invalid(errs...)
	}
	if hasLastN {
		if start != nil || end != nil {
			return w, badRequest("lastN is mutually exclusive with startTime/endTime; provide one or the other")
		}
		if lastN > maxBillingBuckets {
			return w, badRequest("lastN: at most %d buckets can be requested", maxBillingBuckets)
		}
		cur := floorBucket(c.now, w.bucket)
		w.start, w.end = addBucket(cur, w.bucket, -(lastN-1)), addBucket(cur, w.bucket, 1)
		return w, nil
	}
	w.start = floorBucket(c.now.AddDate(0, 0, -30), w.bucket)
	if start != nil {
		w.start = floorBucket(*start, w.bucket)
	}
	w.end = ceilBucket(c.now, w.bucket)
	if end != nil {
		w.end = ceilBucket(*end, w.bucket)
	}
	if !w.start.Before(w.end) {
		return w, badRequest("startTime must be before endTime")
	}
	if w.start.Year() < 1 {
		return w, badRequest("the window starts before year 1")
	}
	n := 0
	for t := w.start; t.Before(w.end); t = addBucket(t, w.bucket, 1) {
		if n++; n > maxBillingBuckets {
			return w, badRequest("the window spans more than %d %s buckets; narrow it or use a larger bucketSize", maxBillingBuckets, w.bucket)
		}
	}
	return w, nil
}

func (w billingWindow) buckets() [][2]time.Time {
	var out [][2]time.Time
	for t := w.start; t.Before(w.end); t = addBucket(t, w.bucket, 1) {
		out = append(out, [2]time.Time{t, addBucket(t, w.bucket, 1)})
	}
	return out
}

// ledgerIndex groups the ledger by family and resource, in order of first
// appearance, so a request scans each resource's segments only.
type ledgerIndex struct {
	ids     map[string][]string
	entries map[string][]*usage // family + "/" + id
}

func (s *Server) indexLedger() ledgerIndex {
	idx := ledgerIndex{ids: map[string][]string{}, entries: map[string][]*usage{}}
	for _, u := range s.st.ledger {
		key := u.family + "/" + u.resID
		if _, ok := idx.entries[key]; !ok {
			idx.ids[u.family] = append(idx.ids[u.family], u.resID)
		}
		idx.entries[key] = append(idx.entries[key], u)
	}
	return idx
}

// amounts sums a resource's components over [from, to), billing only up to now.
func (idx ledgerIndex) amounts(family, id string, from, to, now time.Time) (map[string]float64, bool) {
	if to.After(now) {
		to = now
	}
	out := map[string]float64{}
	present := false
	for _, u := range idx.entries[family+"/"+id] {
		end := now
		if u.to != nil {
			end = *u.to
		}
		a, b := u.from, end
		if a.Before(from) {
			a = from
		}
		if b.After(to) {
			b = to
		}
		if !a.Before(b) {
			continue
		}
		if u.comp == "life" {
			present = true
			continue
		}
		out[u.comp] += u.rate * b.Sub(a).Hours()
	}
	for k, v := range out {
		out[k] = round(v, 4)
	}
	return out, present
}

// familyTotals sums every resource of a family over a bucket.
func (idx ledgerIndex) familyTotals(family string, from, to, now time.Time) map[string]float64 {
	out := map[string]float64{}
	for _, id := range idx.ids[family] {
		am, _ := idx.amounts(family, id, from, to, now)
		for k, v := range am {
			out[k] += v
		}
	}
	return out
}

type billingQueryJSON struct {
	StartTime  string `json:"startTime"`
	EndTime    string `json:"endTime"`
	BucketSize string `json:"bucketSize"`
}

func (w billingWindow) query() billingQueryJSON {
	return billingQueryJSON{StartTime: ts(w.start), EndTime: ts(w.end), BucketSize: w.bucket}
}

// perResource builds the records of one family: one per resource per bucket
// in which the resource existed.
func (s *Server) perResource(c *call, family, filterParam, idKey string, comps map[string]string) *reply {
	w, rep := parseBillingWindow(c)
	if rep != nil {
		return rep
	}
	filter := c.query.Get(filterParam)
	var records []map[string]any
	totals := map[string]float64{"totalAmount": 0}
	for _, k := range comps {
		totals[k] = 0
	}
	unique := map[string]bool{}
	idx := s.indexLedger()
	ids := idx.ids[family]
	for _, b := range w.buckets() {
		for _, id := range ids {
			if filter != "" && id != filter {
				continue
			}
			am, present := idx.amounts(family, id, b[0], b[1], c.now)
			if !present {
				continue
			}
			rec := map[string]any{"startTime": ts(b[0]), "endTime": ts(b[1]), idKey: id}
			total := 0.0
			for comp, key := range comps {
				rec[key] = am[comp]
				totals[key] += am[comp]
				total += am[comp]
			}
			rec["totalAmount"] = round(total, 4)
			totals["totalAmount"] += round(total, 4)
			records = append(records, rec)
			unique[id] = true
		}
	}
	for k, v := range totals {
		totals[k] = round(v, 4)
	}
	if records == nil {
		records = []map[string]any{}
	}
	q := map[string]any{"startTime": ts(w.start), "endTime": ts(w.end), "bucketSize": w.bucket, idKey: nil}
	if filter != "" {
		q[idKey] = filter
	}
	uniqueKey := map[string]string{"podId": "uniquePodCount", "serverlessId": "uniqueServerlessCount", "networkVolumeId": "uniqueNetworkVolumeCount", "clusterId": "uniqueClusterCount"}[idKey]
	meta := map[string]any{"query": q, "recordCount": len(records), "totals": totals, uniqueKey: len(unique)}
	return jsonReply(http.StatusOK, map[string]any{"records": records, "metadata": meta})
}

func (s *Server) billingPods(c *call) *reply {
	return s.perResource(c, "pod", "podId", "podId", map[string]string{"gpu": "gpuAmount", "cpu": "cpuAmount", "disk": "diskAmount"})
}

func (s *Server) billingServerless(c *call) *reply {
	return s.perResource(c, "serverless", "serverlessId", "serverlessId", map[string]string{"gpu": "gpuAmount", "cpu": "cpuAmount", "disk": "diskAmount", "fee": "feeAmount"})
}

func (s *Server) billingVolumes(c *call) *reply {
	return s.perResource(c, "volume", "networkVolumeId", "networkVolumeId", map[string]string{"standard": "standardAmount", "hp": "highPerformanceAmount"})
}

func (s *Server) billingClusters(c *call) *reply {
	return s.perResource(c, "cluster", "clusterId", "clusterId", map[string]string{"gpu": "gpuAmount", "disk": "diskAmount", "networking": "networkingAmount"})
}

var aggregateKeys = []string{"podGpuAmount", "podCpuAmount", "podDiskAmount", "serverlessGpuAmount", "serverlessCpuAmount", "serverlessDiskAmount", "serverlessFeeAmount", "storageStandardAmount", "storageHighPerformanceAmount", "endpointAmount", "clusterGpuAmount", "clusterDiskAmount", "clusterNetworkingAmount"}

func (s *Server) billingAll(c *call) *reply {
	w, rep := parseBillingWindow(c)
	if rep != nil {
		return rep
	}
	records := []map[string]any{}
	totals := map[string]float64{"totalAmount": 0}
	for _, k := range aggregateKeys {
		totals[k] = 0
	}
	idx := s.indexLedger()
	for _, b := range w.buckets() {
		pod := idx.familyTotals("pod", b[0], b[1], c.now)
		sl := idx.familyTotals("serverless", b[0], b[1], c.now)
		vol := idx.familyTotals("volume", b[0], b[1], c.now)
		pub := idx.familyTotals("publicEndpoint", b[0], b[1], c.now)
		cl := idx.familyTotals("cluster", b[0], b[1], c.now)
		vals := map[string]float64{
			"podGpuAmount": pod["gpu"], "podCpuAmount": pod["cpu"], "podDiskAmount": pod["disk"],
			"serverlessGpuAmount": sl["gpu"], "serverlessCpuAmount": sl["cpu"], "serverlessDiskAmount": sl["disk"], "serverlessFeeAmount": sl["fee"],
			"storageStandardAmount": vol["standard"], "storageHighPerformanceAmount": vol["hp"],
			"endpointAmount":   pub["total"],
			"clusterGpuAmount": cl["gpu"], "clusterDiskAmount": cl["disk"], "clusterNetworkingAmount": cl["networking"],
		}
		rec := map[string]any{"startTime": ts(b[0]), "endTime": ts(b[1])}
		total := 0.0
		for _, k := range aggregateKeys {
			v := round(vals[k], 4)
			rec[k] = v
			totals[k] += v
			total += v
		}
		rec["totalAmount"] = round(total, 4)
		totals["totalAmount"] += round(total, 4)
		records = append(records, rec)
	}
	for k, v := range totals {
		totals[k] = round(v, 4)
	}
	meta := map[string]any{"query": w.query(), "recordCount": len(records), "totals": totals}
	return jsonReply(http.StatusOK, map[string]any{"records": records, "metadata": meta})
}

func (s *Server) billingEndpoints(c *call) *reply {
	w, rep := parseBillingWindow(c)
	if rep != nil {
		return rep
	}
	records := []map[string]any{}
	total := 0.0
	idx := s.indexLedger()
	for _, b := range w.buckets() {
		v := round(idx.familyTotals("publicEndpoint", b[0], b[1], c.now)["total"], 4)
		records = append(records, map[string]any{"startTime": ts(b[0]), "endTime": ts(b[1]), "totalAmount": v})
		total += v
	}
	meta := map[string]any{"query": w.query(), "recordCount": len(records), "totals": map[string]float64{"totalAmount": round(total, 4)}}
	return jsonReply(http.StatusOK, map[string]any{"records": records, "metadata": meta})
}
