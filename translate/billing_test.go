package translate

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// Billing fixtures: valid v2 answers built from (bucket day, resource id,
// total amount) triples.

type billRec struct {
	day    int // June 2026
	id     string
	amount float64
	hp     float64 // network volumes: high-performance part
}

func day(d int) string { return fmt.Sprintf("2026-06-%02dT00:00:00Z", d) }

func billing(idKey string, amounts func(r billRec) string, uniqueKey string, totals string, recs ...billRec) string {
	var items []string
	for _, r := range recs {
		items = append(items, fmt.Sprintf(`{"startTime":%q,"endTime":%q,%q:%q,"totalAmount":%v,%s}`,
			day(r.day), day(r.day+1), idKey, r.id, r.amount, amounts(r)))
	}
	return `{"records":[` + strings.Join(items, ",") + `],"metadata":{"query":{"startTime":"2026-06-01T00:00:00Z","endTime":"2026-07-01T00:00:00Z","bucketSize":"day","` +
		idKey + `":null},"recordCount":` + strconv.Itoa(len(recs)) + `,"` + uniqueKey + `":1,"totals":` + totals + `}}`
}

func podBilling(recs ...billRec) string {
	return billing("podId", func(r billRec) string { return fmt.Sprintf(`"gpuAmount":%v,"cpuAmount":0,"diskAmount":0`, r.amount) },
		"uniquePodCount", `{"totalAmount":0,"gpuAmount":0,"cpuAmount":0,"diskAmount":0}`, recs...)
}

func serverlessBilling(recs ...billRec) string {
	return billing("serverlessId", func(r billRec) string {
		return fmt.Sprintf(`"gpuAmount":%v,"cpuAmount":0,"diskAmount":0,"feeAmount":0`, r.amount)
	}, "uniqueServerlessCount", `{"totalAmount":0,"gpuAmount":0,"cpuAmount":0,"diskAmount":0,"feeAmount":0}`, recs...)
}

func volumeBilling(recs ...billRec) string {
	return billing("networkVolumeId", func(r billRec) string {
		return fmt.Sprintf(`"standardAmount":%v,"highPerformanceAmount":%v`, r.amount-r.hp, r.hp)
	}, "uniqueNetworkVolumeCount", `{"totalAmount":0,"standardAmount":0,"highPerformanceAmount":0}`, recs...)
}

