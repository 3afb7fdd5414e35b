// ufx::cuda's device runtime: the CUDA runtime calls, compiled by the host compiler against cudart.
// Every CUDA failure becomes a ufx::device_error naming the operation, the device and the error.
#include <cuda_runtime_api.h>
#if UFX_WITH_NVTX
#  include <nvtx3/nvToolsExtCudaRt.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

#include "runtime_common.hpp"
#include "ufx/detail/lib/ranges.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/nvtx.hpp"
#include "ufx/errors.hpp"

namespace ufx {
namespace detail {
namespace {

struct probe_result {
  bool ok = false;
  int count = 0;
  std::string why;
};

const probe_result& probe() {
  static const probe_result r = [] {
    probe_result p;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      // A machine without a GPU or driver gets cudaErrorInsufficientDriver ("CUDA driver version is
      // insufficient"), which reads as an old driver; say what it means, CUDA's words after it.
      const bool none = e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice;
      p.why = std::string(none ? "no CUDA driver or GPU found" : "the CUDA driver could not start") +
              " (cudaGetDeviceCount: " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e) + ")";
      cudaGetLastError();
    } else if (count == 0) {
      p.why = "no CUDA device answers (cudaGetDeviceCount found 0 devices)";
    } else {
      p.ok = true;
      p.count = count;
    }
    return p;
  }();
  return r;
}

std::string describe(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }

/// The calls this thread queued on the legacy default stream since its last wait (the last few):
/// an error of their kernels surfaces at a later wait, which names them.
struct queued_record {
  static constexpr int kept = 4;
  const char* calls[kept] = {};
  long count = 0;
};
thread_local queued_record queued;

std::string queued_note() {
  if (queued.count == 0) return {};
  std::string s = "; raised by work queued earlier and not waited for (";
  const long n = std::min<long>(queued.count, queued_record::kept);
  s += queued.count == 1 ? "the call "
                         : "the last " + std::to_string(n) + " of " + std::to_string(queued.count) + " calls ";
  s += "this thread queued since its last wait: ";
  for (long i = queued.count - n; i < queued.count; ++i) {
    if (i > queued.count - n) s += ", ";
    s += queued.calls[i % queued_record::kept];
  }
  return s + ")";
}

[[noreturn]] void fail(cudaError_t e, const std::string& what) {
  cudaGetLastError(); // clear a non-sticky error so later calls start clean
  std::string msg = "ufx::cuda: " + what + " failed: " + describe(e);
  if (e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure || e == cudaErrorIllegalInstruction ||
      e == cudaErrorMisalignedAddress || e == cudaErrorAssert) {
    msg += queued_note();
    msg += " (the CUDA context is now unusable: later calls on this device fail too)";
  }
  queued.count = 0;
  throw device_error(msg);
}

void check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) fail(e, what);
}

/// Makes `device` current for a scope and restores the previous one.
class device_guard {
public:
  explicit device_guard(int device) {
    check(cudaGetDevice(&prev_), "cudaGetDevice");
    if (prev_ != device) check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
    else prev_ = -1;
  }
  ~device_guard() {
    if (prev_ >= 0) cudaSetDevice(prev_);
  }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

private:
  int prev_ = -1;
};

/// Results of at most this many bytes come back through a pinned block of each thread's.
constexpr std::size_t small_result_bytes = 4096;
struct small_block {
  void* p = nullptr;
  small_block() {
    if (cudaHostAlloc(&p, small_result_bytes, cudaHostAllocPortable) != cudaSuccess) {
      p = nullptr;
      cudaGetLastError();
    }
  }
  ~small_block() {
    if (p) cudaFreeHost(p);
  }
  small_block(const small_block&) = delete;
  small_block& operator=(const small_block&) = delete;
};

class cuda_runtime_impl final : public device_runtime {
public:
  std::string_view name() const noexcept override { return "ufx::cuda"; }
  bool available() const noexcept override { return probe().ok; }
  std::string_view unavailable_reason() const noexcept override { return probe().why; }
  int device_count() const override { return probe().count; }

  /// Read once: cudaGetDeviceProperties costs microseconds, and a call on host data asks for the free memory each time.
  static const cudaDeviceProp& properties(int device) {
    static std::once_flag once[64];
    static cudaDeviceProp cache[64];
    static cudaError_t status[64];
    if (device < 0 || device >= 64) {
      thread_local cudaDeviceProp other;
      check(cudaGetDeviceProperties(&other, device), "cudaGetDeviceProperties(" + std::to_string(device) + ")");
      return other;
    }
    std::call_once(once[device], [device] { status[device] = cudaGetDeviceProperties(&cache[device], device); });
    check(status[device], "cudaGetDeviceProperties(" + std::to_string(device) + ")");
    return cache[device];
  }

