package translate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Problem is a v2 RFC 9457 problem body.
type Problem struct {
	Title  string   `json:"title"`
	Status int      `json:"status"`
	Detail string   `json:"detail"`
	Errors []string `json:"errors,omitempty"`
}

// V1Error is the v1 error body.
type V1Error struct {
	Message string `json:"message"`
}

// maxEchoBytes bounds how much of a body that is not a problem (an HTML error
// page, a proxy's plain-text complaint) ends up in a v1 message.
const maxEchoBytes = 512

// ProblemMessage turns a v2 error body into the text of a v1 error
// message (docs/design.md §6.2): the problem's detail, followed by ": " and its
// errors joined by "; " when it has any. Without a detail it uses the
// title (or a "message" field); a body that is not a problem at all (empty,
// HTML, garbage) gives http.StatusText(status), followed by at most ~512
// bytes of the body when that is short plain text. It never panics.
//
// The message is in v1 terms (errwording.go): v2 field paths become the v1
// fields a client sets, pointers to v2 routes are left out, and a detail
// ending in a period is joined to its errors without doubling the
// punctuation.
func ProblemMessage(body []byte, status int) string {
	return problemMessage("", body, status)
}

// problemMessage is ProblemMessage with the field names of one v1 resource
// (the operation table's Resource; "" for names common to all).
func problemMessage(resource string, body []byte, status int) string {
	if msg, ok := problemBodyText(resource, body, status); ok {
		return msg
	}
	fallback := http.StatusText(status)
	if fallback == "" {
		fallback = fmt.Sprintf("upstream answered with status %d", status)
	}
	if t := plainTextBody(body); t != "" {
		return fallback + ": " + t
	}
	return fallback
}

// problemBodyText reads a JSON object with detail/title/message and errors.
// Fields of an unexpected type are ignored rather than failing the whole
// body.
func problemBodyText(resource string, body []byte, status int) (string, bool) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return "", false
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &obj); err != nil {
		return "", false
	}
	str := func(key string) string {
		var s string
		if raw, ok := obj[key]; ok && json.Unmarshal(raw, &s) == nil {
			return strings.TrimSpace(s)
		}
		return ""
	}
	var errs []string
	if raw, ok := obj["errors"]; ok {
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) == nil {
			for _, it := range items {
				var s string
				if json.Unmarshal(it, &s) != nil {
					// Not a string: show its compact JSON, bounded.
					var b bytes.Buffer
					if json.Compact(&b, it) != nil {
						continue
					}
					s = truncateMsg(b.String(), maxEchoBytes)
				} else {
					s = v1Wording(resource, strings.TrimSpace(s))
				}
				if s = strings.TrimSpace(s); s != "" {
					errs = append(errs, s)
				}
			}
		}
	}
	msg := str("detail")
	if msg == "" {
		msg = str("title")
	}
	if msg == "" {
		msg = str("message")
	}
	if msg == "" && len(errs) == 0 {
		return "", false
	}
	msg = v1Wording(resource, msg)
	if msg == "" {
		msg = http.StatusText(status)
		if msg == "" {
			msg = fmt.Sprintf("upstream answered with status %d", status)
		}
	}
	if len(errs) > 0 {
		// "Request validation failed." + errors: one colon, no ".:".
		msg = strings.TrimRight(msg, ".:; ") + ": " + strings.Join(errs, "; ")
	}
	return msg, true
}

