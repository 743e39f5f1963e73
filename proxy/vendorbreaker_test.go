package proxy

import (
	"net/http"
	"testing"
)

func TestAFailingVendorGraphQLLeavesV1V2AndReadinessAsTheyWere(t *testing.T) {
	for _, mode := range []string{"passthrough", "auto"} {
		t.Run(mode, func(t *testing.T) {
			w := newDoorWorld(t, mode)
			w.vendor.Store(http.StatusInternalServerError)
			for range 8 {
				w.post(t, doorPods) // keyed; five 500s open the vendor's breaker
			}
			if n := w.vendorN.Load(); n > 5 {
				t.Errorf("the vendor's GraphQL was called %d times: its breaker did not open", n)
			}
			if resp, _ := w.post(t, doorPods); resp.StatusCode != http.StatusServiceUnavailable {
				t.Errorf("/graphql with the vendor's breaker open: %d, want 503", resp.StatusCode)
			}
			for _, path := range []string{"/v1/pods", "/v2/pods"} {
				req, _ := http.NewRequest(http.MethodGet, w.gw+path, nil)
				req.Header.Set("Authorization", "Bearer k1")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Errorf("%s: %d after the vendor's GraphQL failed, want 200", path, resp.StatusCode)
				}
			}
			resp, err := http.Get(w.admin + "/readyz")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("/readyz %d after the vendor's GraphQL failed, want 200", resp.StatusCode)
			}
		})
	}
}
