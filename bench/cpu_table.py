#!/usr/bin/env python3
"""The CPU-speed table of issue #11 from one run of the benchmarks (scripts/bench_cpu.sh writes the
CSV files this reads): for each case, ufx's time, the best peer's time and the ratio (ufx / peer;
above 1 is slower), and ufx::host under load against ufx::serial.

    bench/cpu_table.py DIR     # DIR holds vectorize.csv, reduce.csv, guvectorize.csv,
                               # load0.csv, load2.csv and, when NumPy ran, peers.csv
"""
import csv
import os
import re
import sys


def gbench_rows(path):
    """Google Benchmark CSV -> (name, row) per result, medians where repetitions ran, the name without
    "_median", "/iterations:N", "/repeats:N" and "/real_time"."""
    if not os.path.exists(path):
        return
    with open(path) as f:
        lines = [l for l in f if l.startswith("name,") or l.startswith('"')]
    for row in csv.DictReader(lines):
        name = row["name"]
        if "_mean" in name or "_stddev" in name or "_cv" in name:
            continue
        name = re.sub(r"/(iterations|repeats):\d+", "", name.replace("_median", ""))
        yield re.sub(r"/real_time$", "", name), row


def read_gbench(path):
    """Google Benchmark CSV -> {name: ns per iteration}."""
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
    return {name: float(row["real_time"]) * scale[row["time_unit"]] for name, row in gbench_rows(path)}


def read_counter(path, counter):
    """Google Benchmark CSV -> {name: a user counter's value}, for the results that have it."""
    return {name: float(row[counter]) for name, row in gbench_rows(path) if row.get(counter)}


def read_peers(path):
    """peers_numpy.py output (name,ns,GB/s) -> {name: ns}."""
    times = {}
    if os.path.exists(path):
        for line in open(path):
            parts = line.strip().split(",")
            if len(parts) == 3:
                try:
                    times[parts[0]] = float(parts[1])
                except ValueError:
                    pass
    return times


def fmt(ns):
    if ns is None:
        return "—"
    for unit, div in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= div:
            return f"{ns / div:.3g} {unit}"
    return f"{ns:.0f} ns"


