package translate

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestProblemMessage(t *testing.T) {
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name   string
		body   string
		status int
		want   string
	}{
		{"detail only", `{"title":"Not Found","status":404,"detail":"Pod not found."}`, 404, "Pod not found."},
		{"detail and errors", `{"title":"Unprocessable Entity","status":422,"detail":"Request validation failed.","errors":["$: additional properties 'bogus' not allowed","$.name: minLength 1"]}`, 422,
			"Request validation failed: request body: additional properties 'bogus' not allowed; name: minLength 1"},
		{"empty errors", `{"title":"Bad Request","status":400,"detail":"Invalid transition.","errors":[]}`, 400, "Invalid transition."},
		{"title only", `{"title":"Conflict","status":409}`, 409, "Conflict"},
		{"empty detail falls back to title", `{"title":"Conflict","status":409,"detail":""}`, 409, "Conflict"},
		{"errors without detail or title", `{"errors":["a","b"]}`, 422, "Unprocessable Entity: a; b"},
		{"message field", `{"message":"rate limited"}`, 429, "rate limited"},
		{"non-string errors", `{"detail":"bad","errors":[{"path":"$.x"}, 3, "", "ok"]}`, 422, `bad: {"path":"$.x"}; 3; ok`},
		{"detail of wrong type", `{"detail":5,"title":"Bad Request"}`, 400, "Bad Request"},
		{"json object without message", `{"foo":"bar"}`, 500, "Internal Server Error"},
		{"json array", `["x"]`, 502, "Bad Gateway"},
		{"truncated json", `{"detail":"Pod not`, 404, "Not Found"},
		{"empty body", ``, 503, "Service Unavailable"},
		{"whitespace body", " \n\t", 400, "Bad Request"},
		{"html", `<html><body><h1>502 Bad Gateway</h1></body></html>`, 502, "Bad Gateway"},
		{"html after whitespace", "\n  <!DOCTYPE html><title>oops</title>", 500, "Internal Server Error"},
		{"plain text", "upstream connect error or\n disconnect/reset before headers\n", 503,
			"Service Unavailable: upstream connect error or disconnect/reset before headers"},
		{"binary garbage", "\xff\xfe\x00\x01garbage", 500, "Internal Server Error"},
		{"unknown status", ``, 599, "upstream answered with status 599"},
		{"status zero", `garbage`, 0, "upstream answered with status 0: garbage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ProblemMessage([]byte(tt.body), tt.status); got != tt.want {
				t.Errorf("ProblemMessage(%q, %d)\n got %q\nwant %q", tt.body, tt.status, got, tt.want)
			}
		})
	}

	t.Run("long plain text is bounded", func(t *testing.T) {
		got := ProblemMessage([]byte(long), 500)
		if len(got) > len("Internal Server Error: ")+maxEchoBytes+len("…") {
			t.Errorf("message is %d bytes long", len(got))
		}
		if !strings.HasPrefix(got, "Internal Server Error: xxx") || !strings.HasSuffix(got, "…") {
			t.Errorf("got %q", got)
		}
	})
	t.Run("truncation keeps UTF-8 valid", func(t *testing.T) {
		for shift := 0; shift < 4; shift++ {
			body := strings.Repeat("a", shift) + strings.Repeat("é€😀", 1000)
			got := ProblemMessage([]byte(body), 500)
			if !utf8.ValidString(got) {
				t.Errorf("shift %d: invalid UTF-8 in %q", shift, got)
			}
			if len(got) > 600 {
				t.Errorf("shift %d: %d bytes", shift, len(got))
			}
		}
	})
	t.Run("Problem type round trip", func(t *testing.T) {
		p := Problem{Title: "Bad Request", Status: 400, Detail: "Mount conflict.", Errors: []string{"mounts: both kinds"}}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := ProblemMessage(b, 400); got != "Mount conflict: volumeInGb: both kinds" {
			t.Errorf("got %q", got)
		}
		b, _ = json.Marshal(Problem{Title: "x", Status: 400, Detail: "d"})
		if strings.Contains(string(b), "errors") {
			t.Errorf("errors not omitted when empty: %s", b)
		}
	})
}

