#!/usr/bin/env python3
"""Issue #30's GPU table from one run: bench_cuda's JSON (ufx::cuda and the C++ peers: Thrust, CUB,
cudaMemcpy, plain launches) and peers_gpu.py's CSV (CuPy, Numba-CUDA). Prints, per row, ufx's time,
the best peer's time and name, and best peer / ufx (above 1: ufx is faster), plus ufx's GB/s
(10^9 bytes/s) where the row moves a known number of bytes.

    gpu_table.py bench_cuda.json peers_gpu.csv [--markdown]
"""
import csv
import json
import math
import re
import sys

U = 1 << 27
# label, ufx's benchmark, C++ peers (benchmarks), Python peer row, bytes per call (0: none)
ROWS = [
    ("add, 2^27", "add/ufx_cuda_device/134217728", ["add/thrust_transform/134217728"], "add/134217728", 12 * U),
    ("exp(-x*x)*sin(y)+1, 2^27", "expsin/ufx_cuda_device/134217728", ["expsin/thrust_transform/134217728"],
     "expsin/134217728", 12 * U),
    ("add, 2^20", "add/ufx_cuda_device/1048576", ["add/thrust_transform/1048576"], "add/1048576", 12 << 20),
    ("add, 1024, per call in a loop", "call_add/ufx_cuda/1024", ["call_add/plain_launch/1024", "call_add/thrust_transform/1024"],
     "call_add/1024", 0),
    # a sum's value left on the device (CuPy's cp.sum returns a 0-d device array), and brought to
    # the host as a number (CuPy's .item(), Numba's reduce)
    ("sum, 2^27, into device memory", "sum/ufx_cuda_device_out/134217728", ["sum/cub_reduce_device/134217728"],
     "sum/134217728", 4 * U),
    ("sum, 2^20, into device memory", "sum/ufx_cuda_device_out/1048576", ["sum/cub_reduce_device/1048576"],
     "sum/1048576", 4 << 20),
    ("sum, 2^27, to a host number", "sum/ufx_cuda_device/134217728", ["sum/cub_reduce/134217728"],
     "sum_value/134217728", 4 * U),
    ("sum, 2^20, to a host number", "sum/ufx_cuda_device/1048576", ["sum/cub_reduce/1048576"], "sum_value/1048576",
     4 << 20),
    ("sum of 1024 to a host scalar, per call", "call_sum/ufx_cuda/1024", ["call_sum/cub_reduce/1024"], "call_sum/1024", 0),
    # float16 (issue 48): the add at 90% of the memory bound (the copy row's rate), the sum at CUB's rate for __half
    ("float16 add, 2^27", "half_add/ufx_cuda_device/134217728", ["half_add/thrust_transform/134217728"],
     "half_add/134217728", 6 * U),
    ("float16 sum, 2^27, to a host number", "half_sum/ufx_cuda_device/134217728", ["half_sum/cub_reduce/134217728"],
     "half_sum_value/134217728", 2 * U),
    ("|x| reducer, 2^27", "abs_sum/ufx_cuda_device/134217728", ["abs_sum/cub_reduce/134217728"], "abs_sum/134217728", 4 * U),
    ("sums along axis 1, 16384^2", "axis1_sum/ufx_cuda/16384", [], "axis1_sum/16384", 4 << 28),
    ("sums along axis 0, 16384^2", "axis0_sum/ufx_cuda/16384", [], "axis0_sum/16384", 4 << 28),
    ("sum of a pageable vector, 2^27", "sum/ufx_cuda_transfers/134217728", [], "sum_pageable/134217728", 4 * U),
    ("sum of a pinned vector, 2^27", "sum/ufx_cuda_pinned/134217728", ["bulk/cudaMemcpy_h2d_pinned"], "sum_pinned/134217728", 4 * U),
    ("chunked add, pageable, 3 x 2^27, 64 MiB", "bulk/chunked_add_pageable/64", ["bulk/cudaMemcpy_h2d_pageable"], "", 12 * U),
    ("chunked add, pinned, 3 x 2^27, 64 MiB", "bulk/chunked_add_pinned/64", ["bulk/cudaMemcpy_h2d_pinned"], "", 12 * U),
    ("gufunc (4,4)@(4,4), B = 2^22", "gufunc_matmul4/ufx_cuda/4194304", [], "gufunc_matmul4/4194304", 3 * 64 << 22),
    ("Gaussian kernel sum, n = m = 10^5", "gauss_sum/ufx_cuda/100000", [], "gauss_sum/100000", 0),
    ("Gaussian kernel sum, n = m = 10^6", "gauss_sum/ufx_cuda/1000000", [], "gauss_sum/1000000", 0),
    ("the same with ufx::math::fast::exp, 10^5", "gauss_sum/ufx_cuda_fast_exp/100000", [], "gauss_sum/100000", 0),
    ("the same with ufx::math::fast::exp, 10^6", "gauss_sum/ufx_cuda_fast_exp/1000000", [], "gauss_sum/1000000", 0),
    ("tiled matmul (ufx::kernel), 4096^2", "kernel_tiled_matmul/ufx_kernel/4096", ["kernel_tiled_matmul/plain_cuda/4096"],
     "tiled_matmul/4096", 0),
    # ten adds of 1024 floats on a stream replayed from a graph, per call (CuPy: cupy.cuda.graph; plain: a CUDA graph of
    # ten kernels captured by hand), and the host's share of it
    ("10 adds of 1024 as a graph, per call", "graph10/ufx_graph", ["graph10/cuda_graph"], "graph10_graph/1024", 0),
    ("the same, host time to queue, per call", "graph10/ufx_graph_host", ["graph10/cuda_graph_host"], "", 0),
    ("10 adds of 1024 called, per call", "graph10/ufx_calls", [], "graph10_calls/1024", 0),
    ("the same, host time to queue, per call", "graph10/ufx_calls_host", [], "", 0),
    # np.add.at: 2^20 int32 updates into 2^16 bins (CuPy's add.at and cupyx.scatter_add, plain atomicAdd)
    ("add.at, 2^20 updates into 2^16 bins", "add_at/ufx_atomics/1048576", ["add_at/plain_atomicAdd/1048576"],
     "add_at/1048576", 0),
]

