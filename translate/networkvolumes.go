package translate

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// The six v1 network volume operations (docs/design.md §8, #25–#30) →
// /v2/network-volumes. R-NetworkVolume: id, name, size, dataCenterId ←
// dataCenter; the v2 storage tier (type) has no v1 field and is dropped from
// answers. On create, volumeType (outside the v1 document, sent by
// runpod-mcp) chooses the tier.

// Size bounds. v1 documented 0..4000 GB, v2 accepts 10..4096 GB: the
// gateway checks v2's bounds before any call, so that a v1 client gets a 400
// naming size instead of a v2 422. 1–9 GB is never rounded up (the volume is
// billed by size); 4001–4096 GB, which v1 refused, is passed on (the client
// asked for exactly that amount and v2 can provide it).
const (
	v2VolumeMinSize = 10
	v2VolumeMaxSize = 4096
)

// Field sets of the v1 bodies; a key outside them is ignored with a warning.
var (
	volumeCreateFields = setOf("name", "size", "dataCenterId",
		// Outside the v1 document, translated to v2 type (OutsideFields).
		"volumeType", "storageTier")
	v2VolumeTypes      = setOf("STANDARD", "HIGH_PERFORMANCE")
	volumeUpdateFields = setOf("name", "size")
)

// v1NetworkVolume is the v1 NetworkVolume (R-NetworkVolume).
type v1NetworkVolume struct {
	ID           string `json:"id" doc:"Passed through unchanged from v2."`
	Name         string `json:"name"`
	Size         int    `json:"size" doc:"GB."`
	DataCenterID string `json:"dataCenterId" doc:"v2 dataCenter."`
	VolumeType   string `json:"volumeType,omitempty" doc:"v2 type: STANDARD or HIGH_PERFORMANCE (not in v1's NetworkVolume schema; the tier clients such as runpod-mcp send as volumeType on create)."`
}

func v1VolumeFrom(v *v2NetworkVolume) v1NetworkVolume {
	return v1NetworkVolume{ID: v.ID, Name: v.Name, Size: v.Size, DataCenterID: v.DataCenter, VolumeType: v.Type}
}

// v2CreateVolumeBody is v2 CreateNetworkVolumeRequest (additionalProperties:
// false). type is sent only for a client's volumeType: v1 had no tier, and
// v2 otherwise uses the data center's default tier.
type v2CreateVolumeBody struct {
	Name       string `json:"name"`
	Size       int    `json:"size"`
	DataCenter string `json:"dataCenter"`
	Type       string `json:"type,omitempty"`
}

// v2UpdateVolumeBody is v2 UpdateNetworkVolumeRequest (additionalProperties:
// false, minProperties: 1).
type v2UpdateVolumeBody struct {
	Name *string `json:"name,omitempty"`
	Size *int    `json:"size,omitempty"`
}

// resourceID returns the v1 path parameter param, or the 404 for an id the
// gateway does not forward (P9): one that ValidID refuses, or one of the
// reserved words, which name another v2 route under the same collection
// (compared case-insensitively).
func resourceID(req *Request, param string, reserved ...string) (string, *Result) {
	id := req.Params[param]
	if !ValidID(id) {
		return "", Fail(http.StatusNotFound, fmt.Sprintf("invalid %s %q", param, id))
	}
	for _, r := range reserved {
		if strings.EqualFold(id, r) {
			return "", Fail(http.StatusNotFound, fmt.Sprintf("%s %q not found (the id %q is reserved by the v2 API and never forwarded)", param, id, id))
		}
	}
	return id, nil
}

// checkVolumeSize adds the problem of a v1 size to b, if any.
func checkVolumeSize(b *bodyFields, size int) {
	switch {
	case size < 0:
		b.fail("size", "must not be negative, got %d", size)
	case size < v2VolumeMinSize:
		b.v2Limit("size", "v2 network volumes are at least %d GB; %d GB would have to be rounded up, which the gateway does not do (the volume is billed by size)", v2VolumeMinSize, size)
	case size > v2VolumeMaxSize:
		b.fail("size", "v2 network volumes are at most %d GB, got %d", v2VolumeMaxSize, size)
	}
}

