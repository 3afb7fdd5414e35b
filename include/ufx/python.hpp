#pragma once
/// \file python.hpp
/// ufx kernels as NumPy ufuncs, and NumPy, CuPy or PyTorch arrays into ufx calls without a copy: the optional
/// component `ufx::python` (CMake: `find_package(ufx COMPONENTS python)`, link `ufx::python`; Debian: pybind11-dev,
/// python3-dev, python3-numpy).
///
/// \code
///   PYBIND11_MODULE(kernels, m) {
///     auto add = ufx::vectorize([](auto a, auto b) { return a + b; }).identity(0);
///     m.attr("add") = ufx::python::ufunc<float(float, float), double(double, double)>(add, "add", "a + b");
///     auto hyp = ufx::vectorize([](double x, double y) { return std::hypot(x, y); });
///     m.attr("hypot") = ufx::python::ufunc(hyp, "hypot");         // one loop: the function's own types
///     auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
///     m.attr("matmul") = ufx::python::gufunc<void(float, float, float), void(double, double, double)>(matmul,
///     "matmul"); m.def("scale", [](pybind11::object x, double a) {                 // any object with __dlpack__
///       auto v = ufx::python::from_dlpack<ufx::ndview<double, 1>>(x);
///       ufx::vectorize([a](double e) { return a * e; })(ufx::host, v.view(), ufx::out(v.view()));
///     });
///   }
/// \endcode
///
/// `ufunc` and `gufunc` return a real `numpy.ufunc` (NumPy's `PyUFunc_FromFuncAndDataAndSignatureAndIdentity`), as
/// Numba's `@vectorize` and `@guvectorize` do: NumPy gives it broadcasting, type resolution and casting, `out=`,
/// `where=`, `dtype=`, `reduce`, `accumulate`, `reduceat`, `outer`, `at` and its own errors; ufx gives the inner
/// loops, one per signature.
///
/// Loops. Each template argument is one loop, a function type naming its element types: `R(A...)` for a ufunc
/// (`std::tuple<R1, R2>(A...)` for two outputs), `void(A..., O...)` for a gufunc (an element type per operand, inputs
/// then outputs, in signature order). NumPy picks the first loop its inputs cast to safely, so list them narrowest
/// first, as NumPy's own ufuncs do. Without template arguments the function's own parameter types make the only loop
/// (a generic lambda has none: name them). A type NumPy has no dtype for (ufx::bfloat16, a class) is a compile-time
/// error; so is a loop whose function returns another type than the loop's `R`.
///
/// Running. A loop runs the kernel on `ufx::host` (or the target given first: `ufx::serial`) over NumPy's strided
/// 1-D chunks, as `k(ufx::host, ndview..., ufx::out(ndview...))`: no copy. Where NumPy's own semantics need order,
/// the loop is the sequential one NumPy would run: an output that overlaps an input other than exactly (the pattern
/// of `reduce` and `accumulate`), an output stride of 0, or unaligned data. NumPy releases the GIL around loops.
/// A gufunc's loop passes the outer loop and the core dimensions as views of rank 1 + the core's rank.
///
/// Identity. A `vectorize` kernel with `.identity(v)` (an arithmetic v) gives the ufunc that identity (reduce of
/// nothing, `where=` in reduce); without one, a ufunc whose function ufx knows to be associative may be reduced over
/// several axes at once (NumPy's "reorderable"), others cannot.
///
/// Errors. NumPy's own, before a loop runs: no loop for the input types (TypeError), shapes that do not broadcast or
/// core dimensions that do not bind (ValueError), a read-only `out` (ValueError). An exception thrown inside a loop
/// (by the function, or by ufx) is raised as a RuntimeError naming the ufunc and the exception's message; elements
/// the loop had written stay written, as in NumPy.
/// Floating-point warnings (`np.errstate`): NumPy reads the calling thread's flags after a loop, so a loop on
/// ufx::serial raises NumPy's warnings (or errors); on ufx::host, the flags of chunks run on other threads are not
/// seen.
///
/// DLPack. `from_dlpack<View>(obj)` calls `obj.__dlpack__()` (NumPy, CuPy, PyTorch, JAX; a `ufx::ndview` for host
/// memory, a `ufx::device_view` for CUDA memory) and returns the view with the tensor's ownership: the producer's
/// deleter runs when the result goes. ufx's checks (`ufx::from_dlpack`: element type, rank, alignment, device) throw
/// before the capsule is consumed; pybind11 raises them in Python as ValueError, IndexError or RuntimeError.
/// `to_numpy(std::move(a))` hands an ndarray's memory to a NumPy array (no copy; freed when NumPy lets it go), and
/// `to_dlpack(std::move(a))` an ndarray's or device_array's to any DLPack consumer (`np.from_dlpack`,
/// `cupy.from_dlpack`, `torch.from_dlpack`).

