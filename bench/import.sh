#!/usr/bin/env bash
# Importing torch.export archives (.pt2): time and peak memory of
# `coreai-plan import` on every archive in ../shared/exports, and the heaps
# of the non-functional `.export.pt2` programs next to their core-ATen form.
# Rewrites the `import` section of docs/benchmarks.md.
#   bench/import.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$root/build}/bin/coreai-plan
exports=${COREAI_SHARED_DIR:-$root/../shared}/exports
runs=${RUNS:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The median of `runs` runs of each figure: wall s, CPU (user+sys) s, peak RSS.
time_import() { # archive
  local walls=() cpus=() rss=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -v -o "$out/time" "$bin" import "$1" -o "$out/model.mlir"
    walls+=("$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$out/time")")
    cpus+=("$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$out/time")")
    rss+=("$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/time")")
  done
  median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
  printf '%s %s %s\n' "$(median "${walls[@]}")" "$(median "${cpus[@]}")" "$(median "${rss[@]}")"
}

json_bytes() { # archive: size of its model JSON (read from the zip directory)
  python3 -c 'import sys, zipfile; print(sum(i.file_size for i in zipfile.ZipFile(sys.argv[1]).infolist() if "/models/" in "/" + i.filename and i.filename.endswith(".json")))' "$1"
}

heaps() { # archive, target, [--chunks ...] -> "S:heap:buffers ..."
  local archive=$1 target=$2; shift 2
  rm -rf "$out/plan"
  "$bin" plan "$archive" --target "$target" "$@" -o "$out/plan" >/dev/null || {
    echo "bench/import.sh: planning $archive failed" >&2; kill $$; }
  python3 -c 'import json, sys; print(" ".join("%s:%s:%s" % (e["chunk"], e["heap"], len(e["buffers"])) for e in json.load(open(sys.argv[1]))["entries"]))' "$out/plan/plan.json"
}

section=$(mktemp)
{
  echo "<!-- BEGIN import -->"
  echo "## Importing torch.export archives (\`bench/import.sh\`)"
  echo
  echo "\`coreai-plan import ARCHIVE.pt2 -o MODEL.mlir\` (read the zip directory and the"
  echo "model JSON only, build the module, verify it, print it with locations), median of"
  echo "$runs runs under GNU \`time -v\`. CPU is user + system time; the machine has"
  echo "$(nproc) cores and a load average of $(cut -d' ' -f1 /proc/loadavg) when this ran (other jobs),"
  echo "so wall time can exceed CPU time."
  echo
  echo "| archive | archive MB | model JSON MB | ops | wall (s) | CPU (s) | peak RSS (MiB) |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  for archive in "$exports"/*.pt2; do
    read -r wall cpu kib < <(time_import "$archive")
    ops=$(grep -c '^ *\(%[0-9:a-z]* = \)\?"torch\.aten\.' "$out/model.mlir" || true)
    printf '| `%s` | %.1f | %.1f | %s | %.2f | %.2f | %.0f |\n' "$(basename "$archive")" \
      "$(echo "$(stat -c %s "$archive") / 1000000" | bc -l)" \
      "$(echo "$(json_bytes "$archive") / 1000000" | bc -l)" "$ops" "$wall" "$cpu" \
      "$(echo "$kib / 1024" | bc -l)"
  done
  echo
  echo "### Non-functional programs against their core-ATen form"
  echo
  echo "\`coreai-plan plan --target T\` of the \`.export.pt2\` archive (in-place ops made"
  echo "functional on import; every plan passed the replay) and of the \`.core-aten.pt2\` one."
  echo
  echo "| model | target | S | export: buffers | export: heap | core ATen: buffers | core ATen: heap | export / core |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  for export in "$exports"/*.export.pt2; do
    model=$(basename "$export" .export.pt2)
    core="$exports/$model.core-aten.pt2"
    [ -f "$core" ] || continue
    chunks=()
    case "$model" in *dyn*) chunks=(--chunks 1,8,32,64) ;; esac
    for target in generic h18p; do
      read -ra a <<<"$(heaps "$export" "$target" "${chunks[@]}")"
      read -ra b <<<"$(heaps "$core" "$target" "${chunks[@]}")"
      for i in "${!a[@]}"; do
        IFS=: read -r s heap_a count_a <<<"${a[$i]}"
        IFS=: read -r _ heap_b count_b <<<"${b[$i]}"
        printf '| %s | %s | %s | %s | %s | %s | %s | %.3f |\n' "$model" "$target" "$s" \
          "$count_a" "$heap_a" "$count_b" "$heap_b" "$(echo "$heap_a / $heap_b" | bc -l)"
      done
    done
  done
  echo "<!-- END import -->"
} >"$section"

doc=$root/docs/benchmarks.md
python3 "$root/bench/benchlib.py" "$doc" import "$section"
cat "$section"
