package translate

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func v2Volume(id string, size int) string {
	return `{"id":"` + id + `","name":"data","size":` + strconv.Itoa(size) + `,"dataCenter":"EU-RO-1","type":"STANDARD"}`
}

const v1VolumeJSON = `{"id":"vol1","name":"data","size":100,"dataCenterId":"EU-RO-1","volumeType":"STANDARD"}`

var volParams = map[string]string{"networkVolumeId": "vol1"}

func TestCreateNetworkVolume(t *testing.T) {
	tests := []struct {
		name, body string
		wantV2     string // v2 body; "" = no call
		status     int
		answer     string
		msg        []string
		warn       string
	}{
		{name: "renamed field, 200 not 201", body: `{"name":"data","size":100,"dataCenterId":"EU-RO-1"}`,
			wantV2: `{"name":"data","size":100,"dataCenter":"EU-RO-1"}`, status: 200, answer: v1VolumeJSON},
		{name: "v2 bounds: 10 and 4096 accepted", body: `{"name":"data","size":4096,"dataCenterId":"EU-RO-1"}`,
			wantV2: `{"name":"data","size":4096,"dataCenter":"EU-RO-1"}`, status: 200, answer: v1VolumeJSON},
		{name: "integral float accepted", body: `{"name":"data","size":10.0,"dataCenterId":"EU-RO-1"}`,
			wantV2: `{"name":"data","size":10,"dataCenter":"EU-RO-1"}`, status: 200, answer: v1VolumeJSON},
		{name: "unknown fields ignored with a warning (never forwarded)", body: `{"name":"data","size":100,"dataCenterId":"EU-RO-1","type":"HIGH_PERFORMANCE","x":1}`,
			wantV2: `{"name":"data","size":100,"dataCenter":"EU-RO-1"}`, status: 200, answer: v1VolumeJSON, warn: "type, x"},
		{name: "size below v2's minimum is never rounded up", body: `{"name":"data","size":5,"dataCenterId":"EU-RO-1"}`,
			status: 400, msg: []string{"size:", "at least 10 GB", "rounded up"}},
		{name: "size 0 (v1 minimum)", body: `{"name":"data","size":0,"dataCenterId":"EU-RO-1"}`, status: 400, msg: []string{"size:"}},
		{name: "size above v2's maximum", body: `{"name":"data","size":5000,"dataCenterId":"EU-RO-1"}`, status: 400, msg: []string{"size:", "at most 4096"}},
		{name: "negative size", body: `{"name":"data","size":-1,"dataCenterId":"EU-RO-1"}`, status: 400, msg: []string{"size: must not be negative"}},
		{name: "fractional size", body: `{"name":"data","size":10.5,"dataCenterId":"EU-RO-1"}`, status: 400, msg: []string{"size: must be an integer"}},
		{name: "every required field named", body: `{}`, status: 400, msg: []string{"name: is required", "size: is required", "dataCenterId: is required"}},
		{name: "null is missing", body: `{"name":null,"size":20,"dataCenterId":"EU-RO-1"}`, status: 400, msg: []string{"name: is required"}},
		{name: "empty strings", body: `{"name":"","size":20,"dataCenterId":""}`, status: 400, msg: []string{"name: is required", "dataCenterId: is required"}},
		{name: "wrong types", body: `{"name":1,"size":"20","dataCenterId":[]}`, status: 400, msg: []string{"name: must be a string", "size: must be an integer", "dataCenterId: must be a string"}},
		{name: "not an object", body: `[1]`, status: 400, msg: []string{"JSON object"}},
		{name: "invalid JSON", body: `{"name":`, status: 400, msg: []string{"not valid JSON"}},
		{name: "empty body", body: ``, status: 400, msg: []string{"request body is required"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var script []step
			if tc.wantV2 != "" {
				script = append(script, step{method: "POST", path: "/v2/network-volumes", status: 201, body: v2Volume("vol1", 100)})
			}
			res, f := run(t, "CreateNetworkVolume", runOpts{body: tc.body}, script...)
			wantStatus(t, res, tc.status)
			if tc.wantV2 != "" {
				jsonEqual(t, "v2 body", []byte(f.bodies("POST", "/v2/network-volumes")[0]), tc.wantV2)
				jsonEqual(t, "v1 answer", res.Body, tc.answer)
			} else {
				wantMessage(t, res, tc.msg...)
			}
			if tc.warn != "" && (len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], tc.warn)) {
				t.Errorf("warnings %q, want one naming %q", res.Warnings, tc.warn)
			}
			if tc.warn == "" && len(res.Warnings) > 0 {
				t.Errorf("unexpected warnings %q", res.Warnings)
			}
		})
	}
}

