package translate

import (
	"fmt"
	"net/http"

	"github.com/v1gateway/v1gateway/podjson"
)

// This file reads the v1 template bodies (TemplateCreateInput,
// TemplateUpdateInput) field by field and holds the v2 bodies they become.

var (
	v1TemplateCategories = setOf("NVIDIA", "AMD", "CPU")

	templateCreateFields = setOf("category", "containerDiskInGb", "containerRegistryAuthId", "dockerEntrypoint",
		"dockerStartCmd", "env", "imageName", "isPublic", "isServerless", "name", "ports", "readme",
		"volumeInGb", "volumeMountPath")
	templateUpdateFields = setOf("containerDiskInGb", "containerRegistryAuthId", "dockerEntrypoint",
		"dockerStartCmd", "env", "imageName", "isPublic", "name", "ports", "readme", "volumeInGb",
		"volumeMountPath",
		// Outside the v1 document, translated (OutsideFields).
		"category", "isServerless")
)

const (
	v1DefaultTemplateCategory = "NVIDIA"
	warnReadme                = "readme was not stored: v2 templates have no readme, and the gateway has no fact store to keep it in (the text is lost)"
	warnReadmeLong            = "readme was not stored: v2 templates have no readme, and the gateway keeps at most 16 KiB of one (the text is lost)"
)

// v2TemplateMounts is v2 TemplateMounts (persistent only; additionalProperties: false).
type v2TemplateMounts struct {
	Persistent *podjson.V2PersistentMount `json:"persistent,omitempty"`
}

// v2CreateTemplateBody is v2 CreateTemplateRequest (unevaluatedProperties: false).
type v2CreateTemplateBody struct {
	Name         string            `json:"name"`
	Image        string            `json:"image"`
	Args         *string           `json:"args,omitempty"`
	Disk         int               `json:"disk"`
	Env          map[string]string `json:"env,omitempty"`
	Ports        []string          `json:"ports"`
	Registry     string            `json:"registry,omitempty"`
	Category     string            `json:"category"`
	Mounts       *v2TemplateMounts `json:"mounts,omitempty"`
	Public       bool              `json:"public"`
	Serverless   bool              `json:"serverless"`
	StartJupyter bool              `json:"startJupyter"` // false: v2's default true would inject JUPYTER_PASSWORD
	StartSSH     bool              `json:"startSsh"`
}

// v2UpdateTemplateBody is v2 UpdateTemplateRequest (unevaluatedProperties: false).
type v2UpdateTemplateBody struct {
	Name     *string                 `json:"name,omitempty"`
	Image    *string                 `json:"image,omitempty"`
	Args     *string                 `json:"args,omitempty"`
	Disk     *int                    `json:"disk,omitempty"`
	Env      *map[string]string      `json:"env,omitempty"`
	Ports    *[]string               `json:"ports,omitempty"`
	Registry *podjson.NullableString `json:"registry,omitempty"`
	Mounts   *v2TemplateMounts       `json:"mounts,omitempty"`
	Public   *bool                   `json:"public,omitempty"`
	// category and serverless are outside v1's update input
	// (OutsideFields).
	Category   *string `json:"category,omitempty"`
	Serverless *bool   `json:"serverless,omitempty"`
}

func (b *v2UpdateTemplateBody) empty() bool {
	return b.Name == nil && b.Image == nil && b.Args == nil && b.Disk == nil && b.Env == nil &&
		b.Ports == nil && b.Registry == nil && b.Mounts == nil && b.Public == nil && b.Category == nil && b.Serverless == nil
}

// templateInput is what both template bodies share.
type templateInput struct {
	readme      *string // the readme sent, "" included (nil: not sent)
	unknownKeys []string
	untrans     []untranslatable
}

// untranslatableTemplate is what an untranslatable template field would
// change (decideUntranslatable's intro).
const untranslatableTemplate = "cannot be translated to the v2 API without changing what containers created from the template do"

func (b *bodyFields) templateCommon(in *templateInput) {
	if ep, ok := b.strings("dockerEntrypoint"); ok && len(ep) > 0 {
		in.untrans = append(in.untrans, untranslatable{field: "dockerEntrypoint", why: "v2 has no entrypoint override; the image's own ENTRYPOINT would run instead"})
	}
	if s, ok := b.str("readme"); ok {
		in.readme = &s
	}
}

