"""ufx kernels from Python: the module ufx_kernels (examples/python_kernels.cpp) gives real NumPy ufuncs over ufx
kernels, and functions that take NumPy arrays through DLPack without a copy.

Run: PYTHONPATH=<build>/examples /usr/bin/python3 examples/python_kernels.py
Exits non-zero on a wrong value (tests/python/test_python.py checks much more).
"""
import numpy as np

import ufx_kernels as k

# a ufunc: NumPy broadcasts, picks the loop (float32 here), and gives it every method
x = np.linspace(0, 1, 5, dtype=np.float32)
y = k.add(x[:, None], x)  # (5, 1) + (5,) -> (5, 5)
print(k.add, k.add.types)
print("add(x[:, None], x)[1] =", y[1])
np.testing.assert_array_equal(y, x[:, None] + x)
print("add.reduce(x) =", k.add.reduce(x), " add.accumulate(x) =", k.add.accumulate(x))
np.testing.assert_array_equal(k.add.accumulate(x), np.add.accumulate(x))

# a generalized ufunc with its signature: a batch of matrix products
a = np.arange(24.0).reshape(2, 3, 4)
b = np.ones((4, 2))
print(k.matmul.signature, "->", k.matmul(a, b).shape)
np.testing.assert_allclose(k.matmul(a, b), a @ b)

# DLPack: a NumPy array written in place by a ufx call, and a ufx array handed to NumPy, neither copied
v = np.arange(6, dtype=np.float32)
k.affine_inplace(v[::2], 10.0, 1.0)  # every second element, in place
print("affine_inplace(v[::2], 10, 1) ->", v)
np.testing.assert_array_equal(v, [1, 1, 21, 3, 41, 5])
m = np.from_dlpack(k.make(2, 3))
print("np.from_dlpack(make(2, 3)) =\n", m)
np.testing.assert_array_equal(m, [[0, 0.25, 0.5], [10, 10.25, 10.5]])

# NumPy's errors are a ufunc's errors
try:
    k.hypot(np.ones(2, np.complex128), 1.0)
except TypeError as e:
    print("TypeError:", e)
else:
    raise SystemExit("hypot of a complex array was not refused")