func TestCreateNetworkVolumeV2Errors(t *testing.T) {
	tests := []struct {
		status, want int
		detail       string
	}{
		{400, 400, "dataCenter: unknown data center"},
		{422, 400, "Request validation failed."},
		{401, 401, "Unauthorized"},
		{403, 403, "Forbidden"},
		{429, 429, "Too many requests"},
		{500, 502, "boom"},
	}
	for _, tc := range tests {
		t.Run(http.StatusText(tc.status), func(t *testing.T) {
			res, _ := run(t, "CreateNetworkVolume", runOpts{body: `{"name":"d","size":10,"dataCenterId":"XX"}`},
				step{method: "POST", path: "/v2/network-volumes", status: tc.status, body: problem(tc.status, tc.detail),
					header: http.Header{"Retry-After": {"7"}}})
			wantStatus(t, res, tc.want)
			wantMessage(t, res, strings.Replace(tc.detail, "dataCenter:", "dataCenterId:", 1)) // the v1 field
			if tc.status == 429 && res.RetryAfter != "7" {
				t.Errorf("Retry-After %q", res.RetryAfter)
			}
		})
	}
	res, _ := run(t, "CreateNetworkVolume", runOpts{body: `{"name":"d","size":10,"dataCenterId":"XX"}`},
		step{method: "POST", path: "/v2/network-volumes", err: errors.New("connection refused")})
	wantStatus(t, res, 502)
	op := mustOp(t, "CreateNetworkVolume")
	res = op.Plan(context.Background(), &Request{Op: op, Body: []byte(`{"name":"d","size":10,"dataCenterId":"XX"}`)},
		callerFunc(func(V2Call) (*V2Answer, error) { return &V2Answer{Status: 201, Body: []byte(`{"id":`)}, nil }))
	wantStatus(t, res, 502)
	wantMessage(t, res, "cannot read")
}

// callerFunc is a Caller answering every call with f (no contract checks).
type callerFunc func(V2Call) (*V2Answer, error)

func (f callerFunc) Call(_ context.Context, c V2Call) (*V2Answer, error) { return f(c) }

// The volume tier (v2 type) is answered as volumeType, the name clients such
// as runpod-mcp send on create.
func TestListNetworkVolumes(t *testing.T) {
	res, _ := run(t, "ListNetworkVolumes", runOpts{query: "ignored=1"},
		step{method: "GET", path: "/v2/network-volumes", status: 200, body: `{"networkVolumes":[` + v2Volume("a", 10) + `,` +
			`{"id":"b","name":"fast","size":4096,"dataCenter":"US-KS-2","type":"HIGH_PERFORMANCE"}]}`})
	wantStatus(t, res, 200)
	jsonEqual(t, "list", res.Body, `[{"id":"a","name":"data","size":10,"dataCenterId":"EU-RO-1","volumeType":"STANDARD"},
		{"id":"b","name":"fast","size":4096,"dataCenterId":"US-KS-2","volumeType":"HIGH_PERFORMANCE"}]`)

	res, _ = run(t, "ListNetworkVolumes", runOpts{}, step{method: "GET", path: "/v2/network-volumes", status: 200, body: `{"networkVolumes":[]}`})
	wantStatus(t, res, 200)
	jsonEqual(t, "empty list", res.Body, `[]`)

	res, _ = run(t, "ListNetworkVolumes", runOpts{}, step{method: "GET", path: "/v2/network-volumes", status: 401, body: problem(401, "Missing or invalid API key")})
	wantStatus(t, res, 401)
}

func TestGetNetworkVolume(t *testing.T) {
	res, _ := run(t, "GetNetworkVolume", runOpts{params: volParams},
		step{method: "GET", path: "/v2/network-volumes/vol1", status: 200, body: v2Volume("vol1", 100)})
	wantStatus(t, res, 200)
	jsonEqual(t, "volume", res.Body, v1VolumeJSON)

	res, _ = run(t, "GetNetworkVolume", runOpts{params: volParams},
		step{method: "GET", path: "/v2/network-volumes/vol1", status: 404, body: problem(404, "network volume not found")})
	wantStatus(t, res, 404)
	wantMessage(t, res, "not found")

	// Ids are percent-encoded; ids that could address another route are
	// never forwarded.
	res, f := run(t, "GetNetworkVolume", runOpts{params: map[string]string{"networkVolumeId": "a b?c"}},
		step{method: "GET", path: "/v2/network-volumes/a%20b%3Fc", status: 404, body: problem(404, "not found")})
	wantStatus(t, res, 404)
	_ = f
	for _, id := range []string{"", ".", "..", "a/b", `a\b`, "x\x00", strings.Repeat("a", 192)} {
		res, _ := run(t, "GetNetworkVolume", runOpts{params: map[string]string{"networkVolumeId": id}})
		wantStatus(t, res, 404)
	}
}

