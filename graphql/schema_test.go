package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"
)

// The door's schema is the vendor's whole schema (docs/design.md P11): every
// type, field, argument, input field and enum value of the vendor's schema
// is the door's, with the same type, so that a document valid against the
// vendor's schema is valid against the door's. The door's additions
// (schema_door.graphql) add, never change.
func TestDoorSchemaCoversTheVendorSchema(t *testing.T) {
	vendor := loadVendorSchema(t)
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	door := d.Schema()
	types, fields := 0, 0
	for name, vt := range vendor.Types {
		if vt.BuiltIn {
			continue
		}
		types++
		dt := door.Types[name]
		if dt == nil {
			t.Errorf("type %s: not in the door's schema", name)
			continue
		}
		if dt.Kind != vt.Kind {
			t.Errorf("type %s: a %s in the door's schema, a %s in the vendor's", name, dt.Kind, vt.Kind)
		}
		for _, v := range vt.EnumValues {
			if dt.EnumValues.ForName(v.Name) == nil {
				t.Errorf("enum %s: value %s not in the door's schema", name, v.Name)
			}
		}
		for _, vf := range vt.Fields {
			fields++
			df := dt.Fields.ForName(vf.Name)
			if df == nil {
				t.Errorf("%s.%s: not in the door's schema", name, vf.Name)
				continue
			}
			if df.Type.String() != vf.Type.String() {
				t.Errorf("%s.%s: %s in the door's schema, %s in the vendor's", name, vf.Name, df.Type, vf.Type)
			}
			for _, va := range vf.Arguments {
				da := df.Arguments.ForName(va.Name)
				switch {
				case da == nil:
					t.Errorf("%s.%s(%s): not in the door's schema", name, vf.Name, va.Name)
				case da.Type.String() != va.Type.String():
					t.Errorf("%s.%s(%s): %s in the door's schema, %s in the vendor's", name, vf.Name, va.Name, da.Type, va.Type)
				}
			}
			// An argument the door added must not be required: the
			// vendor's documents do not send it.
			for _, da := range df.Arguments {
				if vf.Arguments.ForName(da.Name) == nil && da.Type.NonNull && da.DefaultValue == nil {
					t.Errorf("%s.%s(%s): a required argument the vendor's schema does not have", name, vf.Name, da.Name)
				}
			}
		}
		if vt.Kind == ast.InputObject {
			for _, df := range dt.Fields {
				if vt.Fields.ForName(df.Name) == nil && df.Type.NonNull && df.DefaultValue == nil {
					t.Errorf("%s.%s: a required input field the vendor's schema does not have", name, df.Name)
				}
			}
		}
	}
	for _, root := range []struct{ door, vendor *ast.Definition }{{door.Query, vendor.Query}, {door.Mutation, vendor.Mutation}} {
		if root.door.Name != root.vendor.Name {
			t.Errorf("root type %s in the door's schema, %s in the vendor's", root.door.Name, root.vendor.Name)
		}
	}
	t.Logf("the vendor's schema: %d types, %d fields and input fields, %d queries, %d mutations; all in the door's",
		types, fields, len(vendor.Query.Fields), len(vendor.Mutation.Fields))
}

// Every document a public client sends (testdata/clients: the clients
// driven against the door and those recorded) is valid against the door's
// schema, with its variables: the vendor's schema's known gaps
// (vendorSchemaGaps) are the door's additions, but for the one client
// mistake the vendor refused too.
func TestEveryClientDocumentIsValidAgainstTheDoorSchema(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	refusedByTheVendorToo := map[string]string{
		"runpod-api-helper/pods_start.graphql": `Field "env" must not have a selection`,
	}
	root := filepath.Join("testdata", "clients")
	n := 0
	err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || filepath.Ext(p) != ".graphql" {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		n++
		err = d.validDocument(p)
		if want, ok := refusedByTheVendorToo[rel]; ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: want the error %q, got %v", rel, want, err)
			}
			return nil
		}
		if err != nil {
			t.Errorf("%s (%s): not valid against the door's schema: %v", rel, clientOf(rel), err)
		}
		return nil
	})
	if err != nil || n < 150 {
		t.Fatalf("%d documents: %v", n, err)
	}
}

