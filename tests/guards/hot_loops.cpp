// The hot loops whose object code tests/guards/check_codegen.py reads (tests/guards/CMakeLists.txt
// builds this file at -O2 and at -O3, with NDEBUG, at the x86-64 baseline as users build): each
// must be vectorised and call nothing. A change to a shared type or to the call path that costs
// them their vector code (the sim's tracked ndview did: 5.4x on a generic gufunc core) fails here.
#include <ufx/ufx.hpp>

#include <span>

namespace codegen {

/// A generic gufunc core with run-time sizes (i-k-j order: the j loop runs over unit strides).
struct matmul_core {
  void operator()(ufx::ndview<const float, 2> a, ufx::ndview<const float, 2> b, ufx::ndview<float, 2> c) const {
    for (ufx::index_t i = 0; i < c.extent(0); ++i)
      for (ufx::index_t k = 0; k < a.extent(1); ++k)
        for (ufx::index_t j = 0; j < c.extent(1); ++j) c(i, j) = (k == 0 ? 0.f : c(i, j)) + a(i, k) * b(k, j);
  }
};

struct add_fn {
  float operator()(float a, float b) const { return a + b; }
};
struct add_f16_fn {
  ufx::float16 operator()(ufx::float16 a, ufx::float16 b) const { return a + b; }
};
struct neg_f16_fn {
  ufx::float16 operator()(ufx::float16 a) const { return -a; }
};

} // namespace codegen

// Entry points with C names, so check.py finds what each one reaches.
extern "C" {

/// A user's own loop over a view taken by value.
void codegen_scale(ufx::ndview<float, 2> c, float k) {
  for (ufx::index_t i = 0; i < c.extent(0); ++i)
    for (ufx::index_t j = 0; j < c.extent(1); ++j) c(i, j) *= k;
}

void codegen_gufunc(const ufx::ndarray<float, 3>* a, const ufx::ndarray<float, 3>* b, ufx::ndarray<float, 3>* c) {
  static const auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(codegen::matmul_core{});
  matmul(ufx::host, *a, *b, ufx::out(*c));
}

void codegen_add(const float* x, const float* y, float* z, std::size_t n) {
  static const auto add = ufx::vectorize(codegen::add_fn{});
  add(ufx::host, std::span(x, n), std::span(y, n), ufx::out(std::span(z, n)));
}

float codegen_sum(const float* x, std::size_t n) { return ufx::sum(ufx::host, std::span(x, n)); }

// float16: the conversions through src/half.cpp's vector functions, one call a vector (F16C's vcvtph2ps and
// vcvtps2ph where the CPU has them); a loop that converts one element at a time calls the scalar function and fails.
void codegen_add_f16(const ufx::float16* x, const ufx::float16* y, ufx::float16* z, std::size_t n) {
  static const auto add = ufx::vectorize(codegen::add_f16_fn{});
  add(ufx::host, std::span(x, n), std::span(y, n), ufx::out(std::span(z, n)));
}
// float16 into a float function, and NumPy's add of float16 (computed in float, rounded once): F16C inline, 8
// elements a step, no calls (the row compiled for AVX2 + F16C, detail/body/map.hpp's row_f16c).
void codegen_add_f32_on_f16(const ufx::float16* x, const ufx::float16* y, ufx::float16* z, std::size_t n) {
  static const auto add = ufx::vectorize(codegen::add_fn{});
  add(ufx::serial, std::span(x, n), std::span(y, n), ufx::out(std::span(z, n)));
}
void codegen_ufunc_add_f16(const ufx::float16* x, const ufx::float16* y, ufx::float16* z, std::size_t n) {
  ufx::add(ufx::serial, std::span(x, n), std::span(y, n), ufx::out(std::span(z, n)));
}
ufx::float16 codegen_sum_f16(const ufx::float16* x, std::size_t n) { return ufx::sum(ufx::host, std::span(x, n)); }
ufx::float16 codegen_neg_sum_f16(const ufx::float16* x, std::size_t n) {
  return ufx::transform_reduce(ufx::host, std::span(x, n), codegen::neg_f16_fn{}, ufx::plus{}, ufx::float16(0.f));
}

// Reductions with a user's operator: the generic leaf, whose lanes and their horizontal combine
// must stay in vector registers (a user's `a + b` at ufx::plus's speed).
float codegen_user_sum(const float* x, std::size_t n) {
  return ufx::reducer([](float a, float b) { return a + b; }, 0.f)(ufx::serial, std::span(x, n));
}
double codegen_user_sum_f64(const double* x, std::size_t n) {
  return ufx::reducer([](double a, double b) { return a + b; }, 0.0)(ufx::serial, std::span(x, n));
}
float codegen_user_max(const float* x, std::size_t n) {
  return ufx::reducer([](float a, float b) { return a < b ? b : a; }, -1e30f)(ufx::serial, std::span(x, n));
}
}

int main() {
  // Runs each entry once on small data: the program is built to be read, but it must link and run.
  ufx::ndarray<float, 3> a({2, 3, 5}, 1.f), b({2, 5, 4}, 2.f), c({2, 3, 4}, 0.f);
  codegen_gufunc(&a, &b, &c);
  float x[7] = {1, 2, 3, 4, 5, 6, 7}, z[7];
  codegen_add(x, x, z, 7);
  codegen_scale(ufx::ndview<float, 2>(z, {7, 1}), 0.5f);
  const ufx::float16 h[3] = {ufx::float16(1.f), ufx::float16(2.f), ufx::float16(3.5f)};
  ufx::float16 hz[3];
  codegen_add_f16(h, h, hz, 3);
  ufx::float16 hw[9], hv[9];
  const ufx::float16 h9[9] = {h[0], h[1], h[2], h[0], h[1], h[2], h[0], h[1], h[2]};
  codegen_add_f32_on_f16(h9, h9, hw, 9);
  codegen_ufunc_add_f16(h9, h9, hv, 9);
  if (float(hw[8]) != 7.f || float(hv[7]) != 4.f) return 1;
  if (float(hz[2]) != 7.f || float(codegen_sum_f16(h, 3)) != 6.5f || float(codegen_neg_sum_f16(h, 3)) != -6.5f)
    return 1;
  const double xd[3] = {1, 2, 3.5};
  const bool users =
      codegen_user_sum(x, 7) == 28.f && codegen_user_sum_f64(xd, 3) == 6.5 && codegen_user_max(x, 7) == 7.f;
  return c(1, 2, 3) == 10.f && z[6] == 7.f && codegen_sum(x, 7) == 28.f && users ? 0 : 1;
}
