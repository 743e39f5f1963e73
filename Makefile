# v1gateway — every command CI and people use. Needs only Go.
GO       ?= go
FUZZTIME ?= 5s
VERSION  ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)

.PHONY: all test vet fmt-check build fuzz fuzz-long bench chaos demo clean

all: test build

## test: go vet, then every test with the race detector
test: vet
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

## fmt-check: fail when a file is not gofmt'ed
fmt-check:
	@out="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## build: every binary into bin/
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/ ./cmd/...

## fuzz: run every fuzz target for FUZZTIME each (CI: 3s each, about 21 targets)
## fuzz-long: the same, 60s each (about 25 minutes); crashers land in
## <pkg>/testdata/fuzz/<target>/ and become regression tests once fixed
fuzz-long:
	$(MAKE) fuzz FUZZTIME=60s

fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f ($(FUZZTIME))"; \
	    $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; \
	done

## bench: side-by-side load benchmark — direct, bare ReverseProxy, nginx, gateway
## (pass-through and v1, memory and Redis limiter) — results in bench/results/
## and BENCHMARKS.md (with bench/HISTORY.md appended);
## about 4 minutes, not part of CI. BENCHFLAGS passes flags (e.g. -only list/).
bench:
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "bench: installing nginx-light for the nginx case"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light >/dev/null 2>&1; } || \
	    echo "bench: nginx could not be installed: the nginx case is skipped"; \
	  else echo "bench: no nginx, and not root with apt-get: the nginx case is skipped"; fi; }
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/ ./cmd/v1gateway
	$(GO) build -o bin/ ./bench/cmd/v1gwbench
	bin/v1gwbench -gateway bin/v1gateway -out bench/results $(BENCHFLAGS)
	@{ sed -e 's#](latency.svg)#](bench/results/latency.svg)#' \
	     -e 's#Raw samples of every run: results.json#Raw samples of every run: bench/results/results.json#' \
	     bench/results/results.md; echo; cat bench/HISTORY.md; } > BENCHMARKS.md
	@echo "bench: BENCHMARKS.md updated from bench/results/results.md and bench/HISTORY.md"

## chaos: the fault scenarios end to end — the real binary, a real
## redis-server frozen/stopped/restarted, upstreams that hang or trickle —
## printing scenario → expected → observed (about a minute; not in CI, whose
## fast subset is in make test). Needs redis-server (apt-get install redis-server).
chaos:
	$(GO) test -tags chaos -count=1 -v -timeout 10m ./chaos/ 2>&1 | grep -v '^=== RUN'

## demo: the gateway on :8080 in front of an in-process v2 simulator
demo:
	$(GO) run ./cmd/v1gateway -demo

clean:
	rm -rf bin
