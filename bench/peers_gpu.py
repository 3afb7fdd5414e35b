#!/usr/bin/env python3
"""GPU peers for issue #30's table: CuPy and Numba-CUDA on the workloads bench_cuda times for
ufx::cuda (float32). Writes one CSV row per (row, impl): seconds per call. scripts/bench_gpu.sh
runs it beside bench_cuda and bench/gpu_table.py joins the two.

Timing: device-resident rows by CUDA events around one call, median of repetitions (as
bench_cuda's `timed`); the per-call rows (`call_*`) by the host clock around a loop of 2000 calls
and a final synchronisation (as bench_cuda's `timed_loop`), which is what a program in a loop pays.

    python3 bench/peers_gpu.py --out build/bench_gpu/peers.csv [--quick]
"""
import argparse
import csv
import math
import sys
import time

import numpy as np

if not hasattr(np, "row_stack"):  # numba-cuda 0.x still names it; NumPy 2.5 removed it
    np.row_stack = np.vstack

try:
    import cupy as cp
    import cupyx
except Exception as e:  # pragma: no cover - a machine without CuPy has no peers to time
    print("peers_gpu.py: CuPy not importable here:", e)
    sys.exit(0)
try:
    from numba import cuda, float32, guvectorize, vectorize

    have_numba = cuda.is_available()
except Exception as e:  # pragma: no cover
    print("peers_gpu.py: Numba-CUDA not usable here:", e)
    have_numba = False

LOOP_CALLS = 2000
TPB = 16  # the tutorials' tile (examples/tutorial_kernels.hpp)


def sync():
    cp.cuda.Device().synchronize()


