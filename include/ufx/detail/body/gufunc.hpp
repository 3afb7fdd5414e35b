#pragma once
// The gufunc kernel: at one loop index, build each operand's core (a view with the operand's real core strides, a
// value, or a reference) and call the user function once. Operands are stored outputs first (as in map_body, so loop
// simplification walks the first output in memory order); fn receives them in signature order, inputs first.
//
// Speed: a core dimension of fixed size ("(4,4),(4,4)->(4,4)") is a compile-time constant in the view, and when every
// core is dense and row-major the host targets call `at<true>`, whose strides are computed from the extents (a
// fixed-size core's index arithmetic is all known to the compiler; a run-time-size core still has a unit inner stride
// to vectorize along). Host targets also run dense calls whose run-time core sizes all equal one small size
// (UFX_GUFUNC_SMALL_SIZES) through a copy with that size as a constant.
#include <array>
#include <type_traits>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/detail/body/map.hpp"
#include "ufx/detail/core/signature.hpp"
#include "ufx/detail/core/tuple.hpp"
#include "ufx/ndview.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Sig, class F, int NOut, class... Acc>
struct gufunc_body {
  static constexpr int N = sizeof...(Acc);
  static constexpr int NIn = N - NOut;
  static constexpr int C = [] {
    int c = 1;
    for (int s = 0; s < Sig::operands; ++s) c = c > Sig::core_rank(s) ? c : Sig::core_rank(s);
    return c;
  }();
  static constexpr int D = Sig::ndims > 0 ? Sig::ndims : 1;
  /// Whether some core dimension's size is known only at run time (small_size can apply).
  static constexpr bool has_runtime_dims = [] {
    for (int d = 0; d < Sig::ndims; ++d)
      if (Sig::parsed.fixed[d] < 0) return true;
    return false;
  }();
  using sig = Sig;
  /// Every operand an array and every core size fixed by the signature: what device/gufunc.hpp's staged body takes.
  static constexpr bool all_fixed_arrays = !has_runtime_dims && (Acc::is_array && ...);

  F f;
  tuple<Acc...> acc;
  index_t dim_size[D] = {};       // size bound to each signature dimension
  index_t core_stride[N][C] = {}; // operand k's core strides (kernel order: outputs first)

  /// Calls fn at per-operand offsets `off` (device targets: one call per thread).
  UFX_HD void operator()(const index_t (&off)[N]) const { at<false>(off); }

  /// Calls fn at offsets `off`; with Dense, every core is taken as dense and row-major. With Small > 0, every run-time
  /// dimension is taken to be Small (small_size) and reaches fn as a compile-time constant, as a fixed size does.
  template <bool Dense, int Small = 0>
  UFX_HD void at(const index_t (&off)[N]) const {
    call<Dense, Small>(off, std::make_index_sequence<N>{});
  }

  /// Calls fn on dense row-major cores at `base[k]` (kernel order; bytes): the staged body's shared-memory copies.
  UFX_HD void at_cores(unsigned char* const (&base)[N]) const { call_cores(base, std::make_index_sequence<N>{}); }

  /// Extent of operand S's j-th core dimension: a constant when the signature fixes it, or Small.
  template <int S, int J, int Small = 0>
  UFX_HD index_t extent() const {
    constexpr int d = Sig::dim(S, J);
    constexpr long long fixed = Sig::parsed.fixed[d];
    if constexpr (fixed >= 0) return static_cast<index_t>(fixed);
    else if constexpr (Small > 0) return Small;
    else return dim_size[d];
  }

  /// The size every run-time core dimension is bound to, when they all share one (and there is one); else 0.
  index_t small_size() const {
    index_t k = 0;
    for (int d = 0; d < Sig::ndims; ++d) {
      if (Sig::parsed.fixed[d] >= 0) continue;
      if (k != 0 && dim_size[d] != k) return 0;
      k = dim_size[d];
    }
    return k;
  }

