// Expected: "an array operand's elements cannot become the function's parameter type at all",
// and no other message from ufx (the call stops at the check: no "cannot be called", no
// std::invoke_result errors after it).
#include <ufx/vectorize.hpp>

#include <string>
#include <vector>

int main() {
  auto length = ufx::vectorize([](const std::string& s) { return s.size(); });
  const std::vector<float> x{1.f, 2.f};
  length(x);
}
