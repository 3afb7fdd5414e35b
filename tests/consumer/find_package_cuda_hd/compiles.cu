// The control: what is right compiles through find_package(ufx) with the same flags as the failing
// cases: on ufx::cuda, UFX_HD lambdas and functors with a UFX_HD, __device__ or templated UFX_HD
// operator(); host-only functions on the host targets (a functor in a one-output vectorize;
// lambdas on ufx::serial, ufx::host and ufx::sim).
#include <ufx/ufx.hpp>

#include <vector>

struct add_hd {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};
struct max_d {
  __device__ float operator()(float a, float b) const { return a < b ? b : a; }
};
struct plus_any {
  template <class T>
  UFX_HD T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
struct row_sum_hd {
  UFX_HD void operator()(ufx::ndview<const float, 1> x, float& s) const {
    s = 0;
    for (ufx::index_t i = 0; i < x.extent(0); ++i) s += x(i);
  }
};
struct fill_hd {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<float, 1> out) const {
    const ufx::index_t i = t.grid<1>();
    if (i < out.extent(0)) out(i) = 1;
  }
};
struct twice_host {
  float operator()(float x) const { return 2 * x; }
};

float on_cuda(const std::vector<float>& x, std::vector<float>& y, const ufx::ndarray<float, 2>& a) {
  y = ufx::vectorize([] UFX_HD(float u, float v) { return u + v; })(ufx::cuda, x, x);
  y = ufx::vectorize(add_hd{})(ufx::cuda, x, x);
  const ufx::ndarray<float, 1> r = ufx::guvectorize<"(n)->()">(row_sum_hd{})(ufx::cuda, a);
  ufx::kernel(fill_hd{}, "fill").forall(static_cast<ufx::index_t>(y.size()))(ufx::cuda, y);
  return ufx::reducer([] UFX_HD(float u, float v) { return u + v; }, 0.0f)(ufx::cuda, x) +
         ufx::reducer(plus_any{}, 0.0f)(ufx::cuda, x) + ufx::reducer(max_d{}, -1e30f)(ufx::cuda, x) +
         ufx::transform_reduce(
             ufx::cuda, x, [] UFX_HD(float u) { return u * u; }, plus_any{}, 0.0f) +
         r(0);
}

float on_host(const std::vector<float>& x) {
  const std::vector<float> twice = ufx::vectorize(twice_host{})(ufx::host, x);
  const std::vector<float> thrice = ufx::vectorize([](float u) { return 3 * u; })(ufx::sim, x);
  return twice[0] + thrice[0] + ufx::reducer([](float u, float v) { return u + v; }, 0.0f)(ufx::serial, x) +
         ufx::reducer([](float u, float v) { return u + v; }, 0.0f)(ufx::host, x);
}
