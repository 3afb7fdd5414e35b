#pragma once
/// \file adapter.hpp
/// Teaching ufx a container: specialise `ufx::adapter<C>` in one header, and every front door
/// (vectorize, guvectorize, the reductions, to_device) accepts `C`.
///
/// The contract. `adapter<C>` has
/// - `static constexpr ufx::container_kind kind`: how C votes on the container a call returns
///   (`sequence` like std::vector, `eigen`, `ufx_host` like ndarray, `device` like device_array);
/// - `static constexpr int rank` and `using value_type`;
/// - `static ufx::operand<const value_type, rank> in(const C&)`: a strided view of the elements
///   and the memory they live in (`ufx::space_of(view)` finds it from the pointer: host memory,
///   or a device's); the operand may own a temporary through `keep` when C has no storage;
/// - for containers ufx may write (`ufx::out(c)`): `static ufx::operand<value_type, rank> out(C&)`;
/// - optionally `static constexpr bool host_dense = true` when C's elements are always in host
///   memory and C-contiguous (std::vector, std::array, ufx::ndarray): a call that names no target
///   then compiles no device target's path for it, and a full reduction of it to a value only the
///   dense one (docs/performance.md, "Compile times"). Without it C may hold device memory.
/// A call returning a new result of a `sequence` kind makes a `std::vector`; adapters of other
/// kinds can give `template <class T> using result = ...` and `static result<T> make(...)` (see
/// eigen.hpp).
///
/// Example.
/// \code
///   template <class T>
///   struct ufx::adapter<my::buffer<T>> {
///     static constexpr ufx::container_kind kind = ufx::container_kind::ufx_host;
///     static constexpr int rank = 1;
///     using value_type = T;
///     static ufx::operand<const T, 1> in(const my::buffer<T>& b) {
///       return {ufx::ndview<const T, 1>(b.ptr(), {b.size()})};
///     }
///     static ufx::operand<T, 1> out(my::buffer<T>& b) { return {ufx::ndview<T, 1>(b.ptr(), {b.size()})}; }
///   };
/// \endcode

#include <memory>
#include <type_traits>
#include <utility>

#include "ufx/casting.hpp"
#include "ufx/config.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/ndview.hpp"
#include "ufx/targets.hpp"

namespace ufx {

/// How an argument's container decides the result container (docs/vectorize.md, "Result containers").
enum class container_kind { scalar, sequence, eigen, ufx_host, device };

/// Specialise to teach ufx a container. Members: `kind`, `rank`, `value_type`, `in(const C&)`,
/// and for writable containers `out(C&)`.
template <class C, class Enable = void>
struct adapter;

/// An array argument as ufx sees it: a strided view of its elements and where they live.
template <class E, int R>
struct operand {
  /// The element type as viewed (const for an input).
  using element_type = E;
  /// The element type without const or volatile.
  using value_type = std::remove_cv_t<E>;
  /// The number of dimensions.
  static constexpr int rank = R;
  /// The elements: data pointer, shape and strides.
  ndview<E, R> view;
  /// The memory the elements live in (host, or a device of ufx::cuda or ufx::sim).
  memory_space space = memory_space::host;
  /// Owns a temporary when the argument had to be evaluated first (empty otherwise).
  std::shared_ptr<void> keep;

  /// An empty operand (a null view in host memory).
  operand() = default;
  /// The view `v` of elements in memory space `s`, keeping `k` alive as long as the operand.
  operand(const ndview<E, R>& v, const memory_space& s = memory_space::host, std::shared_ptr<void> k = {})
      : view(v), space(s), keep(std::move(k)) {}
};

namespace detail {
template <class E, int R>
using array_operand = operand<E, R>;

template <class V>
struct scalar_operand {
  using value_type = V;
  static constexpr int rank = 0;
  V value;
};

/// Byte range [lo, hi) a view's elements occupy (lo == hi for an empty view).
template <class T, int R>
std::pair<const char*, const char*> byte_range(const ndview<T, R>& v) {
  auto* p = reinterpret_cast<const char*>(v.data());
  if (v.size() == 0) return {p, p};
  index_t lo = 0, hi = 0;
  for (int k = 0; k < R; ++k) {
    const index_t span = (v.extent(k) - 1) * v.stride(k);
    (span < 0 ? lo : hi) += span;
  }
  return {p + lo * static_cast<index_t>(sizeof(T)), p + (hi + 1) * static_cast<index_t>(sizeof(T))};
}

/// True when two views share any byte.
template <class A, class B>
bool overlaps(const A& a, const B& b) {
  if (a.size() == 0 || b.size() == 0) return false;
  const auto [alo, ahi] = byte_range(a);
  const auto [blo, bhi] = byte_range(b);
  return alo < bhi && blo < ahi;
}

/// Where a view's elements live: found by asking each device runtime (the sim's arena; CUDA's
/// cudaPointerGetAttributes), else host memory.
template <class T, int R>
memory_space space_of_view(const ndview<T, R>& v) {
  const auto [lo, hi] = byte_range(v);
  if (lo == nullptr) return memory_space::host;
  return space_of(lo, static_cast<std::size_t>(hi - lo));
}

} // namespace detail

/// A type ufx takes as an array operand: one with a `ufx::adapter` (std::vector, std::array,
/// std::span, ndarray, ndview, device_array, device_view; Eigen and mdspan through their headers).
template <class C>
concept array_like = requires {
  adapter<std::remove_cvref_t<C>>::rank;
};

/// A type ufx takes as a scalar operand (broadcast everywhere): a number NumPy has a kind for (bool,
/// the integers and floating types, ufx::float16, ufx::bfloat16, std::complex).
template <class C>
concept scalar_like = detail::numeric_kind<std::remove_cvref_t<C>>::kind != 0;

/// Anything a ufx call accepts as an operand.
template <class C>
concept operand_like = array_like<C> || scalar_like<C>;

/// Where a view's elements live: host memory, or a device's (found by asking each device runtime:
/// the sim's arena, CUDA's cudaPointerGetAttributes).
template <class T, int R>
memory_space space_of(const ndview<T, R>& v) {
  return detail::space_of_view(v);
}

} // namespace ufx
