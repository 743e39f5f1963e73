package proxy

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/v1gateway/v1gateway/config"
)

// TestRunpodMCPGraphQLToolsWorkAgainstTheGateway runs runpod-mcp 3.4.0
// (@runpod/mcp-server, the npm release) over MCP stdio against the gateway
// in graphql_mode translate, in front of a seeded v2sim, and calls the
// tools that speak GraphQL: list-gpu-types and list-data-centers (GraphQL
// in its v1 mode), get-capacity, set-endpoint-gpus; and the hub and
// public-endpoint tools, which must fail with the gateway's reason.
//
// runpod-mcp sends its catalog queries without any key (by design: the
// vendor answered them unauthenticated); the gateway answers them with
// graphql_public_key. RUNPOD_MCP is the path of the package's stdio entry
// (dist/stdio.mjs, run with node, its dependencies installed beside it);
// the test is skipped when it is unset.
func TestRunpodMCPGraphQLToolsWorkAgainstTheGateway(t *testing.T) {
	entry := os.Getenv("RUNPOD_MCP")
	if entry == "" {
		t.Skip("RUNPOD_MCP is not set: set it to runpod-mcp 3.4.0's stdio entry (dist/stdio.mjs of @runpod/mcp-server, with its dependencies installed), run with node")
	}
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("RUNPOD_MCP=%s: %v", entry, err)
	}
	w := newClientWorld(t, time.Time{}, func(c *config.Config) {
		c.GraphQLMode = "translate"
		c.GraphQLPublicKey = "k1"
	})
	m := startMCP(t, entry, []string{
		"HOME=" + t.TempDir(),
		"RUNPOD_API_KEY=k1",
		"RUNPOD_REST_API_URL=" + w.gw + "/v1",
		"RUNPOD_REST_VERSION=v1",
		"RUNPOD_PUBLIC_GRAPHQL_URL=" + w.gw + "/graphql",
		"RUNPOD_AUTHED_GRAPHQL_URL=" + w.gw + "/graphql",
	})
	const gpu = "NVIDIA GeForce RTX 4090"
	var location string // US-KS-2's, as list-data-centers printed it

	steps := []struct {
		name, tool string
		args       map[string]any
		// refused is a piece of the error the tool must fail with.
		refused string
		check   func(t *testing.T, text string)
	}{
		{"list-gpu-types", "list-gpu-types", map[string]any{}, "", func(t *testing.T, text string) {
			g := findIn(t, text, "id", gpu)
			if g == nil || g["displayName"] == nil || g["memoryGb"] != 24.0 || g["available"] != true { // the tool's names
				t.Errorf("%s as listed: %v\n%s", gpu, g, text)
			}
		}},
		{"list-gpu-types searchTerm 4090, secureCloudOnly", "list-gpu-types", map[string]any{"searchTerm": "4090", "secureCloudOnly": true}, "", func(t *testing.T, text string) {
			if findIn(t, text, "id", gpu) == nil {
				t.Errorf("%s", text)
			}
		}},
		{"list-data-centers", "list-data-centers", map[string]any{}, "", func(t *testing.T, text string) {
			dc := findIn(t, text, "id", "US-KS-2")
			if dc == nil || dc["name"] == nil {
				t.Fatalf("US-KS-2 as listed: %v\n%s", dc, text)
			}
			location, _ = dc["location"].(string)
			if location == "" {
				t.Errorf("US-KS-2 has no location (runpod-mcp's region filter lower-cases it): %v", dc)
			}
		}},
		{"list-data-centers region (US-KS-2's location)", "list-data-centers", nil, "", func(t *testing.T, text string) {
			if findIn(t, text, "id", "US-KS-2") == nil {
				t.Errorf("region %q does not find US-KS-2: %s", location, text)
			}
		}},
		{"get-capacity", "get-capacity", map[string]any{}, "", func(t *testing.T, text string) {
			if !strings.Contains(text, gpu) || strings.Contains(text, `"error"`) {
				t.Errorf("%s is not in the matrix: %s", gpu, text)
			}
		}},
		{"get-capacity cudaVersions 12.8, gpuCount 2, secureCloudOnly, 4090", "get-capacity", map[string]any{"cudaVersions": []string{"12.8"}, "gpuCount": 2, "secureCloudOnly": true, "gpuTypeIds": []string{"4090"}}, "", func(t *testing.T, text string) {
			if !strings.Contains(text, gpu) || !strings.Contains(text, "12.8") || strings.Contains(text, `"error"`) {
				t.Errorf("the 12.8 probe: %s", text)
			}
		}},
		{"set-endpoint-gpus pools ADA_48_PRO, excludeGpuTypeIds NVIDIA L40", "set-endpoint-gpus", map[string]any{"endpointId": w.ids["seedep"], "pools": []string{"ADA_48_PRO"}, "excludeGpuTypeIds": []string{"NVIDIA L40"}}, "", func(t *testing.T, text string) {
			if !strings.Contains(text, w.ids["seedep"]) {
				t.Errorf("set-endpoint-gpus: %s", text)
			}
			r := w.v2("GET", "/v2/serverless/"+w.ids["seedep"], "")
			var ep struct {
				GPU struct {
					Pools         []string `json:"pools"`
					ExcludedTypes []string `json:"excludedTypes"`
				} `json:"gpu"`
				Workers struct{ Max int } `json:"workers"`
			}
			if err := json.Unmarshal(r.body, &ep); err != nil || fmt.Sprint(ep.GPU.Pools) != "[ADA_48_PRO]" ||
				fmt.Sprint(ep.GPU.ExcludedTypes) != "[NVIDIA L40]" || ep.Workers.Max != 3 {
				t.Errorf("the endpoint in v2 after set-endpoint-gpus: %s", r.body)
			}
		}},
		{"list-hub-repos (refused)", "list-hub-repos", map[string]any{}, "v2 has no hub", nil},
		{"deploy-hub-repo (refused)", "deploy-hub-repo", map[string]any{"repo": "runpod-workers/worker-vllm"}, "v2 has no hub", nil},
		{"list-public-endpoints (refused)", "list-public-endpoints", map[string]any{}, "public endpoints", nil},
	}
	for i, s := range steps {
		t.Run("runpod-mcp 3.4.0: "+s.name, func(t *testing.T) {
			args := s.args
			if args == nil { // the region filter, from the step before
				args = map[string]any{"region": location}
			}
			res := m.call(t, i+10, s.tool, args)
			text := res.text()
			switch {
			case s.refused != "":
				if !res.IsError && !strings.Contains(text, `"error"`) || !strings.Contains(text, s.refused) {
					t.Errorf("want a failure saying %q; got %s", s.refused, text)
				}
			case res.IsError || strings.HasPrefix(strings.TrimSpace(text), `{`) && strings.Contains(text, `"error"`):
				t.Fatalf("%s failed: %s", s.tool, text)
			case s.check != nil:
				s.check(t, text)
			}
		})
	}
}

