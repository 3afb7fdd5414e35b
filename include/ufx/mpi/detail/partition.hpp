#pragma once
// ufx::mpi::partition: a global shape split along axis 0 into one block of rows per rank.
#include <cstddef>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "ufx/config.hpp"
#include "ufx/errors.hpp"
#include "ufx/mpi/detail/communicator.hpp"

namespace ufx::mpi {

/// How a global array of shape `global_shape()` is split: rank r holds rows [offset(r), offset(r) + rows(r)) of axis 0
/// and every index of the other axes; or, for a replicated partition (the result of a reduction across the ranks),
/// every rank holds all of it. A value, the same on every rank; making one is not collective.
class partition {
public:
  /// The balanced split: the first `n % size` ranks hold `n / size + 1` rows, the others `n / size` (maybe none).
  partition(const communicator& comm, std::vector<index_t> global_shape)
      : partition(comm, std::move(global_shape), {}) {}

  /// An explicit split: `rows[r]` rows on rank r; they must add up to the global extent of axis 0.
  partition(const communicator& comm, std::vector<index_t> global_shape, std::vector<index_t> rows) {
    auto owned = std::make_shared<data>();
    data& d = *owned;
    d.comm = comm;
    d.rank = comm.rank();
    const int n = comm.size();
    d.shape = std::move(global_shape);
    if (d.shape.empty())
      throw shape_error("ufx::mpi::partition: the global shape has no axis 0: a distributed array has rank 1 or more");
    if (static_cast<int>(d.shape.size()) > max_rank)
      throw shape_error("ufx::mpi::partition: the global shape has more than ufx::max_rank axes");
    for (index_t e : d.shape)
      if (e < 0) throw shape_error("ufx::mpi::partition: negative extent in the global shape " + shape_string(d.shape));
    const index_t total = d.shape[0];
    if (rows.empty()) {
      rows.resize(static_cast<std::size_t>(n));
      for (int r = 0; r < n; ++r) rows[static_cast<std::size_t>(r)] = total / n + (r < total % n ? 1 : 0);
    } else if (static_cast<int>(rows.size()) != n) {
      throw shape_error("ufx::mpi::partition: " + std::to_string(rows.size()) + " row counts given for " +
                        std::to_string(n) + " ranks");
    }
    d.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
    for (int r = 0; r < n; ++r) {
      const index_t k = rows[static_cast<std::size_t>(r)];
      if (k < 0) throw shape_error("ufx::mpi::partition: negative row count for rank " + std::to_string(r));
      d.offsets[static_cast<std::size_t>(r) + 1] = d.offsets[static_cast<std::size_t>(r)] + k;
    }
    if (d.offsets.back() != total)
      throw shape_error("ufx::mpi::partition: the row counts add up to " + std::to_string(d.offsets.back()) +
                        " but axis 0 of " + shape_string(d.shape) + " has " + std::to_string(total));
    d_ = std::move(owned);
  }

  /// Every rank holds the whole array (`rows(r)` is the global extent of axis 0, `offset(r)` 0).
  static partition replicated(const communicator& comm, std::vector<index_t> global_shape) {
    partition p(comm, std::move(global_shape), {});
    auto d = std::make_shared<data>(*p.d_);
    d->replicated = true;
    p.d_ = std::move(d);
    return p;
  }

  /// The communicator whose ranks hold the blocks.
  const communicator& comm() const noexcept { return d_->comm; }
  /// True when every rank holds the whole array (see replicated).
  bool is_replicated() const noexcept { return d_->replicated; }
  /// The number of ranks.
  int ranks() const noexcept { return static_cast<int>(d_->offsets.size()) - 1; }
  /// The shape of the whole (global) array.
  const std::vector<index_t>& global_shape() const noexcept { return d_->shape; }
  /// The global number of elements.
  index_t global_size() const noexcept {
    return std::accumulate(d_->shape.begin(), d_->shape.end(), index_t{1}, [](index_t a, index_t b) { return a * b; });
  }
  /// Elements per row of axis 0 (the product of the other extents).
  index_t row_size() const noexcept {
    return std::accumulate(d_->shape.begin() + 1, d_->shape.end(), index_t{1},
                           [](index_t a, index_t b) { return a * b; });
  }
  /// The number of rows of axis 0 rank r holds (replicated: all). An r that is not a rank throws std::out_of_range.
  index_t rows(int r) const {
    const index_t k = d_->offsets.at(static_cast<std::size_t>(r) + 1) - d_->offsets.at(static_cast<std::size_t>(r));
    return d_->replicated ? d_->shape[0] : k;
  }
  /// The global index of rank r's first row (replicated: 0). An r that is not a rank throws std::out_of_range.
  index_t offset(int r) const {
    const index_t o = d_->offsets.at(static_cast<std::size_t>(r)); // at: r is checked
    return d_->replicated ? 0 : o;
  }
  /// This rank's number of rows.
  index_t rows() const { return rows(d_->rank); }
  /// The global index of this rank's first row.
  index_t offset() const { return offset(d_->rank); }
  /// This rank's block shape.
  std::vector<index_t> local_shape() const {
    std::vector<index_t> s = d_->shape;
    s[0] = rows();
    return s;
  }

  /// The same rows over another global shape with the same axis 0 (a call's result).
  partition with_shape(std::vector<index_t> global_shape) const {
    partition p = *this;
    auto d = std::make_shared<data>(*d_);
    d->shape = std::move(global_shape);
    p.d_ = std::move(d);
    return p;
  }

  /// Same communicator and same rows on every rank (the other axes may differ: they broadcast).
  bool same_split(const partition& o) const noexcept {
    return d_ == o.d_ || (d_->comm == o.d_->comm && d_->replicated == o.d_->replicated &&
                          (d_->replicated ? d_->shape[0] == o.d_->shape[0] : d_->offsets == o.d_->offsets));
  }
  /// The same split (same_split) of the same global shape.
  friend bool operator==(const partition& a, const partition& b) noexcept {
    return a.same_split(b) && a.d_->shape == b.d_->shape;
  }

  /// "(7,3) in rows 3,2,2 on 3 ranks", "(3,) replicated on 3 ranks".
  std::string to_string() const {
    if (d_->replicated)
      return shape_string(d_->shape) + " replicated on " + std::to_string(ranks()) +
             (ranks() == 1 ? " rank" : " ranks");
    std::string s = shape_string(d_->shape) + " in rows ";
    for (int r = 0; r < ranks(); ++r) {
      if (r) s += ',';
      s += std::to_string(rows(r));
    }
    return s + " on " + std::to_string(ranks()) + (ranks() == 1 ? " rank" : " ranks");
  }

  /// NumPy's spelling of a shape: "(7,)", "(7,3)".
  static std::string shape_string(const std::vector<index_t>& s) {
    std::string t = "(";
    for (std::size_t k = 0; k < s.size(); ++k) {
      if (k) t += ',';
      t += std::to_string(s[k]);
    }
    return t + (s.size() == 1 ? ",)" : ")");
  }

private:
  /// \cond INTERNAL
  struct data {
    communicator comm;
    int rank = 0;
    bool replicated = false;
    std::vector<index_t> shape;
    std::vector<index_t> offsets; // ranks + 1 entries
  };
  /// \endcond
  std::shared_ptr<const data> d_;
};

} // namespace ufx::mpi
