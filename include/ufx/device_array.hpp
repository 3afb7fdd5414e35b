#pragma once
/// \file device_array.hpp
/// `ufx::device_array<T, R>` and transfers between containers and device memory.
///
///   auto d = ufx::to_device(x);              // ufx::cuda if a GPU answers, else ufx::sim
///   auto e = ufx::to_device(x, ufx::sim);    // explicit device target
///   auto y = add(d, d);                      // runs where the data is; y is a device_array
///   ufx::ndarray<float, 1> h = y.to_host();
///   y.copy_to_host(vec);                     // into an existing container of the same shape
///   auto z = ufx::device_array_like(x);      // same shape and element type, uninitialised
///
/// Errors. Shape mismatches in copy_to_host / copy_from_host throw ufx::shape_error; a target that
/// is not a device, or a device that is not available, throws ufx::device_error.
///
/// Targets. A device_array lives on one device of ufx::sim or ufx::cuda. Its copies run at the call
/// (strided data packed on the host), or are queued on the stream of the target given
/// (`ufx::to_device(x, ufx::sim.on(s))`, `d.copy_to_host(v, ufx::cuda.on(s))`) when both sides are
/// dense and the host side is pinned.

#include <array>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/detail/step/adapt.hpp"
#include "ufx/errors.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"
#include "ufx/targets.hpp"

namespace ufx {

/// An ndview known to point into device memory: calls on it run on that device and return
/// `device_array`s, as calls on a device_array do (a plain ndview into device memory runs there
/// too, but its results come back as host ndarrays, since its type cannot say where it points).
/// `device_array::view()` gives one; `ufx::device_view(ptr, shape[, strides])` wraps device
/// memory from elsewhere (cudaMalloc, a thrust::device_vector, another library).
template <class T, int R>
class device_view : public ndview<T, R> {
public:
  using ndview<T, R>::ndview;
  device_view() = default;
  /// The view `v`, known to point into device memory.
  explicit device_view(const ndview<T, R>& v) : ndview<T, R>(v) {}
  /// A const view of a mutable one.
  template <class U>
  requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>) device_view(const device_view<U, R>& other)
      : ndview<T, R>(ndview<U, R>(other)) {}
};

/// `ufx::device_view(ptr, shape)`: the rank from the shape's.
template <class T, std::size_t R>
device_view(T*, const std::array<index_t, R>&) -> device_view<T, static_cast<int>(R)>;
/// `ufx::device_view(ptr, shape, strides)` (strides in elements).
template <class T, std::size_t R>
device_view(T*, const std::array<index_t, R>&, const std::array<index_t, R>&) -> device_view<T, static_cast<int>(R)>;

/// An owning, row-major array in the memory of one device (of `ufx::cuda` or `ufx::sim`); it
/// remembers which. Move-only; `ufx::to_device(x)` makes one from a container, `to_host()` brings
/// it back. A moved-from array (and a default-constructed 0-d one) holds no memory: reading it,
/// copying from or to it, or passing it to a call throws ufx::device_error saying it is empty.
template <class T, int R>
class device_array {
  static_assert(std::is_trivially_copyable_v<T>, "ufx::device_array: the element type must be trivially copyable");

public:
  /// The element type.
  using value_type = T;
  /// The extents, one per dimension.
  using shape_type = std::array<index_t, R>;
  /// The number of dimensions.
  static constexpr int rank = R;

