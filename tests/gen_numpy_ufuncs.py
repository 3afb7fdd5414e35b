#!/usr/bin/python3
"""Writes tests/data/numpy_ufuncs.inc: NumPy's answers that test_numpy_ufuncs.cpp checks the ready ufuncs
(ufx/ufuncs.hpp) against.

Run with a Python that has NumPy (Debian's /usr/bin/python3):

    /usr/bin/python3 tests/gen_numpy_ufuncs.py                  # rewrites the committed file
    /usr/bin/python3 tests/gen_numpy_ufuncs.py --out F --expect tests/data/numpy_ufuncs.inc
                                                                # CTest: regenerate into F, diff

The file is C++ for the test to include, three kinds of lines:

    UFX_TYPE(add, int8, uint8, int16)       np.add of an int8 and a uint8 array is int16
    UFX_WEAK(int8, int, int8)               an int8 array beside a Python int (NEP 50) is int8
    UFX_CASE(add, 0, (int64, int64), (int64), {..}, {..}, {..})
                                            a case: the ufunc, its tolerance class (0: bitwise, NaN any NaN;
                                            1: the float functions, within a few ulp; 2: extremes, +0 and -0
                                            alike, as NumPy's SIMD and scalar loops differ), the input types, the
                                            inputs, then NumPy's outputs (two for divmod)

Promotion: NumPy 1.24's array-with-array rules are NumPy 2's; its weak-scalar rules are NEP 50's under
np._set_promotion_state("weak"), which NumPy 2 made the default. Where NumPy 2 changed a value (np.sign of
complex numbers; comparisons of int64 with uint64, which 1.24 makes in float64) no case is written; the C++
test checks those by hand.
"""
import argparse
import difflib
import itertools
import sys
import warnings

import numpy as np

NAMES = {'?': 'bool', 'b': 'int8', 'h': 'int16', 'i': 'int32', 'l': 'int64', 'B': 'uint8', 'H': 'uint16',
         'I': 'uint32', 'L': 'uint64', 'e': 'float16', 'f': 'float32', 'd': 'float64', 'F': 'complex64',
         'D': 'complex128'}
TYPES = list(NAMES)

FLOATS1 = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -2.5, 3.0, 0.1, 7.25, -13.75, 1e10, -1e-5, 100.0, 0.75, -0.9,
           float('inf'), float('-inf'), float('nan')]
FLOATS2 = [0.0, -0.0, 1.0, -1.0, 2.5, -3.5, 0.1, float('inf'), float('nan')]
COMPLEX1 = [0j, 1 + 0j, -1 + 2j, 0.5 - 0.25j, 3j, -2.5 - 1j, complex(float('inf'), 1), complex(1, float('nan'))]


def ints(dt):
    info = np.iinfo(dt)
    if info.min < 0:
        return [0, 1, -1, 2, -7, 13, info.min, info.max, info.min + 1]
    return [0, 1, 2, 13, info.max, info.max - 1]


def values(dt, binary):
    if dt == '?':
        return [False, True]
    if dt in 'bhilBHIL':
        return ints(dt)
    if dt in 'FD':
        return COMPLEX1
    return FLOATS2 if binary else FLOATS1


FLOAT_FNS = ['exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sqrt', 'cbrt', 'sin', 'cos', 'tan', 'arcsin',
             'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh']
EXTREMES = {'maximum', 'minimum', 'fmax', 'fmin'}  # which zero of a +0 / -0 tie NumPy returns depends on its loop
APPROX = set(FLOAT_FNS) | {'power', 'logaddexp', 'logaddexp2', 'arctan2', 'hypot'}

