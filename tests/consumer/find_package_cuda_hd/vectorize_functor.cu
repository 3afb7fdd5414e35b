// vectorize with a functor whose operator() has no UFX_HD, on ufx::cuda (issue 27's new user):
// built through find_package(ufx), whose include directories nvcc gets as -isystem, it compiled
// without a word into a kernel that neither loads nor stores.
#include <ufx/ufx.hpp>

#include <vector>

struct add_f {
  float operator()(float a, float b) const { return a + b; }
};

std::vector<float> run(const std::vector<float>& x) { return ufx::vectorize(add_f{})(ufx::cuda, x, x); }
