#pragma once
/// \file ndarray.hpp
/// `ufx::ndarray<T, R>`: an owning host array, row-major.
///
/// Example.
///   ufx::ndarray<float, 2> a({3, 4});      // uninitialised for arithmetic T
///   ufx::ndarray<float, 2> z({3, 4}, 0.f); // filled
///   auto v = ufx::ndarray<int, 1>::of({1, 2, 3});
///   ufx::ndarray<float, 2> m{{1, 2}, {3, 4}}; // nested lists (rank >= 2); ragged: ufx::shape_error
///   a(1, 2) = 5.0f;  a.shape();  a.view();
///
/// Errors. A negative extent: ufx::shape_error; a ragged nested list: ufx::shape_error naming the
/// row.
///
/// Targets. None: an ndarray lives in host memory, and its constructors and copies run on the
/// calling thread.

#include <algorithm>
#include <array>
#include <initializer_list>
#include <memory>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/detail/host_memory.hpp"
#include "ufx/detail/ndarray.hpp"
#include "ufx/errors.hpp"
#include "ufx/ndview.hpp"

namespace ufx {

template <class T, int R>
class ndarray {
  static_assert(!std::is_const_v<T>, "ufx::ndarray: the element type must not be const");

public:
  using value_type = T;
  using shape_type = std::array<index_t, R>;
  static constexpr int rank = R;

  ndarray() = default;

  /// Allocates `shape` elements. Arithmetic elements are left uninitialised, so that the first
  /// write (often a parallel kernel) is also the first touch of the pages. Arrays of 4 MiB or
  /// more are huge-page aligned, and reuse a freed array's memory of the same size
  /// (detail/host_memory.hpp).
  explicit ndarray(const shape_type& shape) : shape_(shape) {
    for (index_t e : shape)
      if (e < 0) throw shape_error("ufx::ndarray: negative extent in shape");
    data_ = detail::host_array<T>(static_cast<std::size_t>(size()));
  }
  ndarray(const shape_type& shape, const T& fill) : ndarray(shape) { std::fill(begin(), end(), fill); }

  /// A rank-1 array holding `values`: `ufx::ndarray<int, 1>::of({1, 2, 3})`. (A constructor
  /// from a list would make `ndarray<float, 1>({5})` ambiguous between a shape and a value.)
  static ndarray of(std::initializer_list<T> values) requires(R == 1) {
    ndarray a(shape_type{static_cast<index_t>(values.size())});
    std::copy(values.begin(), values.end(), a.begin());
    return a;
  }

  /// An array of rank >= 2 from nested lists, as NumPy's `np.array([[1, 2], [3, 4]])`:
  /// `ufx::ndarray<float, 2> a{{1, 2}, {3, 4}}`. Every row must have the length of the first
  /// (else ufx::shape_error naming the row). Rank 1 has `of`, since `ndarray<float, 1>({5})` is a shape.
  ndarray(typename detail::nested_list<T, R>::type values) requires(R >= 2) {
    shape_type shape{};
    detail::nested_extents<T, R>(values, shape.data());
    *this = ndarray(shape);
    index_t path[R] = {};
    T* out = data();
    detail::nested_copy<T, R>(values, shape.data(), path, 0, out);
  }

  ndarray(const ndarray& other) : ndarray(other.shape_) { std::copy(other.begin(), other.end(), begin()); }
  ndarray(ndarray&&) noexcept = default;
  ndarray& operator=(const ndarray& other) {
    if (this != &other) *this = ndarray(other);
    return *this;
  }
  ndarray& operator=(ndarray&&) noexcept = default;

  template <class... I>
  requires(sizeof...(I) == R && (std::is_integral_v<I> && ...)) T& operator()(I... i) { return view()(i...); }
  template <class... I>
  requires(sizeof...(I) == R && (std::is_integral_v<I> && ...)) const T& operator()(I... i) const {
    return view()(i...);
  }

  const shape_type& shape() const { return shape_; }
  index_t extent(int k) const { return shape_[k]; }
  index_t size() const {
    index_t n = 1;
    for (index_t e : shape_) n *= e;
    return n;
  }
  bool empty() const { return size() == 0; }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }

  ndview<T, R> view() { return ndview<T, R>(data(), shape_); }
  ndview<const T, R> view() const { return ndview<const T, R>(data(), shape_); }

  friend bool operator==(const ndarray& a, const ndarray& b) {
    return a.shape_ == b.shape_ && std::equal(a.begin(), a.end(), b.begin());
  }

private:
  detail::host_array_ptr<T> data_;
  shape_type shape_{};
};

} // namespace ufx
