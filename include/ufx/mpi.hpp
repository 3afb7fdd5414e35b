#pragma once
/// \file mpi.hpp
/// `ufx::mpi`: the same calls over arrays partitioned across MPI ranks. Optional: link
/// `ufx::mpi` (CMake: `find_package(ufx COMPONENTS mpi)`). It includes ufx/ufx.hpp; ufx/ufx.hpp
/// does not include it.
///
///   ufx::mpi::environment env(argc, argv);                 // MPI_Init_thread unless already done
///   ufx::mpi::communicator world;                            // MPI_COMM_WORLD
///   ufx::mpi::partition p(world, {n});                       // n rows split evenly over the ranks
///   ufx::mpi::distributed x(p, std::vector<float>(p.rows(), 1.f));   // this rank's block
///   auto y = add(x, 2.f);                                    // runs on the local blocks: distributed
///   float s = sum(ufx::host, y);                             // the same value on every rank
///   auto c = sum(m, ufx::axis{0});                           // across the ranks: replicated
///   ufx::index_t i = ufx::argmax(y);                         // a global flat index
///   auto all = ufx::mpi::gather(y);                          // the whole array on rank 0
///
/// Distribution. A `distributed<C>` is one rank's block of a global array split along axis 0 by
/// a `partition` (balanced, or explicit row counts; a rank may hold no rows), in any container
/// ufx accepts, on any target (`ufx::device_array` blocks run on a device). A replicated partition
/// (`partition::replicated`) means every rank holds the whole array: reductions across the ranks
/// return one.
///
/// Calls. `vectorize` and `guvectorize` kernels (axis 0 must be a loop dimension) and the reductions (`ufx::reducer`,
/// `reduce`, `transform_reduce`, `argmin` / `argmax`, `accumulate`) take distributed operands. Every call is collective
/// over the operands' communicator. Distributed operands must share the split; other operands (scalars, arrays with
/// fewer axes or extent 1 along axis 0, replicated arrays) are the same on every rank and broadcast. Elementwise
/// results and reductions that keep axis 0 are distributed with the operands' rows; a full reduction returns the same
/// value on every rank; a reduction along axis 0 returns a replicated array; `accumulate` along axis 0 carries between
/// the ranks.
///
/// Combining. Each rank reduces its block with the single-process call (pairwise float sums),
/// then the partials go through MPI_Allreduce (MPI_Exscan for scans) with an MPI_Op made from
/// the reduction's operator, created non-commutative: MPI combines them in rank order, so the
/// result does not depend on timing. Accumulators must be trivially copyable. Device partials
/// are staged through the host (MPI is not asked to read device memory).
///
/// Errors. Every collective call runs its local part, then the ranks agree: if it threw on any
/// rank, every rank throws `ufx::mpi::error` naming the lowest failing rank and its message, so
/// no rank is left waiting. Operands split differently throw `ufx::shape_error` on every rank,
/// naming both partitions. MPI must be initialised first (`environment`, or MPI_Init_thread with
/// at least MPI_THREAD_FUNNELED when ufx::host is used); only the calling thread talks to MPI.

#include "ufx/mpi/detail/calls.hpp"
#include "ufx/mpi/detail/communicator.hpp"
#include "ufx/mpi/detail/distributed.hpp"
#include "ufx/mpi/detail/partition.hpp"
#include "ufx/ufx.hpp" // the calls it extends, and the containers blocks are held in
