package v2sim

import (
	"fmt"
	"math"
	"testing"
	"time"
)

func TestBillingWindows(t *testing.T) {
	s, _ := newTestServer(Options{Seed: true}) // now = Monday 2026-06-15 12:00:40Z
	tests := []struct {
		query      string
		start, end string
		bucket     string
		records    int
	}{
		{"", "2026-05-16T00:00:00Z", "2026-06-16T00:00:00Z", "day", 31},
		{"?bucketSize=hour&lastN=3", "2026-06-15T10:00:00Z", "2026-06-15T13:00:00Z", "hour", 3},
		{"?bucketSize=week&startTime=2026-06-03T10:00:00Z&endTime=2026-06-10T00:00:00Z", "2026-06-01T00:00:00Z", "2026-06-15T00:00:00Z", "week", 2},
		{"?bucketSize=month&lastN=2", "2026-05-01T00:00:00Z", "2026-07-01T00:00:00Z", "month", 2},
		{"?bucketSize=year&lastN=1", "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z", "year", 1},
		{"?startTime=2026-06-14T00:00:00Z", "2026-06-14T00:00:00Z", "2026-06-16T00:00:00Z", "day", 2},
		{"?startTime=2026-06-10T00:00:00Z&endTime=2026-06-12T00:00:00Z", "2026-06-10T00:00:00Z", "2026-06-12T00:00:00Z", "day", 2},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			rec := do(t, s, "GET", "/v2/billing"+tc.query, nil)
			expectStatus(t, rec, 200)
			m := obj(t, rec)
			meta := m["metadata"].(map[string]any)
			q := meta["query"].(map[string]any)
			if q["startTime"] != tc.start || q["endTime"] != tc.end || q["bucketSize"] != tc.bucket {
				t.Errorf("query %v", q)
			}
			recs := m["records"].([]any)
			if len(recs) != tc.records || meta["recordCount"] != float64(tc.records) {
				t.Errorf("%d records, recordCount %v, want %d", len(recs), meta["recordCount"], tc.records)
			}
			if len(recs) > 0 && recs[0].(map[string]any)["startTime"] != tc.start {
				t.Errorf("first record starts %v", recs[0].(map[string]any)["startTime"])
			}
		})
	}
	for _, q := range []string{"?lastN=2&endTime=2026-06-10T00:00:00Z", "?startTime=2026-06-12T00:00:00Z&endTime=2026-06-10T00:00:00Z", "?bucketSize=hour&startTime=2020-01-01T00:00:00Z", "?lastN=10001"} {
		expectProblem(t, do(t, s, "GET", "/v2/billing"+q, nil), 400)
	}
	for _, q := range []string{"?bucketSize=minute", "?lastN=0", "?lastN=x", "?startTime=yesterday"} {
		expectProblem(t, do(t, s, "GET", "/v2/billing"+q, nil), 422)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 0.00015 }

