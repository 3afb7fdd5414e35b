#!/usr/bin/python3
"""The NumPy and Numba peers of bench_sweep (bench/sweep.cpp): the tutorials' four problems timed
the same way, written as the same CSV rows.

    /usr/bin/python3 bench/sweep_peers.py [--min 12] [--max 27] [--matmul-max 16] [--reps 5]
                                          [--no-numba] [--csv FILE]

Problems (float32, uniform in [-1, 1)): sum (np.sum), abs_sum (np.sum(np.abs(x)), as NumPy users
write it: a temporary of |x|), add (np.add into a preallocated output), matmul (np.matmul of two
n x n matrices, n = round(sqrt(N)), into a preallocated output: NumPy's BLAS). Numba, where
/usr/bin/python3 has it (Debian's python3-numba), runs the CPU versions of the tutorials' functions
on all cores: @vectorize(target="parallel") for add, @njit(parallel=True) prange loops for the sums
(fastmath=True, as bench/peers_numpy.py) and for the matmul (rows in parallel, i-k-j order). Its
compilation happens in the warm-up call, which is not timed.

Each point: one warm-up call, then --reps timed calls (time.perf_counter); the median is written.
CSV columns: problem,target,mode,N,n,median_s,reps with target numpy or numba and mode host_data.
A progress bar goes to stderr on a terminal.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

PROBLEMS = ("sum", "abs_sum", "add", "matmul")


def numba_kernels():
    """The Numba versions, or None when Numba cannot be imported."""
    try:
        from numba import njit, prange, vectorize
    except ImportError:
        return None
    from peers_numpy import numba_sums  # bench/peers_numpy.py: the same prange sums

    nb_sum, nb_abs_sum = numba_sums()

    @vectorize(["float32(float32, float32)"], target="parallel")
    def nb_add(a, b):
        return a + b

    @njit(parallel=True)
    def nb_matmul(a, b, c):
        n = a.shape[0]
        for i in prange(n):
            for j in range(n):
                c[i, j] = 0
            for k in range(n):
                aik = a[i, k]
                for j in range(n):
                    c[i, j] += aik * b[k, j]

    return {
        "sum": lambda d: nb_sum(d["x"]),
        "abs_sum": lambda d: nb_abs_sum(d["x"]),
        "add": lambda d: nb_add(d["x"], d["y"], out=d["z"]),
        "matmul": lambda d: nb_matmul(d["A"], d["B"], d["C"]),
    }


NUMPY = {
    "sum": lambda d: np.sum(d["x"]),
    "abs_sum": lambda d: np.sum(np.abs(d["x"])),
    "add": lambda d: np.add(d["x"], d["y"], out=d["z"]),
    "matmul": lambda d: np.matmul(d["A"], d["B"], out=d["C"]),
}


def median_seconds(fn, reps):
    fn()  # warm-up (and Numba's compilation)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


class Bar:
    def __init__(self, total, enabled):
        self.total, self.done, self.t0 = total, 0, time.perf_counter()
        self.enabled = enabled and sys.stderr.isatty()

    def show(self, what):
        if not self.enabled:
            return
        width = 30
        filled = width * self.done // max(self.total, 1)
        sys.stderr.write(f"\r[{'#' * filled}{' ' * (width - filled)}] {self.done}/{self.total} {what:<36} "
                         f"{time.perf_counter() - self.t0:6.1f}s\x1b[K")
        sys.stderr.flush()

    def finish(self):
        if self.enabled:
            sys.stderr.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min", type=int, default=12)
    ap.add_argument("--max", type=int, default=27)
    ap.add_argument("--matmul-max", type=int, default=16)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--no-numba", action="store_true", help="NumPy only (Numba's compilation takes seconds)")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--csv", help="output file (default: stdout)")
    a = ap.parse_args()
    if a.min < 0 or a.min > a.max or a.reps < 1:
        ap.error("need 0 <= --min <= --max and --reps >= 1")

    peers = {"numpy": NUMPY}
    if not a.no_numba:
        nb = numba_kernels()
        if nb is None:
            print("sweep_peers: Numba cannot be imported here; NumPy only", file=sys.stderr)
        else:
            peers["numba"] = nb

    out = open(a.csv, "w") if a.csv else sys.stdout
    out.write("problem,target,mode,N,n,median_s,reps\n")
    out.flush()
    exps = range(a.min, a.max + 1)
    total = sum(len(peers) * sum(1 for p in PROBLEMS if p != "matmul" or e <= a.matmul_max) for e in exps)
    bar = Bar(total, not a.no_progress)
    rng = np.random.default_rng(1)
    big_x = rng.uniform(-1, 1, 1 << a.max).astype(np.float32)
    big_y = rng.uniform(-1, 1, 1 << a.max).astype(np.float32)
    for e in exps:
        N = 1 << e
        d = {"x": big_x[:N].copy(), "y": big_y[:N].copy(), "z": np.empty(N, np.float32)}
        n = int(round(N ** 0.5))
        if e <= a.matmul_max:
            d["A"] = big_x[: n * n].reshape(n, n).copy()
            d["B"] = big_y[: n * n].reshape(n, n).copy()
            d["C"] = np.empty((n, n), np.float32)
        for p in PROBLEMS:
            if p == "matmul" and e > a.matmul_max:
                continue
            for name, fns in peers.items():
                bar.show(f"{p} {name} 2^{e}")
                s = median_seconds(lambda: fns[p](d), a.reps)
                out.write(f"{p},{name},host_data,{N},{n if p == 'matmul' else N},{s:.9g},{a.reps}\n")
                out.flush()
                bar.done += 1
    bar.show("done")
    bar.finish()
    if out is not sys.stdout:
        out.close()
    print(f"sweep_peers: {bar.done} points (numpy {np.__version__}"
          f"{', numba ' + sys.modules['numba'].__version__ if 'numba' in peers else ', no numba'}, "
          f"{os.cpu_count()} cores)", file=sys.stderr)


if __name__ == "__main__":
    main()
