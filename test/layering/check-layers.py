#!/usr/bin/env python3
"""The layering check (ctest `layering`): lib/ is the MLIR-free layer.

Fails (exit 1, one line per violation) when
  (a) a file under lib/, or a header under include/ outside the folders that
      mirror passes/ (MLIR_HEADER_DIRS), includes an MLIR header;
  (b) a target defined under lib/ links MLIR, or a target defined above it
      (passes/, tools/, ...), directly or through its dependencies, as read
      from BUILD/layering/targets.txt (written by CMake at generate time:
      each target's folder, LINK_LIBRARIES and INTERFACE_LINK_LIBRARIES;
      every name inside a generator expression counts);
  (c) a file under lib/ (or an MLIR-free header) includes a header of a
      higher layer: the mirrored include folders, or a file in passes/ or
      tools/.
"""
import argparse
import os
import re
import sys

# include/coreai-plan/<dir>/ whose headers belong to passes/ (need MLIR).
MLIR_HEADER_DIRS = ("Dialect", "Passes", "Bundle", "Import")
HIGHER_DIRS = ("passes", "tools")
SOURCE_EXTS = (".h", ".cpp", ".c", ".inc", ".def", ".h.in")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def sources(root):
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            if name.endswith(SOURCE_EXTS):
                yield os.path.join(dirpath, name)


def is_mirrored_header(src, path):
    rel = os.path.relpath(path, os.path.join(src, "include", "coreai-plan"))
    return rel.split(os.sep)[0] in MLIR_HEADER_DIRS


def check_includes(src):
    errors = []
    files = list(sources(os.path.join(src, "lib")))
    files += [p for p in sources(os.path.join(src, "include"))
              if not is_mirrored_header(src, p)]
    for path in files:
        rel = os.path.relpath(path, src)
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                name = m.group(2)
                where = f"{rel}:{number}"
                if name.startswith(("mlir/", "mlir-c/")):
                    errors.append(f"{where}: includes the MLIR header '{name}' "
                                  "(lib/ and the MLIR-free headers need no MLIR)")
                    continue
                if m.group(1) != '"':
                    continue
                parts = name.split("/")
                if len(parts) > 2 and parts[0] == "coreai-plan" and \
                        parts[1] in MLIR_HEADER_DIRS:
                    errors.append(f"{where}: includes '{name}', a header of "
                                  f"passes/ (include/coreai-plan/{parts[1]}/)")
                    continue
                resolved = os.path.normpath(
                    os.path.join(os.path.dirname(path), name))
                top = os.path.relpath(resolved, src).split(os.sep)[0]
                if os.path.exists(resolved) and top in HIGHER_DIRS:
                    errors.append(f"{where}: includes '{name}' from {top}/, a "
                                  "higher layer")
    return errors


def check_targets(src, build):
    listing = os.path.join(build, "layering", "targets.txt")
    if not os.path.exists(listing):
        return [f"{listing} is missing: configure the build first"]
    folder, links = {}, {}
    with open(listing, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 2:
                continue
            name, directory = fields[0], fields[1]
            folder[name] = os.path.relpath(directory, src).split(os.sep)[0]
            links[name] = [d for d in ";".join(fields[2:]).split(";") if d]

    def is_mlir(dep):
        base = os.path.basename(dep)
        return re.match(r"^(MLIR|mlir)", dep) is not None or \
            base.startswith("libMLIR") or base.startswith("libmlir")

    errors = []
    for name in sorted(folder):
        if folder[name] != "lib":
            continue
        seen, stack, path_to = set(), [name], {name: [name]}
        while stack:
            current = stack.pop()
            deps = []
            for dep in links.get(current, []):
                # A generator expression: every name in it may be linked.
                deps += re.findall(r"[A-Za-z_][\w:+.-]*", dep) \
                    if "$<" in dep else [dep]
            for dep in deps:
                if dep in seen:
                    continue
                seen.add(dep)
                path_to[dep] = path_to[current] + [dep]
                chain = " -> ".join(path_to[dep])
                if is_mlir(dep):
                    errors.append(f"target {name} (lib/) links MLIR: {chain}")
                elif dep in folder and folder[dep] != "lib":
                    errors.append(f"target {name} (lib/) links {dep} from "
                                  f"{folder[dep]}/, a higher layer: {chain}")
                elif dep in links:
                    stack.append(dep)
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--build-dir", required=True)
    args = parser.parse_args()
    src = os.path.abspath(args.source_dir)
    errors = check_includes(src) + check_targets(src, os.path.abspath(args.build_dir))
    for error in errors:
        print(f"layering: {error}")
    if errors:
        print(f"layering: {len(errors)} violation(s); lib/ must need no MLIR "
              "and depend only downward (docs/ARCHITECTURE.md)")
        return 1
    print("layering: lib/ needs no MLIR and includes nothing above it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
