package translate

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/v1gateway/v1gateway/podjson"
)

// The v2 objects the pod plans read besides pods (podjson holds the pod
// itself: podjson.V2Pod), and the v2 → v1 answers of pods: decoded with
// podjson, a 502 when v2's answer cannot be read.

// v2NetworkVolume is a v2 NetworkVolume.
type v2NetworkVolume struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Size       int    `json:"size"`
	DataCenter string `json:"dataCenter"`
	Type       string `json:"type"` // STANDARD, HIGH_PERFORMANCE
}

type v2NetworkVolumeList struct {
	NetworkVolumes []v2NetworkVolume `json:"networkVolumes"`
}

// v2TemplateForPod is the part of a v2 Template the pod plans read.
type v2TemplateForPod struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Image      string          `json:"image"`
	Args       string          `json:"args"`
	Disk       int             `json:"disk"`
	Env        json.RawMessage `json:"env"`
	Ports      json.RawMessage `json:"ports"`
	Registry   *string         `json:"registry"`
	Category   string          `json:"category"`
	Public     bool            `json:"public"`
	Serverless bool            `json:"serverless"`
	// StartSSH and StartJupyter are read for the GraphQL door's
	// PodTemplate (models.go), and StartJupyter for a pod created from
	// the template's settings sent inline (inlineTemplate); v1 templates
	// had neither.
	StartSSH     bool `json:"startSsh"`
	StartJupyter bool `json:"startJupyter"`
	// AllowedCudaVersions seeds an endpoint's when the template is spread
	// into an endpoint create (spreadTemplate).
	AllowedCudaVersions []string `json:"allowedCudaVersions"`
	Mounts              struct {
		Persistent *podjson.V2PersistentMount `json:"persistent"`
	} `json:"mounts"`
}

var (
	jsonEmptyObject = json.RawMessage(`{}`)
	jsonEmptyArray  = json.RawMessage(`[]`)
)

// rawOr returns raw unless it is absent or null, in which case def.
func rawOr(raw, def json.RawMessage) json.RawMessage {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return def
	}
	return raw
}

// decodePodAnswer decodes the v2 pod of an answer, or returns the 502.
func decodePodAnswer(a *V2Answer) (*podjson.V2Pod, *Result) {
	p, err := podjson.DecodePod(a.Body)
	if err != nil {
		return nil, Fail(http.StatusBadGateway, "the v2 API answered with a pod the gateway cannot read: "+err.Error())
	}
	return p, nil
}

// decodePodListAnswer decodes the pods of a v2 list answer, or returns the 502.
func decodePodListAnswer(a *V2Answer) ([]podjson.V2Pod, *Result) {
	pods, err := podjson.DecodePodList(a.Body)
	if err != nil {
		return nil, Fail(http.StatusBadGateway, "the v2 API answered with a pod list the gateway cannot read: "+err.Error())
	}
	return pods, nil
}

// podAnswer is a v1 answer with one pod, out, the v1 form of v2.
func podAnswer(status int, v2 *podjson.V2Pod, out *podjson.V1Pod) *Result {
	return &Result{Status: status, Body: podjson.PooledBody(podjson.AppendV1Pod(podjson.GetAnswerBuf(1024), out)),
		Model: &PodModel{V2: v2, V1: out}}
}
