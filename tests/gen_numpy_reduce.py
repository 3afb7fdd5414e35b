#!/usr/bin/python3
"""Writes tests/data/numpy_reduce_cases.txt: reductions, argmin/argmax and accumulate computed by
NumPy, for tests/test_numpy_reduce.cpp to check ufx against on every target.

Run with the system Python that has NumPy:  /usr/bin/python3 tests/gen_numpy_reduce.py
CTest checks the committed file is current:  gen_numpy_reduce.py --out F --expect tests/data/numpy_reduce_cases.txt

Format (whitespace separated, one record per line, '#' starts a comment line):
  accuracy SEED N REF NP_SUM NP_REL_ERR
      2^22 float32 random normals from the generator below (splitmix64 + Box-Muller, replayed in
      C++), their exact sum (math.fsum), np.sum's float32 result and its relative error.
  dtype FUNC IN OUT
      NumPy's result dtype of FUNC (sum prod cumsum cumprod min max) on an array of dtype IN.
  case OP DTYPE ORDER RANK SHAPE... NAXES AXES... KEEPDIMS
      OP: add multiply minimum maximum argmin argmax accumulate, and the statistics mean var std
      var1 std1 (var1 / std1: ddof=1); DTYPE: f8 or i8; and NumPy's own reductions of narrow
      integers, whose results widen (np.sum, np.prod, np.cumsum, np.cumprod: OP sum prod cumsum
      cumprod, DTYPE b1 i1 u1 i2 u2 i4 u4), values near the type's limits so that the results
      overflow the input type, every result exact in int64 and in a double;
      ORDER: c (row-major) or f (column-major storage of the same logical array);
      NAXES 0 means axis=None (the whole array).
  values COUNT V...            the input, in C order of the logical array
  result RANK SHAPE... COUNT V...   NumPy's result (C order), or
  error value|shape            NumPy raised ValueError / AxisError
"""
import math
import sys
import warnings

import numpy as np

import numpy_cases

MASK = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def normals(seed, n):
    """Box-Muller on splitmix64 with the C library's log and cos (math.* call them), so the C++
    test regenerates the same float32 values."""
    out = np.empty(n, dtype=np.float32)
    s = seed
    for i in range(n):
        s, a = splitmix64(s)
        s, b = splitmix64(s)
        u1 = ((a >> 11) + 1) * (1.0 / 9007199254740992.0)
        u2 = (b >> 11) * (1.0 / 9007199254740992.0)
        out[i] = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    return out


def fmt(v):
    if isinstance(v, (float, np.floating)):
        v = float(v)
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    return str(int(v))


def random_shape(rng):
    rank = int(rng.integers(1, 5))
    shape = []
    for _ in range(rank):
        r = rng.random()
        shape.append(0 if r < 0.06 else 1 if r < 0.25 else int(rng.integers(2, 7)))
    return shape


def values_for(rng, op, dtype, shape):
    n = int(np.prod(shape)) if shape else 1
    if dtype == "i8":
        return rng.integers(-9, 10, size=n).astype(np.int64).reshape(shape)
    if op == "multiply":
        x = rng.uniform(0.5, 1.5, size=n)
    elif op in ("minimum", "maximum", "argmin", "argmax"):
        x = rng.integers(-4, 5, size=n).astype(np.float64)  # ties: first occurrence matters
        if rng.random() < 0.4:
            x[rng.random(n) < 0.15] = np.nan
    else:
        x = rng.standard_normal(n)
    return x.reshape(shape)


def compute(op, x, axes, keep):
    axis = None if axes is None else tuple(axes)
    if op in ("add", "multiply", "minimum", "maximum"):
        return getattr(np, op).reduce(x, axis=axis, keepdims=keep)
    if op in ("argmin", "argmax"):
        a = None if axis is None else axis[0]
        return getattr(np, op)(x, axis=a, keepdims=keep)
    if op in ("mean", "var", "std", "var1", "std1"):
        f = getattr(np, op.rstrip("1"))
        return f(x, axis=axis, keepdims=keep) if op == "mean" else \
            f(x, axis=axis, keepdims=keep, ddof=1 if op.endswith("1") else 0)
    if op in ("sum", "prod"):
        return getattr(np, op)(x, axis=axis, keepdims=keep)
    if op in ("cumsum", "cumprod"):
        return getattr(np, op)(x, axis=axis[0])
    return np.add.accumulate(x, axis=axis[0])


# The narrow types of the widening cases, by the code the case file uses (NumPy's array-interface
# kind and size) and the C++ type tests/test_numpy_reduce.cpp reads them into.
NARROW = {"b1": np.bool_, "i1": np.int8, "u1": np.uint8, "i2": np.int16, "u2": np.uint16, "i4": np.int32,
          "u4": np.uint32}
DTYPE_NAMES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32",
               "float64"]


def result_dtypes():
    """`dtype FUNC IN OUT` lines: the result dtype NumPy gives each function on each input dtype."""
    lines = []
    for func in ("sum", "prod", "cumsum", "cumprod", "min", "max"):
        for name in DTYPE_NAMES:
            lines.append(f"dtype {func} {name} {getattr(np, func)(np.ones(3, dtype=name)).dtype.name}")
    return lines