// require records a missing required field (absent or null).
func (b *bodyFields) require(fields ...string) {
	for _, f := range fields {
		if _, ok := b.raw(f); !ok && !hasFieldError(b.errs, f) {
			b.fail(f, "is required")
		}
	}
}

// volumeCreate is a validated v1 NetworkVolumeCreateInput.
type volumeCreate struct {
	body        v2CreateVolumeBody
	unknownKeys []string
}

// parseVolumeCreate validates a v1 NetworkVolumeCreateInput (required: name,
// size, dataCenterId).
func parseVolumeCreate(body []byte) (*volumeCreate, *Result) {
	b, msg := parseBodyObject(body, "NetworkVolumeCreateInput")
	if b == nil {
		return nil, Fail(http.StatusBadRequest, msg)
	}
	in := &volumeCreate{unknownKeys: b.unknown(volumeCreateFields)}
	in.body.Name, _ = b.str("name")
	if s, ok := b.integer("size"); ok {
		checkVolumeSize(b, s)
		in.body.Size = s
	}
	in.body.DataCenter, _ = b.str("dataCenterId")
	if t, ok := b.enum("volumeType", v2VolumeTypes); ok {
		in.body.Type = t
	}
	if t, ok := b.str("storageTier"); ok {
		// The official Terraform provider's tier, documented there as
		// STANDARD or HIGH_PERFORMANCE (its tests show it lower-cased).
		switch up := strings.ToUpper(strings.TrimSpace(t)); {
		case !inSet(v2VolumeTypes, up):
			b.fail("storageTier", "%q is not one of %s", t, listOf(v2VolumeTypes))
		case in.body.Type != "" && in.body.Type != up:
			b.fail("storageTier", "%q and volumeType %q name different tiers; send one of them", t, in.body.Type)
		default:
			in.body.Type = up
		}
	}
	b.require("name", "size", "dataCenterId")
	if len(b.errs) > 0 {
		return nil, b.failure("NetworkVolumeCreateInput")
	}
	return in, nil
}

// volumeUpdate is a validated v1 NetworkVolumeUpdateInput.
type volumeUpdate struct {
	body        v2UpdateVolumeBody
	unknownKeys []string
}

// parseVolumeUpdate validates a v1 NetworkVolumeUpdateInput. Absent and null
// fields are not changed; no v1 default is applied.
func parseVolumeUpdate(body []byte) (*volumeUpdate, *Result) {
	b, msg := parseBodyObject(body, "NetworkVolumeUpdateInput")
	if b == nil {
		return nil, Fail(http.StatusBadRequest, msg)
	}
	u := &volumeUpdate{unknownKeys: b.unknown(volumeUpdateFields)}
	if s, ok := b.str("name"); ok {
		u.body.Name = &s
	}
	if s, ok := b.integer("size"); ok {
		checkVolumeSize(b, s)
		u.body.Size = &s
	}
	if len(b.errs) > 0 {
		return nil, b.failure("NetworkVolumeUpdateInput")
	}
	return u, nil
}

// volumeAnswer decodes a v2 NetworkVolume answer into the v1 answer.
func volumeAnswer(a *V2Answer) *Result {
	v, r := decodeV2[v2NetworkVolume](a, "a network volume")
	if r != nil {
		return r
	}
	return JSON(http.StatusOK, v1VolumeFrom(v))
}

// ---------------------------------------------------------------------------
// #25 POST /networkvolumes

