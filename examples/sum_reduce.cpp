// A sum reduction, as in Numba's @cuda.reduce tutorial: a binary operator and its identity become
// a reducer that sums any container, whole or along axes, on every target. Exits non-zero on a
// wrong sum.
//
//   Numba:  @cuda.reduce                 ufx:  auto sum_reduce = ufx::reducer(
//           def sum_reduce(a, b):                  [] UFX_HD (double a, double b) { return a + b; }, 0.0);
//               return a + b
//           got = sum_reduce(A)                double got = sum_reduce(A);
#include <ufx/ufx.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main() {
  auto sum_reduce = ufx::reducer([] UFX_HD(double a, double b) { return a + b; }, 0.0);

  std::vector<double> A(1234); // numpy.arange(1234, dtype=numpy.float64) + 1
  for (std::size_t i = 0; i < A.size(); ++i) A[i] = static_cast<double>(i + 1);
  const double expect = 1234.0 * 1235.0 / 2; // A.sum()

  bool ok = true;
  auto check = [&](const char* where, double got) {
    std::printf("%-28s %.1f %s\n", where, got, got == expect ? "" : "WRONG");
    ok &= got == expect;
  };
  check("default target", sum_reduce(A));
  check("ufx::serial", sum_reduce(ufx::serial, A));
  check("ufx::host", sum_reduce(ufx::host, A));
  check("ufx::sim", sum_reduce(ufx::sim, A));
#if UFX_CUDA_TU
  if (ufx::cuda_available()) check("ufx::cuda", sum_reduce(ufx::cuda, A));
  else std::printf("%-28s skipped: %s\n", "ufx::cuda", std::string(ufx::cuda_unavailable_reason()).c_str());
#endif

  // Numba's init: op(init, sum(A))
  const double with_init = sum_reduce(A, 1000.0);
  std::printf("%-28s %.1f\n", "with init 1000", with_init);
  ok &= with_init == expect + 1000;

  // Along an axis: a (2, 617) view of the same data, summed per row
  ufx::ndview<const double, 2> rows(A.data(), {2, 617});
  const auto per_row = sum_reduce(rows, ufx::axis{1});
  std::printf("%-28s [%.1f, %.1f]\n", "per row of a (2, 617) view", per_row(0), per_row(1));
  ok &= per_row(0) + per_row(1) == expect && per_row(0) == 617.0 * 618.0 / 2;

  std::printf(ok ? "all sums right\n" : "WRONG SUMS\n");
  return ok ? 0 : 1;
}
