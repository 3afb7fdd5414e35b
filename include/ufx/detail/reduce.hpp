#pragma once
// The body of ufx::reduce, ufx::reducer, ufx::transform_reduce, ufx::argmin / argmax: the five
// steps of a call for a reduction.
#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <memory>
#include <utility>

#include "ufx/detail/adapt.hpp"
#include "ufx/detail/broadcast.hpp"
#include "ufx/detail/args.hpp"
#include "ufx/detail/chunk.hpp"
#include "ufx/detail/run.hpp"
#include "ufx/detail/elementwise.hpp"
#include "ufx/detail/place.hpp"
#include "ufx/detail/reduce_kernel.hpp"
#include "ufx/detail/reduce_ops.hpp"
#include "ufx/detail/reduce_plan.hpp"
#include "ufx/detail/result.hpp"
#include "ufx/detail/target/cuda/reduce.hpp"
#include "ufx/detail/target/host/reduce.hpp"
#include "ufx/detail/target/serial/reduce.hpp"
#include "ufx/detail/target/sim/reduce.hpp"
#include "ufx/errors.hpp"
#include "ufx/out.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// How argmin / argmax number positions: not at all, flat (C order), or along the one axis.
enum class index_mode { none, flat, along_axis };

/// What is reduced: `map` over the inputs' elements, combined by `op`; an optional identity
/// (the value of an empty reduction) and init (combined into every result, Numba's `init`).
template <class Map, class Op, class Id, class Init, index_mode IM>
struct reduce_spec {
  Map map;
  Op op;
  Id identity;
  Init init;
  const char* who;
  const char* empty_message; // used when there is no identity
  static constexpr index_mode indexing = IM;
  static constexpr bool has_identity = !std::is_same_v<Id, no_value>;
  static constexpr bool has_init = !std::is_same_v<Init, no_value>;
};

template <class Map, class Op, class... V>
struct reduce_types {
  static_assert(std::is_invocable_v<const Map&, const V&...>,
                "ufx::transform_reduce: the map cannot be called with the operands' element types "
                "(check the number of arguments and their types)");
  using mapped = std::decay_t<std::invoke_result_t<const Map&, const V&...>>;
  static_assert(std::is_invocable_v<const Op&, const mapped&, const mapped&>,
                "ufx::reduce: the operator cannot combine two elements (it must take two values of the element "
                "type, or of the map's result type)");
  using acc = std::decay_t<std::invoke_result_t<const Op&, const mapped&, const mapped&>>;
  static_assert(!std::is_void_v<acc>, "ufx::reduce: the operator returns nothing: it must return the combined value");
  using acc_ref = std::add_lvalue_reference_t<const acc>; // const void when acc is void (reported above)
  static_assert(std::is_void_v<acc> || std::is_invocable_r_v<acc, const Op&, acc_ref, acc_ref>,
                "ufx::reduce: the operator's result must be combinable with itself (op(op(a, b), c))");
};

/// Finishes a result: combines Numba's `init` into it when given.
template <class Acc, class Op>
struct init_finish {
  Op op;
  Acc init;
  bool has_init;
  UFX_HD Acc operator()(const Acc& a) const { return has_init ? static_cast<Acc>(UFX_USER_CALL(op, init, a)) : a; }
};

/// An operator whose accumulator is not the result names its finishing step as `finish_type`
/// (logsumexp: (max, scaled sum) -> max + log(sum)); an empty reduction gives that step applied to
/// the identity. Other operators finish with init_finish.
template <class Op>
concept finishing_op = requires { typename Op::finish_type; };
template <class Op, class Acc>
struct finish_of {
  using type = init_finish<Acc, Op>;
};
template <finishing_op Op, class Acc>
struct finish_of<Op, Acc> {
  using type = typename Op::finish_type;
};

template <class Op>
dims operand_shape(const Op& op) {
  if constexpr (is_scalar_operand<Op>::value) return dims{};
  else return dims(op.view.shape());
}

