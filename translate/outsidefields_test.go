package translate

import (
	"strings"
	"testing"
)

// Fields outside the v1 document (issue 29 item 2, P1): translated where
// real clients relied on their effect and v2 has the same meaning,
// otherwise ignored with a warning saying what v1 did and a note about the
// field, never refused, whatever compat_mode says.
func TestFieldsOutsideTheV1DocumentAreTranslatedOrIgnoredNeverRefused(t *testing.T) {
	epParams := map[string]string{"endpointId": "e1"}
	tplParams := map[string]string{"templateId": "t1"}
	cur := tpl("t1")
	tests := []struct {
		name   string
		op     string
		params map[string]string
		body   string
		script []step
		write  string // "METHOD path" whose body is checked
		want   string // that v2 body
		status int
		// ignored: each field ignored with a warning containing its reason
		// (and a note about that field).
		ignored map[string]string
	}{
		{name: "official Terraform provider: endpoint create with env (a v1 endpoint runs its template's settings)",
			op:     "CreateEndpoint",
			body:   `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA GeForce RTX 4090"],"env":{"MODEL":"small"},"gpuTypePriority":"custom","cpuFlavorPriority":"availability"}`,
			script: []step{catalogStep(), {method: "POST", path: "/v2/serverless", status: 201, body: endpoint("ep1")}, workersStep("ep1", 1), tplGetStep("tpl1")},
			write:  "POST /v2/serverless", status: 200,
			want: `{"name":"gen","type":"QUEUE","templateId":"tpl1","scaling":{"type":"QUEUE_DELAY","queueDelay":4},
				"gpu":{"pools":["ADA_24"],"excludedTypes":["NVIDIA L4"],"count":1},"workers":{"idleTimeout":5}}`,
			ignored: map[string]string{"env": "a v1 endpoint runs its template's settings", "gpuTypePriority": "no order", "cpuFlavorPriority": "no order"}},
		{name: "runpod-mcp 3.x: endpoint update with the container fields of its v1+v2 union",
			op: "UpdateEndpoint", params: epParams,
			body:   `{"workersMax":2,"imageName":"img:2","args":"x","containerDiskInGb":30,"ports":["8000/http"],"env":{"A":"1"},"containerRegistryAuthId":"r1","gpuPoolIds":["ADA_24"],"computeType":"GPU"}`,
			script: []step{{method: "PATCH", path: "/v2/serverless/e1", status: 200, body: endpoint("e1")}, catalogStep(), releasesStep("e1", 2)},
			write:  "PATCH /v2/serverless/e1", status: 200, want: `{"workers":{"max":2}}`,
			ignored: map[string]string{"imageName": "template", "args": "template", "containerDiskInGb": "template", "ports": "template", "env": "template", "containerRegistryAuthId": "template", "gpuPoolIds": "gpuTypeIds", "computeType": "fixed"}},
		{name: "official Terraform provider: network volume storageTier is v2's type",
			op:     "CreateNetworkVolume",
			body:   `{"name":"data","size":50,"dataCenterId":"EU-RO-1","storageTier":"HIGH_PERFORMANCE"}`,
			script: []step{{method: "POST", path: "/v2/network-volumes", status: 201, body: v2Volume("vol1", 50)}},
			write:  "POST /v2/network-volumes", status: 200, want: `{"name":"data","size":50,"dataCenter":"EU-RO-1","type":"HIGH_PERFORMANCE"}`},
		{name: "official Terraform provider: template update with category and isServerless",
			op: "UpdateTemplate", params: tplParams,
			body:   `{"name":"t2","category":"AMD","isServerless":false}`,
			script: []step{{method: "PATCH", path: "/v2/templates/t1", status: 200, body: cur}},
			write:  "PATCH /v2/templates/t1", status: 200, want: `{"name":"t2","category":"AMD","serverless":false}`},
		{name: "official Terraform provider (June 2026): gpuTypeId is the one candidate",
			op:     "CreatePod",
			body:   `{"name":"tf","imageName":"img","gpuTypeId":"NVIDIA A40","gpuCount":1,"machineId":"m1","startSsh":true,"startJupyter":true,"stopAfter":"2026-07-01T00:00:00Z","port":8888,"volumeKey":"k","volumeEncrypted":true}`,
			script: []step{createStep(newPod("p1"))},
			write:  "POST /v2/pods", status: 201,
			want: `{"name":"tf","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE","gpu":{"id":"NVIDIA A40","count":1},
				"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`,
			ignored: map[string]string{"machineId": "machine", "startSsh": "SSH", "startJupyter": "Jupyter", "stopAfter": "until", "port": "ports", "volumeKey": "encryption", "volumeEncrypted": "encryption"}},
		{name: "Go SDK, Transformer Lab, ComfyUI nodes, laravel: spot bid, region, terminateAfter, minVcpuCount",
			op:     "CreatePod",
			body:   `{"name":"j","imageName":"img","gpuTypeIds":["NVIDIA A40"],"bidPerGpu":0.2,"region":"EU","terminateAfter":"2026-07-01T00:00:00Z","minVcpuCount":2}`,
			script: []step{createStep(newPod("p1"))},
			write:  "POST /v2/pods", status: 201,
			want: `{"name":"j","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE","gpu":{"id":"NVIDIA A40","count":1},
				"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`,
			ignored: map[string]string{"bidPerGpu": "spot", "region": "dataCenterIds", "terminateAfter": "until it is deleted", "minVcpuCount": "minVCPUPerGPU"}},
		{name: "gpuTypeId beside gpuTypeIds: gpuTypeIds wins",
			op:     "CreatePod",
			body:   `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"gpuTypeId":"Tesla T4"}`,
			script: []step{createStep(newPod("p1"))},
			write:  "POST /v2/pods", status: 201,
			want: `{"name":"my pod","image":"img","disk":50,"ports":["8888/http","22/tcp"],"cloud":"SECURE","gpu":{"id":"NVIDIA A40","count":1},
				"mounts":{"persistent":{"size":20,"path":"/workspace"}},"startSsh":true}`,
			ignored: map[string]string{"gpuTypeId": "gpuTypeIds"}},
		{name: "bash CLI: registry server",
			op:     "CreateContainerRegistryAuth",
			body:   `{"name":"n","server":"ghcr.io","username":"u","password":"p"}`,
			script: []step{{method: "POST", path: "/v2/registries", status: 201, body: `{"id":"r1","name":"n"}`}},
			write:  "POST /v2/registries", status: 200, want: `{"name":"n","username":"u","password":"p"}`,
			ignored: map[string]string{"server": "image name"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, f := run(t, tc.op, runOpts{params: tc.params, body: tc.body}, tc.script...)
			wantStatus(t, res, tc.status)
			method, path, _ := strings.Cut(tc.write, " ")
			bodies := f.bodies(method, path)
			if len(bodies) != 1 {
				t.Fatalf("%d %s calls, want 1", len(bodies), tc.write)
			}
			jsonEqual(t, tc.write+" body", []byte(bodies[0]), tc.want)
			noted := map[string]bool{}
			for _, n := range res.Notes {
				if n.Code == CodeUnknownFields && n.Field != "" {
					noted[n.Field] = true
				}
			}
			for field, why := range tc.ignored {
				found := false
				for _, w := range res.Warnings {
					if strings.HasPrefix(w, field+" was ignored: ") && strings.Contains(w, why) {
						found = true
					}
				}
				if !found {
					t.Errorf("no warning \"%s was ignored: …%s…\" in %q", field, why, res.Warnings)
				}
				if !noted[field] {
					t.Errorf("no %s note about %s: %+v", CodeUnknownFields, field, res.Notes)
				}
			}
			if len(tc.ignored) == 0 && len(res.Warnings) > 0 && strings.Contains(strings.Join(res.Warnings, " "), "ignored") {
				t.Errorf("warnings %q: a translated field was reported as ignored", res.Warnings)
			}
			if len(res.Dropped) > 0 {
				t.Errorf("X-Compat-Dropped %v: fields outside the document are never dropped as untranslatable", res.Dropped)
			}
		})
	}
}

