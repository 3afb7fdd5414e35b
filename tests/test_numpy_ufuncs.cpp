// The ready ufuncs (ufx/ufuncs.hpp) against NumPy's answers, tests/data/numpy_ufuncs.inc (tests/gen_numpy_ufuncs.py):
// the result type of every pair of NumPy's element types for a dozen ufuncs, NEP 50's weak scalars, and each
// function's values on special values and NumPy's division, remainder, shift and overflow tables.
//
// Promise: bitwise (any NaN for a NaN) for arithmetic, division, remainders, extremes, comparisons, logic, bits,
// rounding, classification, copysign, nextafter and heaviside; within 4 ulp (float16: 1 ulp) of NumPy for the float
// functions (exp ... arctanh, power, logaddexp, logaddexp2, arctan2, hypot): ufx::math's are within 2 ulp of the
// correctly rounded result, NumPy's SIMD loops and glibc within 1 or 2.
//
// Each case runs through the kernels of every CPU target: a ufx::vectorize call of the ufunc's function (reached
// through a pointer, so that one kernel per signature serves every function of it: a kernel instantiated per function
// and target cost 0.5 s of compile time each) on ufx::serial, and on ufx::host and ufx::sim for the signatures of most
// cases; test_ufuncs.cpp calls the ready objects themselves on every target.
#include "common.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <tuple>
#include <type_traits>
#include <sstream>
#include <string>
#include <vector>

namespace {

using int8 = std::int8_t;
using int16 = std::int16_t;
using int32 = std::int32_t;
using int64 = std::int64_t;
using uint8 = std::uint8_t;
using uint16 = std::uint16_t;
using uint32 = std::uint32_t;
using uint64 = std::uint64_t;
using float16 = ufx::float16;
using float32 = float;
using float64 = double;
using complex64 = std::complex<float>;
using complex128 = std::complex<double>;
using cdouble = std::complex<double>;

#define NAN_ std::numeric_limits<double>::quiet_NaN()
#define INF_ std::numeric_limits<double>::infinity()

/// The type the generator writes a T's values as.
template <class T>
using lit_t = std::conditional_t<
    std::is_same_v<T, bool>, bool,
    std::conditional_t<std::is_integral_v<T>, std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>,
                       std::conditional_t<ufx::detail::is_std_complex<T>, std::complex<double>, double>>>;

template <class T>
using list = std::initializer_list<lit_t<T>>;

/// The values as an array of T (ndarray: std::vector<bool> has no element storage).
template <class T>
ufx::ndarray<T, 1> make(list<T> l) {
  ufx::ndarray<T, 1> v({static_cast<ufx::index_t>(l.size())});
  T* p = v.data();
  for (const auto& x : l) {
    if constexpr (ufx::detail::is_std_complex<T>)
      *p++ = T(static_cast<typename T::value_type>(x.real()), static_cast<typename T::value_type>(x.imag()));
    else if constexpr (std::is_same_v<T, float16>) *p++ = float16(x);
    else *p++ = static_cast<T>(x);
  }
  return v;
}

template <class T>
bool is_nan_v(const T& x) {
  if constexpr (ufx::detail::is_std_complex<T>) return std::isnan(x.real()) || std::isnan(x.imag());
  else if constexpr (std::is_same_v<T, float16>) return ufx::math::isnan(x);
  else if constexpr (std::is_floating_point_v<T>) return std::isnan(x);
  else return false;
}

/// The distance in ulp between two finite floats of one type (their ordered bit patterns).
template <class T>
long long ulp_distance(T a, T b) {
  if constexpr (std::is_same_v<T, float16>) {
    auto key = [](float16 h) { return (h.bits() & 0x8000u) ? -static_cast<long long>(h.bits() & 0x7fffu) : h.bits(); };
    return std::llabs(key(a) - key(b));
  } else {
    using I = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
    I ia, ib;
    std::memcpy(&ia, &a, sizeof a);
    std::memcpy(&ib, &b, sizeof b);
    auto key = [](I i) { return i < 0 ? -static_cast<long long>(i & std::numeric_limits<I>::max()) : (long long)i; };
    return std::llabs(key(ia) - key(ib));
  }
}

/// Whether `got` is NumPy's `want` under the case's promise (cls 0: the same bits, any NaN for a NaN; 1: within 4 ulp,
/// float16 1, infinities and zeros exact; 2: as 0, but +0 and -0 alike).
template <class T>
bool same(const T& got, const T& want, int cls) {
  if constexpr (ufx::detail::is_std_complex<T>) {
    if (is_nan_v(want)) return is_nan_v(got);
    return same(got.real(), want.real(), cls) && same(got.imag(), want.imag(), cls);
  } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, float16>) {
    if (is_nan_v(want)) return is_nan_v(got);
    if (is_nan_v(got)) return false;
    const bool exact = std::memcmp(&got, &want, sizeof(T)) == 0;
    if (cls == 2) return exact || static_cast<float>(got) == static_cast<float>(want); // +0 and -0 alike
    if (exact || cls == 0) return exact;
    const double g = static_cast<double>(static_cast<float>(got)), w = static_cast<double>(static_cast<float>(want));
    if (std::isinf(w) || w == 0) return g == w;
    return ulp_distance(got, want) <= (std::is_same_v<T, float16> ? 1 : 4);
  } else {
    return got == want;
  }
}

