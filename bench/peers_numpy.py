#!/usr/bin/python3
"""NumPy and Numba peers of bench_vectorize, bench_guvectorize, bench_reduce and bench_keops.

Run with Debian's interpreter, which has NumPy and Numba (python3-numpy python3-numba):

    /usr/bin/python3 bench/peers_numpy.py [--quick] [--keops]

It times the same problems as the C++ benches (float32, same sizes) and prints CSV lines
`name,ns_per_call,GB_per_s` in the C++ benches' naming (`sum/numpy/16777216`), so the figures can
be set beside ufx's from the same sitting. Numba's functions are compiled before timing; its
`target="parallel"` and `parallel=True` use all cores, like ufx::host. Best of several repeats.
"""
import os
import sys
import time

import numpy as np

try:
    import numba
    from numba import guvectorize, njit, prange, vectorize
except ImportError:  # NumPy figures still come out
    numba = None


def best_ns(fn, min_time):
    fn()  # warm up (and compile)
    calls, t0 = 0, time.perf_counter()
    best = float("inf")
    while True:
        s = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - s)
        calls += 1
        if time.perf_counter() - t0 > min_time and calls >= 3:
            return best * 1e9


def report(name, ns, nbytes):
    print(f"{name},{ns:.0f},{nbytes / ns:.3f}", flush=True)


def rand(shape, seed):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)


def bench_vectorize(min_time):
    if numba is not None:
        @vectorize(["float32(float32, float32)"], target="parallel")
        def add_par(a, b):
            return a + b

        @vectorize(["float32(float32, float32)"])
        def add_cpu(a, b):
            return a + b
    for lg in (12, 16, 20, 24):
        n = 1 << lg
        x, y = rand(n, 1), rand(n, 2)
        out = np.empty_like(x)
        nbytes = 3 * 4 * n
        report(f"add/numpy/{n}", best_ns(lambda: np.add(x, y, out=out), min_time), nbytes)
        if numba is not None:
            report(f"add/numba_cpu/{n}", best_ns(lambda: add_cpu(x, y, out=out), min_time), nbytes)
            report(f"add/numba_parallel/{n}", best_ns(lambda: add_par(x, y, out=out), min_time), nbytes)
    for lg in (24, 26):  # a fresh result per call (bench_vectorize's fresh/*)
        n = 1 << lg
        x, y = rand(n, 1), rand(n, 2)
        report(f"fresh/numpy/{n}", best_ns(lambda: x + y, min_time), 3 * 4 * n)


def bench_guvectorize(min_time):
    if numba is not None:
        @guvectorize(["void(float32[:,:], float32[:,:], float32[:,:])"], "(m,n),(n,p)->(m,p)", target="parallel")
        def matmul_par(a, b, c):
            for i in range(c.shape[0]):
                for j in range(c.shape[1]):
                    s = np.float32(0)
                    for k in range(a.shape[1]):
                        s += a[i, k] * b[k, j]
                    c[i, j] = s

        @guvectorize(["void(float32[:], float32[:])"], "(n)->()", target="parallel")
        def norm_par(x, r):
            s = np.float32(0)
            for i in range(x.shape[0]):
                s += x[i] * x[i]
            r[0] = np.sqrt(s)
    for m, lg in ((4, 10), (4, 16), (4, 20), (32, 8), (32, 12)):
        batch = 1 << lg
        a, b = rand((batch, m, m), 1), rand((batch, m, m), 2)
        c = np.empty_like(a)
        nbytes = 3 * 4 * batch * m * m
        report(f"matmul/numpy/m:{m}/B:{batch}", best_ns(lambda: np.matmul(a, b, out=c), min_time), nbytes)
        if numba is not None:
            report(f"matmul/numba_parallel/m:{m}/B:{batch}", best_ns(lambda: matmul_par(a, b, c), min_time), nbytes)
    total = 1 << 22
    for n in (3, 64, 1024):
        rows = total // n
        x = rand((rows, n), 3)
        r = np.empty(rows, np.float32)
        nbytes = 4 * (rows * n + rows)
        report(f"norms/numpy/n:{n}", best_ns(lambda: np.sqrt(np.einsum("ij,ij->i", x, x), out=r), min_time), nbytes)
        if numba is not None:
            report(f"norms/numba_parallel/n:{n}", best_ns(lambda: norm_par(x, r), min_time), nbytes)


