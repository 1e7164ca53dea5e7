#!/usr/bin/env python3
"""Heaps of every graph in ../shared planned by two builds, side by side.

For a change that must leave every heap equal or lower (docs/benchmarks.md
says which issue ran it): `bench/shared-heaps.py --base OLD/build --new
build`. Plans each shared graph with `coreai-plan plan --target h18p
--json` (dynamic graphs at --chunks 1,16,32,64), every default reuse on,
and prints one Markdown row per entry and S; exits 1 when a heap grew.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile


def graphs(shared):
    found = sorted(glob.glob(os.path.join(shared, "graphs", "*.mlir")))
    found += sorted(glob.glob(os.path.join(shared, "graphs", "tiny", "*.mlir")))
    return found


def plan(build, graph, out):
    command = [os.path.join(build, "bin", "coreai-plan"), "plan", graph,
               "--target", "h18p", "--json", "-o", out]
    if ".dyn." in os.path.basename(graph):
        command += ["--chunks", "1,16,32,64"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit("%s failed on %s: %s" % (command[0], graph, result.stderr))
    return {(e["entry"], e["chunk"]): e for e in json.loads(result.stdout)["entries"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="build directory of the baseline")
    parser.add_argument("--new", required=True, help="build directory of the change")
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared"))
    args = parser.parse_args()
    grew = 0
    print("| graph | entry | S | heap before | heap after | optimal before / after |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory() as scratch:
        for graph in graphs(args.shared):
            name = os.path.basename(graph)
            before = plan(args.base, graph, os.path.join(scratch, "base"))
            after = plan(args.new, graph, os.path.join(scratch, "new"))
            for key in sorted(before):
                old, new = before[key], after.get(key)
                if new is None:
                    raise SystemExit("%s: %s S=%d is not planned by the new build" % (name, key[0], key[1]))
                grew += new["heap"] > old["heap"]
                print("| %s | %s | %d | %d | %d | %s / %s |" % (
                    name, key[0], key[1], old["heap"], new["heap"],
                    "yes" if old["optimal"] else "no", "yes" if new["optimal"] else "no"))
    if grew:
        print("%d heaps grew" % grew, file=sys.stderr)
    return 1 if grew else 0


if __name__ == "__main__":
    sys.exit(main())
