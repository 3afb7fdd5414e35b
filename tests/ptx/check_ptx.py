#!/usr/bin/env python3
"""Reads the PTX of tests/ptx/ptx_kernels.cu and ptxas -v's report of it, and checks ufx's dense
kernels: no local memory in any kernel of ufx's own (launch_kernel, ufx's one __global__, whatever it runs: the
tiled reduction's block_phases and the raw kernels' raw_kernel_entry included)
or CUB's dense reductions (no ld.local /
st.local, 0-byte stack frame, no spills), and 128-bit global loads (ld.global[.nc].v4 or
cp.async.bulk) in the dense elementwise kernels and the row reduction; warp-level code (a shuffle reduction, block_reduce)
compiled to shfl.sync without local memory, the three fences to membar.cta / .gl / .sys, and the tiled
Gaussian sum's inner run (four outputs a thread, 128-bit shared loads, at most 11 instructions a pair). Prints every kernel's figures. Usage: check_ptx.py <file.ptx> <ptxas> <arch>"""
import re
import subprocess
import sys


def entries(ptx):
    """name -> body text of each .entry."""
    out = {}
    for m in re.finditer(r"\.entry\s+(\S+?)\s*\(", ptx):
        start = m.start()
        depth, i = 0, ptx.index("{", m.end())
        j = i
        while True:
            c = ptx[j]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        out[m.group(1)] = ptx[start : j + 1]
    return out


