// Expected: "ufx: an mdspan operand needs an accessor whose data handle is a plain pointer" (an
// mdspan over an offset-based handle has no address ufx could view).
#include <ufx/mdspan.hpp>
#include <ufx/ufx.hpp>

#include <cstddef>

struct offset_accessor { // elements addressed by an index into a global table
  using offset_policy = offset_accessor;
  using element_type = float;
  using reference = float&;
  using data_handle_type = std::size_t;
  static inline float table[16] = {};
  reference access(data_handle_type h, std::size_t i) const { return table[h + i]; }
  data_handle_type offset(data_handle_type h, std::size_t i) const { return h + i; }
};

int main() {
  cuda::std::mdspan<float, cuda::std::dextents<int, 1>, cuda::std::layout_right, offset_accessor> m(0, 4);
  auto twice = ufx::vectorize([](float a) { return 2 * a; });
  twice(m);
}
