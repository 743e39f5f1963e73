package translate

import (
	"reflect"
	"strings"
	"testing"
)

// field_policy (issue 29 item 3): per field, refuse or drop, overriding
// compat_mode; every refusal names the exact setting that would allow the
// field, and each refused or dropped field is its own note (counted per
// field in /usage).
func TestFieldPolicyOverridesCompatModeForOneField(t *testing.T) {
	const placement = `"name":"laravel","imageName":"img","gpuTypeIds":["NVIDIA A40"],"minRAMPerGPU":15,"minVCPUPerGPU":4`
	tests := []struct {
		name    string
		body    string
		options Options
		// refused: the fields named in the 400 (nil: created), each with
		// the setting that would allow it.
		refused   []string
		allow     map[string]string
		notAllow  []string
		dropped   []string
		unchecked []string // soft constraints accepted with a warning
	}{
		{name: "strict: placement minimums refused by field_policy, naming the settings that would take them",
			body:    `{` + placement + `}`,
			options: Options{FieldPolicy: map[string]string{"minRAMPerGPU": FieldPolicyRefuse, "minVCPUPerGPU": FieldPolicyRefuse}},
			refused: []string{"minRAMPerGPU", "minVCPUPerGPU"},
			allow: map[string]string{
				"minRAMPerGPU":  "set field_policy minRAMPerGPU: drop (V1GW_FIELD_POLICY=minRAMPerGPU=drop), or remove its field_policy to accept it with a warning",
				"minVCPUPerGPU": "set field_policy minVCPUPerGPU: drop (V1GW_FIELD_POLICY=minVCPUPerGPU=drop), or remove its field_policy to accept it with a warning",
			},
			notAllow: []string{"compat_mode: lenient"}},
		{name: "strict, without field_policy: placement minimums accepted with a warning each",
			body:      `{` + placement + `}`,
			unchecked: []string{"minRAMPerGPU", "minVCPUPerGPU"}},
		{name: "strict, placement minimums dropped by field_policy",
			body:    `{` + placement + `}`,
			options: Options{FieldPolicy: map[string]string{"minRAMPerGPU": FieldPolicyDrop, "minVCPUPerGPU": FieldPolicyDrop}},
			dropped: []string{"minRAMPerGPU", "minVCPUPerGPU"}},
		{name: "strict, placement minimums dropped, the entrypoint still refused",
			body:     `{` + placement + `,"dockerEntrypoint":["/bin/sh"]}`,
			options:  Options{FieldPolicy: map[string]string{"minRAMPerGPU": FieldPolicyDrop, "minVCPUPerGPU": FieldPolicyDrop}},
			refused:  []string{"dockerEntrypoint"},
			allow:    map[string]string{"dockerEntrypoint": "set field_policy dockerEntrypoint: drop (V1GW_FIELD_POLICY=dockerEntrypoint=drop), or compat_mode: lenient"},
			notAllow: []string{"minRAMPerGPU"}},
		{name: "lenient, interruptible refused by field_policy: compat_mode would not help",
			body:     `{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"interruptible":true,"minUploadMbps":10}`,
			options:  Options{Lenient: true, FieldPolicy: map[string]string{"interruptible": FieldPolicyRefuse}},
			refused:  []string{"interruptible"},
			allow:    map[string]string{"interruptible": "set field_policy interruptible: drop (V1GW_FIELD_POLICY=interruptible=drop))"},
			notAllow: []string{"minUploadMbps", "compat_mode: lenient"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var script []step
			if tc.refused == nil {
				script = []step{createStep(newPod("p1"))}
			}
			res, _ := run(t, "CreatePod", runOpts{body: tc.body, options: tc.options}, script...)
			if tc.refused != nil {
				wantStatus(t, res, 400)
				msg := message(t, res)
				for _, f := range tc.refused {
					if !strings.Contains(msg, f+": ") || !strings.Contains(msg, tc.allow[f]) {
						t.Errorf("message %q should refuse %s and name %q", msg, f, tc.allow[f])
					}
				}
				for _, s := range tc.notAllow {
					if strings.Contains(msg, s) {
						t.Errorf("message %q should not name %q", msg, s)
					}
				}
				var fields []string
				for _, n := range res.Notes {
					if n.Code != CodeUntranslatableRefused {
						t.Errorf("note %+v, want %s", n, CodeUntranslatableRefused)
					}
					fields = append(fields, n.Field)
				}
				if !reflect.DeepEqual(fields, tc.refused) {
					t.Errorf("refusal notes for %v, want one per refused field %v", fields, tc.refused)
				}
				return
			}
			wantStatus(t, res, 201)
			if !reflect.DeepEqual(res.Dropped, tc.dropped) {
				t.Errorf("X-Compat-Dropped %v, want %v", res.Dropped, tc.dropped)
			}
			var fields []string
			for _, n := range res.Notes {
				if n.Code == CodeLenientDropped {
					fields = append(fields, n.Field)
					if !strings.Contains(n.Message, "field_policy "+n.Field+": drop") {
						t.Errorf("drop note %q does not say which setting dropped it", n.Message)
					}
				}
			}
			if !reflect.DeepEqual(fields, tc.dropped) {
				t.Errorf("drop notes for %v, want %v", fields, tc.dropped)
			}
			fields = nil
			for _, n := range res.Notes {
				if n.Code == CodeSoftConstraintUnchecked {
					fields = append(fields, n.Field)
				}
			}
			if !reflect.DeepEqual(fields, tc.unchecked) || len(res.Warnings) != len(tc.unchecked) {
				t.Errorf("unchecked notes for %v (warnings %q), want %v", fields, res.Warnings, tc.unchecked)
			}
		})
	}
}

