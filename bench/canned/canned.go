// Package canned holds the benchmark's fixed v2 answers and the static
// upstream that serves them: a list of pods (GET /v2/pods), one pod
// (GET /v2/pods/{id}), a created pod (POST /v2/pods) and the GPU catalog.
// Every body is built once, deterministically, and is valid against the v2
// contract (checked in canned_test.go), so that the benchmark measures the
// proxies in front of it, not a simulator.
package canned

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// DefaultPods is the size of the benchmark's pod list (docs/design.md §10).
const DefaultPods = 100

// Token is the bearer token the benchmark sends; the canned upstream
// accepts any.
const Token = "bench-key"

// PodID is the id GET /v2/pods/{id} answers for (any id is answered with
// this pod).
const PodID = "pod00000benchx"

// CreateBody is the v1 POST /v1/pods body the benchmark sends: one GPU
// candidate with custom priority, so that the gateway's plan is the pre-list
// of pods (GET /v2/pods) and one create (POST /v2/pods).
const CreateBody = `{"name":"bench-pod","imageName":"runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404",` +
	`"gpuTypeIds":["NVIDIA GeForce RTX 4090"],"gpuTypePriority":"custom","gpuCount":1,` +
	`"containerDiskInGb":50,"volumeInGb":20,"ports":["8888/http","22/tcp"],"env":{"MODEL_NAME":"llama-3"}}`

// V2CreateBody is a v2 POST /v2/pods body equivalent to CreateBody, for the
// cases that send v2 directly.
const V2CreateBody = `{"name":"bench-pod","image":"runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404",` +
	`"gpu":{"id":"NVIDIA GeForce RTX 4090","count":1},"cloud":"SECURE","disk":50,` +
	`"mounts":{"persistent":{"size":20,"path":"/workspace"}},"ports":["8888/http","22/tcp"],"env":{"MODEL_NAME":"llama-3"}}`

// Bodies are the canned answers.
type Bodies struct {
	List    []byte // {"pods":[...]} with N pods
	Pod     []byte // one RUNNING GPU pod (the list's first)
	Created []byte // the pod POST /v2/pods answers (201)
	Catalog []byte // GET /v2/catalog/gpus
}

// The kinds of list the canned upstream can answer GET /v2/pods with.
const (
	// MixedList is Mixed: five kinds of pods, with quotes, backslashes
	// and JSON escapes in args and some names (issue 16). The benchmark's
	// list since 2026-11-25.
	MixedList = "mixed"
	// PlainList is four kinds of pods (pod) with plain args: the
	// benchmark's list before 2026-11-25, kept to compare runs with it.
	PlainList = "plain"
)

// New builds the answers with n pods of the mixed list (MixedList).
func New(n int) *Bodies {
	b, _ := NewList(n, MixedList)
	return b
}

// NewList builds the answers with n pods of the list of the given kind
// (MixedList or PlainList).
func NewList(n int, kind string) (*Bodies, error) {
	var list []byte
	var first string // GET /v2/pods/{id}'s pod: the list's first one
	switch kind {
	case MixedList:
		list, first = Mixed(n), mixedPod(0)
	case PlainList:
		list, first = plainList(n), pod(0)
	default:
		return nil, fmt.Errorf("unknown list kind %q (want %q or %q)", kind, MixedList, PlainList)
	}
	return &Bodies{
		List:    list,
		Pod:     []byte(first),
		Created: []byte(createdPod()),
		Catalog: []byte(catalog),
	}, nil
}

