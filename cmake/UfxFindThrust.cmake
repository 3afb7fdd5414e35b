# Sets UFX_THRUST_INCLUDE_DIR: CCCL from the CUDA toolkit when present, else the system's Thrust
# (Debian's libthrust-dev). Used when ufx is built and again by the installed ufxConfig.cmake, so
# a consumer finds Thrust where its own machine has it instead of a path baked in at build time.
# Reads UFX_WITH_CUDA and, when it is on, CUDAToolkit_INCLUDE_DIRS.
#
# The directory holding thrust/version.h is searched in this order:
#   1. with CUDA, each entry of CUDAToolkit_INCLUDE_DIRS, first with a cccl/ suffix, then as it is.
#      That variable is a list: CMake 3.x gives <toolkit>/include (CUDA 13 keeps Thrust in its
#      cccl/ subfolder, CUDA 12 directly there); CMake 4.x gives <toolkit>/include;<toolkit>/include/cccl.
#   2. $ENV{CUDA_HOME}/include/cccl, then $ENV{CUDA_HOME}/include.
#   3. the system (find_path: /usr/include, /usr/local/include, CMAKE_PREFIX_PATH).
set(_ufx_thrust_candidates "")
if(UFX_WITH_CUDA)
  foreach(_ufx_dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
    list(APPEND _ufx_thrust_candidates "${_ufx_dir}/cccl" "${_ufx_dir}")
  endforeach()
endif()
if(DEFINED ENV{CUDA_HOME} AND NOT "$ENV{CUDA_HOME}" STREQUAL "")
  list(APPEND _ufx_thrust_candidates "$ENV{CUDA_HOME}/include/cccl" "$ENV{CUDA_HOME}/include")
endif()
unset(_ufx_thrust_found)
foreach(_ufx_dir IN LISTS _ufx_thrust_candidates)
  if(EXISTS "${_ufx_dir}/thrust/version.h")
    set(_ufx_thrust_found "${_ufx_dir}")
    break()
  endif()
endforeach()
if(DEFINED _ufx_thrust_found)
  set(UFX_THRUST_INCLUDE_DIR "${_ufx_thrust_found}")
else()
  find_path(UFX_THRUST_INCLUDE_DIR thrust/version.h PATHS /usr/include /usr/local/include)
endif()
unset(_ufx_thrust_candidates)
unset(_ufx_thrust_found)
unset(_ufx_dir)
