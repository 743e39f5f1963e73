package proxy

import (
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/v2sim"
)

// End to end: the six v1 network volume operations (client → gateway →
// v2sim). Answers are checked against the v1 contract by e.call; the v2
// calls the gateway made are read from the simulator's log.

// rsSimCalls returns the simulator's calls after the first n, as
// "METHOD /path" (with "?query" when there is one).
func (e *e2e) rsSimCalls(n int) []string {
	var out []string
	for _, c := range e.sim.Calls()[n:] {
		s := c.Method + " " + c.Path
		if c.RawQuery != "" {
			s += "?" + c.RawQuery
		}
		out = append(out, s)
	}
	return out
}

// v1Calls performs a v1 request and returns its answer and the v2 calls it
// caused.
func (e *e2e) rsV1(method, path, body string) (*e2eResp, []string) {
	e.t.Helper()
	n := len(e.sim.Calls())
	r := e.v1(method, path, body)
	return r, e.rsSimCalls(n)
}

func (e *e2e) rsWantCalls(got []string, want ...string) {
	e.t.Helper()
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		e.t.Errorf("v2 calls:\n got %q\nwant %q", got, want)
	}
}

func TestE2ENetworkVolumes(t *testing.T) {
	underEachReading(t, testE2ENetworkVolumes)
}

func testE2ENetworkVolumes(t *testing.T, rd simReading) {
	e := newE2E(t, e2eOpts{sim: rd.apply})

	r, calls := e.rsV1("POST", "/v1/networkvolumes", `{"name":"data","size":50,"dataCenterId":"EU-RO-1"}`)
	e.want(r, 200) // v1 documents 200 (v2 answers 201)
	e.rsWantCalls(calls, "POST /v2/network-volumes")
	vol := r.json(t)
	id, _ := vol["id"].(string)
	if id == "" || vol["name"] != "data" || vol["size"] != 50.0 || vol["dataCenterId"] != "EU-RO-1" || vol["dataCenter"] != nil || vol["type"] != nil {
		t.Fatalf("created volume %s", r.body)
	}
	if b := string(e.sim.Calls()[len(e.sim.Calls())-1].Body); b != `{"name":"data","size":50,"dataCenter":"EU-RO-1"}` {
		t.Errorf("v2 body %s", b)
	}

	r, calls = e.rsV1("GET", "/v1/networkvolumes", "")
	e.want(r, 200)
	e.rsWantCalls(calls, "GET /v2/network-volumes")
	if l := r.list(t); len(l) != 1 || l[0]["id"] != id || l[0]["dataCenterId"] != "EU-RO-1" {
		t.Errorf("list %s", r.body)
	}
	r, calls = e.rsV1("GET", "/v1/networkvolumes/"+id, "")
	e.want(r, 200)
	e.rsWantCalls(calls, "GET /v2/network-volumes/"+id)

	t.Run("update", func(t *testing.T) {
		r, calls := e.rsV1("PATCH", "/v1/networkvolumes/"+id, `{"name":"renamed"}`)
		e.want(r, 200)
		e.rsWantCalls(calls, "PATCH /v2/network-volumes/"+id)
		if r.json(t)["name"] != "renamed" {
			t.Errorf("renamed %s", r.body)
		}
		r, calls = e.rsV1("POST", "/v1/networkvolumes/"+id+"/update", `{"size":100}`)
		e.want(r, 200)
		e.rsWantCalls(calls, "GET /v2/network-volumes/"+id, "PATCH /v2/network-volumes/"+id)
		if r.json(t)["size"] != 100.0 {
			t.Errorf("grown %s", r.body)
		}
		r, calls = e.rsV1("PATCH", "/v1/networkvolumes/"+id, `{"size":60}`)
		e.want(r, 400)
		e.rsWantCalls(calls, "GET /v2/network-volumes/"+id)
		if m := r.message(t); !strings.Contains(m, "size") || !strings.Contains(m, "100 GB") {
			t.Errorf("shrink message %q", m)
		}
		// v1 accepted an empty update; v2 would refuse an empty PATCH.
		r, calls = e.rsV1("PATCH", "/v1/networkvolumes/"+id, `{}`)
		e.want(r, 200)
		e.rsWantCalls(calls, "GET /v2/network-volumes/"+id)
		if v := r.json(t); v["size"] != 100.0 || v["name"] != "renamed" {
			t.Errorf("unchanged volume %s", r.body)
		}
		r, calls = e.rsV1("PATCH", "/v1/networkvolumes/"+id, `{"size":100,"bogus":1}`)
		e.want(r, 200)
		e.rsWantCalls(calls, "GET /v2/network-volumes/"+id)
		if w := r.header.Get("X-Compat-Warning"); !strings.Contains(w, "bogus") {
			t.Errorf("X-Compat-Warning %q", w)
		}
	})

	t.Run("size checked before any v2 call", func(t *testing.T) {
		for body, want := range map[string]string{
			`{"name":"d","size":5,"dataCenterId":"EU-RO-1"}`:    "size: v2 network volumes are at least 10 GB",
			`{"name":"d","size":5000,"dataCenterId":"EU-RO-1"}`: "size: v2 network volumes are at most 4096 GB",
			`{"size":20}`: "name: is required; dataCenterId: is required",
		} {
			r, calls := e.rsV1("POST", "/v1/networkvolumes", body)
			e.want(r, 400)
			e.rsWantCalls(calls)
			if !strings.Contains(r.message(t), want) {
				t.Errorf("%s: %s", body, r.body)
			}
		}
		r, calls := e.rsV1("PATCH", "/v1/networkvolumes/"+id, `{"size":9}`)
		e.want(r, 400)
		e.rsWantCalls(calls)
	})

	t.Run("v2 refusals", func(t *testing.T) {
		r, _ := e.rsV1("POST", "/v1/networkvolumes", `{"name":"d","size":10,"dataCenterId":"AP-JP-1"}`)
		e.want(r, 400)
		if !strings.Contains(r.message(t), "no network volumes") {
			t.Errorf("message %q", r.body)
		}
		r, _ = e.rsV1("POST", "/v1/networkvolumes", `{"name":"d","size":10,"dataCenterId":"MARS-1"}`)
		e.want(r, 400)
	})

	r, calls = e.rsV1("DELETE", "/v1/networkvolumes/"+id, "")
	e.want(r, 204)
	e.rsWantCalls(calls, "DELETE /v2/network-volumes/"+id)
	e.want(e.v1("GET", "/v1/networkvolumes/"+id, ""), 404)
	e.want(e.v1("DELETE", "/v1/networkvolumes/"+id, ""), 400)            // v1 documents 400 for an invalid id
	e.want(e.v1("PATCH", "/v1/networkvolumes/"+id, `{"name":"x"}`), 400) // idem
	e.want(e.v1("PATCH", "/v1/networkvolumes/"+id, `{"size":20}`), 400)  // the read fails the same way
	r, calls = e.rsV1("GET", "/v1/networkvolumes/a%2Fb", "")
	e.want(r, 404)
	e.rsWantCalls(calls)
	if l := e.v1("GET", "/v1/networkvolumes", "").list(t); len(l) != 0 {
		t.Errorf("list after delete %v", l)
	}
}

