package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// What the Crossplane provider torrescd/provider-runpod (commit 9df1dc1)
// checks of an Endpoint answer before its endpoint controller is ready,
// restated from its client (internal/client/runpod: the answer's decoding,
// validateEndpointObservation) and its controller (internal/controller/
// endpoint: endpointMatchesInput, unrepairableExternalState,
// endpointTemplateMatches, endpointWorkersMatch). The provider decodes into
// pointers and presence-tracking strings, so an absent key, a null and a
// zero are three different things to it; these checks read the raw
// answer the same way. Each returns what the provider would refuse, in its
// terms; none means it accepts.

// xpEndpointInput is the provider's EndpointInput as its controller sends it
// (GPU, one GPU per worker, flashboot false, no volume, no CUDA override).
type xpEndpointInput struct {
	Name        string   `json:"name,omitempty"`
	TemplateID  string   `json:"templateId"`
	ComputeType string   `json:"computeType"`
	GPUCount    int      `json:"gpuCount"`
	GPUTypeIDs  []string `json:"gpuTypeIds"`
	// allowedCudaVersions, networkVolumeId(s) and minCudaVersion are
	// omitempty and empty: never sent.
	DataCenterIDs      []string `json:"dataCenterIds"`
	WorkersMin         int      `json:"workersMin"`
	WorkersMax         int      `json:"workersMax"`
	IdleTimeout        int      `json:"idleTimeout"`
	ScalerType         string   `json:"scalerType"`
	ScalerValue        int      `json:"scalerValue"`
	ExecutionTimeoutMs int      `json:"executionTimeoutMs"`
	Flashboot          bool     `json:"flashboot"`
}

// xpTemplateBinding is what the endpoint controller knows of the Template
// resource the endpoint is made from (its templateBinding).
type xpTemplateBinding struct {
	id, name, image        string
	containerDiskGB        int
	entrypoint, startCmd   []string
	ports                  []string
	maxWorkerCostMilliUSDh int // the Endpoint's maxWorkerCostMilliUsdPerHour
}

type xpObj map[string]json.RawMessage

var xpRunPodID = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func xpDecode(b []byte) (xpObj, error) {
	var o xpObj
	err := json.Unmarshal(b, &o)
	return o, err
}

func (o xpObj) has(k string) bool { _, ok := o[k]; return ok }
func (o xpObj) null(k string) bool {
	v, ok := o[k]
	return ok && bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}

// set: present and not null (a Go pointer or slice the provider finds
// non-nil).
func (o xpObj) set(k string) bool { return o.has(k) && !o.null(k) }

func (o xpObj) str(k string) string {
	var s string
	_ = json.Unmarshal(o[k], &s)
	return s
}

func (o xpObj) num(k string) (float64, bool) {
	if !o.set(k) {
		return 0, false
	}
	raw := bytes.TrimSpace(o[k])
	if len(raw) > 0 && raw[0] == '"' { // the provider also takes decimal strings
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, false
		}
		raw = []byte(s)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}

func (o xpObj) int(k string) int { f, _ := o.num(k); return int(f) }

func (o xpObj) strs(k string) []string {
	var s []string
	_ = json.Unmarshal(o[k], &s)
	return s
}

func (o xpObj) obj(k string) xpObj {
	var m xpObj
	if o.set(k) {
		_ = json.Unmarshal(o[k], &m)
	}
	return m
}

func (o xpObj) list(k string) []xpObj {
	var l []xpObj
	_ = json.Unmarshal(o[k], &l)
	return l
}

// emptyOrNull: a present key whose value is null or "" (the provider's
// NullableString meaning none).
func (o xpObj) emptyOrNull(k string) bool { return o.null(k) || (o.has(k) && o.str(k) == "") }

// dataCenterIDs decodes either of v1's encodings, as the provider does.
func (o xpObj) dataCenterIDs() []string {
	if !o.set("dataCenterIds") {
		return nil
	}
	if s := o.str("dataCenterIds"); s != "" {
		out := strings.Split(s, ",")
		for i := range out {
			out[i] = strings.TrimSpace(out[i])
		}
		return out
	}
	return o.strs("dataCenterIds")
}

// xpValidateObservation is the client's validateEndpointObservation, run on
// every Endpoint it decodes: the create answer, a GET, each entry of the
// list its ambiguous-create recovery reads.
func xpValidateObservation(ep xpObj) []string {
	var bad []string
	if !xpRunPodID.MatchString(ep.str("id")) {
		bad = append(bad, "invalid id")
	}
	tplID := ep.str("templateId")
	if !xpRunPodID.MatchString(tplID) {
		return append(bad, "omitted or returned an invalid templateId")
	}
	if !ep.set("workersMin") || !ep.set("workersMax") || !ep.set("version") {
		bad = append(bad, "omitted workersMin, workersMax, or version")
	}
	if !ep.set("workers") {
		bad = append(bad, "omitted workers after includeWorkers=true")
	}
	tpl := ep.obj("template")
	if tpl == nil || tpl.str("id") != tplID {
		bad = append(bad, "omitted or mismatched the bound Template after includeTemplate=true")
	}
	for _, w := range ep.list("workers") {
		if !w.set("id") || !xpRunPodID.MatchString(w.str("id")) ||
			!w.has("endpointId") || (!w.null("endpointId") && w.str("endpointId") != ep.str("id")) ||
			!w.has("templateId") || (!w.null("templateId") && w.str("templateId") != tplID) ||
			!w.set("slsVersion") {
			bad = append(bad, "worker omitted or returned an invalid identity binding")
		}
	}
	return bad
}

