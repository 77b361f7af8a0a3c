# controller-gen-default: see README.md.
SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c

GO ?= go
LOCALBIN ?= $(CURDIR)/bin
export GOFLAGS ?= -mod=mod

.PHONY: all
all: build

.PHONY: build
build: ## Build controller-gen-default and controller-gen-default-objects into bin/.
	$(GO) build -o $(LOCALBIN)/ ./cmd/controller-gen-default ./cmd/controller-gen-default-objects

.PHONY: example
example: ## Generate CRDs for the embedded testdata API into out/crd.
	$(GO) run ./cmd/controller-gen-default crd paths=./testdata/api/... output:crd:dir=out/crd

.PHONY: vet
vet:
	$(GO) vet ./...

# The tests in three tiers (docs/contributing.md). test-integration runs
# every test of test-unit too (the same packages, without -short), so make
# test runs it and not test-unit: the unit tier would only run twice.
.PHONY: test
test: vet lint test-integration test-e2e ## Run every test: unit, golden, compatibility and e2e (envtest), after vet and lint.

# -short skips what builds binaries or conversion programs, fetches modules,
# runs golangci-lint or kubebuilder, and a few slow cross-checks and scale
# tests (each says so, and what it needs); the test cache stays on, since a
# rerun with nothing changed has nothing new to say.
.PHONY: test-unit
test-unit: ## Fast tests: every package but e2e with -short, cached (under 2 minutes on 2 cores, warm build cache).
	$(GO) test -short $$($(GO) list ./... | grep -v /test/e2e) -timeout 10m

# envtest-assets: cmd/kubebuilder-plugin's e2e test runs the scaffold's
# envtest suite on bin/k8s (it skips that step without them).
.PHONY: test-integration
test-integration: envtest-assets controller-gen-ref golangci-lint-kepdefaults ## Every package but e2e without -short, uncached: test-unit's tests and the slow ones (module proxy, builds).
	$(GO) test $$($(GO) list ./... | grep -v /test/e2e) -count=1 -timeout 30m

.PHONY: test-e2e
test-e2e: envtest-assets ## The e2e tests on envtest's kube-apiserver and etcd.
	KUBEBUILDER_ASSETS="$$(e2e/assets/build.sh | tail -n 1)" $(GO) test ./test/e2e -count=1 -timeout 30m -v -ginkgo.v=false

# BEGIN envtest-assets (owned by e2e/assets; see e2e/assets/README.md)
# Exported so that e2e/assets/build.sh, run directly from other recipes, agrees.
export ENVTEST_ASSETS_ROOT ?= $(LOCALBIN)/k8s

.PHONY: envtest-assets
envtest-assets: ## Build kube-apiserver and etcd for envtest (only when missing); the last line is their directory.
	@bash e2e/assets/build.sh "$(ENVTEST_ASSETS_ROOT)"
# END envtest-assets

# BEGIN compat (owned by test/compat/ and test/bench/)
# controller-gen v0.23.0, the reference for the byte-identity test (test/compat/)
# and the benchmarks (test/bench/). Wire it into the tests with `test: controller-gen-ref`;
# CONTROLLER_GEN_REF is exported so that `go test ./test/compat/` finds it.
CONTROLLER_GEN_REF_VERSION ?= v0.23.0
CONTROLLER_GEN_REF_DIR ?= $(LOCALBIN)/controller-gen-$(CONTROLLER_GEN_REF_VERSION)
export CONTROLLER_GEN_REF := $(CONTROLLER_GEN_REF_DIR)/controller-gen

.PHONY: controller-gen-ref
controller-gen-ref: $(CONTROLLER_GEN_REF) ## Install controller-gen v0.23.0 into bin/ (skipped when present).

$(CONTROLLER_GEN_REF):
	mkdir -p '$(CONTROLLER_GEN_REF_DIR)'
	GOBIN='$(CONTROLLER_GEN_REF_DIR)' $(GO) install sigs.k8s.io/controller-tools/cmd/controller-gen@$(CONTROLLER_GEN_REF_VERSION)

.PHONY: compat
compat: controller-gen-ref ## Byte-identity test against controller-gen v0.23.0 on real API modules.
	$(GO) test ./test/compat/ -count=1 -v -timeout 15m

BENCH_ROUNDS ?= 5
BENCH_FLAGS ?=
.PHONY: bench
bench: controller-gen-ref ## Benchmark against controller-gen v0.23.0 on real API modules (not part of make test).
	$(GO) run ./test/bench -rounds $(BENCH_ROUNDS) -controller-gen '$(CONTROLLER_GEN_REF)' $(BENCH_FLAGS)

BENCH_SCALE_FLAGS ?=
.PHONY: bench-scale
bench-scale: ## normalize and impact on a kubectl get -A -o yaml dump of 20,000 and 40,000 gateway-api objects, normalize against kubectl-validate on one (test/bench/README.md; not part of make test).
	$(GO) run ./test/bench scale $(BENCH_SCALE_FLAGS)

