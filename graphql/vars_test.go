package graphql

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

func TestVariablesOfTheWrongTypeAreErrorsNotDroppedFields(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	const create = `mutation m($input: PodFindAndDeployOnDemandInput) { podFindAndDeployOnDemand(input: $input) { id } }`
	for _, c := range []struct {
		name, doc, vars, want string
	}{
		{"a string for an Int", create, `{"input": {"gpuCount": 1, "containerDiskInGb": "20", "imageName": "x"}}`, `$input.containerDiskInGb: \"20\" is not a valid Int`},
		{"a number for a String", create, `{"input": {"gpuCount": 1, "name": 12345, "imageName": "x"}}`, `$input.name: 12345 is not a valid String`},
		{"a fraction for an Int", create, `{"input": {"gpuCount": 1.5, "imageName": "x"}}`, `$input.gpuCount: 1.5 is not a valid Int`},
		{"an Int past 32 bits", create, `{"input": {"gpuCount": 4294967296, "imageName": "x"}}`, `is not a valid Int`},
		{"a string for a Boolean", `mutation m($input: PodFindAndDeployOnDemandInput) { podFindAndDeployOnDemand(input: $input) { id } }`, `{"input": {"startSsh": "true", "imageName": "x"}}`, `is not a valid Boolean`},
		{"a number for an enum", create, `{"input": {"cloudType": 1, "imageName": "x"}}`, `is not a valid CloudTypeEnum`},
		{"invalid UTF-8 in an id", `query q($id: String!) { pod(input: {podId: $id}) { id } }`, "{\"id\": \"\xff\xfe\"}", `invalid UTF-8`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var vars map[string]any
			dec := json.NewDecoder(strings.NewReader(c.vars))
			dec.UseNumber()
			if err := dec.Decode(&vars); err != nil {
				t.Fatal(err)
			}
			if c.name == "invalid UTF-8 in an id" {
				vars["id"] = "\xff\xfe" // as a GET ?variables= can carry it
			}
			resp := d.Execute(context.Background(), &Env{Caller: refusingCaller{t}, KeyID: "k"}, Request{Query: c.doc, Variables: vars})
			if !strings.Contains(string(resp.Body), c.want) || !strings.Contains(string(resp.Body), `"code":"BAD_USER_INPUT"`) {
				t.Errorf("answer %s, want %q", resp.Body, c.want)
			}
		})
	}
}

func TestAnIntegerIDVariableIsReadAsItsString(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]any{"id": json.Number("12345"), "ids": []any{float64(7), "x"}}
	op := &ast.OperationDefinition{VariableDefinitions: ast.VariableDefinitionList{
		{Variable: "id", Type: ast.NamedType("ID", nil)},
		{Variable: "ids", Type: ast.ListType(ast.NamedType("ID", nil), nil)},
	}}
	if err := strictVariables(d.Schema(), op, vars); err != nil {
		t.Fatal(err)
	}
	if vars["id"] != "12345" || vars["ids"].([]any)[0] != "7" {
		t.Errorf("variables %#v", vars)
	}
}

func TestADocumentOfInvalidUTF8IsRefusedBeforeParsing(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	resp := d.Execute(context.Background(), &Env{Caller: refusingCaller{t}, KeyID: "k"}, Request{Query: "{ pod(input: {podId: \"\xff\"}) { id } }"})
	if !strings.Contains(string(resp.Body), "not valid UTF-8") {
		t.Errorf("answer %s", resp.Body)
	}
}
