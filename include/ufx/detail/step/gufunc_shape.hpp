#pragma once
// Step 2 of a guvectorize call: bind core dimensions by name across operands, then broadcast the loop dimensions (what
// is left of each operand's shape on the left of its core) with NumPy's rules. Every check runs before anything is
// allocated or written; messages follow NumPy's wording and name the signature, the operand and the dimension.
#include <algorithm>
#include <array>
#include <span>
#include <string>

#include "ufx/config.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/core/signature.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// The result of step 2: the loop shape and the size bound to each signature dimension.
struct gufunc_shape {
  dims loop;
  index_t dim_size[max_sig_dims] = {};
  /// Core elements touched per loop index, roughly (the product of all dimension sizes): the host target uses it to
  /// decide when a loop is worth splitting across threads.
  index_t work = 1;
};

inline std::string operand_label(int s, int nin) {
  return s < nin ? "input operand " + std::to_string(s) : "output operand " + std::to_string(s - nin);
}

/// `shapes` holds the full shape of each operand in signature order: the inputs, then (when the call has `out`) the
/// outputs; `with_outputs` says whether the outputs are there.
template <class Sig>
gufunc_shape bind_gufunc_shape(std::span<const dims> shapes, bool with_outputs) {
  const std::string sig = "with gufunc signature " + std::string(Sig::str());
  const int given = static_cast<int>(shapes.size());

  // every operand must hold its core
  for (int s = 0; s < given; ++s) {
    if (shapes[s].rank < Sig::core_rank(s))
      fail<shape_error>(operand_label(s, Sig::nin) + " does not have enough dimensions (has " +
                        std::to_string(shapes[s].rank) + ", gufunc core with signature " + std::string(Sig::str()) +
                        " requires " + std::to_string(Sig::core_rank(s)) + ")");
  }

  // core dimensions bind by name; fixed sizes are bound before any operand is seen
  gufunc_shape r;
  for (int d = 0; d < Sig::ndims; ++d) r.dim_size[d] = Sig::parsed.fixed[d];
  for (int s = 0; s < given; ++s) {
    const int c = Sig::core_rank(s);
    for (int j = 0; j < c; ++j) {
      const int d = Sig::dim(s, j);
      const index_t size = shapes[s][shapes[s].rank - c + j];
      if (r.dim_size[d] < 0) {
        r.dim_size[d] = size;
      } else if (r.dim_size[d] != size) {
        fail<shape_error>(operand_label(s, Sig::nin) + " has a mismatch in its core dimension " + std::to_string(j) +
                          " ('" + std::string(Sig::dim_name(d)) + "'), " + sig + " (size " + std::to_string(size) +
                          " is different from " + std::to_string(r.dim_size[d]) + ")");
      }
    }
  }
  if (!with_outputs) {
    for (int s = Sig::nin; s < Sig::operands; ++s)
      for (int j = 0; j < Sig::core_rank(s); ++j)
        if (r.dim_size[Sig::dim(s, j)] < 0)
          fail<shape_error>(operand_label(s, Sig::nin) + " has core dimension '" +
                            std::string(Sig::dim_name(Sig::dim(s, j))) + "' that no input binds, " + sig +
                            "; pass the output through ufx::out(...) to give its size");
  }
  for (int d = 0; d < Sig::ndims; ++d) r.work *= std::max<index_t>(r.dim_size[d], 1);

  // loop dimensions broadcast across all operands, outputs included; outputs are never broadcast
  dims loops[max_sig_operands];
  for (int s = 0; s < given; ++s) {
    loops[s].rank = shapes[s].rank - Sig::core_rank(s);
    for (int k = 0; k < loops[s].rank; ++k) loops[s][k] = shapes[s][k];
  }
  if (!broadcast_into(std::span<const dims>(loops, static_cast<std::size_t>(given)), r.loop)) {
    std::string msg =
        std::string("operands could not be broadcast together with remapped shapes [original->remapped]:");
    for (int s = 0; s < given; ++s) // appended piece by piece: GCC 12's -Wrestrict misfires on " " + string
      msg.append(" ").append(format_shape(shapes[s])).append("->").append(format_shape(loops[s]));
    fail<shape_error>(msg + ", " + sig);
  }
  check_broadcast_size(r.loop);
  if (with_outputs) {
    // NumPy's gufunc iterator lets an output lack leading loop dimensions whose extent is 1 (its op_axes -1); a
    // signature whose cores are all () runs as a plain ufunc, where it may not.
    for (int s = Sig::nin; s < given; ++s) {
      const int lead = r.loop.rank - loops[s].rank; // >= 0: the loop rank is the longest
      bool ok = Sig::ndims > 0 || lead == 0;
      for (int k = 0; ok && k < lead; ++k) ok = r.loop[k] == 1;
      for (int k = 0; ok && k < loops[s].rank; ++k) ok = loops[s][k] == r.loop[lead + k];
      if (!ok)
        fail<shape_error>(operand_label(s, Sig::nin) + " with shape " + format_shape(shapes[s]) +
                          " has loop dimensions " + format_shape(loops[s]) +
                          " that do not match the broadcast loop shape " + format_shape(r.loop) + " of the operands, " +
                          sig);
    }
  }
  return r;
}

/// Shape of output S (signature numbering) for a call without `out`: loop shape then its core.
template <class Sig, int R>
std::array<index_t, R> gufunc_output_shape(const gufunc_shape& g, int s) {
  std::array<index_t, R> out{};
  const int c = Sig::core_rank(s);
  for (int k = 0; k < g.loop.rank && k < R; ++k) out[k] = g.loop[k];
  for (int j = 0; j < c; ++j) out[R - c + j] = g.dim_size[Sig::dim(s, j)];
  return out;
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
