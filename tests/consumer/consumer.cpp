// The program both consumer projects build: it uses ufx::ufx as a user would, through the umbrella
// header, on a host target and on ufx::sim (which needs the compiled part of the library).
#include <ufx/ufx.hpp>

#include <cstdio>
#include <vector>
#if defined(CONSUMER_DLPACK)
#  include <ufx/dlpack.hpp>
#endif

int main() {
  // the headers and libufx of one installation, and (find_package) the CMake package's version
  ufx::check_library_version();
#if defined(CONSUMER_PACKAGE_VERSION)
  if (ufx::to_string(ufx::version()) != CONSUMER_PACKAGE_VERSION) {
    std::printf("consumer: ufx::version() %s, the package's version %s\n", ufx::to_string(ufx::version()).c_str(),
                CONSUMER_PACKAGE_VERSION);
    return 1;
  }
#endif
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  const std::vector<float> x{1, 2, 3}, y{10, 20, 30};
  const std::vector<float> want{11, 22, 33};
  const std::vector<float> on_host = add(ufx::host, x, y);
  const std::vector<float> on_sim = add(ufx::sim, x, y);
  if (on_host != want || on_sim != want) {
    std::printf("consumer: wrong sums\n");
    return 1;
  }
#if defined(CONSUMER_DLPACK)
  // ufx::dlpack: an array handed to a DLPack tensor and read back through it, no copy
  ufx::ndarray<float, 1> a = ufx::ndarray<float, 1>::of({1, 2, 3});
  const float* p = a.data();
  auto t = ufx::adopt_dlpack(ufx::to_dlpack(std::move(a)));
  const auto v = ufx::from_dlpack<ufx::ndview<const float, 1>>(t);
  const ufx::ndarray<float, 1> twice = add(ufx::host, v, v);
  if (v.data() != p || twice != ufx::ndarray<float, 1>::of({2, 4, 6})) {
    std::printf("consumer: wrong DLPack round trip\n");
    return 1;
  }
  std::printf("consumer: ufx::dlpack works\n");
#endif
  std::printf("consumer: ufx %s works (x + y = [%g, %g, %g])\n", ufx::to_string(ufx::version()).c_str(), on_host[0],
              on_host[1], on_host[2]);
  return 0;
}
