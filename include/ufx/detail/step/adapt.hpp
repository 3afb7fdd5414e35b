#pragma once
// Step 1 of a call: each argument adapted into an operand (a strided view and its memory space). Only an adapter knows
// a container type; a new container means a new adapter specialisation (the contract: ufx/adapter.hpp). The standard
// containers' adapters are here, Eigen's in ufx/eigen.hpp, cuda::std::mdspan's in ufx/mdspan.hpp.
#include <array>
#include <memory>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ufx/adapter.hpp"
#include "ufx/config.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"
#include "ufx/out.hpp"

namespace ufx {

namespace detail {
/// The adapter of std::vector and std::array (C of T): a dense 1-D host view (no per-unit namespace, as adapters).
/// Storage is false for std::vector<bool>, which has no element storage.
template <class C, class T, bool Storage = true>
struct host_sequence_adapter {
  static_assert(Storage,
                "ufx: std::vector<bool> has no element storage; use std::vector<char> or ufx::ndarray<bool, 1>");
  static constexpr container_kind kind = container_kind::sequence;
  static constexpr bool host_dense = true;
  static constexpr int rank = 1;
  using value_type = T;
  static array_operand<const T, 1> in(const C& v) {
    return {ndview<const T, 1>(v.data(), {static_cast<index_t>(v.size())}), memory_space::host, {}};
  }
  static array_operand<T, 1> out(C& v) {
    return {ndview<T, 1>(v.data(), {static_cast<index_t>(v.size())}), memory_space::host, {}};
  }
};
} // namespace detail

template <class T, class A>
struct adapter<std::vector<T, A>> : detail::host_sequence_adapter<std::vector<T, A>, T, !std::is_same_v<T, bool>> {};
template <class T, std::size_t N>
struct adapter<std::array<T, N>> : detail::host_sequence_adapter<std::array<T, N>, T> {};

template <class T, std::size_t E>
struct adapter<std::span<T, E>> {
  static constexpr container_kind kind = container_kind::sequence;
  static constexpr int rank = 1;
  using value_type = std::remove_cv_t<T>;
  static detail::array_operand<const value_type, 1> in(const std::span<T, E>& v) {
    const ndview<const value_type, 1> view(v.data(), {static_cast<index_t>(v.size())});
    return {view, detail::space_of_view(view), {}};
  }
  static detail::array_operand<T, 1> out(const std::span<T, E>& v) requires(!std::is_const_v<T>) {
    const ndview<T, 1> view(v.data(), {static_cast<index_t>(v.size())});
    return {view, detail::space_of_view(view), {}};
  }
};

template <class T, int R>
struct adapter<ndarray<T, R>> {
  static constexpr container_kind kind = container_kind::ufx_host;
  static constexpr bool host_dense = true;
  static constexpr int rank = R;
  using value_type = T;
  static detail::array_operand<const T, R> in(const ndarray<T, R>& a) {
    require_memory(a);
    return {a.view(), memory_space::host, {}};
  }
  static detail::array_operand<T, R> out(ndarray<T, R>& a) {
    require_memory(a);
    return {a.view(), memory_space::host, {}};
  }
  // a moved-from array keeps its shape and holds no memory
  static void require_memory(const ndarray<T, R>& a) {
    if (a.data() == nullptr && a.size() > 0)
      throw value_error(std::string(detail::current_call) +
                        ": the ndarray is empty (moved from): it holds no memory for its shape");
  }
};

/// A view lives where its pointer points: ufx asks each device runtime (the sim's arena, CUDA's
/// cudaPointerGetAttributes), so a view into device memory is a device operand.
template <class T, int R>
struct adapter<ndview<T, R>> {
  static constexpr container_kind kind = container_kind::ufx_host;
  static constexpr int rank = R;
  using value_type = std::remove_cv_t<T>;
  static detail::array_operand<const value_type, R> in(const ndview<T, R>& v) {
    const ndview<const value_type, R> view(v.data(), v.shape(), v.strides());
    return {view, detail::space_of_view(view), {}};
  }
  static detail::array_operand<T, R> out(const ndview<T, R>& v) requires(!std::is_const_v<T>) {
    return {v, detail::space_of_view(v), {}};
  }
};

namespace detail {
// The adapting steps are compiled per configuration (config.hpp's UFX_TU_NAMESPACE), as every function a call reaches
// is: a baseline unit and an AVX2 unit of one program must not share them (tests/isa_mix found adapt_in shared, with
// AVX code, once tests built at -O1, where it is no longer inlined).
UFX_TU_NAMESPACE_BEGIN

/// True when an argument of type A can hold host memory only: a scalar, or a container whose adapter says `host_dense`
/// (std::vector, std::array, ufx::ndarray). Others may point into a device's memory (ndview, std::span, Eigen maps,
/// device arrays: where the data lies decides).
template <class A>
constexpr bool host_only_arg() {
  using C = std::remove_cvref_t<A>;
  if constexpr (scalar_like<C>) return true;
  else if constexpr (requires { adapter<C>::host_dense; }) return adapter<C>::host_dense;
  else return false;
}
template <class OutT>
struct host_only_out : std::true_type {}; // no ufx::out
template <class... D>
struct host_only_out<out_t<D...>> : std::bool_constant<(host_only_arg<D>() && ...)> {};

/// Whether a call with these arguments (and ufx::out destinations OutT, or void) can find its data on a device:
/// run.hpp's device_set_of, which decides what a call naming no target compiles.
template <class OutT, class... Args>
inline constexpr bool reaches_device =
    !(host_only_out<std::remove_const_t<OutT>>::value && (host_only_arg<Args>() && ...));

/// True when the compiler spells C's name starting with `prefix` (such as "Eigen::"): for the messages of adapt_in,
/// which cannot name a library whose headers are not included.
template <class C>
constexpr bool from_namespace(std::string_view prefix) {
  // g++ "[with C = Eigen::Matrix<...>; ...]", clang "[C = Eigen::...]", nvcc's front end "[with C=Eigen::...]"
  constexpr std::string_view f = __PRETTY_FUNCTION__;
  for (const std::string_view key : {std::string_view("C = "), std::string_view("C=")})
    if (const auto at = f.find(key); at != f.npos) return f.substr(at + key.size()).starts_with(prefix);
  return false;
}

template <class A>
auto adapt_in(const A& a) {
  using C = std::remove_cvref_t<A>;
  if constexpr (scalar_like<C>) {
    return scalar_operand<C>{a};
  } else {
    static_assert(array_like<C> || !from_namespace<C>("Eigen::"),
                  "ufx: an Eigen object needs #include <ufx/eigen.hpp> (ufx/ufx.hpp includes it only when "
                  "<Eigen/Core> came first)");
    static_assert(array_like<C> || !from_namespace<C>("cuda::std::"),
                  "ufx: a cuda::std::mdspan needs #include <ufx/mdspan.hpp> (ufx/ufx.hpp includes it only when "
                  "<cuda/std/mdspan> came first)");
    static_assert(array_like<C>, "ufx: no adapter for this argument type. ufx accepts arithmetic scalars, "
                                 "std::vector, std::array, std::span, ufx::ndarray, ufx::ndview, ufx::device_array "
                                 "and (with <ufx/eigen.hpp>) Eigen dense objects");
    return adapter<C>::in(a);
  }
}

template <class A>
concept writable = requires(A&& a) {
  adapter<std::remove_cvref_t<A>>::out(a);
};

/// Throws value_error for a destination with stride 0 along an axis of extent > 1: an element written twice (a
/// broadcast view made writable by hand; ufx::broadcast_to's are read-only). Other self-overlaps are not looked for.
template <class T, int R>
void check_writes_once(const ndview<T, R>& v) {
  if (v.size() == 0) return;
  for (int k = 0; k < R; ++k)
    if (v.extent(k) > 1 && v.stride(k) == 0)
      fail<value_error>("a destination of shape " + format_shape(dims(v.shape())) + " has stride 0 along axis " +
                        std::to_string(k) + " (extent " + std::to_string(v.extent(k)) +
                        "): its elements would be written more than once. A broadcast view cannot be written; "
                        "write into an array of that shape");
}

template <class A>
auto adapt_out(A&& a) {
  using C = std::remove_cvref_t<A>;
  static_assert(array_like<C>, "ufx::out: the destination must be an array container (a scalar cannot be written)");
  static_assert(writable<A>, "ufx::out: this destination is not writable (const, or an expression without storage)");
  auto o = adapter<C>::out(a);
  check_writes_once(o.view);
  return o;
}

template <class Op>
struct is_scalar_operand : std::false_type {};
template <class V>
struct is_scalar_operand<scalar_operand<V>> : std::true_type {};

/// An operand's shape (a scalar's has rank 0).
template <class Op>
dims operand_shape(const Op& op) {
  if constexpr (is_scalar_operand<Op>::value) return dims{};
  else return dims(op.view.shape());
}

/// Writes the shapes of a tuple of operands to shapes[n], shapes[n + 1], ..., advancing n.
template <class Ops>
void operand_shapes(const Ops& ops, dims* shapes, std::size_t& n) {
  std::apply([&](const auto&... op) { ((shapes[n++] = operand_shape(op)), ...); }, ops);
}

UFX_TU_NAMESPACE_END
} // namespace detail
} // namespace ufx
