#pragma once
// The front doors on distributed operands: ufx's vectorize, guvectorize, reducer, reduce, transform_reduce, argmin /
// argmax and accumulate hand a call with a ufx::mpi::distributed operand here (ufx/detail/distributed.hpp); each call
// is collective over the operands' communicator. distributed_calls<mpi_distribution>::call names the front door and
// picks the path: elementwise_call for vectorize and guvectorize; reduction_call for the others, which splits the
// arguments (ufx::detail::with_call_args) and hands them to the front door's reduction_body below: its arity check, the
// check that an operand is distributed, then its own step.
#include <array>
#include <cstddef>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/detail/core/tuple.hpp"
#include "ufx/detail/step/args.hpp"
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

/// An element converted to a reduction's accumulator type (a float16 to float).
template <class Acc>
struct to_accumulator {
  template <class T>
  UFX_HD Acc operator()(const T& v) const {
    return static_cast<Acc>(v);
  }
};

template <class... Pos>
inline constexpr bool any_distributed_operand = (distributed_arg<Pos> || ...);

/// The one check of the reductions and scans: some operand is distributed (the destination alone cannot be).
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

/// The core rank of each operand of a gufunc with signature Sig (its inputs first).
template <class Sig>
core_ranks gufunc_core_ranks() {
  static constexpr auto ranks = ufx::detail::with_indices<Sig::operands, int>(
      []<int... K>(std::integer_sequence<int, K...>) { return std::array<int, sizeof...(K)>{Sig::core_rank(K)...}; });
  return core_ranks{ranks.data(), Sig::nin};
}

// reduction_body: one per front door. `tp`: the target (const void* when the call names none); `outp`: the
// ufx::out(...) argument (likewise); `axes`: NA axes; Keep: ufx::keepdims; `pos...`: the call's positional arguments,
// named after the arity check by a lambda called on them.

/// `r(x [, init])` of a ufx::reducer. A rank without rows reduces its empty block with a zero init (when the
/// accumulator is a scalar), so a reducer without identity does not throw there.
template <int NA, bool Keep, class Op, class Id, class TP, class OutP, class... Pos>
decltype(auto) reduction_body(const ufx::reduction<Op, Id>& r, TP tp, OutP outp, const int* axes, const Pos&... pos) {
  ufx::detail::check_reducer_args<sizeof...(pos)>();
  return [&]<class X>(const X& x, const auto&... init) -> decltype(auto) {
    require_distributed_operand<X>();          // the init is a scalar
    if constexpr (!distributed_arg<X>) return; // reported there
    else {
      using Acc = typename ufx::detail::reduce_types<ufx::detail::identity, Op, typename X::value_type>::acc;
      std::optional<Acc> init_acc;
      ((init_acc = static_cast<Acc>(init)), ...);
      const across_spec<Acc, Op> spec{r.op(), optional_value<Acc>(r.identity()), init_acc,
                                      ufx::detail::no_identity_message};
      using Res = typename ufx::detail::reduce_types<ufx::detail::identity, Op, typename X::value_type>::result;
      if constexpr (NA == 0 && !Keep && std::is_same_v<OutP, const void*> && !std::is_same_v<Acc, Res> &&
                    !std::is_same_v<Id, ufx::detail::no_value>) {
        // a float16 / bfloat16 sum or product to one value: each rank's partial in the accumulator (float), the
        // ranks' partials added in it and rounded once, as one process rounds (a rank's partial rounded first could
        // overflow: 32768 halves of +-1000 split in two ranks would give inf + -inf)
        auto partial = [&](auto&&... o) -> decltype(auto) {
          return with_target_arg([](const auto&... a) -> decltype(auto) { return ufx::transform_reduce(a...); }, tp,
                                 x.local(), to_accumulator<Acc>{}, r.op(), static_cast<Acc>(r.identity()), o...);
        };
        return static_cast<Res>(reduce_distributed<NA, Keep>(spec, partial, partial, partial, outp, axes, x));
      }
      auto local = [&](auto&&... o) -> decltype(auto) { return with_target_arg(r, tp, x.local(), o...); };
      auto local_final = [&](auto&&... o) -> decltype(auto) {
        return with_target_arg(r, tp, x.local(), init..., o...);
      };
      auto local_empty = [&](auto&&... o) -> decltype(auto) { // an init makes the empty block's reduction defined
        if constexpr (ufx::scalar_like<Acc>) return with_target_arg(r, tp, x.local(), Acc{}, o...);
        else return local(o...);
      };
      return reduce_distributed<NA, Keep>(spec, local, local_final, local_empty, outp, axes, x);
    }
  }(pos...);
}

