#!/usr/bin/python3
"""Writes tests/data/numpy_gufunc_cases.txt: NumPy's answers that test_numpy_gufunc.cpp checks
ufx::guvectorize against.

Run with a Python that has NumPy (Debian's /usr/bin/python3):

    /usr/bin/python3 tests/gen_numpy_gufunc.py                 # rewrites the committed file
    /usr/bin/python3 tests/gen_numpy_gufunc.py --out F --expect tests/data/numpy_gufunc_cases.txt
                                                               # CTest: regenerate into F, diff

Randomness comes from Python's `random.Random` with a fixed seed, so the file changes only where
NumPy's answers change.

Functions, their ufx signatures and NumPy references:

    matmul   (m,n),(n,p)->(m,p)   np.matmul(a, b)                (operands of rank >= 2)
    inner    (n),(n)->()          np.einsum('...i,...i->...', a, b)
    cross    (3),(3)->(3)         np.cross(a, b)
    meanstd  (n)->(),()           np.mean(a, axis=-1), np.std(a, axis=-1)   (two outputs)

Values are multiples of 1/4 with small magnitude, so matmul, inner and cross are exact in float64
whatever order the sums take (NumPy's BLAS, ufx's loop); meanstd is compared with a tolerance.

File format (whitespace-separated tokens, one item per line, '#' lines are comments):

    cases <n>                          total number of cases, first non-comment line
    case <id> <function> <dtype>       dtype: f64 | i32
    in <kind> <rank> <extents...>      an operand; kind is its rank ("1".."4"), or "<rank>t" for
                                       a transposed view: the C++ side stores the operand with its
                                       last two axes swapped and passes a view with swapped strides
    v <values...>                      the operand's values in row-major order of the shape above
    out <rank> <extents...>            an expected output (meanstd has two), followed by a v line
    error <core|loop> <text>           instead of outputs: the kind of shape error and NumPy's text
    end

Each function's operand kinds come from the lists below; the C++ test instantiates exactly these
combinations of static operand types, so a combination added here must be added there too.
"""

import random
import sys
import warnings

import numpy as np

import numpy_cases

SEED = 20240603
MAX_SIZE = 60  # elements per operand or result: keeps the file small

KINDS = {
    ("matmul", "f64"): [("2", "2"), ("3", "2"), ("2", "3"), ("3", "3"), ("4", "3"), ("3", "4"), ("4", "4"),
                        ("2t", "3"), ("3t", "2t"), ("4", "2t")],
    ("matmul", "i32"): [("2", "2"), ("3", "3")],
    ("inner", "f64"): [("1", "1"), ("2", "1"), ("1", "2"), ("2", "2"), ("3", "2"), ("3", "3")],
    ("cross", "f64"): [("1", "1"), ("2", "1"), ("2", "2"), ("3", "2")],
    ("meanstd", "f64"): [("1",), ("2",), ("3",)],
}
CORE_RANK = {"matmul": 2, "inner": 1, "cross": 1, "meanstd": 1}


def rank_of(kind):
    return int(kind[0])


