#pragma once
// Reductions and scans over distributed operands: the local front door runs on each rank's block (any target), then
// the ranks' partials are combined in rank order (combine.hpp); axes without axis 0 stay local (a distributed result).
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ufx/detail/core/reduce_ops.hpp"
#include "ufx/detail/core/reduce_plan.hpp"
#include "ufx/mpi/detail/combine.hpp"
#include "ufx/mpi/detail/operands.hpp"
#include "ufx/reduce.hpp"
#include "ufx/vectorize.hpp"

namespace ufx::mpi::detail {
UFX_TU_NAMESPACE_BEGIN

/// What a reduction across ranks combines and how an empty one ends.
template <class Acc, class Op>
struct across_spec {
  const Op& op;
  std::optional<Acc> identity;
  std::optional<Acc> init; // Numba's init: combined once into each result, after the ranks' partials
  const char* empty_message;
};

/// The shape facts every rank derives alike from the checked operands.
struct reduce_shape {
  split s;
  unsigned mask = 0;     // reduced axes
  bool across = false;   // axis 0 reduced: partials combined across the ranks
  index_t reduced = 0;   // elements reduced into each result, over all ranks
  index_t row_elems = 0; // loop elements per row of axis 0
  bool has_rows = false; // this rank holds rows
};

template <int NA, class OutP, class... Ops>
reduce_shape shape_reduction(const int* axes, OutP outp, const Ops&... operands) {
  reduce_shape r;
  r.s = check_operands(false, operands...);
  const int R = r.s.rank();
  r.mask = NA == 0 ? (1u << R) - 1 : ufx::detail::reduced_mask(axes, NA, R);
  r.across = (r.mask & 1u) != 0;
  if constexpr (!std::is_same_v<OutP, const void*>) check_operands(!r.across, operands..., *outp);
  ufx::detail::dims loop = local_loop(local_arg(operands)...);
  loop[0] = r.s.part->global_shape()[0];
  r.reduced = 1;
  r.row_elems = 1;
  for (int d = 0; d < loop.rank; ++d) {
    if (r.mask & (1u << d)) r.reduced *= loop[d];
    if (d > 0) r.row_elems *= loop[d];
  }
  // a replicated operand's partials come from rank 0 alone
  r.has_rows = r.s.part->rows() > 0 && (!r.s.part->is_replicated() || r.s.part->comm().rank() == 0);
  return r;
}

/// The empty reduction's value: init, else identity (NumPy's error without either is raised first).
template <class Acc, class Op>
Acc empty_value(const across_spec<Acc, Op>& spec) {
  return spec.init ? *spec.init : *spec.identity;
}

template <class Acc, class Op>
Acc finish(const across_spec<Acc, Op>& spec, const maybe<Acc>& m) {
  if (!m.has) return empty_value(spec);
  return spec.init ? static_cast<Acc>(spec.op(*spec.init, m.value)) : m.value;
}

/// Combines in place, in rank order under `op`, the partials of container `c` on every rank: `fill(h, parts)` sets
/// them from c's host copy h, and element i of c becomes `put(parts[i])`.
template <class T, class Op, class C, class Fill, class Put>
void combine_host(const communicator& comm, const Op& op, C& c, const Fill& fill, const Put& put) {
  // what can throw (allocation, device copies) runs in `collectively`: no failure leaves the others in MPI_Allreduce
  using H = decltype(dense_host_copy(c));
  std::optional<H> h;
  std::vector<maybe<T>> parts;
  collectively(comm, [&] {
    h.emplace(dense_host_copy(c));
    parts.resize(static_cast<std::size_t>(ufx::detail::adapt_in(*h).view.size()));
    fill(*h, parts);
  });
  mpi_combiner<T, Op>(op).allreduce(comm, parts);
  collectively(comm, [&] {
    using V = typename ufx::adapter<H>::value_type;
    for (std::size_t i = 0; i < parts.size(); ++i) h->data()[i] = static_cast<V>(put(parts[i]));
    const auto dst = ufx::detail::adapt_out(c);
    ufx::detail::transfer(dst.space, dst.view, memory_space::host, ufx::detail::adapt_in(*h).view);
  });
}

/// Combines in place, in rank order, the partials `c` holds on every rank (`rows`: this rank's count); finishes them.
template <class Acc, class Op, class C>
void combine_container(const communicator& comm, const across_spec<Acc, Op>& spec, bool rows, C& c) {
  combine_host<Acc>(
      comm, spec.op, c,
      [&](const auto& h, auto& parts) {
        for (std::size_t i = 0; i < parts.size(); ++i) parts[i] = {static_cast<Acc>(h.data()[i]), rows ? 1 : 0};
      },
      [&](const maybe<Acc>& m) { return finish(spec, m); });
}

/// A reduction of distributed operands (`operands...`: the positional arrays and scalars). `local(opts...)` runs the
/// front door on the local blocks without init, `local_final(opts...)` with it (for results that stay local),
/// `local_empty(opts...)` on a rank without rows when the reduction has no identity (it must not throw there).
template <int NA, bool Keep, class Acc, class Op, class Local, class LocalFinal, class LocalEmpty, class OutP,
          class... Ops>
decltype(auto) reduce_distributed(const across_spec<Acc, Op>& spec, const Local& local, const LocalFinal& local_final,
                                  const LocalEmpty& local_empty, OutP outp, const int* axes, const Ops&... operands) {
  constexpr bool has_out = !std::is_same_v<OutP, const void*>;
  const communicator& comm = first_comm(operands...);
  const reduce_shape r = collectively(comm, [&] { return shape_reduction<NA>(axes, outp, operands...); });
  // every rank sees the same global shape, so NumPy's error needs no agreement
  if (r.across && r.reduced == 0 && !spec.identity && !spec.init) ufx::detail::fail<value_error>(spec.empty_message);
  auto local_out = [&](const auto& f) -> decltype(auto) {
    if constexpr (has_out) return with_options<NA, Keep>(axes, f, local_arg(*outp));
    else return with_options<NA, Keep>(axes, f);
  };
  using Res = decltype(local_out(local));
  auto local_partials = [&] { return r.has_rows || spec.identity ? local_out(local) : local_out(local_empty); };
  if constexpr (std::is_void_v<Res>) { // into ufx::out(...)
    if (!r.across) {
      collectively(comm, [&] { local_out(local_final); });
    } else {
      collectively(comm, local_partials);
      auto& dst = std::get<0>(const_cast<std::remove_cvref_t<decltype(*outp)>&>(*outp).dst);
      combine_container(comm, spec, r.has_rows, local_arg(dst));
    }
  } else if constexpr (!ufx::array_like<Res>) { // every axis reduced: one value, the same on every rank
    // Res: the local result's type (a float16 sum's float16, rounded once from its float accumulator Acc)
    if (r.reduced == 0) return static_cast<Res>(empty_value(spec));
    maybe<Acc> m{}; // has == 0: none
    collectively(comm, [&] {
      if (!r.has_rows) return;
      m.value = static_cast<Acc>(local_out(local));
      m.has = 1;
    });
    mpi_combiner<Acc, Op>(spec.op).allreduce(comm, std::span<maybe<Acc>>(&m, 1));
    return static_cast<Res>(finish(spec, m));
  } else if (!r.across) { // axis 0 kept: the result has the operands' rows
    return wrap(*r.s.part, collectively(comm, [&] { return local_out(local_final); }));
  } else {
    Res c = collectively(comm, local_partials);
    combine_container(comm, spec, r.has_rows, c);
    // the shape before the move: the arguments' order of evaluation is unspecified (GCC's is right
    // to left, so the by-value parameter was moved into before shape_vector read it)
    const std::vector<index_t> shape = shape_vector(c);
    return distributed<Res>(adopt_t{}, partition::replicated(comm, shape), std::move(c));
  }
}

/// `ufx::argmin` / `argmax` of one distributed array: the local position and value of each rank,
/// combined by ufx's own (value, index) operator, so ties across ranks go to the smallest index.
template <bool Max, class TP, class D>
index_t arg_distributed(TP tp, const D& x) {
  using V = typename D::value_type;
  const communicator& comm = x.comm();
  maybe<ufx::detail::arg_pair<V>> m{}; // has == 0: none
  collectively(comm, [&] { x.check_block("operand 0's local block"); });
  if (x.partition().global_size() == 0) ufx::detail::fail<value_error>(ufx::detail::arg_empty_message<Max>);
  collectively(comm, [&] {
    if (!x.rows() || x.partition().row_size() == 0) return;
    const auto door = [](const auto&... a) { return Max ? ufx::argmax(a...) : ufx::argmin(a...); };
    const index_t i = with_target_arg(door, tp, x.local());
    const auto op = ufx::detail::adapt_in(x.local());
    const auto s = op.view.shape();
    index_t rest = i, off = 0;
    for (int d = static_cast<int>(s.size()) - 1; d >= 0; --d) {
      off += (rest % s[static_cast<std::size_t>(d)]) * op.view.strides()[static_cast<std::size_t>(d)];
      rest /= s[static_cast<std::size_t>(d)];
    }
    V v{};
    ufx::detail::copy_bytes(memory_space::host, &v, op.space, op.view.data() + off, sizeof(V));
    m.value = {v, x.offset() * x.partition().row_size() + i};
    m.has = 1;
  });
  const ufx::detail::arg_better<Max> better{};
  mpi_combiner<ufx::detail::arg_pair<V>, ufx::detail::arg_better<Max>>(better).allreduce(comm, std::span(&m, 1));
  return m.value.index;
}

/// Writes, into the index container `idx` (this rank's argmin / argmax along axis 0 of x's block,
/// or anything when `rows` is false), the global answer: each rank's (value, global row) pairs
/// combined by ufx's (value, index) operator in rank order, so ties go to the smallest row.
template <bool Max, class D, class C>
void combine_arg_axis0(const D& x, bool rows, C& idx) {
  using pair = ufx::detail::arg_pair<typename D::value_type>;
  combine_host<pair>(
      x.comm(), ufx::detail::arg_better<Max>{}, idx, // the temporary lives through the call
      [&](const auto& hi, auto& parts) {
        if (!rows) return;
        const auto hx = dense_host_copy(x.local());
        const std::size_t n = parts.size();
        for (std::size_t j = 0; j < n; ++j) {
          const index_t r = hi.data()[j];
          parts[j] = {pair{hx.data()[static_cast<std::size_t>(r) * n + j], x.offset() + r}, 1};
        }
      },
      [](const maybe<pair>& m) { return m.value.index; });
}

/// An empty container of the type and shape the local argmin / argmax along axis 0 would return,
/// for a rank without rows (where the local call would throw NumPy's empty-sequence error).
template <class Res, class D>
Res empty_arg_result(const D& x) {
  using C = typename D::container_type;
  constexpr int RR = ufx::adapter<Res>::rank;
  using rule = ufx::detail::result_rule<index_t, RR, C>;
  static_assert(std::is_same_v<typename rule::type, Res>, "ufx::mpi: internal: argmin / argmax result type");
  const bool keep = RR == D::rank; // keepdims, or an Eigen result
  ufx::detail::dims shape;
  shape.rank = RR;
  const auto& g = x.global_shape();
  for (int d = 0; d < RR; ++d)
    shape[d] = keep ? (d == 0 ? 1 : g[static_cast<std::size_t>(d)]) : g[static_cast<std::size_t>(d) + 1];
  return rule::make(shape, ufx::detail::adapt_in(x.local()).space);
}

/// op(carry, v) for the rows after a rank's first: the scan's carry from the ranks before.
template <class Acc, class Op>
struct apply_carry {
  Op op;
  UFX_HD Acc operator()(const Acc& carry, const Acc& v) const { return static_cast<Acc>(UFX_USER_CALL(op, carry, v)); }
};

/// `ufx::accumulate` along axis 0 of a distributed array: each rank scans its block, the ranks'
/// last rows are combined by MPI_Exscan (rank order), and each rank applies its carry.
template <class Acc, class Op, class TP, class D, class C>
void carry_scan(TP tp, const Op& op, const D& x, C& result) {
  const communicator& comm = x.comm();
  const index_t row = x.partition().row_size(), rows = x.rows();
  std::vector<maybe<Acc>> parts(static_cast<std::size_t>(row));
  collectively(comm, [&] { // this rank's last row, brought to the host alone
    if (rows == 0 || row == 0) return;
    const auto in = ufx::detail::adapt_in(result);
    using V = typename decltype(in)::value_type;
    constexpr int R = decltype(in)::rank;
    auto shape = in.view.shape();
    shape[0] = 1;
    const ufx::ndview<const V, R> last(in.view.data() + (rows - 1) * in.view.strides()[0], shape, in.view.strides());
    ufx::ndarray<V, R> h(shape);
    ufx::detail::transfer(memory_space::host, h.view(), in.space, last);
    for (index_t j = 0; j < row; ++j) parts[static_cast<std::size_t>(j)] = {static_cast<Acc>(h.data()[j]), 1};
  });
  mpi_combiner<Acc, Op>(op).exscan(comm, parts);
  collectively(comm, [&] {
    if (rows == 0 || row == 0 || !parts[0].has) return;
    std::vector<index_t> shape = x.partition().global_shape();
    shape[0] = 1;
    auto carry = make_host_block<ufx::ndarray<Acc, D::rank>>(shape);
    for (index_t j = 0; j < row; ++j) carry.data()[j] = parts[static_cast<std::size_t>(j)].value;
    const auto k = ufx::vectorize(apply_carry<Acc, Op>{op});
    with_target_arg(k, tp, carry, result, ufx::out(result));
  });
}

UFX_TU_NAMESPACE_END
} // namespace ufx::mpi::detail
