// Expected: "ufx::logsumexp: the values reduced (the elements, or the map's results) must be real
// numbers" (an array of points reduced without a map to a number).
#include <ufx/reduce.hpp>

#include <vector>

struct pt {
  float x, y, z;
};

int main() {
  const std::vector<pt> p(4);
  auto l = ufx::logsumexp(p);
  (void)l;
}