// Every refusal under compat_mode names its setting: templates and the
// billing query parameters too.
func TestEveryPolicyRefusalNamesItsSetting(t *testing.T) {
	res, _ := run(t, "CreateTemplate", runOpts{body: `{"name":"t","imageName":"img","dockerEntrypoint":["sh"]}`})
	wantStatus(t, res, 400)
	wantMessage(t, res, "dockerEntrypoint: ", "field_policy dockerEntrypoint: drop (V1GW_FIELD_POLICY=dockerEntrypoint=drop)")
	res, _ = run(t, "EndpointBilling", runOpts{query: "grouping=podId"})
	wantStatus(t, res, 400)
	wantMessage(t, res, "grouping: ", "field_policy grouping: drop (V1GW_FIELD_POLICY=grouping=drop)", "compat_mode: lenient")
	if len(res.Notes) != 1 || res.Notes[0].Field != "grouping" {
		t.Errorf("notes %+v, want one refusal of grouping", res.Notes)
	}
}

// PolicyFields is the list the configuration validates field_policy
// against: every field the plans refuse under compat_mode.
func TestPolicyFieldsListEveryRefusableField(t *testing.T) {
	for _, f := range []string{"dockerEntrypoint", "interruptible", "volumeInGb", "grouping", "dataCenterId",
		"gpuTypeId", "imageName", "templateId"} {
		if !IsPolicyField(f) || PolicyFields[f].Kind != KindUnseen {
			t.Errorf("%s is refused under compat_mode but not a policy field of kind %s", f, KindUnseen)
		}
	}
	for _, f := range []string{"minRAMPerGPU", "minVCPUPerGPU", "minDiskBandwidthMBps", "minDownloadMbps", "minUploadMbps",
		"supportPublicIp", "countryCodes", "deployCost"} {
		if !IsPolicyField(f) || PolicyFields[f].Kind != KindSoft {
			t.Errorf("%s is a soft constraint but not a policy field of kind %s", f, KindSoft)
		}
	}
	for _, f := range []string{"env", "name", "dockerArgs", "MinRAMPerGPU"} {
		if IsPolicyField(f) {
			t.Errorf("%s is a policy field", f)
		}
	}
	names := PolicyFieldNames()
	if len(names) != len(PolicyFields) || !strings.Contains(strings.Join(names, ","), "minRAMPerGPU") {
		t.Errorf("PolicyFieldNames %v", names)
	}
}
