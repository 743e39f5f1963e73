package proxy

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
)

// TestRunpodctlBinaryWorksAgainstTheGateway runs a real runpodctl binary (2.7.x,
// named by RUNPODCTL) against the gateway in front of a seeded v2sim: the
// commands a user types, each checked by exit status and printed JSON. It
// is an extra beside TestRealClientsWorkEndToEnd, which replays the same
// requests without the binary and must cover everything on its own.
func TestRunpodctlBinaryWorksAgainstTheGateway(t *testing.T) {
	// runpodctl filters --since against its own clock.
	h := newRunpodctl(t, nil)
	w, run, obj, list := h.w, h.run, h.obj, h.list
	has := func(l []map[string]any, id string) bool {
		for _, it := range l {
			if it["id"] == id {
				return true
			}
		}
		return false
	}
	ids := map[string]string{}
	need := func(t *testing.T, k string) string {
		t.Helper()
		if ids[k] == "" {
			t.Fatalf("needs the %s an earlier step failed to create", k)
		}
		return ids[k]
	}
	ids["gpu"] = w.ids["seedgpu"]
	ids["ep"] = w.ids["seedep"]

	steps := []struct {
		name string
		fn   func(t *testing.T)
	}{
		{"pod create --compute-type cpu", func(t *testing.T) {
			p := obj(t, run(t, "pod", "create", "--compute-type", "cpu", "--image", "ubuntu:22.04", "--name", "cpu-bin"))
			ids["cpu"], _ = p["id"].(string)
			if ids["cpu"] == "" || p["desiredStatus"] != "RUNNING" {
				t.Errorf("created pod %v", p)
			}
		}},
		{"pod list --all --since 7d", func(t *testing.T) {
			if l := list(t, run(t, "pod", "list", "--all", "--since", "7d")); !has(l, need(t, "cpu")) {
				t.Errorf("the pod created just now is not listed: %v", l)
			}
		}},
		{"pod list (running pods, with createdAt)", func(t *testing.T) {
			if l := list(t, run(t, "pod", "list")); !has(l, ids["gpu"]) {
				t.Errorf("the running GPU pod is not listed: %v", l)
			} else {
				for _, p := range l {
					if p["createdAt"] == nil {
						t.Errorf("pod as printed has no createdAt: %v", p)
					}
				}
			}
		}},
		{"pod list (the GPU pod's imageName and gpuId as printed)", func(t *testing.T) {
			for _, p := range list(t, run(t, "pod", "list")) {
				if p["id"] == ids["gpu"] && (p["gpuId"] == nil || p["imageName"] == "") {
					t.Errorf("GPU pod as printed: %v", p)
				}
			}
		}},
		{"pod get", func(t *testing.T) {
			if p := obj(t, run(t, "pod", "get", need(t, "cpu"))); p["createdAt"] == nil {
				t.Errorf("pod get without createdAt: %v", p)
			}
		}},
		{"pod update --env", func(t *testing.T) {
			env, _ := obj(t, run(t, "pod", "update", ids["gpu"], "--env", `{"B":"2"}`))["env"].(map[string]any)
			if env["B"] != "2" || env["PUBLIC_KEY"] == nil {
				t.Errorf("env after update %v", env)
			}
		}},
		{"pod stop", func(t *testing.T) { run(t, "pod", "stop", ids["gpu"]) }},
		{"pod start", func(t *testing.T) { run(t, "pod", "start", ids["gpu"]) }},
		{"template create", func(t *testing.T) {
			ids["tpl"], _ = obj(t, run(t, "template", "create", "--name", "tpl-bin", "--image", "alpine:3", "--ports", "8888/http"))["id"].(string)
		}},
		{"template get", func(t *testing.T) { run(t, "template", "get", need(t, "tpl")) }},
		{"template update", func(t *testing.T) { run(t, "template", "update", need(t, "tpl"), "--name", "tpl-bin2") }},
		{"serverless list", func(t *testing.T) { run(t, "serverless", "list") }},
		{"serverless get", func(t *testing.T) { run(t, "serverless", "get", ids["ep"]) }},
		{"serverless update", func(t *testing.T) { run(t, "serverless", "update", ids["ep"], "--workers-max", "2") }},
		{"network-volume create", func(t *testing.T) {
			ids["vol"], _ = obj(t, run(t, "network-volume", "create", "--name", "vol-bin", "--size", "20", "--data-center-id", "EU-RO-1"))["id"].(string)
		}},
		{"network-volume update --size", func(t *testing.T) {
			if v := obj(t, run(t, "network-volume", "update", need(t, "vol"), "--size", "40")); v["size"] != 40.0 {
				t.Errorf("volume %v", v)
			}
		}},
		{"registry create", func(t *testing.T) {
			ids["reg"], _ = obj(t, run(t, "registry", "create", "--name", "reg-bin", "--username", "u", "--password", "p"))["id"].(string)
		}},
		{"registry list", func(t *testing.T) { run(t, "registry", "list") }},
		{"billing pods", func(t *testing.T) { run(t, "billing", "pods") }},
		{"billing serverless", func(t *testing.T) { run(t, "billing", "serverless") }},
		{"billing network-volume", func(t *testing.T) { run(t, "billing", "network-volume") }},
		{"registry delete", func(t *testing.T) { run(t, "registry", "delete", need(t, "reg")) }},
		{"network-volume delete", func(t *testing.T) { run(t, "network-volume", "delete", need(t, "vol")) }},
		{"template delete", func(t *testing.T) { run(t, "template", "delete", need(t, "tpl")) }},
		{"pod delete", func(t *testing.T) { run(t, "pod", "delete", need(t, "cpu")) }},
	}
	for _, s := range steps {
		t.Run("runpodctl "+s.name, s.fn)
	}
}