template <class T>
std::string show(const T& x) {
  std::ostringstream s;
  s.precision(17);
  if constexpr (std::is_same_v<T, int8> || std::is_same_v<T, uint8>) s << static_cast<int>(x);
  else s << x;
  return s.str();
}

/// A ready ufunc's function over one signature, through a pointer: one kernel per signature (see the file's comment).
template <class R, class... A>
struct erased {
  R (*fn)(const A&...);
  UFX_HD R operator()(const A&... a) const { return fn(a...); }
};
template <class F, class R, class... A>
R call_fn(const A&... a) {
  return static_cast<R>(F{}(a...));
}

/// The signatures whose cases also run on ufx::host and ufx::sim (most cases have one of them).
template <class In, class Out>
constexpr bool every_target =
    std::is_same_v<In, std::tuple<double>> || std::is_same_v<In, std::tuple<double, double>> ||
    std::is_same_v<In, std::tuple<int64, int64>> || std::is_same_v<In, std::tuple<float16>> ||
    std::is_same_v<In, std::tuple<int8, int8>>;

int failures = 0;

/// The per-signature part of a case (one instantiation for every function of the signature): runs `fp` over the inputs
/// on the targets and compares with NumPy's outputs.
template <class In, class Out, class R, class... A, class... L>
void run_signature(const char* name, int cls, R (*fp)(const A&...), const L&... lists) {
  constexpr std::size_t ni = std::tuple_size_v<In>, no = std::tuple_size_v<Out>;
  const std::tuple<const L&...> all(lists...);
  [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
    const std::tuple<ufx::ndarray<std::tuple_element_t<I, In>, 1>...> ins(
        make<std::tuple_element_t<I, In>>(std::get<I>(all))...);
    const std::tuple<ufx::ndarray<std::tuple_element_t<J, Out>, 1>...> want(
        make<std::tuple_element_t<J, Out>>(std::get<ni + J>(all))...);
    const auto kernel = ufx::vectorize(erased<R, A...>{fp});
    const std::size_t n = std::get<0>(ins).size();
    auto check = [&](const std::string& target, const auto&... got) {
      bool bad = false;
      for (std::size_t k = 0; k != n && !bad; ++k) {
        const auto at = static_cast<ufx::index_t>(k);
        const bool ok = (same(got(at), std::get<J>(want)(at), cls) && ...);
        if (!ok) {
          bad = true;
          ++failures;
          std::string args, outs, wants;
          ((args += show(std::get<I>(ins)(at)) + " "), ...);
          ((outs += show(got(at)) + " "), ...);
          ((wants += show(std::get<J>(want)(at)) + " "), ...);
          FAIL_CHECK(std::string(name) << " on " << target << " of " << args << "gave " << outs
                                       << "; NumPy: " << wants);
        }
      }
    };
    auto on = [&](auto t) {
      const ufx::index_t len = static_cast<ufx::index_t>(n);
      std::tuple<ufx::ndarray<std::tuple_element_t<J, Out>, 1>...> got{
          ufx::ndarray<std::tuple_element_t<J, Out>, 1>({len + 0 * static_cast<ufx::index_t>(J)})...};
      kernel(t, std::get<I>(ins)..., ufx::out(std::get<J>(got)...));
      check(std::string(t.name()), std::get<J>(got)...);
    };
    on(ufx::serial);
    if constexpr (every_target<In, Out>) {
      on(ufx::host);
      on(ufx::sim);
    }
  }
  (std::make_index_sequence<ni>{}, std::make_index_sequence<no>{});
}

/// A case: the function's result type is NumPy's, and its values (run_signature).
template <class In, class Out, class F, class... L>
void run_case_impl(const F& ufunc, const char* name, int cls, const L&... lists) {
  constexpr std::size_t ni = std::tuple_size_v<In>;
  static_assert(ni + std::tuple_size_v<Out> == sizeof...(L));
  using Fn = std::remove_cvref_t<decltype(ufunc.function())>;
  using Want = std::conditional_t<std::tuple_size_v<Out> == 1, std::tuple_element_t<0, Out>, Out>;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    using R = std::invoke_result_t<const Fn&, const std::tuple_element_t<I, In>&...>;
    if constexpr (!std::is_same_v<R, Want>) {
      ++failures;
      FAIL_CHECK((std::string(name) + ": the result type is not NumPy's " +
                  ufx::detail::numpy_name<std::tuple_element_t<0, Out>>()));
    } else {
      run_signature<In, Out>(name, cls, &call_fn<Fn, R, std::tuple_element_t<I, In>...>, lists...);
    }
  }
  (std::make_index_sequence<ni>{});
}

