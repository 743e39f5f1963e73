package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/translate"
)

// The root fields and fields of issue 36 item 2, each on a v1 operation's
// plan or a read of translate (the world's caller checks every v2 request
// they send against the v2 OpenAPI document).

func TestCPUFlavorsAndCountryCodesAreReadFromTheV2Catalog(t *testing.T) {
	w := newWorld(t)
	w.env.Anonymous, w.env.KeyID = true, "" // public, as the vendor's were
	a := w.ok(`query { countryCodes cpuFlavors { id displayName groupName minVcpu maxVcpu ramMultiplier groupId
		specifics(input: {dataCenterId: "EU-RO-1"}) { stockStatus securePrice slsPrice } } }`, "")
	if got := fmt.Sprint(a.Data["countryCodes"]); got != "[US CA RO CZ JP]" {
		t.Errorf("countryCodes %s", got)
	}
	flavors, _ := a.Data["cpuFlavors"].([]any)
	if len(flavors) == 0 {
		t.Fatalf("cpuFlavors: %s", a.raw)
	}
	for _, p := range []string{"id", "displayName", "groupName", "minVcpu", "maxVcpu", "ramMultiplier", "specifics.securePrice", "specifics.slsPrice"} {
		if path(flavors[0], p) == nil {
			t.Errorf("cpuFlavors.0.%s is null: %s", p, a.raw)
		}
	}
	if !a.warned("CpuFlavor.groupId") {
		t.Errorf("groupId has no v2 source and is named: %q", a.resp.Warnings)
	}
	// One flavor, its price at the instance's vCPUs.
	one := w.ok(`query { cpuFlavors(input: {id: "cpu3c"}) { id minVcpu specifics(input: {instanceId: "cpu3c-4-8"}) { securePrice stockStatus } } }`, "")
	if l, _ := one.Data["cpuFlavors"].([]any); len(l) != 1 || path(l[0], "id") != "cpu3c" {
		t.Fatalf("cpuFlavors(cpu3c): %s", one.raw)
	}
	none := w.ok(`query { cpuFlavors(input: {id: "cpu99z"}) { id } }`, "")
	if l, ok := none.Data["cpuFlavors"].([]any); !ok || len(l) != 0 {
		t.Errorf("an unknown flavor: %s", none.raw)
	}
}

func TestDataCentersAnswerListingStorageComplianceAndGPUs(t *testing.T) {
	w := newWorld(t)
	a := w.ok(`query { dataCenters { id name location listed storageSupport globalNetwork compliance
		gpuAvailability { id gpuTypeId available stockStatus displayName gpuTypeDisplayName } } }`, "")
	dcs, _ := a.Data["dataCenters"].([]any)
	var jp, ca map[string]any
	for _, d := range dcs {
		m := d.(map[string]any)
		switch m["id"] {
		case "AP-JP-1":
			jp = m
		case "CA-MTL-1":
			ca = m
		}
		if m["listed"] != true || m["location"] == nil {
			t.Errorf("%v", m)
		}
	}
	if jp == nil || ca == nil {
		t.Fatalf("dataCenters: %s", a.raw)
	}
	if jp["storageSupport"] != false || ca["storageSupport"] != true || ca["globalNetwork"] != false {
		t.Errorf("storage and network: %v %v", jp, ca)
	}
	// v2's RENEWABLE is not a value of the vendor's Compliance enum.
	if got := fmt.Sprint(ca["compliance"]); got != "[SOC_2_TYPE_2]" {
		t.Errorf("CA-MTL-1 compliance %s", got)
	}
}

func TestNetworkVolumesAreCreatedAndDeleted(t *testing.T) {
	w := newWorld(t)
	a := w.ok(`mutation { createNetworkVolume(input: {name: "data", size: 100, dataCenterId: "EU-RO-1"}) { id name size dataCenterId dataCenter { id name } } }`, "")
	id, _ := path(a.Data, "createNetworkVolume.id").(string)
	if id == "" || path(a.Data, "createNetworkVolume.dataCenter.name") != "EU Romania 1" || path(a.Data, "createNetworkVolume.size") != float64(100) {
		t.Fatalf("createNetworkVolume: %s", a.raw)
	}
	mine := w.ok(`query { myself { networkVolumes { id dataCenter { id } } } }`, "")
	if !strings.Contains(string(mine.raw), id) {
		t.Errorf("myself.networkVolumes: %s", mine.raw)
	}
	del := fmt.Sprintf(`mutation { deleteNetworkVolume(input: {id: %q}) }`, id)
	if d := w.ok(del, ""); d.Data["deleteNetworkVolume"] != nil {
		t.Errorf("deleteNetworkVolume: %s", d.raw)
	}
	// dstack takes the vendor's words as "already gone".
	again := w.do(del, "")
	if !strings.Contains(again.message(), "Tried to delete nonexistent network volume") || again.code() != "NOT_FOUND" {
		t.Errorf("a second delete: %s", again.raw)
	}
	if bad := w.do(`mutation { createNetworkVolume(input: {name: "x", size: 0, dataCenterId: "EU-RO-1"}) { id } }`, ""); bad.code() != "BAD_USER_INPUT" {
		t.Errorf("size 0: %s", bad.raw)
	}
}

