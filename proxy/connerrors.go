package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// MaxHeaderBytes is the public server's http.Server.MaxHeaderBytes: a request
// whose request line and headers exceed it (net/http allows 4 KiB of slack)
// is refused with 431 before any handler runs, so no upstream call is made.
const MaxHeaderBytes = 64 << 10

// Some requests are refused by net/http itself, before any handler runs:
// a malformed request line or URI, a malformed header line, headers over
// MaxHeaderBytes, an unsupported Transfer-Encoding or HTTP version. net/http
// answers those by writing a canned plain-text response straight to the
// connection, in one Write (see conn.serve in net/http/server.go):
//
//	"HTTP/1.1 " + status + cannedHeaders + status           (400, 431)
//	"HTTP/1.1 " + status + ": " + detail + cannedHeaders + status + ": " + detail  (statusError: 400, 505)
//	"HTTP/1.1 501 Not Implemented" + cannedHeaders + "Unsupported transfer encoding"
//	httpsCanned (a plain-HTTP request to a TLS listener, on the raw conn)
//
// JSONErrorListener's conns recognise exactly those writes and answer the
// gateway's v1 error shape instead: {"message": "..."} naming the problem.
// A handler's answer cannot take that form: net/http writes a handler's
// Date, Content-Length, Content-Type and Connection headers in that order
// (Date unless the handler removes it), and a canned write must also end
// with exactly its status line as the body and nothing after it.
const (
	cannedHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"
	httpsCanned   = "HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n"
	cannedTE      = "Unsupported transfer encoding"
	// maxCannedStatus bounds the search for the end of a canned status
	// line (net/http's details are short constants).
	maxCannedStatus = 128
)

// headSniffBytes is how much of a connection's first request a conn keeps,
// so that a 400 net/http gives without a detail can say what was wrong
// (the request line or which header line). Only the first request of a
// connection is kept: later requests of a keep-alive connection cannot be
// located in the byte stream reliably, and get a general message.
const headSniffBytes = 1024

// JSONErrorListener wraps the gateway's public listener so that the
// requests net/http refuses itself are answered {"message": "..."} like
// every other v1 error. maxHeaderBytes is the server's MaxHeaderBytes (0:
// http.DefaultMaxHeaderBytes), quoted in the 431 message. Every other write
// passes through unchanged, without allocating.
func JSONErrorListener(l net.Listener, maxHeaderBytes int) net.Listener {
	if maxHeaderBytes <= 0 {
		maxHeaderBytes = http.DefaultMaxHeaderBytes
	}
	return &jsonErrorListener{Listener: l, maxHeaderBytes: maxHeaderBytes}
}

type jsonErrorListener struct {
	net.Listener
	maxHeaderBytes int
}

func (l *jsonErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &jsonErrorConn{Conn: c, maxHeaderBytes: l.maxHeaderBytes}, nil
}

// jsonErrorConn is safe for concurrent use, as net.Conn requires: the
// sniffed head is guarded by mu; the fast paths only load atomics.
type jsonErrorConn struct {
	net.Conn
	maxHeaderBytes int

	sniffDone atomic.Bool // no more copying: head full, or something was written
	wrote     atomic.Bool // something was written: head no longer describes the request net/http is reading
	mu        sync.Mutex
	n         int
	head      [headSniffBytes]byte
}

func (c *jsonErrorConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && !c.sniffDone.Load() {
		c.mu.Lock()
		if !c.wrote.Load() {
			c.n += copy(c.head[c.n:], p[:n])
			if c.n == len(c.head) {
				c.sniffDone.Store(true)
			}
		}
		c.mu.Unlock()
	}
	return n, err
}

func (c *jsonErrorConn) markWrote() {
	c.mu.Lock()
	c.wrote.Store(true)
	c.sniffDone.Store(true)
	c.mu.Unlock()
}

