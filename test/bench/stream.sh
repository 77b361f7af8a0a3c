#!/usr/bin/env bash
# test/bench/stream.sh: wall, CPU and peak RSS of `impact` and `normalize` as the
# number of objects doubles, to show what memory depends on.
#
#   test/bench/stream.sh [N...]        (default: 20000 40000)
#
# Objects are Widgets of internal/impact/testdata (old.yaml, new.yaml),
# under unique names, in two shapes: a multi-document YAML stream, and one
# List (`kubectl get -A -o yaml`'s shape). GNU time (/usr/bin/time) reports
# the figures. No figure is asserted anywhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
ns=("$@"); [ ${#ns[@]} -gt 0 ] || ns=(20000 40000)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/normalize" ./cmd/controller-gen-default-normalize
crds=(--old internal/impact/testdata/old.yaml --new internal/impact/testdata/new.yaml)
widget() { # i indent
  printf '%sapiVersion: impact.example.com/v1\n%skind: Widget\n%smetadata:\n%s  name: w%d\n%s  namespace: default\n%sspec:\n%s  size: %s\n%s  replicas: %d\n' \
    "$2" "$2" "$2" "$2" "$1" "$2" "$2" "$2" "$([ $(($1 % 2)) = 1 ] && echo S || echo M)" "$2" "$(($1 % 5))"
}
measure() { # label command...
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "${@:2}" >/dev/null 2>"$tmp/stderr" || true
  read -r wall user sys rss <"$tmp/time"
  printf '| %s | %s s | %.2f s | %d MB |\n' "$1" "$wall" "$(echo "$user + $sys" | bc)" "$((rss / 1024))"
}
echo "| run | wall | CPU | peak RSS |"
echo "|---|---|---|---|"
for n in "${ns[@]}"; do
  { for ((i = 0; i < n; i++)); do echo '---'; widget "$i" ''; done; } >"$tmp/stream.yaml"
  { echo 'apiVersion: v1'; echo 'kind: List'; echo 'items:';
    for ((i = 0; i < n; i++)); do widget "$i" '  ' | sed '1s/^  /- /'; done; } >"$tmp/list.yaml"
  measure "impact, stream of $n" "$tmp/normalize" impact "${crds[@]}" -o json "$tmp/stream.yaml"
  measure "impact (text, grouped), stream of $n" "$tmp/normalize" impact "${crds[@]}" "$tmp/stream.yaml"
  measure "impact (text -v), stream of $n" "$tmp/normalize" impact "${crds[@]}" -v "$tmp/stream.yaml"
  measure "impact, List of $n" "$tmp/normalize" impact "${crds[@]}" -o json "$tmp/list.yaml"
  measure "normalize, stream of $n" "$tmp/normalize" --crd internal/impact/testdata/old.yaml -o json "$tmp/stream.yaml"
done
