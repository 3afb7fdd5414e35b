#pragma once
// Vector code for the CPU reduction leaf (reduce_body::leaf) where the compiler's own vectorisation leaves speed
// behind, in GCC's vector extensions so one source serves SSE2, AVX2 and AVX-512 (host_vector_bytes). Every function
// returns, bit for bit, what the generic leaf returns: same lanes, same order in each lane, same horizontal tree.
//
// - simd_hsum: the leaf's horizontal combine (acc[j] += acc[j + w], w = L/2 .. 1) in registers with constant shuffles,
//   where the generic loop goes through memory level by level.
// - simd_sum_leaf: a plain sum's leaf (identity map, ufx::plus, accumulator of the element type) over one unit-stride
//   run, its loads aligned whatever the run's address. malloc aligns to 16 bytes, so an AVX-512 leaf over a
//   std::vector splits every 64-byte load across two cache lines: 0.5x the speed of aligned data in L1 and L2. The
//   leaf keeps its accumulators rotated by the run's misalignment k (rotated lane q holds leaf lane (q - k) mod L), so
//   each lane still gets its elements in order; the part vectors at the ends are unaligned loads permuted into place.
//   simd_hsum8 takes the rotated set as it is: each level adds lanes half the set apart, and a rotation mod L pairs
//   the same lanes j and j + L/2, only in either order (then mod L/2, and so on). IEEE a + b == b + a (integers too),
//   so the result is bitwise the generic leaf's; only a NaN's payload, when two NaNs meet, may come from the other.
//   Lanes start at -0 (0 for integers), which x + (-0) leaves exactly as x.
//
// GCC only (vector-typed __builtin_shuffle with a run-time mask); nvcc's front end and clang use the generic leaf, with
// the same result. But for simd_map_sum_leaf: with FMA, GCC may fuse the generic leaf's `acc + x * y` (its default
// -ffp-contract=fast), where this leaf rounds each mapped value first, so sums of products can differ in the last bits.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "ufx/detail/core/loop.hpp"

#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && !defined(__INTEL_LLVM_COMPILER)
#  define UFX_SIMD_LEAF 1
#else
#  define UFX_SIMD_LEAF 0
#endif

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Width in bytes of the vectors of the reduction leaves (from -march / -mavx...): the registers' width, but 32 bytes
/// with AVX-512. On the AMD EPYC (Zen 4) we measure on, a sum streaming from DRAM ran at 23-24 GB/s on one core with
/// 64-byte vectors and 28-30 GB/s with 32-byte ones, and the 32-byte leaf was as fast in L1 and L2 (GCC, too, prefers
/// 32-byte vectors on Intel's AVX-512 cores). UFX_HOST_VECTOR_BYTES=64 (or 16, 32) picks a width; it sets the leaf's
/// lanes, and with them the last bits of a float sum.
#if defined(UFX_HOST_VECTOR_BYTES)
static_assert(UFX_HOST_VECTOR_BYTES == 16 || UFX_HOST_VECTOR_BYTES == 32 || UFX_HOST_VECTOR_BYTES == 64,
              "ufx: UFX_HOST_VECTOR_BYTES must be 16, 32 or 64");
inline constexpr int host_vector_bytes = UFX_HOST_VECTOR_BYTES;
#elif defined(__AVX__)
inline constexpr int host_vector_bytes = 32;
#else
inline constexpr int host_vector_bytes = 16;
#endif

template <class T>
inline constexpr bool simd_leaf_type =
    UFX_SIMD_LEAF&& std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);

#if UFX_SIMD_LEAF
template <class T>
struct simd_vec {
  static constexpr int W = host_vector_bytes / static_cast<int>(sizeof(T));
  typedef T V __attribute__((vector_size(host_vector_bytes)));
  typedef T Vu __attribute__((vector_size(host_vector_bytes), aligned(alignof(T))));
  using I = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
  typedef I M __attribute__((vector_size(host_vector_bytes)));
};

/// a[j] + a[(j + w) % W] in every lane j (lane j < w is the leaf's acc[j] + acc[j + w]).
template <int w, class V, std::size_t... J>
inline V simd_fold_half(V a, std::index_sequence<J...>) {
  return a + __builtin_shufflevector(a, a, static_cast<int>((J + w) % sizeof...(J))...);
}