def peer_label(name):
    """The peer's part of a row name: "sum/eigen/4096" -> "eigen", "bm_matmul<how::eigen>/m:32" -> "eigen",
    "math/exp/omp_loop_fast_math/4096" -> "omp_loop_fast_math"."""
    if "<how::" in name:
        return name[name.index("<how::") + 6:name.index(">")]
    parts = name.split("/")
    return parts[2] if parts[0] == "math" else parts[1]  # "math/exp/omp_loop_fast_math/4096"


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "build/bench_cpu"
    t = {}
    for f in ("vectorize", "reduce", "guvectorize"):
        t.update(read_gbench(os.path.join(d, f + ".csv")))
    t.update(read_peers(os.path.join(d, "peers.csv")))

    rows = []

    def row(case, ufx, peers):
        u = t.get(ufx)
        found = [(t[p], p) for p in peers if p in t]
        best = min(found) if found else None
        ratio = f"{u / best[0]:.2f}" if u is not None and best else "—"
        rows.append((case, fmt(u), f"{fmt(best[0])} ({peer_label(best[1])})" if best else "—", ratio))

    for n in (1 << 24, 1 << 26):
        row(f"std::vector result of add, N = {n}", f"fresh/ufx_host_vector/{n}", [f"fresh/numpy/{n}"])
        row(f"ndarray result of add, N = {n}", f"fresh/ufx_host_ndarray/{n}", [f"fresh/numpy/{n}"])
    for lg in (20, 22, 24, 26):
        n = 1 << lg
        row(f"exp(-x*x)*sin(y)+1 with std::, N = 2^{lg}", f"expsin/ufx_host/{n}", [f"expsin/omp_loop/{n}"])
        row(f"the same with ufx::math, N = 2^{lg}", f"expsin_math/ufx_host/{n}", [f"expsin_math/omp_loop/{n}"])
        row(f"the same, ufx::math against std:: under -ffast-math, N = 2^{lg}", f"expsin_math/ufx_host/{n}",
            [f"expsin/omp_loop_fast_math/{n}"])
    for fn in ("exp", "sin", "cos", "log", "tanh", "sqrt", "pow"):
        for lg in (20, 22, 24):
            n = 1 << lg
            row(f"ufx::math::{fn} alone against std:: under -ffast-math, N = 2^{lg}", f"math/{fn}/ufx_host/{n}",
                [f"math/{fn}/omp_loop_fast_math/{n}"])
    for lg in (12, 16):
        n = 1 << lg
        row(f"add, N = 2^{lg}", f"add/ufx_host/{n}",
            [f"add/{p}/{n}" for p in ("serial_loop", "omp_loop", "eigen", "numpy", "numba_cpu", "numba_parallel")])
    for lg in (12, 16, 20, 24, 26):
        n = 1 << lg
        row(f"sum, N = 2^{lg}", f"sum/ufx_host/{n}",
            [f"sum/{p}/{n}" for p in ("serial_loop", "simd_loop", "omp_loop", "omp_pairwise", "pairwise_loop",
                                      "eigen", "numpy", "numba_parallel")])
    for lg in (20, 24, 26):
        n = 1 << lg
        row(f"sum of |x|, N = 2^{lg}", f"abs_sum/ufx_host/{n}",
            [f"abs_sum/{p}/{n}" for p in ("serial_loop", "simd_loop", "omp_loop", "omp_pairwise", "eigen", "numpy",
                                          "numba_parallel")])
    for lg in (12, 16):  # issue #32's part 4: one thread's pairwise loop over 8-wide vectors
        n = 1 << lg
        row(f"sum, N = 2^{lg}, vs the one-thread pairwise loop", f"sum/ufx_host/{n}", [f"sum/pairwise_loop/{n}"])
    for lg in (20, 24, 26):  # the accuracy-class peer alone
        n = 1 << lg
        row(f"sum, N = 2^{lg}, vs pairwise OpenMP", f"sum/ufx_host/{n}", [f"sum/omp_pairwise/{n}"])
        row(f"sum of |x|, N = 2^{lg}, vs pairwise OpenMP", f"abs_sum/ufx_host/{n}", [f"abs_sum/omp_pairwise/{n}"])
    row("axis-1 sums of 4096 x 4096", "axis1_4096/ufx_host",
        ["axis1_4096/serial_loop", "axis1_4096/simd_loop", "axis1_4096/omp_loop", "axis1_4096/numpy"])
    row("gufunc matmul 32x32, B = 2^12", "bm_matmul<how::ufx_host>/m:32/B:4096",
        ["bm_matmul<how::omp_loop>/m:32/B:4096", "bm_matmul<how::eigen>/m:32/B:4096",
         "matmul/numpy/m:32/B:4096", "matmul/numba_parallel/m:32/B:4096"])
    row("gufunc row norms, n = 1024", "bm_norms<how::ufx_host>/n:1024",
        ["bm_norms<how::omp_loop>/n:1024", "bm_norms<how::eigen>/n:1024", "norms/numpy/n:1024",
         "norms/numba_parallel/n:1024"])
    row("gufunc matmul, the docs' fast core", "matmul_fast/ufx_host/m:32/B:4096",
        ["matmul_fast/omp_loop/m:32/B:4096", "matmul_fast/serial_loop/m:32/B:4096"])
    row("gufunc row norms, the docs' fast core", "norms_fast/ufx_host/n:1024",
        ["norms_fast/omp_loop/n:1024", "norms_fast/serial_loop/n:1024"])
    row("(n,1) + (1,n), n = 4096", "outer/ufx_host/4096", ["outer/omp_loop/4096", "outer/serial_loop/4096"])

    print("| case | ufx::host | best peer | ufx / peer |")
    print("|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")

    # accuracy of the sums: the error relative to the exact sum of the same data, and relative to
    # the sum of the magnitudes (bench_reduce.cpp says why both)
    for counter, title in (("rel_err", "Relative error of the sums"),
                           ("l1_err", "Error of the sums over the sum of |x|")):
        err = read_counter(os.path.join(d, "reduce.csv"), counter)
        if not err:
            continue
        hows = ("ufx_host", "omp_pairwise", "omp_loop", "eigen")
        print(f"\n{title} (the same uniform [-1, 1] data for every column):\n")
        print("| case | " + " | ".join(hows) + " |")
        print("|---|" + "---|" * len(hows))
        for op, label in (("sum", "sum"), ("abs_sum", "sum of |x|")):
            for lg in (20, 24, 26):
                vals = [err.get(f"{op}/{h}/{1 << lg}") for h in hows]
                if any(v is not None for v in vals):
                    print(f"| {label}, N = 2^{lg} | " + " | ".join("—" if v is None else f"{v:.1e}" for v in vals) + " |")

    # under load: ufx::host's median against ufx::serial's, each scheduler
    for label, f in (("quiet", "load0.csv"), ("two busy processes", "load2.csv")):
        lt = read_gbench(os.path.join(d, f))
        if not lt:
            continue
        print(f"\nufx::host / ufx::serial, median of 31, {label}:\n")
        print("| op | N | oneTBB | OpenMP | OpenMP loop |")
        print("|---|---|---|---|---|")
        for op in ("add", "sum"):
            for lg in range(12, 27, 2):
                n = 1 << lg
                s = lt.get(f"{op}/ufx_serial/{n}")
                if not s:
                    continue

                def r(h):
                    v = lt.get(f"{op}/{h}/{n}")
                    return f"{v / s:.2f}" if v else "—"

                print(f"| {op} | 2^{lg} | {r('ufx_host_tbb')} | {r('ufx_host_openmp')} | {r('omp_loop')} |")


if __name__ == "__main__":
    main()
