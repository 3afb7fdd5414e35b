#pragma once
/// \file lazy.hpp
/// Lazy operands and expressions: chained ufx::vectorize calls run as one pass.
///
///   auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
///   auto mul = ufx::vectorize([] UFX_HD(float a, float b) { return a * b; });
///   auto e = add(mul(ufx::lazy(x), 2.f), y);          // nothing computed yet
///   std::vector<float> z = e;                         // one kernel: x * 2 + y
///   auto d = ufx::eval(e, ufx::cuda);                 // on a target; ufx::out(dst) too
///   float s = ufx::sum(e);                            // one pass, no temporary
///   auto [m, v] = ufx::reducers(ufx::mean, ufx::var)(e);
///   ufx::eval(std::tie(z1, z2), e1, e2);              // several outputs, one pass
///
/// A call of a ufx::vectorize object with a lazy operand (`ufx::lazy(x)`) or an expression among
/// its arguments returns an expression: the tree of the calls' functions over their leaves (every
/// array and scalar of the calls, in order). Arrays passed as lvalues and lazy operands are held
/// by reference (they must outlive the expression); scalars and temporaries by value.
///
/// Lifetimes. An expression built from a function's locals and returned from it dangles (ASan:
/// stack-use-after-scope; silent without it). Return its value: `return ufx::eval(e);`, or
/// `return e;` from a function declared to return the container. ufx::lazy is marked
/// UFX_LIFETIMEBOUND, so Clang warns for `return ufx::lazy(local);`; no compiler follows the
/// reference through a call into an expression.
///
/// It runs as one ufx::vectorize call of the tree's function over all the leaves: when converted
/// to the container the eager calls would return (`std::vector<float> z = e;`), by
/// `ufx::eval(e [, target] [, ufx::out(dst)])`, or reduced (`ufx::sum(e)`, a reducer,
/// `ufx::reduce(e, op, identity, ...)`, `ufx::argmin` / `argmax(e)`, `ufx::reducers(...)(e)`,
/// `ufx::mean(e)`, with their options: a `ufx::casting` rule too where the eager call takes one,
/// for its operator over the expression's values, as in `ufx::reduce(e, op_of_floats, 0.f,
/// ufx::casting::same_kind)`). NumPy's broadcasting holds across the whole expression
/// (the leaves broadcast together, as the eager calls' shapes would), and its errors are thrown
/// before anything runs. Each node's value has its function's result type, as the eager call
/// stores it, so the result equals the eager calls' bitwise, except where a compiler contracts a
/// multiply in one node and an add in the next into one fused multiply-add (nvcc for ufx::cuda
/// does by default; g++ with -march supporting FMA): then within that one rounding.
///
/// A gufunc does not take an expression (an element computed as the core reads it would be
/// recomputed for every read): `g(ufx::eval(e), ...)`.
///
/// Errors. As the eager calls: ufx::shape_error for shapes that do not broadcast, or an out of the
/// wrong shape; compile-time errors for a lazy call given a target or ufx::out (give them to
/// ufx::eval), ufx::lazy of a temporary or a scalar, and a gufunc given an expression.

#include "ufx/expression.hpp"
#include "ufx/reduce.hpp"
#include "ufx/vectorize.hpp"
