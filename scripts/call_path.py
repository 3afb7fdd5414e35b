#!/usr/bin/env python3
"""The files a call enters, traced: compiles PROGRAM (a .cpp calling ufx) at -O0 with
-finstrument-functions against include/ and BUILD/libufx.a, runs it, and prints, for each section
the program marks with `ufx_trace(n)` (n > 0; `ufx_trace(0)` stops), the ufx headers entered in
order and how often each is entered. A file counts as entered when one of its functions is called
from another file; constructors, destructors and the vocabulary every step reads (ndview.hpp,
adapter.hpp, targets.hpp, config.hpp, launch_config.hpp, core/tuple.hpp, core/broadcast.hpp,
core/fail.hpp, lib/ranges.hpp) are left out. docs/architecture.md's paths come from it.

  scripts/call_path.py PROGRAM.cpp [--build build/cpu] [--all]   (--all: keep what is left out)

The program declares `extern "C" void ufx_trace(int);`. Needs GCC, addr2line, and a cpu build.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOOK = r"""
#include <stdio.h>
#include <stdlib.h>
static FILE* out; static int on;
__attribute__((no_instrument_function)) void ufx_trace(int n) {
  if (!out) out = fopen(getenv("UFX_TRACE_OUT"), "w");
  on = n; fprintf(out, "M %d\n", n);
}
__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void* f, void* s) { if (on) fprintf(out, "E %p\n", f); }
__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void* f, void* s) { if (on) fprintf(out, "X %p\n", f); }
"""
SKIP = {"ufx/ndview.hpp", "ufx/adapter.hpp", "ufx/targets.hpp", "ufx/config.hpp", "ufx/launch_config.hpp",
        "ufx/detail/core/tuple.hpp", "ufx/detail/core/broadcast.hpp", "ufx/detail/core/fail.hpp",
        "ufx/detail/lib/ranges.hpp"}


def main():
    args = sys.argv[1:]
    prog = args[0]
    build = args[args.index("--build") + 1] if "--build" in args else os.path.join(ROOT, "build", "cpu")
    keep_all = "--all" in args
    tmp = tempfile.mkdtemp()
    hook_c, exe, trace = (os.path.join(tmp, n) for n in ("hook.c", "prog", "trace.txt"))
    open(hook_c, "w").write(HOOK)
    subprocess.run(["gcc", "-c", "-O1", hook_c, "-o", hook_c + ".o"], check=True)
    subprocess.run(["g++", "-std=c++20", "-O0", "-g", "-no-pie", "-finstrument-functions",
                    "-finstrument-functions-exclude-file-list=/usr/include", "-I", os.path.join(ROOT, "include"),
                    prog, hook_c + ".o", os.path.join(build, "libufx.a"), "-ltbb", "-lboost_context", "-fopenmp",
                    "-o", exe], check=True)
    subprocess.run([exe], env=dict(os.environ, UFX_TRACE_OUT=trace))
    lines = open(trace).read().split("\n")
    addrs = sorted({l.split()[1] for l in lines if l[:2] in ("E ", "X ")})
    out = subprocess.run(["addr2line", "-f", "-C", "-e", exe] + addrs, capture_output=True, text=True).stdout.split("\n")
    where = {}
    for i, a in enumerate(addrs):
        fn, loc = out[2 * i], out[2 * i + 1].split(":")[0]
        m = re.search(r"include/(ufx/.*)", loc)
        special = re.search(r"::~|::(\w+)(<.*>)?::\1\(", fn)
        where[a] = (m.group(1), re.sub(r"<.*", "", fn.split("(")[0]).split("::")[-1]) if m else None
        if where[a] and not keep_all and (special or where[a][0] in SKIP):
            where[a] = None
    section, stack, seq = 0, [], collections.defaultdict(list)
    for l in lines:
        if l.startswith("M "):
            section, stack = int(l.split()[1]), []
        elif l.startswith("E "):
            w = where.get(l.split()[1])
            cur = next((s for s in reversed(stack) if s), None)
            if w and section and (cur is None or w[0] != cur[0]):
                seq[section].append(w)
            stack.append(w)
        elif l.startswith("X ") and stack:
            stack.pop()
    for s in sorted(seq):
        files = collections.Counter(f for f, _ in seq[s])
        path = [seq[s][0]] + [w for p, w in zip(seq[s], seq[s][1:]) if w[0] != p[0]]
        print(f"section {s}: {len(files)} files, {len(seq[s])} entries")
        print("  " + " -> ".join(f"{f[4:]} ({n})" for f, n in path[:80]))
        for f, n in files.most_common():
            print(f"  {n:5d} {f}")


if __name__ == "__main__":
    main()