func (c *jsonErrorConn) Write(p []byte) (int, error) {
	if !c.wrote.Load() {
		defer c.markWrote()
	}
	ce, ok := parseCanned(p)
	if !ok {
		return c.Conn.Write(p)
	}
	var head []byte
	if ce.code == http.StatusBadRequest && ce.detail == "" {
		c.mu.Lock()
		if !c.wrote.Load() {
			head = append([]byte(nil), c.head[:c.n]...)
		}
		c.mu.Unlock()
	}
	out := jsonErrorResponse(ce.proto, ce.code, cannedMessage(ce, head, c.maxHeaderBytes))
	if _, err := c.Conn.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite lets net/http half-close the connection after a 431 (it waits
// for the client to read the answer before closing).
func (c *jsonErrorConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// ReadFrom keeps sendfile/splice for bodies net/http copies with
// io.ReaderFrom; it is only used after a handler's headers are written.
func (c *jsonErrorConn) ReadFrom(r io.Reader) (int64, error) {
	if !c.wrote.Load() {
		c.markWrote()
	}
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}

// cannedError is one of net/http's canned answers, parsed.
type cannedError struct {
	proto  string // "HTTP/1.1", or "HTTP/1.0" for httpsCanned
	code   int
	detail string // net/http's detail text, "" if none
}

// parseCanned reports whether p is exactly one of net/http's canned error
// writes. Normal writes return after a few byte comparisons, without
// allocating.
func parseCanned(p []byte) (cannedError, bool) {
	const prefix = "HTTP/1.1 "
	if len(p) < len(prefix)+len(cannedHeaders) || p[0] != 'H' {
		return cannedError{}, false
	}
	if string(p) == httpsCanned {
		return cannedError{proto: "HTTP/1.0", code: http.StatusBadRequest, detail: "client sent an HTTP request to an HTTPS server"}, true
	}
	if string(p[:len(prefix)]) != prefix {
		return cannedError{}, false
	}
	rest := p[len(prefix):]
	i := bytes.IndexByte(rest[:min(len(rest), maxCannedStatus)], '\r')
	if i < 0 || !bytes.HasPrefix(rest[i:], []byte(cannedHeaders)) {
		return cannedError{}, false
	}
	status, body := rest[:i], rest[i+len(cannedHeaders):]
	// status is "ddd Reason" or "ddd Reason: detail".
	if len(status) < 5 || status[3] != ' ' {
		return cannedError{}, false
	}
	code, err := strconv.Atoi(string(status[:3]))
	if err != nil || code < 100 {
		return cannedError{}, false
	}
	reason := http.StatusText(code)
	after, ok := bytes.CutPrefix(status[4:], []byte(reason))
	if !ok || reason == "" {
		return cannedError{}, false
	}
	ce := cannedError{proto: "HTTP/1.1", code: code}
	switch {
	case len(after) == 0:
	case bytes.HasPrefix(after, []byte(": ")) && len(after) > 2:
		ce.detail = string(after[2:])
	default:
		return cannedError{}, false
	}
	switch {
	case bytes.Equal(body, status):
	case code == http.StatusNotImplemented && ce.detail == "" && string(body) == cannedTE:
		ce.detail = "unsupported transfer encoding"
	default:
		return cannedError{}, false
	}
	return ce, true
}

// jsonErrorResponse is the whole answer that replaces a canned one.
func jsonErrorResponse(proto string, code int, msg string) []byte {
	body, _ := json.Marshal(struct {
		Message string `json:"message"`
	}{msg})
	body = append(body, '\n')
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %d %s\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\nX-Content-Type-Options: nosniff\r\n\r\n",
		proto, code, http.StatusText(code), len(body))
	b.Write(body)
	return b.Bytes()
}

// Messages for the canned answers.
const (
	msgMalformedRequest = "bad request: malformed request line or header section " +
		"(e.g. an invalid percent-escape or a control character in the URI, or a header line without a colon)"
	msgMalformedHeaders = "bad request: malformed header section " +
		"(a header line without a colon, an invalid header name, a control character in a value, " +
		"more than one Host header, or an invalid Content-Length)"
)

// cannedMessage names the problem of a canned answer. head is the start of
// the connection's first request when that is the request refused (nil
// otherwise); it lets a 400 without a detail say what was wrong.
func cannedMessage(ce cannedError, head []byte, maxHeaderBytes int) string {
	switch ce.code {
	case http.StatusBadRequest:
		if ce.detail != "" {
			return "bad request: " + ce.detail
		}
		if head != nil {
			if msg := diagnoseHead(head); msg != "" {
				return msg
			}
		}
		return msgMalformedRequest
	case http.StatusRequestHeaderFieldsTooLarge:
		return fmt.Sprintf("request headers too large: the limit is %d bytes for the request line and headers together", maxHeaderBytes)
	case http.StatusNotImplemented:
		return "not implemented: " + ce.detail + " (only Transfer-Encoding: chunked is supported)"
	case http.StatusHTTPVersionNotSupported:
		return "HTTP version not supported: " + ce.detail + " (use HTTP/1.1)"
	}
	msg := strings.ToLower(http.StatusText(ce.code))
	if ce.detail != "" {
		msg += ": " + ce.detail
	}
	return msg
}

// diagnoseHead replays net/http's parsing of a request head (request line,
// then header lines, in net/http's order and with its rules) and names the
// first problem found. It returns "" when head does not show one (for
// instance when the problem lies beyond the bytes kept).
func diagnoseHead(head []byte) string {
	line, rest, ok := bytes.Cut(head, []byte("\n"))
	if !ok {
		return ""
	}
	line = bytes.TrimSuffix(line, []byte("\r"))
	method, after, ok1 := bytes.Cut(line, []byte(" "))
	uri, proto, ok2 := bytes.Cut(after, []byte(" "))
	if !ok1 || !ok2 {
		return "bad request: malformed request line (want METHOD /path HTTP/1.1, with spaces in the path escaped as %20)"
	}
	if !isToken(method) {
		return "bad request: malformed request line: invalid method"
	}
	if _, _, ok := http.ParseHTTPVersion(string(proto)); !ok {
		return "bad request: malformed request line: the version is not HTTP/1.x (spaces in the path must be escaped as %20)"
	}
	if msg := checkRequestURI(string(method), string(uri)); msg != "" {
		return msg
	}

	// The header section: net/textproto's readMIMEHeader, then
	// net/http's checks on Host and Content-Length.
	var (
		first   = true
		name    string
		hosts   int
		lengths []string
	)
	for {
		line, rest, ok = bytes.Cut(rest, []byte("\n"))
		if !ok {
			return msgMalformedHeaders // the problem lies beyond the bytes kept
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			if first {
				return "bad request: malformed header line: the first header line begins with whitespace"
			}
			// A continuation (obsolete line folding) of name's value.
			if !validHeaderValue(line) {
				return ctlInHeader(name)
			}
			continue
		}
		first = false
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return "bad request: malformed header line: no colon (want Name: value)"
		}
		if !isHeaderKey(k) {
			return "bad request: malformed header line: invalid header name"
		}
		name = textproto.CanonicalMIMEHeaderKey(string(k))
		if !validHeaderValue(v) {
			return ctlInHeader(name)
		}
		switch name {
		case "Host":
			hosts++
		case "Content-Length":
			lengths = append(lengths, string(bytes.TrimSpace(v)))
		}
	}
	if hosts > 1 {
		return "bad request: more than one Host header"
	}
	for _, l := range lengths {
		if l != lengths[0] {
			return "bad request: more than one Content-Length header, with different values"
		}
		if _, err := strconv.ParseUint(l, 10, 63); err != nil {
			return "bad request: invalid Content-Length header (want a non-negative integer)"
		}
	}
	return ""
}

// checkRequestURI is net/http's check of the request target.
func checkRequestURI(method, uri string) string {
	raw := uri
	if method == "CONNECT" && !strings.HasPrefix(raw, "/") {
		raw = "http://" + raw
	}
	_, err := url.ParseRequestURI(raw)
	if err == nil {
		return ""
	}
	for i := 0; i < len(uri); i++ {
		if c := uri[i]; c < 0x20 || c == 0x7f {
			return fmt.Sprintf("bad request: malformed request URI: control character 0x%02x (control bytes must be percent-encoded)", c)
		}
	}
	var esc url.EscapeError
	if errors.As(err, &esc) {
		return fmt.Sprintf("bad request: malformed request URI: invalid percent-escape %q (%% must be followed by two hex digits)", string(esc))
	}
	return "bad request: malformed request URI"
}

func ctlInHeader(name string) string {
	return fmt.Sprintf("bad request: malformed header line: control character in the value of %q (a bare CR or other control byte cannot be sent in a header value)", name)
}

// isToken reports whether b is an RFC 9110 token (a method).
func isToken(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !isTchar(c) {
			return false
		}
	}
	return true
}

// isHeaderKey is net/textproto's rule: token bytes, and spaces (which
// net/http then refuses with a detail of its own).
func isHeaderKey(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !isTchar(c) && c != ' ' {
			return false
		}
	}
	return true
}

func isTchar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// validHeaderValue is net/textproto's rule: no control bytes but HTAB.
func validHeaderValue(v []byte) bool {
	for _, c := range v {
		if (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
