#pragma once
// ufx::cuda reductions, on the target's device, queued on the call's stream (without one, the legacy default stream)
// with their temporaries freed in its order; a result for the host is copied back by staging::finish, which is the
// call's one wait:
// - one output, dense, with an identity and one of ufx's ready operators: CUB's DeviceReduce, reading the plain
//   pointer (vector loads) when the map is the identity on one input, else a transform iterator over positions;
// - the same with a user's operator: CUB's DeviceReduce over each element seeded as an accumulator, op(identity, x),
//   so CUB's pairwise combining only combines accumulators, as the fold contract says (docs/reduce.md): for one input
//   through TransformReduce on its pointer (vector loads), else a transform iterator over positions;
// - otherwise device/reduce.hpp through the launch seam, as ufx::sim (tiles, rows or lanes), with the sim's results.
// CUB combines in its own order, so a full float sum may differ from the sim's in the last bits.
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/device/reduce.hpp"
#include "ufx/detail/body/map.hpp"
#include "ufx/detail/backend/cuda/launch.hpp"
#include "ufx/detail/step/transfer.hpp"

#if UFX_CUDA_TU
#  include <cub/device/device_reduce.cuh>
#  include <thrust/iterator/counting_iterator.h>
#  include <thrust/iterator/transform_iterator.h>
#  include <thrust/iterator/transform_output_iterator.h>
#endif

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// The reduction operator as CUB calls it: two accumulators (inputs convert to the accumulator).
template <class Kern>
struct cub_combine {
  Kern k;
  UFX_HD typename Kern::acc_type operator()(const typename Kern::acc_type& a, const typename Kern::acc_type& b) const {
    return k.combine(a, b);
  }
};

/// The mapped value at position i of a dense reduction (every input at offset i).
template <class Kern>
struct dense_mapped {
  Kern k;
  UFX_HD typename Kern::acc_type operator()(index_t i) const {
    index_t off[Kern::N];
    for (int j = 0; j < Kern::N; ++j) off[j] = i;
    return k.at(off);
  }
};

/// The accumulator a dense reduction's element at position i starts as: op(identity, x) for a user's operator
/// (Kern::seed), so CUB combines accumulators only.
template <class Kern>
struct dense_seeded {
  Kern k;
  UFX_HD typename Kern::acc_type operator()(index_t i) const { return k.seed(dense_mapped<Kern>{k}(i)); }
};

/// Whether CUB reads a reduction's elements seeded (dense_seeded): a user's operator.
template <class Kern>
constexpr bool cub_seeded() {
  return !seeds_with_elements<std::remove_cvref_t<decltype(std::declval<const Kern&>().op)>>;
}

/// One array input read as it is (identity map, a ready operator): CUB can take its pointer.
template <class Kern>
constexpr bool cub_plain() {
  if constexpr (cub_seeded<Kern>()) return false;
  else if constexpr (Kern::N == 1 &&
                     std::is_same_v<std::remove_cvref_t<decltype(std::declval<const Kern&>().f)>, identity>)
    return std::remove_cvref_t<decltype(get<0>(std::declval<const Kern&>().in))>::is_array;
  else return false;
}

/// One array input whose elements CUB maps (and seeds) as it loads them: TransformReduce reads the pointer with vector
/// loads, which a transform iterator over positions (dense_mapped, dense_seeded) does not allow.
template <class Kern>
constexpr bool cub_transformed() {
  if constexpr (cub_plain<Kern>() || Kern::N != 1) return false;
  else return std::remove_cvref_t<decltype(get<0>(std::declval<const Kern&>().in))>::is_array;
}

/// Whether CUB takes the reduction: one output, an identity, every array input dense along the one reduced dimension.
template <class Kern, int N>
bool cub_reducible(const reduce_plan<N>& plan, const Kern& k) {
  // the identity: CUB's initial value, and the seed of a user's operator's elements (dense_seeded)
  if (!k.has_identity || plan.outputs() != 1 || plan.kept.rank != 0 || plan.red.rank != 1 || plan.count() == 0)
    return false;
  for (int j = 1; j < N; ++j)
    if (!(plan.red.scalar_mask & (1u << j)) && plan.red.stride[j][0] != 1) return false;
  return true;
}

