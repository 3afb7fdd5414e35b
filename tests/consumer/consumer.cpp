// The program both consumer projects build: it uses ufx::ufx as a user would, through the umbrella
// header, on a host target and on ufx::sim (which needs the compiled part of the library).
#include <ufx/ufx.hpp>

#include <cstdio>
#include <vector>

int main() {
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  const std::vector<float> x{1, 2, 3}, y{10, 20, 30};
  const std::vector<float> want{11, 22, 33};
  const std::vector<float> on_host = add(ufx::host, x, y);
  const std::vector<float> on_sim = add(ufx::sim, x, y);
  if (on_host != want || on_sim != want) {
    std::printf("consumer: wrong sums\n");
    return 1;
  }
  std::printf("consumer: ufx works (x + y = [%g, %g, %g])\n", on_host[0], on_host[1], on_host[2]);
  return 0;
}
