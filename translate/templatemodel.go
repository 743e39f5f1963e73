package translate

import (
	"encoding/json"

	"github.com/v1gateway/v1gateway/podjson"
)

// v1Template is the v1 Template schema. v1 answered every key of it for
// every template, and so does the gateway (issue 37): what v2 shows, what the
// gateway was told (readme, a volume removed: TemplateFact), v1's value where
// it is certain (dockerEntrypoint [], as v2 runs the image's own entrypoint;
// isRunpod false for a private template, which only its owner sees), and
// null where it is unknown (earned and runtimeInMin, which v2 does not
// count; a readme the gateway was never told; isRunpod of a public template
// read by id). V1NullFields lists the nulls.
type v1Template struct {
	ID                      string          `json:"id"`
	Name                    string          `json:"name"`
	Category                string          `json:"category"`
	ContainerDiskInGb       int             `json:"containerDiskInGb"`
	ContainerRegistryAuthID *string         `json:"containerRegistryAuthId" nullable:"1"` // null: none
	DockerEntrypoint        []string        `json:"dockerEntrypoint"`
	DockerStartCmd          []string        `json:"dockerStartCmd"`
	Earned                  *float64        `json:"earned" nullable:"1"`
	Env                     json.RawMessage `json:"env"`
	ImageName               string          `json:"imageName"`
	IsPublic                *bool           `json:"isPublic" nullable:"1"`
	IsRunpod                *bool           `json:"isRunpod" nullable:"1"`
	IsServerless            bool            `json:"isServerless"`
	Ports                   json.RawMessage `json:"ports"`
	Readme                  *string         `json:"readme" nullable:"1"`
	RuntimeInMin            *int            `json:"runtimeInMin" nullable:"1"`
	VolumeInGb              *int            `json:"volumeInGb" nullable:"1"`
	VolumeMountPath         string          `json:"volumeMountPath"` // "": no volume
}

// v2TemplateList is GET /v2/templates and GET /v2/catalog/templates.
type v2TemplateList struct {
	Templates []v2TemplateForPod `json:"templates"`
}

// v1TemplateFrom is R-Template; fact is what the gateway remembers of the
// template (nil: nothing).
func v1TemplateFrom(t *v2TemplateForPod, fact *TemplateFact) v1Template {
	out := v1Template{
		ID:                t.ID,
		Name:              t.Name,
		Category:          t.Category,
		ContainerDiskInGb: t.Disk,
		DockerEntrypoint:  []string{},
		DockerStartCmd:    nonNil(podjson.SplitPodArgs(t.Args)),
		Env:               rawOr(t.Env, jsonEmptyObject),
		ImageName:         t.Image,
		IsPublic:          ptrTo(t.Public),
		IsServerless:      t.Serverless,
		Ports:             rawOr(t.Ports, jsonEmptyArray),
		VolumeInGb:        ptrTo(0),
	}
	if !t.Public {
		out.IsRunpod = ptrTo(false) // only its owner sees a private template
	}
	if t.Registry != nil && *t.Registry != "" {
		out.ContainerRegistryAuthID = ptrTo(*t.Registry)
	}
	if pm := t.Mounts.Persistent; pm != nil {
		out.VolumeInGb, out.VolumeMountPath = ptrTo(pm.Size), pm.Path
	}
	if fact != nil {
		out.Readme = fact.Readme
		if fact.NoVolume {
			out.VolumeInGb = ptrTo(0)
		}
	}
	return out
}