/// A case's lists, typed (a braced list deduces no template parameter): one, two or three inputs and outputs.
template <class In, class Out>
struct run_case;
template <class A, class O>
struct run_case<std::tuple<A>, std::tuple<O>> {
  template <class F>
  run_case(const F& f, const char* name, int cls, list<A> a, list<O> o) {
    run_case_impl<std::tuple<A>, std::tuple<O>>(f, name, cls, a, o);
  }
};
template <class A, class B, class O>
struct run_case<std::tuple<A, B>, std::tuple<O>> {
  template <class F>
  run_case(const F& f, const char* name, int cls, list<A> a, list<B> b, list<O> o) {
    run_case_impl<std::tuple<A, B>, std::tuple<O>>(f, name, cls, a, b, o);
  }
};
template <class A, class B, class O, class P>
struct run_case<std::tuple<A, B>, std::tuple<O, P>> {
  template <class F>
  run_case(const F& f, const char* name, int cls, list<A> a, list<B> b, list<O> o, list<P> p) {
    run_case_impl<std::tuple<A, B>, std::tuple<O, P>>(f, name, cls, a, b, o, p);
  }
};

#define UFX_TUPLE(...) std::tuple<__VA_ARGS__>
#define UFX_CASE(fn, cls, INS, OUTS, ...) run_case<UFX_TUPLE INS, UFX_TUPLE OUTS>(ufx::fn, #fn, cls, __VA_ARGS__);

/// Type checks: the result type of a function on two (one) element types against NumPy's (void: NumPy has no loop).
template <class F, class A, class B>
constexpr auto binary_result() {
  if constexpr (std::is_invocable_v<const F&, const A&, const B&>) {
    using R = std::invoke_result_t<const F&, const A&, const B&>;
    if constexpr (requires { std::tuple_size<R>::value; }) return std::type_identity<std::tuple_element_t<0, R>>{};
    else return std::type_identity<R>{};
  } else {
    return std::type_identity<void>{};
  }
}

} // namespace

TEST_CASE("ufuncs: every ufunc's values against NumPy's, through the kernels of every CPU target") {
#define UFX_TYPE2(fn, a, b, r)
#define UFX_TYPE1(fn, a, r)
#define UFX_WEAK(a, s, r)
#include "data/numpy_ufuncs.inc"
#undef UFX_TYPE2
#undef UFX_TYPE1
#undef UFX_WEAK
  CHECK(failures == 0);
}

TEST_CASE("ufuncs: NumPy's result types over every pair of element types, and NEP 50's weak scalars") {
  int checked = 0;
  // functions NumPy has no loop for are rejected at compile time with a message (a static_assert in the function's
  // body): those pairs are checked by name in the compile-fail tests, and here only where NumPy has a loop
#undef UFX_CASE
#define UFX_CASE(...)
#define UFX_TYPE2(fn, a, b, r)                                                                                         \
  if constexpr (!std::is_void_v<r>) {                                                                                  \
    using got = typename decltype(binary_result<ufx::ops::fn, a, b>())::type;                                          \
    ++checked;                                                                                                         \
    if (!std::is_same_v<got, r>)                                                                                       \
      FAIL_CHECK((std::string(#fn "(" #a ", " #b ") is ") + ufx::detail::numpy_name<got>() + "; NumPy: " #r));         \
  }
#define UFX_TYPE1(fn, a, r)                                                                                            \
  if constexpr (!std::is_void_v<r>) {                                                                                  \
    using got = std::invoke_result_t<const ufx::ops::fn&, const a&>;                                                   \
    ++checked;                                                                                                         \
    if (!std::is_same_v<got, r>)                                                                                       \
      FAIL_CHECK((std::string(#fn "(" #a ") is ") + ufx::detail::numpy_name<got>() + "; NumPy: " #r));                 \
  }
#define UFX_WEAK(a, s, r)                                                                                              \
  {                                                                                                                    \
    using got = ufx::detail::weak_scalar_t<ufx::detail::fixed_int_t<s>, a>;                                            \
    using sum = std::invoke_result_t<const ufx::ops::add&, const a&, const got&>;                                      \
    ++checked;                                                                                                         \
    if (!std::is_same_v<sum, r>)                                                                                       \
      FAIL_CHECK((std::string(#a " array + C++ " #s " is ") + ufx::detail::numpy_name<sum>() + "; NumPy 2: " #r));     \
  }
#include "data/numpy_ufuncs.inc"
#undef UFX_CASE
#undef UFX_TYPE2
#undef UFX_TYPE1
#undef UFX_WEAK
  CHECK(checked > 2000);
}