UNARY = [(n, t) for n in FLOAT_FNS for t in 'dfebi'] + [(n, t) for n in FLOAT_FNS if n != 'cbrt' for t in 'DF'] + \
    [('rint', 'D')] + \
    [(n, t) for n in ['negative', 'positive', 'absolute'] for t in 'bldeD'] + \
    [('sign', t) for t in 'blde'] + [(n, t) for n in ['square', 'reciprocal'] for t in 'ldf'] + \
    [('conjugate', 'D'), ('conjugate', 'd')] + \
    [(n, t) for n in ['deg2rad', 'rad2deg', 'floor', 'ceil', 'trunc', 'rint'] for t in 'dfel'] + \
    [(n, t) for n in ['isnan', 'isinf', 'isfinite', 'signbit'] for t in 'dfel'] + [('isnan', 'D'), ('isinf', 'D')] + \
    [('logical_not', t) for t in '?ld'] + [('invert', t) for t in '?lBb']

BINARY = [(n, a, b) for n in ['add', 'subtract', 'multiply'] for a, b in ['ll', 'bb', 'dd', 'ff', 'ee', 'if', 'Ll', 'DD']] + \
    [('add', '?', '?'), ('multiply', '?', '?')] + \
    [('divide', a, b) for a, b in ['ll', 'dd', 'ee', 'if', 'DD']] + \
    [(n, a, b) for n in ['floor_divide', 'remainder', 'fmod', 'divmod'] for a, b in ['bb', 'll', 'BB', 'dd', 'ff', 'ee']] + \
    [('power', a, b) for a, b in ['dd', 'ff', 'll', 'bb', 'BB', 'DD', 'FF']] + \
    [(n, a, b) for n in ['maximum', 'minimum', 'fmax', 'fmin'] for a, b in ['dd', 'll', 'ee', 'DD']] + \
    [(n, a, b) for n in ['equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal']
     for a, b in ['dd', 'll', 'bB', 'DD']] + \
    [(n, a, b) for n in ['logical_and', 'logical_or', 'logical_xor'] for a, b in ['dd', '??', 'lD']] + \
    [(n, a, b) for n in ['bitwise_and', 'bitwise_or', 'bitwise_xor'] for a, b in ['ll', 'BB', '??', 'bB']] + \
    [(n, a, b) for n in ['left_shift', 'right_shift'] for a, b in ['bb', 'll', 'BB']] + \
    [(n, a, b) for n in ['logaddexp', 'logaddexp2', 'arctan2', 'hypot', 'copysign', 'nextafter', 'heaviside']
     for a, b in ['dd', 'ff', 'ee']] + \
    [(n, a, b) for n in ['gcd', 'lcm'] for a, b in ['ll', 'bb', 'BB']]

# the dtypes checked for the result types of every pair: all of NumPy's, for these ufuncs
TYPE_FNS = ['add', 'subtract', 'divide', 'floor_divide', 'power', 'maximum', 'less', 'logical_and', 'bitwise_and',
            'left_shift', 'arctan2', 'gcd']
TYPE_FNS1 = ['negative', 'absolute', 'sign', 'exp', 'sqrt', 'cbrt', 'square', 'reciprocal', 'floor', 'rint', 'isnan',
             'signbit', 'invert', 'logical_not', 'conjugate']


def literal(v, t):
    if t == '?':
        return 'true' if v else 'false'
    if t in 'bhilBHIL':
        v = int(v)
        if t == 'l':
            return 'INT64_MIN' if v == -2**63 else '%dll' % v
        if t == 'L':
            return '%dull' % v
        return str(v)
    if t in 'FD':
        return '{%s, %s}' % (literal(v.real, 'd'), literal(v.imag, 'd'))
    v = float(v)
    if v != v:
        return 'NAN_'
    if v in (float('inf'), float('-inf')):
        return ('-' if v < 0 else '') + 'INF_'
    return repr(v)  # the shortest decimal that reads back as the same double


def result_char(name, types):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            r = getattr(np, name)(*[np.ones(1, dtype=t) for t in types])
        except TypeError:
            return None
    r = r[0] if isinstance(r, tuple) else r
    return r.dtype.char


