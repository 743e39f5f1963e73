package translate

import (
	"sort"
	"strings"
)

// P1 for the fields v1 documented (or real clients send) that v2 cannot
// express. They are of two kinds (PolicyFields says which):
//
//   - KindUnseen: the field changes what runs or who pays without the user
//     seeing it (an entrypoint v2 cannot set, a spot pod) or which records
//     an answer holds. compat_mode decides: refused with a 400 in strict
//     mode (the default), dropped in lenient mode.
//   - KindSoft: a placement minimum or preference (minRAMPerGPU, host
//     bandwidth, supportPublicIp, countries, a price cap). What the v2
//     catalog can check is checked before the create (a country becomes
//     its data centers, a price cap leaves out the types above it, a stock-
//     out when nothing is left); what it cannot is accepted with a warning
//     naming what v2 could not guarantee (soft_constraint_unchecked, one
//     note per field), whatever compat_mode says: the vendor's own
//     examples and every orchestrator send them on every create.
//
// field_policy decides one field of either kind differently (issue 29 item
// 3): refuse, or drop (not applied, said in X-Compat-Dropped). Every
// refusal names the exact setting that would allow the field, and every
// refused, dropped or unchecked field is its own note, so that /usage
// counts them per key, operation and field (P7a).

// The values of field_policy.
const (
	FieldPolicyRefuse = "refuse"
	FieldPolicyDrop   = "drop"
)

// FieldPolicyValues are the values field_policy accepts.
var FieldPolicyValues = []string{FieldPolicyRefuse, FieldPolicyDrop}

// The kinds of PolicyFields.
const (
	KindUnseen = "unseen" // changes what runs, who pays or what is answered: compat_mode decides
	KindSoft   = "soft"   // a placement minimum or preference: checked where the catalog can, else accepted with a warning
)

// PolicyField is one row of PolicyFields.
type PolicyField struct {
	Kind  string // KindUnseen or KindSoft
	Where string // where the field is decided, and why
}

// PolicyFields is the one table of the fields field_policy may name: every
// field a plan cannot translate as such, with its kind and where it is
// decided. The policy of a field applies wherever that field is decided and
// nowhere else: it never changes how a field is translated where it has a
// v2 home (a GPU pod's countryCodes, resolved from the catalog, unless the
// field_policy refuses or drops it).
var PolicyFields = map[string]PolicyField{
	"dockerEntrypoint": {KindUnseen, "pod create and update, template create and update: a non-empty entrypoint, also as dockerArgs' JSON entrypoint (v2 has none; the image's own ENTRYPOINT runs)"},
	"interruptible":    {KindUnseen, "pod create: true (v2 has no spot pods; the pod is on-demand)"},
	"volumeInGb":       {KindUnseen, "CPU pod create: a pod volume (v2 CPU pods have none); refuse also refuses rounding a GPU pod's volume below v2's 10 GB up"},
	"grouping":         {KindUnseen, "GET /billing/endpoints: other than endpointId (v2 records are per endpoint)"},
	"dataCenterId":     {KindUnseen, "GET /billing/endpoints: a filter (v2 records carry no location)"},
	"gpuTypeId":        {KindUnseen, "GET /billing/endpoints: a filter (v2 records carry no GPU type)"},
	"imageName":        {KindUnseen, "GET /billing/endpoints: a filter (v2 records carry no image)"},
	"templateId":       {KindUnseen, "GET /billing/endpoints: a filter (v2 endpoints keep no template)"},

	"minRAMPerGPU":         {KindSoft, "GPU pod create: other than v1's default 8 (v2 has no per-GPU RAM constraint); GraphQL minMemoryInGb"},
	"minVCPUPerGPU":        {KindSoft, "GPU pod create: other than v1's default 2 (v2 has no per-GPU vCPU constraint); GraphQL minVcpuCount"},
	"minDiskBandwidthMBps": {KindSoft, "pod create: non-zero (v2 has no host bandwidth constraint)"},
	"minDownloadMbps":      {KindSoft, "pod create: non-zero (v2 has no host bandwidth constraint); GraphQL minDownload"},
	"minUploadMbps":        {KindSoft, "pod create: non-zero (v2 has no host bandwidth constraint); GraphQL minUpload"},
	"supportPublicIp":      {KindSoft, "pod create: true on COMMUNITY cloud (v2 cannot promise a public IP there)"},
	"countryCodes":         {KindSoft, "pod create: resolved to data centers from the v2 GPU catalog; unchecked on a CPU pod (the CPU catalog has no country); GraphQL countryCode"},
	"deployCost":           {KindSoft, "pod create (GraphQL deployCost): a price cap per hour, checked against the v2 catalog's list prices"},
}

