#pragma once
// The bodies of the ufunc methods of a ufx::vectorize object (vectorize.hpp): reduce, accumulate and outer, each a
// rewriting of its arguments for a front door that already exists (ufx::reducer, ufx::accumulate, the elementwise
// call), so every target, option and error of those is theirs. The front doors come in as callables: nothing under
// detail/ includes one.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/axis.hpp"
#include "ufx/detail/core/fn_params.hpp"
#include "ufx/detail/core/lazy_traits.hpp"
#include "ufx/detail/core/tuple.hpp"
#include "ufx/detail/half/convert.hpp"
#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/step/args.hpp"
#include "ufx/detail/step/result.hpp"
#include "ufx/device_array.hpp"
#include "ufx/detail/step/transfer.hpp"
#include "ufx/errors.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"

namespace ufx {

/// NumPy's `initial=` of `ufunc.reduce`: the value the reduction starts from, and the result of an empty one:
/// `f.reduce(x, ufx::initial(0.f))`.
template <class V>
struct initial_t {
  V value;
};
/// `ufx::initial(v)`: see initial_t.
template <class V>
constexpr initial_t<V> initial(V v) {
  return {v};
}

/// NumPy's `axis=None` of `ufunc.reduce`: every axis (`f.reduce(m, ufx::all_axes)` is a scalar).
struct all_axes_t {
  explicit constexpr all_axes_t() = default;
};
/// Pass to `f.reduce` to reduce every axis (see all_axes_t).
inline constexpr all_axes_t all_axes{};

namespace detail {
UFX_TU_NAMESPACE_BEGIN

template <class T>
struct is_initial : std::false_type {};
template <class V>
struct is_initial<initial_t<V>> : std::true_type {};
template <class T>
struct is_all_axes : std::is_same<T, all_axes_t> {};
template <class T>
inline constexpr bool is_all_axes_v = is_all_axes<std::remove_cvref_t<T>>::value;

/// The first of the arguments whose type satisfies Is (a trait of the type without cv and reference): the argument
/// itself, which lives through the call (a member of a temporary tuple would not).
template <template <class> class Is, class A0, class... A>
const auto& first_of(const A0& a0, const A&... a) {
  if constexpr (Is<std::remove_cvref_t<A0>>::value) return a0;
  else return first_of<Is>(a...);
}

/// The arguments but those whose type satisfies one of Drop, as a tuple of references.
template <template <class> class... Drop, class... A>
auto args_without(const A&... a) {
  return std::tuple_cat([](const auto& x) {
    using X = std::remove_cvref_t<decltype(x)>;
    if constexpr ((Drop<X>::value || ...)) return std::tuple<>();
    else return std::tuple<const X&>(x);
  }(a)...);
}

/// `fn(a[0..Pos), ins, a[Pos..))`.
template <std::size_t Pos, class Fn, class Ins, class... A>
decltype(auto) call_inserting(const Fn& fn, const Ins& ins, const A&... a) {
  const std::tuple<const A&...> t(a...);
  return with_indices<Pos>([&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
    return with_indices<sizeof...(A) - Pos>([&]<std::size_t... J>(std::index_sequence<J...>)->decltype(auto) {
      return fn(std::get<I>(t)..., ins, std::get<Pos + J>(t)...);
    });
  });
}

/// A ufunc method's check of the function's arity, where the function has one parameter list (a generic lambda is
/// checked by the call it makes).
template <class F, int Arity>
constexpr bool arity_is() {
  return !fn_params<F>::known || fn_params<F>::count == Arity;
}

/// f.reduce's check of ufx::where's mask: it broadcasts to x's shape (NumPy's rule; a larger broadcast shape would
/// reduce more elements than x has).
template <class X, class M>
void check_reduce_mask(const X& x, const M& m) {
  const dims xs = operand_shape(adapt_in(x)), ms = operand_shape(adapt_in(m));
  const dims both[2] = {xs, ms};
  const dims b = broadcast(std::span<const dims>(both, 2));
  if (b.rank != xs.rank || !std::equal(b.v, b.v + b.rank, xs.v))
    fail<shape_error>("f.reduce: the ufx::where mask of shape " + format_shape(ms) +
                      " does not broadcast to the reduced array's shape " + format_shape(xs));
}

/// `m ? v : identity` for f.reduce with ufx::where: the masked-out elements become the identity, which leaves a
/// reduction as it is.
template <class Id>
struct masked_value {
  Id id;
  template <class V>
  UFX_HD V operator()(const V& v, bool m) const {
    if constexpr (std::is_arithmetic_v<V> && (sizeof(V) == 4 || sizeof(V) == 8)) {
      // a select of the bits, which vectorises: GCC compiles `m ? v : id` to a branch, which a random mask
      // mispredicts half the time (17x the time of the sum without a mask, 2^24 floats)
      using U = std::conditional_t<sizeof(V) == 4, std::uint32_t, std::uint64_t>;
      const U keep = U(0) - static_cast<U>(m);
      const U r = (half_bits::bits_as<U>(v) & keep) | (half_bits::bits_as<U>(static_cast<V>(id)) & ~keep);
      return half_bits::bits_as<V>(r);
    } else {
      return m ? v : static_cast<V>(id);
    }
  }
};

/// The rank of reduce's operand, for NumPy's default axis 0; -1 for an expression (no rank before it is evaluated).
template <class X>
constexpr int method_operand_rank() {
  if constexpr (any_lazy<X>) return -1;
  else return decltype(adapt_in(std::declval<const X&>()))::rank;
}

template <int n_initial, int n_all, class R, class Masked, class... A>
decltype(auto) ufunc_reduce_run(const R& r, const Masked& masked, const A&... a);

/// `f.reduce(args...)`: `r`, the ufx::reducer of f's function F and f's identity, with NumPy's defaults: axis 0 when
/// no axis is named (ufx::all_axes: every axis), ufx::initial(v) as the reducer's init; with ufx::where(m), x becomes
/// `masked(x, m)`, the expression (ufx::lazy) `m ? x : identity`, which the reducer maps in its one pass.
template <class F, class R, class Masked, class... A>
decltype(auto) ufunc_reduce(const R& r, const Masked& masked, const A&... a) {
  static_assert(arity_is<F, 2>(), "ufx: f.reduce is only supported for binary functions (NumPy's rule)");
  constexpr int n_initial = (0 + ... + int{is_initial<std::remove_cvref_t<A>>::value});
  constexpr int n_all = (0 + ... + int{is_all_axes_v<A>});
  static_assert(n_initial <= 1, "ufx: f.reduce: ufx::initial given twice");
  static_assert(n_all <= 1, "ufx: f.reduce: ufx::all_axes given twice");
  if constexpr (arity_is<F, 2>()) return ufunc_reduce_run<n_initial, n_all>(r, masked, a...);
}

template <int n_initial, int n_all, class R, class Masked, class... A>
decltype(auto) ufunc_reduce_run(const R& r, const Masked& masked, const A&... a) {
  constexpr int n_where = (0 + ... + int{is_where_v<A>});
  static_assert(n_where <= 1, "ufx::where: given twice");
  // the arguments without ufx::initial, ufx::all_axes and ufx::where: [target,] x, options..., [out]
  const auto kept = args_without<is_initial, is_all_axes, is_where>(a...);
  return std::apply(
      [&](const auto&... b) -> decltype(auto) {
        using CA = call_args<decltype(b)...>;
        static_assert(CA::positional == 1, "ufx: f.reduce takes one array: f.reduce([target,] x [, ufx::axis{...} | "
                                           "ufx::all_axes] [, ufx::keepdims] [, ufx::initial(v)] [, ufx::where(m)] "
                                           "[, ufx::out(dst)])");
        if constexpr (CA::positional == 1) {
          static_assert(n_all == 0 || CA::n_axes == 0, "ufx: f.reduce: ufx::axis and ufx::all_axes together");
          using X = std::remove_cvref_t<std::tuple_element_t<CA::first, std::tuple<decltype(b)...>>>;
          constexpr int rank = method_operand_rank<X>();
          constexpr bool axis0 = n_all == 0 && CA::n_axes == 0 && rank != 0 && rank != 1; // NumPy's default axis=0
          static_assert(!axis0 || rank > 0, "ufx: f.reduce of an expression: name its axes (ufx::axis{...} or "
                                            "ufx::all_axes), which NumPy would take from the evaluated array");
          // the init (ufx::initial) right after x, as the reducer's second positional argument
          auto with_init = [&](const auto&... c) -> decltype(auto) {
            if constexpr (n_initial == 0) return r(c...);
            else
              return call_inserting<CA::last>([&](const auto&... d) -> decltype(auto) { return r(d...); },
                                              first_of<is_initial>(a...).value, c...);
          };
          auto with_axis = [&](const auto&... c) -> decltype(auto) {
            if constexpr (axis0) return call_inserting<CA::opt_end>(with_init, axis{0}, c...);
            else return with_init(c...);
          };
          if constexpr (n_where == 0) return with_axis(b...);
          else { // x replaced by the expression `where ? x : identity`, reduced in the same pass
            const auto& mask = first_of<is_where>(a...).mask;
            const std::tuple<decltype(b)...> t(b...);
            check_reduce_mask(std::get<CA::first>(t), mask);
            const auto e = masked(std::get<CA::first>(t), mask);
            return with_indices<CA::first>([&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
              return with_indices<sizeof...(b) - CA::first -
                                  1>([&]<std::size_t... J>(std::index_sequence<J...>)->decltype(auto) {
                return with_axis(std::get<I>(t)..., e, std::get<CA::first + 1 + J>(t)...);
              });
            });
          }
        }
      },
      kept);
}

/// `f.accumulate(args...)`: scan([target,] x, f's function, options...), scan being ufx::accumulate.
template <class Scan, class F, class... A>
decltype(auto) ufunc_accumulate(const Scan& scan, const F& f, const A&... a) {
  static_assert(arity_is<F, 2>(), "ufx: f.accumulate is only supported for binary functions (NumPy's rule)");
  using CA = call_args<A...>;
  static_assert(CA::positional == 1, "ufx: f.accumulate takes one array: f.accumulate([target,] x [, ufx::axis{k}] "
                                     "[, ufx::out(dst)])");
  if constexpr (CA::positional == 1 && arity_is<F, 2>()) return call_inserting<CA::last>(scan, f, a...);
}

/// An operand of f.outer as a view of rank Before + its rank + After: its axes after Before new axes and before After
/// new ones, each of extent 1, so it broadcasts against the other operand. A device container's view is a device_view
/// (the result is a device_array, as for any call on it), others' an ndview; scalars stay scalars. `arg` is what the
/// call takes; the adapted operand stays alive with it (an Eigen expression's evaluated temporary).
template <int Before, int After, class X>
struct outer_operand {
  using Op = decltype(adapt_in(std::declval<const X&>()));
  Op op;
  static constexpr int R = Before + Op::rank + After;
  static_assert(R <= max_rank, "ufx: f.outer: the result would have more than ufx::max_rank axes");
  using T = typename Op::element_type;
  using view = std::conditional_t<kind_of<X>() == container_kind::device, device_view<T, R>, ndview<T, R>>;
  view arg;
  explicit outer_operand(const X& x) : op(adapt_in(x)), arg(reshaped(op)) {}

private:
  static view reshaped(const Op& op) {
    std::array<index_t, static_cast<std::size_t>(R)> shape{}, strides{};
    for (int k = 0; k < R; ++k) shape[static_cast<std::size_t>(k)] = 1;
    for (int k = 0; k < Op::rank; ++k) {
      shape[static_cast<std::size_t>(Before + k)] = op.view.extent(k);
      strides[static_cast<std::size_t>(Before + k)] = op.view.stride(k);
    }
    return view(ndview<T, R>(op.view.data(), shape, strides));
  }
};
template <int Before, int After, class X>
requires scalar_like<X>
struct outer_operand<Before, After, X> {
  X arg;
  explicit outer_operand(const X& x) : arg(x) {}
};

/// `f.outer(args...)`: the elementwise call on a's view with b.rank trailing axes of extent 1 and b's with a.rank
/// leading ones: result shape a.shape + b.shape (NumPy's ufunc.outer).
template <class K, class... A>
decltype(auto) ufunc_outer(const K& k, const A&... a) {
  using CA = call_args<A...>;
  static_assert(CA::positional == 2, "ufx: f.outer takes two operands: f.outer([target,] a, b [, ufx::out(dst)])");
  if constexpr (CA::positional == 2) {
    const std::tuple<const A&...> t(a...);
    using X = std::remove_cvref_t<std::tuple_element_t<CA::first, std::tuple<A...>>>;
    using Y = std::remove_cvref_t<std::tuple_element_t<CA::first + 1, std::tuple<A...>>>;
    static_assert(!any_lazy<X, Y>, "ufx: f.outer of an expression: evaluate it first (ufx::eval)");
    constexpr int RX = scalar_like<X> ? 0 : decltype(adapt_in(std::declval<const X&>()))::rank;
    constexpr int RY = scalar_like<Y> ? 0 : decltype(adapt_in(std::declval<const Y&>()))::rank;
    const outer_operand<0, RY, X> x(std::get<CA::first>(t));
    const outer_operand<RX, 0, Y> y(std::get<CA::first + 1>(t));
    if constexpr (CA::has_out) { // NumPy's message, before the call's, which would name the views' unit axes
      dims want;
      want.rank = RX + RY;
      for (int k = 0; k < RX; ++k) want[k] = x.arg.extent(k);
      for (int k = 0; k < RY; ++k) want[RX + k] = y.arg.extent(RX + k);
      std::apply(
          [&](const auto&... d) {
            int j = 0;
            (
                [&](const dims& got) {
                  if (got.rank != want.rank || !std::equal(got.v, got.v + got.rank, want.v))
                    fail<shape_error>("f.outer: destination " + std::to_string(j) + " has shape " + format_shape(got) +
                                      "; the result's is a.shape + b.shape, " + format_shape(want));
                  ++j;
                }(dims(adapt_out(const_cast<std::remove_cvref_t<decltype(d)>&>(d)).view.shape())),
                ...);
          },
          std::get<sizeof...(A) - 1>(t).dst);
    }
    return with_indices<CA::first>([&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
      return with_indices<sizeof...(A) - CA::first - 2>([&]<std::size_t... J>(std::index_sequence<J...>)
                                                            ->decltype(auto) {
                                                              return k(std::get<I>(t)..., x.arg, y.arg,
                                                                       std::get<CA::first + 2 + J>(t)...);
                                                            });
    });
  }
}

/// The function an elementwise call with ufx::where runs: dst = mask ? f(args...) : dst (dst read as an operand and
/// written in place), so every target, broadcasting rule and check is the plain call's. A function with one parameter
/// list gets a call operator with those parameters, so the call's casting checks see them.
template <class F, class O, class Params = typename fn_params<F>::types, bool Known = fn_params<F>::known>
struct masked_fn {
  F f;
  using user_functions = std::tuple<F>; // run.hpp's host_only_lambda looks through it
  template <class... A>
  requires std::is_invocable_v<const F&, const A&...> UFX_HD O operator()(bool m, const O& old, const A&... a) const {
    return m ? static_cast<O>(UFX_USER_CALL(f, a...)) : old;
  }
};
template <class F, class O, class... P>
struct masked_fn<F, O, std::tuple<P...>, true> {
  F f;
  using user_functions = std::tuple<F>; // run.hpp's host_only_lambda looks through it
  UFX_HD O operator()(bool m, const O& old, P... a) const {
    return m ? static_cast<O>(UFX_USER_CALL(f, static_cast<P>(a)...)) : old;
  }
};

/// `f(args..., ufx::where(mask), ufx::out(dst))`: call(masked_fn, [target,] mask, dst, args..., options, out), `call`
/// being the elementwise front door.
template <class Call, class F, class... A>
decltype(auto) masked_call(const Call& call, const F& f, const A&... a) {
  static_assert((0 + ... + int{is_where_v<A>}) == 1, "ufx::where: given twice");
  const auto& mask = first_of<is_where>(a...).mask;
  const auto kept = args_without<is_where>(a...);
  return std::apply(
      [&](const auto&... b) -> decltype(auto) {
        using CA = call_args<decltype(b)...>;
        static_assert(CA::has_out, "ufx::where: an elementwise call with a mask needs ufx::out(dst), whose elements "
                                   "where the mask is false stay as they are (NumPy would leave them uninitialised)");
        if constexpr (CA::has_out) {
          const std::tuple<decltype(b)...> t(b...);
          const auto& o = std::get<sizeof...(b) - 1>(t);
          static_assert(std::tuple_size_v<std::remove_cvref_t<decltype(o.dst)>> == 1,
                        "ufx::where: one destination (a function with one output)");
          const auto& d = std::get<0>(o.dst);
          using O = typename decltype(adapt_out(const_cast<std::remove_cvref_t<decltype(d)>&>(d)))::value_type;
          constexpr bool checked = with_indices<CA::positional>([&]<std::size_t... I>(std::index_sequence<I...>) {
            using Args = std::tuple<typename decltype(adapt_in(std::get<CA::first + I>(t)))::value_type...>;
            if constexpr (std::is_invocable_v<const F&, const std::tuple_element_t<I, Args>&...>) {
              using R = std::invoke_result_t<const F&, const std::tuple_element_t<I, Args>&...>;
              static_assert(same_kind_castable<R, O>(),
                            "ufx::out: a destination's element type cannot hold the function's result without "
                            "changing kind (NumPy's same_kind rule: e.g. a float result into an integer destination)");
              return same_kind_castable<R, O>();
            } else return true; // the call says what does not fit
          });
          if constexpr (checked) {
            const masked_fn<F, O> g{f};
            return call_inserting<CA::first>(
                [&](const auto&... c) -> decltype(auto) {
                  return call_inserting<CA::first>([&](const auto&... e) -> decltype(auto) { return call(g, e...); },
                                                   mask, c...);
                },
                d, b...);
          }
        }
      },
      kept);
}

/// An operand's view with axis `k` moved to the end (a core dimension of a gufunc), as an ndview or, for a device
/// container, a device_view.
template <class X, class Op>
auto axis_last_view(const Op& op, int k) {
  constexpr int R = Op::rank;
  std::array<index_t, static_cast<std::size_t>(R)> shape{}, strides{};
  for (int d = 0, j = 0; d < R; ++d)
    if (d != k)
      shape[static_cast<std::size_t>(j)] = op.view.extent(d),
      strides[static_cast<std::size_t>(j++)] = op.view.stride(d);
  shape[R - 1] = op.view.extent(k);
  strides[R - 1] = op.view.stride(k);
  using T = typename Op::element_type;
  const ndview<T, R> v(op.view.data(), shape, strides);
  if constexpr (kind_of<X>() == container_kind::device) return device_view<T, R>(v);
  else return v;
}

/// v (rank r) as a view of shape `full` (rank R >= r): NumPy's broadcasting from the right, stride 0 on the new and the
/// extent-1 axes; a shape_error when an extent differs.
template <int R, class T, int r>
ndview<const T, R> broadcast_view_to(const ndview<const T, r>& v,
                                     const std::array<index_t, static_cast<std::size_t>(R)>& full) {
  std::array<index_t, static_cast<std::size_t>(R)> strides{};
  for (int d = 0; d < r; ++d) {
    const int D = R - r + d;
    if (v.extent(d) == full[static_cast<std::size_t>(D)]) strides[static_cast<std::size_t>(D)] = v.stride(d);
    else if (v.extent(d) != 1)
      fail<shape_error>("f.at: b of shape " + format_shape(dims(v.shape())) +
                        " does not broadcast to (len(indices),) + a.shape[1:] = " + format_shape(dims(full)));
  }
  return ndview<const T, R>(v.data(), full, strides);
}
/// v with axis 0 moved to the end.
template <class T, int R>
ndview<const T, R> axis_last_of(const ndview<const T, R>& v) {
  std::array<index_t, static_cast<std::size_t>(R)> shape{}, strides{};
  for (int d = 1; d < R; ++d)
    shape[static_cast<std::size_t>(d - 1)] = v.extent(d), strides[static_cast<std::size_t>(d - 1)] = v.stride(d);
  shape[R - 1] = v.extent(0);
  strides[R - 1] = v.stride(0);
  return ndview<const T, R>(v.data(), shape, strides);
}

/// f.at / f.reduceat's check of their indices against the axis length `n` (negative ones count from the end where
/// `negative` allows them, as NumPy's at does; reduceat's do not), on the host, before anything runs; then
/// `run(indices)` with the indices as the call takes them: the argument itself when it is an array already valid as
/// it is (no copy), else a host ndarray<index_t> of the normalised values (a scalar, or negative indices).
template <class I, class Run>
decltype(auto) with_checked_indices(const I& idx, index_t n, bool negative, const char* who, const char* fn,
                                    const Run& run) {
  static_assert(scalar_like<I> ? std::is_integral_v<I> && !std::is_same_v<I, bool> : true,
                "ufx: the indices of f.at / f.reduceat are integers");
  auto fail_at = [&](index_t v) {
    if (negative)
      throw index_error(std::string("ufx: ") + who + ": index " + std::to_string(v) +
                        " is out of bounds for axis 0 with size " + std::to_string(n));
    throw index_error(std::string("ufx: ") + who + ": index " + std::to_string(v) + " out-of-bounds in " + fn +
                      " [0, " + std::to_string(n) + ")");
  };
  if constexpr (scalar_like<I>) {
    const index_t v = static_cast<index_t>(idx), w = negative && v < 0 ? v + n : v;
    if (w < 0 || w >= n) fail_at(v);
    return run(ndarray<index_t, 1>({1}, w));
  } else {
    const auto op = adapt_in(idx);
    using V = typename decltype(op)::value_type;
    static_assert(decltype(op)::rank == 1 && std::is_integral_v<V> && !std::is_same_v<V, bool>,
                  "ufx: the indices of f.at / f.reduceat are a 1-D array of integers");
    const index_t m = op.view.extent(0);
    std::optional<ndarray<V, 1>> copy; // device indices: read on the host
    if (!op.space.is_host()) {
      copy.emplace(std::array<index_t, 1>{m});
      transfer(memory_space::host, copy->view(), op.space, op.view);
    }
    const ndview<const V, 1> h = copy ? ndview<const V, 1>(copy->view()) : op.view;
    // the range first (a vectorised min / max), then, only when it is out of bounds, the first index outside
    V vlo = m > 0 ? h(0) : V(0), vhi = vlo; // in the indices' own type, over a pointer where dense: pminsd / pmaxsd
    if (h.stride(0) == 1) {
      const V* p = h.data();
      for (index_t i = 1; i < m; ++i) {
        vlo = p[i] < vlo ? p[i] : vlo;
        vhi = p[i] > vhi ? p[i] : vhi;
      }
    } else {
      for (index_t i = 1; i < m; ++i) {
        vlo = h(i) < vlo ? h(i) : vlo;
        vhi = h(i) > vhi ? h(i) : vhi;
      }
    }
    // an unsigned index past index_t's range is out of bounds too
    const index_t lo = static_cast<index_t>(vlo);
    const index_t hi = [&] {
      if constexpr (std::is_unsigned_v<V>)
        return static_cast<std::uint64_t>(vhi) >= static_cast<std::uint64_t>(n) ? n : static_cast<index_t>(vhi);
      else return static_cast<index_t>(vhi);
    }();
    if ((negative ? lo < -n : lo < 0) || hi >= n)
      for (index_t i = 0; i < m; ++i) {
        if constexpr (std::is_unsigned_v<V>) {
          if (static_cast<std::uint64_t>(h(i)) >= static_cast<std::uint64_t>(n))
            throw index_error(std::string("ufx: ") + who + ": index " + std::to_string(h(i)) +
                              (negative ? " is out of bounds for axis 0 with size " : " out-of-bounds in ") +
                              (negative ? std::to_string(n) : std::string(fn) + " [0, " + std::to_string(n) + ")"));
        } else {
          const index_t v = static_cast<index_t>(h(i));
          if ((negative ? v < -n : v < 0) || v >= n) fail_at(v);
        }
      }
    const bool any_negative = lo < 0;
    if (!any_negative) return run(idx);
    ndarray<index_t, 1> w({m});
    for (index_t i = 0; i < m; ++i) w(i) = static_cast<index_t>(h(i)) < 0 ? static_cast<index_t>(h(i)) + n : h(i);
    return run(w);
  }
}

/// reduceat's core: out[i] = f over x[idx[i] : idx[i + 1]] (to the end for the last), a left fold; x[idx[i]] alone
/// where idx[i + 1] <= idx[i] (NumPy's rule).
template <class F>
struct reduceat_core {
  F f;
  using user_functions = std::tuple<F>; // run.hpp's host_only_lambda looks through it
  template <class T, class I, class O>
  UFX_HD void operator()(ndview<const T, 1> x, ndview<const I, 1> idx, ndview<O, 1> out) const {
    const index_t m = idx.extent(0), n = x.extent(0);
    for (index_t i = 0; i < m; ++i) {
      const index_t lo = static_cast<index_t>(idx(i)), hi = i + 1 < m ? static_cast<index_t>(idx(i + 1)) : n;
      O s = static_cast<O>(x(lo));
      for (index_t j = lo + 1; j < hi; ++j) s = static_cast<O>(UFX_USER_CALL(f, s, x(j)));
      out(i) = s;
    }
  }
};

/// `f.reduceat([target,] x, indices [, ufx::axis{k}])`: the gufunc "(n),(m)->(m)" of reduceat_core over x with axis k
/// last, into a new array whose axis k has the indices' length. `gufunc(core)` makes the gufunc.
template <class MakeGufunc, class F, class... A>
auto ufunc_reduceat(const MakeGufunc& gufunc, const F& f, const A&... a) {
  static_assert(arity_is<F, 2>(), "ufx: f.reduceat is only supported for binary functions (NumPy's rule)");
  using CA = call_args<A...>;
  static_assert(CA::positional == 2, "ufx: f.reduceat takes an array and its indices: f.reduceat([target,] x, "
                                     "indices [, ufx::axis{k}])");
  static_assert(CA::n_axes <= 1 && !CA::keep && !CA::has_out && !CA::has_casting,
                "ufx: f.reduceat takes one ufx::axis{k} as its only option");
  if constexpr (CA::positional == 2 && arity_is<F, 2>()) {
    const std::tuple<const A&...> t(a...);
    const auto& x = std::get<CA::first>(t);
    using X = std::remove_cvref_t<decltype(x)>;
    static_assert(!scalar_like<X> && !any_lazy<X>, "ufx: f.reduceat reduces an array (evaluate an expression first)");
    const auto op = adapt_in(x);
    constexpr int R = decltype(op)::rank;
    static_assert(R >= 1, "ufx: f.reduceat reduces an array of rank 1 or more");
    int k = 0;
    if constexpr (CA::n_axes == 1) {
      int ax[1];
      CA::axes(t, ax);
      k = ax[0] < 0 ? ax[0] + R : ax[0];
      if (k < 0 || k >= R)
        fail<shape_error>("f.reduceat: axis " + std::to_string(ax[0]) + " is out of bounds for an array of rank " +
                          std::to_string(R));
    }
    using T = typename decltype(op)::value_type;
    using O = std::remove_cvref_t<std::invoke_result_t<const F&, const T&, const T&>>;
    return with_checked_indices(
        std::get<CA::first + 1>(t), op.view.extent(k), false, "f.reduceat", "reduceat", [&](const auto& idx) {
          dims shape(op.view.shape());
          shape[k] = operand_shape(adapt_in(idx))[0];
          const memory_space space = kind_of<X>() == container_kind::device ? op.space : memory_space::host;
          auto result = result_rule<O, R, X>::make(shape, space);
          const auto dst = adapt_out(result);
          const auto core = gufunc(reduceat_core<F>{f});
          const auto xv = axis_last_view<X>(op, k);
          const auto rv = axis_last_view<X>(dst, k);
          if constexpr (CA::has_target) core(std::get<0>(t), xv, idx, ufx::out(rv));
          else core(xv, idx, ufx::out(rv));
          return result;
        });
  }
}

/// at's core, unbuffered: a[idx[i]] = f(a[idx[i]], b[i]) in index order (repeated indices apply once each), after
/// copying a's core into the output where the gufunc gave the core a copy of a to read (they overlap).
template <class F, bool Unary>
struct at_core {
  F f;
  using user_functions = std::tuple<F>; // run.hpp's host_only_lambda looks through it
  template <class T, class I, class B>
  UFX_HD void operator()(ndview<const T, 1> a, ndview<const I, 1> idx, ndview<const B, 1> b, ndview<T, 1> out) const {
    if (a.data() != out.data())
      for (index_t j = 0; j < a.extent(0); ++j) out(j) = a(j);
    for (index_t i = 0; i < idx.extent(0); ++i) {
      T& r = out(static_cast<index_t>(idx(i)));
      r = static_cast<T>(UFX_USER_CALL(f, r, b(i)));
    }
  }
  template <class T, class I>
  UFX_HD void operator()(ndview<const T, 1> a, ndview<const I, 1> idx, ndview<T, 1> out) const {
    if (a.data() != out.data())
      for (index_t j = 0; j < a.extent(0); ++j) out(j) = a(j);
    for (index_t i = 0; i < idx.extent(0); ++i) {
      T& r = out(static_cast<index_t>(idx(i)));
      r = static_cast<T>(UFX_USER_CALL(f, r));
    }
  }
};

template <class CA, bool unary, class X, class MakeGufunc, class Atomic, class F, class Tup, class Op, class Idx>
void at_checked(const MakeGufunc& gufunc, const Atomic& atomic, const F& f, const Tup& t, const Op& op, const Idx& idx);

/// f.at's launcher for functions without a device atomic (a vectorize object's): the ordered gufunc always.
struct no_atomic_at {
  template <class... A>
  bool operator()(const A&...) const {
    return false;
  }
};

/// `f.at([target,] a, indices [, b])`: NumPy's unbuffered in-place ufunc.at along a's axis 0, b broadcast to
/// (len(indices),) + a.shape[1:]: the gufunc "(n),(m),(m)->(n)" (unary f: "(n),(m)->(n)") of at_core over a with axis 0
/// last, a read (from a copy) and written in place. Each core applies its indices in order on one thread: repeated
/// indices apply once each, and the result is the same on every target. `gufunc(unary, core)` makes the gufunc.
/// `atomic(target or nullptr, a's view, indices, b's view)` may run a binary f.at instead, by device atomics, and say
/// so (true): a ready ufunc's (ufuncs/at_atomic.hpp); no_atomic_at never does.
template <class MakeGufunc, class Atomic, class F, class... A>
void ufunc_at(const MakeGufunc& gufunc, const Atomic& atomic, const F& f, A&&... a) {
  using CA = call_args<A...>;
  static_assert(CA::positional == 2 || CA::positional == 3, "ufx: f.at takes an array, its indices and (for a "
                                                            "binary function) the operand: f.at([target,] a, "
                                                            "indices [, b])");
  static_assert(CA::options == 0 && !CA::has_out, "ufx: f.at writes into a in place and takes no options");
  constexpr bool unary = CA::positional == 2;
  static_assert(arity_is < F, unary ? 1 : 2 > (),
                "ufx: f.at: a unary function takes f.at(a, indices), a binary one "
                "f.at(a, indices, b)");
  constexpr bool writes = [] {
    if constexpr (sizeof...(A) <= CA::first) return true; // no operand: the arity's message
    else {
      using First = std::tuple_element_t<CA::first, std::tuple<A&&...>>;
      return !scalar_like<std::remove_cvref_t<First>> && writable<First>;
    }
  }();
  static_assert(writes, "ufx: f.at writes into its first operand: a writable array (not const, not a scalar)");
  if constexpr ((CA::positional == 2 || CA::positional == 3) && arity_is < F, unary ? 1 : 2 > () && writes) {
    const std::tuple<A&&...> t(std::forward<A>(a)...);
    auto& arr = std::get<CA::first>(t);
    using X = std::remove_cvref_t<decltype(arr)>;
    const auto op = adapt_out(arr);
    static_assert(decltype(op)::rank >= 1, "ufx: f.at indexes axis 0 of an array of rank 1 or more");
    with_checked_indices(std::get<CA::first + 1>(t), op.view.extent(0), true, "f.at", "at",
                         [&](const auto& idx) { at_checked<CA, unary, X>(gufunc, atomic, f, t, op, idx); });
  }
}

/// f.at once its indices are checked (ufunc_at).
template <class CA, bool unary, class X, class MakeGufunc, class Atomic, class F, class Tup, class Op, class Idx>
void at_checked(const MakeGufunc& gufunc, const Atomic& atomic, const F& f, const Tup& t, const Op& op,
                const Idx& idx) {
  constexpr int R = Op::rank;
  {
    const index_t m = operand_shape(adapt_in(idx))[0];
    const auto av = axis_last_view<X>(op, 0);
    const auto in = [&] {
      using T = typename Op::value_type;
      if constexpr (kind_of<X>() == container_kind::device) return device_view<const T, R>(av);
      else return ndview<const T, R>(av);
    }();
    auto run = [&](const auto& core, const auto&... b) {
      if constexpr (CA::has_target) core(std::get<0>(t), in, idx, b..., ufx::out(av));
      else core(in, idx, b..., ufx::out(av));
    };
    // the device atomics of a ready ufunc, given a's view with axis 0 first and b's broadcast as a's
    const auto try_atomic = [&](const auto& bv) {
      if constexpr (CA::has_target) return atomic(std::get<0>(t), op, idx, bv);
      else return atomic(nullptr, op, idx, bv);
    };
    if constexpr (unary) {
      run(gufunc(std::true_type{}, at_core<F, true>{f}));
    } else {
      // b broadcast to (m,) + a.shape[1:] (NumPy's rule), then its axis 0 last, as a's
      const auto& b = std::get<CA::first + 2>(t);
      using B = std::remove_cvref_t<decltype(b)>;
      std::array<index_t, static_cast<std::size_t>(R)> full{};
      full[0] = m;
      for (int d = 1; d < R; ++d) full[static_cast<std::size_t>(d)] = op.view.extent(d);
      if constexpr (scalar_like<B>) {
        const ndarray<B, 1> one({1}, b);
        const auto bv = broadcast_view_to<R>(ndview<const B, 1>(one.view()), full);
        if (try_atomic(bv)) return;
        run(gufunc(std::false_type{}, at_core<F, false>{f}), axis_last_of(bv));
      } else {
        const auto bop = adapt_in(b);
        static_assert(decltype(bop)::rank <= R, "ufx: f.at: b has more axes than (len(indices),) + a.shape[1:]");
        const auto bv = broadcast_view_to<R>(bop.view, full);
        using BV = device_view<const typename decltype(bop)::value_type, R>; // b on a device stays a device view
        if constexpr (kind_of<B>() == container_kind::device) {
          if (!try_atomic(BV(bv))) run(gufunc(std::false_type{}, at_core<F, false>{f}), BV(axis_last_of(bv)));
        } else if (!try_atomic(bv)) {
          run(gufunc(std::false_type{}, at_core<F, false>{f}), axis_last_of(bv));
        }
      }
    }
  }
}

UFX_TU_NAMESPACE_END
} // namespace detail
} // namespace ufx
