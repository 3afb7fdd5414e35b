"""DLPack between ufx and NumPy (np.from_dlpack), through the shared library dlpack_numpy.cpp.

Run: /usr/bin/python3 examples/dlpack_numpy.py <path of libufx_dlpack_numpy.so>
Exits non-zero on a wrong value, a wrong error, or a tensor not freed exactly once.
"""
import ctypes
import sys

import numpy as np

lib = ctypes.CDLL(sys.argv[1])
lib.ufx_example_error.restype = ctypes.c_char_p
lib.ufx_example_made_data.restype = ctypes.c_void_p
lib.ufx_example_make.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
lib.ufx_example_sum.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)]
lib.ufx_example_affine_inplace.argtypes = [ctypes.c_void_p]
lib.ufx_example_doubled.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
lib.ufx_example_release.argtypes = [ctypes.c_void_p]

capsule_new = ctypes.pythonapi.PyCapsule_New
capsule_new.restype = ctypes.py_object
capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
capsule_pointer.restype = ctypes.c_void_p
capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
capsule_set_name = ctypes.pythonapi.PyCapsule_SetName
capsule_set_name.argtypes = [ctypes.py_object, ctypes.c_char_p]
destructor = ctypes.cast(lib.ufx_example_capsule_destructor, ctypes.c_void_p)

# keep the names given to PyCapsule_SetName alive: the capsule stores the pointer, not a copy
USED = ctypes.c_char_p(b"used_dltensor")


def check(rc):
    if rc != 0:
        raise ValueError(lib.ufx_example_error().decode())


class UfxArray:
    """A ufx array on offer through the DLPack Python protocol (what np.from_dlpack asks for)."""

    def __init__(self, make, *args):
        self._tensor = ctypes.c_void_p()
        check(make(*args, ctypes.byref(self._tensor)))

    def __dlpack__(self, stream=None):
        capsule = capsule_new(self._tensor, b"dltensor", destructor)
        self._tensor = None  # the capsule owns it now
        return capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0


def to_ufx(array, fn, *args):
    """Calls fn with the DLManagedTensor* of a NumPy array, then frees the tensor (as a consumer)."""
    capsule = array.__dlpack__()
    tensor = capsule_pointer(capsule, b"dltensor")
    capsule_set_name(capsule, USED)  # consumed: the capsule's destructor leaves it alone
    try:
        return fn(tensor, *args)
    finally:
        lib.ufx_example_release(tensor)


# 1. ufx -> NumPy, without a copy; NumPy frees it once, when the array goes
a = np.from_dlpack(UfxArray(lib.ufx_example_make, 3, 4))
want = 10 * np.arange(3.0)[:, None] + np.arange(4.0)[None, :] / 4
assert a.shape == (3, 4) and a.dtype == np.float64, (a.shape, a.dtype)
assert np.array_equal(a, want), (a, want)  # bitwise: exact in binary
assert a.ctypes.data == lib.ufx_example_made_data()  # NumPy reads ufx's memory: no copy
assert lib.ufx_example_frees() == 0
del a
assert lib.ufx_example_frees() == 1, lib.ufx_example_frees()
# a tensor offered but never consumed is freed by the capsule's destructor, also once
UfxArray(lib.ufx_example_make, 2, 2).__dlpack__()
assert lib.ufx_example_frees() == 2, lib.ufx_example_frees()

# 2. NumPy -> ufx: strided views read in place
x = np.arange(24.0).reshape(4, 6)
for view in (x, x.T, x[::2, 1::3]):
    got = ctypes.c_double()
    to_ufx(view, lambda t: check(lib.ufx_example_sum(t, ctypes.byref(got))))
    assert got.value == view.sum(), (got.value, view.sum())  # exact: small integers

# 3. ufx writes into NumPy's memory in place
y = np.arange(10, dtype=np.float32)
to_ufx(y[::3], lambda t: check(lib.ufx_example_affine_inplace(t)))
want_y = np.arange(10, dtype=np.float32)
want_y[::3] = 2 * want_y[::3] + 1
assert np.array_equal(y, want_y), y

# 4. float16 (kDLFloat 16), complex64 and complex128 (kDLComplex 64, 128): NumPy -> ufx -> NumPy,
# x + x computed by ufx in the array's own type (float16: rounded once, as NumPy does), bit for bit
halves = np.array([0.1, -2.5, 65504, 6e-8, -0.0, np.inf, 1 / 3], np.float16)
cases = (halves, halves[::-2], np.array([1 + 2j, -0.5j, 3.25, 1e-40 + 1e30j], np.complex64),
         np.array([1 + 2j, -0.5j, 1 / 3 - 1e300j, 5e-324], np.complex128))
for x in cases:
    frees = lib.ufx_example_frees()
    made = []
    to_ufx(x, lambda t: made.append(UfxArray(lib.ufx_example_doubled, t)))
    with np.errstate(over="ignore"):
        want = x + x
    got = np.from_dlpack(made.pop())
    assert got.dtype == x.dtype and got.shape == x.shape, (got.dtype, got.shape)
    assert got.ctypes.data == lib.ufx_example_made_data()
    assert got.tobytes() == want.tobytes(), (x, got, want)  # same bits
    del got
    assert lib.ufx_example_frees() == frees + 1

# 5. a wrong element type is refused with ufx's message, and nothing is written
try:
    to_ufx(np.arange(6).reshape(2, 3), lambda t: check(lib.ufx_example_sum(t, ctypes.byref(ctypes.c_double()))))
    raise AssertionError("an int64 array was summed as float64")
except ValueError as e:
    assert "the tensor's elements are int64, the view's are float64" in str(e), e
    print("refused as expected:", e)
try:
    to_ufx(np.zeros(3, np.int16), lambda t: UfxArray(lib.ufx_example_doubled, t))
    raise AssertionError("an int16 array was read as float16")
except ValueError as e:
    assert "the tensor's elements are int16, the view's are float16" in str(e), e

print("dlpack_numpy: ufx <-> NumPy through DLPack checked (float64, float32, float16, complex64, complex128; no "
      "copies; each tensor freed once)")
