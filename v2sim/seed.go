package v2sim

import (
	"encoding/json"
	"net/http"
	"time"
)

// Seed data (Options.Seed): a few resources owned by the account, created
// through the regular handlers at instants in the past of the injected clock,
// so that they obey every rule and carry a billing history:
//
//   - SSH key "demo@v2sim";
//   - registry credential "dockerhub-private";
//   - network volume "training-dataset" (100 GB, US-KS-2, HIGH_PERFORMANCE), 4 days old;
//   - pod template "PyTorch GPU Template";
//   - pod "pytorch-training" (RTX 4090, created from that template 2 days ago): RUNNING;
//   - pod "cpu-worker" (cpu5c, 4 vCPU, network volume mounted), created 3 days ago,
//     stopped 1 day ago: EXITED;
//   - serverless endpoint "image-generator" (pool ADA_24, workers.min 1), 1 day
//     old, with its auto-created bound template;
//   - a month of public-endpoint usage for GET /v2/billing/endpoints.

// SeedSSHKey is the SSH public key registered by Options.Seed.
const SeedSSHKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ demo@v2sim"

func (s *Server) seedCall(h handlerFunc, at time.Time, id string, body any) string {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, "/", nil)
	rep := h(s, &call{r: req, params: map[string]string{"id": id}, body: b, now: at})
	if rep.status >= 300 {
		return ""
	}
	var out struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(rep.body, &out)
	return out.ID
}

func (s *Server) seed(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.sshKeys = []string{SeedSSHKey}

	s.seedCall((*Server).createRegistry, now.Add(-120*time.Hour), "", map[string]any{
		"name": "dockerhub-private", "username": "runpod-user", "password": "correct-horse-battery-staple",
	})
	vol := s.seedCall((*Server).createVolume, now.Add(-96*time.Hour), "", map[string]any{
		"name": "training-dataset", "size": 100, "dataCenter": "US-KS-2", "type": "HIGH_PERFORMANCE",
	})
	tpl := s.seedCall((*Server).createTemplate, now.Add(-96*time.Hour), "", map[string]any{
		"name": "PyTorch GPU Template", "image": "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404",
		"category": "NVIDIA", "disk": 50, "ports": []string{"8888/http", "22/tcp"},
		"env": map[string]string{"JUPYTER_ENABLE_LAB": "yes"}, "startJupyter": false,
		"mounts": map[string]any{"persistent": map[string]any{"size": 20, "path": "/workspace"}},
	})
	s.seedCall((*Server).createPod, now.Add(-48*time.Hour), "", map[string]any{
		"name": "pytorch-training", "templateId": tpl,
		"gpu": map[string]any{"id": "NVIDIA GeForce RTX 4090", "count": 1},
		"env": map[string]string{"MODEL_NAME": "llama-3"}, "dataCenterIds": []string{"US-KS-2"},
	})
	cpuPod := s.seedCall((*Server).createPod, now.Add(-72*time.Hour), "", map[string]any{
		"name": "cpu-worker", "image": "python:3.12-slim", "args": "sleep infinity", "disk": 20,
		"cpu":    map[string]any{"id": "cpu5c", "vcpuCount": 4},
		"mounts": map[string]any{"network": []any{map[string]any{"volumeId": vol, "path": "/workspace"}}},
	})
	s.seedCall((*Server).podAction, now.Add(-24*time.Hour), cpuPod, map[string]any{"action": "stop"})
	s.seedCall((*Server).createEndpoint, now.Add(-24*time.Hour), "", map[string]any{
		"name": "image-generator", "image": "runpod/worker-comfyui:5.1.0-base", "type": "QUEUE",
		"gpu":     map[string]any{"pools": []string{"ADA_24"}, "count": 1},
		"workers": map[string]any{"min": 1, "max": 3, "idleTimeout": 5},
		"scaling": map[string]any{"type": "QUEUE_DELAY", "queueDelay": 4},
		"env":     map[string]string{"MODEL_NAME": "sdxl"}, "ports": []string{"8000/http"},
	})
	s.openUsage("publicEndpoint", "public", "total", 0.0125, now.AddDate(0, 0, -30))
}