#include <Python.h>
#include <pybind11/pybind11.h>

#ifndef NPY_NO_DEPRECATED_API
/// NumPy's C API without what NumPy 1.7 deprecated (a program that defines this macro first keeps its choice).
#  define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#endif
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ufx/detail/core/fn_params.hpp"
#include "ufx/detail/core/reduce_ops.hpp"
#include "ufx/dlpack.hpp"
#include "ufx/guvectorize.hpp"
#include "ufx/half.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"
#include "ufx/out.hpp"
#include "ufx/targets.hpp"
#include "ufx/vectorize.hpp"

namespace ufx::python {

namespace detail {

template <class T>
inline constexpr bool no_dtype = false;

/// NumPy's type number of an element type.
template <class T>
constexpr int npy_type() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) return NPY_BOOL;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U> && sizeof(U) == 1) return NPY_INT8;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U> && sizeof(U) == 2) return NPY_INT16;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U> && sizeof(U) == 4) return NPY_INT32;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U> && sizeof(U) == 8) return NPY_INT64;
  else if constexpr (std::is_integral_v<U> && sizeof(U) == 1) return NPY_UINT8;
  else if constexpr (std::is_integral_v<U> && sizeof(U) == 2) return NPY_UINT16;
  else if constexpr (std::is_integral_v<U> && sizeof(U) == 4) return NPY_UINT32;
  else if constexpr (std::is_integral_v<U> && sizeof(U) == 8) return NPY_UINT64;
  else if constexpr (std::is_same_v<U, float16>) return NPY_HALF;
  else if constexpr (std::is_same_v<U, float>) return NPY_FLOAT;
  else if constexpr (std::is_same_v<U, double>) return NPY_DOUBLE;
  else if constexpr (std::is_same_v<U, std::complex<float>>) return NPY_CFLOAT;
  else if constexpr (std::is_same_v<U, std::complex<double>>) return NPY_CDOUBLE;
  else {
    static_assert(no_dtype<U>, "ufx::python: NumPy has no dtype for this element type (bool, the integers, "
                               "ufx::float16, float, double, std::complex<float> and std::complex<double> have one; "
                               "ufx::bfloat16 has none in NumPy)");
    return NPY_NOTYPE;
  }
}

/// Imports NumPy's C API tables into this translation unit (NumPy's headers give each one its own), once.
inline void import_numpy() {
  static const bool done = [] {
    if (_import_array() < 0 || _import_umath() < 0) throw pybind11::error_already_set();
    return true;
  }();
  (void)done;
}

/// The output types of a loop's result: R, or std::tuple<R...>.
template <class R>
struct outs_of {
  using type = std::tuple<R>;
};
template <class... R>
struct outs_of<std::tuple<R...>> {
  using type = std::tuple<R...>;
};

template <class Sig>
struct ufunc_loop_sig {
  static_assert(no_dtype<Sig>, "ufx::python::ufunc: a loop is a function type R(A...) naming its element types, "
                               "for example float(float, float)");
};
template <class R, class... A>
struct ufunc_loop_sig<R(A...)> {
  using outs = typename outs_of<R>::type;
  using ins = std::tuple<A...>;
  using result = R;
};