def case_line(name, types):
    u = getattr(np, name)
    vals = [values(t, len(types) == 2) for t in types]
    if len(types) == 2:
        pairs = list(itertools.product(*vals))
        ins = [[p[0] for p in pairs], [p[1] for p in pairs]]
    else:
        ins = [vals[0]]
    if name == 'reciprocal' and types[0] in 'bhilBHIL':
        ins = [[v for v in ins[0] if v != 0]]
    if name == 'power' and types[1] in 'bhilBHIL':
        # NumPy raises for negative integer exponents (the C++ test checks that error): 0 and up, wrapping at 13
        pairs = list(itertools.product(values(types[0], True), [0, 1, 2, 3, 7, 13]))
        ins = [[p[0] for p in pairs], [p[1] for p in pairs]]
    if name.endswith('shift'):
        # shift amounts NumPy defines: 0 .. width + 2 and negative (npy_lshift's cast to unsigned)
        w = np.dtype(types[1]).itemsize * 8
        amounts = [0, 1, 3, w - 1, w, w + 2] + ([-1] if types[1] in 'bhil' else [])
        pairs = list(itertools.product(values(types[0], True), amounts))
        ins = [[p[0] for p in pairs], [p[1] for p in pairs]]
    with warnings.catch_warnings(), np.errstate(all='ignore'):
        warnings.simplefilter('ignore')
        arrays = [np.array(x, dtype=t) for x, t in zip(ins, types)]
        out = u(*arrays)
    outs = out if isinstance(out, tuple) else (out,)
    cls = 1 if name in APPROX else 2 if name in EXTREMES else 0
    parts = ['{%s}' % ', '.join(literal(v, a.dtype.char) for v in a.tolist()) for a in arrays]
    parts += ['{%s}' % ', '.join(literal(v, o.dtype.char) for v in o.tolist()) for o in outs]
    tn = ', '.join(NAMES[t] for t in types)
    on = ', '.join(NAMES[o.dtype.char] for o in outs)
    return 'UFX_CASE(%s, %d, (%s), (%s), %s)' % (name, cls, tn, on, ', '.join(parts))


def generate():
    out = ['// Generated by tests/gen_numpy_ufuncs.py from NumPy %s: do not edit.' % np.__version__]
    for name in TYPE_FNS:
        for a in TYPES:
            for b in TYPES:
                if name == 'less' and (a in 'L' and b in 'bhil' or b in 'L' and a in 'bhil'):
                    continue  # NumPy 2 compares these exactly (bool), 1.24 too: both bool
                r = result_char(name, (a, b))
                out.append('UFX_TYPE2(%s, %s, %s, %s)' % (name, NAMES[a], NAMES[b], NAMES[r] if r else 'void'))
    for name in TYPE_FNS1:
        for a in TYPES:
            r = result_char(name, (a,))
            out.append('UFX_TYPE1(%s, %s, %s)' % (name, NAMES[a], NAMES[r] if r else 'void'))
    np._set_promotion_state('weak')
    for a in TYPES:
        for s, sname in [(1, 'int'), (1.0, 'double'), (1j, 'cdouble'), (True, 'bool')]:
            r = (np.ones(1, dtype=a) + s).dtype.char
            out.append('UFX_WEAK(%s, %s, %s)' % (NAMES[a], sname, NAMES[r]))
    np._set_promotion_state('legacy')
    for name, t in UNARY:
        out.append(case_line(name, (t,)))
    for name, a, b in BINARY:
        out.append(case_line(name, (a, b)))
    return '\n'.join(out) + '\n'


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--out', default=None)
    p.add_argument('--expect', default=None)
    args = p.parse_args()
    text = generate()
    path = args.out or __file__.replace('gen_numpy_ufuncs.py', 'data/numpy_ufuncs.inc')
    with open(path, 'w') as f:
        f.write(text)
    if args.expect:
        with open(args.expect) as f:
            want = f.read()
        if want != text:
            sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), text.splitlines(True), args.expect, path))
            print('tests/data/numpy_ufuncs.inc is not what gen_numpy_ufuncs.py writes: regenerate it')
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
