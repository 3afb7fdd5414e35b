// Instantiates ufx's device kernels for float32 add and sum (compiled to PTX only; never run) so
// check_ptx.py can read their code: local memory, load widths, registers (tests/CMakeLists.txt).
#include <ufx/ufx.hpp>

#include "gufunc_cores.hpp"

#include "tutorial_kernels.hpp"

struct add_f {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};
struct plus_f {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};
struct pt {
  float x, y, z;
};
struct gauss {
  UFX_HD float operator()(const pt& a, const pt& b) const {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return ::expf(-(dx * dx + dy * dy + dz * dz));
  }
};

/// The benchmark's Gaussian kernel with the fast exp (bench_cuda's gauss_sum/ufx_cuda_fast_exp).
struct gauss_fast {
  float inv_s;
  UFX_HD float operator()(const pt& a, const pt& b) const {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return ufx::math::fast::exp(-(dx * dx + dy * dy + dz * dz) * inv_s);
  }
};

void instantiate_add(ufx::device_array<float, 1>& x, ufx::device_array<float, 1>& y, ufx::device_array<float, 1>& z) {
  auto add = ufx::vectorize(add_f{});
  add(ufx::cuda, x, y, ufx::out(z));
}

void instantiate_broadcast(ufx::device_array<float, 2>& a, ufx::device_array<float, 2>& b,
                           ufx::device_array<float, 2>& c) {
  auto add = ufx::vectorize(add_f{});
  add(ufx::cuda, a, b, ufx::out(c));
}

float instantiate_sum(ufx::device_array<float, 1>& x) {
  auto sum = ufx::reducer(plus_f{}, 0.0f);
  return sum(ufx::cuda, x);
}

void instantiate_axis_sum(ufx::device_array<float, 2>& m, ufx::device_array<float, 1>& out) {
  auto sum = ufx::reducer(plus_f{}, 0.0f);
  sum(ufx::cuda, m, ufx::axis{1}, ufx::out(out));
  sum(ufx::cuda, m, ufx::axis{0}, ufx::out(out));
  ufx::sum(ufx::cuda, m, ufx::axis{1}, ufx::out(out)); // a ready operator: the row body too
}

// float16: the dense add loads 8 halves in each 16-byte access; CUB's sum reads them as __half (vector loads)
struct add_h {
  UFX_HD ufx::float16 operator()(ufx::float16 a, ufx::float16 b) const { return a + b; }
};
void instantiate_add_f16(ufx::device_array<ufx::float16, 1>& x, ufx::device_array<ufx::float16, 1>& z) {
  ufx::vectorize(add_h{})(ufx::cuda, x, x, ufx::out(z));
}
ufx::float16 instantiate_sum_f16(ufx::device_array<ufx::float16, 1>& x) { return ufx::sum(ufx::cuda, x); }

// raw kernels: the tutorial's add and shared-memory tiled matmul
// the 4x4 matmul gufunc: the staged body (cores through shared memory) beside the per-thread one
void instantiate_gufunc(ufx::device_array<float, 3>& a, ufx::device_array<float, 3>& c) {
  ufx::guvectorize<"(4,4),(4,4)->(4,4)">(ufx_test::matmul_f{})(ufx::cuda, a, a, ufx::out(c));
}

void instantiate_kernels(ufx::device_array<float, 1>& x, ufx::device_array<float, 2>& a) {
  ufx::kernel(tutorial::vector_add{}, "add").forall(x.size())(ufx::cuda, x, x, x);
  ufx::kernel(tutorial::tiled_matmul{}, "tiled")[{{4, 4}, {tutorial::TPB, tutorial::TPB}}](ufx::cuda, a, a, a);
}

// warp-level code: a shuffle reduction of each warp, a block_reduce, the three fences
struct warp_sum {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<const float, 1> x, ufx::ndview<float, 1> out) const {
    const auto i = t.grid<1>();
    float v = i < x.extent(0) ? x(i) : 0.f;
    for (unsigned d = 16; d > 0; d /= 2) v += t.shfl_down_sync(0xffffffffu, v, d);
    if (t.lane_id() == 0) ufx::atomic_add(out(0), v);
  }
};
struct block_sum_k {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<float[32]> scratch, ufx::ndview<const float, 1> x,
                         ufx::ndview<float, 1> out) const {
    const auto i = t.grid<1>();
    const float s = ufx::block_reduce(t, scratch, i < x.extent(0) ? x(i) : 0.f, plus_f{});
    if (t.thread_rank() == 0) out(t.block_idx().x) = s;
  }
};
struct fences_k {
  UFX_HD void operator()(const ufx::thread&, ufx::ndview<int, 1> a) const {
    a(0) += 1;
    ufx::threadfence_block();
    a(1) += 1;
    ufx::threadfence();
    a(2) += 1;
    ufx::threadfence_system();
    a(3) += 1;
  }
};
struct grid_rows_k { // a grid_sync per row (numba's sequential_rows)
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<int, 2> m) const {
    const auto col = t.grid<1>();
    for (ufx::index_t row = 1; row < m.extent(0); ++row) {
      m(row, col) = m(row - 1, m.extent(1) - col - 1) + 1;
      t.grid_sync();
    }
  }
};
long long instantiate_cooperative(ufx::device_array<int, 2>& m) {
  auto k = ufx::kernel(grid_rows_k{}, "rows");
  k[ufx::cooperative({8, 32})](ufx::cuda, m);
  return k.max_cooperative_grid(32, 0, ufx::cuda);
}

void instantiate_warp(ufx::device_array<float, 1>& x, ufx::device_array<int, 1>& a) {
  ufx::kernel(warp_sum{}, "warp_sum").forall(x.size())(ufx::cuda, x, x);
  ufx::kernel(block_sum_k{}, "block_sum").forall(x.size())(ufx::cuda, x, x);
  ufx::kernel(fences_k{}, "fences")[{1, 1}](ufx::cuda, a);
}

// the tiled reduction (a block body): KeOps's Gaussian sum over (n, 1) and (m) point operands
void instantiate_keops(ufx::device_array<pt, 2>& x, ufx::device_array<pt, 1>& y, ufx::device_array<float, 1>& r) {
  ufx::transform_reduce(ufx::cuda, x, y, gauss{}, ufx::plus{}, 0.f, ufx::axis{1}, ufx::out(r));
  ufx::transform_reduce(ufx::cuda, x, y, gauss_fast{4.f}, ufx::plus{}, 0.f, ufx::axis{1}, ufx::out(r));
}
