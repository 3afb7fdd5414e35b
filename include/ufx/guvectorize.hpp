#pragma once
/// \file guvectorize.hpp
/// `ufx::guvectorize<"(m,n),(n,p)->(m,p)">(fn)`: a function of core blocks becomes a broadcasting
/// generalized kernel, as NumPy's gufuncs and Numba's `@guvectorize`.
///
/// \code
///   struct matmul_f {
///     template <class T>
///     UFX_HD void operator()(ufx::ndview<const T, 2> a, ufx::ndview<const T, 2> b, ufx::ndview<T, 2> c) const {
///       for (ufx::index_t i = 0; i < c.extent(0); ++i)
///         for (ufx::index_t j = 0; j < c.extent(1); ++j) {
///           T s = 0;
///           for (ufx::index_t k = 0; k < a.extent(1); ++k) s += a(i, k) * b(k, j);
///           c(i, j) = s;
///         }
///     }
///   };
///   auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
///   ufx::ndarray<float, 3> c = matmul(a, b);      // a: (B,m,n), b: (n,p) -> c: (B,m,p)
///   matmul(ufx::host, a, b, ufx::out(c));         // explicit target, existing destination
/// \endcode
///
/// Signature. NumPy's grammar: operands are parenthesised lists of dimension names
/// (`[A-Za-z_][A-Za-z0-9_]*`) or fixed sizes (`(3)`), `()` for a scalar core, inputs and outputs
/// separated by `->`, whitespace anywhere between tokens. It is parsed at compile time; a malformed
/// signature is a static_assert naming the problem (NumPy's `?` dimensions are not supported).
///
/// The function. `fn` takes one parameter per input, then one per output, in signature order:
/// `ufx::ndview<const T, k>` for an input core of rank k, `T` for a `()` input, `ufx::ndview<T, k>`
/// for an output core and `T&` for a `()` output. Views carry the operand's real strides (Eigen and
/// transposed data are not copied on host targets). A non-generic `fn` whose parameter count or
/// kinds do not match the signature is a static_assert. For `ufx::cuda`, `fn` must be `UFX_HD`.
///
/// Results. An output's element type is `fn`'s parameter type (`T` of `ndview<T, k>` or `T&`). For
/// a functor with a template `operator()` it is the destination's type when `out` is given, else
/// `std::common_type_t` of the inputs' element types. Output shapes are the broadcast loop shape
/// followed by the output's core; containers follow the rules of docs/vectorize.md, except that a rank-0 result
/// (no loop dimensions, `()` core) off the device is returned as a plain `T`. Several outputs come
/// back as a `std::tuple`.
///
/// Broadcasting. Core dimensions are the last dimensions of each operand and bind by name across
/// operands; the dimensions before them are loop dimensions and broadcast with NumPy's rules
/// (`out` destinations take part but are never broadcast). Zero-size loop dimensions call `fn`
/// never; zero-size core dimensions still call it once per loop index.
///
/// Errors. `ufx::shape_error`, before anything is allocated or written, naming the signature and
/// the operand: a rank smaller than the operand's core rank, a core dimension whose sizes conflict
/// (the dimension's name and both sizes), an output core dimension that no input binds and no
/// `out` gives, loop dimensions that do not broadcast, an `out` of the wrong shape.
/// `ufx::device_error` for a target that cannot run here.

#include <string_view>
#include <type_traits>
#include <utility>

#include "ufx/detail/distributed.hpp"
#include "ufx/detail/core/lazy_traits.hpp"
#include "ufx/detail/gufunc.hpp"
#include "ufx/detail/core/gufunc_types.hpp"
#include "ufx/detail/core/signature.hpp"
#include "ufx/out.hpp"
#include "ufx/targets.hpp"

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

/// The kernel `guvectorize` returns. `Sig` is the parsed signature, a type of integers only.
template <class Sig, class F>
class gufunc {
public:
  /// Wraps the core function `f` (guvectorize makes gufuncs; its signature checks come first).
  explicit gufunc(F f) : fn_(std::move(f)) {}

  /// `g(args...)`, `g(target, args...)`, `g(args..., ufx::out(dst...))`.
  template <class... A>
  decltype(auto) operator()(A&&... args) const {
    // an expression's elements computed as the core reads them would be recomputed for every read
    // of a core element ((m,n),(n,p)->(m,p) reads each p times): evaluating it once costs less
    static_assert(!detail::any_lazy<A...>, "ufx::guvectorize: an expression (ufx::lazy) is not an operand of a "
                                           "gufunc; evaluate it first: f(ufx::eval(e), ...)");
    const detail::label_scope label(name_);
    if constexpr (detail::any_lazy<A...>) return;
    else if constexpr (detail::any_distributed<A...>) return detail::distributed_call(*this, std::forward<A>(args)...);
    else return detail::gufunc_call<Sig>(fn_, std::forward<A>(args)...);
  }

  /// The signature as written.
  static std::string_view signature() { return Sig::str(); }
  /// The core function.
  const F& function() const { return fn_; }

  /// This kernel with a name, which profiler ranges show ("guvectorize matmul",
  /// docs/performance.md). `name` must outlive the kernel (a string literal does).
  gufunc named(const char* name) const {
    gufunc g = *this;
    g.name_ = name;
    return g;
  }
  /// The name given by named(), or null.
  const char* name() const { return name_; }

private:
  F fn_;
  const char* name_ = nullptr;
};

/// Turns a function of core blocks into a generalized kernel with NumPy core signature `S`.
template <detail::fixed_string S, class F>
auto guvectorize(F&& fn) {
  using Sig = detail::signature_of<S>;
  using Fn = std::decay_t<F>;
  constexpr bool signature_ok = detail::signature_check<S, Sig::parsed.error, Sig::parsed.error_at>::ok;
  if constexpr (signature_ok) {
    constexpr bool function_ok = detail::check_function<S, Sig, Fn>();
    if constexpr (function_ok) return gufunc<Sig, Fn>(std::forward<F>(fn));
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx
