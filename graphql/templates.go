package graphql

import (
	"net/url"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/podjson"
	"github.com/v1gateway/v1gateway/translate"
)

// Templates: User.podTemplates and Query.podTemplates (v1 ListTemplates),
// Query.podTemplate (v1 GetTemplate), saveTemplate (v1 CreateTemplate, or
// UpdateTemplate after GetTemplate) and deleteTemplate (v1 ListTemplates,
// then DeleteTemplate). The GraphQL PodTemplate is read from the plan's
// TemplateModel.

// ---------------------------------------------------------------------------
// Reads

// Which templates a list answers.
type templateKind int

const (
	templatesOwn       templateKind = iota // the account's own
	templatesRunpod                        // the vendor's (the official catalog)
	templatesCommunity                     // the public templates of others (verified and community catalogs)
)

// queryPodTemplates is Query.podTemplates(input: {isRunpod}): the
// vendor's templates for isRunpod true; for false, the public templates of
// the community, as runpodctl reads them ("template list" shows the
// vendor's, then these, then the account's own from REST); without it the
// account's own, as User.podTemplates.
func queryPodTemplates(ec *execCtx, f *ast.Field) (any, error) {
	runpod, ok := ec.rootInput(f).boolean("isRunpod")
	switch {
	case !ok:
		return ec.templateList(templatesOwn)
	case runpod:
		return ec.templateList(templatesRunpod)
	}
	return ec.templateList(templatesCommunity)
}

// templateList runs v1 ListTemplates with the include that lists the
// templates of kind, and keeps those.
func (ec *execCtx) templateList(kind templateKind) (any, error) {
	var q url.Values
	switch kind {
	case templatesRunpod:
		q = url.Values{"includeRunpodTemplates": {"true"}}
	case templatesCommunity:
		q = url.Values{"includePublicTemplates": {"true"}}
	}
	res, err := ec.run("ListTemplates", nil, q, nil)
	if err != nil {
		return nil, err
	}
	models, _ := res.Model.([]translate.TemplateModel)
	out := []object{}
	for i := range models {
		m := &models[i]
		switch {
		case kind == templatesOwn && m.Catalog == "",
			kind == templatesRunpod && m.Catalog == "official",
			kind == templatesCommunity && (m.Catalog == "verified" || m.Catalog == "community"):
			out = append(out, &templateObject{m: m})
		}
	}
	return out, nil
}

// queryPodTemplate is Query.podTemplate(id): v1 GetTemplate; null when v2
// has no such template (runpodctl then says "template not found").
func queryPodTemplate(ec *execCtx, f *ast.Field) (any, error) {
	id, _ := ec.args(f)["id"].(string)
	if !translate.ValidID(id) {
		return nil, nil
	}
	res, err := ec.run("GetTemplate", map[string]string{"templateId": id}, nil, nil)
	if pe, ok := err.(*planError); ok && pe.status == 404 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return templateObjectOf(res.Model), nil
}

// templateObjectOf is the PodTemplate of a plan's model (nil when it gave
// none).
func templateObjectOf(model any) *templateObject {
	m, ok := model.(*translate.TemplateModel)
	if !ok || m == nil || m.V2 == nil || m.V1 == nil {
		return nil
	}
	return &templateObject{m: m}
}

// ---------------------------------------------------------------------------
// The PodTemplate object: one table, GraphQL field ← the template's v2 and
// v1 forms.

type templateObject struct{ m *translate.TemplateModel }

func (t *templateObject) typeName() string { return "PodTemplate" }
func (t *templateObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(templateFields, "PodTemplate", t, ec, f)
}

var templateFields = fieldTable[*templateObject]{
	"id":                func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return t.m.V2.ID, nil },
	"name":              func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return t.m.V2.Name, nil },
	"imageName":         func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return t.m.V2.Image, nil },
	"containerDiskInGb": func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return t.m.V2.Disk, nil },
	"volumeInGb": func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) {
		if t.m.V1.VolumeInGb == nil {
			return 0, nil
		}
		return *t.m.V1.VolumeInGb, nil
	},
	"volumeMountPath": func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) {
		return nonEmpty(t.m.V1.VolumeMountPath), nil
	},
	"dockerArgs":   func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return t.m.V2.Args, nil },
	"ports":        func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return portString(t.m.V2.Ports), nil },
	"env":          func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return envObjects(t.m.V2.Env), nil },
	"isServerless": func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return t.m.V2.Serverless, nil },
	"isPublic":     func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return t.m.V2.Public, nil },
	"isRunpod": func(t *templateObject, ec *execCtx, _ *ast.Field) (any, error) {
		switch {
		case t.m.V1.IsRunpod != nil: // a list, which knows where it found it
			return *t.m.V1.IsRunpod, nil
		case !t.m.V2.Public: // a private template is never the vendor's
			return false, nil
		}
		return ec.unanswered("PodTemplate", "isRunpod")
	},
	"category": func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return nonEmpty(t.m.V2.Category), nil },
	"containerRegistryAuthId": func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) {
		if t.m.V2.Registry == nil {
			return nil, nil
		}
		return nonEmpty(*t.m.V2.Registry), nil
	},
	"startSsh":     func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return t.m.V2.StartSSH, nil },
	"startJupyter": func(t *templateObject, _ *execCtx, _ *ast.Field) (any, error) { return t.m.V2.StartJupyter, nil },
	"readme": func(t *templateObject, ec *execCtx, _ *ast.Field) (any, error) {
		if t.m.V1 != nil && t.m.V1.Readme != nil { // remembered by the gateway (v2 has none)
			return *t.m.V1.Readme, nil
		}
		return ec.unanswered("PodTemplate", "readme")
	},
	"portsConfig":   unansweredField[*templateObject]("PodTemplate", "portsConfig"),
	"startScript":   unansweredField[*templateObject]("PodTemplate", "startScript"),
	"advancedStart": unansweredField[*templateObject]("PodTemplate", "advancedStart"),
}

