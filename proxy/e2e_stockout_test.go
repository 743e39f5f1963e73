package proxy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
)

// A stock-out end to end (issue 29 item 4): v2 refuses the create for
// capacity (400); the client gets v1's 500 with v1's sentence under
// "message" and "error", the gateway's detail after it, exactly one create
// per candidate and no pod; and since that 500 is the gateway's own, not a
// 5xx of v2's, the circuit breaker does not count it: reads go on after
// more stock-outs than breaker_failures.
func TestE2EStockOutReadsLikeV1(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		// cozy-creator/runpod-go-sdk's CreatePodWithFallback: one POST per GPU type.
		body := `{"name":"worker-1","imageName":"runpod/pytorch:2","gpuTypeIds":["NVIDIA H200"],"gpuCount":1,"containerDiskInGb":50,"cloudType":"SECURE"}`
		for i := 0; i < 7; i++ {
			mark := e.simCreates()
			r := e.v1("POST", "/v1/pods", body)
			e.want(r, 500)
			var got struct{ Message, Error string }
			if err := json.Unmarshal(r.body, &got); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(got.Message, translate.V1StockOut+": ") || got.Error != got.Message || !strings.Contains(got.Message, "NVIDIA H200 in any data center") {
				t.Fatalf("stock-out body %s", r.body)
			}
			if n := e.simCreates() - mark; n != 1 {
				t.Fatalf("%d creates for one candidate", n)
			}
		}
		if pods := e.simPods("worker-1"); len(pods) != 0 {
			t.Errorf("a pod was created: %v", pods)
		}
		e.want(e.v1("GET", "/v1/pods", ""), 200)
	})
}