// xpUnrepairable is unrepairableExternalState: what makes the controller
// refuse to PATCH at all.
func xpUnrepairable(ep xpObj) []string {
	var bad []string
	if ep.str("computeType") != "GPU" {
		bad = append(bad, "computeType is not GPU")
	}
	if !ep.set("env") || len(ep.obj("env")) != 0 {
		bad = append(bad, "env omitted or not empty")
	}
	if len(ep.strs("instanceIds")) != 0 {
		bad = append(bad, "instanceIds on a GPU endpoint")
	}
	if !ep.has("networkVolumeId") || !ep.set("networkVolumeIds") || !ep.has("minCudaVersion") || !ep.set("allowedCudaVersions") {
		bad = append(bad, "omitted bounded storage or CUDA evidence; refusing a rolling PATCH loop")
	}
	return bad
}

// xpMatchesInput is endpointMatchesInput: the endpoint is what was asked.
func xpMatchesInput(in xpEndpointInput, ep xpObj) []string {
	var bad []string
	check := func(ok bool, what string) {
		if !ok {
			bad = append(bad, what)
		}
	}
	check(ep.str("name") == in.Name, "name")
	check(ep.str("templateId") == in.TemplateID, "templateId")
	check(ep.str("computeType") == "GPU" && ep.int("gpuCount") == 1, "computeType/gpuCount")
	check(ep.set("workersMin") && ep.int("workersMin") == in.WorkersMin && ep.set("workersMax") && ep.int("workersMax") == in.WorkersMax, "workersMin/workersMax")
	check(ep.set("version"), "version")
	check(ep.int("idleTimeout") == in.IdleTimeout && ep.str("scalerType") == in.ScalerType && ep.int("scalerValue") == in.ScalerValue &&
		ep.int("executionTimeoutMs") == in.ExecutionTimeoutMs, "idleTimeout/scaler/executionTimeoutMs")
	check(!ep.set("flashboot") || string(ep["flashboot"]) == "false", "flashboot")
	check(ep.emptyOrNull("networkVolumeId") && ep.set("networkVolumeIds") && len(ep.strs("networkVolumeIds")) == 0, "network volumes")
	check(ep.emptyOrNull("minCudaVersion"), "minCudaVersion")
	check(ep.set("env") && len(ep.obj("env")) == 0 && len(ep.strs("instanceIds")) == 0, "env/instanceIds")
	check(slices.Equal(ep.strs("gpuTypeIds"), in.GPUTypeIDs), fmt.Sprintf("gpuTypeIds %s", ep["gpuTypeIds"]))
	check(ep.set("allowedCudaVersions") && len(ep.strs("allowedCudaVersions")) == 0, "allowedCudaVersions")
	check(slices.Equal(ep.dataCenterIDs(), in.DataCenterIDs), "dataCenterIds")
	return bad
}

// xpTemplateMatches is endpointTemplateMatches: the endpoint's template is
// the managed Template itself.
func xpTemplateMatches(ep xpObj, b xpTemplateBinding) []string {
	t := ep.obj("template")
	if t == nil {
		return []string{"no template"}
	}
	var bad []string
	check := func(ok bool, what string) {
		if !ok {
			bad = append(bad, "template "+what)
		}
	}
	check(t.str("id") == b.id && t.str("name") == b.name && t.str("category") == "NVIDIA" && t.str("imageName") == b.image, "id/name/category/imageName")
	check(t.set("isPublic") && string(t["isPublic"]) == "false", "isPublic")
	check(t.set("isRunpod") && string(t["isRunpod"]) == "false", "isRunpod")
	check(t.set("isServerless") && string(t["isServerless"]) == "true", "isServerless")
	check(t.set("containerDiskInGb") && t.int("containerDiskInGb") == b.containerDiskGB, "containerDiskInGb")
	check(t.set("volumeInGb") && t.int("volumeInGb") == 0, "volumeInGb")
	check(t.set("env") && len(t.obj("env")) == 0, "env")
	check(t.emptyOrNull("containerRegistryAuthId"), "containerRegistryAuthId")
	check(t.set("readme") && t.str("readme") == "", "readme")
	check(t.set("volumeMountPath") && t.str("volumeMountPath") == "", "volumeMountPath")
	check(t.set("dockerEntrypoint") && slices.Equal(t.strs("dockerEntrypoint"), b.entrypoint), "dockerEntrypoint")
	check(t.set("dockerStartCmd") && slices.Equal(t.strs("dockerStartCmd"), b.startCmd), "dockerStartCmd")
	check(t.set("ports") && slices.Equal(t.strs("ports"), b.ports), "ports")
	return bad
}

