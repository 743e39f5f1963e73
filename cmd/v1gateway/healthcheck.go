package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// healthcheckTimeout bounds the whole probe: connect, request and answer.
const healthcheckTimeout = 2 * time.Second

// healthcheck asks the gateway's own admin listener whether the process is
// alive: GET http://<adminAddr>/healthz. It returns the exit code of
// `v1gateway -healthcheck` — 0 on a 200 answer, 1 otherwise — and writes
// exactly one line about it to w. It is what the container image's
// HEALTHCHECK runs, so it needs nothing but the binary (distroless images
// have no shell, curl or wget).
//
// adminAddr is the -admin-listen value, host:port. A listen address without
// a host (":9090") or with an unspecified one ("0.0.0.0:9090") is probed on
// the loopback interface: 127.0.0.1, or [::1] for "[::]:9090".
func healthcheck(ctx context.Context, adminAddr string, w io.Writer) int {
	target, err := healthcheckURL(adminAddr)
	if err != nil {
		fmt.Fprintf(w, "unhealthy: %v\n", err)
		return 1
	}
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
	defer cancel()

	client := &http.Client{
		// No proxy from the environment (HTTP_PROXY must not divert a
		// probe of our own port), no connection kept for later, and no
		// redirect followed: /healthz answers 200 itself or it is not
		// healthy.
		Transport: &http.Transport{
			Proxy:             nil,
			DisableKeepAlives: true,
			DialContext:       (&net.Dialer{Timeout: healthcheckTimeout}).DialContext,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       healthcheckTimeout,
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		fmt.Fprintf(w, "unhealthy: %s: %v\n", target, err)
		return 1
	}
	req.Header.Set("User-Agent", "v1gateway-healthcheck")
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
			fmt.Fprintf(w, "unhealthy: %s: no answer after %s\n", target, time.Since(start).Round(time.Millisecond))
		} else {
			fmt.Fprintf(w, "unhealthy: %s: %v\n", target, err)
		}
		return 1
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(w, "unhealthy: %s answered %s\n", target, resp.Status)
		return 1
	}
	fmt.Fprintf(w, "healthy: %s answered %s\n", target, resp.Status)
	return 0
}

// healthcheckURL turns an admin listen address into the URL of its
// /healthz, replacing an empty or unspecified host by the loopback address.
func healthcheckURL(adminAddr string) (string, error) {
	host, port, err := net.SplitHostPort(adminAddr)
	if err != nil {
		return "", fmt.Errorf("admin address %q must be host:port or :port (e.g. :9090)", adminAddr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("admin address %q has no usable port to probe", adminAddr)
	}
	if host == "" {
		host = "127.0.0.1"
	} else if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}
