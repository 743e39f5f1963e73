package graphql

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/v1gateway/v1gateway/internal/speccheck"
)

// vendorSchemaFile is the vendor's public GraphQL schema, as reconstructed
// from its published reference and its public clients, kept beside the
// vendor's OpenAPI documents (speccheck.SpecsDir).
const vendorSchemaFile = "runpod-graphql.graphql"

// loadVendorSchema loads the vendor's GraphQL schema, or skips the test
// when it is not there (recorded as a skipped contract test, so that
// `make test` counts it).
func loadVendorSchema(t *testing.T) *ast.Schema {
	t.Helper()
	dir, err := speccheck.SpecsDir()
	var sdl []byte
	if err == nil {
		sdl, err = os.ReadFile(filepath.Join(dir, vendorSchemaFile))
	}
	if err != nil && !errors.Is(err, speccheck.ErrSpecsNotFound) && !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("reading the vendor's GraphQL schema: %v", err)
	}
	speccheck.Record(t, err == nil)
	if err != nil {
		t.Skipf("the vendor's GraphQL schema (%s) was not found (%v): client documents not checked against it", vendorSchemaFile, err)
	}
	s, gerr := gqlparser.LoadSchema(&ast.Source{Name: vendorSchemaFile, Input: string(sdl)})
	if gerr != nil {
		t.Fatalf("the vendor's GraphQL schema does not load: %v", gerr)
	}
	return s
}

// vendorSchemaGaps are the client documents that the vendor's schema, as
// reconstructed, refuses, with a piece of the validation error and why the
// document is kept anyway. Each was sent by a released client (recorded on
// the wire or built by its code); all but one name something the
// reconstruction lacks (the vendor's published reference is partial), so
// the door must accept them although the reconstruction does not.
var vendorSchemaGaps = map[string]struct{ err, why string }{
	"runpod-mcp/deploy_hub_repo__2_saveEndpoint.graphql":                 {"unknown field", "EndpointInput.compliance (and, in deploy_hub_repo, hubReleaseId) is missing"},
	"runpod-mcp/set_endpoint_gpus__1_myself_endpoints.graphql":           {`Cannot query field "compliance" on type "Endpoint"`, "Endpoint.compliance is missing"},
	"runpod-mcp/set_endpoint_gpus__2_saveEndpoint.graphql":               {"unknown field", "EndpointInput.compliance (and, in deploy_hub_repo, hubReleaseId) is missing"},
	"runpod-python/create_endpoint_all_options.graphql":                  {"String cannot represent a non string value: FLASHBOOT", "EndpointInput.flashBootType is an enum (FlashBootType), not a String"},
	"runpod-python/create_pod_cpu_all_options.graphql":                   {`Field "minDownload" is not defined by type "deployCpuPodInput"`, "deployCpuPodInput.minDownload and minUpload are missing"},
	"runpod-python/update_container_registry_auth.graphql":               {`Cannot query field "updateRegistryAuth" on type "Mutation"`, "the mutation updateRegistryAuth is missing"},
	"runpodctl/hub_get.graphql":                                          {`Cannot query field "tests" on type "HubRelease"`, "HubRelease.tests is missing"},
	"runpodctl/hub_get_repo.graphql":                                     {`Cannot query field "tests" on type "HubRelease"`, "HubRelease.tests is missing"},
	"runpodctl/serverless_create_hub__1_listing.graphql":                 {`Cannot query field "tests" on type "HubRelease"`, "HubRelease.tests is missing"},
	"runpodctl/hub_list.graphql":                                         {"unknown field", "ListingsInput.orderBy and orderDirection are missing"},
	"runpodctl/hub_search.graphql":                                       {"unknown field", "ListingsInput.orderBy, orderDirection, owner and searchQuery are missing"},
	"runpodctl/model_add_upload__2_createModelRepoUpload.graphql":        {"unknown field", "CreateModelRepoUploadInput.contentType, fileName, fileSizeBytes and partSizeBytes are missing"},
	"runpodctl/model_remove_hash__2_updateModelVersionStatus.graphql":    {"POD_REMOVED is not a valid ModelVersionStatus", "ModelVersionStatus lacks POD_REMOVED"},
	"runpodctl/model_remove_version__2_updateModelVersionStatus.graphql": {"POD_REMOVED is not a valid ModelVersionStatus", "ModelVersionStatus lacks POD_REMOVED"},
	"runpodctl/serverless_create_hub__3_saveEndpoint.graphql":            {"variable.input.hubReleaseId unknown field", "EndpointInput.hubReleaseId is missing"},
	"runpodctl/template_list__1_podTemplates.graphql":                    {"variable.input.isRunpod unknown field", "PodTemplateInput.isRunpod is missing"},
	"runpodctl/template_list__2_podTemplates.graphql":                    {"variable.input.isRunpod unknown field", "PodTemplateInput.isRunpod is missing"},
	"runpodctl/template_list_official.graphql":                           {"variable.input.isRunpod unknown field", "PodTemplateInput.isRunpod is missing"},
	"runpodctl/template_search__1_podTemplates.graphql":                  {"variable.input.isRunpod unknown field", "PodTemplateInput.isRunpod is missing"},
	"runpodctl/template_search__2_podTemplates.graphql":                  {"variable.input.isRunpod unknown field", "PodTemplateInput.isRunpod is missing"},
	"runpodctl/template_port_labels__2_saveTemplate.graphql":             {"variable.input.portsConfig unknown field", "SaveTemplateInput.portsConfig is missing"},
	"runpod-api-helper/pods_createCpu.graphql":                           {`Field "volumeKey" is not defined by type "deployCpuPodInput"`, "deployCpuPodInput.volumeKey is missing (the client copies a document the vendor accepted, from runpod-python's issue 314)"},
	// The one mistake of a client: Pod.env is a list of "KEY=value"
	// strings (the vendor's documented answers), and runpod-graphql's
	// start selects key and value in it; the vendor refuses it too.
	"runpod-api-helper/pods_start.graphql": {`Field "env" must not have a selection since type "String" has no subfields`, "the client selects subfields of Pod.env, a list of strings"},
}

