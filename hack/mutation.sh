#!/usr/bin/env bash
# Mutation testing of the decision code (make mutation; see docs/testing.md,
# "Mutation testing"): gremlins mutates each package and runs that
# package's own tests only, so each rule must be killed by a test next to
# it, not by a generator's golden file.
#
# usage: hack/mutation.sh GREMLINS PACKAGE...
#
# gremlins copies the whole module for its worker; it runs here on a copy
# of the working tree without what git ignores (bin/ holds hundreds of MB
# of envtest binaries), so that the working tree is never touched. Build
# tag "mutation" leaves out the tests that do not test the decision code
# and take most of a package's test time (internal/decision's
# TestIndexIsTheParsers, 35 s; conversion's four tests that build a
# conversion program, TestClusterAPI among them, minutes). The Go files
# of testdata/ (test inputs) are not mutated. Results: one JSON file per
# package in $MUTATION_OUT (default out/mutation), and the lived mutants
# on stdout.
# MUTATION_FLAGS adds flags to gremlins unleash (--dry-run lists the
# mutants without testing them).
set -euo pipefail

gremlins=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
root=$(git rev-parse --show-toplevel)
out=${MUTATION_OUT:-$root/out/mutation}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/mutation-XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

cd "$root"
# tracked and untracked files, not ignored ones; a tracked file deleted in
# the working tree is left out
git ls-files -z --cached --others --exclude-standard |
	tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$work"

cd "$work"
for pkg in "$@"; do
	name=$(echo "${pkg#./}" | tr / -)
	echo "== $pkg"
	# shellcheck disable=SC2086 # MUTATION_FLAGS are flags, split on purpose
	"$gremlins" unleash --workers 1 --tags mutation --timeout-coefficient 3 --exclude-files '(^|/)testdata/' \
		--output "$out/$name.json" --output-statuses lt ${MUTATION_FLAGS:-} "$pkg"
done
