package proxy

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/gorilla/mux"

	"github.com/v1gateway/v1gateway/translate"
)

// Header values are plain ASCII (issue 29 item 8): the punctuation the
// gateway's own warnings use is transliterated, any other non-ASCII rune is
// one "?" (not one per byte), control characters are spaces.
func TestASCIIHeaderValue(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain ASCII is kept", "gpuTypeIds: 3 candidates", "gpuTypeIds: 3 candidates"},
		{"ellipsis", "a, b, … (4 more)", "a, b, ... (4 more)"},
		{"em and en dashes", "v2 — a pool – b", "v2 - a pool - b"},
		{"curly quotes", "“pool” ‘x’", `"pool" 'x'`},
		{"multiplication sign", "1 × NVIDIA H200", "1 x NVIDIA H200"},
		{"arrow", "PATCH → 400", "PATCH -> 400"},
		{"other non-ASCII: one ? per rune", "café 中文 😀", "caf? ?? ?"},
		{"invalid UTF-8: one ? per byte", "a\xffb", "a?b"},
		{"control characters become spaces", "careful\nnow\tplease\x7f", "careful now please "},
		{"non-breaking space", "a\u00a0b", "a b"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := asciiHeaderValue(c.in); got != c.want {
				t.Errorf("asciiHeaderValue(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// A plan's warning, drop and emulation reach the client as ASCII headers,
// while the note that /usage counts keeps the Unicode text.
func TestCompatHeadersAreASCII(t *testing.T) {
	srv, _ := newTestGateway(t, nil)
	gw := srv.Config.Handler.(*Gateway)
	warning := "gpuTypeIds: 1 × NVIDIA H200 — tried “US-KS-2”, EU-CZ-1, … (4 more) → none placed; café"
	op := &translate.Operation{Name: "Probe", Method: "GET", Path: "/things/{thingId}", Kind: translate.KindGet, Success: 200,
		Plan: func(ctx context.Context, req *translate.Request, c translate.Caller) *translate.Result {
			return &translate.Result{Status: 200, Body: []byte(`{}`), Warnings: []string{warning},
				Notes: []translate.Note{{Code: translate.CodeUnknownFields, Message: warning}}}
		}}
	req := httptest.NewRequest("GET", "/v1/things/x", nil)
	req.Header.Set("Authorization", "Bearer tok")
	req = mux.SetURLVars(req, map[string]string{"thingId": "x"})
	w := httptest.NewRecorder()
	gw.v1Handler(op).ServeHTTP(w, req)
	got := w.Header().Get("X-Compat-Warning")
	want := `gpuTypeIds: 1 x NVIDIA H200 - tried "US-KS-2", EU-CZ-1, ... (4 more) -> none placed; caf?`
	if got != want {
		t.Errorf("X-Compat-Warning %q, want %q", got, want)
	}
	for i := 0; i < len(got); i++ {
		if got[i] < 0x20 || got[i] > 0x7e {
			t.Fatalf("byte %#x at %d is not printable ASCII: %q", got[i], i, got)
		}
	}
}
