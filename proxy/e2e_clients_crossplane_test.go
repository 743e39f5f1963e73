package proxy

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// The Crossplane provider torrescd/provider-runpod (commit 9df1dc1, its
// internal/client/runpod and internal/controller/template), driven as its
// template controller drives v1: Create sends every TemplateInput key
// (readme "", dockerEntrypoint [], env {}, volumeInGb 0, volumeMountPath ""),
// then Observe reads GET /templates/{id}?includeEndpointBoundTemplates=true
// and is ready only when unrepairableExternalState finds every key present
// and templateMatchesInput finds it equal (issue 37 item 3: before, the
// answer omitted readme, dockerEntrypoint, isRunpod, volumeMountPath and
// containerRegistryAuthId, and the controller never became ready). A PATCH
// with the same input must leave it ready.
func TestCrossplaneTemplateControllerBecomesReady(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		const input = `{"name":"worker-xp-0f3c","category":"NVIDIA","imageName":"ghcr.io/acme/worker@sha256:` +
			`0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","isPublic":false,"isServerless":true,` +
			`"containerDiskInGb":50,"dockerEntrypoint":[],"dockerStartCmd":[],"ports":["8000/http"],"readme":"",` +
			`"volumeInGb":0,"volumeMountPath":"","env":{},"containerRegistryAuthId":""}`
		r := e.v1("POST", "/v1/templates", input)
		e.want(r, 200)
		id, _ := r.json(t)["id"].(string)
		observe := func(what string, body []byte) {
			t.Helper()
			var got map[string]json.RawMessage
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			// unrepairableExternalState: every one of these keys present.
			for _, k := range []string{"isPublic", "isRunpod", "isServerless", "containerDiskInGb", "volumeInGb", "dockerEntrypoint",
				"dockerStartCmd", "ports", "env", "readme", "volumeMountPath", "containerRegistryAuthId"} {
				if v, ok := got[k]; !ok || (string(v) == "null" && k != "containerRegistryAuthId") {
					t.Errorf("%s: %s is %s: the controller refuses a rolling PATCH loop and is never ready", what, k, v)
				}
			}
			// templateMatchesInput.
			var tpl struct {
				Name, Category, ImageName, Readme, VolumeMountPath string
				IsPublic, IsRunpod, IsServerless                   bool
				ContainerDiskInGb, VolumeInGb                      int
				DockerEntrypoint, DockerStartCmd, Ports            []string
				Env                                                map[string]string
				ContainerRegistryAuthID                            *string
			}
			if err := json.Unmarshal(body, &tpl); err != nil {
				t.Fatal(err)
			}
			if tpl.Name != "worker-xp-0f3c" || tpl.Category != "NVIDIA" || tpl.IsPublic || tpl.IsRunpod || !tpl.IsServerless ||
				tpl.ContainerDiskInGb != 50 || tpl.VolumeInGb != 0 || tpl.Readme != "" || tpl.VolumeMountPath != "" || len(tpl.Env) != 0 ||
				(tpl.ContainerRegistryAuthID != nil && *tpl.ContainerRegistryAuthID != "") ||
				!slices.Equal(tpl.DockerEntrypoint, []string{}) || !slices.Equal(tpl.DockerStartCmd, []string{}) || !slices.Equal(tpl.Ports, []string{"8000/http"}) {
				t.Errorf("%s: not up to date for the controller: %s", what, body)
			}
		}
		observe("create answer", r.body)
		g := e.v1("GET", "/v1/templates/"+id+"?includeEndpointBoundTemplates=true", "")
		e.want(g, 200)
		observe("Observe", g.body)
		u := e.v1("PATCH", "/v1/templates/"+id, `{"name":"worker-xp-0f3c","imageName":"ghcr.io/acme/worker@sha256:`+
			`0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","isPublic":false,"containerDiskInGb":50,"dockerEntrypoint":[],`+
			`"dockerStartCmd":[],"ports":["8000/http"],"readme":"","volumeInGb":0,"volumeMountPath":"","env":{},"containerRegistryAuthId":""}`)
		e.want(u, 200)
		observe("Update answer", u.body)
		l := e.v1("GET", "/v1/templates?includeEndpointBoundTemplates=true", "")
		e.want(l, 200)
		for _, it := range l.list(t) {
			if it["id"] == id {
				b, _ := json.Marshal(it)
				observe("FindTemplateByName", b)
			}
		}
	})
}