template <class Sig>
struct gufunc_loop_sig {
  static_assert(no_dtype<Sig>, "ufx::python::gufunc: a loop is a function type void(A..., O...) naming each "
                               "operand's element type, inputs then outputs, for example void(float, float, float)");
};
template <class... E>
struct gufunc_loop_sig<void(E...)> {
  using types = std::tuple<E...>;
};

/// The element type of a gufunc core function's parameter: ndview<const T, k> and ndview<T, k> give T, T& and T give
/// T.
template <class P>
struct core_element {
  using type = std::remove_cvref_t<P>;
};
template <class T, int R>
struct core_element<ndview<T, R>> {
  using type = std::remove_const_t<T>;
};
template <class P>
using core_element_t = typename core_element<std::remove_cvref_t<P>>::type;

/// The loop a typed function gives: its own parameter types (a generic function has none).
template <class F>
struct own_ufunc_loop {
  template <class... P>
  static auto make(std::tuple<P...>*)
      -> std::invoke_result_t<const F&, std::remove_cvref_t<P>...> (*)(std::remove_cvref_t<P>...);
  using type = std::remove_pointer_t<decltype(make(static_cast<typename ufx::detail::fn_params<F>::types*>(nullptr)))>;
};
template <class F>
struct own_gufunc_loop {
  template <class... P>
  static auto make(std::tuple<P...>*) -> void (*)(core_element_t<P>...);
  using type = std::remove_pointer_t<decltype(make(static_cast<typename ufx::detail::fn_params<F>::types*>(nullptr)))>;
};

/// The scalar or core function of a ufx kernel.
template <class K>
using fn_of = std::decay_t<decltype(std::declval<const K&>().function())>;

template <class T>
inline constexpr bool is_target = std::is_same_v<T, serial_t> || std::is_same_v<T, host_t>;

/// What a ufunc keeps alive for as long as NumPy holds it: the kernel, the target, the texts and the loop tables
/// (NumPy keeps pointers to all of them). Owned by the ufunc's `obj` field, which NumPy releases with the ufunc.
template <class K, class Target>
struct ufunc_state {
  K kernel;
  Target target;
  std::string name, doc, signature;
  std::vector<PyUFuncGenericFunction> functions;
  std::vector<void*> data;
  std::vector<char> types;
};

/// Runs a loop's body; an exception becomes a Python error naming the ufunc (see the file's head).
template <class Body>
void guarded(const std::string& name, Body&& body) noexcept {
  std::string what;
  try {
    body();
    return;
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
    what = "an exception that is not a std::exception";
  }
  const PyGILState_STATE gil = PyGILState_Ensure();
  PyErr_SetString(PyExc_RuntimeError, ("ufx::python: the inner loop of ufunc '" + name + "' threw: " + what).c_str());
  PyGILState_Release(gil);
}

template <class T>
bool aligned(const char* p, npy_intp step) {
  return reinterpret_cast<std::uintptr_t>(p) % alignof(T) == 0 && step % static_cast<npy_intp>(sizeof(T)) == 0;
}

/// The bytes a strided 1-D operand of n elements of `size` bytes spans.
struct byte_range {
  const char* lo;
  const char* hi; // one past the end
};
inline byte_range range_of(const char* p, npy_intp step, npy_intp n, std::size_t size) {
  const npy_intp last = (n - 1) * step;
  return {p + (last < 0 ? last : 0), p + (last > 0 ? last : 0) + size};
}
inline bool overlap(const byte_range& a, const byte_range& b) { return a.lo < b.hi && b.lo < a.hi; }

template <class T>
T load(const char* p) {
  T v;
  std::memcpy(static_cast<void*>(&v), p, sizeof(T));
  return v;
}
template <class T>
void store(char* p, const T& v) {
  std::memcpy(static_cast<void*>(p), &v, sizeof(T));
}

