#!/usr/bin/env bash
# Issue #11's CPU-speed table in one run: builds bench_vectorize, bench_reduce, bench_guvectorize and
# bench_load (Release; by default with -march=native as the issue measured, in build/bench-native,
# or with the x86-64 baseline flags of the cpu preset's build/cpu with --baseline), runs the cases of
# the table, bench_load quiet and with two busy processes beside it, and NumPy/Numba
# (bench/peers_numpy.py, where /usr/bin/python3 has NumPy), then prints the table of ratios
# (bench/cpu_table.py). Takes a few minutes; run it on a quiet machine. The CSV files stay in OUT
# (default build/bench_cpu).
#
#   scripts/bench_cpu.sh [--baseline] [--out build/bench_cpu]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

out=build/bench_cpu
native=1
while (($#)); do
  case $1 in
    --out) out=$2; shift 2 ;;
    --baseline) native=0; shift ;;
    -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_cpu.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"

ufx_install_packages
if ((native)); then
  tree=build/bench-native
  [ -f $tree/CMakeCache.txt ] || cmake --preset cpu -B $tree -DUFX_BENCH_NATIVE=ON -DUFX_BUILD_TESTS=OFF \
    -DUFX_BUILD_EXAMPLES=OFF >/dev/null
else
  tree=build/cpu
  cmake --preset cpu -DUFX_BENCH_BUILD_CHECK=OFF >/dev/null # the test command builds them at -O0, refusing to run
fi
targets=(bench_vectorize bench_reduce bench_load)
grep -q "Eigen3_DIR:PATH=/" $tree/CMakeCache.txt && targets+=(bench_guvectorize)
cmake --build $tree --target "${targets[@]}" -j2
b=$tree/bench
# medians of 7 repetitions of at least 0.1 s each, the repetitions of every case interleaved in a
# random order (a peer and ufx then see the same drift of a shared machine, which moved single
# runs of the DRAM-bound sums by up to 1.5x); fresh results: 3 of one call or more, since a fresh
# std::vector of 2^26 floats takes about a second
reps=(--benchmark_repetitions=7 --benchmark_min_time=0.1 --benchmark_enable_random_interleaving=true
  --benchmark_report_aggregates_only=true --benchmark_format=csv)

echo "=== bench_vectorize -> $out/vectorize.csv"
"$b"/bench_vectorize --benchmark_filter='^(add/.*/(4096|65536)|expsin.*/(1048576|4194304|16777216|67108864)|math/.*/(1048576|4194304|16777216)|outer/.*/4096)' \
  "${reps[@]}" >"$out/vectorize.csv"
"$b"/bench_vectorize --benchmark_filter='^fresh/' --benchmark_repetitions=3 --benchmark_min_time=0.01 \
  --benchmark_report_aggregates_only=true --benchmark_format=csv | tail -n +2 >>"$out/vectorize.csv"
echo "=== bench_reduce -> $out/reduce.csv"
# (two runs: the CSV reporter wants every interleaved row to carry the same counters, and only the
# sums report their errors)
"$b"/bench_reduce --benchmark_filter='^(sum/|abs_sum/(serial|simd|omp|ufx|eigen).*/(1048576|16777216|67108864))' \
  "${reps[@]}" >"$out/reduce.csv"
"$b"/bench_reduce --benchmark_filter='^axis1_4096/' "${reps[@]}" | tail -n +2 >>"$out/reduce.csv"
rm -f "$out/guvectorize.csv"
if [ -x "$b"/bench_guvectorize ]; then
  echo "=== bench_guvectorize -> $out/guvectorize.csv"
  "$b"/bench_guvectorize --benchmark_filter='(matmul.*m:32/B:4096|norms.*n:1024)' "${reps[@]}" >"$out/guvectorize.csv"
fi
echo "=== bench_load, quiet -> $out/load0.csv"
"$b"/bench_load --benchmark_format=csv >"$out/load0.csv"
echo "=== bench_load, two busy processes -> $out/load2.csv"
"$b"/bench_load --load=2 --benchmark_format=csv >"$out/load2.csv"

rm -f "$out/peers.csv"
py=/usr/bin/python3
if "$py" -c "import numpy" 2>/dev/null; then
  echo "=== NumPy and Numba peers -> $out/peers.csv"
  "$py" bench/peers_numpy.py --quick >"$out/peers.csv"
else
  echo "bench_cpu.sh: $py has no NumPy: no NumPy/Numba columns"
fi
echo
"$py" bench/cpu_table.py "$out" 2>/dev/null || python3 bench/cpu_table.py "$out"
