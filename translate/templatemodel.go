package translate

import (
	"encoding/json"

	"github.com/v1gateway/v1gateway/podjson"
)

// v1Template is the v1 Template schema, restricted to what v2 can fill.
// dockerEntrypoint, readme, earned and runtimeInMin have no v2 source and are
// omitted; isRunpod is set only where the gateway knows it (the list, from
// the catalog slice an entry came from).
type v1Template struct {
	ID                      string          `json:"id,omitempty"`
	Name                    string          `json:"name,omitempty"`
	Category                string          `json:"category,omitempty"`
	ContainerDiskInGb       int             `json:"containerDiskInGb"`
	ContainerRegistryAuthID string          `json:"containerRegistryAuthId,omitempty"`
	DockerStartCmd          []string        `json:"dockerStartCmd,omitzero"`
	Env                     json.RawMessage `json:"env"`
	ImageName               string          `json:"imageName"`
	IsPublic                *bool           `json:"isPublic,omitempty"`
	IsRunpod                *bool           `json:"isRunpod,omitempty"`
	IsServerless            bool            `json:"isServerless"`
	Ports                   json.RawMessage `json:"ports"`
	VolumeInGb              *int            `json:"volumeInGb,omitempty"`
	VolumeMountPath         string          `json:"volumeMountPath,omitempty"`
}

// v2TemplateList is GET /v2/templates and GET /v2/catalog/templates.
type v2TemplateList struct {
	Templates []v2TemplateForPod `json:"templates"`
}

// v1TemplateFrom is R-Template.
func v1TemplateFrom(t *v2TemplateForPod) v1Template {
	out := v1Template{
		ID:                t.ID,
		Name:              t.Name,
		Category:          t.Category,
		ContainerDiskInGb: t.Disk,
		DockerStartCmd:    podjson.SplitPodArgs(t.Args),
		Env:               rawOr(t.Env, jsonEmptyObject),
		ImageName:         t.Image,
		IsPublic:          ptrTo(t.Public),
		IsServerless:      t.Serverless,
		Ports:             rawOr(t.Ports, jsonEmptyArray),
		VolumeInGb:        ptrTo(0),
	}
	if t.Registry != nil {
		out.ContainerRegistryAuthID = *t.Registry
	}
	if pm := t.Mounts.Persistent; pm != nil {
		out.VolumeInGb, out.VolumeMountPath = ptrTo(pm.Size), pm.Path
	}
	return out
}
