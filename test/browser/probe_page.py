#!/usr/bin/env python3
"""Loads the bundle page in headless Chromium and checks it through the DOM.

Usage: probe_page.py CHROMIUM PAGE.html PLAN.json

Appends probe.js to a copy of the page, so that it runs in the page after
the page's own script, and reads back what it measured from the DOM
Chromium dumps. Checks, and prints for FileCheck:
- every region panel of every plan (each tab clicked) holds rectangles,
  and most of them (at least half, in every panel) are 2 pixels high or
  more as laid out;
- every growth chart places S proportionally: its points and tick labels
  lie on one line x = a + b*S (within a pixel);
- hovering a rectangle (a mouseover event dispatched on it) shows a tip
  naming its value, op, source location, bytes, live range, region and
  offset, as PLAN.json (the manifest's JSON) records that buffer;
- a click on an empty place of a picture says what is live at that op;
- (printed only) the cuts between a parametric plan's pieces on the S axis;
- the search box finds a value by name and pins it.
Exit 0 when all hold, 1 otherwise.
"""
import html
import json
import os
import re
import subprocess
import sys
import tempfile

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars",
         "--window-size=1400,1100"]


def probe(binary, page):
    text = open(page, encoding="utf-8").read()
    script = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe.js"),
                  encoding="utf-8").read()
    at = text.rfind("</body>")
    at = len(text) if at < 0 else at
    with tempfile.TemporaryDirectory() as work:
        probed = os.path.join(work, "probed.html")
        with open(probed, "w", encoding="utf-8") as f:
            f.write(text[:at] + "<script>" + script + "</script>" + text[at:])
        profile = os.path.join(work, "profile")
        dom = subprocess.run([binary, *FLAGS, "--user-data-dir=" + profile, "--dump-dom",
                              "file://" + probed],
                             capture_output=True, timeout=180, check=True).stdout.decode("utf-8", "replace")
    found = re.search(r'<pre id="probe-result">(.*?)</pre>', dom, re.S)
    return json.loads(html.unescape(found.group(1))) if found else None


def expected_tip(entry, hover):
    """What the tip must say about the rectangle, from the manifest."""
    if hover["kind"] == "buffer":
        b = entry["buffers"][hover["index"]]
        region = "the heap" if b["region"] == "heap" else "output %d" % b["region_index"]
        return [b["value"] + " = " + b["op"], b["location"], "%d bytes" % b["size"],
                "live [%d, %d)" % (b["start"], b["end"]), "at offset %d in %s" % (b["offset"], region)]
    p = entry["placed"][hover["index"]]
    return [p["value"] + " = " + p["op"], p["location"], "%d bytes" % p["size"],
            "at offset 0 in %s %d" % (p["region"], p["region_index"]), "live ["]


def main():
    binary, page, plan_json = sys.argv[1:4]
    seen = probe(binary, page)
    if seen is None:
        print("probe: the page did not run the probe\nprobe: FAILED")
        return 1
    ok = not seen["errors"]
    for error in seen["errors"]:
        print("error: " + error)
    print("plans: %d" % len(seen["plans"]))

    regions = seen["regions"]
    empty = [r for r in regions if r["rects"] == 0]
    print("region panels: %d, each with rectangles: %s" % (len(regions), "no" if empty else "yes"))
    for r in empty:
        print("  empty: %s %s" % (r["plan"], r["region"]))
    if regions:
        low = min(regions, key=lambda r: r["tall"] / max(r["rects"], 1))
        share = low["tall"] / max(low["rects"], 1)
        print("rectangles at least 2 px high: %s in every panel (lowest: %.1f%%, %s %s)"
              % ("most" if share >= 0.5 else "NOT most", 100 * share, low["plan"], low["region"]))
        ok = ok and share >= 0.5
    ok = ok and bool(regions) and not empty

    axes = seen["axes"]
    worst = max((a["deviation"] for a in axes), default=float("inf"))
    planned = max((a["planned"] for a in axes), default=0)
    print("S axis: %d charts, up to %d planned S, %s (largest deviation %.2f px)"
          % (len(axes), planned, "proportional" if worst <= 1.0 else "NOT proportional", worst))
    ok = ok and bool(axes) and worst <= 1.0

    cuts = sorted({c["s"] for c in seen.get("cuts", [])})
    print("cuts between parametric pieces: %s" % (", ".join("after S=%d" % s for s in cuts) or "none"))

    manifest = json.load(open(plan_json))
    entries = {(e["entry"], e["chunk"]): e for e in manifest["entries"]}
    good = 0
    for hover in seen["hovers"]:
        wanted = expected_tip(entries[(hover["entry"], hover["s"])], hover)
        missing = [w for w in wanted if w not in hover["text"]]
        if hover["shown"] and not missing:
            good += 1
        else:
            print("  tip of %s %d at @%s S=%d lacks %s: %r"
                  % (hover["kind"], hover["index"], hover["entry"], hover["s"], missing, hover["text"]))
    print("hover: %d of %d tips show their rectangle's value, op, location, bytes, live range, "
          "region and offset" % (good, len(seen["hovers"])))
    ok = ok and seen["hovers"] and good == len(seen["hovers"])

    live = seen.get("liveTitle", "")
    print("click on an empty place: " + (live or "nothing"))
    ok = ok and live.startswith("live at op ")
    search = seen.get("search") or {}
    pinned = search.get("selected") and search.get("query", "?") in search.get("details", "")
    print("search: %d results for %s, the first %s" % (search.get("results", 0), search.get("query"),
                                                      "pinned" if pinned else "NOT pinned"))
    ok = ok and search.get("results", 0) > 0 and pinned
    print("probe: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
