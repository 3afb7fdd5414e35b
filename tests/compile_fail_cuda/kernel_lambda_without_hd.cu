// A ufx::kernel body without UFX_HD launched on ufx::cuda: an error that names the fix ("mark it
// UFX_HD") and the line of the launch.
#include <ufx/ufx.hpp>

#include <vector>

void launch(std::vector<float>& y) {
  auto fill = ufx::kernel([](const ufx::thread& t, ufx::ndview<float, 1> out) { out(t.grid<1>()) = 1; });
  fill.forall(4)(ufx::cuda, y); // line 9
}
