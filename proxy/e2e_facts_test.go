package proxy

// What v2 forgets, the gateway remembers (P8) end to end: client → gateway
// → v2sim, under each reading of the v2 document the simulator offers, with
// the in-memory fact store and with a real Redis (internal/testredis:
// V1GW_TEST_REDIS_URL, else a throwaway redis-server; skipped without
// either unless V1GW_REQUIRE_REDIS=1). Redis tests use a fresh key prefix.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/facts"
	"github.com/v1gateway/v1gateway/internal/testredis"
	"github.com/v1gateway/v1gateway/translate"
)

// factsPrefix is a key prefix no other test (or earlier run) uses.
func factsPrefix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "v1gw:test:facts:" + hex.EncodeToString(b) + ":"
}

// redisFacts is a fact store on a real Redis, with a client of its own,
// under prefix ("": a fresh one).
func redisFacts(t *testing.T, url, prefix string) *facts.Redis {
	t.Helper()
	c, err := facts.NewRedisClient(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if prefix == "" {
		prefix = factsPrefix()
	}
	return facts.NewRedis(c, facts.RedisOptions{Prefix: prefix})
}

// eachFactStore runs test under each reading, with memory and with Redis.
func eachFactStore(t *testing.T, test func(t *testing.T, rd simReading, store facts.Store)) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		t.Run("memory", func(t *testing.T) { test(t, rd, facts.NewMemory(facts.MemoryOptions{})) })
		t.Run("redis", func(t *testing.T) { test(t, rd, redisFacts(t, testredis.URL(t), "")) })
	})
}

// replica starts another gateway in front of the same simulator, with its
// own fact store (share one Redis to share facts), and returns its URL.
func (e *e2e) replica(store facts.Store) string {
	e.t.Helper()
	cfg := *e.cfg
	g, err := New(Options{Config: &cfg, Facts: store})
	if err != nil {
		e.t.Fatal(err)
	}
	s := httptest.NewServer(g)
	e.t.Cleanup(s.Close)
	return s.URL
}

func idOf(t *testing.T, r *e2eResp) string {
	t.Helper()
	id, _ := r.json(t)["id"].(string)
	if id == "" {
		t.Fatalf("no id in %s", r.body)
	}
	return id
}

func TestE2EPodsKeepTheirTemplateID(t *testing.T) {
	eachFactStore(t, func(t *testing.T, rd simReading, store facts.Store) {
		e := newE2E(t, e2eOpts{sim: rd.apply, facts: store})
		tpl := idOf(t, e.v1("POST", "/v1/templates", `{"name":"torch","imageName":"runpod/pytorch:2","isServerless":false}`))
		p := e.v1("POST", "/v1/pods", `{"templateId":"`+tpl+`","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`)
		e.want(p, 201)
		podID := idOf(t, p)
		other := e.v1("POST", "/v1/pods", `{"imageName":"img","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"name":"plain"}`)
		e.want(other, 201)

		// GET by id, list, the templateId filter, includeTemplate.
		if g := e.v1("GET", "/v1/pods/"+podID, ""); g.json(t)["templateId"] != tpl {
			t.Errorf("GET /v1/pods/{id}: %s", g.body)
		}
		l := e.v1("GET", "/v1/pods", "")
		e.want(l, 200)
		for _, it := range l.list(t) {
			if want := map[bool]any{true: tpl, false: nil}[it["id"] == podID]; it["templateId"] != want {
				t.Errorf("GET /v1/pods: pod %v has templateId %v, want %v", it["id"], it["templateId"], want)
			}
		}
		f := e.v1("GET", "/v1/pods?templateId="+tpl, "")
		e.want(f, 200)
		if items := f.list(t); len(items) != 1 || items[0]["id"] != podID {
			t.Errorf("GET /v1/pods?templateId=: %s", f.body)
		}
		inc := e.v1("GET", "/v1/pods/"+podID+"?includeTemplate=true", "")
		e.want(inc, 200)
		if tp, _ := inc.json(t)["template"].(map[string]any); tp["id"] != tpl || tp["name"] != "torch" {
			t.Errorf("includeTemplate: %s", inc.body)
		}
		// Action answers carry it too.
		st := e.v1("POST", "/v1/pods/"+podID+"/stop", "")
		e.want(st, 200)
		if st.json(t)["templateId"] != tpl {
			t.Errorf("stop answer: %s", st.body)
		}

		// Deleted through the gateway: the fact goes with the pod. (Under
		// the visible reading v2 refuses the template's delete while the
		// pod exists: v2's own, visible link.)
		e.want(e.v1("DELETE", "/v1/pods/"+podID, ""), 204)
		if m, _ := store.Lookup(context.Background(), translate.FactPod, []string{podID}); len(m) != 0 {
			t.Errorf("fact after the pod's delete: %v", m)
		}
		e.want(e.v1("DELETE", "/v1/templates/"+tpl, ""), 204)
	})
}

