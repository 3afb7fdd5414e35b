#pragma once
// ufx::mpi::distributed<C>: a rank's block of a global array (any array container) and its partition; scatter, gather.
#include <array>
#include <climits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ufx/adapter.hpp"
#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/step/transfer.hpp"
#include "ufx/mpi/detail/agree.hpp"
#include "ufx/mpi/detail/partition.hpp"
#include "ufx/ndarray.hpp"

namespace ufx::mpi {

namespace detail {
/// The tag ufx's front doors see on distributed operands (ufx/detail/distributed.hpp).
struct mpi_distribution {};
struct adopt_t {};
} // namespace detail

/// One rank's block of a global array split along axis 0 (`partition()`), held in the container
/// `C` (std::vector, ufx::ndarray, an Eigen matrix, ufx::device_array, ...). Front doors called on
/// distributed operands run on the local blocks and combine across ranks where the result needs it.
template <class C>
class distributed {
  static_assert(ufx::array_like<C>, "ufx::mpi::distributed: the local block must be an array container ufx accepts "
                                    "(std::vector, ufx::ndarray, ufx::device_array, Eigen, ...)");
  static_assert(ufx::adapter<C>::rank >= 1,
                "ufx::mpi::distributed: the local block must have rank 1 or more (axis 0 is split across the ranks)");

public:
  /// The tag by which ufx's front doors recognise a distributed operand.
  using ufx_distribution = detail::mpi_distribution;
  /// The local block's container, C.
  using container_type = C;
  /// The element type.
  using value_type = typename ufx::adapter<C>::value_type;
  /// The number of dimensions (of the block and of the global array), 1 or more.
  static constexpr int rank = ufx::adapter<C>::rank;

  /// Collective over `p.comm()`: every rank passes its block, which must have `p.local_shape()`;
  /// when one rank's does not, every rank throws ufx::mpi::error naming that rank.
  distributed(mpi::partition p, C local) : part_(std::move(p)), local_(std::move(local)) {
    ufx::mpi::detail::collectively(part_.comm(), [&] { check_block(); });
  }

  /// Adopts a block known to fit `p` (results of calls): not collective, no check.
  distributed(detail::adopt_t, mpi::partition p, C local) : part_(std::move(p)), local_(std::move(local)) {}

  /// This rank's block.
  C& local() noexcept { return local_; }
  /// The same, read-only.
  const C& local() const noexcept { return local_; }

  /// How the global array is split across the ranks.
  const mpi::partition& partition() const noexcept { return part_; }
  /// The partition's communicator.
  const communicator& comm() const noexcept { return part_.comm(); }
  /// The shape of the whole (global) array.
  const std::vector<index_t>& global_shape() const noexcept { return part_.global_shape(); }
  /// This rank's first row (its block's offset along axis 0).
  index_t offset() const { return part_.offset(); }
  /// This rank's number of rows.
  index_t rows() const { return part_.rows(); }

  /// The local block's shape.
  std::vector<index_t> local_shape() const {
    const auto s = ufx::detail::adapt_in(local_).view.shape();
    return std::vector<index_t>(s.begin(), s.end());
  }

