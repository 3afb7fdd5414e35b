# The CUDA architectures ufx's kernels are built for when the project has not chosen them.
# Included once the CUDA language is enabled: by UfxDependencies.cmake (ufx built on its own or
# added with add_subdirectory) and by the installed ufxConfig.cmake (find_package(ufx); there only
# when the consumer has enabled CUDA), so a consumer's own targets get the same default.
#
# CMake's default is the compiler's (compute_75 for nvcc 13): a GPU of today then JIT-compiles
# every kernel at its first launch (minutes for ufx's tests on an H100). ufx's default instead:
#   - `native` when CMake saw a GPU at configure time (CMAKE_CUDA_ARCHITECTURES_NATIVE is set);
#   - else UFX_CUDA_FALLBACK_ARCHITECTURES, by default "80-real;90": real code for sm_80 (A100
#     class) and sm_90 (H100 class) plus compute_90 PTX, which newer GPUs JIT-compile.
# A choice made by the project or the user is kept: -DCMAKE_CUDA_ARCHITECTURES=... (or a preset's
# cache variable, or an edit of the cache), the CUDAARCHS environment variable, or
# set(CMAKE_CUDA_ARCHITECTURES ...) before this runs. ufx recognises CMake's default by the
# help string CMake gives the cache entry it creates ("CUDA architectures"), and its own by the
# value it stored; anything else is the user's.
function(_ufx_default_cuda_architectures)
  set(help_cmake "CUDA architectures")
  set(help_ufx "CUDA architectures (ufx's default: native with a GPU visible at configure time, else UFX_CUDA_FALLBACK_ARCHITECTURES; set this to choose)")
  set(why "")
  if(NOT "$ENV{CUDAARCHS}" STREQUAL "")
    set(why "the CUDAARCHS environment variable")
  elseif(NOT DEFINED CACHE{CMAKE_CUDA_ARCHITECTURES})
    if(DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(why "the project")
    endif()
  else()
    get_property(help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
    if(NOT "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "$CACHE{CMAKE_CUDA_ARCHITECTURES}")
      set(why "the project") # a normal variable hides the cache entry
    elseif(help STREQUAL help_cmake)
      # CMake's default: replaced below
    elseif(help STREQUAL help_ufx AND "$CACHE{CMAKE_CUDA_ARCHITECTURES}" STREQUAL "$CACHE{_UFX_CUDA_ARCHITECTURES_SET}")
      # ufx's own default from an earlier run: worked out again below
    else()
      set(why "the cache (-DCMAKE_CUDA_ARCHITECTURES or an edit)")
    endif()
  endif()
  if(NOT why STREQUAL "")
    set(UFX_CUDA_ARCHITECTURES_ORIGIN "${why}" PARENT_SCOPE)
    return()
  endif()
  if(CMAKE_CUDA_ARCHITECTURES_NATIVE)
    set(archs native)
  else()
    set(archs "${UFX_CUDA_FALLBACK_ARCHITECTURES}")
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${archs}" CACHE STRING "${help_ufx}" FORCE)
  set(_UFX_CUDA_ARCHITECTURES_SET "${archs}" CACHE INTERNAL "the CUDA architectures ufx's default chose")
  set(UFX_CUDA_ARCHITECTURES_ORIGIN "ufx's default" PARENT_SCOPE)
endfunction()

get_property(_ufx_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
if("CUDA" IN_LIST _ufx_languages)
  set(UFX_CUDA_FALLBACK_ARCHITECTURES "80-real;90" CACHE STRING
      "CUDA architectures of ufx's default when no GPU is visible at configure time")
  _ufx_default_cuda_architectures()
  if(NOT ufx_FIND_QUIETLY)
    message(STATUS "ufx: CUDA architectures ${CMAKE_CUDA_ARCHITECTURES} (from ${UFX_CUDA_ARCHITECTURES_ORIGIN})")
  endif()
endif()
unset(_ufx_languages)