func createNetworkVolumePlan(ctx context.Context, req *Request, c Caller) *Result {
	in, r := parseVolumeCreate(req.Body)
	if in == nil {
		return r
	}
	notes := &Result{}
	warnOutside(notes, "NetworkVolumeCreateInput", in.unknownKeys)
	a, r := callV2(ctx, req, c, http.MethodPost, "/v2/network-volumes", in.body)
	if r != nil {
		return withNotes(r, notes)
	}
	return withNotes(volumeAnswer(a), notes)
}

// ---------------------------------------------------------------------------
// #26 GET /networkvolumes

func listNetworkVolumesPlan(ctx context.Context, req *Request, c Caller) *Result {
	a, r := callV2(ctx, req, c, http.MethodGet, "/v2/network-volumes", nil)
	if r != nil {
		return r
	}
	list, r := decodeV2[v2NetworkVolumeList](a, "a network volume list")
	if r != nil {
		return r
	}
	out := make([]v1NetworkVolume, len(list.NetworkVolumes))
	for i := range list.NetworkVolumes {
		out[i] = v1VolumeFrom(&list.NetworkVolumes[i])
	}
	return JSON(http.StatusOK, out)
}

// ---------------------------------------------------------------------------
// #27 GET /networkvolumes/{networkVolumeId}

func getNetworkVolumePlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := resourceID(req, "networkVolumeId")
	if r != nil {
		return r
	}
	a, r := callV2(ctx, req, c, http.MethodGet, V2Path("/v2/network-volumes/%s", id), nil)
	if r != nil {
		return r
	}
	return volumeAnswer(a)
}

// ---------------------------------------------------------------------------
// #28 / #30 PATCH /networkvolumes/{networkVolumeId}, POST .../update

// updateNetworkVolumePlan translates a v1 update. When size is sent the
// volume is read first: a decrease is refused with a message naming the
// current size before anything changes, and a size equal to the current one
// is left out of the PATCH (v1 demanded a larger size, v2 accepts an equal one
// as a no-op). When nothing is left to change (an empty v1 body is valid in
// v1, while v2 rejects an empty PATCH), the current volume is answered
// without a PATCH.
func updateNetworkVolumePlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := resourceID(req, "networkVolumeId")
	if r != nil {
		return r
	}
	u, r := parseVolumeUpdate(req.Body)
	if u == nil {
		return r
	}
	notes := &Result{}
	warnOutside(notes, "NetworkVolumeUpdateInput", u.unknownKeys)
	path := V2Path("/v2/network-volumes/%s", id)
	var cur *v2NetworkVolume
	if u.body.Size != nil || u.body.Name == nil {
		if cur, r = getV2[v2NetworkVolume](ctx, req, c, path, "a network volume"); r != nil {
			return withNotes(r, notes)
		}
		if u.body.Size != nil {
			switch size := *u.body.Size; {
			case size < cur.Size:
				return withNotes(Fail(http.StatusBadRequest, fmt.Sprintf("size: network volume %q is %d GB; it cannot be shrunk to %d GB (network volume storage can only grow)", id, cur.Size, size)), notes)
			case size == cur.Size:
				u.body.Size = nil // nothing to change
			}
		}
	}
	if u.body.Size == nil && u.body.Name == nil {
		return withNotes(JSON(http.StatusOK, v1VolumeFrom(cur)), notes)
	}
	a, r := callV2(ctx, req, c, http.MethodPatch, path, u.body)
	if r != nil {
		return withNotes(r, notes)
	}
	return withNotes(volumeAnswer(a), notes)
}

// ---------------------------------------------------------------------------
// #29 DELETE /networkvolumes/{networkVolumeId}

func deleteNetworkVolumePlan(ctx context.Context, req *Request, c Caller) *Result {
	id, r := resourceID(req, "networkVolumeId")
	if r != nil {
		return r
	}
	if _, r := callV2(ctx, req, c, http.MethodDelete, V2Path("/v2/network-volumes/%s", id), nil); r != nil {
		return r
	}
	return &Result{Status: http.StatusNoContent}
}
