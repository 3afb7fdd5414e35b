#pragma once
// Raw kernels, compile-time side and arguments: what the body's parameters are (the thread, its ufx::shared arrays, the
// caller's arguments), where each shared array sits in a block's shared memory, and how each argument reaches the body:
// arrays bound to `ndview<const T, R>` are staged to the target's memory, arrays bound to `ndview<T, R>` are staged
// both ways (copied back after the kernel), scalars and trivially copyable values pass by value, pointers are checked.
#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/adapter.hpp"
#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/raw/blocks.hpp"
#include "ufx/detail/core/gufunc_types.hpp"
#include "ufx/detail/step/place.hpp"
#include "ufx/detail/step/transfer.hpp"
#include "ufx/detail/core/tuple.hpp"
#include "ufx/errors.hpp"
#include "ufx/thread.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class P>
inline constexpr bool is_thread_param_v = std::is_same_v<std::remove_cvref_t<P>, thread> &&
                                          (!std::is_reference_v<P> || std::is_const_v<std::remove_reference_t<P>>);

template <class P>
struct is_shared_param : std::false_type {};
template <class A>
struct is_shared_param<shared<A>> : std::true_type {};

template <class P>
struct is_view_param : std::false_type {};
template <class E, int R>
struct is_view_param<ndview<E, R>> : std::true_type {};

/// The body's parameter list read: [thread, shared..., arguments...].
template <class F>
struct kernel_traits {
  using fp = fn_params<F>;
  static_assert(fp::known, "ufx::kernel: the body must have exactly one call operator that is not a template (no "
                           "`auto` parameters): ufx reads its parameter types to know which arguments it writes");
  // an unreadable body is reported by the static_assert above; a stand-in list avoids a cascade
  using params = std::conditional_t<(fp::known && fp::count >= 1), typename fp::types, std::tuple<const thread&>>;
  static constexpr int count = static_cast<int>(std::tuple_size_v<params>);
  static_assert(count >= 1 && is_thread_param_v<std::tuple_element_t<0, params>>,
                "ufx::kernel: the body's first parameter is the thread: `const ufx::thread& t`");

  template <std::size_t I>
  using param = std::remove_cvref_t<std::tuple_element_t<I, params>>;

  static constexpr int n_shared = [] {
    int n = 0;
    with_indices<static_cast<std::size_t>(count - 1)>([&]<std::size_t... I>(std::index_sequence<I...>) {
      bool run = true;
      ((run = run && is_shared_param<param<I + 1>>::value, n += run ? 1 : 0), ...);
    });
    return n;
  }();
  static constexpr int n_args = count - 1 - n_shared;

  static constexpr bool shared_only_first = [] {
    bool ok = true;
    with_indices<static_cast<std::size_t>(n_args)>([&]<std::size_t... I>(std::index_sequence<I...>) {
      ((ok = ok && !is_shared_param<param<1 + n_shared + I>>::value), ...);
    });
    return ok;
  }();
  static_assert(shared_only_first, "ufx::kernel: ufx::shared parameters come right after the thread, before the "
                                   "arguments the caller passes");

  template <std::size_t S>
  using shared_at = param<1 + S>;

  /// Byte offset of each static shared array (16-aligned), and their total.
  struct layout_t {
    std::array<std::size_t, (n_shared > 0 ? n_shared : 1)> offset{};
    std::size_t static_bytes = 0;
    int dynamic = 0;
  };
  static constexpr layout_t layout = [] {
    layout_t L;
    with_indices<static_cast<std::size_t>(n_shared)>([&]<std::size_t... S>(std::index_sequence<S...>) {
      (
          [&] {
            using P = shared_at<S>;
            if constexpr (P::dynamic) {
              ++L.dynamic;
            } else {
              using E = typename P::element_type;
              const std::size_t align = alignof(E) > 16 ? alignof(E) : 16;
              L.static_bytes = (L.static_bytes + align - 1) / align * align;
              L.offset[S] = L.static_bytes;
              std::size_t n = sizeof(E);
              for (int k = 0; k < P::rank; ++k) n *= static_cast<std::size_t>(P::declared_extent(k));
              L.static_bytes += n;
            }
          }(),
          ...);
    });
    return L;
  }();
  static_assert(layout.dynamic <= 1, "ufx::kernel: at most one ufx::shared<T[]> parameter: the launch's shared_bytes "
                                     "are one region, as CUDA's extern __shared__ array");
  static_assert(layout.static_bytes <= 48 * 1024, "ufx::kernel: the body's ufx::shared arrays take more than 48 KiB, "
                                                  "CUDA's limit for static shared memory per block");
  static constexpr std::size_t static_bytes = layout.static_bytes;
  template <std::size_t S>
  static constexpr std::size_t shared_offset = layout.offset[S];

  /// The shared array S of the block `t` runs in.
  template <std::size_t S>
  UFX_HD static shared_at<S> make_shared(const thread& t) {
    using P = shared_at<S>;
    using E = typename P::element_type;
    if constexpr (P::dynamic)
      return P(reinterpret_cast<E*>(thread_access::dynamic_shared(t)),
               static_cast<index_t>(thread_access::dynamic_bytes(t) / sizeof(E)), thread_access::state(t));
    else
      return P(reinterpret_cast<E*>(thread_access::static_shared(t) + shared_offset<S>), P::declared_extent(0),
               thread_access::state(t));
  }

