package graphql

import (
	"maps"
	"slices"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// TestTablesAnswerEverySchemaField checks the types whose fields are split
// between a leafTable (written straight from the model) and a fieldTable
// (resolved, then written): a field is in at most one of them, each table
// field is in the schema, and a leaf writer's field is a leaf (a scalar or
// enum, or a list of them). A schema field in neither has no v2 source and
// reads null by the default path (TestAFieldWithoutABindingReadsNull).
func TestTablesAnswerEverySchemaField(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		typ            string
		leaves, fields []string
	}{
		{"Pod", slices.Collect(maps.Keys(podLeaves)), slices.Collect(maps.Keys(podFields))},
		{"PodMachineInfo", slices.Collect(maps.Keys(podMachineLeaves)), nil},
		{"PodRuntime", slices.Collect(maps.Keys(podRuntimeLeaves)), slices.Collect(maps.Keys(podRuntimeFields))},
		{"PodRuntimePorts", slices.Collect(maps.Keys(runtimePortLeaves)), nil},
	}
	for _, c := range cases {
		def := d.schema.Types[c.typ]
		if def == nil {
			t.Fatalf("%s is not in the schema", c.typ)
		}
		seen := map[string]string{}
		for _, name := range c.leaves {
			seen[name] = "leafTable"
			f := def.Fields.ForName(name)
			if f == nil {
				t.Errorf("%s.%s: in the leafTable, not in the schema", c.typ, name)
				continue
			}
			if k := d.schema.Types[namedType(f.Type)].Kind; k != ast.Scalar && k != ast.Enum {
				t.Errorf("%s.%s: a leaf writer for a field of kind %s", c.typ, name, k)
			}
		}
		for _, name := range c.fields {
			if seen[name] != "" {
				t.Errorf("%s.%s: in both the leafTable and the fieldTable", c.typ, name)
			}
			seen[name] = "fieldTable"
			if def.Fields.ForName(name) == nil {
				t.Errorf("%s.%s: in the fieldTable, not in the schema", c.typ, name)
			}
		}
	}
}
