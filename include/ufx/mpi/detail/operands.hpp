#pragma once
// Steps 1-2 of a call on distributed operands: find the partition the operands share (or throw on every rank, naming
// both), check the blocks and the replicated operands, and turn the arguments into the local call's.
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ufx/detail/core/tuple.hpp"
#include "ufx/axis.hpp"
#include "ufx/detail/step/args.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/distributed.hpp"
#include "ufx/detail/core/fail.hpp"
#include "ufx/mpi/detail/agree.hpp"
#include "ufx/mpi/detail/distributed.hpp"
#include "ufx/out.hpp"

namespace ufx::mpi::detail {
UFX_TU_NAMESPACE_BEGIN

using ufx::detail::distributed_arg;
using ufx::detail::is_out;

/// The local argument standing for `a`: a distributed operand's block, ufx::out(...) with each
/// distributed destination replaced by its block, anything else unchanged.
template <class A>
decltype(auto) local_arg(A&& a) {
  using T = std::remove_cvref_t<A>;
  if constexpr (distributed_arg<T>) {
    return (a.local());
  } else if constexpr (is_out<T>::value) {
    return std::apply([](auto&&... d) { return ufx::out(local_arg(static_cast<decltype(d)&&>(d))...); }, a.dst);
  } else {
    return static_cast<A&&>(a);
  }
}

/// The communicator of the first distributed operand or destination.
template <class A, class... Rest>
const communicator& first_comm(const A& a, const Rest&... rest) {
  using T = std::remove_cvref_t<A>;
  if constexpr (distributed_arg<T>) {
    return a.comm();
  } else if constexpr (is_out<T>::value && ufx::detail::names_distributed<T>) {
    return std::apply([](const auto&... d) -> const communicator& { return first_comm(d...); }, a.dst);
  } else {
    if constexpr (sizeof...(Rest) > 0) return first_comm(rest...);
    else static_assert(sizeof...(Rest) > 0, "ufx::mpi: no distributed operand");
  }
}

/// What the checks found: the shared partition (a replicated one when every distributed operand is), its rank, and
/// the distributed operands' number of loop dimensions (the rank less a gufunc's core dimensions; axis 0 is the first).
struct split {
  const partition* part = nullptr;
  std::string first_name;
  int loop_rank = 0;
  const partition* replicated = nullptr;
  int replicated_loop_rank = 0;
  int rank() const { return static_cast<int>(part->global_shape().size()); }
};

/// Each operand's core rank: 0 for elementwise calls and reductions, else a gufunc signature's (`nin` inputs first).
struct core_ranks {
  const int* rank = nullptr;
  int nin = 0;
  int of(int k, bool destination) const { return rank ? rank[destination ? nin + k : k] : 0; }
};

inline std::string operand_name(int k, bool destination) {
  return (destination ? "destination " : "operand ") + std::to_string(k);
}

template <class D>
void visit_distributed(split& s, const D& d, const std::string& name, int core) {
  d.check_block(name + "'s local block");
  const partition& p = d.partition();
  const int loop = static_cast<int>(p.global_shape().size()) - core;
  if (loop < 1)
    throw shape_error(std::string(ufx::detail::current_call) + ": axis 0 of " + name + " " + p.to_string() +
                      " is one of the gufunc's core dimensions; the split axis must be a loop dimension");
  if (p.is_replicated()) { // checked with the replicated operands, below
    if (!s.replicated) s.replicated = &p, s.replicated_loop_rank = loop;
    return;
  }
  if (!s.part) {
    s.part = &p;
    s.first_name = name;
    s.loop_rank = loop;
    return;
  }
  if (loop != s.loop_rank)
    throw shape_error(std::string(ufx::detail::current_call) +
                      ": the distributed operands have different numbers of loop "
                      "dimensions (" +
                      s.first_name + " is " + partition::shape_string(s.part->global_shape()) + ", " + name + " is " +
                      partition::shape_string(p.global_shape()) + "): axis 0 must be the split axis of every one");
  if (!p.same_split(*s.part))
    throw partition_mismatch(std::string(ufx::detail::current_call) + ": " + s.first_name + " and " + name +
                             " are split differently across the ranks: " + s.part->to_string() + " and " +
                             p.to_string() + (p.comm() == s.part->comm() ? "" : " (different communicators)") +
                             "; give them the same ufx::mpi::partition");
}

/// A replicated (not distributed) array operand broadcasts along axis 0 of the distributed ones:
/// it has fewer loop dimensions, or as many with extent 1 along axis 0.
template <class A>
void check_replicated(const split& s, const A& a, const std::string& name, int core) {
  const std::vector<index_t> shape = shape_vector(a);
  const int r = static_cast<int>(shape.size()) - core;
  if (r < s.loop_rank || (r == s.loop_rank && shape[0] == 1)) return;
  throw shape_error(std::string(ufx::detail::current_call) + ": " + name + " (shape " + partition::shape_string(shape) +
                    ") is not distributed but spans axis 0 of the distributed operands " + s.part->to_string() +
                    ": distribute it with the same partition (ufx::mpi::scatter), or give it fewer axes or extent 1 "
                    "along axis 0 so that it broadcasts");
}

/// Calls `f(a, k, destination)` for each operand (positional, from 0, targets skipped) and destination in ufx::out.
template <class F, class... A>
void for_each_operand(const F& f, const A&... args) {
  int k = 0;
  (
      [&](const auto& a) {
        using T = std::remove_cvref_t<decltype(a)>;
        if constexpr (is_out<T>::value) {
          int j = 0;
          std::apply([&](const auto&... d) { (f(d, j++, true), ...); }, a.dst);
        } else if constexpr (!ufx::any_target<T>) {
          f(a, k++, false);
        }
      }(args),
      ...);
}

/// Checks every operand of a call (inside `collectively`) and returns the shared split. `distributed_out`: the
/// destinations must be distributed (results of elementwise calls are), else they must not be (a reduction).
template <class... A>
split check_operands_with(bool distributed_out, const core_ranks& cores, const A&... args) {
  split s;
  for_each_operand(
      [&](const auto& a, int k, bool dst) {
        if constexpr (distributed_arg<std::remove_cvref_t<decltype(a)>>)
          visit_distributed(s, a, operand_name(k, dst), cores.of(k, dst));
      },
      args...);
  if (!s.part) {
    s.part = s.replicated;
    s.first_name = "the first distributed operand";
    s.loop_rank = s.replicated_loop_rank;
  }
  for_each_operand(
      [&](const auto& a, int k, bool dst) {
        using T = std::remove_cvref_t<decltype(a)>;
        constexpr bool dist = distributed_arg<T>;
        if (dst && dist != distributed_out)
          throw shape_error(std::string(ufx::detail::current_call) + ": " + operand_name(k, true) +
                            (distributed_out
                                 ? " is not distributed, but the call's results are (their rows live on the "
                                   "ranks that hold the operands' rows)"
                                 : " is distributed, but the reduction's result is the same on every rank: "
                                   "give a container that is not distributed"));
        if constexpr (dist) {
          if (a.partition().is_replicated() && !s.part->is_replicated())
            check_replicated(s, a.local(), operand_name(k, dst), cores.of(k, dst));
        } else if constexpr (ufx::array_like<T>) {
          check_replicated(s, a, operand_name(k, dst), cores.of(k, dst));
        }
      },
      args...);
  return s;
}

template <class... A>
split check_operands(bool distributed_out, const A&... args) {
  return check_operands_with(distributed_out, core_ranks{}, args...);
}

/// The result of a call on the local blocks as a distributed array with the operands' rows.
template <class R>
auto wrap(const partition& p, R&& r) {
  using T = std::remove_cvref_t<R>;
  std::vector<index_t> shape = shape_vector(r);
  if (!p.is_replicated()) shape[0] = p.global_shape()[0];
  return distributed<T>(adopt_t{}, p.with_shape(std::move(shape)), static_cast<R&&>(r));
}

/// Each output of an elementwise call wrapped (a std::tuple for several outputs).
template <class R>
auto wrap_results(const partition& p, R&& r) {
  using T = std::remove_cvref_t<R>;
  static_assert(
      ufx::array_like<T> || requires { std::tuple_size<T>::value; },
      "ufx::mpi: the call on the local blocks gives a scalar: axis 0 of the distributed operands is a core "
      "dimension of the gufunc, and the split axis must be a loop dimension");
  if constexpr (ufx::array_like<T>) return wrap(p, static_cast<R&&>(r));
  else return std::apply([&](auto&&... x) { return std::make_tuple(wrap(p, std::move(x))...); }, r);
}

/// `f(ufx::axis{axes...}?, ufx::keepdims?, tail...)`: a call's options rebuilt from with_call_args's split.
template <int NA, bool Keep, class F, class... Tail>
decltype(auto) with_options(const int* axes, const F& f, Tail&&... tail) {
  auto keep_then = [&](auto&&... lead) -> decltype(auto) {
    if constexpr (Keep) return f(static_cast<decltype(lead)&&>(lead)..., ufx::keepdims, static_cast<Tail&&>(tail)...);
    else return f(static_cast<decltype(lead)&&>(lead)..., static_cast<Tail&&>(tail)...);
  };
  if constexpr (NA == 0) {
    return keep_then();
  } else {
    return ufx::detail::with_indices<NA>([&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
      return keep_then(ufx::axis<NA>{axes[I]...});
    });
  }
}

/// `door(*tp, rest...)` when the call named a target, else `door(rest...)`.
template <class Door, class TP, class... R>
decltype(auto) with_target_arg(const Door& door, TP tp, R&&... rest) {
  if constexpr (std::is_same_v<TP, const void*>) return door(static_cast<R&&>(rest)...);
  else return door(*tp, static_cast<R&&>(rest)...);
}

/// The broadcast shape of the local operands (the local loop).
template <class... A>
ufx::detail::dims local_loop(const A&... a) {
  std::vector<ufx::detail::dims> shapes;
  (
      [&](const auto& x) {
        using T = std::remove_cvref_t<decltype(x)>;
        if constexpr (ufx::array_like<T>) {
          const auto s = ufx::detail::adapt_in(x).view.shape();
          ufx::detail::dims d;
          d.rank = static_cast<int>(s.size());
          for (int i = 0; i < d.rank; ++i) d[i] = s[static_cast<std::size_t>(i)];
          shapes.push_back(d);
        }
      }(a),
      ...);
  return ufx::detail::broadcast(std::span<const ufx::detail::dims>(shapes.data(), shapes.size()));
}

UFX_TU_NAMESPACE_END
} // namespace ufx::mpi::detail
