package translate

import (
	"strings"
	"testing"
)

var regParams = map[string]string{"containerRegistryAuthId": "reg1"}

func TestCreateRegistry(t *testing.T) {
	const secret = "s3cr3t-P4ss"
	tests := []struct {
		name, body string
		call       bool
		status     int
		msg        []string
		warn       string
	}{
		{name: "translated, 200 not 201", body: `{"name":"hub","username":"me","password":"` + secret + `"}`, call: true, status: 200},
		{name: "unknown fields ignored with a warning", body: `{"name":"hub","username":"me","password":"` + secret + `","registry":"docker.io"}`, call: true, status: 200, warn: "registry"},
		{name: "every required field named", body: `{}`, status: 400, msg: []string{"name: is required", "username: is required", "password: is required"}},
		{name: "empty strings", body: `{"name":"","username":"","password":""}`, status: 400, msg: []string{"name: is required", "username: is required", "password: is required"}},
		{name: "wrong types", body: `{"name":"hub","username":"me","password":12345}`, status: 400, msg: []string{"password: must be a string, got a number"}},
		{name: "not an object", body: `"` + secret + `"`, status: 400, msg: []string{"JSON object"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var script []step
			if tc.call {
				script = []step{{method: "POST", path: "/v2/registries", status: 201, body: `{"id":"reg1","name":"hub"}`}}
			}
			res, f := run(t, "CreateContainerRegistryAuth", runOpts{body: tc.body}, script...)
			wantStatus(t, res, tc.status)
			if tc.call {
				jsonEqual(t, "v2 body", []byte(f.bodies("POST", "/v2/registries")[0]), `{"name":"hub","username":"me","password":"`+secret+`"}`)
				jsonEqual(t, "answer", res.Body, `{"id":"reg1","name":"hub"}`)
			} else {
				wantMessage(t, res, tc.msg...)
			}
			// Credentials are write-only: never in an answer or a header.
			all := string(res.Body) + strings.Join(res.Warnings, " ") + strings.Join(res.Dropped, " ")
			if strings.Contains(all, secret) || strings.Contains(all, `"me"`) {
				t.Errorf("credentials leaked: %s", all)
			}
			if tc.warn != "" && (len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], tc.warn)) {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
	res, _ := run(t, "CreateContainerRegistryAuth", runOpts{body: `{"name":"hub","username":"me","password":"p"}`},
		step{method: "POST", path: "/v2/registries", status: 422, body: problem(422, "Request validation failed.", "$.name: length must be >= 1")})
	wantStatus(t, res, 400)
	wantMessage(t, res, "Request validation failed: name")
}

func TestListRegistries(t *testing.T) {
	res, _ := run(t, "ListContainerRegistryAuths", runOpts{},
		step{method: "GET", path: "/v2/registries", status: 200, body: `{"registries":[{"id":"a","name":"one"},{"id":"b","name":"two"}]}`})
	wantStatus(t, res, 200)
	jsonEqual(t, "list", res.Body, `[{"id":"a","name":"one"},{"id":"b","name":"two"}]`)
	res, _ = run(t, "ListContainerRegistryAuths", runOpts{}, step{method: "GET", path: "/v2/registries", status: 200, body: `{"registries":[]}`})
	jsonEqual(t, "empty", res.Body, `[]`)
}

func TestGetRegistry(t *testing.T) {
	res, _ := run(t, "GetContainerRegistryAuth", runOpts{params: regParams},
		step{method: "GET", path: "/v2/registries/reg1", status: 200, body: `{"id":"reg1","name":"hub"}`})
	wantStatus(t, res, 200)
	jsonEqual(t, "registry", res.Body, `{"id":"reg1","name":"hub"}`)
	res, _ = run(t, "GetContainerRegistryAuth", runOpts{params: regParams},
		step{method: "GET", path: "/v2/registries/reg1", status: 404, body: problem(404, "container registry credential not found")})
	wantStatus(t, res, 404)
}

// P9: the id "delegations" would address GET/DELETE on v2's ECR delegation
// routes: it is a 404 and never forwarded (the scripted caller has no steps,
// so any call fails the test).
func TestRegistryReservedIDs(t *testing.T) {
	for _, name := range []string{"GetContainerRegistryAuth", "DeleteContainerRegistryAuth"} {
		for _, id := range []string{"delegations", "Delegations", "DELEGATIONS", "delegations/abc", "..", ""} {
			t.Run(name+"/"+id, func(t *testing.T) {
				res, f := run(t, name, runOpts{params: map[string]string{"containerRegistryAuthId": id}})
				wantStatus(t, res, 404)
				if len(f.calls) != 0 {
					t.Errorf("forwarded: %v", f.calls)
				}
			})
		}
	}
}

func TestDeleteRegistry(t *testing.T) {
	res, _ := run(t, "DeleteContainerRegistryAuth", runOpts{params: regParams}, step{method: "DELETE", path: "/v2/registries/reg1", status: 204})
	wantStatus(t, res, 204)
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "template") {
		t.Errorf("warnings %q: the template hazard (H12) must be said", res.Warnings)
	}
	res, _ = run(t, "DeleteContainerRegistryAuth", runOpts{params: regParams},
		step{method: "DELETE", path: "/v2/registries/reg1", status: 400, body: problem(400, "Registry credential is in use by a pod")})
	wantStatus(t, res, 400)
	wantMessage(t, res, "in use by a pod")
	res, _ = run(t, "DeleteContainerRegistryAuth", runOpts{params: regParams},
		step{method: "DELETE", path: "/v2/registries/reg1", status: 404, body: problem(404, "not found")})
	wantStatus(t, res, 400)
}