  /// Throws ufx::shape_error when the block does not have the partition's local shape (it may
  /// have been resized through local()); `what` names it in the message.
  void check_block(const std::string& what = "the local block") const {
    const std::vector<index_t> have = local_shape(), want = part_.local_shape();
    if (have == want) return;
    throw shape_error(std::string(ufx::detail::current_call) + ": " + what + " on rank " +
                      std::to_string(comm().rank()) + " has shape " + mpi::partition::shape_string(have) +
                      " but its partition " + part_.to_string() + " gives this rank rows [" + std::to_string(offset()) +
                      ", " + std::to_string(offset() + rows()) + "), shape " + mpi::partition::shape_string(want));
  }

private:
  mpi::partition part_;
  C local_;
};

/// Deduces C from the local block: `ufx::mpi::distributed(p, block)`.
template <class C>
distributed(mpi::partition, C) -> distributed<C>;

namespace detail {

template <class T>
struct is_std_vector : std::false_type {};
template <class T, class A>
struct is_std_vector<std::vector<T, A>> : std::true_type {};

/// The host container scatter and gather use for blocks of C: std::vector for std::vector, else ufx::ndarray.
template <class C>
using host_block_t = std::conditional_t<is_std_vector<C>::value, std::vector<typename ufx::adapter<C>::value_type>,
                                        ufx::ndarray<typename ufx::adapter<C>::value_type, ufx::adapter<C>::rank>>;

template <class C>
C make_host_block(const std::vector<index_t>& shape) {
  if constexpr (is_std_vector<C>::value) {
    return C(static_cast<std::size_t>(shape[0]));
  } else {
    constexpr int R = ufx::adapter<C>::rank;
    std::array<index_t, R> s{};
    for (int k = 0; k < R; ++k) s[static_cast<std::size_t>(k)] = shape[static_cast<std::size_t>(k)];
    return C(s);
  }
}

/// The elements of any array container (host or device, strided or not) as a dense C-order host copy.
template <class C>
host_block_t<C> dense_host_copy(const C& c) {
  const auto op = ufx::detail::adapt_in(c);
  const auto s = op.view.shape();
  host_block_t<C> h = make_host_block<host_block_t<C>>(std::vector<index_t>(s.begin(), s.end()));
  auto dst = ufx::detail::adapt_out(h);
  ufx::detail::transfer(memory_space::host, dst.view, op.space, op.view);
  return h;
}

/// Bytes of one row of axis 0 as an MPI datatype (count = rows), so counts stay ints.
class row_type {
public:
  explicit row_type(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(INT_MAX))
      throw value_error("ufx::mpi: a row of " + std::to_string(bytes) + " bytes is more than MPI's int count");
    check(MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &t_), "MPI_Type_contiguous");
    check(MPI_Type_commit(&t_), "MPI_Type_commit");
  }
  ~row_type() { MPI_Type_free(&t_); }
  row_type(const row_type&) = delete;
  row_type& operator=(const row_type&) = delete;
  MPI_Datatype get() const noexcept { return t_; }

private:
  MPI_Datatype t_ = MPI_DATATYPE_NULL;
};

inline std::vector<int> row_counts(const mpi::partition& p, std::vector<int>& displs) {
  std::vector<int> counts(static_cast<std::size_t>(p.ranks()));
  displs.assign(counts.size(), 0);
  for (int r = 0; r < p.ranks(); ++r) {
    if (p.offset(r) + p.rows(r) > INT_MAX) throw value_error("ufx::mpi: more than INT_MAX rows along axis 0");
    counts[static_cast<std::size_t>(r)] = static_cast<int>(p.rows(r));
    displs[static_cast<std::size_t>(r)] = static_cast<int>(p.offset(r));
  }
  return counts;
}

/// Shape of a container as a vector (a rank-0 call result has none).
template <class C>
std::vector<index_t> shape_vector(const C& c) {
  const auto s = ufx::detail::adapt_in(c).view.shape();
  return std::vector<index_t>(s.begin(), s.end());
}

} // namespace detail

