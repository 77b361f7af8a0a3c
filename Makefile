# controller-gen-default: see README.md.
SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c

GO ?= go
LOCALBIN ?= $(CURDIR)/bin
export GOFLAGS ?= -mod=mod

.PHONY: all
all: build

.PHONY: build
build: ## Build the controller-gen-default binary into bin/.
	$(GO) build -o $(LOCALBIN)/controller-gen-default ./cmd/controller-gen-default

.PHONY: example
example: ## Generate CRDs for the embedded testdata API into out/crd.
	$(GO) run ./cmd/controller-gen-default crd paths=./testdata/api/... output:crd:dir=out/crd

.PHONY: vet
vet:
	$(GO) vet ./...

.PHONY: test
test: vet ## Run every test: unit, golden, compatibility and e2e.
	$(GO) test ./... -count=1 -timeout 40m

# BEGIN envtest-assets (owned by e2e/assets; see e2e/assets/README.md)
# END envtest-assets

# BEGIN compat (owned by compat/ and bench/)
# END compat

# BEGIN plugin (owned by cmd/kubebuilder-plugin)
# END plugin
