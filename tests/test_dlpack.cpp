// DLPack exchange (ufx/dlpack.hpp): every element type round-trips through to_dlpack / from_dlpack,
// strides, byte_offset and rank 0 are honoured, device arrays carry their device, the deleter
// runs exactly once, and each bad tensor is refused with a message naming what it has. Host code
// only: the CUDA test binary's case for ufx::cuda (kDLCUDA) is in test_device_array.cpp.
#include "common.hpp"

#include <ufx/dlpack.hpp>

#include <complex>
#include <numeric>

namespace {

// Counts a managed tensor's deleter calls: the producer's deleter is kept and called through.
template <class Managed>
struct counted_deleter {
  static inline int calls = 0;
  static inline void (*inner)(Managed*) = nullptr;
  static void call(Managed* m) {
    ++calls;
    inner(m);
  }
  static Managed* wrap(Managed* m) {
    inner = m->deleter;
    m->deleter = &call;
    return m;
  }
};

template <class T>
T value_at(int i) {
  if constexpr (std::is_same_v<T, bool>) return i % 3 == 1;
  else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
    return T(typename T::value_type(i), typename T::value_type(-2 * i));
  else return static_cast<T>(i * 7 % 100);
}

/// The DLPack type code T is exchanged as.
template <class T>
int code_of() {
  if constexpr (std::is_same_v<T, bool>) return ufx::dlpack::code_bool;
  else if constexpr (std::is_same_v<T, ufx::bfloat16>) return kDLBfloat;
  else if constexpr (std::is_same_v<T, ufx::float16> || std::is_floating_point_v<T>) return kDLFloat;
  else if constexpr (std::is_integral_v<T>) return std::is_signed_v<T> ? kDLInt : kDLUInt;
  else return kDLComplex;
}

DLTensor host_tensor(void* data, DLDataType dtype, int ndim, std::int64_t* shape, std::int64_t* strides,
                     std::uint64_t byte_offset = 0) {
  DLTensor t{};
  t.data = data;
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = ndim;
  t.dtype = dtype;
  t.shape = shape;
  t.strides = strides;
  t.byte_offset = byte_offset;
  return t;
}

/// `fn` throws E, whose message contains `part`.
template <class E, class Fn>
void check_error(Fn&& fn, const std::string& part) {
  CHECK_THROWS_AS(fn(), E);
  const std::string m = ufx_test::error_message(fn);
  INFO(m);
  CHECK(m.find(part) != std::string::npos);
}

using DV2 = ufx::device_view<const float, 2>;

/// ufx::sim with two devices while it lives (its arrays must go first).
struct two_sim_devices {
  ufx::sim_config saved = ufx::sim_configuration();
  two_sim_devices() { ufx::configure_sim({2, 0}); }
  ~two_sim_devices() { ufx::configure_sim(saved); }
};

} // namespace

TEST_CASE_TEMPLATE("to_dlpack hands an ndarray to the tensor, from_dlpack reads it back, the deleter runs once", T,
                   bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t,
                   std::uint32_t, std::uint64_t, ufx::float16, ufx::bfloat16, float, double, std::complex<float>,
                   std::complex<double>) {
  ufx::ndarray<T, 2> a({3, 4});
  for (int i = 0; i < 12; ++i) a.data()[i] = value_at<T>(i);
  const T* p = a.data();

  using C = counted_deleter<DLManagedTensor>;
  C::calls = 0;
  DLManagedTensor* m = C::wrap(ufx::to_dlpack(std::move(a)));
  {
    auto owner = ufx::adopt_dlpack(m);
    const DLTensor& t = m->dl_tensor;
    CHECK(t.data == p); // handed over, not copied
    CHECK(t.device.device_type == kDLCPU);
    CHECK(t.device.device_id == 0);
    CHECK(t.ndim == 2);
    CHECK(t.shape[0] == 3);
    CHECK(t.shape[1] == 4);
    CHECK(t.strides[0] == 4);
    CHECK(t.strides[1] == 1);
    CHECK(t.byte_offset == 0);
    CHECK(t.dtype.bits == 8 * sizeof(T));
    CHECK(t.dtype.lanes == 1);
    CHECK(t.dtype.code == code_of<T>());
    auto v = ufx::from_dlpack<ufx::ndview<const T, 2>>(owner);
    CHECK(v.shape() == std::array<ufx::index_t, 2>{3, 4});
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) CHECK(v(i, j) == value_at<T>(4 * i + j));
    auto w = ufx::from_dlpack<ufx::ndview<T, 2>>(m); // writable: the tensor is not read-only
    w(2, 3) = value_at<T>(1);
    CHECK(v(2, 3) == value_at<T>(1));
    CHECK(C::calls == 0);
  }
  CHECK(C::calls == 1);

  // the versioned tensor (DLPack 1.0): the same, with its version and flags
  ufx::ndarray<T, 1> b({5});
  for (int i = 0; i < 5; ++i) b.data()[i] = value_at<T>(i + 1);
  using V = counted_deleter<ufx::dlpack::DLManagedTensorVersioned>;
  V::calls = 0;
  auto* mv = V::wrap(ufx::to_dlpack_versioned(std::move(b)));
  CHECK(mv->version.major == 1);
  CHECK(mv->version.minor == 0);
  CHECK(mv->flags == 0);
  auto bv = ufx::from_dlpack<ufx::ndview<const T, 1>>(mv);
  for (int i = 0; i < 5; ++i) CHECK(bv(i) == value_at<T>(i + 1));
  ufx::adopt_dlpack(mv).reset();
  CHECK(V::calls == 1);
}