def timed(fn, reps):
    fn()
    sync()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        ts.append(cp.cuda.get_elapsed_time(start, stop) * 1e-3)
    ts.sort()
    return ts[len(ts) // 2]


def timed_loop(fn, reps=5):
    fn()
    sync()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(LOOP_CALLS):
            fn()
        sync()
        ts.append((time.perf_counter() - t0) / LOOP_CALLS)
    ts.sort()
    return ts[len(ts) // 2]


def numba_kernels():
    @vectorize(["float32(float32, float32)"], target="cuda")
    def nb_add(a, b):
        return a + b

    @vectorize(["float32(float32, float32)"], target="cuda")
    def nb_heavy(a, b):
        return math.exp(-a * a) * math.sin(b) + 1.0

    @cuda.reduce
    def nb_sum(a, b):
        return a + b

    @cuda.reduce
    def nb_abs(a, b):  # the tutorials' reducer
        if b < 0:
            return a - b
        return a + b

    @guvectorize(["void(float32[:,:], float32[:,:], float32[:,:])"], "(m,n),(n,p)->(m,p)", target="cuda")
    def nb_matmul(a, b, c):
        for i in range(c.shape[0]):
            for j in range(c.shape[1]):
                s = 0.0
                for k in range(a.shape[1]):
                    s += a[i, k] * b[k, j]
                c[i, j] = s

    @cuda.jit
    def nb_tiled(A, B, C):  # the Numba tutorial's fast_matmul
        sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
        sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
        x, y = cuda.grid(2)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        bpg = cuda.gridDim.x
        tmp = float32(0.0)
        for i in range(bpg):
            sA[tx, ty] = 0
            sB[tx, ty] = 0
            if x < A.shape[0] and (ty + i * TPB) < A.shape[1]:
                sA[tx, ty] = A[x, ty + i * TPB]
            if y < B.shape[1] and (tx + i * TPB) < B.shape[0]:
                sB[tx, ty] = B[tx + i * TPB, y]
            cuda.syncthreads()
            for j in range(TPB):
                tmp += sA[tx, j] * sB[j, ty]
            cuda.syncthreads()
        if x < C.shape[0] and y < C.shape[1]:
            C[x, y] = tmp

    return dict(add=nb_add, heavy=nb_heavy, sum=nb_sum, abs=nb_abs, matmul=nb_matmul, tiled=nb_tiled)


@cp.fuse()
def fused_heavy(x, y):
    return cp.exp(-x * x) * cp.sin(y) + 1


GAUSS = cp.ElementwiseKernel(
    "raw float32 xs, raw float32 ys, int32 m, float32 inv_s", "float32 r",
    """
    const float ax = xs[3 * i], ay = xs[3 * i + 1], az = xs[3 * i + 2];
    float s = 0;
    for (int j = 0; j < m; ++j) {
      const float dx = ax - ys[3 * j], dy = ay - ys[3 * j + 1], dz = az - ys[3 * j + 2];
      s += expf(-(dx * dx + dy * dy + dz * dz) * inv_s);
    }
    r = s;
    """, "gauss_rows")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="peers_gpu.csv")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = ap.parse_args()
    reps = 5 if args.quick else 15
    nb = numba_kernels() if have_numba else None
    rows = []

    def add(row, impl, fn, loop=False, r=None, per=1):
        try:
            t = (timed_loop(fn) if loop else timed(fn, r or reps)) / per
            rows.append(dict(row=row, impl=impl, seconds=t, error=""))
        except Exception as e:  # a peer failing is a figure too
            rows.append(dict(row=row, impl=impl, seconds=float("nan"), error=str(e).splitlines()[0][:100]))
        print(f"{row:<28}{impl:<22}{rows[-1]['seconds'] * 1e6:>12.1f} us {rows[-1]['error']}", flush=True)

    rng = cp.random.default_rng(1)
    for n in (1 << 20, 1 << 27):
        x = rng.standard_normal(n, dtype=cp.float32)
        y = rng.standard_normal(n, dtype=cp.float32)
        z = cp.empty_like(x)
        add(f"add/{n}", "cupy", lambda: cp.add(x, y, out=z))
        add(f"sum/{n}", "cupy", lambda: cp.sum(x))  # a 0-d device array
        add(f"sum_value/{n}", "cupy", lambda: cp.sum(x).item())  # the number on the host
        if nb:
            nx, ny, nz = (cuda.as_cuda_array(a) for a in (x, y, z))
            add(f"add/{n}", "numba", lambda: nb["add"](nx, ny, out=nz))
            add(f"sum_value/{n}", "numba", lambda: nb["sum"](nx))  # cuda.reduce returns the number
        if n == 1 << 27:  # float16 (issue 48): CuPy's add and sum of float16 (its sum accumulates in float32)
            xh, yh = x.astype(cp.float16), y.astype(cp.float16)
            zh = cp.empty_like(xh)
            add(f"half_add/{n}", "cupy", lambda: cp.add(xh, yh, out=zh))
            add(f"half_sum_value/{n}", "cupy", lambda: cp.sum(xh).item())
            del xh, yh, zh
            add(f"expsin/{n}", "cupy", lambda: cp.add(cp.multiply(cp.exp(-x * x), cp.sin(y)), 1.0, out=z))
            add(f"expsin/{n}", "cupy_fuse", lambda: fused_heavy(x, y))
            add(f"abs_sum/{n}", "cupy", lambda: cp.abs(x).sum())
            hx = cp.asnumpy(x)
            add(f"sum_pageable/{n}", "cupy", lambda: cp.sum(cp.asarray(hx)).item(), r=5)
            pinned = cp.cuda.alloc_pinned_memory(n * 4)
            px = np.frombuffer(pinned, np.float32, n)
            px[:] = hx
            add(f"sum_pinned/{n}", "cupy", lambda: cp.sum(cp.asarray(px)).item(), r=5)
            if nb:
                add(f"expsin/{n}", "numba", lambda: nb["heavy"](nx, ny, out=nz))
                add(f"abs_sum/{n}", "numba", lambda: nb["abs"](nx, init=0))
                add(f"sum_pageable/{n}", "numba", lambda: nb["sum"](hx), r=5)
            del x, y, z, hx, px, pinned
            if nb:
                del nx, ny, nz
    # np.add.at on the device: 2^20 random indices into 2^16 int32 bins (bench_cuda's add_at rows)
    idx = rng.integers(0, 1 << 16, 1 << 20, dtype=cp.int64)
    w = (cp.arange(1 << 20) % 7).astype(cp.int32)
    bins = cp.zeros(1 << 16, dtype=cp.int32)
    add(f"add_at/{1 << 20}", "cupy_add_at", lambda: cp.add.at(bins, idx, w))
    add(f"add_at/{1 << 20}", "cupyx_scatter_add", lambda: cupyx.scatter_add(bins, idx, w))
    del idx, w, bins
    # the fixed cost of a call: 1024 elements, a loop of calls
    x = rng.standard_normal(1024, dtype=cp.float32)
    y = rng.standard_normal(1024, dtype=cp.float32)
    z = cp.empty_like(x)
    add("call_add/1024", "cupy", lambda: cp.add(x, y, out=z), loop=True)
    add("call_sum/1024", "cupy", lambda: float(cp.sum(x)), loop=True)
    if nb:
        nx, ny, nz = (cuda.as_cuda_array(a) for a in (x, y, z))
        add("call_add/1024", "numba", lambda: nb["add"](nx, ny, out=nz), loop=True)
        add("call_sum/1024", "numba", lambda: float(nb["sum"](nx)), loop=True)
    # ten such adds, called or replayed from a CUDA graph (cupy.cuda.graph: a stream's capture), per call
    gs = cp.cuda.Stream(non_blocking=True)

    def ten_adds():
        for _ in range(10):
            cp.add(x, y, out=z)

    add("graph10_calls/1024", "cupy", ten_adds, loop=True, per=10)
    try:
        with gs:
            gs.begin_capture()
            ten_adds()
            graph = gs.end_capture()
        add("graph10_graph/1024", "cupy_graph", lambda: graph.launch(stream=gs), loop=True, per=10)
    except Exception as e:  # CuPy before v10 has no graphs
        rows.append(dict(row="graph10_graph/1024", impl="cupy_graph", seconds=float("nan"), error=str(e)[:100]))
    # axis sums of a 16384 x 16384 row-major matrix
    a = rng.standard_normal((16384, 16384), dtype=cp.float32)
    add("axis1_sum/16384", "cupy", lambda: a.sum(axis=1))
    add("axis0_sum/16384", "cupy", lambda: a.sum(axis=0))
    del a
    # the batched 4x4 matmul gufunc
    b = 1 << 22
    A = rng.standard_normal((b, 4, 4), dtype=cp.float32)
    B = rng.standard_normal((b, 4, 4), dtype=cp.float32)
    C = cp.empty_like(A)
    add(f"gufunc_matmul4/{b}", "cupy_matmul", lambda: cp.matmul(A, B, out=C))
    if nb:
        nA, nB, nC = (cuda.as_cuda_array(t) for t in (A, B, C))
        add(f"gufunc_matmul4/{b}", "numba", lambda: nb["matmul"](nA, nB, out=nC))
    del A, B, C
    # the Gaussian kernel sum at n = m = 10^5: one thread per output row (no tiling)
    n = 100000
    xs = rng.uniform(-1, 1, 3 * n, dtype=cp.float32)
    ys = rng.uniform(-1, 1, 3 * n, dtype=cp.float32)
    r = cp.empty(n, dtype=cp.float32)
    add(f"gauss_sum/{n}", "cupy_elementwise", lambda: GAUSS(xs, ys, np.int32(n), np.float32(4.0), r), r=3)
    # the tutorials' tiled matmul, 4096^2
    if nb:
        m = 4096
        A = rng.standard_normal((m, m), dtype=cp.float32)
        B = rng.standard_normal((m, m), dtype=cp.float32)
        C = cp.empty_like(A)
        g = (m + TPB - 1) // TPB
        nA, nB, nC = (cuda.as_cuda_array(t) for t in (A, B, C))
        add(f"tiled_matmul/{m}", "numba_cuda_jit", lambda: nb["tiled"][(g, g), (TPB, TPB)](nA, nB, nC), r=3)
        add(f"tiled_matmul/{m}", "cupy_matmul_cublas", lambda: cp.matmul(A, B, out=C), r=3)

    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["row", "impl", "seconds", "error"])
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
