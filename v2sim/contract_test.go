package v2sim

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/internal/speccheck"
)

// contractStep is one request of the contract walk. Placeholders {name} in
// path and body are replaced by ids saved by earlier steps.
type contractStep struct {
	name    string
	advance time.Duration // clock advance before the request
	method  string
	path    string
	body    any // nil, a raw string, or a value marshalled to JSON
	want    int
	save    string // save the answer's "id" (or first list item's id, see saveFrom) under this name
	// saveFrom names a list key of the answer to take the first id from.
	saveFrom string
	// badSchema marks a request the contract's schemas themselves reject
	// (checked with speccheck.ValidateRequest); every 2xx request must be valid.
	badSchema bool
	check     func(t *testing.T, rec *httptest.ResponseRecorder)
	// when, if set, limits the step to the readings it returns true for.
	when func(o Options) bool
}

// contractReadings are the option sets the contract walk runs under: the
// default readings, and every other reading (see Options).
var contractReadings = map[string]Options{
	"default readings": {},
	"other readings":   {EndpointTemplate: EndpointTemplateCaller, PodTemplate: PodTemplateVisible, DataCenters: DataCentersStrict},
}

// TestContract drives every v2 operation (success and main error cases) and
// validates each answer against the v2 contract: documented status, content
// type, headers and body schema; once under each set of readings.
func TestContract(t *testing.T) {
	spec := speccheck.LoadForTest(t, "v2.openapi.json")
	for name, opts := range contractReadings {
		t.Run(name, func(t *testing.T) { contractWalk(t, spec, opts) })
	}
}

