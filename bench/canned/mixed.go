package canned

import (
	"bytes"
	"strconv"
)

// Mixed is a v2 pod list of n pods of five kinds, as real accounts hold
// them (issue 16): a running GPU pod, a stopped pod on a network volume, a
// running multi-GPU pod from a template with registry auth, a CPU pod, and
// a pod still starting whose runtime carries uptime but no ports yet; args
// with single and double quotes, backslash escapes and JSON escapes (\",
// \\, \n, \u00e9) appear in every kind but the CPU pod. 100 pods are ~107 KB
// (the independent measurement's list: 98.7 KB). Valid against the v2
// contract (canned_test.go); podjson/testdata/podlistmixed100.json is
// Mixed(100).
func Mixed(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"pods":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(mixedPod(i))
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

var mixedArgs = []string{
	`python -m vllm.entrypoints.openai.api_server --model 'meta-llama/Llama-3.1-8B-Instruct' --served-model-name \"llama 3\"`,
	`bash -c 'cd /workspace && ./run.sh --tag \"nightly build\" 2>&1 | tee log.txt'`,
	`sh -c \"echo caf\u00e9 \\\\\"quoted\\\\\" && sleep infinity\"`,
	`jupyter lab --allow-root --ip 0.0.0.0 --NotebookApp.token='' --notebook-dir=/workspace`,
	`torchrun --nproc_per_node 4 train.py --config \"configs/run 7.yaml\"\n--resume`,
}

func mixedPod(i int) string {
	id, dc, created, started, sshProxy, port, ip, sshDirect, env := podParts(i)
	gpu := gpuTypes[(i/5)%len(gpuTypes)]
	args := mixedArgs[(i/5)%len(mixedArgs)]
	n := strconv.Itoa(i)
	switch i % 5 {
	case 0: // RUNNING GPU pod
		return `{"id":"` + id + `","name":"training-` + n + `","status":"RUNNING","actions":["stop","restart","terminate"],` +
			`"image":"runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404","args":"` + args + `","disk":50,` +
			`"mounts":{"persistent":{"size":20,"path":"/workspace"}},"ports":["8888/http","22/tcp"],"env":` + env + `,"registry":null,` +
			`"gpu":{"id":"` + gpu + `","count":1},"cloud":"SECURE","dataCenterId":"` + dc + `","cudaVersion":"13.0",` +
			`"ssh":{"proxy":` + sshProxy + `,"direct":` + sshDirect + `},"template":null,"cost":0.69,"locked":false,` +
			`"globalNetworking":{"enabled":false},"runtime":{"uptime":172785,"gpus":[{"util":74,"memoryUtil":56}],"cpu":{"util":24},"memory":{"util":36},` +
			`"ports":[{"private":8888,"public":null,"type":"http","ip":null},{"private":22,"public":` + strconv.Itoa(port) + `,"type":"tcp","ip":"` + ip + `"}]},` +
			`"createdAt":"` + created + `","startedAt":"` + started + `"}`
	case 1: // EXITED GPU pod on a network volume
		return `{"id":"` + id + `","name":"notebook \"` + n + `\"","status":"EXITED","actions":["start","terminate"],` +
			`"image":"runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404","args":"` + args + `","disk":40,` +
			`"mounts":{"network":[{"volumeId":"vol` + strconv.Itoa(2000+i) + `xyz","path":"/workspace"}]},"ports":["8888/http"],"env":{"JUPYTER_PASSWORD":"s3cret"},"registry":null,` +
			`"gpu":{"id":"` + gpu + `","count":1},"cloud":"COMMUNITY","dataCenterId":"` + dc + `","cudaVersion":"12.8",` +
			`"ssh":{"proxy":` + sshProxy + `,"direct":null},"template":null,"cost":0,"locked":true,` +
			`"globalNetworking":{"enabled":false},"runtime":null,"createdAt":"` + created + `","startedAt":"` + started + `"}`
	case 2: // RUNNING four-GPU pod from a template, private registry
		return `{"id":"` + id + `","name":"inference-` + n + `","status":"RUNNING","actions":["stop","restart","terminate"],` +
			`"image":"registry.example.com/team/vllm:v0.11.0","args":"` + args + `","disk":80,` +
			`"mounts":{"persistent":{"size":200,"path":"/models"}},"ports":["8000/http","22/tcp"],"env":` + env + `,"registry":"reg_7f3k2m",` +
			`"gpu":{"id":"` + gpu + `","count":4},"cloud":"SECURE","dataCenterId":"` + dc + `","cudaVersion":"12.8",` +
			`"ssh":{"proxy":` + sshProxy + `,"direct":` + sshDirect + `},"template":"tpl_vllm_` + strconv.Itoa(i%8) + `","cost":6.88,"locked":false,` +
			`"globalNetworking":{"enabled":true,"ip":"10.65.1.` + strconv.Itoa(i%250) + `","internalDns":"` + id + `.runpod.internal"},` +
			`"runtime":{"uptime":3600,"gpus":[{"util":91,"memoryUtil":88},{"util":89,"memoryUtil":87},{"util":90,"memoryUtil":86},{"util":92,"memoryUtil":88}],"cpu":{"util":41},"memory":{"util":63},` +
			`"ports":[{"private":8000,"public":null,"type":"http","ip":null},{"private":22,"public":` + strconv.Itoa(port) + `,"type":"tcp","ip":"` + ip + `"}]},` +
			`"createdAt":"` + created + `","startedAt":"` + started + `"}`
	case 3: // RUNNING CPU pod
		return `{"id":"` + id + `","name":"cpu-worker-` + n + `","status":"RUNNING","actions":["stop","restart","terminate"],` +
			`"image":"python:3.12-slim","args":"sleep infinity","disk":20,` +
			`"mounts":{},"ports":["22/tcp"],"env":{"TZ":"Europe/Paris"},"registry":null,` +
			`"cpu":{"id":"cpu5c","vcpuCount":4,"memory":8},"cloud":"SECURE","dataCenterId":"` + dc + `","cudaVersion":null,` +
			`"ssh":{"proxy":` + sshProxy + `,"direct":` + sshDirect + `},"template":null,"cost":0.12,"locked":false,` +
			`"globalNetworking":{"enabled":false},"runtime":{"uptime":86400,"cpu":{"util":12},"memory":{"util":20},` +
			`"ports":[{"private":22,"public":` + strconv.Itoa(port) + `,"type":"tcp","ip":"` + ip + `"}]},` +
			`"createdAt":"` + created + `","startedAt":"` + started + `"}`
	default: // STARTING GPU pod: runtime without ports yet
		return `{"id":"` + id + `","name":"starting-` + n + `","status":"STARTING","actions":["stop","terminate"],` +
			`"image":"runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404","args":"` + args + `","disk":50,` +
			`"mounts":{"persistent":{"size":20,"path":"/workspace"}},"ports":["8888/http","22/tcp"],"env":` + env + `,"registry":null,` +
			`"gpu":{"id":"` + gpu + `","count":2},"cloud":"SECURE","dataCenterId":"` + dc + `","cudaVersion":"12.8",` +
			`"ssh":{"proxy":null,"direct":null},"template":null,"cost":1.38,"locked":false,` +
			`"globalNetworking":{"enabled":false},"runtime":{"uptime":4},` +
			`"createdAt":"` + created + `","startedAt":null}`
	}
}
