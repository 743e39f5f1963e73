package graphql

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v1gateway/v1gateway/translate"
)

// The account: Query.myself and its fields, and updateUserSettings. v2 has
// no account profile (id, email, balance, notification settings): those
// read null with a warning, but for id, which is the gateway's key id. The
// account's resources are read by their v1 operations (ListPods,
// ListEndpoints, ListNetworkVolumes, ListTemplates); its SSH keys, which v1
// had no operation for, from v2's account keys (translate/catalog.go).

// queryMyself is Query.myself: an object whose fields each read what they
// need when selected.
func queryMyself(ec *execCtx, f *ast.Field) (any, error) {
	return &userObject{}, nil
}

// userObject is the account. keys, when set, are its SSH keys as an
// updateUserSettings just wrote them (pubKey then reads no more).
type userObject struct {
	keys *[]string
}

func (u *userObject) typeName() string { return "User" }
func (u *userObject) field(ec *execCtx, f *ast.Field) (any, error) {
	return resolveIn(userFields, "User", u, ec, f)
}

var userFields = fieldTable[*userObject]{
	"id": func(u *userObject, ec *execCtx, _ *ast.Field) (any, error) {
		if ec.env.KeyID == "" {
			return nil, nil
		}
		// Clients check a key with myself { id } alone (dstack,
		// runpod-go-sdk, the vendor's quick start), which the vendor
		// answered only for a valid key: v2 is asked for the account.
		if err := u.readKeys(ec); err != nil {
			return nil, err
		}
		return ec.env.KeyID, nil
	},
	"pods":                   func(_ *userObject, ec *execCtx, f *ast.Field) (any, error) { return userPods(ec, f) },
	"endpoints":              func(_ *userObject, ec *execCtx, f *ast.Field) (any, error) { return userEndpoints(ec, f) },
	"endpoint":               func(_ *userObject, ec *execCtx, f *ast.Field) (any, error) { return userEndpoint(ec, f) },
	"podTemplates":           func(_ *userObject, ec *execCtx, f *ast.Field) (any, error) { return ec.templateList(templatesOwn) },
	"networkVolumes":         func(_ *userObject, ec *execCtx, _ *ast.Field) (any, error) { return ec.networkVolumeObjects() },
	"pubKey":                 func(u *userObject, ec *execCtx, _ *ast.Field) (any, error) { return u.pubKey(ec) },
	"currentSpendPerHr":      func(_ *userObject, ec *execCtx, _ *ast.Field) (any, error) { return ec.currentSpend() },
	"containerRegistryCreds": func(_ *userObject, ec *execCtx, _ *ast.Field) (any, error) { return ec.registryObjects() },
	"clusters":               func(_ *userObject, ec *execCtx, _ *ast.Field) (any, error) { return userClusters(ec) },
	"flashApps":              func(_ *userObject, ec *execCtx, _ *ast.Field) (any, error) { return userFlashApps(ec) },
	"email":                  unansweredField[*userObject]("User", "email"),
	"clientBalance":          unansweredField[*userObject]("User", "clientBalance"),
	"spendLimit":             unansweredField[*userObject]("User", "spendLimit"),
	"notifyPodsStale":        unansweredField[*userObject]("User", "notifyPodsStale"),
	"notifyPodsGeneral":      unansweredField[*userObject]("User", "notifyPodsGeneral"),
	"notifyLowBalance":       unansweredField[*userObject]("User", "notifyLowBalance"),
}

// userFlashApps is User.flashApps: none. v2 has no flash apps (the root
// fields that read, make or delete one are refused), so an account seen
// through v2 has none to list; the list is empty rather than null because
// the clients that read it (runpod-flash's `flash app list`) iterate it,
// and a warning says why it is empty.
func userFlashApps(ec *execCtx) (any, error) {
	ec.warn(translate.CodeGraphQLFieldsUnanswered, "User.flashApps was answered []: v2 has no flash apps")
	return []object{}, nil
}

// userEndpoint is User.endpoint(id): v1 GetEndpoint, null for an id v2
// does not have (runpod-flash's endpoint_exists reads it after each save
// and delete).
func userEndpoint(ec *execCtx, f *ast.Field) (any, error) {
	id, _ := ec.args(f)["id"].(string)
	if !translate.ValidID(id) {
		return nil, nil
	}
	e, err := ec.readEndpoint(id)
	if pe, ok := err.(*planError); ok && pe.status == http.StatusNotFound {
		return nil, nil
	}
	if err != nil || e == nil {
		return nil, err
	}
	return e, nil
}

// currentSpendPerHr is the pods' part of the account's spend: the sum of
// the cost per hour of its pods (v1 ListPods; a pod that is not running
// costs 0, H-cost). Serverless workers and storage are not in it: v2
// tells their cost only in the billing history.
func (ec *execCtx) currentSpend() (any, error) {
	res, err := ec.run("ListPods", nil, nil, nil)
	if err != nil {
		return nil, err
	}
	models, _ := res.Model.([]translate.PodModel)
	sum := 0.0
	for _, m := range models {
		sum += m.V1.CostPerHr
	}
	return sum, nil
}

// ---------------------------------------------------------------------------
// Network volumes

