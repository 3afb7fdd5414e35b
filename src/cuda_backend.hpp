#pragma once
// The CUDA runtime calls ufx's compiled part makes. Implemented in cuda_backend.cpp when the CUDA
// toolkit is found, else in no_cuda_backend.cpp; nothing here includes CUDA headers.
#include <cstddef>

namespace ufx::detail::cuda_backend {
void* malloc(std::size_t bytes);
void free(void* p) noexcept;
void copy(void* dst, const void* src, std::size_t bytes);
void synchronize();
} // namespace ufx::detail::cuda_backend
