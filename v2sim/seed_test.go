package v2sim

import (
	"fmt"
	"testing"
)

func TestSeed(t *testing.T) {
	s, _ := newTestServer(Options{Seed: true})
	pods := list(t, do(t, s, "GET", "/v2/pods", nil), "pods")
	if len(pods) != 2 || pods[0]["status"] != "RUNNING" || pods[1]["status"] != "EXITED" {
		t.Errorf("seeded pods: %v", pods)
	}
	if pods[1]["cost"] != 0.0 || pods[0]["cost"] != 0.69 {
		t.Errorf("seeded pod costs %v %v", pods[0]["cost"], pods[1]["cost"])
	}
	counts := map[string]int{}
	for path, key := range map[string]string{
		"/v2/serverless": "endpoints", "/v2/network-volumes": "networkVolumes", "/v2/registries": "registries",
		"/v2/templates": "templates", "/v2/clusters": "clusters",
	} {
		counts[key] = len(list(t, do(t, s, "GET", path, nil), key))
	}
	// One pod template plus the seeded endpoint's auto-created bound template.
	if fmt.Sprint(counts) != "map[clusters:0 endpoints:1 networkVolumes:1 registries:1 templates:2]" {
		t.Errorf("seeded resources %v", counts)
	}
	if keys := obj(t, do(t, s, "GET", "/v2/account/ssh-keys", nil))["keys"].([]any); len(keys) != 1 || keys[0] != SeedSSHKey {
		t.Errorf("seeded keys %v", keys)
	}
	ep := list(t, do(t, s, "GET", "/v2/serverless", nil), "endpoints")[0]
	if n := len(list(t, do(t, s, "GET", "/v2/serverless/"+str(ep, "id")+"/workers", nil), "workers")); n != 1 {
		t.Errorf("seeded endpoint has %d workers", n)
	}

	empty, _ := newTestServer(Options{})
	for path, key := range map[string]string{"/v2/pods": "pods", "/v2/templates": "templates", "/v2/serverless": "endpoints"} {
		if n := len(list(t, do(t, empty, "GET", path, nil), key)); n != 0 {
			t.Errorf("%s without Seed: %d items", path, n)
		}
	}
	if n := len(list(t, do(t, empty, "GET", "/v2/catalog/templates", nil), "templates")); n < 2 {
		t.Errorf("public catalog without Seed: %d templates", n)
	}
}
