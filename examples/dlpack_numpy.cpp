// DLPack with NumPy: a shared library that Python loads with ctypes (examples/dlpack_numpy.py).
// ufx computes an array and hands it to NumPy (np.from_dlpack) without a copy; NumPy hands its
// arrays to ufx (ndarray.__dlpack__) and ufx reads them in place, or writes into them.
// float16 (kDLFloat 16) and complex64 / complex128 (kDLComplex 64 / 128) cross as ufx::float16 and
// std::complex<float> / std::complex<double>.
// Every function returns 0 on success and -1 with ufx_example_error() on failure: a C boundary
// does not pass exceptions, so ufx's messages cross it as text.
#include <ufx/dlpack.hpp>
#include <ufx/ufx.hpp>

#include <complex>
#include <string>

// The two functions of Python's stable C API the capsule's destructor needs, declared here so that
// the library needs no Python headers; they resolve in the Python process that loads it.
extern "C" int PyCapsule_IsValid(void* capsule, const char* name);
extern "C" void* PyCapsule_GetPointer(void* capsule, const char* name);

namespace {
std::string last_error;
const void* made_data = nullptr;
int frees = 0;
void (*ufx_deleter)(DLManagedTensor*) = nullptr;
// ufx's deleter, counted, so that the script can check NumPy freed the array exactly once
void counted_deleter(DLManagedTensor* m) {
  ++frees;
  ufx_deleter(m);
}
// a tensor handed to the caller, its deleter counted
DLManagedTensor* handed(DLManagedTensor* t) {
  made_data = t->dl_tensor.data;
  ufx_deleter = t->deleter;
  t->deleter = &counted_deleter;
  return t;
}
// x + x of a rank-1 tensor of T, as a new array handed over
template <class T>
DLManagedTensor* doubled(const DLManagedTensor* t) {
  const auto x = ufx::from_dlpack<ufx::ndview<const T, 1>>(t);
  ufx::ndarray<T, 1> r(x.shape());
  for (ufx::index_t i = 0; i < x.size(); ++i) r(i) = x(i) + x(i); // float16: rounded once, as NumPy's
  return handed(ufx::to_dlpack(std::move(r)));
}
template <class Fn>
int guarded(Fn&& fn) {
  try {
    fn();
    return 0;
  } catch (const std::exception& e) {
    last_error = e.what();
    return -1;
  }
}
} // namespace

extern "C" {

const char* ufx_example_error() { return last_error.c_str(); }
int ufx_example_frees() { return frees; }
// The data pointer of the last array ufx_example_make handed over (NumPy's array must show it).
const void* ufx_example_made_data() { return made_data; }

// A rows x cols float64 array, a[i][j] = 10 i + j / 4, computed by ufx::vectorize over two
// broadcast operands, handed over as a DLPack tensor: its consumer (NumPy) frees it.
int ufx_example_make(int rows, int cols, DLManagedTensor** result) {
  return guarded([&] {
    const auto outer = ufx::vectorize([](double i, double j) { return 10 * i + j / 4; });
    ufx::ndarray<double, 2> i({rows, 1}), j({1, cols});
    for (int k = 0; k < rows; ++k) i(k, 0) = k;
    for (int k = 0; k < cols; ++k) j(0, k) = k;
    ufx::ndarray<double, 2> a = outer(ufx::host, i, j);
    *result = handed(ufx::to_dlpack(std::move(a)));
  });
}

// x + x of a rank-1 float16, complex64 or complex128 tensor from NumPy (any strides), as a new array
// of the same element type handed over: the type is the tensor's code and bits. Other types are
// refused with from_dlpack's message, which names the tensor's type.
int ufx_example_doubled(const DLManagedTensor* t, DLManagedTensor** result) {
  return guarded([&] {
    const DLDataType d = t->dl_tensor.dtype;
    if (d.code == kDLComplex && d.bits == 64) *result = doubled<std::complex<float>>(t);
    else if (d.code == kDLComplex && d.bits == 128) *result = doubled<std::complex<double>>(t);
    else *result = doubled<ufx::float16>(t); // kDLFloat 16, or the refusal
  });
}

// The sum of a float64 tensor of rank 2 from NumPy (any strides: a transposed or sliced array
// is read in place). The tensor stays NumPy's: the caller calls its deleter.
int ufx_example_sum(const DLManagedTensor* t, double* result) {
  return guarded([&] { *result = ufx::sum(ufx::host, ufx::from_dlpack<ufx::ndview<const double, 2>>(t)); });
}

// x = 2 x + 1 in place on a float32 tensor of rank 1 from NumPy.
int ufx_example_affine_inplace(const DLManagedTensor* t) {
  return guarded([&] {
    const auto v = ufx::from_dlpack<ufx::ndview<float, 1>>(t);
    const auto affine = ufx::vectorize([](float x) { return 2 * x + 1; });
    affine(ufx::host, v, ufx::out(v));
  });
}

// A consumer's end of the exchange: the tensor's deleter, called once (ufx::adopt_dlpack).
void ufx_example_release(DLManagedTensor* t) { ufx::adopt_dlpack(t).reset(); }

// A capsule's destructor (PyCapsule_New's third argument): a capsule still named "dltensor" was
// never consumed, so its tensor is freed here; a consumer renames it "used_dltensor" and frees
// the tensor itself (the DLPack Python protocol).
void ufx_example_capsule_destructor(void* capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (t && t->deleter) t->deleter(t);
  }
}

} // extern "C"