func TestBillingAmounts(t *testing.T) {
	s, clk := newTestServer(Options{})
	pod := createPodT(t, s, gpuPodBody("billed")) // 0.69 $/h from 12:00:40
	clk.Advance(2 * time.Hour)                    // now 14:00:40
	records := func(path string) ([]map[string]any, map[string]any) {
		rec := do(t, s, "GET", path, nil)
		expectStatus(t, rec, 200)
		m := obj(t, rec)
		var out []map[string]any
		for _, r := range m["records"].([]any) {
			out = append(out, r.(map[string]any))
		}
		return out, m["metadata"].(map[string]any)
	}
	recs, meta := records("/v2/billing/pods?bucketSize=hour&lastN=3&podId=" + pod)
	want := []float64{0.69 * 3560 / 3600, 0.69, 0.69 * 40 / 3600}
	if len(recs) != 3 {
		t.Fatalf("%d records", len(recs))
	}
	sum := 0.0
	for i, r := range recs {
		if r["podId"] != pod || !near(r["gpuAmount"].(float64), want[i]) || r["cpuAmount"] != 0.0 {
			t.Errorf("record %d: %v, want gpuAmount %.4f", i, r, want[i])
		}
		total := r["gpuAmount"].(float64) + r["cpuAmount"].(float64) + r["diskAmount"].(float64)
		if !near(r["totalAmount"].(float64), total) {
			t.Errorf("record %d total %v != components %v", i, r["totalAmount"], total)
		}
		sum += r["totalAmount"].(float64)
	}
	totals := meta["totals"].(map[string]any)
	if !near(totals["totalAmount"].(float64), sum) || meta["uniquePodCount"] != 1.0 || meta["query"].(map[string]any)["podId"] != pod {
		t.Errorf("metadata %v (sum %v)", meta, sum)
	}

	// Stopping ends compute charges; disk keeps accruing; deletion ends everything,
	// but history stays.
	do(t, s, "POST", "/v2/pods/"+pod+"/action", map[string]any{"action": "stop"})
	clk.Advance(time.Hour)
	recs, _ = records("/v2/billing/pods?bucketSize=hour&lastN=1")
	if len(recs) != 1 || recs[0]["gpuAmount"] != 0.0 || recs[0]["diskAmount"].(float64) <= 0 {
		t.Errorf("stopped pod bucket %v", recs)
	}
	expectStatus(t, do(t, s, "DELETE", "/v2/pods/"+pod, nil), 204)
	clk.Advance(time.Hour)
	if recs, _ = records("/v2/billing/pods?bucketSize=hour&lastN=1"); len(recs) != 0 {
		t.Errorf("deleted pod still billed: %v", recs)
	}
	if recs, _ = records("/v2/billing/pods?bucketSize=day&lastN=1"); len(recs) != 1 || recs[0]["podId"] != pod {
		t.Errorf("deleted pod's history lost: %v", recs)
	}

	// The aggregate carries the same pod amounts.
	day, _ := records("/v2/billing?bucketSize=day&lastN=1")
	podDay, _ := records("/v2/billing/pods?bucketSize=day&lastN=1")
	if !near(day[0]["podGpuAmount"].(float64), podDay[0]["gpuAmount"].(float64)) {
		t.Errorf("aggregate podGpuAmount %v vs pod billing %v", day[0]["podGpuAmount"], podDay[0]["gpuAmount"])
	}

	// Filters that match nothing answer an empty history, echoing the filter.
	recs, meta = records("/v2/billing/serverless?serverlessId=nope")
	if len(recs) != 0 || meta["query"].(map[string]any)["serverlessId"] != "nope" || meta["uniqueServerlessCount"] != 0.0 {
		t.Errorf("unknown serverlessId: %v %v", recs, meta)
	}
	_, meta = records("/v2/billing/network-volumes")
	if q := meta["query"].(map[string]any); q["networkVolumeId"] != nil {
		t.Errorf("networkVolumeId echo %v", q)
	}
}

func TestBillingPerFamily(t *testing.T) {
	s, clk := newTestServer(Options{Seed: true})
	cl := str(obj(t, do(t, s, "POST", "/v2/clusters", clusterBody("TRAINING", 2, 8))), "id")
	clk.Advance(time.Hour)
	for _, tc := range []struct {
		path, idKey string
		min         int
	}{
		{"/v2/billing/pods?lastN=1", "podId", 2},
		{"/v2/billing/serverless?lastN=1", "serverlessId", 1},
		{"/v2/billing/network-volumes?lastN=1", "networkVolumeId", 1},
		{"/v2/billing/clusters?lastN=1&clusterId=" + cl, "clusterId", 1},
	} {
		m := obj(t, do(t, s, "GET", tc.path, nil))
		recs := m["records"].([]any)
		if len(recs) < tc.min {
			t.Errorf("%s: %d records", tc.path, len(recs))
			continue
		}
		for _, r := range recs {
			rr := r.(map[string]any)
			if rr[tc.idKey] == nil || rr["totalAmount"].(float64) <= 0 {
				t.Errorf("%s: record %v", tc.path, rr)
			}
		}
	}
	clusterRec := obj(t, do(t, s, "GET", "/v2/billing/clusters?bucketSize=hour&lastN=1", nil))["records"].([]any)[0].(map[string]any)
	// 16 H100 at 2.69 $/h for the 40 s of the current hour.
	if !near(clusterRec["gpuAmount"].(float64), 16*2.69*40/3600) {
		t.Errorf("cluster gpuAmount %v", clusterRec["gpuAmount"])
	}
	pub := obj(t, do(t, s, "GET", "/v2/billing/endpoints?lastN=2", nil))
	if recs := pub["records"].([]any); len(recs) != 2 || fmt.Sprint(recs[0].(map[string]any)["totalAmount"]) != "0.3" {
		t.Errorf("public endpoint billing %v", pub)
	}
}
