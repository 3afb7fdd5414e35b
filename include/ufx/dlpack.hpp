#pragma once
/// \file dlpack.hpp
/// DLPack exchange: ufx's arrays to and from CuPy, PyTorch, JAX, NumPy and any other DLPack
/// producer or consumer, without a copy.
///
///   DLManagedTensor* t = ufx::to_dlpack(std::move(a));   // a: ndarray or device_array; the consumer now owns it
///   auto v = ufx::from_dlpack<ufx::ndview<const float, 2>>(t);          // host memory
///   auto d = ufx::from_dlpack<ufx::device_view<float, 1>>(t2);          // ufx::cuda or ufx::sim memory
///   auto owner = ufx::adopt_dlpack(t);                   // calls t->deleter once, at scope exit
///
/// Residency. A tensor's device type says where its memory is:
///   - kDLCPU and kDLCUDAHost (pinned): host memory, read as a `ufx::ndview`;
///   - kDLCUDA: device `device_id` of ufx::cuda, read as a `ufx::device_view`;
///   - kDLExtDev: ufx::sim's memory (device `device_id` of ufx::sim), ufx's choice for its
///     simulated GPU. Only ufx produces and reads it.
///   - other types, including kDLCUDAManaged, are refused with a device_error.
///
/// Contracts.
///   - `from_dlpack<View>(t)`: View is `ufx::ndview<T, R>` or `ufx::device_view<T, R>`. The tensor
///     must have rank R and T's element type, with one lane. Its strides (in elements; null means
///     row-major) and byte_offset are honoured. Its data pointer must be aligned for T. A
///     device tensor's pointer must be memory of the device the tensor names (ufx asks the
///     runtime). The view does not own anything: keep the tensor alive while it is used, then
///     call its deleter (or hold it in `adopt_dlpack`).
///     A versioned tensor (`DLManagedTensorVersioned`, DLPack 1.x) must have major version 1. One
///     flagged read-only is read only into a view of const T.
///   - `to_dlpack(std::move(a))` / `to_dlpack_versioned(std::move(a))`: `a` is an `ndarray<T, R>` or a
///     `device_array<T, R>`. Its memory passes to the returned tensor, with its shape and
///     row-major strides; `a` is left empty. The consumer calls the deleter exactly once, which
///     frees the memory (a device_array's on its device).
///
/// Element types (DLPack's code and bits; NumPy's dtype where it has one):
///
///   | ufx element          | code        | bits   | NumPy                                      |
///   |----------------------|-------------|--------|--------------------------------------------|
///   | bool                 | kDLBool (6) | 8      | bool                                       |
///   | int8_t ... int64_t   | kDLInt      | 8-64   | int8 ... int64                             |
///   | uint8_t ... uint64_t | kDLUInt     | 8-64   | uint8 ... uint64                           |
///   | ufx::float16         | kDLFloat    | 16     | float16                                    |
///   | float, double        | kDLFloat    | 32, 64 | float32, float64                           |
///   | ufx::bfloat16        | kDLBfloat   | 16     | none (ml_dtypes' and PyTorch's bfloat16)   |
///   | std::complex<float>  | kDLComplex  | 64     | complex64                                  |
///   | std::complex<double> | kDLComplex  | 128    | complex128                                 |
///
/// Any other element type is a compile-time error. A tensor of any other code, bit width or lane
/// count is refused at run time with a value_error naming its code ("float8", "bfloat32",
/// "type code 7 of 8 bits", "float32 x4 lanes").
///
/// Errors. `ufx::value_error`: a null tensor, an element type, lane count or version that does not
/// match, a read-only tensor into a mutable view, a null or misaligned data pointer.
/// `ufx::shape_error`: a rank that does not match, a negative extent. `ufx::device_error`: a device
/// type the view cannot hold, a device ufx does not have here, memory that is not the named
/// device's. Each message names the view's type and what the tensor has.
///
/// Header. DLPack's own `<dlpack/dlpack.h>` (Debian: libdlpack-dev; CMake: `ufx::dlpack`). Debian 12
/// ships DLPack 0.6, which has no versioned tensor: ufx then declares
/// `ufx::dlpack::DLPackVersion` and `ufx::dlpack::DLManagedTensorVersioned` with DLPack 1.0's layout;
/// with a DLPack 1.x header they are that header's types.

