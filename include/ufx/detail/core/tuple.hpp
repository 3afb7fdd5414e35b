#pragma once
// A minimal aggregate tuple usable in host and device code (std::tuple is not device-callable without relaxed
// constexpr, and cuda::std::tuple is not present on every machine).
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#if __has_include(<cuda/std/tuple>)
#  include <cuda/std/tuple>
#  define UFX_HAS_CUDA_STD_TUPLE 1
#else
#  define UFX_HAS_CUDA_STD_TUPLE 0
#endif

#include "ufx/config.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <std::size_t I, class T>
struct tuple_leaf {
  T value;
};

template <class Seq, class... Ts>
struct tuple_base;
template <std::size_t... I, class... Ts>
struct tuple_base<std::index_sequence<I...>, Ts...> : tuple_leaf<I, Ts>... {};

template <class... Ts>
struct tuple : tuple_base<std::index_sequence_for<Ts...>, Ts...> {};

template <std::size_t I, class T>
UFX_HD constexpr T& get(tuple_leaf<I, T>& l) {
  return l.value;
}
template <std::size_t I, class T>
UFX_HD constexpr const T& get(const tuple_leaf<I, T>& l) {
  return l.value;
}

/// fn(std::integer_sequence<T, 0, ..., N - 1>{}): the indices 0..N-1 as a pack for a template lambda,
/// `with_indices<N>([&]<std::size_t... J>(std::index_sequence<J...>) { ... })`.
template <auto N, class T = std::size_t, class Fn>
constexpr decltype(auto) with_indices(Fn&& fn) {
  return static_cast<Fn&&>(fn)(std::make_integer_sequence<T, static_cast<T>(N)>{});
}

/// A tuple of `ts` initialised in place: nvcc's extended lambdas are neither default-constructible nor assignable.
template <class... Ts>
tuple<Ts...> make_tuple(Ts... ts) {
  return tuple<Ts...>{{{static_cast<Ts&&>(ts)}...}};
}

// Multi-output results: a function returning std::tuple, std::pair or cuda::std::tuple/pair.
template <class T>
struct result_tuple {
  static constexpr bool value = false;
  using types = std::tuple<T>;
};
template <class... Ts>
struct result_tuple<std::tuple<Ts...>> {
  static constexpr bool value = true;
  using types = std::tuple<Ts...>;
};
template <class A, class B>
struct result_tuple<std::pair<A, B>> {
  static constexpr bool value = true;
  using types = std::tuple<A, B>;
};
#if UFX_HAS_CUDA_STD_TUPLE
template <class... Ts>
struct result_tuple<cuda::std::tuple<Ts...>> {
  static constexpr bool value = true;
  using types = std::tuple<Ts...>;
};
template <class A, class B>
struct result_tuple<cuda::std::pair<A, B>> {
  static constexpr bool value = true;
  using types = std::tuple<A, B>;
};
#endif

template <std::size_t J, class R>
UFX_HD constexpr decltype(auto) result_get(R&& r) {
  if constexpr (result_tuple<std::remove_cvref_t<R>>::value) {
    using std::get;
#if UFX_HAS_CUDA_STD_TUPLE
    using cuda::std::get;
#endif
    return get<J>(static_cast<R&&>(r));
  } else {
    return static_cast<R&&>(r);
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
