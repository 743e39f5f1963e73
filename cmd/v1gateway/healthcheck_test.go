package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestHealthcheckURL(t *testing.T) {
	tests := []struct {
		addr    string
		want    string
		wantErr string
	}{
		{addr: ":9090", want: "http://127.0.0.1:9090/healthz"},
		{addr: "0.0.0.0:9090", want: "http://127.0.0.1:9090/healthz"},
		{addr: "[::]:9090", want: "http://[::1]:9090/healthz"},
		{addr: "127.0.0.1:9191", want: "http://127.0.0.1:9191/healthz"},
		{addr: "[::1]:9090", want: "http://[::1]:9090/healthz"},
		{addr: "admin.internal:9090", want: "http://admin.internal:9090/healthz"},
		{addr: "9090", wantErr: "must be host:port"},
		{addr: "", wantErr: "must be host:port"},
		{addr: ":0", wantErr: "no usable port"},
		{addr: ":http", wantErr: "no usable port"},
		{addr: ":70000", wantErr: "no usable port"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			got, err := healthcheckURL(tt.addr)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("healthcheckURL(%q) = %q, %v; want error containing %q", tt.addr, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("healthcheckURL(%q) = %q, %v; want %q", tt.addr, got, err, tt.want)
			}
		})
	}
}

// adminServer serves h on 127.0.0.1 and returns its port.
func adminServer(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	return port
}

func TestHealthcheck(t *testing.T) {
	okPort := adminServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/healthz" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"status":"ok"}`))
	})
	downPort := adminServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	redirectPort := adminServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	})
	// A port nobody listens on: take one, then free it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, closedPort, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()

	tests := []struct {
		name     string
		addr     string
		wantCode int
		wantLine string
	}{
		{"200 on a port-only address probes loopback", ":" + okPort, 0, "healthy: http://127.0.0.1:" + okPort + "/healthz answered 200 OK"},
		{"200 on an unspecified host", "0.0.0.0:" + okPort, 0, "healthy:"},
		{"200 on an explicit host", "127.0.0.1:" + okPort, 0, "healthy:"},
		{"503 is unhealthy", ":" + downPort, 1, "answered 503 Service Unavailable"},
		{"a redirect is not followed", ":" + redirectPort, 1, "answered 302 Found"},
		{"nothing listening", ":" + closedPort, 1, "unhealthy: http://127.0.0.1:" + closedPort + "/healthz:"},
		{"bad address", "nonsense", 1, `unhealthy: admin address "nonsense"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			code := healthcheck(context.Background(), tt.addr, &out)
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d (output %q)", code, tt.wantCode, out.String())
			}
			assertOneLine(t, out.String(), tt.wantLine)
		})
	}
}

// TestHealthcheckNoAnswer: an admin port that accepts but never answers
// makes the probe give up at its deadline, not hang.
func TestHealthcheckNoAnswer(t *testing.T) {
	release := make(chan struct{})
	port := adminServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	t.Cleanup(func() { close(release) }) // runs before the server's Close

	// The caller's deadline (shorter than the built-in 2 s) is honoured.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	var out strings.Builder
	if code := healthcheck(ctx, ":"+port, &out); code != 1 {
		t.Fatalf("exit code %d, want 1 (output %q)", code, out.String())
	}
	if d := time.Since(start); d > healthcheckTimeout {
		t.Errorf("took %s, want about 100ms", d)
	}
	assertOneLine(t, out.String(), "/healthz: no answer after ")
}

func assertOneLine(t *testing.T, out, want string) {
	t.Helper()
	if !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 {
		t.Errorf("output %q is not exactly one line", out)
	}
	if !strings.Contains(out, want) {
		t.Errorf("output %q does not contain %q", out, want)
	}
}
