#pragma once
/// \file atomic.hpp
/// Atomic read-modify-write operations on one element, for raw kernels (ufx::kernel), as CUDA's
/// atomicAdd ... atomicCAS and Numba's cuda.atomic: `ufx::atomic_add`, `atomic_sub`, `atomic_min`,
/// `atomic_max`, `atomic_exch`, `atomic_cas`, the bitwise `atomic_and`, `atomic_or`, `atomic_xor`
/// (integers), the wrapping counters `atomic_inc`, `atomic_dec` (uint32_t, uint64_t) and Numba's
/// `atomic_nanmax`, `atomic_nanmin`. Each takes the element by reference (an ndview's
/// `v(i)`), works on host and device, and returns the value the element held before.
///
/// Example: every thread adds its element into out(0) (out is a ufx::ndview<float, 1>, whose
/// operator() returns a float&).
///   // in a kernel body, thread i:
///   if (i < x.extent(0)) ufx::atomic_add(out(0), x(i));
///
/// Element types: int32_t, uint32_t, int64_t, uint64_t (int, long, long long and their unsigned
/// forms, whichever of them the platform's fixed-width names alias), float, double, and
/// ufx::float16 and ufx::bfloat16 (half.hpp; all but the bitwise and counter functions). Any other
/// type (bool, char, short, a struct, a const element) is a static_assert. The value argument is
/// converted to the element's type, as an assignment would: `atomic_add(float_ref, 1)` adds 1.0f;
/// a float16 element takes a float16 (`atomic_add(h, ufx::float16(1))`: nothing converts to it
/// implicitly).
///
/// Memory order: relaxed, as CUDA's atomic functions: each update is indivisible but orders no other
/// memory access. The exception is atomic_cas on the host, which is sequentially consistent
/// (std::atomic_ref's default; on x86-64 the same instruction as relaxed); on the device it is
/// relaxed as atomicCAS is, so a lock built on it needs a fence there, as in CUDA. On the device the
/// scope is the GPU (cuda::thread_scope_device): updates by the host or another GPU to the same
/// element at the same time are not covered. On the host (the serial, host and sim targets) the
/// functions are std::atomic_ref's, so they are atomic between host threads too.
///
/// Floating point: atomic_add and atomic_sub round as `a + b` does. CUDA has no atomicMin / atomicMax
/// for float or double; these are libcu++'s fetch_min / fetch_max (a compare-and-swap loop), done
/// the same way on the host: atomic_min stores v only when `v < old`, atomic_max only when
/// `old < v`. As every comparison with a NaN is false, a NaN argument is never stored, and a NaN
/// already stored stays whatever comes after (Numba's cuda.atomic.nanmin / nanmax and std::fmin
/// take the number instead, NumPy's minimum the NaN). Of -0.0 and +0.0, which compare equal, the
/// one stored first stays. atomic_cas compares bits, as compare_exchange does: -0.0 does not match
/// +0.0, and a NaN matches a NaN with the same bits.
/// Integers wrap around on overflow.
///
/// float16 and bfloat16: atomic_add and atomic_sub store `old + v` and `old - v` as the type's own
/// operators give them, computed in float and rounded once (the bits of CUDA's atomicAdd on `__half`
/// and `__nv_bfloat16`); the others treat NaNs and signed zeros as they do for float. On the device,
/// atomic_add is CUDA's atomicAdd where CUDA has it (float16 from sm_70; bfloat16 from sm_80, one
/// instruction from sm_90); everything else, and atomic_add below those, is a compare-and-swap loop
/// on the aligned 4-byte word that holds the element (libcu++'s, as CUDA's own fallbacks): it works
/// on every architecture, neighbouring elements included, at the cost of retries under contention.
///
/// The element must be aligned to its size (any element of a ufx array is).
///
/// In a raw kernel on the host targets, atomic updates of a `ufx::shared` element are known to the
/// block runner's race check: they do not race with each other, while an atomic update and a plain
/// read or write of the element by another thread in the same barrier interval do (thread.hpp).

#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/detail/raw/atomic.hpp"

/// \cond INTERNAL
// The list of element types, in each function's static_assert message (undefined again at the end).
#define UFX_ATOMIC_ELEMENT_TYPES                                                                                       \
  "the element type must be int32_t, uint32_t, int64_t, uint64_t, float, double, ufx::float16 or ufx::bfloat16 (not "  \
  "const or volatile)"
#define UFX_ATOMIC_INTEGER_TYPES                                                                                       \
  "the element type must be int32_t, uint32_t, int64_t or uint64_t (not const or volatile; a bitwise operation "       \
  "has no floating-point form)"
#define UFX_ATOMIC_COUNTER_TYPES                                                                                       \
  "the element type must be uint32_t or uint64_t (not const or volatile), as CUDA's wrapping counters"
/// \endcond

namespace ufx {

/// ref += v, atomically; returns the old value (CUDA's atomicAdd, Numba's cuda.atomic.add).
template <class T>
UFX_HD T atomic_add(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_element<T>, "ufx::atomic_add: " UFX_ATOMIC_ELEMENT_TYPES);
  return detail::atomic_apply<detail::atomic_op::add, T>(ref, v, v);
}

