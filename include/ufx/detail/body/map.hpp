#pragma once
// The elementwise kernel: a user function applied at each loop position. Outputs come first in the operand list; array
// operands are read through pointers, scalar operands are held by value.
#include <algorithm>
#include <type_traits>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/detail/core/fn_params.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/core/tuple.hpp"
#include "ufx/detail/half/convert.hpp"

namespace ufx {
struct float16; // ufx/half.hpp
struct bfloat16;
} // namespace ufx

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Operand accessors, a kernel's way to an operand's element at an element offset: arrays by pointer, scalars by value.
template <class T>
struct array_acc {
  using element_type = T;
  static constexpr bool is_array = true;
  T* p;
  UFX_HD T& at(index_t o) const { return p[o]; }
  /// The accessor of operand `operand` (of a call with `outputs` outputs) at `p`: the operand's position matters only
  /// to the sim's accessor (backend/sim/trace.hpp), which tells ufx::profile whose access it is.
  static UFX_HD array_acc of(T* p, int /*operand*/, int /*outputs*/) { return {p}; }
};

/// The array accessor a target's kernels take (acc_for<Tag, T>::type): array_acc, or ufx::sim's, which hands each
/// access to ufx::profile while it collects (backend/sim/trace.hpp specialises this for sim_t).
template <class Tag, class T>
struct acc_for {
  using type = array_acc<T>;
};
template <class Tag, class T>
using acc_for_t = typename acc_for<Tag, T>::type;

/// A kernel's access through a raw pointer into accessor a's array (`bytes` at q): ufx::sim's accessor tells
/// ufx::profile (backend/sim/trace.hpp); any other does nothing.
template <class A>
UFX_HD UFX_ALWAYS_INLINE void acc_touch(const A&, const void*, std::size_t) {}
/// The chunk C (a vector of elements) at element offset o of accessor a's array, loaded at once; ufx::sim's accessor
/// tells ufx::profile (one access of sizeof(C) bytes).
template <class C, class A>
UFX_HD UFX_ALWAYS_INLINE const C& acc_chunk(const A& a, index_t o) {
  acc_touch(a, a.p + o, sizeof(C));
  return *reinterpret_cast<const C*>(a.p + o);
}
/// A kernel's access of `bytes` at byte `offset` of its block's shared memory, in the region at `region` that holds
/// accessor a's operand's data (a store, or a load): ufx::sim's accessor tells ufx::profile; any other does nothing.
template <class A>
UFX_HD UFX_ALWAYS_INLINE void acc_shared_touch(const A&, std::size_t, std::size_t, std::size_t, bool) {}

template <class V>
struct scalar_acc {
  using element_type = const V;
  static constexpr bool is_array = false;
  V v;
  UFX_HD const V& at(index_t) const { return v; }
};

/// Writes a result into an output element as the element's type: explicitly, as NumPy's same_kind casting (checked at
/// the front door) writes a float into a float16 output, whose conversion from float is explicit.
template <class T, class V>
UFX_HD UFX_ALWAYS_INLINE void put(T& dst, V&& v) {
  dst = static_cast<T>(static_cast<V&&>(v));
}

/// An accessor's element type, and the bytes of one element of an array operand (0 for any other operand).
template <class A>
using acc_element = std::remove_cv_t<typename A::element_type>;
template <class A>
inline constexpr std::size_t array_bytes = A::is_array ? sizeof(acc_element<A>) : 0;

/// The accessor of a call's operand (ufx/adapter.hpp).
template <class Op>
auto make_acc(const Op& op) {
  if constexpr (requires { op.view; }) return array_acc<typename Op::element_type>{op.view.data()};
  else return scalar_acc<typename Op::value_type>{op.value};
}
/// The accessor target Tag's kernels take of operand `operand` (of `outputs` outputs): acc_for's for an array.
template <class Tag, class Op>
auto make_acc_for(const Op& op, int operand, int outputs) {
  if constexpr (requires { op.view; })
    return acc_for_t<Tag, typename Op::element_type>::of(op.view.data(), operand, outputs);
  else return scalar_acc<typename Op::value_type>{op.value};
}

