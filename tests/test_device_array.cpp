// device_array and transfers: to_device, to_host, copy_to_host, staging rules, the sim arena.
#include "common.hpp"

#include <ufx/detail/lib/runtime.hpp>
// <ufx/ufx.hpp> (in common.hpp) includes no Thrust header in a host compiler's translation unit,
// so Thrust's device system is this file's own choice: its CPU system here (Thrust's default, CUDA,
// needs the CUDA runtime's headers); nvcc keeps the default.
#if !UFX_CUDA_TU
#  ifdef THRUST_DEVICE_SYSTEM
#    error "<ufx/ufx.hpp> chose Thrust's device system"
#  endif
#  define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif
#include <ufx/thrust.hpp>

using ufx_test::add_f;
using ufx_test::error_message;
using ufx_test::iota_f;

namespace {

/// The device targets whose memory this binary can use: sim always, cuda when a device answers.
/// (Transfers need no kernel, so a host-compiled binary moves ufx::cuda data too.)
std::vector<ufx::target> devices() {
  std::vector<ufx::target> d{ufx::sim};
  if (ufx::cuda_available()) d.push_back(ufx::cuda);
  return d;
}

/// The device targets this binary can run kernels on: ufx::cuda only in the nvcc-compiled binary.
std::vector<ufx::target> compute_devices() {
  std::vector<ufx::target> d{ufx::sim};
#if UFX_CUDA_TU
  if (ufx::cuda_available()) d.push_back(ufx::cuda);
#endif
  return d;
}
} // namespace

TEST_CASE("to_device and to_host round-trip a std::vector") {
  for (ufx::target where : devices()) {
    const auto x = iota_f(100);
    auto d = ufx::to_device(x, where);
    CHECK(d.space() == where.space());
    CHECK(d.shape() == std::array<ufx::index_t, 1>{100});
    ufx::ndarray<float, 1> h = d.to_host();
    CHECK(std::equal(h.begin(), h.end(), x.begin()));
    std::vector<float> back(100);
    d.copy_to_host(back);
    CHECK(back == x);
  }
}

TEST_CASE("to_device packs strided data and copy_to_host unpacks it, without a kernel") {
  for (ufx::target where : devices()) {
    float buf[6] = {0, 1, 2, 3, 4, 5};
    ufx::ndview<float, 2> t(buf, {3, 2}, {1, 3});
    auto d = ufx::to_device(t, where);
    CHECK(d.space() == where.space());
    auto h = d.to_host();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 2; ++j) CHECK(h(i, j) == t(i, j));
    float dst[6] = {};
    ufx::ndview<float, 2> dt(dst, {3, 2}, {1, 3});
    d.copy_to_host(dt);
    for (int i = 0; i < 6; ++i) CHECK(dst[i] == buf[i]);
    // a strided view of device memory as the source: its span is brought over, then packed
    ufx::ndview<const float, 1> col(d.data() + 1, {3}, {2});
    std::vector<float> c(3);
    ufx::ndarray<float, 1> ch = ufx::to_device(col, where).to_host();
    for (int i = 0; i < 3; ++i) CHECK(ch(i) == t(i, 1));
    (void)c;
  }
}

TEST_CASE("to_device packs strided data and device_array_like copies the shape") {
  float buf[6] = {0, 1, 2, 3, 4, 5};
  ufx::ndview<float, 2> t(buf, {3, 2}, {1, 3});
  auto d = ufx::to_device(t, ufx::sim);
  auto h = d.to_host();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) CHECK(h(i, j) == t(i, j));
  auto e = ufx::device_array_like(t, ufx::sim);
  CHECK(e.shape() == std::array<ufx::index_t, 2>{3, 2});
  // and back into a strided host destination
  float dst[6] = {};
  ufx::ndview<float, 2> dt(dst, {3, 2}, {1, 3});
  d.copy_to_host(dt);
  for (int i = 0; i < 6; ++i) CHECK(dst[i] == buf[i]);
}

TEST_CASE("copy_to_host and copy_from_host check the shape") {
  auto d = ufx::to_device(iota_f(4), ufx::sim);
  std::vector<float> wrong(5);
  CHECK(error_message([&] { d.copy_to_host(wrong); }) ==
        "ufx::device_array::copy_to_host: shapes differ: device array (4,), container (5,)");
  CHECK_THROWS_AS(d.copy_from_host(wrong), ufx::shape_error);
  d.copy_from_host(std::vector<float>{9, 8, 7, 6});
  CHECK(d.to_host()(3) == 6.f);
}

