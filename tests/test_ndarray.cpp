// ndview and ndarray: shapes, strides, element access, copies.
#include "common.hpp"

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
