#!/usr/bin/env bash
# Peak RSS and wall time of planning the full Gemma bundle at all four chunk
# sizes; rewrites the `memory` section of docs/benchmarks.md.
#   bench/memory.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$root/build}/bin/coreai-plan
graphs=${COREAI_SHARED_DIR:-$root/../shared}/graphs
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

measure() { # label, files...
  local label=$1; shift
  rm -rf "$out/plan"
  /usr/bin/time -f "%M %e" -o "$out/time" "$bin" plan "$@" --target h18p \
    -o "$out/plan" >/dev/null
  read -r kib seconds <"$out/time"
  local entries
  entries=$("$bin" inspect "$out/plan/plan.manifest" | grep -c '^@')
  printf '| %s | %s | %.1f | %s |\n' "$label" "$entries" "$(echo "$kib / 1024" | bc -l)" "$seconds"
}

section=$(mktemp)
{
  echo "<!-- BEGIN memory -->"
  echo "## Memory of one \`plan\` run (\`bench/memory.sh\`)"
  echo
  echo "Peak resident set size (GNU time's %M) of \`coreai-plan plan --target h18p\`,"
  echo "parse + specialise + liveness + solve + verify + write, on $(nproc) cores."
  echo
  echo "| input | entries | peak RSS (MiB) | wall (s) |"
  echo "| --- | ---: | ---: | ---: |"
  measure "gemma4-e2b.multi + s16 + s64 (main S=1, prefill S=32, main S=16, S=64)" \
    "$graphs/gemma4-e2b.multi.mlir" "$graphs/gemma4-e2b.s16.mlir" "$graphs/gemma4-e2b.s64.mlir"
  measure "gemma4-e2b.dyn at S=1,16,32,64" "$graphs/gemma4-e2b.dyn.mlir"
  echo "<!-- END memory -->"
} >"$section"

doc=$root/docs/benchmarks.md
python3 "$root/bench/benchlib.py" "$doc" memory "$section"
cat "$section"