def numba_sums():
    """Numba's sum and |x| sum on all cores (prange reductions), also used by sweep_peers.py."""
    @njit(parallel=True, fastmath=True)
    def sum_par(x):
        s = np.float32(0)
        for i in prange(x.shape[0]):
            s += x[i]
        return s

    @njit(parallel=True, fastmath=True)
    def abs_sum_par(x):
        s = np.float32(0)
        for i in prange(x.shape[0]):
            s += abs(x[i])
        return s

    return sum_par, abs_sum_par


def bench_reduce(min_time):
    if numba is not None:
        sum_par, abs_sum_par = numba_sums()
    for lg in range(12, 27, 2):
        n = 1 << lg
        x = rand(n, 1)
        report(f"sum/numpy/{n}", best_ns(lambda: np.sum(x), min_time), 4 * n)
        report(f"abs_sum/numpy/{n}", best_ns(lambda: np.sum(np.abs(x)), min_time), 4 * n)
        if numba is not None:
            report(f"sum/numba_parallel/{n}", best_ns(lambda: sum_par(x), min_time), 4 * n)
            report(f"abs_sum/numba_parallel/{n}", best_ns(lambda: abs_sum_par(x), min_time), 4 * n)
        if lg in (20, 26):  # the two-pass statistics a NumPy user writes (docs/fusion.md)
            report(f"stats/numpy_mean_var/{n}", best_ns(lambda: (x.mean(), x.var()), min_time), 4 * n)
    side = 4096
    a = rand((side, side), 2)
    out = np.empty(side, np.float32)
    report("axis0_4096/numpy", best_ns(lambda: np.sum(a, axis=0, out=out), min_time), 4 * side * side)
    report("axis1_4096/numpy", best_ns(lambda: np.sum(a, axis=1, out=out), min_time), 4 * side * side)


def bench_keops(min_time):
    """The Gaussian-kernel sum of bench_keops.cpp, r_i = sum_j exp(-|x_i - y_j|^2 / s), as NumPy
    users write it: the (n, m) matrix of squared distances materialised (|x|^2 + |y|^2 - 2 x y^T,
    one float32 GEMM), exponentiated in place and summed along axis 1. Where the matrix does not
    fit in half the machine's memory the size is skipped, with a line saying so."""
    inv_s = np.float32(1 / 0.25)
    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        mem = 0
    for n in (1000, 10000, 100000):
        x, y = rand((n, 3), 1), rand((n, 3), 2)
        if 4 * n * n > mem // 2:
            print(f"# gauss/numpy/{n}: skipped, the (n, m) float32 matrix is {4 * n * n / 2**30:.1f} GiB "
                  f"(machine: {mem / 2**30:.1f} GiB)", flush=True)
            continue

        def gauss():
            d = x @ (-2 * y).T
            d += (x * x).sum(1)[:, None]
            d += (y * y).sum(1)[None, :]
            d *= -inv_s
            np.exp(d, out=d)
            return d.sum(1)

        report(f"gauss/numpy/{n}", best_ns(gauss, min_time), 2 * 12 * n)


def main():
    min_time = 0.05 if "--quick" in sys.argv else 0.3
    print(f"# numpy {np.__version__}, numba {numba.__version__ if numba else 'absent'}, {os.cpu_count()} cores")
    print("name,ns_per_call,GB_per_s")
    if "--keops" in sys.argv:  # only the Gaussian-kernel sum (bench_keops's peer)
        bench_keops(min_time)
        return
    bench_vectorize(min_time)
    bench_guvectorize(min_time)
    bench_reduce(min_time)
    bench_keops(min_time)


if __name__ == "__main__":
    main()
