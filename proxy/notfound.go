package proxy

import (
	"fmt"
	"strings"
)

// notFoundMessage is the 404 message for a path no route serves. A v2 path
// under /v1 (GET /v1/v2/pods) is a client whose base URL still ends in /v1
// but which speaks v2 — runpod-mcp 4.x, which dropped v1, with the base URL
// its 3.x release used: the message says which setting to change instead of
// letting the client report "no such resource".
func notFoundMessage(method, path string) string {
	if rest, ok := strings.CutPrefix(path, "/v1/v2/"); ok || path == "/v1/v2" {
		return fmt.Sprintf("no such route: %s %s: this client sends v2 paths under a base URL that ends in /v1; set its base URL to the gateway's address without /v1 (for runpod-mcp 4.x: RUNPOD_API_BASE_URL=<gateway address>), and its calls to /v2/%s are passed through",
			method, path, rest)
	}
	return fmt.Sprintf("no such route: %s %s", method, path)
}
