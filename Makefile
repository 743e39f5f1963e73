# v1gateway — every command CI and people use. Needs Go (the version in
# go.mod) and make; a C compiler only for the race detector.
GO       ?= go
FUZZTIME ?= 5s
VERSION  ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)
# staticcheck 2026.2.2, fetched through the Go module proxy on first use.
STATICCHECK_VERSION ?= v0.8.2

.PHONY: all test test-chart chart vet fmt-check tidy-check build specs lint fuzz fuzz-long bench chaos demo screenshot clean

all: test build

## test: go vet, then every test — with the race detector where cgo works
## (CGO_ENABLED=1 and a C compiler; otherwise said, and an error when
## CI=true or V1GW_REQUIRE_RACE=1, as .ci/run sets) — then one line: how many contract tests ran and were skipped.
test: vet
	@race="-race "; why=; \
	cc="$$($(GO) env CC)"; cc="$${cc%% *}"; \
	if [ "$$($(GO) env CGO_ENABLED)" != 1 ]; then why="cgo is disabled (go env CGO_ENABLED is not 1)"; \
	elif ! command -v "$${cc:-cc}" >/dev/null 2>&1; then why="no C compiler ($${cc:-cc}) was found"; fi; \
	if [ -n "$$why" ]; then \
	  if [ "$${CI:-}" = true ] || [ "$${V1GW_REQUIRE_RACE:-}" = 1 ]; then \
	    echo "test: the race detector needs cgo, but $$why (required with CI=true or V1GW_REQUIRE_RACE=1)"; exit 1; fi; \
	  race=; echo "test: race detector skipped: it needs cgo, and $$why"; \
	fi; \
	report="$$(mktemp)"; trap 'rm -f "$$report"' EXIT; \
	echo "$(GO) test $${race}-count=1 ./..."; \
	V1GW_CONTRACT_REPORT="$$report" $(GO) test $${race}-count=1 ./...; rc=$$?; \
	echo "$(CHART_TEST)"; ( $(CHART_TEST) ) || rc=1; \
	ran=$$(grep -c '^ran' "$$report"); skipped=$$(grep -c '^skipped' "$$report"); \
	if [ "$$skipped" -gt 0 ]; then \
	  echo "contract tests: $$ran ran, $$skipped skipped: the vendor's OpenAPI documents were not found (run make specs, or set V1GW_SPECS_DIR)"; \
	else echo "contract tests: $$ran ran, 0 skipped"; fi; \
	exit $$rc

vet:
	$(GO) vet ./...

## test-chart: the Helm chart's tests (deploy/helm, a Go module of its own so
## that Helm's k8s.io dependencies stay out of the gateway's go.mod): render
## it with Helm's Go packages for the default and a full set of values, check
## every object against its Kubernetes type, the defaults against the
## kustomize base and every setting against a values key. No cluster, no
## helm binary. make test runs it.
CHART_TEST = cd deploy/helm && $(GO) vet ./... && $(GO) test -count=1 ./...
test-chart:
	$(CHART_TEST)

## chart: the chart archive bin/v1gateway-<chart version>.tgz, as `helm
## package` makes it (Helm's own Go packages; no helm binary), after its
## tests. CHART_APP_VERSION sets its appVersion, the default image tag.
CHART_APP_VERSION ?=
chart: test-chart
	cd deploy/helm && $(GO) run ./cmd/chartpackage -out $(CURDIR)/bin $(if $(CHART_APP_VERSION),-app-version $(CHART_APP_VERSION)) v1gateway

## fmt-check: fail when a file is not gofmt'ed
fmt-check:
	@out="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## tidy-check: fail when a module's go.mod or go.sum is not what
## `go mod tidy` makes of it (a dependency marked "// indirect" that the code
## imports, a missing or stale go.sum line), printing the difference
MODULES := . deploy/helm
tidy-check:
	@set -e; for m in $(MODULES); do \
	  echo "(cd $$m && $(GO) mod tidy -diff)"; \
	  (cd $$m && $(GO) mod tidy -diff) || { echo "tidy-check: $$m/go.mod or go.sum is not tidy: run (cd $$m && go mod tidy) and commit the result"; exit 1; }; \
	done

## specs: download the vendor's v1 and v2 OpenAPI documents at a pinned commit
## into .specs/ (ignored by git), verifying their SHA-256; the contract tests
## read V1GW_SPECS_DIR, else a shared/specs folder beside the checkout, else .specs
specs:
	$(GO) run ./internal/specfetch -dir .specs

