#!/usr/bin/env python3
"""Compile times of ufx's headers and calls, as a user's build pays them (issue #29).

Compiles small translation units with the flags ufx::ufx gives a consumer (g++ at -O2, and nvcc
for the README program where nvcc is found) and prints a table: wall seconds, CPU seconds (user +
system, the compiler and its children) and peak memory of each, the fastest of --repeat runs (on a
shared machine the fastest run is the one least disturbed). The cases:
  - each public header alone, and ufx/ufx.hpp;
  - the README's quick-start program;
  - the README program plus one more front-door call of each kind (the row gives the increment);
  - a program naming each target explicitly (what a call instantiates with a target given).
A record, not a test: compile times depend on the machine and its load. Run it on a quiet
machine; tests/CMakeLists.txt runs `--quick` as the CTest `compile_times.readme` so the figure
stays visible in every test log.

  scripts/compile_times.py [--repeat 3] [--quick] [--cxx g++] [--nvcc PATH | --no-nvcc] [--include DIR]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

README_BODY = None  # filled from README.md


def readme_program():
    text = open(os.path.join(ROOT, "README.md")).read()
    m = re.search(r"```cpp\n(.*?)```", text, re.S)
    if not m:
        sys.exit("compile_times.py: README.md has no cpp block")
    return m.group(1)


# One more call of each front door, added to the README program's main() (the name `x` is its
# std::vector<float>).
EXTRA_CALLS = {
    "+ vectorize call": "  auto mul = ufx::vectorize([] UFX_HD(float a, float b) { return a * b; });\n"
                        "  std::vector<float> w = mul(x, x);\n",
    "+ reduce call": "  float s = ufx::reduce(x, ufx::plus{}, 0.f);\n  (void)s;\n",
    "+ reducer call": "  auto mx = ufx::reducer([] UFX_HD(float a, float b) { return a > b ? a : b; }, -1e30f);\n"
                      "  float m = mx(x);\n  (void)m;\n",
    "+ guvectorize call": "  auto dot = ufx::guvectorize<\"(n),(n)->()\">([] UFX_HD(ufx::ndview<const float, 1> a, "
                          "ufx::ndview<const float, 1> b, float& r) { r = 0; for (ufx::index_t i = 0; i < "
                          "a.extent(0); ++i) r += a(i) * b(i); });\n"
                          "  float r = dot(x, x);\n  (void)r;\n",
}

TARGETED = """#include <ufx/ufx.hpp>
#include <vector>
int main() {
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  std::vector<float> x{1, 2, 3}, y{10, 20, 30};
  std::vector<float> z = add(TARGET, x, y);
  return z[0] == 11 ? 0 : 1;
}
"""


def with_extra(program, extra):
    i = program.rindex("}")
    return program[:i] + extra + program[i:]


def flags(include):
    f = ["-std=gnu++20", "-O2", "-fopenmp", "-DUFX_WITH_TBB=1", "-I" + include]
    for d in ("/usr/local/cuda/include/cccl", "/usr/include/eigen3"):
        if os.path.isdir(d):
            f += ["-isystem", d]
    return f


def timed(cmd, repeat):
    """Fastest wall seconds, fastest CPU seconds and peak MB (the compiler's own rusage, its children
    included) of `cmd` over `repeat` runs, or None if it fails."""
    walls, cpus, mems = [], [], []
    for _ in range(repeat):
        with tempfile.TemporaryFile(mode="w+") as err:
            t0 = time.perf_counter()
            p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
            _, status, usage = os.wait4(p.pid, 0)  # reaped here, with the child's resource usage
            wall = time.perf_counter() - t0
            p.returncode = os.waitstatus_to_exitcode(status)
            if p.returncode != 0:
                err.seek(0)
                sys.stderr.write(err.read()[-3000:])
                return None
        walls.append(wall)
        cpus.append(usage.ru_utime + usage.ru_stime)
        mems.append(usage.ru_maxrss / 1024)
    return min(walls), min(cpus), max(mems)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="ufx.hpp alone and the README program, once each")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--include", default=os.path.join(ROOT, "include"))
    ap.add_argument("--no-nvcc", action="store_true", help="leave out the nvcc row")
    a = ap.parse_args()
    repeat = 1 if a.quick else a.repeat
    tmp = tempfile.mkdtemp(prefix="ufx_ct_")
    rows = []

    def compile_source(label, src, ext=".cpp", compiler=None):
        path = os.path.join(tmp, re.sub(r"\W+", "_", label) + ext)
        open(path, "w").write(src)
        if compiler == "nvcc":
            cmd = [a.nvcc, "-x", "cu", "-std=c++20", "-O2", "-arch=sm_90", "--extended-lambda",
                   "--expt-relaxed-constexpr", "-Xcompiler=-fopenmp", "-DUFX_WITH_TBB=1", "-I" + a.include]
            for d in ("/usr/local/cuda/include/cccl", "/usr/include/eigen3"):
                if os.path.isdir(d):
                    cmd += ["-isystem", d]
            cmd += ["-c", path, "-o", path + ".o"]
        else:
            cmd = [a.cxx] + flags(a.include) + ["-c", path, "-o", path + ".o"]
        r = timed(cmd, repeat)
        rows.append((label, r))
        return r

    program = readme_program()
    compile_source("ufx/ufx.hpp alone", "#include <ufx/ufx.hpp>\n")
    base = compile_source("README program", program)
    if not a.quick:
        for h in sorted(os.listdir(os.path.join(a.include, "ufx"))):
            needs = {"mpi.hpp": None, "thrust.hpp": None, "ufx.hpp": None,  # MPI's, nvcc's, above
                     "eigen.hpp": "/usr/include/eigen3", "mdspan.hpp": "/usr/local/cuda/include/cccl"}
            if h.endswith(".hpp") and (h not in needs or (needs[h] and os.path.isdir(needs[h]))):
                compile_source("ufx/%s alone" % h, "#include <ufx/%s>\n" % h)
        for label, extra in EXTRA_CALLS.items():
            compile_source("README program " + label, with_extra(program, extra))
        for t in ("ufx::serial", "ufx::host", "ufx::sim", "ufx::target(ufx::host)"):
            compile_source("one call on " + t, TARGETED.replace("TARGET", t))
    if not a.no_nvcc and os.path.exists(a.nvcc):
        compile_source("README program, nvcc", program, ".cu", "nvcc")

    width = max(len(r[0]) for r in rows)
    print("%-*s  %8s  %8s  %8s  %s" % (width, "translation unit", "wall s", "CPU s", "MB",
                                       "increment over the README program (CPU s)"))
    for label, r in rows:
        if r is None:
            print("%-*s  %8s" % (width, label, "FAILED"))
            continue
        inc = ""
        if label.startswith("README program +") and base:
            inc = "%+.1f s" % (r[1] - base[1])
        print("%-*s  %8.1f  %8.1f  %8.0f  %s" % (width, label, r[0], r[1], r[2], inc))
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if any(r is None for _, r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
