package v2sim

import (
	"fmt"
	"testing"
	"time"
)

// Contract tests of the readings (Options.EndpointTemplate, PodTemplate,
// DataCenters) and of the stale references that deleting a credential or a
// volume used to leave behind. Each reading is tested against the words of
// the v2 document it implements.

func TestAnEndpointsBoundTemplateDependsOnTheReading(t *testing.T) {
	for _, reading := range []EndpointTemplate{"", EndpointTemplateCopy, EndpointTemplateCaller} {
		t.Run(fmt.Sprintf("%q", reading), func(t *testing.T) {
			s, _ := newTestServer(Options{EndpointTemplate: reading})
			tpl := str(obj(t, do(t, s, "POST", "/v2/templates", map[string]any{"name": "w", "image": "w:1", "serverless": true})), "id")
			e1 := str(createEndpointT(t, s, map[string]any{"templateId": tpl, "image": nil}), "id")
			e2 := str(createEndpointT(t, s, map[string]any{"templateId": tpl, "image": nil}), "id")
			owned := func() map[string]map[string]any {
				out := map[string]map[string]any{}
				for _, x := range list(t, do(t, s, "GET", "/v2/templates", nil), "templates") {
					out[str(x, "id")] = x
				}
				return out
			}

			if reading == EndpointTemplateCaller {
				// The caller's template is bound to both endpoints.
				if n := len(owned()); n != 1 {
					t.Fatalf("%d owned templates, want only the caller's", n)
				}
				expectProblem(t, do(t, s, "DELETE", "/v2/templates/"+tpl, nil), 400, "bound to serverless endpoint "+e1)
				expectStatus(t, do(t, s, "DELETE", "/v2/serverless/"+e1, nil), 204)
				expectProblem(t, do(t, s, "GET", "/v2/templates/"+tpl, nil), 404)
				expectProblem(t, do(t, s, "POST", "/v2/serverless", endpointBody(map[string]any{"templateId": tpl, "image": nil})), 404)
				expectStatus(t, do(t, s, "DELETE", "/v2/serverless/"+e2, nil), 204)
				return
			}

			// Copy (the default): "resolved at create time … Later template
			// edits do not affect the endpoint": each endpoint has its own
			// bound template; the caller's is only read.
			tpls := owned()
			if len(tpls) != 3 {
				t.Fatalf("%d owned templates, want the caller's and one bound template per endpoint: %v", len(tpls), tpls)
			}
			var bound []string
			for id, x := range tpls {
				if id != tpl {
					bound = append(bound, id)
					if x["image"] != "w:1" || x["serverless"] != true {
						t.Errorf("bound template %v", x)
					}
				}
			}
			expectStatus(t, do(t, s, "PATCH", "/v2/templates/"+tpl, map[string]any{"image": "w:2"}), 200)
			if img := obj(t, do(t, s, "GET", "/v2/serverless/"+e1, nil))["image"]; img != "w:1" {
				t.Errorf("endpoint image %v after a template edit", img)
			}
			// A bound template cannot be deleted while its endpoint exists.
			expectProblem(t, do(t, s, "DELETE", "/v2/templates/"+bound[0], nil), 400, "bound to serverless endpoint")
			// Deleting an endpoint deletes its bound template, not the caller's.
			expectStatus(t, do(t, s, "DELETE", "/v2/serverless/"+e1, nil), 204)
			if tpls := owned(); len(tpls) != 2 || tpls[tpl] == nil {
				t.Errorf("after the delete: %v", tpls)
			}
			e3 := str(createEndpointT(t, s, map[string]any{"templateId": tpl, "image": nil}), "id")
			if img := obj(t, do(t, s, "GET", "/v2/serverless/"+e3, nil))["image"]; img != "w:2" {
				t.Errorf("endpoint from the edited template: image %v", img)
			}
			// The caller's template is deletable while endpoints made from it exist.
			expectStatus(t, do(t, s, "DELETE", "/v2/templates/"+tpl, nil), 204)
			expectStatus(t, do(t, s, "PATCH", "/v2/serverless/"+e2, map[string]any{"name": "still-here"}), 200)
			expectStatus(t, do(t, s, "DELETE", "/v2/serverless/"+e2, nil), 204)
			expectStatus(t, do(t, s, "DELETE", "/v2/serverless/"+e3, nil), 204)
			if n := len(owned()); n != 0 {
				t.Errorf("%d templates left after every endpoint was deleted", n)
			}
		})
	}
}

func TestAPodsVisibleTemplateIsWhatBlocksATemplateDelete(t *testing.T) {
	for _, reading := range []PodTemplate{"", PodTemplateNull, PodTemplateVisible} {
		t.Run(fmt.Sprintf("%q", reading), func(t *testing.T) {
			s, _ := newTestServer(Options{PodTemplate: reading})
			tpl := str(obj(t, do(t, s, "POST", "/v2/templates", map[string]any{"name": "t", "image": "i"})), "id")
			pod := createPodT(t, s, map[string]any{"name": "p", "templateId": tpl, "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"}})
			shown := obj(t, do(t, s, "GET", "/v2/pods/"+pod, nil))["template"]
			listed := list(t, do(t, s, "GET", "/v2/pods", nil), "pods")[0]["template"]
			if reading != PodTemplateVisible {
				// "the created pod does not retain a link to the template
				// (`template` stays null)": nothing blocks the delete.
				if shown != nil || listed != nil {
					t.Errorf("template %v / %v, want null", shown, listed)
				}
				expectStatus(t, do(t, s, "DELETE", "/v2/templates/"+tpl, nil), 204)
				expectStatus(t, do(t, s, "GET", "/v2/pods/"+pod, nil), 200)
				return
			}
			// "ID of the template this pod was created from"; "Rejected if the
			// template is currently referenced by a pod (see that pod's
			// `template` field)".
			if shown != tpl || listed != tpl {
				t.Errorf("template %v / %v, want %s", shown, listed, tpl)
			}
			expectProblem(t, do(t, s, "DELETE", "/v2/templates/"+tpl, nil), 400, "referenced by pod(s) "+pod)
			// A PATCH with templateId is a one-time application: no link.
			other := str(obj(t, do(t, s, "POST", "/v2/templates", map[string]any{"name": "o", "image": "o"})), "id")
			expectStatus(t, do(t, s, "PATCH", "/v2/pods/"+pod, map[string]any{"templateId": other}), 200)
			expectStatus(t, do(t, s, "DELETE", "/v2/templates/"+other, nil), 204)
			expectStatus(t, do(t, s, "DELETE", "/v2/pods/"+pod, nil), 204)
			expectStatus(t, do(t, s, "DELETE", "/v2/templates/"+tpl, nil), 204)
		})
	}
}

func TestDataCenterIdsArePreferencesOrAFilterDependingOnTheReading(t *testing.T) {
	// EU-CZ-1 has no RTX 4090 pod stock, no ADA_24 serverless stock and no
	// cpu3c stock; EU-RO-1 holds the network volume.
	for _, reading := range []DataCenters{"", DataCentersPreferred, DataCentersStrict} {
		t.Run(fmt.Sprintf("%q", reading), func(t *testing.T) {
			s, clk := newTestServer(Options{DataCenters: reading})
			strict := reading == DataCentersStrict
			gpuPod := func(extra map[string]any) map[string]any {
				b := gpuPodBody("p")
				for k, v := range extra {
					b[k] = v
				}
				return b
			}

			// The first listed data center with stock wins under both.
			p := obj(t, do(t, s, "POST", "/v2/pods", gpuPod(map[string]any{"dataCenterIds": []string{"EU-CZ-1", "CA-MTL-1"}})))
			if p["dataCenterId"] != "CA-MTL-1" {
				t.Errorf("dataCenterId %v, want CA-MTL-1", p["dataCenterId"])
			}

			// None of the listed ones has stock.
			rec := do(t, s, "POST", "/v2/pods", gpuPod(map[string]any{"dataCenterIds": []string{"EU-CZ-1"}}))
			if strict {
				expectProblem(t, rec, 400, "no capacity", "EU-CZ-1")
			} else {
				expectStatus(t, rec, 201)
				if dc := obj(t, rec)["dataCenterId"]; dc == nil || dc == "EU-CZ-1" {
					t.Errorf("dataCenterId %v, want another data center", dc)
				}
			}
			rec = do(t, s, "POST", "/v2/pods", map[string]any{"name": "c", "image": "i", "cpu": map[string]any{"id": "cpu3c", "vcpuCount": 2}, "dataCenterIds": []string{"EU-CZ-1"}})
			if strict {
				expectProblem(t, rec, 400, "no capacity")
			} else {
				expectStatus(t, rec, 201)
			}

			// A network volume's data center is where the pod runs.
			vol := str(obj(t, do(t, s, "POST", "/v2/network-volumes", map[string]any{"name": "v", "size": 10, "dataCenter": "EU-RO-1"})), "id")
			rec = do(t, s, "POST", "/v2/pods", gpuPod(map[string]any{"dataCenterIds": []string{"US-KS-2"},
				"mounts": map[string]any{"network": []any{map[string]any{"volumeId": vol, "path": "/data"}}}}))
			if strict {
				expectProblem(t, rec, 400, "EU-RO-1", "not among dataCenterIds")
			} else if expectStatus(t, rec, 201); obj(t, rec)["dataCenterId"] != "EU-RO-1" {
				t.Errorf("pod with the volume placed in %v", obj(t, rec)["dataCenterId"])
			}

			// Serverless workers.
			e := createEndpointT(t, s, map[string]any{"dataCenterIds": []string{"EU-CZ-1"}, "workers": map[string]any{"min": 1}})
			if fmt.Sprint(e["dataCenterIds"]) != "[EU-CZ-1]" {
				t.Errorf("dataCenterIds %v", e["dataCenterIds"])
			}
			clk.Advance(time.Minute)
			w := list(t, do(t, s, "GET", "/v2/serverless/"+str(e, "id")+"/workers", nil), "workers")[0]
			if strict {
				if w["status"] != "THROTTLED" || w["dataCenterId"] != nil {
					t.Errorf("worker %v, want THROTTLED and unplaced", w)
				}
			} else if w["status"] == "THROTTLED" || w["dataCenterId"] == nil || w["dataCenterId"] == "EU-CZ-1" {
				t.Errorf("worker %v, want placed in another data center", w)
			}

			// Unknown ids are refused under both (simulator's choice).
			expectProblem(t, do(t, s, "POST", "/v2/pods", gpuPod(map[string]any{"dataCenterIds": []string{"MARS-1"}})), 400, "unknown data center")
		})
	}
}

