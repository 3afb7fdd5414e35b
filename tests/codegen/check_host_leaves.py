#!/usr/bin/env python3
"""Reads the object code of tests/codegen/host_leaves.cpp (objdump -d) and checks the generic
reduction leaf of a user's operator (reduce_kernel::mapped_leaf over a unit-stride run, and over a
scalar), in every clone GCC made of it (config.hpp, UFX_HOST_CLONES: .default and .avx2): packed
arithmetic, and no one-element store to the stack. The leaf's horizontal combine of its lanes,
written as a loop over the level width, compiled to a chain of one-float stores and loads (a
user's `a + b` over 4096 floats at 1.5x the time of ufx::plus). Usage: check_host_leaves.py
<object> <objdump>"""
import re
import subprocess
import sys

# a store of one float or double (or the low half of a vector) to the stack frame
SCALAR_STORE = re.compile(
    r"\s(v?(?:movss|movsd|movlps|movhps|movd|movq|extractps|pextrd|pextrq))\s+%xmm\d+,\s*[-0-9a-fx]*\(%(?:rsp|rbp)"
)
PACKED = re.compile(r"\sv?(?:add|max|min|mul)p[sd]\s")
FUNCS = ("ufx_codegen_user_sum_f32", "ufx_codegen_user_sum_f64", "ufx_codegen_user_max_f32")


def functions(dump):
    """symbol -> instruction lines"""
    out, name = {}, None
    for line in dump.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            name = m.group(1)
            out[name] = []
        elif not line.strip():
            name = None
        elif name is not None:
            out[name].append(line)
    return out


def main():
    obj, objdump = sys.argv[1], sys.argv[2]
    dump = subprocess.run([objdump, "-d", "--no-show-raw-insn", obj], capture_output=True, text=True, check=True).stdout
    funcs = functions(dump)
    failed = False
    for f in FUNCS:
        leaves = {
            n: body
            for n, body in funcs.items()
            if f in n and "mapped_leaf" in n and ("8unit_run" in n or "10scalar_run" in n) and not n.endswith(".resolver")
        }
        if not leaves:
            print(f"FAIL {f}: no mapped_leaf over a unit run or a scalar in the object code")
            failed = True
        for n, body in sorted(leaves.items()):
            stores = [l.strip() for l in body if SCALAR_STORE.search(l)]
            packed = sum(1 for l in body if PACKED.search(l))
            kind = "unit_run" if "8unit_run" in n else "scalar_run"
            clone = n.rsplit(".", 1)[1] if "." in n else "(not cloned)"
            ok = not stores and packed > 0
            print(
                f"{'ok  ' if ok else 'FAIL'} {f} {kind} {clone}: {len(body)} instructions, {packed} packed, "
                f"{len(stores)} one-element stores to the stack"
            )
            for s in stores[:8]:
                print("       ", s)
            failed |= not ok
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