/// `ufx::reduce(x, op, identity)`.
template <int NA, bool Keep, class TP, class OutP, class... Pos>
decltype(auto) reduction_body(ufx::detail::reduce_door, TP tp, OutP outp, const int* axes, const Pos&... pos) {
  ufx::detail::check_reduce_args<sizeof...(pos)>();
  return [&]<class X, class Op>(const X& x, const Op& op, const auto& id) -> decltype(auto) {
    require_distributed_operand<X>();
    if constexpr (!distributed_arg<X>) return; // reported there
    else {
      using Acc = typename ufx::detail::reduce_types<ufx::detail::identity, Op, typename X::value_type>::acc;
      const across_spec<Acc, Op> spec{op, static_cast<Acc>(id), std::nullopt, ""};
      auto local = [&](auto&&... o) -> decltype(auto) {
        return with_target_arg([](const auto&... a) -> decltype(auto) { return ufx::reduce(a...); }, tp, local_arg(x),
                               op, id, o...);
      };
      return reduce_distributed<NA, Keep>(spec, local, local, local, outp, axes, x);
    }
  }(pos...);
}

/// `ufx::transform_reduce(xs..., map, op, identity)`.
template <int NA, bool Keep, class TP, class OutP, class... Pos>
decltype(auto) reduction_body(ufx::detail::transform_reduce_door, TP tp, OutP outp, const int* axes,
                              const Pos&... pos) {
  constexpr std::size_t n = sizeof...(pos);
  ufx::detail::check_transform_reduce_args<n>();
  const std::tuple<const Pos&...> p(pos...);
  const auto body = [&]<class Map, class Op, class... Xs>(const Map& map, const Op& op, const auto& id,
                                                          const Xs&... xs) -> decltype(auto) {
    require_distributed_operand<Xs...>();
    if constexpr (!any_distributed_operand<Xs...>) {
      return; // reported there
    } else {
      using Acc = typename ufx::detail::reduce_types<
          Map, Op, typename decltype(ufx::detail::adapt_in(local_arg(xs)))::value_type...>::acc;
      const across_spec<Acc, Op> spec{op, static_cast<Acc>(id), std::nullopt, ""};
      auto local = [&](auto&&... o) -> decltype(auto) {
        return with_target_arg([](const auto&... a) -> decltype(auto) { return ufx::transform_reduce(a...); }, tp,
                               local_arg(xs)..., map, op, id, o...);
      };
      return reduce_distributed<NA, Keep>(spec, local, local, local, outp, axes, xs...);
    }
  };
  return ufx::detail::with_indices<n - 3>([&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
    return body(std::get<n - 3>(p), std::get<n - 2>(p), std::get<n - 1>(p), std::get<I>(p)...); // map, op, identity
  });
}

/// The checks of argmin / argmax along an axis (run inside `collectively`; `dst`: the ufx::out(...)
/// argument, if any). Returns whether the call reduces axis 0, across the ranks.
template <bool Max, int NA, class D, class... Dst>
bool check_arg_axis(std::optional<split>& s, const D& x, const int* axes, const Dst&... dst) {
  s = check_operands(true, x);
  const bool across = (ufx::detail::reduced_mask(axes, NA, s->rank()) & 1u) && !s->part->is_replicated();
  (check_operands(!across, x, dst), ...);
  if (across && x.partition().global_shape()[0] == 0)
    throw value_error(ufx::detail::message(ufx::detail::arg_empty_message<Max>));
  return across;
}

/// argmin / argmax along an axis into ufx::out(dst): along axis 0, the ranks' answers combined.
template <bool Max, int NA, bool Keep, class D, class Local, class Out>
void arg_axis_into(const D& x, const int* axes, const Local& local, const Out& out) {
  auto& dst = std::get<0>(const_cast<Out&>(out).dst);
  std::optional<split> s;
  bool across = false;
  collectively(x.comm(), [&] {
    across = check_arg_axis<Max, NA>(s, x, axes, out);
    if (!across || x.rows() > 0) with_options<NA, Keep>(axes, local, local_arg(out));
  });
  if (across) combine_arg_axis0<Max>(x, x.rows() > 0, local_arg(dst));
}

