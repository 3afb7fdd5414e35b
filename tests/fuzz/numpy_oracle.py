#!/usr/bin/python3
"""The NumPy side of tests/fuzz/fuzz_shapes.cpp: generates seeded random cases for one component
and writes each case with NumPy's answer to stdout, one line per case, for the C++ side to check
ufx against. Needs a Python with NumPy (Debian's /usr/bin/python3).

    numpy_oracle.py broadcast   --seed S --count N --max-rank R
    numpy_oracle.py gufunc      --seed S --count N --max-rank R --sig "(m,n),(n,p)->(m,p)" --sig ...
    numpy_oracle.py axes        --seed S --count N --max-rank R
    numpy_oracle.py signature   --seed S --count N

The C++ program starts this script itself (it passes its own max_rank and signature list); run it
by hand to look at the cases. Randomness is Python's random.Random(seed): the same seed gives the
same cases on every machine.

References:
  broadcast  np.broadcast_shapes(*shapes)
  axes       numpy.core.numeric.normalize_axis_tuple(axes, rank)
  signature  numpy.core._umath_tests.test_signature (NumPy's _parse_signature), with ufx's
             deliberate differences applied (see "signature" below: '?', limits, no inputs, '\n')
  gufunc     a model of ufunc_object.c's shape rules (NumPy 1.24, PyUFunc_GeneralizedFunctionInternal
             and the NpyIter it builds; `gufunc_model` below), checked on every case against a real
             NumPy gufunc of the same signature where NumPy has one (numpy.core._umath_tests,
             numpy.linalg._umath_linalg, plain ufuncs for all-scalar signatures) and the case is
             small enough to run: the real gufunc is called on zero-stride arrays (no memory) with
             and without out=; a ValueError is a shape error, anything else (a result, or the
             RuntimeError of _umath_tests.always_error_gufunc's loop) accepts the shapes. A model
             that disagrees with real NumPy is counted and reported (the C++ side then fails).

Output lines (whitespace-separated integers; a shape is "rank e0 e1 ..."):
  # ...                                     comments
  sig K CORE_ENABLED NDIMS NOPS RANK... IX... FIXED...      (gufunc: NumPy's parse of signature K)
  broadcast:  NOPS SHAPE... | R E...        R = -1: np.broadcast_shapes raised
  gufunc:     K WITH_OUT NOPS SHAPE... | LOOPSHAPE NDIMS SIZE...   or  | -1
  axes:       RANK N A... | MASK            MASK = -1: normalize_axis_tuple raised
  signature:  HEX | NIN NOUT RANK... IX... NDIMS FIXED...   or  | -1   (HEX: the text, UTF-8 in hex)
  end COUNT KEY=VALUE...                    totals; model_mismatch must be 0
"""
import argparse
import sys
import warnings

import numpy as np
from numpy.core.numeric import normalize_axis_tuple

INT_MAX = 2**31 - 1

# Extents: mostly 0..4 (where broadcasting decides), some larger ones, and a few that make a
# broadcast shape's element count overflow 64 bits (NumPy: "broadcast dimensions too large").
LARGE = [5, 7, 8, 100, 1000, 65536, 2**31 - 1, 2**31, 2**32, 2**40, 2**62, 2**63 - 1]


def shape_text(s):
    return " ".join([str(len(s))] + [str(e) for e in s])


class Gen:
    def __init__(self, seed, max_rank):
        import random
        self.rng = random.Random(seed)
        self.r = self.rng.random
        self.max_rank = max_rank

    def small(self):
        """An extent: 0 (8%), 1 (30%), 2..4 (57%), larger (5%)."""
        x = self.r()
        if x < 0.08:
            return 0
        if x < 0.38:
            return 1
        if x < 0.95:
            return 2 + int(self.r() * 3)
        return LARGE[int(self.r() * len(LARGE))]

    def rank(self, top=6):
        """0..top, and now and then up to max_rank."""
        if self.r() < 0.03:
            return int(self.r() * (self.max_rank + 1))
        return int(self.r() * (top + 1))

    def derive(self, loop, rank):
        """An operand shape that broadcasts to `loop`: its last `rank` extents, some set to 1."""
        s = loop[len(loop) - rank:] if rank else []
        return [1 if self.r() < 0.25 else e for e in s]


# ---------------------------------------------------------------- broadcast

