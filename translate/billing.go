package translate

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The three v1 billing histories (docs/design.md §8, #35–#37):
//
//	GET /billing/pods           → GET /v2/billing/pods (+ GET /v2/pods to group or filter by GPU type)
//	GET /billing/endpoints      → GET /v2/billing/serverless (never /v2/billing/endpoints, which is
//	                              Public Endpoint billing in v2)
//	GET /billing/networkvolumes → GET /v2/billing/network-volumes, summed per bucket
//
// v2 emits one record per resource per bucket; v1 records are per group
// (GPU type, pod, endpoint) or, for network volumes, per bucket. Amounts
// are summed by the gateway. v1 fields v2 cannot provide (diskSpaceBilledGb,
// timeBilledMs, highPerformanceStorageDiskSpaceBilledGb) are omitted.

// v1BillingBuckets is the v1 (and v2) bucketSize enum.
var v1BillingBuckets = setOf("hour", "day", "week", "month", "year")

// v1BillingRecord is an item of v1 BillingRecords.
type v1BillingRecord struct {
	Time       string  `json:"time" format:"date-time" doc:"v2 startTime: the start of the bucket."`
	Amount     float64 `json:"amount" doc:"USD: v2 totalAmount, summed over the group."`
	PodID      string  `json:"podId,omitempty" doc:"With grouping=podId."`
	GpuTypeID  string  `json:"gpuTypeId,omitempty" doc:"With grouping=gpuTypeId; omitted for the group of pods whose GPU type v2 no longer reports (terminated pods) or that have none (CPU pods)."`
	EndpointID string  `json:"endpointId,omitempty" doc:"v2 serverlessId (serverless billing)."`
}

// v1VolumeBillingRecord is an item of v1 NetworkVolumeBillingRecords.
type v1VolumeBillingRecord struct {
	Time                         string  `json:"time" format:"date-time" doc:"v2 startTime: the start of the bucket."`
	Amount                       float64 `json:"amount" doc:"USD: the sum of v2 totalAmount (standard and high-performance storage) over every volume in the bucket."`
	HighPerformanceStorageAmount float64 `json:"highPerformanceStorageAmount" doc:"USD: the sum of v2 highPerformanceAmount over every volume in the bucket."`
}

// v2 billing answers: only what the gateway reads.
type v2PodBillingList struct {
	Records []struct {
		StartTime   string  `json:"startTime"`
		PodID       string  `json:"podId"`
		TotalAmount float64 `json:"totalAmount"`
	} `json:"records"`
}

type v2ServerlessBillingList struct {
	Records []struct {
		StartTime    string  `json:"startTime"`
		ServerlessID string  `json:"serverlessId"`
		TotalAmount  float64 `json:"totalAmount"`
	} `json:"records"`
}

type v2VolumeBillingList struct {
	Records []struct {
		StartTime             string  `json:"startTime"`
		TotalAmount           float64 `json:"totalAmount"`
		HighPerformanceAmount float64 `json:"highPerformanceAmount"`
	} `json:"records"`
}

// roundAmount removes the noise of float sums (0.1+0.2) without touching
// any amount v2 can express.
func roundAmount(x float64) float64 { return math.Round(x*1e9) / 1e9 }

// billingQuery reads v1 billing query parameters. Problems are collected, one
// per parameter; unknown parameters are ignored, as v1 ignored them.
type billingQuery struct {
	v       url.Values
	errs    []string
	untrans []untranslatable
	v2      url.Values
}

func newBillingQuery(v url.Values) *billingQuery {
	return &billingQuery{v: v, v2: url.Values{}}
}

func (q *billingQuery) fail(name, format string, args ...any) {
	q.errs = append(q.errs, "query parameter "+name+": "+fmt.Sprintf(format, args...))
}

// scalar returns a single-valued parameter ("" when absent or empty).
func (q *billingQuery) scalar(name string) string {
	vals := q.v[name]
	if len(vals) == 0 {
		return ""
	}
	if len(vals) > 1 {
		q.fail(name, "must be given at most once")
		return ""
	}
	return vals[0]
}

func (q *billingQuery) enum(name string, allowed map[string]struct{}) string {
	s := q.scalar(name)
	if s == "" {
		return ""
	}
	if _, ok := allowed[s]; !ok {
		q.fail(name, "%q is not one of %s", s, listOf(allowed))
		return ""
	}
	return s
}

// array reads a v1 array parameter: repeated (form, explode) and/or
// comma-separated values, each in allowed, duplicates removed.
func (q *billingQuery) array(name string, allowed map[string]struct{}) []string {
	var out []string
	for _, val := range q.v[name] {
		for _, part := range strings.Split(val, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			if _, ok := allowed[part]; !ok {
				q.fail(name, "%q is not a valid value", part)
				continue
			}
			if !slices.Contains(out, part) {
				out = append(out, part)
			}
		}
	}
	return out
}

// window copies bucketSize, startTime and endTime (same names and meaning in
// v2; times are normalised to UTC RFC 3339).
func (q *billingQuery) window() {
	if b := q.enum("bucketSize", v1BillingBuckets); b != "" {
		q.v2.Set("bucketSize", b)
	}
	for _, name := range []string{"startTime", "endTime"} {
		s := q.scalar(name)
		if s == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			q.fail(name, "%q is not an RFC 3339 date-time (e.g. 2023-01-01T00:00:00Z)", s)
			continue
		}
		if y := t.UTC().Year(); y < 1 || y > 9999 {
			q.fail(name, "%q is out of range", s)
			continue
		}
		q.v2.Set(name, t.UTC().Format(time.RFC3339Nano))
	}
}

