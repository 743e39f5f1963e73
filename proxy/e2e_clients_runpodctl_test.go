package proxy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// ---- what the clients decode into (their JSON shapes, not their code) ----

// ctlPod is runpodctl 2.7.2's view of a v1 pod: integer fields must be
// integers and env a map of strings, or the command fails to parse.
type ctlPod struct {
	ID                string            `json:"id"`
	Name              string            `json:"name"`
	DesiredStatus     string            `json:"desiredStatus"`
	CreatedAt         any               `json:"createdAt"`
	LastStatusChange  any               `json:"lastStatusChange"`
	UptimeSeconds     any               `json:"uptimeSeconds"`
	ImageName         string            `json:"imageName"`
	GpuTypeID         string            `json:"gpuTypeId"`
	GpuCount          int               `json:"gpuCount"`
	VolumeInGb        int               `json:"volumeInGb"`
	ContainerDiskInGb int               `json:"containerDiskInGb"`
	MemoryInGb        int               `json:"memoryInGb"`
	VcpuCount         int               `json:"vcpuCount"`
	VolumeMountPath   string            `json:"volumeMountPath"`
	Ports             []string          `json:"ports"`
	CostPerHr         float64           `json:"costPerHr"`
	Machine           map[string]any    `json:"machine"`
	Runtime           map[string]any    `json:"runtime"`
	Env               map[string]string `json:"env"`
}

type ctlEndpoint struct {
	ID                 string         `json:"id"`
	Name               string         `json:"name"`
	TemplateID         string         `json:"templateId"`
	GpuIDs             string         `json:"gpuIds"`
	InstanceIDs        []string       `json:"instanceIds"`
	NetworkVolumeID    string         `json:"networkVolumeId"`
	NetworkVolumeIDs   []any          `json:"networkVolumeIds"`
	Locations          string         `json:"locations"`
	IdleTimeout        int            `json:"idleTimeout"`
	ScalerType         string         `json:"scalerType"`
	ScalerValue        int            `json:"scalerValue"`
	WorkersMin         int            `json:"workersMin"`
	WorkersMax         int            `json:"workersMax"`
	GpuCount           int            `json:"gpuCount"`
	MinCudaVersion     string         `json:"minCudaVersion"`
	Flashboot          *bool          `json:"flashboot"`
	FlashBootType      string         `json:"flashBootType"`
	ComputeType        string         `json:"computeType"`
	ExecutionTimeoutMs int            `json:"executionTimeoutMs"`
	ModelReferences    []string       `json:"modelReferences"`
	Template           map[string]any `json:"template"`
	Workers            []any          `json:"workers"`
}

type ctlTemplate struct {
	ID                      string            `json:"id"`
	Name                    string            `json:"name"`
	ImageName               string            `json:"imageName"`
	IsServerless            bool              `json:"isServerless"`
	IsPublic                bool              `json:"isPublic"`
	IsRunpod                bool              `json:"isRunpod"`
	Category                string            `json:"category"`
	Ports                   []string          `json:"ports"`
	DockerEntrypoint        []string          `json:"dockerEntrypoint"`
	DockerStartCmd          []string          `json:"dockerStartCmd"`
	Env                     map[string]string `json:"env"`
	ContainerDiskInGb       int               `json:"containerDiskInGb"`
	ContainerRegistryAuthID string            `json:"containerRegistryAuthId"`
	VolumeInGb              int               `json:"volumeInGb"`
	VolumeMountPath         string            `json:"volumeMountPath"`
	Readme                  string            `json:"readme"`
}

type ctlVolume struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Size         int    `json:"size"`
	DataCenterID string `json:"dataCenterId"`
}

type ctlRegistry struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Username string `json:"username"`
}

type ctlBilling struct {
	Time            string  `json:"time"`
	Amount          float64 `json:"amount"`
	TimeBilledMs    int64   `json:"timeBilledMs"`
	DiskSpaceBilled int     `json:"diskSpaceBilledGb"`
	PodID           string  `json:"podId"`
	EndpointID      string  `json:"endpointId"`
	GpuTypeID       string  `json:"gpuTypeId"`
}

