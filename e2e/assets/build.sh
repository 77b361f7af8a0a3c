#!/usr/bin/env bash
# build.sh [DEST_ROOT] builds the envtest binaries, kube-apiserver and etcd, and
# kubectl (which the request tests run) from Go modules into
# DEST_ROOT/<X.Y.Z>-<GOOS>-<GOARCH>/ (the layout setup-envtest finds offline),
# building only the ones that are missing. DEST_ROOT defaults to
# $ENVTEST_ASSETS_ROOT, else <repo>/bin/k8s. The versions come from go.mod next
# to this script (k8s.io/kubernetes, go.etcd.io/etcd/server/v3).
#
# If KUBEBUILDER_ASSETS names a directory that holds both binaries, it is used as
# is and nothing is built.
#
# stdout: the assets directory (absolute path) as the last line. stderr: progress
# and timings.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { echo "envtest-assets: $*" >&2; }
die() { echo "envtest-assets: error: $*" >&2; exit 1; }

if [[ -n "${KUBEBUILDER_ASSETS:-}" ]]; then
  if [[ -x "${KUBEBUILDER_ASSETS}/kube-apiserver" && -x "${KUBEBUILDER_ASSETS}/etcd" ]]; then
    dir="$(cd "${KUBEBUILDER_ASSETS}" && pwd)"
    log "using KUBEBUILDER_ASSETS=${dir}; building nothing"
    echo "${dir}"
    exit 0
  fi
  log "KUBEBUILDER_ASSETS=${KUBEBUILDER_ASSETS} lacks kube-apiserver or etcd; ignoring it"
fi

command -v go >/dev/null || die "go is not on PATH"

# Versions, read from go.mod without touching the network.
mod_version() { awk -v m="$1" '$1 == m && $2 ~ /^v[0-9]/ { print $2; exit }' "${here}/go.mod"; }
k8s_version="$(mod_version k8s.io/kubernetes)"
etcd_version="$(mod_version go.etcd.io/etcd/server/v3)"
[[ "${k8s_version}" =~ ^v([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] ||
  die "cannot read a release version of k8s.io/kubernetes from ${here}/go.mod (got '${k8s_version}')"
k8s_major="${BASH_REMATCH[1]}" k8s_minor="${BASH_REMATCH[2]}"
[[ -n "${etcd_version}" ]] || die "cannot read the version of go.etcd.io/etcd/server/v3 from ${here}/go.mod"

dest_root="${1:-${ENVTEST_ASSETS_ROOT:-${here}/../../bin/k8s}}"
mkdir -p "${dest_root}"
dest_root="$(cd "${dest_root}" && pwd)"
dest="${dest_root}/${k8s_version#v}-$(go env GOOS)-$(go env GOARCH)"

have() { [[ -x "${dest}/kube-apiserver" && -x "${dest}/etcd" && -x "${dest}/kubectl" ]]; }
if have; then
  log "kube-apiserver and kubectl ${k8s_version} and etcd ${etcd_version} already in ${dest}; building nothing"
  echo "${dest}"
  exit 0
fi

# One build at a time per DEST_ROOT (a lock on the directory itself): a second
# caller waits, then finds the binaries.
if command -v flock >/dev/null; then
  exec 9<"${dest_root}"
  flock 9
  if have; then
    log "another build put them in ${dest}; building nothing"
    echo "${dest}"
    exit 0
  fi
fi

# Binaries are built in a staging directory whose name setup-envtest does not
# take for a version, and moved to ${dest} together, so ${dest} never holds half
# a set. A binary left there by a failed run is reused; an empty one is removed.
stage="${dest_root}/.envtest-assets-build/$(basename "${dest}")"
mkdir -p "${stage}"
cleanup() {
  rm -f "${stage}"/*.tmp
  rmdir "${stage}" "${dest_root}/.envtest-assets-build" 2>/dev/null || true
}
trap cleanup EXIT

cd "${here}"
# go.sum is complete: -mod=readonly never edits it. Other GOFLAGS are kept.
goflags=()
for f in ${GOFLAGS:-}; do [[ "${f}" == -mod=* ]] || goflags+=("${f}"); done
export GOFLAGS="${goflags[*]:+${goflags[*]} }-mod=readonly"

start=${SECONDS}
log "downloading the modules of k8s.io/kubernetes ${k8s_version} and etcd ${etcd_version} ($(go env GOPROXY))"
if ! out="$(go mod download -json 2>&1)"; then
  # -json prints one object per module, and failed ones carry an "Error";
  # failures while loading the module graph come as "go: MODULE@VERSION: ..." lines.
  refused="$(awk -F'"' '
    $2 == "Path"    { path = $4 }
    $2 == "Version" { version = $4 }
    $2 == "Error"   { sub(/^[^:]*: "/, ""); sub(/",?$/, "")
                      if (index($0, path "@") != 1) $0 = path "@" version ": " $0
                      print "  " $0; next }
    /^go: [^ ]+@[^ ]+: / { sub(/^go: /, ""); print "  " $0 }
  ' <<<"${out}")"
  if [[ -n "${refused}" ]]; then
    echo "envtest-assets: error: the Go module proxy ($(go env GOPROXY)) refused these downloads:" >&2
    echo "${refused}" >&2
  else
    grep -v '^[[:space:]]*["{}]' <<<"${out}" | tail -20 >&2
  fi
  die "go mod download failed in ${here}; pin module versions that the proxy serves in go.mod (see README.md)"
fi
log "modules ready in $(( SECONDS - start ))s"

build() { # build NAME PACKAGE [go build flags...]
  local name="$1" pkg="$2" t=${SECONDS}
  shift 2
  if [[ -x "${dest}/${name}" || -x "${stage}/${name}" ]]; then
    log "${name} already built"
    return
  fi
  log "building ${name} from ${pkg} (several minutes on a cold build cache)"
  go build -o "${stage}/${name}.tmp" "$@" "${pkg}" || { rm -f "${stage}/${name}.tmp"; die "go build ${pkg} failed"; }
  mv -f "${stage}/${name}.tmp" "${stage}/${name}"
  log "built ${name} in $(( SECONDS - t ))s"
}

build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver -ldflags "\
-X k8s.io/component-base/version.gitVersion=${k8s_version} \
-X k8s.io/component-base/version.gitMajor=${k8s_major} \
-X k8s.io/component-base/version.gitMinor=${k8s_minor}"
build etcd go.etcd.io/etcd/server/v3
build kubectl k8s.io/kubernetes/cmd/kubectl -ldflags "\
-X k8s.io/component-base/version.gitVersion=${k8s_version} \
-X k8s.io/component-base/version.gitMajor=${k8s_major} \
-X k8s.io/component-base/version.gitMinor=${k8s_minor} \
-X k8s.io/client-go/pkg/version.gitVersion=${k8s_version} \
-X k8s.io/client-go/pkg/version.gitMajor=${k8s_major} \
-X k8s.io/client-go/pkg/version.gitMinor=${k8s_minor}"

mkdir -p "${dest}"
for name in kube-apiserver etcd kubectl; do
  if [[ -x "${stage}/${name}" ]]; then mv -f "${stage}/${name}" "${dest}/${name}"; fi
done
have || die "kube-apiserver, etcd or kubectl missing from ${dest} after the build"
log "envtest binaries ready in $(( SECONDS - start ))s"
echo "${dest}"
