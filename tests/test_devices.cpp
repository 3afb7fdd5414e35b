// Devices: listing, selecting, the sim's virtual devices (several, each with a memory limit),
// device_arrays that remember their device, operands on two devices, out of device memory.
#include "common.hpp"

#include <cstdlib>
#include <sstream>

#include <ufx/detail/lib/runtime.hpp>

using ufx_test::add_f;
using ufx_test::error_message;
using ufx_test::iota_f;

namespace {

/// Gives the sim `n` devices of `bytes` each for one test, and restores the previous set-up after.
class sim_devices {
public:
  sim_devices(int n, std::size_t bytes) : saved_(ufx::sim_configuration()) { ufx::configure_sim({n, bytes}); }
  ~sim_devices() {
    ufx::select_device(ufx::sim, 0);
    ufx::configure_sim(saved_);
  }

private:
  ufx::sim_config saved_;
};

constexpr std::size_t MiB = std::size_t{1} << 20;
} // namespace

TEST_CASE("devices(ufx::sim) lists the virtual devices with their fields") {
  const sim_devices two(2, 64 * MiB);
  const auto ds = ufx::devices(ufx::sim);
  REQUIRE(ds.size() == 2);
  for (int i = 0; i < 2; ++i) {
    const ufx::device_info& d = ds[static_cast<std::size_t>(i)];
    CHECK(d.target == "ufx::sim");
    CHECK(d.ordinal == i);
    CHECK(d.name == "ufx::sim virtual device " + std::to_string(i));
    CHECK(d.total_memory == 64 * MiB);
    CHECK(d.free_memory == 64 * MiB);
    CHECK(d.warp_size == 32);
    CHECK(d.max_threads_per_block == 1024);
    CHECK(d.shared_memory_per_block == 48 * 1024);
    CHECK(d.multiprocessors >= 1);
    CHECK(d.compute_major == 9);
  }
  std::ostringstream os;
  os << ds[1];
  CHECK(os.str() == "ufx::sim device 1: ufx::sim virtual device 1, compute 9.0, " +
                        std::to_string(ds[1].multiprocessors) +
                        " SMs, 64.0 MiB (64.0 MiB free), 1024 threads/block, 48.0 KiB shared/block, warp 32");
  // free memory follows allocations
  ufx::device_array<float, 1> a({1 << 20}, ufx::sim.device(1));
  CHECK(ufx::devices(ufx::sim)[1].free_memory == 60 * MiB);
  CHECK(ufx::devices(ufx::sim)[0].free_memory == 64 * MiB);
}

TEST_CASE("devices() of a host target is an error, and ufx::cuda without a GPU lists none") {
  CHECK(error_message([] { ufx::devices(ufx::host); }) ==
        "ufx::devices: ufx::host is not a device target; use ufx::cuda or ufx::sim");
  if (!ufx::cuda_available()) {
    CHECK(ufx::devices(ufx::cuda).empty());
    CHECK(error_message([] { ufx::select_device(ufx::cuda, 0); }).find("ufx::cuda is not available here") !=
          std::string::npos);
    // why, in words that say what is missing (not CUDA's "driver version is insufficient" alone)
    const std::string why(ufx::cuda_unavailable_reason());
    const bool built_without = why == "ufx was built without the CUDA toolkit";
    const bool no_gpu = why.rfind("no CUDA driver or GPU found (cudaGetDeviceCount: cudaError", 0) == 0;
    const bool no_start = why.rfind("the CUDA driver could not start (cudaGetDeviceCount: cudaError", 0) == 0;
    CHECK_MESSAGE((built_without || no_gpu || no_start), why);
  } else {
    CHECK(ufx::cuda_unavailable_reason().empty());
  }
}