template <class T>
ndview<T, 1> view1(char* p, npy_intp n, npy_intp step) {
  return ndview<T, 1>(reinterpret_cast<T*>(p), {static_cast<index_t>(n)},
                      {static_cast<index_t>(step / static_cast<npy_intp>(sizeof(T)))});
}

/// The inner loop of one ufunc signature `Sig` = R(A...).
template <class K, class Target, class Sig>
struct ufunc_loop {
  using S = ufunc_loop_sig<Sig>;
  using Ins = typename S::ins;
  using Outs = typename S::outs;
  static constexpr int nin = std::tuple_size_v<Ins>;
  static constexpr int nout = std::tuple_size_v<Outs>;

  template <std::size_t... I, std::size_t... O>
  static void run(char** args, npy_intp n, const npy_intp* steps, const ufunc_state<K, Target>& st,
                  std::index_sequence<I...>, std::index_sequence<O...>) {
    if (n <= 0) return;
    const auto& fn = st.kernel.function();
    const std::size_t in_size[] = {sizeof(std::tuple_element_t<I, Ins>)...};
    const std::size_t out_size[] = {sizeof(std::tuple_element_t<O, Outs>)...};
    // NumPy's loops run in order: where an output overlaps an input other than exactly (reduce, accumulate), has
    // stride 0, overlaps another output, or data is unaligned, run the loop NumPy would.
    bool ordered = !(aligned<std::tuple_element_t<I, Ins>>(args[I], steps[I]) && ...) ||
                   !(aligned<std::tuple_element_t<O, Outs>>(args[nin + O], steps[nin + O]) && ...);
    for (int o = 0; o < nout && !ordered; ++o) {
      const byte_range ro = range_of(args[nin + o], steps[nin + o], n, out_size[o]);
      if (steps[nin + o] == 0 && n > 1) ordered = true;
      for (int i = 0; i < nin; ++i)
        if (overlap(ro, range_of(args[i], steps[i], n, in_size[i])) &&
            !(args[i] == args[nin + o] && steps[i] == steps[nin + o] && in_size[i] == out_size[o]))
          ordered = true;
      for (int p = 0; p < o; ++p)
        if (overlap(ro, range_of(args[nin + p], steps[nin + p], n, out_size[p]))) ordered = true;
    }
    if (ordered) {
      for (npy_intp k = 0; k < n; ++k) {
        auto r = fn(load<std::tuple_element_t<I, Ins>>(args[I] + k * steps[I])...);
        if constexpr (nout == 1) store(args[nin] + k * steps[nin], r);
        else (store(args[nin + O] + k * steps[nin + O], std::get<O>(r)), ...);
      }
    } else {
      st.kernel(st.target, view1<const std::tuple_element_t<I, Ins>>(args[I], n, steps[I])...,
                ufx::out(view1<std::tuple_element_t<O, Outs>>(args[nin + O], n, steps[nin + O])...));
    }
  }

  static void loop(char** args, const npy_intp* dims, const npy_intp* steps, void* data) {
    const auto& st = *static_cast<const ufunc_state<K, Target>*>(data);
    guarded(st.name,
            [&] { run(args, dims[0], steps, st, std::make_index_sequence<nin>{}, std::make_index_sequence<nout>{}); });
  }

