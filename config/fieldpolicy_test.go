package config

import (
	"reflect"
	"strings"
	"testing"
)

// field_policy (issue 29 item 3): per field, refuse or drop, overriding
// compat_mode; a flag, a variable, or a YAML mapping (or the same text),
// checked at start-up against the fields v2 cannot take as such.
func TestFieldPolicyFromEverySource(t *testing.T) {
	want := map[string]string{"minRAMPerGPU": "drop", "minVCPUPerGPU": "drop", "dockerEntrypoint": "refuse"}
	text := " minRAMPerGPU=drop, minVCPUPerGPU = DROP ,dockerEntrypoint=refuse,"
	for _, c := range []struct {
		name string
		args []string
		env  env
		file string
	}{
		{name: "flag", args: []string{"-field-policy", text}},
		{name: "env", env: env{"V1GW_FIELD_POLICY": text}},
		{name: "file mapping", file: "field_policy:\n  minRAMPerGPU: drop\n  minVCPUPerGPU: drop\n  dockerEntrypoint: refuse\n"},
		{name: "file text", file: "field_policy: \"" + text + "\"\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			if c.file != "" {
				args = append(args, "-config", writeFile(t, c.file))
			}
			got := mustLoad(t, args, c.env)
			if !reflect.DeepEqual(got.FieldPolicy, want) {
				t.Errorf("FieldPolicy %v, want %v", got.FieldPolicy, want)
			}
			if r := got.Redacted()["field_policy"]; r != "dockerEntrypoint=refuse,minRAMPerGPU=drop,minVCPUPerGPU=drop" {
				t.Errorf("Redacted field_policy %v", r)
			}
		})
	}
	if c := mustLoad(t, nil, env{}); c.FieldPolicy != nil {
		t.Errorf("default FieldPolicy %v, want none (compat_mode decides)", c.FieldPolicy)
	}
}

func TestFieldPolicyErrorsNameTheSettingAndItsSource(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		env  env
		file string
		want string
	}{
		{name: "unknown field, flag", args: []string{"-field-policy", "minRamPerGpu=drop"},
			want: `config: -field-policy: "minRamPerGpu" is not a field v2 cannot take as such (did you mean minRAMPerGPU?); field_policy names one of countryCodes, dataCenterId, deployCost, dockerEntrypoint,`},
		{name: "a field v2 can express", env: env{"V1GW_FIELD_POLICY": "env=drop"},
			want: `config: V1GW_FIELD_POLICY: "env" is not a field v2 cannot take as such;`},
		{name: "unknown value", env: env{"V1GW_FIELD_POLICY": "minRAMPerGPU=allow"},
			want: `config: V1GW_FIELD_POLICY: minRAMPerGPU: "allow" must be one of refuse, drop`},
		{name: "not FIELD=POLICY", args: []string{"-field-policy", "minRAMPerGPU"},
			want: `config: -field-policy: "minRAMPerGPU" must be FIELD=POLICY (e.g. minRAMPerGPU=drop)`},
		{name: "a field twice", args: []string{"-field-policy", "minRAMPerGPU=drop,minRAMPerGPU=refuse"},
			want: `config: -field-policy: minRAMPerGPU is given twice`},
		{name: "file: unknown field", file: "field_policy:\n  dockerArgs: drop\n",
			want: `: field_policy: "dockerArgs" is not a field v2 cannot take as such`},
		{name: "file: a list", file: "field_policy:\n  - minRAMPerGPU\n",
			want: `field_policy: must be a mapping {<field>: refuse | drop}, not a list`},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			if c.file != "" {
				args = append(args, "-config", writeFile(t, c.file))
			}
			_, err := Load(args, c.env.get)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line containing %q", err, c.want)
			}
		})
	}
}