// Every document a public client sends (testdata/clients/**, the clients
// driven against the door and those recorded for later) is valid against
// the vendor's schema, with its variables, or is a known gap
// (vendorSchemaGaps) failing as recorded there: a document that is
// neither is mis-recorded or names something the reconstructed schema
// lacks, and the door is measured against the vendor's schema, so neither
// may pass unnoticed.
func TestEveryClientDocumentIsValidAgainstTheVendorSchema(t *testing.T) {
	schema := loadVendorSchema(t)
	seen := map[string]bool{}
	root := filepath.Join("testdata", "clients")
	var docs int
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".graphql" {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		docs++
		gap, isGap := vendorSchemaGaps[rel]
		seen[rel] = true
		t.Run(rel, func(t *testing.T) {
			err := validAgainst(schema, p)
			switch {
			case isGap && err == nil:
				t.Errorf("listed in vendorSchemaGaps (%s) but now valid against the vendor's schema: remove it from the list", gap.why)
			case isGap && !strings.Contains(err.Error(), gap.err):
				t.Errorf("listed in vendorSchemaGaps with %q, but fails otherwise: %v", gap.err, err)
			case !isGap && err != nil:
				t.Errorf("not valid against the vendor's schema (%s): %v", clientOf(rel), err)
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if docs == 0 {
		t.Fatal("no documents under testdata/clients")
	}
	for rel := range vendorSchemaGaps {
		if !seen[rel] {
			t.Errorf("vendorSchemaGaps lists %s, which is not in testdata/clients", rel)
		}
	}
}

// validAgainst parses and validates a client document, and its variables
// (the .json beside it), against schema.
func validAgainst(schema *ast.Schema, file string) error {
	query, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	doc, gerrs := gqlparser.LoadQueryWithRules(schema, string(query), nil) // nil: gqlparser's default rules
	if len(gerrs) > 0 {
		return gerrs
	}
	if len(doc.Operations) != 1 {
		return fmt.Errorf("want one operation per document, got %d", len(doc.Operations))
	}
	vars := map[string]any{}
	if b, err := os.ReadFile(strings.TrimSuffix(file, ".graphql") + ".json"); err == nil {
		if err := json.Unmarshal(b, &vars); err != nil {
			return fmt.Errorf("variables: %w", err)
		}
	}
	if _, err := validator.VariableValues(schema, doc.Operations[0], vars); err != nil {
		return fmt.Errorf("variables: %w", err)
	}
	return nil
}

// clientOf names the program and release of a client document (its
// folder's entry in clientVersions or recordedClients).
func clientOf(rel string) string {
	folder, _, _ := strings.Cut(rel, "/")
	if v, ok := clientVersions[folder]; ok {
		return v
	}
	if v, ok := recordedClients[folder]; ok {
		return v
	}
	return folder + ", a folder in neither clientVersions nor recordedClients"
}