func TestPodBilling(t *testing.T) {
	bill := podBilling(
		billRec{day: 1, id: "p1", amount: 1.1}, billRec{day: 1, id: "p2", amount: 2.2}, billRec{day: 1, id: "p3", amount: 0.5},
		billRec{day: 1, id: "gone", amount: 0.25}, billRec{day: 2, id: "p1", amount: 0.1}, billRec{day: 2, id: "p2", amount: 0.2},
	)
	pods := podList(pod("p1"), pod("p2"), pod("p3", cpuPod))
	billStep := func(query string) step {
		return step{method: "GET", path: "/v2/billing/pods", query: query, status: 200, body: bill}
	}
	podsStep := step{method: "GET", path: "/v2/pods", status: 200, body: pods}
	tests := []struct {
		name, query string
		script      []step
		want        string
		warns       []string
	}{
		{name: "default grouping gpuTypeId: summed per bucket and type; unknown and CPU pods without gpuTypeId",
			script: []step{billStep(""), podsStep},
			want: `[{"time":"` + day(1) + `","amount":3.3,"gpuTypeId":"NVIDIA A40"},{"time":"` + day(1) + `","amount":0.75},
				{"time":"` + day(2) + `","amount":0.3,"gpuTypeId":"NVIDIA A40"}]`,
			warns: []string{"1 pod(s) with records in this window are no longer listed", "gone", "1 CPU pod(s)"}},
		{name: "grouping podId: v2's shape, no pod list read",
			query:  "grouping=podId&bucketSize=day&startTime=2026-06-01T00:00:00Z&endTime=2026-06-30T23:59:59Z&podId=p1",
			script: []step{billStep("bucketSize=day&endTime=2026-06-30T23%3A59%3A59Z&podId=p1&startTime=2026-06-01T00%3A00%3A00Z")},
			want: `[{"time":"` + day(1) + `","amount":1.1,"podId":"p1"},{"time":"` + day(1) + `","amount":2.2,"podId":"p2"},
				{"time":"` + day(1) + `","amount":0.5,"podId":"p3"},{"time":"` + day(1) + `","amount":0.25,"podId":"gone"},
				{"time":"` + day(2) + `","amount":0.1,"podId":"p1"},{"time":"` + day(2) + `","amount":0.2,"podId":"p2"}]`},
		{name: "gpuTypeId filter with grouping podId", query: "grouping=podId&gpuTypeId=NVIDIA%20A40",
			script: []step{billStep(""), podsStep},
			want: `[{"time":"` + day(1) + `","amount":1.1,"podId":"p1"},{"time":"` + day(1) + `","amount":2.2,"podId":"p2"},
				{"time":"` + day(2) + `","amount":0.1,"podId":"p1"},{"time":"` + day(2) + `","amount":0.2,"podId":"p2"}]`,
			warns: []string{"are not included: gone"}},
		{name: "gpuTypeId filter matching nothing", query: "gpuTypeId=Tesla%20T4", script: []step{billStep(""), podsStep}, want: `[]`,
			warns: []string{"not included"}},
		{name: "times are normalised to UTC", query: "startTime=2026-06-01T02:00:00%2B02:00&grouping=podId",
			script: []step{billStep("startTime=2026-06-01T00%3A00%3A00Z")}, want: "*"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := run(t, "PodBilling", runOpts{query: tc.query}, tc.script...)
			wantStatus(t, res, 200)
			if tc.want != "*" {
				jsonEqual(t, "records", res.Body, tc.want)
			}
			got := strings.Join(res.Warnings, " | ")
			for _, w := range tc.warns {
				if !strings.Contains(got, w) {
					t.Errorf("warnings %q should contain %q", got, w)
				}
			}
			if len(tc.warns) == 0 && got != "" {
				t.Errorf("unexpected warnings %q", got)
			}
		})
	}

	// No records: no pod list read.
	res, _ := run(t, "PodBilling", runOpts{}, step{method: "GET", path: "/v2/billing/pods", status: 200, body: podBilling()})
	jsonEqual(t, "empty", res.Body, `[]`)
	// A failing pod list fails the request (the grouping would be wrong).
	res, _ = run(t, "PodBilling", runOpts{}, billStep(""), step{method: "GET", path: "/v2/pods", status: 429, body: problem(429, "slow down"), header: jsonHeader})
	wantStatus(t, res, 429)
}

func TestBillingQueryErrors(t *testing.T) {
	tests := []struct{ op, query, msg string }{
		{"PodBilling", "bucketSize=minute", `bucketSize: "minute" is not one of day, hour, month, week, year`},
		{"PodBilling", "bucketSize=day&bucketSize=hour", "bucketSize: must be given at most once"},
		{"PodBilling", "startTime=2023-01-01", "startTime: \"2023-01-01\" is not an RFC 3339 date-time"},
		{"PodBilling", "endTime=yesterday", "endTime:"},
		{"PodBilling", "grouping=endpointId", "grouping:"},
		{"PodBilling", "gpuTypeId=NVIDIA%20X", "gpuTypeId:"},
		{"EndpointBilling", "grouping=x", "grouping:"},
		{"EndpointBilling", "dataCenterId=MARS-1", `dataCenterId: "MARS-1" is not a valid value`},
		{"EndpointBilling", "gpuTypeId=NVIDIA%20X", "gpuTypeId:"},
		{"NetworkVolumeBilling", "startTime=0000-01-01T00:00:00Z", "out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.op+"?"+tc.query, func(t *testing.T) {
			res, _ := run(t, tc.op, runOpts{query: tc.query})
			wantStatus(t, res, 400)
			wantMessage(t, res, tc.msg)
		})
	}
}