  /// Calls `fn(k, pointer, element_size, lo, hi)` for each array operand k (kernel order), with [lo, hi] the element
  /// offsets its core reaches from a loop position; skipped for an empty core.
  template <class Fn>
  void for_each_array(Fn&& fn) const {
    each_array(fn, std::make_index_sequence<N>{});
  }

private:
  template <class Fn, std::size_t... K>
  void each_array(Fn& fn, std::index_sequence<K...>) const {
    (
        [&] {
          using A = std::remove_cvref_t<decltype(get<K>(acc))>;
          if constexpr (A::is_array) {
            constexpr int S = K < NOut ? NIn + static_cast<int>(K) : static_cast<int>(K) - NOut;
            index_t lo = 0, hi = 0;
            for (int j = 0; j < Sig::core_rank(S); ++j) {
              const index_t e = dim_size[Sig::dim(S, j)];
              if (e == 0) return;
              const index_t span = (e - 1) * core_stride[K][j];
              (span < 0 ? lo : hi) += span;
            }
            fn(static_cast<int>(K), static_cast<const void*>(get<K>(acc).p), sizeof(acc_element<A>), lo, hi);
          }
        }(),
        ...);
  }

  template <bool Dense, int Small, std::size_t... S>
  UFX_HD void call(const index_t (&off)[N], std::index_sequence<S...>) const {
    UFX_USER_CALL(f, arg<Dense, Small, static_cast<int>(S)>(off)...);
  }

  template <std::size_t... S>
  UFX_HD void call_cores(unsigned char* const (&base)[N], std::index_sequence<S...>) const {
    UFX_USER_CALL(f, core_arg<static_cast<int>(S)>(base)...);
  }

  template <int S>
  UFX_HD decltype(auto) core_arg(unsigned char* const (&base)[N]) const {
    constexpr int K = S < NIn ? NOut + S : S - NIn; // kernel position of signature operand S
    constexpr int R = Sig::core_rank(S);
    using E = typename std::remove_cvref_t<decltype(get<K>(acc))>::element_type;
    E* p = reinterpret_cast<E*>(base[K]);
    if constexpr (R == 0) {
      if constexpr (S < NIn) return static_cast<std::remove_cv_t<E>>(*p);
      else return static_cast<E&>(*p);
    } else {
      return view<true, 0, S, K, R, E>(p, std::make_index_sequence<R>{});
    }
  }

  template <bool Dense, int Small, int S>
  UFX_HD decltype(auto) arg(const index_t (&off)[N]) const {
    constexpr int K = S < NIn ? NOut + S : S - NIn; // kernel position of signature operand S
    constexpr int R = Sig::core_rank(S);
    const auto& a = get<K>(acc);
    using A = std::remove_cvref_t<decltype(a)>;
    using E = typename A::element_type;
    if constexpr (!A::is_array) {
      // a C++ scalar argument: fine for a '()' core; any other core was rejected by the shape step
      if constexpr (R == 0) return a.v;
      else return ndview<E, R>{};
    } else if constexpr (R == 0) {
      if constexpr (S < NIn) return static_cast<std::remove_cv_t<E>>(a.p[off[K]]);
      else return static_cast<E&>(a.p[off[K]]);
    } else {
      return view<Dense, Small, S, K, R, E>(a.p + off[K], std::make_index_sequence<R>{});
    }
  }

  template <bool Dense, int Small, int S, int K, int R, class E, std::size_t... J>
  UFX_HD ndview<E, R> view(E* p, std::index_sequence<J...>) const {
    const std::array<index_t, R> ext = {extent<S, static_cast<int>(J), Small>()...};
    std::array<index_t, R> str = {core_stride[K][J]...};
    if constexpr (Dense) {
      index_t s = 1;
      for (int j = R - 1; j >= 0; --j) {
        str[j] = s;
        s *= ext[j];
      }
    }
    return ndview<E, R>(p, ext, str);
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
