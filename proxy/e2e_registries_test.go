package proxy

import (
	"strings"
	"testing"
)

// End to end: the four v1 container registry auth operations.

func TestE2ERegistries(t *testing.T) {
	underEachReading(t, testE2ERegistries)
}

func testE2ERegistries(t *testing.T, rd simReading) {
	e := newE2E(t, e2eOpts{sim: rd.apply})
	const password = "correct-horse-battery-staple"

	r, calls := e.rsV1("POST", "/v1/containerregistryauth", `{"name":"hub","username":"runpod-user","password":"`+password+`"}`)
	e.want(r, 200)
	e.rsWantCalls(calls, "POST /v2/registries")
	reg := r.json(t)
	id, _ := reg["id"].(string)
	if id == "" || reg["name"] != "hub" || len(reg) != 2 {
		t.Fatalf("created %s", r.body)
	}
	if strings.Contains(string(r.body), password) || strings.Contains(string(r.body), "runpod-user") {
		t.Errorf("credentials echoed: %s", r.body)
	}

	r, calls = e.rsV1("GET", "/v1/containerregistryauth", "")
	e.want(r, 200)
	e.rsWantCalls(calls, "GET /v2/registries")
	if l := r.list(t); len(l) != 1 || l[0]["id"] != id || l[0]["name"] != "hub" {
		t.Errorf("list %s", r.body)
	}
	r, calls = e.rsV1("GET", "/v1/containerregistryauth/"+id, "")
	e.want(r, 200)
	e.rsWantCalls(calls, "GET /v2/registries/"+id)
	if strings.Contains(string(r.body), password) {
		t.Errorf("credentials echoed: %s", r.body)
	}

	t.Run("delegations is never forwarded", func(t *testing.T) {
		for _, m := range []string{"GET", "DELETE"} {
			for _, p := range []string{"delegations", "Delegations", "delegations%2Fabc"} {
				r, calls := e.rsV1(m, "/v1/containerregistryauth/"+p, "")
				e.want(r, 404)
				e.rsWantCalls(calls)
			}
		}
	})

	t.Run("invalid input before any v2 call", func(t *testing.T) {
		r, calls := e.rsV1("POST", "/v1/containerregistryauth", `{"name":"hub","password":""}`)
		e.want(r, 400)
		e.rsWantCalls(calls)
		if m := r.message(t); !strings.Contains(m, "username: is required") || !strings.Contains(m, "password: is required") {
			t.Errorf("message %q", m)
		}
	})

	t.Run("in use by a pod", func(t *testing.T) {
		p := e.v1("POST", "/v1/pods", `{"name":"private","imageName":"me/private:1","gpuTypeIds":["NVIDIA RTX A4000"],"containerRegistryAuthId":"`+id+`"}`)
		e.want(p, 201)
		r, calls := e.rsV1("DELETE", "/v1/containerregistryauth/"+id, "")
		e.want(r, 400)
		e.rsWantCalls(calls, "DELETE /v2/registries/"+id)
		if !strings.Contains(r.message(t), "in use") {
			t.Errorf("message %q", r.body)
		}
		e.want(e.v1("DELETE", "/v1/pods/"+p.json(t)["id"].(string), ""), 204)
	})

	// A template that references the credential silently loses it in v2
	// (H12): the delete says so.
	tpl := e.v2("POST", "/v2/templates", `{"name":"t","image":"me/private:1","registry":"`+id+`"}`)
	e.want(tpl, 201)
	r, calls = e.rsV1("DELETE", "/v1/containerregistryauth/"+id, "")
	e.want(r, 204)
	e.rsWantCalls(calls, "DELETE /v2/registries/"+id)
	if w := r.header.Get("X-Compat-Warning"); !strings.Contains(w, "template") {
		t.Errorf("X-Compat-Warning %q", w)
	}
	if reg := e.v2("GET", "/v2/templates/"+tpl.json(t)["id"].(string), "").json(t)["registry"]; reg != nil {
		t.Errorf("template registry %v after delete (the simulator should null it)", reg)
	}
	e.want(e.v1("GET", "/v1/containerregistryauth/"+id, ""), 404)
	e.want(e.v1("DELETE", "/v1/containerregistryauth/"+id, ""), 400) // v1 documents 400 for an invalid id
}

// Deleting a credential that an endpoint uses (through the template it was
// made from) leaves the endpoint updatable: v2's PATCH "changes only the
// fields present", so a later rename must not fail on the deleted
// credential. Under each reading of which template is bound.
func TestE2ERegistryDeleteLeavesEndpointsUpdatable(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		reg := e.v1("POST", "/v1/containerregistryauth", `{"name":"hub","username":"u","password":"p"}`)
		e.want(reg, 200)
		regID := reg.json(t)["id"].(string)
		tpl := e.v1("POST", "/v1/templates", `{"name":"w","imageName":"me/private:1","isServerless":true,"containerRegistryAuthId":"`+regID+`"}`)
		e.want(tpl, 200)
		ep := e.v1("POST", "/v1/endpoints", `{"templateId":"`+tpl.json(t)["id"].(string)+`","gpuTypeIds":["NVIDIA L40S"]}`)
		e.want(ep, 200)
		id := ep.json(t)["id"].(string)
		if r := e.v2("GET", "/v2/serverless/"+id, "").json(t)["registry"]; r != regID {
			t.Fatalf("endpoint registry %v, want %s", r, regID)
		}

		d := e.v1("DELETE", "/v1/containerregistryauth/"+regID, "")
		e.want(d, 204)
		if w := d.header.Get("X-Compat-Warning"); !strings.Contains(w, "template") {
			t.Errorf("X-Compat-Warning %q", w)
		}
		u := e.v1("PATCH", "/v1/endpoints/"+id, `{"name":"renamed"}`)
		e.want(u, 200)
		if u.json(t)["name"] != "renamed" {
			t.Errorf("updated %s", u.body)
		}
		e.want(e.v1("POST", "/v1/endpoints/"+id+"/update", `{"workersMax":4}`), 200)
		e.want(e.v1("DELETE", "/v1/endpoints/"+id, ""), 204)
	})
}