func TestE2ETemplateEditsRollOutAndEndpointDeletesKeepTheTemplate(t *testing.T) {
	eachFactStore(t, func(t *testing.T, rd simReading, store facts.Store) {
		e := newE2E(t, e2eOpts{sim: rd.apply, facts: store})
		tpl := idOf(t, e.v1("POST", "/v1/templates", `{"name":"worker","imageName":"runpod/worker:1","isServerless":true,"env":{"MODEL":"a"},"ports":[]}`))
		create := func(name string) string {
			t.Helper()
			r := e.v1("POST", "/v1/endpoints", `{"templateId":"`+tpl+`","name":"`+name+`","gpuTypeIds":["NVIDIA L40S"]}`)
			e.want(r, 200)
			return idOf(t, r)
		}
		ep1, ep2 := create("one"), create("two")

		// 1. templateId in endpoint answers; includeTemplate names it.
		l := e.v1("GET", "/v1/endpoints?includeTemplate=true", "")
		e.want(l, 200)
		items := l.list(t)
		if len(items) != 2 {
			t.Fatalf("list %s", l.body)
		}
		for _, it := range items {
			tp, _ := it["template"].(map[string]any)
			if it["templateId"] != tpl || tp["id"] != tpl {
				t.Errorf("GET /v1/endpoints: %v", it)
			}
		}
		if g := e.v1("GET", "/v1/endpoints/"+ep1, ""); g.json(t)["templateId"] != tpl {
			t.Errorf("GET /v1/endpoints/{id}: %s", g.body)
		}

		// 2. A template edit rolls out to both (a new release each), and the
		// answer says so.
		m := e.mark()
		u := e.v1("PATCH", "/v1/templates/"+tpl, `{"env":{"MODEL":"b"}}`)
		e.want(u, 200)
		e.wantCalls(m, "PATCH /v2/templates/"+tpl, "PATCH /v2/serverless/"+min(ep1, ep2), "PATCH /v2/serverless/"+max(ep1, ep2))
		if w := warningsOf(u); !strings.Contains(w, "rolled out to endpoint(s) ") || !strings.Contains(w, ep1) || !strings.Contains(w, ep2) {
			t.Errorf("rollout warning %q", w)
		}
		for _, ep := range []string{ep1, ep2} {
			g := e.v1("GET", "/v1/endpoints/"+ep, "")
			if j := g.json(t); j["version"] != 2.0 || !strings.Contains(string(g.body), `"MODEL":"b"`) {
				t.Errorf("endpoint %s after the rollout: %s", ep, g.body)
			}
		}

		// 3. Deleting an endpoint never takes the template: under both
		// readings it survives, a third endpoint is made from it, and it
		// is not refused a delete because of a v2-internal binding.
		d := e.v1("DELETE", "/v1/endpoints/"+ep1, "")
		e.want(d, 204)
		if w := warningsOf(d); w != "" {
			t.Errorf("delete warning %q", w)
		}
		e.want(e.v1("GET", "/v1/templates/"+tpl, ""), 200)
		ep3 := create("three")
		if g := e.v1("GET", "/v1/endpoints/"+ep3, ""); g.json(t)["templateId"] != tpl {
			t.Errorf("third endpoint: %s", g.body)
		}
		// An endpoint deleted outside the gateway is found gone at the next
		// rollout and forgotten, without a failure.
		e.want(e.v2("DELETE", "/v2/serverless/"+ep2, ""), 204)
		u = e.v1("PATCH", "/v1/templates/"+tpl, `{"env":{"MODEL":"c"}}`)
		e.want(u, 200)
		if w := warningsOf(u); !strings.Contains(w, "rolled out to endpoint(s) "+ep3+" ") || strings.Contains(w, "could not") {
			t.Errorf("second rollout warning %q", w)
		}
		if eps, _ := store.TemplateEndpoints(context.Background(), tpl); len(eps) != 1 || eps[0] != ep3 {
			t.Errorf("the template's endpoints after the rollout: %v", eps)
		}
		e.want(e.v1("DELETE", "/v1/templates/"+tpl, ""), 204)
		e.want(e.v1("DELETE", "/v1/endpoints/"+ep3, ""), 204)
	})
}

