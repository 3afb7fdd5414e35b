#pragma once
// The body of ufx/atomic.hpp: one read-modify-write through cuda::atomic_ref on the device and std::atomic_ref on the
// host, and on the host the note to the block runner's race check when the element is a kernel block's shared memory.
#include <atomic>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/half.hpp"
#include "ufx/thread.hpp"

#if defined(__CUDACC__)
#  include <cuda/atomic>
#endif

namespace ufx::detail {

/// True for the element types the atomic functions take (exactly, without const or volatile).
template <class T>
inline constexpr bool atomic_element =
    std::is_same_v<T, int> || std::is_same_v<T, unsigned> || std::is_same_v<T, long> ||
    std::is_same_v<T, unsigned long> || std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long> ||
    std::is_same_v<T, float> || std::is_same_v<T, double> || half_type<T>;
/// The floating-point element types: a NaN is possible (atomic_nanmin / atomic_nanmax skip it).
template <class T>
inline constexpr bool atomic_floating = std::is_floating_point_v<T> || half_type<T>;

/// The integer element types (the bitwise operations and the wrapping counters take these).
template <class T>
inline constexpr bool atomic_integer = atomic_element<T>&& std::is_integral_v<T>;
/// The unsigned 32- and 64-bit element types (CUDA's atomicInc / atomicDec wrap unsigned counters).
template <class T>
inline constexpr bool atomic_counter = atomic_integer<T>&& std::is_unsigned_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);

enum class atomic_op { add, sub, min, max, exch, cas, inc, dec, bit_and, bit_or, bit_xor, nanmin, nanmax };

/// ref += v for a float16 or bfloat16 element, whose atomic_ref `a` has no fetch_add: CUDA's atomicAdd on the
/// architectures every CUDA release since 11 declares it for (float16 from sm_70: one instruction; bfloat16 from sm_80,
/// CUDA 13 has it from sm_70: one instruction from sm_90, a 16-bit atomicCAS loop before), else a compare-and-swap loop
/// (on the device libcu++'s 2-byte compare_exchange: an atomicCAS on the aligned 4-byte word that holds the element, as
/// CUDA's own fallbacks). Each rounds `ref + v` once to the type.
template <class T, class Ref, class Order>
UFX_HD T half_fetch_add(Ref& a, [[maybe_unused]] T& ref, T v, Order relaxed) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  if constexpr (std::is_same_v<T, float16>) return atomicAdd(reinterpret_cast<__half*>(&ref), static_cast<__half>(v));
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<T, bfloat16>)
    return atomicAdd(reinterpret_cast<__nv_bfloat16*>(&ref), static_cast<__nv_bfloat16>(v));
#endif
  T old = a.load(relaxed);
  while (!a.compare_exchange_weak(old, T(old + v), relaxed)) {}
  return old;
}