/// The last levels of the horizontal combine, within one vector: a[j] += a[j + w], w = W/2 .. 1.
template <class T, class V>
inline T simd_fold_vector(V a) {
  constexpr int W = simd_vec<T>::W;
  using S = std::make_index_sequence<W>;
  if constexpr (W >= 16) a = simd_fold_half<8>(a, S{});
  if constexpr (W >= 8) a = simd_fold_half<4>(a, S{});
  if constexpr (W >= 4) a = simd_fold_half<2>(a, S{});
  if constexpr (W >= 2) a = simd_fold_half<1>(a, S{});
  return a[0];
}

/// The leaf's horizontal combine of its 8 accumulator vectors (lanes 0 .. L).
template <class T, class V>
inline T simd_hsum8(V a0, V a1, V a2, V a3, V a4, V a5, V a6, V a7) {
  a0 += a4;
  a1 += a5;
  a2 += a6;
  a3 += a7;
  a0 += a2;
  a1 += a3;
  a0 += a1;
  return simd_fold_vector<T>(a0);
}

/// The horizontal combine of a leaf's L = 8 W accumulators `acc`.
template <class T>
inline T simd_hsum(const T* acc) {
  using V = typename simd_vec<T>::V;
  V a[8];
  std::memcpy(a, acc, sizeof a);
  return simd_hsum8<T>(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
}

/// The generic leaf of a plain sum over x[0, n), n >= L = 8 W: L lanes each summing its elements (lane j: x[j], x[j +
/// L], ... below n - n % L) in order, the lanes combined pairwise, then the last n % L elements one by one.
template <class T>
T simd_sum_leaf(index_t n, const T* x) {
  using SV = simd_vec<T>;
  using V = typename SV::V;
  using Vu = typename SV::Vu;
  using M = typename SV::M;
  constexpr int W = SV::W;
  constexpr int L = 8 * W;
  const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(x);
  const int k = static_cast<int>(addr % host_vector_bytes / sizeof(T)); // x's place in its vector
  const index_t nb = n / L, nfull = nb * L;
  const V* a = reinterpret_cast<const V*>(addr - static_cast<std::uintptr_t>(k) * sizeof(T)); // aligned
  M lane;
  for (int j = 0; j < W; ++j) lane[j] = j;
  const M rot = (lane - k) & (W - 1);
  const V zero = -V{}; // -0 in every lane (0 for integers)
  V A[8];
  // block 0: lanes q >= k of vector 0 hold x[q - k]; vectors 1..7 are whole
  if (k == 0) A[0] = a[0];
  else {
    const V u = __builtin_shuffle(*reinterpret_cast<const Vu*>(x), rot);
    A[0] = lane >= k ? u : zero;
  }
#  pragma GCC unroll 8
  for (int j = 1; j < 8; ++j) A[j] = a[j];
  for (index_t b = 1; b < nb; ++b) {
    const V* p = a + 8 * b;
#  pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) A[j] += p[j];
  }
  if (k != 0) {
    // the vector after the last block: lanes q < k hold x[nfull + q - k]
    const V u = __builtin_shuffle(*reinterpret_cast<const Vu*>(x + nfull - W), rot);
    A[0] += lane < k ? u : zero;
  }
  T s = simd_hsum8<T>(A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7]);
  for (index_t i = nfull; i < n; ++i) s = s + x[i];
  return s;
}

/// One step of simd_widen_sum_leaf: `a + double(f)` in every lane, the floats `f` converted exactly. GCC 12 compiles
/// __builtin_convertvector of 2 floats to two cvtss2sd and of 4 floats to two 2-wide conversions with an insert, so the
/// x86 builtins convert where the width has one instruction. With FMA the add is `fma(double(f), 1, a)`, which rounds
/// a + double(f) once, as the add does (the same bits, -0 included), and runs on the FMA pipes beside the conversions.
/// The leaf on one Zen 4 core, 2^14 floats in L1: 34 -> 98 GB/s with -march=native, 17 -> 30 GB/s with the baseline's
/// SSE2 (the float leaf: 115). `one` passes through an empty asm so GCC cannot fold the multiply by 1 into an add.
template <class V, class F>
inline V simd_widen_add(V a, F f, [[maybe_unused]] V one) {
#  if defined(__AVX__)
  if constexpr (sizeof(V) == 32) {
    const V d = __builtin_ia32_cvtps2pd256(f);
#    if defined(__FMA__)
    return __builtin_ia32_vfmaddpd256(d, one, a);
#    else
    return a + d;
#    endif
  } else
#  endif
#  if defined(__AVX512F__)
      if constexpr (sizeof(V) == 64) {
    const V d = __builtin_ia32_cvtps2pd512_mask(f, V{}, static_cast<unsigned char>(-1), 4);
    return __builtin_ia32_vfmaddpd512_mask(d, one, a, static_cast<unsigned char>(-1), 4);
  } else
#  endif
#  if defined(__SSE2__)
      if constexpr (sizeof(V) == 16) {
    return a + __builtin_ia32_cvtps2pd(__builtin_shufflevector(f, f, 0, 1, -1, -1));
  } else
#  endif
  {
    return a + __builtin_convertvector(f, V);
  }
}

