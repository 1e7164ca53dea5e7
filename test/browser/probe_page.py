#!/usr/bin/env python3
"""Loads a page in headless Chromium and checks it through the DOM.

Usage: probe_page.py CHROMIUM PAGE.html PLAN.json
       probe_page.py CHROMIUM PAGE.html PLAN.json --program AFTER.json SUMMARY.json

The first form checks the bundle page of a manifest, PLAN.json its JSON; the
second the page of an ExecuTorch program (`inspect PROGRAM.pte --html`):
PLAN.json is `inspect PROGRAM.pte --json`, AFTER.json the same of the
program `coreai-plan plan` wrote, SUMMARY.json what `plan --json` printed.

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
- the search box finds a value by name and pins it;
- (printed for both) the charts against S on the first screen (1400x1100).
A program's page (program_checks) has no S axis and no tabs; instead, on its
first screen: no chart against S and no word of S or bundles; each method's
arena whole, as exported and re-planned, each with its size and lower bound
marked as `plan --json` gives them; its mutable buffers (the manifest's
"mutable buffer" buffers) hatched as state in both, their bytes listed.
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


def expected_tip(entry, hover, program=False):
    """What the tip must say about the rectangle, from the manifest."""
    if hover["kind"] == "buffer":
        b = entry["buffers"][hover["index"]]
        region = "the heap" if b["region"] == "heap" else "output %d" % b["region_index"]
        region = "arena" if program else region
        return [b["value"] + " = " + b["op"], b["location"], "%d bytes" % b["size"],
                "live [%d, %d)" % (b["start"], b["end"]), "at offset %d in %s" % (b["offset"], region)]
    p = entry["placed"][hover["index"]]
    return [p["value"] + " = " + p["op"], p["location"], "%d bytes" % p["size"],
            "at offset 0 in %s %d" % (p["region"], p["region_index"]), "live ["]


def check_regions(seen, program):
    regions = seen["regions"]
    empty = [r for r in regions if r["rects"] == 0]
    print("region panels: %d, each with rectangles: %s" % (len(regions), "no" if empty else "yes"))
    for r in empty:
        print("  empty: %s %s" % (r["plan"], r["region"]))
    ok = bool(regions) and not empty
    # A program's arena is drawn true to scale: small tensors are thin.
    if regions and not program:
        low = min(regions, key=lambda r: r["tall"] / max(r["rects"], 1))
        share = low["tall"] / max(low["rects"], 1)
        print("rectangles at least 2 px high: %s in every panel (lowest: %.1f%%, %s %s)"
              % ("most" if share >= 0.5 else "NOT most", 100 * share, low["plan"], low["region"]))
        ok = ok and share >= 0.5
    return ok


def check_s_axis(seen):
    axes = seen["axes"]
    worst = max((a["deviation"] for a in axes), default=float("inf"))
    planned = max((a["planned"] for a in axes), default=0)
    print("S axis: %d charts, up to %d planned S, %s (largest deviation %.2f px)"
          % (len(axes), planned, "proportional" if worst <= 1.0 else "NOT proportional", worst))
    cuts = sorted({c["s"] for c in seen.get("cuts", [])})
    print("cuts between parametric pieces: %s" % (", ".join("after S=%d" % s for s in cuts) or "none"))
    return bool(axes) and worst <= 1.0


def check_hovers(seen, manifests, program):
    """manifests: per plan label ("" on the bundle page) the manifest's entries."""
    good = 0
    for hover in seen["hovers"]:
        manifest = manifests.get(hover["label"], {"entries": []})
        entries = {(e["entry"], e["chunk"]): e for e in manifest["entries"]}
        key = (hover["entry"], 0 if program else hover["s"])
        if key not in entries:
            print("  no manifest entry for @%s %s (plan %r)" % (key + (hover["label"],)))
            continue
        wanted = expected_tip(entries[key], hover, program)
        missing = [w for w in wanted if w not in hover["text"]]
        if hover["shown"] and not missing:
            good += 1
        else:
            print("  tip of %s %d at @%s %s lacks %s: %r"
                  % (hover["kind"], hover["index"], hover["entry"], hover["label"] or hover["s"],
                     missing, hover["text"]))
    print("hover: %d of %d tips show their rectangle's value, op, location, bytes, live range, "
          "region and offset" % (good, len(seen["hovers"])))
    return bool(seen["hovers"]) and good == len(seen["hovers"])