/// argmin / argmax along an axis, returned: along axis 0 replicated (the ranks' answers combined), else distributed.
template <bool Max, int NA, bool Keep, class Res, class D, class Local>
decltype(auto) arg_axis_result(const D& x, const int* axes, const Local& local) {
  std::optional<split> s;
  bool across = false;
  auto res = collectively(x.comm(), [&] {
    across = check_arg_axis<Max, NA>(s, x, axes);
    return !across || x.rows() > 0 ? with_options<NA, Keep>(axes, local) : empty_arg_result<Res>(x);
  });
  if (!across) return wrap(*s->part, std::move(res));
  combine_arg_axis0<Max>(x, x.rows() > 0, res);
  const std::vector<index_t> shape = shape_vector(res); // before the move (reduce.hpp says why)
  return distributed<Res>(adopt_t{}, partition::replicated(x.comm(), shape), std::move(res));
}

/// `ufx::argmin(x, axis{k})` / `argmax`: a 1-D x gives the global flat index, as the full call.
template <bool Max, int NA, bool Keep, class TP, class OutP, class D>
decltype(auto) arg_along_axis(TP tp, OutP outp, const int* axes, const D& x) {
  static_assert(NA == 1, "ufx::mpi: argmin / argmax of a distributed array with keepdims needs an axis");
  const auto door = [](const auto&... a) -> decltype(auto) {
    if constexpr (Max) return ufx::argmax(a...);
    else return ufx::argmin(a...);
  };
  auto local = [&](auto&&... o) -> decltype(auto) { return with_target_arg(door, tp, x.local(), o...); };
  using Res = decltype(with_options<NA, Keep>(axes, local));
  if constexpr (!ufx::array_like<Res> && !std::is_void_v<Res>) { // a 1-D array along its only axis
    collectively(x.comm(), [&] { (void)ufx::detail::reduced_mask(axes, NA, 1); });
    return arg_distributed<Max>(tp, x);
  } else if constexpr (!std::is_same_v<OutP, const void*>) {
    arg_axis_into<Max, NA, Keep>(x, axes, local, *outp);
  } else {
    return arg_axis_result<Max, NA, Keep, Res>(x, axes, local);
  }
}

/// `ufx::argmin(x)` / `argmax(x)`: the global flat index on every rank; along an axis, arg_along_axis.
template <int NA, bool Keep, bool Max, class TP, class OutP, class... Pos>
decltype(auto) reduction_body(ufx::detail::arg_door<Max>, TP tp, OutP outp, const int* axes, const Pos&... pos) {
  ufx::detail::check_arg_args<sizeof...(pos), NA>();
  return [&]<class X>(const X& x) -> decltype(auto) {
    require_distributed_operand<X>();
    if constexpr (!distributed_arg<X>) return; // reported there
    else if constexpr (NA == 0 && !Keep) {
      static_assert(std::is_same_v<OutP, const void*>,
                    "ufx::mpi: a full argmin / argmax of a distributed array returns the index on every rank; "
                    "ufx::out does not apply");
      return arg_distributed<Max>(tp, x);
    } else {
      return arg_along_axis<Max, NA, Keep>(tp, outp, axes, x);
    }
  }(pos...);
}

