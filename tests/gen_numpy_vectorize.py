#!/usr/bin/python3
"""Writes tests/data/numpy_vectorize_cases.txt: NumPy's answers that test_numpy_vectorize.cpp checks
ufx::vectorize against.

Run with a Python that has NumPy (Debian's /usr/bin/python3):

    /usr/bin/python3 tests/gen_numpy_vectorize.py                 # rewrites the committed file
    /usr/bin/python3 tests/gen_numpy_vectorize.py --out F --expect tests/data/numpy_vectorize_cases.txt
                                                                  # CTest: regenerate into F, diff

The output depends only on the seed: randomness comes from Python's `random.Random` (whose
`random()`/`randrange()` streams Python keeps stable), not from NumPy's generators, so a NumPy
upgrade can only change the file where NumPy's answers change.

File format (whitespace-separated tokens, one item per line, '#' lines are comments):

    cases <n>                          total number of cases, first non-comment line
    case <id> <function> <dtype>       function: add | fms | max | divmod; dtype: f64 | i32
    in s                               a rank-0 operand passed as a plain C++ scalar
    in a <rank> <extents...>           a ufx::ndarray<T, rank> (rank 0..4), row-major values
    in E <c|r> <rows> <cols> <m|b|t> <r0> <c0> <nr> <nc>
                                       an Eigen view: base matrix rows x cols stored column-major
                                       (c) or row-major (r), values given in row-major order; the
                                       operand is the whole matrix (m), .block(r0, c0, nr, nc) (b)
                                       or .block(r0, c0, nr, nc).transpose() (t)
    v <values...>                      the values of the line above (f64: Python repr, exact)
    out <rank> <extents...>            an expected output (divmod has two), followed by a v line
    error <text>                       instead of outputs: NumPy's broadcast error text
    end

Functions and their NumPy references: add = a + b; fms = a * b - c; max = np.where(a > b, a, b);
divmod = np.divmod(a, b) (int32, floor division and a remainder with the divisor's sign, two
outputs). fms's float operands are multiples of 1/16 so that a * b - c is exact whether or not the
C++ compiler contracts it into a fused multiply-add (nvcc does on the device). The error text of
the three-operand fms comes from a three-input ufunc (np.frompyfunc), because NumPy's a * b - c
stops at the first binary operation and would name only two shapes.

Each case's operand kinds (its "signature", such as `s,3` or `Ecb,Ert`) come from the lists below:
the C++ test instantiates exactly these combinations of static operand types, so a signature added
here must be added to its list in test_numpy_vectorize.cpp too (the test fails naming it if not).
"""

import random
import sys

import numpy as np

import numpy_cases

SEED = 20240602
MAX_RESULT_SIZE = 72  # elements per case result: keeps the file small

KINDS = ["s", "0", "1", "2", "3", "4"]
PAIRS_ALL = [(a, b) for a in KINDS for b in KINDS]
PAIRS_SOME = [("s", "s"), ("s", "0"), ("0", "s"), ("0", "0"), ("1", "s"), ("s", "2"), ("1", "1"), ("1", "2"),
              ("2", "1"), ("2", "2"), ("1", "3"), ("3", "2"), ("3", "3"), ("2", "4"), ("4", "4"), ("4", "0"),
              ("s", "4")]
TRIPLES = [("s", "s", "s"), ("0", "0", "0"), ("s", "1", "1"), ("1", "s", "1"), ("1", "1", "s"), ("0", "s", "1"),
           ("1", "2", "3"), ("3", "2", "1"), ("2", "1", "3"), ("2", "2", "2"), ("1", "s", "3"), ("3", "0", "1"),
           ("4", "0", "4"), ("s", "4", "s"), ("2", "2", "4"), ("4", "1", "0")]

