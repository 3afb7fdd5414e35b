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

#include "ufx/detail/adapt.hpp"

static_assert(EIGEN_VERSION_AT_LEAST(3, 3, 0), "ufx/eigen.hpp needs Eigen 3.3 or newer");

namespace ufx {

template <class D>
concept eigen_dense = std::is_base_of_v<Eigen::DenseBase<D>, D>;

template <class D>
requires eigen_dense<D>
struct adapter<D, void> {
  static constexpr container_kind kind = container_kind::eigen;
  static constexpr int rank = 2;
  using value_type = typename D::Scalar;
  static constexpr int flags = Eigen::internal::traits<D>::Flags;
  static constexpr bool direct = (flags & Eigen::DirectAccessBit) != 0;
  static constexpr bool lvalue = (flags & Eigen::LvalueBit) != 0;

  template <class T>
  using result =
      std::conditional_t<std::is_base_of_v<Eigen::ArrayBase<D>, D>, Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic>,
                         Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>>;
  template <class T>
  static result<T> make(index_t rows, index_t cols) {
    return result<T>(rows, cols);
  }

  template <class E, class X>
  static ndview<E, 2> view_of(E* data, const X& x) {
    const index_t inner = x.innerStride(), outer = x.outerStride();
    const bool row_major = X::IsRowMajor;
    return ndview<E, 2>(data, {static_cast<index_t>(x.rows()), static_cast<index_t>(x.cols())},
                        {row_major ? outer : inner, row_major ? inner : outer});
  }

  static detail::array_operand<const value_type, 2> in(const D& x) {
    if constexpr (direct) {
      const auto view = view_of<const value_type>(x.data(), x);
      return {view, detail::space_of_view(view), {}};
    } else {
      auto tmp = std::make_shared<typename D::PlainObject>(x);
      return {view_of<const value_type>(tmp->data(), *tmp), memory_space::host, tmp};
    }
  }
  static detail::array_operand<value_type, 2> out(D& x) requires(direct&& lvalue) {
    const auto view = view_of<value_type>(const_cast<value_type*>(x.data()), x);
    return {view, detail::space_of_view(view), {}};
  }
};

} // namespace ufx
