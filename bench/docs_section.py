#!/usr/bin/env python3
"""Rewrites one generated section of a docs page, the only way the benchmarks
touch docs/benchmarks.md: the text between `<!-- BEGIN name -->` and
`<!-- END name -->` is replaced (or the section is appended).

As a module: replace_section(path, name, body). From a shell script:
    python3 bench/docs_section.py DOC NAME SECTION_FILE
where SECTION_FILE holds the body, with or without its two marker lines.
"""
import re
import sys


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


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: docs_section.py DOC NAME SECTION_FILE")
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
