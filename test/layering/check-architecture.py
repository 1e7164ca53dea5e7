#!/usr/bin/env python3
"""The architecture page check (ctest `architecture-doc`): docs/ARCHITECTURE.md
stays true and short.

Fails (exit 1, one line per finding) when
  - a path the page names in backquotes does not exist in the source tree
    (a token counts as a path when it has a slash or a source file's ending;
    `build/...` and `../...` paths, placeholders in angle brackets and globs
    are skipped);
  - a table cell is longer than --max-cell characters;
  - a top-level folder of the tree has no row of its own in the table of
    "Where things live".
"""
import argparse
import os
import re
import subprocess
import sys

PATH_ENDINGS = (".h", ".cpp", ".c", ".py", ".td", ".def", ".json", ".md",
                ".fbs", ".cmake", ".txt", ".in", ".sh", ".mlir")
TOKEN = re.compile(r"`([^`\s]+)`")


def looks_like_path(token):
    # Outside the tree (`../shared`) or made by the build: not this page's.
    if token.startswith(("build/", "../", "-", "--", "http", "$", "%")):
        return False
    if any(c in token for c in "<>*{}()=,;:|"):
        return False
    return "/" in token or token.endswith(PATH_ENDINGS)


def exists(src, token):
    path = token.rstrip("/")
    if os.path.exists(os.path.join(src, path)):
        return True
    # A bare file name is fine where it stands somewhere in the tree (rows
    # name files inside the folder of their first cell).
    if "/" not in path:
        return bool(find(src, path))
    return False


def find(src, name):
    listed = subprocess.run(["git", "ls-files", f"*{name}"], cwd=src,
                            capture_output=True, text=True).stdout.split()
    if listed:
        return listed
    for dirpath, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
        if name in files or name in dirs:
            return [dirpath]
    return []


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--max-cell", type=int, default=300)
    args = parser.parse_args()
    page = os.path.join(args.source_dir, "docs", "ARCHITECTURE.md")
    with open(page, encoding="utf-8") as f:
        lines = f.read().splitlines()
    errors = []
    first_cells = []
    for number, line in enumerate(lines, 1):
        where = f"docs/ARCHITECTURE.md:{number}"
        for token in TOKEN.findall(line):
            if looks_like_path(token) and not exists(args.source_dir, token):
                errors.append(f"{where}: names '{token}', which does not exist")
        if line.startswith("|") and not re.match(r"^\|\s*-", line):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            first_cells.append(cells[0])
            for cell in cells:
                if len(cell) > args.max_cell:
                    errors.append(f"{where}: a cell of {len(cell)} characters "
                                  f"(at most {args.max_cell}): "
                                  f"'{cell[:50]}...'")
    tracked = subprocess.run(["git", "ls-files"], cwd=args.source_dir,
                             capture_output=True, text=True).stdout.split()
    folders = sorted({p.split("/")[0] for p in tracked if "/" in p
                      and not p.startswith(".")})
    named = " ".join(first_cells)
    for folder in folders:
        if f"`{folder}/" not in named:
            errors.append(f"docs/ARCHITECTURE.md: the folder {folder}/ has no "
                          "row in the table")
    for e in errors:
        print(f"architecture-doc: {e}")
    if errors:
        return 1
    print(f"architecture-doc: ok ({len(first_cells)} rows, every named path "
          "exists)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