TEST_CASE_TEMPLATE("from_dlpack honours strides, byte_offset and null strides, and ufx calls run on the view", Target,
                   UFX_TEST_TARGETS) {
  std::vector<double> buf(24);
  std::iota(buf.begin(), buf.end(), 0.0);
  const DLDataType f64{kDLFloat, 64, 1};

  // (i, j) -> buf[2 + 6 i + 2 j]: every other element of rows of 6, from element 2
  std::int64_t shape[2] = {3, 2}, strides[2] = {6, 2};
  DLTensor t = host_tensor(buf.data(), f64, 2, shape, strides, 2 * sizeof(double));
  auto v = ufx::from_dlpack<ufx::ndview<const double, 2>>(t);
  double want = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) {
      CHECK(v(i, j) == buf[2 + 6 * i + 2 * j]);
      want += buf[2 + 6 * i + 2 * j];
    }
  CHECK(ufx::sum(Target{}, v) == want); // exact: small integers

  // negative strides: the last 4 elements backwards
  std::int64_t rshape[1] = {4}, rstrides[1] = {-1};
  DLTensor r = host_tensor(buf.data(), f64, 1, rshape, rstrides, 23 * sizeof(double));
  auto rv = ufx::from_dlpack<ufx::ndview<const double, 1>>(r);
  const auto twice = ufx::vectorize([](double x) { return 2 * x; });
  const ufx::ndarray<double, 1> d = twice(Target{}, rv);
  CHECK(d == ufx::ndarray<double, 1>::of({46, 44, 42, 40}));

  // null strides: row-major
  std::int64_t cshape[2] = {4, 6};
  DLTensor c = host_tensor(buf.data(), f64, 2, cshape, nullptr);
  auto cv = ufx::from_dlpack<ufx::ndview<double, 2>>(c);
  CHECK(cv.strides() == std::array<ufx::index_t, 2>{6, 1});
  CHECK(cv(3, 5) == 23);

  // rank 0, and an empty tensor with a null data pointer
  DLTensor z = host_tensor(buf.data() + 7, f64, 0, nullptr, nullptr);
  CHECK(ufx::from_dlpack<ufx::ndview<const double, 0>>(z)() == 7);
  std::int64_t eshape[2] = {0, 3};
  DLTensor e = host_tensor(nullptr, f64, 2, eshape, nullptr);
  CHECK(ufx::from_dlpack<ufx::ndview<const double, 2>>(e).size() == 0);
}

TEST_CASE("a device_array on the sim goes through DLPack as kDLExtDev, with its device, and is freed there") {
  const two_sim_devices two;
  for (int dev = 0; dev < 2; ++dev) {
    const auto where = ufx::sim.device(dev);
    auto d = ufx::to_device(ufx_test::iota_f(6), where);
    const float* p = d.data();
    const auto& rt = ufx::sim_t::runtime();
    const auto before = rt.counts();
    auto owner = ufx::adopt_dlpack(ufx::to_dlpack(std::move(d)));
    const DLTensor& t = owner->dl_tensor;
    CHECK(t.device.device_type == ufx::dlpack::device_type_sim);
    CHECK(t.device.device_id == dev);
    CHECK(t.data == p);

    auto v = ufx::from_dlpack<ufx::device_view<const float, 1>>(owner);
    const auto add = ufx::vectorize(ufx_test::add_f{});
    auto s = add(v, v); // runs on the sim, where the view's memory is
    using S = decltype(s);
    static_assert(std::is_same_v<S, ufx::device_array<float, 1>>);
    CHECK(s.space() == where.space());
    CHECK(s.to_host() == ufx::ndarray<float, 1>::of({0, 2, 4, 6, 8, 10}));

    check_error<ufx::device_error>([&] { ufx::from_dlpack<ufx::ndview<const float, 1>>(owner); },
                                   "is in a device's memory (kDLExtDev (ufx::sim) device " + std::to_string(dev) +
                                       "); read it as a ufx::device_view");
    owner.reset();
    CHECK((rt.counts() - before).frees == 1); // the tensor's array (s is still alive)
  }
}

