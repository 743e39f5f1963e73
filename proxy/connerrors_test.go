package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeConn records what is written to it and serves reads from in.
type fakeConn struct {
	net.Conn // nil: only Read and Write are used
	in       io.Reader
	mu       sync.Mutex
	out      bytes.Buffer
	writes   int
}

func (f *fakeConn) Read(p []byte) (int, error) { return f.in.Read(p) }
func (f *fakeConn) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes++
	return f.out.Write(p)
}

func newJSONErrorConn(in string) (*jsonErrorConn, *fakeConn) {
	f := &fakeConn{in: strings.NewReader(in)}
	return &jsonErrorConn{Conn: f, maxHeaderBytes: MaxHeaderBytes}, f
}

const cannedHdr = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

func TestJSONErrorConnRewrite(t *testing.T) {
	tests := []struct {
		name    string
		write   string
		status  string // status line of the JSON answer; "" = passed through untouched
		message string // exact message
	}{
		{name: "400 without detail", write: "HTTP/1.1 400 Bad Request" + cannedHdr + "400 Bad Request",
			status: "HTTP/1.1 400 Bad Request", message: msgMalformedRequest},
		{name: "400 with detail", write: "HTTP/1.1 400 Bad Request: missing required Host header" + cannedHdr + "400 Bad Request: missing required Host header",
			status: "HTTP/1.1 400 Bad Request", message: "bad request: missing required Host header"},
		{name: "400 detail to escape", write: "HTTP/1.1 400 Bad Request: a \"quoted\" <b>\\ detail" + cannedHdr + "400 Bad Request: a \"quoted\" <b>\\ detail",
			status: "HTTP/1.1 400 Bad Request", message: "bad request: a \"quoted\" <b>\\ detail"},
		{name: "431", write: "HTTP/1.1 431 Request Header Fields Too Large" + cannedHdr + "431 Request Header Fields Too Large",
			status: "HTTP/1.1 431 Request Header Fields Too Large", message: "request headers too large: the limit is 65536 bytes for the request line and headers together"},
		{name: "501 transfer encoding", write: "HTTP/1.1 501 Not Implemented" + cannedHdr + "Unsupported transfer encoding",
			status: "HTTP/1.1 501 Not Implemented", message: "not implemented: unsupported transfer encoding (only Transfer-Encoding: chunked is supported)"},
		{name: "505", write: "HTTP/1.1 505 HTTP Version Not Supported: unsupported protocol version" + cannedHdr + "505 HTTP Version Not Supported: unsupported protocol version",
			status: "HTTP/1.1 505 HTTP Version Not Supported", message: "HTTP version not supported: unsupported protocol version (use HTTP/1.1)"},
		{name: "plain HTTP to a TLS listener", write: "HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n",
			status: "HTTP/1.0 400 Bad Request", message: "bad request: client sent an HTTP request to an HTTPS server"},

		// Normal answers pass through byte for byte.
		{name: "normal 200", write: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nDate: Sun, 22 Nov 2026 07:55:36 GMT\r\nContent-Length: 2\r\n\r\n[]"},
		{name: "normal 400 begins HTTP/1.1 4", write: "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nDate: Sun, 22 Nov 2026 07:55:36 GMT\r\nContent-Length: 24\r\n\r\n{\"message\":\"bad input\"}\n"},
		{name: "normal 431 from a handler", write: "HTTP/1.1 431 Request Header Fields Too Large\r\nDate: Sun, 22 Nov 2026 07:55:36 GMT\r\nContent-Length: 0\r\n\r\n"},
		{name: "canned headers, other body", write: "HTTP/1.1 400 Bad Request" + cannedHdr + "something else"},
		{name: "canned, then more bytes", write: "HTTP/1.1 400 Bad Request" + cannedHdr + "400 Bad Request and more"},
		{name: "canned headers, wrong reason", write: "HTTP/1.1 400 Nope" + cannedHdr + "400 Nope"},
		{name: "501 body on a 400", write: "HTTP/1.1 400 Bad Request" + cannedHdr + "Unsupported transfer encoding"},
		{name: "status line only", write: "HTTP/1.1 400 Bad Request\r\n"},
		{name: "a body write", write: `{"message":"HTTP/1.1 400 Bad Request"}`},
		{name: "a body write beginning HTTP/1.1", write: "HTTP/1.1 400 Bad Request" + cannedHdr[:20]},
		{name: "empty", write: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, f := newJSONErrorConn("")
			n, err := c.Write([]byte(tc.write))
			if err != nil || n != len(tc.write) {
				t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(tc.write))
			}
			if f.writes != 1 && tc.write != "" {
				t.Fatalf("%d writes to the conn, want 1", f.writes)
			}
			got := f.out.String()
			if tc.status == "" {
				if got != tc.write {
					t.Fatalf("changed:\n got %q\nwant %q", got, tc.write)
				}
				return
			}
			resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(got)), nil)
			if err != nil {
				t.Fatalf("not an HTTP answer: %v\n%q", err, got)
			}
			if line, _, _ := strings.Cut(got, "\r\n"); line != tc.status {
				t.Errorf("status line %q, want %q", line, tc.status)
			}
			if !strings.HasPrefix(got, tc.status+"\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ") {
				t.Errorf("headers: %q", got)
			}
			if resp.Header.Get("Date") != "" {
				t.Errorf("a Date header: %q", got)
			}
			body, _ := io.ReadAll(resp.Body)
			if int64(len(body)) != resp.ContentLength {
				t.Errorf("Content-Length %d, body %d bytes", resp.ContentLength, len(body))
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil || len(m) != 1 {
				t.Fatalf("body not {\"message\"}: %q (%v)", body, err)
			}
			if m["message"] != tc.message {
				t.Errorf("message\n got %q\nwant %q", m["message"], tc.message)
			}
		})
	}
}

