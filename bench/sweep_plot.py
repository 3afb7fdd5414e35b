#!/usr/bin/python3
"""Merges the sweep's CSV files (bench_sweep's and sweep_peers.py's) into one and draws the
tutorials' log-log plots with matplotlib.

    /usr/bin/python3 bench/sweep_plot.py --out DIR [--require-plots] FILE.csv [FILE.csv ...]

Writes DIR/sweep.csv (every row of the inputs, one header: problem,target,mode,N,n,median_s,reps),
DIR/sweep_time.png (median seconds against N, one panel per problem, a line per target and mode)
and DIR/sweep_speedup.png (NumPy's time divided by each one's: above 1 is faster than NumPy),
and prints, for the largest N of each problem, every line's time and speed-up over NumPy and the
loop. Without matplotlib it writes the CSV and the summary only (exit status 1 with --require-plots).
"""
import argparse
import csv
import math
import os
import sys

HEADER = ["problem", "target", "mode", "N", "n", "median_s", "reps"]
PROBLEMS = ["sum", "abs_sum", "add", "matmul"]
TITLES = {"sum": "sum", "abs_sum": "|x| sum (the tutorial's reducer)", "add": "add",
          "matmul": "tiled matmul (n x n, n = round(sqrt(N)))"}
COLORS = {"loop": "black", "serial": "tab:gray", "host": "tab:blue", "sim": "tab:purple", "cuda": "tab:green",
          "numpy": "tab:orange", "numba": "tab:red"}
ORDER = ["cuda", "host", "serial", "sim", "loop", "numba", "numpy"]


def read(paths):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            r = csv.reader(f)
            head = next(r, None)
            if head != HEADER:
                sys.exit(f"sweep_plot: {path}: header {head}, expected {','.join(HEADER)}")
            for line in r:
                if not line or line[0].startswith("#"):
                    continue
                if len(line) != len(HEADER):
                    sys.exit(f"sweep_plot: {path}: a row of {len(line)} fields: {line}")
                p, t, m, N, n, s, reps = line
                rows.append({"problem": p, "target": t, "mode": m, "N": int(N), "n": int(n),
                             "median_s": float(s), "reps": int(reps)})
    return rows


def label(target, mode):
    if mode == "device_data":
        return f"{target} (data on the device)"
    if target in ("sim", "cuda"):
        return f"{target} (host data, transfers counted)"
    return target


def lines_of(rows, problem):
    """{(target, mode): [(N, seconds), ...]} for one problem, in a stable order."""
    out = {}
    for r in rows:
        if r["problem"] == problem:
            out.setdefault((r["target"], r["mode"]), []).append((r["N"], r["median_s"]))
    key = lambda tm: (ORDER.index(tm[0]) if tm[0] in ORDER else len(ORDER), tm[0], tm[1])
    return {k: sorted(out[k]) for k in sorted(out, key=key)}


def reference(rows, problem, target):
    return {r["N"]: r["median_s"] for r in rows if r["problem"] == problem and r["target"] == target}


def summary(rows):
    for p in PROBLEMS:
        ls = lines_of(rows, p)
        if not ls:
            continue
        Nbig = max(N for pts in ls.values() for N, _ in pts)
        numpy, loop = reference(rows, p, "numpy").get(Nbig), reference(rows, p, "loop").get(Nbig)
        side = [r["n"] for r in rows if r["problem"] == p and r["N"] == Nbig][0]
        print(f"{p} at N = 2^{int(math.log2(Nbig))}" + (f" ({side} x {side})" if p == "matmul" else "") + ":")
        for (t, m), pts in ls.items():
            s = dict(pts).get(Nbig)
            if s is None:
                continue
            vs_np = f"{numpy / s:9.3f}x NumPy" if numpy and s > 0 else " " * 15
            vs_loop = f"{loop / s:9.3f}x the loop" if loop and s > 0 else ""
            print(f"  {label(t, m):<36} {s:11.4e} s {vs_np} {vs_loop}")


def plot(rows, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    problems = [p for p in PROBLEMS if lines_of(rows, p)]
    cols = 2 if len(problems) > 1 else 1
    nrows = (len(problems) + cols - 1) // cols
    written = []
    for kind in ("time", "speedup"):
        fig, axes = plt.subplots(nrows, cols, figsize=(6.5 * cols, 4.6 * nrows), squeeze=False)
        for ax, p in zip(axes.flat, problems):
            numpy = reference(rows, p, "numpy")
            for (t, m), pts in lines_of(rows, p).items():
                if kind == "speedup":
                    pts = [(N, numpy[N] / s) for N, s in pts if N in numpy and s > 0]
                if not pts:
                    continue
                xs, ys = zip(*pts)
                ax.loglog(xs, ys, marker="o" if m != "device_data" else "s", markersize=3.5,
                          linestyle="--" if m == "device_data" else "-", color=COLORS.get(t), label=label(t, m))
            ax.set_xscale("log", base=2)
            ax.set_title(TITLES.get(p, p))
            ax.set_xlabel("N (elements" + (" of each matrix)" if p == "matmul" else ")"))
            if kind == "time":
                ax.set_ylabel("median time per call (s)")
            else:
                ax.set_ylabel("speed-up over NumPy (NumPy's time / time)")
                ax.axhline(1.0, color="tab:orange", linewidth=0.8)
            ax.grid(True, which="both", linewidth=0.3)
            ax.legend(fontsize=7)
        for ax in list(axes.flat)[len(problems):]:
            ax.set_visible(False)
        fig.suptitle("ufx: the tutorials' sweep, " + ("time against N" if kind == "time" else "speed-up over NumPy")
                     + " (float32, log-log)")
        fig.tight_layout()
        path = os.path.join(out_dir, f"sweep_{kind}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="directory for sweep.csv and the PNGs")
    ap.add_argument("--require-plots", action="store_true", help="fail when matplotlib is missing")
    ap.add_argument("csv", nargs="+")
    a = ap.parse_args()
    rows = read(a.csv)
    if not rows:
        sys.exit("sweep_plot: no rows")
    os.makedirs(a.out, exist_ok=True)
    merged = os.path.join(a.out, "sweep.csv")
    with open(merged, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        for r in rows:
            w.writerow([r[h] if h != "median_s" else f"{r[h]:.9g}" for h in HEADER])
    summary(rows)
    try:
        written = plot(rows, a.out)
    except ImportError as e:
        print(f"sweep_plot: no plots ({e}); {merged} written", file=sys.stderr)
        return 1 if a.require_plots else 0
    print(f"sweep_plot: {merged}, " + ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