def gen_broadcast(g, count, out, stats):
    r = g.r
    for _ in range(count):
        x = r()
        nops = 0 if x < 0.01 else 1 if x < 0.12 else 2 if x < 0.5 else 3 if x < 0.75 else 4 if x < 0.9 else 5
        R = g.rank()
        loop = [g.small() for _ in range(R)]
        shapes = []
        for _ in range(nops):
            rank = R if r() < 0.5 else int(r() * (R + 1))
            shapes.append(g.derive(loop, rank))
        if nops and r() < 0.6:  # change one extent, mostly to one that differs from the loop's
            s = shapes[int(r() * nops)]
            if s:
                k = int(r() * len(s))
                if r() < 0.8:
                    e = loop[len(loop) - len(s) + k]
                    other = [v for v in (0, 2, 3, 4) if v != e]
                    s[k] = other[int(r() * len(other))]
                else:
                    s[k] = g.small()
        try:
            res = np.broadcast_shapes(*shapes)
            answer = shape_text(res)
            stats["results"] += 1
        except ValueError:
            answer = "-1"
            stats["errors"] += 1
        out.append(" ".join([str(nops)] + [shape_text(s) for s in shapes] + ["|", answer]))


# ---------------------------------------------------------------- axes

def gen_axes(g, count, out, stats):
    r = g.r
    extremes = [-2**31, INT_MAX, -INT_MAX, 2**30, -2**30]
    for _ in range(count):
        rank = g.rank(7)
        n = int(r() * (min(rank, 6) + 2))
        if r() < 0.6 and n <= rank:  # distinct axes, either spelling
            axes = [a - rank if r() < 0.4 else a for a in g.rng.sample(range(rank), n)]
        else:
            axes = []
            for _ in range(n):
                x = r()
                if x < 0.8:  # in range, either spelling
                    a = int(r() * (2 * rank)) - rank if rank else 0
                elif x < 0.97:  # just out of range
                    a = rank + int(r() * 3) if r() < 0.5 else -rank - 1 - int(r() * 3)
                else:
                    a = extremes[int(r() * len(extremes))]
                axes.append(a)
        if n and r() < 0.1:  # a duplicate, maybe spelled the other way
            a = axes[int(r() * n)]
            axes.insert(int(r() * (n + 1)), a - rank if a >= 0 and r() < 0.5 else a)
        try:
            res = normalize_axis_tuple(tuple(axes), rank)
            mask = 0
            for a in res:
                mask |= 1 << a
            answer = str(mask)
            stats["results"] += 1
        except ValueError:  # AxisError is a ValueError too
            answer = "-1"
            stats["errors"] += 1
        out.append(" ".join([str(rank), str(len(axes))] + [str(a) for a in axes] + ["|", answer]))


# ---------------------------------------------------------------- signature

# ufx's parser (detail/core/signature.hpp) differs from NumPy's _parse_signature on purpose here; the
# oracle turns NumPy's answer into the one ufx must give and counts each kind:
#   flexible    NumPy's '?' dimensions: ufx rejects them
#   limits      more than 16 operands, 8 core dimensions in an operand, 32 distinct dimensions, or
#               a fixed size above 2^31-1 (NumPy: 32 operands, sizes up to about 2^63): ufx rejects
#   no_inputs   NumPy accepts "->(n)" (a ufunc without inputs) and "(n)" or "" without "->" (no
#               outputs); ufx needs at least one input and the arrow
#   newline     ufx takes '\n' and '\r' as whitespace, NumPy only ' ' and '\t'
SIG_NAMES = ["m", "n", "p", "k", "i", "a1", "_x", "nrhs", "N", "_"]
SIG_SIZES = ["1", "2", "3", "3", "4", "03", "0", "2147483647", "2147483648", "99999999999999999999"]
SIG_NOISE = "(),->? \t\n\r\v3an_-#é"


def numpy_signature(text):
    """NumPy's parse of `text` as (nin, nout, ranks, ixs, fixed), or None for a ValueError. The
    operand counts test_signature needs are read off the text (the '(' on each side of "->")."""
    from numpy.core import _umath_tests as ut
    left, arrow, right = text.partition("->")
    nin, nout = left.count("("), right.count("(")
    try:
        _, ranks, ixs, _, fixed = ut.test_signature(nin, nout, text)
    except ValueError:
        return None
    return nin, nout, list(ranks), list(ixs), list(fixed)


