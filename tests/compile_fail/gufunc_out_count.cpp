// Expected: "ufx::out: the number of destinations differs from the number of outputs in the
// signature" (one destination for two outputs).
#include <ufx/guvectorize.hpp>

struct stats_f {
  void operator()(ufx::ndview<const double, 1>, double& mean, double& sd) const { mean = sd = 0; }
};

int main() {
  auto stats = ufx::guvectorize<"(n)->(),()">(stats_f{});
  const ufx::ndarray<double, 2> x({2, 3}, 1.0);
  ufx::ndarray<double, 1> mean({2});
  stats(x, ufx::out(mean));
}
