package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// GoBench is one result line of go test -bench -benchmem.
type GoBench struct {
	Name        string  `json:"name"`
	NsPerOp     float64 `json:"nsPerOp"`
	BytesPerOp  float64 `json:"bytesPerOp"`
	AllocsPerOp float64 `json:"allocsPerOp"`
}

// goBenchPattern selects the handler benchmarks of proxy (bench_test.go
// there): the gateway's routes with each limiter, and the bare proxy.
const goBenchPattern = "^Benchmark(Gateway(PassThrough|ListPods100|GraphQLGetPods|GetPod|CreatePod)|BareReverseProxy)$"

// runGoBench runs the proxy handler benchmarks and returns them by name
// (without "Benchmark" and the -GOMAXPROCS suffix). redisURL, when set, is
// the Redis of the Redis-limiter variants.
func runGoBench(ctx context.Context, root, benchtime, redisURL string) (map[string]GoBench, error) {
	cmd := exec.CommandContext(ctx, "go", "test", "-run", "^$", "-bench", goBenchPattern, "-benchmem", "-benchtime", benchtime, "-count", "1", "./proxy/")
	cmd.Dir = root
	cmd.Env = os.Environ()
	if redisURL != "" {
		cmd.Env = append(cmd.Env, "V1GW_TEST_REDIS_URL="+redisURL)
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	res := parseGoBench(out.Bytes())
	if err != nil {
		return res, fmt.Errorf("go test -bench ./proxy/: %v\n%s", err, lastLines(out.String(), 20))
	}
	return res, nil
}

// parseGoBench reads the result lines of go test -bench -benchmem.
func parseGoBench(out []byte) map[string]GoBench {
	res := map[string]GoBench{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		g := GoBench{Name: name}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				g.NsPerOp = v
			case "B/op":
				g.BytesPerOp = v
			case "allocs/op":
				g.AllocsPerOp = v
			}
		}
		if g.NsPerOp > 0 {
			res[name] = g
		}
	}
	return res
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// checkV1List checks a v1 pod list answer: a JSON array of n pods.
func checkV1List(n int) func([]byte) error {
	return func(b []byte) error {
		var pods []struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(b, &pods); err != nil {
			return fmt.Errorf("not a v1 pod list: %v: %.200s", err, b)
		}
		if len(pods) != n || pods[0].ID == "" {
			return fmt.Errorf("v1 list of %d pods, want %d", len(pods), n)
		}
		return nil
	}
}

// checkGraphQLPods checks a GraphQL answer to myself { pods { ... } }: data
// with n pods, no errors.
func checkGraphQLPods(n int) func([]byte) error {
	return func(b []byte) error {
		var a struct {
			Data struct {
				Myself struct {
					Pods []struct {
						ID string `json:"id"`
					} `json:"pods"`
				} `json:"myself"`
			} `json:"data"`
			Errors []any `json:"errors"`
		}
		if err := json.Unmarshal(b, &a); err != nil {
			return fmt.Errorf("not a GraphQL answer: %v: %.200s", err, b)
		}
		if pods := a.Data.Myself.Pods; len(a.Errors) > 0 || len(pods) != n || pods[0].ID == "" {
			return fmt.Errorf("GraphQL answer with %d errors and %d pods, want %d pods: %.300s", len(a.Errors), len(pods), n, b)
		}
		return nil
	}
}

// checkV1Pod checks a v1 pod answer with the given id.
func checkV1Pod(id string) func([]byte) error {
	return func(b []byte) error {
		var pod struct {
			ID          string `json:"id"`
			ImageName   string `json:"image"`
			PortMapping any    `json:"portMappings"`
		}
		if err := json.Unmarshal(b, &pod); err != nil {
			return fmt.Errorf("not a v1 pod: %v: %.200s", err, b)
		}
		if pod.ID != id || pod.ImageName == "" {
			return fmt.Errorf("v1 pod %q (image %q), want id %q", pod.ID, pod.ImageName, id)
		}
		return nil
	}
}