func TestV1Status(t *testing.T) {
	op := func(name string) *Operation {
		o, ok := Lookup(name)
		if !ok {
			t.Fatalf("no operation %s", name)
		}
		return o
	}
	tests := []struct {
		op       string
		v2, want int
	}{
		// Success codes are v1's documented ones.
		{"CreatePod", 201, 201},
		{"CreatePod", 200, 201},
		{"CreateEndpoint", 201, 200},
		{"CreateTemplate", 201, 200},
		{"CreateNetworkVolume", 201, 200},
		{"CreateContainerRegistryAuth", 201, 200},
		{"DeletePod", 204, 204},
		{"DeletePod", 200, 204},
		{"DeleteEndpoint", 204, 204},
		{"DeleteContainerRegistryAuth", 204, 204},
		{"GetPod", 200, 200},
		{"ListPods", 200, 200},
		{"StartPod", 200, 200},
		{"RestartPod", 200, 200},
		{"UpdatePodViaPost", 200, 200},
		// 404 depends on what v1 documented.
		{"GetPod", 404, 404},
		{"GetContainerRegistryAuth", 404, 404},
		{"ListPods", 404, 404},
		{"UpdatePod", 404, 400},
		{"UpdateTemplateViaPost", 404, 400},
		{"DeletePod", 404, 400},
		{"StartPod", 404, 400},
		{"StopPod", 404, 400},
		{"RestartPod", 404, 400},
		{"CreatePod", 404, 400},
		// Rejections.
		{"CreatePod", 400, 400},
		{"CreatePod", 402, 400},
		{"StartPod", 409, 400},
		{"CreateTemplate", 422, 400},
		{"UpdatePod", 405, 400},
		{"CreatePod", 413, 400},
		{"CreatePod", 415, 400},
		{"GetPod", 401, 401},
		{"GetPod", 403, 403},
		{"GetPod", 429, 429},
		{"DeletePod", 429, 429},
		// Upstream failures.
		{"GetPod", 500, 502},
		{"GetPod", 502, 502},
		{"CreatePod", 503, 502},
		{"CreatePod", 504, 502},
		{"GetPod", 302, 502},
		{"GetPod", 100, 502},
		{"GetPod", 0, 502},
		{"GetPod", 600, 502},
	}
	for _, tt := range tests {
		if got := V1Status(op(tt.op), tt.v2); got != tt.want {
			t.Errorf("V1Status(%s, %d) = %d, want %d", tt.op, tt.v2, got, tt.want)
		}
	}

	// Every operation: a 2xx becomes its documented success, which is one of
	// v1's three; a 404 becomes 404 or 400.
	for i := range Operations {
		o := &Operations[i]
		for _, s := range []int{200, 201, 204} {
			if got := V1Status(o, s); got != o.Success {
				t.Errorf("%s: V1Status(%d) = %d, want %d", o.Name, s, got, o.Success)
			}
		}
		if got := V1Status(o, 404); got != 404 && got != 400 {
			t.Errorf("%s: V1Status(404) = %d", o.Name, got)
		}
		if o.Kind == KindGet && V1Status(o, 404) != 404 {
			t.Errorf("%s: a GET by id must answer 404 on 404", o.Name)
		}
	}

	// A nil operation does not panic.
	for _, c := range []struct{ v2, want int }{{201, 201}, {404, 404}, {422, 400}, {500, 502}} {
		if got := V1Status(nil, c.v2); got != c.want {
			t.Errorf("V1Status(nil, %d) = %d, want %d", c.v2, got, c.want)
		}
	}
}

func TestEncodeV1Error(t *testing.T) {
	for _, msg := range []string{
		"Pod not found",
		"",
		`quote " backslash \ newline` + "\n tab\t",
		"<script>alert(1)</script> & co",
		"unicode é € 😀",
		"control \x00\x1f",
		"invalid utf-8 \xff",
	} {
		b := EncodeV1Error(msg)
		if len(b) == 0 || b[len(b)-1] != '\n' {
			t.Errorf("%q: no trailing newline: %q", msg, b)
		}
		if strings.Count(string(b), "\n") != 1 {
			t.Errorf("%q: raw newline inside the JSON: %q", msg, b)
		}
		var e V1Error
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatalf("%q: %v (%q)", msg, err, b)
		}
		want := strings.ToValidUTF8(msg, "\uFFFD")
		if e.Message != want {
			t.Errorf("round trip %q → %q", msg, e.Message)
		}
		var generic map[string]any
		_ = json.Unmarshal(b, &generic)
		if len(generic) != 1 {
			t.Errorf("%q: body has keys other than message: %s", msg, b)
		}
	}
	if got := string(EncodeV1Error("Pod not found")); got != "{\"message\":\"Pod not found\"}\n" {
		t.Errorf("got %q", got)
	}
	// The full error path: a v2 problem becomes a v1 error body.
	body := []byte(`{"title":"Unprocessable Entity","status":422,"detail":"Request validation failed.","errors":["$: additional properties 'bogus' not allowed"]}`)
	got := string(EncodeV1Error(ProblemMessage(body, http.StatusUnprocessableEntity)))
	want := `{"message":"Request validation failed: request body: additional properties 'bogus' not allowed"}` + "\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func FuzzProblemMessage(f *testing.F) {
	f.Add([]byte(`{"title":"Not Found","status":404,"detail":"Pod not found.","errors":["a"]}`), 404)
	f.Add([]byte(`<html>`), 502)
	f.Add([]byte(""), 0)
	f.Fuzz(func(t *testing.T, body []byte, status int) {
		msg := ProblemMessage(body, status)
		if msg == "" {
			t.Fatal("empty message")
		}
		if b := EncodeV1Error(msg); !json.Valid(b) {
			t.Fatalf("invalid JSON %q", b)
		}
	})
}
