package graphql

import (
	"strings"
	"testing"
)

// runpod-go-sdk (master ee6dacf), driven by its own code against -demo
// (docs/clients.md): GetPodLifecycleObservation and DiscoverSSHTarget of a
// running pod read its start, uptime and SSH port; after TerminatePod the
// lifecycle query answers pod null without errors, which the SDK turns
// into its own "pod not found" (an error there would be a failed call).
func TestRunpodGoSDKReadsARunningPodAndAGoneOne(t *testing.T) {
	w := newWorld(t)
	id := seedIDs(t, w)["seedgpu"]
	doc := func(name string) (string, string) {
		vars := strings.ReplaceAll(string(readClientFile(t, "runpod-go-sdk/"+name+".json")), "u5wlqg2xk1ffxa", id)
		return clientDocument(t, "runpod-go-sdk/"+name+".graphql"), vars
	}

	a := w.ok(doc("get_pod_lifecycle_observation"))
	for _, p := range []string{"pod.id", "pod.desiredStatus", "pod.lastStartedAt", "pod.runtime.uptimeInSeconds"} {
		if err := readPath(a.Data, p); err != nil {
			t.Errorf("GetPodLifecycleObservation reads %s: %v\n%s", p, err, a.raw)
		}
	}
	if path(a.Data, "pod.desiredStatus") != "RUNNING" {
		t.Errorf("desiredStatus: %s", a.raw)
	}

	a = w.ok(doc("discover_ssh_target"))
	ports, _ := path(a.Data, "pod.runtime.ports").([]any)
	found := false
	for _, p := range ports {
		if str(path(p, "type")) == "tcp" && path(p, "privatePort") == float64(22) {
			found = str(path(p, "ip")) != "" && path(p, "publicPort") != nil && path(p, "isIpPublic") == true
		}
	}
	if !found {
		t.Errorf("DiscoverSSHTarget needs the tcp port 22 with ip, publicPort and isIpPublic: %s", a.raw)
	}

	w.ok(`mutation { podTerminate(input: {podId: "`+id+`"}) }`, "")
	a = w.ok(doc("get_pod_lifecycle_observation"))
	if v, ok := a.Data["pod"]; !ok || v != nil {
		t.Errorf("the lifecycle of a terminated pod: want pod null, got %s", a.raw)
	}
}

// dstack's validate_api_key, runpod-go-sdk's GetAccountID and the vendor's
// quick start check a key with myself { id } alone. The door answered it
// from the key's id without asking v2, so any key passed (dstack driven
// against the gateway took "not-a-key" for a valid one); now myself.id
// asks v2 for the account (its SSH keys, read once with pubKey), and a key
// v2 refuses is UNAUTHENTICATED, marked for the proxy's HTTP 401.
func TestMyselfIDIsAnsweredOnlyForAKeyV2Accepts(t *testing.T) {
	for _, tc := range []struct {
		name, key, doc string
		calls          int
		ok             bool
	}{
		{"a valid key reads its id, with one v2 call", "k1", `query myself { myself { id authId email } }`, 1, true},
		{"id and pubKey share the one call", "k1", `{ myself { id pubKey } }`, 1, true},
		{"a key v2 refuses is UNAUTHENTICATED", "not-a-key", `query myself { myself { id authId email } }`, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.caller.key = tc.key
			mark := w.mark()
			a := w.do(tc.doc, "")
			if n := len(w.callsSince(mark)); n != tc.calls {
				t.Errorf("%d v2 calls (%v), want %d", n, w.callsSince(mark), tc.calls)
			}
			if tc.ok {
				if len(a.Errors) > 0 || str(path(a.Data, "myself.id")) != "key-test" || a.resp.Unauthorized {
					t.Fatalf("want the key's id: %s", a.raw)
				}
				return
			}
			if len(a.Errors) != 1 || path(a.Errors[0], "extensions.code") != "UNAUTHENTICATED" || path(a.Data, "myself.id") != nil {
				t.Errorf("want one UNAUTHENTICATED error and no id: %s", a.raw)
			}
			if !a.resp.Unauthorized {
				t.Errorf("Response.Unauthorized is not set: the proxy would answer 200")
			}
		})
	}
}

// runpod-flash 1.19.0's endpoint_exists asks myself { endpoint(id) { id } }
// after each endpoint it saves and deletes. The door answered it null (no
// v2 source named), so, driven against -demo, flash took every endpoint
// for missing; it is v1 GetEndpoint: the endpoint, or null once it is gone.
func TestMyselfEndpointByIDIsReadFromV2(t *testing.T) {
	w := newWorld(t)
	id := seedIDs(t, w)["seedep"]
	const doc = "\n        query getEndpoint($id: String!) {\n            myself {\n                endpoint(id: $id) {\n                    id\n                }\n            }\n        }\n        "
	a := w.ok(doc, `{"id": "`+id+`"}`)
	if path(a.Data, "myself.endpoint.id") != id {
		t.Fatalf("endpoint_exists reads myself.endpoint.id == %s: %s", id, a.raw)
	}
	if strings.Contains(warnings(a), "User.endpoint") {
		t.Errorf("warned as unanswered: %s", a.raw)
	}
	w.ok(`mutation { deleteEndpoint(id: "`+id+`") }`, "")
	a = w.ok(doc, `{"id": "`+id+`"}`)
	if v, ok := path(a.Data, "myself").(map[string]any)["endpoint"]; !ok || v != nil {
		t.Errorf("a deleted endpoint: want endpoint null, got %s", a.raw)
	}
}
