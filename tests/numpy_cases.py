"""What the NumPy case generators (gen_numpy_*.py) share: their command line, writing the case
file, and the --expect check that the committed file is what the script writes now."""
import argparse
import difflib
import os
import sys


def case_text(header, cases):
    """The case file: header lines, a count, then each (func, dtype, lines) case between
    `case N func dtype` and `end`."""
    out = list(header) + [f"cases {len(cases)}"]
    for n, (func, dtype, lines) in enumerate(cases):
        out.append(f"case {n} {func} {dtype}")
        out.extend(lines)
        out.append("end")
    return "\n".join(out) + "\n"


def run(doc, script, default_name, make_text):
    """Parses --out / --expect, writes make_text()'s (text, summary) and compares; returns the exit code."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--out", default=None, help=f"where to write (default: tests/data/{default_name})")
    ap.add_argument("--expect", default=None, help="after writing, fail if the output differs from this file")
    args = ap.parse_args()
    path = args.out or os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", default_name)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    text, summary = make_text()
    with open(path, "w") as f:
        f.write(text)
    print(f"wrote {path}: {summary}")
    if args.expect:
        with open(args.expect) as f:
            old = f.read()
        if old != text:
            diff = difflib.unified_diff(old.splitlines(), text.splitlines(), args.expect, path, lineterm="", n=1)
            sys.stdout.write("\n".join(list(diff)[:40]) + "\n")
            print(f"{args.expect} is stale: rerun /usr/bin/python3 tests/{script} and commit the file")
            return 1
    return 0
