#!/usr/bin/env python3
"""The include graph of include/ufx/detail/, with each sub-folder as one node (backend/ as one):
how many edges, between how many nodes, and any pair of nodes that include each other (a layer
that points both ways). docs/architecture.md quotes it.

  scripts/include_graph.py [-v]      (-v: list the edges)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent / "include" / "ufx"


def node(rel):
    parts = pathlib.PurePath(rel).parts
    if parts[0] != "detail":
        return None
    if len(parts) == 2:
        return rel
    return "detail/backend/" if parts[1] == "backend" else f"detail/{parts[1]}/"


edges = set()
files = sorted((ROOT / "detail").rglob("*.hpp"))
for f in files:
    src = node(str(f.relative_to(ROOT)))
    for m in re.finditer(r'#include "ufx/([^"]+)"', f.read_text()):
        dst = node(m.group(1))
        if dst and dst != src:
            edges.add((src, dst))
nodes = {n for e in edges for n in e}
print(f"{len(edges)} edges between {len(nodes)} nodes ({len(files)} files)")
for a, b in sorted(edges):
    if "-v" in sys.argv[1:]:
        print(f"  {a} -> {b}")
both = sorted((a, b) for a, b in edges if (b, a) in edges and a < b)
for a, b in both:
    print(f"  both ways: {a} <-> {b}")
sys.exit(1 if both else 0)
