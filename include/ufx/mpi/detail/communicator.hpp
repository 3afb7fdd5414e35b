#pragma once
// ufx::mpi's handles on MPI: the error every rank throws, the communicator wrapper and the RAII
// environment. Only ufx/mpi.hpp includes this (and so <mpi.h>); the rest of ufx never does.
#include <mpi.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace ufx::mpi {

/// A collective call failed on some rank. Every rank of the call throws it, so no rank waits for
/// the others forever; it names the first failing rank (the lowest) and that rank's message. On
/// the failing rank itself the original exception is nested (std::rethrow_if_nested).
class error : public std::runtime_error {
public:
  /// The failure of rank `rank`: its exception's `kind` (see kind()) and `message`.
  error(int rank, std::string kind, std::string message)
      : std::runtime_error("ufx::mpi: rank " + std::to_string(rank) + " failed (" + kind + "): " + message),
        rank_(rank), kind_(std::move(kind)), message_(std::move(message)) {}

  /// The lowest rank on which the call failed.
  int rank() const noexcept { return rank_; }
  /// What that rank's exception was: "ufx::shape_error", "ufx::value_error", "ufx::device_error",
  /// "std::bad_alloc", "std::exception", "MPI" or "unknown".
  const std::string& kind() const noexcept { return kind_; }
  /// That rank's message (its `what()`).
  const std::string& rank_message() const noexcept { return message_; }

private:
  int rank_;
  std::string kind_;
  std::string message_;
};

namespace detail {

/// Throws ufx::mpi::error for an MPI return code other than MPI_SUCCESS (communicators whose error
/// handler is MPI_ERRORS_RETURN; MPI's default handler aborts before returning).
inline void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  throw error(rank, "MPI", std::string(call) + ": " + std::string(text, static_cast<std::size_t>(len)));
}

inline void require_initialized() {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (!init || fin)
    throw std::logic_error(fin ? "ufx::mpi: MPI has been finalised"
                               : "ufx::mpi: MPI is not initialised: create a ufx::mpi::environment (or call "
                                 "MPI_Init_thread) before using a communicator");
}

} // namespace detail

/// An MPI communicator (not owned): MPI_COMM_WORLD unless another is given. Every ufx::mpi call
/// on distributed operands is collective over their communicator.
class communicator {
public:
  /// MPI_COMM_WORLD.
  communicator() noexcept : comm_(MPI_COMM_WORLD) {}
  /// The MPI communicator `comm`, which stays the caller's to free.
  explicit communicator(MPI_Comm comm) noexcept : comm_(comm) {}

  /// This process's rank in the communicator.
  int rank() const {
    detail::require_initialized();
    int r = 0;
    detail::check(MPI_Comm_rank(comm_, &r), "MPI_Comm_rank");
    return r;
  }
  /// The number of ranks.
  int size() const {
    detail::require_initialized();
    int n = 0;
    detail::check(MPI_Comm_size(comm_, &n), "MPI_Comm_size");
    return n;
  }
  /// Waits until every rank has called it (MPI_Barrier). A failed call throws ufx::mpi::error.
  void barrier() const { detail::check(MPI_Barrier(comm_), "MPI_Barrier"); }
  /// The MPI handle.
  MPI_Comm native() const noexcept { return comm_; }

  /// The same MPI handle.
  friend bool operator==(const communicator& a, const communicator& b) noexcept { return a.comm_ == b.comm_; }

private:
  MPI_Comm comm_;
};

/// Initialises MPI for the lifetime of the object (MPI_Init_thread, MPI_THREAD_FUNNELED by default:
/// ufx::host runs OpenMP threads, but only the calling thread talks to MPI) unless it already is,
/// and finalises it on destruction only if it initialised it. ufx never initialises MPI by itself.
class environment {
public:
  /// Initialises MPI without the program's arguments, asking for MPI_THREAD_FUNNELED.
  environment() : environment(nullptr, nullptr) {}
  /// Initialises MPI with main's `argc` and `argv`, asking for thread support `required`.
  /// An error code from MPI_Init_thread throws ufx::mpi::error.
  environment(int& argc, char**& argv, int required = MPI_THREAD_FUNNELED) : environment(&argc, &argv, required) {}
  ~environment() {
    int fin = 0;
    MPI_Finalized(&fin);
    if (owns_ && !fin) MPI_Finalize();
  }
  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;

  /// The thread support MPI gives (MPI_THREAD_SINGLE ... MPI_THREAD_MULTIPLE).
  int thread_level() const noexcept { return provided_; }
  /// True when this object initialised MPI (and will finalise it).
  bool owns() const noexcept { return owns_; }

private:
  environment(int* argc, char*** argv, int required = MPI_THREAD_FUNNELED) {
    int init = 0;
    MPI_Initialized(&init);
    if (init) {
      MPI_Query_thread(&provided_);
      return;
    }
    detail::check(MPI_Init_thread(argc, argv, required, &provided_), "MPI_Init_thread");
    owns_ = true;
  }
  bool owns_ = false;
  int provided_ = MPI_THREAD_SINGLE;
};

} // namespace ufx::mpi