func TestE2EEndpointsMadeOutsideTheGatewayAreAnsweredAsToday(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		r := e.v2("POST", "/v2/serverless", `{"name":"ep","type":"QUEUE","scaling":{"type":"QUEUE_DELAY","queueDelay":4},"gpu":{"pools":["AMPERE_16"]},"image":"img","workers":{"min":0,"max":2}}`)
		e.want(r, 201)
		id := idOf(t, r)
		g := e.v1("GET", "/v1/endpoints/"+id, "")
		e.want(g, 200)
		if v, ok := g.json(t)["templateId"]; !ok || v != nil {
			t.Errorf("templateId invented, or absent rather than null (unknown): %s", g.body)
		}
		// Of its bound template the gateway knows nothing: the H4 warning.
		d := e.v1("DELETE", "/v1/endpoints/"+id, "")
		e.want(d, 204)
		if w := warningsOf(d); !strings.Contains(w, "does not say whether") {
			t.Errorf("delete warning %q", w)
		}
	})
}

// Two gateways sharing one real Redis see each other's facts at once.
func TestE2ETwoGatewaysSharingRedisSeeEachOthersFacts(t *testing.T) {
	url := testredis.URL(t)
	underEachReading(t, func(t *testing.T, rd simReading) {
		prefix := factsPrefix()
		a := redisFacts(t, url, prefix)
		e := newE2E(t, e2eOpts{sim: rd.apply, facts: a})
		// The second replica: its own client of the same Redis, same prefix.
		other := e.replica(redisFacts(t, url, prefix))

		tpl := idOf(t, e.v1("POST", "/v1/templates", `{"name":"worker","imageName":"runpod/worker:1","isServerless":true,"ports":[]}`))
		ptpl := idOf(t, e.v1("POST", "/v1/templates", `{"name":"torch","imageName":"runpod/pytorch:2","isServerless":false}`))
		ep := idOf(t, e.v1("POST", "/v1/endpoints", `{"templateId":"`+tpl+`","name":"one","gpuTypeIds":["NVIDIA L40S"]}`))
		pod := e.v1("POST", "/v1/pods", `{"templateId":"`+ptpl+`","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`)
		e.want(pod, 201)
		podID := idOf(t, pod)

		if g := e.call(other, "k1", "GET", "/v1/endpoints/"+ep, ""); g.json(t)["templateId"] != tpl {
			t.Errorf("the other replica's endpoint: %s", g.body)
		}
		if g := e.call(other, "k1", "GET", "/v1/pods/"+podID, ""); g.json(t)["templateId"] != ptpl {
			t.Errorf("the other replica's pod: %s", g.body)
		}
		// A template edit through the other replica rolls out to the
		// endpoint made through the first.
		u := e.call(other, "k1", "PATCH", "/v1/templates/"+tpl, `{"env":{"MODEL":"b"}}`)
		e.want(u, 200)
		if w := warningsOf(u); !strings.Contains(w, "rolled out to endpoint(s) "+ep+" ") {
			t.Errorf("rollout through the other replica: %q", w)
		}
		// A delete through one replica is seen by the other.
		e.want(e.call(other, "k1", "DELETE", "/v1/endpoints/"+ep, ""), 204)
		if m, _ := a.Lookup(context.Background(), translate.FactEndpoint, []string{ep}); len(m) != 0 {
			t.Errorf("the first replica still knows the deleted endpoint: %v", m)
		}
	})
}

