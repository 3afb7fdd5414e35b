// What Clang warns about through UFX_LIFETIMEBOUND (config.hpp): results that refer to a local
// returned from its function. CTest lifetimebound.clang compiles this with clang++ and expects one
// -Wreturn-stack-address warning for each function below (and none for main's uses, which are fine).
#include <ufx/lazy.hpp>

#include <vector>

auto returns_lazy() {
  std::vector<float> x(3, 1.f);
  return ufx::lazy(x); // warning: address of stack memory associated with local variable 'x' returned
}

auto returns_view() {
  ufx::ndarray<float, 1> a({3}, 1.f);
  return a.view(); // warning: ... local variable 'a' returned
}

auto returns_device_view() {
  ufx::device_array<float, 1> d({3}, ufx::sim);
  return d.view(); // warning: ... local variable 'd' returned
}

int main() {
  const std::vector<float> x(3, 1.f);
  auto add = ufx::vectorize([](float a, float b) { return a + b; });
  auto e = add(add(ufx::lazy(x), 2.f), x); // x outlives e; the temporary 2.f is held by value
  std::vector<float> z = e;
  ufx::ndarray<float, 1> a({3}, 1.f);
  auto v = a.view();
  (void)returns_lazy;
  (void)returns_view;
  (void)returns_device_view;
  return z[0] == 4.f && v(0) == 1.f ? 0 : 1;
}
