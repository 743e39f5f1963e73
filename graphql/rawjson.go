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

// plainStrings reads raw, a JSON array of strings (open '[') or an object
// whose members are strings (open '{'), calling each with every string in
// order: for an object, its key (even i) then its value (odd i). It takes
// the plain form only: strings without escapes or control characters, in
// valid UTF-8, so that each one's bytes are its value and are written as
// they are. It reports false for anything else; each may have been called
// by then.
func plainStrings(raw []byte, open byte, each func(i int, s []byte)) bool {
	close := byte(']')
	if open == '{' {
		close = '}'
	}
	p := skipSpace(raw, 0)
	if p >= len(raw) || raw[p] != open {
		return false
	}
	p = skipSpace(raw, p+1)
	if p < len(raw) && raw[p] == close {
		return skipSpace(raw, p+1) == len(raw)
	}
	for i := 0; ; i++ {
		if p >= len(raw) || raw[p] != '"' {
			return false
		}
		n, ok := plainString(raw[p+1:])
		if !ok {
			return false
		}
		end := p + 1 + n
		each(i, raw[p+1:end])
		p = skipSpace(raw, end+1)
		if p >= len(raw) {
			return false
		}
		want := byte(',')
		if open == '{' && i%2 == 0 {
			want = ':'
		}
		switch {
		case raw[p] == want:
			p = skipSpace(raw, p+1)
		case raw[p] == close && (open == '[' || i%2 == 1):
			return skipSpace(raw, p+1) == len(raw)
		default:
			return false
		}
	}
}

// plainString is the length of the plain JSON string that s begins with
// (after its opening quote, up to its closing one): its bytes are its value
// as it stands — no escape, no control character, valid UTF-8. ok is false
// for a string that is not plain, or not closed.
func plainString(s []byte) (n int, ok bool) {
	i := 0
	for i < len(s) && plainASCII[s[i]] {
		i++
	}
	if i < len(s) && s[i] == '"' {
		return i, true
	}
	// Beyond ASCII: plain if valid UTF-8 up to the quote.
	for j := i; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return j, utf8.Valid(s[i:j])
		case c < 0x20 || c == '\\':
			return 0, false
		}
	}
	return 0, false
}

// plainASCII marks the bytes a plain JSON string holds as they are, in
// ASCII: all but control characters, the quote and the backslash.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func skipSpace(b []byte, p int) int {
	for p < len(b) && (b[p] == ' ' || b[p] == '\t' || b[p] == '\n' || b[p] == '\r') {
		p++
	}
	return p
}

// podEnv is a v2 pod's env object as GraphQL's ["KEY=value", ...], in the
// object's order.
type podEnv json.RawMessage

func (e *podEnv) appendJSON(b []byte) []byte {
	start := len(b)
	b = append(b, '[')
	ok := plainStrings(*e, '{', func(i int, s []byte) {
		if i%2 == 0 {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, s...)
			b = append(b, '=')
			return
		}
		b = append(b, s...)
		b = append(b, '"')
	})
	if !ok {
		b = b[:start+1]
		for i, s := range envStrings(json.RawMessage(*e)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, s)
		}
	}
	return append(b, ']')
}

// podPorts is a v2 pod's ports list as GraphQL's "8888/http,22/tcp".
type podPorts json.RawMessage

func (p *podPorts) appendJSON(b []byte) []byte {
	start := len(b)
	b = append(b, '"')
	ok := plainStrings(*p, '[', func(i int, s []byte) {
		if i > 0 {
			b = append(b, ',')
		}
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
	ok := plainStrings(raw, '[', func(_ int, s []byte) {
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
