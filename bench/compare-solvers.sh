#!/bin/sh
# `best` of this build against `best` of another build (say the base commit
# of a change), instance by instance and interleaved, so that both runs of
# an instance see the same load on a shared machine. Prints markdown rows:
# the new heap and time, then the base heap and time, then the load.
#
#   bench/compare-solvers.sh BASE_BENCH [BUILD_DIR] [SHARED_DIR]
#
# BASE_BENCH is a coreai-plan-bench built from the other commit.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
base=$1
new=${2:-$root/build}/bin/coreai-plan-bench
shared=${3:-$root/../shared}/benchmarks
row() { # time limit in ms, then the instance arguments
  limit=$1; shift
  b=$("$base" --algorithm best --time-limit-ms "$limit" "$@" | tail -1 |
      awk -F'|' '{print $5 "|" $6}')
  n=$("$new" --algorithm best --time-limit-ms "$limit" "$@" | tail -1 |
      awk -F'|' '{print $2 "|" $3 "|" $4 "|" $5 "|" $6}')
  echo "| $limit ms |$n|$b| $(cut -d' ' -f1 /proc/loadavg) |"
}
echo "| budget | instance | buffers | lower bound | new heap (gap) | new time | base heap (gap) | base time | load |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
for f in "$shared"/minimalloc/challenging/*.csv; do row 10000 "$f"; done
for f in "$shared"/idealloc/*.csv; do row 1000 "$f"; done
for n in 1000 10000 100000; do row 1000 --random $n; done
row 10000 --random 100000
