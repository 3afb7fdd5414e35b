#pragma once
/// \file vectorize.hpp
/// `ufx::vectorize(fn)`: a scalar function becomes a broadcasting elementwise kernel.
///
///   auto add = ufx::vectorize([] UFX_HD (float a, float b) { return a + b; });
///   std::vector<float> z = add(x, y);          // default target
///   auto z2 = add(ufx::host, x, y);             // explicit target
///   add(x, y, ufx::out(z));                     // into an existing container
///
/// Broadcasting. NumPy's rules: shapes align on the right; extents must be equal or 1. Scalars
/// broadcast everywhere. Outputs are never broadcast.
///
/// Results. The element type is `fn`'s return type; a function returning `std::tuple`,
/// `std::pair` or `cuda::std::tuple` has several outputs and the call returns a `std::tuple` of
/// containers. The container follows docs/vectorize.md: a `device_array` when any operand is on a
/// device, an Eigen object when all array operands are Eigen, a `std::vector` when all are
/// `std::vector`/`std::array`/`std::span` and the result has rank 1, else an `ndarray`; a call on
/// scalars only returns a scalar.
///
/// Targets. The first argument may be a target (`ufx::serial`, `ufx::host`, `ufx::sim`,
/// `ufx::cuda` or a `ufx::target`). Without one the call runs where the data lives, else on
/// `ufx::default_target()`. For `ufx::cuda`, `fn` must be `UFX_HD` and the call compiled by nvcc.
///
/// Errors. `ufx::shape_error` for shapes that do not broadcast (the message lists every operand's
/// shape) and for an `out` of the wrong shape; `ufx::device_error` for a target that cannot run
/// here. All checks happen before anything is written. A wrong number or kind of `out`
/// destinations, or an `fn` that cannot take the operands, is a compile-time error.

#include <type_traits>
#include <utility>

#include "ufx/detail/distributed.hpp"
#include "ufx/expression.hpp"
#include "ufx/guvectorize.hpp"
#include "ufx/detail/ufunc_methods.hpp"
#include "ufx/detail/vectorize.hpp"
#include "ufx/out.hpp"
#include "ufx/reduce.hpp"
#include "ufx/targets.hpp"

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

/// The kernel `vectorize` returns: call it like a NumPy ufunc (`ufx::where(mask)` too), with a ufunc's methods
/// (`reduce`, `accumulate`, `outer`, `reduceat`, `at`) and, once given one, its identity (`Id`: detail::no_value for
/// none).
template <class F, class Id = detail::no_value>
class vectorized {
public:
  /// Marks a ufx::vectorize object: the reductions take one as their operator (its function).
  using vectorized_tag = void;
  /// Wraps the scalar function `f` (ufx::vectorize makes these), with identity `id`.
  constexpr explicit vectorized(F f, Id id = {}, const char* name = nullptr)
      : fn_(std::move(f)), id_(std::move(id)), name_(name) {}

  /// `k(args...)`, `k(target, args...)`, `k(args..., ufx::out(dst...))`.
  template <class... A>
  decltype(auto) operator()(A&&... args) const {
    const detail::label_scope label(name_);
    if constexpr ((detail::is_where_v<A> || ...)) {
      static_assert(!detail::any_distributed<A...> && !detail::any_lazy<A...>,
                    "ufx::where: a mask on distributed operands or expressions is not supported; evaluate first");
      return detail::masked_call([](const auto&... b) -> decltype(auto) { return detail::vectorize_call(b...); }, fn_,
                                 args...);
    } else if constexpr (detail::any_distributed<A...>)
      return detail::distributed_call(*this, std::forward<A>(args)...);
    else if constexpr (detail::any_lazy<A...>) return detail::lazy_call(fn_, std::forward<A>(args)...);
    else return detail::vectorize_call(fn_, std::forward<A>(args)...);
  }

  /// The scalar function.
  const F& function() const { return fn_; }

  /// This kernel with identity `v` (NumPy's `ufunc.identity`: add's 0, multiply's 1): the result of reducing nothing,
  /// and what `reduce` starts each partial from. A binary function without one reduces only non-empty arrays.
  template <class V>
  vectorized<F, std::decay_t<V>> identity(V&& v) const {
    static_assert(scalar_like<std::decay_t<V>>, "ufx: a ufunc's identity is a scalar");
    return vectorized<F, std::decay_t<V>>(fn_, std::forward<V>(v), name_);
  }
  /// The identity (detail::no_value when there is none).
  const Id& identity() const { return id_; }
  /// Whether the kernel has an identity.
  static constexpr bool has_identity = !std::is_same_v<Id, detail::no_value>;

