// Control case: with the same flags as the failing cases (ufx::ufx's: 20011 and 20014 are errors),
// functions marked UFX_HD build on ufx::cuda, and a host-only function still builds on a host
// target when its call does not go through device code (a single-output vectorize). Also a raw
// kernel that shuffles float16 values and updates bfloat16 elements atomically, on every
// architecture (half_atomic_bitwise.cu's counterpart).
#include <ufx/ufx.hpp>

#include <vector>

struct host_only_twice {
  float operator()(float x) const { return 2 * x; }
};

void half_atomics(ufx::device_array<ufx::float16, 1>& x, ufx::device_array<ufx::bfloat16, 1>& out) {
  auto k = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::ndview<const ufx::float16, 1> v, ufx::ndview<ufx::bfloat16, 1> r) {
        const auto i = t.grid<1>();
        ufx::float16 s = i < v.extent(0) ? v(i) : ufx::float16(0);
        for (unsigned d = 16; d > 0; d /= 2) s += t.shfl_down_sync(0xffffffffu, s, d);
        if (t.lane_id() == 0) ufx::atomic_add(r(0), ufx::bfloat16(s));
        const ufx::bfloat16 b(i < v.extent(0) ? v(i) : ufx::float16(0));
        ufx::atomic_max(r(1), b);
        ufx::atomic_min(r(2), b);
      });
  k.forall(x.extent(0))(ufx::cuda, x, out);
}

int main() {
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  auto sum = ufx::reducer([] UFX_HD(float a, float b) { return a + b; }, 0.0f);
  const std::vector<float> x{1, 2, 3};
  const std::vector<float> twice = ufx::vectorize(host_only_twice{})(ufx::host, x);
  if (!ufx::cuda_available()) return twice[2] == 6 ? 0 : 1;
  const std::vector<float> y = add(ufx::cuda, x, x);
  return y[2] == 6 && sum(ufx::cuda, x) == 6 && twice[2] == 6 ? 0 : 1;
}
