#!/usr/bin/env python3
"""Reads the object code of tests/guards/hot_loops.cpp's program: every function that holds one of
ufx's hot loops (by the pattern of its demangled name) must be found, must have a loop with packed
float arithmetic (vectorised), and no loop of it may hold a call but of libufx's vector functions (the x86-64 vector
ABI's _ZGV variants of ufx_half_to_float, ufx_float_to_half and ufx_math_sqrtf: one call a vector). A loop is the code between a
backward jump and its target. The functions that hand their loop to libufx (a float16 sum's pairwise tree, summed by
ufx_halves_pairwise_sum) must be found and must call it (or jump to it: a tail call).

usage: check_codegen.py [--calls-only] OBJDUMP PROGRAM...
  --calls-only: check only that no loop calls (a build whose compiler vectorises none of them)
"""
import re
import subprocess
import sys

# (what, pattern of the function's demangled name, packed instructions one of its loops must hold (a tuple: each of
# them in one loop)[,
# True: and no one-element store to the stack anywhere in it, checked at -O3])
PACKED_ADD = r"v?add(ps|pd)"
PACKED_MUL = r"v?(mulps|vfn?madd\d+ps)"
# a call of one of libufx's vector functions (the x86-64 vector ABI's names: one call a vector), which a loop may make
VECTOR_CALL = r"call\s+[0-9a-f]+ <_ZGV[bcde]N\d+v_ufx_(half_to_float|float_to_half|math_sqrtf?)>"
HALF_TO_FLOAT = r"call\s+[0-9a-f]+ <_ZGV[bcde]N\d+v_ufx_half_to_float>"
# float16 loops the compiler leaves scalar (remainders, strided rows, any loop at -O2) convert through the scalar
# functions: a call those loops may make, where a loop that needs the vector calls must still hold them
SCALAR_HALF_CALL = r"call\s+[0-9a-f]+ <ufx_(half_to_float|float_to_half)>"
# a loop converting float16 with F16C inline, adding 8 floats and converting back: each of these in one loop
F16C_ADD = (r"vcvtph2ps", r"vaddps", r"vcvtps2ph")
USER_LEAF = r"reduce_body<{acc}, [^ ]*identity, {fn}::\{{lambda.*>::mapped_leaf<[^ ]*unit_run<.*\[clone \.(default|avx2)\]"
HOT = [
    ("a user's loop over a by-value ndview", r"^codegen_scale$", PACKED_MUL),
    ("a generic gufunc core (dense rows, run-time sizes)",
     r"gufunc_rows_cloned<true, 0, .*codegen::matmul_core.*\[clone \.(default|avx2)\]", PACKED_MUL),
    ("a generic gufunc core (strided rows)",
     r"gufunc_rows_cloned<false, 0, .*codegen::matmul_core.*\[clone \.(default|avx2)\]", PACKED_MUL),
    ("an elementwise call", r"map_body<codegen::add_fn, 1, [^ ]*array_acc<float>.*::row_cloned.*\[clone \.(default|avx2)\]",
     PACKED_ADD),
    ("a float sum's leaf", r"simd_(widen_)?sum_leaf", PACKED_ADD),
    ("a float16 elementwise add (its conversions a vector at a time)",
     r"map_body<codegen::add_f16_fn,.*::row_cloned.*\[clone \.(default|avx2)\]", HALF_TO_FLOAT),
    ("a float function over float16 arrays (F16C inline, 8 a step)",
     r"map_body<codegen::add_fn, 1, [^ ]*array_acc<ufx::float16>.*::row_f16c<", F16C_ADD),
    ("NumPy's add of float16 (F16C inline, 8 a step)",
     r"map_body<ufx::ops::add, 1, [^ ]*array_acc<ufx::float16>.*::row_f16c<", F16C_ADD),
    ("a sum of a map of float16 (its conversions a vector at a time)",
     r"reduce_body<float, codegen::neg_f16_fn, ufx::plus, [^ ]*array_acc<ufx::float16 const> >.*::mapped_leaf<[^ ]*"
     r"unit_run.*\[clone \.(default|avx2)\]", HALF_TO_FLOAT),
    # the generic leaf's horizontal combine once compiled to one-float stores and loads: a user's
    # `a + b` at 1.5x to 2x the time of ufx::plus
    ("a user's float a + b (the generic leaf)", USER_LEAF.format(acc="float", fn="codegen_user_sum"), PACKED_ADD,
     True),
    ("a user's double a + b (the generic leaf)", USER_LEAF.format(acc="double", fn="codegen_user_sum_f64"),
     PACKED_ADD, True),
    ("a user's float maximum (the generic leaf)", USER_LEAF.format(acc="float", fn="codegen_user_max"),
     r"v?maxps", True),
]

