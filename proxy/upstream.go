package proxy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"
)

// UpstreamOptions tunes the connection pool to the v2 service.
type UpstreamOptions struct {
	DialTimeout           time.Duration // TCP connect; default 5s
	TLSHandshakeTimeout   time.Duration // default 5s
	ResponseHeaderTimeout time.Duration // time to the first response byte; default 30s
	MaxIdleConnsPerHost   int           // default 256
	MaxConnsPerHost       int           // 0: unlimited; requests past it wait for a connection
}

// NewTransport returns the http.Transport used for every upstream call:
// keep-alive connections, a pool sized for a busy gateway talking to one
// host, and connect/TLS/header timeouts so that a dead upstream fails fast.
func NewTransport(o UpstreamOptions) *http.Transport {
	if o.DialTimeout <= 0 {
		o.DialTimeout = 5 * time.Second
	}
	if o.TLSHandshakeTimeout <= 0 {
		o.TLSHandshakeTimeout = 5 * time.Second
	}
	if o.ResponseHeaderTimeout <= 0 {
		o.ResponseHeaderTimeout = 30 * time.Second
	}
	if o.MaxIdleConnsPerHost <= 0 {
		o.MaxIdleConnsPerHost = 256
	}
	d := &net.Dialer{Timeout: o.DialTimeout, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          o.MaxIdleConnsPerHost * 2,
		MaxIdleConnsPerHost:   o.MaxIdleConnsPerHost,
		MaxConnsPerHost:       o.MaxConnsPerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   o.TLSHandshakeTimeout,
		ResponseHeaderTimeout: o.ResponseHeaderTimeout,
		ExpectContinueTimeout: time.Second,
	}
}

// Upstream makes the v2 calls of translated v1 operations.
type Upstream struct {
	base       *url.URL
	baseString string   // base without path, query or fragment
	host       string   // the Host of every request (the base's, empty port removed)
	userAgent  []string // User-Agent of every call
	client     *http.Client
	// MaxBody bounds how much of a v2 answer is read (default 32 MiB), so
	// that a misbehaving upstream cannot exhaust the gateway's memory.
	MaxBody int64
}

