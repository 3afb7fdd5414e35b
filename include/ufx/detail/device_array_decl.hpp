#pragma once
// The device_array class. Transfers from and to containers are in detail/device_array.hpp, after the
// adapters they need.
#include <array>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/detail/runtime.hpp"
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
  explicit device_view(const ndview<T, R>& v) : ndview<T, R>(v) {}
  /// A const view of a mutable one.
  template <class U>
  requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>) device_view(const device_view<U, R>& other)
      : ndview<T, R>(ndview<U, R>(other)) {}
};

template <class T, std::size_t R>
device_view(T*, const std::array<index_t, R>&) -> device_view<T, static_cast<int>(R)>;
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
  using value_type = T;
  using shape_type = std::array<index_t, R>;
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
  device_array(device_array&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), shape_(o.shape_), space_(o.space_) {}
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

  const shape_type& shape() const { return shape_; }
  index_t extent(int k) const { return shape_[k]; }
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
  /// Copies into an existing host container of the same shape (defined in detail/device_array.hpp).
  template <class C>
  void copy_to_host(C&& dst) const;
  /// The same on a stream of this array's device (`ufx::sim.on(s)`): queued when `dst` is dense
  /// and pinned, else after the stream's queued work (docs/streams.md).
  template <class C>
  void copy_to_host(C&& dst, const ufx::target& on) const;
  /// Copies from a host container of the same shape (defined in detail/device_array.hpp).
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

} // namespace ufx