/// One atomic operation on `ref`: v is the operand (cas: the expected value), desired only for cas. An unsupported T
/// does nothing here: the public function's static_assert has already said why.
template <atomic_op Op, class T>
UFX_HD T atomic_update(T& ref, T v, [[maybe_unused]] T desired) {
  if constexpr (!atomic_element<T>) {
    return v;
  } else {
#if defined(__CUDA_ARCH__)
    cuda::atomic_ref<T, cuda::thread_scope_device> a(ref);
    constexpr auto relaxed = cuda::std::memory_order_relaxed;
    constexpr auto cas_order = cuda::std::memory_order_relaxed;
    constexpr bool device = true;
#else
    std::atomic_ref<T> a(ref);
    constexpr auto relaxed = std::memory_order_relaxed;
    constexpr auto cas_order = std::memory_order_seq_cst;
    constexpr bool device = false;
#endif
    if constexpr (half_type<T> && (Op == atomic_op::add || Op == atomic_op::sub)) {
      return half_fetch_add(a, ref, Op == atomic_op::add ? v : -v, relaxed); // x - v is x + (-v), bit for bit
    } else if constexpr (Op == atomic_op::add) {
      return a.fetch_add(v, relaxed);
    } else if constexpr (Op == atomic_op::sub) {
      return a.fetch_sub(v, relaxed);
    } else if constexpr (Op == atomic_op::exch) {
      return a.exchange(v, relaxed);
    } else if constexpr (Op == atomic_op::cas) {
      a.compare_exchange_strong(v, desired, cas_order); // on failure v becomes the element's value
      return v;
    } else if constexpr (Op == atomic_op::bit_and || Op == atomic_op::bit_or || Op == atomic_op::bit_xor) {
      if constexpr (!std::is_integral_v<T>) return v; // refused by the public function's static_assert
      else if constexpr (Op == atomic_op::bit_and) return a.fetch_and(v, relaxed);
      else if constexpr (Op == atomic_op::bit_or) return a.fetch_or(v, relaxed);
      else return a.fetch_xor(v, relaxed);
    } else if constexpr (Op == atomic_op::inc || Op == atomic_op::dec) {
#if defined(__CUDA_ARCH__)
      if constexpr (sizeof(T) == 4) { // the hardware's own wrapping counters
        if constexpr (Op == atomic_op::inc) return static_cast<T>(atomicInc(reinterpret_cast<unsigned*>(&ref), v));
        else return static_cast<T>(atomicDec(reinterpret_cast<unsigned*>(&ref), v));
      }
#endif
      // CUDA's rules: inc stores old >= v ? 0 : old + 1, dec (old == 0 || old > v) ? v : old - 1
      T old = a.load(relaxed);
      for (;;) {
        const T next = Op == atomic_op::inc ? (old >= v ? T(0) : T(old + 1)) : (old == 0 || old > v ? v : T(old - 1));
        if (a.compare_exchange_weak(old, next, relaxed)) return old;
      }
    } else if constexpr ((Op == atomic_op::nanmin || Op == atomic_op::nanmax) && atomic_floating<T>) {
      // Numba's nanmin / nanmax: a NaN v is never stored, a stored NaN is replaced by v
      T old = a.load(relaxed);
      if (v != v) return old;
      while (old != old || (Op == atomic_op::nanmin ? v < old : old < v)) {
        if (a.compare_exchange_weak(old, v, relaxed)) break;
      }
      return old;
    } else if constexpr (Op == atomic_op::nanmin) {
      return atomic_update<atomic_op::min, T>(ref, v, desired); // integers have no NaN
    } else if constexpr (Op == atomic_op::nanmax) {
      return atomic_update<atomic_op::max, T>(ref, v, desired);
    } else if constexpr (device && !half_type<T>) {
      if constexpr (Op == atomic_op::min) return a.fetch_min(v, relaxed);
      else return a.fetch_max(v, relaxed);
    } else {
      // std::atomic_ref has no fetch_min / fetch_max before C++26, nor cuda::atomic_ref for a 2-byte float: the loop
      // libcu++ runs on the device, ending without a write when the element already wins the comparison.
      T old = a.load(relaxed);
      while (Op == atomic_op::min ? v < old : old < v) {
        if (a.compare_exchange_weak(old, v, relaxed)) break;
      }
      return old;
    }
  }
}

/// atomic_update, and on the host, when `ref` is the shared memory of the kernel block this thread runs (ufx::sim,
/// ufx::serial, ufx::host) or an element of a ufx::sim kernel's array argument, the update is told to the block
/// runner's race checks: two atomic updates of one element do not race, an atomic and an unordered plain access do.
template <atomic_op Op, class T>
UFX_HD T atomic_apply(T& ref, T v, T desired) {
#if !defined(__CUDA_ARCH__)
  if (sim_block_state* const s = sim_current_block) [[unlikely]] {
    sim_access* const e = sim_atomic_begin(s, &ref, sizeof(T), Op != atomic_op::exch);
    const T old = atomic_update<Op, T>(ref, v, desired);
    sim_atomic_end(e, &ref);
    return old;
  }
#endif
  return atomic_update<Op, T>(ref, v, desired);
}

} // namespace ufx::detail