  device_info info(int device) const override {
    const cudaDeviceProp& p = properties(device);
    device_info d;
    d.target = "ufx::cuda";
    d.ordinal = device;
    d.name = p.name;
    d.compute_major = p.major;
    d.compute_minor = p.minor;
    d.total_memory = p.totalGlobalMem;
    d.multiprocessors = p.multiProcessorCount;
    d.max_threads_per_block = p.maxThreadsPerBlock;
    d.shared_memory_per_block = p.sharedMemPerBlock;
    d.warp_size = p.warpSize;
    device_guard g(device);
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    // what the device's pool keeps for reuse is free for ufx's allocations (they come from the pool)
    cudaMemPool_t pool;
    std::uint64_t reserved = 0, used = 0;
    if (cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess &&
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) == cudaSuccess &&
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess && reserved > used)
      free += static_cast<std::size_t>(reserved - used);
    cudaGetLastError();
    d.free_memory = free;
    return d;
  }

  int current_device() const override {
    int d = 0;
    if (!available()) return 0;
    check(cudaGetDevice(&d), "cudaGetDevice");
    return d;
  }
  void select_device(int device) const override {
    check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
  }

  /// From the device's pool (keep_pool): a freed block is kept for the next one, not returned to the driver, so taking
  /// it costs no cudaMalloc. Without a stream (device_array's memory), in the legacy default stream's order without a
  /// wait: the array's work follows there or on ufx's streams, which are blocking (create_stream) and so wait for it.
  void* allocate(int device, std::size_t bytes, void* s) const override {
    device_guard g(device);
    keep_pool(device);
    void* p = nullptr;
    allocated(cudaMallocAsync(&p, bytes == 0 ? 1 : bytes, s ? static_cast<cudaStream_t>(s) : cudaStreamLegacy),
              "cudaMallocAsync", device, bytes);
    return p;
  }
  /// Checks an allocation's result: out of memory reads as ufx's message (sizes, how to chunk).
  static void allocated(cudaError_t e, const char* call, int device, std::size_t bytes) {
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      std::size_t free = 0, total = 0;
      cudaMemGetInfo(&free, &total);
      throw device_error(out_of_memory_message("ufx::cuda", device, bytes, free, total));
    }
    check(e, std::string(call) + "(" + std::to_string(bytes) + " bytes) on device " + std::to_string(device));
  }
  /// Back to the pool in `s`'s order, without a wait. Without a stream, in the legacy default stream's order: after the
  /// work queued before it there and on every blocking stream (ufx's), so an array dropped while work on it is queued
  /// is freed once that work ran.
  void deallocate(int device, void* p, void* s) const noexcept override {
    int prev = -1;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != device) cudaSetDevice(device);
    cudaFreeAsync(p, s ? static_cast<cudaStream_t>(s) : cudaStreamLegacy);
    if (prev >= 0 && prev != device) cudaSetDevice(prev);
    cudaGetLastError();
  }
  /// The device's default memory pool keeps what is freed to it (a release threshold of everything), so a call's
  /// temporaries on a stream are reused, not returned to the driver at each synchronisation.
  static void keep_pool(int device) {
    static std::once_flag once[64];
    if (device < 0 || device >= 64) return;
    std::call_once(once[device], [device] {
      cudaMemPool_t pool;
      if (cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess) return;
      std::uint64_t keep = ~std::uint64_t{0};
      cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
      cudaGetLastError();
    });
  }
  void copy(const memory_space& dst_space, void* dst, const memory_space& src_space, const void* src,
            std::size_t bytes) const override {
    if (dst_space.is_host() && src_space.is_device() && bytes <= small_result_bytes) {
      // a reduction's value, a small result: through this thread's pinned block (a queued copy
      // and one wait cost less than CUDA's staging of a pageable copy)
      thread_local small_block block;
      if (block.p) {
        const cudaError_t e = cudaMemcpyAsync(block.p, src, bytes, cudaMemcpyDeviceToHost, cudaStreamLegacy);
        const cudaError_t w = e == cudaSuccess ? cudaStreamSynchronize(cudaStreamLegacy) : e;
        if (w != cudaSuccess)
          fail(w, "cudaMemcpy from " + to_string(src_space) + " to host (" + std::to_string(bytes) + " bytes)");
        std::memcpy(dst, block.p, bytes);
        queued.count = 0;
        return;
      }
    }
    // cudaMemcpyDefault: unified addressing tells host, device and peer copies apart
    const cudaError_t e = cudaMemcpy(dst, src, bytes, cudaMemcpyDefault);
    if (e != cudaSuccess)
      fail(e, "cudaMemcpy from " + to_string(src_space) + " to " + to_string(dst_space) + " (" + std::to_string(bytes) +
                  " bytes)");
    if (dst_space.is_host()) queued.count = 0; // a copy to the host waits for the work before it
  }
  void synchronize(int device) const override {
    call_counters::add(counters.waits);
    device_guard g(device);
    check(cudaDeviceSynchronize(), "a kernel on device " + std::to_string(device) + " (cudaDeviceSynchronize)");
    queued.count = 0;
  }

  void* create_stream(int device) const override {
    device_guard g(device);
    // a blocking stream: its work waits for the calls queued before it without a stream (the
    // legacy default stream's), and theirs for its (a default-order call after a stream's call)
    cudaStream_t st = nullptr;
    check(cudaStreamCreateWithFlags(&st, cudaStreamDefault), "cudaStreamCreate on device " + std::to_string(device));
#if UFX_WITH_NVTX
    if (nvtx_enabled()) { // Nsight Systems shows the name on the stream's row
      static std::atomic<long> streams{0};
      const std::string name =
          "ufx::cuda stream " + std::to_string(++streams) + " (device " + std::to_string(device) + ")";
      nvtxNameCudaStreamA(st, name.c_str());
    }
#endif
    return st;
  }
