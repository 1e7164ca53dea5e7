#!/usr/bin/env bash
# Start-up cost of solving a 5-buffer problem: `coreai-solve` (core and
# solvers on a static LLVMSupport) against `coreai-plan solve` (loads
# libMLIR/libLLVM). Mean wall time over N runs (a shell loop, so it includes
# fork and exec), CPU time per run (user + system, which the load of a
# shared machine does not inflate) and peak RSS (GNU time's %M); rewrites the `startup`
# section of docs/benchmarks.md.
#   bench/startup.sh [BUILD_DIR] [RUNS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$root/build}/bin
runs=${2:-200}
input=$root/test/lit/solve/Inputs/readme-example.csv
doc=$root/docs/benchmarks.md
section=$(mktemp)
trap 'rm -f "$section" "$section.new"' EXIT

measure() { # label, command...
  local label=$1; shift
  "$@" >/dev/null # warm the page cache
  local begin end kib cpu
  begin=$(date +%s%N)
  for ((i = 0; i < runs; ++i)); do "$@" >/dev/null; done
  end=$(date +%s%N)
  # CPU time (user + system) of the same loop: what the load does not add.
  cpu=$( { /usr/bin/time -f "%U %S" bash -c \
    'for ((i = 0; i < '"$runs"'; ++i)); do "$@" >/dev/null; done' _ "$@"; } \
    2>&1 | tail -1)
  kib=$( { /usr/bin/time -f "%M" "$@" >/dev/null; } 2>&1 | tail -1)
  printf '| `%s` | %.2f | %.2f | %.1f |\n' "$label" \
    "$(echo "($end - $begin) / $runs / 1000000" | bc -l)" \
    "$(echo "(${cpu% *} + ${cpu#* }) * 1000 / $runs" | bc -l)" \
    "$(echo "$kib / 1024" | bc -l)"
}

{
  echo "<!-- BEGIN startup -->"
  echo "## Start-up of \`solve\` (\`bench/startup.sh\`)"
  echo
  echo "The 5-buffer README example, minimised by \`best\`; mean of $runs runs on"
  echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) (shared machine: times are"
  echo "noisy)."
  echo
  echo "| command | wall (ms) | CPU, user + system (ms) | peak RSS (MiB) |"
  echo "| --- | ---: | ---: | ---: |"
  measure "coreai-solve" "$bin/coreai-solve" --input "$input"
  measure "coreai-plan solve" "$bin/coreai-plan" solve --input "$input"
  echo "<!-- END startup -->"
} > "$section"

python3 "$root/bench/benchlib.py" "$doc" startup "$section"
echo "updated the startup section of $doc"