// A schema field that no table binds to a v2 source reads null, named once
// in extensions.warnings and noted for /usage (graphql_fields_unanswered),
// whichever object it is on — a pod of a list (written by the executor's
// default writer) or the account (resolveIn's default).
func TestAFieldWithoutABindingReadsNull(t *testing.T) {
	w := newWorld(t)
	for range 2 {
		w.ok(`mutation { podFindAndDeployOnDemand(input: {name: "x", imageName: "img", gpuTypeId: "NVIDIA GeForce RTX 4090"}) { id } }`, "")
	}
	a := w.ok(`query { myself { authId pods { id volumeEncrypted p: volumeEncrypted } } }`, "")
	pods, _ := path(a.Data, "myself.pods").([]any)
	if len(pods) < 2 {
		t.Fatalf("pods: %s", a.raw)
	}
	for _, p := range pods {
		m := p.(map[string]any)
		if v, ok := m["volumeEncrypted"]; !ok || v != nil || m["p"] != nil || m["id"] == nil {
			t.Errorf("pod: %v", m)
		}
	}
	if v, ok := path(a.Data, "myself").(map[string]any)["authId"]; !ok || v != nil {
		t.Errorf("authId: %s", a.raw)
	}
	if !a.warned("fields v2 has no source for were answered null: Pod.volumeEncrypted, User.authId") || len(a.resp.Warnings) != 1 {
		t.Errorf("warnings: %q", a.resp.Warnings)
	}
	if !a.noted(CodeFieldsUnanswered) {
		t.Errorf("notes: %v", a.resp.Notes)
	}
}

// A root field without a resolver is refused by the default path: an error
// with extensions.code NOT_SUPPORTED_BY_V2 and the reason, counted as a
// refusal, and no v2 call; the document's other root fields still run.
func TestARootFieldWithoutAResolverIsRefusedWithItsReason(t *testing.T) {
	for _, c := range []struct{ doc, reason string }{
		{`query { myself { id } machines { id } }`, "v2 has no host API"},
		{`query { myself { id } flashApp(flashAppId: "f") { id } }`, "v2 has no Flash apps"},
		{`mutation { podRentInterruptable(input: {bidPerGpu: 0.2}) { id } }`, "v2 has no interruptible (spot) pods"},
		{`query { myself { id } listings { id } }`, "v2 has no hub"},
		{`query { myself { id } myModels { id } }`, "v2 has no model repository"},
		{`mutation { machineDelete(machineId: "m") { id } }`, "v2 has no host API"},
	} {
		w := newWorld(t)
		mark := w.mark()
		a := w.do(c.doc, "")
		if len(a.Errors) != 1 || a.code() != "NOT_SUPPORTED_BY_V2" || !strings.Contains(a.message(), "is not available through the gateway: "+c.reason) || !a.refused() {
			t.Errorf("%s: %s", c.doc, a.raw)
		}
		if strings.Contains(c.doc, "myself") && path(a.Data, "myself.id") == nil {
			t.Errorf("%s: the other root field did not run: %s", c.doc, a.raw)
		}
		for _, call := range w.callsSince(mark) {
			if !strings.HasPrefix(call, "GET ") {
				t.Errorf("%s: %s", c.doc, call)
			}
		}
	}
	if got := refusal("someRootFieldTheTableDoesNotKnow"); got != noV2Operation {
		t.Errorf("default reason: %q", got)
	}
}

// validDocument parses and validates a client document as the door's
// entrance does (limits, then gqlparser's rules as the door runs them), and
// its variables (the .json beside it).
func (d *Door) validDocument(file string) error {
	query, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	doc, errs := d.limits.parseAndValidate(context.Background(), d.schema, string(query))
	if len(errs) > 0 {
		return errs
	}
	vars := map[string]any{}
	if b, err := os.ReadFile(strings.TrimSuffix(file, ".graphql") + ".json"); err == nil {
		if err := json.Unmarshal(b, &vars); err != nil {
			return fmt.Errorf("variables: %w", err)
		}
	}
	if _, err := validator.VariableValues(d.schema, doc.Operations[0], vars); err != nil {
		return fmt.Errorf("variables: %w", err)
	}
	return nil
}

// An input field the vendor's schema admits and the door has no v2 setting
// for is ignored, named in a warning and noted for /usage
// (unknown_fields_ignored), never refused (P1) — the default path of every
// root field's input (rootInput): nothing to write per field. Null and ""
// say nothing and are not named.
func TestInputFieldsTheDoorDoesNotReadAreNamed(t *testing.T) {
	w := newWorld(t)
	a := w.ok(`mutation { deployCpuPod(input: {name: "x", imageName: "python:3.12", instanceId: "cpu3c-2-4", volumeKey: "k", stopAfter: ""}) { id } }`, "")
	if !a.warned("deployCpuPod: volumeKey not applied: the gateway has no v2 setting for it") || a.warned("stopAfter") {
		t.Errorf("warnings %q", a.resp.Warnings)
	}
	if !a.noted("unknown_fields_ignored") {
		t.Errorf("notes %v", a.resp.Notes)
	}
	b := w.ok(`mutation { createNetworkVolume(input: {name: "v", size: 10, dataCenterId: "EU-RO-1"}) { id } }`, "")
	if len(b.resp.Warnings) != 0 {
		t.Errorf("every field read, yet: %q", b.resp.Warnings)
	}
}
