#pragma once
/// \file config.hpp
/// Attribute macro, index type and build facts shared by every ufx header.

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
/// Marks a function (or lambda) as callable on host and device. Empty when not compiled by nvcc.
#  define UFX_HD __host__ __device__
/// 1 in a translation unit nvcc compiles (a .cu file), else 0.
#  define UFX_CUDA_TU 1
#else
/// Marks a function (or lambda) as callable on host and device. Empty when not compiled by nvcc.
#  define UFX_HD
/// 1 in a translation unit nvcc compiles (a .cu file), else 0.
#  define UFX_CUDA_TU 0
#endif

// ufx's templates compile to different code in different translation units of one program: nvcc's
// can launch CUDA kernels, and a host compiler's follow its instruction set (the reduction leaves'
// vector width, ufx::math's fused multiply-adds, the compiler's own vector code). Templates of one
// name with different bodies are one definition to the linker, which keeps whichever comes first:
// a unit built for the x86-64 baseline could run another's AVX2 code (SIGILL on a CPU without it,
// other bits everywhere). So every template whose code can differ lives in an inline namespace
// named for the configuration: cuda_tu under nvcc; host_tu, then _avx, _avx2 or _avx512, _fma and
// _v64 (UFX_HOST_VECTOR_BYTES=64) after the host compiler's flags. Each unit then links to its own
// copies (tests/isa_mix). nvcc's units share one name (its device and host passes must agree on a
// kernel's name), so .cu files of one program take the same host flags (docs/performance.md).
/// \cond INTERNAL
#define UFX_TU_CAT_(a, b, c, d) a##b##c##d
#define UFX_TU_NAME_(a, b, c, d) UFX_TU_CAT_(a, b, c, d)
#if UFX_CUDA_TU
#  define UFX_TU_NAME cuda_tu
#else
#  if defined(__AVX512F__)
#    define UFX_TU_ISA_ _avx512
#  elif defined(__AVX2__)
#    define UFX_TU_ISA_ _avx2
#  elif defined(__AVX__)
#    define UFX_TU_ISA_ _avx
#  else
#    define UFX_TU_ISA_
#  endif
#  if defined(__FMA__)
#    define UFX_TU_FMA_ _fma
#  else
#    define UFX_TU_FMA_
#  endif
#  if defined(UFX_HOST_VECTOR_BYTES) && UFX_HOST_VECTOR_BYTES == 64
#    define UFX_TU_VB_ _v64
#  else
#    define UFX_TU_VB_
#  endif
#  define UFX_TU_NAME UFX_TU_NAME_(host_tu, UFX_TU_ISA_, UFX_TU_FMA_, UFX_TU_VB_)
#endif
#define UFX_TU_NAMESPACE_BEGIN inline namespace UFX_TU_NAME {
#define UFX_TU_NAMESPACE_END }
/// \endcond

/// `#pragma unroll` in code nvcc compiles, nothing elsewhere (GCC's own unrolling is left to -O2).
#if defined(__CUDACC__)
#  define UFX_UNROLL _Pragma("unroll")
#else
#  define UFX_UNROLL
#endif

/// The host targets' inner loops (an elementwise row, a reduction leaf, a gufunc's loop over its
/// core calls) are compiled twice where the build targets the x86-64 baseline (SSE2): once as is
/// and once for AVX2, and the CPU that runs the program picks (GCC's target_clones, an ifunc
/// resolved when the program loads). AVX2 without FMA: the clone's arithmetic is the baseline's, so
/// results are bitwise the same on every x86-64 CPU, with twice the vector width and the integer
/// vector operations SSE2 lacks (ufx::math's double kernels). Nothing changes under -mavx2 or
/// -march=native (their own code is wider), with other compilers, under nvcc, without
/// optimisation, or when UFX_NO_HOST_CLONES is defined (the same in every translation unit).
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && !defined(__INTEL_COMPILER) &&                  \
    defined(__x86_64__) && defined(__ELF__) && defined(__OPTIMIZE__) && !defined(__AVX2__) &&                          \
    !defined(UFX_NO_HOST_CLONES)
