package v2sim

import (
	"fmt"
	"strings"
	"testing"
)

func TestNetworkVolumes(t *testing.T) {
	s, _ := newTestServer(Options{})
	tests := []struct {
		name   string
		body   map[string]any
		status int
		typ    string
	}{
		{"default tier of the data center", map[string]any{"name": "a", "size": 10, "dataCenter": "US-KS-2"}, 201, "HIGH_PERFORMANCE"},
		{"standard", map[string]any{"name": "a", "size": 4096, "dataCenter": "US-KS-2", "type": "STANDARD"}, 201, "STANDARD"},
		{"tier not offered", map[string]any{"name": "a", "size": 10, "dataCenter": "EU-CZ-1", "type": "STANDARD"}, 400, ""},
		{"data center without volumes", map[string]any{"name": "a", "size": 10, "dataCenter": "AP-JP-1"}, 400, ""},
		{"unknown data center", map[string]any{"name": "a", "size": 10, "dataCenter": "XX-1"}, 400, ""},
		{"below 10", map[string]any{"name": "a", "size": 9, "dataCenter": "US-KS-2"}, 422, ""},
		{"above 4096", map[string]any{"name": "a", "size": 4097, "dataCenter": "US-KS-2"}, 422, ""},
		{"bad type", map[string]any{"name": "a", "size": 10, "dataCenter": "US-KS-2", "type": "FAST"}, 422, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, s, "POST", "/v2/network-volumes", tc.body)
			if tc.status >= 400 {
				expectProblem(t, rec, tc.status)
				return
			}
			expectStatus(t, rec, 201)
			if v := obj(t, rec); v["type"] != tc.typ || v["dataCenter"] != tc.body["dataCenter"] {
				t.Errorf("volume %v", v)
			}
		})
	}
	id := str(list(t, do(t, s, "GET", "/v2/network-volumes", nil), "networkVolumes")[0], "id")
	for _, tc := range []struct {
		body   map[string]any
		status int
		size   float64
	}{
		{map[string]any{"size": 10}, 200, 10}, // equal is fine
		{map[string]any{"size": 50, "name": "bigger"}, 200, 50},
		{map[string]any{"size": 49}, 400, 50},
		{map[string]any{"size": 5000}, 422, 50},
		{map[string]any{}, 422, 50},
	} {
		rec := do(t, s, "PATCH", "/v2/network-volumes/"+id, tc.body)
		if rec.Code != tc.status {
			t.Errorf("PATCH %v: %d, want %d: %s", tc.body, rec.Code, tc.status, rec.Body.String())
		}
		if got := obj(t, do(t, s, "GET", "/v2/network-volumes/"+id, nil))["size"]; got != tc.size {
			t.Errorf("after PATCH %v size %v, want %v", tc.body, got, tc.size)
		}
	}
	expectProblem(t, do(t, s, "PATCH", "/v2/network-volumes/"+id, map[string]any{"size": 10}), 400, "cannot be reduced")
	expectStatus(t, do(t, s, "DELETE", "/v2/network-volumes/"+id, nil), 204)
	expectProblem(t, do(t, s, "GET", "/v2/network-volumes/"+id, nil), 404)
}