def reference(func, ops):
    if func == "matmul":
        return [np.matmul(ops[0], ops[1])]
    if func == "inner":
        return [np.asarray(np.einsum("...i,...i->...", ops[0], ops[1]))]
    if func == "cross":
        return [np.cross(ops[0], ops[1])]
    if func == "meanstd":  # an empty core gives NaN (0/0), with a warning we do not need
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return [np.asarray(np.mean(ops[0], axis=-1)), np.asarray(np.std(ops[0], axis=-1))]
    raise ValueError(func)


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.cases = []

    def extent(self, zero=0.06):
        r = self.rng.random()
        if r < zero:
            return 0
        if r < 0.3:
            return 1
        return self.rng.choice([2, 2, 3, 3, 4])

    def core_sizes(self, func):
        """Sizes of the named core dimensions."""
        if func == "matmul":
            return {d: self.extent(0.05) for d in "mnp"}
        if func == "cross":
            return {"t": 3}
        return {"n": self.extent(0.08)}

    def core_shapes(self, func, sizes):
        if func == "matmul":
            return [[sizes["m"], sizes["n"]], [sizes["n"], sizes["p"]]]
        if func == "cross":
            return [[3], [3]]
        if func == "inner":
            return [[sizes["n"]], [sizes["n"]]]
        return [[sizes["n"]]]

    def shapes(self, func, kinds):
        """Operand shapes whose loop dimensions broadcast: each operand takes the trailing extents
        of one loop shape, some replaced by 1."""
        for _ in range(1000):
            cores = self.core_shapes(func, self.core_sizes(func))
            loop_rank = max(rank_of(k) - CORE_RANK[func] for k in kinds)
            loop = [self.extent() for _ in range(loop_rank)]
            shapes = []
            for k, core in zip(kinds, cores):
                lr = rank_of(k) - CORE_RANK[func]
                s = loop[loop_rank - lr:] if lr > 0 else []
                s = [1 if (e != 1 and self.rng.random() < 0.3) else e for e in s]
                shapes.append(s + core)
            if all(int(np.prod(s)) <= MAX_SIZE for s in shapes) and \
                    int(np.prod(loop)) * max(int(np.prod(c)) for c in cores) <= MAX_SIZE:
                return shapes
        raise RuntimeError("no small shapes")

    def break_core(self, func, shapes):
        """Makes a core dimension disagree between operands (or a fixed size wrong)."""
        shapes = [list(s) for s in shapes]
        if func == "matmul":
            n = shapes[0][-1]
            shapes[1][-2] = self.rng.choice([x for x in [1, 2, 3, 4] if x != n])
        elif func == "cross":
            i = self.rng.randrange(2)
            shapes[i][-1] = 4
        else:  # not 1: einsum would broadcast a size-1 label where a gufunc does not
            shapes[0][-1], shapes[1][-1] = self.rng.sample([2, 3, 4], 2)
        return shapes

    def break_loop(self, func, shapes):
        """Makes two operands' loop dimensions disagree (neither extent 1); None if impossible."""
        c = CORE_RANK[func]
        lrs = [len(s) - c for s in shapes]
        if len(shapes) < 2 or min(lrs) < 1:
            return None
        shapes = [list(s) for s in shapes]
        depth = self.rng.randrange(1, min(lrs) + 1)
        a, b = self.rng.sample([0, 2, 3], 2)
        shapes[0][lrs[0] - depth] = a
        shapes[1][lrs[1] - depth] = b
        return shapes

    def values(self, dtype, n):
        if dtype == "i32":
            return [self.rng.randint(-9, 9) for _ in range(n)]
        return [self.rng.randint(-40, 40) / 4 for _ in range(n)]

    def add_case(self, func, dtype, kinds, fail):
        shapes = self.shapes(func, kinds)
        error_kind = None
        if fail == "core":
            shapes = self.break_core(func, shapes)
            error_kind = "core"
        elif fail == "loop":
            shapes = self.break_loop(func, shapes)
            if shapes is None:
                return
            error_kind = "loop"
        np_type = np.float64 if dtype == "f64" else np.int32
        lines, ops = [], []
        for k, s in zip(kinds, shapes):
            vals = self.values(dtype, int(np.prod(s)))
            ops.append(np.array(vals, dtype=np_type).reshape(s))
            lines.append(f"in {k} {len(s)}" + "".join(f" {e}" for e in s))
            lines.append("v" + "".join(" " + fmt(x, dtype) for x in vals))
        try:
            results = reference(func, ops)
        except ValueError as e:
            assert error_kind is not None, (func, kinds, shapes, e)
            lines.append(f"error {error_kind} " + " ".join(str(e).split()))
        else:
            assert error_kind is None, (func, kinds, shapes, "NumPy accepted a broken case")
            for r in results:
                want = np.float64 if dtype == "f64" else np.int32
                r = np.asarray(r, dtype=want) if func == "meanstd" else r
                assert r.dtype == want, (func, r.dtype)
                lines.append(f"out {r.ndim}" + "".join(f" {e}" for e in r.shape))
                lines.append("v" + "".join(" " + fmt(x, dtype) for x in r.reshape(-1).tolist()))
        self.cases.append((func, dtype, lines))

    def generate(self):
        for (func, dtype), kind_list in KINDS.items():
            for kinds in kind_list:
                for _ in range(3):
                    self.add_case(func, dtype, kinds, fail=None)
            for kinds in self.rng.sample(kind_list, min(3, len(kind_list))):
                if len(kinds) > 1 or func == "cross":
                    self.add_case(func, dtype, kinds, fail="core")
                self.add_case(func, dtype, kinds, fail="loop")
        self.rng.shuffle(self.cases)

    def text(self):
        header = [f"# NumPy's answers for ufx::guvectorize, written by tests/gen_numpy_gufunc.py (seed {SEED});",
                  "# do not edit: rerun the script instead. The format is described in the script."]
        return numpy_cases.case_text(header, self.cases)


def fmt(x, dtype):
    return repr(float(x)) if dtype == "f64" else str(int(x))


def make_text():
    g = Gen(SEED)
    g.generate()
    text = g.text()
    return text, f"{len(g.cases)} cases ({len(text)} bytes)"


def main():
    return numpy_cases.run(__doc__, "gen_numpy_gufunc.py", "numpy_gufunc_cases.txt", make_text)


if __name__ == "__main__":
    sys.exit(main())