func TestPodEditJobUpdatesThePod(t *testing.T) {
	w := newWorld(t)
	ids := seedIDs(t, w)
	mark := w.mark()
	a := w.ok(fmt.Sprintf(`mutation { podEditJob(input: {podId: %q, imageName: "runpod/base:1.0", dockerArgs: "sleep 60",
		env: [{key: "A", value: "1"}], ports: "8888/http", containerRegistryAuthId: %q}) { id imageName dockerArgs env ports containerRegistryAuthId } }`, ids["seedgpu"], ids["seedcra"]), "")
	if path(a.Data, "podEditJob.imageName") != "runpod/base:1.0" || path(a.Data, "podEditJob.dockerArgs") != "sleep 60" ||
		path(a.Data, "podEditJob.containerRegistryAuthId") != ids["seedcra"] || path(a.Data, "podEditJob.ports") != "8888/http" {
		t.Errorf("podEditJob: %s", a.raw)
	}
	if calls := w.callsSince(mark); !slices.Contains(calls, "PATCH /v2/pods/"+ids["seedgpu"]) {
		t.Errorf("v2 calls %v", calls)
	}
	for _, c := range []struct{ input, want string }{
		{`dockerArgs: "{\"cmd\": [\"sleep\"], \"entrypoint\": [\"/bin/sh\"]}"`, "dockerEntrypoint"},
		{`containerDiskInGb: 0`, "containerDiskInGb"},
	} {
		e := w.do(fmt.Sprintf(`mutation { podEditJob(input: {podId: %q, %s}) { id } }`, ids["seedgpu"], c.input), "")
		if !strings.Contains(e.message(), c.want) || e.code() != "BAD_USER_INPUT" {
			t.Errorf("%s: %s", c.input, e.raw)
		}
	}
}

func TestPodFieldsV2HasAValueFor(t *testing.T) {
	w := newWorld(t)
	ids := seedIDs(t, w)
	a := w.ok(fmt.Sprintf(`query { pod(input: {podId: %q}) { id cpuFlavorId lastStartedAt createdAt locked networkVolumeId
		networkVolume { id name dataCenter { id } } cpuFlavor { id displayName } machine { dataCenterId gpuTypeId secureCloud } } }`, ids["seedcpu"]), "")
	for _, p := range []string{"cpuFlavorId", "createdAt", "networkVolumeId", "networkVolume.name", "networkVolume.dataCenter.id", "cpuFlavor.displayName", "machine.secureCloud"} {
		if path(a.Data, "pod."+p) == nil {
			t.Errorf("pod.%s is null: %s", p, a.raw)
		}
	}
	if path(a.Data, "pod.cpuFlavor.id") != path(a.Data, "pod.cpuFlavorId") {
		t.Errorf("cpuFlavor: %s", a.raw)
	}
	g := w.ok(fmt.Sprintf(`query { pod(input: {podId: %q}) { lastStartedAt cpuFlavor { id } machine { gpuTypeId dataCenterId } } }`, ids["seedgpu"]), "")
	if path(g.Data, "pod.machine.gpuTypeId") != "NVIDIA GeForce RTX 4090" || path(g.Data, "pod.machine.dataCenterId") != "US-KS-2" ||
		path(g.Data, "pod.lastStartedAt") == nil || path(g.Data, "pod.cpuFlavor") != nil {
		t.Errorf("GPU pod: %s", g.raw)
	}
	r := w.ok(`query { myself { containerRegistryCreds { id name } } }`, "")
	if path(r.Data, "myself.containerRegistryCreds.0.name") != "dockerhub-private" {
		t.Errorf("containerRegistryCreds: %s", r.raw)
	}
	gt := w.ok(`query { gpuTypes(input: {id: "NVIDIA GeForce RTX 4090"}) { maxGpuCount maxGpuCountSecureCloud maxGpuCountCommunityCloud } }`, "")
	if path(gt.Data, "gpuTypes.0.maxGpuCountSecureCloud") != float64(8) || path(gt.Data, "gpuTypes.0.maxGpuCountCommunityCloud") != float64(4) {
		t.Errorf("max GPU counts: %s", gt.raw)
	}
}