/// Run accessors: one run of elements of an operand (a row), element i of it at at(i), the run `n` elements on at
/// skip(n). Unit stride, strided, or a scalar held by value; run_of makes one from an operand accessor. The elementwise
/// rows and the reduction's leaves and rows walk these.
template <class T>
struct unit_run {
  T* p;
  UFX_HD T& at(index_t i) const { return p[i]; }
  UFX_HD unit_run skip(index_t n) const { return {p + n}; }
};
template <class T>
struct strided_run {
  T* p;
  index_t s;
  UFX_HD T& at(index_t i) const { return p[i * s]; }
  UFX_HD strided_run skip(index_t n) const { return {p + n * s, s}; }
};
template <class V>
struct scalar_run {
  V v;
  UFX_HD const V& at(index_t) const { return v; }
  UFX_HD scalar_run skip(index_t) const { return *this; }
};
template <class R>
inline constexpr bool is_unit_run_v = false;
template <class T>
inline constexpr bool is_unit_run_v<unit_run<T>> = true;
template <class R>
inline constexpr bool is_scalar_run_v = false;
template <class V>
inline constexpr bool is_scalar_run_v<scalar_run<V>> = true;

/// The run of operand accessor `a` from offset `off` with stride `s` (std::true_type: 1, known at compile time).
template <class T>
UFX_HD unit_run<T> run_of(const array_acc<T>& a, index_t off, index_t, std::true_type) {
  return {a.p + off};
}
template <class T>
UFX_HD strided_run<T> run_of(const array_acc<T>& a, index_t off, index_t s, std::false_type) {
  return {a.p + off, s};
}
template <class V, class U>
UFX_HD scalar_run<V> run_of(const scalar_acc<V>& a, index_t, index_t, U) {
  return {a.v};
}

/// V elements of T loaded or stored at once (a 128-bit access for 4 floats).
template <class T, int V>
struct alignas(sizeof(T) * V) vec_of {
  T v[V];
};
/// V elements of an array accessor from element i, loaded and stored at once (the dense device body's accesses).
template <int V, class T>
UFX_HD const vec_of<std::remove_cv_t<T>, V>& acc_load(const array_acc<T>& a, index_t i) {
  return *reinterpret_cast<const vec_of<std::remove_cv_t<T>, V>*>(a.p + i);
}
template <int V, class T>
UFX_HD void acc_store(const array_acc<T>& a, index_t i, const vec_of<T, V>& r) {
  *reinterpret_cast<vec_of<T, V>*>(a.p + i) = r;
}

/// Element types the device targets' dense body loads V at a time: arithmetic types and float16 / bfloat16 (8 halves in
/// one 16-byte access) whose size is a power of two.
template <class A>
inline constexpr bool acc_vectorisable =
    (std::is_arithmetic_v<acc_element<A>> || std::is_same_v<acc_element<A>, float16> ||
     std::is_same_v<acc_element<A>, bfloat16>)&&(sizeof(acc_element<A>) & (sizeof(acc_element<A>) - 1)) == 0;

/// Calls `fn(k, pointer, element_size)` for each array accessor k of `acc` (how device targets check operand memory).
template <class... A, class Fn>
void for_each_array_acc(const tuple<A...>& acc, Fn& fn) {
  with_indices<sizeof...(A)>([&]<std::size_t... K>(std::index_sequence<K...>) {
    (
        [&] {
          using Ak = std::remove_cvref_t<decltype(get<K>(acc))>;
          if constexpr (Ak::is_array)
            fn(static_cast<int>(K), static_cast<const void*>(get<K>(acc).p), sizeof(acc_element<Ak>));
        }(),
        ...);
  });
}

template <class F, int NOut, class... Acc>
struct map_body {
  static constexpr int N = sizeof...(Acc);
  static constexpr int NIn = N - NOut;
  /// Elements per thread of the device targets' dense body: 16 bytes of the widest operand, when there is one output
  /// and every element type is arithmetic (else 1: no vector body).
  static constexpr int vector_width = [] {
    if constexpr (NOut != 1 || !(acc_vectorisable<Acc> && ...)) return 1;
    else {
      constexpr std::size_t widest = std::max({sizeof(acc_element<Acc>)...});
      return widest >= 16 ? 1 : static_cast<int>(16 / widest);
    }
  }();
  F f;
  tuple<Acc...> acc;

