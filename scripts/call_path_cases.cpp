// The calls docs/architecture.md traces, one marked section each: scripts/call_path.py scripts/call_path_cases.cpp
#include <ufx/ufx.hpp>
#include <vector>
extern "C" void ufx_trace(int);
struct addf {
  float operator()(float a, float b) const { return a + b; }
};
struct fill_k {
  void operator()(const ufx::thread& t, ufx::ndview<float, 1> v) const {
    auto i = t.grid();
    if (i < v.extent(0)) v(i) = 1.f;
  }
};
int main() {
  auto f = ufx::vectorize(addf{});
  std::vector<float> xs(64 * 32, 1.f), ys(32, 2.f);
  ufx::ndview<float, 2> x(xs.data(), {64, 32});
  auto& y = ys;
  ufx_trace(1);
  auto z = f(ufx::host, x, y);
  ufx_trace(0);
  ufx_trace(2);
  auto z2 = f(ufx::host, x, x);
  ufx_trace(0);
  ufx_trace(3);
  auto r = ufx::reduce(ufx::host, x, ufx::plus{}, 0.f, ufx::axis{1});
  ufx_trace(0);
  auto d = ufx::to_device(xs, ufx::sim);
  ufx_trace(4);
  auto s = ufx::sum(ufx::sim, d);
  ufx_trace(0);
  auto k = ufx::kernel(fill_k{});
  std::vector<float> v(256);
  ufx_trace(5);
  k[{2, 128}](ufx::sim, v);
  ufx_trace(0);
  return (int)(z.size() + z2.size() + r.size()) + (int)s;
}
