package translate

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/v1gateway/v1gateway/podjson"
)

// The fact store (P8, docs/design.md: "what v2 forgets, the gateway
// remembers"). v2 keeps no link from a pod or an endpoint to the template it
// was made from; v1 showed it (templateId), filtered on it, and rolled
// template edits out along it. Nor does v2 keep a template's readme, or
// remove a template's volume; v1 did both (TemplateFact). Plans record that link when the gateway sees
// it — a create, an update with templateId — after v2 confirmed, and read it
// back into answers and filters. The store is a cache of facts, never the
// truth of what exists: a fact is only ever applied to a resource v2 has just
// returned, and a resource the store does not know is answered as v2 shows
// it. A fact is removed when its resource is deleted through the gateway
// (v2 confirmed the delete, so the caller owned it), and otherwise expires.
// A 404 alone removes nothing: it may only mean that the caller's key
// cannot see the resource (another account's), and a caller must not be
// able to erase what another account's resources are known to be — except
// in a rollout of a template of the caller's own, whose endpoints can only
// be the caller's account's.
//
// translate stays pure: Facts is implemented outside (package facts, in
// memory or in Redis) and reaches plans through Request.Facts. A nil Facts
// is no store: every answer is then what v2 alone allows.

// Fact kinds.
const (
	FactPod      = "pod"
	FactEndpoint = "endpoint"
	FactTemplate = "template"
)

// Fact is what the gateway remembers about one pod, endpoint or template.
type Fact struct {
	// TemplateID is the v1 templateId the resource was created (or last
	// updated) from (a pod or an endpoint).
	TemplateID string
	// Created: the resource was created through the gateway from the
	// template. For an endpoint it also means that the template's settings
	// were sent spread into the create, so v2 never bound the endpoint to
	// the client's template (H4).
	Created bool
	// Template is what v1 had of a template and v2 has no field for
	// (FactTemplate only; nil otherwise).
	Template *TemplateFact
}

// TemplateFact is what the gateway remembers about a template.
type TemplateFact struct {
	// Readme is the readme last sent for the template through the gateway
	// ("" when it was created without one); nil when unknown.
	Readme *string
	// NoVolume: volumeInGb 0 was asked of the template while it had a
	// volume, which v2 cannot remove. The template is answered with
	// volumeInGb 0, and pods are made from its settings without the volume
	// (inlineTemplate), as v1 made them.
	NoVolume bool
}

// Facts is the fact store as plans see it. Reads cost at most one round
// trip (Lookup batches the ids of a whole list); writes are made after v2
// confirmed, and their failures are the implementation's to log and count:
// a plan never turns a v2 success into a failure because of the store.
type Facts interface {
	// Lookup returns the facts known about ids of kind (FactPod,
	// FactEndpoint); unknown ids are absent from the map. It keeps neither
	// ids nor their strings once it has returned (a streamed list reuses
	// their memory for the next window).
	Lookup(ctx context.Context, kind string, ids []string) (map[string]Fact, error)
	// Record stores the fact about id of kind (replacing an older one).
	Record(ctx context.Context, kind, id string, f Fact) error
	// Forget removes what is known about id of kind: it was deleted, or v2
	// no longer has it.
	Forget(ctx context.Context, kind, id string) error
	// TemplateEndpoints returns the endpoints whose recorded template is
	// templateID (for rolling a template edit out, H3).
	TemplateEndpoints(ctx context.Context, templateID string) ([]string, error)
}

// lookupFacts reads the facts about ids; nil when there is no store, nothing
// to ask, or the store failed (the answer is then what v2 alone gives).
func lookupFacts(ctx context.Context, req *Request, kind string, ids []string) map[string]Fact {
	if req.Facts == nil || len(ids) == 0 {
		return nil
	}
	m, err := req.Facts.Lookup(ctx, kind, ids)
	if err != nil {
		return nil
	}
	return m
}

