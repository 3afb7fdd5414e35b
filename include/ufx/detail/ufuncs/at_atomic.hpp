#pragma once
// A ready ufunc's f.at on a device target by atomics (CuPy's scatter_add, cupyx.scatter_max): one thread per update,
// a raw kernel (ufx::kernel) that the sim runs and checks as it runs every kernel. Only where an atomic gives what the
// ordered loop gives, up to the order of the updates:
//   add, subtract            int32/uint32/int64/uint64 (bitwise the ordered loop's), float, double, float16, bfloat16
//                            (each update rounded once, in the order the device applies them);
//   maximum, minimum, fmax, fmin, bitwise_and, bitwise_or, bitwise_xor
//                            the 32- and 64-bit integers (bitwise the ordered loop's);
// and b's type casts safely to a's (b converted exactly, as the ordered loop's f(a, b) computes it). Everything else
// (another function or type, a host target, a unary f) runs the ordered gufunc (detail/ufunc_methods.hpp).
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ufx/atomic.hpp"
#include "ufx/casting.hpp"
#include "ufx/detail/core/testing.hpp"
#include "ufx/detail/ufuncs/ops.hpp"
#include "ufx/device_array.hpp"
#include "ufx/kernel.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// The atomic of function F on elements of type T (none: void).
template <class F, class T>
struct at_atomic_of {
  using type = void;
};
#define UFX_AT_ATOMIC(op_, call_, types_)                                                                              \
  struct at_##op_ {                                                                                                    \
    template <class T>                                                                                                 \
    UFX_HD static void apply(T& r, T v) {                                                                              \
      ufx::call_(r, v);                                                                                                \
    }                                                                                                                  \
  };                                                                                                                   \
  template <class T>                                                                                                   \
  requires(types_<T>) struct at_atomic_of<ops::op_, T> { using type = at_##op_; };
UFX_AT_ATOMIC(add, atomic_add, atomic_element)
UFX_AT_ATOMIC(subtract, atomic_sub, atomic_element)
UFX_AT_ATOMIC(maximum, atomic_max, atomic_integer)
UFX_AT_ATOMIC(minimum, atomic_min, atomic_integer)
UFX_AT_ATOMIC(fmax, atomic_max, atomic_integer)
UFX_AT_ATOMIC(fmin, atomic_min, atomic_integer)
UFX_AT_ATOMIC(bitwise_and, atomic_and, atomic_integer)
UFX_AT_ATOMIC(bitwise_or, atomic_or, atomic_integer)
UFX_AT_ATOMIC(bitwise_xor, atomic_xor, atomic_integer)
#undef UFX_AT_ATOMIC

/// The element a(i[0], ..., i[R-1]).
template <class V, std::size_t... K>
UFX_HD decltype(auto) at_element(const V& v, const index_t* i, std::index_sequence<K...>) {
  return v(i[K]...);
}

/// f.at's kernel: thread k applies update k of the m * (a.shape[1:]) updates, a[idx[k / inner], rest] op= b[k / inner,
/// rest] (b broadcast to (m,) + a.shape[1:]), by the atomic Atom.
template <class Atom, class T, class I, class B, int R>
struct at_atomic_body {
  UFX_HD void operator()(const ufx::thread& t, ndview<T, R> a, ndview<const I, 1> idx, ndview<const B, R> b) const {
    index_t inner = 1;
    for (int d = 1; d < R; ++d) inner *= a.extent(d);
    const index_t k = t.grid<1>();
    if (k >= idx.extent(0) * inner) return;
    index_t ai[R], bi[R];
    index_t r = k % inner;
    for (int d = R - 1; d >= 1; --d) {
      ai[d] = bi[d] = r % a.extent(d);
      r /= a.extent(d);
    }
    bi[0] = k / inner;
    ai[0] = static_cast<index_t>(idx(bi[0]));
    const auto seq = std::make_integer_sequence<std::size_t, R>{};
    Atom::apply(at_element(a, ai, seq), static_cast<T>(at_element(b, bi, seq)));
  }
};

/// Whether a call of f.at on target tag Tgt can run the atomic kernel in this translation unit (raw kernels: the sim
/// with Boost.Context, ufx::cuda compiled by nvcc; elsewhere the ordered gufunc runs, or says why it cannot).
template <class Tgt>
bool at_kernels_on() {
  if constexpr (std::is_same_v<Tgt, sim_t>) return host_kernels_available();
  else if constexpr (std::is_same_v<Tgt, cuda_t>) return UFX_CUDA_TU != 0;
  else return false;
}

/// Whether a call of f.at on `target` (nullptr: none given, a's memory decides) runs the atomic kernel.
template <class Tgt, class Op>
bool at_by_atomics(const Tgt& target, const Op& op) {
  if constexpr (std::is_same_v<Tgt, std::nullptr_t>) {
    if (op.space.is_host()) return false;
    return op.space.runtime == &sim_t::runtime() ? at_kernels_on<sim_t>() : at_kernels_on<cuda_t>();
  } else if constexpr (std::is_same_v<Tgt, ufx::target>) {
    return target.visit([](const auto& t) { return at_kernels_on<std::remove_cvref_t<decltype(t)>>(); });
  } else {
    return at_kernels_on<Tgt>();
  }
}

/// Whether f.at's atomic kernel may run on target type Tgt (a device tag, a run-time target, or none).
template <class Tgt>
inline constexpr bool at_maybe_device = std::is_same_v<Tgt, std::nullptr_t> || std::is_same_v<Tgt, ufx::target> ||
                                        std::is_same_v<Tgt, sim_t> || (UFX_CUDA_TU && std::is_same_v<Tgt, cuda_t>);

/// The launcher detail::ufunc_at calls for the ready ufunc of F: runs f.at by atomics and says so (true) where
/// at_atomic_of has an atomic for the types and the call is on a device; else false (the ordered gufunc runs).
template <class F>
struct atomic_at {
  template <class Tgt, class Op, class Idx, class BV>
  bool operator()(const Tgt& target, const Op& op, const Idx& idx, const BV& bv) const {
    using T = typename Op::value_type;
    using B = std::remove_const_t<typename BV::value_type>;
    using Atom = typename at_atomic_of<F, T>::type;
    if constexpr (std::is_void_v<Atom> || !can_cast<B, T>() || !at_maybe_device<Tgt>) {
      return false;
    } else {
      if (!testing().at_atomics.on() || !at_by_atomics(target, op)) return false;
      testing().at_atomics.count();
      constexpr int R = Op::rank;
      const auto ix = adapt_in(idx);
      using I = typename decltype(ix)::value_type;
      const auto k = ufx::kernel(at_atomic_body<Atom, T, I, B, R>{}, "f.at (device atomics)");
      index_t updates = ix.view.extent(0);
      for (int d = 1; d < R; ++d) updates *= op.view.extent(d);
      const auto run = [&](auto a) {
        if constexpr (std::is_same_v<Tgt, std::nullptr_t>) k.forall(updates)(a, idx, bv);
        else k.forall(updates)(target, a, idx, bv);
      };
      if (op.space.is_host()) {
        ndview<T, R> a = op.view;
        run(a);
      } else {
        run(device_view<T, R>(op.view));
      }
      return true;
    }
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
