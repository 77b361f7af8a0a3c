#!/usr/bin/env bash
# bench.sh runs the normaliser's benchmarks and prints each step's cost as a
# ratio to runtime.DeepCopyJSON of the same object, measured in the same run.
set -euo pipefail
cd "$(dirname "$0")"
out=$(go test -run '^$' -bench 'DeepCopyJSON|CopyPruneDefault|Pipeline' -benchmem -count "${COUNT:-5}" .)
echo "$out" | grep -E '^Benchmark'
echo "$out" | awk '
/^Benchmark/ {
  split($1, a, "/"); name = a[1]; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", a[2]); size = a[2]
  ns[name "/" size] += $3; n[name "/" size]++
  for (i = 4; i <= NF; i++) if ($(i+1) == "allocs/op") al[name "/" size] = $i
}
END {
  printf "\n| object | deep copy ns/op | prune+default ns/op | ratio | whole pipeline ns/op | ratio | pipeline allocs/op |\n|---|---|---|---|---|---|---|\n"
  split("small large", sizes, " ")
  for (i = 1; i <= 2; i++) {
    s = sizes[i]
    c = ns["DeepCopyJSON/" s] / n["DeepCopyJSON/" s]
    pd = ns["CopyPruneDefault/" s] / n["CopyPruneDefault/" s] - c
    pl = ns["Pipeline/" s] / n["Pipeline/" s]
    printf "| %s | %.0f | %.0f | %.2fx | %.0f | %.2fx | %s |\n", s, c, pd, pd / c, pl, pl / c, al["Pipeline/" s]
  }
}'