.PHONY: bench-scale-cluster
bench-scale-cluster: envtest-assets ## impact reading 20,000 and 40,000 gateway-api objects from envtest's apiserver, against impact on the same objects as a dump (test/bench/README.md; not part of make test).
	KUBEBUILDER_ASSETS="$$(e2e/assets/build.sh | tail -n 1)" $(GO) run ./test/bench scale-cluster $(BENCH_SCALE_CLUSTER_FLAGS)
# END compat

# BEGIN plugin (owned by cmd/kubebuilder-plugin)
# The kubebuilder plugin defaults.controller-gen-default.github.io/v1: see cmd/kubebuilder-plugin/README.md.
# install-plugin puts it where kubebuilder looks: $(EXTERNAL_PLUGINS_PATH), else
# $XDG_CONFIG_HOME/kubebuilder/plugins, else ~/.config/kubebuilder/plugins (Linux) or
# ~/Library/Application Support/kubebuilder/plugins (macOS). It records this checkout
# in the binary: the Makefiles it scaffolds build controller-gen-default and
# controller-gen-default-objects from here (go build, no download), not from the
# module proxy, which does not serve a checkout's commits.
.PHONY: install-plugin
install-plugin: ## Install the kubebuilder plugin from this checkout where kubebuilder finds it (its scaffolds build the tools from this checkout).
	$(GO) build -ldflags "-X 'main.checkoutDir=$(CURDIR)'" -o $(LOCALBIN)/kubebuilder-plugin ./cmd/kubebuilder-plugin
	$(LOCALBIN)/kubebuilder-plugin install

.PHONY: kubebuilder
kubebuilder: ## Build the kubebuilder CLI that the plugin's e2e test uses (v4.15.0, pinned in hack/kubebuilder) into bin/.
	cd hack/kubebuilder && GOFLAGS=-mod=readonly $(GO) build -o $(LOCALBIN)/kubebuilder sigs.k8s.io/kubebuilder/v4
# END plugin

# BEGIN lint (owned by lint/)
# The KEP-1929 lint analyzers (package lint): `controller-gen-default lint`, the
# go vet tool, and golangci-lint v2.15.0 with the kepdefaults and kube-api-linter
# module plugins (hack/golangci-lint), which lint/golangci_test.go runs: wire it
# into the tests with `test: golangci-lint-kepdefaults`. The test looks for the
# binary at $GOLANGCI_KEPDEFAULTS in its environment, else in bin/.
GOLANGCI_KEPDEFAULTS ?= $(LOCALBIN)/golangci-lint-kepdefaults

.PHONY: golangci-lint-kepdefaults
golangci-lint-kepdefaults: ## Build golangci-lint v2.15.0 + kepdefaults + kube-api-linter into bin/ (skipped when its inputs are unchanged).
	@bash hack/golangci-lint/build.sh '$(GOLANGCI_KEPDEFAULTS)'

# The repository's own lint: that binary with .golangci.yml over the module
# (testdata excluded); `make test` runs it first.
.PHONY: lint
lint: golangci-lint-kepdefaults ## Lint the module with golangci-lint and .golangci.yml (about 1.5 min; cached after).
	'$(GOLANGCI_KEPDEFAULTS)' run ./...

.PHONY: build-vet
build-vet: ## Build the go vet tool controller-gen-default-vet into bin/.
	$(GO) build -o $(LOCALBIN)/ ./cmd/controller-gen-default-vet
# END lint

# BEGIN mutation (owned by internal/model, internal/decision, markers, internal/encoding/golit, internal/encoding/jsonnum, internal/input/manifest, conversion and internal/random)
# Mutation testing of the decision code with gremlins (not part of make test):
# each package mutated and tested by its own tests only. See docs/testing.md,
# "Mutation testing". MUTATION_FLAGS=--dry-run lists the mutants only.
GREMLINS_VERSION ?= v0.6.0
GREMLINS_DIR ?= $(LOCALBIN)/gremlins-$(GREMLINS_VERSION)
GREMLINS := $(GREMLINS_DIR)/gremlins
MUTATION_PKGS ?= ./internal/model ./internal/decision ./markers ./internal/encoding/golit ./internal/encoding/jsonnum ./internal/input/manifest ./internal/conversion ./internal/random

$(GREMLINS):
	mkdir -p '$(GREMLINS_DIR)'
	GOBIN='$(GREMLINS_DIR)' $(GO) install github.com/go-gremlins/gremlins/cmd/gremlins@$(GREMLINS_VERSION)

.PHONY: mutation
mutation: $(GREMLINS) ## Mutation testing (gremlins, one worker) of internal/model, internal/decision, markers, internal/encoding/golit, internal/encoding/jsonnum, internal/input/manifest, conversion and internal/random by their own tests; results in out/mutation.
	bash hack/mutation.sh '$(GREMLINS)' $(MUTATION_PKGS)
# END mutation
