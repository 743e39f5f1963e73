package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
)

// TestRunpodPythonWorksAgainstTheGateway runs runpod-python 1.12.0 itself
// (every runpod.<function> that speaks GraphQL) against the gateway in
// graphql_mode translate, in front of a seeded v2sim, through a driver
// that calls the public functions one after another and prints one JSON
// line per call: {"step", "call", "args", "result"} or, when the call
// raised, {"step", ..., "error": true, "type", "message"}.
//
// RUNPOD_PYTHON is the driver's command line (e.g. "/usr/bin/python3
// proxy/testdata/runpod-python/driver.py", the project's driver, whose
// README says how to bring runpod-python beside it); PYTHONPATH, passed
// through, must let it import runpod 1.12.0. The driver is given the gateway's base URL (the
// client appends /graphql, as with RUNPOD_API_BASE_URL) and its flags
// --api-key, --all, --keep-going, --gpu-type, --cpu-instance,
// --network-volume-id, --data-center-id, --country-code, --locations and
// --template-registry-auth-id. The test is skipped when RUNPOD_PYTHON is
// unset.
func TestRunpodPythonWorksAgainstTheGateway(t *testing.T) {
	cmdline := strings.Fields(os.Getenv("RUNPOD_PYTHON"))
	if len(cmdline) == 0 {
		t.Skip(`RUNPOD_PYTHON is not set: set it to the driver's command line ("/usr/bin/python3 <repo>/proxy/testdata/runpod-python/driver.py") and PYTHONPATH so that it imports runpod 1.12.0 (proxy/testdata/runpod-python/README.md)`)
	}
	w := newClientWorld(t, time.Now().UTC().Truncate(time.Second), func(c *config.Config) { c.GraphQLMode = "translate" })
	vol, cra := w.seededID(t, "/v2/network-volumes", "training-dataset"), w.seededID(t, "/v2/registries", "dockerhub-private")
	const gpu = "NVIDIA GeForce RTX 4090"
	args := append(cmdline[1:], w.gw, "--api-key", "k1", "--all", "--keep-going",
		"--gpu-type", gpu, "--cpu-instance", "cpu3c-2-4",
		"--network-volume-id", vol, "--data-center-id", "US-KS-2", "--country-code", "US",
		"--locations", "US-KS-2", "--template-registry-auth-id", cra)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cmdline[0], args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	runErr := cmd.Run()
	t.Logf("driver: %v\nstdout:\n%s", runErr, out.Bytes())

	lines := map[string]pyStep{}
	var order []string
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var s pyStep
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil || s.Step == "" {
			t.Errorf("not a step line: %q", sc.Bytes())
			continue
		}
		lines[s.Step] = s
		order = append(order, s.Step)
	}
	if len(lines) == 0 {
		t.Fatalf("the driver printed no step (%v); stderr:\n%s", runErr, errb.Bytes())
	}
	ids := map[string]string{}

	steps := []struct {
		step string
		// refused is a piece of the error a refused call raises
		// (runpod.error.QueryError with the gateway's message).
		refused string
		check   func(t *testing.T, r any)
	}{
		{"get_user", "", func(t *testing.T, r any) {
			u := pyObj(t, r, "id", "pubKey")
			vols, _ := u["networkVolumes"].([]any)
			if len(vols) == 0 || pyField(vols[0], "dataCenterId") == "" {
				t.Errorf("networkVolumes %v", u["networkVolumes"])
			}
		}},
		{"update_user_settings", "", func(t *testing.T, r any) {
			if u := pyObj(t, r, "id", "pubKey"); !strings.Contains(u["pubKey"].(string), "demo@v2sim") {
				t.Errorf("pubKey %v is not the key written back", u["pubKey"])
			}
		}},
		{"get_gpus", "", func(t *testing.T, r any) {
			l, _ := r.([]any)
			if len(l) == 0 {
				t.Fatalf("no GPU types: %v", r)
			}
			for _, g := range l {
				pyObj(t, g, "id", "displayName", "memoryInGb")
			}
		}},
		{"get_gpu", "", func(t *testing.T, r any) {
			if g := pyObj(t, r, "id", "displayName", "memoryInGb"); g["id"] != gpu {
				t.Errorf("get_gpu %v", g)
			}
		}},
		{"get_pods", "", func(t *testing.T, r any) {
			l, _ := r.([]any)
			for _, p := range l {
				if pyObj(t, p, "id", "name", "desiredStatus", "imageName")["id"] == w.ids["seedgpu"] {
					return
				}
			}
			t.Errorf("the seeded GPU pod is not listed: %v", r)
		}},
		{"create_pod", "", func(t *testing.T, r any) { ids["pod"] = pyObj(t, r, "id", "imageName")["id"].(string) }},
		{"get_pod", "", func(t *testing.T, r any) {
			if p := pyObj(t, r, "id", "desiredStatus"); p["id"] != ids["pod"] || p["desiredStatus"] != "RUNNING" {
				t.Errorf("get_pod %v", p)
			}
		}},
		{"stop_pod", "", func(t *testing.T, r any) {
			if p := pyObj(t, r, "id", "desiredStatus"); p["desiredStatus"] != "EXITED" {
				t.Errorf("stop_pod %v", p)
			}
		}},
		{"resume_pod", "", func(t *testing.T, r any) {
			if p := pyObj(t, r, "id", "desiredStatus"); p["desiredStatus"] != "RUNNING" {
				t.Errorf("resume_pod %v", p)
			}
		}},
		{"terminate_pod", "", func(t *testing.T, r any) {
			if r != nil {
				t.Errorf("terminate_pod returned %v", r)
			}
			if resp := w.v2("GET", "/v2/pods/"+ids["pod"], ""); resp.status != 404 {
				t.Errorf("the terminated pod is still in v2: %d %s", resp.status, resp.body)
			}
		}},
		{"create_pod_cpu", "", func(t *testing.T, r any) { pyObj(t, r, "id") }},
		{"terminate_pod_cpu", "", nil},
		{"create_template", "", func(t *testing.T, r any) {
			// The start command comes back as the gateway quotes it (v1's
			// dockerStartCmd list, joined): the same words for a shell.
			tpl := pyObj(t, r, "id", "name", "imageName")
			if args := tpl["dockerArgs"]; tpl["isServerless"] != true ||
				args != `bash -c "python -u handler.py"` && args != `bash -c 'python -u handler.py'` {
				t.Errorf("create_template %v", tpl)
			}
		}},
		{"create_endpoint", "", func(t *testing.T, r any) { ids["ep"] = pyObj(t, r, "id", "name")["id"].(string) }},
		{"update_endpoint_template", "", func(t *testing.T, r any) {
			if e := pyObj(t, r, "id", "templateId"); e["id"] != ids["ep"] {
				t.Errorf("update_endpoint_template %v", e)
			}
		}},
		{"get_endpoints", "", func(t *testing.T, r any) {
			l, _ := r.([]any)
			for _, e := range l {
				if pyObj(t, e, "id", "name")["id"] == ids["ep"] {
					return
				}
			}
			t.Errorf("the endpoint created is not listed: %v", r)
		}},
		{"create_container_registry_auth", "", func(t *testing.T, r any) { pyObj(t, r, "id", "name") }},
		{"update_container_registry_auth", "v2 cannot change a registry credential", nil},
		{"delete_container_registry_auth", "", nil},
		{"create_template_all_options", "", func(t *testing.T, r any) { pyObj(t, r, "id") }},
		// compat_mode strict (P1): v2 has no minimum bandwidth, and does
		// not place CPU pods by country.
		{"create_pod_all_options", "minDownload", nil},
		{"create_pod_cpu_all_options", "countryCode", nil},
		{"create_endpoint_all_options", "", func(t *testing.T, r any) { pyObj(t, r, "id") }},
	}
	for _, s := range steps {
		t.Run("runpod-python 1.12.0: "+s.step, func(t *testing.T) {
			l, ok := lines[s.step]
			switch {
			case !ok:
				t.Fatalf("the driver did not run %s (it ran %v)", s.step, order)
			case s.refused != "":
				if !l.Error || l.Type != "runpod.error.QueryError" || !strings.Contains(l.Message, s.refused) {
					t.Errorf("want a QueryError with %q; got %s", s.refused, l.raw())
				}
			case l.Error:
				t.Fatalf("%s raised %s: %s", l.Call, l.Type, l.Message)
			case s.check != nil:
				s.check(t, l.Result)
			}
		})
	}
	if len(order) != len(steps) {
		t.Errorf("the driver ran %d steps %v, the test checks %d", len(order), order, len(steps))
	}
}

