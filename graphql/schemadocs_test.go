package graphql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// The documents the schema itself writes: for each root field, documents
// selecting every field of its type, to schemaDocDepth levels of objects,
// each within the door's default limits (a root field whose selection
// would pass graphql_max_fields is split into several documents, each
// selecting some of its object fields). Each is answered without a
// validation error and without an error of the gateway's own making
// (INTERNAL_SERVER_ERROR: a value the executor cannot write); a root
// field v2 cannot serve is refused with its reason (NOT_SUPPORTED_BY_V2).
func TestSchemaWrittenDocumentsAreAnswered(t *testing.T) {
	w := newWorld(t)
	ids := w.ok(`query { myself { pods { id } podTemplates { id } } }`, "")
	podID, _ := path(ids.Data, "myself.pods.0.id").(string)
	tplID, _ := path(ids.Data, "myself.podTemplates.0.id").(string)
	if podID == "" || tplID == "" {
		t.Fatalf("seeded ids: %s", ids.raw)
	}
	// Arguments that make a read find something (the rest are sent
	// without arguments, or with the required ones made up).
	args := map[string]string{
		"Query.pod":         fmt.Sprintf(`(input: {podId: %q})`, podID),
		"Query.podTemplate": fmt.Sprintf(`(id: %q)`, tplID),
	}
	s := w.door.Schema()
	limit := DefaultLimits().MaxFields - 20
	docs, refused := 0, 0
	for _, root := range []*ast.Definition{s.Query, s.Mutation} {
		for _, f := range root.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			a, ok := args[root.Name+"."+f.Name]
			if !ok {
				a = requiredArgs(s, f.Arguments)
			}
			for _, sel := range selections(s, f.Type, schemaDocDepth, limit) {
				op := "query"
				if root == s.Mutation {
					op = "mutation"
				}
				doc := fmt.Sprintf("%s { %s%s %s }", op, f.Name, a, sel)
				docs++
				ans := w.do(doc, "")
				for _, e := range ans.Errors {
					ext, _ := e["extensions"].(map[string]any)
					switch code, _ := ext["code"].(string); code {
					case "", "GRAPHQL_VALIDATION_FAILED", "GRAPHQL_PARSE_FAILED", "INTERNAL_SERVER_ERROR", "MAX_HEIGHT_LIMIT", "MAX_DEPTH_LIMIT":
						t.Errorf("%s.%s: %s: %v\n%.400s", root.Name, f.Name, code, e["message"], doc)
					case "NOT_SUPPORTED_BY_V2":
						refused++
					}
				}
			}
		}
	}
	t.Logf("%d documents written from the schema for %d queries and %d mutations; %d root fields refused", docs, len(s.Query.Fields)-2, len(s.Mutation.Fields), refused)
}

// schemaDocDepth is how deep the written documents select objects.
const schemaDocDepth = 3

// selections are the selection sets selecting every field of typ to depth
// levels of objects ("" for a leaf), split so that each selects at most
// limit fields: the leaves in the first, the object fields spread over
// them (an object field too large for one is selected less deep).
func selections(s *ast.Schema, typ *ast.Type, depth, limit int) []string {
	def := s.Types[namedType(typ)]
	if def.Kind != ast.Object {
		return []string{""}
	}
	var leaves []string
	var subs []string
	var sizes []int
	for _, f := range def.Fields {
		if strings.HasPrefix(f.Name, "__") {
			continue
		}
		sub, n := selectField(s, f, depth-1, limit-1)
		if n == 0 {
			continue
		}
		if n == 1 {
			leaves = append(leaves, sub)
			continue
		}
		subs, sizes = append(subs, sub), append(sizes, n)
	}
	var out []string
	cur, n := strings.Join(leaves, " "), len(leaves)
	for i, sub := range subs {
		if n+sizes[i] > limit && cur != "" {
			out = append(out, "{ "+cur+" }")
			cur, n = "__typename", 1
		}
		cur, n = cur+" "+sub, n+sizes[i]
	}
	if cur == "" {
		cur = "__typename"
	}
	return append(out, "{ "+cur+" }")
}

// selectField is the selection of one field (with its required arguments)
// at most depth levels of objects deep and of at most limit fields, and
// how many fields it selects (0: none fits, left out).
func selectField(s *ast.Schema, f *ast.FieldDefinition, depth, limit int) (string, int) {
	name := f.Name + requiredArgs(s, f.Arguments)
	def := s.Types[namedType(f.Type)]
	if def.Kind != ast.Object {
		return name, 1
	}
	for d := depth; d >= 0; d-- {
		sub, n := objectSelection(s, def, d)
		if n+1 <= limit {
			return name + " " + sub, n + 1
		}
	}
	return "", 0
}

// objectSelection selects every field of def, objects to depth levels
// (at depth 0 its leaves only; none: __typename).
func objectSelection(s *ast.Schema, def *ast.Definition, depth int) (string, int) {
	var parts []string
	n := 0
	for _, f := range def.Fields {
		if strings.HasPrefix(f.Name, "__") {
			continue
		}
		if s.Types[namedType(f.Type)].Kind == ast.Object {
			if depth == 0 {
				continue
			}
			sub, m := objectSelection(s, s.Types[namedType(f.Type)], depth-1)
			parts, n = append(parts, f.Name+requiredArgs(s, f.Arguments)+" "+sub), n+m+1
			continue
		}
		parts, n = append(parts, f.Name+requiredArgs(s, f.Arguments)), n+1
	}
	if len(parts) == 0 {
		return "{ __typename }", 1
	}
	return "{ " + strings.Join(parts, " ") + " }", n
}

// requiredArgs are made-up values for the required arguments of a field.
func requiredArgs(s *ast.Schema, args ast.ArgumentDefinitionList) string {
	var parts []string
	for _, a := range args {
		if a.Type.NonNull && a.DefaultValue == nil {
			parts = append(parts, a.Name+": "+madeUpValue(s, a.Type))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// madeUpValue is a literal of type t: its required fields only, for an
// input object.
func madeUpValue(s *ast.Schema, t *ast.Type) string {
	if t.Elem != nil {
		return "[" + madeUpValue(s, t.Elem) + "]"
	}
	def := s.Types[t.NamedType]
	switch {
	case def.Kind == ast.Enum:
		return def.EnumValues[0].Name
	case def.Kind == ast.InputObject:
		var parts []string
		for _, f := range def.Fields {
			if f.Type.NonNull && f.DefaultValue == nil {
				parts = append(parts, f.Name+": "+madeUpValue(s, f.Type))
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case t.NamedType == "Int", t.NamedType == "Float":
		return "1"
	case t.NamedType == "Boolean":
		return "false"
	}
	return `"x"`
}
