// ndview and ndarray: shapes, strides, element access, copies.
#include "common.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <ufx/detail/lib/host_memory.hpp>

TEST_CASE("an ndarray is row-major and indexes like NumPy") {
  ufx::ndarray<float, 2> a({3, 4}, 0.f);
  CHECK(a.shape() == std::array<ufx::index_t, 2>{3, 4});
  CHECK(a.size() == 12);
  a(1, 2) = 5.f;
  CHECK(a.data()[1 * 4 + 2] == 5.f);
  auto v = a.view();
  CHECK(v.stride(0) == 4);
  CHECK(v.stride(1) == 1);
  CHECK(v(1, 2) == 5.f);
  CHECK(v.is_contiguous());
}

TEST_CASE("an ndarray copies deeply and moves cheaply") {
  auto a = ufx::ndarray<int, 1>::of({1, 2, 3});
  auto b = a;
  b(0) = 7;
  CHECK(a(0) == 1);
  auto c = std::move(b);
  CHECK(c(0) == 7);
  CHECK(c == ufx::ndarray<int, 1>::of({7, 2, 3}));
}

TEST_CASE("an ndarray rejects a negative extent") {
  CHECK_THROWS_AS((ufx::ndarray<float, 2>({2, -1})), ufx::shape_error);
}

TEST_CASE("an ndview with explicit strides walks a transposed buffer") {
  float buf[6] = {0, 1, 2, 3, 4, 5}; // 2x3 row-major
  ufx::ndview<float, 2> t(buf, {3, 2}, {1, 3});
  CHECK(t(0, 1) == 3.f);
  CHECK(t(2, 0) == 2.f);
  CHECK(t.size() == 6);
  CHECK_FALSE(t.is_contiguous());
  ufx::ndview<const float, 2> ct = t;
  CHECK(ct(2, 1) == 5.f);
}

TEST_CASE("a rank-0 ndarray holds one element") {
  ufx::ndarray<double, 0> s(std::array<ufx::index_t, 0>{}, 2.5);
  CHECK(s.size() == 1);
  CHECK(s() == 2.5);
}

TEST_CASE("a default-constructed rank-0 ndarray owns one zero element, as np.zeros(()) does") {
  ufx::ndarray<double, 0> z;
  CHECK(z.size() == 1);
  REQUIRE(z.data() != nullptr);
  CHECK(z() == 0.0);
  z() = 1;
  CHECK(z() == 1.0);
  ufx::ndarray<double, 0> c = z;
  CHECK(c() == 1.0);
  // rank >= 1: extent 0, no memory, nothing to read
  ufx::ndarray<double, 2> e;
  CHECK(e.size() == 0);
  CHECK(e.begin() == e.end());
}

TEST_CASE("a moved-from ndarray passed to a call says it is empty") {
  auto twice = ufx::vectorize([](double a) { return 2 * a; });
  ufx::ndarray<double, 1> a({3}, 1.0);
  auto b = std::move(a);
  CHECK(ufx_test::error_message([&] { (void)twice(a); }) ==
        "ufx::vectorize: the ndarray is empty (moved from): it holds no memory for its shape");
  CHECK_THROWS_AS(twice(b, ufx::out(a)), ufx::value_error);
  ufx::ndarray<double, 0> z;
  auto y = std::move(z);
  CHECK_THROWS_AS(ufx::mean(b, ufx::out(z)), ufx::value_error);
  ufx::mean(b, ufx::out(y));
  CHECK(y() == 1.0);
}

#if defined(__linux__)
TEST_CASE("ndarrays of 4 MiB or more are 2 MiB aligned and reuse a freed array's memory of the same size") {
  using ufx::detail::host_cache;
  ufx::detail::host_cache_release();
  const ufx::index_t n = (std::size_t{8} << 20) / sizeof(float); // 8 MiB
  const float* first = nullptr;
  {
    ufx::ndarray<float, 1> a({n}, 1.f);
    first = a.data();
    CHECK(reinterpret_cast<std::uintptr_t>(a.data()) % (std::uintptr_t{2} << 20) == 0);
    CHECK(a(n - 1) == 1.f);
  }
  CHECK(host_cache().blocks == 1);
  CHECK(host_cache().bytes == std::size_t{8} << 20);
  {
    ufx::ndarray<float, 2> b({n / 2, 2}); // the same bytes, another shape: the same block
    CHECK(b.data() == first);
    CHECK(host_cache().blocks == 0);
    ufx::ndarray<float, 1> c({n + 1}); // 2 MiB more (rounded up): a new block
    CHECK(c.data() != first);
    CHECK(reinterpret_cast<std::uintptr_t>(c.data()) % (std::uintptr_t{2} << 20) == 0);
  }
  { // at most 4 freed blocks are kept
    std::vector<ufx::ndarray<float, 1>> many;
    for (int k = 0; k < 6; ++k) many.emplace_back(ufx::ndarray<float, 1>::shape_type{n});
  }
  CHECK(host_cache().blocks == 4);
  ufx::detail::host_cache_release();
  CHECK(host_cache().blocks == 0);
  CHECK(host_cache().bytes == 0);

  ufx::ndarray<double, 1> small({3}, 2.0); // small arrays: 64-byte aligned, from operator new
  CHECK(reinterpret_cast<std::uintptr_t>(small.data()) % 64 == 0);
  ufx::ndarray<std::string, 1> words({(std::size_t{4} << 20) / sizeof(std::string) + 1}); // constructed and destroyed
  CHECK(words(0).empty());
  words(1) = std::string(100, 'x'); // a heap string, freed by the array's destructor (ASan checks)
  CHECK(words.extent(0) > 0);
}
#endif
