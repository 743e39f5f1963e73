package translate

import (
	"sort"
	"strings"
)

// P1 for the fields v1 documented that v2 cannot express: refused with a
// 400 in strict mode, dropped in lenient mode (compat_mode), and, per field,
// as the operator's field_policy says (issue 29 item 3): field_policy
// {minRAMPerGPU: drop} drops the placement minimum that most public v1
// scripts send while dockerEntrypoint and interruptible are still refused.
// Every refusal names the exact setting that would allow the field, and
// every refused or dropped field is its own note, so that /usage counts
// them per key, operation and field (P7a).

// The values of field_policy.
const (
	FieldPolicyRefuse = "refuse"
	FieldPolicyDrop   = "drop"
)

// FieldPolicyValues are the values field_policy accepts.
var FieldPolicyValues = []string{FieldPolicyRefuse, FieldPolicyDrop}

// PolicyFields are the fields field_policy may name — every field a plan
// refuses under compat_mode (untranslatable) — with where it is refused.
// The policy of a field applies wherever that field is refused and nowhere
// else: it never changes how a field is translated where it has a v2 home.
var PolicyFields = map[string]string{
	"dockerEntrypoint":     "pod create and update, template create and update: a non-empty entrypoint (v2 has none; the image's own ENTRYPOINT runs)",
	"interruptible":        "pod create: true (v2 has no spot pods; the pod is on-demand)",
	"minRAMPerGPU":         "GPU pod create: other than v1's default 8 (v2 has no per-GPU RAM constraint)",
	"minVCPUPerGPU":        "GPU pod create: other than v1's default 2 (v2 has no per-GPU vCPU constraint)",
	"minDiskBandwidthMBps": "pod create: non-zero (v2 has no host bandwidth constraint)",
	"minDownloadMbps":      "pod create: non-zero (v2 has no host bandwidth constraint)",
	"minUploadMbps":        "pod create: non-zero (v2 has no host bandwidth constraint)",
	"supportPublicIp":      "pod create: true on COMMUNITY cloud (v2 cannot promise a public IP there)",
	"countryCodes":         "CPU pod create (v2 cannot place a CPU pod by country)",
	"volumeInGb":           "CPU pod create: a pod volume (v2 CPU pods have none)",
	"grouping":             "GET /billing/endpoints: other than endpointId (v2 records are per endpoint)",
	"dataCenterId":         "GET /billing/endpoints: a filter (v2 records carry no location)",
	"gpuTypeId":            "GET /billing/endpoints: a filter (v2 records carry no GPU type)",
	"imageName":            "GET /billing/endpoints: a filter (v2 records carry no image)",
	"templateId":           "GET /billing/endpoints: a filter (v2 endpoints keep no template)",
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

// dropsField reports whether an untranslatable field is dropped (true) or
// refused: its field_policy, else compat_mode.
func (o *Options) dropsField(field string) bool {
	switch o.FieldPolicy[field] {
	case FieldPolicyDrop:
		return true
	case FieldPolicyRefuse:
		return false
	}
	return o.Lenient
}

// allowSetting names the settings that would make the gateway drop field
// instead of refusing it.
func (o *Options) allowSetting(field string) string {
	s := "set field_policy " + field + ": drop (V1GW_FIELD_POLICY=" + field + "=drop)"
	if o.FieldPolicy[field] == "" {
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
// or placement (P1): refused or dropped as decideUntranslatable says.
type untranslatable struct {
	field, why string
}

// decideUntranslatable applies P1 to the untranslatable fields us of req.
// When any of them is refused, it returns the 400 — intro says what they
// would change — naming each refused field, why, and the setting that would
// allow it, with one refusal note per field (nothing is dropped then:
// nothing is done). Otherwise every field is dropped: named in notes'
// X-Compat-Dropped with one note per field, and it returns nil.
func decideUntranslatable(req *Request, us []untranslatable, intro string, notes *Result) *Result {
	if len(us) == 0 {
		return nil
	}
	o := &req.Options
	var refused []untranslatable
	for _, u := range us {
		if !o.dropsField(u.field) {
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
		notes.dropField(u.field, "dropped "+u.field+" ("+o.dropReason(u.field)+"): "+u.why)
	}
	return nil
}