// A fact store that fails never fails a request: creates succeed (the
// write failure is counted), answers are what v2 alone gives.
func TestE2EAFailingFactStoreFailsNoRequest(t *testing.T) {
	srv := testredis.Start(t)
	store := redisFacts(t, srv.URL(), "")
	e := newE2E(t, e2eOpts{facts: store})
	srv.Stop()
	tpl := idOf(t, e.v1("POST", "/v1/templates", `{"name":"torch","imageName":"runpod/pytorch:2","isServerless":false}`))
	p := e.v1("POST", "/v1/pods", `{"templateId":"`+tpl+`","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`)
	e.want(p, 201)
	if p.json(t)["templateId"] != tpl {
		t.Errorf("create answer: %s", p.body)
	}
	e.want(e.v1("GET", "/v1/pods/"+idOf(t, p), ""), 200)
	e.want(e.v1("GET", "/v1/pods", ""), 200)
	e.want(e.v1("DELETE", "/v1/pods/"+idOf(t, p), ""), 204)
	// Two records: the template's (its readme, "" here) and the pod's.
	if n := e.g.facts.errors[factRecord].Load(); n != 2 {
		t.Errorf("%d failed records counted, want 2", n)
	}
	if n := e.g.facts.errors[factLookup].Load(); n == 0 {
		t.Error("no failed lookup counted")
	}
	admin := httptest.NewServer(NewAdmin(e.g))
	defer admin.Close()
	if out := scrape(t, admin.URL); !strings.Contains(out, `v1gw_facts_errors_total{op="record",store="redis"} 2`) ||
		!strings.Contains(out, `v1gw_facts_calls_total{op="record",store="redis"} 2`) {
		t.Errorf("fact store metrics missing from /metrics")
	}
}

// Losing the store (a restart in memory mode, a flushed Redis) loses these
// facts and nothing else: everything is answered as for resources made
// elsewhere, and the endpoints made before still never take your template.
func TestE2ELosingTheFactStoreLosesOnlyTheFacts(t *testing.T) {
	underEachReading(t, func(t *testing.T, rd simReading) {
		e := newE2E(t, e2eOpts{sim: rd.apply})
		tpl := idOf(t, e.v1("POST", "/v1/templates", `{"name":"worker","imageName":"runpod/worker:1","isServerless":true,"ports":[]}`))
		ptpl := idOf(t, e.v1("POST", "/v1/templates", `{"name":"torch","imageName":"runpod/pytorch:2","isServerless":false}`))
		ep := idOf(t, e.v1("POST", "/v1/endpoints", `{"templateId":"`+tpl+`","name":"one","gpuTypeIds":["NVIDIA L40S"]}`))
		pod := e.v1("POST", "/v1/pods", `{"templateId":"`+ptpl+`","gpuTypeIds":["NVIDIA GeForce RTX 4090"]}`)
		e.want(pod, 201)
		podID := idOf(t, pod)

		// The gateway restarts with an empty store.
		restarted := e.replica(facts.NewMemory(facts.MemoryOptions{}))
		g := e.call(restarted, "k1", "GET", "/v1/pods/"+podID, "")
		e.want(g, 200)
		// Unknown again unless v2 shows it: null, never an absent key.
		if tid, ok := g.json(t)["templateId"]; !ok || (rd.podTemplateShown() && tid != ptpl) || (!rd.podTemplateShown() && tid != nil) {
			t.Errorf("pod after the loss: %s", g.body)
		}
		ge := e.call(restarted, "k1", "GET", "/v1/endpoints/"+ep, "")
		e.want(ge, 200)
		if v, ok := ge.json(t)["templateId"]; !ok || v != nil {
			t.Errorf("endpoint after the loss: %s", ge.body)
		}
		u := e.call(restarted, "k1", "PATCH", "/v1/templates/"+tpl, `{"env":{"MODEL":"b"}}`)
		e.want(u, 200)
		if w := warningsOf(u); !strings.Contains(w, "no longer roll out") {
			t.Errorf("template update after the loss: %q", w)
		}
		d := e.call(restarted, "k1", "DELETE", "/v1/endpoints/"+ep, "")
		e.want(d, 204)
		if w := warningsOf(d); !strings.Contains(w, "does not say whether") {
			t.Errorf("endpoint delete after the loss: %q", w)
		}
		// The endpoint was made before the loss without naming the
		// template: it survives under both readings.
		e.want(e.call(restarted, "k1", "GET", "/v1/templates/"+tpl, ""), 200)
	})
}
