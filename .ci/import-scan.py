#!/usr/bin/env python3
"""Import scan of the library: which top-level module names which (`crate::` paths in
non-test code), the cycles between them, and the production functions over a length.

Usage: import-scan.py [SRC_DIR] [--max-fn N] [--edges]. Exits 1 when a module names a
layer above it (ORDER), a cycle or a long function is found, so CI keeps the layering of
issue 25 (README: "The layers").
"""
import os, re, sys

SRC = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "conformance/src"
# The layers, lowest first (README, "The layers"): a module may name only those before it.
ORDER = ["errors", "transport", "reference", "protocol", "rules", "surface", "records", "generate", "scenarios",
         "checks", "suggest", "report", "config", "runner", "fuzzing", "harness"]
# Names at the crate root (`crate::Result`, `crate::Error`): re-exports of `errors`.
ROOT = {"Result": "errors", "Error": "errors"}
MAX_FN = int(sys.argv[sys.argv.index("--max-fn") + 1]) if "--max-fn" in sys.argv else 120


def blank(text):
    """Comments, strings and char literals blanked (newlines kept), so braces and `crate::`
    inside them count for nothing; lifetimes (`'a`) are left alone."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j): depth += 1; j += 2
                elif text.startswith("*/", j): depth -= 1; j += 2
                else: j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == "r" and re.match(r'r#*"', text[i:]) and not (i and (text[i-1].isalnum() or text[i-1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            j = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == "'":
            m = re.match(r"'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'])'", text[i:])
            if m:
                out.append(" " * len(m.group(0))); i += len(m.group(0))
            else:
                out.append(c); i += 1
        else:
            out.append(c); i += 1
    return "".join(out)


def strip_tests(text):
    """Drops `#[cfg(test)] mod x { ... }` blocks, comments and string literals."""
    text = blank(text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while depth and j < len(text):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        out.append("\n" * text[m.start():j].count("\n"))
        i = j
    out.append(text[i:])
    return "".join(out)


def test_files(src):
    """Files declared only under cfg(test) (`#[cfg(test)] mod tests;`), and test dirs."""
    skip = set()
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(root, f)
            text = open(path).read()
            for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*mod\s+(\w+)\s*;", text):
                base = path[:-3] if f not in ("mod.rs", "lib.rs") else root
                if f in ("mod.rs", "lib.rs"):
                    cand = [os.path.join(root, m.group(1) + ".rs"), os.path.join(root, m.group(1))]
                else:
                    cand = [os.path.join(base, m.group(1) + ".rs"), os.path.join(base, m.group(1)),
                            os.path.join(root, m.group(1) + ".rs")]
                skip.update(cand)
    return skip


def group_heads(text, start):
    """Top-level names of a `{a::b, c, d::{e}}` group starting at text[start] == '{'."""
    depth, j, item, heads = 0, start, "", []
    while j < len(text):
        c = text[j]
        if c == "{":
            depth += 1
            if depth == 1:
                j += 1
                continue
        elif c == "}":
            depth -= 1
            if depth == 0:
                heads.append(item)
                break
        if depth == 1 and c == ",":
            heads.append(item)
            item = ""
        elif depth >= 1:
            item += c
        j += 1
    names = []
    for h in heads:
        m = re.match(r"\s*(\w+)", h)
        if m:
            names.append(m.group(1))
    return names


def scan(src):
    skip = test_files(src)
    edges = {}
    fns = []
    for root, dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        if rel.split(os.sep)[0] == "bin" or "tests" in rel.split(os.sep):
            continue
        if any(root.startswith(s) for s in skip if os.path.isdir(s)):
            continue
        for f in files:
            path = os.path.join(root, f)
            if not f.endswith(".rs") or path in skip or f.endswith("_tests.rs"):
                continue
            top = rel.split(os.sep)[0] if rel != "." else f[:-3]
            text = strip_tests(open(path).read())
            for m in re.finditer(r"\bcrate::(\{|\w+)", text):
                names = group_heads(text, m.start(1)) if m.group(1) == "{" else [m.group(1)]
                for n in names:
                    if n != top and n not in ("self",):
                        edges.setdefault(top, {}).setdefault(n, set()).add(os.path.relpath(path, src))
            fns.extend(long_functions(text, os.path.relpath(path, src)))
    return edges, fns


def long_functions(text, path):
    found = []
    lines = text.split("\n")
    for m in re.finditer(r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:const\s+)?(?:unsafe\s+)?fn\s+(\w+)[^;{]*\{", text):
        depth, j = 1, m.end()
        while depth and j < len(text):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        start = text.count("\n", 0, m.start()) + 1
        end = text.count("\n", 0, j) + 1
        if end - start + 1 > MAX_FN:
            found.append((end - start + 1, path, start, m.group(1)))
    return found


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    nodes = set(edges) | {b for a in edges for b in edges[a]}

    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1
        stack.append(v); on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    edges, fns = scan(SRC)
    bad = False
    for comp in cycles(edges):
        bad = True
        print("cycle between top-level modules:", " ".join(comp))
        for a in comp:
            for b in sorted(edges.get(a, {})):
                if b in comp:
                    print(f"  {a} -> {b}: {', '.join(sorted(edges[a][b]))}")
    for a in sorted(edges):
        for b in sorted(edges[a]):
            b_mod = ROOT.get(b, b)
            if a not in ORDER or b_mod not in ORDER:
                bad = True
                print(f"module not in the layer order: {a if a not in ORDER else b_mod}")
            elif ORDER.index(b_mod) > ORDER.index(a):
                bad = True
                print(f"{a} names {b_mod}, a layer above it: {', '.join(sorted(edges[a][b]))}")
    for length, path, line, name in sorted(fns, reverse=True):
        bad = True
        print(f"function over {MAX_FN} lines: {path}:{line} {name} ({length} lines)")
    if "--edges" in sys.argv:
        for a in sorted(edges):
            print(a, "->", " ".join(sorted(edges[a])))
    if not bad:
        print("import scan: every top-level module names only layers beneath it (no cycle),",
              "no function over", MAX_FN, "lines")
    sys.exit(1 if bad else 0)


main()
