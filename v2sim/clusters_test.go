package v2sim

import (
	"fmt"
	"testing"
	"time"
)

func clusterBody(typ string, count, perPod int, ports ...string) map[string]any {
	b := map[string]any{
		"name": "cl", "type": typ,
		"compute": map[string]any{"gpuTypeId": "NVIDIA H100 80GB HBM3", "gpuCountPerPod": perPod, "podCount": count},
	}
	if len(ports) > 0 {
		b["ports"] = ports
	}
	return b
}

// TestClusterFieldAvailability walks the seed's cluster rules through time:
// dataCenterId omitted until a pod is placed, network until provisioned,
// primary until a primary pod is placed, primary.sshEndpoint until that pod
// is RUNNING with SSH exposed; pods.total / byStatus summarise the members.
func TestClusterFieldAvailability(t *testing.T) {
	s, clk := newTestServer(Options{})
	rec := do(t, s, "POST", "/v2/clusters", clusterBody("TRAINING", 3, 4, "22/tcp", "8888/http"))
	expectStatus(t, rec, 201)
	cl := obj(t, rec)
	id := str(cl, "id")
	get := func() map[string]any { return obj(t, do(t, s, "GET", "/v2/clusters/"+id, nil)) }

	type want struct {
		at                        time.Duration
		total                     int
		byStatus                  string
		dc, network, primary, ssh bool
		primaryStatus             string
	}
	steps := []want{
		{0, 0, "map[]", false, false, false, false, ""},
		{2 * time.Second, 1, "map[PROVISIONING:1]", true, false, true, false, "PROVISIONING"},
		{4 * time.Second, 2, "map[PROVISIONING:2]", true, true, true, false, "PROVISIONING"},
		{7 * time.Second, 3, "map[PROVISIONING:2 STARTING:1]", true, true, true, false, "STARTING"},
		{17 * time.Second, 3, "map[RUNNING:1 STARTING:2]", true, true, true, true, "RUNNING"},
		{25 * time.Second, 3, "map[RUNNING:3]", true, true, true, true, "RUNNING"},
	}
	for i, w := range steps {
		c := cl
		if i > 0 {
			clk.Advance(w.at - steps[i-1].at)
			c = get()
		}
		pods := c["pods"].(map[string]any)
		if pods["total"] != float64(w.total) || fmt.Sprint(pods["byStatus"]) != w.byStatus {
			t.Errorf("t+%v: pods %v, want total %d byStatus %s", w.at, pods, w.total, w.byStatus)
		}
		_, hasDC := c["dataCenterId"]
		_, hasNet := c["network"]
		prim, hasPrim := c["primary"].(map[string]any)
		if hasDC != w.dc || hasNet != w.network || hasPrim != w.primary {
			t.Errorf("t+%v: dataCenterId %v network %v primary %v", w.at, hasDC, hasNet, hasPrim)
		}
		if hasPrim {
			_, hasSSH := prim["sshEndpoint"]
			if hasSSH != w.ssh || prim["status"] != w.primaryStatus {
				t.Errorf("t+%v: primary %v", w.at, prim)
			}
		}
		if _, ok := c["template"]; ok {
			t.Errorf("template present on a cluster not created from one")
		}
	}
	c := get()
	comp := c["compute"].(map[string]any)
	if comp["podCount"] != 3.0 || comp["gpuCountPerPod"] != 4.0 || comp["gpuTypeId"] != "NVIDIA H100 80GB HBM3" {
		t.Errorf("compute %v", comp)
	}
	net := c["network"].(map[string]any)
	if net["cidr"] != "10.65.0.0/16" || net["vxlanId"] == nil || net["vxlanPort"] != 4789.0 {
		t.Errorf("network %v", net)
	}

	members := list(t, do(t, s, "GET", "/v2/clusters/"+id+"/pods", nil), "pods")
	totalGPUs := 0
	for i, m := range members {
		totalGPUs += int(m["gpu"].(map[string]any)["count"].(float64))
		pc := m["cluster"].(map[string]any)
		if pc["id"] != id || pc["rank"] != float64(i) || pc["ip"] != fmt.Sprintf("10.65.0.%d", i+2) {
			t.Errorf("member %d cluster block %v", i, pc)
		}
		if _, ok := pc["role"]; ok {
			t.Errorf("TRAINING member has a role: %v", pc)
		}
		if m["dataCenterId"] != c["dataCenterId"] {
			t.Errorf("member %d in %v, cluster in %v", i, m["dataCenterId"], c["dataCenterId"])
		}
	}
	if totalGPUs != 3*4 {
		t.Errorf("total GPUs %d, want podCount*gpuCountPerPod = 12", totalGPUs)
	}
	prim := c["primary"].(map[string]any)
	direct := members[0]["ssh"].(map[string]any)["direct"].(map[string]any)
	if prim["podId"] != members[0]["id"] || prim["sshEndpoint"] != fmt.Sprintf("%v:%v", direct["host"], direct["port"]) {
		t.Errorf("primary %v vs rank-0 member ssh %v", prim, direct)
	}
}

