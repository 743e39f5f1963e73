package speccheck

import (
	"strings"
	"testing"
)

// WithNulls allows a null only at the listed properties of the named
// schema, wherever that schema is reached by $ref (a list's items, another
// schema's property), and nowhere else: a property of the same name on
// another schema still refuses null.
func TestWithNullsAllowsANullOnlyOnItsOwnSchema(t *testing.T) {
	base := LoadForTest(t, v1Name)
	s, err := base.WithNulls(map[string][]string{
		"Template": {"readme", "volumeInGb"},
		"Endpoint": {"templateId"},
		"Pod":      {"costPerHr", "templateId", "networkVolume", "desiredStatus", "machine.secureCloud"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, method, path, body string
		ok                       bool
	}{
		{"a listed null", "GET", "/v1/templates/t1", `{"id":"t1","readme":null}`, true},
		{"a listed null, an object property", "GET", "/v1/pods/p1", `{"id":"p1","networkVolume":null}`, true},
		{"a listed null, an enum", "GET", "/v1/pods/p1", `{"id":"p1","desiredStatus":null}`, true},
		{"an enum keeps its values", "GET", "/v1/pods/p1", `{"id":"p1","desiredStatus":"SLEEPING"}`, false},
		{"a key the schema does not have is not checked", "GET", "/v1/templates/t1", `{"id":"t1","templateId":null}`, true}, // v1 allows unknown keys
		{"Pod's volumeInGb is not Template's", "GET", "/v1/pods/p1", `{"id":"p1","volumeInGb":null}`, false},
		{"Template's name is not listed", "GET", "/v1/templates/t1", `{"id":"t1","name":null}`, false},
		{"in a list, by $ref", "GET", "/v1/pods", `[{"id":"p1","costPerHr":null}]`, true},
		{"in a list, not listed", "GET", "/v1/pods", `[{"id":"p1","name":null}]`, false},
		{"the endpoint's own", "GET", "/v1/endpoints/e1", `{"id":"e1","templateId":null}`, true},
		{"an endpoint key not listed", "GET", "/v1/endpoints/e1", `{"id":"e1","workersMax":null}`, false},
		{"a worker is a Pod", "GET", "/v1/endpoints/e1", `{"id":"e1","workers":[{"id":"w1","costPerHr":null,"templateId":null}]}`, true},
		{"a worker is not a Template", "GET", "/v1/endpoints/e1", `{"id":"e1","workers":[{"id":"w1","volumeInGb":null}]}`, false},
		{"the endpoint's template is a Template", "GET", "/v1/endpoints/e1", `{"id":"e1","template":{"readme":null,"volumeInGb":null}}`, true},
		{"the endpoint's template is not a Pod", "GET", "/v1/endpoints/e1", `{"id":"e1","template":{"containerDiskInGb":null}}`, false},
		{"a path through an inline object", "GET", "/v1/pods/p1", `{"id":"p1","machine":{"secureCloud":null}}`, true},
		{"only the listed inline property", "GET", "/v1/pods/p1", `{"id":"p1","machine":{"costPerHr":null}}`, false},
		{"a worker's machine, by $ref", "GET", "/v1/endpoints/e1", `{"id":"e1","workers":[{"id":"w1","machine":{"secureCloud":null}}]}`, true},
		{"the template itself is not nullable", "GET", "/v1/endpoints/e1", `{"id":"e1","template":null}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.ValidateResponse(tc.method, tc.path, 200, jsonHeader, []byte(tc.body))
			if (err == nil) != tc.ok {
				t.Errorf("%s: err = %v, want ok %v", tc.body, err, tc.ok)
			}
			if tc.ok {
				return
			}
			if base.ValidateResponse(tc.method, tc.path, 200, jsonHeader, []byte(tc.body)) == nil {
				t.Errorf("%s passes the document itself", tc.body)
			}
		})
	}
	// The document itself is unchanged, and the allowance is built once.
	if base.ValidateResponse("GET", "/v1/templates/t1", 200, jsonHeader, []byte(`{"readme":null}`)) == nil {
		t.Error("WithNulls changed the Spec it was derived from")
	}
	again, err := base.WithNulls(map[string][]string{
		"Pod":      {"templateId", "networkVolume", "costPerHr", "desiredStatus", "costPerHr", "machine.secureCloud"},
		"Endpoint": {"templateId"},
		"Template": {"volumeInGb", "readme"},
	})
	if err != nil || again != s {
		t.Errorf("the same allowance again = %p, %v; want cached %p", again, err, s)
	}
}

func TestWithNullsRefusesWhatTheDocumentDoesNotHave(t *testing.T) {
	base := LoadForTest(t, v1Name)
	for _, tc := range []struct {
		nulls map[string][]string
		want  string
	}{
		{map[string][]string{"Pods2": {"id"}}, "no schema Pods2"},
		{map[string][]string{"Template": {"costPerHr"}}, "schema Template has no property costPerHr"},
		{map[string][]string{"Pod": {"machine.price"}}, "schema Pod has no property machine.price"},
		{map[string][]string{"Pod": {"name.first"}}, "schema Pod has no property name.first"},
	} {
		_, err := base.WithNulls(tc.nulls)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.nulls, err, tc.want)
		}
	}
}
