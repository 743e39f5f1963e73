package translate

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/v1gateway/v1gateway/podjson"
)

// This file reads dockerArgs, the container command line outside the v1
// document that real clients send, in its shell and its JSON form.

// dockerArgs reads dockerArgs, a string outside the v1 document that
// runpodctl sends for --docker-args (v1's backend took it as the container
// command line): it becomes v2 args, verbatim. Its JSON form, which the
// vendor accepted and orchestrators send ({"cmd": [...], "entrypoint":
// [...]}), is parsed, never split as a shell line: cmd becomes args as
// dockerStartCmd does, and a non-empty entrypoint is returned (v2 has no
// entrypoint: the caller refuses it as dockerEntrypoint). With a non-empty
// dockerStartCmd already in *args, the two must say the same thing. It
// reports whether dockerArgs was sent.
func (b *bodyFields) dockerArgs(args **string) (sent bool, entrypoint []string) {
	s, ok := b.str("dockerArgs")
	if !ok {
		return false, nil
	}
	if form, isJSON, msg := jsonDockerArgs(s); msg != "" {
		b.fail("dockerArgs", "%s", msg)
		return false, nil
	} else if isJSON {
		s, entrypoint = podjson.JoinArgs(form.Cmd), form.Entrypoint
	}
	if *args != nil && **args != "" && **args != s {
		b.fail("dockerArgs", "both dockerArgs and dockerStartCmd set the container's start command and they differ (%q vs %q); send one of them", s, **args)
		return false, nil
	}
	*args = &s
	return true, entrypoint
}

// dockerArgsJSON is the JSON form of dockerArgs.
type dockerArgsJSON struct {
	Cmd        []string `json:"cmd"`
	Entrypoint []string `json:"entrypoint"`
}

// jsonDockerArgs reads s as dockerArgs' JSON form: a JSON object (a shell
// line such as "{ a; }" is not one) of cmd and entrypoint, each an array of
// strings or null. isJSON is false for a shell line; msg says what is wrong
// with an object that is not that form.
func jsonDockerArgs(s string) (form dockerArgsJSON, isJSON bool, msg string) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") || !json.Valid([]byte(t)) {
		return form, false, ""
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &obj) != nil {
		return form, false, ""
	}
	for _, k := range sortedKeys(setOfKeys(obj)) {
		var list []string
		if k != "cmd" && k != "entrypoint" {
			return form, true, fmt.Sprintf("the JSON form of dockerArgs has cmd and entrypoint, not %q", k)
		}
		if json.Unmarshal(obj[k], &list) != nil {
			return form, true, fmt.Sprintf("%s in the JSON form of dockerArgs must be an array of strings, got %s", k, jsonKind(obj[k]))
		}
		if k == "cmd" {
			form.Cmd = list
		} else {
			form.Entrypoint = list
		}
	}
	return form, true, ""
}

func setOfKeys(m map[string]json.RawMessage) map[string]struct{} {
	out := make(map[string]struct{}, len(m))
	for k := range m {
		out[k] = struct{}{}
	}
	return out
}

// DockerArgs reads dockerArgs for a request that sends it outside a v1
// pod body (the GraphQL door's createCluster): the one parser the pod
// routes use. A shell line is v2's args verbatim; the JSON form ({"cmd":
// [...], "entrypoint": [...]}) is parsed, cmd becoming args as
// dockerStartCmd does; a non-empty entrypoint is dockerEntrypoint, decided
// by P1 as on a pod create (a 400 naming field_policy, or dropped with its
// note in notes). A malformed JSON form is a 400 naming dockerArgs.
func DockerArgs(req *Request, s string, notes *Result) (string, *Result) {
	form, isJSON, msg := jsonDockerArgs(s)
	switch {
	case msg != "":
		return "", Fail(400, "dockerArgs: "+msg)
	case !isJSON:
		return s, nil
	}
	if len(form.Entrypoint) > 0 {
		if r := decideUntranslatable(req, []untranslatable{dockerArgsEntrypoint(form.Entrypoint)}, untranslatablePod, notes); r != nil {
			return "", r
		}
	}
	return podjson.JoinArgs(form.Cmd), nil
}

// dockerArgsEntrypoint is why an entrypoint in dockerArgs' JSON form is
// refused (as dockerEntrypoint: the same field_policy).
func dockerArgsEntrypoint(ep []string) untranslatable {
	return untranslatable{field: "dockerEntrypoint", why: fmt.Sprintf("the entrypoint %q of dockerArgs' JSON form: v2 has no entrypoint override; the image's own ENTRYPOINT would run instead", ep)}
}