# (function, dtype) -> signatures; must match test_numpy_vectorize.cpp
SIGNATURES = {
    ("add", "f64"): PAIRS_ALL,
    ("add", "i32"): PAIRS_ALL,
    ("max", "f64"): PAIRS_SOME,
    ("max", "i32"): PAIRS_SOME,
    ("divmod", "i32"): PAIRS_SOME,
    ("fms", "f64"): TRIPLES,
    ("fms", "i32"): TRIPLES,
}
EIGEN_SIGNATURES = {
    ("add", "f64"): [("Ecm", "s"), ("Erm", "s"), ("Ecb", "s"), ("Erb", "0"), ("Ect", "s"), ("Ert", "s"),
                     ("Ecb", "Ert"), ("Ert", "Ecb"), ("Erb", "Ecm"), ("Ect", "Ect"), ("Ecb", "1"), ("1", "Ert"),
                     ("3", "Ecb"), ("s", "Ect")],
    ("add", "i32"): [("Ecb", "Erb")],
    ("fms", "f64"): [("Ecb", "Ert", "s"), ("Erb", "1", "Ecm"), ("Ect", "s", "2")],
    ("max", "i32"): [("Erb", "Ect"), ("Ecm", "Erb")],
    ("divmod", "i32"): [("Ect", "s"), ("Erb", "Ecb")],
}

NIN = {"add": 2, "fms": 3, "max": 2, "divmod": 2}


def reference(func, ops):
    """NumPy's answer: a list of output arrays."""
    if func == "add":
        res = [ops[0] + ops[1]]
    elif func == "fms":
        res = [ops[0] * ops[1] - ops[2]]
    elif func == "max":
        res = [np.where(ops[0] > ops[1], ops[0], ops[1])]
    elif func == "divmod":
        res = list(np.divmod(ops[0], ops[1]))
    else:
        raise ValueError(func)
    return [np.asarray(r) for r in res]


def broadcast_error(func, ops):
    """NumPy's error text when the operands do not broadcast, else None."""
    try:
        if NIN[func] == 2:
            reference(func, ops)
        else:
            np.frompyfunc(lambda *a: 0, NIN[func], 1)(*ops)
    except ValueError as e:
        return str(e).strip()
    return None