// plainList is a v2 pod list of n pods of pod's four kinds.
func plainList(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"pods":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(pod(i))
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// podID is the deterministic 14-character id of the i-th pod.
func podID(i int) string {
	if i == 0 {
		return PodID
	}
	s := strconv.FormatInt(int64(i)*7919+1000003, 36)
	return ("pod" + strings.Repeat("x", 11))[:14-len(s)] + s
}

var gpuTypes = []string{"NVIDIA GeForce RTX 4090", "NVIDIA RTX A4000", "NVIDIA L40S", "NVIDIA A100 80GB PCIe"}
var dataCenters = []string{"US-KS-2", "US-TX-3", "EU-RO-1", "CA-MTL-1"}

// pod is the i-th pod of the list; four kinds alternate: a running GPU pod
// with live metrics, a stopped GPU pod, a running two-GPU pod from a template
// on a network volume, and a stopped CPU pod.
func pod(i int) string {
	id, dc, created, started, sshProxy, port, ip, sshDirect, env := podParts(i)
	gpu := gpuTypes[(i/4)%len(gpuTypes)]
	switch i % 4 {
	case 0: // RUNNING GPU pod
		return `{"id":"` + id + `","name":"training-` + strconv.Itoa(i) + `","status":"RUNNING","actions":["stop","restart","terminate"],` +
			`"image":"runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404","args":"","disk":50,` +
			`"mounts":{"persistent":{"size":20,"path":"/workspace"}},"ports":["8888/http","22/tcp"],"env":` + env + `,"registry":null,` +
			`"gpu":{"id":"` + gpu + `","count":1},"cloud":"SECURE","dataCenterId":"` + dc + `","cudaVersion":"13.0",` +
			`"ssh":{"proxy":` + sshProxy + `,"direct":` + sshDirect + `},"template":null,"cost":0.69,"locked":false,` +
			`"globalNetworking":{"enabled":false},"runtime":{"uptime":172785,"gpus":[{"util":74,"memoryUtil":56}],"cpu":{"util":24},"memory":{"util":36},` +
			`"ports":[{"private":8888,"public":null,"type":"http","ip":null},{"private":22,"public":` + strconv.Itoa(port) + `,"type":"tcp","ip":"` + ip + `"}]},` +
			`"createdAt":"` + created + `","startedAt":"` + started + `"}`
	case 1: // EXITED GPU pod
		return `{"id":"` + id + `","name":"notebook-` + strconv.Itoa(i) + `","status":"EXITED","actions":["start","terminate"],` +
			`"image":"runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404","args":"jupyter lab --allow-root --ip 0.0.0.0","disk":40,` +
			`"mounts":{"persistent":{"size":100,"path":"/workspace"}},"ports":["8888/http"],"env":{"JUPYTER_PASSWORD":"s3cret"},"registry":null,` +
			`"gpu":{"id":"` + gpu + `","count":1},"cloud":"COMMUNITY","dataCenterId":"` + dc + `","cudaVersion":"12.8",` +
			`"ssh":{"proxy":` + sshProxy + `,"direct":null},"template":null,"cost":0,"locked":true,` +
			`"globalNetworking":{"enabled":false},"runtime":null,"createdAt":"` + created + `","startedAt":"` + started + `"}`
	case 2: // RUNNING two-GPU pod from a template, on a network volume
		return `{"id":"` + id + `","name":"inference-` + strconv.Itoa(i) + `","status":"RUNNING","actions":["stop","restart","terminate"],` +
			`"image":"vllm/vllm-openai:v0.11.0","args":"--model meta-llama/Llama-3.1-8B-Instruct --port 8000","disk":80,` +
			`"mounts":{"network":[{"volumeId":"vol` + strconv.Itoa(1000+i) + `abc","path":"/models"}]},"ports":["8000/http","22/tcp"],"env":` + env + `,"registry":"reg_7f3k2m",` +
			`"gpu":{"id":"` + gpu + `","count":2},"cloud":"SECURE","dataCenterId":"` + dc + `","cudaVersion":"12.8",` +
			`"ssh":{"proxy":` + sshProxy + `,"direct":` + sshDirect + `},"template":"tpl_vllm_` + strconv.Itoa(i%8) + `","cost":1.72,"locked":false,` +
			`"globalNetworking":{"enabled":true,"ip":"10.65.1.` + strconv.Itoa(i%250) + `","internalDns":"` + id + `.runpod.internal"},` +
			`"runtime":{"uptime":3600,"gpus":[{"util":91,"memoryUtil":88},{"util":89,"memoryUtil":87}],"cpu":{"util":41},"memory":{"util":63},` +
			`"ports":[{"private":8000,"public":null,"type":"http","ip":null},{"private":22,"public":` + strconv.Itoa(port) + `,"type":"tcp","ip":"` + ip + `"}]},` +
			`"createdAt":"` + created + `","startedAt":"` + started + `"}`
	default: // EXITED CPU pod
		return `{"id":"` + id + `","name":"cpu-worker-` + strconv.Itoa(i) + `","status":"EXITED","actions":["start","terminate"],` +
			`"image":"python:3.12-slim","args":"sleep infinity","disk":20,` +
			`"mounts":{"persistent":{"size":10,"path":"/data"}},"ports":[],"env":{},"registry":null,` +
			`"cpu":{"id":"cpu5c","vcpuCount":4,"memory":8},"cloud":"SECURE","dataCenterId":"` + dc + `","cudaVersion":null,` +
			`"ssh":{"proxy":` + sshProxy + `,"direct":null},"template":null,"cost":0,"locked":false,` +
			`"globalNetworking":{"enabled":false},"runtime":null,"createdAt":"` + created + `","startedAt":null}`
	}
}

// createdPod is the answer to the create: the pod as v2 answers it right
// after POST /v2/pods (provisioning, no machine yet).
func createdPod() string {
	return `{"id":"podnewbench001","name":"bench-pod","status":"PROVISIONING","actions":["terminate"],` +
		`"image":"runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404","args":"","disk":50,` +
		`"mounts":{"persistent":{"size":20,"path":"/workspace"}},"ports":["8888/http","22/tcp"],"env":{"MODEL_NAME":"llama-3"},"registry":null,` +
		`"gpu":{"id":"NVIDIA GeForce RTX 4090","count":1},"cloud":"SECURE","dataCenterId":null,"cudaVersion":null,` +
		`"ssh":{"proxy":null,"direct":null},"template":null,"cost":0.69,"locked":false,` +
		`"globalNetworking":{"enabled":false},"runtime":null,"createdAt":"2026-11-01T12:00:00Z","startedAt":null}`
}

const catalog = `{"gpus":[{"id":"NVIDIA GeForce RTX 4090","name":"RTX 4090","pool":"ADA_24","manufacturer":"NVIDIA","memory":24,"secure":true,"community":true,` +
	`"price":{"secure":0.69,"community":0.34,"serverless":1.1},"maxCount":{"secure":8,"community":4},"availability":"HIGH",` +
	`"dataCenters":[{"id":"US-KS-2","name":"US Kansas 2","availability":"HIGH"},{"id":"US-TX-3","name":"US Texas 3","availability":"HIGH"}],` +
	`"cudaVersions":[{"version":"12.8","available":true},{"version":"13.0","available":true}]}]}`

// Answer is one canned answer: status, extra headers and body.
type Answer struct {
	Status int
	Body   []byte
}

// Route returns the canned answer for a v2 request, or ok=false for a path
// the benchmark never asks for (the upstream answers 404).
func (b *Bodies) Route(method, path string) (a Answer, ok bool) {
	switch {
	case path == "/v2/pods" && method == http.MethodGet:
		return Answer{http.StatusOK, b.List}, true
	case path == "/v2/pods" && method == http.MethodPost:
		return Answer{http.StatusCreated, b.Created}, true
	case strings.HasPrefix(path, "/v2/pods/") && method == http.MethodGet && strings.Count(path, "/") == 3:
		return Answer{http.StatusOK, b.Pod}, true
	case path == "/v2/catalog/gpus" && method == http.MethodGet:
		return Answer{http.StatusOK, b.Catalog}, true
	}
	return Answer{}, false
}

// Headers v2 sends on every answer (values fixed: the benchmark's quota is
// never reached).
const (
	rateLimitPolicy = `"minute";q=1000;w=60`
	rateLimit       = `"minute";r=999;t=30`
)

var notFound = []byte(`{"title":"Not Found","status":404,"detail":"no such route in the benchmark's canned upstream"}`)

// Handler is the static upstream: it reads and drops the request body and
// writes the canned answer with a Content-Length.
func (b *Bodies) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			_, _ = io.Copy(io.Discard, r.Body)
		}
		h := w.Header()
		h["Ratelimit-Policy"] = []string{rateLimitPolicy}
		h["Ratelimit"] = []string{rateLimit}
		a, ok := b.Route(r.Method, r.URL.Path)
		if !ok {
			h["Content-Type"] = []string{"application/problem+json"}
			h["Content-Length"] = []string{strconv.Itoa(len(notFound))}
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write(notFound)
			return
		}
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{strconv.Itoa(len(a.Body))}
		w.WriteHeader(a.Status)
		_, _ = w.Write(a.Body)
	})
}

