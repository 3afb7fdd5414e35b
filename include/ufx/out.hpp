#pragma once
/// \file out.hpp
/// `ufx::out(dst...)`: write a call's results into existing containers instead of new ones.
///
/// The last argument of a call may be `ufx::out(dst)` (one output) or `ufx::out(d0, d1, ...)`
/// (functions with several outputs). Each destination must have exactly the broadcast shape of
/// the call (outputs are never broadcast) and an element type the result converts to without
/// changing kind (NumPy's same_kind rule: no float to integer, nothing to bool but bool).
/// A destination may be one of the inputs (in place); partial overlap with an input is handled as
/// NumPy does, by reading from a copy of that input.
///
/// Example.
///   std::vector<float> z(x.size());
///   add(x, y, ufx::out(z));
///   add(x, y, ufx::out(x));     // in place

#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/casting.hpp"

namespace ufx {

/// The destinations `ufx::out(dst...)` makes, passed as a call's last argument.
template <class... D>
struct out_t {
  static_assert(sizeof...(D) > 0, "ufx::out: name at least one destination");
  /// The destinations: lvalues by reference, temporaries (Eigen blocks, views) by value.
  std::tuple<D...> dst;
};

/// Destinations for a call's outputs.
template <class... D>
out_t<D...> out(D&&... d) {
  return out_t<D...>{std::tuple<D...>(std::forward<D>(d)...)};
}

/// NumPy's `where=`: `f(x, y, ufx::where(mask), ufx::out(dst))` computes only where `mask` (bool elements,
/// broadcast as an operand) is true and leaves dst's other elements as they are; `f.reduce(x, ufx::where(mask))`
/// reduces only those elements. An elementwise call with where needs ufx::out (NumPy would leave the other elements
/// of a new array uninitialised).
template <class M>
struct where_t {
  /// The mask: an lvalue by reference, a temporary by value.
  M mask;
};
/// The positions a call computes (see where_t), given before ufx::out.
template <class M>
where_t<M> where(M&& mask) {
  return where_t<M>{std::forward<M>(mask)};
}

namespace detail {
template <class T>
struct is_where : std::false_type {};
template <class M>
struct is_where<where_t<M>> : std::true_type {};
template <class T>
inline constexpr bool is_where_v = is_where<std::remove_cvref_t<T>>::value;

template <class T>
struct is_out : std::false_type {};
template <class... D>
struct is_out<out_t<D...>> : std::true_type {};

/// NumPy's same_kind casting (casting.hpp).
template <class From, class To>
constexpr bool same_kind_castable() {
#if defined(__CUDACC__)
  static_assert(device_converts<From, To>,
                "ufx::out: in a file nvcc compiles, a std::complex result goes only into a std::complex destination of "
                "its own precision: nvcc compiles std::complex's conversion between precisions to no code in device "
                "code (docs/element_types.md, \"Complex\"). Return the destination's type, built from the parts");
#endif
  return can_cast<From, To>(casting::same_kind);
}
} // namespace detail
} // namespace ufx
