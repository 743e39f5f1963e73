package proxy

import (
	"net/http"
	"strings"
	"testing"
)

func TestDuplicateKeysAreFoundInEveryObject(t *testing.T) {
	for _, c := range []struct{ body, dup string }{
		{`{"query":"{ a }","query":"{ b }"}`, "query"},
		{`{"query":"{ a }","variables":{"input":{"name":"a","name":"b"}}}`, "name"},
		{`{"query":"{ a }","variables":{"l":[{"x":1},{"x":2,"x":3}]}}`, "x"},
		{`{"query":"{ a }","variables":{"a":{"x":1},"b":{"x":2}}}`, ""},
		{`{"a":[1,{"b":2},3],"b":{"a":[]},"c":"a"}`, ""},
		{`{"query":`, ""}, // not JSON: the decoder says so
	} {
		got, _ := duplicateKey([]byte(c.body))
		if got != c.dup {
			t.Errorf("%s: duplicate %q, want %q", c.body, got, c.dup)
		}
	}
}

func TestAGraphQLBodyWithTwoQueryKeysIsRefused(t *testing.T) {
	gw, v2calls := meteredDoor(t, 60)
	body := `{"query":"{ myself { id } }","query":"mutation { podTerminate(input: {podId: \"x\"}) }"}`
	req, _ := http.NewRequest(http.MethodPost, gw+"/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer k1")
	resp, m := doGraphQL(t, req)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(m["errors"].([]any)[0].(map[string]any)["message"].(string), `"query" twice`) {
		t.Errorf("status %d %v", resp.StatusCode, m)
	}
	if v2calls.Load() != 0 {
		t.Errorf("%d v2 calls", v2calls.Load())
	}
}
