#!/usr/bin/env bash
# Issue #30's GPU table in one command: ufx::cuda (bench_cuda, beside Thrust, CUB, cudaMemcpy and
# plain launches) and CuPy / Numba-CUDA (bench/peers_gpu.py) on the same rows, then per row ufx's
# time, the best peer and their ratio (bench/gpu_table.py). Needs a GPU; without one it says so.
#
#   scripts/bench_gpu.sh [--out DIR (default $OUT/bench_gpu, else build/bench_gpu)] [--quick]
#
# UFX_GPU_BUILD_DIR: a folder with bench/bench_cuda already built (../shared/gpu/prebuild.sh's);
# otherwise this configures and builds the cuda preset's bench_cuda here (for the GPU it finds).
# UFX_GPU_LD_LIBRARY_PATH: libraries bench_cuda needs (the prebuilt bundle's). PYTHON: the
# interpreter with CuPy and numba-cuda (default python3).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:+$OUT/bench_gpu}; out=${out:-build/bench_gpu}  # the device tool brings $OUT back
quick=()
while (($#)); do
  case $1 in
    --out) out=$2; shift 2 ;;
    --quick) quick=(--quick); shift ;;
    -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_gpu.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
if [ -n "${UFX_GPU_BUILD_DIR:-}" ]; then
  bdir=$UFX_GPU_BUILD_DIR
else
  source scripts/common.sh
  ufx_install_packages
  ufx_find_nvcc || { echo "bench_gpu.sh: no nvcc found; the table needs the CUDA toolkit and a GPU" >&2; exit 1; }
  bdir=build/cuda-bench
  [ -f $bdir/CMakeCache.txt ] || cmake --preset cuda -B $bdir -DCMAKE_CUDA_ARCHITECTURES=native -DUFX_BUILD_BENCH=ON \
    -DUFX_BENCH_CUDA_ONLY=ON -DUFX_BUILD_TESTS=OFF -DUFX_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build $bdir --target bench_cuda -j "$(nproc)" || exit 1
fi
bin=$bdir/bench/bench_cuda
[ -x "$bin" ] || { echo "bench_gpu.sh: $bin not built" >&2; exit 1; }
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
git log -1 --format='ufx %h (%cs)' 2>/dev/null
rows='^(copy/cudaMemcpy_d2d/134217728|(add|expsin)/(ufx_cuda_device|thrust_transform)/(1048576|134217728)|'
rows+='(sum|abs_sum)/(ufx_cuda_device|cub_reduce)/(1048576|134217728)|(sum|add)/ufx_cuda_(transfers|transfers_unstaged|pinned)/134217728|'
rows+='half_(add|sum)/(ufx_cuda_device|thrust_transform|cub_reduce)/134217728|'
rows+='call_|axis|gufunc|gauss|staging/|kernel_tiled_matmul/.*/4096|bulk/|add_at/|graph10/)'
echo "=== bench_cuda -> $out/bench_cuda.json"
env LD_LIBRARY_PATH="${UFX_GPU_LD_LIBRARY_PATH:-}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$bin" \
  --benchmark_filter="$rows" --benchmark_min_time=0.05 --benchmark_out="$out/bench_cuda.json" \
  --benchmark_out_format=json || echo "bench_gpu.sh: bench_cuda exited with $?"
echo "=== bench/peers_gpu.py -> $out/peers_gpu.csv"
PYTHONUNBUFFERED=1 timeout 150 "${PYTHON:-python3}" bench/peers_gpu.py --out "$out/peers_gpu.csv" "${quick[@]}" ||
  echo "bench_gpu.sh: peers_gpu.py exited with $?"
echo "=== the table (peer / ufx above 1: ufx is faster)"
"${PYTHON:-python3}" bench/gpu_table.py "$out/bench_cuda.json" "$out/peers_gpu.csv"
"${PYTHON:-python3}" bench/gpu_table.py "$out/bench_cuda.json" "$out/peers_gpu.csv" --markdown > "$out/table.md"
