#!/usr/bin/env bash
# The tutorials' benchmark sweep in one command: sum, |x| sum, add and the tiled matmul for
# N = 2^min..2^max on every target present, beside a plain loop, NumPy and Numba; one CSV and two
# log-log plots.
#
#   scripts/sweep.sh [--min 12] [--max 27] [--matmul-max 16] [--reps 5] [--targets LIST]
#                    [--no-numba] [--out build/sweep]
#
# Installs missing Debian packages (scripts/common.sh), builds bench_sweep (Release, the cpu preset's
# build/cpu) and runs it; where nvcc is found and a GPU answers (nvidia-smi), also builds
# bench_sweep_cuda with the cuda preset (build/cuda) and runs its ufx::cuda lines; then
# bench/sweep_peers.py (NumPy, Numba) and bench/sweep_plot.py with /usr/bin/python3. Writes
# OUT/ufx.csv, OUT/cuda.csv, OUT/peers.csv, the merged OUT/sweep.csv, OUT/sweep_time.png and
# OUT/sweep_speedup.png, and prints a summary of the largest N. --targets (loop,serial,host,sim,cuda)
# restricts the C++ lines; the matmul runs up to 2^matmul-max elements per matrix (n x n with
# n = round(sqrt(N))): the CPU targets run its block threads as fibers, 2^16 (256 x 256) takes about half
# a second a call there.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

min=12 max=27 matmul_max=16 reps=5 targets="" numba=1 out=build/sweep
while (($#)); do
  case $1 in
    --min) min=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --matmul-max) matmul_max=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    --no-numba) numba=0; shift ;;
    --out) out=$2; shift 2 ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "sweep.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
rm -f "$out"/ufx.csv "$out"/cuda.csv "$out"/peers.csv
common=(--min "$min" --max "$max" --matmul-max "$matmul_max" --reps "$reps")

ufx_install_packages
[ -f build/cpu/CMakeCache.txt ] || cmake --preset cpu >/dev/null
cmake --build build/cpu --target bench_sweep -j2
cpu_targets=${targets:-loop,serial,host,sim}
cpu_targets=$(tr ',' '\n' <<<"$cpu_targets" | grep -vx cuda | paste -sd, -) || true
csvs=()
if [ -n "$cpu_targets" ]; then
  echo "=== bench_sweep (${cpu_targets}) -> $out/ufx.csv"
  build/cpu/bench/bench_sweep "${common[@]}" --targets "$cpu_targets" --csv "$out/ufx.csv"
  csvs+=("$out/ufx.csv")
fi

if [ -z "$targets" ] || grep -qw cuda <<<"$targets"; then
  if ufx_find_nvcc && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    [ -f build/cuda/CMakeCache.txt ] || cmake --preset cuda >/dev/null
    cmake --build build/cuda --target bench_sweep_cuda -j2
    echo "=== bench_sweep_cuda (cuda) -> $out/cuda.csv"
    build/cuda/bench/bench_sweep_cuda "${common[@]}" --targets cuda --csv "$out/cuda.csv"
    csvs+=("$out/cuda.csv")
  else
    echo "sweep.sh: no nvcc or no GPU answering nvidia-smi: no ufx::cuda lines"
  fi
fi

py=/usr/bin/python3
if "$py" -c "import numpy" 2>/dev/null; then
  echo "=== NumPy$( ((numba)) && echo " and Numba") peers -> $out/peers.csv"
  peer_args=("${common[@]}")
  ((numba)) || peer_args+=(--no-numba)
  "$py" bench/sweep_peers.py "${peer_args[@]}" --csv "$out/peers.csv"
  csvs+=("$out/peers.csv")
else
  echo "sweep.sh: $py has no NumPy (Debian: python3-numpy): no NumPy or Numba lines"
fi
((${#csvs[@]})) || { echo "sweep.sh: nothing was measured" >&2; exit 1; }

echo "=== merge and plot -> $out"
if [ -x "$py" ]; then
  "$py" bench/sweep_plot.py --out "$out" "${csvs[@]}"
else
  echo "sweep.sh: no $py: the CSV files are not merged or plotted" >&2
fi