// plainTextBody returns a short, single-line version of a plain-text body, or
// "" when the body is empty, not UTF-8, markup or JSON.
func plainTextBody(body []byte) string {
	if len(body) > 4*maxEchoBytes {
		body = body[:4*maxEchoBytes]
		// Do not cut a rune in half.
		for len(body) > 0 && !utf8.Valid(body) {
			body = body[:len(body)-1]
		}
	}
	t := strings.TrimSpace(string(body))
	if t == "" || !utf8.ValidString(t) || t[0] == '<' || t[0] == '{' || t[0] == '[' {
		return ""
	}
	t = strings.Join(strings.FieldsFunc(t, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	return truncateMsg(t, maxEchoBytes)
}

// truncateMsg cuts s to at most n bytes on a rune boundary, marking the cut.
func truncateMsg(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// V1Status maps the status of a v2 answer to the status the v1 client gets
// for op (P5; docs/design.md §6.3):
//
//	2xx            → op.Success (201 for CreatePod, 200 for other creates, 204 for deletes)
//	404            → op.NotFoundStatus() (404 on GETs, 400 where v1 documented only 400)
//	400 402 409 422 and any other 4xx → 400
//	401 403 429    → unchanged
//	5xx and anything else (1xx, 3xx, out of range) → 502
//
// A nil op keeps 2xx statuses and 404 as they are.
func V1Status(op *Operation, v2Status int) int {
	switch {
	case v2Status >= 200 && v2Status < 300:
		if op == nil || op.Success == 0 {
			return v2Status
		}
		return op.Success
	case v2Status == http.StatusNotFound:
		if op == nil {
			return http.StatusNotFound
		}
		return op.NotFoundStatus()
	case v2Status == http.StatusUnauthorized, v2Status == http.StatusForbidden, v2Status == http.StatusTooManyRequests:
		return v2Status
	case v2Status >= 400 && v2Status < 500:
		// 400, 402, 409, 422 and every other client error: v1 documents
		// only 400 for a rejected request.
		return http.StatusBadRequest
	default:
		return http.StatusBadGateway
	}
}

// V1StockOut is v1's sentence for a create that no GPU type or CPU flavor
// could be placed for, answered with HTTP 500 (stockout.md: the Go SDK
// cozy-creator/runpod-go-sdk records it from live v1 in pod_fallback_test.go
// and moves to its next GPU type only on a 5xx carrying it; pitwall's
// test_capacity_classification.py classifies it as capacity). v2 answers
// the same condition with a 400.
const V1StockOut = "There are no longer any instances available with the requested specifications"

// capacityPhrases are the words of a capacity failure in a create's error
// detail: v2's own sentence (and its variants the clients record), and the
// v2 simulator's. v2's 400 tells a broken rule from a stock-out only by
// its human-readable detail.
var capacityPhrases = []string{
	"no longer any instances available",
	"no instances available",
	"no instances currently available",
	"no capacity",
	"could not be placed",
	"not enough free gpus",
	"does not have the resources",
	"could not find any pods with required specifications",
}

// isCapacityFailure reports whether a create's error detail says that
// there was no capacity (rather than that a rule was broken).
func isCapacityFailure(detail string) bool {
	d := strings.ToLower(detail)
	for _, p := range capacityPhrases {
		if strings.Contains(d, p) {
			return true
		}
	}
	return false
}

// v1StockOutBody is the body of StockOut: the text under "message", the
// key of every v1 error the gateway writes, and under "error", the key live
// v1 used (clients read one or the other).
type v1StockOutBody struct {
	Message string `json:"message"`
	Error   string `json:"error"`
}

// StockOut is the v1 answer of a create that no candidate could be placed
// for (P3): 500, v1's sentence, then the gateway's detail. It is the
// gateway's own answer after definite refusals by v2, never a 5xx of v2's
// (after which the gateway looks for what it may have created, P3).
func StockOut(detail string) *Result {
	msg := V1StockOut + ": " + detail
	b, err := json.Marshal(v1StockOutBody{Message: msg, Error: msg})
	if err != nil { // cannot happen for a struct of two strings
		return Fail(http.StatusInternalServerError, msg)
	}
	return &Result{Status: http.StatusInternalServerError, Body: append(b, '\n'),
		Notes: []Note{{Code: CodeStockOut, Message: msg}}}
}

// EncodeV1Error returns the v1 error body {"message": msg} followed by a
// newline.
func EncodeV1Error(msg string) []byte {
	b, err := json.Marshal(V1Error{Message: msg})
	if err != nil { // cannot happen for a struct of one string
		return []byte("{\"message\":\"internal error\"}\n")
	}
	return append(b, '\n')
}