/// ref -= v, atomically; returns the old value (CUDA's atomicSub, Numba's cuda.atomic.sub).
template <class T>
UFX_HD T atomic_sub(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_element<T>, "ufx::atomic_sub: " UFX_ATOMIC_ELEMENT_TYPES);
  return detail::atomic_apply<detail::atomic_op::sub, T>(ref, v, v);
}

/// ref = v if v < ref, atomically; returns the old value (CUDA's atomicMin, Numba's
/// cuda.atomic.min). A NaN v is never stored and a stored NaN stays (see the file comment).
template <class T>
UFX_HD T atomic_min(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_element<T>, "ufx::atomic_min: " UFX_ATOMIC_ELEMENT_TYPES);
  return detail::atomic_apply<detail::atomic_op::min, T>(ref, v, v);
}

/// ref = v if ref < v, atomically; returns the old value (CUDA's atomicMax, Numba's
/// cuda.atomic.max). A NaN v is never stored and a stored NaN stays (see the file comment).
template <class T>
UFX_HD T atomic_max(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_element<T>, "ufx::atomic_max: " UFX_ATOMIC_ELEMENT_TYPES);
  return detail::atomic_apply<detail::atomic_op::max, T>(ref, v, v);
}

/// ref = v, atomically; returns the old value (CUDA's atomicExch, Numba's cuda.atomic.exch).
template <class T>
UFX_HD T atomic_exch(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_element<T>, "ufx::atomic_exch: " UFX_ATOMIC_ELEMENT_TYPES);
  return detail::atomic_apply<detail::atomic_op::exch, T>(ref, v, v);
}

/// ref = desired if ref's bits equal expected's, atomically; returns the old value, whose bits
/// equal expected's exactly when the swap happened (CUDA's atomicCAS, Numba's cuda.atomic.cas).
template <class T>
UFX_HD T atomic_cas(T& ref, std::type_identity_t<T> expected, std::type_identity_t<T> desired) {
  static_assert(detail::atomic_element<T>, "ufx::atomic_cas: " UFX_ATOMIC_ELEMENT_TYPES);
  return detail::atomic_apply<detail::atomic_op::cas, T>(ref, expected, desired);
}

/// ref = (ref >= v) ? 0 : ref + 1, atomically: a counter that wraps at v; returns the old value
/// (CUDA's atomicInc, Numba's cuda.atomic.inc). uint32_t or uint64_t.
template <class T>
UFX_HD T atomic_inc(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_counter<T>, "ufx::atomic_inc: " UFX_ATOMIC_COUNTER_TYPES);
  return detail::atomic_apply<detail::atomic_op::inc, T>(ref, v, v);
}

/// ref = (ref == 0 || ref > v) ? v : ref - 1, atomically: a counter that wraps from 0 to v;
/// returns the old value (CUDA's atomicDec, Numba's cuda.atomic.dec). uint32_t or uint64_t.
template <class T>
UFX_HD T atomic_dec(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_counter<T>, "ufx::atomic_dec: " UFX_ATOMIC_COUNTER_TYPES);
  return detail::atomic_apply<detail::atomic_op::dec, T>(ref, v, v);
}

/// ref &= v, atomically; returns the old value (CUDA's atomicAnd, Numba's cuda.atomic.and_).
template <class T>
UFX_HD T atomic_and(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_integer<T>, "ufx::atomic_and: " UFX_ATOMIC_INTEGER_TYPES);
  return detail::atomic_apply<detail::atomic_op::bit_and, T>(ref, v, v);
}

/// ref |= v, atomically; returns the old value (CUDA's atomicOr, Numba's cuda.atomic.or_).
template <class T>
UFX_HD T atomic_or(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_integer<T>, "ufx::atomic_or: " UFX_ATOMIC_INTEGER_TYPES);
  return detail::atomic_apply<detail::atomic_op::bit_or, T>(ref, v, v);
}

/// ref ^= v, atomically; returns the old value (CUDA's atomicXor, Numba's cuda.atomic.xor).
template <class T>
UFX_HD T atomic_xor(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_integer<T>, "ufx::atomic_xor: " UFX_ATOMIC_INTEGER_TYPES);
  return detail::atomic_apply<detail::atomic_op::bit_xor, T>(ref, v, v);
}

/// ref = max(ref, v) treating a NaN as missing, atomically: a NaN v is never stored, a stored NaN
/// is replaced by v; returns the old value (Numba's cuda.atomic.nanmax, a compare-and-swap loop as
/// Numba's). On integers the same as atomic_max.
template <class T>
UFX_HD T atomic_nanmax(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_element<T>, "ufx::atomic_nanmax: " UFX_ATOMIC_ELEMENT_TYPES);
  return detail::atomic_apply<detail::atomic_op::nanmax, T>(ref, v, v);
}

/// ref = min(ref, v) treating a NaN as missing, atomically (Numba's cuda.atomic.nanmin); as atomic_nanmax.
template <class T>
UFX_HD T atomic_nanmin(T& ref, std::type_identity_t<T> v) {
  static_assert(detail::atomic_element<T>, "ufx::atomic_nanmin: " UFX_ATOMIC_ELEMENT_TYPES);
  return detail::atomic_apply<detail::atomic_op::nanmin, T>(ref, v, v);
}

} // namespace ufx

#undef UFX_ATOMIC_ELEMENT_TYPES
#undef UFX_ATOMIC_INTEGER_TYPES
#undef UFX_ATOMIC_COUNTER_TYPES
