"""ufx::python checked against NumPy: the ufuncs and gufuncs of examples/python_kernels.cpp (module ufx_kernels) beside
NumPy's own, with NumPy's assertions, and its DLPack functions. Run with the interpreter ufx::python was built for,
the module's directory on PYTHONPATH (CTest: python.ufuncs). Exits non-zero on the first failure.
"""
import sys

import numpy as np
from numpy.testing import assert_allclose, assert_array_equal, assert_equal, assert_raises

import ufx_kernels as k

RNG = np.random.default_rng(7)
CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


def rand(shape, dtype):
    if np.issubdtype(dtype, np.complexfloating):
        return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        return RNG.integers(-1000, 1000, shape).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


@check
def ufunc_objects():
    for u in (k.add, k.hypot, k.clip, k.divmod, k.maximum, k.matmul, k.norm, k.scale, k.cross):
        assert isinstance(u, np.ufunc), u
    assert_equal(k.add.types, ["ii->i", "ll->l", "ee->e", "ff->f", "dd->d", "DD->D"])
    assert_equal((k.add.nin, k.add.nout, k.add.identity, k.add.__name__), (2, 1, 0, "add"))
    assert_equal(k.hypot.types, ["dd->d"])
    assert_equal((k.clip.nin, k.divmod.nout), (3, 2))
    assert_equal(k.maximum.identity, None)
    assert_equal((k.matmul.signature, k.norm.signature, k.cross.signature), ("(m,n),(n,p)->(m,p)", "(n)->()",
                                                                           "(3),(3)->(3)"))
    assert_equal(k.matmul.types, ["ff->f", "dd->d"])
    assert "a + b" in k.add.__doc__


@check
def add_every_loop_bitwise():
    # + is exact in each type (float16 rounds once, as NumPy's): results are bitwise NumPy's
    for dtype in (np.int32, np.int64, np.float16, np.float32, np.float64, np.complex128):
        a, b = rand((3, 1000), dtype), rand((1000,), dtype)
        r = k.add(a, b)
        assert_equal(r.dtype, np.dtype(dtype))
        assert_array_equal(r, np.add(a, b))
    # NumPy's type resolution picks the first loop the inputs cast to safely: int8 + int8 -> int32 (int8 casts to
    # float16 safely too: hence the integer loops first, as in NumPy's own ufuncs), int32 + float32 -> float64
    assert_equal(k.add(np.int8([1]), np.int8([2])).dtype, np.int32)
    assert_equal(k.add(np.int32([1]), np.float32([2])).dtype, np.float64)
    assert_equal(k.add(np.float32([1.5]), 2.0).dtype, np.float32)
    assert_equal(k.add(1, 2), 3)  # scalars give a scalar


@check
def add_large_and_strided():
    # sizes that run ufx::host's parallel path, and every stride NumPy hands a loop
    a, b = rand(1 << 20, np.float32), rand(1 << 20, np.float32)
    assert_array_equal(k.add(a, b), a + b)
    assert_array_equal(k.add(a[::3], b[::3]), a[::3] + b[::3])
    assert_array_equal(k.add(a[::-1], b), a[::-1] + b)
    m = rand((700, 900), np.float64)
    assert_array_equal(k.add(m.T, m.T), m.T + m.T)
    assert_array_equal(k.add(m[:, :1], m[:1, :]), m[:, :1] + m[:1, :])
    f16 = rand(1 << 18, np.float16)
    assert_array_equal(k.add(f16, f16[::-1]), f16 + f16[::-1])


@check
def add_out_where_dtype():
    a, b = rand((50, 40), np.float64), rand((40,), np.float64)
    out = np.empty_like(a)
    r = k.add(a, b, out=out)
    assert r is out
    assert_array_equal(out, a + b)
    mask = rand((50, 40), np.float64) > 0
    dst, ref = np.full_like(a, -7.0), np.full_like(a, -7.0)
    k.add(a, b, where=mask, out=dst)
    np.add(a, b, where=mask, out=ref)
    assert_array_equal(dst, ref)
    assert_array_equal(k.add(a, b, dtype=np.float32), np.add(a, b, dtype=np.float32))
    # in place, and outputs that overlap inputs: NumPy's semantics (it copies where needed)
    x = rand(1000, np.float64)
    ref = x.copy()
    k.add(x, 1.0, out=x)
    assert_array_equal(x, ref + 1.0)
    x, y = rand(1000, np.float64), None
    y = x.copy()
    k.add(x[:-1], x[1:], out=x[1:])
    np.add(y[:-1], y[1:], out=y[1:])
    assert_array_equal(x, y)


