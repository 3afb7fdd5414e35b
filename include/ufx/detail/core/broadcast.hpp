#pragma once
// Step 2 of a call: broadcast operand shapes to the loop shape, with NumPy's rules and messages.
#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <string>

#include "ufx/config.hpp"
#include "ufx/detail/core/fail.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// A shape of run-time rank (at most max_rank), kept on the stack.
struct dims {
  int rank = 0;
  index_t v[max_rank] = {};

  dims() = default;
  template <std::size_t R>
  explicit dims(const std::array<index_t, R>& a) : rank(static_cast<int>(R)) {
    std::copy(a.begin(), a.end(), v);
  }
  index_t operator[](int k) const { return v[k]; }
  index_t& operator[](int k) { return v[k]; }
  index_t size() const {
    index_t n = 1;
    for (int k = 0; k < rank; ++k) n *= v[k];
    return n;
  }
  friend bool operator==(const dims& a, const dims& b) {
    return a.rank == b.rank && std::equal(a.v, a.v + a.rank, b.v);
  }
};

/// NumPy's spelling of a shape: "()", "(3,)", "(3,4)".
inline std::string format_shape(const dims& d) {
  std::string s = "(";
  for (int k = 0; k < d.rank; ++k) {
    if (k) s += ',';
    s += std::to_string(d[k]);
  }
  if (d.rank == 1) s += ',';
  return s + ")";
}

inline std::string format_shapes(std::span<const dims> shapes) {
  std::string s;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (i) s += ' ';
    s += format_shape(shapes[i]);
  }
  return s;
}

/// Broadcasts `shapes` into `out` (NumPy's rules: align right, extents equal or 1); false when they do not broadcast.
inline bool broadcast_into(std::span<const dims> shapes, dims& out) {
  out = dims{};
  for (const dims& s : shapes) out.rank = std::max(out.rank, s.rank);
  for (int k = 0; k < out.rank; ++k) out[k] = 1;
  for (const dims& s : shapes) {
    for (int k = 0; k < s.rank; ++k) {
      index_t& o = out[out.rank - s.rank + k];
      const index_t e = s[k];
      if (e == o || e == 1) continue;
      if (o == 1) {
        o = e;
        continue;
      }
      return false;
    }
  }
  return true;
}

/// NumPy's size check on a broadcast shape (PyArray_Broadcast, "broadcast dimensions too large"): its element count
/// must fit index_t, multiplied left to right up to the first extent 0 (as NumPy does, and as dims::size() multiplies).
inline void check_broadcast_size(const dims& d) {
  index_t n = 1;
  for (int k = 0; k < d.rank && d[k] != 0; ++k) {
    if (n > std::numeric_limits<index_t>::max() / d[k])
      fail<shape_error>("broadcast dimensions too large: the shape " + format_shape(d) +
                        " has more elements than index_t can count");
    n *= d[k];
  }
}

/// broadcast_into, throwing shape_error naming every operand's shape, or when the result has too many elements.
inline dims broadcast(std::span<const dims> shapes) {
  dims out;
  if (!broadcast_into(shapes, out))
    fail<shape_error>("operands could not be broadcast together with shapes " + format_shapes(shapes));
  check_broadcast_size(out);
  return out;
}

/// Checks an output operand against the loop shape: outputs are never broadcast.
inline void check_output_shape(const dims& out, const dims& loop, int which) {
  if (out == loop) return;
  fail<shape_error>("non-broadcastable output operand " + std::to_string(which) + " with shape " + format_shape(out) +
                    " doesn't match the broadcast shape " + format_shape(loop));
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
