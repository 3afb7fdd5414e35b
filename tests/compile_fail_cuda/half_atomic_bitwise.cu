// A bitwise atomic on a float16 element in a kernel on ufx::cuda (flipping the sign bit, say): ufx's
// static_assert says the bitwise atomics take integers only, and nvcc's context names the type.
// float16 and bfloat16 take atomic_add, _sub, _min, _max, _exch, _cas, _nanmin and _nanmax on every
// architecture (compiles.cu builds them); the bitwise ones and the counters, as for float, do not.
#include <ufx/ufx.hpp>

void flip(ufx::device_array<ufx::float16, 1>& x) {
  auto k = ufx::kernel([] UFX_HD(const ufx::thread& t, ufx::ndview<ufx::float16, 1> v) {
    ufx::atomic_xor(v(t.grid<1>()), ufx::float16(-0.0f)); // line 9
  });
  k.forall(x.extent(0))(ufx::cuda, x);
}