// TestRegistryCredentialsAreWriteOnly: username/password never appear in any
// answer, not even the create response.
func TestRegistryCredentialsAreWriteOnly(t *testing.T) {
	s, _ := newTestServer(Options{Seed: true})
	rec := do(t, s, "POST", "/v2/registries", map[string]any{"name": "ghcr", "username": "octo-user-77", "password": "s3cret-pa55"})
	expectStatus(t, rec, 201)
	id := str(obj(t, rec), "id")
	answers := []string{rec.Body.String()}
	for _, p := range []string{"/v2/registries", "/v2/registries/" + id} {
		r := do(t, s, "GET", p, nil)
		expectStatus(t, r, 200)
		answers = append(answers, r.Body.String())
	}
	for _, a := range answers {
		for _, secret := range []string{"octo-user-77", "s3cret-pa55", "username", "password", "correct-horse-battery-staple"} {
			if strings.Contains(a, secret) {
				t.Errorf("answer leaks %q: %s", secret, a)
			}
		}
	}
	if got := fmt.Sprint(obj(t, do(t, s, "GET", "/v2/registries/"+id, nil))); got != "map[id:"+id+" name:ghcr]" {
		t.Errorf("registry %s", got)
	}

	// In use by a pod → 400; templates silently lose the reference.
	tpl := str(obj(t, do(t, s, "POST", "/v2/templates", map[string]any{"name": "t", "image": "private/i", "registry": id})), "id")
	pod := createPodT(t, s, map[string]any{"name": "p", "image": "private/i", "registry": id, "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"}})
	expectProblem(t, do(t, s, "DELETE", "/v2/registries/"+id, nil), 400, pod)
	expectStatus(t, do(t, s, "PATCH", "/v2/pods/"+pod, map[string]any{"registry": nil}), 200)
	expectStatus(t, do(t, s, "DELETE", "/v2/registries/"+id, nil), 204)
	if r := obj(t, do(t, s, "GET", "/v2/templates/"+tpl, nil))["registry"]; r != nil {
		t.Errorf("template still references the deleted registry: %v", r)
	}
	expectProblem(t, do(t, s, "GET", "/v2/registries/"+id, nil), 404)
}

func TestDelegations(t *testing.T) {
	s, _ := newTestServer(Options{})
	rec := do(t, s, "POST", "/v2/registries/delegations", map[string]any{"resource": "arn:aws:ecr:us-east-2:418399314813:repository/runpod/deployment"})
	expectStatus(t, rec, 201)
	d := obj(t, rec)
	if d["awsRegion"] != "us-east-2" || d["awsUser"] != "418399314813" || d["repository"] != "runpod/deployment" || d["tag"] != "latest" ||
		d["dockerRegistryUri"] != "418399314813.dkr.ecr.us-east-2.amazonaws.com" || d["name"] != nil {
		t.Errorf("delegation %v", d)
	}
	ds := list(t, do(t, s, "GET", "/v2/registries/delegations", nil), "delegations")
	if len(ds) != 1 {
		t.Fatalf("%d delegations", len(ds))
	}
	if n := len(list(t, do(t, s, "GET", "/v2/registries", nil), "registries")); n != 0 {
		t.Errorf("a delegation is listed as a registry")
	}
	expectStatus(t, do(t, s, "DELETE", "/v2/registries/delegations/"+str(d, "id"), nil), 204)
	expectProblem(t, do(t, s, "DELETE", "/v2/registries/delegations/"+str(d, "id"), nil), 404)
}

func TestSSHKeys(t *testing.T) {
	s, _ := newTestServer(Options{})
	if got := fmt.Sprint(obj(t, do(t, s, "GET", "/v2/account/ssh-keys", nil))["keys"]); got != "[]" {
		t.Errorf("keys %s", got)
	}
	keys := []string{SeedSSHKey, "ecdsa-sha2-nistp256 AAAAE2Vj", "sk-ssh-ed25519@openssh.com AAAAGnNr with comment"}
	expectStatus(t, do(t, s, "PUT", "/v2/account/ssh-keys", map[string]any{"keys": keys}), 200)
	if got := len(obj(t, do(t, s, "GET", "/v2/account/ssh-keys", nil))["keys"].([]any)); got != 3 {
		t.Errorf("%d keys", got)
	}
	expectStatus(t, do(t, s, "PUT", "/v2/account/ssh-keys", map[string]any{"keys": []string{}}), 200)
	if got := fmt.Sprint(obj(t, do(t, s, "GET", "/v2/account/ssh-keys", nil))["keys"]); got != "[]" {
		t.Errorf("keys after [] %s", got)
	}
	expectProblem(t, do(t, s, "PUT", "/v2/account/ssh-keys", map[string]any{"keys": []string{"rsa AAAA"}}), 422, "$.keys[0]")
}
