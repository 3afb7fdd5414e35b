#pragma once
/// \file ndview.hpp
/// `ufx::ndview<T, R>`: a non-owning strided view (pointer, shape, strides in elements).
///
/// Element access `v(i, j, ...)` works on host and device. A view never owns memory; it may point
/// into host memory or into a device allocation (see device_array.hpp).
///
/// Example.
///   float buf[12];
///   ufx::ndview<float, 2> v(buf, {3, 4});   // row-major 3x4
///   v(1, 2) = 5.0f;

#include <array>
#include <type_traits>

#include "ufx/config.hpp"

namespace ufx {

/// A non-owning strided view of rank R over elements of type T (const T for a read-only view), in
/// host or device memory. Copying it copies the pointer, not the elements.
template <class T, int R>
class ndview {
  static_assert(R >= 0 && R <= max_rank, "ufx::ndview: rank must be between 0 and ufx::max_rank");

public:
  /// The element type as viewed, const for a read-only view.
  using element_type = T;
  /// The element type without const or volatile.
  using value_type = std::remove_cv_t<T>;
  /// The number of dimensions, R.
  static constexpr int rank = R;

  /// A null view: no data, every extent and stride 0.
  constexpr ndview() = default;

  /// A row-major contiguous view of `shape`.
  UFX_HD ndview(T* data, const std::array<index_t, R>& shape) : data_(data) {
    index_t s = 1;
    for (int k = R - 1; k >= 0; --k) {
      ext_[k] = shape[k];
      str_[k] = s;
      s *= shape[k];
    }
  }

  /// A view with explicit strides, counted in elements (not bytes).
  UFX_HD ndview(T* data, const std::array<index_t, R>& shape, const std::array<index_t, R>& strides) : data_(data) {
    for (int k = 0; k < R; ++k) {
      ext_[k] = shape[k];
      str_[k] = strides[k];
    }
  }

  /// A `const` view of a mutable one.
  template <class U>
  requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>) UFX_HD ndview(const ndview<U, R>& other)
      : data_(other.data()), checks_(other.check_bits()) {
    for (int k = 0; k < R; ++k) {
      ext_[k] = other.extent(k);
      str_[k] = other.stride(k);
    }
  }

  /// The element at index `(i...)`, one integer per dimension, on host and device. On the host, with
  /// UFX_BOUNDS_CHECK or an index_checked view, an index out of range throws ufx::shape_error.
  /// Always inlined, so that each access in a kernel is its own site in ufx::profile (as it is an
  /// instruction of its own on a GPU), in unoptimised builds too.
  template <class... I>
  requires(sizeof...(I) == R && (std::is_integral_v<I> && ...)) UFX_HD UFX_ALWAYS_INLINE T& operator()(I... i) const {
    const std::array<index_t, R> idx = {static_cast<index_t>(i)...};
    index_t off = 0;
    for (int k = 0; k < R; ++k) off += idx[k] * str_[k];
#if !defined(__CUDA_ARCH__)
    // A view built here (a gufunc's core, a loop of the user's) has checks_ 0, a constant the
    // compiler sees once the access is inlined: no branch is left in a Release build's loops. The
    // sim's kernel arguments have it set. The checks run out of line on copies of the view and the
    // index: were the view's own address passed to a function the compiler cannot see, every later
    // access would reload the view from memory and test checks_ again, and the caller's loop would
    // lose its vector code (tests/guards holds it).
    if (UFX_BOUNDS_CHECK || checks_) [[unlikely]]
      check_access(*this, idx);
#endif
    return data_[off];
  }

  /// This view with its element accesses' indices checked on the host in every build (an index out
  /// of range throws ufx::shape_error; never checked in device code). ufx::sim hands its kernels
  /// their arrays so; UFX_BOUNDS_CHECK=1 checks every view.
  UFX_HD ndview index_checked(bool on = true) const {
    ndview v = *this;
    v.checks_ = static_cast<unsigned char>(on ? (v.checks_ | checks_index) : (v.checks_ & ~checks_index));
    return v;
  }
  /// This view index_checked, with each element access also logged for the sim's global-memory
  /// checks (races, uninitialised reads): how ufx::sim hands a raw kernel its arrays. Only a
  /// kernel's thread on the sim may access such a view.
  UFX_HD ndview tracked() const {
    ndview v = *this;
    v.checks_ = static_cast<unsigned char>(checks_index | tracks);
    return v;
  }
  /// Whether element accesses check their indices on the host (index_checked, or UFX_BOUNDS_CHECK).
  UFX_HD bool index_checks() const { return UFX_BOUNDS_CHECK || checks_ != 0; }
  /// Whether element accesses are logged for the sim's checks (tracked).
  UFX_HD bool is_tracked() const { return (checks_ & tracks) != 0; }

  /// The pointer to the element at index 0 in every dimension.
  UFX_HD T* data() const { return data_; }
  /// index_checked and tracked, as bits (for the const view of a mutable one).
  UFX_HD unsigned char check_bits() const { return checks_; }
  /// The extent of axis k.
  UFX_HD index_t extent(int k) const { return ext_[k]; }
  /// The stride of axis k, in elements.
  UFX_HD index_t stride(int k) const { return str_[k]; }
  /// The number of elements: the product of the extents (1 for rank 0).
  UFX_HD index_t size() const {
    index_t n = 1;
    for (int k = 0; k < R; ++k) n *= ext_[k];
    return n;
  }
  /// The extents, as an array.
  std::array<index_t, R> shape() const {
    std::array<index_t, R> s{};
    for (int k = 0; k < R; ++k) s[k] = ext_[k];
    return s;
  }
  /// The strides in elements, as an array.
  std::array<index_t, R> strides() const {
    std::array<index_t, R> s{};
    for (int k = 0; k < R; ++k) s[k] = str_[k];
    return s;
  }
  /// True when the elements are dense and in row-major order.
  UFX_HD bool is_contiguous() const {
    index_t s = 1;
    for (int k = R - 1; k >= 0; --k) {
      if (ext_[k] != 1 && str_[k] != s) return false;
      s *= ext_[k];
    }
    return true;
  }

private:
#if !defined(__CUDA_ARCH__)
  /// operator()'s checks: the index against the extents, then the sim's log of a tracked access.
  UFX_COLD static void check_access(const ndview v, const std::array<index_t, R> idx) {
    for (int k = 0; k < R; ++k)
      if (idx[k] < 0 || idx[k] >= v.ext_[k]) detail::ndview_out_of_range(R, idx.data(), v.ext_);
    if (v.checks_ & tracks) {
      index_t off = 0;
      for (int k = 0; k < R; ++k) off += idx[k] * v.str_[k];
      detail::sim_global_touch(v.data_ + off, sizeof(T), std::is_const_v<T>,
                               sizeof(T) >= 4 || std::is_same_v<std::remove_cv_t<T>, bool>, UFX_ACCESS_SITE());
    }
  }
#endif

  T* data_ = nullptr;
  index_t ext_[R == 0 ? 1 : R] = {};
  index_t str_[R == 0 ? 1 : R] = {};
  static constexpr unsigned char checks_index = 1, tracks = 2;
  unsigned char checks_ = 0; // index_checked(), tracked(); the same layout on host and device
};

} // namespace ufx