// id copies an id filter under its v2 name.
func (q *billingQuery) id(v1Name, v2Name string) string {
	s := q.scalar(v1Name)
	if s != "" {
		q.v2.Set(v2Name, s)
	}
	return s
}

// done returns the 400 for invalid parameters, the 400 for untranslatable
// ones (strict mode), or nil; in lenient mode untranslatable parameters are
// reported in notes.Dropped.
func (q *billingQuery) done(req *Request, notes *Result) *Result {
	if len(q.errs) > 0 {
		return Fail(http.StatusBadRequest, strings.Join(q.errs, "; "))
	}
	return decideUntranslatable(req, q.untrans, "cannot be translated to the v2 API without changing which records are returned", notes)
}

// billingCall makes the v2 billing call and decodes its records.
func billingCall[T any](ctx context.Context, req *Request, c Caller, path string, q url.Values) (*T, *Result) {
	if len(q) == 0 {
		q = nil
	}
	a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: path, Query: q})
	if err != nil {
		return nil, FromCallError(err)
	}
	if !a.OK() {
		return nil, FromV2Error(req.Op, a)
	}
	return decodeV2[T](a, "billing records")
}

// recordGroups sums amounts per (bucket, group), keeping the order in which
// buckets and groups first appear (v2 lists records bucket by bucket).
type recordGroups struct {
	out   []v1BillingRecord
	index map[[2]string]int
}

func (g *recordGroups) add(time, group string, amount float64, set func(*v1BillingRecord)) {
	if g.index == nil {
		g.index = map[[2]string]int{}
	}
	k := [2]string{time, group}
	if i, ok := g.index[k]; ok {
		g.out[i].Amount += amount
		return
	}
	r := v1BillingRecord{Time: time, Amount: amount}
	set(&r)
	g.index[k] = len(g.out)
	g.out = append(g.out, r)
}

func (g *recordGroups) result() []v1BillingRecord {
	if g.out == nil {
		return []v1BillingRecord{}
	}
	for i := range g.out {
		g.out[i].Amount = roundAmount(g.out[i].Amount)
	}
	return g.out
}

// ---------------------------------------------------------------------------
// #35 GET /billing/pods