// recordFact records a fact after v2 confirmed; a failure is the store's to
// report (P4: never a failure of the request).
func recordFact(ctx context.Context, req *Request, kind, id string, f Fact) {
	if req.Facts == nil || id == "" || f.TemplateID == "" {
		return
	}
	_ = req.Facts.Record(ctx, kind, id, f)
}

// maxReadmeBytes bounds the readme the fact store keeps per template (P12:
// what is kept is small); a longer one is not stored, with a warning.
const maxReadmeBytes = 16 << 10

// templateFact reads what the store knows about template id (nil: nothing,
// or no store).
func templateFact(ctx context.Context, req *Request, id string) *TemplateFact {
	if f, ok := lookupFacts(ctx, req, FactTemplate, []string{id})[id]; ok && f.Template != nil {
		return f.Template
	}
	return nil
}

// recordTemplateFact stores what is known about template id after v2
// confirmed (P4: a failure is the store's to report).
func recordTemplateFact(ctx context.Context, req *Request, id string, t TemplateFact) {
	if req.Facts == nil || id == "" {
		return
	}
	_ = req.Facts.Record(ctx, FactTemplate, id, Fact{Template: &t})
}

// forgetFact removes a fact about a resource deleted through the gateway
// (or, in a rollout of a private template, gone from v2).
func forgetFact(ctx context.Context, req *Request, kind, id string) {
	if req.Facts == nil || id == "" {
		return
	}
	_ = req.Facts.Forget(ctx, kind, id)
}

// ---------------------------------------------------------------------------
// Pods: v2's template when v2 gives one, the store otherwise.

// fillPodTemplates sets Template on the pods v2 gave none, from the store
// (one lookup for all of them).
func fillPodTemplates(ctx context.Context, req *Request, pods []*podjson.V2Pod) {
	if req.Facts == nil {
		return
	}
	var ids []string
	for _, p := range pods {
		if p.Template == "" && p.ID != "" {
			ids = append(ids, p.ID)
		}
	}
	known := lookupFacts(ctx, req, FactPod, ids)
	if len(known) == 0 {
		return
	}
	for _, p := range pods {
		if p.Template == "" {
			if f, ok := known[p.ID]; ok {
				p.Template = f.TemplateID
			}
		}
	}
}

// podFacts fills the template of one pod v2 answered (get, update, action).
func podFacts(ctx context.Context, req *Request, p *podjson.V2Pod) *podjson.V2Pod {
	if p != nil {
		fillPodTemplates(ctx, req, []*podjson.V2Pod{p})
	}
	return p
}

// podListEnd marks, in a streamed pod list, where the object of a pod that
// v2 gave no template ends (the offset of its closing brace, right after
// its "templateId":null).
type podListEnd struct {
	id  string
	end int
	// idEnd is where the id ends in the id bytes of a streamed list's
	// window, until nameWindowIDs names it (writePodStream).
	idEnd int
}

// insertPodTemplates fills "templateId" (null until then) in the pods of
// a streamed v1 list (b, built in a podjson.GetAnswerBuf buffer) that v2
// gave no template and the store knows. It is a post-pass after the streaming encoder, so that the
// encoder stays as it is.
// keys, when not nil, is a buffer for the ids the store is asked about,
// reused from one call to the next. spare, when not nil, is the buffer to
// build the answer in, which then receives b (they swap); otherwise the
// answer is built in a podjson.GetAnswerBuf buffer and b goes back to the pool.
func insertPodTemplates(ctx context.Context, req *Request, b []byte, ends []podListEnd, keys *[]string, spare *[]byte) []byte {
	if req.Facts == nil || len(ends) == 0 {
		return b
	}
	var ids []string
	if keys != nil {
		ids = (*keys)[:0]
	}
	for _, e := range ends {
		ids = append(ids, e.id)
	}
	if keys != nil {
		*keys = ids
	}
	known := lookupFacts(ctx, req, FactPod, ids)
	if len(known) == 0 {
		return b
	}
	var out []byte
	if spare != nil {
		out = (*spare)[:0]
		if n := len(b) + 48*len(known); cap(out) < n {
			out = make([]byte, 0, n)
		}
	} else {
		out = podjson.GetAnswerBuf(len(b) + 48*len(known))
	}
	prev := 0
	for _, e := range ends {
		f, ok := known[e.id]
		if !ok {
			continue
		}
		// The pod ends with "templateId":null (podjson.AppendV1PodOf
		// writes it last): the null is replaced.
		out = append(out, b[prev:e.end-len("null")]...)
		out = podjson.AppendString(out, f.TemplateID)
		prev = e.end
	}
	out = append(out, b[prev:]...)
	if spare != nil {
		*spare = b[:0]
	} else {
		podjson.PutAnswerBuf(b)
	}
	return out
}

