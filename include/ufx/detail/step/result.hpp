#pragma once
// Step 5: which container a call returns (docs/vectorize.md, "Result containers"), and how to make one.
#include <type_traits>
#include <vector>

#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/device_array.hpp"
#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/lib/host_memory.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/ndarray.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// A fresh std::vector result of n elements. The vector value-initialises its elements (one thread writing zeros)
/// before ufx writes them, and a large buffer comes from malloc in 4 KiB pages, one fault each at that first write.
/// From host_large_bytes the buffer is reserved first and marked for transparent huge pages before the elements are
/// made, so the zeroing faults once per 2 MiB (docs/performance.md, "Fresh results": 2-3x faster at 64 and 256 MiB).
/// The vector is a plain std::vector<T> with std::allocator; only the kernel's placement of its pages changes.
template <class T>
std::vector<T> fresh_vector(std::size_t n) {
  std::vector<T> v;
  if (n >= host_large_bytes / sizeof(T)) {
    v.reserve(n);
    host_hint_huge_pages(v.data(), n * sizeof(T));
  }
  v.resize(n);
  return v;
}

template <class C>
constexpr container_kind kind_of() {
  using D = std::remove_cvref_t<C>;
  if constexpr (scalar_like<D>) return container_kind::scalar;
  else return adapter<D>::kind;
}

template <class First, class... Rest>
struct first_eigen {
  using type = std::conditional_t<kind_of<First>() == container_kind::eigen, std::remove_cvref_t<First>,
                                  typename first_eigen<Rest...>::type>;
};
template <class First>
struct first_eigen<First> {
  using type = std::remove_cvref_t<First>;
};

/// The result container for element type T and loop rank R, given the call's argument types.
template <class T, int R, class... C>
struct result_rule {
  static constexpr int arrays = ((kind_of<C>() != container_kind::scalar) + ... + 0);
  static constexpr bool any_device = ((kind_of<C>() == container_kind::device) || ...);
  static constexpr bool
      all_eigen = arrays > 0 &&
                  ((kind_of<C>() == container_kind::eigen || kind_of<C>() == container_kind::scalar) && ...);
  // std::vector<bool> has no element storage, so bool results of sequences come back as ndarray
  static constexpr bool
      all_sequence = !std::is_same_v<T, bool> && arrays > 0 &&
                     ((kind_of<C>() == container_kind::sequence || kind_of<C>() == container_kind::scalar) && ...);

  static auto pick() {
    if constexpr (arrays == 0) return std::type_identity<T>{};
    else if constexpr (any_device) return std::type_identity<device_array<T, R>>{};
    else if constexpr (all_eigen && R == 2)
      return std::type_identity<typename adapter<typename first_eigen<C...>::type>::template result<T>>{};
    else if constexpr (all_sequence && R == 1) return std::type_identity<std::vector<T>>{};
    else return std::type_identity<ndarray<T, R>>{};
  }
  using type = typename decltype(pick())::type;

  static type make(const dims& shape, memory_space space) {
    std::array<index_t, R> s{};
    for (int k = 0; k < R; ++k) s[k] = shape[k];
    if constexpr (arrays == 0) return T{};
    else if constexpr (any_device) {
      if (capture_on(space.runtime)) [[unlikely]]
        refuse_in_capture(current_call, "a call that returns a new device array (allocated once, at the capture)",
                          "allocate the array before the capture and pass it as ufx::out(d)");
      return device_array<T, R>(s, space);
    } else if constexpr (all_eigen && R == 2) {
      auto m = adapter<typename first_eigen<C...>::type>::template make<T>(s[0], s[1]);
      // Eigen leaves a fresh matrix's elements uninitialised: the kernel's threads fault its pages in
      host_hint_huge_pages(m.data(), static_cast<std::size_t>(m.size()) * sizeof(T));
      return m;
    } else if constexpr (all_sequence && R == 1) return fresh_vector<T>(static_cast<std::size_t>(s[0]));
    else return ndarray<T, R>(s);
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
