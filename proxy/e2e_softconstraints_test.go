package proxy

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/usage"
)

// End to end (client → gateway → v2 simulator), P1 of 2026-12-04: the soft
// constraints every launch path sends — placement minimums, host
// bandwidth, supportPublicIp, countries, a price cap, a small volume —
// create the pod in the default settings, on the GraphQL door and the v1
// routes alike, and /usage shows each accepted one per key and field.

// TestGraphQLLaunchPathsCreatePodsInTheDefaultSettings replays the pod
// creates of the vendor's GraphQL documentation, runpod-python's defaults
// and runpodctl 1.x's defaults through the translating door.
func TestGraphQLLaunchPathsCreatePodsInTheDefaultSettings(t *testing.T) {
	w := newDoorWorld(t, "translate")
	cases := []struct {
		name, input string
		warn        []string
	}{
		{"the vendor's documented create (minVcpuCount: 2, minMemoryInGb: 15)",
			`cloudType: ALL, gpuCount: 1, volumeInGb: 40, containerDiskInGb: 40, minVcpuCount: 2, minMemoryInGb: 15, gpuTypeId: "NVIDIA GeForce RTX 4090", name: "RunPod Tensorflow", imageName: "runpod/tensorflow", dockerArgs: "", ports: "8888/http", volumeMountPath: "/workspace", env: [{key: "JUPYTER_PASSWORD", value: "x"}]`,
			[]string{"minRAMPerGPU was accepted but not guaranteed"}},
		{"runpod-python 1.12.0's create_pod defaults (cloudType ALL, supportPublicIp: true)",
			`name: "py", imageName: "runpod/stack", cloudType: ALL, startSsh: true, gpuTypeId: "NVIDIA GeForce RTX 4090", supportPublicIp: true, gpuCount: 1, volumeInGb: 0, minVcpuCount: 1, minMemoryInGb: 1, dockerArgs: "", containerDiskInGb: 10, volumeMountPath: "/runpod-volume"`,
			nil},
		{"runpodctl 1.x's create pod defaults (--mem 20, --volumeSize 1)",
			`cloudType: SECURE, containerDiskInGb: 20, dockerArgs: "", gpuCount: 1, gpuTypeId: "NVIDIA GeForce RTX 4090", imageName: "runpod/stack", minMemoryInGb: 20, minVcpuCount: 1, name: "ctl", ports: "8888/http", supportPublicIp: false, startSsh: true, volumeInGb: 1, volumeMountPath: "/runpod"`,
			[]string{"minRAMPerGPU was accepted but not guaranteed", "volumeInGb: 1 GB was rounded up to 10 GB"}},
		{"an orchestrator's offer: bandwidth, a country and a price cap",
			`cloudType: SECURE, gpuCount: 1, gpuTypeId: "NVIDIA GeForce RTX 4090", name: "orch", imageName: "img", minDownload: 500, minUpload: 100, countryCode: "US", deployCost: 1.5`,
			[]string{"minDownloadMbps was accepted but not guaranteed", "minUploadMbps was accepted but not guaranteed"}},
		{"a GPU type offered only on COMMUNITY, with cloudType ALL",
			`cloudType: ALL, gpuTypeId: "NVIDIA GeForce RTX 3090", name: "community", imageName: "img"`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := w.post(t, `mutation { podFindAndDeployOnDemand(input: {`+c.input+`}) { id costPerHr } }`)
			if resp.StatusCode != 200 || m["errors"] != nil {
				t.Fatalf("%d %v", resp.StatusCode, m)
			}
			if id, _ := m["data"].(map[string]any)["podFindAndDeployOnDemand"].(map[string]any)["id"].(string); id == "" {
				t.Fatalf("no pod: %v", m)
			}
			got := strings.Join(resp.Header.Values("X-Compat-Warning"), " | ")
			if c.warn == nil && got != "" {
				t.Errorf("X-Compat-Warning %q, want none: nothing was narrowed or left unchecked", got)
			}
			for _, s := range c.warn {
				if !strings.Contains(got, s) {
					t.Errorf("X-Compat-Warning %q does not say %q", got, s)
				}
			}
		})
	}
	t.Run("a price cap no type meets is v1's stock-out, nothing created", func(t *testing.T) {
		_, m := w.post(t, `mutation { podFindAndDeployOnDemand(input: {gpuTypeId: "NVIDIA GeForce RTX 4090", name: "cheap", imageName: "img", deployCost: 0.1}) { id } }`)
		if errs, _ := m["errors"].([]any); len(errs) == 0 || !strings.Contains(errs[0].(map[string]any)["message"].(string), "There are no longer any instances available") {
			t.Fatalf("want v1's stock-out, got %v", m)
		}
	})
	t.Run("operator: /usage counts each accepted soft constraint per key and field", func(t *testing.T) {
		fields := softNoteFields(t, w.admin)
		for _, f := range []string{translate.CodeSoftConstraintUnchecked + "|minRAMPerGPU", translate.CodeSoftConstraintUnchecked + "|minDownloadMbps",
			translate.CodeSoftConstraintUnchecked + "|minUploadMbps", translate.CodeVolumeRoundedUp + "|volumeInGb"} {
			if fields[f] == 0 {
				t.Errorf("/usage has no %s: %v", f, fields)
			}
		}
		if fields[translate.CodeSoftConstraintUnchecked+"|minRAMPerGPU"] != 2 {
			t.Errorf("minRAMPerGPU counted %d times, want 2 (the vendor's example, runpodctl 1.x)", fields[translate.CodeSoftConstraintUnchecked+"|minRAMPerGPU"])
		}
	})
}

