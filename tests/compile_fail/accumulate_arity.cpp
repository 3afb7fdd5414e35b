// Expected: "ufx::accumulate: call it as accumulate(x, op)" (an identity given as to reduce).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<float> x{1.f, 2.f, 3.f};
  auto c = ufx::accumulate(x, ufx::plus{}, 0.f);
  (void)c;
}
