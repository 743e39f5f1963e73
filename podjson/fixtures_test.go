package podjson

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Fixtures of v2 pods, as translate's tests build them (translate/pods_test.go).

// v2PodFixture returns a valid v2 Pod (GPU, RUNNING, persistent mount) as a
// map, for tests to modify.
func v2PodFixture(id string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(`{
		"id":"`+id+`","name":"my pod","status":"RUNNING","actions":["stop","restart","terminate"],
		"image":"runpod/pytorch:2","args":"python -m http.server 'a b'","disk":50,
		"mounts":{"persistent":{"size":20,"path":"/workspace"}},
		"ports":["8888/http","22/tcp"],"env":{"A":"1"},"registry":null,"cloud":"SECURE",
		"dataCenterId":"US-TX-3","cudaVersion":"12.8","ssh":{"proxy":null,"direct":null},
		"template":null,"cost":0.74,"locked":false,
		"runtime":{"uptime":10,"ports":[
			{"private":8888,"public":null,"type":"http","ip":null},
			{"private":22,"public":10341,"type":"tcp","ip":"100.65.0.119"}]},
		"createdAt":"2026-03-13T20:00:00Z","startedAt":"2026-03-13T20:01:00Z",
		"globalNetworking":{"enabled":false},"gpu":{"id":"NVIDIA A40","count":1}}`), &m); err != nil {
		panic(err)
	}
	return m
}

// pod encodes a v2 pod fixture after applying mods.
func pod(id string, mods ...func(m map[string]any)) string {
	m := v2PodFixture(id)
	for _, f := range mods {
		f(m)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func set(k string, v any) func(map[string]any) {
	return func(m map[string]any) {
		if v == nil {
			m[k] = nil
			return
		}
		var x any
		if s, ok := v.(string); ok && (strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")) {
			if json.Unmarshal([]byte(s), &x) == nil {
				m[k] = x
				return
			}
		}
		m[k] = v
	}
}

// cpuPod turns the fixture into a CPU pod.
func cpuPod(m map[string]any) {
	delete(m, "gpu")
	m["cpu"] = map[string]any{"id": "cpu3c", "vcpuCount": 4, "memory": 8}
	m["mounts"] = map[string]any{}
	m["cudaVersion"] = nil
}

func podList(pods ...string) string { return `{"pods":[` + strings.Join(pods, ",") + `]}` }

func hundredPods() []byte {
	var pods []string
	for i := 0; i < 100; i++ {
		id := fmt.Sprintf("pod%03d", i)
		if i%4 == 3 {
			pods = append(pods, pod(id, cpuPod))
		} else {
			pods = append(pods, pod(id, set("env", `{"JUPYTER_PASSWORD":"secret","HF_TOKEN":"hf_xxxxxxxxxxxxxxxxxxxx","MODEL":"llama-3-8b"}`)))
		}
	}
	return []byte(podList(pods...))
}
