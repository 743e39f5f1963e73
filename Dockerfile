# syntax=docker/dockerfile:1
#
# v1gateway container images. No shell, no package manager: a static binary on
# distroless, running as the non-root user 65532.
#
#   docker build --build-arg VERSION="$(git describe --always --dirty)" -t v1gateway:dev .
#   docker build --target v2sim -t v2sim:dev .         # the v2 simulator alone
#
# The default (last) target is the gateway. Both images come from one build
# stage that compiles exactly as `make build` does.

#
# Image names are fully qualified (registry/repository:tag), so that Podman
# and Buildah, which refuse short names without an unqualified-search
# registry, build this file as Docker does. They are pinned by tag, not by
# digest: a digest must be read from the registry, which this repository's
# own checks cannot reach. To pin one in your build, read it with
#   docker buildx imagetools inspect docker.io/library/golang:1.26
# (or `skopeo inspect docker://...`) and pass
#   --build-arg GO_IMAGE=docker.io/library/golang:1.26@sha256:<digest>
#
# Cross builds: `docker buildx build --platform linux/arm64 .` compiles on the
# build machine's platform (BUILDPLATFORM) for the target's TARGETOS and
# TARGETARCH, which BuildKit, Buildah and Podman set from --platform.

ARG GO_VERSION=1.26
ARG GO_IMAGE=docker.io/library/golang:${GO_VERSION}

# ---- build: every command of ./cmd, with the Makefile's flags --------------
FROM --platform=$BUILDPLATFORM ${GO_IMAGE} AS build
# The platform the binaries are for (set by the builder from --platform).
ARG TARGETOS
ARG TARGETARCH
ARG VERSION=dev
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/ ./cmd/...

# ---- v2sim: the in-memory v2 simulator (demos, Compose, your own CI) -------
FROM gcr.io/distroless/static-debian12:nonroot AS v2sim
COPY --from=build /out/v2sim /v2sim
USER nonroot:nonroot
EXPOSE 8081
ENTRYPOINT ["/v2sim"]
CMD ["-listen", ":8081"]

# ---- v1gateway: the gateway (default target) -------------------------------
FROM gcr.io/distroless/static-debian12:nonroot AS v1gateway
COPY --from=build /out/v1gateway /v1gateway
USER nonroot:nonroot
# 8080: v1 API and /v2 pass-through. 9090: admin (/healthz, /readyz, /metrics, /usage).
EXPOSE 8080 9090
# Probes its own /healthz on the admin address it is configured with
# (V1GW_ADMIN_LISTEN, default :9090). Kubernetes ignores HEALTHCHECK and uses
# the probes in deploy/kubernetes instead.
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/v1gateway", "-healthcheck"]
ENTRYPOINT ["/v1gateway"]
