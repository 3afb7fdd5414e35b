#pragma once
// The body of ufx/ndarray.hpp's nested-list constructor: NumPy's lists read into a row-major array.
#include <initializer_list>
#include <string>

#include "ufx/config.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
/// `std::initializer_list` nested R deep: the values of an ndarray<T, R> written as NumPy's lists.
template <class T, int R>
struct nested_list {
  using type = std::initializer_list<typename nested_list<T, R - 1>::type>;
};
template <class T>
struct nested_list<T, 0> {
  using type = T;
};

/// "[1, 0]" for the path of a row in a nested list.
inline std::string format_row(const index_t* path, int depth) {
  std::string s = "[";
  for (int k = 0; k < depth; ++k) s += (k ? ", " : "") + std::to_string(path[k]);
  return s + "]";
}

/// The extents of a nested list, read along its first rows.
template <class T, int R, class L>
void nested_extents(const L& list, index_t* shape) {
  if constexpr (R > 0) {
    shape[0] = static_cast<index_t>(list.size());
    if (list.size() > 0) nested_extents<T, R - 1>(*list.begin(), shape + 1);
    else
      for (int k = 1; k < R; ++k) shape[k] = 0;
  }
}

/// Copies a nested list into `out` row-major, checking every row has the extent of the first.
template <class T, int R, class L>
void nested_copy(const L& list, const index_t* shape, index_t* path, int depth, T*& out) {
  if constexpr (R == 0) {
    *out++ = list;
  } else {
    if (static_cast<index_t>(list.size()) != shape[depth]) {
      index_t first[max_rank] = {};
      throw shape_error("ufx::ndarray: the nested list is ragged: row " + format_row(path, depth) + " has length " +
                        std::to_string(list.size()) + " but row " + format_row(first, depth) + " has length " +
                        std::to_string(shape[depth]));
    }
    path[depth] = 0;
    for (const auto& row : list) {
      nested_copy<T, R - 1>(row, shape, path, depth + 1, out);
      ++path[depth];
    }
  }
}
} // namespace ufx::detail