TEST_CASE("a device_array remembers its device, and calls on it run and return there") {
  const sim_devices two(2, 64 * MiB);
  auto add = ufx::vectorize(add_f{});
  auto d1 = ufx::to_device(iota_f(5), ufx::sim.device(1));
  CHECK(d1.space() == ufx::sim.device(1).space());
  CHECK(d1.space().device == 1);
  CHECK(d1.target() == ufx::target(ufx::sim.device(1)));
  CHECK(ufx::detail::space_of(d1.data(), 5 * sizeof(float)).device == 1);
  auto r = add(d1, d1);
  CHECK(r.space().device == 1);
  const auto h = r.to_host();
  for (int i = 0; i < 5; ++i) CHECK(h(i) == 2.f * static_cast<float>(i));
  auto sum = ufx::reducer(add_f{}, 0.f);
  CHECK(sum(d1) == 10.f);
  CHECK(ufx::accumulate(d1, add_f{}).space().device == 1);
  // device_array_like and empty_like of device data stay on its device (not on default_device(),
  // which is ufx::cuda where a GPU answers); of host data, default_device() or the target named
  CHECK(ufx::device_array_like(d1).space() == d1.space());
  CHECK(ufx::device_array_like(d1.view()).space() == d1.space());
  CHECK(ufx::empty_like(d1).space() == d1.space());
  CHECK(ufx::device_array_like(iota_f(5)).space() == ufx::default_device().space());
  CHECK(ufx::device_array_like(d1, ufx::sim.device(0)).space().device == 0);
}

TEST_CASE("operands on two devices are an error naming both, unless a target is named") {
  const sim_devices two(2, 64 * MiB);
  auto add = ufx::vectorize(add_f{});
  auto d0 = ufx::to_device(iota_f(4), ufx::sim.device(0));
  auto d1 = ufx::to_device(iota_f(4, 10.f), ufx::sim.device(1));
  CHECK(error_message([&] { add(d0, d1); }) ==
        "ufx::vectorize: operands live on two devices (ufx::sim device 0 and ufx::sim device 1); copy one of them, or "
        "name a target to run on (its operands are staged there)");
  auto sum = ufx::reducer(add_f{}, 0.f);
  CHECK_THROWS_AS(ufx::transform_reduce(d0, d1, add_f{}, add_f{}, 0.f), ufx::device_error);
  // an explicit target stages the operands to it; new results live on its device
  auto r = add(ufx::sim.device(1), d0, d1);
  CHECK(r.space().device == 1);
  auto h = r.to_host();
  for (int i = 0; i < 4; ++i) CHECK(h(i) == 10.f + 2.f * static_cast<float>(i));
  auto r0 = add(ufx::sim.device(0), d0, d1);
  CHECK(r0.space().device == 0);
  CHECK(r0.to_host()(3) == 16.f);
  // a host target reads both and returns a device array where the first operand lives
  auto rh = add(ufx::host, d0, d1);
  CHECK(rh.space().device == 0);
  CHECK(rh.to_host()(1) == 12.f);
  CHECK(ufx::transform_reduce(ufx::serial, d0, d1, add_f{}, add_f{}, 0.f) == 52.f);
  (void)sum;
}

TEST_CASE("an allocation beyond a device's memory is out of device memory, and leaves nothing allocated") {
  const sim_devices one(1, 4 * MiB);
  const auto before = ufx::detail::sim_stats();
  ufx::device_array<float, 1> a({512 * 1024}, ufx::sim); // 2 MiB
  const std::string msg = error_message([] { ufx::device_array<float, 1> b({768 * 1024}, ufx::sim); });
  CHECK(msg ==
        "ufx::sim device 0: out of device memory: requested 3.0 MiB (3145728 bytes), 2.0 MiB available of 4.0 MiB"
        " (a call on host containers runs in chunks that fit with ufx::chunked(target, bytes); see docs/streams.md)");
  CHECK(ufx::detail::sim_stats().live_allocations == before.live_allocations + 1);
  // a call whose result does not fit fails the same way, before anything is written
  auto add = ufx::vectorize(add_f{});
  CHECK(error_message([&] { add(a, a); }).find("out of device memory") == std::string::npos); // 2 MiB more fits
  auto big = ufx::to_device(std::vector<float>(256 * 1024, 1.f), ufx::sim);                   // 1 MiB: 1 MiB left
  CHECK(error_message([&] { add(a, a); }).find("ufx::sim device 0: out of device memory: requested 2.0 MiB") == 0);
  CHECK(ufx::detail::sim_stats().live_allocations == before.live_allocations + 2);
}