func TestDiagnoseHead(t *testing.T) {
	const h = "Host: x\r\nAuthorization: Bearer k1\r\n"
	tests := []struct {
		name, head, want string
	}{
		{"bad escape", "GET /v1/pods/%zz HTTP/1.1\r\n" + h + "\r\n",
			`bad request: malformed request URI: invalid percent-escape "%zz" (% must be followed by two hex digits)`},
		{"short escape", "GET /v1/pods/%z HTTP/1.1\r\n" + h + "\r\n",
			`bad request: malformed request URI: invalid percent-escape "%z" (% must be followed by two hex digits)`},
		{"raw control byte", "GET /v1/pods/a\x01b HTTP/1.1\r\n" + h + "\r\n",
			"bad request: malformed request URI: control character 0x01 (control bytes must be percent-encoded)"},
		{"raw DEL", "GET /v1/pods/a\x7fb HTTP/1.1\r\n" + h + "\r\n",
			"bad request: malformed request URI: control character 0x7f (control bytes must be percent-encoded)"},
		{"bare CR in the request line", "GET /v1/pods\rX HTTP/1.1\r\n" + h + "\r\n",
			"bad request: malformed request URI: control character 0x0d (control bytes must be percent-encoded)"},
		{"not absolute", "GET v1/pods HTTP/1.1\r\n" + h + "\r\n", "bad request: malformed request URI"},
		{"no version", "GET /v1/pods\r\n" + h + "\r\n",
			"bad request: malformed request line (want METHOD /path HTTP/1.1, with spaces in the path escaped as %20)"},
		{"space in the path", "GET /v1/a b HTTP/1.1\r\n" + h + "\r\n",
			"bad request: malformed request line: the version is not HTTP/1.x (spaces in the path must be escaped as %20)"},
		{"bad method", "G(T /v1/pods HTTP/1.1\r\n" + h + "\r\n", "bad request: malformed request line: invalid method"},
		{"empty line first", "\r\nGET /v1/pods HTTP/1.1\r\n" + h + "\r\n",
			"bad request: malformed request line (want METHOD /path HTTP/1.1, with spaces in the path escaped as %20)"},
		{"CR in a header value", "GET /v1/pods HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k1\rX-Evil: 1\r\n\r\n",
			`bad request: malformed header line: control character in the value of "Authorization" (a bare CR or other control byte cannot be sent in a header value)`},
		{"control byte in a folded value", "GET /v1/pods HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n \x00\r\n\r\n",
			`bad request: malformed header line: control character in the value of "X-A" (a bare CR or other control byte cannot be sent in a header value)`},
		{"no colon", "GET /v1/pods HTTP/1.1\r\n" + h + "Garbage\r\n\r\n",
			"bad request: malformed header line: no colon (want Name: value)"},
		{"bad header name", "GET /v1/pods HTTP/1.1\r\n" + h + "X\x01Y: 1\r\n\r\n",
			"bad request: malformed header line: invalid header name"},
		{"empty header name", "GET /v1/pods HTTP/1.1\r\n" + h + ": 1\r\n\r\n",
			"bad request: malformed header line: invalid header name"},
		{"leading whitespace", "GET /v1/pods HTTP/1.1\r\n Host: x\r\n\r\n",
			"bad request: malformed header line: the first header line begins with whitespace"},
		{"two Host headers", "GET /v1/pods HTTP/1.1\r\n" + h + "Host: y\r\n\r\n", "bad request: more than one Host header"},
		{"bad Content-Length", "POST /v1/pods HTTP/1.1\r\n" + h + "Content-Length: -1\r\n\r\n",
			"bad request: invalid Content-Length header (want a non-negative integer)"},
		{"empty Content-Length", "POST /v1/pods HTTP/1.1\r\n" + h + "Content-Length: \r\n\r\n",
			"bad request: invalid Content-Length header (want a non-negative integer)"},
		{"two Content-Lengths", "POST /v1/pods HTTP/1.1\r\n" + h + "Content-Length: 1\r\nContent-Length: 2\r\n\r\n",
			"bad request: more than one Content-Length header, with different values"},
		{"headers cut off", "GET /v1/pods HTTP/1.1\r\n" + h + "X-Long: aaaa", msgMalformedHeaders},
		{"request line cut off", "GET /v1/pods/aaaa", ""},
		{"nothing found", "GET /v1/pods HTTP/1.1\r\n" + h + "\r\n", ""},
		{"CONNECT authority", "CONNECT example.com:443 HTTP/1.1\r\n" + h + "\r\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := diagnoseHead([]byte(tc.head)); got != tc.want {
				t.Errorf("\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestJSONErrorConnSniffsFirstRequestOnly: the head kept describes the
// first request; once anything was written, a later 400 gets the general
// message rather than a guess.
func TestJSONErrorConnSniffsFirstRequestOnly(t *testing.T) {
	const plain400 = "HTTP/1.1 400 Bad Request" + cannedHdr + "400 Bad Request"
	message := func(f *fakeConn) string {
		resp, err := http.ReadResponse(bufio.NewReader(&f.out), nil)
		if err != nil {
			t.Fatal(err)
		}
		var m struct{ Message string }
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return m.Message
	}

	c, f := newJSONErrorConn("GET /v1/pods/%zz HTTP/1.1\r\nHost: x\r\n\r\n")
	buf := make([]byte, 7) // several small reads
	for {
		if _, err := c.Read(buf); err != nil {
			break
		}
	}
	_, _ = c.Write([]byte(plain400))
	if got := message(f); !strings.Contains(got, `invalid percent-escape "%zz"`) {
		t.Errorf("first request: %q", got)
	}

	c, f = newJSONErrorConn("GET /v1/pods HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/pods/%zz HTTP/1.1\r\nHost: x\r\n\r\n")
	_, _ = c.Read(make([]byte, 4096))
	_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nDate: x\r\nContent-Length: 0\r\n\r\n"))
	f.out.Reset()
	_, _ = c.Write([]byte(plain400))
	if got := message(f); got != msgMalformedRequest {
		t.Errorf("second request: %q", got)
	}

	// A first request longer than what is kept: the request line is
	// still read, the problem beyond it is named in general.
	c, f = newJSONErrorConn("GET /v1/pods HTTP/1.1\r\nHost: x\r\nX-Long: " + strings.Repeat("a", 2*headSniffBytes) + "\r\nGarbage\r\n\r\n")
	_, _ = c.Read(make([]byte, 4096))
	_, _ = c.Write([]byte(plain400))
	if got := message(f); got != msgMalformedHeaders {
		t.Errorf("long first request: %q", got)
	}
}

func TestJSONErrorConnNormalWriteDoesNotAllocate(t *testing.T) {
	c, _ := newJSONErrorConn("")
	c.wrote.Store(true)
	c.sniffDone.Store(true)
	c.Conn = discardConn{}
	head := []byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nDate: Sun, 22 Nov 2026 07:55:36 GMT\r\nContent-Length: 2\r\n\r\n[]")
	err400 := []byte("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nDate: Sun, 22 Nov 2026 07:55:36 GMT\r\n\r\nno")
	body := []byte(strings.Repeat("x", 4096))
	rd := make([]byte, 512)
	if n := testing.AllocsPerRun(100, func() {
		_, _ = c.Write(head)
		_, _ = c.Write(err400)
		_, _ = c.Write(body)
		_, _ = c.Read(rd)
	}); n != 0 {
		t.Fatalf("%v allocations per normal write", n)
	}
}

type discardConn struct{ net.Conn }

func (discardConn) Write(p []byte) (int, error) { return len(p), nil }
func (discardConn) Read(p []byte) (int, error)  { return len(p), nil }

// TestJSONErrorListenerServer runs net/http on the wrapped listener: each
// request net/http refuses gets a JSON answer; a normal request, on the same
// kind of connection, is answered as usual, also when kept alive.
func TestJSONErrorListenerServer(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"message":"from the handler"}`)
	}))
	srv.Listener = JSONErrorListener(srv.Listener, MaxHeaderBytes)
	srv.Config.MaxHeaderBytes = MaxHeaderBytes
	srv.Start()
	defer srv.Close()
	addr := srv.Listener.Addr().String()

	tests := []struct {
		name    string
		request string
		status  int
		want    string // substring of the message
	}{
		{"handler", "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n", 400, "from the handler"},
		{"bad escape", "GET /v1/pods/%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, `invalid percent-escape "%zz"`},
		{"control byte", "GET /v1/pods/a\x01b HTTP/1.1\r\nHost: x\r\n\r\n", 400, "control character 0x01"},
		{"CR in a header value", "GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\rX-Evil: 1\r\n\r\n", 400, `control character in the value of "Authorization"`},
		{"no colon", "GET / HTTP/1.1\r\nHost: x\r\nGarbage\r\n\r\n", 400, "no colon"},
		{"no Host", "GET / HTTP/1.1\r\n\r\n", 400, "bad request: missing required Host header"},
		{"space in a header name", "GET / HTTP/1.1\r\nHost: x\r\nX Y: 1\r\n\r\n", 400, "bad request: invalid header name"},
		{"two Host headers", "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400, "more than one Host header"},
		{"bad Content-Length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n", 400, "invalid Content-Length"},
		{"huge header", "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("b", MaxHeaderBytes+8192) + "\r\n\r\n", 431, "the limit is 65536 bytes"},
		{"transfer encoding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "unsupported transfer encoding"},
		{"HTTP/2.0 on HTTP/1", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505, "unsupported protocol version"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(10 * time.Second))
			go func() { _, _ = io.WriteString(c, tc.request) }()
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			var m struct{ Message string }
			if err := json.Unmarshal(body, &m); err != nil || !strings.Contains(m.Message, tc.want) {
				t.Errorf("message %q (%v) does not say %q", body, err, tc.want)
			}
		})
	}

	// Keep-alive: a good request, then a bad one on the same connection.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	_, _ = io.WriteString(c, "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.Header.Get("Date") == "" {
		t.Error("the handler's answer lost its Date")
	}
	_, _ = io.WriteString(c, "GET /v1/pods/%zz HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err = http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "malformed request line or header section") {
		t.Errorf("second request on the connection: %d %s", resp.StatusCode, body)
	}
}

// TestJSONErrorConnConcurrent: net.Conn allows Read and Write at the same
// time (net/http's background read runs while a handler writes); run under
// -race.
func TestJSONErrorConnConcurrent(t *testing.T) {
	c := &jsonErrorConn{Conn: discardConn{}, maxHeaderBytes: MaxHeaderBytes}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			b := make([]byte, 100)
			for j := 0; j < 50; j++ {
				_, _ = c.Read(b)
			}
		}()
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				_, _ = c.Write([]byte("HTTP/1.1 400 Bad Request" + cannedHdr + "400 Bad Request"))
				_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nDate: x\r\n\r\n"))
			}
		}()
	}
	wg.Wait()
}