## lint: staticcheck at a pinned version, installed into bin/tools through the
## Go module proxy on first use, on the gateway's module and deploy/helm's
lint: bin/tools/staticcheck-$(STATICCHECK_VERSION)
	bin/tools/staticcheck-$(STATICCHECK_VERSION) ./...
	cd deploy/helm && $(CURDIR)/bin/tools/staticcheck-$(STATICCHECK_VERSION) ./...

bin/tools/staticcheck-$(STATICCHECK_VERSION):
	@mkdir -p bin/tools
	GOBIN="$(CURDIR)/bin/tools" $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv bin/tools/staticcheck $@

## build: every binary into bin/
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/ ./cmd/...

## fuzz: run every fuzz target (all that `go test -list` finds) for FUZZTIME each (CI: 3s each)
## fuzz-long: the same, 60s each (about 32 minutes); crashers land in
## <pkg>/testdata/fuzz/<target>/ and become regression tests once fixed
fuzz-long:
	$(MAKE) fuzz FUZZTIME=60s

## A run that fails only with a bare "context deadline exceeded" and writes no
## failing input is Go 1.26's race at the end of -fuzztime (go.dev/issue/75804,
## fixed in Go 1.27), not a finding: that target is run again, up to three
## times. Any other failure, or a failing input written, fails at once.
fuzz:
	@set -e; log=$$(mktemp); trap 'rm -f "$$log"' EXIT; \
	for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    for try in 1 2 3; do \
	      echo "fuzz $$pkg $$f ($(FUZZTIME))"; \
	      if $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) $$pkg >"$$log" 2>&1; then cat "$$log"; break; fi; \
	      cat "$$log"; \
	      if [ $$try -lt 3 ] && ! grep -q 'Failing input written' "$$log" && \
	         [ "$$(awk '/^--- FAIL: /{f=1;next} /^FAIL/{f=0} f' "$$log")" = "    context deadline exceeded" ]; then \
	        echo "fuzz: $$f stopped on Go's -fuzztime race (go.dev/issue/75804), no failing input: running it again"; \
	      else exit 1; fi; \
	    done; \
	  done; \
	done

## bench: side-by-side load benchmark — direct, bare ReverseProxy, nginx, gateway
## (pass-through and v1, memory and Redis limiter), and the rate limit of two
## saturated gateways sharing one key — results in bench/results/
## and BENCHMARKS.md (with bench/HISTORY.md appended);
## about 10 minutes, not part of CI. BENCHFLAGS passes flags (e.g. -only list/).
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

## screenshot: the /usage page (the migration cockpit) of a fixed report,
## rendered in headless Chromium at desktop and phone widths into
## docs/usage-page-desktop.png and docs/usage-page-phone.png (the operator
## guide shows them). Installs Debian's chromium when missing; not in CI.
CHROMIUM ?= chromium
screenshot:
	@command -v $(CHROMIUM) >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "screenshot: installing chromium (Debian)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; } || \
	    { echo "screenshot: chromium could not be installed"; exit 1; }; \
	  else echo "screenshot: no $(CHROMIUM); install it (apt-get install chromium) or set CHROMIUM"; exit 1; fi; }
	@set -e; tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) test -count=1 -run '^TestTheCockpitPageOfAFixedReport' ./proxy -args -page-out="$$tmp/page.html" >/dev/null; \
	for v in desktop:1280:1560 phone:390:2200; do \
	  name=$${v%%:*}; rest=$${v#*:}; w=$${rest%%:*}; h=$${rest#*:}; \
	  $(CHROMIUM) --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
	    --disable-component-update --disable-sync --user-data-dir="$$tmp/profile" --hide-scrollbars \
	    --force-device-scale-factor=1 --window-size=$$w,$$h \
	    --screenshot="$(CURDIR)/docs/usage-page-$$name.png" "file://$$tmp/page.html" 2>/dev/null | grep -v '^$$' || true; \
	  test -s docs/usage-page-$$name.png; \
	done; $(GO) run ./internal/pngshrink docs/usage-page-desktop.png docs/usage-page-phone.png

## demo: the gateway on :8080 in front of an in-process v2 simulator
demo:
	$(GO) run ./cmd/v1gateway -demo

clean:
	rm -rf bin