  /// The shared arrays' descriptions for the sim's messages (a dynamic one's extent from `dyn`).
  static std::array<shared_region, (n_shared > 0 ? n_shared : 1)> regions(std::size_t static_base_dynamic,
                                                                          std::size_t dyn) {
    std::array<shared_region, (n_shared > 0 ? n_shared : 1)> r{};
    with_indices<static_cast<std::size_t>(n_shared)>([&]<std::size_t... S>(std::index_sequence<S...>) {
      (
          [&] {
            using P = shared_at<S>;
            shared_region& g = r[S];
            g.elem_size = sizeof(typename P::element_type);
            g.rank = P::rank;
            g.parameter = static_cast<int>(1 + S);
            if constexpr (P::dynamic) {
              g.offset = static_base_dynamic;
              g.extents[0] = static_cast<index_t>(dyn / g.elem_size);
            } else {
              g.offset = layout.offset[S];
              for (int k = 0; k < P::rank; ++k) g.extents[k] = P::declared_extent(k);
            }
          }(),
          ...);
    });
    return r;
  }
};

// ---- one argument, as the body receives it

/// An array bound to `ndview<const V, R>`: staged to the target when it lives elsewhere.
template <class V, int R>
struct view_in_arg {
  array_operand<const V, R> op;
  const memory_space& space() const { return op.space; }
  template <class Tag>
  void place(const staging<Tag>& st) {
    st.in(op);
  }
  ndview<const V, R> value() const { return op.view; }
};

/// An array bound to `ndview<V, R>`: when it lives elsewhere, staged in (the kernel may read it) and copied back after.
template <class V, int R>
struct view_out_arg {
  array_operand<V, R> op;
  staged_output<V, R> staged;
  const memory_space& space() const { return op.space; }
  template <class Tag>
  void place(const staging<Tag>& st) {
    staged = st.out(op, true);
  }
  ndview<V, R> value() const { return staged.view; }
};

/// A scalar, a pointer or a trivially copyable value: passed as it is.
template <class P>
struct value_arg {
  P v;
  int position;
  const memory_space& space() const { return memory_space::host; }
  template <class Tag>
  void place([[maybe_unused]] const staging<Tag>& st) {
    if constexpr (std::is_pointer_v<P>) {
      const memory_space s = st.space();
      if (v == nullptr) return;
      const memory_space where = space_of(static_cast<const void*>(v), 1);
      if (where != s)
        throw kernel_error("ufx::kernel: argument " + std::to_string(position) + " is a pointer to " +
                           to_string(where) + " memory but the kernel runs on " + to_string(s) +
                           " (pass arrays as containers or ndviews, which ufx copies; or allocate the memory there)");
    }
  }
  P value() const { return v; }
};

template <class V>
struct is_value_arg : std::false_type {};
template <class P>
struct is_value_arg<value_arg<P>> : std::true_type {};

/// Prepares the caller's argument `a` (position `pos`, from 1) for parameter type P.
template <class P, class A>
auto kernel_arg(A&& a, int pos) {
  using C = std::remove_cvref_t<A>;
  if constexpr (is_view_param<P>::value) {
    using E = typename P::element_type;
    using V = std::remove_const_t<E>;
    constexpr int R = P::rank;
    static_assert(array_like<C>, "ufx::kernel: an argument bound to a ufx::ndview parameter must be an array "
                                 "(std::vector, ufx::ndarray, ufx::device_array, an Eigen matrix, a view)");
    if constexpr (array_like<C>) {
      static_assert(adapter<C>::rank == R, "ufx::kernel: an array argument's rank differs from its ndview parameter's");
      static_assert(std::is_same_v<typename adapter<C>::value_type, V>,
                    "ufx::kernel: an array argument's element type differs from its ndview parameter's (ufx does not "
                    "convert arrays passed to a kernel)");
      if constexpr (std::is_const_v<E>) {
        return view_in_arg<V, R>{adapter<C>::in(a)};
      } else {
        static_assert(
            requires { adapter<C>::out(a); } && !std::is_const_v<std::remove_reference_t<A>>,
            "ufx::kernel: the body writes this argument (its parameter is ufx::ndview<T, R> without const) "
            "but the array passed is const; pass a non-const array, or make the parameter ndview<const T, R>");
        // a view (whose out() takes it by const reference) may be a temporary; a container may not
        static_assert(
            std::is_lvalue_reference_v<A> || requires(const C& c) { adapter<C>::out(c); },
            "ufx::kernel: the body writes this argument (its parameter is ufx::ndview<T, R> without const) "
            "but the array passed is a temporary, whose contents would be lost; pass a named array");
        return view_out_arg<V, R>{adapter<C>::out(a), {}};
      }
    }
  } else {
    static_assert(!array_like<C> || std::is_pointer_v<P>,
                  "ufx::kernel: an array is passed where the body takes a value; declare that parameter as "
                  "ufx::ndview<const T, R> (read) or ufx::ndview<T, R> (written)");
    static_assert(std::is_convertible_v<A, P>, "ufx::kernel: an argument cannot be converted to its parameter's type");
    static_assert(std::is_trivially_copyable_v<P>,
                  "ufx::kernel: a parameter passed by value must be trivially copyable "
                  "(arithmetic, a pointer, a plain struct), as CUDA kernel arguments are");
    return value_arg<P>{static_cast<P>(a), pos};
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
