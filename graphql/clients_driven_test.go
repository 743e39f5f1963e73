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
