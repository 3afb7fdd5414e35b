#pragma once
// The seam between ufx's front doors and a component that partitions arrays across processes (ufx/mpi.hpp). An argument
// type that names a `ufx_distribution` type is a distributed operand; a call with one (as an operand or inside
// ufx::out) is handed, whole, to `distributed_calls<that distribution>::call(front_door, args...)`, which the component
// specialises. ufx itself knows nothing of MPI and pays nothing for calls without such operands.
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/out.hpp"

namespace ufx::detail {

template <class T>
concept distributed_arg = requires {
  typename std::remove_cvref_t<T>::ufx_distribution;
};

template <class T>
struct out_names_distributed : std::false_type {};
template <class... D>
struct out_names_distributed<out_t<D...>> : std::bool_constant<(distributed_arg<D> || ...)> {};

template <class T>
inline constexpr bool names_distributed = distributed_arg<T> || out_names_distributed<std::remove_cvref_t<T>>::value;

/// True when a call's arguments include a distributed operand (or destination).
template <class... A>
inline constexpr bool any_distributed = (names_distributed<A> || ...);

template <class T>
struct distribution_of_one {
  using type = void;
};
template <distributed_arg T>
struct distribution_of_one<T> {
  using type = typename std::remove_cvref_t<T>::ufx_distribution;
};
template <class... D>
struct distribution_of_one<out_t<D...>> {
  using type = std::common_type_t<typename distribution_of_one<D>::type...>;
};

/// The distribution named by the first distributed argument of a call.
template <class... A>
struct distribution_of {
  using type = void;
};
template <class A, class... Rest>
struct distribution_of<A, Rest...> {
  using one = typename distribution_of_one<std::remove_cvref_t<A>>::type;
  using type = std::conditional_t<std::is_void_v<one>, typename distribution_of<Rest...>::type, one>;
};

/// Specialised by the component that defines Distribution; left undefined here.
template <class Distribution>
struct distributed_calls;

UFX_TU_NAMESPACE_BEGIN
/// Front doors without an object of their own (free functions), named for distributed_calls. In the translation unit's
/// namespace (config.hpp), so a component's calls for nvcc-compiled and host-compiled code are different functions.
struct reduce_door {};
struct transform_reduce_door {};
struct accumulate_door {};
template <bool Max>
struct arg_door {};
UFX_TU_NAMESPACE_END

template <class Front, class... A>
decltype(auto) distributed_call(const Front& front, A&&... args) {
  using D = typename distribution_of<A...>::type;
  return distributed_calls<D>::call(front, static_cast<A&&>(args)...);
}

} // namespace ufx::detail