// The same provider's endpoint controller (xp* checks:
// e2e_clients_crossplane_checks_test.go), driven as it drives v1 against
// -demo (the simulator with the demo seed): Create sends its EndpointInput
// and takes the answer as the endpoint only if it passes the client's
// observation check (templateId, version, workers and the template itself,
// issue 37: v1 answered a create with its whole Endpoint schema); then
// Observe reads GET /endpoints/{id}?includeTemplate=true&includeWorkers=true
// and is ready when the endpoint, its template and each worker pass. A
// worker's cost, machine prices and secureCloud come from the GPU catalog
// (list prices; secureCloud only for a type v2 runs in one cloud): with a
// Secure-Cloud-only type the controller becomes ready; with a type offered
// in both clouds v2 does not say which cloud the worker is on (null), and
// the controller refuses exactly that, as it would any worker it cannot
// prove is on Secure Cloud.
func TestCrossplaneEndpointControllerBecomesReady(t *testing.T) {
	for _, tc := range []struct {
		name, gpu, dc string
		maxCostMilli  int
		refused       []string // what Observe refuses; none: ready
	}{
		{name: "a Secure-Cloud-only GPU type: ready", gpu: "NVIDIA L40S", dc: "EU-CZ-1", maxCostMilli: 2000},
		{name: "a GPU type offered in both clouds: the worker's cloud is unknown", gpu: "NVIDIA GeForce RTX 4090", dc: "US-TX-3", maxCostMilli: 2000,
			refused: []string{"worker 0 machine.secureCloud null"}},
		{name: "a worker above the cost bound is refused on its list price", gpu: "NVIDIA L40S", dc: "EU-CZ-1", maxCostMilli: 1500,
			refused: []string{"worker 0 costPerHr 1.9 / adjustedCostPerHr 1.9", "worker 0 machine.costPerHr 1.9 / currentPricePerGpu 1.9"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			underEachReading(t, func(t *testing.T, rd simReading) {
				e := newE2E(t, e2eOpts{sim: rd.apply, seed: true})
				in, b := xpCreateTemplate(t, e, tc.gpu, tc.dc, tc.maxCostMilli)
				c := e.v1("POST", "/v1/endpoints", mustMarshal(t, in))
				e.want(c, 200)
				created, err := xpDecode(c.body)
				if err != nil {
					t.Fatal(err)
				}
				// CreateEndpoint: the answer is the endpoint, not an
				// ambiguous create (which would send the client to its
				// recovery by name, xpRecover).
				if bad := xpValidateObservation(created); len(bad) > 0 || created.str("name") != in.Name || created.str("templateId") != in.TemplateID {
					t.Fatalf("create answer refused (%v): the client would take its ambiguous-create recovery: %s", bad, c.body)
				}
				g := e.v1("GET", "/v1/endpoints/"+created.str("id")+"?includeTemplate=true&includeWorkers=true", "")
				e.want(g, 200)
				ep, _ := xpDecode(g.body)
				if len(ep.list("workers")) != 1 {
					t.Fatalf("workers %s: workersMin 1 starts one", ep["workers"])
				}
				if bad := xpObserve(in, ep, b); !slices.Equal(bad, tc.refused) {
					t.Errorf("Observe refuses %q, want %q\n%s", bad, tc.refused, g.body)
				}
			})
		})
	}
}

