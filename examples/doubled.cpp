// Doubling a 3x3 float matrix two ways: ufx::vectorize with a scalar function, and
// ufx::guvectorize with the signature "(m,n)->(m,n)" and a function of the whole matrix (as in
// Numba's @vectorize / @guvectorize introduction). Both must give the same matrix.
#include <ufx/ufx.hpp>

#include <cstdio>

namespace {

/// The core function: writes 2*a into b, one (m,n) block at a time.
struct double_block {
  UFX_HD void operator()(ufx::ndview<const float, 2> a, ufx::ndview<float, 2> b) const {
    for (ufx::index_t i = 0; i < a.extent(0); ++i)
      for (ufx::index_t j = 0; j < a.extent(1); ++j) b(i, j) = 2.0f * a(i, j);
  }
};

void print(const char* label, const ufx::ndarray<float, 2>& m) {
  std::printf("%s\n", label);
  for (ufx::index_t i = 0; i < m.extent(0); ++i)
    std::printf("  [%4g %4g %4g]\n", static_cast<double>(m(i, 0)), static_cast<double>(m(i, 1)),
                static_cast<double>(m(i, 2)));
}

} // namespace

int main() {
  ufx::ndarray<float, 2> a({3, 3});
  for (int i = 0; i < 9; ++i) a.data()[i] = static_cast<float>(i);

  auto doubled = ufx::vectorize([] UFX_HD(float x) { return 2.0f * x; });
  auto gu_doubled = ufx::guvectorize<"(m,n)->(m,n)">(double_block{});

  const ufx::ndarray<float, 2> v = doubled(a);    // fn called once per element (9 times)
  const ufx::ndarray<float, 2> g = gu_doubled(a); // fn called once for the whole 3x3 core

  print("a", a);
  print("vectorize: 2*a", v);
  print("guvectorize \"(m,n)->(m,n)\": 2*a", g);

  bool ok = v == g;
  for (int i = 0; i < 9; ++i) ok = ok && g.data()[i] == 2.0f * static_cast<float>(i);
  std::printf(ok ? "both doublings agree\n" : "DOUBLINGS DIFFER\n");
  return ok ? 0 : 1;
}