/// The generic leaf of a plain sum of floats in double (ufx::plus over a long float array, reduce.hpp's wide_sum_min),
/// n >= L = 8 W doubles: each lane sums its elements in order, as the generic leaf with a double accumulator does. Each
/// float vector of half the width is converted as it is loaded, with no rotation: the half-vectors of a 32-byte build
/// are 16 bytes, which malloc's 16-byte alignment keeps within one cache line.
inline double simd_widen_sum_leaf(index_t n, const float* x) {
  using V = typename simd_vec<double>::V;
  constexpr int W = simd_vec<double>::W;
  constexpr int L = 8 * W;
  typedef float F __attribute__((vector_size(host_vector_bytes / 2), aligned(alignof(float))));
  typedef float Fa __attribute__((vector_size(host_vector_bytes / 2)));
  const index_t nb = n / L, nfull = nb * L;
  V one = V{} + 1.0;
  asm("" : "+m"(one)); // opaque: fma(d, one, a) stays an FMA
  V A[8];
  const F* p = reinterpret_cast<const F*>(x);
#  pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) A[j] = __builtin_convertvector(p[j], V);
  for (index_t b = 1; b < nb; ++b) {
    const F* q = p + 8 * b;
#  pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) A[j] = simd_widen_add(A[j], static_cast<Fa>(q[j]), one);
  }
  double s = simd_hsum8<double>(A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7]);
  for (index_t i = nfull; i < n; ++i) s = s + static_cast<double>(x[i]);
  return s;
}

/// The rotation simd_map_sum_leaf takes for a run of `elem`-byte elements at `p`: the run's place in its vector, so
/// that its loads are aligned (any rotation gives the same bits; 0 when p is not a multiple of elem).
template <class T>
int simd_rotation(const void* p, std::size_t elem) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  if (a % elem != 0) return 0;
  return static_cast<int>(a % host_vector_bytes / elem) % simd_vec<T>::W;
}

/// The generic leaf of a sum of mapped values value(0), ..., value(n - 1), n >= L = 8 W, each lane in order as the
/// generic leaf adds them, with the loads behind `value` aligned when the first input's rotation is `k`
/// (simd_rotation). Each block of L values is computed by a plain loop the compiler vectorises as it does the generic
/// leaf's (the map is the user's), into an aligned buffer that the accumulator vectors then add. Calls: the body inline
/// in the caller, Rolled keeping the block loop a loop for the vectoriser: values that call libufx's vector functions
/// (float16's conversions), which GCC calls from a vectorised loop only, never from the straight-line code of a loop it
/// has unrolled in full (and inline, so that an AVX2 clone calls the AVX2 variants); for the others, simd_map_sum_leaf.
template <class T, bool Rolled, class Value>
UFX_ALWAYS_INLINE T simd_map_sum_leaf_body(index_t n, int k, const Value& value) {
  using SV = simd_vec<T>;
  using V = typename SV::V;
  using M = typename SV::M;
  constexpr int W = SV::W;
  constexpr int L = 8 * W;
  const index_t nb = n / L, nfull = nb * L;
  alignas(host_vector_bytes) T tmp[L];
  M lane;
  for (int j = 0; j < W; ++j) lane[j] = j;
  const M rot = (lane - k) & (W - 1);
  const V zero = -V{};
  V A[8];
  // block 0: rotated lane q holds value(q - k); vector 0 from the first W values, permuted
  for (int q = W; q < L; ++q) tmp[q] = value(q - k);
  {
    V u;
    for (int j = 0; j < W; ++j) u[j] = value(j);
    A[0] = k == 0 ? u : (lane >= k ? __builtin_shuffle(u, rot) : zero);
  }
#  pragma GCC unroll 8
  for (int j = 1; j < 8; ++j) A[j] = reinterpret_cast<const V*>(tmp)[j];
  for (index_t b = 1; b < nb; ++b) {
    const index_t s = b * L - k;
    if constexpr (Rolled) {
#  pragma GCC unroll 1
      for (int q = 0; q < L; ++q) tmp[q] = value(s + q);
    } else {
      for (int q = 0; q < L; ++q) tmp[q] = value(s + q);
    }
#  pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) A[j] += reinterpret_cast<const V*>(tmp)[j];
  }
  if (k != 0) {
    // the vector after the last block: rotated lanes q < k hold value(nfull + q - k)
    V u;
    for (int j = 0; j < W; ++j) u[j] = value(nfull - W + j);
    A[0] += lane < k ? __builtin_shuffle(u, rot) : zero;
  }
  T s = simd_hsum8<T>(A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7]);
  for (index_t i = nfull; i < n; ++i) s = s + value(i);
  return s;
}
template <class T, class Value>
T simd_map_sum_leaf(index_t n, int k, const Value& value) {
  return simd_map_sum_leaf_body<T, false>(n, k, value);
}
#endif