# Functions that must hand their hot loop to one of libufx's functions (the loop is there): each must be found and
# must call it. A float16 sum's pairwise tree is libufx's (F16C), not a loop of its own.
CALLERS = [
    # (the run's pairwise() is a call of it, inlined into the functions that walk the rows)
    ("a float16 sum's pairwise tree (libufx's)",
     r"reduce_body<float, [^ ]*identity, ufx::plus, [^ ]*array_acc<ufx::float16 const> >", "ufx_halves_pairwise_sum"),
]

# a store of one float or double (or a vector's low half) to the stack frame
SCALAR_STORE = re.compile(r"^v?(movss|movsd|movlps|movhps|movd|movq|extractps|pextr[dq])\s+%xmm\d+,[^,]*\(%r[sb]p")


def functions(objdump, exe):
    """[(name, [(address, instruction text)])] from objdump's disassembly, demangled."""
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", "-C", exe], check=True, capture_output=True,
                          text=True).stdout
    funcs = []
    for line in text.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
        if m:
            funcs.append((m.group(2), []))
            continue
        m = re.match(r"^\s+([0-9a-f]+):\t(.*)$", line)
        if m and funcs:
            funcs[-1][1].append((int(m.group(1), 16), m.group(2)))
    return funcs


JUMP = re.compile(r"^(j[a-z]{1,3})\s+([0-9a-f]+) <")


def loops(body):
    """The instruction lists of the function's loops (backward jumps within the function)."""
    addrs = [a for a, _ in body]
    out = []
    for i, (a, ins) in enumerate(body):
        m = JUMP.match(ins)
        if m:
            t = int(m.group(2), 16)
            if t <= a and addrs and t >= addrs[0]:
                out.append([x for x in body[:i + 1] if x[0] >= t])
    return out


def check(funcs, exe, calls_only):
    failures = []
    for what, pattern, packed, *lanes in HOT:
        hits = [(n, b) for n, b in funcs if re.search(pattern, n)]
        if not hits:
            failures.append(f"{exe}: {what}: no function matches /{pattern}/ (renamed? update check.py)")
            continue
        for name, body in hits:
            short = re.sub(r"ufx::detail::\w+::", "", name)[:160]
            ls = loops(body)
            allowed = VECTOR_CALL + ("|" + SCALAR_HALF_CALL if packed == HALF_TO_FLOAT else "")
            calls = [ins for l in ls for _, ins in l if ins.startswith("call") and not re.match(allowed, ins)]
            wanted = packed if isinstance(packed, tuple) else (packed,)
            vector = [l for l in ls if all(any(re.match(p + r"(\s|$)", ins) for _, ins in l) for p in wanted)]
            stores = [ins for _, ins in body if lanes and SCALAR_STORE.match(ins)]
            status = "ok"
            if calls:
                status = "FAILED: a loop calls " + sorted(set(calls))[0]
            elif not vector and not calls_only:
                status = f"FAILED: no loop holds packed arithmetic /{'/ and /'.join(wanted)}/ (not vectorised)"
            elif stores and not calls_only:
                status = f"FAILED: {len(stores)} one-element stores to the stack (lanes out of registers: {stores[0]})"
            print(f"{what}: {status}\n    {short}  ({len(ls)} loops, {len(vector)} vectorised)")
            if status != "ok":
                failures.append(f"{exe}: {what}: {status} in {short}")
    for what, pattern, callee in CALLERS:
        hits = [(n, b) for n, b in funcs if re.search(pattern, n)]
        if not hits:
            failures.append(f"{exe}: {what}: no function matches /{pattern}/ (renamed? update check.py)")
            continue
        calling = [n for n, b in hits if any(re.match(r"(call|jmp)\s+[0-9a-f]+ <" + callee + ">", ins) for _, ins in b)]
        status = "ok" if calling else f"FAILED: no call of {callee}"
        print(f"{what}: {status} ({len(calling)} of {len(hits)} functions)")
        if not calling:
            failures.append(f"{exe}: {what}: {status}")
    return failures


def main():
    args = sys.argv[1:]
    calls_only = args[:1] == ["--calls-only"]
    args = args[1:] if calls_only else args
    if len(args) < 2:
        sys.exit(__doc__)
    objdump, failures = args[0], []
    for exe in args[1:]:
        print(f"== {exe}")
        failures += check(functions(objdump, exe), exe, calls_only)
    for f in failures:
        print(f, file=sys.stderr)
    print(f"codegen: {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