// volumeSize reads volumeInGb (v2 persistent mounts are at least 10 GB; 0
// means no volume).
func (b *bodyFields) volumeSize() (*int, bool) {
	v, ok := b.integer("volumeInGb")
	if !ok {
		return nil, false
	}
	switch {
	case v < 0:
		b.fail("volumeInGb", "must not be negative, got %d", v)
	case v > 0 && v < v2PersistentMinimum:
		b.v2Limit("volumeInGb", "v2 volumes are at least %d GB; %d would have to be rounded up, which the gateway does not do", v2PersistentMinimum, v)
	}
	return &v, true
}

// ---------------------------------------------------------------------------
// TemplateCreateInput

type templateCreate struct {
	templateInput
	body v2CreateTemplateBody
}

// parseTemplateCreate validates a v1 TemplateCreateInput and builds the v2
// body with v1's defaults (P2).
func parseTemplateCreate(body []byte) (*templateCreate, *Result) {
	b, msg := parseBodyObject(body, "TemplateCreateInput")
	if b == nil {
		return nil, Fail(http.StatusBadRequest, msg)
	}
	in := &templateCreate{}
	in.unknownKeys = b.unknown(templateCreateFields)
	b.templateCommon(&in.templateInput)
	out := &in.body
	out.StartJupyter, out.StartSSH = false, true
	if s, ok := b.str("name"); ok {
		out.Name = s
	} else if !hasFieldError(b.errs, "name") {
		b.fail("name", "is required")
	}
	if s, ok := b.str("imageName"); ok {
		out.Image = s
	} else if !hasFieldError(b.errs, "imageName") {
		b.fail("imageName", "is required")
	}
	out.Category = v1DefaultTemplateCategory
	if s, ok := b.enum("category", v1TemplateCategories); ok {
		out.Category = s
	}
	out.Disk = v1DefaultDisk
	if d, ok := b.integer("containerDiskInGb"); ok {
		if d < 1 {
			b.v2Limit("containerDiskInGb", "must be at least 1 GB (v2 rule), got %d", d)
		}
		out.Disk = d
	}
	if s, ok := b.str("containerRegistryAuthId"); ok && s != "" {
		out.Registry = s
	}
	if cmd, ok := b.strings("dockerStartCmd"); ok && len(cmd) > 0 {
		a := podjson.JoinArgs(cmd)
		out.Args = &a
	}
	if e, ok := b.env("env"); ok && len(e) > 0 {
		out.Env = e
	}
	out.Ports = v1DefaultPorts
	if p, ok := b.ports("ports"); ok {
		out.Ports = p
	}
	if v, ok := b.boolean("isPublic"); ok {
		out.Public = v
	}
	if v, ok := b.boolean("isServerless"); ok {
		out.Serverless = v
	}
	size, sizeSent := b.volumeSize()
	path := v1DefaultMountPath
	if s, ok := b.str("volumeMountPath"); ok && s != "" {
		path = s
	}
	// H-mount-create: pod templates get v1's default volume; serverless
	// templates only the one the client asked for (SPEC SILENT on what a
	// persistent mount means for workers).
	s := 0
	switch {
	case sizeSent:
		s = *size
	case !out.Serverless:
		s = v1DefaultVolumeInGb
	}
	if s >= v2PersistentMinimum {
		out.Mounts = &v2TemplateMounts{Persistent: &podjson.V2PersistentMount{Size: s, Path: path}}
	}
	if len(b.errs) > 0 {
		return nil, b.failure("TemplateCreateInput")
	}
	return in, nil
}

// ---------------------------------------------------------------------------
// TemplateUpdateInput

// templateUpdate is a validated v1 TemplateUpdateInput: only what the
// client sent (no v1 default on update).
type templateUpdate struct {
	templateInput
	body       v2UpdateTemplateBody
	volumeInGb *int // mounts need the current template first (H-mount-patch)
	mountPath  string
	// removeVolume: volumeInGb 0 on a template with a volume, which v2
	// cannot remove and the fact store remembers (TemplateFact.NoVolume);
	// restoreVolume: a volume size was sent, which ends that.
	removeVolume, restoreVolume bool
	removedSize                 int // the size of the volume v2 keeps
}

