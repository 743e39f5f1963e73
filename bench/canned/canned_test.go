package canned

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/internal/speccheck"
)

// Every canned answer is a valid v2 answer, and the request bodies the
// benchmark sends are valid v1 / v2 requests.
func TestCannedAnswersFollowTheContracts(t *testing.T) {
	v2 := speccheck.LoadForTest(t, "v2.openapi.json")
	v1 := speccheck.LoadForTest(t, "v1.openapi.json")
	b := New(DefaultPods)
	srv := httptest.NewServer(b.Handler())
	defer srv.Close()
	cases := []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/v2/pods", "", 200},
		{"GET", "/v2/pods/" + PodID, "", 200},
		{"POST", "/v2/pods", V2CreateBody, 201},
		{"GET", "/v2/catalog/gpus", "", 200},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
			req.Header.Set("Authorization", "Bearer "+Token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, c.status)
			}
			if err := v2.ValidateResponse(c.method, c.path, resp.StatusCode, resp.Header, body); err != nil {
				t.Fatalf("breaks the v2 contract: %v", err)
			}
			// The in-process transport answers the same.
			tr, _ := http.NewRequest(c.method, "http://upstream"+c.path, strings.NewReader(c.body))
			r2, err := Transport{b}.RoundTrip(tr)
			if err != nil {
				t.Fatal(err)
			}
			b2, _ := io.ReadAll(r2.Body)
			if r2.StatusCode != resp.StatusCode || string(b2) != string(body) || r2.Header.Get("Content-Type") != resp.Header.Get("Content-Type") {
				t.Fatalf("Transport answers %d %q, Handler %d", r2.StatusCode, b2[:min(len(b2), 80)], resp.StatusCode)
			}
		})
	}
	if err := v2.ValidateRequest("POST", "/v2/pods", http.Header{"Content-Type": {"application/json"}}, []byte(V2CreateBody)); err != nil {
		t.Errorf("V2CreateBody: %v", err)
	}
	if err := v1.ValidateRequest("POST", "/v1/pods", http.Header{"Content-Type": {"application/json"}}, []byte(CreateBody)); err != nil {
		t.Errorf("CreateBody: %v", err)
	}
}

// Both kinds of list are valid v2 lists; New answers the mixed one, and
// an unknown kind is refused.
func TestListKinds(t *testing.T) {
	v2 := speccheck.LoadForTest(t, "v2.openapi.json")
	for _, kind := range []string{MixedList, PlainList} {
		b, err := NewList(DefaultPods, kind)
		if err != nil {
			t.Fatal(err)
		}
		if err := v2.ValidateResponse("GET", "/v2/pods", 200, http.Header{"Content-Type": {"application/json"}}, b.List); err != nil {
			t.Errorf("%s list breaks the v2 contract: %v", kind, err)
		}
	}
	if !bytes.Equal(New(DefaultPods).List, Mixed(DefaultPods)) {
		t.Error("New's list is not the mixed list")
	}
	if _, err := NewList(1, "uniform"); err == nil || !strings.Contains(err.Error(), `"uniform"`) {
		t.Errorf("unknown kind: %v", err)
	}
}

func TestListHasDistinctPods(t *testing.T) {
	for _, kind := range []string{MixedList, PlainList} {
		t.Run(kind, func(t *testing.T) { testListHasDistinctPods(t, kind) })
	}
}

func testListHasDistinctPods(t *testing.T, kind string) {
	b, _ := NewList(DefaultPods, kind)
	var list struct {
		Pods []struct {
			ID string `json:"id"`
		} `json:"pods"`
	}
	if err := json.Unmarshal(b.List, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Pods) != DefaultPods {
		t.Fatalf("%d pods", len(list.Pods))
	}
	seen := map[string]bool{}
	for _, p := range list.Pods {
		if len(p.ID) != 14 || seen[p.ID] {
			t.Fatalf("bad or repeated id %q", p.ID)
		}
		seen[p.ID] = true
	}
	if len(b.List) < 50_000 {
		t.Errorf("list is only %d bytes: the benchmark wants a realistic ~1 KB per pod", len(b.List))
	}
	t.Logf("list: %d bytes, pod: %d bytes", len(b.List), len(b.Pod))
}

func TestUnknownRoute404(t *testing.T) {
	rec := httptest.NewRecorder()
	New(1).Handler().ServeHTTP(rec, httptest.NewRequest("DELETE", "/v2/pods/x", nil))
	if rec.Code != 404 {
		t.Fatalf("status %d", rec.Code)
	}
}

// The mixed list is a valid v2 pod list of about the independent
// measurement's size, and translate's benchmark input is a copy of it.
func TestMixedListFollowsTheContract(t *testing.T) {
	v2 := speccheck.LoadForTest(t, "v2.openapi.json")
	body := Mixed(100)
	if err := v2.ValidateResponse("GET", "/v2/pods", 200, http.Header{"Content-Type": {"application/json"}}, body); err != nil {
		t.Fatalf("breaks the v2 contract: %v", err)
	}
	var list struct {
		Pods []struct {
			Args string `json:"args"`
		} `json:"pods"`
	}
	if err := json.Unmarshal(body, &list); err != nil || len(list.Pods) != 100 {
		t.Fatalf("%d pods, %v", len(list.Pods), err)
	}
	quoted := 0
	for _, p := range list.Pods {
		if strings.ContainsAny(p.Args, `'"\`) {
			quoted++
		}
	}
	if quoted < 60 {
		t.Errorf("%d pods with quotes or escapes in args, want most", quoted)
	}
	t.Logf("%d bytes, %d pods with quoted args", len(body), quoted)
	file, err := os.ReadFile("../../podjson/testdata/podlistmixed100.json")
	if err != nil || !bytes.Equal(file, body) {
		t.Errorf("podjson/testdata/podlistmixed100.json is not Mixed(100) (%v): regenerate it", err)
	}
}

// The GraphQL document the benchmark sends is runpod-python's, as the
// GraphQL door's tests have it.
func TestGraphQLGetPodsIsRunpodPythonsDocument(t *testing.T) {
	b, err := os.ReadFile("../../graphql/testdata/clients/runpod-python/get_pods.graphql")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != GraphQLGetPods {
		t.Errorf("GraphQLGetPods differs from graphql/testdata/clients/runpod-python/get_pods.graphql")
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(GraphQLGetPodsBody), &body); err != nil || len(body) != 1 || body["query"] != GraphQLGetPods {
		t.Errorf("GraphQLGetPodsBody %q", GraphQLGetPodsBody)
	}
}
