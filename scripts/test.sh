#!/usr/bin/env bash
# Quick start, command 2 (and CI's): installs missing Debian packages, then builds and runs the
# whole test suite with each preset of CMakePresets.json:
#   cpu       Release, targets serial/host/sim: unit tests, doc tests, examples, consumer tests
#   cpu-asan  the unit tests built by clang with AddressSanitizer + UndefinedBehaviorSanitizer (no benchmarks, no
#             NumPy tables)
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
  echo
  echo "=== $preset: configure and build"
  # the benchmarks are only compiled here, at -O0 (bench/CMakeLists.txt: UFX_BENCH_BUILD_CHECK)
  if ! cmake --preset "$preset" -DUFX_BENCH_BUILD_CHECK=ON || ! cmake --build --preset "$preset"; then
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
  run_preset "$preset"
done

echo
printf '%s\n' "${report[@]}"
echo "total time: $SECONDS s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