// Lenient or strict, an outside-document field gets the same answer.
func TestOutsideFieldsDoNotDependOnCompatMode(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		res, _ := run(t, "CreateEndpoint", runOpts{body: `{"templateId":"tpl1","name":"gen","gpuTypeIds":["NVIDIA L4"],"env":{"A":"1"},"imageName":"x"}`, options: Options{Lenient: lenient}},
			catalogStep(), step{method: "POST", path: "/v2/serverless", status: 201, body: endpoint("ep1")}, workersStep("ep1", 1), tplGetStep("tpl1"))
		wantStatus(t, res, 200)
		if len(res.Dropped) != 0 {
			t.Errorf("lenient=%v: dropped %v", lenient, res.Dropped)
		}
		wantWarning(t, res, "env was ignored")
	}
}

// The table is the one place: every translated field is known to its
// parser (no "ignored" warning), every ignored one is not.
func TestOutsideFieldsTableMatchesTheParsers(t *testing.T) {
	known := map[string]map[string]struct{}{
		"PodCreateInput": podCreateFields, "PodUpdateInput": podUpdateFields,
		"EndpointCreateInput": endpointCreateFields, "EndpointUpdateInput": endpointUpdateFields,
		"TemplateCreateInput": templateCreateFields, "TemplateUpdateInput": templateUpdateFields,
		"NetworkVolumeCreateInput": volumeCreateFields, "NetworkVolumeUpdateInput": volumeUpdateFields,
		"ContainerRegistryAuthCreateInput": registryCreateFields,
	}
	seen := map[string]bool{}
	for _, f := range OutsideFields {
		set, ok := known[f.Schema]
		if !ok {
			t.Errorf("%s.%s: unknown schema", f.Schema, f.Field)
			continue
		}
		if seen[f.Schema+"."+f.Field] {
			t.Errorf("%s.%s listed twice", f.Schema, f.Field)
		}
		seen[f.Schema+"."+f.Field] = true
		_, parsed := set[f.Field]
		if translated := f.TranslatedAs != ""; translated != parsed {
			t.Errorf("%s.%s: translated %v but known to the parser %v", f.Schema, f.Field, translated, parsed)
		}
		if f.Why == "" || f.Clients == "" {
			t.Errorf("%s.%s: says neither why nor who sends it", f.Schema, f.Field)
		}
	}
}
