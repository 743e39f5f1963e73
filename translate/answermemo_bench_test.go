package translate

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// GET /v1/pods?includeMachine=true on the mixed list: the plan reads the
// GPU catalog for the pods' machine. "shared" hands every request the same
// catalog answer, as the proxy's catalog cache does (decoded once, then
// read from the answer's memo); "fresh" a new answer per request (decoded
// every time: the cost before the memo, and that of an uncached catalog).
// The catalog is bench/canned's one type, or 40 types as v2's real one
// has about.
func BenchmarkPodListPlanMixedMachine(b *testing.B) {
	list := benchMixedList(b)
	for _, cat := range []struct {
		name string
		body []byte
	}{
		{"1type", []byte(benchCatalogOf(1))},
		{"40types", []byte(benchCatalogOf(40))},
	} {
		for _, fresh := range []bool{false, true} {
			name := cat.name + "/shared"
			if fresh {
				name = cat.name + "/fresh"
			}
			b.Run(name, func(b *testing.B) {
				c := &machineCaller{list: list, catalog: &V2Answer{Status: 200, Header: jsonHeader, Body: cat.body}, fresh: fresh}
				op, _ := Lookup("ListPods")
				req := &Request{Op: op, Query: url.Values{"includeMachine": {"true"}}}
				ctx := context.Background()
				if res := op.Plan(ctx, req, c); res.Status != 200 || !bytes.Contains(res.Body, []byte(`"gpuDisplayName":"RTX 4090"`)) {
					b.Fatalf("%d %.300s", res.Status, res.Body)
				}
				b.SetBytes(int64(len(list)))
				b.ReportAllocs()
				for b.Loop() {
					res := op.Plan(ctx, req, c)
					if res.Status != 200 {
						b.Fatal(res.Status)
					}
					ReleaseBody(res.Body)
				}
			})
		}
	}
}

// machineCaller answers GET /v2/pods with list and GET /v2/catalog/gpus
// with catalog (fresh: a new answer of the same body each time).
type machineCaller struct {
	list    []byte
	catalog *V2Answer
	fresh   bool
}

func (c *machineCaller) Call(_ context.Context, call V2Call) (*V2Answer, error) {
	switch {
	case call.Path == "/v2/pods":
		return &V2Answer{Status: 200, Header: jsonHeader, Body: c.list}, nil
	case call.Path == "/v2/catalog/gpus" && c.fresh:
		return &V2Answer{Status: 200, Header: jsonHeader, Body: c.catalog.Body}, nil
	case call.Path == "/v2/catalog/gpus":
		return c.catalog, nil
	}
	return nil, fmt.Errorf("no %s %s", call.Method, call.Path)
}

// benchCatalogOf is a v2 GPU catalog of n types, entries as bench/canned's:
// the mixed list's four types first (RTX 4090 alone for n = 1), then v1's
// other types in order.
func benchCatalogOf(n int) string {
	ids := []string{"NVIDIA GeForce RTX 4090", "NVIDIA A100 80GB PCIe", "NVIDIA L40S", "NVIDIA RTX A4000"}
	for _, id := range sortedKeys(v1GPUTypeIDs) {
		if !strings.Contains(strings.Join(ids, "\n"), id) {
			ids = append(ids, id)
		}
	}
	for i := len(ids); i < n; i++ {
		ids = append(ids, fmt.Sprintf("NVIDIA Bench %d", i))
	}
	var sb strings.Builder
	sb.WriteString(`{"gpus":[`)
	for i, id := range ids[:n] {
		if i > 0 {
			sb.WriteByte(',')
		}
		name := strings.TrimPrefix(strings.TrimPrefix(id, "NVIDIA "), "GeForce ")
		fmt.Fprintf(&sb, `{"id":%q,"name":%q,"pool":"ADA_24","manufacturer":"NVIDIA","memory":24,"secure":true,"community":true,`+
			`"price":{"secure":0.69,"community":0.34,"serverless":1.1},"maxCount":{"secure":8,"community":4},"availability":"HIGH",`+
			`"dataCenters":[{"id":"US-KS-2","name":"US Kansas 2","availability":"HIGH"},{"id":"US-TX-3","name":"US Texas 3","availability":"HIGH"}],`+
			`"cudaVersions":[{"version":"12.8","available":true},{"version":"13.0","available":true}]}`, id, name)
	}
	sb.WriteString(`]}`)
	return sb.String()
}
