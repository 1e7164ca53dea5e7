#!/bin/sh
# Runs coreai-plan-bench on the shared benchmark sets and on seeded random
# instances, and writes the tables into the `solvers` section of
# docs/benchmarks.md (only that section is replaced).
#
#   bench/run-solvers.sh [BUILD_DIR] [SHARED_DIR]
#
# The MiniMalloc set gets 10 s per instance (the published task); the real
# traces and the random instances get the default budget of 1 s.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shared=${2:-$root/../shared}
bench=$build/bin/coreai-plan-bench
doc=$root/docs/benchmarks.md
limit=10000
default=1000
load() { cut -d' ' -f1-3 /proc/loadavg; }
[ -x "$bench" ] || { echo "run-solvers.sh: build coreai-plan-bench first ($bench)" >&2; exit 1; }

section=$(mktemp)
tables=$(mktemp)
trap 'rm -f "$section" "$section.new" "$tables"' EXIT
before=$(load)
{
  if [ -d "$shared/benchmarks/minimalloc/challenging" ]; then
    echo "### MiniMalloc challenging set at capacity 1048576 (the published task, --time-limit-ms $limit)"
    echo
    "$bench" --algorithm best --capacity 1048576 --time-limit-ms $limit \
      "$shared"/benchmarks/minimalloc/challenging/*.csv
    echo
    echo "### MiniMalloc challenging set, minimising the heap (--time-limit-ms $limit)"
    echo
    "$bench" --time-limit-ms $limit "$shared"/benchmarks/minimalloc/challenging/*.csv
    echo
  fi
  if [ -d "$shared/benchmarks/idealloc" ]; then
    echo "### idealloc traces, minimising (default budget, --time-limit-ms $default)"
    echo
    "$bench" --time-limit-ms $default "$shared"/benchmarks/idealloc/*.csv
    echo
  fi
  echo "### Seeded random instances, minimising (default budget, --time-limit-ms $default)"
  echo
  "$bench" --time-limit-ms $default --random 1000 --random 10000 --random 100000
  echo
  echo "### The 100k-buffer random instance with --time-limit-ms $limit"
  echo
  "$bench" --algorithm best --time-limit-ms $limit --random 100000
} > "$tables"
after=$(load)
{
  echo "<!-- BEGIN solvers -->"
  echo "## Solvers (\`bench/run-solvers.sh\`)"
  echo
  echo "\`coreai-plan-bench\` on $(nproc) cores, $(date -u +%Y-%m-%d), load average $before"
  echo "before and $after after the run (above 2 other jobs were sharing the"
  echo "cores, so wall times are up to load/2 times the CPU time). Heaps in"
  echo "bytes; the gap is heap / lower bound - 1; *opt* marks a heap proven"
  echo "optimal. \`best\` is the heuristics, then the exact search."
  echo
  cat "$tables"
  echo "<!-- END solvers -->"
} > "$section"

python3 "$root/bench/benchlib.py" "$doc" solvers "$section"
echo "updated the solvers section of $doc"
