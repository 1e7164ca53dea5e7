#!/bin/sh
# Runs coreai-plan-bench on the shared benchmark sets and on seeded random
# instances, and writes the tables into the `solvers` section of
# docs/benchmarks.md (only that section is replaced).
#
#   bench/run-solvers.sh [BUILD_DIR] [SHARED_DIR]
#
# Slow on purpose: `best` gets 10 s per instance, as in the issue's task.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shared=${2:-$root/../shared}
bench=$build/bin/coreai-plan-bench
doc=$root/docs/benchmarks.md
limit=10000
[ -x "$bench" ] || { echo "run-solvers.sh: build coreai-plan-bench first ($bench)" >&2; exit 1; }

section=$(mktemp)
trap 'rm -f "$section" "$section.new"' EXIT
{
  echo "<!-- BEGIN solvers -->"
  echo "## Solvers (\`bench/run-solvers.sh\`)"
  echo
  echo "\`coreai-plan-bench\` on $(nproc) cores, $(date -u +%Y-%m-%d). Heaps in bytes; the"
  echo "gap is heap / lower bound - 1; *opt* marks a heap proven optimal. \`best\`"
  echo "gets --time-limit-ms $limit per instance (heuristics, then the exact"
  echo "search). Other jobs may have shared the machine: times are indicative."
  echo
  if [ -d "$shared/benchmarks/minimalloc/challenging" ]; then
    echo "### MiniMalloc challenging set at capacity 1048576 (the published task)"
    echo
    "$bench" --algorithm best --capacity 1048576 --time-limit-ms $limit \
      "$shared"/benchmarks/minimalloc/challenging/*.csv
    echo
    echo "### MiniMalloc challenging set, minimising the heap"
    echo
    "$bench" --time-limit-ms $limit "$shared"/benchmarks/minimalloc/challenging/*.csv
    echo
  fi
  if [ -d "$shared/benchmarks/idealloc" ]; then
    echo "### idealloc traces (no capacity)"
    echo
    "$bench" --time-limit-ms $limit "$shared"/benchmarks/idealloc/*.csv
    echo
  fi
  echo "### Seeded random instances"
  echo
  "$bench" --time-limit-ms $limit --random 1000 --random 10000 --random 100000
  echo "<!-- END solvers -->"
} > "$section"

touch "$doc"
if grep -q '^<!-- BEGIN solvers -->' "$doc"; then
  awk -v f="$section" '
    /^<!-- BEGIN solvers -->/ { while ((getline line < f) > 0) print line; skip = 1; next }
    /^<!-- END solvers -->/ { skip = 0; next }
    !skip { print }' "$doc" > "$section.new"
else
  { cat "$doc"; echo; cat "$section"; } > "$section.new"
fi
cat "$section.new" > "$doc"
echo "updated the solvers section of $doc"