// Transport is an in-process upstream for Go benchmarks of handlers: it
// answers like Handler without any network, so that allocations counted by
// a benchmark are the handler's own (plus one http.Response per call).
type Transport struct{ B *Bodies }

// RoundTrip implements http.RoundTripper.
func (t Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	a, ok := t.B.Route(r.Method, r.URL.Path)
	ct := "application/json"
	if !ok {
		a = Answer{http.StatusNotFound, notFound}
		ct = "application/problem+json"
	}
	return &http.Response{
		Status:     strconv.Itoa(a.Status) + " " + http.StatusText(a.Status),
		StatusCode: a.Status,
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{
			"Content-Type":     {ct},
			"Content-Length":   {strconv.Itoa(len(a.Body))},
			"Ratelimit-Policy": {rateLimitPolicy},
			"Ratelimit":        {rateLimit},
		},
		ContentLength: int64(len(a.Body)),
		Body:          io.NopCloser(bytes.NewReader(a.Body)),
		Request:       r,
	}, nil
}

// podParts are the values every kind of canned pod (pod, mixedPod) derives
// from its index the same way.
func podParts(i int) (id, dc, created, started, sshProxy string, port int, ip, sshDirect, env string) {
	id = podID(i)
	dc = dataCenters[i%len(dataCenters)]
	created = fmt.Sprintf("2026-10-%02dT%02d:%02d:00Z", 1+i%28, i%24, i%60)
	started = fmt.Sprintf("2026-10-%02dT%02d:%02d:30Z", 1+i%28, i%24, i%60)
	sshProxy = fmt.Sprintf(`{"host":"ssh.runpod.io","port":22,"username":"%s-f4763a86","command":"ssh %s-f4763a86@ssh.runpod.io"}`, id, id)
	port = 10000 + i*7
	ip = fmt.Sprintf("194.26.%d.%d", 40+i%20, 10+i%200)
	sshDirect = fmt.Sprintf(`{"host":"%s","port":%d,"username":"root","command":"ssh root@%s -p %d"}`, ip, port, ip, port)
	env = `{"JUPYTER_ENABLE_LAB":"yes","MODEL_NAME":"llama-3-8b","HF_HOME":"/workspace/hf","PUBLIC_KEY":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ bench@v1gateway"}`
	return
}