def check_program(seen, before, summary):
    """The first screen of a program's page, against the manifest and the plan."""
    first = seen.get("firstScreen") or {"text": "", "sCharts": 0, "arenas": []}
    words = [w for w in ("S=", "against S", "bundle", "Bundle") if w in first["text"]]
    print("first screen: %d charts against S, words of S or bundles: %s"
          % (first["sCharts"], ", ".join(repr(w) for w in words) or "none"))
    ok = first["sCharts"] == 0 and not words
    figures = {a["arena"]: a for a in summary["arenas"]}
    sizes = {int(k): v for k, v in summary["arena_sizes"].items()}
    shown = {a["entry"]: a for a in first["arenas"]}
    for entry in before["entries"]:
        name = entry["entry"]
        arena = shown.get(name, {"plans": [], "stateText": ""})
        plans = {p["label"]: p for p in arena["plans"]}
        want = figures.get(name)
        if want is None:
            print("  @%s: not in the plan's summary" % name)
            ok = False
            continue
        after = sizes.get(want["memory_id"], want["before"])
        wanted = {"as exported": (want["before"], want["lower_bound"]),
                  "re-planned": (after, want["lower_bound"])}
        found = []
        for label, (size, bound) in wanted.items():
            p = plans.get(label)
            good = p is not None and p["whole"] and p["arena"] == size and p["bound"] == bound
            found.append("%s %s" % (label, "whole, arena %d, lower bound %d" % (size, bound)
                                    if good else "NOT as planned: %r" % (p,)))
            ok = ok and good
        print("first screen: @%s %s" % (name, "; ".join(found)))
        states = [i for i, b in enumerate(entry["buffers"]) if b["op"] == "mutable buffer"]
        state_bytes = sum(entry["buffers"][i]["size"] for i in states)
        hatched = all(sorted(plans.get(l, {"state": None})["state"] or []) == states for l in wanted)
        listed = re.search(r"\((\d+) bytes\)", arena["stateText"])
        listed = int(listed.group(1)) if listed else 0
        good = hatched and listed == state_bytes and (bool(states) == ("mutable buffer" in arena["stateText"]))
        print("  state: %d mutable buffers (%d bytes) %s" % (
            len(states), state_bytes,
            "hatched in both plans, listed beside them" if good else
            "NOT shown as state (hatched: %s, listed: %d bytes)" % (hatched, listed)))
        ok = ok and good
    return ok


def main():
    binary, page, plan_json = sys.argv[1:4]
    program = len(sys.argv) > 4 and sys.argv[4] == "--program"
    seen = probe(binary, page)
    if seen is None:
        print("probe: the page did not run the probe\nprobe: FAILED")
        return 1
    ok = not seen["errors"]
    for error in seen["errors"]:
        print("error: " + error)
    print("plans: %d" % len(seen["plans"]))
    ok = check_regions(seen, program) and ok
    manifest = json.load(open(plan_json))
    if program:
        after, summary = json.load(open(sys.argv[5])), json.load(open(sys.argv[6]))
        ok = check_program(seen, manifest, summary) and ok
        manifests = {"as exported": manifest, "re-planned": after}
    else:
        ok = check_s_axis(seen) and ok
        manifests = {"": manifest}
    ok = check_hovers(seen, manifests, program) and ok

    live = seen.get("liveTitle", "")
    print("click on an empty place: " + (live or "nothing"))
    ok = ok and live.startswith("live at %s " % ("instruction" if program else "op"))
    search = seen.get("search") or {}
    pinned = search.get("selected") and search.get("query", "?") in search.get("details", "")
    print("search: %d results for %s, the first %s" % (search.get("results", 0), search.get("query"),
                                                      "pinned" if pinned else "NOT pinned"))
    ok = ok and search.get("results", 0) > 0 and pinned
    if not program:
        print("first screen: %d charts against S" % (seen.get("firstScreen") or {}).get("sCharts", 0))
    print("probe: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
