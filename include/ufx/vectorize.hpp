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
#include "ufx/detail/vectorize.hpp"
#include "ufx/out.hpp"
#include "ufx/targets.hpp"

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

/// The kernel `vectorize` returns: call it like a NumPy ufunc.
template <class F>
class vectorized {
public:
  /// Wraps the scalar function `f` (ufx::vectorize makes these).
  explicit vectorized(F f) : fn_(std::move(f)) {}

  /// `k(args...)`, `k(target, args...)`, `k(args..., ufx::out(dst...))`.
  template <class... A>
  decltype(auto) operator()(A&&... args) const {
    const detail::label_scope label(name_);
    if constexpr (detail::any_distributed<A...>) return detail::distributed_call(*this, std::forward<A>(args)...);
    else if constexpr (detail::any_lazy<A...>) return detail::lazy_call(fn_, std::forward<A>(args)...);
    else return detail::vectorize_call(fn_, std::forward<A>(args)...);
  }

  /// The scalar function.
  const F& function() const { return fn_; }

  /// This kernel with a name, which profiler ranges show ("vectorize add", docs/performance.md).
  /// `name` must outlive the kernel (a string literal does).
  vectorized named(const char* name) const {
    vectorized v = *this;
    v.name_ = name;
    return v;
  }
  /// The name given by named(), or null.
  const char* name() const { return name_; }

private:
  F fn_;
  const char* name_ = nullptr;
};

/// Turns a function of scalars into a broadcasting elementwise kernel.
template <class F>
vectorized<std::decay_t<F>> vectorize(F&& fn) {
  return vectorized<std::decay_t<F>>(std::forward<F>(fn));
}

UFX_TU_NAMESPACE_END
} // namespace ufx
