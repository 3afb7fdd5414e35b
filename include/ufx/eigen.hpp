#pragma once
/// \file eigen.hpp
/// Eigen dense objects as ufx operands: Matrix, Array, Map, Block, Ref, transposes, row- or
/// column-major, with their real inner/outer strides (nothing is copied on host targets).
/// Expressions without storage (`A + B`) are evaluated once into a temporary.
/// Eigen objects are rank 2, `(rows, cols)`; a call whose array operands are all Eigen returns
/// an Eigen object of the first Eigen operand's kind (Matrix or Array), dynamic size.

#include <Eigen/Core>
#include <memory>
#include <type_traits>

#include "ufx/detail/step/adapt.hpp"

static_assert(EIGEN_VERSION_AT_LEAST(3, 3, 0), "ufx/eigen.hpp needs Eigen 3.3 or newer");

namespace ufx {

/// True for Eigen's dense objects: the types derived from `Eigen::DenseBase<D>`.
template <class D>
concept eigen_dense = std::is_base_of_v<Eigen::DenseBase<D>, D>;

/// Adapts Eigen's dense objects (Matrix, Array, Map, Block, Ref, expressions) as rank-2 operands.
template <class D>
requires eigen_dense<D>
struct adapter<D, void> {
  /// Eigen: a call whose array operands are all Eigen returns an Eigen object.
  static constexpr container_kind kind = container_kind::eigen;
  /// Always 2: `(rows, cols)`.
  static constexpr int rank = 2;
  /// The scalar type, `D::Scalar`.
  using value_type = typename D::Scalar;
  /// D's Eigen traits flags.
  static constexpr int flags = Eigen::internal::traits<D>::Flags;
  /// True when D has storage to view (Eigen's DirectAccessBit); otherwise in() evaluates it first.
  static constexpr bool direct = (flags & Eigen::DirectAccessBit) != 0;
  /// True when D's elements may be written (Eigen's LvalueBit).
  static constexpr bool lvalue = (flags & Eigen::LvalueBit) != 0;

  /// The result container for elements of type T: a dynamic-size Array when D is an Array, else a
  /// dynamic-size Matrix.
  template <class T>
  using result =
      std::conditional_t<std::is_base_of_v<Eigen::ArrayBase<D>, D>, Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic>,
                         Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>>;
  /// A new, uninitialised result of `rows` x `cols` elements of type T.
  template <class T>
  static result<T> make(index_t rows, index_t cols) {
    return result<T>(rows, cols);
  }

  /// A `(rows, cols)` view of `data` with x's inner and outer strides, row- or column-major as X is.
  template <class E, class X>
  static ndview<E, 2> view_of(E* data, const X& x) {
    const index_t inner = x.innerStride(), outer = x.outerStride();
    const bool row_major = X::IsRowMajor;
    return ndview<E, 2>(data, {static_cast<index_t>(x.rows()), static_cast<index_t>(x.cols())},
                        {row_major ? outer : inner, row_major ? inner : outer});
  }

  /// x's elements as an operand: a view of x's storage, or of a host temporary that holds an
  /// expression evaluated once (kept alive by the operand).
  static detail::array_operand<const value_type, 2> in(const D& x) {
    if constexpr (direct) {
      const auto view = view_of<const value_type>(x.data(), x);
      return {view, detail::space_of_view(view), {}};
    } else {
      auto tmp = std::make_shared<typename D::PlainObject>(x);
      return {view_of<const value_type>(tmp->data(), *tmp), memory_space::host, tmp};
    }
  }
  /// x as an operand ufx writes (`ufx::out(x)`), for objects with writable storage only.
  static detail::array_operand<value_type, 2> out(D& x) requires(direct&& lvalue) {
    const auto view = view_of<value_type>(const_cast<value_type*>(x.data()), x);
    return {view, detail::space_of_view(view), {}};
  }
};

} // namespace ufx
