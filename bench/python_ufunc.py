#!/usr/bin/python3
"""ufx kernels as NumPy ufuncs (ufx::python) beside NumPy's own ufuncs and Numba's @vectorize / @guvectorize, from
Python, in one sitting:

    PYTHONPATH=<build>/examples /usr/bin/python3 bench/python_ufunc.py [--quick]

The ufuncs are examples/python_kernels.cpp's (module ufx_kernels): add (float32 and float64 loops, on ufx::host) and
the (m,n),(n,p)->(m,p) matmul gufunc. Numba's are compiled before timing, for target "cpu" (one thread, as NumPy)
and "parallel" (all cores, as ufx::host). Prints CSV lines `name,ns_per_call,GB_per_s` and each peer's time over
ufx's. Best of several repeats (a shared machine).
"""
import os
import sys

import numpy as np

import ufx_kernels as k
from peers_numpy import best_ns  # the same timing as the other peers' figures

try:
    from numba import guvectorize, vectorize
except ImportError:
    vectorize = guvectorize = None


def main():
    quick = "--quick" in sys.argv
    min_time = 0.05 if quick else 0.3
    print(f"# NumPy {np.__version__}, {os.cpu_count()} cores", flush=True)
    peers = {"numpy": np.add}
    if vectorize:
        peers["numba_cpu"] = vectorize(["float32(float32, float32)"], target="cpu")(lambda a, b: a + b)
        peers["numba_parallel"] = vectorize(["float32(float32, float32)"], target="parallel")(lambda a, b: a + b)
    sizes = [100, 1 << 14, 1 << 20] + ([] if quick else [1 << 24])
    for n in sizes:
        a, b = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
        out = np.empty_like(a)
        nbytes = 3 * 4 * n
        t_ufx = best_ns(lambda: k.add(a, b, out=out), min_time)
        print(f"add/ufx_python/{n},{t_ufx:.0f},{nbytes / t_ufx:.3f}")
        for name, fn in peers.items():
            t = best_ns(lambda: fn(a, b, out=out), min_time)
            print(f"add/{name}/{n},{t:.0f},{nbytes / t:.3f},{t / t_ufx:.2f}x ufx's time")
    if vectorize:
        import numba
        print(f"# Numba {numba.__version__}, threading layer {numba.threading_layer()}", flush=True)
    if guvectorize:
        def mm(a, b, c):
            for i in range(a.shape[0]):
                for j in range(b.shape[1]):
                    s = 0.0
                    for q in range(a.shape[1]):
                        s += a[i, q] * b[q, j]
                    c[i, j] = s
        numba_mm = {t: guvectorize(["void(float32[:,:], float32[:,:], float32[:,:])"], "(m,n),(n,p)->(m,p)",
                                   target=t)(mm) for t in ("cpu", "parallel")}
    batch = 1 << (12 if quick else 16)
    a = np.random.rand(batch, 4, 4).astype(np.float32)
    b = np.random.rand(batch, 4, 4).astype(np.float32)
    c = np.empty_like(a)
    nbytes = 3 * a.nbytes
    t_ufx = best_ns(lambda: k.matmul(a, b, out=c), min_time)
    print(f"matmul4x4/ufx_python/{batch},{t_ufx:.0f},{nbytes / t_ufx:.3f}")
    t = best_ns(lambda: np.matmul(a, b, out=c), min_time)
    print(f"matmul4x4/numpy/{batch},{t:.0f},{nbytes / t:.3f},{t / t_ufx:.2f}x ufx's time")
    if guvectorize:
        for name, fn in numba_mm.items():
            t = best_ns(lambda: fn(a, b, c), min_time)
            print(f"matmul4x4/numba_{name}/{batch},{t:.0f},{nbytes / t:.3f},{t / t_ufx:.2f}x ufx's time")


if __name__ == "__main__":
    main()