TEST_CASE("a moved-from device_array says it is empty when it is read or copied") {
  auto d = ufx::to_device(iota_f(4), ufx::sim);
  auto taken = std::move(d);
  const std::string empty = "the device_array is empty (moved from): it holds no device memory for its shape";
  CHECK(error_message([&] { (void)d.to_host(); }) == "ufx::device_array::to_host: " + empty);
  std::vector<float> h(4);
  CHECK(error_message([&] { d.copy_to_host(h); }) == "ufx::device_array::copy_to_host: " + empty);
  CHECK(error_message([&] { d.copy_from_host(h); }) == "ufx::device_array::copy_from_host: " + empty);
  CHECK_THROWS_AS((void)ufx::to_device(d, ufx::sim), ufx::device_error);
  CHECK(taken.to_host()(3) == 3.f);
  // a default-constructed 0-d array has one element and no memory for it: the same error
  ufx::device_array<double, 0> z;
  CHECK(z.size() == 1);
  CHECK(error_message([&] { (void)z.to_host(); }) == "ufx::device_array::to_host: " + empty);
  // a default-constructed array of rank >= 1 is empty and consistent: shape (0,), no memory
  ufx::device_array<float, 1> e;
  CHECK(e.size() == 0);
  CHECK(e.to_host().size() == 0);
}

TEST_CASE_TEMPLATE("a moved-from device_array passed to a call is an error that says it is empty", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize(add_f{});
  auto d = ufx::to_device(iota_f(4), ufx::sim);
  auto taken = std::move(d);
  CHECK(error_message([&] { (void)add(Target{}, d, 1.f); }) ==
        "ufx::vectorize: the device_array is empty (moved from): it holds no device memory for its shape");
  CHECK(error_message([&] { add(Target{}, taken, 1.f, ufx::out(d)); }).find("the device_array is empty (moved from)") !=
        std::string::npos);
  CHECK(add(Target{}, taken, 1.f).to_host()(3) == 4.f);
}

TEST_CASE("a device_array on a host target or an absent device is an error") {
  CHECK_THROWS_AS((ufx::device_array<float, 1>({4}, ufx::host)), ufx::device_error);
  if (!ufx::cuda_available()) {
    CHECK(error_message([] {
            ufx::to_device(std::vector<float>(4), ufx::cuda);
          }).find("ufx::cuda is not available here") != std::string::npos);
    CHECK(ufx::default_device() == ufx::target(ufx::sim));
  }
}

TEST_CASE("a call on device arrays runs there and returns a device_array") {
  for (ufx::target where : compute_devices()) {
    auto add = ufx::vectorize(add_f{});
    auto d = ufx::to_device(iota_f(5), where);
    auto r = add(d, d);
    static_assert(std::is_same_v<decltype(r), ufx::device_array<float, 1>>);
    CHECK(r.space() == where.space());
    auto h = r.to_host();
    CHECK(h(4) == 8.f);
    // a host operand is staged next to the device one; the result stays on the device
    auto r2 = add(d, std::vector<float>{1, 1, 1, 1, 1});
    CHECK(r2.to_host()(0) == 1.f);
    // an explicit host target computes on the host and still returns where the data lives
    auto r3 = add(ufx::serial, d, 1.f);
    CHECK(r3.space() == where.space());
    CHECK(r3.to_host()(2) == 3.f);
  }
}

TEST_CASE("ufx::sim stages host inputs once and copies nothing already on the device") {
  auto add = ufx::vectorize(add_f{});
  const auto x = iota_f(64);
  auto before = ufx::detail::sim_stats();
  std::vector<float> r = add(ufx::sim, x, x);
  auto after = ufx::detail::sim_stats();
  CHECK(after.host_to_device - before.host_to_device == 2);
  CHECK(after.device_to_host - before.device_to_host == 1);
  CHECK(after.live_allocations == before.live_allocations);
  CHECK(r[63] == 126.f);

  auto d = ufx::to_device(x, ufx::sim);
  ufx::device_array<float, 1> o({64}, ufx::sim);
  before = ufx::detail::sim_stats();
  add(d, d, ufx::out(o));
  after = ufx::detail::sim_stats();
  CHECK(after.host_to_device == before.host_to_device);
  CHECK(after.device_to_host == before.device_to_host);
  CHECK(after.allocations == before.allocations);
}

TEST_CASE("operands on two different device spaces are an error") {
  if (!ufx::cuda_available()) return;
  auto add = ufx::vectorize(add_f{});
  auto a = ufx::to_device(iota_f(3), ufx::sim);
  auto b = ufx::to_device(iota_f(3), ufx::cuda);
  CHECK_THROWS_AS(add(a, b), ufx::device_error);
}

TEST_CASE("a host pointer that leaks into a sim launch is caught, naming the operand") {
  using namespace ufx::detail;
  std::vector<float> host_mem(8, 1.f);
  ufx::device_array<float, 1> dev({8}, ufx::sim);
  layout<2> L;
  L.rank = 1;
  L.shape[0] = 8;
  L.stride[0][0] = 1;
  L.stride[1][0] = 1;
  map_body<identity, 1, array_acc<float>, array_acc<const float>> k{
      identity{}, make_tuple(array_acc<float>{dev.data()}, array_acc<const float>{host_mem.data()})};
  const std::string msg = error_message([&] { for_each_hook<ufx::sim_t>::run(ufx::sim, L, k); });
  CHECK(msg.find("input 0 is not in ufx::sim device 0 memory (it points to host memory") != std::string::npos);
  map_body<identity, 1, array_acc<float>, array_acc<const float>> k2{
      identity{}, make_tuple(array_acc<float>{host_mem.data()}, array_acc<const float>{dev.data()})};
  CHECK(error_message([&] {
          for_each_hook<ufx::sim_t>::run(ufx::sim, L, k2);
        }).find("output 0 is not in ufx::sim device 0 memory (it points to host memory") != std::string::npos);
}