TEST_CASE("from_dlpack refuses a tensor that does not match the view, naming what it has") {
  float buf[16] = {};
  std::int64_t shape[2] = {2, 3};
  const DLDataType f32{kDLFloat, 32, 1};
  using V2 = ufx::ndview<const float, 2>;
  auto msg = [](auto&& f) { return ufx_test::error_message(f); };

  DLTensor t = host_tensor(buf, DLDataType{kDLFloat, 64, 1}, 2, shape, nullptr);
  CHECK_THROWS_AS(ufx::from_dlpack<V2>(t), ufx::value_error);
  CHECK(msg([&] { ufx::from_dlpack<V2>(t); }) ==
        "ufx::from_dlpack<ufx::ndview<float32, 2>>: the tensor's elements are float64, the view's are float32");
  t = host_tensor(buf, DLDataType{kDLInt, 32, 1}, 2, shape, nullptr);
  CHECK(msg([&] { ufx::from_dlpack<V2>(t); }) ==
        "ufx::from_dlpack<ufx::ndview<float32, 2>>: the tensor's elements are int32, the view's are float32");
  t = host_tensor(buf, DLDataType{kDLFloat, 32, 4}, 2, shape, nullptr);
  CHECK(msg([&] { ufx::from_dlpack<V2>(t); }).find("elements are float32 x4 lanes") != std::string::npos);
  t = host_tensor(buf, DLDataType{kDLBfloat, 16, 1}, 2, shape, nullptr);
  CHECK(msg([&] { ufx::from_dlpack<V2>(t); }).find("elements are bfloat16,") != std::string::npos);
  // 16-bit floats: float16 and bfloat16 are told apart by their code, other widths and codes are named
  t = host_tensor(buf, DLDataType{kDLBfloat, 16, 1}, 2, shape, nullptr);
  CHECK(msg([&] { ufx::from_dlpack<ufx::ndview<const ufx::float16, 2>>(t); }) ==
        "ufx::from_dlpack<ufx::ndview<float16, 2>>: the tensor's elements are bfloat16, the view's are float16");
  CHECK(ufx::from_dlpack<ufx::ndview<const ufx::bfloat16, 2>>(t).size() == 6);
  t = host_tensor(buf, DLDataType{kDLFloat, 8, 1}, 2, shape, nullptr);
  CHECK(msg([&] { ufx::from_dlpack<ufx::ndview<const ufx::float16, 2>>(t); }).find("elements are float8,") !=
        std::string::npos);
  t = host_tensor(buf, DLDataType{7, 8, 1}, 2, shape, nullptr); // DLPack 1.x's kDLFloat8_e3m4
  CHECK(msg([&] { ufx::from_dlpack<ufx::ndview<const ufx::bfloat16, 2>>(t); }) ==
        "ufx::from_dlpack<ufx::ndview<bfloat16, 2>>: the tensor's elements are type code 7 of 8 bits, the view's "
        "are bfloat16");
  t = host_tensor(buf, DLDataType{kDLComplex, 64, 1}, 2, shape, nullptr);
  CHECK(msg([&] { ufx::from_dlpack<ufx::ndview<const std::complex<double>, 2>>(t); }) ==
        "ufx::from_dlpack<ufx::ndview<complex128, 2>>: the tensor's elements are complex64, the view's are "
        "complex128");
  t = host_tensor(buf, DLDataType{kDLUInt, 8, 1}, 1, shape, nullptr); // uint8 is not bool
  CHECK(msg([&] { ufx::from_dlpack<ufx::ndview<const bool, 1>>(t); }) ==
        "ufx::from_dlpack<ufx::ndview<bool, 1>>: the tensor's elements are uint8, the view's are bool");

  t = host_tensor(buf, f32, 1, shape, nullptr);
  CHECK_THROWS_AS(ufx::from_dlpack<V2>(t), ufx::shape_error);
  CHECK(msg([&] { ufx::from_dlpack<V2>(t); }) == "ufx::from_dlpack<ufx::ndview<float32, 2>>: the tensor has rank 1, "
                                                 "the view rank 2");
  std::int64_t negative[2] = {2, -3};
  t = host_tensor(buf, f32, 2, negative, nullptr);
  check_error<ufx::shape_error>([&] { ufx::from_dlpack<V2>(t); }, "the tensor's extent 1 is negative (-3)");
  t = host_tensor(buf, f32, 2, nullptr, nullptr);
  check_error<ufx::shape_error>([&] { ufx::from_dlpack<V2>(t); }, "shape pointer is null");

  t = host_tensor(nullptr, f32, 2, shape, nullptr);
  check_error<ufx::value_error>([&] { ufx::from_dlpack<V2>(t); }, "data pointer is null");
  t = host_tensor(buf, f32, 2, shape, nullptr, 2);
  check_error<ufx::value_error>([&] { ufx::from_dlpack<V2>(t); },
                                "plus byte_offset (2) is not aligned for the view's element type (4 bytes)");
  check_error<ufx::value_error>([&] { ufx::from_dlpack<V2>(static_cast<const DLManagedTensor*>(nullptr)); },
                                "the tensor is null");

  // residency
  t = host_tensor(buf, f32, 2, shape, nullptr);
  CHECK(msg([&] { ufx::from_dlpack<DV2>(t); }) ==
        "ufx::from_dlpack<ufx::device_view<float32, 2>>: the tensor is in host memory (kDLCPU (host memory)); read "
        "it as a ufx::ndview");
  t.device = DLDevice{kDLCUDAHost, 0}; // pinned host memory reads as host memory
  CHECK(ufx::from_dlpack<V2>(t)(1, 2) == 0);
  t.device = DLDevice{kDLOpenCL, 1};
  check_error<ufx::device_error>([&] { ufx::from_dlpack<DV2>(t); },
                                 "the tensor's memory is kDLOpenCL device 1; ufx reads");
  t.device = DLDevice{kDLCUDAManaged, 0};
  check_error<ufx::device_error>([&] { ufx::from_dlpack<DV2>(t); }, "kDLCUDAManaged (CUDA managed memory); ufx reads");
  t.device = DLDevice{static_cast<DLDeviceType>(ufx::dlpack::device_type_sim), 0}; // a lie: host memory
  CHECK(msg([&] { ufx::from_dlpack<DV2>(t); }) ==
        "ufx::from_dlpack<ufx::device_view<float32, 2>>: the tensor says its memory is kDLExtDev (ufx::sim) device "
        "0, but its data pointer is in host");
  const two_sim_devices two;
  auto on_sim = ufx::to_device(ufx_test::iota_f(6), ufx::sim.device(0));
  t.data = on_sim.data();
  t.device.device_id = 1; // sim memory of device 0, said to be device 1's
  check_error<ufx::device_error>([&] { ufx::from_dlpack<DV2>(t); }, "but its data pointer is in ufx::sim device 0");
  t.device = DLDevice{kDLCUDA, 0};
  if (!ufx::cuda_available())
    check_error<ufx::device_error>([&] { ufx::from_dlpack<DV2>(t); },
                                   "the tensor is in kDLCUDA device 0, and ufx::cuda is not available here: ");

  // versioned tensors: the major version, and the read-only flag
  ufx::dlpack::DLManagedTensorVersioned mv{};
  mv.version = {2, 0};
  mv.dl_tensor = host_tensor(buf, f32, 2, shape, nullptr);
  CHECK(msg([&] { ufx::from_dlpack<V2>(&mv); }) ==
        "ufx::from_dlpack<ufx::ndview<float32, 2>>: the tensor is DLPack 2.0; ufx reads DLPack 1.x");
  mv.version = {1, 3};
  mv.flags = ufx::dlpack::flag_read_only;
  CHECK(ufx::from_dlpack<V2>(&mv).size() == 6); // read-only into const: fine
  check_error<ufx::value_error>([&] { ufx::from_dlpack<ufx::ndview<float, 2>>(&mv); },
                                "the tensor is read-only (DLPACK_FLAG_BITMASK_READ_ONLY); read it into a "
                                "view of const T");
  // a tensor without a deleter: adopting it calls nothing
  DLManagedTensor bare{};
  ufx::adopt_dlpack(&bare).reset();
}