#if UFX_WITH_NVTX
  void name_for_profiler() const override {
    if (!available()) return;
    for (int d = 0; d < device_count(); ++d) nvtxNameCudaDeviceA(d, ("ufx::cuda device " + std::to_string(d)).c_str());
  }
#endif
  void destroy_stream(int device, void* s) const noexcept override {
    device_guard g(device);
    cudaStreamSynchronize(static_cast<cudaStream_t>(s));
    cudaStreamDestroy(static_cast<cudaStream_t>(s));
    cudaGetLastError();
  }
  void stream_synchronize(int device, void* s) const override {
    call_counters::add(counters.waits);
    check(cudaStreamSynchronize(static_cast<cudaStream_t>(s)),
          "work on a stream of device " + std::to_string(device) + " (cudaStreamSynchronize)");
  }
  void copy_async(const memory_space& dst_space, void* dst, const memory_space& src_space, const void* src,
                  std::size_t bytes, void* s) const override {
    call_counters::add(counters.queued_copies);
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, static_cast<cudaStream_t>(s)),
          "cudaMemcpyAsync from " + to_string(src_space) + " to " + to_string(dst_space) + " (" +
              std::to_string(bytes) + " bytes)");
  }
  // ---- graphs: CUDA's stream capture. Thread-local mode: this thread's calls that CUDA cannot capture fail (ufx
  // refuses them first, with its own message); other threads are free. A call's temporaries become the graph's memory
  // nodes (cudaMallocAsync / cudaFreeAsync on the capturing stream), allocated and freed within each replay.
  struct cuda_graph {
    int device = 0;
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    std::size_t nodes = 0;
  };
  void begin_capture(int device, void* s) const override {
    device_guard g(device);
    check(cudaStreamBeginCapture(static_cast<cudaStream_t>(s), cudaStreamCaptureModeThreadLocal),
          "cudaStreamBeginCapture on device " + std::to_string(device));
  }
  void* end_capture(int device, void* s, void* update) const override {
    device_guard guard(device);
    cudaGraph_t graph = nullptr;
    check(cudaStreamEndCapture(static_cast<cudaStream_t>(s), &graph),
          "cudaStreamEndCapture (the capture was invalidated by a call CUDA cannot record)");
    std::size_t nodes = 0;
    if (const cudaError_t e = cudaGraphGetNodes(graph, nullptr, &nodes); e != cudaSuccess) {
      cudaGraphDestroy(graph);
      check(e, "cudaGraphGetNodes");
    }
    auto* old = static_cast<cuda_graph*>(update);
    if (old) {
      cudaGraphExecUpdateResultInfo info{};
      if (cudaGraphExecUpdate(old->exec, graph, &info) == cudaSuccess) { // the same operations: new parameters only
        cudaGraphDestroy(old->graph);
        old->graph = graph;
        old->nodes = nodes;
        return old;
      }
      cudaGetLastError(); // not updatable (another topology, memory nodes): instantiated anew
    }
    cudaGraphExec_t exec = nullptr;
    if (const cudaError_t e = cudaGraphInstantiate(&exec, graph, 0); e != cudaSuccess) {
      cudaGraphDestroy(graph);
      check(e, "cudaGraphInstantiate"); // the old graph, if any, is left as it was
    }
    if (!old) return new cuda_graph{device, graph, exec, nodes};
    cudaGraphExecDestroy(old->exec); // replays already queued still run
    cudaGraphDestroy(old->graph);
    *old = cuda_graph{device, graph, exec, nodes};
    return old;
  }
  void abort_capture(int device, void* s) const noexcept override {
    try {
      device_guard guard(device);
      cudaGraph_t graph = nullptr;
      cudaStreamEndCapture(static_cast<cudaStream_t>(s), &graph);
      if (graph) cudaGraphDestroy(graph);
    } catch (...) {}
    cudaGetLastError();
  }
  void launch_graph(void* g, void* s) const override {
    auto* graph = static_cast<cuda_graph*>(g);
    device_guard guard(graph->device);
    check(cudaGraphLaunch(graph->exec, static_cast<cudaStream_t>(s)), "cudaGraphLaunch");
  }
  void destroy_graph(void* g) const noexcept override {
    auto* graph = static_cast<cuda_graph*>(g);
    cudaGraphExecDestroy(graph->exec);
    cudaGraphDestroy(graph->graph);
    cudaGetLastError();
    delete graph;
  }
  std::size_t graph_size(void* g) const override { return static_cast<cuda_graph*>(g)->nodes; }

  void* create_event(int device) const override {
    device_guard g(device);
    cudaEvent_t e = nullptr;
    check(cudaEventCreate(&e), "cudaEventCreate");
    return e;
  }
  void destroy_event(void* e) const noexcept override {
    cudaEventDestroy(static_cast<cudaEvent_t>(e));
    cudaGetLastError();
  }
  void record_event(void* e, void* s) const override {
    check(cudaEventRecord(static_cast<cudaEvent_t>(e), static_cast<cudaStream_t>(s)), "cudaEventRecord");
  }
  void wait_event(void* s, void* e) const override {
    check(cudaStreamWaitEvent(static_cast<cudaStream_t>(s), static_cast<cudaEvent_t>(e), 0), "cudaStreamWaitEvent");
  }
  void event_synchronize(void* e) const override {
    call_counters::add(counters.waits);
    check(cudaEventSynchronize(static_cast<cudaEvent_t>(e)), "cudaEventSynchronize");
  }
  bool event_done(void* e) const override {
    const cudaError_t r = cudaEventQuery(static_cast<cudaEvent_t>(e));
    if (r == cudaErrorNotReady) {
      cudaGetLastError();
      return false;
    }
    check(r, "cudaEventQuery");
    return true;
  }
  float event_elapsed_ms(void* a, void* b) const override {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(a), static_cast<cudaEvent_t>(b)), "cudaEventElapsedTime");
    return ms;
  }
  /// Calls without a stream run on the legacy default stream, ordered with every blocking stream (a user's there too).
  void* ordered_stream(int) const override { return reinterpret_cast<void*>(cudaStreamLegacy); }
  bool copies_by_dma() const override { return true; }
  void* host_allocate_pinned(std::size_t bytes) const override {
    if (!available()) return nullptr;
    void* p = nullptr;
    check(cudaHostAlloc(&p, bytes == 0 ? 1 : bytes, cudaHostAllocPortable),
          "cudaHostAlloc(" + std::to_string(bytes) + " bytes)");
    return p;
  }
  void host_free_pinned(void* p) const noexcept override {
    cudaFreeHost(p);
    cudaGetLastError();
  }
  void host_register(const void* p, std::size_t bytes) const override {
    if (!available()) return;
    check(cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterPortable),
          "cudaHostRegister(" + std::to_string(bytes) + " bytes)");
  }
  void host_unregister(const void* p) const noexcept override {
    if (!available()) return;
    cudaHostUnregister(const_cast<void*>(p));
    cudaGetLastError();
  }
  int device_of(const void* p, std::size_t) const noexcept override {
    if (!available() || p == nullptr) return -1;
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
      cudaGetLastError();
      return -1;
    }
    return (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged) ? a.device : -1;
  }
};

} // namespace

const device_runtime& cuda_runtime() noexcept {
  static const cuda_runtime_impl rt;
  return rt;
}

void note_queued(const char* call) noexcept {
  call_counters::add(cuda_runtime().counters.launches);
  queued.calls[queued.count % queued_record::kept] = call;
  ++queued.count;
}

[[noreturn]] void throw_cuda_error(int code, const char* what) { fail(static_cast<cudaError_t>(code), what); }

} // namespace detail

bool cuda_available() noexcept { return detail::probe().ok; }
std::string_view cuda_unavailable_reason() noexcept { return detail::probe().why; }
} // namespace ufx