func TestE2ENetworkVolumeErrors(t *testing.T) {
	e := newE2E(t, e2eOpts{})
	e.sim.AddFault(v2sim.Fault{Method: "GET", PathPrefix: "/v2/network-volumes", Status: 503, Times: 10})
	r := e.v1("GET", "/v1/networkvolumes", "")
	if r.status != 502 && r.status != 503 {
		t.Errorf("upstream failing: %d %s", r.status, r.body)
	}
	if r := e.call(e.gw, "", "GET", "/v1/networkvolumes", ""); r.status != 401 {
		t.Errorf("no key: %d", r.status)
	}
	if r := e.call(e.gw, "k-forbidden", "POST", "/v1/networkvolumes", `{"name":"d","size":10,"dataCenterId":"EU-RO-1"}`); r.status != 403 {
		t.Errorf("forbidden key: %d %s", r.status, r.body)
	}
}

// Deleting a network volume that an endpoint lists leaves the endpoint
// updatable and no longer listing it; a pod with a network volume runs in
// the volume's data center. Under each reading of dataCenterIds.
func TestE2ENetworkVolumeDeleteLeavesEndpointsUpdatable(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		vol := e.v1("POST", "/v1/networkvolumes", `{"name":"data","size":10,"dataCenterId":"EU-RO-1"}`)
		e.want(vol, 200)
		volID := vol.json(t)["id"].(string)

		p := e.v1("POST", "/v1/pods", `{"name":"p","imageName":"i","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"networkVolumeId":"`+volID+`"}`)
		e.want(p, 201)
		g := e.v1("GET", "/v1/pods/"+p.json(t)["id"].(string)+"?includeMachine=true", "")
		if mc, _ := g.json(t)["machine"].(map[string]any); mc["dataCenterId"] != "EU-RO-1" {
			t.Errorf("pod with the volume in %v, want EU-RO-1", mc)
		}
		e.want(e.v1("DELETE", "/v1/pods/"+p.json(t)["id"].(string), ""), 204)

		ep := e.v1("POST", "/v1/endpoints", `{"templateId":"w9d2f6h4np","name":"e","gpuTypeIds":["NVIDIA L40S"],"networkVolumeId":"`+volID+`"}`)
		e.want(ep, 200)
		id := ep.json(t)["id"].(string)
		if ep.json(t)["networkVolumeId"] != volID {
			t.Fatalf("created %s", ep.body)
		}
		e.want(e.v1("DELETE", "/v1/networkvolumes/"+volID, ""), 204)
		u := e.v1("PATCH", "/v1/endpoints/"+id, `{"name":"renamed"}`)
		e.want(u, 200)
		if uj := u.json(t); uj["name"] != "renamed" || uj["networkVolumeId"] != nil {
			t.Errorf("updated %s", u.body)
		}
		e.want(e.v1("DELETE", "/v1/endpoints/"+id, ""), 204)
	})
}