func contractWalk(t *testing.T, spec *speccheck.Spec, opts Options) {
	opts.Seed, opts.RateLimitPerMinute = true, 100000
	s, clk := newTestServer(opts)

	vars := map[string]string{}
	expand := func(x string) string {
		for k, v := range vars {
			x = strings.ReplaceAll(x, "{"+k+"}", v)
		}
		return x
	}
	covered := map[string]bool{} // operationId → saw a 2xx
	hit := map[string]bool{}

	// Seeded ids.
	seedPods := list(t, do(t, s, "GET", "/v2/pods", nil), "pods")
	for _, p := range seedPods {
		vars["seed-"+str(p, "name")] = str(p, "id")
	}
	seedTpls := list(t, do(t, s, "GET", "/v2/templates", nil), "templates")
	vars["seedTpl"] = str(seedTpls[0], "id")

	noStatus := func(status string) func(t *testing.T, rec *httptest.ResponseRecorder) {
		return func(t *testing.T, rec *httptest.ResponseRecorder) {
			if got := str(obj(t, rec), "status"); got != status {
				t.Errorf("status %q, want %q", got, status)
			}
		}
	}

	steps := []contractStep{
		// account
		{name: "ssh keys", method: "GET", path: "/v2/account/ssh-keys", want: 200},
		{name: "put ssh keys", method: "PUT", path: "/v2/account/ssh-keys", body: map[string]any{"keys": []string{SeedSSHKey, "ssh-rsa AAAAB3Nza second"}}, want: 200},
		{name: "put ssh keys bad pattern", method: "PUT", path: "/v2/account/ssh-keys", body: map[string]any{"keys": []string{"not a key"}}, want: 422, badSchema: true},
		{name: "put ssh keys missing", method: "PUT", path: "/v2/account/ssh-keys", body: map[string]any{}, want: 422, badSchema: true},

		// catalog
		{name: "gpus", method: "GET", path: "/v2/catalog/gpus", want: 200},
		{name: "gpus avail", method: "GET", path: "/v2/catalog/gpus?include=AVAILABILITY&product=POD", want: 200},
		{name: "gpus avail filters", method: "GET", path: "/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS,CLUSTER&count=2&cloud=SECURE&countryCodes=US,CZ", want: 200},
		{name: "gpus cuda", method: "GET", path: "/v2/catalog/gpus?include=AVAILABILITY&product=POD&cudaVersions=12.8,12.6", want: 200},
		{name: "gpus min cuda", method: "GET", path: "/v2/catalog/gpus?include=AVAILABILITY&product=POD&minCudaVersion=12", want: 200},
		{name: "gpus no product", method: "GET", path: "/v2/catalog/gpus?include=AVAILABILITY", want: 400},
		{name: "gpus product alone", method: "GET", path: "/v2/catalog/gpus?product=POD", want: 400},
		{name: "gpus both cuda", method: "GET", path: "/v2/catalog/gpus?include=AVAILABILITY&product=POD&cudaVersions=12.8&minCudaVersion=12", want: 400},
		{name: "gpus bad country", method: "GET", path: "/v2/catalog/gpus?include=AVAILABILITY&product=POD&countryCodes=usa", want: 422},
		{name: "gpu", method: "GET", path: "/v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090", want: 200},
		{name: "gpu none in JP", method: "GET", path: "/v2/catalog/gpus/NVIDIA%20L40S?include=AVAILABILITY&product=POD&countryCodes=JP", want: 200},
		{name: "gpu unknown", method: "GET", path: "/v2/catalog/gpus/nope", want: 404},
		{name: "cpus", method: "GET", path: "/v2/catalog/cpus", want: 200},
		{name: "cpus avail", method: "GET", path: "/v2/catalog/cpus?include=AVAILABILITY&product=POD&vcpuCount=4", want: 200},
		{name: "cpus vcpu not power of two", method: "GET", path: "/v2/catalog/cpus?include=AVAILABILITY&product=POD&vcpuCount=3", want: 422},
		{name: "cpu", method: "GET", path: "/v2/catalog/cpus/cpu5c", want: 200},
		{name: "cpu unknown", method: "GET", path: "/v2/catalog/cpus/nope", want: 404},
		{name: "datacenters", method: "GET", path: "/v2/catalog/datacenters", want: 200},
		{name: "datacenters filtered", method: "GET", path: "/v2/catalog/datacenters?include=GPU_AVAILABILITY,CPU_AVAILABILITY&regions=EUROPE&compliance=GDPR&globalNetwork=true&networkVolumeTypes=HIGH_PERFORMANCE", want: 200},
		{name: "datacenters bad region", method: "GET", path: "/v2/catalog/datacenters?regions=MARS", want: 422},
		{name: "datacenter", method: "GET", path: "/v2/catalog/datacenters/EU-RO-1?include=GPU_AVAILABILITY", want: 200},
		{name: "datacenter unknown", method: "GET", path: "/v2/catalog/datacenters/nope", want: 404},
		{name: "public templates", method: "GET", path: "/v2/catalog/templates", want: 200},
		{name: "public templates community", method: "GET", path: "/v2/catalog/templates?source=community", want: 200},
		{name: "public templates bad source", method: "GET", path: "/v2/catalog/templates?source=bogus", want: 422},

		// templates
		{name: "templates", method: "GET", path: "/v2/templates", want: 200},
		{name: "create template", method: "POST", path: "/v2/templates", want: 201, save: "tpl", body: map[string]any{
			"name": "contract template", "image": "runpod/pytorch:2.8", "disk": 40, "ports": []string{"8888/http", "22/tcp"},
			"env": map[string]string{"A": "1"}, "mounts": map[string]any{"persistent": map[string]any{"size": 20, "path": "/workspace"}},
			"allowedCudaVersions": []string{"12.8"},
		}},
		{name: "create serverless template", method: "POST", path: "/v2/templates", want: 201, save: "slsTpl", body: map[string]any{
			"name": "contract worker", "image": "runpod/worker:1", "serverless": true, "category": "NVIDIA",
		}},
		{name: "create template no image", method: "POST", path: "/v2/templates", body: map[string]any{"name": "x"}, want: 422, badSchema: true},
		{name: "create template bogus", method: "POST", path: "/v2/templates", body: map[string]any{"name": "x", "image": "y", "bogus": 1}, want: 422, badSchema: true},
		{name: "create template unknown registry", method: "POST", path: "/v2/templates", body: map[string]any{"name": "x", "image": "y", "registry": "nope"}, want: 400},
		{name: "get template", method: "GET", path: "/v2/templates/{tpl}", want: 200},
		{name: "get public template", method: "GET", path: "/v2/templates/30zmvf89kd", want: 200},
		{name: "get template unknown", method: "GET", path: "/v2/templates/nope", want: 404},
		{name: "patch template", method: "PATCH", path: "/v2/templates/{tpl}", body: map[string]any{"name": "renamed", "mounts": map[string]any{}}, want: 200},
		{name: "patch template network mount", method: "PATCH", path: "/v2/templates/{tpl}", body: map[string]any{"mounts": map[string]any{"network": []any{}}}, want: 422, badSchema: true},
		{name: "patch public template", method: "PATCH", path: "/v2/templates/30zmvf89kd", body: map[string]any{"name": "mine"}, want: 404},

		// network volumes
		{name: "volumes", method: "GET", path: "/v2/network-volumes", want: 200},
		{name: "create volume", method: "POST", path: "/v2/network-volumes", body: map[string]any{"name": "vol", "size": 50, "dataCenter": "EU-RO-1"}, want: 201, save: "vol"},
		{name: "create volume too small", method: "POST", path: "/v2/network-volumes", body: map[string]any{"name": "vol", "size": 5, "dataCenter": "EU-RO-1"}, want: 422, badSchema: true},
		{name: "create volume unknown dc", method: "POST", path: "/v2/network-volumes", body: map[string]any{"name": "vol", "size": 50, "dataCenter": "XX-1"}, want: 400},
		{name: "create volume tier not offered", method: "POST", path: "/v2/network-volumes", body: map[string]any{"name": "vol", "size": 50, "dataCenter": "US-TX-3", "type": "HIGH_PERFORMANCE"}, want: 400},
		{name: "get volume", method: "GET", path: "/v2/network-volumes/{vol}", want: 200},
		{name: "get volume unknown", method: "GET", path: "/v2/network-volumes/nope", want: 404},
		{name: "grow volume", method: "PATCH", path: "/v2/network-volumes/{vol}", body: map[string]any{"size": 60}, want: 200},
		{name: "shrink volume", method: "PATCH", path: "/v2/network-volumes/{vol}", body: map[string]any{"size": 20}, want: 400},
		{name: "patch volume empty", method: "PATCH", path: "/v2/network-volumes/{vol}", body: map[string]any{}, want: 422, badSchema: true},

		// registries and delegations
		{name: "registries", method: "GET", path: "/v2/registries", want: 200},
		{name: "create registry", method: "POST", path: "/v2/registries", body: map[string]any{"name": "reg", "username": "u", "password": "p"}, want: 201, save: "reg"},
		{name: "create registry no password", method: "POST", path: "/v2/registries", body: map[string]any{"name": "reg", "username": "u"}, want: 422, badSchema: true},
		{name: "get registry", method: "GET", path: "/v2/registries/{reg}", want: 200},
		{name: "get registry unknown", method: "GET", path: "/v2/registries/nope", want: 404},
		{name: "delegations", method: "GET", path: "/v2/registries/delegations", want: 200},
		{name: "create delegation", method: "POST", path: "/v2/registries/delegations", body: map[string]any{"resource": "arn:aws:ecr:us-east-2:418399314813:repository/runpod/deployment", "name": "d"}, want: 201, save: "deleg"},
		{name: "create delegation bad arn", method: "POST", path: "/v2/registries/delegations", body: map[string]any{"resource": "nope"}, want: 400},
		{name: "create delegation empty", method: "POST", path: "/v2/registries/delegations", body: map[string]any{}, want: 422, badSchema: true},
		{name: "revoke delegation", method: "DELETE", path: "/v2/registries/delegations/{deleg}", want: 204},
		{name: "revoke delegation unknown", method: "DELETE", path: "/v2/registries/delegations/{deleg}", want: 404},

		// pods
		{name: "pods", method: "GET", path: "/v2/pods", want: 200},
		{name: "pods with cluster pods", method: "GET", path: "/v2/pods?includeClusterPods=true", want: 200},
		{name: "pods bad bool", method: "GET", path: "/v2/pods?includeClusterPods=maybe", want: 422},
		{name: "create pod from template", method: "POST", path: "/v2/pods", want: 201, save: "pod", check: noStatus("PROVISIONING"), body: map[string]any{
			"name": "p1", "templateId": "{tpl}", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"},
			"mounts": map[string]any{"network": []any{map[string]any{"volumeId": "{vol}", "path": "/data"}}}, "registry": "{reg}",
		}},
		{name: "create cpu pod", method: "POST", path: "/v2/pods", want: 201, save: "cpuPod", body: map[string]any{
			"name": "c1", "image": "python:3.12", "cpu": map[string]any{"id": "cpu5c", "vcpuCount": 4}, "cloud": "SECURE",
		}},
		{name: "create pod neither", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "image": "y"}, want: 400},
		{name: "create pod both", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "image": "y", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"}, "cpu": map[string]any{"id": "cpu5c", "vcpuCount": 4}}, want: 400},
		{name: "create pod gpu count 0", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "image": "y", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090", "count": 0}}, want: 422, badSchema: true},
		{name: "create pod vcpu 3", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "image": "y", "cpu": map[string]any{"id": "cpu5c", "vcpuCount": 3}}, want: 422},
		{name: "create pod no image", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"}}, want: 422, badSchema: true},
		{name: "create pod env number", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "image": "y", "env": map[string]any{"A": 1}, "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"}}, want: 422, badSchema: true},
		{name: "create pod both mounts", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "image": "y", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"},
			"mounts": map[string]any{"persistent": map[string]any{"size": 20, "path": "/w"}, "network": []any{map[string]any{"volumeId": "{vol}", "path": "/d"}}}}, want: 400},
		{name: "create cpu pod persistent", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "image": "y", "cpu": map[string]any{"id": "cpu5c", "vcpuCount": 4},
			"mounts": map[string]any{"persistent": map[string]any{"size": 20, "path": "/w"}}}, want: 400},
		{name: "create pod partial mount", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "image": "y", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"},
			"mounts": map[string]any{"persistent": map[string]any{"size": 20}}}, want: 422, badSchema: true},
		{name: "create pod cuda conflict", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "image": "y", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090", "allowedCudaVersions": []string{"12.8"}, "minCudaVersion": "12.4"}}, want: 400},
		{name: "create pod no capacity", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "image": "y", "gpu": map[string]any{"id": "NVIDIA H200"}}, want: 400},
		{name: "create pod unknown template", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "templateId": "nope", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"}}, want: 404},
		{name: "create pod serverless template", method: "POST", path: "/v2/pods", body: map[string]any{"name": "x", "templateId": "{slsTpl}", "gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090"}}, want: 422},
		{name: "create pod bad json", method: "POST", path: "/v2/pods", body: `{"name":`, want: 400},
		{name: "get pod", method: "GET", path: "/v2/pods/{pod}", want: 200},
		{name: "get pod unknown", method: "GET", path: "/v2/pods/nope", want: 404},
		{name: "get pod running", advance: 20 * time.Second, method: "GET", path: "/v2/pods/{pod}", want: 200, check: noStatus("RUNNING")},
		{name: "lock pod", method: "PATCH", path: "/v2/pods/{pod}", body: map[string]any{"name": "p1b", "locked": true, "mounts": map[string]any{}}, want: 200},
		{name: "patch pod clear network", method: "PATCH", path: "/v2/pods/{pod}", body: map[string]any{"mounts": map[string]any{"network": []any{}}}, want: 400},
		{name: "patch pod bogus", method: "PATCH", path: "/v2/pods/{pod}", body: map[string]any{"bogus": true}, want: 422, badSchema: true},
		{name: "patch pod unknown", method: "PATCH", path: "/v2/pods/nope", body: map[string]any{"name": "x"}, want: 404},
		{name: "stop locked pod", method: "POST", path: "/v2/pods/{pod}/action", body: map[string]any{"action": "stop"}, want: 409},
		{name: "unlock pod", method: "PATCH", path: "/v2/pods/{pod}", body: map[string]any{"locked": false}, want: 200},
		{name: "stop pod", method: "POST", path: "/v2/pods/{pod}/action", body: map[string]any{"action": "stop"}, want: 200, check: noStatus("EXITED")},
		{name: "restart exited pod", method: "POST", path: "/v2/pods/{pod}/action", body: map[string]any{"action": "restart"}, want: 409},
		{name: "start pod", method: "POST", path: "/v2/pods/{pod}/action", body: map[string]any{"action": "start"}, want: 200, check: noStatus("PROVISIONING")},
		{name: "pod action bogus", method: "POST", path: "/v2/pods/{pod}/action", body: map[string]any{"action": "reset"}, want: 422, badSchema: true},
		{name: "pod action unknown", method: "POST", path: "/v2/pods/nope/action", body: map[string]any{"action": "stop"}, want: 404},
		{name: "pod logs", advance: 3 * time.Minute, method: "GET", path: "/v2/pods/{pod}/logs", want: 200},
		{name: "pod logs bad tail", method: "GET", path: "/v2/pods/{pod}/logs?tail=-1", want: 422},
		{name: "pod logs unknown", method: "GET", path: "/v2/pods/nope/logs", want: 404},
		{name: "registry in use", method: "DELETE", path: "/v2/registries/{reg}", want: 400},
		// PodTemplateVisible: the pod shows its template, which blocks the
		// delete; under PodTemplateNull nothing does (readings_test.go).
		{name: "template in use", method: "DELETE", path: "/v2/templates/{tpl}", want: 400, when: func(o Options) bool { return o.PodTemplate == PodTemplateVisible }},
		{name: "terminate cpu pod", method: "POST", path: "/v2/pods/{cpuPod}/action", body: map[string]any{"action": "terminate"}, want: 204},
		{name: "delete pod", method: "DELETE", path: "/v2/pods/{pod}", want: 204},
		{name: "delete pod again", method: "DELETE", path: "/v2/pods/{pod}", want: 404},

		// clusters
		{name: "clusters", method: "GET", path: "/v2/clusters", want: 200},
		{name: "create cluster", method: "POST", path: "/v2/clusters", want: 201, save: "cl", body: map[string]any{
			"name": "c", "type": "SLURM", "compute": map[string]any{"gpuTypeId": "NVIDIA H100 80GB HBM3", "gpuCountPerPod": 8, "podCount": 2},
			"ports": []string{"22/tcp"}, "startSsh": true,
		}},
		{name: "create cluster one pod", method: "POST", path: "/v2/clusters", body: map[string]any{"name": "c", "type": "RAY", "compute": map[string]any{"gpuTypeId": "NVIDIA H100 80GB HBM3", "gpuCountPerPod": 8, "podCount": 1}}, want: 422, badSchema: true},
		{name: "create cluster registry", method: "POST", path: "/v2/clusters", body: map[string]any{"name": "c", "type": "RAY", "registry": "x", "compute": map[string]any{"gpuTypeId": "NVIDIA H100 80GB HBM3", "gpuCountPerPod": 8, "podCount": 2}}, want: 422, badSchema: true},
		{name: "create cluster unknown gpu", method: "POST", path: "/v2/clusters", body: map[string]any{"name": "c", "type": "RAY", "compute": map[string]any{"gpuTypeId": "nope", "gpuCountPerPod": 8, "podCount": 2}}, want: 400},
		{name: "get cluster", method: "GET", path: "/v2/clusters/{cl}", want: 200},
		{name: "cluster pods placed", advance: 2 * time.Second, method: "GET", path: "/v2/clusters/{cl}/pods", want: 200, check: func(t *testing.T, rec *httptest.ResponseRecorder) {
			pods := list(t, rec, "pods")
			if len(pods) != 1 || pods[0]["cluster"].(map[string]any)["rank"] != nil {
				t.Errorf("a provisioning member has no rank yet: %v", pods)
			}
		}},
		{name: "pods incl. provisioning member", method: "GET", path: "/v2/pods?includeClusterPods=true", want: 200},
		{name: "get cluster later", advance: 28 * time.Second, method: "GET", path: "/v2/clusters/{cl}", want: 200},
		{name: "cluster pods", method: "GET", path: "/v2/clusters/{cl}/pods", want: 200, save: "member", saveFrom: "pods"},
		{name: "patch member pod", method: "PATCH", path: "/v2/pods/{member}", body: map[string]any{"name": "x"}, want: 409},
		{name: "delete member pod", method: "DELETE", path: "/v2/pods/{member}", want: 409},
		{name: "member pod action", method: "POST", path: "/v2/pods/{member}/action", body: map[string]any{"action": "stop"}, want: 409},
		{name: "rename cluster", method: "PATCH", path: "/v2/clusters/{cl}", body: map[string]any{"name": "renamed"}, want: 200},
		{name: "patch cluster empty", method: "PATCH", path: "/v2/clusters/{cl}", body: map[string]any{}, want: 422, badSchema: true},
		{name: "patch cluster unknown", method: "PATCH", path: "/v2/clusters/nope", body: map[string]any{"name": "x"}, want: 404},
		{name: "get cluster unknown", method: "GET", path: "/v2/clusters/nope", want: 404},
		{name: "cluster pods unknown", method: "GET", path: "/v2/clusters/nope/pods", want: 404},
		{name: "delete cluster", method: "DELETE", path: "/v2/clusters/{cl}", want: 204},
		{name: "delete cluster again", method: "DELETE", path: "/v2/clusters/{cl}", want: 404},

		// serverless
		{name: "endpoints", method: "GET", path: "/v2/serverless", want: 200},
		{name: "create endpoint", method: "POST", path: "/v2/serverless", want: 201, save: "ep", body: map[string]any{
			"name": "e", "image": "runpod/worker:1", "type": "QUEUE", "gpu": map[string]any{"pools": []string{"ADA_48_PRO"}, "excludedTypes": []string{" NVIDIA L40"}},
			"workers": map[string]any{"min": 2, "max": 4}, "scaling": map[string]any{"type": "QUEUE_DELAY", "queueDelay": 2.5},
		}},
		{name: "create cpu endpoint", method: "POST", path: "/v2/serverless", want: 201, save: "ep2", body: map[string]any{
			"name": "e2", "templateId": "{slsTpl}", "type": "QUEUE", "cpu": []any{map[string]any{"id": "cpu5c", "vcpuCount": 4}, map[string]any{"id": "cpu5g", "vcpuCount": 8}},
			"scaling": map[string]any{"type": "REQUEST_COUNT", "requestCount": 3},
		}},
		{name: "create lb endpoint", method: "POST", path: "/v2/serverless", want: 201, body: map[string]any{
			"name": "lb", "image": "x/y:1", "type": "LOAD_BALANCER", "gpu": map[string]any{"pools": []string{"ADA_24"}},
			"scaling": map[string]any{"type": "REQUEST_COUNT", "requestCount": 3}, "env": map[string]string{"HEALTH_CHECK_PATH": "/healthz"},
		}},
		{name: "create lb queue delay", method: "POST", path: "/v2/serverless", want: 422, badSchema: true, body: map[string]any{
			"name": "lb", "image": "x/y:1", "type": "LOAD_BALANCER", "gpu": map[string]any{"pools": []string{"ADA_24"}},
			"scaling": map[string]any{"type": "QUEUE_DELAY", "queueDelay": 3},
		}},
		{name: "create endpoint neither", method: "POST", path: "/v2/serverless", want: 400, body: map[string]any{
			"name": "e", "image": "x", "type": "QUEUE", "scaling": map[string]any{"type": "QUEUE_DELAY", "queueDelay": 3},
		}},
		{name: "create endpoint unknown pool", method: "POST", path: "/v2/serverless", want: 400, body: map[string]any{
			"name": "e", "image": "x", "type": "QUEUE", "gpu": map[string]any{"pools": []string{"NOPE"}}, "scaling": map[string]any{"type": "QUEUE_DELAY", "queueDelay": 3},
		}},
		{name: "create endpoint pod template", method: "POST", path: "/v2/serverless", want: 422, body: map[string]any{
			"name": "e", "templateId": "{tpl}", "type": "QUEUE", "gpu": map[string]any{"pools": []string{"ADA_24"}}, "scaling": map[string]any{"type": "QUEUE_DELAY", "queueDelay": 3},
		}},
		{name: "create endpoint unknown template", method: "POST", path: "/v2/serverless", want: 404, body: map[string]any{
			"name": "e", "templateId": "nope", "type": "QUEUE", "gpu": map[string]any{"pools": []string{"ADA_24"}}, "scaling": map[string]any{"type": "QUEUE_DELAY", "queueDelay": 3},
		}},
		{name: "create endpoint no scaling", method: "POST", path: "/v2/serverless", want: 422, badSchema: true, body: map[string]any{
			"name": "e", "image": "x", "type": "QUEUE", "gpu": map[string]any{"pools": []string{"ADA_24"}},
		}},
		{name: "workers initializing", method: "GET", path: "/v2/serverless/{ep}/workers", want: 200},
		{name: "releases initial", method: "GET", path: "/v2/serverless/{ep}/releases", want: 200},
		{name: "get endpoint", method: "GET", path: "/v2/serverless/{ep}", want: 200},
		{name: "get cpu endpoint", method: "GET", path: "/v2/serverless/{ep2}", want: 200},
		{name: "get endpoint unknown", method: "GET", path: "/v2/serverless/nope", want: 404},
		{name: "patch endpoint", method: "PATCH", path: "/v2/serverless/{ep}", body: map[string]any{"workers": map[string]any{"max": 5}, "image": "runpod/worker:2"}, want: 200},
		{name: "patch cpu endpoint with gpu", method: "PATCH", path: "/v2/serverless/{ep2}", body: map[string]any{"gpu": map[string]any{"count": 2}}, want: 400},
		{name: "patch endpoint bogus", method: "PATCH", path: "/v2/serverless/{ep}", body: map[string]any{"type": "QUEUE"}, want: 422, badSchema: true},
		{name: "patch endpoint unknown", method: "PATCH", path: "/v2/serverless/nope", body: map[string]any{"name": "x"}, want: 404},
		{name: "workers", advance: 15 * time.Second, method: "GET", path: "/v2/serverless/{ep}/workers", want: 200, save: "worker", saveFrom: "workers"},
		{name: "workers unknown", method: "GET", path: "/v2/serverless/nope/workers", want: 404},
		{name: "releases", method: "GET", path: "/v2/serverless/{ep}/releases", want: 200},
		{name: "releases unknown", method: "GET", path: "/v2/serverless/nope/releases", want: 404},
		{name: "worker logs", method: "GET", path: "/v2/serverless/{ep}/workers/{worker}/logs?source=container&tail=5", want: 200},
		{name: "worker logs unknown", method: "GET", path: "/v2/serverless/{ep}/workers/nope/logs", want: 404},
		{name: "delete endpoint", method: "DELETE", path: "/v2/serverless/{ep}", want: 204},
		{name: "delete endpoint again", method: "DELETE", path: "/v2/serverless/{ep}", want: 404},

		// deletes
		{name: "delete public template", method: "DELETE", path: "/v2/templates/30zmvf89kd", want: 404},
		{name: "delete template", method: "DELETE", path: "/v2/templates/{tpl}", want: 204},
		{name: "delete template again", method: "DELETE", path: "/v2/templates/{tpl}", want: 404},
		{name: "delete registry", method: "DELETE", path: "/v2/registries/{reg}", want: 204},
		{name: "delete registry again", method: "DELETE", path: "/v2/registries/{reg}", want: 404},
		{name: "delete volume", method: "DELETE", path: "/v2/network-volumes/{vol}", want: 204},
		{name: "delete volume again", method: "DELETE", path: "/v2/network-volumes/{vol}", want: 404},

		// billing
		{name: "billing", method: "GET", path: "/v2/billing", want: 200},
		{name: "billing hourly", method: "GET", path: "/v2/billing?bucketSize=hour&lastN=24", want: 200},
		{name: "billing range", method: "GET", path: "/v2/billing?startTime=2026-06-01T00:00:00Z&endTime=2026-06-16T00:00:00Z&bucketSize=week", want: 200},
		{name: "billing lastN and range", method: "GET", path: "/v2/billing?lastN=3&startTime=2026-06-01T00:00:00Z", want: 400},
		{name: "billing bad bucket", method: "GET", path: "/v2/billing?bucketSize=fortnight", want: 422},
		{name: "pod billing", method: "GET", path: "/v2/billing/pods", want: 200},
		{name: "pod billing filtered", method: "GET", path: "/v2/billing/pods?podId={seed-pytorch-training}&bucketSize=day&lastN=3", want: 200},
		{name: "serverless billing", method: "GET", path: "/v2/billing/serverless?bucketSize=month&lastN=2", want: 200},
		{name: "endpoint billing", method: "GET", path: "/v2/billing/endpoints", want: 200},
		{name: "volume billing", method: "GET", path: "/v2/billing/network-volumes?bucketSize=year&lastN=1", want: 200},
		{name: "cluster billing", method: "GET", path: "/v2/billing/clusters", want: 200},
		{name: "cluster billing filtered", method: "GET", path: "/v2/billing/clusters?clusterId=nope", want: 200},

		// auth
		{name: "unauthenticated", method: "GET", path: "/v2/pods", want: 401},
	}

	for _, st := range steps {
		if st.when != nil && !st.when(opts) {
			continue
		}
		clk.Advance(st.advance)
		path := expand(st.path)
		var body []byte
		switch b := st.body.(type) {
		case nil:
		case string:
			body = []byte(b)
		default:
			raw, _ := json.Marshal(b)
			body = []byte(expand(string(raw)))
		}
		var rec *httptest.ResponseRecorder
		if st.want == 401 {
			rec = do(t, s, st.method, path, nil, "Authorization", "")
		} else if body != nil {
			rec = do(t, s, st.method, path, body)
		} else {
			rec = do(t, s, st.method, path, nil)
		}
		if rec.Code != st.want {
			t.Errorf("%s: %s %s: status %d, want %d: %s", st.name, st.method, path, rec.Code, st.want, rec.Body.String())
			continue
		}
		if err := spec.ValidateResponse(st.method, path, rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
			t.Errorf("%s: %v", st.name, err)
		}
		if body != nil && st.method != "GET" {
			hdr := http.Header{"Content-Type": []string{"application/json"}}
			err := spec.ValidateRequest(st.method, path, hdr, body)
			if rec.Code < 300 && err != nil {
				t.Errorf("%s: the test's own request is not valid per the contract: %v", st.name, err)
			}
			if st.badSchema && err == nil {
				t.Errorf("%s: marked badSchema but the contract accepts the request", st.name)
			}
		}
		if rec.Code < 300 {
			if id, _, ok := spec.FindOperation(st.method, path); ok {
				covered[id] = true
			}
		}
		if id, _, ok := spec.FindOperation(st.method, path); ok {
			hit[id] = true
		}
		if st.save != "" {
			m := obj(t, rec)
			if st.saveFrom != "" {
				items, _ := m[st.saveFrom].([]any)
				if len(items) == 0 {
					t.Fatalf("%s: no %s to save", st.name, st.saveFrom)
				}
				m, _ = items[0].(map[string]any)
			}
			vars[st.save] = str(m, "id")
		}
		if st.check != nil {
			st.check(t, rec)
		}
	}

	var missing []string
	for _, op := range spec.Operations() {
		if !covered[op.OperationID] {
			missing = append(missing, op.Method+" "+op.Path+" ("+op.OperationID+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("operations never answered with a 2xx by the contract walk:\n  %s", strings.Join(missing, "\n  "))
	}
}

// TestContractErrorsAndHeaders validates the cross-cutting answers (403, 429,
// 405, 404 on unknown paths, rate-limit headers) against the contract.
func TestContractErrorsAndHeaders(t *testing.T) {
	spec := speccheck.LoadForTest(t, "v2.openapi.json")
	s, _ := newTestServer(Options{Seed: true, RateLimitPerMinute: 2, ForbiddenKeys: []string{"nope-key"}})

	rec := do(t, s, "GET", "/v2/network-volumes", nil)
	if err := spec.ValidateResponse("GET", "/v2/network-volumes", rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
		t.Errorf("200 with rate-limit headers: %v", err)
	}
	rec = do(t, s, "GET", "/v2/pods", nil, "Authorization", "Bearer nope-key")
	expectStatus(t, rec, 403)
	if err := spec.ValidateResponse("GET", "/v2/pods", rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
		t.Errorf("403: %v", err)
	}
	do(t, s, "GET", "/v2/pods", nil)
	rec = do(t, s, "GET", "/v2/templates", nil)
	expectStatus(t, rec, 429)
	if err := spec.ValidateResponse("GET", "/v2/templates", rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
		t.Errorf("429: %v", err)
	}

	// A pod in ERROR, and one stopped after it ran, still match the Pod schema.
	s3, clk3 := newTestServer(Options{})
	errored := createPodT(t, s3, gpuPodBody("e"))
	stopped := createPodT(t, s3, gpuPodBody("s"))
	clk3.Advance(time.Minute)
	s3.SetPodError(errored)
	do(t, s3, "POST", "/v2/pods/"+stopped+"/action", map[string]any{"action": "stop"})
	for _, id := range []string{errored, stopped} {
		rec := do(t, s3, "GET", "/v2/pods/"+id, nil)
		if err := spec.ValidateResponse("GET", "/v2/pods/"+id, rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
			t.Errorf("pod %s: %v", id, err)
		}
	}

	s2, _ := newTestServer(Options{})
	for _, tc := range []struct{ method, path string }{
		{"PUT", "/v2/pods"},         // 405
		{"GET", "/v2/nope"},         // 404 unknown path
		{"GET", "/v1/pods"},         // 404 not v2
		{"DELETE", "/v2/billing"},   // 405
		{"POST", "/v2/pods/x/logs"}, // 405
	} {
		rec := do(t, s2, tc.method, tc.path, nil)
		if err := spec.ValidateSchema("#/components/schemas/ErrorResponse", rec.Body.Bytes()); err != nil {
			t.Errorf("%s %s: %v", tc.method, tc.path, err)
		}
		if rec.Header().Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s %s: Content-Type %q", tc.method, tc.path, rec.Header().Get("Content-Type"))
		}
	}
}
