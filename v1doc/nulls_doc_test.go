package v1doc

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
)

// Every field the gateway may answer null (translate.V1Nulls, which the
// contract tests allow per schema) is nullable in the gateway's own v1
// document, which clients generate code from: a null the document does
// not announce breaks a strict client as an absent key would.
func TestEveryAnsweredNullIsNullableInTheDocument(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(OpenAPIDocument(), &doc); err != nil {
		t.Fatal(err)
	}
	var missing []string
	for schema, fields := range translate.V1Nulls {
		raw, ok := doc.Components.Schemas[schema]
		if !ok {
			t.Errorf("the document has no schema %s", schema)
			continue
		}
		for _, path := range fields {
			var s map[string]any
			_ = json.Unmarshal(raw, &s)
			for _, name := range strings.Split(path, ".") {
				props, _ := s["properties"].(map[string]any)
				s, _ = props[name].(map[string]any)
			}
			if s == nil {
				missing = append(missing, schema+"."+path+" (absent)")
			} else if s["nullable"] != true {
				missing = append(missing, schema+"."+path)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("answered null but not nullable in the document: %s", strings.Join(missing, ", "))
	}
}
