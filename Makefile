# v1gateway — every command CI and people use. Needs only Go.
GO       ?= go
FUZZTIME ?= 5s
VERSION  ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)

.PHONY: all test vet fmt-check build fuzz bench demo clean

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

## fuzz: run every fuzz target for FUZZTIME each
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f ($(FUZZTIME))"; \
	    $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; \
	done

## bench: Go benchmarks of every package
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

## demo: the gateway on :8080 in front of an in-process v2 simulator
demo:
	$(GO) run ./cmd/v1gateway -demo

clean:
	rm -rf bin