func TestClustersAreCreatedReadAndDeleted(t *testing.T) {
	w := newWorld(t)
	mark := w.mark()
	a := w.ok(`mutation { createCluster(input: {clusterName: "train", gpuTypeId: "NVIDIA H100 80GB HBM3", podCount: 2, gpuCountPerPod: 8,
		type: TRAINING, imageName: "runpod/pytorch:2", dataCenterId: "US-KS-2", containerDiskInGb: 100, deployCost: 47.84,
		dockerArgs: "{\"cmd\": [\"sleep\", \"infinity\"]}", env: [{key: "A", value: "1"}], ports: "10022/tcp"})
		{ id name type gpuTypeId podCount gpuCountPerPod pods { id clusterId clusterIp imageName dockerArgs machine { podHostId } } } }`, "")
	id, _ := path(a.Data, "createCluster.id").(string)
	if id == "" || path(a.Data, "createCluster.type") != "TRAINING" || path(a.Data, "createCluster.podCount") != float64(2) {
		t.Fatalf("createCluster: %s", a.raw)
	}
	if !a.warned("deployCost was not applied") {
		t.Errorf("warnings %q", a.resp.Warnings)
	}
	if calls := w.callsSince(mark); !slices.Contains(calls, "POST /v2/clusters") || !slices.Contains(calls, "GET /v2/clusters/"+id+"/pods") {
		t.Errorf("v2 calls %v", calls)
	}
	if body := w.bodyOf(mark, "POST", "/v2/clusters"); fmt.Sprint(body["dataCenterIds"]) != "[US-KS-2]" || body["args"] != "sleep infinity" || body["disk"] != float64(100) {
		t.Errorf("the v2 body %v", body)
	}
	// The member pods are placed one after the other.
	w.now = w.now.Add(10 * time.Minute)
	mine := w.ok(`query { myself { clusters { id name pods { id clusterId clusterIp imageName dockerArgs machine { podHostId } } } } }`, "")
	pods, _ := path(mine.Data, "myself.clusters.0.pods").([]any)
	if path(mine.Data, "myself.clusters.0.id") != id || len(pods) != 2 || path(pods[0], "clusterId") != id ||
		path(pods[0], "imageName") != "runpod/pytorch:2" || path(pods[0], "dockerArgs") != "sleep infinity" {
		t.Errorf("myself.clusters: %s", mine.raw)
	}
	if !mine.warned("PodMachineInfo.podHostId") {
		t.Errorf("warnings %q", mine.resp.Warnings)
	}
	del := fmt.Sprintf(`mutation { deleteCluster(input: {id: %q}) }`, id)
	if d := w.ok(del, ""); d.Data["deleteCluster"] != nil {
		t.Errorf("deleteCluster: %s", d.raw)
	}
	// dstack compares extensions.code to take the cluster as gone.
	if again := w.do(del, ""); again.code() != "Cluster not found" {
		t.Errorf("a second delete: %s", again.raw)
	}
	for _, c := range []struct{ input, code, want string }{
		{`clusterName: "x", gpuTypeId: "NVIDIA H100 80GB HBM3"`, "BAD_USER_INPUT", "gpuCountPerPod, podCount: required"},
		{`clusterName: "x", gpuTypeId: "NVIDIA H100 80GB HBM3", podCount: 2, gpuCountPerPod: 1, dockerArgs: "{\"cmd\": [\"x\"], \"entrypoint\": [\"/bin/sh\", \"-c\"]}"`, "BAD_USER_INPUT", "dockerEntrypoint"},
		{`clusterName: "x", gpuTypeId: "NVIDIA H100 80GB HBM3", podCount: 2, gpuCountPerPod: 1, containerRegistryAuthId: "r"`, "NOT_SUPPORTED_BY_V2", "private registry"},
	} {
		e := w.do(`mutation { createCluster(input: {`+c.input+`}) { id } }`, "")
		if e.code() != c.code || !strings.Contains(e.message(), c.want) {
			t.Errorf("%s: %s", c.input, e.raw)
		}
	}
}

