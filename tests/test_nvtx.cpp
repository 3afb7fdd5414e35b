// Profiler ranges (ufx/nvtx.hpp): each call opens one range named after its front door, its
// label and its axes; chunks and the program's own ranges nest inside; with ranges off nothing is
// opened. The names are read through ufx's range observer, which works with or without NVTX. Host
// code only: the CUDA test binary's case for ufx::cuda is in test_device_array.cpp.
#include "common.hpp"

#include <ufx/nvtx.hpp>

#include <cstdlib>

#include "gufunc_cores.hpp"

namespace {

std::vector<std::string> names; // each range's name as it opened
int depth = 0, deepest = 0;

void record(const char* name) {
  if (name) {
    names.push_back(name);
    deepest = std::max(deepest, ++depth);
  } else {
    --depth;
  }
}

/// Reads ufx's ranges while it lives.
struct observing {
  observing() {
    names.clear();
    depth = deepest = 0;
    ufx::detail::set_range_observer(&record);
  }
  ~observing() { ufx::detail::set_range_observer(nullptr); }
};

struct scale_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<float, 1> a) const {
    const auto i = t.grid<1>();
    if (i < a.extent(0)) a(i) *= 2.f;
  }
};

} // namespace

TEST_CASE_TEMPLATE("each call opens one range: front door, label, axes; chunks nest inside their call", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const Target t{};
  const std::vector<float> x(6, 1.f), y(6, 2.f);
  ufx::ndarray<float, 2> m({2, 3}, 1.f);
  const auto add = ufx::vectorize(ufx_test::add_f{}).named("add");
  {
    const observing o;
    CHECK(add(t, x, y) == std::vector<float>(6, 3.f)); // naming a kernel changes nothing else
    CHECK(ufx::sum(t, m, ufx::axis{1}).size() == 2);
    CHECK(ufx::sum(t, m, ufx::axis{0, 1}) == 6.f);
    CHECK(ufx::vectorize(ufx_test::add_f{})(t, x, y).size() == 6);
    CHECK(depth == 0);
    CHECK(deepest == 1); // no call opens a range inside another
    CHECK(names ==
          std::vector<std::string>{"vectorize add", "reduce sum axis=1", "reduce sum axis=(0,1)", "vectorize"});
  }
  if constexpr (Target::is_device) {
    // a call larger than its budget runs in chunks: "chunked add k/n" inside "vectorize add"
    const std::vector<float> big(1 << 16, 1.f);
    const observing o;
    const std::vector<float> z = add(ufx::chunked(t, 128 << 10), big, big);
    CHECK(z == std::vector<float>(1 << 16, 2.f));
    REQUIRE(names.size() > 2);
    CHECK(names[0] == "vectorize add");
    const std::string n = std::to_string(names.size() - 1);
    CHECK(names[1] == "chunked add 1/" + n);
    CHECK(names.back() == "chunked add " + n + "/" + n);
    CHECK(deepest == 2);
    CHECK(depth == 0);
  }
}

TEST_CASE("ranges name gufuncs, reducers, scans, kernels and the program's own") {
  const observing o;
  ufx::ndarray<double, 2> a({2, 2}, 1.0);
  const auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(ufx_test::matmul_f{}).named("matmul");
  CHECK(matmul(ufx::host, a, a)(1, 1) == 2.0);
  const auto logsum = ufx::reducer([](double p, double q) { return p + q; }, 0.0).named("plus");
  CHECK(logsum(ufx::host, a, ufx::axis{0}).size() == 2);
  CHECK(ufx::accumulate(ufx::host, a, std::plus<>{}, ufx::axis{1})(1, 1) == 2.0);
  CHECK(ufx::max(ufx::serial, a) == 1.0);
  {
    const ufx::nvtx_range step("my step");
    CHECK(ufx::argmax(ufx::host, a) == 0);
  }
  if (ufx::host_kernels_available()) {
    std::vector<float> v(8, 1.f);
    ufx::kernel(scale_body{}, "twice").forall(8)(ufx::sim, v);
    CHECK(v[7] == 2.f);
    ufx::kernel(scale_body{})[{1, 8}](ufx::host, v); // unnamed
    CHECK(v[7] == 4.f);
  }
  std::vector<std::string> want{
      "guvectorize matmul", "reduce plus axis=0", "accumulate axis=1", "reduce max", "my step", "argmax"};
  if (ufx::host_kernels_available()) {
    want.push_back("kernel twice");
    want.push_back("kernel");
  }
  CHECK(names == want);
  CHECK(deepest == 2); // argmax inside "my step"
  CHECK(depth == 0);
}

TEST_CASE("with ranges off a call opens none; with NVTX on each call opens one") {
  const auto add = ufx::vectorize(ufx_test::add_f{}).named("add");
  const std::vector<float> x(4, 1.f);
  const bool was_on = ufx::nvtx_enabled(); // UFX_NVTX=1 in the environment
  ufx::set_nvtx(false);
  long before = ufx::detail::ranges_opened();
  for (int i = 0; i < 3; ++i) {
    add(ufx::host, x, x);
    ufx::sum(ufx::host, x);
  }
  CHECK(ufx::detail::ranges_opened() == before); // off: the flag read, nothing else
  if (ufx::nvtx_available()) {
    ufx::set_nvtx(true);
    CHECK(ufx::nvtx_enabled());
    before = ufx::detail::ranges_opened();
    add(ufx::host, x, x);
    ufx::sum(ufx::host, x);
    CHECK(ufx::detail::ranges_opened() == before + 2);
    ufx::set_nvtx(false);
    CHECK(!ufx::nvtx_enabled());
  } else {
    CHECK_THROWS_WITH_AS(ufx::set_nvtx(true),
                         "ufx::set_nvtx: this ufx was built without NVTX (CMake option UFX_NVTX, with "
                         "nvtx3/nvToolsExt.h from the CUDA toolkit)",
                         ufx::device_error);
    CHECK(!ufx::nvtx_enabled());
  }
  if (was_on) ufx::set_nvtx(true);
}

TEST_CASE("UFX_NVTX=1 turns the ranges on at start-up") {
  const char* e = std::getenv("UFX_NVTX");
  if (!e || std::string(e) != "1") {
    MESSAGE("UFX_NVTX is not 1 here; the CTest ufx_tests.nvtx_environment sets it");
    return;
  }
  CHECK(ufx::nvtx_enabled() == ufx::nvtx_available());
  const long before = ufx::detail::ranges_opened();
  CHECK(ufx::sum(ufx::host, std::vector<float>(3, 1.f)) == 3.f);
  CHECK(ufx::detail::ranges_opened() == before + (ufx::nvtx_available() ? 1 : 0));
}
