package translate

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
)

// A null passes the v1 contract check only at a key that V1Nulls lists for
// the v1 schema of the object that holds it (issue 37): a template, a pod,
// an endpoint, the template and the workers of an endpoint. Each answer as
// the gateway gives it passes (run checks it); then every key of the
// object that V1Nulls lists for another schema only is set to null — it
// must fail — and every key listed for its own schema — it must pass.
func TestV1NullsPassOnlyOnTheirOwnSchema(t *testing.T) {
	v1, _ := loadSpecs(t)
	if v1 == nil {
		t.Skip("no v1 OpenAPI document")
	}
	workers := `{"workers":[{"id":"w1","status":"IDLE","isStale":false,"version":2,"gpuCount":1,"image":"runpod/worker:1","uptimeSeconds":5,
		"gpuTypeId":"NVIDIA GeForce RTX 4090","dataCenterId":"US-KS-2","startedAt":"2026-03-13T20:01:00Z"}],
		"summary":{"running":0,"idle":1,"initializing":0,"throttled":0,"unhealthy":0,"total":1},"endpointVersion":2}`
	tplAnswer, _ := run(t, "GetTemplate", runOpts{params: map[string]string{"templateId": "t1"}},
		step{method: "GET", path: "/v2/templates/t1", status: 200, body: tpl("t1")})
	podAnswer, _ := run(t, "GetPod", runOpts{params: map[string]string{"podId": "p1"}, query: "includeNetworkVolume=true"},
		step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1")})
	epAnswer, _ := run(t, "GetEndpoint", runOpts{params: map[string]string{"endpointId": "e1"}, query: "includeTemplate=true&includeWorkers=true"},
		epGetStep("e1", endpoint("e1")), catalogStep(), step{method: "GET", path: "/v2/serverless/e1/workers", status: 200, body: workers})
	cpuAnswer, _ := run(t, "GetEndpoint", runOpts{params: map[string]string{"endpointId": "e1"}},
		epGetStep("e1", endpoint("e1", cpuEndpoint)), releasesStep("e1", 3))

	for _, tc := range []struct {
		name, schema, path string
		body               []byte
		at                 func(m map[string]any) map[string]any // the object of that schema in the answer
	}{
		{"template", "Template", "/v1/templates/t1", tplAnswer.Body, nil},
		{"pod", "Pod", "/v1/pods/p1", podAnswer.Body, nil},
		{"endpoint", "Endpoint", "/v1/endpoints/e1", epAnswer.Body, nil},
		{"CPU endpoint", "Endpoint", "/v1/endpoints/e1", cpuAnswer.Body, nil},
		{"an endpoint's template", "Template", "/v1/endpoints/e1", epAnswer.Body, func(m map[string]any) map[string]any {
			o, _ := m["template"].(map[string]any)
			return o
		}},
		{"an endpoint's worker", "Pod", "/v1/endpoints/e1", epAnswer.Body, func(m map[string]any) map[string]any {
			ws, _ := m["workers"].([]any)
			if len(ws) == 0 {
				return nil
			}
			o, _ := ws[0].(map[string]any)
			return o
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			props := v1SchemaKeys(t, tc.schema)
			own := V1Nulls[tc.schema]
			var refused []string
			for _, k := range props {
				other := false
				for s, fs := range V1Nulls {
					if s != tc.schema && slices.Contains(fs, k) {
						other = true
					}
				}
				if !other && !slices.Contains(own, k) {
					continue
				}
				var m map[string]any
				if err := json.Unmarshal(tc.body, &m); err != nil {
					t.Fatal(err)
				}
				obj := m
				if tc.at != nil {
					obj = tc.at(m)
				}
				if obj == nil {
					t.Fatalf("no %s in %s", tc.schema, tc.body)
				}
				if _, ok := obj[k]; !ok {
					t.Errorf("%s answers no %s", tc.name, k)
					continue
				}
				obj[k] = nil
				b, _ := json.Marshal(m)
				err := v1.ValidateResponse("GET", tc.path, 200, http.Header{"Content-Type": {"application/json"}}, b)
				switch {
				case slices.Contains(own, k) && err != nil:
					t.Errorf("%s: %s: null (listed for %s) fails: %v", tc.name, k, tc.schema, err)
				case !slices.Contains(own, k) && err == nil:
					t.Errorf("%s: %s: null (listed for another schema only) passes", tc.name, k)
				case !slices.Contains(own, k):
					refused = append(refused, k)
				}
			}
			if len(refused) == 0 {
				t.Error("no null of another schema tried")
			}
			t.Logf("refused: %v", refused)
		})
	}
}

// Every key of v1's NetworkVolume and ContainerRegistryAuth is in every
// answer that gives one (issue 37), none of them null: v2 has each.
func TestVolumeAndRegistryAnswersHaveEveryV1Key(t *testing.T) {
	if v1, _ := loadSpecs(t); v1 == nil {
		t.Skip("no v1 OpenAPI document")
	}
	for _, tc := range []struct {
		op, schema string
		o          runOpts
		script     []step
	}{
		{"CreateNetworkVolume", "NetworkVolume", runOpts{body: `{"name":"data","size":100,"dataCenterId":"EU-RO-1"}`},
			[]step{{method: "POST", path: "/v2/network-volumes", status: 201, body: v2Volume("vol1", 100)}}},
		{"GetNetworkVolume", "NetworkVolume", runOpts{params: volParams},
			[]step{{method: "GET", path: "/v2/network-volumes/vol1", status: 200, body: v2Volume("vol1", 100)}}},
		{"ListNetworkVolumes", "NetworkVolume", runOpts{},
			[]step{{method: "GET", path: "/v2/network-volumes", status: 200, body: `{"networkVolumes":[` + v2Volume("vol1", 100) + `]}`}}},
		{"UpdateNetworkVolume", "NetworkVolume", runOpts{params: volParams, body: `{"name":"new"}`},
			[]step{{method: "PATCH", path: "/v2/network-volumes/vol1", status: 200, body: v2Volume("vol1", 100)}}},
		{"CreateContainerRegistryAuth", "ContainerRegistryAuth", runOpts{body: `{"name":"hub","username":"me","password":"p"}`},
			[]step{{method: "POST", path: "/v2/registries", status: 201, body: `{"id":"reg1","name":"hub"}`}}},
		{"GetContainerRegistryAuth", "ContainerRegistryAuth", runOpts{params: regParams},
			[]step{{method: "GET", path: "/v2/registries/reg1", status: 200, body: `{"id":"reg1","name":"hub"}`}}},
		{"ListContainerRegistryAuths", "ContainerRegistryAuth", runOpts{},
			[]step{{method: "GET", path: "/v2/registries", status: 200, body: `{"registries":[{"id":"reg1","name":"hub"}]}`}}},
	} {
		t.Run(tc.op, func(t *testing.T) {
			res, _ := run(t, tc.op, tc.o, tc.script...)
			wantStatus(t, res, 200)
			var objs []map[string]json.RawMessage
			if res.Body[0] == '[' {
				_ = json.Unmarshal(res.Body, &objs)
			} else {
				var o map[string]json.RawMessage
				_ = json.Unmarshal(res.Body, &o)
				objs = append(objs, o)
			}
			if len(objs) == 0 {
				t.Fatalf("no object in %s", res.Body)
			}
			for _, k := range v1SchemaKeys(t, tc.schema) {
				if v, ok := objs[0][k]; !ok || string(v) == "null" {
					t.Errorf("%s answers %s as %s", tc.op, k, v)
				}
			}
			if len(V1Nulls[tc.schema]) != 0 {
				t.Errorf("V1Nulls lists %v for %s", V1Nulls[tc.schema], tc.schema)
			}
		})
	}
}