TEST_CASE("select_device makes a device current for this thread, and unbound targets follow it") {
  const sim_devices two(2, 64 * MiB);
  CHECK(ufx::current_device(ufx::sim) == 0);
  ufx::select_device(ufx::sim, 1);
  CHECK(ufx::current_device(ufx::sim) == 1);
  CHECK(ufx::sim.ordinal() == 1);
  auto d = ufx::to_device(iota_f(3), ufx::sim);
  CHECK(d.space().device == 1);
  CHECK(ufx::sim.device(0).ordinal() == 0);
  CHECK(error_message([] { ufx::select_device(ufx::sim, 2); }) == "ufx::sim: device 2 does not exist (2 devices here)");
  CHECK(error_message([] { ufx::device_array<float, 1>({4}, ufx::sim.device(5)); }) ==
        "ufx::sim: device 5 does not exist (2 devices here)");
}

TEST_CASE("configure_sim refuses while sim memory is allocated") {
  auto d = ufx::to_device(iota_f(3), ufx::sim);
  CHECK(error_message([] {
          ufx::configure_sim({2, 0});
        }).find("ufx::configure_sim: ufx::sim memory is still allocated") == 0);
  CHECK_THROWS_AS(ufx::configure_sim({0, 0}), ufx::device_error);
}

TEST_CASE("a view into device memory is a device operand: it runs there without copies") {
  auto add = ufx::vectorize(add_f{});
  auto d = ufx::to_device(iota_f(6), ufx::sim);
  ufx::ndview<float, 1> v(d.data(), {6});
  const auto before = ufx::detail::sim_stats();
  ufx::device_array<float, 1> out({6}, ufx::sim);
  add(v, v, ufx::out(out));
  const auto after = ufx::detail::sim_stats();
  CHECK(after.host_to_device == before.host_to_device);
  CHECK(out.to_host()(5) == 10.f);
  // on the host target it is read through a staging copy, and a host result still comes back
  auto h = add(ufx::host, v, 1.f);
  CHECK(h(5) == 6.f);
}

TEST_CASE("a device_view says statically that a view is device memory: results stay on the device") {
  auto add = ufx::vectorize(add_f{});
  auto d = ufx::to_device(iota_f(6), ufx::sim);
  auto v = d.view(); // a ufx::device_view<float, 1>
  auto r = add(v, 1.f);
  static_assert(std::is_same_v<decltype(r), ufx::device_array<float, 1>>);
  CHECK(r.space() == d.space());
  CHECK(r.to_host()(5) == 6.f);
  ufx::device_view w(d.data() + 2, std::array<ufx::index_t, 1>{3}); // device memory from elsewhere
  auto s = ufx::reducer(add_f{}, 0.f);
  CHECK(s(w) == 9.f);
  auto r2 = add(w, w);
  static_assert(std::is_same_v<decltype(r2), ufx::device_array<float, 1>>);
  CHECK(r2.to_host()(0) == 4.f);
  std::vector<float> host(3, 1.f);
  ufx::device_view<float, 1> wrong(host.data(), {3});
  CHECK(error_message([&] { add(wrong, 1.f); }) ==
        "ufx::device_view: the view points to host memory, not to a device's; use ufx::ndview for host memory");
  ufx::ndview<float, 1> plain = d.view(); // still an ndview where one is wanted
  CHECK(plain.extent(0) == 6);
}

// Run by CTest with UFX_SIM_DEVICES=3 UFX_SIM_MEMORY=48MiB (tests/CMakeLists.txt): the sim reads
// them when it starts. Without them it checks the defaults.
TEST_CASE("the sim's devices come from UFX_SIM_DEVICES and UFX_SIM_MEMORY") {
  const char* n = std::getenv("UFX_SIM_DEVICES");
  const char* m = std::getenv("UFX_SIM_MEMORY");
  const ufx::sim_config c = ufx::sim_configuration();
  if (n && m && std::string(n) == "3" && std::string(m) == "48MiB") {
    CHECK(c.devices == 3);
    CHECK(c.memory == 48 * MiB);
    CHECK(ufx::devices(ufx::sim).size() == 3);
  } else if (!n && !m) {
    CHECK(c.devices == 1);
    CHECK(c.memory > 64 * MiB); // the machine's physical memory
  }
}

