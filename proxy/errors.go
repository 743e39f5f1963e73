package proxy

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/v1gateway/v1gateway/graphql"
)

// surface tells which dialect an answer the gateway writes itself must speak:
// v1 clients get {"message": ...}, /v2 pass-through clients get RFC 9457
// problems, as v2 would answer them, and /graphql clients a GraphQL
// response with only errors ({"errors": [{"message": ...}]}), which GraphQL
// clients read whatever the status.
type surface int

const (
	surfaceV1 surface = iota
	surfaceV2
	surfaceGraphQL
)

func surfaceOf(r *http.Request) surface {
	switch {
	case strings.HasPrefix(r.URL.Path, "/v2/") || r.URL.Path == "/v2":
		return surfaceV2
	case r.URL.Path == graphQLPath:
		return surfaceGraphQL
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
	switch surfaceOf(r) {
	case surfaceV2:
		h.Set("Content-Type", "application/problem+json")
		body, _ = json.Marshal(struct {
			Title  string `json:"title"`
			Status int    `json:"status"`
			Detail string `json:"detail"`
		}{http.StatusText(status), status, msg})
	case surfaceGraphQL:
		type gqlError struct {
			Message    string            `json:"message"`
			Extensions map[string]string `json:"extensions"`
		}
		h.Set("Content-Type", "application/json")
		body, _ = json.Marshal(struct {
			Errors []gqlError `json:"errors"`
		}{[]gqlError{{msg, map[string]string{"code": graphQLErrorCode(status)}}}})
	default:
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

// graphQLErrorCode is the extensions.code of an error the gateway answers
// on /graphql with HTTP status status: the door's code for the status
// (graphql.ErrorCode), except where the gateway's own refusal is about the
// HTTP request itself, not a plan's input.
func graphQLErrorCode(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "BAD_REQUEST"
	case http.StatusRequestEntityTooLarge:
		return "PAYLOAD_TOO_LARGE"
	case http.StatusRequestTimeout, http.StatusGatewayTimeout:
		return "TIMEOUT"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	}
	return graphql.ErrorCode(status)
}