func TestGPUTypesAnswerClusterDataCentersAndCompliance(t *testing.T) {
	w := newWorld(t)
	a := w.ok(`query { gpuTypes(input: {cluster: true}) { id nodeGroupDatacenters { id name }
		lowestPrice(input: {gpuCount: 1, secureCloud: true}) { stockStatus compliance } } }`, "")
	types, _ := a.Data["gpuTypes"].([]any)
	if len(types) == 0 {
		t.Fatalf("gpuTypes(cluster): %s", a.raw)
	}
	for _, g := range types {
		dcs, _ := path(g, "nodeGroupDatacenters").([]any)
		comp, _ := path(g, "lowestPrice.compliance").([]any)
		if len(dcs) == 0 || path(dcs[0], "name") == nil || len(comp) == 0 {
			t.Errorf("%v", g)
		}
		for _, c := range comp {
			if c == "RENEWABLE" {
				t.Errorf("a certification outside the vendor's enum: %v", g)
			}
		}
	}
	if a.warned("nodeGroupDatacenters") || a.warned("LowestPrice.compliance") {
		t.Errorf("warnings %q", a.resp.Warnings)
	}
}

// dockerArgs is read by one parser on the three paths that take it (a pod
// create, podEditJob, createCluster): a shell line verbatim, the JSON
// form's cmd as the start command, its entrypoint refused as
// dockerEntrypoint naming the setting (P1), dropped with a warning when
// field_policy says so, and a malformed JSON form refused naming
// dockerArgs; nothing is sent to v2 on a refusal.
func TestDockerArgsAreReadTheSameOnEveryPath(t *testing.T) {
	const (
		line     = `"sleep 60"`
		cmd      = `"{\"cmd\": [\"sleep\", \"60\"]}"`
		withEP   = `"{\"cmd\": [\"sleep\", \"60\"], \"entrypoint\": [\"/bin/sh\", \"-c\"]}"`
		badShape = `"{\"cmd\": \"sleep 60\"}"`
	)
	paths := []struct {
		name, method, v2 string
		doc              func(ids map[string]string, args string) string
	}{
		{"podFindAndDeployOnDemand", "POST", "/v2/pods", func(_ map[string]string, args string) string {
			return `mutation { podFindAndDeployOnDemand(input: {name: "a", imageName: "runpod/base:1.0", gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCount: 1, cloudType: SECURE, dockerArgs: ` + args + `}) { id } }`
		}},
		{"podEditJob", "PATCH", "/v2/pods/", func(ids map[string]string, args string) string {
			return fmt.Sprintf(`mutation { podEditJob(input: {podId: %q, dockerArgs: %s}) { id } }`, ids["seedgpu"], args)
		}},
		{"createCluster", "POST", "/v2/clusters", func(_ map[string]string, args string) string {
			return `mutation { createCluster(input: {clusterName: "c", gpuTypeId: "NVIDIA H100 80GB HBM3", podCount: 2, gpuCountPerPod: 1, imageName: "runpod/base:1.0", dockerArgs: ` + args + `}) { id } }`
		}},
	}
	for _, p := range paths {
		for _, c := range []struct {
			name, args string
			policy     map[string]string
			lenient    bool
			code, says string // a refusal; "": answered with v2 args "sleep 60"
		}{
			{name: "a shell line", args: line},
			{name: "the JSON form's cmd", args: cmd},
			{name: "an entrypoint", args: withEP, code: "BAD_USER_INPUT", says: "dockerEntrypoint: the entrypoint [\"/bin/sh\" \"-c\"] of dockerArgs' JSON form: v2 has no entrypoint override"},
			{name: "an entrypoint field_policy drops", args: withEP, policy: map[string]string{"dockerEntrypoint": "drop"}},
			{name: "an entrypoint compat_mode lenient drops", args: withEP, lenient: true},
			{name: "a malformed JSON form", args: badShape, code: "BAD_USER_INPUT", says: "dockerArgs: cmd in the JSON form of dockerArgs must be an array of strings"},
		} {
			t.Run(p.name+": "+c.name, func(t *testing.T) {
				w := newWorld(t)
				ids := seedIDs(t, w)
				w.env.Options.FieldPolicy, w.env.Options.Lenient = c.policy, c.lenient
				mark := w.mark()
				a := w.do(p.doc(ids, c.args), "")
				if c.code != "" {
					if a.code() != c.code || !strings.Contains(a.message(), c.says) {
						t.Errorf("want %s saying %q; got %s", c.code, c.says, a.raw)
					}
					if c.says[:16] == "dockerEntrypoint" && !strings.Contains(a.message(), "field_policy dockerEntrypoint: drop") {
						t.Errorf("the refusal does not name its setting: %s", a.raw)
					}
					for _, call := range w.callsSince(mark) {
						if !strings.HasPrefix(call, "GET ") {
							t.Errorf("a refused %s sent %s", p.name, call)
						}
					}
					return
				}
				if len(a.Errors) > 0 {
					t.Fatalf("errors: %s", a.raw)
				}
				if body := w.bodyOf(mark, p.method, p.v2); body["args"] != "sleep 60" {
					t.Errorf("v2 args %q, want \"sleep 60\" (%v)", body["args"], body)
				}
				if c.policy != nil && !a.warned("dropped dockerEntrypoint (field_policy dockerEntrypoint: drop): the entrypoint") {
					t.Errorf("the dropped entrypoint is not in the warnings %q", a.resp.Warnings)
				}
				if c.lenient && !a.warned("dropped dockerEntrypoint (compat_mode: lenient): the entrypoint") {
					t.Errorf("the dropped entrypoint is not in the warnings %q", a.resp.Warnings)
				}
			})
		}
	}
}