func TestClusterRolesAndSSH(t *testing.T) {
	s, clk := newTestServer(Options{})
	slurm := str(obj(t, do(t, s, "POST", "/v2/clusters", clusterBody("SLURM", 2, 1))), "id")
	ray := str(obj(t, do(t, s, "POST", "/v2/clusters", clusterBody("RAY", 3, 1))), "id")
	clk.Advance(time.Minute)
	roles := func(id string) string {
		var out []string
		for _, m := range list(t, do(t, s, "GET", "/v2/clusters/"+id+"/pods", nil), "pods") {
			out = append(out, str(m["cluster"].(map[string]any), "role"))
		}
		return fmt.Sprint(out)
	}
	if got := roles(slurm); got != "[SLURM_CONTROLLER SLURM_COMPUTE]" {
		t.Errorf("SLURM roles %s", got)
	}
	if got := roles(ray); got != "[RAY_HEAD RAY_WORKER RAY_WORKER]" {
		t.Errorf("RAY roles %s", got)
	}
	// No 22/tcp: the primary never exposes an SSH endpoint.
	prim := obj(t, do(t, s, "GET", "/v2/clusters/"+slurm, nil))["primary"].(map[string]any)
	if _, ok := prim["sshEndpoint"]; ok || prim["status"] != "RUNNING" {
		t.Errorf("primary without 22/tcp: %v", prim)
	}
}

func TestClusterMembersAndDelete(t *testing.T) {
	s, clk := newTestServer(Options{})
	id := str(obj(t, do(t, s, "POST", "/v2/clusters", clusterBody("APPLICATION", 2, 2))), "id")
	// Members are not visible before placement.
	if n := len(list(t, do(t, s, "GET", "/v2/clusters/"+id+"/pods", nil), "pods")); n != 0 {
		t.Errorf("%d members visible before placement", n)
	}
	clk.Advance(time.Minute)
	members := list(t, do(t, s, "GET", "/v2/clusters/"+id+"/pods", nil), "pods")
	if len(members) != 2 {
		t.Fatalf("%d members", len(members))
	}
	m := str(members[0], "id")
	expectStatus(t, do(t, s, "GET", "/v2/pods/"+m, nil), 200)
	expectProblem(t, do(t, s, "PATCH", "/v2/pods/"+m, map[string]any{"name": "x"}), 409, "/v2/clusters/"+id)
	expectProblem(t, do(t, s, "DELETE", "/v2/pods/"+m, nil), 409, "DELETE /v2/clusters/"+id)
	expectProblem(t, do(t, s, "POST", "/v2/pods/"+m+"/action", map[string]any{"action": "terminate"}), 409)

	rec := do(t, s, "PATCH", "/v2/clusters/"+id, map[string]any{"name": "renamed"})
	expectStatus(t, rec, 200)
	if obj(t, rec)["name"] != "renamed" {
		t.Error("rename not applied")
	}
	if cls := list(t, do(t, s, "GET", "/v2/clusters", nil), "clusters"); len(cls) != 1 || cls[0]["name"] != "renamed" {
		t.Errorf("list clusters %v", cls)
	}

	expectStatus(t, do(t, s, "DELETE", "/v2/clusters/"+id, nil), 204)
	for _, mm := range members {
		expectProblem(t, do(t, s, "GET", "/v2/pods/"+str(mm, "id"), nil), 404)
	}
	expectProblem(t, do(t, s, "GET", "/v2/clusters/"+id, nil), 404)
	expectProblem(t, do(t, s, "GET", "/v2/clusters/"+id+"/pods", nil), 404)
	if n := len(list(t, do(t, s, "GET", "/v2/pods?includeClusterPods=true", nil), "pods")); n != 0 {
		t.Errorf("%d pods left after deleting the cluster", n)
	}
	if n := len(list(t, do(t, s, "GET", "/v2/clusters", nil), "clusters")); n != 0 {
		t.Errorf("%d clusters listed after delete", n)
	}
}