def gen_signature(g, count, out, stats):
    r = g.r
    for _ in range(count):
        x = r()
        nin = 0 if x < 0.03 else 1 + int(r() * 3) if x < 0.95 else int(r() * 20)
        nout = 0 if r() < 0.03 else 1 + int(r() * 2) if r() < 0.95 else int(r() * 20)
        many = r() < 0.03  # many distinct names, to pass 32 dimensions
        ops = []
        for _ in range(nin + nout):
            rank = int(r() * 4) if r() < 0.95 else int(r() * 12)
            dims = []
            for _ in range(rank):
                y = r()
                if many:
                    d = f"d{int(r() * 48)}"
                elif y < 0.8:
                    d = SIG_NAMES[int(r() * len(SIG_NAMES))]
                else:
                    d = SIG_SIZES[int(r() * len(SIG_SIZES))]
                if r() < 0.02:
                    d += "?"
                dims.append(d)
            ops.append(dims)

        def ws():
            y = r()
            if y < 0.85:
                return ""
            return " \t \t \t \t\n\r"[int(r() * 10)] if y < 0.98 else "  "

        def operand(dims):
            return ws() + "(" + ws() + ("," + ws()).join(d + ws() for d in dims) + ")" + ws()

        text = ",".join(operand(d) for d in ops[:nin])
        if nout or r() < 0.7:
            text += "->" + ",".join(operand(d) for d in ops[nin:])
        for _ in range(1 + int(r() * 2) if r() < 0.3 else 0):  # damage: insert, delete or replace a char
            k = int(r() * (len(text) + 1))
            y = r()
            c = SIG_NOISE[int(r() * len(SIG_NOISE))]
            if y < 0.4:
                text = text[:k] + c + text[k:]
            elif y < 0.7:
                text = text[:k] + text[k + 1:]
            else:
                text = text[:k] + c + text[k + 1:]
        want = numpy_signature(text)
        kind = None
        if "\n" in text or "\r" in text:
            spaced = numpy_signature(text.replace("\n", " ").replace("\r", " "))
            if spaced != want:
                want, kind = spaced, "newline"
        if want is not None:
            nin_, nout_, ranks, ixs, fixed = want
            if "?" in text:
                want, kind = None, "flexible"
            elif nin_ == 0 or "->" not in text:
                want, kind = None, "no_inputs"
            elif nin_ + nout_ > 16 or max(ranks, default=0) > 8 or len(fixed) > 32 or \
                    any(f > INT_MAX for f in fixed):
                want, kind = None, "limits"
        if kind:
            stats[kind] += 1
        if want is None:
            answer = "-1"
            stats["errors"] += 1
        else:
            nin_, nout_, ranks, ixs, fixed = want
            answer = " ".join(str(v) for v in [nin_, nout_] + ranks + ixs + [len(fixed)] + fixed)
            stats["results"] += 1
        out.append(text.encode().hex() + " | " + answer)


# ---------------------------------------------------------------- gufunc

class Sig:
    """A signature as NumPy parses it (numpy.core._umath_tests.test_signature)."""

    def __init__(self, text):
        from numpy.core import _umath_tests as ut
        left, right = text.split("->")
        self.text = text
        self.nin = left.count("(")
        self.nout = right.count("(")
        self.core_enabled, ranks, ixs, _, fixed = ut.test_signature(self.nin, self.nout, text)
        self.ranks = list(ranks)
        self.fixed = list(fixed)
        self.ndims = len(self.fixed)
        self.dims = []  # dimension numbers of each operand
        k = 0
        for c in self.ranks:
            self.dims.append(list(ixs[k:k + c]))
            k += c

    def header(self, k):
        flat = [d for ds in self.dims for d in ds]
        return " ".join(str(v) for v in ["sig", k, self.core_enabled, self.ndims, len(self.ranks)] +
                        self.ranks + flat + self.fixed)


class ShapeError(Exception):
    pass


def broadcast_model(shapes):
    """NumPy's broadcasting of loop shapes (no size checks: cases stay far from overflow)."""
    rank = max((len(s) for s in shapes), default=0)
    loop = [1] * rank
    for s in shapes:
        off = rank - len(s)
        for k, e in enumerate(s):
            o = loop[off + k]
            if e == o or e == 1:
                continue
            if o == 1:
                loop[off + k] = e
                continue
            raise ShapeError("loop dimensions do not broadcast")
    return loop


