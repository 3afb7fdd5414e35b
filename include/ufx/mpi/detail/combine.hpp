#pragma once
// The combine step of a reduction across ranks: each rank's partials (one per output element, absent where its block
// is empty) go through MPI_Allreduce, or MPI_Exscan for a scan's carries, with an MPI_Op of the user's operator. The op
// is non-commutative, so MPI combines in rank order (MPI 4.0, 6.9.5): the result does not depend on timing, and Open
// MPI's allreduce for such ops reduces to one rank and broadcasts, so every rank gets the same bits.
#include <climits>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "ufx/mpi/detail/communicator.hpp"

namespace ufx::mpi::detail {
UFX_TU_NAMESPACE_BEGIN

/// A partial, or none (`has == 0`) from a rank with nothing to reduce.
template <class Acc>
struct maybe {
  Acc value;
  int has;
};

/// The operator of the combine running on this thread (MPI calls a user function through a plain
/// function pointer, without state; the op is set for the duration of one MPI call).
template <class Op>
inline thread_local const Op* current_op = nullptr;

template <class Acc, class Op>
void combine_fn(void* in, void* inout, int* len, MPI_Datatype*) {
  const Op& op = *current_op<Op>;
  const auto* a = static_cast<const maybe<Acc>*>(in); // lower ranks
  auto* b = static_cast<maybe<Acc>*>(inout);
  for (int i = 0; i < *len; ++i) {
    if (!a[i].has) continue;
    if (b[i].has) b[i].value = static_cast<Acc>(op(a[i].value, b[i].value));
    else b[i] = a[i];
  }
}

/// An MPI datatype and a non-commutative MPI_Op for maybe<Acc> under `op`, freed on destruction.
template <class Acc, class Op>
class mpi_combiner {
  static_assert(
      std::is_trivially_copyable_v<Acc>,
      "ufx::mpi: a reduction across ranks needs a trivially copyable accumulator (its partials travel as bytes)");

public:
  explicit mpi_combiner(const Op& op) : prev_(current_op<Op>) {
    current_op<Op> = &op;
    check(MPI_Type_contiguous(static_cast<int>(sizeof(maybe<Acc>)), MPI_BYTE, &type_), "MPI_Type_contiguous");
    check(MPI_Type_commit(&type_), "MPI_Type_commit");
    check(MPI_Op_create(&combine_fn<Acc, Op>, /*commute=*/0, &op_), "MPI_Op_create");
  }
  ~mpi_combiner() {
    MPI_Op_free(&op_);
    MPI_Type_free(&type_);
    current_op<Op> = prev_;
  }
  mpi_combiner(const mpi_combiner&) = delete;
  mpi_combiner& operator=(const mpi_combiner&) = delete;

  /// In place: every rank gets the partials of all ranks combined in rank order.
  void allreduce(const communicator& comm, std::span<maybe<Acc>> parts) const {
    check(MPI_Allreduce(MPI_IN_PLACE, parts.data(), count(parts), type_, op_, comm.native()), "MPI_Allreduce");
  }
  /// In place: rank r gets the partials of ranks 0..r-1 combined in rank order (none on rank 0).
  void exscan(const communicator& comm, std::span<maybe<Acc>> parts) const {
    check(MPI_Exscan(MPI_IN_PLACE, parts.data(), count(parts), type_, op_, comm.native()), "MPI_Exscan");
    if (comm.rank() == 0)
      for (auto& p : parts) p.has = 0; // MPI leaves rank 0's buffer undefined
  }

private:
  static int count(std::span<maybe<Acc>> parts) {
    if (parts.size() > static_cast<std::size_t>(INT_MAX))
      throw std::length_error("ufx::mpi: more than INT_MAX partials in one combine");
    return static_cast<int>(parts.size());
  }
  const Op* prev_;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  MPI_Op op_ = MPI_OP_NULL;
};

UFX_TU_NAMESPACE_END
} // namespace ufx::mpi::detail