/// Strides of the index operand: C-order positions, or the index along the one reduced axis.
template <int N>
void set_index_strides(layout<N>& L, int k, index_mode im, unsigned mask) {
  index_t s = 1;
  for (int d = L.rank - 1; d >= 0; --d) {
    if (im == index_mode::flat) {
      L.stride[k][d] = s;
      s *= L.shape[d];
    } else {
      L.stride[k][d] = (mask & (1u << d)) ? 1 : 0;
    }
  }
}

/// An input whose memory overlaps the output is read from a copy: outputs are written while
/// inputs are still being read (NumPy gives the answer of the untouched input).
template <class Op, class T, int R>
void copy_if_overlapping(Op& op, const ndview<T, R>& out) {
  if constexpr (!is_scalar_operand<Op>::value) {
    if (overlaps(op.view, out)) read_from_copy(op);
  }
}

template <class Acc, class Tag, class Spec, class Fin, class OutOp, class... Ins>
bool reduce_chunked(const Tag& tag, const Spec& spec, const Fin& fin, const OutOp& o, const dims& loop, unsigned mask,
                    index_t index_base, const Ins&... ins);

/// True when an array input's memory overlaps the output's.
template <class OutOp, class... Ins>
bool any_overlaps(const OutOp& o, const Ins&... ins) {
  return ([&] {
    if constexpr (is_scalar_operand<Ins>::value) return false;
    else return overlaps(ins.view, o.view);
  }() || ...);
}

/// True for a full reduction with something to reduce, into one host element, of inputs that are
/// all host memory, C-contiguous and of the loop's shape (scalars aside), none overlapping the
/// output.
template <class OutOp, class... Ins>
bool dense_full_reduction(const OutOp& o, const dims& loop, unsigned mask, const Ins&... ins) {
  if (mask != (1u << loop.rank) - 1 || loop.size() == 0 || o.view.size() != 1 || !o.space.is_host()) return false;
  return ([&] {
    if constexpr (is_scalar_operand<Ins>::value) return true;
    else return dense_host_operand(ins, loop.rank, loop.v) && !overlaps(ins.view, o.view);
  }() && ...);
}

/// The operands' common element count when every array operand is in host memory, C-contiguous,
/// non-empty and of one shape (scalars aside): a full reduction of them needs no broadcasting,
/// staging or plan (cpu_full_reduction). 0 otherwise.
template <class... Ins>
index_t dense_same_shape(const Ins&... ins) {
  index_t ext[max_rank] = {}; // the first array operand's extents (copied: ndview::shape() returns a value)
  int rank = -1;
  index_t n = 0;
  bool ok = true;
  (
      [&] {
        if constexpr (!is_scalar_operand<Ins>::value) {
          if (!ok) return;
          if (rank < 0) {
            if (!ins.space.is_host() || !ins.view.is_contiguous() || ins.view.size() == 0) ok = false;
            rank = Ins::rank;
            for (int d = 0; d < Ins::rank; ++d) ext[d] = ins.view.extent(d);
            n = ins.view.size();
          } else ok = dense_host_operand(ins, rank, ext);
        }
      }(),
      ...);
  return ok ? n : 0;
}

/// Float sums of at least this many elements per output (a full sum of 2^23 floats reads 32 MiB,
/// past the last-level caches) are accumulated in double on the CPU targets, rounded once at the
/// end: within about half an ulp of the exact sum, at no cost to time there, since converting two
/// floats a cycle per core outruns their memory. Smaller sums stay in float: in cache the
/// conversions would make them 4x slower (docs/reduce.md, "Accuracy").
#ifndef UFX_WIDE_SUM_MIN
#  define UFX_WIDE_SUM_MIN (index_t{1} << 23)
#endif
inline constexpr index_t wide_sum_min = UFX_WIDE_SUM_MIN;