/// Collective: splits `full` (read on `root` only; other ranks may pass an empty container) by
/// `p`, and returns every rank its block as a distributed std::vector (for a std::vector) or
/// ufx::ndarray (anything else, device arrays included). `full` must have `p.global_shape()`.
template <class C>
distributed<detail::host_block_t<std::remove_cvref_t<C>>> scatter(const partition& p, const C& full, int root = 0) {
  using B = detail::host_block_t<std::remove_cvref_t<C>>;
  using T = typename ufx::adapter<B>::value_type;
  const ufx::detail::call_scope scope("ufx::mpi::scatter");
  const communicator& comm = p.comm();
  if (root < 0 || root >= comm.size())
    throw value_error("ufx::mpi::scatter: root " + std::to_string(root) + " is not a rank of the communicator");
  B block;
  B packed = detail::collectively(comm, [&] {
    if (static_cast<int>(p.global_shape().size()) != ufx::adapter<B>::rank)
      throw shape_error("ufx::mpi::scatter: the partition's global shape " + partition::shape_string(p.global_shape()) +
                        " has a different rank than the container (" + std::to_string(ufx::adapter<B>::rank) + ")");
    block = detail::make_host_block<B>(p.local_shape());
    if (comm.rank() != root) return B{};
    if (detail::shape_vector(full) != p.global_shape())
      throw shape_error("ufx::mpi::scatter: the array on the root has shape " +
                        partition::shape_string(detail::shape_vector(full)) + " but the partition is " + p.to_string());
    return detail::dense_host_copy(full);
  });
  const std::size_t row_bytes = static_cast<std::size_t>(p.row_size()) * sizeof(T);
  if (row_bytes > 0 && p.is_replicated()) { // every rank gets every row
    const detail::row_type row(row_bytes);
    if (comm.rank() == root) block = std::move(packed);
    detail::check(MPI_Bcast(block.data(), static_cast<int>(p.rows()), row.get(), root, comm.native()), "MPI_Bcast");
  } else if (row_bytes > 0) {
    const detail::row_type row(row_bytes);
    std::vector<int> displs;
    const std::vector<int> counts = detail::row_counts(p, displs);
    detail::check(MPI_Scatterv(comm.rank() == root ? packed.data() : nullptr, counts.data(), displs.data(), row.get(),
                               block.data(), counts[static_cast<std::size_t>(comm.rank())], row.get(), root,
                               comm.native()),
                  "MPI_Scatterv");
  }
  return distributed<B>(detail::adopt_t{}, p, std::move(block));
}

namespace detail {
template <class C>
host_block_t<C> gather_to(const distributed<C>& d, int root) {
  using B = host_block_t<C>;
  using T = typename ufx::adapter<B>::value_type;
  const partition& p = d.partition();
  const communicator& comm = p.comm();
  const bool all = root < 0;
  B full;
  B mine = collectively(comm, [&] {
    d.check_block();
    if (all || comm.rank() == root) full = make_host_block<B>(p.global_shape());
    return dense_host_copy(d.local());
  });
  if (p.is_replicated()) return all || comm.rank() == root ? mine : B{}; // every rank has it all
  const std::size_t row_bytes = static_cast<std::size_t>(p.row_size()) * sizeof(T);
  if (row_bytes == 0) return full;
  const row_type row(row_bytes);
  std::vector<int> displs;
  const std::vector<int> counts = row_counts(p, displs);
  const int n = counts[static_cast<std::size_t>(comm.rank())];
  if (all)
    check(
        MPI_Allgatherv(mine.data(), n, row.get(), full.data(), counts.data(), displs.data(), row.get(), comm.native()),
        "MPI_Allgatherv");
  else
    check(MPI_Gatherv(mine.data(), n, row.get(), full.data(), counts.data(), displs.data(), row.get(), root,
                      comm.native()),
          "MPI_Gatherv");
  return full;
}
} // namespace detail

/// Collective: the whole array on `root` (a std::vector for std::vector blocks, else a host
/// ufx::ndarray); the other ranks get an empty container. For tests and small results.
template <class C>
detail::host_block_t<C> gather(const distributed<C>& d, int root = 0) {
  const ufx::detail::call_scope scope("ufx::mpi::gather");
  if (root < 0 || root >= d.comm().size())
    throw value_error("ufx::mpi::gather: root " + std::to_string(root) + " is not a rank of the communicator");
  return detail::gather_to(d, root);
}

/// Collective: the whole array on every rank.
template <class C>
detail::host_block_t<C> allgather(const distributed<C>& d) {
  const ufx::detail::call_scope scope("ufx::mpi::allgather");
  return detail::gather_to(d, -1);
}

} // namespace ufx::mpi