#  define UFX_HOST_CLONES __attribute__((target_clones("avx2", "default")))
/// \cond INTERNAL
#  define UFX_HOST_CLONED 1
/// \endcond
#else
#  define UFX_HOST_CLONES
/// \cond INTERNAL
#  define UFX_HOST_CLONED 0
/// \endcond
#endif

/// The elementwise row and the gufunc loop take the user's function, and all it calls, inline
/// (GCC's and Clang's flatten; not the reduction's loops, where it made GCC 12 take minutes):
/// a loop vectorises only with the function's body in it, and in a large translation unit GCC's
/// inliner stops inlining ordinary functions (its unit-growth limits), which left a call per
/// element, 10x to 20x slower, in a benchmark program with many kernels. The AVX2 copies then run
/// the user's code as AVX2 code too.
#if defined(__GNUC__) && defined(__OPTIMIZE__)
#  define UFX_HOST_FLATTEN __attribute__((flatten))
#else
#  define UFX_HOST_FLATTEN
#endif

/// The entry of every ufx call (vectorize_run, gufunc_run, reduce_run, accumulate_run, a kernel's
/// launch) is never inlined, so that UFX_HOST_FLATTEN stops there: a core function that makes a
/// call of its own (a gufunc whose rows each run ufx::reduce) would otherwise take the whole of
/// that call's machinery, every target's, inline into each of its loop's clones, which made GCC 12
/// compile one such test file at -O2 for over 15 minutes in 6 GB. A call costs more than a
/// function call's nanosecond anyway.
#if defined(__GNUC__)
#  define UFX_CALL_BOUNDARY __attribute__((noinline))
#else
#  define UFX_CALL_BOUNDARY
#endif

/// A function off the hot path (an error check's slow branch): never inlined, and placed with
/// the cold code, so the loop that calls it keeps its registers and its vector code.
#if defined(__GNUC__)
#  define UFX_COLD __attribute__((noinline, cold))
#elif defined(_MSC_VER)
#  define UFX_COLD __declspec(noinline)
#else
#  define UFX_COLD
#endif

/// ufx::math's host kernels and their helpers are inlined wherever they are called, as Eigen's
/// packet math is, for the same reason as UFX_HOST_FLATTEN, in loops users write themselves too.
#if defined(__GNUC__)
#  define UFX_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#  define UFX_ALWAYS_INLINE __forceinline
#else
#  define UFX_ALWAYS_INLINE inline
#endif

/// In a function that is never inlined, the instruction after the call to it: where an element
/// access of the sim's arrays was made (ufx::profile's access sites; null where unknown).
#if defined(__GNUC__)
#  define UFX_ACCESS_SITE() __builtin_return_address(0)
#else
#  define UFX_ACCESS_SITE() nullptr
#endif

/// Marks a parameter that the result refers to (Clang's lifetimebound: `ufx::lazy(x)` refers to x),
/// so that Clang warns when the result outlives the argument: `return ufx::lazy(local);`
/// (-Wreturn-stack-address) or a lazy operand of a temporary (-Wdangling). Empty elsewhere (nvcc's
/// front end, which is not Clang's, included).
#if defined(__clang__) && !defined(__NVCC__) && defined(__has_cpp_attribute)
#  if __has_cpp_attribute(clang::lifetimebound)
#    define UFX_LIFETIMEBOUND [[clang::lifetimebound]]
#  endif
#endif
#ifndef UFX_LIFETIMEBOUND
#  define UFX_LIFETIMEBOUND
#endif