func TestUpdateNetworkVolume(t *testing.T) {
	get := func(size int) step {
		return step{method: "GET", path: "/v2/network-volumes/vol1", status: 200, body: v2Volume("vol1", size)}
	}
	patch := func(size int) step {
		return step{method: "PATCH", path: "/v2/network-volumes/vol1", status: 200, body: v2Volume("vol1", size)}
	}
	tests := []struct {
		name, body string
		script     []step
		patch      string // wanted PATCH body
		status     int
		answerSize int
		msg        string
		warn       string
	}{
		{name: "rename only: no read", body: `{"name":"renamed"}`, script: []step{patch(100)}, patch: `{"name":"renamed"}`, status: 200, answerSize: 100},
		{name: "grow: read, then PATCH", body: `{"size":200}`, script: []step{get(100), patch(200)}, patch: `{"size":200}`, status: 200, answerSize: 200},
		{name: "grow and rename", body: `{"size":200,"name":"n"}`, script: []step{get(100), patch(200)}, patch: `{"name":"n","size":200}`, status: 200, answerSize: 200},
		{name: "shrink refused before any change", body: `{"size":50}`, script: []step{get(100)}, status: 400, msg: "is 100 GB; it cannot be shrunk to 50 GB"},
		{name: "same size: nothing to change, no PATCH", body: `{"size":100}`, script: []step{get(100)}, status: 200, answerSize: 100},
		{name: "same size and a rename: PATCH the name only", body: `{"size":100,"name":"n"}`, script: []step{get(100), patch(100)}, patch: `{"name":"n"}`, status: 200, answerSize: 100},
		{name: "empty v1 body: the volume, without a PATCH", body: `{}`, script: []step{get(100)}, status: 200, answerSize: 100},
		{name: "nulls are not sent", body: `{"name":null,"size":null}`, script: []step{get(100)}, status: 200, answerSize: 100},
		{name: "unknown fields only: warning, no PATCH", body: `{"dataCenterId":"US-KS-2"}`, script: []step{get(100)}, status: 200, answerSize: 100, warn: "dataCenterId"},
		{name: "size below v2's minimum", body: `{"size":9}`, status: 400, msg: "size: v2 network volumes are at least 10 GB"},
		{name: "size above v2's maximum", body: `{"size":4097}`, status: 400, msg: "size: v2 network volumes are at most 4096 GB"},
		{name: "empty name is not sent: the volume, without a PATCH", body: `{"name":""}`, script: []step{get(100)}, status: 200, answerSize: 100},
		{name: "empty name beside a size: a size-only update", body: `{"name":"","size":120}`, script: []step{get(100), patch(120)}, patch: `{"size":120}`, status: 200, answerSize: 120},
		{name: "not JSON", body: `nope`, status: 400, msg: "not valid JSON"},
		{name: "unknown volume on read: 400 as v1 documented", body: `{"size":200}`,
			script: []step{{method: "GET", path: "/v2/network-volumes/vol1", status: 404, body: problem(404, "network volume not found")}}, status: 400, msg: "not found"},
		{name: "unknown volume on PATCH: 400", body: `{"name":"n"}`,
			script: []step{{method: "PATCH", path: "/v2/network-volumes/vol1", status: 404, body: problem(404, "network volume not found")}}, status: 400, msg: "not found"},
		{name: "v2 refuses a decrease that raced the read", body: `{"size":150}`,
			script: []step{get(100), {method: "PATCH", path: "/v2/network-volumes/vol1", status: 400, body: problem(400, "size: network volume storage cannot be reduced")}}, patch: `{"size":150}`, status: 400, msg: "cannot be reduced"},
	}
	for _, name := range []string{"UpdateNetworkVolume", "UpdateNetworkVolumeViaPost"} {
		for _, tc := range tests {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				res, f := run(t, name, runOpts{params: volParams, body: tc.body}, tc.script...)
				wantStatus(t, res, tc.status)
				patches := f.bodies("PATCH", "/v2/network-volumes/vol1")
				if tc.patch == "" && tc.status == 200 && len(patches) > 0 {
					t.Errorf("unexpected PATCH %s", patches)
				}
				if tc.patch != "" {
					if len(patches) != 1 {
						t.Fatalf("%d PATCHes", len(patches))
					}
					jsonEqual(t, "PATCH body", []byte(patches[0]), tc.patch)
				}
				if tc.status == 200 {
					if m := decodeV1(t, res.Body); m["size"] != float64(tc.answerSize) || m["dataCenterId"] != "EU-RO-1" {
						t.Errorf("answer %s", res.Body)
					}
				} else {
					wantMessage(t, res, tc.msg)
				}
				if tc.warn != "" && (len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], tc.warn)) {
					t.Errorf("warnings %q", res.Warnings)
				}
			})
		}
	}
}

func TestDeleteNetworkVolume(t *testing.T) {
	res, _ := run(t, "DeleteNetworkVolume", runOpts{params: volParams}, step{method: "DELETE", path: "/v2/network-volumes/vol1", status: 204})
	wantStatus(t, res, 204)
	if res.Body != nil {
		t.Errorf("204 with a body %q", res.Body)
	}
	res, _ = run(t, "DeleteNetworkVolume", runOpts{params: volParams}, step{method: "DELETE", path: "/v2/network-volumes/vol1", status: 404, body: problem(404, "network volume not found")})
	wantStatus(t, res, 400)
	res, _ = run(t, "DeleteNetworkVolume", runOpts{params: map[string]string{"networkVolumeId": ".."}})
	wantStatus(t, res, 404)
}
