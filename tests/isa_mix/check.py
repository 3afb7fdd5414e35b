#!/usr/bin/env python3
"""Two units of one program built with different instruction sets (isa_a.cpp at the x86-64
baseline, isa_b.cpp with -mavx2 -mfma), linked in both orders, must each compute what they compute
alone, and no ufx function that the baseline unit can reach may hold an AVX instruction (but for
GCC's `.avx2` clones, which the CPU check of an ifunc picks).

usage: check.py OBJDUMP A B AB BA   (A, B: each unit alone; AB, BA: both, linked in that order)
"""
import re
import subprocess
import sys


def run(exe):
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    return {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.strip()}


def functions(objdump, exe):
    """{address: (name, [instruction lines])} from objdump's disassembly, demangled."""
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", "-C", exe], check=True, capture_output=True,
                          text=True).stdout
    funcs, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
        if m:
            cur = int(m.group(1), 16)
            funcs[cur] = (m.group(2), [])
        elif cur is not None and line.startswith(" "):
            funcs[cur][1].append(line)
    return funcs


AVX = re.compile(r"%[yz]mm|\tv[a-z0-9]+\s")
# the target of a call or jump, or an address taken rip-relative (OpenMP's outlined bodies)
TARGET = re.compile(r"\t(?:call|jmp|j[a-z]{1,3})\s+([0-9a-f]+) <|# ([0-9a-f]+) <")


def reachable_avx(funcs, entry):
    """ufx functions reachable from `entry` (calls, jumps and taken addresses) that hold AVX
    instructions; a function's PLT stub (shared libraries, GCC's ifunc clones) is not followed."""
    seen, todo, bad = set(), [entry], []
    while todo:
        a = todo.pop()
        if a in seen or a not in funcs:
            continue
        seen.add(a)
        name, body = funcs[a]
        if "@plt" in name:
            continue
        if "ufx::" in name and "[clone .avx2" not in name and any(AVX.search(i) for i in body):
            bad.append(name)
        for ins in body:
            for m in TARGET.finditer(ins):
                todo.append(int(m.group(1) or m.group(2), 16))
    return [funcs[a][0] for a in seen], bad


def main():
    objdump, exe_a, exe_b, exe_ab, exe_ba = sys.argv[1:6]
    cpu = open("/proc/cpuinfo").read()
    can_run_b = " avx2" in cpu and " fma" in cpu
    failed = False
    if can_run_b:
        alone = {**run(exe_a), **run(exe_b)}
        if alone["a"][0] == alone["b"][0]:
            print("the two units' sums agree alone: this data no longer tells them apart")
            failed = True
        for exe in (exe_ab, exe_ba):
            both = run(exe)
            for unit in ("a", "b"):
                if both[unit] != alone[unit]:
                    print(f"{exe}: unit {unit} computed {both[unit]}, alone {alone[unit]}")
                    failed = True
    else:
        print("this CPU lacks AVX2 or FMA: the unit built for them is not run, only read")
    for exe in (exe_ab, exe_ba):
        funcs = functions(objdump, exe)
        entry = next((a for a, (name, _) in funcs.items() if name == "ufx_isa_unit_a"), None)
        if entry is None:
            print(f"{exe}: no ufx_isa_unit_a in the disassembly")
            failed = True
            continue
        seen, bad = reachable_avx(funcs, entry)
        print(f"{exe}: {sum('ufx::' in f for f in seen)} ufx functions reachable from the baseline unit")
        for f in bad:
            print(f"{exe}: the baseline unit reaches AVX code in {f[:300]}")
        failed = failed or bool(bad)
    print("FAILED" if failed else "passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
