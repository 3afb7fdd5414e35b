#!/usr/bin/env python3
"""Runs call_cost under callgrind and holds each row to its budget of host instructions per call.

usage: check_call_cost.py VALGRIND CALL_COST_PROGRAM

call_cost.cpp counts, with callgrind's client requests, the instructions the calling thread spends on a batch of calls
queued on a held sim stream (one dump per row). Instruction counts do not move with the machine's load; they move with
the code (and the compiler), so a budget 20-30% above the count of the commit that set it catches a change that adds
host work to every call. Set with graphs (issue 50; GCC 12.2, -O2, x86-64, Debian 12's libstdc++): add 2,803, sum 6,339, kernel 1,674, a replay of a
10-call graph 1,055, the 10 calls 26,106 (before the sim's launch limits were read without a lock: 3,283, 7,467, 2,028,
1,124, 30,990).
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

BUDGETS = {  # instructions per call on the calling thread
    "add": 3500,  # add(ufx::sim.on(s), x, y, ufx::out(z)), 1024 floats in device arrays
    "sum": 8000,  # ufx::sum(ufx::sim.on(s), z, ufx::out(total)), into a 0-d device array
    "kernel": 2100,  # scale.forall(1024)(ufx::sim.on(s), 1.f, z), a raw kernel
    "graph_replay_10": 1350,  # g.launch() of a graph of 10 adds
    "calls_10": 33000,  # the same 10 adds, called
}


def main():
    valgrind, program = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run([valgrind, "--tool=callgrind", "--collect-atstart=no", f"--callgrind-out-file={out}",
                              program], capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout, run.stderr)
            print("call_cost failed under valgrind")
            return 1
        calls = int(run.stdout.split()[-1])
        counts = {}
        for dump in glob.glob(out + ".*"):
            text = open(dump).read()
            name = re.search(r"^desc: Trigger: Client Request: (\S+)", text, re.M)
            total = re.search(r"^totals: (\d+)", text, re.M)
            if name and total:
                counts[name.group(1)] = int(total.group(1)) / calls
    failed = False
    print(f"{'row':<18} {'instructions/call':>18} {'budget':>8}")
    for row, budget in BUDGETS.items():
        if row not in counts:
            if row == "kernel":  # raw kernels need Boost.Context on the host targets
                print(f"{row:<18} {'(not run)':>18} {budget:>8}")
                continue
            print(f"{row:<18} missing")
            failed = True
            continue
        verdict = "ok" if counts[row] <= budget else "OVER BUDGET"
        failed |= counts[row] > budget
        print(f"{row:<18} {counts[row]:>18.0f} {budget:>8}  {verdict}")
    if "matmul_checked" in counts and "matmul_profiled" in counts:  # one run each: the ratio is what counts
        ratio = counts["matmul_profiled"] / counts["matmul_checked"]
        print(f"the tiled matmul of 64^2 under ufx::profile: {ratio:.2f}x the instructions of the checked run")
        if ratio > 2:
            print("ufx::profile should cost at most 2x the sim's checked run (issue 51)")
            failed = True
    if "graph_replay_10" in counts and "calls_10" in counts:
        ratio = counts["calls_10"] / counts["graph_replay_10"]
        print(f"10 calls / one replay of them: {ratio:.1f}x the host instructions")
        if ratio < 10:
            print("a replay should cost less host work than the calls it replays, by 10x or more")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
