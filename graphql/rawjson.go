package graphql

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Pod fields that v2 gives as JSON the door reshapes (env, ports), written
// from that JSON in its plain form: no Go value per element, no decoder.
// Anything else takes the exact path (encoding/json), with the same answer.

// The plain form is compact JSON (no whitespace) whose strings hold no
// escape, in valid UTF-8: with no backslash anywhere, every quote is a
// string's start or end, and a string's bytes are its value as they stand
// (written as they are, they are its JSON string). v2 writes such JSON for
// env and ports.
//
// The raw JSON given to these writers is valid JSON: a pod's env and ports
// as podjson or encoding/json read them from v2's answer, both of which
// validate the values they keep raw. In valid JSON a byte below 0x20 is
// whitespace between tokens (a string cannot hold one unescaped), which
// the plain readers refuse where they meet it; so plainText need not look
// for them.

// plainText reports whether raw, valid JSON, has no backslash and is valid
// UTF-8: the first condition of the plain form.
func plainText(raw []byte) bool {
	return bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw)
}

// plainStringAt reads the string that starts at raw[i] (its opening
// quote) of plain text: its bytes, and the index after its closing quote.
func plainStringAt(raw []byte, i int) (s []byte, next int, ok bool) {
	if i >= len(raw) || raw[i] != '"' {
		return nil, 0, false
	}
	n := bytes.IndexByte(raw[i+1:], '"')
	if n < 0 {
		return nil, 0, false
	}
	return raw[i+1 : i+1+n], i + 2 + n, true
}

// plainItems calls each with every string of raw, a plain JSON array of
// strings; false when raw is not one (each may have been called).
func plainItems(raw []byte, each func(s []byte)) bool {
	if len(raw) < 2 || raw[0] != '[' || !plainText(raw) {
		return false
	}
	if len(raw) == 2 {
		return raw[1] == ']'
	}
	for i := 1; ; {
		s, next, ok := plainStringAt(raw, i)
		if !ok || next >= len(raw) {
			return false
		}
		each(s)
		switch {
		case raw[next] == ',':
			i = next + 1
		case raw[next] == ']' && next == len(raw)-1:
			return true
		default:
			return false
		}
	}
}

// appendPlainEnv writes raw, a plain JSON object of strings, as GraphQL's
// ["KEY=value", ...] in the object's order; false when raw is not one.
func appendPlainEnv(b, raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '{' || !plainText(raw) {
		return b, false
	}
	b = append(b, '[')
	if len(raw) == 2 {
		return append(b, ']'), raw[1] == '}'
	}
	for i := 1; ; {
		k, next, ok := plainStringAt(raw, i)
		if !ok || next >= len(raw) || raw[next] != ':' {
			return b, false
		}
		v, next, ok := plainStringAt(raw, next+1)
		if !ok || next >= len(raw) {
			return b, false
		}
		if i > 1 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, '=')
		b = append(b, v...)
		b = append(b, '"')
		switch {
		case raw[next] == ',':
			i = next + 1
		case raw[next] == '}' && next == len(raw)-1:
			return append(b, ']'), true
		default:
			return b, false
		}
	}
}

// podEnv is a v2 pod's env object as GraphQL's ["KEY=value", ...], in the
// object's order.
type podEnv json.RawMessage

func (e *podEnv) appendJSON(b []byte) []byte {
	start := len(b)
	if out, ok := appendPlainEnv(b, *e); ok {
		return out
	}
	b = append(b[:start], '[')
	for i, s := range envStrings(json.RawMessage(*e)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// podPorts is a v2 pod's ports list as GraphQL's "8888/http,22/tcp".
type podPorts json.RawMessage

func (p *podPorts) appendJSON(b []byte) []byte {
	start := len(b)
	b = append(b, '"')
	first := true
	ok := plainItems(*p, func(s []byte) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, s...)
	})
	if !ok {
		return appendString(b[:start], portString(json.RawMessage(*p)))
	}
	return append(b, '"')
}

// setPortTypes sets the protocol of each port from the pod's v2 ports
// list (8888/http: "http"), "tcp" for a port the list does not give one.
func setPortTypes(ports []runtimePort, raw json.RawMessage) {
	for i := range ports {
		ports[i].typ = "tcp"
	}
	ok := plainItems(raw, func(s []byte) {
		// As portTypes reads them: the text before the first slash is
		// the port, the rest its protocol; a later entry wins.
		num, proto, _ := bytes.Cut(s, []byte{'/'})
		n, err := strconv.Atoi(string(num))
		if err != nil {
			return
		}
		for i := range ports {
			if ports[i].p.Private != n {
				continue
			}
			if ports[i].typ = protocol(proto); ports[i].typ == "" {
				ports[i].typ = "tcp"
			}
		}
	})
	if ok {
		return
	}
	types := portTypes(raw)
	for i := range ports {
		if t := types[ports[i].p.Private]; t != "" {
			ports[i].typ = t
		} else {
			ports[i].typ = "tcp"
		}
	}
}

// protocol is a port's protocol as a string (the usual ones without a copy).
func protocol(s []byte) string {
	switch string(s) {
	case "http":
		return "http"
	case "tcp":
		return "tcp"
	case "udp":
		return "udp"
	}
	return string(s)
}
