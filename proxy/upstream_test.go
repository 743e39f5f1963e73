package proxy

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadBody(t *testing.T) {
	const limit = 64
	full := strings.Repeat("p", 40)
	for _, tt := range []struct {
		name    string
		body    string
		length  int64 // declared Content-Length, -1: none (chunked)
		buf     []byte
		want    string
		tooBig  bool
		wantErr bool
	}{
		{name: "declared length", body: full, length: 40, want: full},
		{name: "declared length, reused small buffer", body: full, length: 40, buf: make([]byte, 3, 8), want: full},
		{name: "declared length, reused large buffer", body: full, length: 40, buf: bytes.Repeat([]byte("z"), 100), want: full},
		{name: "chunked", body: full, length: -1, want: full},
		{name: "chunked, reused buffer", body: full, length: -1, buf: make([]byte, 0, 5), want: full},
		{name: "empty", body: "", length: 0, want: ""},
		{name: "empty chunked", body: "", length: -1, want: ""},
		{name: "exactly the limit", body: strings.Repeat("x", limit), length: -1, want: strings.Repeat("x", limit)},
		{name: "chunked over the limit", body: strings.Repeat("x", limit+1), length: -1, tooBig: true},
		{name: "declared over the limit", body: strings.Repeat("x", limit+1), length: limit + 1, tooBig: true},
		{name: "longer than declared", body: full, length: 10, wantErr: true},
		{name: "shorter than declared", body: "abc", length: 10, wantErr: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// One byte per Read: every grow and boundary is exercised.
			got, err := readBody(tt.buf, iotest.OneByteReader(strings.NewReader(tt.body)), tt.length, limit, nil)
			var tl *AnswerTooLargeError
			switch {
			case tt.tooBig:
				if !errors.As(err, &tl) || tl.Limit != limit {
					t.Fatalf("err = %v, want AnswerTooLargeError{%d}", err, limit)
				}
			case tt.wantErr:
				if err == nil {
					t.Fatalf("no error, got %q", got)
				}
			default:
				if err != nil || string(got) != tt.want {
					t.Fatalf("got %q, %v; want %q", got, err, tt.want)
				}
			}
		})
	}
}

func TestReadBodyReadError(t *testing.T) {
	boom := errors.New("connection reset")
	if _, err := readBody(nil, io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(boom)), -1, 64, nil); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
}

// TestBodyPool: a released body is handed out again, emptied; an oversized
// one is not kept.
func TestBodyPool(t *testing.T) {
	releaseBody(nil) // no-op
	releaseBody(make([]byte, 0, maxPooledBody+1))
	b := make([]byte, 10, 1000)
	releaseBody(b)
	// sync.Pool may drop items at any time (GC); only check what it hands out.
	for range 3 {
		if g := getBodyBuf(); g != nil && (len(g) != 0 || cap(g) > maxPooledBody) {
			t.Fatalf("pooled buffer len %d cap %d", len(g), cap(g))
		}
	}
}

// countingReader counts the bytes it hands out.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestReadBodyReadsAtMostLimitPlusOne: an answer without a Content-Length
// that goes on past the limit is refused after limit+1 bytes — never more
// read into memory than the configured maximum (upstream_max_body) and the
// one byte that proves it too long, whatever the read sizes and the buffer
// handed in.
func TestReadBodyReadsAtMostLimitPlusOne(t *testing.T) {
	for _, limit := range []int64{1, 100, 16 << 10, 64 << 10, 100_000, 1 << 20} {
		for _, buf := range [][]byte{nil, make([]byte, 0, 5), make([]byte, 0, 1<<20)} {
			cr := &countingReader{r: io.LimitReader(zeroReader{}, 4*limit+(64<<10))}
			_, err := readBody(buf, cr, -1, limit, nil)
			var tl *AnswerTooLargeError
			if !errors.As(err, &tl) {
				t.Fatalf("limit %d: err = %v, want AnswerTooLargeError", limit, err)
			}
			if cr.n > limit+1 {
				t.Errorf("limit %d, buffer cap %d: read %d bytes, want at most %d", limit, cap(buf), cr.n, limit+1)
			}
		}
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