  static void check() {
    static_assert(nin >= 1 && nout >= 1, "ufx::python::ufunc: a loop has at least one input and one output");
    using R = typename S::result;
    static_assert(
        []<std::size_t... I>(std::index_sequence<I...>) {
          if constexpr (std::is_invocable_v<const fn_of<K>&, std::tuple_element_t<I, Ins>...>)
            return std::is_same_v<std::invoke_result_t<const fn_of<K>&, std::tuple_element_t<I, Ins>...>, R>;
          else return false;
        }(std::make_index_sequence<nin>{}),
        "ufx::python::ufunc: the function cannot take this loop's argument types, or returns another type than the "
        "loop's result type R (a loop R(A...) is the function's exact types)");
  }
  static void types(std::vector<char>& t) {
    [&]<std::size_t... I, std::size_t... O>(std::index_sequence<I...>, std::index_sequence<O...>) {
      (t.push_back(static_cast<char>(npy_type<std::tuple_element_t<I, Ins>>())), ...);
      (t.push_back(static_cast<char>(npy_type<std::tuple_element_t<O, Outs>>())), ...);
    }
    (std::make_index_sequence<nin>{}, std::make_index_sequence<nout>{});
  }
};

/// The inner loop of one gufunc signature `Sig` = void(E...) of a gufunc with parsed core signature `CS`.
template <class K, class Target, class CS, class Sig>
struct gufunc_loop {
  using Types = typename gufunc_loop_sig<Sig>::types;
  static constexpr int nargs = std::tuple_size_v<Types>;
  static constexpr int nin = CS::nin;

  static constexpr int core_offset(int k) {
    int o = 0;
    for (int i = 0; i < k; ++i) o += CS::core_rank(i);
    return o;
  }

  template <int K_>
  static auto view(char** args, const npy_intp* dims, const npy_intp* steps, const std::string& name) {
    using E = std::tuple_element_t<K_, Types>;
    using T = std::conditional_t<(K_ < nin), const E, E>;
    constexpr int r = CS::core_rank(K_);
    std::array<index_t, r + 1> shape{}, strides{};
    const npy_intp size = static_cast<npy_intp>(sizeof(E));
    auto stride = [&](npy_intp s) {
      if (s % size != 0)
        throw value_error("operand " + std::to_string(K_) + " of gufunc '" + name + "' has a stride of " +
                          std::to_string(s) + " bytes, not a multiple of its element size " + std::to_string(size));
      return static_cast<index_t>(s / size);
    };
    shape[0] = static_cast<index_t>(dims[0]);
    strides[0] = stride(steps[K_]);
    for (int j = 0; j < r; ++j) {
      shape[j + 1] = static_cast<index_t>(dims[1 + CS::dim(K_, j)]);
      strides[j + 1] = stride(steps[nargs + core_offset(K_) + j]);
    }
    if (reinterpret_cast<std::uintptr_t>(args[K_]) % alignof(E) != 0)
      throw value_error("operand " + std::to_string(K_) + " of gufunc '" + name + "' is not aligned");
    return ndview<T, r + 1>(reinterpret_cast<T*>(args[K_]), shape, strides);
  }

  static void loop(char** args, const npy_intp* dims, const npy_intp* steps, void* data) {
    const auto& st = *static_cast<const ufunc_state<K, Target>*>(data);
    guarded(st.name, [&] {
      if (dims[0] <= 0) return;
      [&]<std::size_t... I, std::size_t... O>(std::index_sequence<I...>, std::index_sequence<O...>) {
        st.kernel(st.target, view<static_cast<int>(I)>(args, dims, steps, st.name)...,
                  ufx::out(view<nin + static_cast<int>(O)>(args, dims, steps, st.name)...));
      }
      (std::make_index_sequence<nin>{}, std::make_index_sequence<nargs - nin>{});
    });
  }

  static void types(std::vector<char>& t) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (t.push_back(static_cast<char>(npy_type<std::tuple_element_t<I, Types>>())), ...);
    }
    (std::make_index_sequence<nargs>{});
  }
};

