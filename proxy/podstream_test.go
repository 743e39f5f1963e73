package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/v2sim"
)

// GET /v1/pods streamed (issue 16): what a client sees of a long list,
// whole or broken off by v2.

// longPodList is a v2 pod list of n pods, copies of a v2sim pod.
func longPodList(t *testing.T, n int) []byte {
	t.Helper()
	sim := httptest.NewServer(v2sim.New(v2sim.Options{Seed: true}))
	defer sim.Close()
	resp := do(t, "GET", sim.URL+"/v2/pods", "k1", nil, nil)
	var l struct {
		Pods []map[string]any `json:"pods"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&l); err != nil || len(l.Pods) == 0 {
		t.Fatalf("v2sim's pods: %v (%d)", err, len(l.Pods))
	}
	resp.Body.Close()
	b := []byte(`{"pods":[`)
	for i := range n {
		p := l.Pods[i%len(l.Pods)]
		p["id"] = fmt.Sprintf("pod%05d", i)
		pb, _ := json.Marshal(p)
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, pb...)
	}
	return append(b, "]}"...)
}

// streamEnv is a gateway in front of a v2 whose GET /v2/pods answers body
// without a length, breaking the connection after cut bytes when cut > 0.
func streamEnv(t *testing.T, body []byte, cut int, mod func(*config.Config, *Options)) (*httptest.Server, *Gateway) {
	t.Helper()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if cut <= 0 {
			for b := body; len(b) > 0; b = b[min(len(b), 8192):] {
				w.Write(b[:min(len(b), 8192)])
				w.(http.Flusher).Flush()
			}
			return
		}
		w.Write(body[:cut])
		w.(http.Flusher).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(up.Close)
	o := Options{Config: testConfig(up.URL)}
	if mod != nil {
		mod(o.Config, &o)
	}
	gw, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	t.Cleanup(srv.Close)
	return srv, gw
}

func TestALongPodListIsStreamedWhole(t *testing.T) {
	body := longPodList(t, 1000)
	srv, gw := streamEnv(t, body, 0, func(_ *config.Config, o *Options) { o.BufferBudget = 64 << 20 })
	resp := do(t, "GET", srv.URL+"/v1/pods", "k1", nil, nil)
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	if resp.ContentLength != -1 || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("Content-Length %d, Content-Type %q: want a streamed JSON answer", resp.ContentLength, resp.Header.Get("Content-Type"))
	}
	var pods []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(b, &pods); err != nil || len(pods) != 1000 || pods[999].ID != "pod00999" {
		t.Fatalf("%d pods, %v", len(pods), err)
	}
	if n := gw.budget.inUse(); n != 0 {
		t.Errorf("%d bytes of the budget still held after the list was sent", n)
	}
}

// A streamed list whose v1 answer ends within what the stream holds
// before it commits — with the fact store every gateway has, its first
// window of 128 pods — is sent whole, with Content-Length: one write
// instead of two per chunked piece. The v2 answer here is read as a stream
// (it is longer than the part read before deciding).
func TestAStreamedListThatEndsWhileHeldIsSentWithItsLength(t *testing.T) {
	for _, tc := range []struct {
		pods    int
		chunked bool
	}{{100, false}, {1000, true}} {
		t.Run(fmt.Sprintf("%d pods", tc.pods), func(t *testing.T) {
			body := longPodList(t, tc.pods)
			if len(body) <= 64<<10 {
				t.Fatalf("the v2 answer (%d bytes) would be read whole, not streamed", len(body))
			}
			srv, _ := streamEnv(t, body, 0, nil)
			resp := do(t, "GET", srv.URL+"/v1/pods", "k1", nil, nil)
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("status %d, %v", resp.StatusCode, err)
			}
			var pods []json.RawMessage
			if err := json.Unmarshal(b, &pods); err != nil || len(pods) != tc.pods {
				t.Fatalf("%d pods, %v", len(pods), err)
			}
			if got := resp.ContentLength == -1; got != tc.chunked {
				t.Errorf("Content-Length %d (%d bytes, Transfer-Encoding %v); want chunked: %v", resp.ContentLength, len(b), resp.TransferEncoding, tc.chunked)
			}
			if !tc.chunked && resp.ContentLength != int64(len(b)) {
				t.Errorf("Content-Length %d for %d bytes", resp.ContentLength, len(b))
			}
		})
	}
}

func TestWhenV2BreaksOffAPodList(t *testing.T) {
	body := longPodList(t, 1000)
	t.Run("before the answer was sent, the client gets a 502", func(t *testing.T) {
		srv, _ := streamEnv(t, body, 20_000, nil)
		resp := do(t, "GET", srv.URL+"/v1/pods", "k1", nil, nil)
		if resp.StatusCode != http.StatusBadGateway {
			t.Fatalf("status %d, want 502", resp.StatusCode)
		}
		readMessage(t, resp)
	})
	t.Run("after the answer was sent, the client's connection breaks before the list's end", func(t *testing.T) {
		srv, _ := streamEnv(t, body, len(body)*2/3, nil)
		resp := do(t, "GET", srv.URL+"/v1/pods", "k1", nil, nil)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("status %d, want the 200 sent before v2 broke off", resp.StatusCode)
		}
		if err == nil {
			t.Fatalf("the body was read to its end without an error (%d bytes)", len(b))
		}
		if json.Valid(b) || bytes.HasSuffix(bytes.TrimSpace(b), []byte("]")) {
			t.Fatalf("the truncated list reads as a whole one: …%s", b[max(0, len(b)-40):])
		}
	})
	t.Run("an answer past upstream_max_body is a 502 naming the limit", func(t *testing.T) {
		srv, _ := streamEnv(t, body, 0, func(c *config.Config, _ *Options) { c.UpstreamMaxBody = 64 << 10 })
		resp := do(t, "GET", srv.URL+"/v1/pods", "k1", nil, nil)
		if resp.StatusCode != http.StatusBadGateway {
			t.Fatalf("status %d, want 502", resp.StatusCode)
		}
		if msg := readMessage(t, resp); !strings.Contains(msg, "limit") {
			t.Errorf("message %q", msg)
		}
	})
}

func TestAStreamedListTakesAFlatShareOfTheBudget(t *testing.T) {
	body := longPodList(t, 1000)
	srv, gw := streamEnv(t, body, 0, func(_ *config.Config, o *Options) { o.BufferBudget = 1 << 20 })
	// Room for a few streamed lists, not for one whole answer (~1 MB).
	gw.budget.acquire(context.Background(), 1<<20-4*translate.StreamBufferBytes, 0)
	resp := do(t, "GET", srv.URL+"/v1/pods", "k1", nil, nil)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: a streamed list must not need its whole answer's bytes", resp.StatusCode)
	}
}