// Query.countryCodes reads a data center's country from its id
// (translate.DataCenterCountry: v2's DataCenter has a region, no
// country), while a pod create's countryCode is placed by v2's own
// countryCodes filter of its GPU catalog (the data centers v2 says are
// there). The two must agree: for each country the door answers, v2's
// filter finds data centers, on either cloud, and only ones whose id
// names that country.
func TestCountryCodesAgreeWithV2sCountryFilter(t *testing.T) {
	w := newWorld(t)
	a := w.ok(`query { countryCodes }`, "")
	countries, _ := a.Data["countryCodes"].([]any)
	if len(countries) == 0 {
		t.Fatalf("countryCodes: %s", a.raw)
	}
	for _, c := range countries {
		c := c.(string)
		var found []string
		for _, cloud := range []string{"SECURE", "COMMUNITY"} {
			r := httptest.NewRequestWithContext(context.Background(), http.MethodGet,
				"/v2/catalog/gpus?include=AVAILABILITY&product=POD&count=1&cloud="+cloud+"&countryCodes="+c, nil)
			r.Header.Set("Authorization", "Bearer k1")
			rec := httptest.NewRecorder()
			w.sim.ServeHTTP(rec, r)
			var list struct {
				GPUs []struct {
					DataCenters []struct{ ID string } `json:"dataCenters"`
				} `json:"gpus"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil || rec.Code != http.StatusOK {
				t.Fatalf("v2's GPU catalog in %s: %d %s", c, rec.Code, rec.Body.Bytes())
			}
			for _, g := range list.GPUs {
				for _, dc := range g.DataCenters {
					if !slices.Contains(found, dc.ID) {
						found = append(found, dc.ID)
					}
				}
			}
		}
		if len(found) == 0 {
			t.Errorf("%s: v2's filter finds no data center in it", c)
		}
		for _, id := range found {
			if got := translate.DataCenterCountry(id); got != c {
				t.Errorf("%s: v2's filter finds %s, whose id names %q", c, id, got)
			}
		}
	}
}

// A pod read other than as a cluster's member does not carry v2's
// Pod.cluster: its clusterId and clusterIp read null and are named in the
// warnings by the default path, never a silent null; read as a member,
// they are answered and not named.
func TestPodClusterFieldsAreNamedWhenUnknown(t *testing.T) {
	w := newWorld(t)
	ids := seedIDs(t, w)
	a := w.ok(fmt.Sprintf(`query { pod(input: {podId: %q}) { id clusterId clusterIp } }`, ids["seedgpu"]), "")
	if path(a.Data, "pod.clusterId") != nil || path(a.Data, "pod.clusterIp") != nil {
		t.Errorf("pod: %s", a.raw)
	}
	if !a.warned("Pod.clusterId") || !a.warned("Pod.clusterIp") {
		t.Errorf("warnings %q do not name Pod.clusterId and Pod.clusterIp", a.resp.Warnings)
	}
	w.ok(`mutation { createCluster(input: {clusterName: "c", gpuTypeId: "NVIDIA H100 80GB HBM3", podCount: 2, gpuCountPerPod: 1, imageName: "img"}) { id } }`, "")
	w.now = w.now.Add(10 * time.Second)
	m := w.ok(`query { myself { clusters { pods { clusterId clusterIp } } } }`, "")
	if err := readPath(m.Data, "myself.clusters.*.pods.*.clusterIp"); err != nil {
		t.Errorf("members: %v: %s", err, m.raw)
	}
	if m.warned("Pod.cluster") {
		t.Errorf("a member's cluster fields are named as unknown: %q", m.resp.Warnings)
	}
}
