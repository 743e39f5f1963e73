package graphql

import (
	"slices"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/v2sim"
)

// The account: runpod-python's get_user and update_user_settings,
// runpodctl's user, doctor and ssh commands, runpod-mcp's credential
// check.

// keys are the account's SSH keys as v2 holds them.
func (w *world) keys() []string {
	w.t.Helper()
	keys, res := translate.ReadSSHKeys(w.t.Context(), &translate.Request{}, w.caller)
	if res != nil {
		w.t.Fatalf("keys: %s", res.Body)
	}
	return keys
}

func TestRunpodPythonGetUser(t *testing.T) {
	w := newWorld(t)
	for _, doc := range []string{"runpod-python/get_user", "runpod-python/create_pod_all_options__2_get_user"} {
		a := w.clientOK(doc)
		me := path(a.Data, "myself")
		if path(me, "id") != "key-test" || path(me, "pubKey") != v2sim.SeedSSHKey {
			t.Errorf("%s: %s", doc, a.raw)
		}
		vols, _ := path(me, "networkVolumes").([]any)
		if len(vols) != 1 || path(vols[0], "name") != "training-dataset" || path(vols[0], "size") != 100.0 ||
			path(vols[0], "dataCenterId") != "US-KS-2" || str(path(vols[0], "id")) == "" {
			t.Errorf("%s: volumes %v", doc, vols)
		}
	}
	a := w.clientOK("runpodctl/project_get_network_volumes")
	if path(a.Data, "myself.networkVolumes.0.dataCenterId") != "US-KS-2" {
		t.Errorf("%s", a.raw)
	}
}

func TestRunpodPythonUpdateUserSettings(t *testing.T) {
	w := newWorld(t)
	const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICaptureCaptureCaptureCaptureCaptureCapt capture"
	a := w.clientOK("runpod-python/update_user_settings")
	if path(a.Data, "updateUserSettings.id") != "key-test" || path(a.Data, "updateUserSettings.pubKey") != key {
		t.Errorf("%s", a.raw)
	}
	if keys := w.keys(); len(keys) != 1 || keys[0] != key {
		t.Errorf("v2 keys %q", keys)
	}
	// runpod-python's "runpod ssh add-key" sends the block it read plus
	// "\n\n" and the new key, newlines escaped in the literal.
	a = w.ok(`mutation { updateUserSettings(input: {pubKey: "`+key+`\n\n`+v2sim.SeedSSHKey+`\n"}) { pubKey } }`, "")
	if path(a.Data, "updateUserSettings.pubKey") != key+"\n"+v2sim.SeedSSHKey {
		t.Errorf("%s", a.raw)
	}
}

func TestRunpodctlSSHKeysAndDoctor(t *testing.T) {
	w := newWorld(t)
	const (
		captured = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICaptureCaptureCaptureCaptureCaptureCapt capture"
		added    = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBrandNewKeyBrandNewKeyBrandNewKeyBrandN new@host"
	)
	// ssh add-key: read the keys, write them back with the new one after a
	// blank line.
	a := w.clientOK("runpodctl/ssh_add_key__1_myself")
	if path(a.Data, "myself.pubKey") != v2sim.SeedSSHKey || path(a.Data, "myself.id") != "key-test" {
		t.Errorf("%s", a.raw)
	}
	a = w.clientOK("runpodctl/ssh_add_key__2_updateUserSettings")
	if path(a.Data, "updateUserSettings.id") != "key-test" {
		t.Errorf("%s", a.raw)
	}
	if keys := w.keys(); !slices.Equal(keys, []string{captured, added}) {
		t.Errorf("v2 keys %q", keys)
	}
	for _, doc := range []string{"runpodctl/ssh_list_keys", "runpodctl/ssh_remove_key__1_myself", "runpodctl/doctor_user__2_myself", "runpodctl/doctor_user__3_myself"} {
		if a := w.clientOK(doc); path(a.Data, "myself.pubKey") != captured+"\n"+added {
			t.Errorf("%s: %s", doc, a.raw)
		}
	}
	// doctor adds runpodctl's own key; ssh remove-key of the last one
	// writes "".
	w.clientOK("runpodctl/doctor_user__4_updateUserSettings")
	if keys := w.keys(); len(keys) != 2 || !strings.HasPrefix(keys[1], "ssh-rsa ") {
		t.Errorf("v2 keys %q", keys)
	}
	w.clientOK("runpodctl/ssh_remove_key__2_updateUserSettings")
	if keys := w.keys(); len(keys) != 0 {
		t.Errorf("v2 keys %q", keys)
	}
	if a := w.clientOK("runpodctl/ssh_list_keys"); path(a.Data, "myself.pubKey") != "" {
		t.Errorf("%s", a.raw)
	}
}