func TestClusterCreateRules(t *testing.T) {
	s, _ := newTestServer(Options{})
	vol := str(obj(t, do(t, s, "POST", "/v2/network-volumes", map[string]any{"name": "v", "size": 10, "dataCenter": "EU-CZ-1"})), "id")
	with := func(extra map[string]any) map[string]any {
		b := clusterBody("TRAINING", 2, 8)
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	tests := []struct {
		name   string
		body   map[string]any
		status int
		check  func(t *testing.T, c map[string]any)
	}{
		{"unknown GPU", with(map[string]any{"compute": map[string]any{"gpuTypeId": "nope", "gpuCountPerPod": 1, "podCount": 2}}), 400, nil},
		{"GPU not offered for clusters", with(map[string]any{"compute": map[string]any{"gpuTypeId": "NVIDIA GeForce RTX 4090", "gpuCountPerPod": 1, "podCount": 2}}), 400, nil},
		{"sold out", with(map[string]any{"compute": map[string]any{"gpuTypeId": "NVIDIA H200", "gpuCountPerPod": 8, "podCount": 2}}), 400, nil},
		{"too many GPUs per pod", with(map[string]any{"compute": map[string]any{"gpuTypeId": "NVIDIA H100 80GB HBM3", "gpuCountPerPod": 16, "podCount": 2}}), 400, nil},
		{"one pod", with(map[string]any{"compute": map[string]any{"gpuTypeId": "NVIDIA H100 80GB HBM3", "gpuCountPerPod": 1, "podCount": 1}}), 422, nil},
		{"no registry field", with(map[string]any{"registry": "r"}), 422, nil},
		{"empty name", with(map[string]any{"name": ""}), 422, nil},
		{"disk minimum", with(map[string]any{"disk": 0}), 422, nil},
		{"both mount kinds", with(map[string]any{"mounts": map[string]any{"persistent": map[string]any{"size": 20, "path": "/w"}, "network": []any{map[string]any{"volumeId": vol, "path": "/d"}}}}), 400, nil},
		{"partial mount", with(map[string]any{"mounts": map[string]any{"network": []any{map[string]any{"volumeId": vol}}}}), 422, nil},
		{"network volume places the cluster", with(map[string]any{"mounts": map[string]any{"network": []any{map[string]any{"volumeId": vol, "path": "/d"}}}}), 201, nil},
		{"preferred data center", with(map[string]any{"dataCenterIds": []string{"EU-CZ-1"}, "startSsh": true, "startJupyter": true}), 201, nil},
		{"unknown data center", with(map[string]any{"dataCenterIds": []string{"XX"}}), 400, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, s, "POST", "/v2/clusters", tc.body)
			if tc.status >= 400 {
				expectProblem(t, rec, tc.status)
				return
			}
			expectStatus(t, rec, tc.status)
		})
	}
}