// networkVolumeList is v1 ListNetworkVolumes, read once per operation (an
// answer with many endpoints looks their volumes up in it).
func (ec *execCtx) networkVolumeList() ([]translate.V1NetworkVolume, error) {
	return memo(ec, "res:networkVolumes", func() ([]translate.V1NetworkVolume, error) {
		res, err := ec.run("ListNetworkVolumes", nil, nil, nil)
		if err != nil {
			return nil, err
		}
		list, _ := res.Model.([]translate.V1NetworkVolume)
		return list, nil
	})
}

// networkVolumeObjects is User.networkVolumes.
func (ec *execCtx) networkVolumeObjects() (any, error) {
	list, err := ec.networkVolumeList()
	if err != nil {
		return nil, err
	}
	out := make([]object, len(list))
	for i := range list {
		out[i] = &volumeObject{id: list[i].ID, v: &list[i]}
	}
	return out, nil
}

// networkVolume is the account's network volume id (nil when v2 does not
// list it).
func (ec *execCtx) networkVolume(id string) (*translate.V1NetworkVolume, error) {
	list, err := ec.networkVolumeList()
	if err != nil {
		return nil, err
	}
	for i := range list {
		if list[i].ID == id {
			return &list[i], nil
		}
	}
	return nil, nil
}

// volumeObject is a NetworkVolume: one of the account's list, or an
// endpoint's by id (then read from the list when a field needs more).
type volumeObject struct {
	id string
	v  *translate.V1NetworkVolume
}

func (o *volumeObject) typeName() string { return "NetworkVolume" }
func (o *volumeObject) field(ec *execCtx, f *ast.Field) (any, error) {
	if f.Name == "id" {
		return o.id, nil
	}
	if o.v == nil {
		v, err := ec.networkVolume(o.id)
		if err != nil || v == nil {
			return nil, err // an endpoint's volume the account does not list
		}
		o.v = v
	}
	switch f.Name {
	case "name":
		return o.v.Name, nil
	case "size":
		return o.v.Size, nil
	case "dataCenterId":
		return nonEmpty(o.v.DataCenterID), nil
	case "dataCenter":
		return ec.volumeDataCenter(o.v.DataCenterID)
	}
	return resolveIn(fieldTable[*volumeObject]{}, "NetworkVolume", o, ec, f)
}

// ---------------------------------------------------------------------------
// SSH keys

// pubKey is User.pubKey: the account's SSH public keys (v2 GET
// /v2/account/ssh-keys), one per line.
func (u *userObject) pubKey(ec *execCtx) (any, error) {
	if err := u.readKeys(ec); err != nil {
		return nil, err
	}
	return strings.Join(*u.keys, "\n"), nil
}

// readKeys reads the account's SSH keys once (GET /v2/account/ssh-keys):
// for pubKey, and as the account's check of the key for id.
func (u *userObject) readKeys(ec *execCtx) error {
	if u.keys != nil {
		return nil
	}
	keys, res := translate.ReadSSHKeys(ec.ctx, ec.readRequest(), ec.env.Caller)
	if res != nil {
		return ec.readFailed("the account", res)
	}
	u.keys = &keys
	return nil
}

// sshKeyLine is v2 UpdateSshKeysRequest's pattern of one key: an
// authorized_keys line, <type> <base64-key> [comment].
var sshKeyLine = regexp.MustCompile(`^(ssh|ecdsa|sk)-\S+ \S+([ \t][^\n\r]*)?$`)

// updateUserSettings is updateUserSettings(input: {pubKey}): the
// account's SSH keys replaced by the lines of pubKey (v2 PUT
// /v2/account/ssh-keys: the whole set), blank lines dropped — runpodctl
// joins the keys it keeps with blank lines — and a key given twice kept
// once. Every line must be a public key as v2 requires; a line that is
// not is named and nothing is sent. "" removes every key. Answers the
// User with the keys v2 kept.
func updateUserSettings(ec *execCtx, f *ast.Field) (any, error) {
	in := ec.rootInput(f)
	block, ok := in.str("pubKey")
	if !ok {
		return &userObject{}, nil // nothing to change
	}
	keys, err := sshKeysOf(block)
	if err != nil {
		return nil, err
	}
	kept, res := translate.WriteSSHKeys(ec.ctx, ec.readRequest(), ec.env.Caller, keys)
	if res != nil {
		return nil, ec.readFailed("updateUserSettings: the account's SSH keys could not be replaced", res)
	}
	return &userObject{keys: &kept}, nil
}

// sshKeysOf splits a pubKey block into keys, checking each.
func sshKeysOf(block string) ([]string, error) {
	keys := []string{}
	for i, line := range strings.Split(block, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case strings.Contains(line, "PRIVATE KEY"):
			return nil, badInput("updateUserSettings: pubKey: line %d is part of a private key, which must never leave your machine; send the public key (the .pub file) instead", i+1)
		case !sshKeyLine.MatchString(line):
			return nil, badInput("updateUserSettings: pubKey: line %d (%s) is not an SSH public key: each line must read <type> <base64-key> [comment], as in an authorized_keys file or a .pub file", i+1, keyStart(line))
		}
		if !slices.Contains(keys, line) {
			keys = append(keys, line)
		}
	}
	return keys, nil
}

// keyStart is the start of a line, enough to find it, quoted.
func keyStart(line string) string {
	const n = 24
	if r := []rune(line); len(r) > n {
		return fmt.Sprintf("%q…", string(r[:n]))
	}
	return fmt.Sprintf("%q", line)
}
