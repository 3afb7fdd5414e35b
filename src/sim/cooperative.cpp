// A cooperative launch: every block resident at once, as on a GPU. The blocks run in turn on the calling thread, each
// until all its threads wait at a grid_sync (or have returned); when every thread of the grid waits at the same
// grid_sync, it opens (grid barrier divergence otherwise). Each block has its own shared memory and fiber stacks, so a
// block keeps its state while the others run.
#include "sim/block.hpp"

#include <memory>
#include <optional>
#include <string>

namespace ufx::detail {

#if UFX_WITH_BOOST_CONTEXT
namespace sim_impl {
namespace {

using grid_blocks = std::vector<std::unique_ptr<sim_block>>;

/// Block k of the grid with its own shared memory, its threads started.
std::unique_ptr<sim_block> make_block(worker& w, const launch_run& r, unsigned k) {
  auto b = std::make_unique<sim_block>();
  b->shared.own_shared.resize(r.shared_bytes + 16);
  b->shared.own_init.resize(r.shared_bytes + 1);
  const auto p = reinterpret_cast<std::uintptr_t>(b->shared.own_shared.data());
  b->bind(w, r, k, b->shared.own_shared.data() + ((16 - p % 16) % 16), b->shared.own_init.data());
  b->threads.stack_base = k * r.threads;
  b->threads.start(*b);
  return b;
}

/// Where the grid's blocks stopped in a pass: the lowest at a grid_sync and the lowest whose threads all returned.
struct grid_pass {
  std::optional<unsigned> waiting, done;
};

/// Runs each block (in the seeded order) until its threads wait at a grid_sync or have returned.
grid_pass run_pass(grid_blocks& grid, std::uint64_t seed, order_rng& block_rng, std::vector<unsigned>& block_order) {
  const auto blocks = static_cast<unsigned>(grid.size());
  grid_pass pass;
  if (seed) block_rng.permute(block_order, blocks);
  for (unsigned o = 0; o < blocks; ++o) {
    const unsigned k = seed ? block_order[o] : o;
    sim_block& b = *grid[k];
    sim_current_block = &b.state;
    const bool at_grid = std::any_of(b.threads.slots.begin(), b.threads.slots.end(),
                                     [](const thread_slot& s) { return s.state != slot_state::done; }) &&
                         b.advance();
    std::optional<unsigned>& lowest = at_grid ? pass.waiting : pass.done;
    if (!lowest || k < *lowest) lowest = k;
  }
  return pass;
}

/// Every block waits at the same grid_sync (block `waiting` does); else reported.
void check_grid_barrier(const grid_blocks& grid, const grid_pass& pass) {
  const sim_block& first = *grid[*pass.waiting];
  if (pass.done)
    grid[*pass.done]->ctx.fail(0, "grid barrier divergence: the threads of this block returned while those of block " +
                                      format_dim3(first.ctx.block_idx) + " wait at t.grid_sync() on line " +
                                      std::to_string(first.grid_line()) +
                                      " (every thread of the grid must reach each grid_sync)");
  for (const auto& b : grid)
    if (b->grid_line() != first.grid_line())
      b->ctx.fail(0, "grid barrier divergence: this block's threads wait at t.grid_sync() on line " +
                         std::to_string(b->grid_line()) + " while those of block " + format_dim3(first.ctx.block_idx) +
                         " wait at t.grid_sync() on line " + std::to_string(first.grid_line()) +
                         " (every thread of the grid must reach the same "
                         "grid_sync calls)");
}

} // namespace

void run_cooperative(const launch_run& r) {
  const auto blocks = static_cast<unsigned>(r.l.config.grid.count());
  order_rng block_rng{r.launch_seed};
  std::vector<unsigned> block_order;
  worker& w = this_worker();
  w.stacks.reserve(blocks * r.threads, sim_fiber_stack_bytes());
  w.prepare(r.shared_bytes, r.threads);
  const current_block_scope restore;
  grid_blocks grid(blocks);
  for (unsigned k = 0; k < blocks; ++k) grid[k] = make_block(w, r, k);
  w.next_epoch();
  try {
    for (;;) {
      const grid_pass pass = run_pass(grid, r.seed, block_rng, block_order);
      if (!pass.waiting) return; // every thread has returned
      check_grid_barrier(grid, pass);
      for (auto& b : grid) b->release_grid();
      if (r.checks) ++r.checks->grid_epoch; // every access so far is ordered before those to come
    }
  } catch (...) {
    // a failure: every block's fibers end on their own stacks before the error leaves
    for (auto& b : grid)
      if (!b->threads.slots.empty()) b->abandon();
    throw;
  }
}

} // namespace sim_impl
#endif // UFX_WITH_BOOST_CONTEXT

} // namespace ufx::detail
