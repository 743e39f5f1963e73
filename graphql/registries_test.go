package graphql

import (
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
)

// Registry credentials: runpod-python's three documents.

func TestRunpodPythonRegistryCredentials(t *testing.T) {
	w := newWorld(t)
	const password = "driver-pass"
	mark := w.mark()
	a := w.clientOK("runpod-python/create_container_registry_auth")
	id := str(path(a.Data, "saveRegistryAuth.id"))
	if id == "" || path(a.Data, "saveRegistryAuth.name") != "v1gw-driver-cra" {
		t.Fatalf("%s", a.raw)
	}
	if b := w.bodyOf(mark, "POST", "/v2/registries"); b["username"] != "driver-user" || b["password"] != password {
		t.Errorf("v2 body: name %v, username %v", b["name"], b["username"])
	}
	res, _ := w.run("ListContainerRegistryAuths", nil)
	found := false
	for _, r := range res.Model.([]translate.V1Registry) {
		found = found || r.ID == id
	}
	if !found {
		t.Error("not created")
	}

	// updateRegistryAuth: v2 cannot change a credential.
	up := w.client("runpod-python/update_container_registry_auth", "cra-capture-1", id)
	if !strings.Contains(up.message(), "v2 cannot change a registry credential") || !up.refused() {
		t.Errorf("%s", up.raw)
	}

	a = w.clientOK("runpod-python/delete_container_registry_auth", "cra-capture-1", id)
	if v, ok := a.Data["deleteRegistryAuth"]; !ok || v != nil {
		t.Errorf("%s", a.raw)
	}
	if !a.warned("v2 also removes this credential from every template") {
		t.Errorf("H12 is not told: %q", a.resp.Warnings)
	}
	bad := w.client("runpod-python/delete_container_registry_auth", "cra-capture-1", id)
	if !strings.Contains(bad.message(), "not found") {
		t.Errorf("%s", bad.raw)
	}

	// A failed create names the fields, never the values.
	for _, a := range []*answer{
		w.do(`mutation { saveRegistryAuth(input: {name: "", username: "u", password: "`+password+`"}) { id } }`, ""),
		w.do(`mutation { saveRegistryAuth(input: {name: "x", username: "u"}) { id } }`, ""),
		up, a, bad,
	} {
		if strings.Contains(string(a.raw), password) || strings.Contains(strings.Join(a.resp.Warnings, " "), password) {
			t.Errorf("the password is in the answer: %s", a.raw)
		}
		for _, n := range a.resp.Notes {
			if strings.Contains(n.Message, password) {
				t.Errorf("the password is in a note: %v", n)
			}
		}
	}
}