// The controller's recovery from an ambiguous create (a lost answer): it
// lists GET /endpoints?includeTemplate=true&includeWorkers=true, refuses the
// whole list if any endpoint fails its observation check, finds its
// endpoint by name, reasserts it with a PATCH and reads it back. On an
// account whose endpoints were all made through the gateway, this reaches
// ready. In -demo the seeded endpoint was made outside the gateway: v2
// keeps no link from an endpoint to its template, so its templateId is
// null (the honest answer, P8), and the client refuses every list that
// contains it: recovery cannot succeed there, whatever the gateway answers
// for the endpoint being recovered.
func TestCrossplaneEndpointRecoveryByName(t *testing.T) {
	for _, tc := range []struct {
		name    string
		seed    bool
		refused bool
	}{
		{"an account whose endpoints were made through the gateway: recovered, ready", false, false},
		{"-demo: the seeded endpoint (made outside the gateway) has no templateId, and the client refuses the list", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			underEachReading(t, func(t *testing.T, rd simReading) {
				e := newE2E(t, e2eOpts{sim: rd.apply, seed: tc.seed})
				in, b := xpCreateTemplate(t, e, "NVIDIA L40S", "EU-CZ-1", 2000)
				e.want(e.v1("POST", "/v1/endpoints", mustMarshal(t, in)), 200) // its answer lost
				l := e.v1("GET", "/v1/endpoints?includeTemplate=true&includeWorkers=true", "")
				e.want(l, 200)
				var list []xpObj
				if err := json.Unmarshal(l.body, &list); err != nil {
					t.Fatal(err)
				}
				var found xpObj
				refused := false
				for _, ep := range list {
					if bad := xpValidateObservation(ep); len(bad) > 0 {
						refused = true
						if !tc.refused {
							t.Errorf("endpoint %s refused: %v", ep.str("id"), bad)
						}
					}
					if ep.str("name") == in.Name {
						found = ep
					}
				}
				if refused != tc.refused {
					t.Fatalf("list refused %v, want %v: %s", refused, tc.refused, l.body)
				}
				if tc.refused {
					return
				}
				if found == nil {
					t.Fatal("not found by name")
				}
				if bad := xpObserve(in, found, b); len(bad) > 0 {
					t.Fatalf("the found endpoint refused: %q", bad)
				}
				// Reassert with an idempotent PATCH (its EndpointUpdateInput:
				// no computeType), then read it back, as UpdateEndpoint does
				// when the PATCH answer lacks workers or template.
				upd := in
				upd.ComputeType = ""
				body := strings.Replace(mustMarshal(t, upd), `"computeType":"",`, "", 1)
				u := e.v1("PATCH", "/v1/endpoints/"+found.str("id"), body)
				e.want(u, 200)
				e.clock.advance(10 * time.Minute) // a template rollout reaches the worker
				g := e.v1("GET", "/v1/endpoints/"+found.str("id")+"?includeTemplate=true&includeWorkers=true", "")
				e.want(g, 200)
				ep, _ := xpDecode(g.body)
				if bad := xpObserve(in, ep, b); len(bad) > 0 {
					t.Errorf("after the reassertion Observe refuses %q\n%s", bad, g.body)
				}
			})
		})
	}
}

// xpCreateTemplate makes the serverless template as the provider's
// template controller does, and returns the endpoint controller's input
// for it and its binding.
func xpCreateTemplate(t *testing.T, e *e2e, gpu, dc string, maxCostMilli int) (xpEndpointInput, xpTemplateBinding) {
	t.Helper()
	const image = "ghcr.io/acme/w@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	r := e.v1("POST", "/v1/templates", `{"name":"worker-xp-1","category":"NVIDIA","imageName":"`+image+`","isPublic":false,"isServerless":true,"containerDiskInGb":50,`+
		`"dockerEntrypoint":[],"dockerStartCmd":[],"ports":["8000/http"],"readme":"","volumeInGb":0,"volumeMountPath":"","env":{},"containerRegistryAuthId":""}`)
	e.want(r, 200)
	tpl, _ := r.json(t)["id"].(string)
	in := xpEndpointInput{Name: "llm-xp-0f3c9a", TemplateID: tpl, ComputeType: "GPU", GPUCount: 1, GPUTypeIDs: []string{gpu}, DataCenterIDs: []string{dc},
		WorkersMin: 1, WorkersMax: 1, IdleTimeout: 5, ScalerType: "QUEUE_DELAY", ScalerValue: 4, ExecutionTimeoutMs: 600000}
	b := xpTemplateBinding{id: tpl, name: "worker-xp-1", image: image, containerDiskGB: 50, entrypoint: []string{}, startCmd: []string{},
		ports: []string{"8000/http"}, maxWorkerCostMilliUSDh: maxCostMilli}
	return in, b
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