@check
def reductions_and_methods():
    # integers: bitwise NumPy's; float64: NumPy's own add sums contiguous rows pairwise, while NumPy runs a ufunc
    # from elsewhere as its reduce loop in order (out = out + x[i]), so within rounding
    for dtype, same in ((np.int32, assert_array_equal), (np.int64, assert_array_equal),
                        (np.float64, lambda x, y: assert_allclose(x, y, rtol=1e-12, atol=1e-12))):
        x = rand((30, 20, 10), dtype)
        same(k.add.reduce(x), np.add.reduce(x))
        same(k.add.reduce(x, axis=1), np.add.reduce(x, axis=1))
        same(k.add.reduce(x, axis=2), np.add.reduce(x, axis=2))
        same(k.add.accumulate(x, axis=2), np.add.accumulate(x, axis=2))
        same(k.add.reduceat(x, [0, 4, 5, 20], axis=0), np.add.reduceat(x, [0, 4, 5, 20], axis=0))
        same(k.add.outer(x[0, 0], x[1, 1]), np.add.outer(x[0, 0], x[1, 1]))
    x = rand((30, 20, 10), np.float64)
    # several axes at once (a reorderable ufunc), keepdims, initial, where: within rounding of NumPy's pairwise sum
    assert_allclose(k.add.reduce(x, axis=(0, 2)), np.add.reduce(x, axis=(0, 2)), rtol=1e-12)
    assert_allclose(k.add.reduce(x, axis=None, keepdims=True), np.add.reduce(x, axis=None, keepdims=True), rtol=1e-12)
    assert_allclose(k.add.reduce(x, axis=1, initial=5.0), np.add.reduce(x, axis=1, initial=5.0), rtol=1e-12)
    w = x > 0
    assert_allclose(k.add.reduce(x, axis=0, where=w), np.add.reduce(x, axis=0, where=w), rtol=1e-12)
    # the identity: the reduction of nothing
    assert_equal(k.add.reduce(np.zeros(0)), 0.0)
    assert_raises(ValueError, k.maximum.reduce, np.zeros(0))
    a = np.zeros(5)
    k.add.at(a, [0, 0, 3, 4, 0], 1.5)
    assert_array_equal(a, [4.5, 0, 0, 1.5, 1.5])
    x = rand(1000, np.float32)
    assert_array_equal(k.maximum.reduce(x), np.maximum.reduce(x))


@check
def other_ufuncs():
    x, y = rand((200, 3), np.float64), rand((200, 3), np.float64)
    assert_allclose(k.hypot(x, y), np.hypot(x, y), rtol=1e-15)
    assert_equal(k.hypot(3, 4), 5.0)
    assert_array_equal(k.clip(x, -0.5, 0.5), np.clip(x, -0.5, 0.5))
    q, r = k.divmod(x * 10, y)
    nq, nr = np.divmod(x * 10, y)
    assert_array_equal(q, nq)
    assert_allclose(r, nr, rtol=1e-12, atol=1e-12)
    qo, ro = np.empty_like(x), np.empty_like(x)
    k.divmod(x * 10, y, out=(qo, ro))
    assert_array_equal(qo, q)
    # NumPy's maximum propagates NaN: ufx's does too
    a = np.array([1.0, np.nan, 3.0, -np.inf])
    b = np.array([np.nan, 2.0, 1.0, np.inf])
    with np.errstate(invalid="ignore"):
        assert_array_equal(k.maximum(a, b), np.maximum(a, b))
        assert_array_equal(k.maximum(a.astype(np.float32), b.astype(np.float32)),
                           np.maximum(a.astype(np.float32), b.astype(np.float32)))


@check
def gufuncs():
    for dtype, rtol in ((np.float32, 1e-5), (np.float64, 1e-12)):
        a, b = rand((6, 4, 5), dtype), rand((5, 3), dtype)
        c = k.matmul(a, b)
        assert_equal((c.shape, c.dtype), ((6, 4, 3), np.dtype(dtype)))
        assert_allclose(c, np.matmul(a, b), rtol=rtol, atol=rtol)
    a, b = rand((7, 1, 3, 3), np.float64), rand((5, 3, 2), np.float64)  # loop dimensions broadcast
    assert_allclose(k.matmul(a, b), np.matmul(a, b), rtol=1e-12)
    assert_allclose(k.matmul(a.transpose(0, 1, 3, 2), b), np.matmul(a.transpose(0, 1, 3, 2), b), rtol=1e-12)
    out = np.empty((7, 5, 3, 2))
    assert k.matmul(a, b, out=out) is out
    assert_equal(k.matmul(np.ones((2, 2), np.int64), np.ones((2, 2), np.int64)).dtype, np.float64)
    x = rand((40, 17), np.float64)
    assert_allclose(k.norm(x), np.linalg.norm(x, axis=-1), rtol=1e-13)
    assert_allclose(k.norm(x, axis=0), np.linalg.norm(x, axis=0), rtol=1e-13)
    assert_allclose(k.norm(x[::2, ::-3]), np.linalg.norm(x[::2, ::-3], axis=-1), rtol=1e-13)
    assert_array_equal(k.scale(x, np.arange(40.0)), x * np.arange(40.0)[:, None])  # a () core per row
    u, v = rand((10, 3), np.float64), rand((3,), np.float64)
    assert_allclose(k.cross(u, v), np.cross(u, v), rtol=1e-13, atol=1e-15)
    assert_equal(k.matmul(np.ones((0, 2, 2)), np.ones((2, 2))).shape, (0, 2, 2))