// xpWorkersMatch is endpointWorkersMatch: each active worker runs the
// bounded image and storage, in the listed placement, on Secure Cloud, and
// within the cost bound.
func xpWorkersMatch(in xpEndpointInput, ep xpObj, b xpTemplateBinding) []string {
	ws := ep.list("workers")
	if !ep.set("workers") || !ep.set("workersMax") || len(ws) > ep.int("workersMax") || len(ws) > in.WorkersMax {
		return []string{"workers absent or more than workersMax"}
	}
	maxCost := float64(b.maxWorkerCostMilliUSDh) / 1000
	cost := func(o xpObj, k string) bool {
		v, ok := o.num(k)
		return ok && v >= 0 && v <= maxCost
	}
	var bad []string
	for i, w := range ws {
		check := func(ok bool, what string) {
			if !ok {
				bad = append(bad, fmt.Sprintf("worker %d %s", i, what))
			}
		}
		check(w.set("id") && w.has("endpointId") && (w.null("endpointId") || w.str("endpointId") == ep.str("id")) &&
			w.has("templateId") && (w.null("templateId") || w.str("templateId") == ep.str("templateId")), "identity")
		check(w.set("slsVersion") && ep.set("version") && w.int("slsVersion") == ep.int("version"), "slsVersion")
		check(w.set("image") && w.str("image") == b.image, "image")
		check(w.set("containerDiskInGb") && w.int("containerDiskInGb") == b.containerDiskGB, "containerDiskInGb")
		check(w.emptyOrNull("containerRegistryAuthId"), "containerRegistryAuthId")
		check(w.set("dockerEntrypoint") && slices.Equal(w.strs("dockerEntrypoint"), b.entrypoint), "dockerEntrypoint")
		check(w.set("dockerStartCmd") && slices.Equal(w.strs("dockerStartCmd"), b.startCmd), "dockerStartCmd")
		check(w.set("ports") && slices.Equal(w.strs("ports"), b.ports), "ports")
		check(w.set("env") && len(w.obj("env")) == 0, "env")
		check(w.set("volumeInGb") && w.int("volumeInGb") == 0, "volumeInGb")
		check(w.emptyOrNull("volumeMountPath"), "volumeMountPath")
		check(w.set("volumeEncrypted"), "volumeEncrypted")
		check(w.null("networkVolume"), "networkVolume")
		check(w.emptyOrNull("publicIp"), "publicIp")
		check(xpEmptyOrNull(w["portMappings"]) && xpEmptyOrNull(w["savingsPlans"]), "portMappings/savingsPlans")
		check(w.str("desiredStatus") == "RUNNING", "desiredStatus")
		check(w.set("interruptible") && string(w["interruptible"]) == "false", "interruptible")
		check(cost(w, "adjustedCostPerHr") && cost(w, "costPerHr"), fmt.Sprintf("costPerHr %s / adjustedCostPerHr %s", w["costPerHr"], w["adjustedCostPerHr"]))
		check(w.set("locked") && string(w["locked"]) == "false", "locked")
		check(w.obj("gpu") != nil && w.obj("gpu").set("count") && w.obj("gpu").int("count") == 1, "gpu.count")
		m := w.obj("machine")
		if m == nil {
			check(false, "machine absent")
			continue
		}
		check(m.set("gpuTypeId") && slices.Contains(in.GPUTypeIDs, m.str("gpuTypeId")), "machine.gpuTypeId")
		check(m.set("dataCenterId") && slices.Contains(in.DataCenterIDs, m.str("dataCenterId")), "machine.dataCenterId")
		check(m.set("secureCloud") && string(m["secureCloud"]) == "true", fmt.Sprintf("machine.secureCloud %s", m["secureCloud"]))
		check(cost(m, "costPerHr") && cost(m, "currentPricePerGpu"), fmt.Sprintf("machine.costPerHr %s / currentPricePerGpu %s", m["costPerHr"], m["currentPricePerGpu"]))
	}
	return bad
}

func xpEmptyOrNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	switch {
	case len(t) == 0:
		return false
	case string(t) == "null":
		return true
	case t[0] == '[':
		var v []json.RawMessage
		return json.Unmarshal(t, &v) == nil && len(v) == 0
	case t[0] == '{':
		var v map[string]json.RawMessage
		return json.Unmarshal(t, &v) == nil && len(v) == 0
	}
	return false
}

// xpObserve is the controller's Observe of a bound endpoint (GET
// /endpoints/{id}?includeTemplate=true&includeWorkers=true): ready when
// nothing is refused.
func xpObserve(in xpEndpointInput, ep xpObj, b xpTemplateBinding) []string {
	return slices.Concat(xpValidateObservation(ep), xpUnrepairable(ep), xpTemplateMatches(ep, b), xpWorkersMatch(in, ep, b), xpMatchesInput(in, ep))
}
