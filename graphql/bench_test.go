package graphql

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/bench/canned"
	"github.com/v1gateway/v1gateway/translate"
)

// The door's cost beside the v1 list's (docs/design.md §10): runpod-python's
// get_pods document (myself { pods { ... } }) over bench/canned's 100 mixed
// pods, against translate's BenchmarkPodListPlanStreamedMixed on the same
// list (callgrind: bench/callgrind.sh, or go test -bench).

// cannedCaller answers as make bench's upstream does (bench/canned): the
// pod list, and the GPU catalog the pods' machine.gpuDisplayName is read
// from — one answer object per catalog (catalogAnswers), as the proxy's
// catalog cache hands every request the same one.
type cannedCaller struct{ b *canned.Bodies }

var catalogAnswers sync.Map // *canned.Bodies → its GET /v2/catalog/gpus answer

func (c cannedCaller) Call(_ context.Context, call translate.V2Call) (*translate.V2Answer, error) {
	a, ok := c.b.Route(call.Method, call.Path)
	if !ok {
		return nil, fmt.Errorf("the canned upstream has no %s %s", call.Method, call.Path)
	}
	if call.Path == "/v2/catalog/gpus" {
		if kept, ok := catalogAnswers.Load(c.b); ok {
			return kept.(*translate.V2Answer), nil
		}
		kept, _ := catalogAnswers.LoadOrStore(c.b, &translate.V2Answer{Status: a.Status, Header: http.Header{"Content-Type": {"application/json"}}, Body: a.Body})
		return kept.(*translate.V2Answer), nil
	}
	return &translate.V2Answer{Status: a.Status, Header: http.Header{"Content-Type": {"application/json"}}, Body: a.Body}, nil
}

// BenchmarkGetPods100Mixed is the door executing runpod-python's get_pods
// against a caller serving the 100 mixed pods (canned.Mixed(100), the list
// of translate's BenchmarkPodListPlanStreamedMixed).
func BenchmarkGetPods100Mixed(b *testing.B) {
	bodies := canned.New(100)
	body := bodies.List
	d, err := New()
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	env := &Env{Caller: cannedCaller{bodies}, Options: translate.Options{Now: func() time.Time { return now }}, KeyID: "key-bench"}
	req := Request{Query: clientDocument(b, "runpod-python/get_pods.graphql")}
	ctx := context.Background()
	if resp := d.Execute(ctx, env, req); len(resp.Body) < len(body)/4 {
		b.Fatalf("answer %.300s", resp.Body)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		// The body goes back to its pool once written, as the proxy does.
		ReleaseBody(d.Execute(ctx, env, req).Body)
	}
}