def narrow_values(rng, op, code, shape):
    """Values of a widening case: sums of values near the type's limits, products of +-1 and a few
    larger factors, redrawn until every product is exact in a double (|product of all| < 2^53)."""
    t = NARROW[code]
    n = int(np.prod(shape)) if shape else 1
    if code == "b1":
        return (rng.random(n) < 0.7).reshape(shape)
    info = np.iinfo(t)
    while True:
        if op in ("sum", "cumsum"):  # near the top, and for signed types sometimes near the bottom
            hi = int(info.max) - rng.integers(0, 4, size=n)
            lo = int(info.min) + rng.integers(0, 4, size=n)
            x = np.where((rng.random(n) < 0.75) | (info.min == 0), hi, lo)
        else:  # +-1, and up to 6 larger factors: 2, 3 and 2^16 (uint8: 255)
            big = min(int(info.max), 65536)
            x = rng.choice([1] if info.min == 0 else [1, -1], size=n)
            k = min(n, int(rng.integers(0, 7)))
            pool = [2, 3, big] if info.min == 0 else [2, -2, 3, big, -big]
            x[rng.permutation(n)[:k]] = rng.choice(pool, size=k)
        x = x.astype(t)
        if op in ("sum", "cumsum") or math.prod(abs(int(v)) for v in x.reshape(-1)) < 2**53:
            return x.reshape(shape)


def add_case(lines, op, dtype, order, shape, axes, keep, x):
    rank = len(shape)
    head = ["case", op, dtype, order, str(rank)] + [str(e) for e in shape]
    head += ["0"] if axes is None else [str(len(axes))] + [str(a) for a in axes]
    head.append("1" if keep else "0")
    lines.append(" ".join(head))
    flat = x.reshape(-1)
    lines.append(" ".join(["values", str(flat.size)] + [fmt(v) for v in flat]))
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the mean of an empty slice
            r = np.asarray(compute(op, x, axes, keep))
        lines.append(" ".join(["result", str(r.ndim)] + [str(e) for e in r.shape] + [str(r.size)] +
                              [fmt(v) for v in r.reshape(-1)]))
    except np.AxisError:
        lines.append("error shape")
    except ValueError:
        lines.append("error value")


def make_text():
    rng = np.random.default_rng(20240604)
    lines = ["# generated by tests/gen_numpy_reduce.py with NumPy " + np.__version__ + "; do not edit"]

    seed, n = 12345, 1 << 22
    x = normals(seed, n)
    ref = math.fsum(x.astype(np.float64))
    s = float(np.sum(x))
    lines.append(f"accuracy {seed} {n} {ref!r} {s!r} {abs(s - ref) / abs(ref)!r}")

    ops = ["add"] * 3 + ["multiply", "minimum", "maximum", "argmin", "argmax", "accumulate"]
    for _ in range(260):
        op = ops[int(rng.integers(len(ops)))]
        dtype = "i8" if op in ("add", "accumulate") and rng.random() < 0.35 else "f8"
        shape = random_shape(rng)
        rank = len(shape)
        if op == "accumulate" or (op in ("argmin", "argmax") and rng.random() < 0.6):
            axes = [int(rng.integers(-rank, rank))]
        elif op in ("argmin", "argmax") or rng.random() < 0.2:
            axes = None
        else:
            k = int(rng.integers(1, rank + 1))
            axes = [int(a) for a in rng.permutation(rank)[:k]]
            axes = [a - rank if rng.random() < 0.2 else a for a in axes]
        keep = op != "accumulate" and rng.random() < 0.4
        order = "f" if rng.random() < 0.3 else "c"
        x = values_for(rng, op, dtype, shape)
        add_case(lines, op, dtype, order, shape, axes, keep, x)

    # the statistics (a stream of their own, so the cases above stay as they were): random shapes
    # and axes, some data far from 0 (an offset of 1e6 on a spread of 1)
    srng = np.random.default_rng(20261127)
    stats = ["mean", "var", "std", "var1", "std1"]
    for _ in range(120):
        op = stats[int(srng.integers(len(stats)))]
        dtype = "i8" if srng.random() < 0.25 else "f8"
        shape = random_shape(srng)
        rank = len(shape)
        if srng.random() < 0.3:
            axes = None
        else:
            k = int(srng.integers(1, rank + 1))
            axes = [int(a) for a in srng.permutation(rank)[:k]]
        keep = srng.random() < 0.4
        order = "f" if srng.random() < 0.3 else "c"
        n = int(np.prod(shape)) if shape else 1
        if dtype == "i8":
            x = srng.integers(-9, 10, size=n).astype(np.int64).reshape(shape)
        else:
            x = (srng.standard_normal(n) + (1e6 if srng.random() < 0.3 else 0.0)).reshape(shape)
        add_case(lines, op, dtype, order, shape, axes, keep, x)

    # NumPy's result dtypes, and the widening cases (a stream of their own, so the cases above stay
    # as they were): sums and products of narrow integers whose results overflow their type
    lines.extend(result_dtypes())
    wrng = np.random.default_rng(20261204)
    wops = ["sum", "sum", "prod", "cumsum", "cumprod"]
    for _ in range(90):
        op = wops[int(wrng.integers(len(wops)))]
        code = list(NARROW)[int(wrng.integers(len(NARROW)))]
        shape = random_shape(wrng)
        rank = len(shape)
        if op in ("cumsum", "cumprod"):
            axes = [int(wrng.integers(-rank, rank))]
        elif wrng.random() < 0.3:
            axes = None
        else:
            k = int(wrng.integers(1, rank + 1))
            axes = [int(a) for a in wrng.permutation(rank)[:k]]
        keep = op in ("sum", "prod") and wrng.random() < 0.4
        order = "f" if wrng.random() < 0.3 else "c"
        add_case(lines, op, code, order, shape, axes, keep, narrow_values(wrng, op, code, shape))

    text = "\n".join(lines) + "\n"
    return text, f"np.sum relative error on 2^22 float32 normals {abs(s - ref) / abs(ref):.3e}"


def main():
    return numpy_cases.run(__doc__, "gen_numpy_reduce.py", "numpy_reduce_cases.txt", make_text)


if __name__ == "__main__":
    sys.exit(main())
