# Sets UFX_THRUST_INCLUDE_DIR: CCCL from the CUDA toolkit when present, else the system's Thrust
# (Debian's libthrust-dev). Used when ufx is built and again by the installed ufxConfig.cmake, so
# a consumer finds Thrust where its own machine has it instead of a path baked in at build time.
# Reads UFX_WITH_CUDA and, when it is on, CUDAToolkit_INCLUDE_DIRS.
if(UFX_WITH_CUDA AND EXISTS "${CUDAToolkit_INCLUDE_DIRS}/cccl/thrust/version.h")
  set(UFX_THRUST_INCLUDE_DIR "${CUDAToolkit_INCLUDE_DIRS}/cccl")
elseif(NOT UFX_WITH_CUDA AND DEFINED ENV{CUDA_HOME} AND EXISTS "$ENV{CUDA_HOME}/include/cccl/thrust/version.h")
  set(UFX_THRUST_INCLUDE_DIR "$ENV{CUDA_HOME}/include/cccl")
else()
  find_path(UFX_THRUST_INCLUDE_DIR thrust/version.h PATHS /usr/include /usr/local/include)
endif()
