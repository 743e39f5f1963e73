package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"time"

	"github.com/v1gateway/v1gateway/podjson"
)

// The ten v1 pod operations (docs/design.md §8, #3–#12). This file holds
// what their plans share, and GET, PATCH (and POST .../update) and DELETE
// of one pod; the create is in podcreate.go (its candidates chosen in
// podchoose.go), start, stop, restart and reset in podactions.go, and the
// list, with its include* expansions and serverless workers, in
// podlist.go (streamed: podliststream.go). Request bodies are read in
// podbody.go; answers are decoded and mapped by package podjson (R-Pod:
// podjson/rpod.go), with the 502s of unreadable answers in podmodel.go.

// Sleep waits for d or until ctx is done. Plans wait through it (429
// back-off) so that tests can replace it; it is not changed at run time.
var Sleep = func(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func podNow(req *Request) time.Time {
	if req.Options.Now != nil {
		return req.Options.Now()
	}
	return time.Now()
}

// podID returns the v1 podId path parameter, or the 404 for an id that
// cannot be forwarded (P9).
func podID(req *Request) (string, *Result) {
	id := req.Params["podId"]
	if !ValidID(id) {
		return "", Fail(http.StatusNotFound, fmt.Sprintf("invalid podId %q", id))
	}
	return id, nil
}

// podCall makes one v2 call with a JSON body built from v (nil: none).
func podCall(ctx context.Context, c Caller, method, path string, query url.Values, v any) (*V2Answer, error) {
	call := V2Call{Method: method, Path: path, Query: query}
	if v != nil {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		call.Body = b
	}
	return c.Call(ctx, call)
}

// withNotes copies warnings and dropped fields gathered before r was built.
func withNotes(r *Result, notes *Result) *Result {
	if notes == nil {
		return r
	}
	r.Warnings = append(notes.Warnings[:len(notes.Warnings):len(notes.Warnings)], r.Warnings...)
	if len(notes.Notes) > 0 {
		r.Notes = append(notes.Notes[:len(notes.Notes):len(notes.Notes)], r.Notes...)
	}
	if len(notes.Dropped) > 0 {
		r.Dropped = append(notes.Dropped[:len(notes.Dropped):len(notes.Dropped)], r.Dropped...)
	}
	if r.Emulated == "" {
		r.Emulated = notes.Emulated
	}
	return r
}

// podAnswerOf is the v1 answer with the R-Pod of p.
func podAnswerOf(status int, p *podjson.V2Pod) *Result {
	out := podjson.V1PodFrom(p)
	return podAnswer(status, p, &out)
}

func ptrTo[T any](v T) *T { return &v }

// getV2Pod reads pod id from v2 (getV2, with the pod decoder).
func getV2Pod(ctx context.Context, req *Request, c Caller, id string) (*podjson.V2Pod, *Result) {
	a, r := callV2(ctx, req, c, http.MethodGet, V2Path("/v2/pods/%s", id), nil)
	if r != nil {
		return nil, r
	}
	return decodePodAnswer(a)
}

// ---------------------------------------------------------------------------
// #5 GET /pods/{podId}

func getPodPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := podID(req)
	if r != nil {
		return r
	}
	var qv podQuery
	q := &qv
	if msg := parsePodQueryInto(req.Query, false, q); msg != "" {
		return Fail(http.StatusBadRequest, msg)
	}
	p, r := getV2Pod(ctx, req, c, id)
	if r != nil {
		// A 404 forgets nothing: it may only mean that this key cannot see
		// the pod (another account's); see facts.go.
		return r
	}
	podFacts(ctx, req, p)
	pods := []podjson.V2Pod{*p}
	out := make([]podjson.V1Pod, 1)
	podjson.FillV1Pod(&out[0], p)
	if r := expandPods(ctx, req, c, q, pods, out); r != nil {
		return r
	}
	return podAnswer(http.StatusOK, p, &out[0])
}

// ---------------------------------------------------------------------------
// #6 / #8 PATCH /pods/{podId}, POST /pods/{podId}/update

func updatePodPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := podID(req)
	if r != nil {
		return r
	}
	u, r := parsePodUpdate(req.Body)
	if u == nil {
		return r
	}
	notes := &Result{}
	if r := decideUntranslatable(req, u.untrans, untranslatablePod, notes); r != nil {
		return r
	}
	warnOutside(notes, "PodUpdateInput", u.unknownKeys)
	var cur *podjson.V2Pod
	keepKey := u.body.Env != nil && !hasKey(*u.body.Env, publicKeyEnv)
	if u.needsPod() || u.fields == 0 || keepKey {
		if cur, r = getV2Pod(ctx, req, c, id); r != nil {
			return withNotes(r, notes)
		}
		if msg := u.applyMounts(cur); msg != "" {
			return withNotes(refuseV2(msg), notes)
		}
	}
	if keepKey {
		keepPublicKey(u, cur, notes)
	}
	if u.fields == 0 {
		// Nothing v2 can change: the pod as it is, without a PATCH.
		return withNotes(podAnswerOf(http.StatusOK, podFacts(ctx, req, cur)), notes)
	}
	a, err := podCall(ctx, c, http.MethodPatch, V2Path("/v2/pods/%s", id), nil, u.body)
	if err != nil {
		return withNotes(FromCallError(err), notes)
	}
	if !a.OK() {
		return withNotes(FromV2Error(req.Op, a), notes)
	}
	p, r := decodePodAnswer(a)
	if r != nil {
		return withNotes(r, notes)
	}
	return withNotes(podAnswerOf(http.StatusOK, podFacts(ctx, req, p)), notes)
}

// publicKeyEnv is the env variable that carries a pod's SSH public keys:
// v2 injects it at create (startSsh), and the pod's images start sshd
// from it.
const publicKeyEnv = "PUBLIC_KEY"

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// keepPublicKey keeps the pod's current PUBLIC_KEY in an env update that
// does not set one. A v1 env update replaces the whole env, but v1 never
// kept the SSH key in the pod's env (v1 installed the account's keys
// itself); v2 injected it there at create, so replacing the env would
// silently take the pod's SSH access away at its next start. An explicit
// "PUBLIC_KEY": "" is the client's own choice and is sent as is (the key
// is removed).
func keepPublicKey(u *podUpdate, cur *podjson.V2Pod, notes *Result) {
	if cur == nil || len(cur.Env) == 0 {
		return
	}
	var env map[string]string
	if json.Unmarshal(cur.Env, &env) != nil || env[publicKeyEnv] == "" {
		return
	}
	next := make(map[string]string, len(*u.body.Env)+1)
	maps.Copy(next, *u.body.Env)
	next[publicKeyEnv] = env[publicKeyEnv]
	u.body.Env = &next
	notes.warn(CodePublicKeyKept, "env: the pod's PUBLIC_KEY (its SSH access) was kept, since the new env does not set it; send \"PUBLIC_KEY\": \"\" to remove it")
}

// ---------------------------------------------------------------------------
// #7 DELETE /pods/{podId}

func deletePodPlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := podID(req)
	if r != nil {
		return r
	}
	a, err := podCall(ctx, c, http.MethodDelete, V2Path("/v2/pods/%s", id), nil, nil)
	if err != nil {
		return FromCallError(err)
	}
	if !a.OK() {
		return FromV2Error(req.Op, a)
	}
	forgetFact(ctx, req, FactPod, id)
	return &Result{Status: http.StatusNoContent}
}