/// Makes the numpy.ufunc over `st` (which it then owns).
template <class K, class Target, class... Loop>
pybind11::object make_ufunc(std::unique_ptr<ufunc_state<K, Target>> st, int nin, int nout, int identity,
                            pybind11::object identity_value, bool generalized) {
  import_numpy();
  (st->functions.push_back(&Loop::loop), ...);
  (Loop::types(st->types), ...);
  st->data.assign(sizeof...(Loop), static_cast<void*>(st.get()));
  PyObject* u = PyUFunc_FromFuncAndDataAndSignatureAndIdentity(
      st->functions.data(), st->data.data(), st->types.data(), static_cast<int>(sizeof...(Loop)), nin, nout, identity,
      st->name.c_str(), st->doc.c_str(), 0, generalized ? st->signature.c_str() : nullptr,
      identity_value ? identity_value.ptr() : nullptr);
  if (u == nullptr) throw pybind11::error_already_set();
  auto result = pybind11::reinterpret_steal<pybind11::object>(u);
  // the ufunc owns the state: NumPy releases `obj` with the ufunc (as Numba's ufuncs keep theirs)
  pybind11::capsule keep(st.get(), [](void* p) { delete static_cast<ufunc_state<K, Target>*>(p); });
  st.release();
  reinterpret_cast<PyUFuncObject*>(u)->obj = keep.release().ptr();
  return result;
}

template <class Managed>
void dlpack_capsule_free(PyObject* capsule) {
  // a consumer renames the capsule "used_dltensor" once it owns the tensor; an unconsumed one is freed here
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (m && m->deleter) m->deleter(m);
  }
}

/// The class of the objects to_dlpack returns (made once per translation unit, kept for the interpreter's life):
/// `__dlpack__(stream=None, ...)` gives the capsule once, `__dlpack_device__()` the device (DLPack's Python protocol,
/// which consumers look up on the type).
inline pybind11::object dlpack_tensor_class() {
  static pybind11::object* cls = [] {
    auto* c = new pybind11::object(pybind11::module_::import("builtins")
                                       .attr("type")("dlpack_tensor", pybind11::make_tuple(),
                                                     pybind11::dict(pybind11::arg("__module__") = "ufx")));
    c->attr("__doc__") = "A ufx array on offer to one DLPack consumer (np.from_dlpack, cupy.from_dlpack, ...)";
    c->attr("__dlpack__") = pybind11::cpp_function(
        [](pybind11::object self, const pybind11::args&, const pybind11::kwargs&) {
          pybind11::object capsule = self.attr("_capsule");
          if (capsule.is_none())
            throw pybind11::buffer_error("ufx::python::to_dlpack: this tensor was already taken (__dlpack__)");
          self.attr("_capsule") = pybind11::none();
          return capsule;
        },
        pybind11::is_method(*c));
    c->attr("__dlpack_device__") =
        pybind11::cpp_function([](pybind11::object self) { return self.attr("_device"); }, pybind11::is_method(*c));
    return c;
  }();
  return *cls;
}

} // namespace detail