#if __has_include(<dlpack/dlpack.h>)
#  include <dlpack/dlpack.h>
#else
#  error "ufx/dlpack.hpp needs DLPack's header <dlpack/dlpack.h> (Debian: libdlpack-dev; CMake: link ufx::dlpack)"
#endif

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/device_array.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/errors.hpp"
#include "ufx/half.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"

namespace ufx {

namespace dlpack {
#if defined(DLPACK_MAJOR_VERSION)
using DLPackVersion = ::DLPackVersion;
using DLManagedTensorVersioned = ::DLManagedTensorVersioned;
#else
/// DLPack 1.0's version field (dlpack.h 1.x: `DLPackVersion`).
struct DLPackVersion {
  /// The major version (a change breaks the ABI).
  std::uint32_t major;
  /// The minor version.
  std::uint32_t minor;
};
/// DLPack 1.0's versioned managed tensor, with its layout (dlpack.h 1.x: `DLManagedTensorVersioned`).
struct DLManagedTensorVersioned {
  /// The DLPack version the producer wrote the tensor with.
  DLPackVersion version;
  /// The producer's own context, for its deleter.
  void* manager_ctx;
  /// Frees the tensor; the consumer calls it exactly once (may be null: nothing to free).
  void (*deleter)(DLManagedTensorVersioned* self);
  /// Bit flags: flag_read_only, flag_is_copied.
  std::uint64_t flags;
  /// The tensor: data, device, element type, shape and strides.
  DLTensor dl_tensor;
};
#endif
/// The DLPack major version ufx writes into a versioned tensor, and the only one it reads.
inline constexpr std::uint32_t major_version = 1;
/// The DLPack minor version ufx writes into a versioned tensor.
inline constexpr std::uint32_t minor_version = 0;
/// The `flags` bit of a read-only versioned tensor (DLPACK_FLAG_BITMASK_READ_ONLY).
inline constexpr std::uint64_t flag_read_only = 1ULL << 0;
/// The `flags` bit of a versioned tensor whose data is a copy (DLPACK_FLAG_BITMASK_IS_COPIED).
inline constexpr std::uint64_t flag_is_copied = 1ULL << 1;
/// Type codes ufx uses beyond DLPack 0.6's enum (DLPack >= 0.8: kDLBool).
inline constexpr std::uint8_t code_bool = 6;
/// The device type of ufx::sim's memory: DLPack's extension device.
inline constexpr int device_type_sim = 12; // kDLExtDev
} // namespace dlpack

namespace detail {

template <class T>
inline constexpr bool dlpack_no_code = false;

/// T's DLPack data type.
template <class T>
constexpr DLDataType dlpack_dtype() {
  using U = std::remove_cv_t<T>;
  constexpr auto bits = static_cast<std::uint8_t>(8 * sizeof(U));
  if constexpr (std::is_same_v<U, bool>) return DLDataType{dlpack::code_bool, 8, 1};
  else if constexpr (std::is_integral_v<U>)
    return DLDataType{static_cast<std::uint8_t>(std::is_signed_v<U> ? kDLInt : kDLUInt), bits, 1};
  else if constexpr (std::is_same_v<U, float16> || std::is_same_v<U, float> || std::is_same_v<U, double>)
    return DLDataType{static_cast<std::uint8_t>(kDLFloat), bits, 1};
  else if constexpr (std::is_same_v<U, bfloat16>) return DLDataType{static_cast<std::uint8_t>(kDLBfloat), bits, 1};
  else if constexpr (std::is_same_v<U, std::complex<float>> || std::is_same_v<U, std::complex<double>>)
    return DLDataType{static_cast<std::uint8_t>(kDLComplex), bits, 1};
  else {
    static_assert(dlpack_no_code<U>, "ufx::dlpack: DLPack has no type code for this element type (bool, integers, "
                                     "ufx::float16, ufx::bfloat16, float, double, std::complex<float> and "
                                     "std::complex<double> have one)");
    return DLDataType{};
  }
}

/// "float32", "int8", "bool", "complex128", "bfloat16", "float32x4", "type code 9 of 32 bits".
inline std::string dlpack_type_name(const DLDataType& t) {
  std::string s;
  switch (t.code) {
  case kDLInt: s = "int" + std::to_string(t.bits); break;
  case kDLUInt: s = "uint" + std::to_string(t.bits); break;
  case kDLFloat: s = "float" + std::to_string(t.bits); break;
  case kDLBfloat: s = "bfloat" + std::to_string(t.bits); break;
  case kDLComplex: s = "complex" + std::to_string(t.bits); break;
  case dlpack::code_bool: s = t.bits == 8 ? "bool" : "bool of " + std::to_string(t.bits) + " bits"; break;
  default: s = "type code " + std::to_string(t.code) + " of " + std::to_string(t.bits) + " bits"; break;
  }
  if (t.lanes != 1) s += " x" + std::to_string(t.lanes) + " lanes";
  return s;
}

/// "kDLCPU", "kDLCUDA device 1", "kDLExtDev (ufx::sim) device 0", "device type 4 (kDLOpenCL)".
inline std::string dlpack_device_name(const DLDevice& d) {
  const std::string id = " device " + std::to_string(d.device_id);
  switch (static_cast<int>(d.device_type)) {
  case kDLCPU: return "kDLCPU (host memory)";
  case kDLCUDAHost: return "kDLCUDAHost (pinned host memory)";
  case kDLCUDA: return "kDLCUDA" + id;
  case kDLCUDAManaged: return "kDLCUDAManaged (CUDA managed memory)";
  case dlpack::device_type_sim: return "kDLExtDev (ufx::sim)" + id;
  case kDLOpenCL: return "kDLOpenCL" + id;
  case kDLVulkan: return "kDLVulkan" + id;
  case kDLMetal: return "kDLMetal" + id;
  case kDLROCM: return "kDLROCM" + id;
  case kDLROCMHost: return "kDLROCMHost (pinned ROCm host memory)";
  default: return "device type " + std::to_string(static_cast<int>(d.device_type)) + id;
  }
}

template <class V>
struct dlpack_view_traits {
  static constexpr bool valid = false, read_only = true;
  static std::string name() { return "?"; }
};
/// What the two view types share: element type, rank, where their memory is, and their name.
template <class T, int R, bool Device>
struct dlpack_view_of {
  static constexpr bool valid = true, device = Device, read_only = std::is_const_v<T>;
  using element = T;
  static constexpr int rank = R;
  static std::string name() {
    return std::string(Device ? "ufx::device_view<" : "ufx::ndview<") + dlpack_type_name(dlpack_dtype<T>()) + ", " +
           std::to_string(R) + ">";
  }
};
template <class T, int R>
struct dlpack_view_traits<ndview<T, R>> : dlpack_view_of<T, R, false> {};
template <class T, int R>
struct dlpack_view_traits<device_view<T, R>> : dlpack_view_of<T, R, true> {};

/// The checks every import makes (element type, rank, extents, pointer, residency); returns the
/// element pointer (data + byte_offset). `view` names the view asked for in messages.
inline void* dlpack_check(const DLTensor& t, const DLDataType& want, std::size_t align, int rank, bool device,
                          const std::string& view) {
  const std::string who = "ufx::from_dlpack<" + view + ">: ";
  if (t.dtype.code != want.code || t.dtype.bits != want.bits || t.dtype.lanes != want.lanes)
    throw value_error(who + "the tensor's elements are " + dlpack_type_name(t.dtype) + ", the view's are " +
                      dlpack_type_name(want));
  if (t.ndim != rank)
    throw shape_error(who + "the tensor has rank " + std::to_string(t.ndim) + ", the view rank " +
                      std::to_string(rank));
  if (t.ndim > 0 && t.shape == nullptr) throw shape_error(who + "the tensor's shape pointer is null");
  std::int64_t size = 1;
  for (int k = 0; k < t.ndim; ++k) {
    if (t.shape[k] < 0)
      throw shape_error(who + "the tensor's extent " + std::to_string(k) + " is negative (" +
                        std::to_string(t.shape[k]) + ")");
    size *= t.shape[k];
  }
  if (size > 0 && t.data == nullptr) throw value_error(who + "the tensor's data pointer is null");
  char* const p = t.data ? static_cast<char*>(t.data) + t.byte_offset : nullptr;
  if (reinterpret_cast<std::uintptr_t>(p) % align != 0)
    throw value_error(who + "the tensor's data pointer plus byte_offset (" + std::to_string(t.byte_offset) +
                      ") is not aligned for the view's element type (" + std::to_string(align) + " bytes)");

  const int type = static_cast<int>(t.device.device_type);
  const std::string where = dlpack_device_name(t.device);
  const bool host = type == kDLCPU || type == kDLCUDAHost;
  const bool cuda = type == kDLCUDA, sim = type == dlpack::device_type_sim;
  if (!host && !cuda && !sim)
    throw device_error(who + "the tensor's memory is " + where +
                       "; ufx reads kDLCPU and kDLCUDAHost (host), kDLCUDA (ufx::cuda) and kDLExtDev (ufx::sim)");
  if (host && device)
    throw device_error(who + "the tensor is in host memory (" + where + "); read it as a ufx::ndview");
  if (!host && !device)
    throw device_error(who + "the tensor is in a device's memory (" + where + "); read it as a ufx::device_view");
  if (!host) {
    const device_runtime& rt = cuda ? cuda_runtime() : sim_runtime();
    if (!rt.available())
      throw device_error(who + "the tensor is in " + where + ", and " + std::string(runtime_name(rt)) +
                         " is not available here: " + std::string(rt.unavailable_reason()));
    if (size > 0) {
      const memory_space s = space_of(p, 1);
      if (s.runtime != &rt || s.device != t.device.device_id)
        throw device_error(who + "the tensor says its memory is " + where + ", but its data pointer is in " +
                           to_string(s));
    }
  }
  return p;
}

template <class View>
View dlpack_view(const DLTensor& t) {
  static_assert(dlpack_view_traits<View>::valid,
                "ufx::from_dlpack<View>: View must be ufx::ndview<T, R> (host memory) or ufx::device_view<T, R> "
                "(ufx::cuda or ufx::sim memory)");
  using traits = dlpack_view_traits<View>;
  if constexpr (traits::valid) {
    using T = typename traits::element;
    constexpr int R = traits::rank;
    T* p = static_cast<T*>(dlpack_check(t, dlpack_dtype<T>(), alignof(T), R, traits::device, traits::name()));
    std::array<index_t, R> shape{}, strides{};
    index_t s = 1;
    for (int k = R - 1; k >= 0; --k) {
      shape[k] = static_cast<index_t>(t.shape[k]);
      strides[k] = t.strides ? static_cast<index_t>(t.strides[k]) : s;
      s *= shape[k];
    }
    return View(p, shape, strides);
  } else {
    return View{};
  }
}

/// The memory a tensor made by to_dlpack owns: the array itself, and the shape and strides the
/// DLTensor points to.
template <class Managed, class Array>
struct dlpack_holder {
  static constexpr int R = Array::rank;
  Managed managed{};
  Array array;
  std::int64_t shape[R > 0 ? R : 1] = {};
  std::int64_t strides[R > 0 ? R : 1] = {};
  explicit dlpack_holder(Array&& a) : array(std::move(a)) {}
  static void release(Managed* m) noexcept { delete static_cast<dlpack_holder*>(m->manager_ctx); }
};

template <class A>
struct dlpack_array_traits {
  static constexpr bool valid = false;
};
template <class T, int R>
struct dlpack_array_traits<ndarray<T, R>> {
  static constexpr bool valid = true;
  static DLDevice device(const ndarray<T, R>&) { return DLDevice{kDLCPU, 0}; }
};
template <class T, int R>
struct dlpack_array_traits<device_array<T, R>> {
  static constexpr bool valid = true;
  static DLDevice device(const device_array<T, R>& a) {
    const memory_space s = a.space();
    if (s.runtime == &cuda_runtime()) return DLDevice{kDLCUDA, s.device};
    return DLDevice{static_cast<DLDeviceType>(dlpack::device_type_sim), s.device};
  }
};

template <class Managed, class A>
Managed* dlpack_export(A&& a) {
  using Array = std::remove_cvref_t<A>;
  constexpr bool rvalue = !std::is_lvalue_reference_v<A>, valid = dlpack_array_traits<Array>::valid;
  constexpr bool writable = !std::is_const_v<std::remove_reference_t<A>>;
  static_assert(rvalue, "ufx::to_dlpack: pass the array as an rvalue (std::move(a)): its memory passes to the tensor, "
                        "whose consumer frees it");
  static_assert(!rvalue || valid,
                "ufx::to_dlpack: the array must be a ufx::ndarray<T, R> or a ufx::device_array<T, R> (to share "
                "another container's memory, keep it alive and build a DLTensor over its data)");
  static_assert(!rvalue || !valid || writable, "ufx::to_dlpack: the array must not be const");
  if constexpr (rvalue && valid && writable) {
    using T = typename Array::value_type;
    constexpr int R = Array::rank;
    constexpr DLDataType dtype = dlpack_dtype<T>();
    auto* h = new dlpack_holder<Managed, Array>(std::move(a));
    index_t s = 1;
    for (int k = R - 1; k >= 0; --k) {
      h->shape[k] = h->array.shape()[k];
      h->strides[k] = s;
      s *= h->array.shape()[k];
    }
    DLTensor& t = h->managed.dl_tensor;
    t.data = h->array.data();
    t.device = dlpack_array_traits<Array>::device(h->array);
    t.ndim = R;
    t.dtype = dtype;
    t.shape = R > 0 ? h->shape : nullptr;
    t.strides = R > 0 ? h->strides : nullptr;
    t.byte_offset = 0;
    h->managed.manager_ctx = h;
    h->managed.deleter = &dlpack_holder<Managed, Array>::release;
    if constexpr (std::is_same_v<Managed, dlpack::DLManagedTensorVersioned>) {
      h->managed.version = {dlpack::major_version, dlpack::minor_version};
      h->managed.flags = 0;
    }
    return &h->managed;
  } else {
    return nullptr;
  }
}

/// Calls a managed tensor's deleter, once (a null deleter means nothing to free).
struct dlpack_release {
  template <class Managed>
  void operator()(Managed* m) const noexcept {
    if (m && m->deleter) m->deleter(m);
  }
};

} // namespace detail

/// A typed view of a DLPack tensor's memory (see the file's head for the checks). Does not take
/// ownership.
template <class View>
View from_dlpack(const DLTensor& t) {
  return detail::dlpack_view<View>(t);
}
/// The same for a managed tensor (it stays the caller's). A null tensor throws value_error.
template <class View>
View from_dlpack(const DLManagedTensor* t) {
  if (t == nullptr)
    throw value_error("ufx::from_dlpack<" + detail::dlpack_view_traits<View>::name() + ">: the tensor is null");
  return detail::dlpack_view<View>(t->dl_tensor);
}
/// The same for a versioned tensor. Throws value_error for a null tensor, a major version other
/// than 1, or a read-only tensor read into a view of non-const T.
template <class View>
View from_dlpack(const dlpack::DLManagedTensorVersioned* t) {
  const std::string who = "ufx::from_dlpack<" + detail::dlpack_view_traits<View>::name() + ">: ";
  if (t == nullptr) throw value_error(who + "the tensor is null");
  if (t->version.major != dlpack::major_version)
    throw value_error(who + "the tensor is DLPack " + std::to_string(t->version.major) + "." +
                      std::to_string(t->version.minor) + "; ufx reads DLPack " + std::to_string(dlpack::major_version) +
                      ".x");
  if ((t->flags & dlpack::flag_read_only) && !detail::dlpack_view_traits<View>::read_only)
    throw value_error(who + "the tensor is read-only (DLPACK_FLAG_BITMASK_READ_ONLY); read it into a view of const T");
  return detail::dlpack_view<View>(t->dl_tensor);
}
/// The same for a tensor held by an owner from adopt_dlpack (which keeps it).
template <class View, class Managed>
View from_dlpack(const std::unique_ptr<Managed, detail::dlpack_release>& t) {
  return from_dlpack<View>(static_cast<const Managed*>(t.get()));
}

/// Hands `a`'s memory to a new DLPack tensor (see the file's head). The consumer calls
/// `t->deleter(t)` exactly once.
template <class A>
DLManagedTensor* to_dlpack(A&& a) {
  return detail::dlpack_export<DLManagedTensor>(std::forward<A>(a));
}
/// The same as a DLPack 1.0 versioned tensor (flags 0: writable, not a copy).
template <class A>
dlpack::DLManagedTensorVersioned* to_dlpack_versioned(A&& a) {
  return detail::dlpack_export<dlpack::DLManagedTensorVersioned>(std::forward<A>(a));
}

/// Owns a managed tensor: its deleter runs once, when the owner goes (a consumer's side of the
/// exchange: `auto t = ufx::adopt_dlpack(p); auto v = ufx::from_dlpack<...>(t.get());`).
template <class Managed>
using dlpack_owner = std::unique_ptr<Managed, detail::dlpack_release>;
/// Takes ownership of `m`, a managed or versioned tensor: the returned owner calls its deleter once.
template <class Managed>
dlpack_owner<Managed> adopt_dlpack(Managed* m) {
  return dlpack_owner<Managed>(m);
}

} // namespace ufx