/// True for the reductions wide_sum_min applies to: ufx::plus with a float accumulator.
template <class Acc, class Spec>
inline constexpr bool wide_sum =
    std::is_same_v<Acc, float> && std::is_same_v<std::remove_cvref_t<decltype(Spec::op)>, plus> && Spec::indexing == index_mode::none;

/// The finishing step of a float sum accumulated in double: rounds, then finishes as the float.
template <class Fin>
struct wide_finish {
  Fin fin;
  auto operator()(const double& a) const { return fin(static_cast<float>(a)); }
};

template <class Acc, class Tag, class Spec, class... Ins>
Acc cpu_full_reduction_as(const Tag& tag, const Spec& spec, index_t n, const Ins&... ins) {
  reduce_kernel<Acc, decltype(spec.map), decltype(spec.op), decltype(make_acc(ins))...> kern{
      spec.map, spec.op, detail::make_tuple(make_acc(ins)...)};
  if constexpr (Spec::has_identity && Spec::indexing == index_mode::none) {
    kern.identity = static_cast<Acc>(spec.identity);
    kern.has_identity = true;
  }
  if constexpr (std::is_same_v<Tag, host_t>) return cpu_reduce_dense(cpu_executor(tag), kern, n);
  else return cpu_reduce_dense(cpu_executor{}, kern, n);
}

/// A full reduction of `n` positions of dense host inputs on a CPU target: the tree cpu_reduction
/// builds, without a plan (cpu_reduce_dense); a long float sum in double (wide_sum_min).
template <class Acc, class Tag, class Spec, class... Ins>
Acc cpu_full_reduction(const Tag& tag, const Spec& spec, index_t n, const Ins&... ins) {
  if constexpr (wide_sum<Acc, Spec>) {
    if (n >= wide_sum_min) return static_cast<Acc>(cpu_full_reduction_as<double>(tag, spec, n, ins...));
  }
  return cpu_full_reduction_as<Acc>(tag, spec, n, ins...);
}

/// Steps 3 and 4 on one target: stage, plan, run, copy back. `index_base` is the flat or axis
/// index of the loop's first position (argmin / argmax over a chunk); `may_chunk`: host data too
/// large for a device target runs in chunks (reduce_chunked).
template <class Acc, class Tag, class Spec, class Fin, class Res, class OutOp, class... Ins>
void reduce_on_target(const Tag& given, const Spec& spec, const Fin& fin, const Res& empty, const OutOp& o, const dims& loop,
                      unsigned mask, index_t index_base, bool may_chunk, Ins... ins) {
  const Tag& tag = given;
  const memory_space space = tag.space();
  require_space(space);
  if constexpr (Tag::is_device)
    if (may_chunk && reduce_chunked<Acc>(tag, spec, fin, o, loop, mask, index_base, ins...)) return;
  constexpr bool indexed = Spec::indexing != index_mode::none;
  if constexpr (!Tag::is_device && wide_sum<Acc, Spec>) {
    // a long float sum on a CPU target: in double, as cpu_full_reduction's
    if (reduced_count(loop, mask) >= wide_sum_min) {
      reduce_on_target<double>(given, spec, wide_finish<Fin>{fin}, empty, o, loop, mask, index_base, may_chunk, ins...);
      return;
    }
  }
  constexpr int N = 1 + static_cast<int>(sizeof...(Ins)) + (indexed ? 1 : 0);
  auto make_kernel = [&](auto... acc) {
    reduce_kernel<Acc, decltype(spec.map), decltype(spec.op), decltype(acc)...> kern{spec.map, spec.op, detail::make_tuple(acc...)};
    if constexpr (Spec::has_identity && !indexed) {
      kern.identity = static_cast<Acc>(spec.identity);
      kern.has_identity = true;
    }
    return kern;
  };
  if constexpr (!Tag::is_device && !indexed) {
    // a full reduction of dense host inputs: no plan (cpu_reduce_dense, the same tree)
    if (dense_full_reduction(o, loop, mask, ins...)) {
      *o.view.data() = static_cast<typename OutOp::value_type>(fin(cpu_full_reduction<Acc>(tag, spec, loop.size(), ins...)));
      return;
    }
  }
  if (reduced_shape(loop, mask, true).size() == 0) return; // no outputs
  // on a stream: queued like any call (place.hpp's rules); an input overlapping the result is
  // read from a copy made now, after the stream's queued work
  if (streamed(tag)) {
    stream_prepare_io(tag, std::make_tuple(o), std::forward_as_tuple(ins...));
    if (any_overlaps(o, ins...)) stream_wait(tag);
  }
  (stage_on(ins, space, stream_of(tag)), ...);
  auto staged = stage_output(o, space, stream_of(tag));
  (copy_if_overlapping(ins, staged.view), ...);

  layout<N> L;
  L.rank = loop.rank;
  for (int d = 0; d < loop.rank; ++d) L.shape[d] = loop[d];
  set_output_strides(L, staged.view, mask);
  int primary = 0, k = 1;
  (
      [&](const auto& op) {
        set_input_strides(L, k, op);
        if (!primary && !is_scalar_operand<std::remove_cvref_t<decltype(op)>>::value) primary = k;
        ++k;
      }(ins),
      ...);
  if constexpr (indexed) set_index_strides(L, N - 1, Spec::indexing, mask);
  const reduce_plan<N> plan = make_reduce_plan(L, mask, primary ? primary : 1);

  auto run = [&](auto... acc) { reduce_on(tag, plan, make_kernel(acc...), staged.view.data(), fin, empty); };
  if constexpr (indexed) run(make_acc(ins)..., index_acc{index_base});
  else run(make_acc(ins)...);
  finish_call(tag, std::forward_as_tuple(ins...), staged);
}

