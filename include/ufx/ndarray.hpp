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
#include "ufx/detail/lib/host_memory.hpp"
#include "ufx/detail/arrays/ndarray.hpp"
#include "ufx/errors.hpp"
#include "ufx/ndview.hpp"

namespace ufx {

/// An owning host array of rank R with elements of type T, contiguous and row-major. Copies copy the
/// elements; moves take the memory: a moved-from array holds none, and a call given it throws
/// ufx::value_error saying it is empty.
template <class T, int R>
class ndarray {
  static_assert(!std::is_const_v<T>, "ufx::ndarray: the element type must not be const");

public:
  /// The element type.
  using value_type = T;
  /// The shape: one extent per dimension.
  using shape_type = std::array<index_t, R>;
  /// The number of dimensions, R.
  static constexpr int rank = R;

  /// An array with extent 0 in every dimension and no memory.
  ndarray() requires(R > 0) = default;
  /// A 0-d array: no extents and one element, value-initialised (NumPy's `np.zeros(())`), so that
  /// `z() = 1` and `ufx::mean(x, ufx::out(z))` have an element to write.
  ndarray() requires(R == 0) : ndarray(shape_type{}, T{}) {}

  /// Allocates `shape` elements. Arithmetic elements are left uninitialised, so that the first
  /// write (often a parallel kernel) is also the first touch of the pages. Arrays of 4 MiB or
  /// more are huge-page aligned, and reuse a freed array's memory of the same size
  /// (detail/lib/host_memory.hpp).
  explicit ndarray(const shape_type& shape) : shape_(shape) {
    for (index_t e : shape)
      if (e < 0) throw shape_error("ufx::ndarray: negative extent in shape");
    data_ = detail::host_array<T>(static_cast<std::size_t>(size()));
  }
  /// Allocates `shape` elements, each a copy of `fill`. A negative extent throws ufx::shape_error.
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

  /// A new array with a copy of other's shape and elements.
  ndarray(const ndarray& other) : ndarray(other.shape_) { std::copy(other.begin(), other.end(), begin()); }
  /// Takes the other array's memory; no element is copied.
  ndarray(ndarray&&) noexcept = default;
  /// Replaces this array with a copy of other's shape and elements (new memory).
  ndarray& operator=(const ndarray& other) {
    if (this != &other) *this = ndarray(other);
    return *this;
  }
  /// Takes the other array's memory, releasing this one's; no element is copied.
  ndarray& operator=(ndarray&&) noexcept = default;

  /// The element at index `(i...)`, one integer per dimension; indices are checked as ndview's are
  /// (ufx::shape_error).
  template <class... I>
  requires(sizeof...(I) == R && (std::is_integral_v<I> && ...)) T& operator()(I... i) { return view()(i...); }
  /// The same, read-only.
  template <class... I>
  requires(sizeof...(I) == R && (std::is_integral_v<I> && ...)) const T& operator()(I... i) const {
    return view()(i...);
  }

  /// The extents.
  const shape_type& shape() const { return shape_; }
  /// The extent of axis k.
  index_t extent(int k) const { return shape_[k]; }
  /// The number of elements: the product of the extents.
  index_t size() const {
    index_t n = 1;
    for (index_t e : shape_) n *= e;
    return n;
  }
  /// True when the array has no elements.
  bool empty() const { return size() == 0; }
  /// The first element (the elements are contiguous, row-major).
  T* data() { return data_.get(); }
  /// The same, read-only.
  const T* data() const { return data_.get(); }
  /// The first element, as an iterator over all elements in row-major order.
  T* begin() { return data(); }
  /// Past the last element.
  T* end() { return data() + size(); }
  /// The same as begin(), read-only.
  const T* begin() const { return data(); }
  /// The same as end(), read-only.
  const T* end() const { return data() + size(); }

  /// A row-major view of the elements (valid while the array keeps its memory).
  ndview<T, R> view() UFX_LIFETIMEBOUND { return ndview<T, R>(data(), shape_); }
  /// The same, read-only.
  ndview<const T, R> view() const UFX_LIFETIMEBOUND { return ndview<const T, R>(data(), shape_); }

  /// True when a and b have the same shape and equal elements.
  friend bool operator==(const ndarray& a, const ndarray& b) {
    return a.shape_ == b.shape_ && std::equal(a.begin(), a.end(), b.begin());
  }

private:
  detail::host_array_ptr<T> data_;
  shape_type shape_{};
};

} // namespace ufx
