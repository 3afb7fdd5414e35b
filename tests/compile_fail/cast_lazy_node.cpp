// Expected: input_cast<0, double, float, ...> (an expression's node of double values into a float
// parameter: the eager calls would have stored a float64 array).
#include <ufx/lazy.hpp>

#include <vector>

int main() {
  auto add = ufx::vectorize([](float a, float b) { return a + b; });
  auto addd = ufx::vectorize([](double a, double b) { return a + b; });
  const std::vector<double> x{1, 2};
  const std::vector<float> y{1, 2};
  auto e = add(addd(ufx::lazy(x), 1.0), y);
}