// podBillingPlan: grouping=podId is v2's own shape; grouping=gpuTypeId (v1's
// default) and the gpuTypeId filter need each pod's GPU type, read from
// GET /v2/pods. Terminated pods are no longer listed there: their GPU type is
// unknown, and their amounts are grouped in records without gpuTypeId (never
// dropped), or left out of a gpuTypeId filter — with X-Compat-Warning.
func podBillingPlan(ctx context.Context, req *Request, c Caller) *Result {
	q := newBillingQuery(req.Query)
	q.window()
	q.id("podId", "podId")
	grouping := q.enum("grouping", setOf("podId", "gpuTypeId"))
	if grouping == "" {
		grouping = "gpuTypeId"
	}
	gpuFilter := q.enum("gpuTypeId", v1GPUTypeIDs)
	notes := &Result{}
	if r := q.done(req, notes); r != nil {
		return r
	}
	list, r := billingCall[v2PodBillingList](ctx, req, c, "/v2/billing/pods", q.v2)
	if r != nil {
		return r
	}
	needTypes := (grouping == "gpuTypeId" || gpuFilter != "") && len(list.Records) > 0
	var gpuOf map[string]string // pod id → GPU type ("" for CPU pods)
	if needTypes {
		a, err := c.Call(ctx, V2Call{Method: http.MethodGet, Path: "/v2/pods"})
		if err != nil {
			return FromCallError(err)
		}
		if !a.OK() {
			return FromV2Error(req.Op, a)
		}
		pods, r := decodePodListAnswer(a)
		if r != nil {
			return r
		}
		gpuOf = make(map[string]string, len(pods))
		for i := range pods {
			gt := ""
			if pods[i].GPU != nil {
				gt = pods[i].GPU.ID
			}
			gpuOf[pods[i].ID] = gt
		}
	}
	var g recordGroups
	unknown := map[string]bool{} // pods no longer listed
	cpu := map[string]bool{}
	for i := range list.Records {
		rec := &list.Records[i]
		gt, known := "", false
		if gpuOf != nil {
			gt, known = gpuOf[rec.PodID]
			switch {
			case !known:
				unknown[rec.PodID] = true
			case gt == "":
				cpu[rec.PodID] = true
			}
		}
		if gpuFilter != "" && gt != gpuFilter {
			continue
		}
		if grouping == "podId" {
			id := rec.PodID
			g.add(rec.StartTime, id, rec.TotalAmount, func(r *v1BillingRecord) { r.PodID = id })
		} else {
			g.add(rec.StartTime, gt, rec.TotalAmount, func(r *v1BillingRecord) { r.GpuTypeID = gt })
		}
	}
	if len(unknown) > 0 {
		if gpuFilter != "" {
			notes.warn(CodeBillingGPUUnknown, fmt.Sprintf("gpuTypeId: %d pod(s) with records in this window are no longer listed by v2 (terminated), so their GPU type is unknown and their amounts are not included: %s", len(unknown), idList(unknown)))
		} else {
			notes.warn(CodeBillingGPUUnknown, fmt.Sprintf("grouping=gpuTypeId: %d pod(s) with records in this window are no longer listed by v2 (terminated), so their GPU type is unknown; their amounts are in the records without gpuTypeId: %s", len(unknown), idList(unknown)))
		}
	}
	if len(cpu) > 0 && gpuFilter == "" && grouping == "gpuTypeId" {
		notes.warn(CodeBillingCPUNoGPU, fmt.Sprintf("grouping=gpuTypeId: %d CPU pod(s) have no GPU type; their amounts are in the records without gpuTypeId", len(cpu)))
	}
	return withNotes(JSON(http.StatusOK, g.result()), notes)
}

// idList lists the keys of a set, sorted, at most 10 (then "…").
func idList(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 10 {
		keys = append(keys[:10], "… ("+strconv.Itoa(len(m)-10)+" more)")
	}
	return strings.Join(keys, ", ")
}

// ---------------------------------------------------------------------------
// #36 GET /billing/endpoints

