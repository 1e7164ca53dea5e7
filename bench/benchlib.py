#!/usr/bin/env python3
"""What the benchmark scripts share.

replace_section rewrites one generated section of a docs page, the only way
the benchmarks touch docs/benchmarks.md: the text between
`<!-- BEGIN name -->` and `<!-- END name -->` is replaced (or the section is
appended). From a shell script:
    python3 bench/benchlib.py DOC NAME SECTION_FILE
where SECTION_FILE holds the body, with or without its two marker lines.

parse_arguments reads the options every Python benchmark takes.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_arguments(description, base=False):
    """--build (default build/), --shared (default $COREAI_SHARED_DIR or
    ../shared), --update (rewrite the section of docs/benchmarks.md); with
    `base`, --base (the build directory of the previous commit, run in the
    same run for comparison)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--shared", default=os.environ.get(
        "COREAI_SHARED_DIR", os.path.join(ROOT, "..", "shared")))
    parser.add_argument("--update", action="store_true")
    if base:
        parser.add_argument("--base",
                            help="build directory of the previous commit")
    return parser.parse_args()


def markers(name):
    return f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"


def replace_section(path, name, body):
    begin, end = markers(name)
    section = f"{begin}\n{body.strip(chr(10))}\n{end}"
    try:
        with open(path) as fp:
            text = fp.read()
    except FileNotFoundError:
        text = "# Benchmarks\n"
    if begin in text:
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end),
                      lambda _: section, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    with open(path, "w") as fp:
        fp.write(text)


def publish(text, name, update, doc="benchmarks.md"):
    """Prints a generated section and, with --update, writes it into
    docs/DOC between its markers."""
    print(text)
    if update:
        replace_section(os.path.join(ROOT, "docs", doc), name, text)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: benchlib.py DOC NAME SECTION_FILE")
    doc, name, section_file = sys.argv[1:]
    with open(section_file) as fp:
        lines = fp.read().strip("\n").split("\n")
    begin, end = markers(name)
    if lines and lines[0] == begin:
        lines = lines[1:]
    if lines and lines[-1] == end:
        lines = lines[:-1]
    replace_section(doc, name, "\n".join(lines))


if __name__ == "__main__":
    main()