// ---------------------------------------------------------------------------
// Mutations

// templateNames are the SaveTemplateInput fields the door sends under
// another v1 name.
var templateNames = fieldNames{{"dockerArgs", "dockerStartCmd"}}

// saveTemplate is saveTemplate(input): without an id v1 CreateTemplate,
// with one v1 UpdateTemplate (after GetTemplate: GraphQL saves the whole
// template, and some of what it restates v1's update cannot take as it
// is), answering the template.
func saveTemplate(ec *execCtx, f *ast.Field) (any, error) {
	in := ec.rootInput(f)
	if s, _ := in.str("startScript"); s != "" {
		// A script the container was to run at start: dropping it would
		// start another container than the one asked for.
		return nil, ec.refuse("saveTemplate: startScript: v2 templates have no start script; put it in the image, or in dockerArgs (e.g. bash -c '...')")
	}
	id, _ := in.str("id")
	var cur *templateObject
	if id != "" {
		res, err := ec.run("GetTemplate", map[string]string{"templateId": id}, nil, nil)
		if err != nil {
			return nil, err
		}
		if cur = templateObjectOf(res.Model); cur == nil {
			return nil, badInput("saveTemplate: template %q could not be read before the update", id)
		}
	}
	body, err := ec.templateBody(in, cur)
	if err != nil {
		return nil, err
	}
	if cur == nil {
		res, err := ec.runNamed("saveTemplate", templateNames.of(in), "CreateTemplate", nil, body)
		if err != nil {
			return nil, err
		}
		return templateObjectOf(res.Model), nil
	}
	params := map[string]string{"templateId": id}
	res, err := ec.runNamed("saveTemplate", templateNames.of(in), "UpdateTemplate", params, body)
	if err != nil {
		return nil, err
	}
	if t := templateObjectOf(res.Model); t != nil {
		return t, nil
	}
	// Applied, but v2's answer could not be read (the plan warned, P4).
	if res, err = ec.run("GetTemplate", params, nil, nil); err != nil {
		return nil, err
	}
	return templateObjectOf(res.Model), nil
}

// templateBody is the v1 body of a saveTemplate: one table, GraphQL
// SaveTemplateInput field → v1 TemplateCreateInput / TemplateUpdateInput
// field. cur is the template an update changes (nil: a create). What v1's
// templates cannot say — SSH and Jupyter switches that differ from v1's
// (SSH on, Jupyter off), port labels — is not applied, with a warning:
// none changes what the container runs. An update cannot turn a pod
// template into a serverless one or change its category (v1's update
// has neither), and is refused when it would.
func (ec *execCtx) templateBody(in input, cur *templateObject) (map[string]any, error) {
	b := map[string]any{}
	str := func(k string) string { s, _ := in.str(k); return s }
	if s, ok := in.str("name"); ok {
		b["name"] = s
	}
	if s, ok := in.str("imageName"); ok {
		b["imageName"] = s
	}
	if n, ok := in.int("containerDiskInGb"); ok {
		b["containerDiskInGb"] = n
	}
	if s, ok := in.str("dockerArgs"); ok && (s != "" || cur != nil) {
		// H-args: v1 says the command as words; the plan quotes them back
		// into v2's args string (the same command, perhaps quoted anew).
		words, err := podjson.SplitArgs(s)
		if err != nil {
			return nil, badInput("saveTemplate: dockerArgs %q: %v", s, err)
		}
		b["dockerStartCmd"] = words
	}
	if s, ok := in.str("ports"); ok || cur == nil {
		b["ports"] = nonNilList(portList(s)) // "": none (v1's default would expose two)
	}
	if in.has("env") {
		b["env"] = envMap(in.list("env"))
	}
	if v, ok := in.boolean("isPublic"); ok {
		b["isPublic"] = v
	}
	if s := str("readme"); s != "" {
		b["readme"] = s // v1's plan keeps it in the fact store (v2 has none)
	}
	templateVolume(in, cur, b)
	reg := str("containerRegistryAuthId")
	switch {
	case reg != "":
		b["containerRegistryAuthId"] = reg
	case cur != nil && in.has("containerRegistryAuthId") && cur.m.V2.Registry != nil && *cur.m.V2.Registry != "":
		b["containerRegistryAuthId"] = nil // saved without one: cleared
	}
	serverless, sentServerless := in.boolean("isServerless")
	category := str("category")
	if cur == nil {
		if sentServerless {
			b["isServerless"] = serverless
		}
		if category != "" {
			b["category"] = category
		}
	} else {
		var why []string
		if sentServerless && serverless != cur.m.V2.Serverless {
			why = append(why, "isServerless: the gateway changes templates through v1's template update, which cannot turn a pod template into a serverless one or back; create another template")
		}
		if category != "" && category != cur.m.V2.Category {
			why = append(why, "category: the gateway changes templates through v1's template update, which cannot change a template's category; create another template")
		}
		if len(why) > 0 {
			return nil, ec.refuse("saveTemplate: %s", strings.Join(why, "; "))
		}
	}
	ec.templateSwitches(in, cur)
	return b, nil
}