// listedSince is runpodctl's pod list --since / --created-after filter:
// the pods whose createdAt is at or after cutoff.
func listedSince(t *testing.T, r *e2eResp, cutoff time.Time) map[string]bool {
	t.Helper()
	var pods []ctlPod
	if err := json.Unmarshal(r.body, &pods); err != nil {
		t.Fatalf("runpodctl cannot decode the list: %v", err)
	}
	out := map[string]bool{}
	for _, p := range pods {
		s, _ := p.CreatedAt.(string)
		c, err := time.Parse(time.RFC3339, s)
		if err != nil || c.Before(cutoff) {
			continue
		}
		out[p.ID] = true
	}
	return out
}

// ---- runpodctl 2.7.2 ----

// ctlPodAliasReads are the pod fields runpodctl 2.7.2 prints under names
// v1's Pod schema does not have (it calls them image and gpu.{id,count});
// issue 14 lists them among its reads, and the gateway answers them beside
// image and gpu (podjson.V1Pod.ImageName).
var ctlPodAliasReads = []string{"imageName", "gpuTypeId", "gpuCount"}

// runpodctl272 lists every v1 REST call of runpodctl 2.7.2, in the order of
// a user session. Its GPU pod create, serverless create, template search and
// SSH info go to GraphQL (see the graphql cases). Bodies are Go structs with
// omitempty: zero values are never sent.
func runpodctl272() []clientCase {
	const c = "runpodctl 2.7.2: "
	return []clientCase{
		{name: c + "pod create --compute-type cpu --image ubuntu:22.04 --name cpu-ctl",
			method: "POST", path: "/v1/pods",
			body:   `{"name":"cpu-ctl","imageName":"ubuntu:22.04","computeType":"CPU","containerDiskInGb":20,"volumeMountPath":"/workspace","cloudType":"SECURE"}`,
			status: 201, decode: ctlPod{}, save: "cpupod",
			reads: []string{"id", "name", "desiredStatus", "image", "createdAt", "vcpuCount", "memoryInGb", "cpuFlavorId"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if v := r.json(t)["vcpuCount"]; v != 2.0 {
					t.Errorf("vcpuCount %v, want v1's default 2", v)
				}
			}},
		{name: c + "pod restart (right after create)",
			method: "POST", path: "/v1/pods/{cpupod}/restart",
			status: 200, decode: ctlPod{}, reads: []string{"id", "desiredStatus"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) { wantWarning(t, r) }},
		{name: c + "pod create --compute-type cpu --docker-args 'sleep infinity' --ports '8888/http, 22/tcp' --env --data-center-ids",
			method: "POST", path: "/v1/pods",
			body:   `{"imageName":"ubuntu:22.04","computeType":"CPU","containerDiskInGb":20,"volumeMountPath":"/workspace","ports":["8888/http"," 22/tcp"],"env":{"A":"1"},"cloudType":"SECURE","dataCenterIds":["EU-RO-1"],"dockerArgs":"sleep infinity"}`,
			status: 201, decode: ctlPod{}, reads: []string{"id", "image", "createdAt"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantNothingDropped("dockerArgs")(t, w, r)
				if a := w.lastV2Body("/v2/pods")["args"]; a != "sleep infinity" {
					t.Errorf("v2 args %v, want the dockerArgs the user gave", a)
				}
				if p := r.json(t)["ports"]; !jsonEq(p, []any{"8888/http", "22/tcp"}) {
					t.Errorf("ports %v, want the two ports normalised", p)
				}
			}},
		{name: c + "pod create --compute-type cpu --min-cuda-version 12.6",
			method: "POST", path: "/v1/pods",
			body:   `{"imageName":"ubuntu:22.04","computeType":"CPU","containerDiskInGb":20,"volumeMountPath":"/workspace","cloudType":"SECURE","minCudaVersion":"12.6"}`,
			status: 201, refusable: "minCudaVersion", decode: ctlPod{}, reads: []string{"id"},
			check: wantNothingDropped("minCudaVersion")},
		{name: c + "pod create --compute-type cpu --data-center-ids XX-NOWHERE-1 (a v1 error naming the v1 field)",
			method: "POST", path: "/v1/pods",
			body:   `{"imageName":"ubuntu:22.04","computeType":"CPU","containerDiskInGb":20,"volumeMountPath":"/workspace","cloudType":"SECURE","dataCenterIds":["XX-NOWHERE-1"]}`,
			status: 400,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if m := r.message(t); !strings.Contains(m, "dataCenterIds") {
					t.Errorf("message %q does not name dataCenterIds", m)
				}
			}},
		// supportPublicIp is accepted with a warning (P1); v2 runs CPU pods
		// on SECURE only, and says so.
		{name: c + "pod create --compute-type cpu --cloud-type COMMUNITY --public-ip (refused by v2: CPU pods are SECURE only)",
			method: "POST", path: "/v1/pods",
			body:   `{"imageName":"ubuntu:22.04","computeType":"CPU","supportPublicIp":true,"containerDiskInGb":20,"volumeMountPath":"/workspace","cloudType":"COMMUNITY"}`,
			status: 400, check: all(acceptedUnchecked("supportPublicIp"), messageNaming("SECURE cloud only"))},
		{name: c + "pod list", method: "GET", path: "/v1/pods",
			status: 200, decode: []ctlPod{}, pick: "seedgpu",
			reads: []string{"id", "name", "desiredStatus", "image", "gpu.id", "gpu.count", "volumeInGb", "costPerHr", "createdAt"}},
		// runpodctl prints imageName, gpuTypeId (as gpuId) and gpuCount: names
		// its struct shares with GraphQL, which v1's Pod schema calls image
		// and gpu.{id,count}. Without them its list shows "" and 0.
		{name: c + "pod list (the names runpodctl prints: imageName, gpuTypeId, gpuCount)", method: "GET", path: "/v1/pods",
			status: 200, decode: []ctlPod{}, pick: "seedgpu", reads: ctlPodAliasReads},
		{name: c + "pod list (a CPU pod as the list prints it)", method: "GET", path: "/v1/pods",
			status: 200, decode: []ctlPod{}, pick: "cpupod",
			reads: []string{"id", "name", "desiredStatus", "image", "createdAt"}},
		{name: c + "pod list --compute-type CPU --name cpu-ctl", method: "GET", path: "/v1/pods?computeType=CPU&name=cpu-ctl",
			status: 200, decode: []ctlPod{}, pick: "cpupod", reads: []string{"id", "name"}},
		{name: c + "pod list --all --since 7d", method: "GET", path: "/v1/pods",
			status: 200, decode: []ctlPod{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if got := listedSince(t, r, w.clock.now().Add(-7*24*time.Hour)); !got[w.ids["cpupod"]] {
					t.Errorf("--since 7d does not list the pod created just now: %v", got)
				}
			}},
		{name: c + "pod list --all --created-after <yesterday>", method: "GET", path: "/v1/pods",
			status: 200, decode: []ctlPod{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				y := w.clock.now().AddDate(0, 0, -1).Truncate(24 * time.Hour)
				if got := listedSince(t, r, y); !got[w.ids["cpupod"]] {
					t.Errorf("--created-after does not list the pod created today: %v", got)
				}
			}},
		{name: c + "pod get", method: "GET", path: "/v1/pods/{cpupod}",
			status: 200, decode: ctlPod{}, reads: []string{"id", "name", "desiredStatus", "image", "createdAt", "memoryInGb", "vcpuCount"}},
		{name: c + "pod get --include-machine --include-network-volume", method: "GET", path: "/v1/pods/{seedgpu}?includeMachine=true&includeNetworkVolume=true",
			status: 200, decode: ctlPod{}, reads: []string{"id", "image", "gpu.id", "costPerHr", "createdAt", "machine", "machine.dataCenterId"}},
		{name: c + "pod get (the names runpodctl prints: imageName, gpuTypeId, gpuCount)", method: "GET", path: "/v1/pods/{seedgpu}",
			status: 200, decode: ctlPod{}, reads: ctlPodAliasReads},
		{name: c + "pod update --name renamed --container-disk-in-gb 30", method: "PATCH", path: "/v1/pods/{seedgpu}",
			body: `{"name":"renamed","containerDiskInGb":30}`, status: 200, decode: ctlPod{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "renamed")(t, w, r)
				wantField("containerDiskInGb", 30.0)(t, w, r)
			}},
		{name: c + "pod update --env (1/2: GET the pod's env)", method: "GET", path: "/v1/pods/{seedgpu}",
			status: 200, decode: ctlPod{}, reads: []string{"env.PUBLIC_KEY"}},
		{name: c + "pod update --env '{\"B\":\"2\"}' (2/2: PATCH the merged env)", method: "PATCH", path: "/v1/pods/{seedgpu}",
			bodyFn: func(w *clientWorld) string {
				env := map[string]any{}
				if e, ok := w.last["env"].(map[string]any); ok {
					env = e
				}
				env["B"] = "2"
				b, _ := json.Marshal(map[string]any{"env": env})
				return string(b)
			},
			status: 200, decode: ctlPod{}, reads: []string{"env.B", "env.PUBLIC_KEY", "env.JUPYTER_ENABLE_LAB"}},
		{name: c + "pod update --ports 8888/http,22/tcp", method: "PATCH", path: "/v1/pods/{seedgpu}",
			body: `{"ports":["8888/http","22/tcp"]}`, status: 200, decode: ctlPod{},
			check: wantField("ports", []any{"8888/http", "22/tcp"})},
		{name: c + "pod update --ports '8888/http, 22/tcp' (a space after the comma)", method: "PATCH", path: "/v1/pods/{seedgpu}",
			body: `{"ports":["8888/http"," 22/tcp"]}`, status: 200, decode: ctlPod{},
			check: wantField("ports", []any{"8888/http", "22/tcp"})},
		{name: c + "pod stop", advance: 30 * time.Second, method: "POST", path: "/v1/pods/{seedgpu}/stop",
			status: 200, decode: ctlPod{}, check: wantField("desiredStatus", "EXITED")},
		{name: c + "pod start", method: "POST", path: "/v1/pods/{seedgpu}/start",
			status: 200, decode: ctlPod{}, check: wantField("desiredStatus", "RUNNING")},
		{name: c + "pod restart", advance: 30 * time.Second, method: "POST", path: "/v1/pods/{seedgpu}/restart",
			status: 200, decode: ctlPod{}, check: wantField("desiredStatus", "RUNNING")},
		{name: c + "pod reset (refused by default, naming restart)", method: "POST", path: "/v1/pods/{seedgpu}/reset",
			status: 400,
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if m := r.message(t); !strings.Contains(m, "restart") {
					t.Errorf("reset message %q", m)
				}
			}},

		{name: c + "template create --name tpl-ctl --image alpine:3 --ports 8888/http --env", method: "POST", path: "/v1/templates",
			body:   `{"name":"tpl-ctl","imageName":"alpine:3","ports":["8888/http"],"env":{"K":"v"},"containerDiskInGb":20,"volumeMountPath":"/workspace"}`,
			status: 200, decode: ctlTemplate{}, save: "tpl", reads: []string{"id", "name", "imageName", "ports"}},
		{name: c + "template create --serverless", method: "POST", path: "/v1/templates",
			body:   `{"name":"tpl-sls","imageName":"alpine:3","isServerless":true,"containerDiskInGb":20}`,
			status: 200, decode: ctlTemplate{}, save: "tplsls", reads: []string{"id", "name", "imageName"},
			check: wantField("isServerless", true)},
		{name: c + "template list --type user", method: "GET", path: "/v1/templates",
			status: 200, decode: []ctlTemplate{}, pick: "tpl", reads: []string{"id", "name", "imageName"}},
		{name: c + "template get", method: "GET", path: "/v1/templates/{tpl}",
			status: 200, decode: ctlTemplate{}, reads: []string{"id", "name", "imageName", "ports", "env"}},
		{name: c + "template update --name --env --container-disk-in-gb", method: "PATCH", path: "/v1/templates/{tpl}",
			body: `{"name":"tpl-ctl2","env":{"K":"w"},"containerDiskInGb":25}`, status: 200, decode: ctlTemplate{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "tpl-ctl2")(t, w, r)
				wantField("env", map[string]any{"K": "w"})(t, w, r)
				wantField("containerDiskInGb", 25.0)(t, w, r)
			}},

		{name: c + "serverless list", method: "GET", path: "/v1/endpoints",
			status: 200, decode: []ctlEndpoint{}, pick: "seedep", reads: []string{"id", "name", "computeType", "workersMax"}},
		{name: c + "serverless list --include-template --include-workers", method: "GET", path: "/v1/endpoints?includeTemplate=true&includeWorkers=true",
			status: 200, decode: []ctlEndpoint{}, pick: "seedep", reads: []string{"id", "name", "template"}},
		{name: c + "serverless get", method: "GET", path: "/v1/endpoints/{seedep}",
			status: 200, decode: ctlEndpoint{}, reads: []string{"id", "name", "workersMax", "idleTimeout", "scalerType"}},
		{name: c + "serverless get --include-template --include-workers", method: "GET", path: "/v1/endpoints/{seedep}?includeTemplate=true&includeWorkers=true",
			status: 200, decode: ctlEndpoint{}, reads: []string{"id", "template"}},
		{name: c + "serverless update --name --workers-min 0 --workers-max 2 --idle-timeout 10 --scale-by delay --scale-threshold 4 (1/2: PATCH)",
			method: "PATCH", path: "/v1/endpoints/{seedep}",
			body:   `{"name":"ep-ctl2","workersMax":2,"idleTimeout":10,"scalerType":"QUEUE_DELAY","scalerValue":4}`,
			status: 200, decode: ctlEndpoint{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "ep-ctl2")(t, w, r)
				wantField("workersMax", 2.0)(t, w, r)
				wantField("idleTimeout", 10.0)(t, w, r)
			}},
		{name: c + "serverless update (2/2: GET)", method: "GET", path: "/v1/endpoints/{seedep}",
			status: 200, decode: ctlEndpoint{}, check: wantField("name", "ep-ctl2")},

		{name: c + "network-volume create --name vol-ctl --size 20 --data-center-id EU-RO-1", method: "POST", path: "/v1/networkvolumes",
			body: `{"name":"vol-ctl","size":20,"dataCenterId":"EU-RO-1"}`, status: 200, decode: ctlVolume{}, save: "vol",
			reads: []string{"id", "name", "size", "dataCenterId"}},
		{name: c + "network-volume list", method: "GET", path: "/v1/networkvolumes",
			status: 200, decode: []ctlVolume{}, pick: "vol", reads: []string{"id", "name", "size", "dataCenterId"}},
		{name: c + "network-volume get", method: "GET", path: "/v1/networkvolumes/{vol}",
			status: 200, decode: ctlVolume{}, reads: []string{"id", "name", "size", "dataCenterId"}},
		{name: c + "network-volume update --size 40", method: "PATCH", path: "/v1/networkvolumes/{vol}",
			body: `{"size":40}`, status: 200, decode: ctlVolume{}, check: wantField("size", 40.0)},
		{name: c + "network-volume update --name vol-ctl2", method: "PATCH", path: "/v1/networkvolumes/{vol}",
			body: `{"name":"vol-ctl2"}`, status: 200, decode: ctlVolume{},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				wantField("name", "vol-ctl2")(t, w, r)
				wantField("size", 40.0)(t, w, r)
			}},

		{name: c + "registry create --name reg-ctl --username u --password p", method: "POST", path: "/v1/containerregistryauth",
			body: `{"name":"reg-ctl","username":"u","password":"p"}`, status: 200, decode: ctlRegistry{}, save: "reg",
			reads: []string{"id", "name"},
			check: func(t *testing.T, w *clientWorld, r *e2eResp) {
				if bytes.Contains(r.body, []byte(`"password"`)) {
					t.Errorf("the password came back: %s", r.body)
				}
			}},
		{name: c + "registry list", method: "GET", path: "/v1/containerregistryauth",
			status: 200, decode: []ctlRegistry{}, pick: "reg", reads: []string{"id", "name"}},
		{name: c + "registry get", method: "GET", path: "/v1/containerregistryauth/{reg}",
			status: 200, decode: ctlRegistry{}, reads: []string{"id", "name"}},

		{name: c + "billing pods", method: "GET", path: "/v1/billing/pods?bucketSize=day&grouping=gpuTypeId",
			status: 200, decode: []ctlBilling{}, reads: []string{"time"}},
		{name: c + "billing pods --grouping podId --bucket-size hour --start-time --end-time", method: "GET",
			path:   "/v1/billing/pods?bucketSize=hour&endTime=2026-06-01T12%3A00%3A00Z&grouping=podId&startTime=2026-05-25T00%3A00%3A00Z",
			status: 200, decode: []ctlBilling{}, reads: []string{"time", "podId"}},
		{name: c + "billing pods --gpu-id 'NVIDIA GeForce RTX 4090'", method: "GET",
			path:   "/v1/billing/pods?bucketSize=day&gpuTypeId=NVIDIA+GeForce+RTX+4090&grouping=gpuTypeId",
			status: 200, decode: []ctlBilling{}, reads: []string{"time", "gpuTypeId"}},
		{name: c + "billing serverless", method: "GET", path: "/v1/billing/endpoints?bucketSize=day&grouping=endpointId",
			status: 200, decode: []ctlBilling{}, reads: []string{"time", "endpointId"}},
		{name: c + "billing network-volume", method: "GET", path: "/v1/billing/networkvolumes?bucketSize=day",
			status: 200, decode: []ctlBilling{}, reads: []string{"time"}},

		// RUNPOD_API_URL / restApiUrl written with a trailing slash.
		{name: c + "pod list with RUNPOD_API_URL=http://gateway/v1/", method: "GET", path: "/v1//pods",
			status: 200, decode: []ctlPod{}, pick: "seedgpu", reads: []string{"id"}},
		{name: c + "network-volume list with RUNPOD_API_URL=http://gateway/v1/", method: "GET", path: "/v1//networkvolumes",
			status: 200, decode: []ctlVolume{}},
		{name: c + "serverless delete", method: "DELETE", path: "/v1/endpoints/{seedep}", status: 204},
		{name: c + "template delete", method: "DELETE", path: "/v1/templates/{tpl}", status: 204},
		{name: c + "template delete (the serverless one)", method: "DELETE", path: "/v1/templates/{tplsls}", status: 204},
		{name: c + "network-volume delete", method: "DELETE", path: "/v1/networkvolumes/{vol}", status: 204},
		{name: c + "registry delete", method: "DELETE", path: "/v1/containerregistryauth/{reg}", status: 204},
		{name: c + "pod delete (the CPU pod)", method: "DELETE", path: "/v1/pods/{cpupod}", status: 204},
		{name: c + "pod delete", method: "DELETE", path: "/v1/pods/{seedgpu}", status: 204},
	}
}