TEST_CASE("sim allocations are tracked and released") {
  const auto before = ufx::detail::sim_stats();
  {
    ufx::device_array<double, 2> a({100, 100}, ufx::sim);
    ufx::device_array<double, 2> b({3, 3}, ufx::sim);
    CHECK(ufx::detail::sim_stats().live_allocations == before.live_allocations + 2);
    CHECK(ufx::detail::space_of(a.data(), sizeof(float) * a.size()) == ufx::sim.space());
    ufx::device_array<double, 2> c = std::move(a);
    CHECK(ufx::detail::sim_stats().live_allocations == before.live_allocations + 2);
  }
  CHECK(ufx::detail::sim_stats().live_allocations == before.live_allocations);
}

TEST_CASE("thrust vectors are operands without copies: device_vector on the GPU, host_vector on the host") {
  auto add = ufx::vectorize(add_f{});
  thrust::host_vector<float> h(4);
  for (int i = 0; i < 4; ++i) h[static_cast<std::size_t>(i)] = static_cast<float>(i);
  std::vector<float> r = add(h, h); // a sequence: a std::vector result
  CHECK(r[3] == 6.f);
  add(h, 1.f, ufx::out(h));
  CHECK(h[0] == 1.f);
#if UFX_CUDA_TU
  if (!ufx::cuda_available()) return;
  thrust::device_vector<float> d(h.begin(), h.end()); // CUDA memory
  auto dd = add(d, d);
  static_assert(std::is_same_v<decltype(dd), ufx::device_array<float, 1>>);
  CHECK(dd.space() == ufx::cuda.device(0).space());
  CHECK(dd.to_host()(3) == 8.f);
  add(d, 1.f, ufx::out(d));
  CHECK(d[2] == 4.f);
#else
  thrust::device_vector<float> d(h.begin(), h.end()); // Thrust's CPP system (chosen above): host memory
  std::vector<float> dd = add(d, d);
  CHECK(dd[3] == 8.f);
#endif
}

#if UFX_CUDA_TU && __has_include(<dlpack/dlpack.h>)
// DLPack and profiler ranges on ufx::cuda (test_dlpack.cpp and test_nvtx.cpp test the other targets;
// here, in a file nvcc compiles anyway, rather than two more CUDA translation units)
#  include <ufx/dlpack.hpp>
#  include <ufx/nvtx.hpp>

namespace {
std::vector<std::string> range_names;
void record_range(const char* name) {
  if (name) range_names.push_back(name);
}
} // namespace

TEST_CASE("ufx::cuda: a device_array goes through DLPack as kDLCUDA and runs where it is; its calls open ranges") {
  if (!ufx_test::runnable<ufx::cuda_t>()) return;
  auto d = ufx::to_device(ufx_test::iota_f(5), ufx::cuda);
  const int device = d.space().device;
  auto owner = ufx::adopt_dlpack(ufx::to_dlpack(std::move(d)));
  CHECK(owner->dl_tensor.device.device_type == kDLCUDA);
  CHECK(owner->dl_tensor.device.device_id == device);
  auto v = ufx::from_dlpack<ufx::device_view<float, 1>>(owner);
  range_names.clear();
  ufx::detail::set_range_observer(&record_range);
  const auto add = ufx::vectorize(ufx_test::add_f{}).named("add");
  add(v, v, ufx::out(v)); // in place, on the tensor's device
  const std::vector<float> big(1 << 16, 1.f);
  const std::vector<float> z = add(ufx::chunked(ufx::cuda, 128 << 10), big, big);
  ufx::detail::set_range_observer(nullptr);
  CHECK(z == std::vector<float>(1 << 16, 2.f));
  REQUIRE(range_names.size() > 3);
  CHECK(range_names[0] == "vectorize add");
  CHECK(range_names[1] == "vectorize add");
  CHECK(range_names[2] == "chunked add 1/" + std::to_string(range_names.size() - 2));
  const ufx::ndarray<float, 1> h = ufx::to_device(v, ufx::cuda).to_host();
  CHECK(h == ufx::ndarray<float, 1>::of({0, 2, 4, 6, 8}));
  using host_view = ufx::ndview<const float, 1>;
  const std::string want = "ufx::from_dlpack<ufx::ndview<float32, 1>>: the tensor is in a device's memory (kDLCUDA "
                           "device " +
                           std::to_string(device) + "); read it as a ufx::device_view";
  CHECK_THROWS_WITH_AS(ufx::from_dlpack<host_view>(owner), want.c_str(), ufx::device_error);
}
#endif
