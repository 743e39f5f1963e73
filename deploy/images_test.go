package deploy

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// qualifiedImage is registry/repository[:tag][@sha256:digest] with a
// registry host (a dot, a port or localhost): Podman and Buildah refuse
// short names unless an unqualified-search registry is configured.
var qualifiedImage = regexp.MustCompile(`^(localhost|[a-z0-9-]+(\.[a-z0-9-]+)+|[a-z0-9.-]+:[0-9]+)/[a-z0-9._/-]+(:[A-Za-z0-9._-]+)?(@sha256:[0-9a-f]{64})?$`)

func TestQualifiedImageNames(t *testing.T) {
	for ref, want := range map[string]bool{
		"docker.io/library/golang:1.26":                                        true,
		"gcr.io/distroless/static-debian12:nonroot":                            true,
		"docker.io/library/redis:7.4-alpine@sha256:" + strings.Repeat("a", 64): true,
		"localhost/v1gateway:dev":                                              true,
		"registry.internal:5000/v1gateway:1":                                   true,
		"golang:1.26":                                                          false,
		"redis:7.4-alpine":                                                     false,
		"library/nginx:1.27-alpine":                                            false,
		"docker.io/library/redis@sha256:abc1":                                  false,
	} {
		if got := qualifiedImage.MatchString(ref); got != want {
			t.Errorf("%s: qualified %t, want %t", ref, got, want)
		}
	}
}

// Every image that is pulled is named in full: the Dockerfile's stages, the
// Compose services that are not built here, and every container of the
// Kubernetes manifests but the gateway's own (its name is set by the
// overlay's kustomize images: entry).
func TestEveryPulledImageIsFullyQualified(t *testing.T) {
	df := parseDockerfile(t, readFile(t, "Dockerfile"))
	stages := map[string]bool{}
	for _, st := range df.stages {
		if from := df.expand(st.from); !stages[from] && !qualifiedImage.MatchString(from) {
			t.Errorf("Dockerfile: FROM %s is not a fully qualified image name", from)
		}
		stages[st.name] = true
	}

	p := loadCompose(t)
	for name, s := range p.Services {
		if s.Build != nil {
			if s.PullPolicy != "build" {
				t.Errorf("%s: %s is built here: want pull_policy: build (its image %q must never be pulled)", composeFile, name, s.Image)
			}
			continue
		}
		if !qualifiedImage.MatchString(s.Image) {
			t.Errorf("%s: %s: image %q is not fully qualified", composeFile, name, s.Image)
		}
	}

	for _, dir := range []string{baseDir, overlayDir} {
		for _, kind := range []string{"Deployment", "StatefulSet"} {
			for _, o := range find(objects(t, dir), kind, "") {
				var d deployment
				mustDecode(t, o.file, o.node, &d)
				pod := d.Spec.Template.Spec
				for _, c := range append(append([]container{}, pod.Containers...), pod.InitContainers...) {
					if o.Metadata.Name == gatewayApp && c.Name == gatewayApp {
						continue
					}
					if !qualifiedImage.MatchString(c.Image) {
						t.Errorf("%s: %s/%s: image %q is not fully qualified", o.file, o.Metadata.Name, c.Name, c.Image)
					}
				}
			}
		}
	}
}

func TestComposeHasAProjectName(t *testing.T) {
	if p := loadCompose(t); p.Name != "v1gateway" {
		t.Errorf("%s: name %q, want v1gateway (a fixed project name, whatever the folder is called)", composeFile, p.Name)
	}
}

// parseBytes reads a memory size as Go (MiB), Kubernetes (Mi) and Compose
// (m) write it.
func parseBytes(t *testing.T, s string) int64 {
	t.Helper()
	m := regexp.MustCompile(`^([0-9]+)([A-Za-z]*)$`).FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		t.Fatalf("memory size %q", s)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	unit := map[string]int64{
		"": 1, "b": 1, "B": 1,
		"k": 1 << 10, "Ki": 1 << 10, "KiB": 1 << 10,
		"m": 1 << 20, "Mi": 1 << 20, "MiB": 1 << 20,
		"g": 1 << 30, "Gi": 1 << 30, "GiB": 1 << 30,
	}
	u, ok := unit[m[2]]
	if !ok {
		t.Fatalf("memory size %q: unit %q", s, m[2])
	}
	return n * u
}

// checkHeadroom: GOMEMLIMIT is a soft limit for the Go heap; set to the
// container's limit, the kernel kills the process before the runtime has
// collected. Between 75% and 95% of the limit leaves room for the rest.
func checkHeadroom(t *testing.T, where, gomemlimit, limit string) {
	t.Helper()
	if gomemlimit == "" || limit == "" {
		t.Errorf("%s: GOMEMLIMIT %q and memory limit %q: want both", where, gomemlimit, limit)
		return
	}
	g, l := parseBytes(t, gomemlimit), parseBytes(t, limit)
	if g*100 > l*95 || g*100 < l*75 {
		t.Errorf("%s: GOMEMLIMIT %s is %d%% of the memory limit %s; want 75-95%%", where, gomemlimit, g*100/l, limit)
	}
}

func TestGoMemLimitLeavesHeadroom(t *testing.T) {
	p := loadCompose(t)
	for name, s := range p.Services {
		if s.isGateway() {
			checkHeadroom(t, composeFile+": "+name, s.environment(t, name)["GOMEMLIMIT"], s.MemLimit)
		}
	}
	for _, dir := range []string{baseDir, overlayDir} {
		_, c := gatewayDeployment(t, objects(t, dir))
		var g string
		for _, e := range c.Env {
			if e.Name == "GOMEMLIMIT" {
				if e.Value == nil {
					t.Errorf("%s: GOMEMLIMIT must be a value below limits.memory, not taken from it", dir)
					continue
				}
				g = *e.Value
			}
		}
		checkHeadroom(t, dir, g, c.Resources.Limits["memory"])
	}
	for _, tc := range []struct{ g, l string }{{"230MiB", "256Mi"}, {"230MiB", "256m"}, {"1800MiB", "2Gi"}} {
		if g, l := parseBytes(t, tc.g), parseBytes(t, tc.l); g >= l {
			t.Errorf("parseBytes: %s (%d) >= %s (%d)", tc.g, g, tc.l, l)
		}
	}
}

// Cross builds: the build stage runs on the build machine's platform and
// compiles for the target's, from the builder's TARGETOS and TARGETARCH.
func TestDockerfileCrossBuilds(t *testing.T) {
	df := parseDockerfile(t, readFile(t, "Dockerfile"))
	bst, run := buildRun(t, df)
	declared := map[string]bool{}
	for _, in := range bst.all("ARG") {
		k, _, _ := strings.Cut(in.args, "=")
		declared[k] = true
	}
	for _, v := range []string{"TARGETOS", "TARGETARCH"} {
		if !declared[v] {
			t.Errorf("build stage does not declare ARG %s", v)
		}
	}
	cmd := normalizeVars(run.args)
	if !strings.Contains(cmd, "GOOS={TARGETOS}") || !strings.Contains(cmd, "GOARCH={TARGETARCH}") {
		t.Errorf("Dockerfile:%d: go build without GOOS=$TARGETOS GOARCH=$TARGETARCH", run.line)
	}
	if !strings.Contains(readFile(t, "Dockerfile"), "FROM --platform=$BUILDPLATFORM") {
		t.Error("the build stage should run on $BUILDPLATFORM (native speed) and cross-compile")
	}
}