// runpodctlGraphQL lists what runpodctl 2.7.2 sends to RUNPOD_GRAPHQL_URL
// when that points at the gateway: passed through verbatim (item 8).
func runpodctlGraphQL() []clientCase {
	const c = "runpodctl 2.7.2: "
	pass := func(t *testing.T, w *clientWorld, r *e2eResp) {
		t.Helper()
		got, ok := w.graphql.last()
		if !ok {
			t.Fatal("nothing reached the GraphQL upstream")
		}
		if got.auth != "Bearer k1" {
			t.Errorf("upstream Authorization %q", got.auth)
		}
		if !bytes.Equal(r.body, []byte(`{"data":{"upstream":"graphql"}}`)) {
			t.Errorf("answer not passed through verbatim: %s", r.body)
		}
	}
	return []clientCase{
		{name: c + "pod create --image runpod/pytorch:2 --gpu-id 'NVIDIA GeForce RTX 4090' (GraphQL podFindAndDeployOnDemand)",
			method: "POST", path: "/graphql",
			body:   `{"query":"\n\t\tmutation createPod($input: PodFindAndDeployOnDemandInput!) {\n\t\t\tpodFindAndDeployOnDemand(input: $input) {\n\t\t\t\tid\n\t\t\t\tname\n\t\t\t\timageName\n\t\t\t\tdesiredStatus\n\t\t\t}\n\t\t}\n\t","variables":{"input":{"cloudType":"SECURE","containerDiskInGb":20,"gpuCount":1,"gpuTypeId":"NVIDIA GeForce RTX 4090","imageName":"runpod/pytorch:2","name":"gpu-ctl","startSsh":true,"volumeMountPath":"/workspace"}}}`,
			status: 200, check: pass},
		{name: c + "pod get (GraphQL myPods for SSH info)",
			method: "POST", path: "/graphql",
			body:   `{"query":"\n\t\tquery myPods {\n\t\t\tmyself {\n\t\t\t  pods {\n\t\t\t\tid\n\t\t\t\tdesiredStatus\n\t\t\t  }\n\t\t\t}\n\t\t}\n\t","variables":null}`,
			status: 200, check: pass},
		{name: c + "serverless create (GraphQL saveEndpoint)",
			method: "POST", path: "/graphql",
			body:   `{"query":"\n\t\tmutation SaveEndpoint($input: EndpointInput!) {\n\t\t\tsaveEndpoint(input: $input) {\n\t\t\t\tid\n\t\t\t\tname\n\t\t\t}\n\t\t}\n\t","variables":{"input":{"name":"ep-ctl","templateId":"abc","gpuIds":"ADA_24","gpuCount":1,"workersMax":3}}}`,
			status: 200, check: pass},
	}
}