  /// Dense loops: V elements from linear position i of every array operand (device vector body, V-aligned pointers).
  template <int V>
  UFX_HD void vec(index_t i) const {
    vec_impl<V>(i, std::make_index_sequence<NIn>{});
  }
  /// Dense loops: the element at linear position i of every array operand.
  UFX_HD void at_linear(index_t i) const {
    index_t off[N];
    for (int k = 0; k < N; ++k) off[k] = i;
    (*this)(off);
  }

  /// Computes the element at per-operand offsets `off` (device targets: one call per thread).
  UFX_HD void operator()(const index_t (&off)[N]) const {
    apply(off, std::make_index_sequence<NOut>{}, std::make_index_sequence<NIn>{});
  }

  /// Computes a run of `n` elements starting at offsets `off`, with innermost strides `str`.
  void row(const index_t (&off)[N], const index_t (&str)[N], index_t n, bool unit) const {
#if UFX_HALF_F16C_ROWS
    if constexpr (staged_row()) {
      if (unit && half_f16c_cpu()) return row_f16c(off, n, std::make_index_sequence<N>{});
    }
#endif
    (this->*host_clone_call(&map_body::row_cloned))(off, str, n, unit);
  }
  /// row's loops, compiled for the baseline and for AVX2 (config.hpp, UFX_HOST_CLONES).
  UFX_HOST_CLONES UFX_HOST_FLATTEN void row_cloned(const index_t (&off)[N], const index_t (&str)[N], index_t n,
                                                   bool unit) const {
    if constexpr (NOut == 1) {
      if (unit) return row_unit(off, n, std::make_index_sequence<N>{});
      if constexpr (NIn <= 3) {
        // A row where the output is dense and each input is dense or broadcast (stride 0), as in (n,1)+(1,n): hold the
        // broadcast inputs by value so the loop stays a plain vector loop. (2^NIn variants, so only for a few inputs.)
        bool mixed = str[0] == 1;
        for (int j = 1; j < N && mixed; ++j) mixed = str[j] == 0 || str[j] == 1;
        if (mixed) return row_mixed<1>(off, str, n, run_of(get<0>(acc), off[0], 1, std::true_type{}));
      }
      row_strided(off, str, n, std::make_index_sequence<N>{});
    } else {
      index_t o[N];
      for (index_t i = 0; i < n; ++i) {
        for (int k = 0; k < N; ++k) o[k] = off[k] + i * str[k];
        (*this)(o);
      }
    }
  }

  template <class Fn>
  void for_each_array(Fn&& fn) const {
    for_each_array_acc(acc, fn);
  }

private:
  template <int V, class A>
  UFX_HD static auto load(const A& a, index_t i) {
    if constexpr (A::is_array) return acc_load<V>(a, i);
    else return a.v;
  }
  template <int V, class T>
  UFX_HD static const T& lane(const vec_of<T, V>& x, int j) {
    return x.v[j];
  }
  template <int V, class T>
  UFX_HD static const T& lane(const T& x, int) {
    return x;
  }
  template <int V, std::size_t... I>
  UFX_HD void vec_impl(index_t i, std::index_sequence<I...>) const {
    vec_apply<V>(i, load<V>(get<NOut + I>(acc), i)...);
  }
  template <int V, class... L>
  UFX_HD void vec_apply(index_t i, const L&... in) const {
    using O = acc_element<std::remove_cvref_t<decltype(get<0>(acc))>>;
    vec_of<O, V> r;
    UFX_UNROLL
    for (int j = 0; j < V; ++j) r.v[j] = static_cast<O>(UFX_USER_CALL(f, lane<V>(in, j)...));
    acc_store<V>(get<0>(acc), i, r);
  }