def gufunc_model(sig, shapes, with_out):
    """NumPy 1.24's shape rules for a gufunc call (ufunc_object.c): returns (loop, sizes) or
    raises ShapeError. `shapes` holds the inputs, then the outputs when with_out."""
    if not sig.core_enabled:
        # every core is (): NumPy runs it as a plain ufunc; outputs join the broadcast but must
        # have the broadcast shape exactly, rank included (NpyIter's NO_BROADCAST)
        loop = broadcast_model(shapes)
        for s in shapes[sig.nin:]:
            if list(s) != loop:
                raise ShapeError("output operand does not have the loop shape")
        return loop, []
    # _validate_num_dims: every given operand holds its core
    for s, c in zip(shapes, sig.ranks):
        if len(s) < c:
            raise ShapeError("not enough dimensions")
    # _get_coredim_sizes: bind names in operand order; fixed sizes are bound from the start
    sizes = list(sig.fixed)
    for s, ds in zip(shapes, sig.dims):
        c = len(ds)
        for j, d in enumerate(ds):
            e = s[len(s) - c + j]
            if sizes[d] == -1:
                sizes[d] = e
            elif sizes[d] != e:
                raise ShapeError("core dimension mismatch")
    if not with_out:
        for ds in sig.dims[sig.nin:]:
            if any(sizes[d] == -1 for d in ds):
                raise ShapeError("output core dimension unspecified")
    # the iterator over the loop dimensions: operands aligned right against broadcast_ndim (the
    # longest loop part of any given operand), broadcast together; outputs are NO_BROADCAST, but
    # dimensions an output lacks (op_axes -1) are accepted where the loop's extent is 1
    loops = [s[:len(s) - c] for s, c in zip(shapes, sig.ranks)]
    loop = broadcast_model(loops)
    for o in loops[sig.nin:]:
        if [1] * (len(loop) - len(o)) + list(o) != loop:
            raise ShapeError("output operand does not have the loop shape")
    return loop, sizes


def real_gufuncs():
    """Signature text -> (callable, guard): NumPy's own gufuncs with these signatures."""
    from numpy.core import _umath_tests as ut
    from numpy.linalg import _umath_linalg as ul
    table = {}
    for f in [ut.matrix_multiply, ut.inner1d, ut.innerwt, ut.cross1d, ut.cumsum, ut.always_error_gufunc,
              ut.euclidean_pdist, ul.det, ul.slogdet, ul.solve, ul.solve1, ul.inv, ul.lstsq_m]:
        table[f.signature.replace(" ", "")] = f
    table["()->()"] = np.negative
    table["(),()->()"] = np.add
    return table


def euclidean_pdist_safe(shapes, with_out):
    """euclidean_pdist writes n(n-1)/2 values whatever out's size: call it only when that fits."""
    if not with_out:
        return True
    a, o = shapes
    return len(a) < 2 or len(o) < 1 or o[-1] == a[-2] * (a[-2] - 1) // 2


class RealCheck:
    def __init__(self):
        self.table = real_gufuncs()
        self.inbuf = bytearray(8)
        self.outbufs = [bytearray(8) for _ in range(8)]
        self.cache = {}

    def zeros(self, shape, buf):
        return np.ndarray(tuple(shape), np.float64, buf, 0, (0,) * len(shape))

    def verdict(self, sig, shapes, with_out, key):
        """True when real NumPy accepts the shapes, False for a ValueError; `key` names the case."""
        v = self.cache.get(key)
        if v is not None:
            return v
        f = self.table[sig.text.replace(" ", "")]
        ins = [self.zeros(s, self.inbuf) for s in shapes[:sig.nin]]
        kw = {}
        if with_out:
            outs = tuple(self.zeros(s, b) for s, b in zip(shapes[sig.nin:], self.outbufs))
            kw["out"] = outs if len(outs) > 1 else outs[0]
        try:  # (np.seterr(all="ignore") is set once in main: zero matrices are singular)
            f(*ins, **kw)
            v = True
        except ValueError:
            v = False
        except RuntimeError:  # always_error_gufunc's loop ran: the shapes were accepted
            v = True
        self.cache[key] = v
        return v


