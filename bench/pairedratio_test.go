package bench

import (
	"math"
	"strings"
	"testing"
)

// A ratio of two cases is the median of their per-round ratios: a round
// where the whole machine was slow moves both cases and cancels, where a
// ratio of medians would set one round's sample against another's.
func TestPairedRatio(t *testing.T) {
	for _, tc := range []struct {
		name   string
		a, b   []float64
		want   float64
		wantOK bool
	}{
		{"one round", []float64{50}, []float64{100}, 0.5, true},
		// Round 2 ran on a slow machine for both cases: each round says
		// 0.5; the medians (60 and 100) would say 0.6.
		{"drift between rounds cancels", []float64{50, 30, 60}, []float64{100, 60, 120}, 0.5, true},
		{"median of the rounds' ratios", []float64{70, 60, 65}, []float64{100, 100, 100}, 0.65, true},
		{"even number of rounds", []float64{1, 2}, []float64{1, 1}, 1.5, true},
		{"a round without a base sample is left out", []float64{50, 99, 60}, []float64{100, 0, 100}, 0.55, true},
		{"unpaired samples: ratio of medians", []float64{50, 60}, []float64{100, 100, 120}, 0.55, true},
		{"nothing to divide by", []float64{1, 2}, []float64{0, 0}, 0, false},
		{"no samples", nil, nil, 0, false},
		{"no base", []float64{1}, nil, 0, false},
	} {
		got, ok := pairedRatio(tc.a, tc.b)
		if ok != tc.wantOK || math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: pairedRatio(%v, %v) = %v, %v; want %v, %v", tc.name, tc.a, tc.b, got, ok, tc.want, tc.wantOK)
		}
	}
}

// The targets and the tables use the paired ratio of the rounds' maximum
// throughput.
func TestTargetsUsePairedRounds(t *testing.T) {
	samples := func(rps ...float64) []Sample {
		s := make([]Sample, len(rps))
		for i, v := range rps {
			s[i] = Sample{RPS: v}
		}
		return s
	}
	// Round 3 ran on a slow machine for both cases (0.86 there, as in
	// round 1); round 2 was slow for the gateway alone. By rounds: 0.86,
	// 0.60, 0.86, median 0.86. Dividing the medians would set round 2's
	// gateway (602) against round 1's bare proxy (1000): 0.60.
	r := &Report{Cases: []*CaseResult{
		{ID: "get/bare", Workload: "get", Server: srvBare, Max: samples(1000, 1000, 700), MaxRPS: 1000},
		{ID: "get/gateway-v1", Workload: "get", Server: srvGateway, Max: samples(860, 602, 602), MaxRPS: 602},
	}}
	found := false
	for _, tr := range r.Targets() {
		if tr.Name == "translated GET /v1/pods/{id} ≥ 0.85× bare proxy throughput" {
			found = true
			if !tr.Known || !tr.Met || tr.Measured != "0.86×" {
				t.Errorf("get target: %+v", tr)
			}
		}
	}
	if !found {
		t.Fatal("no get target")
	}
}

// The GraphQL door's CPU per request is judged against the translated
// v1 list's, round by round.
func TestGraphQLTargetIsTheDoorsCPUAgainstTheV1Lists(t *testing.T) {
	for _, tc := range []struct {
		door []float64
		met  bool
		want string
	}{
		{[]float64{600, 700, 650}, true, "1.40× (medians 650 vs 500 µs)"},
		{[]float64{1200, 1300, 1000}, false, "2.50× (medians 1200 vs 500 µs)"},
	} {
		r := &Report{Options: DefaultOptions(), Cases: []*CaseResult{
			{ID: "list/gateway-v1", Workload: wlList, Server: srvGateway, CPUPerReq: []float64{500, 500, 400}},
			{ID: "graphql/gateway", Workload: wlGraphQL, Server: srvGateway, CPUPerReq: tc.door},
		}}
		found := false
		for _, tr := range r.Targets() {
			if strings.HasPrefix(tr.Name, "GraphQL myself { pods }") {
				found = true
				if !tr.Known || tr.Met != tc.met || tr.Measured != tc.want {
					t.Errorf("door %v: %+v", tc.door, tr)
				}
			}
		}
		if !found {
			t.Fatal("no GraphQL target")
		}
	}
}