# (label, ufx now, ufx the way it ran before issue #30), both from the same run
PAIRS = [
    ("10 adds of 1024 per call (a ufx::graph replayed / called)", "graph10/ufx_graph", "graph10/ufx_calls"),
    ("tiled matmul 4096^2 (warps along rows / the tutorial's along columns; ufx::profile: 4 / 16 sectors a request)",
     "kernel_tiled_matmul/ufx_kernel_rows/4096", "kernel_tiled_matmul/ufx_kernel/4096"),
    ("add 1024 per call (no wait / wait each call)", "call_add/ufx_cuda/1024", "call_add/ufx_cuda_wait_each/1024"),
    ("sum of a pageable vector 2^27 (staged / CUDA's copy)", "sum/ufx_cuda_transfers/134217728",
     "sum/ufx_cuda_transfers_unstaged/134217728"),
    ("add of pageable vectors 2^27 (staged / CUDA's copy)", "add/ufx_cuda_transfers/134217728",
     "add/ufx_cuda_transfers_unstaged/134217728"),
    ("gufunc (4,4)@(4,4), B = 2^22 (staged cores / a thread per matrix in place)", "gufunc_matmul4/ufx_cuda/4194304",
     "gufunc_matmul4/ufx_cuda_unstaged/4194304"),
    ("Gaussian kernel sum 10^6, expf (4 outputs a thread / 1)", "gauss_sum/ufx_cuda/1000000",
     "gauss_sum/ufx_cuda_one_output_per_thread/1000000"),
    ("chunked add, pageable (packing threads / one thread)", "bulk/chunked_add_pageable/64",
     "bulk/chunked_add_pageable_1thread/64"),
]

SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load_bench(path):
    with open(path) as f:
        data = json.load(f)
    out = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = re.sub(r"/(manual_time|real_time|iterations:\d+|repeats:\d+)", "", b.get("run_name", b["name"]))
        if b.get("error_occurred"):
            out[name] = (math.nan, b.get("error_message", "error"))
            continue
        out[name] = (b["real_time"] * SCALE[b.get("time_unit", "ns")], "")
    return out


