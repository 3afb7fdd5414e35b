#!/usr/bin/env bash
# Quick start, command 2 (and CI's): installs missing Debian packages, then builds and runs the
# whole test suite with each preset of CMakePresets.json:
#   cpu       Release (g++), targets serial/host/sim: doc tests, examples, consumer tests, compile-fail
#             and header tests, the hot loops' guards, the fuzzers; of the unit tests only the files whose
#             checks need optimised code or GCC (UFX_UNIT_TESTS=optimised: test_math, test_reduce_simd, test_half_rows)
#   cpu-asan  the unit tests, every file on serial, host and sim, built once: by clang, the second
#             compiler, with AddressSanitizer + UndefinedBehaviorSanitizer (no benchmarks)
#   cuda-ci   when nvcc is found: the CUDA builds of the tests and examples (the cpu preset already
#             built the rest), whose ufx::cuda cases skip at run time when no GPU answers, nvcc's
#             diagnostics tests (tests/compile_fail_cuda) and a .cu consumer of the installed package
# Ends with "N passed, N failed" over all ctest runs (a preset that fails to build counts as one
# failure) and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

ufx_install_packages || exit 1

presets=(cpu cpu-asan)
if ufx_find_nvcc; then
  presets+=(cuda-ci)
else
  echo "ufx: nvcc not found; skipping the cuda preset"
fi

passed=0
failed=0
report=()

run_preset() {
  local preset=$1 start=$SECONDS
  shift
  echo
  echo "=== $preset: configure and build"
  # the benchmarks are only compiled here, at -O0 (bench/CMakeLists.txt: UFX_BENCH_BUILD_CHECK)
  if ! cmake --preset "$preset" -DUFX_BENCH_BUILD_CHECK=ON "$@" || ! cmake --build --preset "$preset"; then
    failed=$((failed + 1))
    report+=("$preset: build FAILED after $((SECONDS - start)) s")
    return
  fi
  echo
  echo "=== $preset: ctest"
  local log="build/$preset/ctest-summary.log"
  ctest --preset "$preset" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  # ctest's summary line: "95% tests passed, 1 tests failed out of 20"
  local line
  line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1)
  if [ -z "$line" ]; then
    failed=$((failed + 1))
    report+=("$preset: ctest gave no summary (exit $rc)")
    return
  fi
  local f t
  f=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
  t=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$line")
  passed=$((passed + t - f))
  failed=$((failed + f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    failed=$((failed + 1)) # ctest failed without a failing test (e.g. a missing executable)
  fi
  report+=("$preset: $((t - f)) passed, $f failed, $((SECONDS - start)) s")
}

for preset in "${presets[@]}"; do
  if [ "$preset" = cpu ]; then
    # the unit tests are built once, by cpu-asan, on every CPU target; cpu keeps those that need optimised code
    run_preset cpu -DUFX_UNIT_TESTS=optimised
  else
    run_preset "$preset"
  fi
done

echo
printf '%s\n' "${report[@]}"
echo "total time: $SECONDS s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