class GufuncRun:
    """Generates gufunc cases for a list of signatures; the real-NumPy cache spans the run."""

    def __init__(self, g, sig_texts, stats):
        self.g = g
        self.sigs = [Sig(t) for t in sig_texts]
        self.real = RealCheck()
        for s in self.sigs:
            s.real = s.text.replace(" ", "") in self.real.table
        self.stats = stats

    def header(self):
        lines = [s.header(k) for k, s in enumerate(self.sigs)]
        for s in self.sigs:
            f = self.real.table.get(s.text.replace(" ", ""))
            lines.append(f"# sig {s.text}: " + (f"model, checked against NumPy's {f.__name__}" if f else "model only"))
        return lines

    def run(self, count, out):
        g, r, sigs, real, stats = self.g, self.g.r, self.sigs, self.real, self.stats
        for _ in range(count):
            k = int(r() * len(sigs))
            sig = sigs[k]
            nops_all = sig.nin + sig.nout
            with_out = r() < 0.5
            nops = nops_all if with_out else sig.nin
            sizes = [f if f >= 0 else g.small() for f in sig.fixed]
            L = g.rank(5)
            loop = [g.small() for _ in range(L)]
            shapes = []
            for i in range(nops):
                if i < sig.nin:
                    rank = L if r() < 0.5 else int(r() * (L + 1))
                    s = g.derive(loop, rank)
                else:  # outputs: the loop shape, now and then with fewer or more leading dimensions
                    x = r()
                    s = list(loop)
                    if x < 0.1:
                        s = s[int(r() * (len(s) + 1)):]
                    elif x < 0.2:
                        s = [1 if r() < 0.7 else g.small() for _ in range(1 + int(r() * 2))] + s
                shapes.append(s + [sizes[d] for d in sig.dims[i]])
            x = r()
            if nops and x < 0.45:  # break something
                i = int(r() * nops)
                s = shapes[i]
                y = r()
                if y < 0.5 and s:
                    s[int(r() * len(s))] = g.small()
                elif y < 0.7 and s:
                    del s[int(r() * len(s))]
                elif y < 0.85:
                    s.insert(int(r() * (len(s) + 1)), g.small())
                elif s:
                    s[-1] = 1 if s[-1] != 1 else 2
            for s in shapes:  # ufx's dims hold at most max_rank extents
                del s[:max(0, len(s) - g.max_rank)]
            # keep every case far from 64-bit overflow (NumPy's size errors are not shape rules)
            total = 1
            for s in shapes:
                for e in s:
                    total *= e or 1
            if total >= 2**62:
                shapes = [[min(e, 4) for e in s] for s in shapes]
                total = 4 ** sum(len(s) for s in shapes)
            case = " ".join([str(k), str(int(with_out)), str(nops)] + [shape_text(s) for s in shapes])
            try:
                lp, bound = gufunc_model(sig, shapes, with_out)
                answer = " ".join([shape_text(lp), str(len(bound))] + [str(v) for v in bound])
                accepted = True
                stats["results"] += 1
            except ShapeError:
                answer = "-1"
                accepted = False
                stats["errors"] += 1
            if sig.real and total <= 1 << 16 and all(e <= 8 for s in shapes for e in s):
                if sig.text != "(n,d)->(p)" or euclidean_pdist_safe(shapes, with_out):
                    stats["real_checked"] += 1
                    if real.verdict(sig, shapes, with_out, case) != accepted:
                        stats["model_mismatch"] += 1
                        print(f"model mismatch: {sig.text} with_out={with_out} shapes={shapes} model "
                              f"{'accepts' if accepted else 'rejects'}", file=sys.stderr)
            out.append(case + " | " + answer)



def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("component", choices=["broadcast", "gufunc", "axes", "signature"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--max-rank", type=int, default=16)
    ap.add_argument("--sig", action="append", default=[])
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    g = Gen(args.seed, args.max_rank)
    stats = {"results": 0, "errors": 0}
    if args.component == "gufunc":
        stats.update(real_checked=0, model_mismatch=0)
    if args.component == "signature":
        stats.update(flexible=0, limits=0, no_inputs=0, newline=0)
    w = sys.stdout.write
    w(f"# numpy {np.__version__} {args.component} seed {args.seed} count {args.count}\n")
    chunk = 20000
    done = 0
    gen = None
    if args.component == "gufunc":
        gen = GufuncRun(g, args.sig, stats)
        w("\n".join(gen.header()) + "\n")
    while done < args.count:
        n = min(chunk, args.count - done)
        out = []
        if args.component == "broadcast":
            gen_broadcast(g, n, out, stats)
        elif args.component == "axes":
            gen_axes(g, n, out, stats)
        elif args.component == "signature":
            gen_signature(g, n, out, stats)
        else:
            gen.run(n, out)
        w("\n".join(out) + "\n")
        done += n
    if args.component == "gufunc" and gen is not None:
        stats["real_distinct"] = len(gen.real.cache)
    w("end " + str(args.count) + "".join(f" {k}={v}" for k, v in stats.items()) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