// runpodctl is a runpodctl binary (named by RUNPODCTL) pointed at a
// gateway in front of a seeded v2sim, with helpers that run a command and
// decode what it prints.
type runpodctl struct {
	w   *clientWorld
	env []string
	bin string
}

// newRunpodctl skips the test when RUNPODCTL is unset. The simulator's
// clock is the wall clock (runpodctl filters --since against its own).
func newRunpodctl(t *testing.T, cfg func(*config.Config)) *runpodctl {
	t.Helper()
	bin := os.Getenv("RUNPODCTL")
	if bin == "" {
		t.Skip("RUNPODCTL is not set: build runpodctl 2.7.x from its source (go build -o /tmp/runpodctl .) and run with RUNPODCTL=/tmp/runpodctl")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("RUNPODCTL=%s: %v", bin, err)
	}
	w := newClientWorld(t, time.Now().UTC().Truncate(time.Second), cfg)
	env := append(os.Environ(), "HOME="+t.TempDir(), "RUNPOD_API_KEY=k1",
		"RUNPOD_API_URL="+w.gw+"/v1", "RUNPOD_GRAPHQL_URL="+w.gw+"/graphql")
	return &runpodctl{w: w, env: env, bin: bin}
}

// exec runs a command: its stdout, its stderr and its error.
func (r *runpodctl) exec(args ...string) (stdout, stderr []byte, err error) {
	cmd := exec.Command(r.bin, args...)
	cmd.Env = r.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.Bytes(), errb.Bytes(), err
}

// run runs a command that must exit 0, and returns what it printed.
func (r *runpodctl) run(t *testing.T, args ...string) []byte {
	t.Helper()
	out, errb, err := r.exec(args...)
	if err != nil {
		t.Fatalf("runpodctl %s: %v\n%s%s", strings.Join(args, " "), err, out, errb)
	}
	return out
}

func (r *runpodctl) obj(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, b)
	}
	return m
}

func (r *runpodctl) list(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var l []map[string]any
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatalf("not a JSON list: %v\n%s", err, b)
	}
	return l
}
