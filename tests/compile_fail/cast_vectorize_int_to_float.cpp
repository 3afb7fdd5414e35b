// Expected: input_cast<0, int, float, ...> (int32 into float32 loses values above 2^24: NumPy's safe
// casting refuses it; int16 into float32 would be fine).
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto twice = ufx::vectorize([](float a) { return 2 * a; });
  auto z = twice(std::vector<int>{16777217});
}