/// A numpy.ufunc over the ufx::vectorize kernel `k` (see the file's head), running on ufx::host.
template <class... Loop, class Target, class K>
requires detail::is_target<Target> && requires { typename K::vectorized_tag; }
pybind11::object ufunc(Target target, const K& k, const char* name, const char* doc = "") {
  if constexpr (sizeof...(Loop) == 0) {
    if constexpr (ufx::detail::fn_params<detail::fn_of<K>>::known) {
      using Own = typename detail::own_ufunc_loop<detail::fn_of<K>>::type;
      return ufunc<Own>(target, k, name, doc);
    } else {
      static_assert(ufx::detail::fn_params<detail::fn_of<K>>::known,
                    "ufx::python::ufunc: the function is generic (a template call operator, an auto parameter), so it "
                    "has no types of its own: name the loops, ufx::python::ufunc<float(float, float), double(double, "
                    "double)>(k, \"name\")");
      return pybind11::object();
    }
  } else {
    using First = detail::ufunc_loop_sig<std::tuple_element_t<0, std::tuple<Loop...>>>;
    constexpr int nin = std::tuple_size_v<typename First::ins>;
    constexpr int nout = std::tuple_size_v<typename First::outs>;
    static_assert(((std::tuple_size_v<typename detail::ufunc_loop_sig<Loop>::ins> == nin &&
                    std::tuple_size_v<typename detail::ufunc_loop_sig<Loop>::outs> == nout) &&
                   ...),
                  "ufx::python::ufunc: every loop has the same number of inputs and outputs");
    int identity = ufx::detail::associative<detail::fn_of<K>>() ? PyUFunc_ReorderableNone : PyUFunc_None;
    pybind11::object identity_value;
    if constexpr (K::has_identity) {
      if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(k.identity())>>) {
        identity = PyUFunc_IdentityValue;
        identity_value = pybind11::cast(k.identity());
      }
    }
    (detail::ufunc_loop<K, Target, Loop>::check(), ...);
    auto st = std::make_unique<detail::ufunc_state<K, Target>>(
        detail::ufunc_state<K, Target>{k, target, name ? name : "ufx_ufunc", doc ? doc : "", "", {}, {}, {}});
    return detail::make_ufunc<K, Target, detail::ufunc_loop<K, Target, Loop>...>(std::move(st), nin, nout, identity,
                                                                                 std::move(identity_value), false);
  }
}
/// The same on ufx::host.
template <class... Loop, class K>
requires requires { typename K::vectorized_tag; }
pybind11::object ufunc(const K& k, const char* name, const char* doc = "") {
  return ufunc<Loop...>(ufx::host, k, name, doc);
}

/// A generalized numpy.ufunc over the ufx::guvectorize kernel `g`, with its signature (see the file's head).
template <class... Loop, class Target, class CS, class F>
requires detail::is_target<Target> pybind11::object gufunc(Target target, const ufx::gufunc<CS, F>& g, const char* name,
                                                           const char* doc = "") {
  using K = ufx::gufunc<CS, F>;
  if constexpr (sizeof...(Loop) == 0) {
    if constexpr (ufx::detail::fn_params<F>::known) {
      using Own = typename detail::own_gufunc_loop<F>::type;
      return gufunc<Own>(target, g, name, doc);
    } else {
      static_assert(ufx::detail::fn_params<F>::known,
                    "ufx::python::gufunc: the core function is generic (a template call operator), so it has no types "
                    "of its own: name the loops, ufx::python::gufunc<void(float, float, float)>(g, \"name\")");
      return pybind11::object();
    }
  } else {
    constexpr bool arity_ok =
        ((std::tuple_size_v<typename detail::gufunc_loop_sig<Loop>::types> == CS::nin + CS::nout) && ...);
    static_assert(arity_ok, "ufx::python::gufunc: a loop void(E...) names one element type per operand of the "
                            "signature, inputs then outputs");
    if constexpr (!arity_ok) return pybind11::object();
    else {
      auto st = std::make_unique<detail::ufunc_state<K, Target>>(detail::ufunc_state<K, Target>{
          g, target, name ? name : "ufx_gufunc", doc ? doc : "", std::string(K::signature()), {}, {}, {}});
      return detail::make_ufunc<K, Target, detail::gufunc_loop<K, Target, CS, Loop>...>(
          std::move(st), CS::nin, CS::nout, PyUFunc_None, pybind11::object(), true);
    }
  }
}
/// The same on ufx::host.
template <class... Loop, class CS, class F>
pybind11::object gufunc(const ufx::gufunc<CS, F>& g, const char* name, const char* doc = "") {
  return gufunc<Loop...>(ufx::host, g, name, doc);
}

/// A view of a Python object's memory taken through its `__dlpack__`, holding the tensor: the producer's deleter
/// runs when this goes.
template <class View>
class dlpack_array {
public:
  /// The view (ufx::ndview or ufx::device_view).
  const View& view() const { return view_; }

private:
  template <class V>
  friend dlpack_array<V> from_dlpack(pybind11::handle obj);
  dlpack_array(dlpack_owner<DLManagedTensor> owner, View v) : owner_(std::move(owner)), view_(v) {}
  dlpack_owner<DLManagedTensor> owner_;
  View view_;
};