@check
def bad_inputs():
    # NumPy's own errors: types no loop takes, shapes, read-only outputs, core dimensions
    assert_raises(TypeError, k.hypot, np.ones(3, np.complex128), 1.0)
    assert_raises(TypeError, k.add, np.array(["a"]), np.array(["b"]))
    assert_raises(ValueError, k.add, np.ones(3), np.ones(4))
    ro = np.ones(3)
    ro.flags.writeable = False
    assert_raises(ValueError, k.add, ro, ro, out=ro)
    assert_raises(ValueError, k.add, np.ones(3), np.ones(3), out=np.ones(4))
    assert_raises(ValueError, k.matmul, np.ones((2, 3)), np.ones((4, 5)))
    assert_raises(ValueError, k.cross, np.ones(4), np.ones(4))
    assert_raises(ValueError, k.norm, np.float64(3.0))  # a rank below the core's
    # an exception in a loop: a RuntimeError naming the ufunc and the message
    with assert_raises(RuntimeError) as e:
        k.sqrt_checked(np.array([4.0, -1.0] * 5000))
    assert "sqrt_checked" in str(e.exception) and "negative" in str(e.exception), e.exception
    assert_array_equal(k.sqrt_checked(np.array([4.0, 9.0])), [2.0, 3.0])
    # a loop on ufx::serial runs in the calling thread: NumPy sees its floating-point flags
    with np.errstate(divide="raise"):
        assert_raises(FloatingPointError, k.reciprocal, np.array([1.0, 0.0]))
    with np.errstate(divide="ignore"):
        assert_array_equal(k.reciprocal(np.array([2.0, 0.0])), [0.5, np.inf])


@check
def dlpack_in():
    x = np.arange(10, dtype=np.float32)
    k.affine_inplace(x, 2.0, 1.0)
    assert_array_equal(x, 2 * np.arange(10, dtype=np.float32) + 1)
    y = np.arange(10, dtype=np.float32)
    k.affine_inplace(y[::3], 1.0, 100.0)  # a strided view: written in place, the rest untouched
    assert_array_equal(y, [100, 1, 2, 103, 4, 5, 106, 7, 8, 109])
    m = rand((300, 200), np.float64)
    assert_allclose(k.total(m.T), m.sum(), rtol=1e-12)
    assert_allclose(k.total(m[::2, 1::3]), m[::2, 1::3].sum(), rtol=1e-12)
    # ufx's checks, raised before anything is written; NumPy's refusal of read-only arrays
    with assert_raises(ValueError) as e:
        k.affine_inplace(np.arange(3.0), 1.0, 1.0)
    assert "float64" in str(e.exception) and "float32" in str(e.exception), e.exception
    assert_raises(ValueError, k.total, np.ones(3))  # rank 1 into a rank-2 view
    ro = np.arange(3, dtype=np.float32)
    ro.flags.writeable = False
    assert_raises(BufferError, k.affine_inplace, ro, 1.0, 1.0)
    assert_array_equal(ro, [0, 1, 2])
    assert_raises(TypeError, k.affine_inplace, [1.0, 2.0], 1.0, 1.0)  # a list has no __dlpack__


@check
def dlpack_out():
    frees = k.frees()
    t = k.make(3, 4)
    assert_equal(t.__dlpack_device__(), (1, 0))
    a = np.from_dlpack(t)
    assert_array_equal(a, 10 * np.arange(3.0)[:, None] + np.arange(4.0) / 4)
    assert_equal(a.__array_interface__["data"][0], k.made_data())  # ufx's memory, not a copy
    assert_raises(BufferError, np.from_dlpack, t)  # a tensor is taken once
    assert_equal(k.frees(), frees)
    del a, t
    assert_equal(k.frees(), frees + 1)  # NumPy freed it, once
    k.make(2, 2)  # never taken: freed by its capsule (CPython frees the unused result at once)
    assert_equal(k.frees(), frees + 2)
    r = k.arange(6)
    assert_equal((r.dtype, r.flags.writeable, r.base is not None), (np.float32, True, True))
    assert_array_equal(r, np.arange(6, dtype=np.float32))
    r[0] = 5  # NumPy's now, writeable
    # float16 and complex cross as ufx::float16 and std::complex: every float16 bit pattern doubled as NumPy does
    h = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        ref = h + h
    assert_array_equal(np.from_dlpack(k.doubled_f16(h)).view(np.uint16)[~np.isnan(ref)],
                       ref.view(np.uint16)[~np.isnan(ref)])
    assert np.isnan(np.from_dlpack(k.doubled_f16(h))[np.isnan(ref)]).all()
    for fn, dtype in ((k.doubled_c64, np.complex64), (k.doubled_c128, np.complex128)):
        c = rand(100, dtype)
        assert_array_equal(np.from_dlpack(fn(c[::-2])), c[::-2] + c[::-2])


def main():
    failed = 0
    for fn in CHECKS:
        try:
            fn()
            print(f"ok   {fn.__name__}")
        except Exception as e:  # report each, then fail
            failed += 1
            print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
    print(f"{len(CHECKS) - failed} of {len(CHECKS)} checks passed (NumPy {np.__version__})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