/// `ufx::accumulate(x, op [, axis{k}])`: along axis 0 (the default) the ranks' blocks carry into
/// each other (MPI_Exscan on the last rows); along another axis each block scans alone.
template <int NA, bool Keep, class TP, class OutP, class... Pos>
decltype(auto) reduction_body(ufx::detail::accumulate_door, TP tp, OutP outp, const int* axes, const Pos&... pos) {
  ufx::detail::check_accumulate_args<sizeof...(pos), NA, Keep>();
  return [&]<class X, class Op>(const X& x, const Op& op) -> decltype(auto) {
    require_distributed_operand<X>();
    if constexpr (!distributed_arg<X>) return; // reported there
    else {
      using Acc = typename ufx::detail::reduce_types<ufx::detail::identity, Op, typename X::value_type>::scan_acc;
      const auto door = [](const auto&... a) -> decltype(auto) { return ufx::accumulate(a...); };
      auto local = [&](auto&&... o) -> decltype(auto) { return with_target_arg(door, tp, x.local(), op, o...); };
      std::optional<split> s;
      bool along0 = true;
      auto checks = [&](const auto&... dst) {
        s = check_operands(true, x, dst...);
        along0 = !s->part->is_replicated() && (NA == 0 || (ufx::detail::reduced_mask(axes, NA, s->rank()) & 1u));
      };
      if constexpr (!std::is_same_v<OutP, const void*>) {
        collectively(x.comm(), [&] {
          checks(*outp);
          with_options<NA, false>(axes, local, local_arg(*outp));
        });
        auto& dst = std::get<0>(const_cast<std::remove_cvref_t<decltype(*outp)>&>(*outp).dst);
        if (along0) carry_scan<Acc>(tp, op, x, local_arg(dst));
      } else {
        auto res = collectively(x.comm(), [&] {
          checks();
          return with_options<NA, false>(axes, local);
        });
        if (along0) carry_scan<Acc>(tp, op, x, res);
        return wrap(*s->part, std::move(res));
      }
    }
  }(pos...);
}

/// A reduction or scan on distributed operands: `front`'s reduction_body on the split arguments.
template <class Front, class... A>
decltype(auto) reduction_call(const char* who, const Front& front, const A&... args) {
  const ufx::detail::call_scope scope(who);
  return ufx::detail::with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        return reduction_body<NA, Keep>(front, tp, outp, axes, pos...);
      },
      args...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::mpi::detail

namespace ufx::detail {
// (distributed_calls is specialised where its primary is, outside the configuration's namespace:
// its call templates take the keyed front doors' types, so each configuration has its own.)

template <>
struct distributed_calls<mpi::detail::mpi_distribution> {
  /// `k(args...)` of ufx::vectorize: runs on the blocks, returns distributed results.
  template <class F, class Id, class... A>
  static decltype(auto) call(const vectorized<F, Id>& k, A&&... args) {
    return mpi::detail::elementwise_call("ufx::vectorize", k, mpi::detail::core_ranks{}, static_cast<A&&>(args)...);
  }

  /// `g(args...)` of ufx::guvectorize: axis 0 of the distributed operands must be a loop dimension.
  template <class Sig, class F, class... A>
  static decltype(auto) call(const gufunc<Sig, F>& g, A&&... args) {
    return mpi::detail::elementwise_call("ufx::guvectorize", g, mpi::detail::gufunc_core_ranks<Sig>(),
                                         static_cast<A&&>(args)...);
  }

  /// `r(x [, init] [, axis] [, keepdims] [, out])` of a ufx::reducer.
  template <class Op, class Id, class... A>
  static decltype(auto) call(const reduction<Op, Id>& r, const A&... args) {
    return mpi::detail::reduction_call("ufx::reducer", r, args...);
  }

  /// `ufx::reduce(x, op, identity [, axis] [, keepdims] [, out])`.
  template <class... A>
  static decltype(auto) call(reduce_door door, const A&... args) {
    return mpi::detail::reduction_call("ufx::reduce", door, args...);
  }

  /// `ufx::transform_reduce(x, y, ..., map, op, identity [, axis] [, keepdims] [, out])`.
  template <class... A>
  static decltype(auto) call(transform_reduce_door door, const A&... args) {
    return mpi::detail::reduction_call("ufx::transform_reduce", door, args...);
  }

  /// `ufx::argmin(x [, axis] [, keepdims] [, out])` / `argmax`.
  template <bool Max, class... A>
  static decltype(auto) call(arg_door<Max> door, const A&... args) {
    return mpi::detail::reduction_call(Max ? "ufx::argmax" : "ufx::argmin", door, args...);
  }

  /// `ufx::accumulate(x, op [, axis{k}] [, out])`.
  template <class... A>
  static decltype(auto) call(accumulate_door door, const A&... args) {
    return mpi::detail::reduction_call("ufx::accumulate", door, args...);
  }
};

} // namespace ufx::detail