// A lambda without UFX_HD is a host function to nvcc. It runs on the host targets and the sim
// everywhere. In a file nvcc compiles, a call that names no target runs it on the host where it
// would have run on ufx::cuda; ufx::cuda named at run time, or operands on a CUDA device, are a
// device_error naming UFX_HD; ufx::cuda named statically is a compile error
// (tests/compile_fail_cuda/vectorize_lambda_without_hd.cu).
TEST_CASE("lambdas without UFX_HD run on the host targets and the sim, and never reach ufx::cuda") {
  const std::vector<float> x{1, 2, 3, 4}, doubled{2, 4, 6, 8}, sums{1, 3, 6, 10}, iota{0, 1, 2, 3};
  auto twice = ufx::vectorize([](float v) { return 2 * v; });
  auto plus = [](float a, float b) { return a + b; };
  auto total = ufx::reducer(plus, 0.0f);
  auto first = ufx::guvectorize<"(n)->()">([](ufx::ndview<const float, 1> v, float& r) { r = v(0); });
  auto fill = ufx::kernel([](const ufx::thread& t, ufx::ndview<float, 1> out) {
    const ufx::index_t i = t.grid<1>();
    if (i < out.extent(0)) out(i) = static_cast<float>(i);
  });

  CHECK(twice(x) == doubled); // no target: ufx::host, in an nvcc-compiled file too
  CHECK(twice(ufx::serial, x) == doubled);
  CHECK(twice(ufx::sim, x) == doubled);
  CHECK(twice(ufx::target(ufx::host), x) == doubled);
  CHECK(total(x) == 10);
  CHECK(total(ufx::sim, x) == 10);
  CHECK(ufx::transform_reduce(
            ufx::sim, x, [](float v) { return v * v; }, plus, 0.0f) == 30);
  CHECK(first(x) == 1);
  CHECK(first(ufx::sim, x) == 1);
  CHECK(ufx::accumulate(x, plus) == sums);
  CHECK(ufx::accumulate(ufx::sim, x, plus) == sums);
  std::vector<float> out(4, -1.f);
  if (ufx_test::kernel_runnable<ufx::sim_t>()) {
    fill.forall(4)(out);
    CHECK(out == iota);
    std::ranges::fill(out, -1.f);
    fill.forall(4)(ufx::sim, out);
    CHECK(out == iota);
  }

  // ufx::cuda chosen at run time: an error before anything runs (without nvcc, or without a GPU,
  // ufx::cuda is an error anyway: only an nvcc-compiled file names UFX_HD)
  const ufx::target gpu(ufx::cuda);
  auto check_refused = [&](auto&& call) {
    std::ranges::fill(out, -1.f);
    CHECK_THROWS_AS(call(), ufx::device_error);
    const std::string msg = error_message(call);
    if (UFX_CUDA_TU) CHECK_MESSAGE(msg.find("lambda without UFX_HD") != std::string::npos, msg);
    CHECK(out == std::vector<float>(4, -1.f));
  };
  check_refused([&] { twice(gpu, x, ufx::out(out)); });
  check_refused([&] { total(gpu, x); });
  check_refused([&] {
    ufx::transform_reduce(
        gpu, x, [](float v) { return v * v; }, ufx::plus{}, 0.0f);
  });
  check_refused([&] { first(gpu, x); });
  check_refused([&] { ufx::accumulate(gpu, x, plus, ufx::out(out)); });
  check_refused([&] { fill.forall(4)(gpu, out); });
  if (UFX_CUDA_TU && ufx::cuda_available()) { // operands on a CUDA device choose it
    const auto d = ufx::to_device(x, ufx::cuda);
    check_refused([&] { twice(d); });
  }
}
