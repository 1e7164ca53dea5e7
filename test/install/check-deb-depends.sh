#!/usr/bin/env bash
# check-deb-depends.sh BUILD (test/install): the .deb's Depends (cmake/
# Package.cmake, as configured into BUILD/CPackConfig.cmake) names exactly
# the packages owning the shared libraries the packaged binaries load
# directly, each library resolved as the loader does (ldd) to its real file
# (under /usr; dpkg may know it by its /lib name on a merged-/usr system).
set -euo pipefail
build=$1
depends=$(sed -n 's/^set(CPACK_DEBIAN_PACKAGE_DEPENDS "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
[ -n "$depends" ] || { echo "FAIL: no Depends in $build/CPackConfig.cmake"; exit 1; }
declared=$(tr ',' '\n' <<< "$depends" | sed 's/(.*)//; s/ //g' | sort -u)

owner() { # the package owning real file $1
  dpkg -S "$1" 2> /dev/null || dpkg -S "${1#/usr}" 2> /dev/null ||
    { echo "FAIL: no package owns $1" >&2; exit 1; }
}

needed=$(
  for binary in "$build"/bin/coreai-plan "$build"/bin/coreai-plan-opt \
      "$build"/bin/coreai-solve "$build"/lib/CReader/libcoreai-plan-manifest.so; do
    resolved=$(ldd "$binary")
    for soname in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      path=$(grep -o "[^[:space:]]*/$soname\b" <<< "$resolved" | tail -1)
      [ -n "$path" ] || { echo "FAIL: $binary: $soname not found" >&2; exit 1; }
      owner "$(readlink -f "$path")" | cut -d: -f1
    done
  done | sort -u)

if [ "$declared" != "$needed" ]; then
  echo "FAIL: Depends: $depends"
  diff <(echo "$declared") <(echo "$needed") | grep '^[<>]' | sed 's/^</  declared, not needed:/; s/^>/  needed, not declared:/'
  exit 1
fi
echo "ok: Depends: $depends"
