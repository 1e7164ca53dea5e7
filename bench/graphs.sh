#!/usr/bin/env bash
# Plans every function of every graph in the shared graphs folder with each
# algorithm, with and without in-place reuse, through `coreai-plan buffers`,
# and rewrites the `graphs` section of docs/benchmarks.md.
#
#   bench/graphs.sh [BUILD_DIR]     (default: build)
#   COREAI_SHARED_DIR=/path/to/shared bench/graphs.sh build-release
#
# Times are those `coreai-plan buffers` reports (parse of the file, then
# liveness + solve + verify + annotate per function) and the wall time of the
# whole process, on whatever machine runs the script.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shared=${COREAI_SHARED_DIR:-$root/../shared}
tool=$build/bin/coreai-plan
doc=$root/docs/benchmarks.md
algorithms=(naive greedy-by-size greedy-by-breadth best-fit best)

[[ -x $tool ]] || { echo "graphs.sh: no $tool (build first)" >&2; exit 1; }
[[ -d $shared/graphs ]] || { echo "graphs.sh: no $shared/graphs" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
records=$work/records.tsv   # graph mode algorithm function S buffers LB heap optimal saved parse-ms plan-ms wall-ms
errors=$work/errors.tsv     # graph first-error-line
: > "$records"
: > "$errors"

now_ms() { date +%s%3N; }

for graph in "$shared"/graphs/*.mlir; do
  name=$(basename "$graph")
  for mode in plain in-place; do
    flag=()
    [[ $mode == in-place ]] && flag=(--in-place)
    for algorithm in "${algorithms[@]}"; do
      begin=$(now_ms)
      if ! "$tool" buffers "$graph" --algorithm "$algorithm" "${flag[@]}" \
          > "$work/out" 2> "$work/err"; then
        if ! grep -q "^$name	" "$errors"; then
          printf '%s\t%s\n' "$name" "$(grep -m1 'error:' "$work/err" |
            sed 's/^.*error: //')" >> "$errors"
        fi
        continue
      fi
      wall=$(( $(now_ms) - begin ))
      parse=$(sed -n '1s/.*parsed in \([0-9.]*\) ms/\1/p' "$work/out")
      # Rows: @f S buffers LB heap heap/LB algorithm optimal saved ms
      awk -v g="$name" -v m="$mode" -v a="$algorithm" -v p="$parse" \
          -v w="$wall" 'NR > 2 && $1 ~ /^@/ {
        printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
               g, m, a, $1, $2, $3, $4, $5, $8, $9, p, $10, w }' \
        "$work/out" >> "$records"
    done
  done
done

# One table per mode: a row per (graph, function), a heap column per
# algorithm; times are those of the `best` run.
table() {
  local mode=$1
  awk -F'\t' -v mode="$mode" -v algs="${algorithms[*]}" '
    BEGIN { n = split(algs, alg, " ") }
    $2 == mode {
      key = $1 SUBSEP $4
      if (!(key in seen)) { seen[key] = 1; order[++rows] = key }
      graph[key] = $1; fn[key] = $4; s[key] = $5
      heap[key, $3] = $8
      if ($3 == "best") {
        buffers[key] = $6; lb[key] = $7; optimal[key] = $9; saved[key] = $10
        parse[key] = $11; plan[key] = $12; wall[key] = $13
      }
    }
    END {
      printf "| graph | function | S | buffers | lower bound |"
      for (i = 1; i <= n; ++i) printf " %s |", alg[i]
      printf " best / LB |"
      if (mode == "in-place") printf " saved by reuse |"
      printf " parse ms | liveness + plan ms | process wall ms |\n"
      printf "| --- | --- | ---: | ---: | ---: |"
      for (i = 1; i <= n; ++i) printf " ---: |"
      printf " ---: |"
      if (mode == "in-place") printf " ---: |"
      printf " ---: | ---: | ---: |\n"
      for (r = 1; r <= rows; ++r) {
        k = order[r]
        printf "| `%s` | %s | %s | %s | %s |", graph[k], fn[k], s[k] ? s[k] : "-",
               buffers[k], lb[k]
        for (i = 1; i <= n; ++i) printf " %s |", heap[k, alg[i]]
        printf " %.6f%s |", lb[k] ? heap[k, "best"] / lb[k] : 1,
               optimal[k] == "yes" ? " (optimal)" : ""
        if (mode == "in-place") printf " %s |", saved[k]
        printf " %s | %s | %s |\n", parse[k], plan[k], wall[k]
      }
    }' "$records"
}

section=$work/section.md
{
  echo "<!-- BEGIN graphs -->"
  echo "## Exported graphs: liveness and planning (\`bench/graphs.sh\`)"
  echo
  echo "Every function of every graph in \`../shared/graphs\`, planned at its"
  echo "static shapes by \`coreai-plan buffers\` (alignment 64; rules in"
  echo "docs/LIVENESS.md). Sizes in bytes. *lower bound*: \`coreai::lowerBound\`"
  echo "(peak of live bytes under the alignment; no heap can be smaller)."
  echo "*(optimal)*: the solver proved the heap minimal. Times: parse of the whole file, then liveness + solve +"
  echo "verify + annotate of the function (with in-place reuse this includes a"
  echo "second plan without reuse, to measure the saving), and the wall time"
  echo "of the whole \`coreai-plan buffers\` process (all functions), for the"
  echo "\`best\` algorithm. Generated on $(date -u +%Y-%m-%d) ($(nproc) cores)."
  echo
  echo "### Without in-place reuse"
  echo
  table plain
  echo
  echo "### With in-place reuse (\`--in-place\`)"
  echo
  table in-place
  if [[ -s $errors ]]; then
    echo
    echo "Not planned (input needs specialisation first):"
    echo
    while IFS=$'\t' read -r graph message; do
      echo "- \`$graph\`: $message"
    done < "$errors"
  fi
  echo "<!-- END graphs -->"
} > "$section"

python3 "$root/bench/benchlib.py" "$doc" graphs "$section"
echo "graphs.sh: wrote the graphs section of $doc" >&2