/// `obj.__dlpack__()` as a View, without a copy (see the file's head). Throws pybind11::error_already_set when the
/// object has no `__dlpack__` or refuses (NumPy: a read-only array), ufx's errors when the tensor does not fit View;
/// either way the capsule is not consumed.
template <class View>
dlpack_array<View> from_dlpack(pybind11::handle obj) {
  if (!pybind11::hasattr(obj, "__dlpack__"))
    throw pybind11::type_error("ufx::python::from_dlpack: a " +
                               std::string(pybind11::str(pybind11::type::handle_of(obj).attr("__name__"))) +
                               " has no __dlpack__ (NumPy >= 1.22, CuPy, PyTorch and JAX arrays have one)");
  pybind11::object capsule = obj.attr("__dlpack__")();
  if (!PyCapsule_IsValid(capsule.ptr(), "dltensor"))
    throw pybind11::value_error("ufx::python::from_dlpack: __dlpack__ did not return a capsule named \"dltensor\"");
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  View v = ufx::from_dlpack<View>(m); // throws before the capsule is consumed: its destructor frees the tensor
  if (PyCapsule_SetName(capsule.ptr(), "used_dltensor") != 0) throw pybind11::error_already_set();
  return dlpack_array<View>(adopt_dlpack(m), v);
}

/// Hands the managed tensor `m` to any DLPack consumer (`np.from_dlpack`, `cupy.from_dlpack`, `torch.from_dlpack`):
/// an object with `__dlpack__` (which gives the tensor once) and `__dlpack_device__`. The consumer calls m's deleter;
/// if none takes it, the object's capsule does.
inline pybind11::object to_dlpack(DLManagedTensor* m) {
  if (m == nullptr) throw value_error("ufx::python::to_dlpack: the tensor is null");
  const DLDevice device = m->dl_tensor.device;
  auto capsule = pybind11::reinterpret_steal<pybind11::object>(
      PyCapsule_New(m, "dltensor", &detail::dlpack_capsule_free<DLManagedTensor>));
  if (!capsule) {
    if (m->deleter) m->deleter(m);
    throw pybind11::error_already_set();
  }
  pybind11::object obj = detail::dlpack_tensor_class()();
  obj.attr("_capsule") = capsule;
  obj.attr("_device") = pybind11::make_tuple(static_cast<int>(device.device_type), device.device_id);
  return obj;
}
/// The same for an ndarray or device_array passed by std::move, whose memory passes to the consumer (ufx::to_dlpack).
template <class A>
requires(!std::is_pointer_v<std::remove_cvref_t<A>>) pybind11::object to_dlpack(A&& a) {
  return to_dlpack(ufx::to_dlpack(std::forward<A>(a)));
}

/// Hands an ndarray's memory to a new NumPy array, without a copy; NumPy frees it.
template <class T, int R>
pybind11::object to_numpy(ndarray<T, R>&& a) {
  detail::import_numpy();
  auto* owned = new ndarray<T, R>(std::move(a));
  pybind11::capsule base(owned, [](void* p) { delete static_cast<ndarray<T, R>*>(p); });
  std::vector<npy_intp> shape(R), strides(R);
  npy_intp s = sizeof(T);
  for (int k = R - 1; k >= 0; --k) {
    shape[k] = static_cast<npy_intp>(owned->extent(k));
    strides[k] = s;
    s *= shape[k];
  }
  PyObject* arr = PyArray_New(&PyArray_Type, R, shape.data(), detail::npy_type<T>(), strides.data(),
                              static_cast<void*>(owned->data()), 0, NPY_ARRAY_WRITEABLE, nullptr);
  if (arr == nullptr) throw pybind11::error_already_set();
  auto result = pybind11::reinterpret_steal<pybind11::object>(arr);
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject*>(arr), base.release().ptr()) != 0)
    throw pybind11::error_already_set();
  return result;
}

} // namespace ufx::python
