package translate

import (
	"strings"
	"testing"
)

// Every 400 the gateway raises for a request v1 accepted — a value v1
// allowed that v2 cannot take, a change v2 cannot make — is counted
// (issue 29 item 3, P7a): a v2_limit_refused note, about the field when
// there is one. A client's own mistake (a value v1 also refused) is not.
func TestEveryV2LimitRefusalIsCounted(t *testing.T) {
	podParams := map[string]string{"podId": "p1"}
	epParams := map[string]string{"endpointId": "e1"}
	stopped := step{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1", set("status", "EXITED"), set("actions", `["start","terminate"]`))}
	refusedAction := func(a string) step {
		return step{method: "POST", path: "/v2/pods/p1/action", status: 409, body: problem(409, `action "`+a+`" is not valid for a pod in status EXITED`)}
	}
	tests := []struct {
		name    string
		op      string
		params  map[string]string
		body    string
		script  []step
		options Options
		field   string // the note's field ("" none); "-" no note: a client mistake
	}{
		{name: "pod volume of 5 GB (v2's minimum is 10), rounding refused by field_policy", op: "CreatePod", body: `{"imageName":"i","gpuTypeIds":["NVIDIA A40"],"volumeInGb":5}`,
			options: Options{FieldPolicy: map[string]string{"volumeInGb": FieldPolicyRefuse}}, field: "volumeInGb"},
		{name: "3 vCPUs (v2: a power of two)", op: "CreatePod", body: `{"imageName":"i","computeType":"CPU","vcpuCount":3}`, field: "vcpuCount"},
		{name: "container disk 0", op: "CreatePod", body: `{"imageName":"i","gpuTypeIds":["NVIDIA A40"],"containerDiskInGb":0}`, field: "containerDiskInGb"},
		{name: "pod update: volume of 5 GB", op: "UpdatePod", params: podParams, body: `{"volumeInGb":5}`, field: "volumeInGb"},
		{name: "pod update: container disk 0", op: "UpdatePod", params: podParams, body: `{"containerDiskInGb":0}`, field: "containerDiskInGb"},
		{name: "pod update: a shrinking volume", op: "UpdatePod", params: podParams, body: `{"volumeInGb":10}`,
			script: []step{{method: "GET", path: "/v2/pods/p1", status: 200, body: pod("p1")}}, field: "volumeInGb"},
		{name: "CPU endpoint with 3 vCPUs", op: "CreateEndpoint", body: `{"templateId":"t","computeType":"CPU","vcpuCount":3}`, field: "vcpuCount"},
		{name: "endpoint GPU types in no serverless pool", op: "CreateEndpoint", body: `{"templateId":"t","name":"n","gpuTypeIds":["AMD Instinct MI300X OAM"]}`,
			script: []step{catalogStep()}, field: "gpuTypeIds"},
		{name: "endpoint update: GPU types in no serverless pool", op: "UpdateEndpoint", params: epParams, body: `{"gpuTypeIds":["AMD Instinct MI300X OAM"]}`,
			script: []step{epGetStep("e1", endpoint("e1")), catalogStep()}, field: "gpuTypeIds"},
		{name: "endpoint CUDA versions all below the floor", op: "CreateEndpoint", body: `{"templateId":"t","gpuTypeIds":["NVIDIA L4"],"allowedCudaVersions":["11.8"],"minCudaVersion":"12.4"}`, field: "allowedCudaVersions"},
		{name: "template volume of 5 GB", op: "CreateTemplate", body: `{"name":"t","imageName":"i","volumeInGb":5}`, field: "volumeInGb"},
		{name: "template container disk 0", op: "CreateTemplate", body: `{"name":"t","imageName":"i","containerDiskInGb":0}`, field: "containerDiskInGb"},
		{name: "network volume of 5 GB (v1 allowed 0-4000)", op: "CreateNetworkVolume", body: `{"name":"v","size":5,"dataCenterId":"EU-RO-1"}`, field: "size"},
		{name: "stop of a stopped pod (v2 refuses)", op: "StopPod", params: podParams, script: []step{refusedAction("stop"), stopped}, field: ""},
		{name: "restart of a stopped pod (v2 refuses)", op: "RestartPod", params: podParams, script: []step{refusedAction("restart"), stopped}, field: ""},

		{name: "client mistake: a GPU type v1 did not know", op: "CreatePod", body: `{"imageName":"i","gpuTypeIds":["RTX 9999"]}`, field: "-"},
		{name: "client mistake: idleTimeout out of v1's range", op: "CreateEndpoint", body: `{"templateId":"t","gpuTypeIds":["NVIDIA L4"],"idleTimeout":0}`, field: "-"},
		{name: "client mistake: malformed JSON", op: "CreatePod", body: `{"imageName":`, field: "-"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := run(t, tc.op, runOpts{params: tc.params, body: tc.body, options: tc.options}, tc.script...)
			wantStatus(t, res, 400)
			var got []Note
			for _, n := range res.Notes {
				if n.Code == CodeV2LimitRefused {
					got = append(got, n)
				}
			}
			if tc.field == "-" {
				if len(got) != 0 {
					t.Errorf("a client mistake counted as a v2 limit: %+v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Field != tc.field || !strings.Contains(message(t, res), got[0].Message[:20]) {
				t.Errorf("notes %+v, want one %s about %q (message %q)", res.Notes, CodeV2LimitRefused, tc.field, message(t, res))
			}
		})
	}
}
