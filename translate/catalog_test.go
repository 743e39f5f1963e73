package translate

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestGPUTypesOfPools(t *testing.T) {
	var cat v2GPUCatalog
	if err := json.Unmarshal([]byte(poolCatalog), &cat); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pools, excluded []string
		want            string
	}{
		{[]string{"ADA_24"}, nil, "[NVIDIA GeForce RTX 4090 NVIDIA L4]"},
		{[]string{"ADA_24", "AMPERE_48"}, []string{"NVIDIA L4", " NVIDIA A40"}, "[NVIDIA GeForce RTX 4090 NVIDIA RTX A6000]"},
		{[]string{"AMPERE_48"}, []string{"NVIDIA A40", "NVIDIA RTX A6000"}, "[]"},
		{[]string{"NO_SUCH_POOL"}, nil, "[]"},
		{nil, nil, "[]"},
	} {
		if got := fmt.Sprint(GPUTypesOfPools(cat.GPUs, tc.pools, tc.excluded)); got != tc.want {
			t.Errorf("pools %v excluded %v: %s, want %s", tc.pools, tc.excluded, got, tc.want)
		}
	}
	if !IsV1GPUType("NVIDIA A40") || IsV1GPUType("NVIDIA A40 ") || IsV1GPUType("ADA_24") {
		t.Error("IsV1GPUType")
	}
}