// pyStep is one line of the driver.
type pyStep struct {
	Step    string `json:"step"`
	Call    string `json:"call"`
	Result  any    `json:"result"`
	Error   bool   `json:"error"`
	Type    string `json:"type"`
	Message string `json:"message"`
}

func (s pyStep) raw() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pyObj is a result that must be an object with the given keys not null
// and not "".
func pyObj(t *testing.T, r any, keys ...string) map[string]any {
	t.Helper()
	m, ok := r.(map[string]any)
	if !ok {
		t.Fatalf("not an object: %v", r)
	}
	for _, k := range keys {
		if v, ok := m[k]; !ok || v == nil || v == "" {
			t.Errorf("%s is %v in %v", k, v, m)
		}
	}
	return m
}

func pyField(v any, k string) any {
	m, _ := v.(map[string]any)
	return m[k]
}

// seededID is the id of the seeded resource named name in a v2 list.
func (w *clientWorld) seededID(t *testing.T, path, name string) string {
	t.Helper()
	r := w.v2("GET", path, "")
	w.want(r, 200)
	var wrapped map[string][]map[string]any
	var list []map[string]any
	if json.Unmarshal(r.body, &wrapped) == nil {
		for _, l := range wrapped {
			list = append(list, l...)
		}
	} else if err := json.Unmarshal(r.body, &list); err != nil {
		t.Fatalf("GET %s: %s", path, r.body)
	}
	for _, it := range list {
		if it["name"] == name {
			id, _ := it["id"].(string)
			return id
		}
	}
	t.Fatalf("the seeded world has no %q at %s: %s", name, path, r.body)
	return ""
}
