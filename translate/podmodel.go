package translate

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"sync"

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

// podListStorage is the storage of a pod list's models (the GraphQL
// door's ListPods): the decoded v2 pods and their parts, the pointers to
// them, their v1 forms and models, kept from one list to the next
// (podListStorages) so that a list read as models allocates next to
// nothing. Its Result gives it back (Result.Release) once the models are
// no longer read. A nil *podListStorage allocates each list anew.
type podListStorage struct {
	pods   []podjson.V2Pod
	parts  podjson.PodStorage
	ptrs   []*podjson.V2Pod
	v1     []podjson.V1Pod
	models []PodModel
}

var podListStorages = sync.Pool{New: func() any { return new(podListStorage) }}

// Past this many pods a storage is dropped, not kept for the next list.
const maxKeptListPods = 1024

// decode decodes the pods of a v2 list answer, or returns the 502.
func (st *podListStorage) decode(a *V2Answer) ([]podjson.V2Pod, *Result) {
	if st == nil {
		return decodePodListAnswer(a)
	}
	pods, err := podjson.DecodePodListInto(a.Body, st.pods, &st.parts)
	if err != nil {
		return nil, Fail(http.StatusBadGateway, "the v2 API answered with a pod list the gateway cannot read: "+err.Error())
	}
	st.pods = pods
	return pods, nil
}

// ptrsTo is a pointer to each of pods.
func (st *podListStorage) ptrsTo(pods []podjson.V2Pod) []*podjson.V2Pod {
	var ptrs []*podjson.V2Pod
	if st != nil {
		ptrs = st.ptrs[:0]
	}
	for i := range pods {
		ptrs = append(ptrs, &pods[i])
	}
	if st != nil {
		st.ptrs = ptrs
	}
	return ptrs
}

// v1Pods is room for n v1 pods, zeroed.
func (st *podListStorage) v1Pods(n int) []podjson.V1Pod {
	if st == nil {
		return make([]podjson.V1Pod, n)
	}
	st.v1 = slices.Grow(st.v1[:0], n)[:n]
	return st.v1
}

// podModels are the models of pods and their v1 forms.
func (st *podListStorage) podModels(pods []*podjson.V2Pod, out []podjson.V1Pod) []PodModel {
	var models []PodModel
	if st != nil {
		models = st.models[:0]
	}
	for i, p := range pods {
		models = append(models, PodModel{V2: p, V1: &out[i]})
	}
	if st != nil {
		st.models = models
	}
	return models
}

// release empties st (no reference to an answer's strings or another
// storage is kept) and gives it back to the pool.
func (st *podListStorage) release() {
	if cap(st.pods) > maxKeptListPods {
		*st = podListStorage{}
		podListStorages.Put(st)
		return
	}
	clear(st.pods[:cap(st.pods)])
	clear(st.ptrs[:cap(st.ptrs)])
	clear(st.v1[:cap(st.v1)])
	clear(st.models[:cap(st.models)])
	st.pods, st.ptrs, st.v1, st.models = st.pods[:0], st.ptrs[:0], st.v1[:0], st.models[:0]
	st.parts.Clear()
	podListStorages.Put(st)
}

// podAnswer is a v1 answer with one pod, out, the v1 form of v2.
func podAnswer(status int, v2 *podjson.V2Pod, out *podjson.V1Pod) *Result {
	return &Result{Status: status, Body: podjson.PooledBody(podjson.AppendV1Pod(podjson.GetAnswerBuf(1024), out)),
		Model: &PodModel{V2: v2, V1: out}}
}
