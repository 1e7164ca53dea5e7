#!/usr/bin/env bash
# install-and-run.sh BUILD SOURCE SHARED LIBDIR CC VERSION (test/install).
set -euo pipefail
build=$1 source=$2 shared=$3 libdir=$4 cc=$5 version=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/installed" > /dev/null
# Relocatable: nothing below refers to where it was installed, and the
# package files (where such paths would leak) name no build or source path.
mv "$tmp/installed" "$tmp/prefix"
prefix=$tmp/prefix
if grep -rlF -e "$build" -e "$source" -e "$tmp/installed" \
    "$prefix/$libdir/cmake" "$prefix/$libdir/pkgconfig"; then
  fail "installed package files name the build, source or install tree"
fi

for tool in coreai-plan coreai-plan-opt coreai-solve; do
  "$prefix/bin/$tool" --version | grep -q "$tool $version (git " ||
    fail "$tool --version: $("$prefix/bin/$tool" --version)"
done

# The installed planner reads the installed targets (relative to itself):
# a target only the install tree has must be found.
sed 's/"name": "h18p"/"name": "installed-h18p"/' "$prefix/share/coreai-plan/targets/h18p.json" \
  > "$prefix/share/coreai-plan/targets/installed-h18p.json"
model=$shared/graphs/gemma4-e2b.multi.mlir
if [ ! -f "$model" ]; then
  echo "note: $model not found; planning the bundled tiny decoder instead"
  model=$source/examples/tiny-decoder.bundle.mlir
fi
(cd "$tmp" && "$prefix/bin/coreai-plan" plan "$model" --target installed-h18p -o out > /dev/null)
manifest=$tmp/out/plan.manifest

configure() { # NAME, then cmake options
  local name=$1; shift
  cmake -G Ninja -S "$source/examples/runtime" -B "$tmp/$name" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release "$@" > "$tmp/$name.log" ||
    { cat "$tmp/$name.log"; fail "configuring examples/runtime ($name)"; }
  cmake --build "$tmp/$name" > "$tmp/$name.build.log" ||
    { cat "$tmp/$name.build.log"; fail "building examples/runtime ($name)"; }
  if grep -q "warning" "$tmp/$name.build.log"; then
    cat "$tmp/$name.build.log"; fail "warnings building examples/runtime ($name)"
  fi
}
configure package -DCMAKE_PREFIX_PATH="$prefix"
grep -q "coreai-plan $version: planner $prefix/bin/coreai-plan" "$tmp/package.log" ||
  fail "find_package(CoreAIPlan) did not give the installed planner's path"
PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig configure pkg-config -DRUNTIME_USE_PKG_CONFIG=ON

entries=$("$tmp/package/coreai-runtime-example" "$manifest")
[ -n "$entries" ] || fail "no entries in $manifest"
for build_kind in package pkg-config; do
  while read -r entry s; do
    "$tmp/$build_kind/coreai-runtime-example" "$manifest" "$entry" "$s" ||
      fail "$build_kind build: binding $entry at S=$s"
  done <<< "$entries"
done
echo "ok: $(wc -l <<< "$entries") entries bound by both builds"
