// Batched matrix multiply with ufx::guvectorize: one core function for an (m,n) times (n,p) block,
// run over a stack of matrices with NumPy broadcasting, on each target this build and machine can
// run. Exits non-zero on a wrong product.
#include <ufx/ufx.hpp>

#include <cstdio>
#include <string>
#include <string_view>

namespace {

/// c = a @ b for one core block. A functor with a template operator() works for every element
/// type and (being UFX_HD) on a CUDA device when this file is compiled by nvcc.
struct matmul_core {
  template <class T>
  UFX_HD void operator()(ufx::ndview<const T, 2> a, ufx::ndview<const T, 2> b, ufx::ndview<T, 2> c) const {
    for (ufx::index_t i = 0; i < c.extent(0); ++i)
      for (ufx::index_t j = 0; j < c.extent(1); ++j) {
        T s = 0;
        for (ufx::index_t k = 0; k < a.extent(1); ++k) s += a(i, k) * b(k, j);
        c(i, j) = s;
      }
  }
};

/// Checks every block of c against a plain triple loop; prints a one-line summary.
bool report(std::string_view where, const ufx::ndarray<double, 3>& a, const ufx::ndarray<double, 2>& b,
            const ufx::ndarray<double, 3>& c) {
  long bad = 0;
  for (ufx::index_t s = 0; s < a.extent(0); ++s)
    for (ufx::index_t i = 0; i < a.extent(1); ++i)
      for (ufx::index_t j = 0; j < b.extent(1); ++j) {
        double want = 0;
        for (ufx::index_t k = 0; k < a.extent(2); ++k) want += a(s, i, k) * b(k, j);
        bad += c(s, i, j) != want;
      }
  std::printf("%-20.*s c shape (%td,%td,%td), c[last] = %g, %ld wrong\n", static_cast<int>(where.size()), where.data(),
              c.extent(0), c.extent(1), c.extent(2), c.data()[c.size() - 1], bad);
  return bad == 0;
}

} // namespace

int main() {
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_core{});

  // 1000 matrices of 3x4, each times the same 4x2 matrix: the loop dimension (1000) broadcasts
  // against b, which has none.
  ufx::ndarray<double, 3> a({1000, 3, 4});
  ufx::ndarray<double, 2> b({4, 2});
  for (ufx::index_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<double>(i % 7) - 3.0;
  for (ufx::index_t i = 0; i < b.size(); ++i) b.data()[i] = 0.5 * static_cast<double>(i);

  bool ok = true;
  std::printf("(1000,3,4) @ (4,2) with ufx::guvectorize<\"%s\">\n", std::string(decltype(matmul)::signature()).c_str());
  ok &= report("default (" + std::string(ufx::default_target().name()) + ")", a, b, matmul(a, b));
  ok &= report("ufx::serial", a, b, matmul(ufx::serial, a, b));
  ok &= report("ufx::host", a, b, matmul(ufx::host, a, b));
  ok &= report("ufx::sim", a, b, matmul(ufx::sim, a, b));
#if UFX_CUDA_TU
  if (ufx::cuda_available()) ok &= report("ufx::cuda", a, b, matmul(ufx::cuda, a, b));
  else std::printf("%-20s skipped: %s\n", "ufx::cuda", std::string(ufx::cuda_unavailable_reason()).c_str());
#else
  std::printf("%-20s skipped: this binary was compiled by a host compiler\n", "ufx::cuda");
#endif

  // Into an existing destination, and a shape error that names the dimension.
  ufx::ndarray<double, 3> c({1000, 3, 2});
  matmul(a, b, ufx::out(c));
  ok &= report("ufx::out", a, b, c);
  try {
    matmul(a, ufx::ndarray<double, 2>({5, 2}));
    ok = false;
  } catch (const ufx::shape_error& e) {
    std::printf("a (5,2) right operand is refused:\n  %s\n", e.what());
  }

  std::printf(ok ? "all products right\n" : "WRONG PRODUCTS\n");
  return ok ? 0 : 1;
}