// NewUpstream returns a client for the v2 service at base (scheme and host,
// no /v2), using rt (nil: a new NewTransport with defaults).
func NewUpstream(base *url.URL, rt http.RoundTripper) *Upstream {
	if rt == nil {
		rt = NewTransport(UpstreamOptions{})
	}
	b := url.URL{Scheme: base.Scheme, User: base.User, Host: base.Host}
	u := &Upstream{base: base, baseString: b.String(), userAgent: []string{"v1gateway/" + Version},
		client: &http.Client{Transport: rt, CheckRedirect: noRedirects}, MaxBody: 32 << 20}
	// The Host of every request, as http.NewRequest sets it from the base.
	if r, err := http.NewRequest(http.MethodGet, u.baseString, nil); err == nil {
		u.host = r.Host
	} else {
		u.host = base.Host
	}
	return u
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Call is one v2 request. Path is the escaped v2 path (starting with /v2/);
// callers must escape ids with url.PathEscape.
type Call struct {
	Method string
	Path   string
	Query  url.Values
	Body   []byte // JSON; nil for none
	// Charge, when set, is asked for every n bytes of the answer before
	// more is read; false stops the reading with a BudgetExceededError.
	Charge func(n int64) bool
}

// Response is a fully read v2 answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Header values every upstream call shares (read-only: the transport and
// the tracing layer copy the header map before changing it).
var (
	hdrAcceptJSON      = []string{"application/json"}
	hdrContentTypeJSON = []string{"application/json"}
)

// Do performs c with the caller's bearer token and request id. It returns
// an error only when no HTTP answer was obtained (connection, timeout,
// oversized body, the answer budget full); any HTTP status is a Response.
// open sends one v2 call and returns the answer with its body unread.
func (u *Upstream) open(ctx context.Context, c Call, authorization, requestID string) (*http.Response, error) {
	// A plain path is what url.Parse would give back as it is; any other
	// is parsed (and refused) as before, first.
	var ref *url.URL
	if !plainPath(c.Path) {
		var err error
		if ref, err = url.Parse(c.Path); err != nil {
			return nil, fmt.Errorf("bad upstream path %q: %w", c.Path, err)
		}
	}
	var body io.Reader
	if c.Body != nil {
		body = bytes.NewReader(c.Body)
	}
	// The request is built on an empty URL (nothing to parse) and its URL
	// set from the pre-parsed base: parsing the base (or target.String())
	// for every call would only give the same URL again.
	req, err := http.NewRequestWithContext(ctx, c.Method, "", body)
	if err != nil {
		return nil, err
	}
	target := req.URL
	*target = *u.base
	target.RawPath = ""
	target.Path = ""
	if ref == nil {
		target.Path = c.Path
	} else {
		target.Path = ref.Path
		target.RawPath = ref.RawPath
	}
	if len(c.Query) > 0 {
		target.RawQuery = c.Query.Encode()
	}
	req.Host = u.host
	h := req.Header
	h["Accept"] = hdrAcceptJSON
	if c.Body != nil {
		h["Content-Type"] = hdrContentTypeJSON
	}
	switch {
	case authorization != "" && requestID != "":
		// Both values in one allocation (capped slices: an Add to one
		// cannot reach the other).
		v := make([]string, 2)
		v[0], v[1] = authorization, requestID
		h["Authorization"], h["X-Request-Id"] = v[0:1:1], v[1:2:2]
	case authorization != "":
		h["Authorization"] = []string{authorization}
	case requestID != "":
		h["X-Request-Id"] = []string{requestID}
	}
	h["User-Agent"] = u.userAgent
	return u.client.Do(req)
}

// plainPath reports whether p is an absolute path that url.Parse would
// return unchanged as its Path, with no RawPath, query or fragment: it
// starts with one slash (two would start an authority) and holds only
// slashes and RFC 3986 unreserved characters, which a path never escapes
// (anything else, sub-delimiters included, goes through url.Parse).
func plainPath(p string) bool {
	if len(p) == 0 || p[0] != '/' || len(p) > 1 && p[1] == '/' {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '-' || c == '_' || c == '.' || c == '~' || c == '/':
		default:
			return false
		}
	}
	return true
}

// Do makes one v2 call and reads its answer whole (at most MaxBody bytes).
func (u *Upstream) Do(ctx context.Context, c Call, authorization, requestID string) (*Response, error) {
	resp, err := u.open(ctx, c, authorization, requestID)
	if err != nil {
		return nil, err
	}
	return u.readWhole(resp, c)
}

// readWhole reads and closes resp's body (at most MaxBody bytes).
func (u *Upstream) readWhole(resp *http.Response, c Call) (*Response, error) {
	defer resp.Body.Close()
	b, err := readBody(getBodyBuf(), resp.Body, resp.ContentLength, u.MaxBody, c.Charge)
	if err != nil {
		return nil, err
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: b}, nil
}

// Stream makes one v2 call and, for a 2xx answer, returns it as resp, its
// body unread, to be read through u.limited (which fails with an
// AnswerTooLargeError the moment the answer passes MaxBody, declared or
// not). Any other answer is whole, read as by Do.
func (u *Upstream) Stream(ctx context.Context, c Call, authorization, requestID string) (whole *Response, resp *http.Response, err error) {
	resp, err = u.open(ctx, c, authorization, requestID)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		whole, err = u.readWhole(resp, c)
		return whole, nil, err
	}
	if resp.ContentLength > u.MaxBody {
		resp.Body.Close()
		return nil, nil, &AnswerTooLargeError{Limit: u.MaxBody}
	}
	return nil, resp, nil
}