  device_array() = default;
  /// Allocates uninitialised storage for `shape` on the device of target `where`
  /// (`ufx::cuda`, `ufx::sim.device(1)`, ...; an unbound device target means its current device).
  explicit device_array(const shape_type& shape, const ufx::target& where = default_device()) : shape_(shape) {
    if (!where.is_device())
      throw device_error(std::string("ufx::device_array: ") + std::string(where.name()) +
                         " is not a device target; use ufx::cuda or ufx::sim");
    allocate(where.space());
  }
  /// Allocates uninitialised storage for `shape` in device memory `space`.
  device_array(const shape_type& shape, const memory_space& space) : shape_(shape) {
    if (space.is_host())
      throw device_error("ufx::device_array: host memory is not a device's; use ufx::cuda or ufx::sim");
    allocate(space);
  }
  /// Takes `o`'s memory; `o` is left empty (moved from).
  device_array(device_array&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), shape_(o.shape_), space_(o.space_) {}
  /// Frees this array's memory and takes `o`'s; `o` is left empty (moved from).
  device_array& operator=(device_array&& o) noexcept {
    if (this != &o) {
      reset();
      data_ = std::exchange(o.data_, nullptr);
      shape_ = o.shape_;
      space_ = o.space_;
    }
    return *this;
  }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  ~device_array() { reset(); }

  /// The extents.
  const shape_type& shape() const { return shape_; }
  /// The extent of dimension `k`.
  index_t extent(int k) const { return shape_[k]; }
  /// The number of elements.
  index_t size() const {
    index_t n = 1;
    for (index_t e : shape_) n *= e;
    return n;
  }
  /// Device pointer: dereference it only in device code (or on ufx::sim).
  T* data() const { return data_; }
  /// Where the elements live: the device runtime and the device ordinal.
  memory_space space() const { return space_; }
  /// The device target of that device (`ufx::sim.device(1)`, ...).
  ufx::target target() const { return detail::target_for(space_); }
  /// A view of the elements that calls recognise as device memory (results stay on the device).
  device_view<T, R> view() const UFX_LIFETIMEBOUND { return device_view<T, R>(data_, shape_); }

  /// Not an element access: the elements live in device memory, which host code cannot read.
  /// `d(i...)` is a compile-time error that names the ways to read them.
  template <class... I>
  T& operator()(I...) const {
    static_assert(sizeof...(I) != sizeof...(I),
                  "ufx::device_array: d(i...) cannot read an element: the elements are in device memory. Copy "
                  "them to the host with d.to_host() (an ndarray: d.to_host()(i...)), or read them in device code "
                  "through d.view(), a ufx::device_view (a ufx::kernel argument or a vectorize operand)");
    return *data_;
  }

  /// Throws ufx::device_error, naming `who`, when the array holds no memory for its elements: it
  /// was moved from (or is a default-constructed 0-d array, whose one element has no memory).
  void require_memory(const char* who) const {
    if (data_ == nullptr && size() > 0)
      throw device_error(std::string(who) +
                         ": the device_array is empty (moved from): it holds no device memory for its shape");
  }

  /// Copies the elements back into a new host ndarray.
  ndarray<T, R> to_host() const {
    require_memory("ufx::device_array::to_host");
    ndarray<T, R> h(shape_);
    detail::copy_bytes(memory_space::host, h.data(), space_, data_, sizeof(T) * static_cast<std::size_t>(size()));
    return h;
  }
  /// Copies into an existing host container of the same shape (defined in detail/arrays/device_array.hpp).
  template <class C>
  void copy_to_host(C&& dst) const;
  /// The same on a stream of this array's device (`ufx::sim.on(s)`): queued when `dst` is dense
  /// and pinned, else after the stream's queued work (docs/streams.md).
  template <class C>
  void copy_to_host(C&& dst, const ufx::target& on) const;
  /// Copies from a host container of the same shape (defined in detail/arrays/device_array.hpp).
  template <class C>
  void copy_from_host(const C& src);
  /// The same on a stream of this array's device: queued when `src` is dense and pinned.
  template <class C>
  void copy_from_host(const C& src, const ufx::target& on);

private:
  void allocate(const memory_space& space) {
    for (index_t e : shape_)
      if (e < 0) throw shape_error("ufx::device_array: negative extent in shape");
    data_ = static_cast<T*>(detail::device_malloc(space, sizeof(T) * static_cast<std::size_t>(size())));
    space_ = space;
    if (data_ && space.runtime) space.runtime->note_undefined(data_, sizeof(T) * static_cast<std::size_t>(size()));
  }
  void reset() noexcept {
    detail::device_free(space_, data_);
    data_ = nullptr;
  }
  T* data_ = nullptr;
  shape_type shape_{};
  memory_space space_ = memory_space::host;
};

