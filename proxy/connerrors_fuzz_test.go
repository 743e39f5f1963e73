package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// FuzzJSONErrorConn: whatever the client sent (the sniffed head) and
// whatever is written, a write that is not one of net/http's canned errors
// passes through byte for byte, and a canned one becomes a well-formed
// HTTP answer with the same status and a JSON {"message"} body. Never a
// panic.
func FuzzJSONErrorConn(f *testing.F) {
	heads := []string{
		"GET /v1/pods/%zz HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /v1/pods/a\x01b HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /v1/pods HTTP/1.1\r\nAuthorization: Bearer k\rX: 1\r\n\r\n",
		"GET /v1/pods HTTP/1.1\r\nGarbage\r\n\r\n",
		"",
	}
	writes := []string{
		"HTTP/1.1 400 Bad Request" + cannedHdr + "400 Bad Request",
		"HTTP/1.1 400 Bad Request: missing required Host header" + cannedHdr + "400 Bad Request: missing required Host header",
		"HTTP/1.1 431 Request Header Fields Too Large" + cannedHdr + "431 Request Header Fields Too Large",
		"HTTP/1.1 501 Not Implemented" + cannedHdr + "Unsupported transfer encoding",
		"HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
		"HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n400 Bad Request",
	}
	for _, h := range heads {
		for _, w := range writes {
			f.Add([]byte(h), []byte(w))
		}
	}
	f.Fuzz(func(t *testing.T, head, write []byte) {
		c, fc := newJSONErrorConn(string(head))
		_, _ = io.Copy(io.Discard, c) // the server reads the request first
		n, err := c.Write(write)
		if err != nil || n != len(write) {
			t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(write))
		}
		out := fc.out.Bytes()
		ce, canned := parseCanned(write)
		if !canned {
			if !bytes.Equal(out, write) {
				t.Fatalf("a normal write was changed:\n%q\n->\n%q", write, out)
			}
			return
		}
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(out)), nil)
		if err != nil {
			t.Fatalf("rewritten answer is not HTTP: %v\n%q", err, out)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("body: %v", err)
		}
		var e struct {
			Message string `json:"message"`
		}
		if resp.StatusCode != ce.code || resp.Header.Get("Content-Type") != "application/json" ||
			json.Unmarshal(body, &e) != nil || e.Message == "" {
			t.Fatalf("rewritten answer: status %d (want %d), type %q, body %q", resp.StatusCode, ce.code, resp.Header.Get("Content-Type"), body)
		}
	})
}