  template <std::size_t... O, std::size_t... I>
  UFX_HD void apply(const index_t (&off)[N], std::index_sequence<O...>, std::index_sequence<I...>) const {
    if constexpr (NOut == 1) {
      put(get<0>(acc).at(off[0]), UFX_USER_CALL(f, get<NOut + I>(acc).at(off[NOut + I])...));
    } else {
      auto r = UFX_USER_CALL(f, get<NOut + I>(acc).at(off[NOut + I])...);
      (put(get<O>(acc).at(off[O]), result_get<O>(r)), ...);
    }
  }
  template <class Out, class... In>
  static void run_row(const F& f, index_t n, Out o, In... in) {
    for (index_t i = 0; i < n; ++i) put(o.at(i), f(in.at(i)...));
  }
  template <std::size_t I, class... A>
  void row_mixed(const index_t (&off)[N], const index_t (&str)[N], index_t n, A... a) const {
    if constexpr (I == N) {
      run_row(f, n, a...);
    } else {
      const auto b = run_of(get<I>(acc), off[I], 1, std::true_type{});
      using B = std::remove_cvref_t<decltype(b)>;
      if constexpr (is_unit_run_v<B>) {
        if (str[I] == 0)
          return row_mixed<I + 1>(off, str, n, a...,
                                  scalar_run<std::remove_cv_t<std::remove_reference_t<decltype(*b.p)>>>{*b.p});
      }
      row_mixed<I + 1>(off, str, n, a..., b);
    }
  }
  /// A dense row's float16 operands staged through float 8 elements a step (where GCC would otherwise call libufx's
  /// vector conversions once a vector, and convert float16 to float and back around a typed function's every call):
  /// an input array whose parameter is float or double (a typed function), and the output array when the function
  /// returns float. The same bits as element by element: the conversions are the same, and exact into float and double.
  template <std::size_t K>
  using acc_at = std::remove_cvref_t<decltype(get<K>(std::declval<const tuple<Acc...>&>()))>;
  /// A ufunc whose float16 loop is its float loop rounded once (ufuncs/ops.hpp: half_in_float) stages its float16
  /// inputs where its result is float16 and goes to a float16 output: float16(f(float(a), float(b))) is then f's value.
  template <std::size_t... K>
  static constexpr bool half_in_float_row(std::index_sequence<K...>) {
    if constexpr (NOut != 1 || !acc_at<0>::is_array) return false;
    else
      return std::is_same_v<acc_element<acc_at<0>>, float16> &&
             std::is_same_v<std::remove_cvref_t<
                                std::invoke_result_t<const F&, decltype(std::declval<acc_at<NOut + K>&>().at(0))...>>,
                            float16>;
  }
  template <std::size_t K>
  static constexpr bool staged_input() {
    using P = fn_params<F>;
    if constexpr (!UFX_HALF_F16C_ROWS || K < static_cast<std::size_t>(NOut)) {
      return false;
    } else if constexpr (!acc_at<K>::is_array || !std::is_same_v<acc_element<acc_at<K>>, float16>) {
      return false;
    } else if constexpr (requires { F::half_in_float; }) {
      return F::half_in_float && half_in_float_row(std::make_index_sequence<NIn>{});
    } else if constexpr (!P::known || P::count != NIn) {
      return false;
    } else {
      using T = std::remove_cvref_t<std::tuple_element_t<K - NOut, typename P::types>>;
      return std::is_same_v<T, float> || std::is_same_v<T, double>;
    }
  }
  template <std::size_t K>
  using row_input = std::conditional_t<staged_input<K>(), float&, decltype(std::declval<acc_at<K>&>().at(0))>;
  template <std::size_t... K>
  static constexpr bool staged_output(std::index_sequence<K...>) {
    if constexpr (!UFX_HALF_F16C_ROWS || NOut != 1) return false;
    else if constexpr (!acc_at<0>::is_array || !std::is_same_v<acc_element<acc_at<0>>, float16>) return false;
    else return std::is_same_v<std::remove_cvref_t<std::invoke_result_t<const F&, row_input<NOut + K>...>>, float>;
  }
  static constexpr bool staged_row() {
    if constexpr (NOut != 1) return false;
    else
      return with_indices<NIn>([]<std::size_t... K>(std::index_sequence<K...>) {
        return staged_output(std::index_sequence<K...>{}) || (staged_input<NOut + K>() || ...);
      });
  }
#if UFX_HALF_F16C_ROWS
  using v8sf = float __attribute__((vector_size(32)));
  using v8hi = short __attribute__((vector_size(16)));
  /// 8 calls of the function: one vector step of GCC's (whose buffers it forwards in registers), for every function a
  /// loop of unknown length vectorises (ufx::math's included; not a branch on floats, under -ftrapping-math, in
  /// either).
  template <class Out, class... In>
  UFX_ALWAYS_INLINE static void run8(const F& f, Out o, In... in) {
    for (index_t i = 0; i < 8; ++i) put(o.at(i), f(in.at(i)...));
  }
  /// Operand K's run from element s: its float buffer where it is staged (its next m <= 8 float16s converted into it
  /// first; fewer than 8 through a zeroed copy, so nothing past the array is read).
  template <std::size_t K, class R>
  UFX_HALF_F16C_INLINE static auto stage(float (&b)[8], const R& r, index_t s, index_t m) {
    if constexpr (K == 0 && staged_output(std::make_index_sequence<NIn>{})) {
      return unit_run<float>{b};
    } else if constexpr (staged_input<K>()) {
      v8hi h{};
      copy_halves(&h, static_cast<const void*>(r.p + s), m);
      const v8sf v = __builtin_ia32_vcvtph2ps256(h);
      __builtin_memcpy(b, &v, sizeof v);
      return unit_run<float>{b};
    } else {
      return r.skip(s);
    }
  }
  /// The output's float buffer b rounded to float16 (to nearest even) into its m <= 8 elements from s.
  template <class O>
  UFX_HALF_F16C_INLINE static void unstage(const float (&b)[8], const O& o, index_t s, index_t m) {
    v8sf v;
    __builtin_memcpy(&v, b, sizeof v);
    const v8hi h = __builtin_ia32_vcvtps2ph256(v, 0);
    copy_halves(static_cast<void*>(o.p + s), &h, m);
  }
  /// m <= 8 float16s from src to dst: fixed-size copies (inline moves; a copy of a run-time size would call memcpy).
  UFX_ALWAYS_INLINE static void copy_halves(void* dst, const void* src, index_t m) {
    if (m == 8) return static_cast<void>(__builtin_memcpy(dst, src, 16));
    auto* d = static_cast<char*>(dst);
    const auto* c = static_cast<const char*>(src);
    if (m & 4) __builtin_memcpy(d, c, 8), d += 8, c += 8;
    if (m & 2) __builtin_memcpy(d, c, 4), d += 4, c += 4;
    if (m & 1) __builtin_memcpy(d, c, 2);
  }
  /// The staged row, compiled for AVX2 + F16C (no FMA: the function's arithmetic is the baseline's and the AVX2
  /// clone's) and taken where the CPU has them: F16C's vcvtph2ps / vcvtps2ph inline, 8 elements a step, the function's
  /// 8 calls a vector loop between them: the loop a hand-written F16C one is. The last n % 8 elements the same way,
  /// the function called once for each.
  template <std::size_t... K>
  UFX_HALF_F16C_ROW void row_f16c(const index_t (&off)[N], index_t n, std::index_sequence<0, K...>) const {
    f16c_runs<K...>(f, n, run_of(get<0>(acc), off[0], 1, std::true_type{}),
                    run_of(get<K>(acc), off[K], 1, std::true_type{})...);
  }
  template <std::size_t... K, class O, class... R>
  UFX_HALF_F16C_INLINE static void f16c_runs(const F& f, index_t n, O o, R... r) {
    constexpr bool out = staged_output(std::make_index_sequence<NIn>{});
    const index_t whole = n - n % 8;
    for (index_t s = 0; s < whole; s += 8) {
      alignas(32) float buf[N][8];
      run8(f, stage<0>(buf[0], o, s, 8), stage<K>(buf[K], r, s, 8)...);
      if constexpr (out) unstage(buf[0], o, s, 8);
    }
    if (whole < n) {
      alignas(32) float buf[N][8] = {}; // (lanes past the row converted too: zeros, not whatever the stack held)
      run_row(f, n - whole, stage<0>(buf[0], o, whole, n - whole), stage<K>(buf[K], r, whole, n - whole)...);
      if constexpr (out) unstage(buf[0], o, whole, n - whole);
    }
  }
#endif
  template <std::size_t... K>
  void row_unit(const index_t (&off)[N], index_t n, std::index_sequence<K...>) const {
    run_row(f, n, run_of(get<K>(acc), off[K], 1, std::true_type{})...);
  }
  template <std::size_t... K>
  void row_strided(const index_t (&off)[N], const index_t (&str)[N], index_t n, std::index_sequence<K...>) const {
    run_row(f, n, run_of(get<K>(acc), off[K], str[K], std::false_type{})...);
  }
};

/// Copies element by element (the identity kernel), used for packing and copy-back.
struct identity {
  template <class T>
  UFX_HD T operator()(const T& x) const {
    return x;
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