// IsPolicyField reports whether field_policy may name field.
func IsPolicyField(field string) bool {
	_, ok := PolicyFields[field]
	return ok
}

// PolicyFieldNames lists PolicyFields' names, sorted.
func PolicyFieldNames() []string {
	out := make([]string, 0, len(PolicyFields))
	for f := range PolicyFields {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// decision is what becomes of a field v2 cannot take as such (decide).
type decision int

const (
	decideRefuse decision = iota // a 400 naming it
	decideDrop                   // not applied, said in X-Compat-Dropped
	decideWarn                   // accepted with a warning (a soft constraint v2 cannot check)
	decideCheck                  // checked against the catalog by the plan
)

// decide says what becomes of a policy field sent with a value v2 cannot
// take as such: its field_policy, else its kind (a soft constraint is
// accepted with a warning, and checked when checkable), else compat_mode.
func (o *Options) decide(field string, checkable bool) decision {
	switch o.FieldPolicy[field] {
	case FieldPolicyDrop:
		return decideDrop
	case FieldPolicyRefuse:
		return decideRefuse
	}
	switch {
	case PolicyFields[field].Kind == KindSoft && checkable:
		return decideCheck
	case PolicyFields[field].Kind == KindSoft:
		return decideWarn
	case o.Lenient:
		return decideDrop
	}
	return decideRefuse
}

// allowSetting names the settings that would make the gateway take field
// instead of refusing it.
func (o *Options) allowSetting(field string) string {
	s := "set field_policy " + field + ": drop (V1GW_FIELD_POLICY=" + field + "=drop)"
	switch {
	case PolicyFields[field].Kind == KindSoft:
		s += ", or remove its field_policy to accept it with a warning"
	case o.FieldPolicy[field] == "":
		s += ", or compat_mode: lenient (V1GW_COMPAT_MODE=lenient)"
	}
	return s
}

// dropReason names the setting that dropped field.
func (o *Options) dropReason(field string) string {
	if o.FieldPolicy[field] == FieldPolicyDrop {
		return "field_policy " + field + ": drop"
	}
	return "compat_mode: lenient"
}

// untranslatable is a v1 field with no v2 home that changes behaviour, cost
// or placement (P1): refused, dropped or accepted with a warning as
// decideUntranslatable says. why says what v2 cannot do, and what may
// happen instead.
type untranslatable struct {
	field, why string
	// undo, set for a soft constraint the plan checks against the v2
	// catalog (a GPU pod's countryCodes, a price cap), removes the
	// constraint when field_policy drops it; such a field gets no warning.
	undo func()
}

// decideUntranslatable applies P1 to the untranslatable fields us of req.
// When any of them is refused, it returns the 400 — intro says what they
// would change — naming each refused field, why, and the setting that would
// allow it, with one refusal note per field (nothing is dropped then:
// nothing is done). Otherwise every field is dropped (named in notes'
// X-Compat-Dropped) or, a soft constraint, accepted with a warning, one
// note per field, and it returns nil.
func decideUntranslatable(req *Request, us []untranslatable, intro string, notes *Result) *Result {
	if len(us) == 0 {
		return nil
	}
	o := &req.Options
	var refused []untranslatable
	for _, u := range us {
		if o.decide(u.field, u.undo != nil) == decideRefuse {
			refused = append(refused, u)
		}
	}
	if len(refused) > 0 {
		parts := make([]string, len(refused))
		for i, u := range refused {
			parts[i] = u.field + ": " + u.why + " (to drop it instead, " + o.allowSetting(u.field) + ")"
		}
		msg := intro + ": " + strings.Join(parts, "; ")
		r := Fail(400, msg)
		for _, u := range refused {
			r.Notes = append(r.Notes, Note{Code: CodeUntranslatableRefused, Field: u.field, Message: msg})
		}
		return r
	}
	for _, u := range us {
		switch o.decide(u.field, u.undo != nil) {
		case decideCheck:
			continue
		case decideWarn:
			notes.warnUnchecked(u.field, u.why)
			continue
		}
		if u.undo != nil {
			u.undo()
		}
		notes.dropField(u.field, "dropped "+u.field+" ("+o.dropReason(u.field)+"): "+u.why)
	}
	return nil
}
