#!/usr/bin/env bash
# Builds golangci-lint with the module plugins of .custom-gcl.yml (this
# directory's; docs/lint.md quotes it, and lint/customgcl_test.go keeps the
# two equal) into OUT, default bin/golangci-lint-kepdefaults, as
# `golangci-lint custom` builds it: the steps of Builder.Build
# (pkg/commands/internal/builder.go of golangci-lint at the yml's version),
# run by golangci-lint's own code (steps_test.go), in golangci-lint's own
# module: write cmd/golangci-lint/plugins.go, `go mod edit -replace` for a
# plugin with a path, `go get` for a plugin with a version, `go mod tidy`,
# `go build` with its -ldflags, copy the binary. Two things differ from
# `golangci-lint custom`:
#   - the source is the Go module proxy's copy of the golangci-lint module
#     at that version (go mod download), not a git clone;
#   - this repository's plugin is built from this checkout: its path in the
#     yml (../controller-gen-default, for a project next to a checkout) is
#     replaced by the checkout, as OUT replaces name and destination (the
#     --name and --destination flags of `golangci-lint custom`).
#
#   build.sh [OUT]          build, unless OUT is there and its inputs are unchanged
#   build.sh --check [OUT]  exit 0 when OUT is there and up to date, 1 otherwise
#
# The inputs are this directory's files, the Go toolchain, the repository's
# go.mod and go.sum, and every Go file of the repository's module that the
# plugin links. Their digest is kept in OUT.inputs. The Go commands of the
# build run in the environment `golangci-lint custom` would see, without
# the Makefile's GOFLAGS and outside any workspace.
# CUSTOM_GCL_KEEP_TEMP_FILES=1 keeps the work directory, as it does for
# `golangci-lint custom`.
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
cfg="$here/.custom-gcl.yml"

die() {
  echo "hack/golangci-lint/build.sh: $*" >&2
  exit 1
}

# The yml's version, and the import of this repository's plugin (the
# module itself when the yml names no import, as Configuration.Validate
# has it); golangci-lint's own code reads the rest.
version="$(sed -n 's/^version:[[:space:]]*\([^[:space:]#]*\).*$/\1/p' "$cfg")"
[[ -n "$version" ]] || die "$cfg: no version"
module="$(cd "$repo" && go list -m)"
import="$(awk -v m="$module" '
  $1 == "-" && $2 == "module:" { cur = $3; next }
  $1 == "module:" { cur = $2; next }
  $1 == "import:" && cur == m { print $2 }
' "$cfg")"
grep -Eq "^[[:space:]-]*module:[[:space:]]*$module([[:space:]]|\$)" "$cfg" || die "$cfg: no plugin $module"
import="${import:-$module}"

# The Go files of this module that the plugin links. go list's stderr is kept
# apart: on a cold module cache it says "go: downloading ...", which is not a file.
listerr="$(mktemp)"
if ! linked="$(cd "$repo" && go list -deps -f '{{if .Module}}{{if eq .Module.Path "'"$module"'"}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}{{end}}' "$import" 2>"$listerr")"; then
  die "go list -deps $import (the plugin's files, for the inputs' digest) failed; a module download refused by the Go module proxy, GOPROXY ($(go env GOPROXY)) or GOFLAGS shows here:
$(cat "$listerr")"
fi
rm -f "$listerr"

inputs() {
  go version
  go env GOOS GOARCH CGO_ENABLED
  (cd "$here" && sha256sum build.sh steps_test.go .custom-gcl.yml)
  (cd "$repo" && sha256sum go.mod go.sum)
  sed '/^$/d' <<<"$linked" | sort | sed "s|^$repo/||" | (cd "$repo" && xargs -r sha256sum)
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

# The environment of `golangci-lint custom`: the user's Go settings, not
# this repository's Makefile's, and no workspace.
gocmd() { env -u GOFLAGS GOWORK=off go "$@"; }

echo "building $out: golangci-lint $version with the plugins of $cfg"
start=$SECONDS
rm -f "$out.inputs"

# The clone, replaced: the module proxy's copy of the same source.
gcl="github.com/golangci/golangci-lint/v2@$version"
if ! dl="$(gocmd mod download -json "$gcl" 2>&1)"; then
  die "cannot download $gcl from the Go module proxy (GOPROXY=$(gocmd env GOPROXY)):
$dl"
fi
src="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$dl")"
[[ -d "$src" ]] || die "go mod download $gcl: no directory in
$dl"

work="$(mktemp -d "${TMPDIR:-/tmp}/custom-gcl.XXXXXX")"
if [[ -n "${CUSTOM_GCL_KEEP_TEMP_FILES:-}" ]]; then
  echo "CUSTOM_GCL_KEEP_TEMP_FILES is set: the work directory is preserved: $work"
else
  trap 'rm -rf "$work"' EXIT
fi
cp -R "$src" "$work/golangci-lint"
chmod -R u+w "$work/golangci-lint"
sed '1{/^\/\/go:build ignore$/d;}' "$here/steps_test.go" > "$work/golangci-lint/pkg/commands/internal/zz_kepdefaults_steps_test.go"
mkdir "$work/bin"

# Builder.Build from "Adding plugin imports" on; the binary lands in
# $work/bin and is moved into place, so that a running OUT is never
# rewritten.
if ! (cd "$work/golangci-lint/pkg/commands/internal" &&
  KEPDEFAULTS_CONFIG_DIR="$here" KEPDEFAULTS_VERSION="$version" KEPDEFAULTS_MODULE="$module" \
    KEPDEFAULTS_CHECKOUT="$repo" KEPDEFAULTS_OUT="$work/bin/$(basename "$out")" KEPDEFAULTS_ROOT="$work" \
    gocmd test -count=1 -vet=off -timeout=0 -v -run '^TestKepdefaultsBuild$' .); then
  die "the steps of golangci-lint custom failed (above: the command and its output). A download the proxy or GOPROXY/GOFLAGS refuse shows there as the go command's error"
fi
mv "$work/bin/$(basename "$out")" "$out"
echo "$digest" > "$out.inputs"
echo "built $out ($("$out" version 2>&1 | head -n 1)) in $((SECONDS - start))s"