// TestV1PodCreatesWithSoftConstraintsCreateThePod: the same rule on the v1
// routes, and the JSON form of dockerArgs parsed, never split.
func TestV1PodCreatesWithSoftConstraintsCreateThePod(t *testing.T) {
	e := newE2E(t, e2eOpts{})
	r := e.v1("POST", "/v1/pods", `{"name":"soft","imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"],"minRAMPerGPU":32,"minVCPUPerGPU":8,"minDownloadMbps":500,"volumeInGb":5,
		"dockerArgs":"{\"cmd\":[\"python\",\"serve.py\",\"--name\",\"a b\"],\"entrypoint\":[]}"}`)
	e.want(r, 201)
	got := strings.Join(r.header.Values("X-Compat-Warning"), " | ")
	for _, s := range []string{"minRAMPerGPU was accepted but not guaranteed", "minVCPUPerGPU was accepted", "minDownloadMbps was accepted", "volumeInGb: 5 GB was rounded up to 10 GB", "5 GB of volume storage more than asked"} {
		if !strings.Contains(got, s) {
			t.Errorf("X-Compat-Warning %q does not say %q", got, s)
		}
	}
	p := e.simPods("soft")
	if len(p) != 1 {
		t.Fatalf("%d pods named soft", len(p))
	}
	if p[0]["args"] != "python serve.py --name 'a b'" {
		t.Errorf("v2 args %q, want the JSON form's cmd as a command line", p[0]["args"])
	}
	if mt, _ := p[0]["mounts"].(map[string]any); mt == nil || mt["persistent"].(map[string]any)["size"] != 10.0 {
		t.Errorf("mounts %v, want a 10 GB pod volume", p[0]["mounts"])
	}

	// An entrypoint in the JSON form is refused (v2 has none), naming it.
	r = e.v1("POST", "/v1/pods", `{"name":"ep","imageName":"img","gpuTypeIds":["NVIDIA RTX A4000"],"dockerArgs":"{\"cmd\":[\"serve\"],\"entrypoint\":[\"/init\"]}"}`)
	e.want(r, 400)
	if m := r.message(t); !strings.Contains(m, "dockerEntrypoint: the entrypoint") || !strings.Contains(m, "dockerArgs' JSON form") {
		t.Errorf("message %q", m)
	}
	if n := len(e.simPods("ep")); n != 0 {
		t.Errorf("%d pods created", n)
	}
}

// softNoteFields reads /usage and counts its notes by "code|field".
func softNoteFields(t *testing.T, admin string) map[string]int64 {
	t.Helper()
	resp, err := http.Get(admin + "/usage")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var rep usage.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("/usage: %v: %s", err, b)
	}
	out := map[string]int64{}
	for _, k := range rep.Keys {
		for _, n := range k.Notes {
			out[n.Code+"|"+n.Field] += n.Count
		}
	}
	return out
}