/// Rows [b, e) of dimension 0 of an output view (a kept dimension: the same in the reduced and the
/// keepdims shape).
template <class T, int R>
operand<T, R> output_rows(const operand<T, R>& o, index_t b, index_t e) {
  auto shape = o.view.shape();
  shape[0] = e - b;
  return operand<T, R>(ndview<T, R>(o.view.data() + b * o.view.stride(0), shape, o.view.strides()), o.space, o.keep);
}

/// A reduction on a device target whose host operands do not fit its memory (or its chunk budget)
/// runs in chunks of loop dimension 0. Kept there: each chunk writes its rows of the result.
/// Reduced there: each chunk reduces to partial accumulators (one set per chunk, on the host),
/// which are combined pairwise (a balanced tree over the chunks, as the pairwise sum splits its
/// halves) and finished into the result, so the error grows with the log of the number of chunks,
/// not with it. Returns false when the call fits (or cannot be split), to run whole.
template <class Acc, class Tag, class Spec, class Fin, class OutOp, class... Ins>
bool reduce_chunked(const Tag& tag, const Spec& spec, const Fin& fin, const OutOp& o, const dims& loop, unsigned mask,
                    index_t index_base, const Ins&... ins) {
  constexpr int RO = OutOp::rank;
  using OutE = typename OutOp::value_type;
  const index_t m = reduced_count(loop, mask);
  if (loop.rank == 0 || loop[0] <= 1 || m == 0) return false;
  const memory_space space = tag.space();
  std::size_t per_row = 0, fixed = 0;
  (add_staged_bytes(ins, std::remove_cvref_t<Ins>::rank, space, loop.rank, loop[0], per_row, fixed), ...);
  if (per_row == 0) return false; // nothing large to stage
  const bool row_kept = !(mask & 1u);
  const index_t outputs = reduced_shape(loop, mask, true).size();
  const auto rows_total = static_cast<std::size_t>(loop[0]);
  // the device reduction's partials: one accumulator per lane of at least 32 positions (device/reduce.hpp),
  // and a 32nd of that again for its second level
  const std::size_t partials_per_row = (static_cast<std::size_t>(loop.size()) / rows_total * sizeof(Acc) + 27) / 28;
  per_row += partials_per_row;
  if (row_kept) {
    if (o.space != space) per_row += static_cast<std::size_t>(outputs) / rows_total * sizeof(OutE);
  } else {
    fixed += static_cast<std::size_t>(outputs) * sizeof(Acc);
  }
  const index_t rows = chunk_rows(tag, loop[0], per_row, fixed);
  if (rows >= loop[0]) return false;
  if (any_overlaps(o, ins...)) return false; // an input overlapping the result is read from a copy: run whole
  const Tag t = after_stream(tag); // a chunked call runs to completion, after the stream's queued work

  // the index of position (b, 0, ...): flat (C order) or along the one reduced axis
  index_t index_row = 0;
  if constexpr (Spec::indexing == index_mode::flat) index_row = loop.size() / loop[0];
  else if constexpr (Spec::indexing == index_mode::along_axis) index_row = (mask & 1u) ? 1 : 0;

  // inputs that broadcast along dimension 0 go to the device once; chunks of `per` rows run two at
  // a time through a chunk_ring (chunk.hpp)
  auto in = std::make_tuple(ins...);
  std::apply([&](auto&... op) { ((along_rows(op, std::remove_cvref_t<decltype(op)>::rank, loop.rank) ? void() : stage_input(op, space)), ...); }, in);
  const int slots = rows >= 2 ? 2 : 1;
  const index_t per = rows / slots;
  const index_t chunks = (loop[0] + per - 1) / per;
  std::size_t staging = 0;
  auto add_staging = [&](const auto& op) {
    using Op = std::remove_cvref_t<decltype(op)>;
    if constexpr (!is_scalar_operand<Op>::value)
      if (along_rows(op, Op::rank, loop.rank) && op.space.is_host())
        staging += chunk_ring<Tag>::template staging_size<typename Op::value_type>(per * (op.view.size() / loop[0]));
  };
  std::apply([&](const auto&... op) { (add_staging(op), ...); }, in);
  if (row_kept && o.space.is_host()) staging += chunk_ring<Tag>::template staging_size<OutE>(per * (outputs / loop[0]));

  // the partials, in pinned memory the streams copy into (an accumulator that is not trivially
  // copyable: in ordinary memory, each chunk's copy then waits); Acc may be bool: no std::vector
  constexpr bool pinned_acc = std::is_trivially_copyable_v<Acc>;
  const auto n_parts = static_cast<std::size_t>(row_kept ? 1 : chunks * outputs);
  struct pinned_parts {
    std::size_t bytes;
    void* p = pinned_staging_take(bytes);
    ~pinned_parts() { pinned_staging_give(p, bytes); }
  } parts_block{pinned_acc ? n_parts * sizeof(Acc) : 64};
  std::unique_ptr<Acc[]> plain_parts;
  Acc* parts = nullptr;
  if constexpr (pinned_acc) parts = static_cast<Acc*>(parts_block.p);
  else plain_parts.reset(new Acc[n_parts]), parts = plain_parts.get();

  const pass_through<Acc> keep_acc{};
  {
    // each slot's device memory beyond its staged inputs: the partials and the chunk's results
    const std::size_t device_extra =
        static_cast<std::size_t>(per) * partials_per_row + (row_kept ? 0 : static_cast<std::size_t>(outputs) * sizeof(Acc));
    chunk_ring<Tag> ring(t, slots, staging, device_extra);
    for (index_t c = 0; c < chunks; ++c) {
      const int s = static_cast<int>(c % slots);
      if (c >= slots) ring.acquire(s);
      const index_t b = c * per, e = std::min(loop[0], b + per);
      dims sub = loop;
      sub[0] = e - b;
      auto piece = [&](const auto& dst, const auto& f) {
        std::apply(
            [&](const auto&... op) {
              reduce_on_target<Acc>(ring.on(s), spec, f, std::invoke_result_t<decltype(f), const Acc&>{}, dst, sub, mask,
                                    index_base + b * index_row, false,
                                    ring.input(s, slice_rows(op, std::remove_cvref_t<decltype(op)>::rank, loop.rank, b, e))...);
            },
            in);
      };
      if (row_kept) piece(ring.output(s, output_rows(o, b, e)), fin);
      else piece(operand<Acc, RO>(ndview<Acc, RO>(parts + c * outputs, o.view.shape())), keep_acc);
    }
    ring.finish();
  }
  if (row_kept) return true;

  // the chunks' partials, combined pairwise, finished, and written to the destination
  auto combine = [&](auto& self, index_t lo, index_t hi) -> void {
    if (hi - lo < 2) return;
    const index_t mid = lo + (hi - lo) / 2;
    self(self, lo, mid);
    self(self, mid, hi);
    Acc* a = parts + lo * outputs;
    const Acc* b = parts + mid * outputs;
    for (index_t j = 0; j < outputs; ++j) a[j] = static_cast<Acc>(spec.op(a[j], b[j]));
  };
  combine(combine, 0, chunks);
  const std::unique_ptr<OutE[]> result(new OutE[static_cast<std::size_t>(outputs)]);
  for (index_t j = 0; j < outputs; ++j) result[j] = static_cast<OutE>(fin(parts[j]));
  transfer(o.space, o.view, memory_space::host, ndview<const OutE, RO>(result.get(), o.view.shape()));
  return true;
}

