package graphql

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The vendor's error shape (issue 36, item 5): every error carries
// extensions.code — a document the schema refuses GRAPHQL_VALIDATION_FAILED,
// as Apollo Server codes it — and where public clients compare the
// vendor's message, the door answers it in those words
// (docs/graphql.md, "Vendor error texts public clients compare").
func TestErrorsCarryTheVendorsCodesAndMessages(t *testing.T) {
	w := newWorld(t)
	dstack := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "clients", "dstack", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct {
		name, doc, vars string
		code, message   string // message: exact; "~" prefix: a substring
	}{
		{name: "an unknown field", doc: `query { myself { shoeSize } }`,
			code: "GRAPHQL_VALIDATION_FAILED", message: `~Cannot query field "shoeSize" on type "User".`},
		{name: "an unknown argument", doc: `query { pod(podId: "x") { id } }`,
			code: "GRAPHQL_VALIDATION_FAILED", message: `~Unknown argument "podId" on field "Query.pod".`},
		{name: "a value of the wrong type", doc: `mutation { podStop(input: {podId: 5}) { id } }`,
			code: "GRAPHQL_VALIDATION_FAILED", message: "~String cannot represent a non string value: 5"},
		{name: "a document that does not parse", doc: `query { myself { id }`,
			code: "GRAPHQL_PARSE_FAILED", message: "~Expected Name"},
		{name: "a variable of the wrong type", doc: `query q($i: PodFilter) { pod(input: $i) { id } }`, vars: `{"i": {"podId": 5}}`,
			code: "BAD_USER_INPUT", message: "~podId"},
		{name: "dstack terminates a pod that is gone", doc: dstack("terminate_instance.graphql"),
			code: "NOT_FOUND", message: "pod not found to terminate"},
		{name: "runpod-python terminates a pod that is gone", doc: `mutation { podTerminate(input: {podId: "gone0000000001"}) }`,
			code: "NOT_FOUND", message: "pod not found to terminate"},
	} {
		a := w.do(c.doc, c.vars)
		if len(a.Errors) == 0 {
			t.Errorf("%s: no error: %s", c.name, a.raw)
			continue
		}
		for i, e := range a.Errors {
			ext, _ := e["extensions"].(map[string]any)
			if code, _ := ext["code"].(string); code == "" {
				t.Errorf("%s: error %d without extensions.code: %s", c.name, i, a.raw)
			}
		}
		msg, want := a.message(), c.message
		if sub, ok := strings.CutPrefix(want, "~"); ok && !strings.Contains(msg, sub) || !ok && msg != want {
			t.Errorf("%s: message %q, want %q", c.name, msg, want)
		}
		if a.code() != c.code {
			t.Errorf("%s: code %q, want %q: %s", c.name, a.code(), c.code, a.raw)
		}
	}
}

// A failure worth retrying says so in the words runpod-flash looks for
// ("too many requests", "service unavailable"), whatever v2 wrote.
func TestRetryableFailuresSayTooManyRequestsOrServiceUnavailable(t *testing.T) {
	for _, c := range []struct {
		status int
		msg    string
		want   string
	}{
		{429, "rate limit exceeded for the minute window", "too many requests: rate limit exceeded for the minute window"},
		{429, "Too Many Requests", "Too Many Requests"},
		{503, "the v2 API is unavailable", "service unavailable: the v2 API is unavailable"},
		{504, "v2 did not answer in time", "service unavailable: v2 did not answer in time"},
		{502, "Service Unavailable: v2 answered 502", "Service Unavailable: v2 answered 502"},
		{500, "There are no longer any instances available with the requested specifications", "There are no longer any instances available with the requested specifications"},
		{400, "gpuCount: must be positive", "gpuCount: must be positive"},
	} {
		if got := retryWords(c.status, c.msg); got != c.want {
			t.Errorf("%d %q: %q, want %q", c.status, c.msg, got, c.want)
		}
	}
}
