package proxy

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// surface tells which dialect an answer the gateway writes itself must speak:
// v1 clients get {"message": ...}, /v2 pass-through clients get RFC 9457
// problems, as v2 would answer them.
type surface int

const (
	surfaceV1 surface = iota
	surfaceV2
)

func surfaceOf(r *http.Request) surface {
	if strings.HasPrefix(r.URL.Path, "/v2/") || r.URL.Path == "/v2" {
		return surfaceV2
	}
	return surfaceV1
}

// writeError answers an error the gateway raises itself, in the dialect of
// the request's surface.
func writeError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	h := w.Header()
	h.Del("Content-Length")
	h.Set("X-Content-Type-Options", "nosniff")
	var body []byte
	if surfaceOf(r) == surfaceV2 {
		h.Set("Content-Type", "application/problem+json")
		body, _ = json.Marshal(struct {
			Title  string `json:"title"`
			Status int    `json:"status"`
			Detail string `json:"detail"`
		}{http.StatusText(status), status, msg})
	} else {
		h.Set("Content-Type", "application/json")
		body, _ = json.Marshal(struct {
			Message string `json:"message"`
		}{msg})
	}
	body = append(body, '\n')
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