/// Adapts a device_view as an operand in device memory: calls on it run on that device and return
/// device arrays.
template <class T, int R>
struct adapter<device_view<T, R>> {
  /// Device memory.
  static constexpr container_kind kind = container_kind::device;
  /// The view's rank.
  static constexpr int rank = R;
  /// The element type, without const.
  using value_type = std::remove_cv_t<T>;
  /// The device memory `v` points into; ufx::device_error when it is host memory.
  static memory_space device_space(const ndview<const value_type, R>& v) {
    const memory_space s = detail::space_of_view(v);
    if (s.is_host() && v.size() > 0)
      throw device_error(
          "ufx::device_view: the view points to host memory, not to a device's; use ufx::ndview for host memory");
    return s;
  }
  /// As a call's input.
  static detail::array_operand<const value_type, R> in(const device_view<T, R>& v) {
    const ndview<const value_type, R> view(v.data(), v.shape(), v.strides());
    return {view, device_space(view), {}};
  }
  /// As a call's output (a view of mutable elements).
  static detail::array_operand<T, R> out(const device_view<T, R>& v) requires(!std::is_const_v<T>) {
    return {v, device_space(ndview<const value_type, R>(v.data(), v.shape(), v.strides())), {}};
  }
};

/// Adapts a device_array as an operand in its device's memory; an empty (moved-from) array is a
/// ufx::device_error naming the call.
template <class T, int R>
struct adapter<device_array<T, R>> {
  /// Device memory.
  static constexpr container_kind kind = container_kind::device;
  /// The array's rank.
  static constexpr int rank = R;
  /// The element type.
  using value_type = T;
  /// As a call's input.
  static detail::array_operand<const T, R> in(const device_array<T, R>& a) {
    a.require_memory(detail::current_call);
    return {a.view(), a.space(), {}};
  }
  /// As a call's output.
  static detail::array_operand<T, R> out(device_array<T, R>& a) {
    a.require_memory(detail::current_call);
    return {a.view(), a.space(), {}};
  }
};

} // namespace ufx

// their copies from and to containers, after the adapters those need
#include "ufx/detail/arrays/device_array.hpp"

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

/// Copies any supported container to a new device_array (strided data is packed on the host). On a
/// stream (`ufx::to_device(x, ufx::cuda.on(s))`) a dense pinned container is copied by the stream:
/// the call returns at once and the array is filled when the stream reaches the copy.
template <array_like C>
auto to_device(const C& x, target where = default_device()) {
  auto op = detail::adapt_in(x);
  using V = typename decltype(op)::value_type;
  device_array<V, decltype(op)::rank> d(op.view.shape(), where);
  detail::transfer_on(detail::target_stream(where), d.space(), d.space(), d.view(), op.space, op.view);
  return d;
}

/// A new, uninitialised device_array with x's shape and element type: on `where`, or when none is
/// given, on x's device for device data (as empty_like) and on default_device() for host data.
template <array_like C>
auto device_array_like(const C& x, target where) {
  auto op = detail::adapt_in(x);
  return device_array<typename decltype(op)::value_type, decltype(op)::rank>(op.view.shape(), where);
}
/// The same without a target: on x's device for a device_array or device_view, else on default_device().
template <array_like C>
auto device_array_like(const C& x) {
  auto op = detail::adapt_in(x);
  using A = device_array<typename decltype(op)::value_type, decltype(op)::rank>;
  return op.space.is_device() ? A(op.view.shape(), op.space) : A(op.view.shape(), default_device());
}

UFX_TU_NAMESPACE_END

} // namespace ufx
