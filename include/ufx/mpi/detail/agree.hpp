#pragma once
// Rank agreement: a collective call runs its local part on every rank, then the ranks agree on whether it failed
// anywhere (one MPI_Allreduce of an int). If it did, the lowest failing rank broadcasts its message and every rank
// throws, so an exception on one rank never leaves the others waiting in the next collective.
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "ufx/errors.hpp"
#include "ufx/mpi/detail/communicator.hpp"

namespace ufx::mpi::detail {
UFX_TU_NAMESPACE_BEGIN

/// Operands split differently: every rank throws ufx::shape_error (not ufx::mpi::error) with the lowest rank's message.
class partition_mismatch : public shape_error {
public:
  using shape_error::shape_error;
};

enum class failure_kind : int { partition, shape, value, device, bad_alloc, std_exception, mpi, unknown };

inline const char* kind_name(failure_kind k) {
  switch (k) {
  case failure_kind::partition:
  case failure_kind::shape: return "ufx::shape_error";
  case failure_kind::value: return "ufx::value_error";
  case failure_kind::device: return "ufx::device_error";
  case failure_kind::bad_alloc: return "std::bad_alloc";
  case failure_kind::std_exception: return "std::exception";
  case failure_kind::mpi: return "MPI";
  default: return "unknown";
  }
}

struct failure {
  failure_kind kind;
  std::string message;
  std::exception_ptr original;
};

/// The failure the current exception describes (call inside a catch block).
inline failure current_failure() {
  const std::exception_ptr p = std::current_exception();
  try {
    throw;
  } catch (const partition_mismatch& e) {
    return {failure_kind::partition, e.what(), p};
  } catch (const shape_error& e) {
    return {failure_kind::shape, e.what(), p};
  } catch (const value_error& e) {
    return {failure_kind::value, e.what(), p};
  } catch (const device_error& e) {
    return {failure_kind::device, e.what(), p};
  } catch (const mpi::error& e) {
    return {failure_kind::mpi, e.what(), p};
  } catch (const std::bad_alloc& e) {
    return {failure_kind::bad_alloc, e.what(), p};
  } catch (const std::exception& e) {
    return {failure_kind::std_exception, e.what(), p};
  } catch (...) {
    return {failure_kind::unknown, "an exception that is not a std::exception", p};
  }
}

/// Collective: returns when no rank failed; otherwise throws on every rank.
inline void agree(const communicator& comm, const failure* mine) {
  const int me = comm.rank(), n = comm.size();
  const int local = mine ? me : n;
  int first = n;
  check(MPI_Allreduce(&local, &first, 1, MPI_INT, MPI_MIN, comm.native()), "MPI_Allreduce");
  if (first == n) return;
  int head[2] = {0, 0};
  std::string text;
  if (me == first) {
    head[0] = static_cast<int>(mine->kind);
    head[1] = static_cast<int>(mine->message.size());
    text = mine->message;
  }
  check(MPI_Bcast(head, 2, MPI_INT, first, comm.native()), "MPI_Bcast");
  text.resize(static_cast<std::size_t>(head[1]));
  check(MPI_Bcast(text.data(), head[1], MPI_CHAR, first, comm.native()), "MPI_Bcast");
  const auto kind = static_cast<failure_kind>(head[0]);
  if (kind == failure_kind::partition) throw shape_error(text);
  if (me == first) {
    try {
      std::rethrow_exception(mine->original);
    } catch (...) {
      std::throw_with_nested(error(first, kind_name(kind), text));
    }
  }
  throw error(first, kind_name(kind), text);
}

/// Runs `body()` on this rank, then agrees (collective): each rank returns its own result, or all throw if any threw.
template <class Body>
auto collectively(const communicator& comm, Body&& body) {
  using R = std::invoke_result_t<Body&>;
  std::optional<failure> failed;
  if constexpr (std::is_void_v<R>) {
    try {
      body();
    } catch (...) {
      failed = current_failure();
    }
    agree(comm, failed ? &*failed : nullptr);
  } else {
    std::optional<R> result;
    try {
      result.emplace(body());
    } catch (...) {
      failed = current_failure();
    }
    agree(comm, failed ? &*failed : nullptr);
    return R(std::move(*result));
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::mpi::detail