def load_peers(path):
    out = {}
    try:
        with open(path) as f:
            for r in csv.DictReader(f):
                out.setdefault(r["row"], []).append((float(r["seconds"]), r["impl"], r.get("error", "")))
    except FileNotFoundError:
        pass
    return out


def fmt_t(t):
    if math.isnan(t):
        return "-"
    return f"{t * 1e6:.1f} us" if t < 1e-3 else f"{t * 1e3:.2f} ms" if t < 1 else f"{t:.2f} s"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    md = "--markdown" in sys.argv
    bench = load_bench(args[0])
    peers = load_peers(args[1]) if len(args) > 1 else {}
    lines = [("row", "ufx::cuda", "GB/s", "best peer", "peer time", "peer / ufx")]
    for label, ufx_name, cpp, py, nbytes in ROWS:
        t, err = bench.get(ufx_name, (math.nan, "not run"))
        cands = [(bench[c][0], c.split("/")[1]) for c in cpp if c in bench and not math.isnan(bench[c][0])]
        cands += [(s, impl) for s, impl, e in peers.get(py, []) if not math.isnan(s)]
        best = min(cands) if cands else (math.nan, "-")
        gbps = f"{nbytes / t / 1e9:.0f}" if nbytes and t == t and t > 0 else ""
        ratio = f"{best[0] / t:.2f}" if t == t and best[0] == best[0] else ""
        lines.append((label, fmt_t(t) + (f" ({err})" if err else ""), gbps, best[1], fmt_t(best[0]), ratio))
    if md:
        print("| " + " | ".join(lines[0]) + " |")
        print("|" + "---|" * len(lines[0]))
        for l in lines[1:]:
            print("| " + " | ".join(l) + " |")
    else:
        w = [max(len(l[i]) for l in lines) for i in range(len(lines[0]))]
        for l in lines:
            print("  ".join(c.ljust(w[i]) for i, c in enumerate(l)))
    print("\nufx beside its own path before issue #30 (same run):")
    for label, now, before in PAIRS:
        if now in bench and before in bench:
            a, b = bench[now][0], bench[before][0]
            print(f"  {label}: {fmt_t(a)} now, {fmt_t(b)} before ({b / a:.2f}x)" if a == a and b == b else f"  {label}: -")
    copy = bench.get("copy/cudaMemcpy_d2d/134217728", (math.nan, ""))[0]
    half = bench.get("half_add/ufx_cuda_device/134217728", (math.nan, ""))[0]
    if copy == copy and half == half:  # a device-to-device copy of 2^27 floats moves 8 * 2^27 bytes
        print(f"\nfloat16 add 2^27: {6 * U / half / 1e9:.0f} GB/s, {(6 * U / half) / (8 * U / copy):.2f} of "
              f"cudaMemcpy d2d's {8 * U / copy / 1e9:.0f} GB/s (issue 48: 0.9 or better)")
    staging = sorted((k, v) for k, v in bench.items() if k.startswith("staging/"))
    if staging:
        print("\npageable staging, sum of 2^27 floats (block MiB / packing threads / stores):")
        for k, (t, err) in staging:
            mib, threads, nt = (k.split("/") + ["1"])[2:5]
            how = "non-temporal" if nt.startswith("1") else "memcpy"
            print(f"  {mib} MiB / {threads} threads / {how}: {fmt_t(t)} ({4 * U / t / 1e9:.1f} GB/s)" if t == t else f"  {k}: {err}")
    print("\nall peers per row:")
    for label, ufx_name, cpp, py, _ in ROWS:
        alls = [f"{c.split('/')[1]} {fmt_t(bench[c][0])}" for c in cpp if c in bench]
        alls += [f"{impl} {fmt_t(s)}{' (' + e + ')' if e else ''}" for s, impl, e in peers.get(py, [])]
        if alls:
            print(f"  {label}: " + "; ".join(alls))


if __name__ == "__main__":
    main()
