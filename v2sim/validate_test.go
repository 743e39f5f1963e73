package v2sim

import (
	"strings"
	"testing"
)

// TestValidationErrors checks that schema violations answer 422 with one
// errors entry per violation, each naming its location in the style of the
// contract's example ("$: additional properties 'bogus' not allowed").
func TestValidationErrors(t *testing.T) {
	s, _ := newTestServer(Options{Seed: true})
	pod := func(extra string) string {
		return `{"name":"x","image":"y","gpu":{"id":"NVIDIA GeForce RTX 4090"}` + extra + `}`
	}
	ep := func(extra string) string {
		return `{"name":"e","image":"i","type":"QUEUE","scaling":{"type":"QUEUE_DELAY","queueDelay":2},"gpu":{"pools":["ADA_24"]}` + extra + `}`
	}
	tests := []struct {
		name, method, path, body string
		want                     []string // exact errors entries, in any order; all must be present
	}{
		{"additional property", "POST", "/v2/pods", pod(`,"bogus":1`), []string{"$: additional properties 'bogus' not allowed"}},
		{"two additional properties", "POST", "/v2/pods", pod(`,"b":1,"a":2`), []string{"$: additional properties 'a', 'b' not allowed"}},
		{"gpu count minimum", "POST", "/v2/pods", `{"name":"x","image":"y","gpu":{"id":"g","count":0}}`, []string{"$.gpu.count: must be >= 1"}},
		{"gpu unknown key (unevaluatedProperties)", "POST", "/v2/pods", `{"name":"x","image":"y","gpu":{"id":"g","type":"A"}}`, []string{"$.gpu: additional properties 'type' not allowed"}},
		{"missing name", "POST", "/v2/pods", `{"image":"y","gpu":{"id":"g"}}`, []string{"$: missing property 'name'"}},
		{"empty name", "POST", "/v2/pods", `{"name":"","image":"y","gpu":{"id":"g"}}`, []string{"$.name: length must be >= 1"}},
		{"image required without templateId", "POST", "/v2/pods", `{"name":"x","gpu":{"id":"g"}}`, []string{"$: missing property 'image' (required when templateId is not set)"}},
		{"env values are strings", "POST", "/v2/pods", pod(`,"env":{"A":1,"B":true}`), []string{"$.env.A: expected string, but got integer", "$.env.B: expected string, but got boolean"}},
		{"env key needing quotes", "POST", "/v2/pods", pod(`,"env":{"A-B":null}`), []string{`$.env["A-B"]: expected string, but got null`}},
		{"disk type", "POST", "/v2/pods", pod(`,"disk":"50"`), []string{"$.disk: expected integer, but got string"}},
		{"disk fractional", "POST", "/v2/pods", pod(`,"disk":1.5`), []string{"$.disk: expected integer, but got number"}},
		{"disk huge", "POST", "/v2/pods", pod(`,"disk":1e400`), []string{"$.disk: integer out of range"}},
		{"cloud enum", "POST", "/v2/pods", pod(`,"cloud":"MOON"`), []string{"$.cloud: must be one of 'SECURE', 'COMMUNITY'"}},
		{"cuda pattern", "POST", "/v2/pods", `{"name":"x","image":"y","gpu":{"id":"g","minCudaVersion":"12"}}`, []string{`$.gpu.minCudaVersion: must match pattern '^\d+\.\d+$'`}},
		{"cuda list pattern", "POST", "/v2/pods", `{"name":"x","image":"y","gpu":{"id":"g","allowedCudaVersions":["12.8","latest"]}}`, []string{`$.gpu.allowedCudaVersions[1]: must match pattern '^\d+\.\d+$'`}},
		{"vcpu power of two", "POST", "/v2/pods", `{"name":"x","image":"y","cpu":{"id":"cpu5c","vcpuCount":6}}`, []string{"$.cpu.vcpuCount: must be a power of two"}},
		{"vcpu minimum", "POST", "/v2/pods", `{"name":"x","image":"y","cpu":{"id":"cpu5c","vcpuCount":1}}`, []string{"$.cpu.vcpuCount: must be >= 2"}},
		{"persistent partial", "POST", "/v2/pods", pod(`,"mounts":{"persistent":{"size":20}}`), []string{"$.mounts.persistent: missing property 'path'"}},
		{"persistent floor", "POST", "/v2/pods", pod(`,"mounts":{"persistent":{"size":9,"path":"/w"}}`), []string{"$.mounts.persistent.size: must be >= 10"}},
		{"network partial", "POST", "/v2/pods", pod(`,"mounts":{"network":[{"volumeId":"v"}]}`), []string{"$.mounts.network[0]: missing property 'path'"}},
		{"network maxItems", "POST", "/v2/pods", pod(`,"mounts":{"network":[{"volumeId":"a","path":"/a"},{"volumeId":"b","path":"/b"}]}`), []string{"$.mounts.network: must have at most 1 items"}},
		{"mounts unknown kind", "POST", "/v2/pods", pod(`,"mounts":{"tmpfs":{}}`), []string{"$.mounts: additional properties 'tmpfs' not allowed"}},
		{"non-object body", "POST", "/v2/pods", `[]`, []string{"$: expected object, but got array"}},
		{"patch pod locked type", "PATCH", "/v2/pods/x", `{"locked":"yes"}`, []string{"$.locked: expected boolean, but got string"}},
		{"action enum", "POST", "/v2/pods/x/action", `{"action":"reset"}`, []string{"$.action: must be one of 'start', 'stop', 'restart', 'terminate'"}},
		{"action extra", "POST", "/v2/pods/x/action", `{"action":"stop","force":true}`, []string{"$: additional properties 'force' not allowed"}},
		{"cluster pod count", "POST", "/v2/clusters", `{"name":"c","type":"RAY","compute":{"gpuTypeId":"g","gpuCountPerPod":1,"podCount":251}}`, []string{"$.compute.podCount: must be <= 250"}},
		{"cluster type", "POST", "/v2/clusters", `{"name":"c","type":"MPI","compute":{"gpuTypeId":"g","gpuCountPerPod":1,"podCount":2}}`, []string{"$.type: must be one of 'APPLICATION', 'TRAINING', 'SLURM', 'RAY'"}},
		{"cluster rename only", "PATCH", "/v2/clusters/x", `{"type":"RAY"}`, []string{"$: additional properties 'type' not allowed"}},
		{"endpoint LB needs REQUEST_COUNT", "POST", "/v2/serverless", `{"name":"e","image":"i","type":"LOAD_BALANCER","scaling":{"type":"QUEUE_DELAY","queueDelay":2},"gpu":{"pools":["ADA_24"]}}`, []string{"$.scaling.type: must be 'REQUEST_COUNT' when type is 'LOAD_BALANCER'"}},
		{"endpoint scaling discriminator", "POST", "/v2/serverless", ep(`,"scaling":{"type":"CPU"}`), []string{"$.scaling.type: must be one of 'QUEUE_DELAY', 'REQUEST_COUNT'"}},
		{"endpoint scaling variant", "POST", "/v2/serverless", ep(`,"scaling":{"type":"QUEUE_DELAY","queueDelay":0.1,"requestCount":3}`), []string{"$.scaling.queueDelay: must be >= 0.5", "$.scaling: additional properties 'requestCount' not allowed"}},
		{"endpoint idle timeout bounds", "POST", "/v2/serverless", ep(`,"workers":{"idleTimeout":3601,"min":-1}`), []string{"$.workers.idleTimeout: must be <= 3600", "$.workers.min: must be >= 0"}},
		{"endpoint pools minItems", "POST", "/v2/serverless", `{"name":"e","image":"i","type":"QUEUE","scaling":{"type":"QUEUE_DELAY","queueDelay":2},"gpu":{"pools":[]}}`, []string{"$.gpu.pools: must have at least 1 items"}},
		{"endpoint excluded pattern", "POST", "/v2/serverless", `{"name":"e","image":"i","type":"QUEUE","scaling":{"type":"QUEUE_DELAY","queueDelay":2},"gpu":{"pools":["ADA_24"],"excludedTypes":["-x"]}}`, []string{`$.gpu.excludedTypes[0]: must match pattern '^\s*[^-\s]'`}},
		{"endpoint cpu unique", "POST", "/v2/serverless", `{"name":"e","image":"i","type":"QUEUE","scaling":{"type":"QUEUE_DELAY","queueDelay":2},"cpu":[{"id":"cpu5c","vcpuCount":4},{"id":"cpu5c","vcpuCount":4.0}]}`, []string{"$.cpu: items must be unique (items 0 and 1 are equal)"}},
		{"endpoint cpu cuda not representable", "POST", "/v2/serverless", `{"name":"e","image":"i","type":"QUEUE","scaling":{"type":"QUEUE_DELAY","queueDelay":2},"cpu":[{"id":"cpu5c","vcpuCount":4,"minCudaVersion":"12.1"}]}`, []string{"$.cpu[0]: additional properties 'minCudaVersion' not allowed"}},
		{"endpoint type required", "POST", "/v2/serverless", `{"name":"e","image":"i","scaling":{"type":"QUEUE_DELAY","queueDelay":2},"gpu":{"pools":["ADA_24"]}}`, []string{"$: missing property 'type'"}},
		{"patch endpoint excluded needs pools", "PATCH", "/v2/serverless/x", `{"gpu":{"excludedTypes":["NVIDIA L40"]}}`, []string{"$.gpu: property 'excludedTypes' requires property 'pools'"}},
		{"patch endpoint min cuda may be empty only", "PATCH", "/v2/serverless/x", `{"gpu":{"minCudaVersion":"x"}}`, []string{`$.gpu.minCudaVersion: must match pattern '^$|^\d+\.\d+$'`}},
		{"patch endpoint type immutable", "PATCH", "/v2/serverless/x", `{"type":"QUEUE"}`, []string{"$: additional properties 'type' not allowed"}},
		{"template network mount", "POST", "/v2/templates", `{"name":"t","image":"i","mounts":{"network":[]}}`, []string{"$.mounts: additional properties 'network' not allowed"}},
		{"template category", "POST", "/v2/templates", `{"name":"t","image":"i","category":"TPU"}`, []string{"$.category: must be one of 'CPU', 'NVIDIA', 'AMD'"}},
		{"volume bounds", "POST", "/v2/network-volumes", `{"name":"v","size":4097,"dataCenter":"US-KS-2"}`, []string{"$.size: must be <= 4096"}},
		{"volume dataCenter required", "POST", "/v2/network-volumes", `{"name":"v","size":10}`, []string{"$: missing property 'dataCenter'"}},
		{"volume patch empty", "PATCH", "/v2/network-volumes/x", `{}`, []string{"$: must have at least 1 properties"}},
		{"volume patch dataCenter immutable", "PATCH", "/v2/network-volumes/x", `{"dataCenter":"EU-RO-1"}`, []string{"$: additional properties 'dataCenter' not allowed"}},
		{"registry credentials required", "POST", "/v2/registries", `{"name":"r","username":""}`, []string{"$: missing property 'password'", "$.username: length must be >= 1"}},
		{"ssh key pattern", "PUT", "/v2/account/ssh-keys", `{"keys":["ssh-ed25519"]}`, []string{`$.keys[0]: must match pattern`}},
		{"delegation name type", "POST", "/v2/registries/delegations", `{"resource":"arn","name":5}`, []string{"$.name: expected string, but got integer"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, s, tc.method, tc.path, tc.body)
			m := expectProblem(t, rec, 422, "Request validation failed.")
			raw, _ := m["errors"].([]any)
			var got []string
			for _, e := range raw {
				got = append(got, e.(string))
			}
			for _, w := range tc.want {
				found := false
				for _, g := range got {
					if g == w || (strings.HasSuffix(w, "pattern") && strings.HasPrefix(g, w)) {
						found = true
					}
				}
				if !found {
					t.Errorf("errors %q lack %q", got, w)
				}
			}
		})
	}
}

func TestMalformedBodies(t *testing.T) {
	s, _ := newTestServer(Options{})
	for _, body := range []string{`{"name":`, `{"name":"x"} {"more":1}`, `not json`, ``, `   `} {
		expectProblem(t, do(t, s, "POST", "/v2/templates", body), 400, "request body")
	}
	// An integral number written with a fraction is an integer.
	expectStatus(t, do(t, s, "POST", "/v2/network-volumes", `{"name":"v","size":10.0,"dataCenter":"US-KS-2"}`), 201)
}