#if UFX_CUDA_TU
/// An input's pointer as CUB reads it: float16 and bfloat16 as CUDA's __half and __nv_bfloat16 (the same bits), which
/// CUB counts as primitive types and loads several at a time (ufx's own class it would read an element a load).
template <class E>
auto cub_pointer(E* p) {
  if constexpr (std::is_same_v<std::remove_cv_t<E>, float16>) return reinterpret_cast<const __half*>(p);
  else if constexpr (std::is_same_v<std::remove_cv_t<E>, bfloat16>) return reinterpret_cast<const __nv_bfloat16*>(p);
  else return p;
}
/// An element CUB read through cub_pointer, as ufx's type again.
template <class E>
UFX_HD auto from_cub(const E& x) {
  if constexpr (std::is_same_v<E, __half>) return float16(x);
  else if constexpr (std::is_same_v<E, __nv_bfloat16>) return bfloat16(x);
  else return x;
}

/// An element's accumulator as a dense reduction of one input starts it: the map applied, then op(identity, .) for a
/// user's operator (as dense_seeded does for a position).
template <class Kern>
struct value_mapped {
  Kern k;
  template <class E>
  UFX_HD typename Kern::acc_type operator()(const E& x) const {
    const auto v = static_cast<typename Kern::acc_type>(UFX_USER_CALL(k.f, from_cub(x)));
    if constexpr (cub_seeded<Kern>()) return k.seed(v);
    else return v;
  }
};

/// The elements CUB reads: one input's pointer (identity map: vector loads), else positions mapped (and seeded).
template <class Kern>
auto cub_input(const Kern& k) {
  if constexpr (cub_plain<Kern>()) return cub_pointer(get<0>(k.in).p);
  else if constexpr (cub_seeded<Kern>())
    return thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), dense_seeded<Kern>{k});
  else return thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), dense_mapped<Kern>{k});
}

/// What CUB's last kernel writes through for a whole reduction: fin(result), as OutE.
template <class Acc, class OutE, class Fin>
struct finish_cast {
  Fin fin;
  UFX_HD OutE operator()(const Acc& a) const { return static_cast<OutE>(fin(a)); }
};

/// One output: CUB's DeviceReduce over every element, writing fin(result) straight into the output (a transform output
/// iterator: no partial to allocate, no finishing kernel).
template <class Kern, int N, class OutE, class Fin>
void cub_reduce_whole(const cuda_t& t, const memory_space& space, const reduce_plan<N>& plan, const Kern& k, OutE* out,
                      const Fin& fin) {
  const auto stream = static_cast<cudaStream_t>(t.stream_handle); // null: the default stream
  index_t first[N];
  loop_offsets(plan.kept, 0, first);
  const auto result =
      thrust::make_transform_output_iterator(out + first[0], finish_cast<typename Kern::acc_type, OutE, Fin>{fin});
  const cub_combine<Kern> op{k};
  auto run = [&](void* temp, std::size_t& bytes) { // temp null: only the size of the temporary storage, in bytes
    if constexpr (cub_transformed<Kern>()) {
      const auto* input = cub_pointer(get<0>(k.in).p);
      const value_mapped<Kern> map{k};
      cuda_check(
          cub::DeviceReduce::TransformReduce(temp, bytes, input, result, plan.count(), op, map, k.identity, stream),
          "cub::DeviceReduce::TransformReduce");
    } else {
      cuda_check(cub::DeviceReduce::Reduce(temp, bytes, cub_input(k), result, plan.count(), op, k.identity, stream),
                 "cub::DeviceReduce");
    }
  };
  std::size_t bytes = 0;
  run(nullptr, bytes);
  buffer<char> temp(space, static_cast<index_t>(bytes), t.stream_handle);
  run(temp.data(), bytes);
  note_queued(current_call); // counted as one launch (CUB may run two kernels)
}

#endif

template <>
struct reduce_hook<cuda_t> {
  template <class Kern, int N, class OutE, class Fin, class Res>
  static void run(const cuda_t& t, const reduce_plan<N>& plan, const Kern& k, OutE* out, const Fin& fin,
                  const Res& empty) {
#if UFX_CUDA_TU
    const cuda_scope scope(t);
    if (cub_reducible(plan, k)) cub_reduce_whole(t, scope.space(), plan, k, out, fin);
    else device_reduce_all(t, scope.space(), plan, k, out, fin, empty); // as the sim: tiles, rows or lanes
      // nothing waits here: the call is queued on its stream (without one, the legacy default stream);
      // staging::finish's copy of a result to the host is what waits (place.hpp)
#else
    (void)plan, (void)k, (void)out, (void)fin, (void)empty;
    cuda_not_compiled(t);
#endif
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
