#!/usr/bin/env bash
# Builds golangci-lint v2.15.0 with the kepdefaults plugin (this checkout's
# lint/plugin) and kube-api-linter into OUT (default bin/golangci-lint-kepdefaults),
# as `golangci-lint custom` would from ../../README.md's .custom-gcl.yml, from
# the Go module proxy instead of a git clone.
#
#   build.sh [OUT]          build, unless OUT is there and its inputs are unchanged
#   build.sh --check [OUT]  exit 0 when OUT is there and up to date, 1 otherwise
#
# The inputs are this module (go.mod, go.sum, main.go, plugins.go, this
# script), the Go toolchain, and every Go file of the repository's module
# that the binary links (the plugin is built from the checkout through a
# replace), with the repository's go.mod and go.sum. Their digest is kept
# in OUT.inputs.
set -euo pipefail

check=false
if [[ "${1:-}" == "--check" ]]; then
  check=true
  shift
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="${1:-$repo/bin/golangci-lint-kepdefaults}"
mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
cd "$here"
# -mod=mod: a change to the repository's go.mod updates this module's go.sum
# instead of failing the build (the diff shows up for review).
export GOFLAGS=-mod=mod

inputs() {
  go version
  go env GOOS GOARCH CGO_ENABLED
  sha256sum go.mod go.sum main.go plugins.go build.sh
  (cd "$repo" && sha256sum go.mod go.sum)
  local mod
  mod="$(cd "$repo" && go list -m)"
  go list -deps -f '{{if .Module}}{{if eq .Module.Path "'"$mod"'"}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}{{end}}' . |
    sed '/^$/d' | sort | (cd "$repo" && sed "s|^$repo/||" | xargs -r sha256sum)
}

digest="$(inputs | sha256sum | cut -d' ' -f1)"
if [[ -x "$out" && -f "$out.inputs" && "$(cat "$out.inputs")" == "$digest" ]]; then
  $check || echo "$out is up to date"
  exit 0
fi
if $check; then
  echo "$out is missing or was built from other inputs" >&2
  exit 1
fi

echo "building $out (golangci-lint v2.15.0 + kepdefaults + kube-api-linter)"
start=$SECONDS
# The version carries the inputs' digest, as `golangci-lint custom` puts a
# hash of its plugins in it: golangci-lint salts its cache of results with
# the version, so a rebuilt plugin never sees results of the one before.
go build -trimpath \
  -ldflags "-s -w -X 'main.version=2.15.0-custom-kepdefaults-${digest:0:12}' -X 'main.date=$(date -u +%Y-%m-%dT%H:%M:%SZ)'" \
  -o "$out.tmp" .
mv "$out.tmp" "$out"
# again: the build may have completed this module's go.sum
inputs | sha256sum | cut -d' ' -f1 > "$out.inputs"
echo "built $out in $((SECONDS - start))s"