// mcpServer is an MCP server on stdio: newline-delimited JSON-RPC.
type mcpServer struct {
	in  io.WriteCloser
	out *bufio.Scanner
}

// startMCP starts node entry with env and initializes the session.
func startMCP(t *testing.T, entry string, env []string) *mcpServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "node", entry)
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("node %s: %v", entry, err)
	}
	t.Cleanup(func() {
		_ = in.Close()
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("runpod-mcp stderr:\n%s", stderr.String())
		}
	})
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 16<<20)
	m := &mcpServer{in: in, out: sc}
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-03-26", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "v1gateway-test", "version": "1"},
	}})
	if r := m.reply(t, 1); r.Error != nil {
		t.Fatalf("initialize: %s", r.Error)
	}
	m.send(t, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return m
}

func (m *mcpServer) send(t *testing.T, msg any) {
	t.Helper()
	b, _ := json.Marshal(msg)
	if _, err := m.in.Write(append(b, '\n')); err != nil {
		t.Fatalf("write to runpod-mcp: %v", err)
	}
}

type rpcReply struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// reply reads messages until the reply to id (notifications and server
// requests are skipped).
func (m *mcpServer) reply(t *testing.T, id int) rpcReply {
	t.Helper()
	done := make(chan rpcReply, 1)
	go func() {
		for m.out.Scan() {
			var r rpcReply
			if json.Unmarshal(m.out.Bytes(), &r) == nil && r.ID == id && (r.Result != nil || r.Error != nil) {
				done <- r
				return
			}
		}
		close(done)
	}()
	select {
	case r, ok := <-done:
		if !ok {
			t.Fatalf("runpod-mcp closed its output before answering %d", id)
		}
		return r
	case <-time.After(60 * time.Second):
		t.Fatalf("runpod-mcp did not answer %d within a minute", id)
	}
	return rpcReply{}
}

// toolResult is an MCP tools/call result.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

func (r toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// call calls a tool and returns its result (a JSON-RPC error fails).
func (m *mcpServer) call(t *testing.T, id int, tool string, args map[string]any) toolResult {
	t.Helper()
	m.send(t, map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	r := m.reply(t, id)
	if r.Error != nil {
		return toolResult{IsError: true, Content: []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{{Type: "text", Text: string(r.Error)}}}
	}
	var res toolResult
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatalf("%s: not a tool result: %s", tool, r.Result)
	}
	return res
}

// findIn finds, in a tool's JSON text, the object whose key k is v: the
// text is a list, or an object holding one (items, gpuTypes, ...).
func findIn(t *testing.T, text, k, v string) map[string]any {
	t.Helper()
	var any1 any
	if err := json.Unmarshal([]byte(text), &any1); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, text)
	}
	var walk func(x any) map[string]any
	walk = func(x any) map[string]any {
		switch y := x.(type) {
		case map[string]any:
			if y[k] == v {
				return y
			}
			for _, e := range y {
				if r := walk(e); r != nil {
					return r
				}
			}
		case []any:
			for _, e := range y {
				if r := walk(e); r != nil {
					return r
				}
			}
		}
		return nil
	}
	return walk(any1)
}