// ---------------------------------------------------------------------------
// Endpoints: v2 answers without any template id, the store fills it.

// fillEndpointTemplates sets templateId (and template.id with
// includeTemplate) on the v1 endpoints the store knows (one lookup for all
// of them).
func fillEndpointTemplates(ctx context.Context, req *Request, out []v1Endpoint) {
	if req.Facts == nil {
		return
	}
	var ids []string
	for i := range out {
		if out[i].TemplateID == "" && out[i].ID != "" {
			ids = append(ids, out[i].ID)
		}
	}
	known := lookupFacts(ctx, req, FactEndpoint, ids)
	for i := range out {
		f, ok := known[out[i].ID]
		if !ok || out[i].TemplateID != "" {
			continue
		}
		out[i].TemplateID = podjson.NullableString(f.TemplateID)
		if out[i].Template != nil {
			out[i].Template.ID = f.TemplateID
		}
	}
}

// ---------------------------------------------------------------------------
// Templates: an edit rolls out to the endpoints made from it (H3).

// rollOutTemplate applies template id to every endpoint the store records
// as made from it, with one PATCH /v2/serverless/{id} {"templateId": id}
// each (v2 makes a new release, as v1's rolling release did). The answer
// names the endpoints updated in a note; a failed one is named in a
// warning, never hidden. An endpoint v2 answers 404 for is skipped; it is
// forgotten when the template is private (only its owner's account can
// have made endpoints from it, so the endpoint is gone), kept otherwise (a
// public template's endpoints may be other accounts'). It returns whether
// the store knew any endpoint.
func rollOutTemplate(ctx context.Context, req *Request, c Caller, id string, public bool, notes *Result) bool {
	if req.Facts == nil {
		return false
	}
	eps, err := req.Facts.TemplateEndpoints(ctx, id)
	if err != nil {
		notes.warn(CodeTemplateRolloutFailed, "template edits could not be rolled out: the gateway's fact store could not be read; update each endpoint made from this template with PATCH /v1/endpoints/{endpointId} {\"templateId\": \""+id+"\"}")
		return true
	}
	if len(eps) == 0 {
		return false
	}
	var done, failed []string
	for _, ep := range eps {
		if !ValidID(ep) {
			continue
		}
		a, err := podCall(ctx, c, http.MethodPatch, V2Path("/v2/serverless/%s", ep), nil, v2UpdateEndpointBody{TemplateID: id})
		switch {
		case err != nil:
			failed = append(failed, ep+" ("+message1(FromCallError(err))+")")
		case a.Status == http.StatusNotFound:
			if !public {
				forgetFact(ctx, req, FactEndpoint, ep) // deleted outside the gateway
			}
		case !a.OK():
			failed = append(failed, ep+" ("+ProblemMessage(a.Body, a.Status)+")")
		default:
			done = append(done, ep)
		}
	}
	if len(done) > 0 {
		notes.warn(CodeTemplateRolledOut, "the template edit was rolled out to endpoint(s) "+strings.Join(done, ", ")+" (a new release each), as v1 did")
	}
	if len(failed) > 0 {
		notes.warn(CodeTemplateRolloutFailed, "the template edit could not be rolled out to endpoint(s) "+strings.Join(failed, "; ")+
			": retry with PATCH /v1/endpoints/{endpointId} {\"templateId\": "+strconv.Quote(id)+"}")
	}
	return true
}
