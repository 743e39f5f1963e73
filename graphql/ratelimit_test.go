package graphql

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
)

// limitedCaller answers every call with v2's 429, counting them.
type limitedCaller struct{ calls int }

func (c *limitedCaller) Call(_ context.Context, _ translate.V2Call) (*translate.V2Answer, error) {
	c.calls++
	return &translate.V2Answer{Status: http.StatusTooManyRequests,
		Header: http.Header{"Content-Type": {"application/json"}, "Retry-After": {"17"}},
		Body:   []byte(`{"error":"rate limit exceeded"}`)}, nil
}

func TestAV2RateLimitStopsTheRestOfTheDocument(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	c := &limitedCaller{}
	resp := d.Execute(context.Background(), &Env{Caller: c, KeyID: "k"},
		Request{Query: "{ a: myself { pods { id } } b: myself { pods { id } } c: myself { endpoints { id } } }"})
	if c.calls != 1 {
		t.Errorf("%d v2 calls after v2 answered 429, want 1", c.calls)
	}
	body := string(resp.Body)
	if strings.Count(body, `"code":"RATE_LIMITED"`) != 3 || !strings.Contains(body, "(b was not run)") || !strings.Contains(body, "(c was not run)") {
		t.Errorf("answer %s", body)
	}
	if resp.RetryAfter != "17" {
		t.Errorf("Retry-After %q", resp.RetryAfter)
	}
}