func TestUpdateUserSettingsNamesABadLineAndSendsNothing(t *testing.T) {
	w := newWorld(t)
	const upd = `mutation($k: String) { updateUserSettings(input: {pubKey: $k}) { id pubKey } }`
	for _, tc := range []struct{ block, want string }{
		{v2sim.SeedSSHKey + "\n\nnot a key at all, but a long line", `line 3 ("not a key at all, but a "…) is not an SSH public key`},
		{"ssh-ed25519", `line 1 ("ssh-ed25519") is not an SSH public key`},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", "line 1 is part of a private key"},
	} {
		mark := w.mark()
		msgs := w.errorsOf(upd, `{"k": `+quote(tc.block)+`}`)
		if !strings.Contains(msgs[0], tc.want) {
			t.Errorf("%q: %q", tc.block, msgs)
		}
		if strings.Contains(msgs[0], "b3BlbnNzaC1rZXktdjEAAAAA") {
			t.Errorf("a private key is quoted: %q", msgs)
		}
		if calls := w.callsSince(mark); len(calls) != 0 {
			t.Errorf("%q: v2 was called: %v", tc.block, calls)
		}
	}
	if keys := w.keys(); !slices.Equal(keys, []string{v2sim.SeedSSHKey}) {
		t.Errorf("v2 keys %q", keys)
	}
	// No pubKey: nothing changes; the answer is the account.
	a := w.ok(`mutation { updateUserSettings(input: {}) { id pubKey } }`, "")
	if path(a.Data, "updateUserSettings.pubKey") != v2sim.SeedSSHKey {
		t.Errorf("%s", a.raw)
	}
}

func TestRunpodctlUserAndDoctor(t *testing.T) {
	w := newWorld(t)
	for _, doc := range []string{"runpodctl/user", "runpodctl/doctor_user__1_myself"} {
		a := w.clientOK(doc)
		me, _ := path(a.Data, "myself").(map[string]any)
		// The pods' part of the spend: the seeded RTX 4090 pod runs at
		// 0.69/h, the stopped CPU pod costs nothing.
		if me["id"] != "key-test" || me["currentSpendPerHr"] != 0.69 {
			t.Errorf("%s: %s", doc, a.raw)
		}
		for _, k := range []string{"email", "clientBalance", "spendLimit", "notifyPodsStale", "notifyPodsGeneral", "notifyLowBalance"} {
			if v, ok := me[k]; !ok || v != nil {
				t.Errorf("%s: %s = %v", doc, k, v)
			}
		}
		if !a.warned("User.clientBalance, User.email") {
			t.Errorf("%s: warnings %q", doc, a.resp.Warnings)
		}
	}
	if a := w.clientOK("runpod-mcp/http_credential_check"); path(a.Data, "myself.id") != "key-test" {
		t.Errorf("%s", a.raw)
	}
}

func TestUserAliasesAndFragments(t *testing.T) {
	w := newWorld(t)
	a := w.ok(`{ me: myself { ...u keys: pubKey } }
	fragment u on User { who: id vols: networkVolumes { ... on NetworkVolume { gb: size } } spend: currentSpendPerHr }`, "")
	if path(a.Data, "me.who") != "key-test" || path(a.Data, "me.keys") != v2sim.SeedSSHKey || path(a.Data, "me.vols.0.gb") != 100.0 || path(a.Data, "me.spend") != 0.69 {
		t.Errorf("%s", a.raw)
	}
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