// templateVolume maps volumeInGb and volumeMountPath. GraphQL restates
// volumeInGb 0 for a template without a volume, which v1's update reads as
// "remove the volume" (refused: v2 cannot); it is sent only when the
// template has one. A mount path without a volume means nothing and is
// not sent either.
func templateVolume(in input, cur *templateObject, b map[string]any) {
	size, sent := in.int("volumeInGb")
	path, _ := in.str("volumeMountPath")
	hasVolume := cur != nil && cur.m.V1.VolumeInGb != nil && *cur.m.V1.VolumeInGb > 0
	switch {
	case !sent:
	case size > 0 || hasVolume || cur == nil:
		b["volumeInGb"] = size
	}
	if path != "" && (size > 0 || hasVolume) {
		b["volumeMountPath"] = path
	}
}

// templateSwitches warns of what a saveTemplate asks that v1's templates
// cannot say and changes nothing the container runs.
func (ec *execCtx) templateSwitches(in input, cur *templateObject) {
	ssh, jupyter := true, false // v1 CreateTemplate's
	if cur != nil {
		ssh, jupyter = cur.m.V2.StartSSH, cur.m.V2.StartJupyter
	}
	if v, ok := in.boolean("startSsh"); ok && v != ssh {
		ec.warn(translate.CodeUnknownFields, "saveTemplate: startSsh "+boolWord(v)+" was not applied: the gateway saves templates through v1, whose templates cannot set it (SSH is "+onOff(ssh)+")")
	}
	if v, ok := in.boolean("startJupyter"); ok && v != jupyter {
		ec.warn(translate.CodeUnknownFields, "saveTemplate: startJupyter "+boolWord(v)+" was not applied: the gateway saves templates through v1, whose templates cannot set it (JupyterLab is "+onOff(jupyter)+"; start it from the image)")
	}
	if l := in.list("portsConfig"); len(l) > 0 {
		ec.warn(translate.CodeUnknownFields, "saveTemplate: portsConfig was not stored: v2 templates have no port labels (the ports themselves are)")
	}
	if v, _ := in.boolean("advancedStart"); v {
		ec.warn(translate.CodeUnknownFields, "saveTemplate: advancedStart was not stored: v2 templates have no start script to switch to")
	}
}

func boolWord(v bool) string {
	if v {
		return "true"
	}
	return "false"
}

func onOff(v bool) string {
	if v {
		return "on"
	}
	return "off"
}

func nonNilList(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// deleteTemplate is deleteTemplate(templateName): the account's template
// of that name (v1 ListTemplates), deleted by its id (v1 DeleteTemplate).
// None, or several of that name, is an error: the gateway does not guess.
// The vendor answered null.
func deleteTemplate(ec *execCtx, f *ast.Field) (any, error) {
	name, _ := ec.args(f)["templateName"].(string)
	res, err := ec.run("ListTemplates", nil, nil, nil)
	if err != nil {
		return nil, err
	}
	models, _ := res.Model.([]translate.TemplateModel)
	var ids []string
	for _, m := range models {
		if m.Catalog == "" && m.V2.Name == name {
			ids = append(ids, m.V2.ID)
		}
	}
	switch len(ids) {
	case 0:
		return nil, badInput("deleteTemplate: the account has no template named %q", name)
	case 1:
	default:
		return nil, badInput("deleteTemplate: %d of the account's templates are named %q (%s): the gateway does not choose one; rename all but one (saveTemplate), or delete one by id (DELETE /v1/templates/{templateId})",
			len(ids), name, strings.Join(ids, ", "))
	}
	if _, err := ec.run("DeleteTemplate", map[string]string{"templateId": ids[0]}, nil, nil); err != nil {
		return nil, err
	}
	return nil, nil
}