namespace ufx {

/// Signed index type for shapes, strides and offsets (as NumPy's npy_intp).
using index_t = std::ptrdiff_t;

/// The largest rank a loop can have after broadcasting.
inline constexpr int max_rank = 16;

/// Core sizes a gufunc's host targets specialise for: a dense call whose run-time core dimensions
/// all have one of these sizes runs a copy of the kernel where that size is a compile-time
/// constant (a 4x4 matmul written with run-time sizes then runs as fast as "(4,4),(4,4)->(4,4)").
/// Each size is one more instantiation per gufunc call site. Define UFX_GUFUNC_SMALL_SIZES (the
/// same in every translation unit) before including ufx to change the list; define it empty to
/// turn the specialisation off.
#ifndef UFX_GUFUNC_SMALL_SIZES
#  define UFX_GUFUNC_SMALL_SIZES 2, 3, 4
#endif
/// Element accesses through `ufx::ndview` check their indices in all host code (ufx::serial,
/// ufx::host, gufunc bodies, the sim; never in device code) when this is 1: by default in builds
/// without NDEBUG (debug builds). When it is 0 (by default with NDEBUG) only views made with
/// `index_checked()` check: the arrays ufx::sim hands a raw kernel, so the sim checks a kernel's
/// indices in every build. An out-of-range index throws ufx::shape_error; in a raw kernel
/// the error names the kernel, block and thread. Define it (the same in every translation unit) to
/// choose.
#ifndef UFX_BOUNDS_CHECK
#  ifdef NDEBUG
#    define UFX_BOUNDS_CHECK 0
#  else
#    define UFX_BOUNDS_CHECK 1
#  endif
#endif

namespace detail {
#if defined(__CUDA_ARCH__)
/// Where ufx's code shared by host and device calls the user's function, nvcc's device pass calls
/// it through this __device__ function (UFX_USER_CALL). A host-only function called here is nvcc's
/// error "calling a __host__ function from a __device__ function", which nvcc reports wherever the
/// header lives. Called straight from ufx's __host__ __device__ code it would be warning 20011,
/// which nvcc drops in a system header (--diag-error or not), and a find_package(ufx) user's
/// compiler sees ufx's headers as system headers (-isystem): that kernel compiled with an empty
/// body. nvcc's message names this function, whose name says the fix, and the user's function:
/// `calling a __host__ function("add_f::operator ()(float, float) const") from a __device__
/// function("ufx::detail::device_call_needs_UFX_HD<...>") is not allowed`. As with 20011 before
/// (an error in a build that sees ufx's headers with -I), nvcc's device pass compiles this for every
/// instantiation of the shared code, so a host-only functor is an error there on every target;
/// host-only lambdas are not (nvcc lets device code call them), and ufx keeps them off ufx::cuda
/// itself (detail/step/run.hpp).
template <class F, class... A>
__device__ __forceinline__ decltype(auto) device_call_needs_UFX_HD(F&& f, A&&... a) {
  return static_cast<F&&>(f)(static_cast<A&&>(a)...);
}
/// \cond INTERNAL
#  define UFX_USER_CALL(f, ...) ::ufx::detail::device_call_needs_UFX_HD(f, __VA_ARGS__)
/// \endcond
#else
/// \cond INTERNAL
#  define UFX_USER_CALL(f, ...) f(__VA_ARGS__)
/// \endcond
#endif

[[noreturn]] void ndview_out_of_range(int rank, const index_t* index, const index_t* extents);
/// An element access through a ufx::sim kernel's array argument (ndview::tracked): logged for the
/// sim's global-memory race and uninitialised-read checks (src/sim/memory_checks.cpp). `read_only`: the
/// view's elements are const; `init_checked`: the element's type has no plausible value equal to
/// the sim's fill (4 bytes or more, or bool). `site`: the access instruction (UFX_ACCESS_SITE), which
/// ufx::profile groups the lanes of a warp-wide request by.
void sim_global_touch(const void* p, std::size_t bytes, bool read_only, bool init_checked, const void* site);
inline constexpr int gufunc_small_sizes_list[] = {0, UFX_GUFUNC_SMALL_SIZES};

/// A pointer to a UFX_HOST_CLONES function, hidden from the optimiser: call the function through
/// it. GCC 12 takes a direct call of a target_clones function to throw nothing and leaves the
/// caller without unwind entries for it, so an exception from the user's function would end the
/// program (std::terminate); through a pointer it cannot see, the call may throw, as it does.
template <class P>
inline P host_clone_call(P p) noexcept {
#if UFX_HOST_CLONED
  asm("" : "+m"(p));
#endif
  return p;
}
} // namespace detail

} // namespace ufx
