# Finds what ufx builds on and collects it into the interface target ufx_deps:
# C++20, OpenMP and oneTBB (ufx::host), Thrust (CUDA toolkit's CCCL, else Debian's libthrust-dev),
# Eigen 3 (optional: the Eigen adapter), and the CUDA toolkit (optional: ufx::cuda).
include(GNUInstallDirs)
include(CheckLanguage)

set(UFX_WITH_CUDA OFF)
if(UFX_ENABLE_CUDA)
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS "$ENV{CUDA_HOME}/bin/nvcc")
    set(CMAKE_CUDA_COMPILER "$ENV{CUDA_HOME}/bin/nvcc")
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    include(${CMAKE_CURRENT_LIST_DIR}/UfxCudaArchitectures.cmake)
    find_package(CUDAToolkit)
    if(CUDAToolkit_FOUND)
      set(UFX_WITH_CUDA ON)
    endif()
  endif()
endif()

find_package(OpenMP COMPONENTS CXX)
# ufx::host's scheduler: oneTBB's work stealing (Debian's libtbb-dev) when found, else OpenMP's
# parallel regions (include/ufx/detail/cpu/executor.hpp says why; docs/performance.md measures it).
set(UFX_HOST_SCHEDULER "auto" CACHE STRING "ufx::host's scheduler: auto (oneTBB when found, else OpenMP), tbb or openmp")
set_property(CACHE UFX_HOST_SCHEDULER PROPERTY STRINGS auto tbb openmp)
set(UFX_WITH_TBB OFF)
if(NOT UFX_HOST_SCHEDULER STREQUAL "openmp")
  find_package(TBB QUIET CONFIG)
  if(TBB_FOUND AND TARGET TBB::tbb)
    set(UFX_WITH_TBB ON)
  elseif(UFX_HOST_SCHEDULER STREQUAL "tbb")
    message(FATAL_ERROR "UFX_HOST_SCHEDULER=tbb, but oneTBB was not found (Debian: libtbb-dev)")
  else()
    message(STATUS "ufx: oneTBB not found (Debian: libtbb-dev): ufx::host schedules with OpenMP, whose calls wait for descheduled threads on a loaded machine")
  endif()
endif()
find_package(Eigen3 3.3 NO_MODULE QUIET)
# Boost.Context (Debian's libboost-context-dev): the fibers that run a raw kernel's block threads on
# the host, so t.sync() is a real barrier (src/sim/block.cpp). Without it raw kernels throw.
find_package(Boost 1.74 QUIET CONFIG COMPONENTS context)
if(Boost_FOUND AND TARGET Boost::context)
  set(UFX_WITH_BOOST_CONTEXT ON)
else()
  set(UFX_WITH_BOOST_CONTEXT OFF)
  message(WARNING "Boost.Context not found (install libboost-context-dev): ufx::kernel cannot run on ufx::sim or the CPU targets")
endif()

# Thrust: CCCL from the toolkit when present, else the system's.
include(${CMAKE_CURRENT_LIST_DIR}/UfxFindThrust.cmake)
if(NOT UFX_THRUST_INCLUDE_DIR)
  message(FATAL_ERROR "ufx needs Thrust: install the CUDA toolkit or Debian's libthrust-dev")
endif()

add_library(ufx_deps INTERFACE)
if(OpenMP_CXX_FOUND)
  target_link_libraries(ufx_deps INTERFACE OpenMP::OpenMP_CXX)
  target_compile_options(ufx_deps INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>)
else()
  message(WARNING "OpenMP not found: ufx::host will run on one thread")
endif()
if(UFX_WITH_TBB)
  target_link_libraries(ufx_deps INTERFACE TBB::tbb)
  target_compile_definitions(ufx_deps INTERFACE UFX_WITH_TBB=1)
endif()
if(Eigen3_FOUND)
  target_link_libraries(ufx_deps INTERFACE Eigen3::Eigen)
endif()
if(UFX_WITH_CUDA)
  target_link_libraries(ufx_deps INTERFACE CUDA::cudart)
  # nvcc's "calling a __host__ function from a __host__ __device__ function" (20011, 20014) is an
  # error, for the project's own __host__ __device__ code. (ufx's does not rely on it: nvcc drops
  # every diagnostic raised in a system header, --diag-error ones included, and a find_package(ufx)
  # project sees ufx's headers as system headers. ufx calls the user's function in device code
  # through a __device__ function, config.hpp's UFX_USER_CALL, where a host-only one is an error
  # nvcc reports everywhere: tests/consumer/find_package_cuda_hd.) 20012 ("__host__
  # annotation is ignored on a function that is explicitly defaulted") stays suppressed: Eigen's
  # DenseStorage declares such functions. 20013 and 20015 (constexpr __host__ calls) need no
  # suppression: --expt-relaxed-constexpr allows those calls, and ufx's build with Eigen shows none.
  target_compile_options(ufx_deps INTERFACE
    $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda --expt-relaxed-constexpr --diag-error=20011,20014 -Xcudafe=--diag_suppress=20012>)
  # CMake 3.25 does not know nvcc 13's standard levels, so name the flag directly
  target_compile_options(ufx_deps INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20>)
endif()
message(STATUS "ufx: CUDA ${UFX_WITH_CUDA}, OpenMP ${OpenMP_CXX_FOUND}, oneTBB ${UFX_WITH_TBB}, Eigen ${Eigen3_FOUND}, Boost.Context ${UFX_WITH_BOOST_CONTEXT}, Thrust ${UFX_THRUST_INCLUDE_DIR}")