// limited is the reader of a streamed answer's body rc: at most MaxBody
// bytes.
func (u *Upstream) limited(rc io.ReadCloser) limitedBody {
	return limitedBody{rc: rc, left: u.MaxBody, limit: u.MaxBody}
}

// limitedBody reads at most limit bytes of an answer: one more is an
// AnswerTooLargeError.
type limitedBody struct {
	rc          io.ReadCloser
	left, limit int64
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, &AnswerTooLargeError{Limit: l.limit}
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.rc.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n + int(l.left), &AnswerTooLargeError{Limit: l.limit}
	}
	return n, err
}

func (l *limitedBody) Close() error { return l.rc.Close() }

// Answer bodies come from a pool: a 100-pod list is ~100 KB that every
// GET /v1/pods would otherwise allocate and the garbage collector sweep
// again. A body goes back with releaseBody once nothing refers to it any
// more (the v1 answer is written: see upstreamCaller.release); a body
// never released is simply collected.
var bodyBufs sync.Pool

// maxPooledBody: larger buffers are left to the garbage collector rather
// than kept alive in the pool.
const maxPooledBody = 4 << 20

func getBodyBuf() []byte {
	if p, ok := bodyBufs.Get().(*[]byte); ok {
		return (*p)[:0]
	}
	return nil
}

func releaseBody(b []byte) {
	if cap(b) == 0 || cap(b) > maxPooledBody {
		return
	}
	b = b[:0]
	bodyBufs.Put(&b)
}

// readBody reads a whole answer of at most limit bytes into buf (reused
// from its start; grown as needed, once to the declared length when there
// is one) and still reads to EOF so that the connection goes back to the
// pool.
func readBody(buf []byte, r io.Reader, length, limit int64, charge func(int64) bool) ([]byte, error) {
	if length > limit {
		return nil, &AnswerTooLargeError{Limit: limit}
	}
	// charged: bytes of the answer the budget has granted; read no
	// further than that (a declared length is asked for at once).
	charged := int64(0)
	need := func(upTo int64) error {
		if charge == nil || upTo <= charged {
			return nil
		}
		n := upTo - charged
		if length < 0 {
			n = max(n, 64<<10) // chunked: in steps of 64 KiB
		}
		if !charge(n) {
			return &BudgetExceededError{}
		}
		charged += n
		return nil
	}
	if length >= 0 {
		if err := need(length + 1); err != nil {
			return nil, err
		}
	}
	b := buf[:0]
	if length >= 0 && int64(cap(b)) < length+1 {
		// +1: room for the EOF probe read, so no second grow.
		b = make([]byte, 0, length+1)
	} else if cap(b) == 0 {
		b = make([]byte, 0, 16<<10)
	}
	// At most limit+1 bytes are ever read: the answer itself and the one
	// byte that proves it too long.
	most := limit + 1
	for {
		if len(b) == cap(b) {
			if int64(len(b)) > limit {
				return nil, &AnswerTooLargeError{Limit: limit}
			}
			// Double, but never past limit+1 bytes.
			b = slices.Grow(b, int(min(int64(max(cap(b), 16<<10)), most-int64(len(b)))))
		}
		room := b[len(b):cap(b)]
		if int64(len(room)) > most-int64(len(b)) {
			room = room[:most-int64(len(b))]
		}
		if charge != nil {
			if err := need(int64(len(b)) + 1); err != nil {
				return nil, err
			}
			if int64(len(room)) > charged-int64(len(b)) {
				room = room[:charged-int64(len(b))]
			}
		}
		n, err := r.Read(room)
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, &AnswerTooLargeError{Limit: limit}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if length >= 0 && int64(len(b)) != length {
		if int64(len(b)) > length {
			return nil, fmt.Errorf("upstream answer longer than its Content-Length of %d bytes", length)
		}
		return nil, io.ErrUnexpectedEOF
	}
	return b, nil
}
