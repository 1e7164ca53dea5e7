#!/bin/sh
# Regenerates docs/pictures/ from the shared graphs (../shared/graphs): the
# dynamic Gemma 4 E2B planned at S = 1, 16, 32, 64 and Qwen3-VL-2B's text
# model exported at S = 1 and 64, both for h18p. Writes, per model, the
# offline page (inspect --html), one entry's SVG (the README shows them)
# and screenshots of the page taken by headless Chromium: its top (the
# bytes against S, where the bytes go, the regions' picture) and, for
# Gemma, the picture with a rectangle hovered (a mouseover dispatched on
# it, as test/browser/probe.js does); and the page of the two-method
# ExecuTorch program test/lit/pte/Inputs/decoder.pte.
#
# Usage: scripts/gen-pictures.sh [BUILD_DIR] (default build/); needs
# chromium on PATH.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
# Planned from the repository root with a relative path, so the source
# locations the pages show read ../shared/graphs/..., not this machine's.
cd "$root"
shared=${COREAI_SHARED_DIR:-../shared}
plan="$build/bin/coreai-plan"
out="$root/docs/pictures"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

shot() { # PAGE PNG HEIGHT
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$work/profile" --window-size=1400,"$3" \
    --screenshot="$2" "file://$1" > /dev/null 2>&1
}

"$plan" plan "$shared/graphs/gemma4-e2b.dyn.mlir" --target h18p \
  --chunks 1,16,32,64 -o "$work/gemma" > /dev/null
"$plan" plan "$shared/graphs/qwen3-vl-2b-text.s1.mlir" \
  "$shared/graphs/qwen3-vl-2b-text.s64.mlir" --target h18p -o "$work/qwen" > /dev/null

mkdir -p "$out"
"$plan" inspect "$work/gemma/plan.manifest" --html "$out/gemma4-e2b-dyn.html"
"$plan" inspect "$work/gemma/plan.manifest" --svg "$out/gemma4-e2b-dyn-s32.svg" --chunk 32
"$plan" inspect "$work/qwen/plan.manifest" --html "$out/qwen3-vl-2b.html"
"$plan" inspect "$work/qwen/plan.manifest" --svg "$out/qwen3-vl-2b-s64.svg" --chunk 64

shot "$out/gemma4-e2b-dyn.html" "$out/gemma4-e2b-dyn-page.png" 2300
shot "$out/qwen3-vl-2b.html" "$out/qwen3-vl-2b-page.png" 2300
# The same page with the largest buffer borrowed in the logits output
# hovered and clicked: its tip and its pinned details.
python3 - "$out/gemma4-e2b-dyn.html" "$work/hovered.html" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
hover = """<script>
var rects = Array.prototype.slice.call(document.querySelectorAll(
    '.plan:not([hidden]) g[data-region^="output"] rect[data-b]'));
rects.sort(function (a, b) { return b.getBBox().width * b.getBBox().height -
                                    a.getBBox().width * a.getBBox().height; });
var r = rects[Math.floor(rects.length / 3)], box = r.getBoundingClientRect();
['mouseover', 'click'].forEach(function (kind) {
  r.dispatchEvent(new MouseEvent(kind, {bubbles: true,
    clientX: box.left + box.width / 2, clientY: box.top + box.height / 2}));
});
window.scrollTo(0, 0);
</script>"""
at = page.rfind("</body>")
open(sys.argv[2], "w", encoding="utf-8").write(page[:at] + hover + page[at:])
PY
shot "$work/hovered.html" "$out/gemma4-e2b-dyn-hover.png" 1500

# An ExecuTorch program's page: the two-method decoder of the lit tests
# (prefill and decode, each with its KV caches), a cache clicked in
# decode's re-plan (pinned in both plans) and an empty place clicked in
# prefill's (what is live at that instruction).
"$plan" inspect test/lit/pte/Inputs/decoder.pte --html "$work/decoder.html"
python3 - "$work/decoder.html" "$work/decoder-clicked.html" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
clicks = """<script>
function click(target, x, y) {
  target.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: x, clientY: y}));
}
var cache = document.querySelector('.plan.after rect.state'), box = cache.getBoundingClientRect();
click(cache, box.left + 5, box.top + 2);
var plans = document.querySelectorAll('.plan.after');
var frame = plans[1].querySelector('rect.frame').getBoundingClientRect();
click(plans[1].querySelector('svg'), frame.left + frame.width * 0.45, frame.top + 3);
</script>"""
at = page.rfind("</body>")
open(sys.argv[2], "w", encoding="utf-8").write(page[:at] + clicks + page[at:])
PY
shot "$work/decoder-clicked.html" "$out/decoder-pte-page.png" 900
echo "wrote $(cd "$out" && ls | tr '\n' ' ')to $out"
