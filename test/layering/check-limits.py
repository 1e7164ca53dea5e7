#!/usr/bin/env python3
"""The size check (ctest `size-limits`): small files, short functions.

Fails (exit 1, one line per violation) when a tracked source file
(C++, C, Python, TableGen; generated tables such as *.def are data) has
more than --max-file-lines lines, or a function in one has a body longer
than --max-function-lines lines.

Functions are found without a compiler, which is enough for this tree's
style: in C and C++, a brace that opens at namespace or class level after a
closing parenthesis (not a control statement, not an initialiser) starts a
function body, and the body runs to the matching brace (lambdas and local
classes inside count towards their function); in Python, the `ast` module
gives every def's first and last line (nested defs count towards their
outer function too, and are also checked on their own).
"""
import argparse
import ast
import os
import re
import subprocess
import sys

CXX_EXTS = (".cpp", ".h", ".c", ".cc", ".hpp", ".inc")
SOURCE_EXTS = CXX_EXTS + (".py", ".td")
SKIP_DIRS = ("third_party/",)
CONTROL = re.compile(r"\b(if|for|while|switch|catch|do|else|try)\s*(\(|$)")
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum|extern)\b")


def tracked_sources(src):
    try:
        out = subprocess.run(["git", "ls-files"], cwd=src, check=True,
                             capture_output=True, text=True).stdout
        files = out.splitlines()
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirs, names in os.walk(src):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
            files += [os.path.relpath(os.path.join(dirpath, n), src)
                      for n in names]
    return sorted(f for f in files if f.endswith(SOURCE_EXTS)
                  and not f.startswith(SKIP_DIRS)
                  and os.path.isfile(os.path.join(src, f)))


def strip_cxx(text):
    """The text with comments, strings and character literals blanked
    (newlines kept, so line numbers stay)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j, n - 1) - i + 1))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def cxx_functions(text):
    """(name, first line, last line) of every function body at namespace or
    class scope."""
    code = strip_cxx(text)
    functions = []
    # Each open brace: (is a scope that may hold functions, start, name).
    stack = []
    line = 1
    head_start = 0  # where the text since the last ; { } begins
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        if c not in "{};":
            continue
        head = code[head_start:i]
        head_start = i + 1
        if c == ";":
            continue
        if c == "}":
            if stack:
                kind, start, name = stack.pop()
                if kind == "function":
                    functions.append((name, start, line))
            continue
        in_scope = all(kind == "scope" for kind, _, _ in stack)
        flat = " ".join(head.split())
        if SCOPE.search(flat) and "(" not in flat.split("{")[0].split(SCOPE.search(flat).group(0))[0]:
            stack.append(("scope", line, ""))
        elif (in_scope and ")" in flat and not CONTROL.search(flat)
              and not flat.rstrip().endswith(("=", ",")) and "=" not in flat.split("(")[0]):
            name = re.findall(r"([~\w:<>]+)\s*\(", flat)
            stack.append(("function", line, name[0] if name else "?"))
        else:
            stack.append(("other", line, ""))
    return functions


def python_functions(text):
    tree = ast.parse(text)
    return [(node.name, node.lineno, node.end_lineno)
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--max-file-lines", type=int, default=700)
    parser.add_argument("--max-function-lines", type=int, default=150)
    parser.add_argument("--report", action="store_true",
                        help="also list the longest functions")
    args = parser.parse_args()
    errors, lengths = [], []
    for rel in tracked_sources(args.source_dir):
        with open(os.path.join(args.source_dir, rel), encoding="utf-8",
                  errors="replace") as f:
            text = f.read()
        count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if count > args.max_file_lines:
            errors.append(f"{rel}: {count} lines (at most {args.max_file_lines})")
        if rel.endswith(".py"):
            try:
                functions = python_functions(text)
            except SyntaxError as e:
                errors.append(f"{rel}:{e.lineno}: not Python ({e.msg})")
                continue
        elif rel.endswith(CXX_EXTS):
            functions = cxx_functions(text)
        else:
            functions = []
        for name, first, last in functions:
            length = last - first + 1
            lengths.append((length, f"{rel}:{first}", name))
            if length > args.max_function_lines:
                errors.append(f"{rel}:{first}: function '{name}' is {length} "
                              f"lines (at most {args.max_function_lines})")
    if args.report:
        for length, where, name in sorted(lengths, reverse=True)[:25]:
            print(f"{length:5d} {where} {name}")
    for e in errors:
        print(f"size-limits: {e}")
    if errors:
        return 1
    print(f"size-limits: ok ({len(lengths)} functions; files <= "
          f"{args.max_file_lines} lines, functions <= {args.max_function_lines})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