def ptxas_report(ptxas, arch, path):
    r = subprocess.run([ptxas, f"-arch={arch}", "-v", path, "-o", "/dev/null"], capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        sys.exit("ptxas failed")
    info, cur = {}, None
    for line in (r.stdout + r.stderr).splitlines():
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            cur = m.group(1)
            info[cur] = {}
            continue
        if cur is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            info[cur].update(stack=int(m.group(1)), spill_st=int(m.group(2)), spill_ld=int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            info[cur]["registers"] = int(m.group(1))
    return info


def tile_run_costs(body):
    """The tiled reduction's hottest basic block (the most ex2 instructions: a run of 8 positions times
    the outputs per thread, unrolled): (ex2 count, instructions other than moves, 128-bit shared loads)."""
    best = (0, 0, 0)
    for block in re.split(r"\n(?=\$L__BB\S+:)", body):
        ins = [l.strip() for l in block.splitlines()]
        ins = [l for l in ins if l and not l.startswith(("$", "//", ".", "{", "}"))]
        ops = [(l.split()[1] if l.startswith("@") else l.split()[0]).rstrip(";") for l in ins]
        ex2 = sum(o.startswith("ex2.") for o in ops)
        if ex2 > best[0]:
            best = (ex2, sum(not o.startswith("mov") for o in ops), sum(o.startswith("ld.shared.v4") for o in ops))
    return best


def kind(name):
    if "dense_vector_body" in name:
        return "dense elementwise"
    if "element_at" in name:
        return "strided/broadcast elementwise"
    if "DeviceReduce" in name:
        return "dense reduction (CUB)"
    if "tiled_reduce_body" in name:
        return "tiled reduction (block body)"
    if "gufunc_staged_body" in name:
        return "staged gufunc (block body)"
    if "row_reduce_body" in name:
        return "row reduction (block body)"
    if "lane_fn" in name:
        return "strided reduction (lanes)"
    if "raw_kernel_entry" in name and "warp_sum" in name:
        return "warp-shuffle reduction (ufx::kernel)"
    if "raw_kernel_entry" in name and "block_sum_k" in name:
        return "block_reduce (ufx::kernel)"
    if "raw_kernel_entry" in name and "fences_k" in name:
        return "fences (ufx::kernel)"
    if "raw_kernel_entry" in name and "grid_rows_k" in name:
        return "grid_sync (ufx::kernel)"
    if "raw_kernel_entry" in name:
        return "raw kernel (ufx::kernel)"
    return "other"


def main():
    path, ptxas, arch = sys.argv[1], sys.argv[2], sys.argv[3]
    ptx = open(path).read()
    ents = entries(ptx)
    rep = ptxas_report(ptxas, arch, path)
    failures = []
    seen = set()
    for name, body in sorted(ents.items(), key=lambda kv: kind(kv[0])):
        k = kind(name)
        seen.add(k)
        local = len(re.findall(r"\b(ld|st)\.local", body))
        v4 = len(re.findall(r"ld\.global(\.nc)?\.v4|ld\.global(\.nc)?\.v2\.(f64|u64|b64)|cp\.async\.bulk", body))
        scalar_generic = len(re.findall(r"\bld\.f32\b", body))
        r = rep.get(name, {})
        print(f"{k:32s} regs {r.get('registers', '?'):>3} stack {r.get('stack', '?'):>5} spills "
              f"{r.get('spill_st', '?')}/{r.get('spill_ld', '?')} local ld/st {local:3d} 128-bit loads {v4:2d} "
              f"generic ld.f32 {scalar_generic:2d}  {name[:90]}")
        # every kernel of ufx's own (launch_kernel) and CUB's dense reductions: no local memory
        if "launch_kernel" in name or k == "dense reduction (CUB)":
            if local or r.get("stack", 0) or r.get("spill_st", 0) or r.get("spill_ld", 0):
                failures.append(f"{k} kernel uses local memory: {name}")
        # the row reduction of floats (array_acc<const float>: chunks of 4) reads each chunk at once
        if (k == "dense elementwise" or (k == "row reduction (block body)" and "array_accIKfE" in name)) and v4 == 0:
            failures.append(f"{k} kernel has no 128-bit global loads: {name}")
        # the tiled Gaussian sum with the fast exp (gauss_fast): four outputs a thread, a run of 8 tile
        # elements read in 128-bit shared loads, and about ten instructions a pair (the map's own nine
        # and the sum's add; the loop, the loads and the run's combine under one more)
        if k == "tiled reduction (block body)" and "gauss_fast" in name:
            ex2, count, v4s = tile_run_costs(body)
            per_output = 4 if "Li4EE" in name else 1
            print(f"{'':32s} hottest block: {ex2} ex2, {count} instructions ({count / max(ex2, 1):.2f} a pair), "
                  f"{v4s} ld.shared.v4")
            if ex2 != 8 * per_output:
                failures.append(f"the tiled body's run holds {ex2} ex2 instructions, not {8 * per_output}: {name}")
            elif v4s == 0:
                failures.append(f"the tiled body reads its run of points without 128-bit shared loads: {name}")
            elif per_output == 4 and count > 11 * ex2:
                failures.append(f"the tiled body takes {count / ex2:.2f} instructions a pair, over 11: {name}")
        # warp-level code compiles to the hardware's shuffles, and the fences to their membar
        shfl = len(re.findall(r"\bshfl\.sync\.", body))
        if k == "warp-shuffle reduction (ufx::kernel)" and shfl < 5:
            failures.append(f"the warp reduction has {shfl} shfl.sync instructions, not 5: {name}")
        if k == "block_reduce (ufx::kernel)" and shfl < 10:
            failures.append(f"block_reduce has {shfl} shfl.sync instructions, fewer than its two 5-step trees: {name}")
        if k == "grid_sync (ufx::kernel)" and not re.search(r"barrier\.sync|bar\.sync|bar\.red|atom\.|red\.", body):
            failures.append(f"the grid_sync kernel has no barrier or atomic: {name}")
        if k == "fences (ufx::kernel)":
            for fence in ("membar.cta", "membar.gl", "membar.sys"):
                if fence not in body:
                    failures.append(f"the fences kernel has no {fence}: {name}")
    for needed in ("dense elementwise", "dense reduction (CUB)", "row reduction (block body)", "raw kernel (ufx::kernel)", "tiled reduction (block body)",
                   "staged gufunc (block body)", "warp-shuffle reduction (ufx::kernel)", "block_reduce (ufx::kernel)",
                   "fences (ufx::kernel)", "grid_sync (ufx::kernel)"):
        if needed not in seen:
            failures.append(f"no {needed} kernel found in {path}")
    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        sys.exit(1)
    print("ok: no local memory in ufx's kernels; the dense elementwise ones and the row reduction load 128 bits at a time")


if __name__ == "__main__":
    main()