func TestEndpointBilling(t *testing.T) {
	bill := serverlessBilling(billRec{day: 1, id: "ep1", amount: 8.9}, billRec{day: 1, id: "ep2", amount: 1}, billRec{day: 2, id: "ep1", amount: 0.5})
	want := `[{"time":"` + day(1) + `","amount":8.9,"endpointId":"ep1"},{"time":"` + day(1) + `","amount":1,"endpointId":"ep2"},
		{"time":"` + day(2) + `","amount":0.5,"endpointId":"ep1"}]`
	all := strings.Join(DescribeV1().DataCenterIDs, ",")
	tests := []struct {
		name, query, v2query string
		lenient              bool
		dropped              string
	}{
		{name: "serverless billing, never Public Endpoint billing"},
		{name: "endpointId → serverlessId; window copied", query: "endpointId=ep1&bucketSize=week&startTime=2026-06-01T00:00:00Z",
			v2query: "bucketSize=week&serverlessId=ep1&startTime=2026-06-01T00%3A00%3A00Z"},
		{name: "the default grouping and all data centers change nothing", query: "grouping=endpointId&dataCenterId=" + all},
		{name: "empty filters change nothing", query: "imageName=&templateId=&gpuTypeId="},
		{name: "lenient: untranslatable parameters dropped", query: "grouping=podId&dataCenterId=EU-RO-1&gpuTypeId=Tesla%20T4&imageName=img&templateId=t",
			lenient: true, dropped: "grouping,dataCenterId,gpuTypeId,imageName,templateId"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "EndpointBilling", runOpts{query: tc.query, options: Options{Lenient: tc.lenient}},
				step{method: "GET", path: "/v2/billing/serverless", query: tc.v2query, status: 200, body: bill})
			wantStatus(t, res, 200)
			jsonEqual(t, "records", res.Body, want)
			if got := strings.Join(res.Dropped, ","); got != tc.dropped {
				t.Errorf("dropped %q, want %q", got, tc.dropped)
			}
			if f.count("GET", "/v2/billing/endpoints") != 0 {
				t.Error("read Public Endpoint billing")
			}
		})
	}
	for _, q := range []string{"grouping=podId", "grouping=gpuTypeId", "dataCenterId=EU-RO-1,CA-MTL-1", "gpuTypeId=Tesla%20T4", "imageName=img", "templateId=t"} {
		t.Run("strict/"+q, func(t *testing.T) {
			res, _ := run(t, "EndpointBilling", runOpts{query: q})
			wantStatus(t, res, 400)
			name, _, _ := strings.Cut(q, "=")
			wantMessage(t, res, name+":", "V1GW_COMPAT_MODE=lenient")
		})
	}
}

func TestNetworkVolumeBilling(t *testing.T) {
	bill := volumeBilling(
		billRec{day: 1, id: "v1", amount: 0.1, hp: 0}, billRec{day: 1, id: "v2", amount: 0.2, hp: 0.2},
		billRec{day: 2, id: "v1", amount: 0.1}, billRec{day: 2, id: "v2", amount: 0.2, hp: 0.2}, billRec{day: 2, id: "v3", amount: 5.79, hp: 5.79},
	)
	res, _ := run(t, "NetworkVolumeBilling", runOpts{query: "bucketSize=day&endTime=2026-06-03T00:00:00Z&networkVolumeId=ignored"},
		step{method: "GET", path: "/v2/billing/network-volumes", query: "bucketSize=day&endTime=2026-06-03T00%3A00%3A00Z", status: 200, body: bill})
	wantStatus(t, res, 200)
	// 0.1 + 0.2 is 0.3, not 0.30000000000000004.
	jsonEqual(t, "records", res.Body, `[{"time":"`+day(1)+`","amount":0.3,"highPerformanceStorageAmount":0.2},
		{"time":"`+day(2)+`","amount":6.09,"highPerformanceStorageAmount":5.99}]`)

	res, _ = run(t, "NetworkVolumeBilling", runOpts{}, step{method: "GET", path: "/v2/billing/network-volumes", status: 200, body: volumeBilling()})
	jsonEqual(t, "empty", res.Body, `[]`)
	res, _ = run(t, "NetworkVolumeBilling", runOpts{query: "startTime=2026-06-10T00:00:00Z&endTime=2026-06-01T00:00:00Z"},
		step{method: "GET", path: "/v2/billing/network-volumes", query: "*", status: 400, body: problem(400, "startTime must be before endTime")})
	wantStatus(t, res, 400)
	wantMessage(t, res, "startTime must be before endTime")
}
