#pragma once
// The front doors on distributed operands: ufx's vectorize, guvectorize, reducer, reduce,
// transform_reduce, argmin / argmax and accumulate hand a call with a ufx::mpi::distributed operand here
// (ufx/detail/distributed.hpp). Each call is collective over the operands' communicator.
#include <array>
#include <optional>
#include <type_traits>
#include <utility>

#include "ufx/detail/args.hpp"
#include "ufx/detail/distributed.hpp"
#include "ufx/guvectorize.hpp"
#include "ufx/mpi/detail/operands.hpp"
#include "ufx/mpi/detail/reduce.hpp"
#include "ufx/reduce.hpp"
#include "ufx/vectorize.hpp"

namespace ufx::mpi::detail {
UFX_TU_NAMESPACE_BEGIN

/// std::optional of an identity or init given as a value (none for ufx::detail::no_value).
template <class Acc, class V>
std::optional<Acc> optional_value(const V& v) {
  if constexpr (std::is_same_v<V, ufx::detail::no_value>) return std::nullopt;
  else return static_cast<Acc>(v);
}

template <class... Pos>
inline constexpr bool any_distributed_operand = (distributed_arg<Pos> || ...);

/// The one check of the reductions and scans: some operand is distributed (the destination alone
/// cannot be).
template <class... Pos>
constexpr void require_distributed_operand() {
  static_assert(any_distributed_operand<Pos...>, "ufx::mpi: only the destination is distributed: the call's operands "
                                                 "must include the distributed array (ufx::mpi::scatter it)");
}

/// A call whose results have the operands' rows: vectorize, guvectorize (`cores`: its signature's).
template <class Front, class... A>
decltype(auto) elementwise_call(const char* who, const Front& front, const core_ranks& cores, A&&... args) {
  const ufx::detail::call_scope scope(who);
  const communicator& comm = first_comm(args...);
  using R = decltype(front(local_arg(static_cast<A&&>(args))...));
  if constexpr (std::is_void_v<R>) {
    collectively(comm, [&] {
      check_operands_with(true, cores, args...);
      front(local_arg(static_cast<A&&>(args))...);
    });
  } else {
    std::optional<split> s;
    R r = collectively(comm, [&] {
      s = check_operands_with(true, cores, args...);
      return front(local_arg(static_cast<A&&>(args))...);
    });
    return wrap_results(*s->part, std::move(r));
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::mpi::detail

namespace ufx::detail {
// (distributed_calls is specialised where its primary is, outside the configuration's namespace:
// its call templates take the keyed front doors' types, so each configuration has its own.)

template <>
struct distributed_calls<mpi::detail::mpi_distribution> {
  /// `k(args...)` of ufx::vectorize: runs on the blocks, returns distributed results.
  template <class F, class... A>
  static decltype(auto) call(const vectorized<F>& k, A&&... args) {
    return mpi::detail::elementwise_call("ufx::vectorize", k, mpi::detail::core_ranks{}, static_cast<A&&>(args)...);
  }

  /// `g(args...)` of ufx::guvectorize: axis 0 of the distributed operands must be a loop dimension.
  template <class Sig, class F, class... A>
  static decltype(auto) call(const gufunc<Sig, F>& g, A&&... args) {
    static constexpr auto cores = []<int... K>(std::integer_sequence<int, K...>) {
      return std::array<int, sizeof...(K)>{Sig::core_rank(K)...};
    }(std::make_integer_sequence<int, Sig::operands>{});
    return mpi::detail::elementwise_call("ufx::guvectorize", g, mpi::detail::core_ranks{cores.data(), Sig::nin},
                                         static_cast<A&&>(args)...);
  }

  /// `r(x [, init] [, axis] [, keepdims] [, out])` of a ufx::reducer.
  template <class Op, class Id, class... A>
  static decltype(auto) call(const reduction<Op, Id>& r, const A&... args) {
    const call_scope scope("ufx::reducer");
    return with_call_args(
        [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
          constexpr std::size_t n = sizeof...(pos);
          check_reducer_args<n>();
          const auto p = std::forward_as_tuple(pos...);
          const auto& x = std::get<0>(p);
          using X = std::remove_cvref_t<decltype(x)>;
          mpi::detail::require_distributed_operand<X>(); // the init is a scalar
          if constexpr (!distributed_arg<X>) return;       // reported there
          else {
          using Acc = typename reduce_types<identity, Op, typename X::value_type>::acc;
          std::optional<Acc> init;
          if constexpr (n == 2) init = static_cast<Acc>(std::get<1>(p));
          const mpi::detail::across_spec<Acc, Op> spec{r.op(), mpi::detail::optional_value<Acc>(r.identity()), init,
                                                       "zero-size array to reduction operation which has no identity"};
          auto local = [&](auto&&... o) -> decltype(auto) { return mpi::detail::with_target_arg(r, tp, x.local(), o...); };
          auto local_final = [&](auto&&... o) -> decltype(auto) {
            if constexpr (n == 2) return mpi::detail::with_target_arg(r, tp, x.local(), std::get<1>(p), o...);
            else return local(o...);
          };
          auto local_empty = [&](auto&&... o) -> decltype(auto) { // an init makes the empty block's reduction defined
            if constexpr (scalar_like<Acc>) return mpi::detail::with_target_arg(r, tp, x.local(), Acc{}, o...);
            else return local(o...);
          };
          return mpi::detail::reduce_distributed<NA, Keep>(spec, local, local_final, local_empty, outp, axes, x);
          }
        },
        args...);
  }

  /// `ufx::reduce(x, op, identity [, axis] [, keepdims] [, out])`.
  template <class... A>
  static decltype(auto) call(reduce_door, const A&... args) {
    const call_scope scope("ufx::reduce");
    return with_call_args(
        [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
          check_reduce_args<sizeof...(pos)>();
          const auto p = std::forward_as_tuple(pos...);
          const auto& x = std::get<0>(p);
          mpi::detail::require_distributed_operand<std::remove_cvref_t<decltype(x)>>();
          if constexpr (!distributed_arg<decltype(x)>) return; // reported there
          else {
          const auto& op = std::get<1>(p);
          using Op = std::remove_cvref_t<decltype(op)>;
          using Acc = typename reduce_types<identity, Op, typename std::remove_cvref_t<decltype(x)>::value_type>::acc;
          const mpi::detail::across_spec<Acc, Op> spec{op, static_cast<Acc>(std::get<2>(p)), std::nullopt, ""};
          auto local = [&](auto&&... o) -> decltype(auto) {
            return mpi::detail::with_target_arg([](const auto&... a) -> decltype(auto) { return ufx::reduce(a...); }, tp,
                                                mpi::detail::local_arg(x), op, std::get<2>(p), o...);
          };
          return mpi::detail::reduce_distributed<NA, Keep>(spec, local, local, local, outp, axes, x);
          }
        },
        args...);
  }

  /// `ufx::transform_reduce(x, y, ..., map, op, identity [, axis] [, keepdims] [, out])`.
  template <class... A>
  static decltype(auto) call(transform_reduce_door, const A&... args) {
    const call_scope scope("ufx::transform_reduce");
    return with_call_args(
        [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
          constexpr std::size_t n = sizeof...(pos);
          check_transform_reduce_args<n>();
          using Ps = std::tuple<std::remove_cvref_t<decltype(pos)>...>;
          using Map = std::tuple_element_t<n - 3, Ps>;
          using Op = std::tuple_element_t<n - 2, Ps>;
          const std::tuple<const std::remove_cvref_t<decltype(pos)>&...> p(pos...);
          const Map& map = std::get<n - 3>(p);
          const Op& op = std::get<n - 2>(p);
          return [&]<std::size_t... I>(std::index_sequence<I...>) -> decltype(auto) {
            using Xs = Ps;
            mpi::detail::require_distributed_operand<std::tuple_element_t<I, Xs>...>();
            if constexpr (!mpi::detail::any_distributed_operand<std::tuple_element_t<I, Xs>...>) {
              return; // reported there
            } else {
              using Acc = typename reduce_types<Map, Op,
                                                typename decltype(adapt_in(mpi::detail::local_arg(std::get<I>(p))))::value_type...>::acc;
              const mpi::detail::across_spec<Acc, Op> spec{op, static_cast<Acc>(std::get<n - 1>(p)), std::nullopt, ""};
              auto local = [&](auto&&... o) -> decltype(auto) {
                return mpi::detail::with_target_arg(
                    [](const auto&... a) -> decltype(auto) { return ufx::transform_reduce(a...); }, tp,
                    mpi::detail::local_arg(std::get<I>(p))..., map, op, std::get<n - 1>(p), o...);
              };
              return mpi::detail::reduce_distributed<NA, Keep>(spec, local, local, local, outp, axes, std::get<I>(p)...);
            }
          }(std::make_index_sequence<n - 3>{});
        },
        args...);
  }

  /// `ufx::argmin(x)` / `argmax(x)`: the global flat index on every rank; along axis 0 a replicated
  /// result (the ranks' (value, row) pairs combined), along another axis a distributed one.
  template <bool Max, class... A>
  static decltype(auto) call(arg_door<Max>, const A&... args) {
    const call_scope scope(Max ? "ufx::argmax" : "ufx::argmin");
    return with_call_args(
        [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
          check_arg_args<sizeof...(pos), NA>();
          const auto& x = (pos, ...);
          mpi::detail::require_distributed_operand<std::remove_cvref_t<decltype(x)>>();
          if constexpr (!distributed_arg<decltype(x)>) return; // reported there
          else if constexpr (NA == 0 && !Keep) {
            static_assert(std::is_same_v<decltype(outp), const void*>,
                          "ufx::mpi: a full argmin / argmax of a distributed array returns the index on every rank; "
                          "ufx::out does not apply");
            return mpi::detail::arg_distributed<Max>(tp, x);
          } else {
            static_assert(NA == 1, "ufx::mpi: argmin / argmax of a distributed array with keepdims needs an axis");
            const auto door = [](const auto&... a) -> decltype(auto) {
              if constexpr (Max) return ufx::argmax(a...);
              else return ufx::argmin(a...);
            };
            auto local = [&](auto&&... o) -> decltype(auto) { return mpi::detail::with_target_arg(door, tp, x.local(), o...); };
            using Res = decltype(mpi::detail::with_options<NA, Keep>(axes, local));
            if constexpr (!array_like<Res> && !std::is_void_v<Res>) { // a 1-D array along its only axis
              mpi::detail::collectively(x.comm(), [&] { (void)reduced_mask(axes, NA, 1); });
              return mpi::detail::arg_distributed<Max>(tp, x);
            } else {
              constexpr bool has_out = !std::is_same_v<decltype(outp), const void*>;
              std::optional<mpi::detail::split> s;
              bool across = false;
              auto checks = [&] {
                s = mpi::detail::check_operands(true, x);
                across = (reduced_mask(axes, NA, s->rank()) & 1u) && !s->part->is_replicated();
                if constexpr (has_out) mpi::detail::check_operands(!across, x, *outp);
                if (across && x.partition().global_shape()[0] == 0)
                  throw value_error(message(Max ? "attempt to get argmax of an empty sequence" : "attempt to get argmin of an empty sequence"));
              };
              if constexpr (has_out) {
                auto& dst = std::get<0>(const_cast<std::remove_cvref_t<decltype(*outp)>&>(*outp).dst);
                mpi::detail::collectively(x.comm(), [&] {
                  checks();
                  if (!across || x.rows() > 0) mpi::detail::with_options<NA, Keep>(axes, local, mpi::detail::local_arg(*outp));
                });
                if (across) mpi::detail::combine_arg_axis0<Max>(x, x.rows() > 0, mpi::detail::local_arg(dst));
              } else {
                auto res = mpi::detail::collectively(x.comm(), [&] {
                  checks();
                  return !across || x.rows() > 0 ? mpi::detail::with_options<NA, Keep>(axes, local)
                                                 : mpi::detail::empty_arg_result<Res>(x);
                });
                if (!across) return mpi::detail::wrap(*s->part, std::move(res));
                mpi::detail::combine_arg_axis0<Max>(x, x.rows() > 0, res);
                return mpi::distributed<Res>(mpi::detail::adopt_t{}, mpi::partition::replicated(x.comm(), mpi::detail::shape_vector(res)),
                                             std::move(res));
              }
            }
          }
        },
        args...);
  }

  /// `ufx::accumulate(x, op [, axis{k}] [, out])`: along axis 0 (the default) the ranks' blocks
  /// carry into each other (MPI_Exscan on the last rows); along another axis each block scans alone.
  template <class... A>
  static decltype(auto) call(accumulate_door, const A&... args) {
    const call_scope scope("ufx::accumulate");
    return with_call_args(
        [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
          check_accumulate_args<sizeof...(pos), NA, Keep>();
          const auto p = std::forward_as_tuple(pos...);
          const auto& x = std::get<0>(p);
          const auto& op = std::get<1>(p);
          using X = std::remove_cvref_t<decltype(x)>;
          using Op = std::remove_cvref_t<decltype(op)>;
          mpi::detail::require_distributed_operand<X>();
          if constexpr (!distributed_arg<X>) return; // reported there
          else {
          using Acc = typename reduce_types<identity, Op, typename X::value_type>::acc;
          const mpi::communicator& comm = x.comm();
          const auto door = [](const auto&... a) -> decltype(auto) { return ufx::accumulate(a...); };
          auto local = [&](auto&&... o) -> decltype(auto) { return mpi::detail::with_target_arg(door, tp, x.local(), op, o...); };
          constexpr bool has_out = !std::is_same_v<decltype(outp), const void*>;
          std::optional<mpi::detail::split> s;
          bool along0 = true;
          auto checks = [&](const auto&... dst) {
            s = mpi::detail::check_operands(true, x, dst...);
            along0 = !s->part->is_replicated() && (NA == 0 || (reduced_mask(axes, NA, s->rank()) & 1u));
          };
          if constexpr (has_out) {
            mpi::detail::collectively(comm, [&] {
              checks(*outp);
              mpi::detail::with_options<NA, false>(axes, local, mpi::detail::local_arg(*outp));
            });
            auto& dst = std::get<0>(const_cast<std::remove_cvref_t<decltype(*outp)>&>(*outp).dst);
            if (along0) mpi::detail::carry_scan<Acc>(tp, op, x, mpi::detail::local_arg(dst));
          } else {
            auto res = mpi::detail::collectively(comm, [&] {
              checks();
              return mpi::detail::with_options<NA, false>(axes, local);
            });
            if (along0) mpi::detail::carry_scan<Acc>(tp, op, x, res);
            return mpi::detail::wrap(*s->part, std::move(res));
          }
          }
        },
        args...);
  }
};

} // namespace ufx::detail