template <int NA, bool Keep, class Spec, class TargetT, class OutT, class... Args>
UFX_CALL_BOUNDARY auto reduce_run(const Spec& spec, const TargetT* given, OutT* out, const int* axes, const Args&... args) {
  const call_scope scope(spec.who);
  constexpr bool indexed = Spec::indexing != index_mode::none;
  // 1. adapt
  auto ins = std::make_tuple(adapt_in(args)...);
  constexpr int R = std::max({0, decltype(adapt_in(args))::rank...});
  static_assert(R > 0, "ufx::reduce: reduce at least one array (scalars alone have nothing to reduce)");
  using types = std::conditional_t<indexed, reduce_types<decltype(spec.map), decltype(spec.op), typename decltype(adapt_in(args))::value_type..., index_t>,
                                   reduce_types<decltype(spec.map), decltype(spec.op), typename decltype(adapt_in(args))::value_type...>>;
  using Acc = typename types::acc;
  using Fin = std::conditional_t<indexed, arg_index, typename finish_of<decltype(spec.op), Acc>::type>;
  const Fin fin = [&] {
    if constexpr (indexed) return arg_index{};
    else if constexpr (finishing_op<decltype(spec.op)>) return Fin{};
    else if constexpr (Spec::has_init) return Fin{spec.op, static_cast<Acc>(spec.init), true};
    else return Fin{spec.op, Acc{}, false};
  }();
  using Res = std::decay_t<std::invoke_result_t<const Fin&, const Acc&>>;

  device_set device;
  note_spaces(ins, device);

  // a full reduction to a value of dense host operands of one shape on a CPU target: straight to
  // the tree (the fixed cost of a small call is the shape and plan machinery below)
  if constexpr (std::is_void_v<OutT> && NA == 0 && !Keep && !indexed) {
    if (const index_t n = std::apply([](const auto&... op) { return dense_same_shape(op...); }, ins)) {
      std::optional<Res> r;
      with_target_for<decltype(spec.map), decltype(spec.op)>(given, device, [&](auto tag) {
        if constexpr (!decltype(tag)::is_device)
          std::apply([&](const auto&... op) { r = static_cast<Res>(fin(cpu_full_reduction<Acc>(tag, spec, n, op...))); }, ins);
      });
      if (r) return *r;
    }
  }

  // 2. shape
  dims shapes[sizeof...(Args)];
  {
    std::size_t n = 0;
    std::apply([&](const auto&... op) { ((shapes[n++] = operand_shape(op)), ...); }, ins);
  }
  const dims loop = broadcast(std::span<const dims>(shapes, sizeof...(Args)));
  unsigned mask = (1u << loop.rank) - 1;
  if constexpr (NA > 0) mask = reduced_mask(axes, NA, loop.rank);
  constexpr bool eigen_shape = NA > 0 && result_rule<Res, 2, Args...>::all_eigen;
  constexpr bool keep = Keep || eigen_shape;
  constexpr int RR = keep ? R : (NA == 0 ? 0 : std::max(0, R - NA));
  const dims rshape = reduced_shape(loop, mask, keep), kshape = reduced_shape(loop, mask, true);
  const bool empty_reduction = reduced_count(loop, mask) == 0;
  const Res empty = [&] {
    if constexpr (indexed) return Res{};
    else if constexpr (finishing_op<decltype(spec.op)>) return fin(static_cast<Acc>(spec.identity));
    else if constexpr (Spec::has_init) return static_cast<Res>(static_cast<Acc>(spec.init));
    else if constexpr (Spec::has_identity) return static_cast<Res>(static_cast<Acc>(spec.identity));
    else return Res{};
  }();
  if (empty_reduction && (indexed || !(Spec::has_init || Spec::has_identity)))
    fail<value_error>(spec.empty_message);

  auto on_target = [&](const auto& o) {
    with_target_for<decltype(spec.map), decltype(spec.op)>(given, device, [&](auto tag) {
      std::apply([&](const auto&... op) { reduce_on_target<Acc>(tag, spec, fin, empty, o, loop, mask, 0, true, op...); }, ins);
    });
  };

  // 3-5. place, run, return
  if constexpr (!std::is_void_v<OutT>) {
    static_assert(std::tuple_size_v<decltype(out->dst)> == 1, "ufx::out: a reduction has one output; name one destination");
    auto o = adapt_out(std::get<0>(const_cast<std::remove_const_t<OutT>*>(out)->dst));
    static_assert(same_kind_castable<Res, typename decltype(o)::value_type>(),
                  "ufx::out: the destination's element type cannot hold the reduction's result without changing kind "
                  "(NumPy's same_kind rule: e.g. a float result into an integer destination)");
    check_reduce_output(dims(o.view.shape()), rshape, kshape);
    note_space(o, device);
    on_target(o);
  } else if constexpr (RR == 0) {
    Res r{};
    on_target(array_operand<Res, 0>{ndview<Res, 0>(&r, {}), memory_space::host, {}});
    return r;
  } else {
    using rule = result_rule<Res, RR, Args...>;
    auto result = rule::make(rshape, result_space(given, device));
    on_target(adapter<typename rule::type>::out(result));
    return result;
  }
}