  /// NumPy's `ufunc.reduce` of a binary function: `f.reduce([target,] x [, ufx::axis{...} | ufx::all_axes]
  /// [, ufx::keepdims] [, ufx::initial(v)] [, ufx::where(mask)] [, ufx::out(dst)])`. Without an axis it reduces axis
  /// 0, as NumPy does (a 1-D array to a scalar); ufx::all_axes reduces every axis; a mask needs the identity, which the
  /// masked-out elements become. The rest is ufx::reducer(function(), identity())'s.
  template <class... A>
  decltype(auto) reduce(const A&... args) const {
    constexpr bool masked = (detail::is_where_v<A> || ...);
    static_assert(!masked || has_identity, "ufx: f.reduce with ufx::where needs the function's identity "
                                           "(ufx::vectorize(fn).identity(v)), which the masked-out elements become");
    auto mask = [&](const auto& x, const auto& m) {
      if constexpr (has_identity)
        return vectorized<detail::masked_value<Id>>(detail::masked_value<Id>{id_})(ufx::lazy(x), m);
    };
    static_assert(detail::associative<F>(),
                  "ufx: this ufunc is not associative (subtract, divide, power, a comparison, "
                  "...): its reduce would depend on the order a target combines in; NumPy "
                  "folds left to right, as f.reduceat(x, {0}) does on every target");
    if constexpr (!masked || has_identity)
      return detail::ufunc_reduce<F>(reduction<detail::reduce_op_t<F>, Id>(detail::reduce_op_of(fn_), id_, name_), mask,
                                     args...);
  }
  /// NumPy's `ufunc.accumulate` of a binary function: `f.accumulate([target,] x [, ufx::axis{k}] [, ufx::out(dst)])`,
  /// along axis 0 by default: ufx::accumulate(x, function(), ...).
  template <class... A>
  decltype(auto) accumulate(const A&... args) const {
    const detail::label_scope label(name_);
    static_assert(detail::associative<F>(),
                  "ufx: this ufunc is not associative (subtract, divide, power, a comparison, "
                  "...): its accumulate would depend on the order a target combines in");
    return detail::ufunc_accumulate([](const auto&... b) -> decltype(auto) { return ufx::accumulate(b...); },
                                    detail::reduce_op_of(fn_), args...);
  }
  /// NumPy's `ufunc.outer`: `f.outer([target,] a, b [, ufx::out(dst)])`, r[i..., j...] = f(a[i...], b[j...]), of
  /// shape a.shape + b.shape.
  template <class... A>
  decltype(auto) outer(const A&... args) const {
    return detail::ufunc_outer(*this, args...);
  }

  /// NumPy's `ufunc.reduceat` of a binary function: `f.reduceat([target,] x, indices [, ufx::axis{k}])`, along axis 0
  /// by default: r[i] = f over x[indices[i] : indices[i + 1]] (to the end for the last index), a left fold in order,
  /// and x[indices[i]] alone where indices[i + 1] <= indices[i]; indices outside [0, n): ufx::index_error. One
  /// thread folds each row's segments in order, so the result is the same on every target.
  template <class... A>
  auto reduceat(const A&... args) const {
    const detail::label_scope label(name_);
    return detail::ufunc_reduceat([](const auto& core) { return ufx::guvectorize<"(n),(m)->(m)">(core); }, fn_,
                                  args...);
  }
  /// NumPy's `ufunc.at`, unbuffered and in place: `f.at([target,] a, indices [, b])` sets a[i] = f(a[i], b[k]) for
  /// each i = indices[k] in order along a's axis 0 (a unary f: a[i] = f(a[i])), so a repeated index applies once each
  /// time; b broadcasts to (len(indices),) + a.shape[1:]; negative indices count from the end; others outside a:
  /// ufx::index_error, before anything is written. One thread applies each row's updates in order, so the result is
  /// the same on every target.
  template <class... A>
  void at(A&&... args) const {
    at_with(detail::no_atomic_at{}, std::forward<A>(args)...);
  }

  /// This kernel with a name, which profiler ranges show ("vectorize add", docs/performance.md).
  /// `name` must outlive the kernel (a string literal does).
  vectorized named(const char* name) const {
    vectorized v = *this;
    v.name_ = name;
    return v;
  }
  /// The name given by named(), or null.
  const char* name() const { return name_; }

protected:
  /// at() with `atomic`, which may run it by device atomics instead (detail::ufunc_at; a ready ufunc's).
  template <class Atomic, class... A>
  void at_with(const Atomic& atomic, A&&... args) const {
    const detail::label_scope label(name_);
    detail::ufunc_at(
        [](auto unary, const auto& core) {
          if constexpr (decltype(unary)::value) return ufx::guvectorize<"(n),(m)->(n)">(core);
          else return ufx::guvectorize<"(n),(m),(m)->(n)">(core);
        },
        atomic, fn_, std::forward<A>(args)...);
  }

private:
  F fn_;
  Id id_;
  const char* name_ = nullptr;
};

/// Turns a function of scalars into a broadcasting elementwise kernel.
template <class F>
vectorized<std::decay_t<F>> vectorize(F&& fn) {
  return vectorized<std::decay_t<F>>(std::forward<F>(fn));
}

UFX_TU_NAMESPACE_END
} // namespace ufx