def rank_of(kind):
    if kind == "s":
        return 0
    if kind.startswith("E"):
        return 2
    return int(kind)


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.cases = []

    # ---- shapes -------------------------------------------------------------------------------
    def extent(self):
        r = self.rng.random()
        if r < 0.07:
            return 0
        if r < 0.30:
            return 1
        return self.rng.choice([2, 2, 3, 3, 4, 5])

    def loop_shape(self, rank):
        while True:
            s = [self.extent() for _ in range(rank)]
            if int(np.prod(s)) <= MAX_RESULT_SIZE:
                return s

    def operand_shapes(self, kinds):
        """Shapes that broadcast together: each operand takes the trailing extents of one loop
        shape, some of them replaced by 1."""
        rank = max(rank_of(k) for k in kinds)
        loop = self.loop_shape(rank)
        shapes = []
        for k in kinds:
            r = rank_of(k)
            s = loop[rank - r:]
            s = [1 if (e != 1 and self.rng.random() < 0.3) else e for e in s]
            shapes.append(s)
        return shapes

    def break_shapes(self, shapes):
        """Makes two array operands disagree on one aligned dimension (neither extent 1)."""
        arrays = [i for i, s in enumerate(shapes) if len(s) > 0]
        i, j = self.rng.sample(arrays, 2)
        depth = self.rng.randrange(1, min(len(shapes[i]), len(shapes[j])) + 1)
        a, b = self.rng.sample([0, 2, 3, 4, 5], 2)
        shapes = [list(s) for s in shapes]
        shapes[i][-depth] = a
        shapes[j][-depth] = b
        for s in shapes:  # keep the operands small
            while int(np.prod(s)) > 2 * MAX_RESULT_SIZE:
                k = self.rng.randrange(len(s))
                if s[k] > 1 and k != len(s) - depth:
                    s[k] = 1
        return shapes

    # ---- values -------------------------------------------------------------------------------
    def values(self, func, dtype, n, divisor):
        r = self.rng
        if dtype == "i32":
            if func == "divmod" and divisor:
                return [r.choice([-7, -5, -3, -2, -1, 1, 2, 3, 4, 6]) for _ in range(n)]
            lo = {"add": 1000, "fms": 30, "max": 5, "divmod": 50}[func]
            return [r.randint(-lo, lo) for _ in range(n)]
        if func == "fms":
            return [r.randint(-160, 160) / 16 for _ in range(n)]
        if func == "max":
            return [r.randint(-20, 20) / 4 for _ in range(n)]  # coarse, so that ties occur
        return [r.randint(-99999, 99999) / 100 for _ in range(n)]

    def eigen_operand(self, kind, shape, func, dtype, divisor):
        """An Eigen base matrix and view recipe whose view has `shape` (rows, cols)."""
        order, view = kind[1], kind[2]
        vr, vc = shape
        br, bc = (vc, vr) if view == "t" else (vr, vc)  # block extents
        if view == "m":
            rows, cols, r0, c0 = br, bc, 0, 0
        else:
            rows = br + self.rng.randint(0, 3)
            cols = bc + self.rng.randint(0, 3)
            r0 = self.rng.randint(0, rows - br)
            c0 = self.rng.randint(0, cols - bc)
        vals = self.values(func, dtype, rows * cols, divisor)
        base = np.array(vals, dtype=np.float64 if dtype == "f64" else np.int32).reshape(rows, cols)
        base = np.asarray(base, order="C" if order == "r" else "F")
        arr = base[r0:r0 + br, c0:c0 + bc]
        if view == "t":
            arr = arr.T
        assert list(arr.shape) == [vr, vc]
        header = f"in E {order} {rows} {cols} {view} {r0} {c0} {br} {bc}"
        return header, vals, arr

    # ---- cases --------------------------------------------------------------------------------
    def add_case(self, func, dtype, kinds, fail):
        for _ in range(100):
            shapes = self.operand_shapes(kinds)
            if fail:
                if sum(1 for s in shapes if s) < 2:
                    return False
                shapes = self.break_shapes(shapes)
            lines, ops = [], []
            for i, (k, s) in enumerate(zip(kinds, shapes)):
                divisor = func == "divmod" and i == 1
                if k.startswith("E"):
                    header, vals, arr = self.eigen_operand(k, s, func, dtype, divisor)
                else:
                    n = int(np.prod(s))
                    vals = self.values(func, dtype, n, divisor)
                    arr = np.array(vals, dtype=np.float64 if dtype == "f64" else np.int32).reshape(s)
                    header = "in s" if k == "s" else f"in a {len(s)}" + "".join(f" {e}" for e in s)
                lines.append(header)
                lines.append("v" + "".join(" " + fmt(x, dtype) for x in vals))
                ops.append(arr)
            err = broadcast_error(func, ops)
            if fail != (err is not None):
                continue  # a random "broken" shape set that still broadcasts: draw again
            if err is not None:
                lines.append("error " + err)
            else:
                for res in reference(func, ops):
                    want = np.float64 if dtype == "f64" else np.int32
                    assert res.dtype == want, (func, dtype, res.dtype)
                    lines.append(f"out {res.ndim}" + "".join(f" {e}" for e in res.shape))
                    lines.append("v" + "".join(" " + fmt(x, dtype) for x in res.reshape(-1).tolist()))
            self.cases.append((func, dtype, lines))
            return True
        raise RuntimeError(f"could not make a case for {func} {dtype} {kinds} fail={fail}")

    def generate(self):
        for (func, dtype), sigs in SIGNATURES.items():
            for kinds in sigs:  # every signature once, then some again
                self.add_case(func, dtype, kinds, fail=False)
            for _ in range(4):
                self.add_case(func, dtype, self.rng.choice(sigs), fail=False)
            failing = [k for k in sigs if sum(1 for x in k if x not in ("s", "0")) >= 2]
            for kinds in self.rng.sample(failing, 3):
                self.add_case(func, dtype, kinds, fail=True)
        for (func, dtype), sigs in EIGEN_SIGNATURES.items():
            for kinds in sigs:
                self.add_case(func, dtype, kinds, fail=False)
                if sum(1 for x in kinds if x not in ("s", "0")) >= 2 and self.rng.random() < 0.5:
                    self.add_case(func, dtype, kinds, fail=True)
        self.rng.shuffle(self.cases)

    def text(self):
        header = [f"# NumPy's answers for ufx::vectorize, written by tests/gen_numpy_vectorize.py (seed {SEED}); do not edit:",
                  "# rerun the script instead. The format is described in the script."]
        return numpy_cases.case_text(header, self.cases)


def fmt(x, dtype):
    return repr(float(x)) if dtype == "f64" else str(int(x))


def make_text():
    g = Gen(SEED)
    g.generate()
    text = g.text()
    return text, f"{len(g.cases)} cases ({len(text)} bytes)"


def main():
    return numpy_cases.run(__doc__, "gen_numpy_vectorize.py", "numpy_vectorize_cases.txt", make_text)


if __name__ == "__main__":
    sys.exit(main())