template <class T>
struct lane_sums {
  T sum, squares;
};

/// value(0) + ... + value(nfull - 1), nfull a multiple of L, in L lanes (lane j adds value(j), value(j + L), ... in
/// order, from +0) combined by the tree acc[j] += acc[j + w], w = L/2 .. 1; with Squares, the sum of value(i)^2 beside
/// it from the same loop: the statistics' CPU leaf (moments_part::leaf). With GCC the lanes are vector registers, each
/// vector's W values computed as a group (GCC kept the generic loop's lanes in memory: a store and a load per add). A
/// cloned leaf (config.hpp, UFX_HOST_CLONES) takes the generic loop, which each clone vectorises at its own width. The
/// same bits either way, but with FMA GCC may fuse the generic loop's `acc + d * d` where the vector code rounds d * d.
template <class T, int L, bool Squares, class Value>
UFX_ALWAYS_INLINE lane_sums<T> lanes_sums(index_t nfull, const Value& value) {
#if UFX_SIMD_LEAF
  if constexpr (!UFX_HOST_CLONED && simd_leaf_type<T> && L % simd_vec<T>::W == 0 && L / simd_vec<T>::W <= 8 &&
                ((L / simd_vec<T>::W) & (L / simd_vec<T>::W - 1)) == 0) {
    using V = typename simd_vec<T>::V;
    constexpr int W = simd_vec<T>::W;
    constexpr int NV = L / W;
    V A[NV], B[NV];
#  pragma GCC unroll 8
    for (int k = 0; k < NV; ++k) A[k] = B[k] = V{};
    for (index_t i = 0; i < nfull; i += L) {
#  pragma GCC unroll 8
      for (int k = 0; k < NV; ++k) {
        const V u = [&]<std::size_t... J>(std::index_sequence<J...>) {
          return V{value(i + k * W + static_cast<index_t>(J))...};
        }
        (std::make_index_sequence<W>{});
        A[k] += u;
        if constexpr (Squares) B[k] += u * u;
      }
    }
#  pragma GCC unroll 4
    for (int h = NV / 2; h > 0; h /= 2) {
#  pragma GCC unroll 4
      for (int k = 0; k < h; ++k) {
        A[k] += A[k + h];
        if constexpr (Squares) B[k] += B[k + h];
      }
    }
    return {simd_fold_vector<T>(A[0]), Squares ? simd_fold_vector<T>(B[0]) : T(0)};
  } else
#endif
      if constexpr (Squares && sizeof(T) == 8) {
    // GCC 12 at -O3 vectorises the generic pair loop of doubles across its outer loop (four blocks interleaved, the
    // lanes spilled): 4x the time of these two loops in the AVX2 clone
    const auto square = [&](index_t i) {
      const T v = value(i);
      return v * v;
    };
    return {lanes_sums<T, L, false>(nfull, value).sum, lanes_sums<T, L, false>(nfull, square).sum};
  } else {
    T s[L] = {}, q[L] = {};
    for (index_t i = 0; i < nfull; i += L)
      for (int j = 0; j < L; ++j) {
        const T v = value(i + j);
        s[j] += v;
        if constexpr (Squares) q[j] += v * v;
      }
    for (int w = L / 2; w > 0; w /= 2)
      for (int j = 0; j < w; ++j) {
        s[j] += s[j + w];
        if constexpr (Squares) q[j] += q[j + w];
      }
    return {s[0], q[0]};
  }
}

template <class T, int L, class Value>
UFX_ALWAYS_INLINE T lanes_sum(index_t nfull, const Value& value) {
  return lanes_sums<T, L, false>(nfull, value).sum;
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
