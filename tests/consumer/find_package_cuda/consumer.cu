// The CUDA consumer (tests/consumer/find_package_cuda): a .cu file using ufx::ufx from an
// installed package as a user would. nvcc must get from ufx::ufx what ufx's kernels need; the
// build fails here if it does not. It runs an add on ufx::sim and, where a GPU answers, on
// ufx::cuda, and checks the values.
#include <ufx/ufx.hpp>

#include <cstdio>
#include <string_view>
#include <vector>

#if !defined(__CUDACC_EXTENDED_LAMBDA__)
#  error "ufx::ufx did not give nvcc --extended-lambda"
#endif
static_assert(__cplusplus >= 202002L, "ufx::ufx did not give nvcc -std=c++20");

int main() {
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  const std::vector<float> x{1, 2, 3}, y{10, 20, 30};
  const std::vector<float> want{11, 22, 33};
  const std::vector<float> on_sim = add(ufx::sim, x, y);
  if (on_sim != want) {
    std::printf("consumer (CUDA): wrong sums on ufx::sim\n");
    return 1;
  }
  if (!ufx::cuda_available()) {
    const std::string_view why = ufx::cuda_unavailable_reason();
    std::printf("consumer (CUDA): ufx::sim works; ufx::cuda not run: %.*s\n", static_cast<int>(why.size()), why.data());
    return 0;
  }
  const std::vector<float> on_cuda = add(ufx::cuda, x, y);
  if (on_cuda != want) {
    std::printf("consumer (CUDA): wrong sums on ufx::cuda: [%g, %g, %g]\n", on_cuda[0], on_cuda[1], on_cuda[2]);
    return 1;
  }
  std::printf("consumer (CUDA): ufx::sim and ufx::cuda work (x + y = [%g, %g, %g])\n", on_cuda[0], on_cuda[1],
              on_cuda[2]);
  return 0;
}