// endpointBillingPlan: v2 serverless records are per endpoint per bucket,
// which is v1's default grouping. v1's other groupings and filters have no
// v2 equivalent (records carry no worker, GPU type, location, image or
// template) and are rejected (lenient: dropped).
func endpointBillingPlan(ctx context.Context, req *Request, c Caller) *Result {
	q := newBillingQuery(req.Query)
	q.window()
	q.id("endpointId", "serverlessId")
	switch grouping := q.enum("grouping", setOf("endpointId", "podId", "gpuTypeId")); grouping {
	case "podId", "gpuTypeId":
		q.untrans = append(q.untrans, untranslatable{field: "grouping", why: "v2 serverless billing records are per endpoint and cannot be split by " + grouping + " (use grouping=endpointId, the default)"})
	}
	if dcs := q.array("dataCenterId", v1DataCenterIDs); len(dcs) > 0 && len(dcs) < len(v1DataCenterIDs) {
		q.untrans = append(q.untrans, untranslatable{field: "dataCenterId", why: "v2 serverless billing records carry no location, so they cannot be filtered by data center (leave it out for all data centers, v1's default)"})
	}
	if gts := q.array("gpuTypeId", v1GPUTypeIDs); len(gts) > 0 {
		q.untrans = append(q.untrans, untranslatable{field: "gpuTypeId", why: "v2 serverless billing records carry no GPU type, and an endpoint's current GPU pools say nothing about past spend"})
	}
	if q.scalar("imageName") != "" {
		q.untrans = append(q.untrans, untranslatable{field: "imageName", why: "v2 serverless billing records carry no image, and an endpoint's current image says nothing about past spend (deleted endpoints are unknown)"})
	}
	if q.scalar("templateId") != "" {
		q.untrans = append(q.untrans, untranslatable{field: "templateId", why: "v2 endpoints keep no link to the template they were created from"})
	}
	notes := &Result{}
	if r := q.done(req, notes); r != nil {
		return r
	}
	list, r := billingCall[v2ServerlessBillingList](ctx, req, c, "/v2/billing/serverless", q.v2)
	if r != nil {
		return withNotes(r, notes)
	}
	var g recordGroups
	for i := range list.Records {
		rec := &list.Records[i]
		id := rec.ServerlessID
		g.add(rec.StartTime, id, rec.TotalAmount, func(r *v1BillingRecord) { r.EndpointID = id })
	}
	return withNotes(JSON(http.StatusOK, g.result()), notes)
}

// ---------------------------------------------------------------------------
// #37 GET /billing/networkvolumes

// networkVolumeBillingPlan: v1 records carry no volume id (one record per
// bucket), v2 emits one per volume per bucket: the gateway sums them per
// bucket start. amount is v2's totalAmount (standard and high-performance
// storage); highPerformanceStorageAmount its high-performance part.
func networkVolumeBillingPlan(ctx context.Context, req *Request, c Caller) *Result {
	q := newBillingQuery(req.Query)
	q.window()
	if r := q.done(req, &Result{}); r != nil {
		return r
	}
	list, r := billingCall[v2VolumeBillingList](ctx, req, c, "/v2/billing/network-volumes", q.v2)
	if r != nil {
		return r
	}
	out := []v1VolumeBillingRecord{}
	index := map[string]int{}
	for i := range list.Records {
		rec := &list.Records[i]
		j, ok := index[rec.StartTime]
		if !ok {
			j = len(out)
			index[rec.StartTime] = j
			out = append(out, v1VolumeBillingRecord{Time: rec.StartTime})
		}
		out[j].Amount += rec.TotalAmount
		out[j].HighPerformanceStorageAmount += rec.HighPerformanceAmount
	}
	for i := range out {
		out[i].Amount = roundAmount(out[i].Amount)
		out[i].HighPerformanceStorageAmount = roundAmount(out[i].HighPerformanceStorageAmount)
	}
	return JSON(http.StatusOK, out)
}