func parseTemplateUpdate(body []byte) (*templateUpdate, *Result) {
	b, msg := parseBodyObject(body, "TemplateUpdateInput")
	if b == nil {
		return nil, Fail(http.StatusBadRequest, msg)
	}
	u := &templateUpdate{}
	u.unknownKeys = b.unknown(templateUpdateFields)
	b.templateCommon(&u.templateInput)
	out := &u.body
	if s, ok := b.str("name"); ok {
		out.Name = &s
	}
	if s, ok := b.str("imageName"); ok {
		out.Image = &s
	}
	if d, ok := b.integer("containerDiskInGb"); ok {
		if d < 1 {
			b.v2Limit("containerDiskInGb", "must be at least 1 GB (v2 rule), got %d", d)
		}
		out.Disk = &d
	}
	if s, ok := b.str("containerRegistryAuthId"); ok || b.isNull("containerRegistryAuthId") {
		ns := podjson.NullableString(s) // null clears; "" is "not set" (unchanged)
		out.Registry = &ns
	}
	if cmd, ok := b.strings("dockerStartCmd"); ok {
		a := podjson.JoinArgs(cmd) // [] → "" clears (H-args)
		out.Args = &a
	}
	if e, ok := b.env("env"); ok {
		out.Env = &e
	}
	if p, ok := b.ports("ports"); ok {
		out.Ports = &p
	}
	if v, ok := b.boolean("isPublic"); ok {
		out.Public = &v
	}
	if s, ok := b.enum("category", v1TemplateCategories); ok {
		out.Category = &s
	}
	if v, ok := b.boolean("isServerless"); ok {
		out.Serverless = &v
	}
	u.volumeInGb, _ = b.volumeSize()
	if s, ok := b.str("volumeMountPath"); ok {
		u.mountPath = s
	}
	if len(b.errs) > 0 {
		return nil, b.failure("TemplateUpdateInput")
	}
	return u, nil
}

// needsTemplate reports whether the update needs the current template
// (H-mount-patch).
func (u *templateUpdate) needsTemplate() bool { return u.volumeInGb != nil || u.mountPath != "" }

// applyMounts fills mounts from the current template: v2 PATCH mounts need
// the full entry. remember says whether the gateway can remember a volume
// removed (a fact store). It returns the 400 message when v2 cannot do it.
func (u *templateUpdate) applyMounts(cur *v2TemplateForPod, remember bool) string {
	if !u.needsTemplate() {
		return ""
	}
	if u.volumeInGb != nil && *u.volumeInGb == 0 {
		// 0 is "no volume" (v1): nothing to change on a template without one
		// (a mount path has nothing to move); v2 cannot remove one, the
		// gateway remembers it was removed (issue 37 item 4).
		c := cur.Mounts.Persistent
		if c == nil {
			return ""
		}
		if !remember {
			return fmt.Sprintf("volumeInGb: 0 would remove template %q's %d GB volume, which v2 cannot do (a template's volume can be resized, not removed), and the gateway has no fact store to remember it in", cur.ID, c.Size)
		}
		u.removeVolume, u.removedSize, u.volumeInGb = true, c.Size, nil
		if u.mountPath == "" {
			return ""
		}
	}
	if u.volumeInGb != nil {
		u.restoreVolume = true
	}
	pm := podjson.V2PersistentMount{Path: v1DefaultMountPath}
	if c := cur.Mounts.Persistent; c != nil {
		pm = *c
	} else if u.volumeInGb == nil {
		return fmt.Sprintf("volumeMountPath: template %q has no volume; send volumeInGb too to add one", cur.ID)
	}
	if u.volumeInGb != nil {
		pm.Size = *u.volumeInGb
	}
	if u.mountPath != "" {
		pm.Path = u.mountPath
	}
	u.body.Mounts = &v2TemplateMounts{Persistent: &pm}
	return ""
}