/// The argument checks of each reduction front door, shared with the calls on distributed operands
/// (ufx/mpi.hpp): N positional arguments, NA axes.
template <std::size_t N>
constexpr void check_reducer_args() {
  static_assert(N == 1 || N == 2, "ufx::reducer: call it as r(x), r(x, init), r(target, x, ...), with optional "
                                  "ufx::axis{...}, ufx::keepdims and ufx::out(dst) after them");
}
template <std::size_t N>
constexpr void check_reduce_args() {
  static_assert(N == 3, "ufx::reduce: call it as reduce(x, op, identity), with an optional target "
                        "first and ufx::axis{...}, ufx::keepdims, ufx::out(dst) last");
}
template <std::size_t N>
constexpr void check_transform_reduce_args() {
  static_assert(N >= 4, "ufx::transform_reduce: call it as transform_reduce(x, ..., map, op, identity), with an "
                        "optional target first and ufx::axis{...}, ufx::keepdims, ufx::out(dst) last");
}
template <std::size_t N, int NA>
constexpr void check_arg_args() {
  static_assert(N == 1, "ufx::argmin / argmax: call it as argmin(x), with an optional target first "
                        "and ufx::axis{k}, ufx::keepdims, ufx::out(dst) last");
  static_assert(NA <= 1, "ufx::argmin / argmax: name one axis at most (NumPy's axis is an int here)");
}

