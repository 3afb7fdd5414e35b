#pragma once
// The body of ufx/print.hpp: a view's shown elements gathered on the host, formatted as NumPy's str by libufx.
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "ufx/device_array.hpp"
#include "ufx/half.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"

namespace ufx::detail {

template <class T>
struct is_complex : std::false_type {};
template <class F>
struct is_complex<std::complex<F>> : std::true_type {};

/// NumPy's `threshold` and `edgeitems`.
inline constexpr index_t print_threshold = 1000;
inline constexpr index_t print_edge_items = 3;

// src/print.cpp: the words of elements, aligned as one array's, and their layout.
std::vector<std::string> format_words(const float16* v, std::size_t n);
std::vector<std::string> format_words(const bfloat16* v, std::size_t n);
std::vector<std::string> format_words(const float* v, std::size_t n);
std::vector<std::string> format_words(const double* v, std::size_t n);
std::vector<std::string> format_words(const long long* v, std::size_t n);
std::vector<std::string> format_words(const unsigned long long* v, std::size_t n);
std::vector<std::string> format_words(const bool* v, std::size_t n);
std::vector<std::string> format_words(const std::complex<float>* v, std::size_t n);
std::vector<std::string> format_words(const std::complex<double>* v, std::size_t n);
std::string format_scalar(float16 x);
std::string format_scalar(bfloat16 x);
std::string format_scalar(float x);
std::string format_scalar(double x);
std::string format_scalar(long long x);
std::string format_scalar(unsigned long long x);
std::string format_scalar(bool x);
std::string format_scalar(std::complex<float> x);
std::string format_scalar(std::complex<double> x);
/// `words`: the shown elements in row-major order (a summarised axis: its first and last print_edge_items indices).
std::string format_layout(const std::vector<index_t>& shape, const std::vector<bool>& summarised,
                          const std::vector<std::string>& words);

UFX_TU_NAMESPACE_BEGIN

/// The type an element is formatted as: bool, float16, bfloat16 and std::complex as themselves
/// (complex<long double> as complex<double>), float, double for the other floating types, and the
/// integers as long long or unsigned long long.
template <class T>
struct print_word {
  using type =
      std::conditional_t<std::is_same_v<T, bool> || std::is_same_v<T, float> || half_type<T>, T,
                         std::conditional_t<std::is_floating_point_v<T>, double,
                                            std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>>>;
};
template <class F>
struct print_word<std::complex<F>> {
  using type = std::complex<std::conditional_t<std::is_same_v<F, float>, float, double>>;
};
template <class T>
using print_word_t = typename print_word<T>::type;

/// Element types print knows: the arithmetic types, float16, bfloat16 and std::complex.
template <class T>
inline constexpr bool printable_v = std::is_arithmetic_v<T> || half_type<T> || is_complex<T>::value;

/// Formats a view of host memory.
template <class T, int R>
std::string format_host(const ndview<const T, R>& v) {
  using W = print_word_t<T>;
  if constexpr (R == 0) {
    return format_scalar(static_cast<W>(v()));
  } else {
    if (v.size() == 0) return "[]";
    const bool summarise = v.size() > print_threshold;
    std::vector<index_t> shape(R);
    std::vector<bool> summarised(R);
    std::vector<std::vector<index_t>> shown(R); // the indices shown along each axis
    std::size_t count = 1;
    for (int k = 0; k < R; ++k) {
      shape[k] = v.extent(k);
      summarised[k] = summarise && v.extent(k) > 2 * print_edge_items;
      for (index_t i = 0; i < v.extent(k); ++i)
        if (!summarised[k] || i < print_edge_items || i >= v.extent(k) - print_edge_items) shown[k].push_back(i);
      count *= shown[k].size();
    }
    std::unique_ptr<W[]> values(new W[count]);
    std::size_t pos[R] = {};
    for (std::size_t n = 0; n < count; ++n) {
      index_t off = 0;
      for (int k = 0; k < R; ++k) off += shown[k][pos[k]] * v.stride(k);
      values[n] = static_cast<W>(v.data()[off]);
      for (int k = R - 1; k >= 0 && ++pos[k] == shown[k].size(); --k) pos[k] = 0;
    }
    return format_layout(shape, summarised, format_words(values.get(), count));
  }
}

/// Formats any view, copying device memory to the host first.
template <class T, int R>
std::string format_view(const ndview<const T, R>& v) {
  static_assert(printable_v<T>, "ufx: printing needs an arithmetic element type (integer, floating or bool), "
                                "ufx::float16, ufx::bfloat16 or std::complex");
  if constexpr (printable_v<T>) { // (only the message above for other types)
    if (v.size() > 0) {
      const memory_space space = space_of(v);
      if (!space.is_host()) {
        ndarray<T, R> h(v.shape());
        transfer(memory_space::host, h.view(), space, v);
        return format_host(ndview<const T, R>(h.view()));
      }
    }
    return format_host(v);
  } else {
    return {};
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
