package translate

import (
	"encoding/json"
	"strings"
	"testing"
)

// A stock-out reads like v1's (issue 29 item 4, P3): when no candidate
// could be placed for lack of capacity, v1 answered HTTP 500 with "There are
// no longer any instances available with the requested specifications"
// (stockout.md: cozy-creator/runpod-go-sdk pod_fallback_test.go,
// Buckeyes22/pitwall test_capacity_classification.py), and clients move to
// their next GPU type only on a 5xx carrying that sentence. The gateway
// answers the same, followed by its own detail (the types and data centers
// tried), under "message" and "error" alike.
func TestStockOutIsV1s500WithItsSentence(t *testing.T) {
	const v2Stock = "There are no longer any instances available with the requested specifications. Please refresh and try again."
	sdk := `{"name":"worker-1","imageName":"runpod/pytorch:2","gpuTypeIds":["NVIDIA H200"],"gpuCount":1,"containerDiskInGb":50,"cloudType":"COMMUNITY"}`
	tests := []struct {
		name    string
		body    string
		script  []step
		creates int
		detail  []string // in the message after v1's sentence
	}{
		{name: "Go SDK: one GPU type per request, v2's stock-out 400",
			body: sdk, script: []step{createFail(400, v2Stock)}, creates: 1,
			detail: []string{"NVIDIA H200 in any data center: " + v2Stock}},
		{name: "several candidates, capacity or forbidden each",
			body:    `{"imageName":"img","gpuTypeIds":["NVIDIA A40","NVIDIA L4"],"gpuTypePriority":"custom","dataCenterIds":["EU-RO-1","US-TX-3"]}`,
			script:  []step{createFail(400, "no capacity: 1 x NVIDIA A40 (SECURE) could not be placed in EU-RO-1, US-TX-3"), createFail(403, "pool not allowed")},
			creates: 2,
			detail:  []string{"gpuTypeIds", "NVIDIA A40 in EU-RO-1, US-TX-3: no capacity", "NVIDIA L4 in EU-RO-1, US-TX-3: pool not allowed"}},
		{name: "without gpuTypeIds, the catalog shows nothing available",
			body:   `{"imageName":"img"}`,
			script: []step{gpuCatStep(gpuCatQuery, `{"gpus":[`+gpuEntry(l4, "NONE", true, false, 0.39, 0)+`]}`)},
			detail: []string{"gpuTypeIds: not sent", "none of v1's GPU types available for gpuCount 1 on SECURE cloud"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, "CreatePod", runOpts{body: tc.body}, tc.script...)
			wantStatus(t, res, 500)
			var body struct{ Message, Error string }
			if err := json.Unmarshal(res.Body, &body); err != nil {
				t.Fatal(err)
			}
			if body.Message == "" || body.Error != body.Message {
				t.Errorf("body %s: message and error must carry the same text", res.Body)
			}
			if !strings.HasPrefix(body.Message, V1StockOut+": ") {
				t.Errorf("message %q does not start with v1's sentence", body.Message)
			}
			for _, d := range tc.detail {
				if !strings.Contains(body.Message, d) {
					t.Errorf("message %q lacks %q", body.Message, d)
				}
			}
			// P3: every create got a definite answer; nothing is looked up
			// or tried again, and this 500 is the gateway's own.
			if n := f.count("POST", "/v2/pods"); n != tc.creates {
				t.Errorf("%d creates, want %d", n, tc.creates)
			}
			if f.count("GET", "/v2/pods") != 0 {
				t.Error("looked for a pod after definite refusals")
			}
		})
	}
}

// What is not a stock-out keeps its status: a rule every candidate breaks
// (v2: "if every candidate returns 400, read the last detail as a problem
// with the request"), a 403 alone, and a 5xx from v2, which is a lost reply
// (looked for, never retried: P3), not a stock-out.
func TestWhatIsNotAStockOut(t *testing.T) {
	body := `{"imageName":"img","gpuTypeIds":["NVIDIA A40","NVIDIA L4"],"gpuTypePriority":"custom"}`
	t.Run("a rule every candidate breaks: 400", func(t *testing.T) {
		rule := "globalNetworking requires a data center with global networking"
		res, _ := run(t, "CreatePod", runOpts{body: body}, createFail(400, rule), createFail(400, rule))
		wantStatus(t, res, 400)
		wantMessage(t, res, rule)
	})
	t.Run("forbidden everywhere: 403", func(t *testing.T) {
		res, _ := run(t, "CreatePod", runOpts{body: body}, createFail(403, "pool not allowed"), createFail(403, "pool not allowed"))
		wantStatus(t, res, 403)
	})
	t.Run("capacity, then a 5xx: looked for, not retried, not a stock-out", func(t *testing.T) {
		res, f := run(t, "CreatePod", runOpts{body: body}, createFail(400, "no capacity"), createFail(502, "bad gateway"), lookupStep(`{"pods":[]}`))
		if res.Status != 502 {
			t.Fatalf("status %d, want 502: %s", res.Status, res.Body)
		}
		if strings.Contains(string(res.Body), V1StockOut) {
			t.Errorf("a lost reply answered as a stock-out: %s", res.Body)
		}
		if n := f.count("POST", "/v2/pods"); n != 2 {
			t.Errorf("%d creates, want 2", n)
		}
	})
}

func TestIsCapacityFailure(t *testing.T) {
	for _, c := range []struct {
		detail string
		want   bool
	}{
		{"There are no longer any instances available with the requested specifications. Please refresh and try again.", true},
		{"no capacity: 1 x NVIDIA H200 (SECURE) could not be placed in US-KS-2", true},
		{"create pod: There are no instances currently available.", true},
		{"This machine does not have the resources to deploy your pod. Please try a different machine", true},
		{"create pod: could not find any pods with required specifications", true},
		{"no instances available", true},
		{"globalNetworking requires a data center with global networking", false},
		{"Request validation failed.", false},
	} {
		if got := isCapacityFailure(c.detail); got != c.want {
			t.Errorf("isCapacityFailure(%q) = %v, want %v", c.detail, got, c.want)
		}
	}
}

// A stock-out is a note (stock_out): operators tell it from a fault of the
// gateway's, and see which keys meet shortages.
func TestStockOutIsANote(t *testing.T) {
	res := StockOut("x")
	if len(res.Notes) != 1 || res.Notes[0].Code != CodeStockOut {
		t.Errorf("notes %+v", res.Notes)
	}
}