/// `sum(x)`, `sum(x, init)` and their options, for a reducer with operator `op` and identity `id`.
template <class Op, class Id, class... A>
decltype(auto) reducer_call(const Op& op, const Id& id, const A&... a) {
  return with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        constexpr std::size_t n = sizeof...(pos);
        check_reducer_args<n>();
        const auto p = std::forward_as_tuple(pos...);
        constexpr const char* msg = "zero-size array to reduction operation which has no identity";
        if constexpr (n == 1) {
          const reduce_spec<identity, Op, Id, no_value, index_mode::none> spec{identity{}, op, id, no_value{}, "ufx::reducer", msg};
          return reduce_run<NA, Keep>(spec, tp, outp, axes, std::get<0>(p));
        } else {
          using I = std::remove_cvref_t<std::tuple_element_t<1, decltype(p)>>;
          static_assert(scalar_like<I>, "ufx::reducer: the second argument is Numba's `init`, a scalar; reduce one array "
                                        "at a time (ufx::transform_reduce maps several)");
          const reduce_spec<identity, Op, Id, I, index_mode::none> spec{identity{}, op, id, std::get<1>(p), "ufx::reducer", msg};
          return reduce_run<NA, Keep>(spec, tp, outp, axes, std::get<0>(p));
        }
      },
      a...);
}