func TestDeletingARegistryCredentialClearsItFromEndpointsAndTemplates(t *testing.T) {
	s, _ := newTestServer(Options{})
	reg := str(obj(t, do(t, s, "POST", "/v2/registries", map[string]any{"name": "hub", "username": "u", "password": "p"})), "id")
	tpl := str(obj(t, do(t, s, "POST", "/v2/templates", map[string]any{"name": "t", "image": "me/x:1", "registry": reg, "serverless": true})), "id")
	ep := str(createEndpointT(t, s, map[string]any{"registry": reg}), "id")
	fromTpl := str(createEndpointT(t, s, map[string]any{"templateId": tpl, "image": nil}), "id")
	expectStatus(t, do(t, s, "DELETE", "/v2/registries/"+reg, nil), 204)

	for _, path := range []string{"/v2/templates/" + tpl, "/v2/serverless/" + ep, "/v2/serverless/" + fromTpl} {
		if r := obj(t, do(t, s, "GET", path, nil))["registry"]; r != nil {
			t.Errorf("%s: registry %v after the credential was deleted", path, r)
		}
	}
	// "only the fields present in the body are changed": a name-only PATCH
	// of each works.
	for _, id := range []string{ep, fromTpl} {
		expectStatus(t, do(t, s, "PATCH", "/v2/serverless/"+id, map[string]any{"name": "renamed"}), 200)
	}
	expectStatus(t, do(t, s, "PATCH", "/v2/templates/"+tpl, map[string]any{"name": "renamed"}), 200)
	// Naming the deleted credential is still refused.
	expectProblem(t, do(t, s, "PATCH", "/v2/serverless/"+ep, map[string]any{"registry": reg}), 400, "not found")
}

func TestDeletingANetworkVolumeDetachesItFromEndpoints(t *testing.T) {
	s, _ := newTestServer(Options{})
	vol := str(obj(t, do(t, s, "POST", "/v2/network-volumes", map[string]any{"name": "v", "size": 10, "dataCenter": "EU-RO-1"})), "id")
	keep := str(obj(t, do(t, s, "POST", "/v2/network-volumes", map[string]any{"name": "k", "size": 10, "dataCenter": "EU-RO-1"})), "id")
	ep := str(createEndpointT(t, s, map[string]any{"networkVolumes": []string{vol, keep}}), "id")
	expectStatus(t, do(t, s, "DELETE", "/v2/network-volumes/"+vol, nil), 204)
	if v := obj(t, do(t, s, "GET", "/v2/serverless/"+ep, nil))["networkVolumes"]; fmt.Sprint(v) != "["+keep+"]" {
		t.Errorf("networkVolumes %v after the delete", v)
	}
	expectStatus(t, do(t, s, "PATCH", "/v2/serverless/"+ep, map[string]any{"name": "renamed"}), 200)
	expectProblem(t, do(t, s, "PATCH", "/v2/serverless/"+ep, map[string]any{"networkVolumes": []string{vol}}), 400, "not found")
}

func TestAnEndpointsDiskDefaultsToTheDocumentsExample(t *testing.T) {
	s, _ := newTestServer(Options{})
	if d := createEndpointT(t, s, nil)["disk"]; d != 50.0 {
		t.Errorf("endpoint disk %v, want 50", d)
	}
}

func TestNewRefusesAnUnknownReading(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New accepted DataCenters \"sometimes\"")
		}
	}()
	New(Options{DataCenters: "sometimes"})
}
