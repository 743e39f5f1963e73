package proxy

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/usage"
)

// field_policy end to end (issue 29 item 3): the operator drops the
// placement minimums most public v1 scripts send (laravel-runpod's
// minRAMPerGPU 15 and minVCPUPerGPU 4) while dockerEntrypoint is still
// refused, naming the setting that would allow it; /usage counts the drops
// and the refusal per key, operation and field.
func TestE2EFieldPolicyDropsOneFieldAndRefusesAnother(t *testing.T) {
	e := newE2E(t, e2eOpts{cfg: func(c *config.Config) {
		c.FieldPolicy = map[string]string{"minRAMPerGPU": "drop", "minVCPUPerGPU": "drop"}
	}})
	adm := httptest.NewServer(NewAdmin(e.g))
	t.Cleanup(adm.Close)

	laravel := `{"name":"runpod-pod","imageName":"runpod/pytorch:2","volumeInGb":50,"containerDiskInGb":50,"volumeMountPath":"/workspace","ports":["8000/http"],"env":{},"gpuCount":1,"gpuTypeIds":["NVIDIA GeForce RTX 4090"],"minRAMPerGPU":15,"minVCPUPerGPU":4}`
	r := e.v1("POST", "/v1/pods", laravel)
	e.want(r, 201)
	if got := r.header.Get("X-Compat-Dropped"); got != "minRAMPerGPU,minVCPUPerGPU" {
		t.Errorf("X-Compat-Dropped %q", got)
	}

	r = e.v1("POST", "/v1/pods", strings.TrimSuffix(laravel, "}")+`,"dockerEntrypoint":["/bin/sh"]}`)
	e.want(r, 400)
	m := r.message(t)
	for _, want := range []string{"dockerEntrypoint: ", "set field_policy dockerEntrypoint: drop (V1GW_FIELD_POLICY=dockerEntrypoint=drop), or compat_mode: lenient (V1GW_COMPAT_MODE=lenient)"} {
		if !strings.Contains(m, want) {
			t.Errorf("message %q lacks %q", m, want)
		}
	}
	if strings.Contains(m, "minRAMPerGPU") {
		t.Errorf("message %q names a field the policy drops", m)
	}

	if err := e.g.Usage().Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(adm.URL + "/usage")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var rep usage.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, k := range rep.Keys {
		for _, n := range k.Notes {
			got[n.Operation+" "+n.Code+" "+n.Field] += n.Count
		}
	}
	for want, n := range map[string]int64{
		"CreatePod lenient_dropped minRAMPerGPU":            1,
		"CreatePod lenient_dropped minVCPUPerGPU":           1,
		"CreatePod untranslatable_refused dockerEntrypoint": 1,
	} {
		if got[want] != n {
			t.Errorf("/usage: %s counted %d, want %d (all: %v)", want, got[want], n, got)
		}
	}
}