/// `reduce(x, op, identity)` and its options.
template <class... A>
decltype(auto) reduce_call(const A&... a) {
  return with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        check_reduce_args<sizeof...(pos)>();
        const auto p = std::forward_as_tuple(pos...);
        using Op = std::remove_cvref_t<std::tuple_element_t<1, decltype(p)>>;
        using Id = std::remove_cvref_t<std::tuple_element_t<2, decltype(p)>>;
        const reduce_spec<identity, Op, Id, no_value, index_mode::none> spec{
            identity{}, std::get<1>(p), std::get<2>(p), no_value{}, "ufx::reduce", ""};
        return reduce_run<NA, Keep>(spec, tp, outp, axes, std::get<0>(p));
      },
      a...);
}

/// `transform_reduce(x, y, ..., map, op, identity)` and its options.
template <class... A>
decltype(auto) transform_reduce_call(const A&... a) {
  return with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        constexpr std::size_t n = sizeof...(pos);
        check_transform_reduce_args<n>();
        const auto p = std::forward_as_tuple(pos...);
        using Map = std::remove_cvref_t<std::tuple_element_t<n - 3, decltype(p)>>;
        using Op = std::remove_cvref_t<std::tuple_element_t<n - 2, decltype(p)>>;
        using Id = std::remove_cvref_t<std::tuple_element_t<n - 1, decltype(p)>>;
        const reduce_spec<Map, Op, Id, no_value, index_mode::none> spec{
            std::get<n - 3>(p), std::get<n - 2>(p), std::get<n - 1>(p), no_value{}, "ufx::transform_reduce", ""};
        return [&]<std::size_t... I>(std::index_sequence<I...>) -> decltype(auto) {
          return reduce_run<NA, Keep>(spec, tp, outp, axes, std::get<I>(p)...);
        }(std::make_index_sequence<n - 3>{});
      },
      a...);
}

/// `argmin(x)` / `argmax(x)` and their options (one axis at most).
template <bool Max, class... A>
decltype(auto) arg_call(const A&... a) {
  return with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        check_arg_args<sizeof...(pos), NA>();
        constexpr index_mode im = NA == 0 ? index_mode::flat : index_mode::along_axis;
        const reduce_spec<arg_map, arg_better<Max>, no_value, no_value, im> spec{
            arg_map{}, arg_better<Max>{}, no_value{}, no_value{}, Max ? "ufx::argmax" : "ufx::argmin",
            Max ? "attempt to get argmax of an empty sequence" : "attempt to get argmin of an empty sequence"};
        return reduce_run<NA, Keep>(spec, tp, outp, axes, pos...);
      },
      a...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
